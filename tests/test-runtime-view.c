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

static void
test_runtime_phi4_on_dgx_spark (void)
{
  Fixture f;
  g_autoptr(GPtrArray) catalog = load_catalog ();
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  g_autofree char *ps = NULL;
  g_autofree char *total = NULL;
  g_autofree char *runtime = NULL;
  HrExplainPanel *panel;
  HrModelRow *row;
  const HrEvaluation *e;
  const char *terms;

  open_window (&f);
  panel = hr_models_page_get_explain_panel (f.page);

  /* The default is the runtime of the board's server version (the newest
   * with none measured); the seed's plain math, weights + KV cache, is a
   * choice, with no learned overhead. */
  g_assert_cmpuint (adw_combo_row_get_selected (hr_models_page_get_runtime_row (f.page)), ==, HR_SCENARIO_RUNTIME_BOARD);
  runtime = g_settings_get_string (settings, "runtime");
  g_assert_cmpstr (runtime, ==, "board");
  g_clear_pointer (&runtime, g_free);
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), HR_SCENARIO_RUNTIME_NONE);
  settle ();
  runtime = g_settings_get_string (settings, "runtime");
  g_assert_cmpstr (runtime, ==, "seed");
  g_clear_pointer (&runtime, g_free);
  g_assert_null (hr_models_page_get_calibration_text (f.page));

  select_board (&f, "dgx-spark");
  g_assert_cmpuint (page_inputs (f.page)->context_tokens, ==, 4096);
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), 1);
  settle ();
  runtime = g_settings_get_string (settings, "runtime");
  g_assert_cmpstr (runtime, ==, "ollama-0.30");
  g_assert_true (gtk_switch_get_active (hr_models_page_get_flash_switch (f.page)));

  row = select_phi4 (&f);
  spin (50);

  /* The core's own prediction, and the seed's figure: phi4 at 4,096 tokens
   * shows 9.7 GB in ollama ps. */
  predict_phi4 (catalog, 4096, p);
  ps = hr_runtime_format_ps_size (p->total_bytes);
  g_assert_cmpstr (ps, ==, "9.7 GB");
  total = expected_total_text (p->total_bytes);
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "runtime-total"), ==, total);
  g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "runtime-total"), "ollama ps would show 9.7 GB"));

  /* The row: the ollama ps size plus what stays in host memory (the DGX
   * Spark is unified: the same memory); nothing learned yet. */
  e = hr_model_row_get_evaluation (row);
  g_assert_cmpuint (e->footprint.total, ==, p->total_bytes + p->host_bytes);
  g_assert_cmpint (hr_model_row_get_learned_bytes (row), ==, 0);
  g_assert_cmpint (e->verdict, ==, HR_VERDICT_FITS);

  /* The explain panel names the era and lists every term. */
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "runtime"), ==, p->era_label);
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "runtime"), ==,
                   hr_runtime_era_label (HR_RUNTIME_ERA_OLLAMA_0_30));
  terms = hr_explain_panel_get_figure (panel, "runtime-terms");
  g_assert_nonnull (terms);
  for (guint i = 0; i < p->n_terms; i++)
    g_assert_nonnull (strstr (terms, p->terms[i].label));
  g_assert_nonnull (strstr (terms, "Weights on the GPU: 8,757,678,176 bytes"));
  g_assert_nonnull (strstr (terms, "KV cache: 838,860,800 bytes"));
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "learned"), ==,
                   "no memory size measured on this board yet: the overhead is the model's estimate");
  /* The weights as the runtime places them (on the GPU, and token_embd in
   * the same unified memory); the ceiling stays the file's: 9.05 GB. */
  {
    g_autofree char *count = hr_format_count (e->footprint.weights);
    g_autofree char *prefix = g_strdup_printf ("%s bytes = ", count);

    g_assert_cmpuint (e->footprint.weights, ==,
                      (guint64) hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_WEIGHTS) + p->host_bytes);
    g_assert_true (g_str_has_prefix (hr_explain_panel_get_figure (panel, "weights"), prefix));
    g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "weights"), "as the runtime loads them"));
    g_assert_nonnull (strstr (hr_explain_panel_get_figure (panel, "ceiling"), "/ 9.05 GB weights ="));
  }

  /* Back to the plain math: the seed's figure for the row again. */
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), 0);
  g_assert_cmpuint (hr_model_row_get_evaluation (row)->footprint.overhead, ==, 0);
  g_assert_null (hr_explain_panel_get_figure (panel, "runtime"));

  close_window (&f);
}

static void
test_runtime_learned_overhead (void)
{
  Fixture f;
  g_autoptr(GPtrArray) catalog = load_catalog ();
  g_autofree HrRuntimePrediction *p2048 = g_new0 (HrRuntimePrediction, 1);
  g_autofree HrRuntimePrediction *p4096 = g_new0 (HrRuntimePrediction, 1);
  g_autofree char *dir = hr_data_measurements_dir ();
  g_autofree char *path = g_build_filename (dir, "dgx-spark-phi4-sizes.json", NULL);
  g_autofree char *json = NULL;
  g_autofree char *expected_text = NULL;
  g_autoptr(GError) error = NULL;
  const HrResidualPoint points[] = { { 2048, 200000000 }, { 4096, 200000000 } };
  HrCalibration cal;
  HrMemoryChart *chart;
  HrModelRow *row;
  gboolean found_tooltip = FALSE;

  /* A synthetic measurement: Ollama reported 0.2 GB (200,000,000 bytes)
   * more than the runtime model predicts, at 2,048 and 4,096 tokens. */
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

  g_assert_true (hr_calibration_fit (points, G_N_ELEMENTS (points), &cal, NULL));
  expected_text = hr_calibration_describe (&cal);
  g_assert_true (g_str_has_prefix (expected_text, "learned from 2 measurements on this board"));

  open_window (&f);
  select_board (&f, "dgx-spark");
  adw_combo_row_set_selected (hr_models_page_get_runtime_row (f.page), 1);
  settle ();
  row = select_phi4 (&f);
  spin (100);

  g_assert_cmpstr (hr_models_page_get_calibration_text (f.page), ==, expected_text);
  g_assert_cmpint (hr_model_row_get_learned_bytes (row), ==, 200000000);
  g_assert_cmpuint (hr_model_row_get_evaluation (row)->footprint.total, ==,
                    p4096->total_bytes + p4096->host_bytes + 200000000);
  g_assert_cmpstr (hr_explain_panel_get_figure (hr_models_page_get_explain_panel (f.page), "learned"), ==,
                   expected_text);
  g_assert_nonnull (strstr (hr_explain_panel_get_figure (hr_models_page_get_explain_panel (f.page), "runtime-terms"),
                            "Learned overhead: 200,000,000 bytes"));

  /* The pool column: the learned overhead as its own segment. */
  chart = hr_models_page_get_pool_chart (f.page);
  g_assert_true (iterate_until (widget_is_drawn, chart, 2000));
  spin (100);
  g_assert_nonnull (strstr (hr_memory_chart_get_description (chart), "Learned overhead 0.2 GB"));
  for (int y = 0; y < gtk_widget_get_height (GTK_WIDGET (chart)) && !found_tooltip; y++)
    for (int x = 0; x < 80 && !found_tooltip; x += 4)
      {
        g_autofree char *tooltip = hr_memory_chart_get_tooltip_at (chart, x, y);

        if (tooltip != NULL && g_str_has_prefix (tooltip, "phi4: Learned overhead\n"))
          {
            g_autofree char *expected = g_strdup_printf ("phi4: Learned overhead\n200,000,000 bytes = "
                                                         "0.2 GB (0.19 GiB)\n%s", expected_text);

            g_assert_cmpstr (tooltip, ==, expected);
            found_tooltip = TRUE;
          }
      }
  g_assert_true (found_tooltip);
  /* The list's chart says it in its description too. */
  g_assert_nonnull (strstr (hr_memory_chart_get_description (hr_models_page_get_memory_chart (f.page)),
                            expected_text));

  close_window (&f);
  g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
test_runtime_boards_view (void)
{
  static const struct { const char *model; const char *verdict; HrVerdict v; } seed[] = {
    { "qwen2.5:0.5b", "fits", HR_VERDICT_FITS },
    { "gemma2:2b", "fits", HR_VERDICT_FITS },
    { "llama3.2:3b", "fits", HR_VERDICT_FITS },
    { "llama3.1:8b", "tight", HR_VERDICT_TIGHT },
    { "qwen2.5:14b", "over", HR_VERDICT_OVER },
  };
  Fixture f;
  HrBoardsView *view;
  g_autofree char *csv_path = g_build_filename (isolated_root, "boards.csv", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *cell = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  open_window (&f);
  /* The seed's figures: its plain math. */
  use_seed_runtime ();
  settle ();
  view = hr_models_page_get_boards_view (f.page);
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (f.page), "boards");
  g_assert_true (iterate_until (widget_is_drawn, view, 2000));

  g_assert_cmpuint (hr_boards_view_get_n_boards (view), ==, hr_session_get_boards (hr_page_get_session (HR_PAGE (f.page)))->len);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      const HrEvaluation *e = hr_boards_view_get_evaluation (view, seed[i].model, "jetson-orin-nano-super");
      const HrEvaluation *listed = hr_model_row_get_evaluation (hr_models_page_find_row (f.page, seed[i].model));

      g_assert_nonnull (e);
      g_assert_cmpint (e->verdict, ==, seed[i].v);
      g_assert_cmpuint (e->margin_bytes, ==, listed->margin_bytes);
      g_assert_cmpuint (e->footprint.total, ==, listed->footprint.total);
    }
  /* docs/seed-figures.md: "llama3.2:3b fits, 2.63 GB under budget", measured 18.4 t/s */
  cell = hr_boards_view_get_cell_text (view, "llama3.2:3b", "jetson-orin-nano-super");
  g_assert_cmpstr (cell, ==, "fits · 2.63 GB · 18.4 t/s measured");
  /* The recommendation on the Jetson is the Models list's own (the built-in
   * catalog holds more than the seed's five models). */
  {
    const char *listed_best = NULL;
    GListModel *rows = hr_models_page_get_rows (f.page);

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);

        if (hr_model_row_get_recommended (row))
          listed_best = hr_model_row_get_name (row);
      }
    g_assert_nonnull (listed_best);
    g_assert_cmpstr (hr_boards_view_get_recommended (view, "jetson-orin-nano-super"), ==, listed_best);
  }

  /* Export while the Boards view shows: its CSV, the inputs in the header. */
  g_assert_true (hr_models_page_export_csv (f.page, csv_path, &error));
  g_assert_no_error (error);
  g_file_get_contents (csv_path, &csv, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpstr (lines[0], ==, "# Headroom: Jetson Orin Nano Super (jetson-orin-nano-super), precision as pulled, "
                                 "context 4,096 tokens, KV cache f16, 1 parallel slot");
  g_assert_cmpstr (lines[1], ==, "model,board,board_name,verdict,margin_bytes,footprint_bytes,tps,source,speed,recommended");
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
            g_assert_true (g_str_has_suffix (lines[l],
                                             g_strcmp0 (seed[i].model, hr_boards_view_get_recommended (view, "jetson-orin-nano-super")) == 0
                                             ? ",yes" : ",no"));
          }
      g_assert_true (found);
    }
  /* Issue 12: with the RTX 3060 12 GB board chosen, its column shows the
   * split and the prior rate, as `headroom-cli fit` and `dashboard` do at
   * 32,768 tokens; the seed's column keeps its measured rate. */
  select_board (&f, "rtx-3060-12gb");
  gtk_range_set_value (hr_models_page_get_context_scale (f.page), 15);
  settle ();
  g_assert_cmpuint (hr_scenario_get_context_tokens (hr_page_get_scenario (HR_PAGE (f.page))), ==, 32768);
  g_clear_pointer (&cell, g_free);
  cell = hr_boards_view_get_cell_text (view, "qwen2.5:14b", "rtx-3060-12gb");
  g_assert_cmpstr (cell, ==, "partial 34/49 · 10.65 GB VRAM + 5.27 GB host · 11.0 t/s predicted");
  /* A board with several GPUs says where the model sits: llama3.1:70b on
   * 2 x RTX 3090 at 32,768 tokens, as `headroom-cli predict llama3.1:70b
   * --board 2x-rtx-3090 --context 32768` places it (GPU 0 blocks 10-44,
   * GPU 1 blocks 45-79 and the output layer, 10 blocks on the CPU). */
  g_clear_pointer (&cell, g_free);
  cell = hr_boards_view_get_cell_text (view, "llama3.1:70b", "2x-rtx-3090");
  g_assert_cmpstr (cell, ==, "partial 71/81 · 47.15 GB VRAM + 7.55 GB host · 5.1 t/s predicted · 2 GPUs 35+36 layers");
  g_clear_pointer (&cell, g_free);
  cell = hr_boards_view_get_cell_text (view, "llama3.1:8b", "rtx-3060-12gb");
  /* The runtime sizes the catalog's exact parameter count, 8,030,261,248
   * (Ollama docs/api.md), and blob, 4,920,738,944 bytes, not the seed's rounded
   * 8B and 4.9 GB. */
  g_assert_cmpstr (cell, ==, "fits · 2.27 GB · 49.2 t/s predicted");
  g_clear_pointer (&cell, g_free);
  cell = hr_boards_view_get_cell_text (view, "llama3.2:3b", "jetson-orin-nano-super");
  g_assert_true (g_str_has_suffix (cell, " t/s measured"));
  /* With the Jetson selected, the RTX column keeps its own kind's prior
   * (discrete NVIDIA), the 49.2p and 11.0p of `headroom-cli matrix --boards
   * rtx-3060-12gb,jetson-orin-nano-super --context 32768`. */
  select_board (&f, "jetson-orin-nano-super");
  settle ();
  g_assert_cmpuint (hr_scenario_get_context_tokens (hr_page_get_scenario (HR_PAGE (f.page))), ==, 32768);
  g_clear_pointer (&cell, g_free);
  cell = hr_boards_view_get_cell_text (view, "llama3.1:8b", "rtx-3060-12gb");
  g_assert_cmpstr (cell, ==, "fits · 2.27 GB · 49.2 t/s predicted");
  g_clear_pointer (&cell, g_free);
  cell = hr_boards_view_get_cell_text (view, "qwen2.5:14b", "rtx-3060-12gb");
  g_assert_cmpstr (cell, ==, "partial 34/49 · 10.65 GB VRAM + 5.27 GB host · 11.0 t/s predicted");
  gtk_range_set_value (hr_models_page_get_context_scale (f.page), 12);
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (f.page), "models");
  close_window (&f);
  g_unlink (csv_path);
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

  g_test_add_func ("/runtime-view/phi4-on-dgx-spark", test_runtime_phi4_on_dgx_spark);
  g_test_add_func ("/runtime-view/learned-overhead", test_runtime_learned_overhead);
  g_test_add_func ("/runtime-view/boards-view", test_runtime_boards_view);
  g_test_add_func ("/runtime-view/unified-note", test_runtime_unified_note);
  g_test_add_func ("/runtime-view/projector", test_runtime_projector);
  g_test_add_func ("/runtime-view/draft", test_runtime_draft);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
