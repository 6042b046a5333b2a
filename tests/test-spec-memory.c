/* test-spec-memory.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One prediction everywhere, in the window: the memory card the
 * Hugging Face and File pages show (HrSpecMemory) gives a model the total
 * the Models page gives the same model under the same scenario, with every
 * runtime the scenario offers, and says which method made the figures.
 * gemma3:1b is the model: its sliding-window layers are where the seed's
 * plain math (every layer the whole context) and the runtime part.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "gui-test-util.h"
#include "hr-catalog.h"
#include "hr-models-page-private.h"
#include "hr-spec-memory-private.h"
#include "hr-window-private.h"

static char *isolated_root;

static void
settle (void)
{
  spin (100);
}

static void
test_same_total_as_models_page (void)
{
  static const struct { HrScenarioRuntime runtime; const char *method; } runtimes[] = {
    { HR_SCENARIO_RUNTIME_OLLAMA_0_30, "Sized by: Ollama 0.30 and newer (llama-server buffers)." },
    { HR_SCENARIO_RUNTIME_OLLAMA_0_12, "Sized by: Ollama up to 0.12 (the old estimator)." },
    { HR_SCENARIO_RUNTIME_NONE, "Sized by: the seed's weights + KV cache (teaching mode, not a server's figure)." },
  };
  HrWindow *window;
  HrModelsPage *models;
  HrScenario *scenario;
  HrSpecMemory *card;
  const HrModelSpec *listed;
  guint64 totals[G_N_ELEMENTS (runtimes)];

  reset_settings (1100, 900);
  window = g_object_ref_sink (HR_WINDOW (g_object_new (HR_TYPE_WINDOW, NULL)));
  gtk_window_present (GTK_WINDOW (window));
  models = hr_window_get_models_page (window);
  g_assert_true (iterate_until (widget_is_drawn, models, 5000));
  scenario = hr_page_get_scenario (HR_PAGE (models));
  listed = hr_catalog_find (hr_session_get_catalog (hr_page_get_session (HR_PAGE (models))), "gemma3:1b");
  g_assert_nonnull (listed);

  /* The card as the pages hold it: the window's scenario, the model as a
   * spec that is not a catalog row (the Hub or a file gave it). */
  card = g_object_ref_sink (HR_SPEC_MEMORY (hr_spec_memory_new ()));
  hr_spec_memory_set_scenario (card, scenario);
  hr_spec_memory_set_spec (card, listed);
  hr_scenario_set_context_tokens (scenario, 16384);

  for (guint i = 0; i < G_N_ELEMENTS (runtimes); i++)
    {
      const HrEvaluation *on_card, *on_page;

      hr_scenario_set_runtime (scenario, runtimes[i].runtime);
      settle ();
      on_card = hr_spec_memory_get_evaluation (card);
      on_page = hr_model_row_get_evaluation (hr_models_page_find_row (models, "gemma3:1b"));
      g_assert_nonnull (on_card);
      g_assert_cmpuint (hr_scenario_get_context_tokens (scenario), ==, 16384);
      g_assert_cmpuint (on_card->footprint.total, ==, on_page->footprint.total);
      g_assert_cmpuint (on_card->footprint.weights, ==, on_page->footprint.weights);
      g_assert_cmpuint (on_card->footprint.kv_cache, ==, on_page->footprint.kv_cache);
      g_assert_cmpuint (on_card->footprint.overhead, ==, on_page->footprint.overhead);
      g_assert_cmpint (on_card->verdict, ==, on_page->verdict);
      if (strstr (hr_spec_memory_get_scenario_text (card), runtimes[i].method) == NULL)
        g_error ("\"%s\" does not name the method \"%s\"", hr_spec_memory_get_scenario_text (card), runtimes[i].method);
      totals[i] = on_card->footprint.total;
    }
  /* The scenario line as written: no article to get wrong before the cache
   * type ("with an q8_0 KV cache"), "1 parallel slot" in the singular */
  hr_scenario_set_kv_cache_type (scenario, HR_KV_CACHE_Q8_0);
  hr_scenario_set_parallel_slots (scenario, 1);
  settle ();
  g_assert_true (g_str_has_prefix (hr_spec_memory_get_scenario_text (card),
                                   "On Jetson Orin Nano Super (budget 5.1 GB), KV cache q8_0, 1 parallel slot, as set on the Models page."));
  /* The runtime gives the 22 sliding-window layers 1,024 cells, the seed's
   * plain math all 16,384: the totals part, so the card did follow. */
  g_assert_cmpuint (totals[0], <, totals[2]);
  g_assert_cmpuint (totals[0], !=, totals[1]);

  g_object_unref (card);
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (window);
}

int
main (int   argc,
      char *argv[])
{
  /* Cairo, not GL: see test-gguf-page.c. */
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  g_test_add_func ("/spec-memory/same-total-as-models-page", test_same_total_as_models_page);

  return gui_test_run_and_clean (NULL, &isolated_root);
}
