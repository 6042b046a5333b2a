/* test-models-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Models page's table as a person reads it, at the window's default
 * size on the built-in data: no verdict pill and no header is cut, in
 * English and German, on every board at every context preset; the main
 * columns are on screen; figures print one way; a search that matches
 * nothing says so; Tab leaves the table in one stop, and the Boards view's
 * grid in one stop, its cells reached with the arrows.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "hr-application.h"
#include "hr-board-editor.h"
#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-models-page-private.h"
#include "hr-rename-dialog.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

static char *isolated_root;
static HrApplication *test_app;

typedef struct {
  HrWindow     *window;
  HrModelsPage *page;
} Fixture;

static gboolean
session_loaded (gpointer data)
{
  HrSession *session = hr_page_get_session (HR_PAGE (data));

  return session != NULL && hr_session_get_loaded (session);
}

/* The window at the schema's default size, as a new user first sees it. */
static void
open_window (Fixture *f)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GVariant) width = NULL;
  g_autoptr(GVariant) height = NULL;

  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  reset_settings (0, 0);
  /* The figures checked here are the seed's tables: its plain math (the
   * default runtime, the prediction, is test-runtime-view.c's). */
  use_seed_runtime ();
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  width = g_settings_get_default_value (settings, "window-width");
  height = g_settings_get_default_value (settings, "window-height");
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, g_variant_get_int32 (width));
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, g_variant_get_int32 (height));

  g_application_activate (G_APPLICATION (test_app));
  f->window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
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
}

static int
natural_width (GtkWidget *widget)
{
  int natural = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural;
}

/* The width a widget was given with its CSS padding and border (as
 * gtk_widget_measure() counts them; gtk_widget_get_width() does not). */
static int
given_width (GtkWidget *widget)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, widget, &bounds));
  return (int) (bounds.size.width + 0.5);
}

static void
collect_labels (GtkWidget *root,
                GPtrArray *out)
{
  if (GTK_IS_LABEL (root))
    g_ptr_array_add (out, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static void
collect_by_class (GtkWidget  *root,
                  const char *css_class,
                  GPtrArray  *out)
{
  if (gtk_widget_has_css_class (root, css_class))
    g_ptr_array_add (out, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_by_class (child, css_class, out);
}

/* How much of a pill its cell leaves visible (the cell clips what
 * overflows it; a label is given its natural width even when the cell is
 * narrower), in pixels. */
static int
visible_width (GtkWidget *pill)
{
  GtkWidget *cell = gtk_widget_get_parent (pill);
  graphene_rect_t pill_bounds, cell_bounds;

  g_assert_true (gtk_widget_compute_bounds (pill, cell, &pill_bounds));
  g_assert_true (gtk_widget_compute_bounds (cell, cell, &cell_bounds));
  return (int) (MIN (pill_bounds.origin.x + pill_bounds.size.width,
                     cell_bounds.origin.x + cell_bounds.size.width)
                - MAX (pill_bounds.origin.x, cell_bounds.origin.x) + 0.5);
}

/* Every drawn verdict pill shows whole: returns how many were checked, or
 * -1 (after a message with @where, when @where is given) at the first
 * that is cut. */
static int
check_pills (GtkColumnView *view,
             const char    *where)
{
  g_autoptr(GPtrArray) pills = g_ptr_array_new ();
  int checked = 0;

  collect_by_class (GTK_WIDGET (view), "verdict-pill", pills);
  for (guint i = 0; i < pills->len; i++)
    {
      GtkWidget *pill = g_ptr_array_index (pills, i);

      if (!gtk_widget_is_drawable (pill) || gtk_widget_get_width (pill) == 0)
        continue;
      if (natural_width (pill) > given_width (pill) || natural_width (pill) > visible_width (pill))
        {
          if (where != NULL)
            g_test_message ("%s: the pill \"%s\" needs %d px and shows %d", where,
                            gtk_label_get_text (GTK_LABEL (pill)), natural_width (pill),
                            MIN (given_width (pill), visible_width (pill)));
          return -1;
        }
      checked++;
    }
  return checked;
}

/* Whether @label lies whole inside its table cell (@label's box's
 * parent, which clips what overflows it). */
static gboolean
inside_cell (GtkWidget *label)
{
  GtkWidget *cell = gtk_widget_get_parent (gtk_widget_get_parent (label));
  graphene_rect_t bounds, cell_bounds;

  g_assert_true (gtk_widget_compute_bounds (label, cell, &bounds));
  g_assert_true (gtk_widget_compute_bounds (cell, cell, &cell_bounds));
  return bounds.origin.x + bounds.size.width <= cell_bounds.origin.x + cell_bounds.size.width + 0.5;
}

/* Every drawn model name in the table shows whole or ends in an ellipsis
 * inside its cell, never cut off by the cell's edge: returns how many were
 * checked, or -1 (after a message with @where, when @where is given) at
 * the first that is cut. */
static int
check_names (GtkColumnView *view,
             const char    *where)
{
  g_autoptr(GPtrArray) stars = g_ptr_array_new ();
  int checked = 0;

  collect_by_class (GTK_WIDGET (view), "recommended-star", stars);
  for (guint i = 0; i < stars->len; i++)
    {
      GtkWidget *label = gtk_widget_get_next_sibling (g_ptr_array_index (stars, i));

      if (!gtk_widget_is_drawable (label) || gtk_widget_get_width (label) == 0)
        continue;
      if (!inside_cell (label))
        {
          if (where != NULL)
            g_test_message ("%s: the name \"%s\" is %d px wide, past its cell's edge, and %s", where,
                            gtk_label_get_text (GTK_LABEL (label)), gtk_widget_get_width (label),
                            pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))) ?
                            "ellipsized" : "not ellipsized");
          return -1;
        }
      checked++;
    }
  return checked;
}

/* A check of what the table draws: how many cells it checked, or -1
 * (after a message with @where, when given) at the first wrong one. */
typedef int (*TableCheck) (GtkColumnView *view,
                           const char    *where);

typedef struct {
  TableCheck     check;
  GtkColumnView *view;
} TableWait;

static gboolean
table_passes (gpointer data)
{
  TableWait *wait = data;

  return wait->check (wait->view, NULL) >= 0;
}

/* Scrolls the table from top to bottom, running @check at each half page
 * once the list has laid out the cells it just bound: every row of the
 * table is checked at least once. */
static void
assert_whole_table (Fixture    *f,
                    TableCheck  check,
                    const char *where)
{
  GtkColumnView *view = hr_models_page_get_column_view (f->page);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  TableWait wait = { check, view };
  guint checked = 0;
  double value = 0;

  do
    {
      int n;

      gtk_adjustment_set_value (adjustment, value);
      spin (20);
      iterate_until (table_passes, &wait, 1000);
      n = check (view, where);
      g_assert_cmpint (n, >, 0);
      checked += (guint) n;
      value += gtk_adjustment_get_page_size (adjustment) / 2;
    }
  while (value < gtk_adjustment_get_upper (adjustment));
  g_assert_cmpuint (checked, >=, g_list_model_get_n_items (hr_models_page_get_rows (f->page)));
}

/* At the default size, with the longest names of the catalog
 * ("phi4-mini-reasoning:3.8b"), every name in the table, top to bottom:
 * at the default context, and at 131,072 tokens, where most names have
 * the "past its limit" note beside them. */
static void
test_names_english (void)
{
  Fixture f = { 0 };
  HrScenario *scenario;

  open_window (&f);
  scenario = hr_application_get_scenario (test_app);
  assert_whole_table (&f, check_names, "at 4,096 tokens");
  hr_scenario_set_context_tokens (scenario, 131072);
  spin (60);
  assert_whole_table (&f, check_names, "at 131,072 tokens");
  close_window (&f);
}

/* The context slider's marks (hr-scenario-controls.ui). */
static const guint32 context_presets[] = { 512, 2048, 4096, 8192, 16384, 32768, 131072 };

static void
check_pills_on_every_board (void)
{
  Fixture f = { 0 };
  HrScenario *scenario;
  GPtrArray *boards;

  open_window (&f);
  scenario = hr_application_get_scenario (test_app);
  boards = hr_session_get_boards (hr_application_get_session (test_app));
  g_assert_cmpuint (boards->len, >=, 9);

  for (guint b = 0; b < boards->len; b++)
    for (guint c = 0; c < G_N_ELEMENTS (context_presets); c++)
      {
        const HrBoard *board = g_ptr_array_index (boards, b);
        g_autofree char *where = g_strdup_printf ("%s at %u tokens", board->id, context_presets[c]);

        g_object_set (scenario, "board-id", board->id, NULL);
        hr_scenario_set_context_tokens (scenario, context_presets[c]);
        spin (60);
        assert_whole_table (&f, check_pills, where);
      }
  close_window (&f);
}

/* No visible column's header is cut, and the main columns end inside the
 * table's viewport at the default size. */
static void
check_headers_and_columns (void)
{
  Fixture f = { 0 };
  GtkColumnView *view;
  GtkWidget *scroller;
  GtkWidget *header;
  GListModel *columns;
  guint c = 0;

  open_window (&f);
  view = hr_models_page_get_column_view (f.page);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  columns = gtk_column_view_get_columns (view);
  header = gtk_widget_get_first_child (GTK_WIDGET (view));

  for (GtkWidget *title = gtk_widget_get_first_child (header);
       title != NULL;
       title = gtk_widget_get_next_sibling (title), c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      graphene_rect_t bounds;

      if (!gtk_widget_get_visible (title))
        {
          g_assert_false (gtk_column_view_column_get_visible (column));
          continue;
        }
      if (natural_width (title) > given_width (title))
        g_error ("the header \"%s\" needs %d px and has %d", gtk_column_view_column_get_title (column),
                 natural_width (title), given_width (title));
      g_assert_true (gtk_widget_compute_bounds (title, scroller, &bounds));
      if (bounds.origin.x + bounds.size.width > gtk_widget_get_width (scroller) + 0.5)
        g_error ("the column \"%s\" ends at %.0f px, past the table's %d px",
                 gtk_column_view_column_get_title (column), bounds.origin.x + bounds.size.width,
                 gtk_widget_get_width (scroller));
    }
  g_assert_cmpuint (c, ==, HR_MODELS_N_COLUMNS);

  /* t/s and Speed show; the header's menu brings back a hidden column. */
  {
    g_autoptr(GtkColumnViewColumn) tps = g_list_model_get_item (columns, HR_MODELS_COLUMN_TPS);
    g_autoptr(GtkColumnViewColumn) speed = g_list_model_get_item (columns, HR_MODELS_COLUMN_SPEED);
    g_autoptr(GtkColumnViewColumn) source = g_list_model_get_item (columns, HR_MODELS_COLUMN_SOURCE);

    g_assert_true (gtk_column_view_column_get_visible (tps));
    g_assert_true (gtk_column_view_column_get_visible (speed));
    g_assert_false (gtk_column_view_column_get_visible (source));
    g_assert_nonnull (gtk_column_view_column_get_header_menu (source));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "table.show-source", NULL));
    g_assert_true (gtk_column_view_column_get_visible (source));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "table.show-source", NULL));
    g_assert_false (gtk_column_view_column_get_visible (source));
  }
  close_window (&f);
}

static GtkWidget *find_label (GtkWidget *root, const char *text);

/* Counts the rows under @root whose subtitle is shown, and says in
 * @problem (if not yet set) the first one that is cut or squeezed: the
 * sidebar's rows may take a bounded number of lines (a start-up saving,
 * hr_gui_rows_bound_subtitles()), which no text reaches, and a subtitle
 * beside wide buttons once took a letter a line. */
static guint
check_subtitles_whole (GtkWidget  *root,
                       char      **problem)
{
  guint shown = 0;

  if (ADW_IS_ACTION_ROW (root) && gtk_widget_get_mapped (root))
    {
      const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (root));
      GtkLabel *label = subtitle != NULL && *subtitle != '\0' ? GTK_LABEL (find_label (root, subtitle)) : NULL;

      if (label != NULL && gtk_widget_get_mapped (GTK_WIDGET (label)))
        {
          PangoLayout *layout = gtk_label_get_layout (label);
          int width = gtk_widget_get_width (GTK_WIDGET (label));

          if (*problem == NULL && pango_layout_is_ellipsized (layout))
            *problem = g_strdup_printf ("the subtitle “%s” is cut: %d px wide, %d lines", subtitle,
                                        width, pango_layout_get_line_count (layout));
          /* Not squeezed to a letter a line by the row's suffix. */
          if (*problem == NULL && width < 80)
            *problem = g_strdup_printf ("the subtitle “%s” is %d px wide", subtitle, width);
          g_assert_cmpint (adw_action_row_get_subtitle_lines (ADW_ACTION_ROW (root)), >, 0);
          shown++;
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    shown += check_subtitles_whole (child, problem);
  return shown;
}

typedef struct {
  GtkWidget *sidebar;
  char      *problem;  /* the last check's, or NULL */
  guint      shown;
} SubtitleCheck;

/* For iterate_until(): a row just shown is laid out in a later frame. */
static gboolean
subtitles_whole (gpointer data)
{
  SubtitleCheck *check = data;

  g_clear_pointer (&check->problem, g_free);
  check->shown = check_subtitles_whole (check->sidebar, &check->problem);
  return check->problem == NULL && check->shown >= 12;
}

/* Every subtitle of the sidebar whole, Edit Board open, on a board with
 * one pool and on one with host memory (whose subtitle is the longest). */
static void
check_sidebar_subtitles (void)
{
  const char *boards[] = { "jetson-orin-nano-super", "rtx-3060-12gb" };
  AdwExpanderRow *editor;
  Fixture f = { 0 };

  open_window (&f);
  /* The board editor's first expander is Edit Board. */
  editor = ADW_EXPANDER_ROW (find_descendant (find_descendant (GTK_WIDGET (f.page), HR_TYPE_BOARD_EDITOR),
                                              ADW_TYPE_EXPANDER_ROW));
  g_assert_nonnull (editor);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (editor)), ==, _("_Edit Board"));
  adw_expander_row_set_expanded (editor, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (boards); i++)
    {
      SubtitleCheck check = { gtk_widget_get_ancestor (GTK_WIDGET (editor), GTK_TYPE_SCROLLED_WINDOW), NULL, 0 };

      hr_scenario_set_board_id (hr_page_get_scenario (HR_PAGE (f.page)), boards[i]);
      spin (600);  /* past the expander's animation */
      if (!iterate_until (subtitles_whole, &check, 10000))
        g_error ("on %s, %u subtitles shown: %s", boards[i], check.shown,
                 check.problem != NULL ? check.problem : "fewer than 12");
      g_free (check.problem);
    }
  close_window (&f);
}

static void
test_pills_english (void)
{
  check_pills_on_every_board ();
}

static void
test_subtitles_english (void)
{
  check_sidebar_subtitles ();
}

static void
test_headers_english (void)
{
  check_headers_and_columns ();
}

static void test_boards_view (void);

/* The sidebar's board summary with German separators, every figure of it:
 * the floor and the efficiency as well as the sizes. */
static void
check_board_summary_german (void)
{
  Fixture f = { 0 };
  GtkWidget *summary;
  const char *text;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_message ("de_DE.UTF-8 is not installed: the board summary's separators are not checked");
      return;
    }
  open_window (&f);
  summary = GTK_WIDGET (gtk_widget_get_template_child (find_descendant (GTK_WIDGET (f.page), HR_TYPE_BOARD_EDITOR),
                                                       HR_TYPE_BOARD_EDITOR, "board_summary"));
  g_assert_true (GTK_IS_LABEL (summary));
  text = gtk_label_get_text (GTK_LABEL (summary));
  g_test_message ("board summary: %s", text);
  g_assert_nonnull (strstr (text, "Untergrenze 10,2 t/s"));
  g_assert_nonnull (strstr (text, "Effizienz 0,36"));
  g_assert_null (strstr (text, "0.36"));
  close_window (&f);
  setlocale (LC_NUMERIC, "C.UTF-8");
}

/* German, in a child: gettext ignores LANGUAGE in the "C" locale, so the
 * child takes the environment's (C.UTF-8) again. */
static void
test_german (void)
{
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  {
    g_autofree char *tight = hr_gui_format_verdict (HR_VERDICT_TIGHT, 660000000, HR_UNIT_GB);
    g_autofree char *parameters = hr_gui_format_parameters (3212749888);
    g_autofree char *millions = hr_gui_format_parameters (1262848);

    g_assert_cmpstr (hr_catalog_view_column_title (HR_MODELS_COLUMN_VERDICT), ==, "Urteil");
    g_assert_cmpstr (tight, ==, "knapp 0.66 GB");
    g_assert_cmpstr (parameters, ==, "3.21 Mrd.");
    g_assert_cmpstr (millions, ==, "1.26 Mio.");
  }
  check_headers_and_columns ();
  check_pills_on_every_board ();
  check_sidebar_subtitles ();
  test_boards_view ();
  check_board_summary_german ();
}

/* One number of decimals per column, parameters one way, bits to two
 * decimals, counts with the locale's separators. */
static void
test_figures (void)
{
  Fixture f = { 0 };
  HrModelRow *row;
  g_autofree char *parameters = NULL;
  g_autofree char *file = NULL;
  g_autofree char *qwen_file = NULL;
  g_autofree char *qwen_total = NULL;
  g_autofree char *bits = NULL;
  g_autofree char *sixteen = NULL;
  g_autofree char *count = NULL;
  g_autofree char *plain = NULL;

  open_window (&f);
  row = hr_models_page_find_row (f.page, "llama3.2:3b");
  g_assert_nonnull (row);
  parameters = hr_models_page_cell_text (f.page, row, HR_MODELS_COLUMN_PARAMETERS);
  file = hr_models_page_cell_text (f.page, row, HR_MODELS_COLUMN_FILE_SIZE);
  g_assert_cmpstr (parameters, ==, "3.20 B");
  g_assert_cmpstr (file, ==, "2.00 GB");
  row = hr_models_page_find_row (f.page, "qwen2.5:0.5b");
  qwen_file = hr_models_page_cell_text (f.page, row, HR_MODELS_COLUMN_FILE_SIZE);
  qwen_total = hr_models_page_cell_text (f.page, row, HR_MODELS_COLUMN_TOTAL);
  g_assert_cmpstr (qwen_file, ==, "0.40 GB");
  g_assert_cmpstr (qwen_total, ==, "0.45 GB");
  close_window (&f);

  bits = hr_gui_format_bits (4.6);
  sixteen = hr_gui_format_bits (16);
  g_assert_cmpstr (bits, ==, "4.60");
  g_assert_cmpstr (sixteen, ==, "16.00");
  count = hr_gui_format_count (4096);
  g_assert_cmpstr (count, ==, "4,096");
  plain = hr_gui_format_plain (4.6);
  g_assert_cmpstr (plain, ==, "4.6");

  /* Where a German locale is installed, its separators. */
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") != NULL)
    {
      g_autofree char *de_count = hr_gui_format_count (4096);
      g_autofree char *de_size = hr_gui_format_size_fixed (660000000, HR_UNIT_GB);
      g_autofree char *de_plain = hr_gui_format_plain (4.6);
      g_autofree char *de_both = hr_gui_format_size_both_fixed (2000000000);
      g_autofree char *de_ollama = hr_gui_format_ollama_size (9053114464);
      g_autofree char *de_tps = hr_gui_format_ollama_tps (23.34);
      g_autofree char *de_ms = hr_gui_format_ollama_ms (5908400000);

      g_assert_cmpstr (de_count, ==, "4.096");
      g_assert_cmpstr (de_size, ==, "0,66 GB");
      g_assert_cmpstr (de_plain, ==, "4,6");
      g_assert_cmpstr (de_both, ==, "2,00 GB (1,86 GiB)");
      g_assert_cmpstr (de_ollama, ==, "9,1 GB");
      g_assert_cmpstr (de_tps, ==, "23,3");
      g_assert_cmpstr (de_ms, ==, "5908,4");
      setlocale (LC_NUMERIC, "C.UTF-8");
    }
  else
    g_test_message ("de_DE.UTF-8 is not installed: the German separators are not checked");
}

static gboolean
shows_empty_page (gpointer data)
{
  GtkWidget *status = find_descendant (data, ADW_TYPE_STATUS_PAGE);

  return status != NULL && gtk_widget_is_drawable (status);
}

static void
test_empty_search (void)
{
  Fixture f = { 0 };
  GtkWidget *status;
  GtkColumnView *view;

  open_window (&f);
  view = hr_models_page_get_column_view (f.page);
  gtk_editable_set_text (hr_models_page_get_search_entry (f.page), "no-such-model");
  g_assert_true (iterate_until (shows_empty_page, f.page, 3000));
  status = find_descendant (GTK_WIDGET (f.page), ADW_TYPE_STATUS_PAGE);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==, "No models match “no-such-model”");
  g_assert_false (gtk_widget_is_drawable (GTK_WIDGET (view)));

  gtk_editable_set_text (hr_models_page_get_search_entry (f.page), "llama");
  g_assert_true (iterate_until (widget_is_drawn, view, 3000));
  g_assert_false (gtk_widget_is_drawable (status));
  close_window (&f);
}

/* Tab from a row leaves the table: the focus is not on another row. */
static void
test_tab_leaves_table (void)
{
  Fixture f = { 0 };
  GtkColumnView *view;
  GtkEventController *keys = NULL;
  GListModel *controllers;
  GtkWidget *focus;
  gboolean handled = FALSE;

  open_window (&f);
  view = hr_models_page_get_column_view (f.page);
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (view), GTK_DIR_TAB_FORWARD));
  focus = gtk_root_get_focus (GTK_ROOT (f.window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (view)));

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && keys == NULL; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        keys = controller;
    }
  g_object_unref (controllers);
  g_assert_nonnull (keys);

  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Tab, 0, 0, &handled);
  g_assert_true (handled);
  focus = gtk_root_get_focus (GTK_ROOT (f.window));
  g_assert_nonnull (focus);
  g_assert_false (focus == GTK_WIDGET (view) || gtk_widget_is_ancestor (focus, GTK_WIDGET (view)));
  g_assert_true (gtk_widget_get_can_focus (GTK_WIDGET (view)));

  /* The explain panel's labels can be selected with the mouse but are no
   * tab stops. */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();
    guint selectable = 0;

    collect_labels (GTK_WIDGET (hr_models_page_get_explain_panel (f.page)), labels);
    for (guint i = 0; i < labels->len; i++)
      {
        GtkWidget *label = g_ptr_array_index (labels, i);

        selectable += gtk_label_get_selectable (GTK_LABEL (label));
        g_assert_false (gtk_widget_get_focusable (label));
      }
    g_assert_cmpuint (selectable, >, 0);
  }
  close_window (&f);
}

/* A quantized KV cache with flash attention off: the runtime model of
 * Ollama 0.12 keeps f16 (hr-runtime-0-30.c), and the column and the explain panel say which type the
 * figures are in and why, so "KV bytes/token" and "KV cache" agree. */
static void
test_kv_type_without_flash_attention (void)
{
  Fixture f = { 0 };
  HrScenario *scenario;
  HrModelRow *row;
  const HrEvaluation *e;
  g_autofree char *per_token = NULL;
  g_autofree char *per_token_fa = NULL;
  const char *figure;

  open_window (&f);
  scenario = hr_application_get_scenario (test_app);
  g_object_set (scenario, "runtime", HR_SCENARIO_RUNTIME_OLLAMA_0_12, "kv-cache-type", HR_KV_CACHE_Q8_0,
                "flash-attention", FALSE, NULL);
  spin (100);
  row = hr_models_page_find_row (f.page, "llama3.2:3b");
  hr_models_page_select_row (f.page, row);
  spin (100);
  e = hr_model_row_get_evaluation (row);

  g_assert_cmpint (hr_model_row_get_kv_type (row), ==, HR_KV_CACHE_F16);
  per_token = hr_models_page_cell_text (f.page, row, HR_MODELS_COLUMN_KV_PER_TOKEN);
  g_assert_cmpstr (per_token, ==, "114,688 (f16)");
  /* 114,688 bytes x 4,096 tokens: the cache the KV cache column shows */
  g_assert_cmpuint (e->footprint.kv_cache, >=, 114688ull * 4096);
  figure = hr_explain_panel_get_figure (hr_models_page_get_explain_panel (f.page), "kv-per-token");
  g_assert_nonnull (strstr (figure, "= 114,688 bytes"));
  g_assert_nonnull (strstr (figure, "KV cache f16, not q8_0: with flash attention off, Ollama keeps an f16 cache"));

  /* With flash attention, the q8_0 asked for, and no note. */
  g_object_set (scenario, "flash-attention", TRUE, NULL);
  spin (100);
  per_token_fa = hr_models_page_cell_text (f.page, row, HR_MODELS_COLUMN_KV_PER_TOKEN);
  g_assert_cmpstr (per_token_fa, ==, "60,928");
  figure = hr_explain_panel_get_figure (hr_models_page_get_explain_panel (f.page), "kv-per-token");
  g_assert_null (strstr (figure, "not q8_0"));

  g_object_set (scenario, "runtime", HR_SCENARIO_RUNTIME_NONE, "kv-cache-type", HR_KV_CACHE_F16, NULL);
  close_window (&f);
}

static gboolean
searched_for_mine (gpointer data)
{
  Fixture *f = data;

  return g_list_model_get_n_items (hr_models_page_get_rows (f->page)) == 1;
}

/* "Rename…" for a model the user added: checked, saved, and shown. */
/* The rename story: a user's model, my-model (a copy of llama3.2:3b),
 * renamed my-llama; then a user's copy of gemma2:2b renamed. */
static Fixture renaming;

static void
rename_open (gpointer data)
{
  Fixture *f = data;
  HrSession *session = hr_application_get_session (test_app);
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;

  open_window (f);
  spec = hr_model_spec_copy (hr_session_find_model (session, "llama3.2:3b"));
  g_free (spec->name);
  spec->name = g_strdup ("my-model");
  g_assert_true (hr_session_add_model (session, spec, &error));
  g_assert_no_error (error);
  spin (100);
}

static void
rename_close (void)
{
  g_autofree char *path = hr_data_user_file ("catalog.json");

  g_unlink (path);
  gtk_editable_set_text (hr_models_page_get_search_entry (renaming.page), "");
  close_window (&renaming);
}

/* The button shows for the user's model only: not for a built-in one. */
static void
test_rename_not_built_in (Fixture       *f,
                          gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (f->page);

  hr_models_page_select_row (f->page, hr_models_page_find_row (f->page, "llama3.2:3b"));
  spin (50);
  g_assert_false (gtk_widget_get_visible (hr_explain_panel_get_rename_button (panel)));
}

/* The user's model is the catalog's last row: searched for, so the list
 * shows it without scrolling (GTK 4.8's column view can warn that it
 * "failed to scroll to given position" when a row far down is selected
 * while it is still laying the list out). */
static void
test_rename_users_model (Fixture       *f,
                         gconstpointer  data)
{
  HrExplainPanel *panel = hr_models_page_get_explain_panel (f->page);

  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "my-");
  g_assert_true (iterate_until (searched_for_mine, f, 5000));
  spin (100);
  hr_models_page_select_row (f->page, hr_models_page_find_row (f->page, "my-model"));
  spin (50);
  g_assert_true (gtk_widget_get_visible (hr_explain_panel_get_rename_button (panel)));
}

/* What the dialog refuses as it is typed. */
static void
test_rename_dialog_refuses (Fixture       *f,
                            gconstpointer  data)
{
  HrSession *session = hr_application_get_session (test_app);

  g_assert_nonnull (hr_rename_dialog_problem (session, "my-model", "   "));
  g_assert_nonnull (hr_rename_dialog_problem (session, "my-model", "llama3.2:3b"));
  g_assert_null (hr_rename_dialog_problem (session, "my-model", "my-model"));
  g_assert_null (hr_rename_dialog_problem (session, "my-model", "my-llama"));
}

/* What the session refuses too. */
static void
test_rename_session_refuses (Fixture       *f,
                             gconstpointer  data)
{
  HrSession *session = hr_application_get_session (test_app);
  g_autoptr(GError) error = NULL;

  g_assert_false (hr_session_rename_model (session, "my-model", " ", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hr_session_rename_model (session, "my-model", "llama3.2:3b", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hr_session_rename_model (session, "llama3.2:1b", "mine", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_assert_nonnull (hr_session_find_model (session, "llama3.2:1b"));
}

/* Renamed: in the session and the table. */
static void
test_rename_renamed (Fixture       *f,
                     gconstpointer  data)
{
  HrSession *session = hr_application_get_session (test_app);
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_session_rename_model (session, "my-model", "  my-llama ", &error));
  g_assert_no_error (error);
  spin (100);
  g_assert_null (hr_session_find_model (session, "my-model"));
  g_assert_nonnull (hr_session_find_model (session, "my-llama"));
  g_assert_null (hr_models_page_find_row (f->page, "my-model"));
  g_assert_nonnull (hr_models_page_find_row (f->page, "my-llama"));
}

/* Renamed in the user's catalog file. */
static void
test_rename_saved (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = hr_data_user_file ("catalog.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) saved = hr_catalog_load_file (path, &error);
  gboolean has_new = FALSE, has_old = FALSE;

  g_assert_no_error (error);
  for (guint i = 0; i < saved->len; i++)
    {
      const HrModelSpec *s = g_ptr_array_index (saved, i);

      has_new |= g_strcmp0 (s->name, "my-llama") == 0;
      has_old |= g_strcmp0 (s->name, "my-model") == 0;
    }
  g_assert_true (has_new);
  g_assert_false (has_old);
}

/* A user's copy that replaced a built-in model: renamed, the built-in
 * one shows again. */
static void
test_rename_shadow (Fixture       *f,
                    gconstpointer  data)
{
  HrSession *session = hr_application_get_session (test_app);
  g_autoptr(HrModelSpec) shadow = hr_model_spec_copy (hr_session_find_model (session, "gemma2:2b"));
  g_autoptr(GError) error = NULL;

  shadow->context_length = 4096;
  g_assert_true (hr_session_add_model (session, shadow, &error));
  g_assert_true (hr_session_rename_model (session, "gemma2:2b", "my-gemma", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hr_session_find_model (session, "my-gemma")->context_length, ==, 4096);
  g_assert_nonnull (hr_session_find_model (session, "gemma2:2b"));
  g_assert_cmpuint (hr_session_find_model (session, "gemma2:2b")->context_length, !=, 4096);
}

static const GuiTestStep rename_steps[] = {
  { "/models-page/rename/not-built-in", (GTestFixtureFunc) test_rename_not_built_in },
  { "/models-page/rename/users-model", (GTestFixtureFunc) test_rename_users_model },
  { "/models-page/rename/dialog-refuses", (GTestFixtureFunc) test_rename_dialog_refuses },
  { "/models-page/rename/session-refuses", (GTestFixtureFunc) test_rename_session_refuses },
  { "/models-page/rename/renamed", (GTestFixtureFunc) test_rename_renamed },
  { "/models-page/rename/saved", (GTestFixtureFunc) test_rename_saved },
  { "/models-page/rename/shadow", (GTestFixtureFunc) test_rename_shadow },
};

static GuiTestStory rename_story = {
  "rename", rename_open, rename_close, rename_steps, G_N_ELEMENTS (rename_steps), &renaming, sizeof (Fixture), 0
};

static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The window as drawn, for a person to look at (HR_TEST_SHOTS=DIR). */
static void
save_png (GtkWidget  *widget,
          const char *name)
{
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    return;
  /* "de-boards.png" in the German child */
  file = g_strconcat (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0 ? "de-" : "", name, NULL);
  path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), file, NULL);
  paintable = gtk_widget_paintable_new (widget);
  /* A window between two frames has nothing to draw yet: a few tries. */
  for (guint attempt = 0; node == NULL && attempt < 20; attempt++)
    {
      spin (50);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static gboolean
stack_settled (gpointer data)
{
  return !gtk_stack_get_transition_running (data);
}

/* The Boards view: every board's name whole (the RTX 3060 and 3090 apart),
 * and the model column in view however far the boards scroll sideways. */
static void
test_boards_view (void)
{
  Fixture f = { 0 };
  GtkWidget *view;
  GtkWidget *model;
  GtkWidget *sideways;
  GtkAdjustment *adjustment;
  GPtrArray *boards;
  graphene_rect_t bounds;

  open_window (&f);
  save_png (GTK_WIDGET (f.window), "models.png");
  view = GTK_WIDGET (hr_models_page_get_boards_view (f.page));
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (f.page), "boards");
  g_assert_true (iterate_until (widget_is_drawn, view, 3000));
  g_assert_true (iterate_until (stack_settled, hr_models_page_get_view_stack (f.page), 3000));
  spin (200);

  boards = hr_session_get_boards (hr_application_get_session (test_app));
  for (guint b = 0; b < boards->len; b++)
    {
      const HrBoard *board = g_ptr_array_index (boards, b);
      GtkWidget *name = find_label (view, board->name);

      g_assert_nonnull (name);
      g_assert_true (gtk_widget_is_drawable (name));
      g_assert_cmpint (natural_width (name), <=, given_width (name));
    }

  model = find_label (view, "llama3.2:3b");
  g_assert_nonnull (model);
  sideways = gtk_widget_get_ancestor (find_label (view, ((HrBoard *) g_ptr_array_index (boards, 0))->name),
                                      GTK_TYPE_SCROLLED_WINDOW);
  adjustment = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sideways));
  /* The boards are wider than the view at the default size. */
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  save_png (GTK_WIDGET (f.window), "boards.png");
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  spin (100);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, 0);
  g_assert_true (gtk_widget_is_drawable (model));
  g_assert_true (gtk_widget_compute_bounds (model, view, &bounds));
  g_assert_cmpfloat (bounds.origin.x, >=, 0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (view));
  save_png (GTK_WIDGET (f.window), "boards-scrolled.png");

  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (f.page), "models");
  close_window (&f);
}

/* Where @cell sits among the cells: its column, and its row counted
 * from @first's. */
static void
cell_position (GtkWidget *cell,
               GtkWidget *first,
               int       *column,
               int       *row)
{
  int first_row;

  gtk_grid_query_child (GTK_GRID (gtk_widget_get_parent (cell)), cell, column, row, NULL, NULL);
  gtk_grid_query_child (GTK_GRID (gtk_widget_get_parent (first)), first, NULL, &first_row, NULL, NULL);
  *row -= first_row;
}

/* The focus is on the cell at (@column, @row). */
static void
assert_focus_on (Fixture   *f,
                 GPtrArray *cells,
                 int        column,
                 int        row)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));
  int at_column = -1, at_row = -1;

  g_assert_nonnull (focus);
  g_assert_true (g_ptr_array_find (cells, focus, NULL));
  cell_position (focus, g_ptr_array_index (cells, 0), &at_column, &at_row);
  g_assert_cmpint (at_column, ==, column);
  g_assert_cmpint (at_row, ==, row);
}

/* A key pressed on the focused cell, as its key controller in the grid gets it. */
static void
press (GPtrArray       *cells,
       guint            keyval,
       GdkModifierType  state)
{
  GtkWidget *grid = gtk_widget_get_parent (g_ptr_array_index (cells, 0));
  GtkEventController *keys = NULL;
  GListModel *controllers = gtk_widget_observe_controllers (grid);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && keys == NULL; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        keys = controller;
    }
  g_object_unref (controllers);
  g_assert_nonnull (keys);
  g_signal_emit_by_name (keys, "key-pressed", keyval, 0, state, &handled);
  g_assert_true (handled);
}

/* The focus left the Boards view (no other stop in it, such as its scrollers). */
static void
assert_focus_outside (Fixture   *f,
                      GtkWidget *view)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));

  g_assert_nonnull (focus);
  g_assert_false (focus == view || gtk_widget_is_ancestor (focus, view));
}

/* Tab or Shift+Tab: the window's binding moves the focus so. */
static void
tab (Fixture          *f,
     GtkDirectionType  direction)
{
  g_signal_emit_by_name (f->window, "move-focus", direction);
}

/* The Boards view's grid is one tab stop: Tab enters it on the cell last
 * moved to (the first at first) and the next Tab leaves it; the arrows,
 * Home and End (with Ctrl the first and last cell), Page Up and Page Down
 * move between the cells, the focused one scrolled into view. */
/* The Boards view's keyboard story: one window showing the Boards view,
 * the focus moved through its cells as a person moves it. */
typedef struct {
  Fixture     f;
  GtkWidget  *view;
  GPtrArray  *cells;      /* its cells, in the order the view lays them out */
  int         n_boards;
  int         n_models;
} Keys;

static Keys keys;

static void
keys_open (gpointer data)
{
  Keys *k = data;

  open_window (&k->f);
  k->view = GTK_WIDGET (hr_models_page_get_boards_view (k->f.page));
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (k->f.page), "boards");
  g_assert_true (iterate_until (widget_is_drawn, k->view, 3000));
  g_assert_true (iterate_until (stack_settled, hr_models_page_get_view_stack (k->f.page), 3000));
  spin (100);
  k->n_boards = (int) hr_boards_view_get_n_boards (HR_BOARDS_VIEW (k->view));
  k->n_models = (int) hr_boards_view_get_n_models (HR_BOARDS_VIEW (k->view));
  k->cells = g_ptr_array_new ();
  collect_by_class (k->view, "boards-cell", k->cells);
}

static void
keys_close (void)
{
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (keys.f.page), "models");
  close_window (&keys.f);
  g_clear_pointer (&keys.cells, g_ptr_array_unref);
}

/* A cell per board and model, one of them a tab stop. */
static void
test_keys_one_tab_stop (Keys          *k,
                        gconstpointer  data)
{
  guint tab_stops = 0;

  g_assert_cmpint (k->n_boards, >, 2);
  g_assert_cmpint (k->n_models, >, 20);
  g_assert_cmpuint (k->cells->len, ==, (guint) (k->n_boards * k->n_models));
  for (guint i = 0; i < k->cells->len; i++)
    tab_stops += gtk_widget_get_focusable (g_ptr_array_index (k->cells, i));
  g_assert_cmpuint (tab_stops, ==, 1);
}

/* In on the first cell, out with the next Tab, back with Shift+Tab. */
static void
test_keys_tab_in_and_out (Keys          *k,
                          gconstpointer  data)
{
  g_assert_true (gtk_widget_child_focus (k->view, GTK_DIR_TAB_FORWARD));
  assert_focus_on (&k->f, k->cells, 0, 0);
  tab (&k->f, GTK_DIR_TAB_FORWARD);
  assert_focus_outside (&k->f, k->view);
  tab (&k->f, GTK_DIR_TAB_BACKWARD);
  assert_focus_on (&k->f, k->cells, 0, 0);
}

/* The arrows; Tab leaves and comes back to the cell last moved to. */
static void
test_keys_tab_back_to_last (Keys          *k,
                            gconstpointer  data)
{
  press (k->cells, GDK_KEY_Right, 0);
  assert_focus_on (&k->f, k->cells, 1, 0);
  press (k->cells, GDK_KEY_Down, 0);
  assert_focus_on (&k->f, k->cells, 1, 1);
  tab (&k->f, GTK_DIR_TAB_FORWARD);
  assert_focus_outside (&k->f, k->view);
  tab (&k->f, GTK_DIR_TAB_BACKWARD);
  assert_focus_on (&k->f, k->cells, 1, 1);
  tab (&k->f, GTK_DIR_TAB_BACKWARD);
  assert_focus_outside (&k->f, k->view);
  tab (&k->f, GTK_DIR_TAB_FORWARD);
  assert_focus_on (&k->f, k->cells, 1, 1);
}

/* The focused cell says which model on which board it is. */
static void
test_keys_cell_tooltip (Keys          *k,
                        gconstpointer  data)
{
  GPtrArray *boards = hr_session_get_boards (hr_application_get_session (test_app));
  const char *tooltip = gtk_widget_get_tooltip_text (gtk_root_get_focus (GTK_ROOT (k->f.window)));

  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, ((HrBoard *) g_ptr_array_index (boards, 1))->name));
}

/* End, Home and the arrows, which stop at the edges. */
static void
test_keys_home_end (Keys          *k,
                    gconstpointer  data)
{
  press (k->cells, GDK_KEY_End, 0);
  assert_focus_on (&k->f, k->cells, k->n_boards - 1, 1);
  press (k->cells, GDK_KEY_Left, 0);
  assert_focus_on (&k->f, k->cells, k->n_boards - 2, 1);
  press (k->cells, GDK_KEY_Home, 0);
  assert_focus_on (&k->f, k->cells, 0, 1);
  press (k->cells, GDK_KEY_Up, 0);
  press (k->cells, GDK_KEY_Up, 0);
  assert_focus_on (&k->f, k->cells, 0, 0);
  press (k->cells, GDK_KEY_Left, 0);
  assert_focus_on (&k->f, k->cells, 0, 0);
}

/* A page down and up. */
static void
test_keys_page (Keys          *k,
                gconstpointer  data)
{
  int column = -1, row = -1;

  press (k->cells, GDK_KEY_Page_Down, 0);
  cell_position (gtk_root_get_focus (GTK_ROOT (k->f.window)), g_ptr_array_index (k->cells, 0), &column, &row);
  g_assert_cmpint (column, ==, 0);
  g_assert_cmpint (row, >, 1);
  g_assert_cmpint (row, <, k->n_models - 1);
  press (k->cells, GDK_KEY_Page_Up, 0);
  assert_focus_on (&k->f, k->cells, 0, 0);
}

/* To the last cell, scrolled into view, and back to the first. */
static void
test_keys_last_cell_shown (Keys          *k,
                           gconstpointer  data)
{
  graphene_rect_t bounds;

  press (k->cells, GDK_KEY_End, GDK_CONTROL_MASK);
  assert_focus_on (&k->f, k->cells, k->n_boards - 1, k->n_models - 1);
  spin (200);
  g_assert_true (gtk_widget_compute_bounds (gtk_root_get_focus (GTK_ROOT (k->f.window)), k->view, &bounds));
  g_assert_cmpfloat (bounds.origin.x, >=, 0);
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (k->view) + 1);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (k->view) + 1);
  press (k->cells, GDK_KEY_Home, GDK_CONTROL_MASK);
  assert_focus_on (&k->f, k->cells, 0, 0);
}

/* Laid out again (another unit) with the focus in it: on the same cell. */
static void
test_keys_relayout (Keys          *k,
                    gconstpointer  data)
{
  press (k->cells, GDK_KEY_Right, 0);
  press (k->cells, GDK_KEY_Down, 0);
  hr_boards_view_set_unit (HR_BOARDS_VIEW (k->view), HR_UNIT_GIB);
  g_ptr_array_set_size (k->cells, 0);
  collect_by_class (k->view, "boards-cell", k->cells);
  assert_focus_on (&k->f, k->cells, 1, 1);
  hr_boards_view_set_unit (HR_BOARDS_VIEW (k->view), HR_UNIT_GB);
  g_ptr_array_set_size (k->cells, 0);
  collect_by_class (k->view, "boards-cell", k->cells);
  assert_focus_on (&k->f, k->cells, 1, 1);
}

/* For a person to look at (HR_TEST_SHOTS): the focus ring on a cell. */
static void
test_keys_focus_ring_shot (Keys          *k,
                           gconstpointer  data)
{
  gtk_window_set_focus_visible (GTK_WINDOW (k->f.window), TRUE);
  spin (100);
  save_png (GTK_WIDGET (k->f.window), "boards-focus.png");
}

static const GuiTestStep keys_steps[] = {
  { "/models-page/boards-view-keyboard/one-tab-stop", (GTestFixtureFunc) test_keys_one_tab_stop },
  { "/models-page/boards-view-keyboard/tab-in-and-out", (GTestFixtureFunc) test_keys_tab_in_and_out },
  { "/models-page/boards-view-keyboard/tab-back-to-last", (GTestFixtureFunc) test_keys_tab_back_to_last },
  { "/models-page/boards-view-keyboard/cell-tooltip", (GTestFixtureFunc) test_keys_cell_tooltip },
  { "/models-page/boards-view-keyboard/home-end", (GTestFixtureFunc) test_keys_home_end },
  { "/models-page/boards-view-keyboard/page", (GTestFixtureFunc) test_keys_page },
  { "/models-page/boards-view-keyboard/last-cell-shown", (GTestFixtureFunc) test_keys_last_cell_shown },
  { "/models-page/boards-view-keyboard/relayout", (GTestFixtureFunc) test_keys_relayout },
  { "/models-page/boards-view-keyboard/focus-ring-shot", (GTestFixtureFunc) test_keys_focus_ring_shot },
};

static GuiTestStory keys_story = {
  "boards-view-keyboard", keys_open, keys_close, keys_steps, G_N_ELEMENTS (keys_steps), &keys, sizeof (Keys), 0
};

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED);

  g_test_add_func ("/models-page/pills-english", test_pills_english);
  g_test_add_func ("/models-page/headers-english", test_headers_english);
  g_test_add_func ("/models-page/names-english", test_names_english);
  g_test_add_func ("/models-page/subtitles-english", test_subtitles_english);
  g_test_add_func ("/models-page/german", test_german);
  g_test_add_func ("/models-page/figures", test_figures);
  g_test_add_func ("/models-page/empty-search", test_empty_search);
  g_test_add_func ("/models-page/tab-leaves-table", test_tab_leaves_table);
  g_test_add_func ("/models-page/boards-view", test_boards_view);
  gui_test_story_add (&keys_story);
  g_test_add_func ("/models-page/kv-type-without-flash-attention", test_kv_type_without_flash_attention);
  gui_test_story_add (&rename_story);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
