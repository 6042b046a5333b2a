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

static const struct { HrScenarioRuntime runtime; const char *method; } runtimes[] = {
  { HR_SCENARIO_RUNTIME_OLLAMA_0_30, "Sized by: Ollama 0.30 and newer (llama-server buffers)." },
  { HR_SCENARIO_RUNTIME_OLLAMA_0_12, "Sized by: Ollama up to 0.12 (the old estimator)." },
  { HR_SCENARIO_RUNTIME_NONE, "Sized by: the seed's weights + KV cache (teaching mode, not a server's figure)." },
};

/* The card's story: gemma3:1b on a card and on the Models page of one
 * window at 16,384 tokens, under each runtime, then another scenario. */
typedef struct {
  HrWindow     *window;
  HrModelsPage *models;
  HrScenario   *scenario;
  HrSpecMemory *card;
  guint64       totals[G_N_ELEMENTS (runtimes)];   /* the card's, per runtime */
} Card;

static Card card;

/* The card as the pages hold it: the window's scenario, the model as a
 * spec that is not a catalog row (the Hub or a file gave it). */
static void
card_open (gpointer data)
{
  Card *c = data;
  const HrModelSpec *listed;

  reset_settings (1100, 900);
  c->window = g_object_ref_sink (HR_WINDOW (g_object_new (HR_TYPE_WINDOW, NULL)));
  gtk_window_present (GTK_WINDOW (c->window));
  c->models = hr_window_get_models_page (c->window);
  g_assert_true (iterate_until (widget_is_drawn, c->models, 5000));
  c->scenario = hr_page_get_scenario (HR_PAGE (c->models));
  listed = hr_catalog_find (hr_session_get_catalog (hr_page_get_session (HR_PAGE (c->models))), "gemma3:1b");
  g_assert_nonnull (listed);
  c->card = g_object_ref_sink (HR_SPEC_MEMORY (hr_spec_memory_new ()));
  hr_spec_memory_set_scenario (c->card, c->scenario);
  hr_spec_memory_set_spec (c->card, listed);
  hr_scenario_set_context_tokens (c->scenario, 16384);
}

static void
card_close (void)
{
  g_object_unref (card.card);
  gtk_window_destroy (GTK_WINDOW (card.window));
  spin (50);
  g_assert_finalize_object (card.window);
}

/* Under runtimes[@i]: the card's figures are the page's, and it names
 * the method. */
static void
assert_card_is_page (Card  *c,
                     guint  i)
{
  const HrEvaluation *on_card, *on_page;

  hr_scenario_set_runtime (c->scenario, runtimes[i].runtime);
  settle ();
  on_card = hr_spec_memory_get_evaluation (c->card);
  on_page = hr_model_row_get_evaluation (hr_models_page_find_row (c->models, "gemma3:1b"));
  g_assert_nonnull (on_card);
  g_assert_cmpuint (hr_scenario_get_context_tokens (c->scenario), ==, 16384);
  g_assert_cmpuint (on_card->footprint.total, ==, on_page->footprint.total);
  g_assert_cmpuint (on_card->footprint.weights, ==, on_page->footprint.weights);
  g_assert_cmpuint (on_card->footprint.kv_cache, ==, on_page->footprint.kv_cache);
  g_assert_cmpuint (on_card->footprint.overhead, ==, on_page->footprint.overhead);
  g_assert_cmpint (on_card->verdict, ==, on_page->verdict);
  if (strstr (hr_spec_memory_get_scenario_text (c->card), runtimes[i].method) == NULL)
    g_error ("\"%s\" does not name the method \"%s\"", hr_spec_memory_get_scenario_text (c->card), runtimes[i].method);
  c->totals[i] = on_card->footprint.total;
}

static void
test_card_ollama_0_30 (Card          *c,
                       gconstpointer  data)
{
  assert_card_is_page (c, 0);
}

static void
test_card_ollama_0_12 (Card          *c,
                       gconstpointer  data)
{
  assert_card_is_page (c, 1);
}

static void
test_card_seed_math (Card          *c,
                     gconstpointer  data)
{
  assert_card_is_page (c, 2);
}

/* The runtime gives the 22 sliding-window layers 1,024 cells, the seed's
 * plain math all 16,384: the totals part, so the card did follow. */
static void
test_card_followed (Card          *c,
                    gconstpointer  data)
{
  g_assert_cmpuint (c->totals[0], <, c->totals[2]);
  g_assert_cmpuint (c->totals[0], !=, c->totals[1]);
}

/* The scenario line as written: no article to get wrong before the cache
 * type ("with an q8_0 KV cache"), "1 parallel slot" in the singular */
static void
test_card_scenario_line (Card          *c,
                         gconstpointer  data)
{
  hr_scenario_set_kv_cache_type (c->scenario, HR_KV_CACHE_Q8_0);
  hr_scenario_set_parallel_slots (c->scenario, 1);
  settle ();
  g_assert_true (g_str_has_prefix (hr_spec_memory_get_scenario_text (c->card),
                                   "On Jetson Orin Nano Super (budget 5.1 GB), KV cache q8_0, 1 parallel slot, as set on the Models page."));
}

static const GuiTestStep card_steps[] = {
  { "/spec-memory/same-total-as-models-page/ollama-0-30", (GTestFixtureFunc) test_card_ollama_0_30 },
  { "/spec-memory/same-total-as-models-page/ollama-0-12", (GTestFixtureFunc) test_card_ollama_0_12 },
  { "/spec-memory/same-total-as-models-page/seed-math", (GTestFixtureFunc) test_card_seed_math },
  { "/spec-memory/same-total-as-models-page/card-followed", (GTestFixtureFunc) test_card_followed },
  { "/spec-memory/same-total-as-models-page/scenario-line", (GTestFixtureFunc) test_card_scenario_line },
};

static GuiTestStory card_story = {
  "same-total", card_open, card_close, card_steps, G_N_ELEMENTS (card_steps), &card, sizeof (Card), 0
};

int
main (int   argc,
      char *argv[])
{
  /* Cairo, not GL: see test-gguf-page.c. */
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  gui_test_story_add (&card_story);

  return gui_test_run_and_clean (NULL, &isolated_root);
}
