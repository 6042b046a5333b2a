/* test-runtime-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Models page with a runtime model, under Xvfb: the Ollama 0.30 runtime
 * on the DGX Spark with phi4 at 4,096 tokens (the prediction the core
 * computes, and the seed's "ollama ps" 9.7 GB, docs/seed-figures.md
 * "What Ollama reported"), the explain panel's era and terms, a learned overhead from a
 * synthetic measurement as its own chart segment with its explanation, the
 * Boards view with the seed's verdicts at 4,096 tokens and its CSV, and the
 * unified-memory note.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "hr-application.h"
#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-gui-format.h"
#include "hr-runtime.h"
#include "hr-session.h"
#include "hr-models-page-private.h"
#include "hr-page.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

static char *isolated_root;
static HrApplication *test_app;

typedef struct {
  HrWindow     *window;
  HrModelsPage *page;
} Fixture;

/* What the rows were last evaluated under. */
static const HrEvaluationInputs *
page_inputs (HrModelsPage *page)
{
  return hr_scenario_peek_evaluation_inputs (hr_page_get_scenario (HR_PAGE (page)));
}

/* The controls, found as a person finds them: by their rows' titles. */
static AdwComboRow *
board_row (HrModelsPage *page)
{
  AdwPreferencesRow *row = find_titled_row (GTK_WIDGET (page), "_Board");

  g_assert_true (ADW_IS_COMBO_ROW (row));
  return ADW_COMBO_ROW (row);
}

static void
open_window (Fixture *f)
{
  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  reset_settings (1280, 800);
  g_assert_null (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_application_activate (G_APPLICATION (test_app));

  f->window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (f->window);
  g_object_ref (f->window);
  f->page = hr_window_get_models_page (f->window);
  g_assert_true (iterate_until (widget_is_drawn, f->page, 5000));
  spin (200);
}

static void
close_window (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (50);
  g_assert_finalize_object (f->window);
}

/* GTK 4.8's column view can warn that it snapshots a row it has not
 * allocated when its rows change several times before a frame is drawn;
 * a person never moves that fast. Let a few frames pass between steps. */
static void
settle (void)
{
  spin (300);
}

static void
select_board (Fixture    *f,
              const char *id)
{
  GPtrArray *boards = hr_session_get_boards (hr_page_get_session (HR_PAGE (f->page)));

  for (guint i = 0; i < boards->len; i++)
    if (g_strcmp0 (((HrBoard *) g_ptr_array_index (boards, i))->id, id) == 0)
      {
        adw_combo_row_set_selected (board_row (f->page), i);
        g_assert_cmpstr (page_inputs (f->page)->board->id, ==, id);
        settle ();
        return;
      }
  g_assert_not_reached ();
}

static gboolean
list_is_searched (gpointer data)
{
  Fixture *f = data;

  GPtrArray *catalog = hr_session_get_catalog (hr_page_get_session (HR_PAGE (f->page)));
  guint expected = 0;

  /* Every catalog name holding "phi4" (phi4, phi4-mini and the reasoning
   * models): the search has run when the table shows those and no more. */
  for (guint i = 0; i < catalog->len; i++)
    expected += strstr (((HrModelSpec *) g_ptr_array_index (catalog, i))->name, "phi4") != NULL;
  g_assert_cmpuint (expected, >=, 2);
  return g_list_model_get_n_items (hr_models_page_get_rows (f->page)) == expected;
}

/* phi4 selected after a search for it: near the top of the list, so the
 * column view does not scroll (GTK 4.8's list view can warn about
 * snapshotting a row it has not allocated yet right after scrolling). */
static HrModelRow *
select_phi4 (Fixture *f)
{
  HrModelRow *row;

  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "phi4");
  g_assert_true (iterate_until (list_is_searched, f, 2000));
  settle ();
  row = hr_models_page_find_row (f->page, "phi4");
  g_assert_nonnull (row);
  hr_models_page_select_row (f->page, row);
  return row;
}

/* phi4 from the built-in catalog, owned by the returned array. */
static GPtrArray *
load_catalog (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *catalog = hr_catalog_load_file (path, &error);

  g_assert_no_error (error);
  return catalog;
}

/* What the page asks the core for: Ollama 0.30, flash attention on, f16,
 * one slot, the file as pulled. */
static void
predict_phi4 (GPtrArray           *catalog,
              guint32              context,
              HrRuntimePrediction *p)
{
  const HrModelSpec *spec = hr_catalog_find (catalog, "phi4");
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;

  g_assert_nonnull (spec);
  hr_runtime_inputs_init (&in, spec, context);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.flash_attention = HR_FLASH_ATTENTION_ON;
  in.parallel_slots = 1;
  g_assert_true (hr_runtime_predict (&in, p, &error));
  g_assert_no_error (error);
}

static char *
expected_total_text (guint64 bytes)
{
  g_autofree char *count = hr_format_count (bytes);
  g_autofree char *size = hr_gui_format_size_both (bytes);
  g_autofree char *ps = hr_runtime_format_ps_size (bytes);

  return g_strdup_printf ("%s bytes = %s; ollama ps would show %s", count, size, ps);
}

/* ------------------------------------------------------------------ */

/* The phi4 story: the runtime chosen on the DGX Spark, phi4 selected,
 * then back to the plain math. */
typedef struct {
  Fixture              f;
  GPtrArray           *catalog;   /* the built-in catalog */
  HrRuntimePrediction *p;         /* the core's prediction of phi4 at 4,096 tokens */
  HrModelRow          *row;       /* phi4's, once selected */
} Phi4;

static Phi4 phi4;

static void
phi4_open (gpointer data)
{
  Phi4 *s = data;

  open_window (&s->f);
  s->catalog = load_catalog ();
  s->p = g_new0 (HrRuntimePrediction, 1);
  predict_phi4 (s->catalog, 4096, s->p);
}

static void
phi4_close (void)
{
  close_window (&phi4.f);
  g_clear_pointer (&phi4.catalog, g_ptr_array_unref);
  g_clear_pointer (&phi4.p, g_free);
}

/* The setting "runtime" is @expected. */
static void
assert_runtime_setting (const char *expected)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *runtime = g_settings_get_string (settings, "runtime");

  g_assert_cmpstr (runtime, ==, expected);
}

/* The default is the runtime of the board's server version (the newest
 * with none measured). */
static void
test_phi4_default_runtime (Phi4          *s,
                           gconstpointer  data)
{
  g_assert_cmpuint (adw_combo_row_get_selected (hr_models_page_get_runtime_row (s->f.page)), ==,
                    HR_SCENARIO_RUNTIME_BOARD);
  assert_runtime_setting ("board");
}

/* The seed's plain math, weights + KV cache, is a choice, with no learned
 * overhead. */
static void
test_phi4_plain_math (Phi4          *s,
                      gconstpointer  data)
{
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (s->f.page), HR_SCENARIO_RUNTIME_NONE);
  settle ();
  assert_runtime_setting ("seed");
  g_assert_null (hr_models_page_get_calibration_text (s->f.page));
}

/* Ollama 0.30 on the DGX Spark at 4,096 tokens, flash attention on. */
static void
test_phi4_ollama_0_30 (Phi4          *s,
                       gconstpointer  data)
{
  select_board (&s->f, "dgx-spark");
  g_assert_cmpuint (page_inputs (s->f.page)->context_tokens, ==, 4096);
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (s->f.page), 1);
  settle ();
  assert_runtime_setting ("ollama-0.30");
  g_assert_true (gtk_switch_get_active (hr_models_page_get_flash_switch (s->f.page)));
}

/* The core's own prediction, and the seed's figure: phi4 at 4,096 tokens
 * shows 9.7 GB in ollama ps. */
static void
test_phi4_total (Phi4          *s,
                 gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (s->f.page);
  g_autofree char *ps = hr_runtime_format_ps_size (s->p->total_bytes);
  g_autofree char *total = expected_total_text (s->p->total_bytes);

  s->row = select_phi4 (&s->f);
  spin (50);
  g_assert_cmpstr (ps, ==, "9.7 GB");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "runtime-total"), ==, total);
  g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "runtime-total"), "ollama ps would show 9.7 GB"));
}

/* The row: the ollama ps size plus what stays in host memory (the DGX
 * Spark is unified: the same memory); nothing learned yet. */
static void
test_phi4_row (Phi4          *s,
               gconstpointer  data)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (s->row);

  g_assert_cmpuint (e->footprint.total, ==, s->p->total_bytes + s->p->host_bytes);
  g_assert_cmpint (hr_model_row_get_learned_bytes (s->row), ==, 0);
  g_assert_cmpint (e->verdict, ==, HR_VERDICT_FITS);
}

/* The explain panel names the era and lists every term. */
static void
test_phi4_terms (Phi4          *s,
                 gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (s->f.page);
  const char *terms = hr_explain_panel_get_figure (panel, "runtime-terms");

  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "runtime"), ==, s->p->era_label);
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "runtime"), ==,
                   hr_runtime_era_label (HR_RUNTIME_ERA_OLLAMA_0_30));
  g_assert_nonnull (terms);
  for (guint i = 0; i < s->p->n_terms; i++)
    g_assert_nonnull (strstr (terms, s->p->terms[i].label));
  g_assert_nonnull (strstr (terms, "Weights on the GPU: 8,757,678,176 bytes"));
  g_assert_nonnull (strstr (terms, "KV cache: 838,860,800 bytes"));
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "learned"), ==,
                   "no memory size measured on this board yet: the overhead is the model's estimate");
}

/* The weights as the runtime places them (on the GPU, and token_embd in
 * the same unified memory); the ceiling stays the file's: 9.05 GB. */
static void
test_phi4_weights (Phi4          *s,
                   gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (s->f.page);
  const HrEvaluation *e = hr_model_row_get_evaluation (s->row);
  g_autofree char *count = hr_format_count (e->footprint.weights);
  g_autofree char *prefix = g_strdup_printf ("%s bytes = ", count);

  g_assert_cmpuint (e->footprint.weights, ==,
                    (guint64) hr_runtime_prediction_term_bytes (s->p, HR_RUNTIME_TERM_WEIGHTS) + s->p->host_bytes);
  g_assert_true (g_str_has_prefix (hr_explain_panel_get_figure (panel, "weights"), prefix));
  g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "weights"), "as the runtime loads them"));
  g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "ceiling"), "/ 9.05 GB weights ="));
}

/* Back to the plain math: the seed's figure for the row again. */
static void
test_phi4_back_to_plain (Phi4          *s,
                         gconstpointer  data)
{
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (s->f.page), 0);
  g_assert_cmpuint (hr_model_row_get_evaluation (s->row)->footprint.overhead, ==, 0);
  g_assert_null (hr_explain_panel_get_figure (hr_models_page_get_explain_panel (s->f.page), "runtime"));
}

static const GuiTestStep phi4_steps[] = {
  { "/runtime-view/phi4-on-dgx-spark/default-runtime", (GTestFixtureFunc) test_phi4_default_runtime },
  { "/runtime-view/phi4-on-dgx-spark/plain-math", (GTestFixtureFunc) test_phi4_plain_math },
  { "/runtime-view/phi4-on-dgx-spark/ollama-0-30", (GTestFixtureFunc) test_phi4_ollama_0_30 },
  { "/runtime-view/phi4-on-dgx-spark/total", (GTestFixtureFunc) test_phi4_total },
  { "/runtime-view/phi4-on-dgx-spark/row", (GTestFixtureFunc) test_phi4_row },
  { "/runtime-view/phi4-on-dgx-spark/terms", (GTestFixtureFunc) test_phi4_terms },
  { "/runtime-view/phi4-on-dgx-spark/weights", (GTestFixtureFunc) test_phi4_weights },
  { "/runtime-view/phi4-on-dgx-spark/back-to-plain", (GTestFixtureFunc) test_phi4_back_to_plain },
};

static GuiTestStory phi4_story = {
  "phi4-on-dgx-spark", phi4_open, phi4_close, phi4_steps, G_N_ELEMENTS (phi4_steps), &phi4, sizeof (Phi4), 0
};

/* The learned overhead's cases: a synthetic measurement, in which Ollama
 * reported 0.2 GB (200,000,000 bytes) more than the runtime model
 * predicts at 2,048 and 4,096 tokens, then one window on the DGX Spark,
 * Ollama 0.30, phi4 selected. */
typedef struct {
  Fixture              f;
  HrRuntimePrediction *p4096;      /* the prediction at 4,096 tokens */
  char                *expected;   /* the calibration's own description */
  char                *path;       /* the measurement's file */
  HrModelRow          *row;        /* phi4's */
} Learned;

static Learned learned;

/* Writes the measurement of phi4's sizes on the DGX Spark at @path. */
static void
write_phi4_sizes (GPtrArray           *catalog,
                  const char          *path,
                  HrRuntimePrediction *p4096)
{
  g_autofree HrRuntimePrediction *p2048 = g_new0 (HrRuntimePrediction, 1);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;

  predict_phi4 (catalog, 2048, p2048);
  predict_phi4 (catalog, 4096, p4096);
  json = g_strdup_printf ("{\"board\": \"dgx-spark\", \"model\": \"phi4\", \"date\": \"2026-11-01\", "
                          "\"runtime_version\": \"ollama 0.31.2\", \"source\": \"test-runtime-view\", "
                          "\"decode_tps\": {\"mean\": 23.4}, \"sizes\": ["
                          "{\"context_tokens\": 2048, \"reported_bytes\": %" G_GUINT64_FORMAT "}, "
                          "{\"context_tokens\": 4096, \"reported_bytes\": %" G_GUINT64_FORMAT "}]}",
                          p2048->total_bytes + 200000000, p4096->total_bytes + 200000000);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
}

static void
learned_open (gpointer data)
{
  Learned *l = data;
  g_autoptr(GPtrArray) catalog = load_catalog ();
  g_autofree char *dir = hr_data_measurements_dir ();
  const HrResidualPoint points[] = { { 2048, 200000000 }, { 4096, 200000000 } };
  HrCalibration cal;

  l->path = g_build_filename (dir, "dgx-spark-phi4-sizes.json", NULL);
  l->p4096 = g_new0 (HrRuntimePrediction, 1);
  write_phi4_sizes (catalog, l->path, l->p4096);
  g_assert_true (hr_calibration_fit (points, G_N_ELEMENTS (points), &cal, NULL));
  l->expected = hr_calibration_describe (&cal);
  open_window (&l->f);
  select_board (&l->f, "dgx-spark");
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (l->f.page), 1);
  settle ();
  l->row = select_phi4 (&l->f);
  spin (100);
}

static void
learned_close (void)
{
  close_window (&learned.f);
  g_assert_cmpint (g_unlink (learned.path), ==, 0);
  g_clear_pointer (&learned.path, g_free);
  g_clear_pointer (&learned.expected, g_free);
  g_clear_pointer (&learned.p4096, g_free);
}

static void
test_learned_described (Learned       *l,
                        gconstpointer  data)
{
  g_assert_true (g_str_has_prefix (l->expected, "learned from 2 measurements on this board"));
  g_assert_cmpstr (hr_models_page_get_calibration_text (l->f.page), ==, l->expected);
}

/* The row adds what was learned to the prediction. */
static void
test_learned_row (Learned       *l,
                  gconstpointer  data)
{
  g_assert_cmpint (hr_model_row_get_learned_bytes (l->row), ==, 200000000);
  g_assert_cmpuint (hr_model_row_get_evaluation (l->row)->footprint.total, ==,
                    l->p4096->total_bytes + l->p4096->host_bytes + 200000000);
}

static void
test_learned_explain (Learned       *l,
                      gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (l->f.page);

  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "learned"), ==, l->expected);
  g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "runtime-terms"),
                            "Learned overhead: 200,000,000 bytes"));
}

/* The pool column: the learned overhead as its own segment. */
static void
test_learned_pool_segment (Learned       *l,
                           gconstpointer  data)
{
  HrMemoryChart *chart = hr_models_page_get_pool_chart (l->f.page);
  g_autofree char *expected = g_strdup_printf ("phi4: Learned overhead\n200,000,000 bytes = "
                                               "0.2 GB (0.19 GiB)\n%s", l->expected);
  gboolean found_tooltip = FALSE;

  g_assert_true (iterate_until (widget_is_drawn, chart, 2000));
  spin (100);
  g_assert_nonnull (strstr (hr_memory_chart_get_description (chart), "Learned overhead 0.2 GB"));
  for (int y = 0; y < gtk_widget_get_height (GTK_WIDGET (chart)) && !found_tooltip; y++)
    for (int x = 0; x < 80 && !found_tooltip; x += 4)
      {
        g_autofree char *tooltip = hr_memory_chart_get_tooltip_at (chart, x, y);

        if (tooltip != NULL && g_str_has_prefix (tooltip, "phi4: Learned overhead\n"))
          {
            g_assert_cmpstr (tooltip, ==, expected);
            found_tooltip = TRUE;
          }
      }
  g_assert_true (found_tooltip);
}

/* The list's chart says it in its description too. */
static void
test_learned_models_chart (Learned       *l,
                           gconstpointer  data)
{
  g_assert_nonnull (strstr (hr_memory_chart_get_description (hr_models_page_get_memory_chart (l->f.page)),
                            l->expected));
}

static const GuiTestStep learned_steps[] = {
  { "/runtime-view/learned-overhead/described", (GTestFixtureFunc) test_learned_described },
  { "/runtime-view/learned-overhead/row", (GTestFixtureFunc) test_learned_row },
  { "/runtime-view/learned-overhead/explain", (GTestFixtureFunc) test_learned_explain },
  { "/runtime-view/learned-overhead/pool-segment", (GTestFixtureFunc) test_learned_pool_segment },
  { "/runtime-view/learned-overhead/models-chart", (GTestFixtureFunc) test_learned_models_chart },
};

static GuiTestStory learned_story = {
  "learned-overhead", learned_open, learned_close, learned_steps, G_N_ELEMENTS (learned_steps),
  &learned, sizeof (Learned), 0
};

/* The Boards view's cases share one window showing the Boards view, on
 * the seed's plain math, each on its board and context. */
typedef struct {
  const char *board;   /* the board the Models page shows */
  double      scale;   /* the context slider's position */
} BoardsState;

/* The seed's board at 4,096 tokens (the slider's 12); the RTX 3060 12 GB
 * chosen at 32,768 tokens (15); the seed's board again at 32,768. */
static const BoardsState on_seed = { "jetson-orin-nano-super", 12 };
static const BoardsState on_rtx = { "rtx-3060-12gb", 15 };
static const BoardsState on_seed_32k = { "jetson-orin-nano-super", 15 };

static const struct { const char *model; const char *verdict; HrVerdict v; } seed[] = {
  { "qwen2.5:0.5b", "fits", HR_VERDICT_FITS },
  { "gemma2:2b", "fits", HR_VERDICT_FITS },
  { "llama3.2:3b", "fits", HR_VERDICT_FITS },
  { "llama3.1:8b", "tight", HR_VERDICT_TIGHT },
  { "qwen2.5:14b", "over", HR_VERDICT_OVER },
};

static Fixture boards;

static void
boards_close (void)
{
  select_board (&boards, on_seed.board);
  gtk_range_set_value (hr_models_page_get_context_scale (boards.page), on_seed.scale);
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (boards.page), "models");
  close_window (&boards);
}

static void
boards_setup (Fixture       *f,
              gconstpointer  data)
{
  const BoardsState *state = data;
  GtkRange *scale;

  if (!gui_test_is_shared ("boards-view"))
    {
      open_window (&boards);
      gui_test_share ("boards-view", boards_close);
      /* The seed's figures: its plain math. */
      use_seed_runtime ();
      settle ();
      gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (boards.page), "boards");
      g_assert_true (iterate_until (widget_is_drawn, hr_models_page_get_boards_view (boards.page), 2000));
    }
  *f = boards;
  if (g_strcmp0 (page_inputs (f->page)->board->id, state->board) != 0)
    select_board (f, state->board);
  scale = hr_models_page_get_context_scale (f->page);
  if (gtk_range_get_value (scale) != state->scale)
    {
      gtk_range_set_value (scale, state->scale);
      settle ();
    }
}

static char *
boards_cell (Fixture    *f,
             const char *model,
             const char *board)
{
  return hr_boards_view_get_cell_text (hr_models_page_get_boards_view (f->page), model, board);
}

static void
test_boards_view_n_boards (Fixture       *f,
                           gconstpointer  data)
{
  g_assert_cmpuint (hr_boards_view_get_n_boards (hr_models_page_get_boards_view (f->page)), ==,
                    hr_session_get_boards (hr_page_get_session (HR_PAGE (f->page)))->len);
}

/* The seed's board's column holds the Models list's evaluations. */
static void
test_boards_view_seed_verdicts (Fixture       *f,
                                gconstpointer  data)
{
  HrBoardsView *view = hr_models_page_get_boards_view (f->page);

  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      const HrEvaluation *e = hr_boards_view_get_evaluation (view, seed[i].model, "jetson-orin-nano-super");
      const HrEvaluation *listed = hr_model_row_get_evaluation (hr_models_page_find_row (f->page, seed[i].model));

      g_assert_nonnull (e);
      g_assert_cmpint (e->verdict, ==, seed[i].v);
      g_assert_cmpuint (e->margin_bytes, ==, listed->margin_bytes);
      g_assert_cmpuint (e->footprint.total, ==, listed->footprint.total);
    }
}

/* docs/seed-figures.md: "llama3.2:3b fits, 2.63 GB under budget", measured 18.4 t/s */
static void
test_boards_view_seed_cell (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *cell = boards_cell (f, "llama3.2:3b", "jetson-orin-nano-super");

  g_assert_cmpstr (cell, ==, "fits · 2.63 GB · 18.4 t/s measured");
}

/* The recommendation on the Jetson is the Models list's own (the built-in
 * catalog holds more than the seed's five models). */
static void
test_boards_view_recommended (Fixture       *f,
                              gconstpointer  data)
{
  const char *listed_best = NULL;
  GListModel *rows = hr_models_page_get_rows (f->page);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);

      if (hr_model_row_get_recommended (row))
        listed_best = hr_model_row_get_name (row);
    }
  g_assert_nonnull (listed_best);
  g_assert_cmpstr (hr_boards_view_get_recommended (hr_models_page_get_boards_view (f->page),
                                                   "jetson-orin-nano-super"), ==, listed_best);
}

/* Export while the Boards view shows: its CSV's lines (freed by the caller). */
static GStrv
export_boards_csv (Fixture *f)
{
  g_autofree char *csv_path = g_build_filename (isolated_root, "boards.csv", NULL);
  g_autofree char *csv = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_models_page_export_csv (f->page, csv_path, &error));
  g_assert_no_error (error);
  g_file_get_contents (csv_path, &csv, NULL, &error);
  g_assert_no_error (error);
  g_unlink (csv_path);
  return g_strsplit (csv, "\r\n", -1);
}

/* The export's header holds the inputs. */
static void
test_boards_view_export_header (Fixture       *f,
                                gconstpointer  data)
{
  g_auto(GStrv) lines = export_boards_csv (f);

  g_assert_cmpstr (lines[0], ==, "# Headroom: Jetson Orin Nano Super (jetson-orin-nano-super), precision as pulled, "
                                 "context 4,096 tokens, KV cache f16, 1 parallel slot");
  g_assert_cmpstr (lines[1], ==, "model,board,board_name,verdict,margin_bytes,footprint_bytes,tps,source,speed,recommended");
}

/* Each seed model's line: its verdict, margin and footprint, and whether
 * it is the recommendation. */
static void
test_boards_view_export_rows (Fixture       *f,
                              gconstpointer  data)
{
  HrBoardsView *view = hr_models_page_get_boards_view (f->page);
  const char *best = hr_boards_view_get_recommended (view, "jetson-orin-nano-super");
  g_auto(GStrv) lines = export_boards_csv (f);

  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      const HrEvaluation *e = hr_boards_view_get_evaluation (view, seed[i].model, "jetson-orin-nano-super");
      g_autofree char *prefix = g_strdup_printf ("%s,jetson-orin-nano-super,Jetson Orin Nano Super,%s,%" G_GUINT64_FORMAT
                                                 ",%" G_GUINT64_FORMAT ",",
                                                 seed[i].model, seed[i].verdict, e->margin_bytes, e->footprint.total);
      gboolean found = FALSE;

      for (guint l = 2; lines[l] != NULL; l++)
        if (g_str_has_prefix (lines[l], prefix))
          {
            found = TRUE;
            g_assert_true (g_str_has_suffix (lines[l], g_strcmp0 (seed[i].model, best) == 0 ? ",yes" : ",no"));
          }
      g_assert_true (found);
    }
}

/* With the RTX 3060 12 GB board chosen, its column shows the
 * split and the prior rate, as `headroom-cli fit` and `dashboard` do at
 * 32,768 tokens. */
static void
test_boards_view_rtx_split (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *cell = boards_cell (f, "qwen2.5:14b", "rtx-3060-12gb");

  g_assert_cmpuint (hr_scenario_get_context_tokens (hr_page_get_scenario (HR_PAGE (f->page))), ==, 32768);
  g_assert_cmpstr (cell, ==, "partial 34/49 · 10.65 GB VRAM + 5.27 GB host · 11.0 t/s predicted");
}

/* A board with several GPUs says where the model sits: llama3.1:70b on
 * 2 x RTX 3090 at 32,768 tokens, as `headroom-cli predict llama3.1:70b
 * --board 2x-rtx-3090 --context 32768` places it (GPU 0 blocks 10-44,
 * GPU 1 blocks 45-79 and the output layer, 10 blocks on the CPU). */
static void
test_boards_view_two_gpus (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *cell = boards_cell (f, "llama3.1:70b", "2x-rtx-3090");

  g_assert_cmpstr (cell, ==, "partial 71/81 · 47.15 GB VRAM + 7.55 GB host · 5.1 t/s predicted · 2 GPUs 35+36 layers");
}

/* The runtime sizes the catalog's exact parameter count, 8,030,261,248
 * (Ollama docs/api.md), and blob, 4,920,738,944 bytes, not the seed's
 * rounded 8B and 4.9 GB; the seed's column keeps its measured rate. */
static void
test_boards_view_rtx_fits (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *cell = boards_cell (f, "llama3.1:8b", "rtx-3060-12gb");
  g_autofree char *seed_cell = boards_cell (f, "llama3.2:3b", "jetson-orin-nano-super");

  g_assert_cmpstr (cell, ==, "fits · 2.27 GB · 49.2 t/s predicted");
  g_assert_true (g_str_has_suffix (seed_cell, " t/s measured"));
}

/* With the Jetson selected, the RTX column keeps its own kind's prior
 * (discrete NVIDIA), the 49.2p and 11.0p of `headroom-cli matrix --boards
 * rtx-3060-12gb,jetson-orin-nano-super --context 32768`. */
static void
test_boards_view_other_board_prior (Fixture       *f,
                                    gconstpointer  data)
{
  g_autofree char *fits = boards_cell (f, "llama3.1:8b", "rtx-3060-12gb");
  g_autofree char *split = boards_cell (f, "qwen2.5:14b", "rtx-3060-12gb");

  g_assert_cmpuint (hr_scenario_get_context_tokens (hr_page_get_scenario (HR_PAGE (f->page))), ==, 32768);
  g_assert_cmpstr (fits, ==, "fits · 2.27 GB · 49.2 t/s predicted");
  g_assert_cmpstr (split, ==, "partial 34/49 · 10.65 GB VRAM + 5.27 GB host · 11.0 t/s predicted");
}

static void
test_runtime_unified_note (void)
{
  Fixture f;
  GtkLabel *note;

  open_window (&f);
  note = hr_models_page_get_pool_note (f.page);

  select_board (&f, "dgx-spark");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (note)));
  g_assert_nonnull (strstr (gtk_label_get_text (note), "nvidia-smi reports no memory figure on these boards"));

  select_board (&f, "rtx-3090");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (note)));

  close_window (&f);
}

static gboolean
vision_is_searched (gpointer data)
{
  Fixture *f = data;

  return g_list_model_get_n_items (hr_models_page_get_rows (f->page)) == 1;
}

/* A vision model in the table: phi4 with an 851,251,104-byte projector
 * (a test figure) under Ollama 0.30 on the DGX Spark. The explain panel
 * lists the projector as its own term, in bytes, GB and GiB; the row's
 * total carries it, in the overhead, and says it apart. */
static void
test_runtime_projector (void)
{
  Fixture f;
  g_autoptr(GPtrArray) catalog = load_catalog ();
  g_autoptr(HrModelSpec) vision = hr_model_spec_copy (hr_catalog_find (catalog, "phi4"));
  g_autoptr(GError) error = NULL;
  g_autofree HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  g_autofree char *size = hr_gui_format_size_both (851251104);
  g_autofree char *expected = g_strdup_printf ("Vision projector: 851,251,104 bytes = %s", size);
  HrExplainPanel *panel;
  HrModelRow *row;
  const char *terms;

  g_free (vision->name);
  vision->name = g_strdup ("phi4-vision-test");
  vision->projector_bytes = 851251104;
  open_window (&f);
  panel = hr_models_page_get_explain_panel (f.page);
  select_board (&f, "dgx-spark");
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), 1);
  settle ();
  g_assert_true (hr_session_add_model (hr_page_get_session (HR_PAGE (f.page)), vision, &error));
  g_assert_no_error (error);
  settle ();
  gtk_editable_set_text (hr_models_page_get_search_entry (f.page), "phi4-vision-test");
  g_assert_true (iterate_until (vision_is_searched, &f, 2000));
  settle ();
  row = hr_models_page_find_row (f.page, "phi4-vision-test");
  g_assert_nonnull (row);
  hr_models_page_select_row (f.page, row);
  spin (50);

  terms = hr_explain_panel_get_figure (panel, "runtime-terms");
  g_assert_nonnull (terms);
  if (strstr (terms, expected) == NULL)
    g_error ("no “%s” in:\n%s", expected, terms);
  g_assert_cmpuint (hr_model_row_get_projector_bytes (row), ==, 851251104);
  predict_phi4 (catalog, 4096, p);
  /* phi4's own total and host bytes, and the projector on top */
  g_assert_cmpuint (hr_model_row_get_evaluation (row)->footprint.total, ==, p->total_bytes + p->host_bytes + 851251104);
  gtk_editable_set_text (hr_models_page_get_search_entry (f.page), "");
  settle ();
  close_window (&f);
}

/* The draft model row: off until the llama-server runtime, then a
 * catalog model whose terms the explain panel lists for phi4 (-c 4,096,
 * 4 unified slots: llama3.2:1b's 16 x 8 x (64 + 64) x 4,096 x 2 bytes of
 * f16 KV) and whose bytes the row's total carries. */
static void
test_runtime_draft (void)
{
  Fixture f;
  g_autofree char *kv_size = hr_gui_format_size_both (134217728);
  g_autofree char *expected = g_strdup_printf ("Draft: KV cache: 134,217,728 bytes = %s", kv_size);
  HrScenario *scenario;
  AdwPreferencesRow *found;
  AdwComboRow *draft;
  GListModel *names;
  HrExplainPanel *panel;
  HrModelRow *row;
  const char *terms;
  guint64 before;
  guint index = 0;

  open_window (&f);
  panel = hr_models_page_get_explain_panel (f.page);
  scenario = hr_page_get_scenario (HR_PAGE (f.page));
  found = find_titled_row (GTK_WIDGET (f.page), "_Draft model");
  g_assert_true (ADW_IS_COMBO_ROW (found));
  draft = ADW_COMBO_ROW (found);
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), HR_SCENARIO_RUNTIME_NONE);
  g_assert_cmpint (hr_scenario_get_runtime (scenario), ==, HR_SCENARIO_RUNTIME_NONE);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (draft)));
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (draft)));
  names = adw_combo_row_get_model (draft);
  g_assert_cmpuint (g_list_model_get_n_items (names), ==,
                    hr_session_get_catalog (hr_page_get_session (HR_PAGE (f.page)))->len + 1);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 0), ==, "None");
  for (guint i = 1; i < g_list_model_get_n_items (names); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (names), i), "llama3.2:1b") == 0)
      index = i;
  g_assert_cmpuint (index, >, 0);

  select_board (&f, "dgx-spark");
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  settle ();
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (draft)));
  row = select_phi4 (&f);
  before = hr_model_row_get_evaluation (row)->footprint.total;
  adw_combo_row_set_selected (draft, index);
  settle ();
  g_assert_cmpstr (hr_scenario_get_draft_model (scenario), ==, "llama3.2:1b");
  terms = hr_explain_panel_get_figure (panel, "runtime-terms");
  g_assert_nonnull (terms);
  if (strstr (terms, expected) == NULL)
    g_error ("no “%s” in:\n%s", expected, terms);
  g_assert_cmpuint (hr_model_row_get_evaluation (row)->footprint.total, >, before + 134217728);

  adw_combo_row_set_selected (draft, 0);
  settle ();
  g_assert_cmpstr (hr_scenario_get_draft_model (scenario), ==, "");
  g_assert_cmpuint (hr_model_row_get_evaluation (row)->footprint.total, ==, before);
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), 0);
  gtk_editable_set_text (hr_models_page_get_search_entry (f.page), "");
  settle ();
  close_window (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* As test-window.c: cairo, whose rendering LeakSanitizer can follow. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED);

  gui_test_story_add (&phi4_story);
  gui_test_story_add (&learned_story);
  g_test_add ("/runtime-view/boards-view/n-boards", Fixture, &on_seed,
              boards_setup, test_boards_view_n_boards, NULL);
  g_test_add ("/runtime-view/boards-view/seed-verdicts", Fixture, &on_seed,
              boards_setup, test_boards_view_seed_verdicts, NULL);
  g_test_add ("/runtime-view/boards-view/seed-cell", Fixture, &on_seed,
              boards_setup, test_boards_view_seed_cell, NULL);
  g_test_add ("/runtime-view/boards-view/recommended", Fixture, &on_seed,
              boards_setup, test_boards_view_recommended, NULL);
  g_test_add ("/runtime-view/boards-view/export-header", Fixture, &on_seed,
              boards_setup, test_boards_view_export_header, NULL);
  g_test_add ("/runtime-view/boards-view/export-rows", Fixture, &on_seed,
              boards_setup, test_boards_view_export_rows, NULL);
  g_test_add ("/runtime-view/boards-view/rtx-split", Fixture, &on_rtx,
              boards_setup, test_boards_view_rtx_split, NULL);
  g_test_add ("/runtime-view/boards-view/two-gpus", Fixture, &on_rtx,
              boards_setup, test_boards_view_two_gpus, NULL);
  g_test_add ("/runtime-view/boards-view/rtx-fits", Fixture, &on_rtx,
              boards_setup, test_boards_view_rtx_fits, NULL);
  g_test_add ("/runtime-view/boards-view/other-board-prior", Fixture, &on_seed_32k,
              boards_setup, test_boards_view_other_board_prior, NULL);
  g_test_add_func ("/runtime-view/unified-note", test_runtime_unified_note);
  g_test_add_func ("/runtime-view/projector", test_runtime_projector);
  g_test_add_func ("/runtime-view/draft", test_runtime_draft);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
