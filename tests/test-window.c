/* test-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window, opened from the real HrApplication under Xvfb: the catalog,
 * the seed's verdicts and margins on the seed board (docs/seed-figures.md,
 * "Budget and verdicts"), the context slider and the KV cache type, the chart's
 * accessible description, the explain panel's formulas, export, a
 * malformed user catalog and boards file, and the German translation.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "hr-application.h"
#include "hr-board-editor.h"
#include "hr-catalog.h"
#include "hr-gguf-page-private.h"
#include "hr-gui-format.h"
#include "hr-memory.h"
#include "hr-preferences-window.h"
#include "hr-models-page-private.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* The user data dir of whoever runs the tests, and this run's own. */
static char *real_user_data_dir;
static char *isolated_root;

/* One application for the whole run, registered once, as the real one is. */
static HrApplication *test_app;

typedef struct {
  HrApplication *app;
  HrWindow      *window;
  HrModelsPage  *page;
} Fixture;

/* What the rows were last evaluated under. */
static const HrEvaluationInputs *
page_inputs (HrModelsPage *page)
{
  return hr_scenario_peek_evaluation_inputs (hr_page_get_scenario (HR_PAGE (page)));
}


static AdwComboRow *
kv_row (HrModelsPage *page)
{
  AdwPreferencesRow *row = find_titled_row (GTK_WIDGET (page), "_KV cache type");

  g_assert_true (ADW_IS_COMBO_ROW (row));
  return ADW_COMBO_ROW (row);
}

static GtkSpinButton *
slots_spin (HrModelsPage *page)
{
  AdwPreferencesRow *row = find_titled_row (GTK_WIDGET (page), "Parallel _slots");

  g_assert_nonnull (row);
  return GTK_SPIN_BUTTON (find_descendant (GTK_WIDGET (row), GTK_TYPE_SPIN_BUTTON));
}

static gboolean
session_loaded (gpointer data)
{
  HrSession *session = hr_page_get_session (HR_PAGE (data));

  return session != NULL && hr_session_get_loaded (session);
}

static void
open_window (Fixture *f)
{
  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  reset_settings (1280, 800);
  use_seed_runtime ();

  f->app = test_app;
  g_assert_null (gtk_application_get_active_window (GTK_APPLICATION (f->app)));
  g_application_activate (G_APPLICATION (f->app));

  f->window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (f->app)));
  g_assert_nonnull (f->window);
  g_object_ref (f->window);
  f->page = hr_window_get_models_page (f->window);

  g_assert_true (iterate_until (session_loaded, f->page, 5000));
  g_assert_true (iterate_until (widget_is_drawn, f->page, 5000));
  spin (200);
}

static void
close_window (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (50);
  g_assert_finalize_object (f->window);
  f->app = NULL;
}

/* Every GtkLabel under @root whose text is @text, and every GtkInscription
 * (the table's figure cells). */
static void
collect_labels (GtkWidget  *root,
                const char *text,
                GPtrArray  *out)
{
  if ((GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0) ||
      (GTK_IS_INSCRIPTION (root) && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (root)), text) == 0))
    g_ptr_array_add (out, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, text, out);
}

static gboolean
shows_label (GtkWidget  *root,
             const char *text)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect_labels (root, text, found);
  for (guint i = 0; i < found->len; i++)
    if (gtk_widget_is_drawable (g_ptr_array_index (found, i)))
      return TRUE;
  return FALSE;
}

/* A label with @text inside the visible part of the scrolled window around
 * @view (the list keeps rows bound beyond the viewport). */
static gboolean
label_in_viewport (GtkWidget  *view,
                   const char *text)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect_labels (view, text, found);
  for (guint i = 0; i < found->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (found, i);
      graphene_rect_t bounds;

      if (!gtk_widget_is_drawable (label) ||
          !gtk_widget_compute_bounds (label, scroller, &bounds))
        continue;
      if (bounds.origin.y >= 0 &&
          bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller))
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  GtkWidget  *view;
  const char *text;
  const char *hidden;   /* nullable: a text that must have scrolled out */
} ViewportWait;

/* For iterate_until(): the scrolling happens in an idle and a frame. */
static gboolean
shows_in_viewport (gpointer data)
{
  ViewportWait *wait = data;

  return label_in_viewport (wait->view, wait->text) &&
         (wait->hidden == NULL || !label_in_viewport (wait->view, wait->hidden));
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct {
  HrModelsPage *page;
  guint         n;
  const char   *name;   /* (nullable): every row's name holds it */
} SearchWait;

static gboolean
search_done (gpointer data)
{
  SearchWait *wait = data;
  GListModel *rows = hr_models_page_get_rows (wait->page);
  guint n = g_list_model_get_n_items (rows);
  g_autofree char *wanted = wait->name != NULL ? g_utf8_casefold (wait->name, -1) : NULL;

  if (n != wait->n)
    return FALSE;
  for (guint i = 0; wanted != NULL && i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);
      g_autofree char *name = g_utf8_casefold (hr_model_row_get_name (row), -1);

      if (strstr (name, wanted) == NULL)
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  GtkWidget  *root;
  const char *texts[4];   /* NULL-terminated */
} LabelsWait;

static gboolean
labels_shown (gpointer data)
{
  LabelsWait *wait = data;

  for (guint i = 0; wait->texts[i] != NULL; i++)
    if (!shows_label (wait->root, wait->texts[i]))
      return FALSE;
  return TRUE;
}

/* Types @name into the search entry and waits for the list to hold @n
 * rows, each of them named with @name. The count alone is no sign the
 * search ran: the entry's "search-changed" comes 150 ms after the text
 * (GtkSearchEntry's search-delay), and a list of one row for the last
 * search already has the count the next one waits for. */
static void
search (Fixture    *f,
        const char *name,
        guint       n)
{
  SearchWait wait = { f->page, n, name };

  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), name);
  g_assert_true (iterate_until (search_done, &wait, 3000));
}

static char *
cell (Fixture        *f,
      const char     *name,
      HrModelsColumn  column)
{
  HrModelRow *row = hr_models_page_find_row (f->page, name);

  g_assert_nonnull (row);
  return hr_models_page_cell_text (f->page, row, column);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* docs/seed-figures.md, "Budget and verdicts": the seed board at 4,096 tokens. */
static const struct {
  const char *name;
  const char *kv;
  const char *total;
  const char *verdict;
} seed_rows[] = {
  { "qwen2.5:0.5b", "0.05 GB", "0.45 GB", "fits 4.65 GB" },
  { "gemma2:2b",    "0.44 GB", "2.04 GB", "fits 3.06 GB" },
  { "llama3.2:3b",  "0.47 GB", "2.47 GB", "fits 2.63 GB" },
  { "llama3.1:8b",  "0.54 GB", "5.44 GB", "tight 0.66 GB" },
  { "qwen2.5:14b",  "0.81 GB", "9.81 GB", "over 3.71 GB" },
};

/* The seed board's cases share one window, its search cleared before
 * each. */
static struct {
  Fixture    f;
  GPtrArray *catalog;   /* the built-in catalog */
} seed_window;

static void
seed_close (void)
{
  close_window (&seed_window.f);
  g_clear_pointer (&seed_window.catalog, g_ptr_array_unref);
}

static void
seed_setup (Fixture       *f,
            gconstpointer  data)
{
  if (!gui_test_is_shared ("seed-board"))
    {
      g_autofree char *catalog_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
      g_autoptr(GError) error = NULL;

      open_window (&seed_window.f);
      gui_test_share ("seed-board", seed_close);
      seed_window.catalog = hr_catalog_load_file (catalog_path, &error);
      g_assert_no_error (error);
    }
  *f = seed_window.f;
  if (*gtk_editable_get_text (hr_models_page_get_search_entry (f->page)) != '\0')
    search (f, "", seed_window.catalog->len);
}

/* The catalog lists every built-in model, one of them recommended. */
static void
test_seed_catalog_listed (Fixture       *f,
                          gconstpointer  data)
{
  GPtrArray *catalog = seed_window.catalog;
  guint recommended = 0;

  g_assert_cmpuint (g_list_model_get_n_items (hr_models_page_get_rows (f->page)), ==, catalog->len);
  for (guint i = 0; i < catalog->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (catalog, i);
      HrModelRow *row = hr_models_page_find_row (f->page, spec->name);

      g_assert_nonnull (row);
      if (hr_model_row_get_recommended (row))
        recommended++;
    }
  g_assert_cmpuint (recommended, ==, 1);
}

/* The seed board at 4,096 tokens, as pulled, f16 KV cache, one slot. */
static void
test_seed_inputs (Fixture       *f,
                  gconstpointer  data)
{
  const HrEvaluationInputs *scenario = page_inputs (f->page);

  g_assert_cmpstr (scenario->board->id, ==, "jetson-orin-nano-super");
  g_assert_cmpuint (scenario->context_tokens, ==, 4096);
  g_assert_null (scenario->precision);
  g_assert_cmpint (scenario->kv_type, ==, HR_KV_CACHE_F16);
  g_assert_cmpuint (scenario->parallel_slots, ==, 1);
}

/* The seed's five rows' cells. */
static void
test_seed_cells (Fixture       *f,
                 gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (seed_rows); i++)
    {
      g_autofree char *kv = cell (f, seed_rows[i].name, HR_MODELS_COLUMN_KV_CACHE);
      g_autofree char *total = cell (f, seed_rows[i].name, HR_MODELS_COLUMN_TOTAL);
      g_autofree char *verdict = cell (f, seed_rows[i].name, HR_MODELS_COLUMN_VERDICT);

      g_assert_cmpstr (kv, ==, seed_rows[i].kv);
      g_assert_cmpstr (total, ==, seed_rows[i].total);
      g_assert_cmpstr (verdict, ==, seed_rows[i].verdict);
    }
}

/* The seed's five rows, as the cells show them on screen. */
static void
test_seed_rows_shown (Fixture       *f,
                      gconstpointer  data)
{
  GtkColumnView *view = hr_models_page_get_column_view (f->page);

  for (guint i = 0; i < G_N_ELEMENTS (seed_rows); i++)
    {
      /* The row's cells are bound on a later frame than the search. */
      LabelsWait shown = { GTK_WIDGET (view),
                           { seed_rows[i].name, seed_rows[i].verdict, seed_rows[i].total, NULL } };

      search (f, seed_rows[i].name, 1);
      g_assert_true (iterate_until (labels_shown, &shown, 3000));
    }
}

/* Selecting a row scrolls the list to it: the first row in view and the
 * last out of it (the list is longer than its viewport), then the last. */
static void
test_seed_select_scrolls (Fixture       *f,
                          gconstpointer  data)
{
  GtkColumnView *view = hr_models_page_get_column_view (f->page);
  GListModel *rows = hr_models_page_get_rows (f->page);
  g_autoptr(HrModelRow) first = g_list_model_get_item (rows, 0);
  g_autoptr(HrModelRow) last = g_list_model_get_item (rows, g_list_model_get_n_items (rows) - 1);
  ViewportWait first_shown = { GTK_WIDGET (view), hr_model_row_get_name (first), hr_model_row_get_name (last) };
  ViewportWait last_shown = { GTK_WIDGET (view), hr_model_row_get_name (last), NULL };

  hr_models_page_select_row (f->page, first);
  g_assert_true (iterate_until (shows_in_viewport, &first_shown, 3000));
  hr_models_page_select_row (f->page, last);
  g_assert_true (iterate_until (shows_in_viewport, &last_shown, 3000));
}

/* The seed's rates: measured on the board; a model that does not load
 * has none in the window (the seed's dashboard rates it, 4.1 t/s). */
static void
test_seed_rates (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *tps = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_TPS);
  g_autofree char *source = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_SOURCE);
  g_autofree char *speed = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_SPEED);
  g_autofree char *tps_8b = cell (f, "llama3.1:8b", HR_MODELS_COLUMN_TPS);
  g_autofree char *speed_8b = cell (f, "llama3.1:8b", HR_MODELS_COLUMN_SPEED);
  g_autofree char *tps_14b = cell (f, "qwen2.5:14b", HR_MODELS_COLUMN_TPS);
  g_autofree char *source_14b = cell (f, "qwen2.5:14b", HR_MODELS_COLUMN_SOURCE);

  g_assert_cmpstr (tps, ==, "18.4");
  g_assert_cmpstr (source, ==, "measured");
  g_assert_cmpstr (speed, ==, "ok");
  g_assert_cmpstr (tps_8b, ==, "7.4");
  g_assert_cmpstr (speed_8b, ==, "slow");
  g_assert_cmpstr (tps_14b, ==, "–");
  g_assert_cmpstr (source_14b, ==, "–");
}

/* The controls' cases share one window; each starts from the defaults:
 * 4,096 tokens (the slider's 12), KV cache f16, one slot, as pulled, no
 * search. */
static struct {
  Fixture f;
  guint   n_rows;   /* the rows without a search */
} controls;

static void
controls_close (void)
{
  close_window (&controls.f);
}

static void
controls_setup (Fixture       *f,
                gconstpointer  data)
{
  if (!gui_test_is_shared ("controls"))
    {
      open_window (&controls.f);
      gui_test_share ("controls", controls_close);
      controls.n_rows = g_list_model_get_n_items (hr_models_page_get_rows (controls.f.page));
    }
  *f = controls.f;
  gtk_range_set_value (hr_models_page_get_context_scale (f->page), 12);
  adw_combo_row_set_selected (kv_row (f->page), 0);
  gtk_spin_button_set_value (slots_spin (f->page), 1);
  gtk_range_set_value (hr_models_page_get_precision_scale (f->page), 0);
  if (*gtk_editable_get_text (hr_models_page_get_search_entry (f->page)) != '\0')
    search (f, "", controls.n_rows);
}

static const HrEvaluation *
evaluation_of (Fixture    *f,
               const char *name)
{
  HrModelRow *row = hr_models_page_find_row (f->page, name);

  g_assert_nonnull (row);
  return hr_model_row_get_evaluation (row);
}

static void
test_controls_default_kv (Fixture       *f,
                          gconstpointer  data)
{
  g_assert_cmpuint (evaluation_of (f, "llama3.2:3b")->footprint.kv_cache, ==, 469762048);
}

/* 16,384 tokens: docs/seed-figures.md, 2 x 28 x 8 x 128 x 2 bytes x 16,384 */
static void
test_controls_context_16k (Fixture       *f,
                           gconstpointer  data)
{
  const HrModelSpec *spec = hr_model_row_get_spec (hr_models_page_find_row (f->page, "llama3.2:3b"));

  gtk_range_set_value (hr_models_page_get_context_scale (f->page), 14);
  g_assert_cmpuint (page_inputs (f->page)->context_tokens, ==, 16384);
  g_assert_cmpuint (evaluation_of (f, "llama3.2:3b")->footprint.kv_cache, ==, 1879048192);
  g_assert_cmpuint (evaluation_of (f, "llama3.2:3b")->footprint.kv_cache, ==,
                    hr_memory_kv_cache_bytes (spec, HR_KV_CACHE_F16, 16384, 1));
}

static void
test_controls_context_16k_cells (Fixture       *f,
                                 gconstpointer  data)
{
  g_autofree char *kv = NULL, *total = NULL, *verdict = NULL;

  gtk_range_set_value (hr_models_page_get_context_scale (f->page), 14);
  kv = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_KV_CACHE);
  total = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_TOTAL);
  verdict = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_VERDICT);
  g_assert_cmpstr (kv, ==, "1.88 GB");
  g_assert_cmpstr (total, ==, "3.88 GB");
  g_assert_cmpstr (verdict, ==, "fits 1.22 GB");
}

static void
test_controls_context_16k_shown (Fixture       *f,
                                 gconstpointer  data)
{
  LabelsWait shown = { GTK_WIDGET (hr_models_page_get_column_view (f->page)),
                       { "1.88 GB", "fits 1.22 GB", NULL } };

  gtk_range_set_value (hr_models_page_get_context_scale (f->page), 14);
  search (f, "llama3.2:3b", 1);
  g_assert_true (iterate_until (labels_shown, &shown, 3000));
}

/* KV cache q8_0: 34 bytes per 32 elements, exactly as the core says */
static void
test_controls_kv_q8 (Fixture       *f,
                     gconstpointer  data)
{
  HrModelRow *row = hr_models_page_find_row (f->page, "llama3.2:3b");
  const HrEvaluation *e = hr_model_row_get_evaluation (row);

  adw_combo_row_set_selected (kv_row (f->page), 1);
  g_assert_cmpint (page_inputs (f->page)->kv_type, ==, HR_KV_CACHE_Q8_0);
  g_assert_cmpuint (e->footprint.kv_cache, ==,
                    hr_memory_kv_cache_bytes (hr_model_row_get_spec (row), HR_KV_CACHE_Q8_0, 4096, 1));
  g_assert_cmpuint (e->footprint.kv_cache, ==, 249561088);
  g_assert_cmpuint (hr_model_row_get_kv_per_token (row), ==, 60928);
}

static void
test_controls_kv_q8_cells (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *kv = NULL, *per_token = NULL;

  adw_combo_row_set_selected (kv_row (f->page), 1);
  kv = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_KV_CACHE);
  per_token = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_KV_PER_TOKEN);
  g_assert_cmpstr (kv, ==, "0.25 GB");
  g_assert_cmpstr (per_token, ==, "60,928");
}

/* Two parallel slots double the cache. */
static void
test_controls_two_slots (Fixture       *f,
                         gconstpointer  data)
{
  adw_combo_row_set_selected (kv_row (f->page), 1);
  gtk_spin_button_set_value (slots_spin (f->page), 2);
  g_assert_cmpuint (evaluation_of (f, "llama3.2:3b")->footprint.kv_cache, ==, 2 * 249561088);
}

/* Past a model's native context, its row says so. */
static void
test_controls_past_native (Fixture       *f,
                           gconstpointer  data)
{
  LabelsWait shown = { GTK_WIDGET (hr_models_page_get_column_view (f->page)),
                       { "past its 8,192-token limit", NULL } };

  gtk_range_set_value (hr_models_page_get_context_scale (f->page), 17);
  g_assert_cmpuint (page_inputs (f->page)->context_tokens, ==, 131072);
  g_assert_true (evaluation_of (f, "gemma2:2b")->past_context_limit);
  search (f, "gemma2:2b", 1);
  g_assert_true (iterate_until (labels_shown, &shown, 3000));
}

/* Precision: FP16 sketches every model at 16 bits per weight. */
static void
test_controls_fp16 (Fixture       *f,
                    gconstpointer  data)
{
  HrModelRow *row;

  gtk_range_set_value (hr_models_page_get_precision_scale (f->page), 6);
  g_assert_cmpstr (page_inputs (f->page)->precision->id, ==, "fp16");
  row = hr_models_page_find_row (f->page, "llama3.2:3b");
  g_assert_cmpuint (hr_model_row_get_evaluation (row)->footprint.weights, ==,
                    hr_memory_spec_weight_bytes (hr_model_row_get_spec (row), hr_precision_lookup ("fp16")));
}

/* The chart's description: each seed model's figures and verdict. */
static void
test_chart_description (Fixture       *f,
                        gconstpointer  data)
{
  const char *description = hr_memory_chart_get_description (hr_models_page_get_memory_chart (f->page));

  g_assert_nonnull (strstr (description, "Memory per model on Jetson Orin Nano Super: "
                                         "budget 5.1 GB, headroom 6.1 GB, pool 8.0 GB."));
  g_assert_nonnull (strstr (description, "llama3.2:3b: weights 2.0 GB, KV cache 0.47 GB, "
                                         "total 2.47 GB, fits with 2.63 GB to spare."));
  g_assert_nonnull (strstr (description, "qwen2.5:0.5b: weights 0.4 GB, KV cache 0.05 GB, "
                                         "total 0.45 GB, fits with 4.65 GB to spare."));
  g_assert_nonnull (strstr (description, "llama3.1:8b: weights 4.9 GB, KV cache 0.54 GB, "
                                         "total 5.44 GB, tight, 0.66 GB left above the resident memory."));
  g_assert_nonnull (strstr (description, "qwen2.5:14b: weights 9.0 GB, KV cache 0.81 GB, "
                                         "total 9.81 GB, over by 3.71 GB."));
}

/* An image to a screen reader, described with its figures. */
static void
test_chart_accessible (Fixture       *f,
                       gconstpointer  data)
{
  HrMemoryChart *chart = hr_models_page_get_memory_chart (f->page);

  gtk_test_accessible_assert_role (chart, GTK_ACCESSIBLE_ROLE_IMG);
  gtk_test_accessible_assert_property (chart, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       hr_memory_chart_get_description (chart));
}

/* The context slider changes the description with the chart. */
static void
test_chart_follows_context (Fixture       *f,
                            gconstpointer  data)
{
  gtk_range_set_value (hr_models_page_get_context_scale (f->page), 14);
  g_assert_nonnull (strstr (hr_memory_chart_get_description (hr_models_page_get_memory_chart (f->page)),
                            "llama3.2:3b: weights 2.0 GB, KV cache 1.88 GB, total 3.88 GB, "
                            "fits with 1.22 GB to spare."));
}

/* The selected model's pool column. */
static void
test_chart_pool_column (Fixture       *f,
                        gconstpointer  data)
{
  hr_models_page_select_row (f->page, hr_models_page_find_row (f->page, "llama3.2:3b"));
  g_assert_cmpstr (hr_memory_chart_get_description (hr_models_page_get_pool_chart (f->page)), ==,
                   "Jetson Orin Nano Super pool 8.0 GB with llama3.2:3b: Resident 1.9 GB, "
                   "Weights 2.0 GB, KV cache 0.47 GB, Overhead 0.0 GB, Reserve 1.0 GB, Free 2.63 GB");
}

/* The explain panel's memory figures for the selected model. */
static void
test_chart_explain_memory (Fixture       *f,
                           gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (f->page);

  hr_models_page_select_row (f->page, hr_models_page_find_row (f->page, "llama3.2:3b"));
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "kv-cache"), ==,
                   "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes x 4,096 tokens = "
                   "469,762,048 bytes = 0.47 GB (0.44 GiB)");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "kv-per-token"), ==,
                   "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes = 114,688 bytes per token");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "budget"), ==,
                   "8.0 GB pool - 1.9 GB resident - 1.0 GB reserve = 5.1 GB (4.75 GiB) budget");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "headroom"), ==,
                   "8.0 GB pool - 1.9 GB resident = 6.1 GB (5.68 GiB) headroom");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "verdict"), ==,
                   "5.1 GB budget - 2.47 GB total = 2.63 GB (2.45 GiB) to spare: fits");
  g_assert_true (shows_label (GTK_WIDGET (panel), "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes "
                                                  "x 4,096 tokens = 469,762,048 bytes = 0.47 GB (0.44 GiB)"));
}

/* The explain panel's rates for the selected model. */
static void
test_chart_explain_rates (Fixture       *f,
                          gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (f->page);

  hr_models_page_select_row (f->page, hr_models_page_find_row (f->page, "llama3.2:3b"));
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "ceiling"), ==,
                   "102 GB/s / 2.0 GB weights = 51.0 t/s ceiling");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "floor"), ==,
                   "27 tokens / ((3,000 ms - 350 ms) / 1000) = 10.2 t/s floor");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "speed"), ==,
                   "18.4 t/s >= 10.2 t/s floor: ok");
}

/* A tooltip somewhere over the bars gives exact bytes and a formula. */
static void
test_chart_tooltip (Fixture       *f,
                    gconstpointer  data)
{
  HrMemoryChart *chart = hr_models_page_get_memory_chart (f->page);
  gboolean found_tooltip = FALSE;

  spin (100);
  for (int y = 0; y < gtk_widget_get_height (GTK_WIDGET (chart)) && !found_tooltip; y += 3)
    for (int x = 0; x < gtk_widget_get_width (GTK_WIDGET (chart)) && !found_tooltip; x += 3)
      {
        g_autofree char *tooltip = hr_memory_chart_get_tooltip_at (chart, x, y);

        if (tooltip != NULL && g_str_has_prefix (tooltip, "llama3.2:3b: KV cache\n"))
          {
            g_assert_cmpstr (tooltip, ==,
                             "llama3.2:3b: KV cache\n469,762,048 bytes = 0.47 GB (0.44 GiB)\n"
                             "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes x 4,096 tokens = "
                             "469,762,048 bytes = 0.47 GB (0.44 GiB)");
            found_tooltip = TRUE;
          }
      }
  g_assert_true (found_tooltip);
}

/* A minimal CSV reader for what hr_export_csv_field() writes. */
static GPtrArray *
split_csv_line (const char *line)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            {
              g_string_append_c (field, '"');
              p++;
            }
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        {
          g_ptr_array_add (fields, g_string_free (field, FALSE));
          field = g_string_new (NULL);
        }
      else
        g_string_append_c (field, *p);
    }
  g_ptr_array_add (fields, g_string_free (field, FALSE));
  return fields;
}

/* The export's cases share one window and a folder for the files. */
static struct {
  Fixture  f;
  char    *dir;
} export_window;

#define EXPORT_INPUTS "Headroom: Jetson Orin Nano Super (jetson-orin-nano-super), precision as " \
                      "pulled, context 4,096 tokens, KV cache f16, 1 parallel slot"

static void
export_close (void)
{
  close_window (&export_window.f);
  g_rmdir (export_window.dir);
  g_clear_pointer (&export_window.dir, g_free);
}

static void
export_setup (Fixture       *f,
              gconstpointer  data)
{
  if (!gui_test_is_shared ("export"))
    {
      open_window (&export_window.f);
      gui_test_share ("export", export_close);
      export_window.dir = g_dir_make_tmp ("headroom-export-XXXXXX", NULL);
    }
  *f = export_window.f;
}

/* The export folder's file @name. */
static char *
export_path (const char *name)
{
  return g_build_filename (export_window.dir, name, NULL);
}

static void
test_export_inputs (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *inputs = hr_models_page_describe_inputs (f->page);

  g_assert_cmpstr (inputs, ==, EXPORT_INPUTS);
}

/* PNG: loads back, 960 pixels wide, with the inputs in its Title chunk */
static void
test_export_png (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *png = export_path ("chart.png");
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;

  g_assert_true (hr_models_page_export_png (f->page, png, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 960);
  g_assert_cmpint (gdk_texture_get_height (texture), >, 200);
  pixbuf = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gdk_pixbuf_get_option (pixbuf, "tEXt::Title"), ==, EXPORT_INPUTS);
  g_unlink (png);
}

/* The SVG export's text (freed by the caller), its file left at @svg. */
static char *
export_svg (Fixture    *f,
            const char *svg)
{
  g_autoptr(GError) error = NULL;
  char *svg_text = NULL;

  g_assert_true (hr_models_page_export_svg (f->page, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, &error));
  return svg_text;
}

/* SVG: well-formed and titled with the inputs */
static void
test_export_svg_xml (Fixture       *f,
                     gconstpointer  data)
{
  static const GMarkupParser parser = { 0 };
  g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_autofree char *svg = export_path ("chart.svg");
  g_autofree char *svg_text = export_svg (f, svg);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (strstr (svg_text, "<title>" EXPORT_INPUTS "</title>"));
  g_assert_true (g_markup_parse_context_parse (context, svg_text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_unlink (svg);
}

/* SVG: it loads as an image, 960 pixels wide, where gdk-pixbuf reads SVG */
static void
test_export_svg_image (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *svg = export_path ("chart.svg");
  g_autofree char *svg_text = export_svg (f, svg);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new_from_file (svg, &error);

  if (g_error_matches (error, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_UNKNOWN_TYPE))
    g_test_message ("gdk-pixbuf has no SVG loader here; the SVG was checked as XML");
  else
    {
      g_assert_no_error (error);
      g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, 960);
    }
  g_unlink (svg);
}

/* The CSV export's lines (freed by the caller). */
static GStrv
export_csv (Fixture *f)
{
  g_autofree char *csv = export_path ("models.csv");
  g_autofree char *csv_text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_models_page_export_csv (f->page, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, &error));
  g_unlink (csv);
  return g_strsplit (csv_text, "\r\n", -1);
}

/* CSV: the inputs, the header, then a line per row */
static void
test_export_csv_header (Fixture       *f,
                        gconstpointer  data)
{
  g_auto(GStrv) lines = export_csv (f);
  guint n = g_list_model_get_n_items (hr_models_page_get_rows (f->page));

  g_assert_cmpuint (g_strv_length (lines), ==, n + 3); /* title, header, rows, "" after the last */
  g_assert_cmpstr (lines[0], ==, "# " EXPORT_INPUTS);
  g_assert_cmpstr (lines[1], ==, "Name,Parameters,Precision,File size,KV bytes/token,KV cache,Total,"
                                 "Verdict,t/s,Source,Speed,Weights (bytes),KV cache (bytes),Total (bytes),"
                                 "Margin (bytes),Recommended,Past context limit");
}

/* CSV: the table's rows in its order, each cell as the table shows it */
static void
test_export_csv_rows (Fixture       *f,
                      gconstpointer  data)
{
  g_auto(GStrv) lines = export_csv (f);
  GListModel *rows = hr_models_page_get_rows (f->page);
  g_autoptr(GPtrArray) header = split_csv_line (lines[1]);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GPtrArray) fields = split_csv_line (lines[i + 2]);

      g_assert_cmpuint (fields->len, ==, header->len);
      for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
        {
          g_autofree char *text = hr_models_page_cell_text (f->page, row, c);

          g_assert_cmpstr (g_ptr_array_index (fields, c), ==, text);
        }
      if (g_str_equal (hr_model_row_get_name (row), "llama3.2:3b"))
        g_assert_cmpstr (lines[i + 2], ==,
                         "llama3.2:3b,3.20 B,q4_K_M,2.00 GB,\"114,688\",0.47 GB,2.47 GB,fits 2.63 GB,"
                         "18.4,measured,ok,2000000000,469762048,2469762048,2630237952,no,no");
    }
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

/* The malformed files' story: a catalog cut short and a boards file whose
 * board lacks its figures, then the window opened over them. */
static const char bad_catalog[] = "{ \"version\": 1, \"models\": [ { \"name\": \"x\" ";
static const char bad_boards[] = "{ \"version\": 1, \"boards\": [ { \"id\": \"mine\", \"name\": \"Mine\" } ] }\n";

typedef struct {
  Fixture  f;
  char    *catalog_path;
  char    *boards_path;
  char    *catalog_expected;   /* the message for the catalog */
  char    *boards_expected;    /* the message for the boards file */
  char    *save_expected;      /* the message for a board saved */
} Malformed;

static Malformed malformed;

/* The message load_file() gives for the file @path that @load cannot read. */
static char *
unreadable_message (const char  *path,
                    GPtrArray *(*load) (const char *, GError **),
                    const char  *format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = load (path, &error);

  g_assert_null (loaded);
  g_assert_nonnull (error);
  return g_strdup_printf (format, path, error->message);
}

static void
malformed_open (gpointer data)
{
  Malformed *m = data;

  m->catalog_path = hr_data_user_file ("catalog.json");
  m->boards_path = hr_data_user_file ("boards.json");
  write_file (m->catalog_path, bad_catalog);
  write_file (m->boards_path, bad_boards);
  m->catalog_expected = unreadable_message (m->catalog_path, hr_catalog_load_file,
                                            "Could not read %s: %s. It was left as it is.");
  m->boards_expected = unreadable_message (m->boards_path, hr_boards_load_file,
                                           "Could not read %s: %s. It was left as it is.");
  m->save_expected = unreadable_message (m->boards_path, hr_boards_load_file,
                                         "Not saving: %s could not be read (%s). Fix or move it, then open "
                                         "Headroom again.");
  g_test_expect_message ("Headroom", G_LOG_LEVEL_WARNING, m->catalog_expected);
  g_test_expect_message ("Headroom", G_LOG_LEVEL_WARNING, m->boards_expected);
  open_window (&m->f);
  g_test_assert_expected_messages ();
}

static void
malformed_close (void)
{
  close_window (&malformed.f);
  g_unlink (malformed.catalog_path);
  g_unlink (malformed.boards_path);
  g_clear_pointer (&malformed.catalog_path, g_free);
  g_clear_pointer (&malformed.boards_path, g_free);
  g_clear_pointer (&malformed.catalog_expected, g_free);
  g_clear_pointer (&malformed.boards_expected, g_free);
  g_clear_pointer (&malformed.save_expected, g_free);
}

/* G_TEST_OPTION_ISOLATE_DIRS: the user data dir is this test's own,
 * never the data dir of whoever runs the tests. */
static void
test_malformed_isolated (Malformed     *m,
                         gconstpointer  data)
{
  g_assert_false (g_str_has_prefix (m->catalog_path, real_user_data_dir));
}

/* The window opened with the built-in data and says what went wrong. */
static void
test_malformed_said (Malformed     *m,
                     gconstpointer  data)
{
  GPtrArray *messages = hr_window_get_messages (m->f.window);

  g_assert_nonnull (hr_models_page_find_row (m->f.page, "llama3.2:3b"));
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (messages, 0), ==, m->catalog_expected);
  g_assert_cmpstr (g_ptr_array_index (messages, 1), ==, m->boards_expected);
}

/* Saving a board does not write over the boards file that failed. */
static void
test_malformed_save_refused (Malformed     *m,
                             gconstpointer  data)
{
  GPtrArray *messages = hr_window_get_messages (m->f.window);
  GtkWidget *save = find_button (GTK_WIDGET (m->f.page), "_Save");

  g_assert_nonnull (save);
  g_signal_emit_by_name (save, "clicked");
  g_assert_cmpuint (messages->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (messages, 2), ==, m->save_expected);
}

/* Both files are as they were. */
static void
test_malformed_files_left (Malformed     *m,
                           gconstpointer  data)
{
  g_autofree char *catalog_after = NULL;
  g_autofree char *boards_after = NULL;

  g_assert_true (g_file_get_contents (m->catalog_path, &catalog_after, NULL, NULL));
  g_assert_true (g_file_get_contents (m->boards_path, &boards_after, NULL, NULL));
  g_assert_cmpstr (catalog_after, ==, bad_catalog);
  g_assert_cmpstr (boards_after, ==, bad_boards);
}

static const GuiTestStep malformed_steps[] = {
  { "/window/malformed-user-files/isolated", (GTestFixtureFunc) test_malformed_isolated },
  { "/window/malformed-user-files/said", (GTestFixtureFunc) test_malformed_said },
  { "/window/malformed-user-files/save-refused", (GTestFixtureFunc) test_malformed_save_refused },
  { "/window/malformed-user-files/files-left", (GTestFixtureFunc) test_malformed_files_left },
};

static GuiTestStory malformed_story = {
  "malformed-user-files", malformed_open, malformed_close, malformed_steps, G_N_ELEMENTS (malformed_steps),
  &malformed, sizeof (Malformed), 0
};

/* The first widget under @root of @type whose string property @name is
 * @value. */
static GtkWidget *
find_with_property (GtkWidget  *root,
                    GType       type,
                    const char *name,
                    const char *value)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    {
      g_autofree char *text = NULL;

      g_object_get (root, name, &text, NULL);
      if (g_strcmp0 (text, value) == 0)
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_with_property (child, type, name, value);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_window_board_editor_saves (void)
{
  g_autofree char *boards_path = hr_data_user_file ("boards.json");
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *save;
  const HrBoard *board;
  Fixture f = { 0 };

  open_window (&f);
  g_assert_false (g_file_test (boards_path, G_FILE_TEST_EXISTS));

  save = find_button (GTK_WIDGET (f.page), "_Save");
  g_assert_nonnull (save);
  g_signal_emit_by_name (save, "clicked");

  saved = hr_boards_load_file (boards_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (saved->len, ==, 1);
  board = g_ptr_array_index (saved, 0);
  g_assert_cmpstr (board->id, ==, "jetson-orin-nano-super");
  g_assert_cmpuint (board->pool_bytes, ==, 8000000000);
  g_assert_cmpuint (board->resident_bytes, ==, 1900000000);
  g_assert_cmpuint (board->reserve_bytes, ==, 1000000000);
  g_assert_cmpuint (board->reply_tokens, ==, 27);

  close_window (&f);
  g_unlink (boards_path);
}


/* Edit Board's rows are out of the layout until it is first opened (its
 * fourteen rows were a third of the Models page's first layout), then in
 * it for good; a unified board's host rows stay hidden when it opens, a
 * discrete board's show. */
static void
test_window_board_editor_deferred (void)
{
  AdwExpanderRow *editor;
  GtkWidget *save, *host;
  Fixture f = { 0 };

  open_window (&f);
  editor = ADW_EXPANDER_ROW (find_with_property (GTK_WIDGET (f.page), ADW_TYPE_EXPANDER_ROW, "title", "_Edit Board"));
  save = find_button (GTK_WIDGET (f.page), "_Save");
  host = find_with_property (GTK_WIDGET (f.page), ADW_TYPE_ACTION_ROW, "title", "_Host Memory (GB)");
  g_assert_nonnull (editor);
  g_assert_nonnull (save);
  g_assert_nonnull (host);
  g_assert_false (adw_expander_row_get_expanded (editor));
  g_assert_false (gtk_widget_is_visible (save));

  adw_expander_row_set_expanded (editor, TRUE);
  g_assert_true (gtk_widget_is_visible (save));
  g_assert_false (gtk_widget_is_visible (host));  /* the Jetson has one pool */
  hr_scenario_set_board_id (hr_page_get_scenario (HR_PAGE (f.page)), "rtx-3060-12gb");
  g_assert_true (gtk_widget_is_visible (host));
  g_assert_true (iterate_until (widget_is_drawn, save, 5000));

  adw_expander_row_set_expanded (editor, FALSE);
  adw_expander_row_set_expanded (editor, TRUE);
  g_assert_true (gtk_widget_is_visible (save));
  close_window (&f);
}

/* The shortcuts window names F9 as the Controls button's tooltip does,
 * in the language the window is in. */
static void
assert_controls_shortcut_agrees (Fixture *f)
{
  GtkWidget *button = find_with_property (GTK_WIDGET (f->window), GTK_TYPE_TOGGLE_BUTTON,
                                          "icon-name", "sidebar-show-symbolic");
  GtkWindow *overlay;
  GtkWidget *shortcut;
  g_autofree char *title = NULL;
  g_autofree char *with_key = NULL;

  g_assert_nonnull (button);
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "shortcuts", NULL);
  overlay = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (f->window)));
  g_assert_nonnull (overlay);
  shortcut = find_with_property (GTK_WIDGET (overlay), GTK_TYPE_SHORTCUTS_SHORTCUT, "accelerator", "F9");
  g_assert_nonnull (shortcut);
  g_object_get (shortcut, "title", &title, NULL);
  with_key = g_strdup_printf ("%s (F9)", title);
  g_assert_cmpstr (with_key, ==, gtk_widget_get_tooltip_text (button));
  gtk_window_close (overlay);
}

/* The pages' story: one window, its pages shown by action, its controls
 * named, its shortcuts window built on first asking, then units. */
static Fixture pages;

static void
pages_open (gpointer data)
{
  open_window (data);
}

static void
pages_close (void)
{
  close_window (&pages);
}

static void
test_pages_shown_by_action (Fixture       *f,
                            gconstpointer  data)
{
  AdwViewStack *stack = hr_window_get_stack (f->window);

  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "models");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s", "hub"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "hub");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s", "board"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "board");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "models");
}

/* A spin button in a row is named by the row's title; the sliders say
 * their value in words, not as an index or a power of two. */
static void
test_pages_controls_named (Fixture       *f,
                           gconstpointer  data)
{
  gtk_test_accessible_assert_property (slots_spin (f->page),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Parallel slots");
  gtk_test_accessible_assert_property (hr_models_page_get_context_scale (f->page),
                                       GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, "4,096 tokens");
  gtk_test_accessible_assert_property (hr_models_page_get_precision_scale (f->page),
                                       GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, "as pulled");
}

static void
test_pages_app_actions (Fixture       *f,
                        gconstpointer  data)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (f->app), "quit"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (f->app), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (f->app), "preferences"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (f->app), "shortcuts"));
}

/* The shortcuts window is built when it is first asked for, on Ctrl+?,
 * and says what the controls do. */
static void
test_pages_shortcuts_window (Fixture       *f,
                             gconstpointer  data)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (f->window);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (f->app),
                                                                "win.show-help-overlay");

  g_assert_cmpuint (g_strv_length (accels), ==, 1);
  g_assert_cmpstr (accels[0], ==, "<Control>question");
  g_assert_null (gtk_application_window_get_help_overlay (window));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "shortcuts", NULL);
  g_assert_nonnull (gtk_application_window_get_help_overlay (window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (window))));
  gtk_window_close (GTK_WINDOW (gtk_application_window_get_help_overlay (window)));
  assert_controls_shortcut_agrees (f);
}

/* The units preference reaches the table and the chart. */
static void
test_pages_units (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *kv = NULL;

  g_settings_set_enum (settings, "units", 1);
  kv = cell (f, "llama3.2:3b", HR_MODELS_COLUMN_KV_CACHE);
  g_assert_cmpstr (kv, ==, "0.44 GiB");
  g_assert_nonnull (strstr (hr_memory_chart_get_description (hr_models_page_get_memory_chart (f->page)),
                            "llama3.2:3b: weights 1.86 GiB, KV cache 0.44 GiB, total 2.3 GiB"));
  g_settings_set_enum (settings, "units", 0);
}

static const GuiTestStep pages_steps[] = {
  { "/window/pages/shown-by-action", (GTestFixtureFunc) test_pages_shown_by_action },
  { "/window/pages/controls-named", (GTestFixtureFunc) test_pages_controls_named },
  { "/window/pages/app-actions", (GTestFixtureFunc) test_pages_app_actions },
  { "/window/pages/shortcuts-window", (GTestFixtureFunc) test_pages_shortcuts_window },
  { "/window/pages/units", (GTestFixtureFunc) test_pages_units },
};

static GuiTestStory pages_story = {
  "pages", pages_open, pages_close, pages_steps, G_N_ELEMENTS (pages_steps), &pages, sizeof (Fixture), 0
};


static gboolean
column_visible (HrModelsPage  *page,
                HrModelsColumn c)
{
  GListModel *columns = gtk_column_view_get_columns (hr_models_page_get_column_view (page));
  g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

  return gtk_column_view_column_get_visible (column);
}

/* The columns hidden or shown from the header's menu are as the user left
 * them when the window opens again; the setting follows each pick. */
static void
test_window_hidden_columns_remembered (void)
{
  Fixture f = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) hidden = NULL;
  g_auto(GStrv) again = NULL;
  const char * const defaults[] = { "precision", "file-size", "kv-per-token", "source", NULL };
  const char * const picked[] = { "precision", "file-size", "kv-per-token", "speed", NULL };

  open_window (&f);
  hidden = g_settings_get_strv (settings, "hidden-catalog-columns");
  g_assert_true (g_strv_equal ((const char * const *) hidden, defaults));
  g_assert_false (column_visible (f.page, HR_MODELS_COLUMN_SOURCE));
  g_assert_true (column_visible (f.page, HR_MODELS_COLUMN_SPEED));

  /* Show Source, hide Speed. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (hr_models_page_get_column_view (f.page)),
                                             "table.show-source", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (hr_models_page_get_column_view (f.page)),
                                             "table.show-speed", NULL));
  g_assert_true (column_visible (f.page, HR_MODELS_COLUMN_SOURCE));
  g_assert_false (column_visible (f.page, HR_MODELS_COLUMN_SPEED));
  again = g_settings_get_strv (settings, "hidden-catalog-columns");
  g_assert_true (g_strv_equal ((const char * const *) again, picked));
  close_window (&f);

  /* Opened again (without open_window()'s reset of the settings). */
  g_application_activate (G_APPLICATION (test_app));
  f.app = test_app;
  f.window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (f.app)));
  g_assert_nonnull (f.window);
  g_object_ref (f.window);
  f.page = hr_window_get_models_page (f.window);
  g_assert_true (iterate_until (session_loaded, f.page, 5000));
  g_assert_true (column_visible (f.page, HR_MODELS_COLUMN_SOURCE));
  g_assert_false (column_visible (f.page, HR_MODELS_COLUMN_SPEED));
  g_assert_false (column_visible (f.page, HR_MODELS_COLUMN_PRECISION));
  g_assert_true (column_visible (f.page, HR_MODELS_COLUMN_NAME));

  /* Changed from outside (another window, `gsettings set`): the table follows. */
  g_settings_reset (settings, "hidden-catalog-columns");
  g_assert_false (column_visible (f.page, HR_MODELS_COLUMN_SOURCE));
  g_assert_true (column_visible (f.page, HR_MODELS_COLUMN_SPEED));
  close_window (&f);
}

/* The window's actions for pages (GUI-CONTRACT.md): win.toast keeps the
 * message, win.show-page names a page, win.open-gguf opens a path on the
 * File page; and the scenario, changed in the settings, reaches every
 * figure of the Models page with one "changed". */
static void
count_changed (HrScenario *scenario,
               guint      *count)
{
  (*count)++;
}

/* The window actions' story: one window; a page's toast, the pages shown
 * by action, then its scenario and the settings. */
typedef struct {
  Fixture f;
} Actions;

static Actions actions;
/* The scenario's "changed" since the settings' step (a counter the signal
 * holds, so outside the fixture, which each case copies). */
static guint actions_changed;

static void
actions_open (gpointer data)
{
  open_window (&((Actions *) data)->f);
}

static void
actions_close (void)
{
  g_signal_handlers_disconnect_by_func (hr_application_get_scenario (test_app), count_changed, &actions_changed);
  close_window (&actions.f);
}

/* win.toast: the page's message is the window's. */
static void
test_actions_toast (Actions       *a,
                    gconstpointer  data)
{
  GPtrArray *messages = hr_window_get_messages (a->f.window);

  g_assert_cmpuint (messages->len, ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (a->f.page), "win.toast", "s", "Hello from a page"));
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (messages, 0), ==, "Hello from a page");
}

/* win.show-page, and win.open-gguf on a path: the File page opens it */
static void
test_actions_open_gguf (Actions       *a,
                        gconstpointer  data)
{
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "headroom-no-such-file.gguf", NULL);
  AdwViewStack *stack = hr_window_get_stack (a->f.window);
  GtkWidget *page = GTK_WIDGET (a->f.page);
  HrGgufPage *gguf;

  g_assert_true (gtk_widget_activate_action (page, "win.show-page", "s", "file"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "file");
  g_assert_true (gtk_widget_activate_action (page, "win.show-page", "s", "models"));
  gguf = hr_window_get_gguf_page (a->f.window);
  g_assert_cmpstr (hr_gguf_page_get_state (gguf), ==, "intro");
  g_assert_true (gtk_widget_activate_action (page, "win.open-gguf", "s", missing));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "file");
  spin (300);
  g_assert_cmpstr (hr_gguf_page_get_state (gguf), !=, "intro");
  g_assert_true (gtk_widget_activate_action (page, "win.show-page", "s", "models"));
}

/* The page and the application share one scenario and one session. */
static void
test_actions_shared_scenario (Actions       *a,
                              gconstpointer  data)
{
  g_assert_true (hr_page_get_scenario (HR_PAGE (a->f.page)) == hr_application_get_scenario (a->f.app));
  g_assert_true (hr_page_get_session (HR_PAGE (a->f.page)) == hr_application_get_session (a->f.app));
}

/* A context set in the settings: one "changed", and the table, the
 * slider and the inputs line follow. */
static void
test_actions_context_from_settings (Actions       *a,
                                    gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *kv_before = NULL;
  g_autofree char *kv_after = NULL;

  g_signal_connect (hr_application_get_scenario (test_app), "changed", G_CALLBACK (count_changed), &actions_changed);
  kv_before = cell (&a->f, "llama3.2:3b", HR_MODELS_COLUMN_KV_CACHE);
  g_assert_cmpstr (kv_before, ==, "0.47 GB");
  g_settings_set_uint (settings, "default-context", 8192);
  g_assert_cmpuint (actions_changed, ==, 1);
  kv_after = cell (&a->f, "llama3.2:3b", HR_MODELS_COLUMN_KV_CACHE);
  g_assert_cmpstr (kv_after, ==, "0.94 GB");
  g_assert_cmpfloat (gtk_range_get_value (hr_models_page_get_context_scale (a->f.page)), ==, 13);
  g_assert_cmpuint (page_inputs (a->f.page)->context_tokens, ==, 8192);
}

/* And a slider step is written to the settings, with one "changed". */
static void
test_actions_slider_to_settings (Actions       *a,
                                 gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  gtk_range_set_value (hr_models_page_get_context_scale (a->f.page), 11);
  g_assert_cmpuint (actions_changed, ==, 2);
  g_assert_cmpuint (g_settings_get_uint (settings, "default-context"), ==, 2048);
}

static const GuiTestStep actions_steps[] = {
  { "/window/actions-and-scenario/toast", (GTestFixtureFunc) test_actions_toast },
  { "/window/actions-and-scenario/open-gguf", (GTestFixtureFunc) test_actions_open_gguf },
  { "/window/actions-and-scenario/shared-scenario", (GTestFixtureFunc) test_actions_shared_scenario },
  { "/window/actions-and-scenario/context-from-settings", (GTestFixtureFunc) test_actions_context_from_settings },
  { "/window/actions-and-scenario/slider-to-settings", (GTestFixtureFunc) test_actions_slider_to_settings },
};

static GuiTestStory actions_story = {
  "actions-and-scenario", actions_open, actions_close, actions_steps, G_N_ELEMENTS (actions_steps),
  &actions, sizeof (Actions), 0
};

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }
  return NULL;
}

/* The preferences' cases share one window and its preferences window. */
static struct {
  Fixture      f;
  GtkWindow   *preferences;
  AdwComboRow *rows[3];   /* units, default board, default context */
  guint        n_rows;
} prefs;

static void
prefs_close (void)
{
  if (prefs.preferences != NULL)
    gtk_window_destroy (prefs.preferences);
  prefs.preferences = NULL;
  spin (50);
  close_window (&prefs.f);
}

/* The combo rows under @root, depth first, in order: at most three. */
static void
find_combo_rows (GtkWidget *root)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, root);
  while (stack->len > 0 && prefs.n_rows < 3)
    {
      GtkWidget *widget = g_ptr_array_steal_index (stack, 0);
      g_autoptr(GPtrArray) children = g_ptr_array_new ();

      if (ADW_IS_COMBO_ROW (widget))
        prefs.rows[prefs.n_rows++] = ADW_COMBO_ROW (widget);
      for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (children, c);
      for (guint i = 0; i < children->len; i++)
        g_ptr_array_insert (stack, i, g_ptr_array_index (children, i));
    }
}

static void
prefs_setup (Fixture       *f,
             gconstpointer  data)
{
  if (!gui_test_is_shared ("preferences"))
    {
      open_window (&prefs.f);
      gui_test_share ("preferences", prefs_close);
      g_action_group_activate_action (G_ACTION_GROUP (prefs.f.app), "preferences", NULL);
      prefs.preferences = find_toplevel (HR_TYPE_PREFERENCES_WINDOW);
      g_assert_nonnull (prefs.preferences);
      prefs.n_rows = 0;
      find_combo_rows (GTK_WIDGET (prefs.preferences));
    }
  *f = prefs.f;
}

static void
test_prefs_transient (Fixture       *f,
                      gconstpointer  data)
{
  g_assert_true (gtk_window_get_transient_for (prefs.preferences) == GTK_WINDOW (f->window));
}

/* The three combo rows, in order: units, default board, default context */
static void
test_prefs_three_rows (Fixture       *f,
                       gconstpointer  data)
{
  g_assert_cmpuint (prefs.n_rows, ==, 3);
}

static void
test_prefs_units (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  adw_combo_row_set_selected (prefs.rows[0], 1);
  g_assert_cmpint (g_settings_get_enum (settings, "units"), ==, 1);
  adw_combo_row_set_selected (prefs.rows[0], 0);
  g_assert_cmpint (g_settings_get_enum (settings, "units"), ==, 0);
}

static void
test_prefs_default_board (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  GPtrArray *boards = hr_session_get_boards (hr_page_get_session (HR_PAGE (f->page)));
  g_autofree char *board = NULL;
  guint dgx = G_MAXUINT;

  for (guint i = 0; i < boards->len; i++)
    if (g_str_equal (((HrBoard *) g_ptr_array_index (boards, i))->id, "dgx-spark"))
      dgx = i;
  g_assert_cmpuint (dgx, !=, G_MAXUINT);
  adw_combo_row_set_selected (prefs.rows[1], dgx);
  board = g_settings_get_string (settings, "default-board");
  g_assert_cmpstr (board, ==, "dgx-spark");
}

/* 512, 1,024, 2,048, 4,096, ... 131,072: the fifth is 8,192 */
static void
test_prefs_default_context (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  g_assert_cmpuint (adw_combo_row_get_selected (prefs.rows[2]), ==, 3);
  adw_combo_row_set_selected (prefs.rows[2], 4);
  g_assert_cmpuint (g_settings_get_uint (settings, "default-context"), ==, 8192);
}

static void
test_prefs_about (Fixture       *f,
                  gconstpointer  data)
{
  GtkWindow *about;

  gtk_window_destroy (prefs.preferences);
  prefs.preferences = NULL;
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "about", NULL);
  about = find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_application_name (ADW_ABOUT_WINDOW (about)), ==, "Headroom");
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, PACKAGE_VERSION);
  gtk_window_destroy (about);
}

static void
test_window_german (void)
{
  const char *locale_dir = g_getenv ("HEADROOM_LOCALE_DIR");
  g_autofree char *mo = NULL;
  Fixture f = { 0 };

  if (!g_test_subprocess ())
    {
      if (locale_dir == NULL)
        {
          g_test_skip ("HEADROOM_LOCALE_DIR is not set");
          return;
        }
      mo = g_build_filename (locale_dir, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
      g_assert_true (g_file_test (mo, G_FILE_TEST_EXISTS));

      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  /* The child: German from here on. gettext reads LANGUAGE on every call
   * (the window's templates are translated as they are built), but ignores
   * it in the "C" locale, which gtk_test_init() leaves when its own choice,
   * en_US.UTF-8, is not installed: take the environment's locale again. */
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  g_assert_cmpstr (hr_models_page_column_title (HR_MODELS_COLUMN_VERDICT), ==, "Urteil");
  open_window (&f);
  g_assert_true (shows_label (GTK_WIDGET (f.window), "Kontextfenster"));
  assert_controls_shortcut_agrees (&f);
  close_window (&f);
}


/* The window as drawn, for a person to look at (HR_TEST_SHOTS). */
static void
save_png (GtkWidget  *widget,
          const char *path)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* Window on the RTX 3060 12 GB board: qwen2.5:14b at 32,768
 * tokens is "partial 34/49" with the figures `headroom-cli fit --board
 * rtx-3060-12gb --context 32768` and `dashboard` print; the pool shows both
 * memories, the explain panel the split and its finders, whose button sets
 * the context. */
/* The partial-offload cases share one window on the RTX 3060 12 GB at
 * 32,768 tokens, where qwen2.5:14b is split: 34 of its 49 layers on the
 * GPU. */
static Fixture partial;

static void
partial_close (void)
{
  HrScenario *scenario = hr_application_get_scenario (test_app);

  g_object_set (scenario, "board-id", "jetson-orin-nano-super", NULL);
  hr_scenario_set_context_tokens (scenario, 4096);
  close_window (&partial);
}

static void
partial_setup (Fixture       *f,
               gconstpointer  data)
{
  HrScenario *scenario;

  if (!gui_test_is_shared ("partial-offload"))
    {
      open_window (&partial);
      gui_test_share ("partial-offload", partial_close);
    }
  scenario = hr_application_get_scenario (test_app);
  if (g_strcmp0 (hr_scenario_get_board (scenario)->id, "rtx-3060-12gb") != 0 ||
      hr_scenario_get_context_tokens (scenario) != 32768)
    {
      g_object_set (scenario, "board-id", "rtx-3060-12gb", NULL);
      hr_scenario_set_context_tokens (scenario, 32768);
      spin (100);
    }
  *f = partial;
}

static HrModelRow *
qwen_14b (Fixture *f)
{
  HrModelRow *row = hr_models_page_find_row (f->page, "qwen2.5:14b");

  g_assert_nonnull (row);
  return row;
}

static void
test_partial_offload_verdict (Fixture       *f,
                              gconstpointer  data)
{
  g_autofree char *verdict = hr_models_page_cell_text (f->page, qwen_14b (f), HR_MODELS_COLUMN_VERDICT);

  g_assert_cmpstr (verdict, ==, "partial 34/49");
}

/* The split's rate is the prior's; a model all on the GPU keeps its own. */
static void
test_partial_offload_rate (Fixture       *f,
                           gconstpointer  data)
{
  HrModelRow *row = qwen_14b (f);
  g_autofree char *tps = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_TPS);
  g_autofree char *source = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_SOURCE);
  g_autofree char *speed = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_SPEED);
  g_autofree char *small_tps = hr_models_page_cell_text (f->page, hr_models_page_find_row (f->page, "llama3.1:8b"),
                                                         HR_MODELS_COLUMN_TPS);

  g_assert_cmpstr (tps, ==, "11.0");
  g_assert_cmpstr (source, ==, "predicted");
  g_assert_cmpstr (speed, ==, "likely ok");
  g_assert_cmpstr (small_tps, ==, "49.2");
}

/* Sorted by verdict: fits, tight, partial, over (HR_VERDICT_PARTIAL is
 * numerically after HR_VERDICT_OVER); qwen2.5:14b's partial before the
 * overs. */
static void
test_partial_offload_sort (Fixture       *f,
                           gconstpointer  data)
{
  HrModelRow *row = qwen_14b (f);
  GtkColumnView *view = hr_models_page_get_column_view (f->page);
  g_autoptr(GtkColumnViewColumn) column =
    g_list_model_get_item (gtk_column_view_get_columns (view), HR_MODELS_COLUMN_VERDICT);
  GListModel *rows = hr_models_page_get_rows (f->page);
  static const HrVerdict order[] = { HR_VERDICT_FITS, HR_VERDICT_TIGHT, HR_VERDICT_PARTIAL, HR_VERDICT_OVER };
  guint at = 0, partials = 0, overs = 0;
  gint qwen = -1, first_over = -1;

  gtk_column_view_sort_by_column (view, column, GTK_SORT_ASCENDING);
  spin (50);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(HrModelRow) r = g_list_model_get_item (rows, i);
      HrVerdict v = hr_model_row_get_evaluation (r)->verdict;

      while (at < G_N_ELEMENTS (order) && order[at] != v)
        at++;
      g_assert_cmpuint (at, <, G_N_ELEMENTS (order));
      partials += v == HR_VERDICT_PARTIAL;
      overs += v == HR_VERDICT_OVER;
      if (v == HR_VERDICT_OVER && first_over < 0)
        first_over = (gint) i;
      if (r == row)
        qwen = (gint) i;
    }
  g_assert_cmpuint (partials, >, 0);
  g_assert_cmpuint (overs, >, 0);
  g_assert_cmpint (qwen, >=, 0);
  g_assert_cmpint (qwen, <, first_over);

  /* A slider step moves the totals: the table re-sorts where a row is
   * out of order, so it stays in the Verdict column's order. */
  hr_scenario_set_context_tokens (hr_page_get_scenario (HR_PAGE (f->page)), 131072);
  spin (50);
  for (guint i = 1; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(HrModelRow) a = g_list_model_get_item (rows, i - 1);
      g_autoptr(HrModelRow) b = g_list_model_get_item (rows, i);
      const HrEvaluation *ea = hr_model_row_get_evaluation (a);
      const HrEvaluation *eb = hr_model_row_get_evaluation (b);
      guint ra = 0, rb = 0;

      while (order[ra] != ea->verdict)
        ra++;
      while (order[rb] != eb->verdict)
        rb++;
      g_assert_cmpuint (ra, <=, rb);
      if (ra == rb)
        g_assert_cmpuint (ea->footprint.total, <=, eb->footprint.total);
    }
  hr_scenario_set_context_tokens (hr_page_get_scenario (HR_PAGE (f->page)), 32768);
  gtk_column_view_sort_by_column (view, NULL, GTK_SORT_ASCENDING);
  spin (50);
}

/* The pool chart describes each memory's buffers (10.65 GB in VRAM,
 * 5.27 GB in host memory, as the split). */
static void
test_partial_offload_chart (Fixture       *f,
                            gconstpointer  data)
{
  hr_models_page_select_row (f->page, qwen_14b (f));
  g_assert_cmpstr (hr_memory_chart_get_description (hr_models_page_get_pool_chart (f->page)), ==,
                   "NVIDIA GeForce RTX 3060 12 GB with qwen2.5:14b: VRAM: 34 layers; weights 6.02 GB, KV cache 4.43 GB, "
                   "compute buffer 0.2 GB, resident 1.0 GB, reserve 0.5 GB, free 0.74 GB of 12.88 GB; host memory: "
                   "15 layers on the CPU; weights 2.98 GB, KV cache 2.01 GB, compute buffer 0.27 GB, resident 4.0 GB, "
                   "reserve 2.0 GB, free 23.09 GB of 34.36 GB");
}

static void
test_partial_offload_explain (Fixture       *f,
                              gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (f->page);

  hr_models_page_select_row (f->page, qwen_14b (f));
  g_assert_true (g_str_has_prefix (hr_explain_panel_get_figure (panel, "split"), "34 of 49 layers on the GPU"));
  g_assert_true (g_str_has_suffix (hr_explain_panel_get_figure (panel, "split-rate"),
                                   "= 25.0 ms + 66.0 ms = 90.9 ms per token: 11.0 t/s"));
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "max-context-gpu"), ==, "10,752 tokens");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "max-context-partial"), ==, "32,768 tokens");
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "best-precision"), ==, "FP16");
}

/* The finder's button sets the context: all on the GPU at 10,752 tokens. */
static void
test_partial_offload_found_context (Fixture       *f,
                                    gconstpointer  data)
{
  HrModelRow *row = qwen_14b (f);
  HrExplainPanel *panel = hr_models_page_get_explain_panel (f->page);
  g_autofree char *verdict = NULL;

  hr_models_page_select_row (f->page, row);
  hr_explain_panel_use_found_context (panel, FALSE);
  spin (100);
  g_assert_cmpuint (hr_scenario_get_context_tokens (hr_application_get_scenario (test_app)), ==, 10752);
  verdict = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_VERDICT);
  g_assert_true (g_str_has_prefix (verdict, "fits "));
  g_assert_cmpstr (hr_explain_panel_get_figure (panel, "split-rate"), ==, "");
}

static GtkWidget *
board_editor_child (Fixture    *f,
                    const char *name)
{
  GtkWidget *editor = find_descendant (GTK_WIDGET (f->page), HR_TYPE_BOARD_EDITOR);

  g_assert_nonnull (editor);
  return GTK_WIDGET (gtk_widget_get_template_child (editor, HR_TYPE_BOARD_EDITOR, name));
}

/* The board editor's host side: the built-in figures are an assumption. */
static void
test_partial_offload_host_assumed (Fixture       *f,
                                   gconstpointer  data)
{
  GtkSpinButton *host_pool = GTK_SPIN_BUTTON (board_editor_child (f, "host_pool_spin"));
  GtkSpinButton *host_resident = GTK_SPIN_BUTTON (board_editor_child (f, "host_resident_spin"));
  AdwComboRow *backend = ADW_COMBO_ROW (board_editor_child (f, "backend_row"));
  AdwActionRow *host_row = ADW_ACTION_ROW (board_editor_child (f, "host_pool_row"));

  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (host_pool), 34.36, 0.005);
  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (host_resident), 4.0, 0.005);
  g_assert_cmpuint (adw_combo_row_get_selected (backend), ==, HR_BOARD_BACKEND_CUDA);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (host_row)));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (host_row), "an assumption of a typical desktop"));
}

/* An invalid host value marks its field and changes nothing. */
static void
test_partial_offload_host_invalid (Fixture       *f,
                                   gconstpointer  data)
{
  GtkSpinButton *host_resident = GTK_SPIN_BUTTON (board_editor_child (f, "host_resident_spin"));
  HrScenario *scenario = hr_application_get_scenario (test_app);

  gtk_spin_button_set_value (host_resident, 40.0);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (host_resident), "error"));
  g_assert_cmpuint (hr_scenario_get_board (scenario)->host_resident_bytes, ==, 4000000000);
  gtk_spin_button_set_value (host_resident, 8.0);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (host_resident), "error"));
  g_assert_cmpuint (hr_scenario_get_board (scenario)->host_resident_bytes, ==, 8000000000);
  hr_scenario_revert_board (scenario);
  spin (50);
  g_assert_cmpuint (hr_scenario_get_board (scenario)->host_resident_bytes, ==, 4000000000);
}

/* With HR_TEST_SHOTS=DIR: the split window as DIR/window-partial.png. */
static void
test_partial_offload_shot (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *path = NULL;

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    {
      g_test_skip ("HR_TEST_SHOTS is not set");
      return;
    }
  path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "window-partial.png", NULL);
  hr_models_page_select_row (f->page, qwen_14b (f));
  spin (300);
  save_png (GTK_WIDGET (f->window), path);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  /* GTK's test accessibility backend, so the chart's role and description
   * can be read back (GTK_A11Y=none has no AT context at all). */
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* GTK 4.8's GL renderer leaks one 16 KiB block when a second toplevel
   * (the About window) comes and goes, which LeakSanitizer cannot attribute
   * through the system libraries; what these tests check does not depend
   * on the renderer, so they draw with cairo. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED);
  real_user_data_dir = g_build_filename (g_get_home_dir (), ".local", "share", NULL);

  g_test_add ("/window/seed-board/catalog-listed", Fixture, NULL, seed_setup, test_seed_catalog_listed, NULL);
  g_test_add ("/window/seed-board/inputs", Fixture, NULL, seed_setup, test_seed_inputs, NULL);
  g_test_add ("/window/seed-board/seed-cells", Fixture, NULL, seed_setup, test_seed_cells, NULL);
  g_test_add ("/window/seed-board/seed-rows-shown", Fixture, NULL, seed_setup, test_seed_rows_shown, NULL);
  g_test_add ("/window/seed-board/select-scrolls", Fixture, NULL, seed_setup, test_seed_select_scrolls, NULL);
  g_test_add ("/window/seed-board/rates", Fixture, NULL, seed_setup, test_seed_rates, NULL);
  g_test_add ("/window/context-and-kv-type/default-kv", Fixture, NULL, controls_setup, test_controls_default_kv, NULL);
  g_test_add ("/window/context-and-kv-type/context-16k", Fixture, NULL, controls_setup, test_controls_context_16k, NULL);
  g_test_add ("/window/context-and-kv-type/context-16k-cells", Fixture, NULL, controls_setup, test_controls_context_16k_cells, NULL);
  g_test_add ("/window/context-and-kv-type/context-16k-shown", Fixture, NULL, controls_setup, test_controls_context_16k_shown, NULL);
  g_test_add ("/window/context-and-kv-type/kv-q8", Fixture, NULL, controls_setup, test_controls_kv_q8, NULL);
  g_test_add ("/window/context-and-kv-type/kv-q8-cells", Fixture, NULL, controls_setup, test_controls_kv_q8_cells, NULL);
  g_test_add ("/window/context-and-kv-type/two-slots", Fixture, NULL, controls_setup, test_controls_two_slots, NULL);
  g_test_add ("/window/context-and-kv-type/past-native-context", Fixture, NULL, controls_setup, test_controls_past_native, NULL);
  g_test_add ("/window/context-and-kv-type/fp16", Fixture, NULL, controls_setup, test_controls_fp16, NULL);
  g_test_add ("/window/chart-and-explain/description", Fixture, NULL, controls_setup, test_chart_description, NULL);
  g_test_add ("/window/chart-and-explain/accessible", Fixture, NULL, controls_setup, test_chart_accessible, NULL);
  g_test_add ("/window/chart-and-explain/follows-context", Fixture, NULL, controls_setup, test_chart_follows_context, NULL);
  g_test_add ("/window/chart-and-explain/pool-column", Fixture, NULL, controls_setup, test_chart_pool_column, NULL);
  g_test_add ("/window/chart-and-explain/explain-memory", Fixture, NULL, controls_setup, test_chart_explain_memory, NULL);
  g_test_add ("/window/chart-and-explain/explain-rates", Fixture, NULL, controls_setup, test_chart_explain_rates, NULL);
  g_test_add ("/window/chart-and-explain/tooltip", Fixture, NULL, controls_setup, test_chart_tooltip, NULL);
  g_test_add ("/window/export/inputs", Fixture, NULL, export_setup, test_export_inputs, NULL);
  g_test_add ("/window/export/png", Fixture, NULL, export_setup, test_export_png, NULL);
  g_test_add ("/window/export/svg-xml", Fixture, NULL, export_setup, test_export_svg_xml, NULL);
  g_test_add ("/window/export/svg-image", Fixture, NULL, export_setup, test_export_svg_image, NULL);
  g_test_add ("/window/export/csv-header", Fixture, NULL, export_setup, test_export_csv_header, NULL);
  g_test_add ("/window/export/csv-rows", Fixture, NULL, export_setup, test_export_csv_rows, NULL);
  gui_test_story_add (&malformed_story);
  g_test_add_func ("/window/board-editor-saves", test_window_board_editor_saves);
  g_test_add_func ("/window/board-editor-deferred", test_window_board_editor_deferred);
  gui_test_story_add (&pages_story);
  g_test_add_func ("/window/hidden-columns-remembered", test_window_hidden_columns_remembered);
  gui_test_story_add (&actions_story);
  g_test_add ("/window/preferences-and-about/transient", Fixture, NULL, prefs_setup, test_prefs_transient, NULL);
  g_test_add ("/window/preferences-and-about/three-rows", Fixture, NULL, prefs_setup, test_prefs_three_rows, NULL);
  g_test_add ("/window/preferences-and-about/units", Fixture, NULL, prefs_setup, test_prefs_units, NULL);
  g_test_add ("/window/preferences-and-about/default-board", Fixture, NULL, prefs_setup, test_prefs_default_board, NULL);
  g_test_add ("/window/preferences-and-about/default-context", Fixture, NULL, prefs_setup, test_prefs_default_context, NULL);
  g_test_add ("/window/preferences-and-about/about", Fixture, NULL, prefs_setup, test_prefs_about, NULL);
  g_test_add_func ("/window/german", test_window_german);
  g_test_add ("/window/partial-offload/verdict", Fixture, NULL,
              partial_setup, test_partial_offload_verdict, NULL);
  g_test_add ("/window/partial-offload/rate", Fixture, NULL,
              partial_setup, test_partial_offload_rate, NULL);
  g_test_add ("/window/partial-offload/sorted-before-over", Fixture, NULL,
              partial_setup, test_partial_offload_sort, NULL);
  g_test_add ("/window/partial-offload/pool-chart", Fixture, NULL,
              partial_setup, test_partial_offload_chart, NULL);
  g_test_add ("/window/partial-offload/explain-figures", Fixture, NULL,
              partial_setup, test_partial_offload_explain, NULL);
  g_test_add ("/window/partial-offload/found-context", Fixture, NULL,
              partial_setup, test_partial_offload_found_context, NULL);
  g_test_add ("/window/partial-offload/host-assumed", Fixture, NULL,
              partial_setup, test_partial_offload_host_assumed, NULL);
  g_test_add ("/window/partial-offload/host-invalid", Fixture, NULL,
              partial_setup, test_partial_offload_host_invalid, NULL);
  g_test_add ("/window/partial-offload/screenshot", Fixture, NULL,
              partial_setup, test_partial_offload_shot, NULL);

  test_app = gui_test_app_new ();
  result = gui_test_run_and_clean (&test_app, &isolated_root);
  g_free (real_user_data_dir);
  return result;
}
