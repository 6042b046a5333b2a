/* test-catalog-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Models page's table shows as the window changes size, opened
 * from the real HrApplication under Xvfb: after a resize every row's
 * cells sit under their headers, rows drawn before the resize too; below
 * the compact width the table shows a compact row (name, total, verdict
 * pill) and the rows still take the keyboard; and Ctrl+plus, Ctrl+minus
 * and Ctrl+0 change the size of the window's text, remembered in the
 * "text-zoom" setting.
 * HR_TEST_SHOTS=DIR saves the window at 1600 x 900, 1024 x 700 and
 * 360 x 720, light and dark, and at 1024 x 700 zoomed.
 */

#define _GNU_SOURCE
#include "config.h"

#include <glib/gi18n.h>
#include <dlfcn.h>
#include <math.h>
#include <string.h>

#include "hr-application.h"
#include "hr-catalog-columns.h"
#include "hr-catalog-view.h"
#include "hr-gui-format.h"
#include "hr-memory-chart.h"
#include "hr-memory-chart-private.h"
#include "hr-model-row.h"
#include "hr-models-page-private.h"
#include "hr-text-zoom.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

static HrApplication *test_app;
static char *isolated_root;

static HrWindow *
open_window (int width,
             int height)
{
  HrWindow *window;

  reset_settings (width, height);
  g_application_activate (G_APPLICATION (test_app));
  window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (window);
  g_object_ref (window);
  g_assert_true (wait_for_window_pages (GTK_WIDGET (window), 10000));
  g_assert_true (iterate_until (widget_is_drawn, hr_window_get_models_page (window), 5000));
  spin (300);
  return window;
}

static void
close_window (HrWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (window);
}

typedef struct {
  GdkSurface *surface;
  int         width;
} WidthWait;

static gboolean
has_width (gpointer data)
{
  WidthWait *w = data;

  return gdk_surface_get_width (w->surface) == w->width;
}

/* Resizes @window as a person dragging its edge would (GTK 4.8 keeps a
 * mapped window's size when its default size changes): the X server is
 * asked to resize the window, as a window manager would, and GTK follows
 * the ConfigureNotify. Xlib is reached through the GTK library already
 * loaded, so the test needs no X11 headers or library of its own. */
static void
resize_window (HrWindow *window,
               int       width,
               int       height)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  WidthWait w = { surface, width };
  GdkDisplay *display = gdk_surface_get_display (surface);
  typedef void *(*GetXDisplay) (GdkDisplay *);
  typedef unsigned long (*GetXid) (GdkSurface *);
  typedef int (*XResize) (void *, unsigned long, unsigned int, unsigned int);
  typedef int (*XFlush) (void *);
  gpointer get_xdisplay = dlsym (RTLD_DEFAULT, "gdk_x11_display_get_xdisplay");
  gpointer get_xid = dlsym (RTLD_DEFAULT, "gdk_x11_surface_get_xid");
  gpointer x_resize = dlsym (RTLD_DEFAULT, "XResizeWindow");
  gpointer x_flush = dlsym (RTLD_DEFAULT, "XFlush");

  g_assert_cmpstr (G_OBJECT_TYPE_NAME (display), ==, "GdkX11Display");
  g_assert_nonnull (get_xdisplay);
  g_assert_nonnull (get_xid);
  g_assert_nonnull (x_resize);
  g_assert_nonnull (x_flush);
  ((XResize) x_resize) (((GetXDisplay) get_xdisplay) (display), ((GetXid) get_xid) (surface),
                        width, height);
  ((XFlush) x_flush) (((GetXDisplay) get_xdisplay) (display));
  g_assert_true (iterate_until (has_width, &w, 5000));
  spin (500);
}

static void
shot (HrWindow   *window,
      const char *name)
{
  const char *dir = g_getenv ("HR_TEST_SHOTS");
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  gui_test_save_png (GTK_WIDGET (window), path);
}

static void
shots_light_dark (HrWindow   *window,
                  const char *stem)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autofree char *light = g_strdup_printf ("%s-light.png", stem);
  g_autofree char *dark = g_strdup_printf ("%s-dark.png", stem);

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    return;
  shot (window, light);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  spin (300);
  shot (window, dark);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  spin (100);
}

/* The x of @widget's left edge in @view's coordinates. */
static double
left_in (GtkWidget *widget,
         GtkWidget *view)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (widget, view, &GRAPHENE_POINT_INIT (0, 0), &point));
  return point.x;
}

/* The table's list: the column view's child that is not its header. */
static GtkWidget *
list_of (GtkColumnView *view)
{
  GtkWidget *list = gtk_widget_get_last_child (GTK_WIDGET (view));

  g_assert_true (GTK_IS_LIST_VIEW (list));
  return list;
}

/* Every row the list shows (mapped) has one visible cell per visible
 * header title, each starting where its title starts and as wide.
 * With @assert, fails the test where one does not; without, returns 0.
 * Returns how many rows were checked. */
static guint
cells_under_headers (GtkColumnView *view,
                     gboolean       assert)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  GtkWidget *list = list_of (view);
  double title_x[HR_MODELS_N_COLUMNS];
  int title_w[HR_MODELS_N_COLUMNS];
  guint titles = 0, rows = 0;

  for (GtkWidget *title = gtk_widget_get_first_child (header); title != NULL;
       title = gtk_widget_get_next_sibling (title))
    if (gtk_widget_get_visible (title) && gtk_widget_get_child_visible (title))
      {
        g_assert_cmpuint (titles, <, HR_MODELS_N_COLUMNS);
        title_x[titles] = left_in (title, GTK_WIDGET (view));
        title_w[titles] = gtk_widget_get_width (title);
        titles++;
      }
  g_assert_cmpuint (titles, >, 0);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      guint c = 0;

      if (!gtk_widget_get_mapped (row) || !gtk_widget_get_child_visible (row))
        continue;
      for (GtkWidget *cell = gtk_widget_get_first_child (row); cell != NULL;
           cell = gtk_widget_get_next_sibling (cell))
        {
          if (!gtk_widget_get_visible (cell))
            continue;
          /* GTK 4.8 appends the cells of a column shown again at the end
           * of each row, so a cell is paired with its title by place: a
           * title starts where it starts, as wide. */
          double x = left_in (cell, GTK_WIDGET (view));
          guint t = 0;

          while (t < titles && (fabs (title_x[t] - x) > 0.5 || title_w[t] != gtk_widget_get_width (cell)))
            t++;
          if (!assert && t == titles)
            return 0;
          if (t == titles)
            g_error ("a cell at x = %g, %d px wide, is under no header", x, gtk_widget_get_width (cell));
          c++;
        }
      if (!assert && c != titles)
        return 0;
      g_assert_cmpuint (c, ==, titles);
      rows++;
    }
  return rows;
}

static gboolean
aligned (gpointer view)
{
  return cells_under_headers (view, FALSE) > 0;
}

/* The cells are under their headers within a few frames (the rows are
 * realigned at the frame after the one that resized the table), and
 * stay so. */
static guint
check_cells_under_headers (GtkColumnView *view)
{
  iterate_until (aligned, view, 2000);
  spin (200);
  return cells_under_headers (view, TRUE);
}

static void
test_catalog_resize_alignment (void)
{
  HrWindow *window = open_window (1600, 900);
  GtkColumnView *view = hr_models_page_get_column_view (hr_window_get_models_page (window));

  g_assert_cmpuint (check_cells_under_headers (view), >=, 10);
  shots_light_dark (window, "window-1600");
  resize_window (window, 1024, 700);
  g_assert_cmpuint (check_cells_under_headers (view), >=, 5);
  shots_light_dark (window, "window-1024");
  resize_window (window, 1400, 900);
  g_assert_cmpuint (check_cells_under_headers (view), >=, 10);
  resize_window (window, 900, 700);
  g_assert_cmpuint (check_cells_under_headers (view), >=, 5);
  close_window (window);
}

/* The titles of the visible columns, in order, joined by "|". */
static char *
visible_titles (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  g_autoptr(GStrvBuilder) titles = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      if (gtk_column_view_column_get_visible (column))
        g_strv_builder_add (titles, gtk_column_view_column_get_title (column));
    }
  strv = g_strv_builder_end (titles);
  return g_strjoinv ("|", strv);
}

/* At 1,024 x 700, a classroom projector, every column the table shows by
 * default fits its width: the right-hand ones (t/s, Speed) are not cut. */
static void
test_catalog_columns_fit (void)
{
  HrWindow *window = open_window (1024, 700);
  GtkColumnView *view = hr_models_page_get_column_view (hr_window_get_models_page (window));
  GListModel *columns = gtk_column_view_get_columns (view);
  int sum = 0;

  g_assert_false (hr_catalog_columns_get_compact (view));
  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      if (gtk_column_view_column_get_visible (column))
        sum += gtk_column_view_column_get_fixed_width (column);
    }
  g_assert_cmpint (sum, <=, gtk_widget_get_width (GTK_WIDGET (view)));
  close_window (window);
}

/* At 1,024 x 700 the memory chart is wider than the part of it its
 * scrolled window shows (it scrolls sideways): its legend flows in the
 * part in view, and follows it when the chart is scrolled to its right
 * end, so no entry ("KV cache") is cut at the view's edge; the chart is
 * as tall as the legend's extra lines make it; and an entry wider than
 * the view wraps. */
static void
test_catalog_legend_in_view (void)
{
  HrWindow *window = open_window (1024, 700);
  HrMemoryChart *chart = hr_models_page_get_memory_chart (hr_window_get_models_page (window));
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (chart), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scrolled));
  double width = gtk_widget_get_width (GTK_WIDGET (chart));
  double page = gtk_adjustment_get_page_size (h);
  double x, span, narrow_height, wide_height;

  g_assert_cmpfloat (page, >, 0);
  g_assert_cmpfloat (page, <, width);
  chart->in_view = TRUE;
  _hr_memory_chart_legend_span (chart, width, &x, &span);
  g_assert_cmpfloat (x, ==, gtk_adjustment_get_value (h) + 12);
  g_assert_cmpfloat (span, ==, page - 24);

  gtk_adjustment_set_value (h, gtk_adjustment_get_upper (h) - page);
  _hr_memory_chart_legend_span (chart, width, &x, &span);
  g_assert_cmpfloat (x + span, ==, width - 12);
  narrow_height = _hr_memory_chart_draw_chart (chart, NULL, NULL, width, 0);
  chart->in_view = FALSE;
  /* An export (not in view) flows the legend in the whole width: fewer
   * lines. */
  wide_height = _hr_memory_chart_draw_chart (chart, NULL, NULL, width, 0);
  g_assert_cmpfloat (narrow_height, >, wide_height);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (chart)), >=, (int) narrow_height);
  /* In a view narrower than an entry (a phone's), the entry wraps beside
   * its swatch: "Learned overhead" takes two lines in 90 px, one in 1,000. */
  {
    const Segment learned[] = { SEG_LEARNED };
    double one_line = _hr_memory_chart_draw_legend (chart, NULL, 0, 0, 1000, learned, NULL, 1);

    g_assert_cmpfloat (one_line, >, 0);
    g_assert_cmpfloat (_hr_memory_chart_draw_legend (chart, NULL, 0, 0, 90, learned, NULL, 1), >, 1.5 * one_line);
  }
  close_window (window);
}

static void
test_catalog_compact (void)
{
  HrWindow *window = open_window (360, 720);
  GtkColumnView *view = hr_models_page_get_column_view (hr_window_get_models_page (window));
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  GtkWidget *last_title = NULL;
  g_autofree char *titles = visible_titles (view);
  g_autofree char *wide = NULL;
  graphene_rect_t bounds;
  GtkWidget *row;
  g_auto(GStrv) hidden = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  /* Name, total and verdict pill, each under its header, the verdict's
   * header whole on screen. */
  g_assert_cmpstr (titles, ==, "Name|Total|Verdict");
  g_assert_cmpuint (check_cells_under_headers (view), >=, 5);
  for (GtkWidget *title = gtk_widget_get_first_child (header); title != NULL;
       title = gtk_widget_get_next_sibling (title))
    if (gtk_widget_get_visible (title))
      last_title = title;
  g_assert_nonnull (last_title);
  g_assert_true (gtk_widget_compute_bounds (last_title, GTK_WIDGET (window), &bounds));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, 360.0);
  /* The rows still take the keyboard's focus. */
  row = gtk_widget_get_first_child (list_of (view));
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_focusable (row));
  shots_light_dark (window, "window-360");

  /* The compact row is the window's width, not a choice: the setting of
   * hidden columns keeps its default, and a wider window shows them all. */
  hidden = g_settings_get_strv (settings, "hidden-catalog-columns");
  g_assert_cmpuint (g_strv_length (hidden), ==, 4);
  resize_window (window, 1100, 720);
  wide = visible_titles (view);
  g_assert_cmpstr (wide, ==, "Name|Parameters|KV cache|Total|Verdict|t/s|Speed");
  g_assert_cmpuint (check_cells_under_headers (view), >=, 5);
  resize_window (window, 360, 720);
  g_clear_pointer (&titles, g_free);
  titles = visible_titles (view);
  g_assert_cmpstr (titles, ==, "Name|Total|Verdict");
  g_assert_cmpuint (check_cells_under_headers (view), >=, 5);
  close_window (window);
}

/* The size of @widget's text, in Pango units. */
static int
font_size (GtkWidget *widget)
{
  return pango_font_description_get_size (pango_context_get_font_description (gtk_widget_get_pango_context (widget)));
}

static void
test_catalog_zoom (void)
{
  HrWindow *window = open_window (1024, 700);
  GtkWidget *label = find_descendant (GTK_WIDGET (hr_window_get_models_page (window)), GTK_TYPE_LABEL);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) in = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app), "app.zoom-in");
  g_auto(GStrv) out = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app), "app.zoom-out");
  g_auto(GStrv) reset = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app), "app.zoom-reset");
  int normal;

  g_assert_true (g_strv_contains ((const char * const *) in, "<Control>plus"));
  g_assert_true (g_strv_contains ((const char * const *) out, "<Control>minus"));
  g_assert_true (g_strv_contains ((const char * const *) reset, "<Control>0"));
  g_assert_nonnull (label);
  normal = font_size (label);
  g_assert_cmpint (normal, >, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (test_app), "zoom-reset"));

  /* Two steps larger: 125 %, remembered. */
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "zoom-in", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "zoom-in", NULL);
  spin (300);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "text-zoom"), 1.25, 1e-9);
  g_assert_cmpint (ABS (font_size (label) - (int) (normal * 1.25 + 0.5)), <=, 2);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (test_app), "zoom-reset"));
  g_assert_cmpuint (check_cells_under_headers (hr_models_page_get_column_view (hr_window_get_models_page (window))), >=, 3);
  shots_light_dark (window, "window-1024-zoom125");

  /* One smaller, then back to the desktop's size. */
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "zoom-out", NULL);
  spin (200);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "text-zoom"), 1.1, 1e-9);
  g_assert_cmpint (ABS (font_size (label) - (int) (normal * 1.1 + 0.5)), <=, 2);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "zoom-reset", NULL);
  spin (200);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "text-zoom"), 1.0, 1e-9);
  g_assert_cmpint (font_size (label), ==, normal);

  /* The steps end at 50 % and 300 %. */
  g_assert_cmpfloat_with_epsilon (hr_text_zoom_step (3.0, 1), 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (hr_text_zoom_step (0.5, -1), 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (hr_text_zoom_step (1.0, -1), 0.9, 1e-9);
  g_assert_cmpfloat_with_epsilon (hr_text_zoom_step (1.3, 1), 1.5, 1e-9);
  close_window (window);
}

/* F11: one model's bar and its formula for a room: the table hidden, the
 * chart drawing the selected row's bar alone, the text 1.6 x as large, the
 * sidebar folded away and the explain panel shown; F11 again puts it back. */
static void
test_catalog_presentation (void)
{
  HrWindow *window = open_window (1024, 700);
  HrModelsPage *page = hr_window_get_models_page (window);
  AdwFlap *sidebar = hr_models_page_get_flap (page);
  AdwFlap *explain = hr_models_page_get_explain_flap (page);
  HrMemoryChart *chart = hr_models_page_get_memory_chart (page);
  GtkWidget *table = gtk_widget_get_ancestor (GTK_WIDGET (hr_models_page_get_column_view (page)),
                                              HR_TYPE_CATALOG_VIEW);
  gboolean sidebar_was = adw_flap_get_reveal_flap (sidebar);
  gboolean explain_was = adw_flap_get_reveal_flap (explain);
  guint bars_before = hr_memory_chart_get_n_bars (chart);
  int normal = font_size (GTK_WIDGET (chart));
  HrModelRow *selected = hr_models_page_find_row (page, "llama3.2:3b");

  g_assert_cmpuint (bars_before, >, 1);
  hr_models_page_select_row (page, selected);
  adw_view_stack_set_visible_child_name (hr_window_get_stack (window), "hub");
  spin (200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.presentation", NULL));
  spin (600);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (hr_window_get_stack (window)), ==, "models");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "presentation"));
  g_assert_false (adw_flap_get_reveal_flap (sidebar));
  g_assert_true (adw_flap_get_reveal_flap (explain));
  g_assert_cmpint (ABS (font_size (GTK_WIDGET (chart)) - (int) (normal * 1.6 + 0.5)), <=, 2);
  /* One bar, the selected model's, three times as tall, and no table */
  g_assert_false (gtk_widget_get_visible (table));
  g_assert_true (hr_memory_chart_get_selected_only (chart));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (chart), ==, 1);
  g_assert_nonnull (strstr (hr_memory_chart_get_description (chart), " llama3.2:3b: weights"));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (chart)), >, 54);
  shots_light_dark (window, "window-presentation");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.presentation", NULL));
  spin (600);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "presentation"));
  g_assert_true (gtk_widget_get_visible (table));
  g_assert_false (hr_memory_chart_get_selected_only (chart));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (chart), ==, bars_before);
  g_assert_true (adw_flap_get_reveal_flap (sidebar) == sidebar_was);
  g_assert_true (adw_flap_get_reveal_flap (explain) == explain_was);
  g_assert_cmpint (font_size (GTK_WIDGET (chart)), ==, normal);
  close_window (window);
}

/* The exported chart is the same whichever row is selected (no
 * selection highlight); HR_TEST_SHOTS saves it, to look at the total and
 * verdict after each bar. */
static void
test_catalog_export_png (void)
{
  HrWindow *window = open_window (1100, 720);
  HrModelsPage *page = hr_window_get_models_page (window);
  HrMemoryChart *chart = hr_models_page_get_memory_chart (page);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (hr_models_page_get_column_view (page)));
  g_autoptr(GskRenderNode) first = NULL;
  g_autoptr(GskRenderNode) second = NULL;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;

  gtk_single_selection_set_selected (selection, 0);
  spin (300);
  first = hr_memory_chart_render (chart, 960, 900, "Export");
  gtk_single_selection_set_selected (selection, 2);
  spin (300);
  second = hr_memory_chart_render (chart, 960, 900, "Export");
  a = gsk_render_node_serialize (first);
  b = gsk_render_node_serialize (second);
  g_assert_true (g_bytes_equal (a, b));
  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "export-chart.png", NULL);
      g_autoptr(GdkTexture) texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), first,
                                                                   &GRAPHENE_RECT_INIT (0, 0, 960, 900));

      g_assert_true (gdk_texture_save_to_png (texture, path));
    }
  close_window (window);
}

/* The window's surface is on a monitor (a popover is placed within one;
 * right after a window is mapped under Xvfb it may not be yet). */
static gboolean
on_monitor (gpointer window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  return surface != NULL && gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface) != NULL;
}

/* The Runtime row has no tooltip to cover its popover as it opens. */
static void
test_catalog_runtime_no_tooltip (void)
{
  /* Short enough that the whole window, and so the popover's row, is on
   * the test X server's screen (a popover off every monitor is a GDK
   * critical). */
  HrWindow *window = open_window (1100, 600);
  AdwComboRow *row = hr_models_page_get_runtime_row (hr_window_get_models_page (window));

  g_assert_null (gtk_widget_get_tooltip_text (GTK_WIDGET (row)));
  g_assert_false (gtk_widget_get_has_tooltip (GTK_WIDGET (row)));
  /* Its popover lists each runtime whole: wrapped, not cut. */
  g_assert_nonnull (adw_combo_row_get_list_factory (row));
  g_assert_true (iterate_until (on_monitor, window, 5000));
  {
    GListModel *monitors = gdk_display_get_monitors (gdk_display_get_default ());
    g_autoptr(GdkMonitor) monitor = g_list_model_get_item (monitors, 0);
    GdkRectangle area;

    /* GTK 4.8 places the combo row's popover on no monitor at all (a GDK
     * critical) on a 1280 x 800 screen; the check needs the 1920 x 1200
     * screen build-aux/test starts Xvfb with (xvfb-run -s "-screen 0
     * 1920x1200x24"), and says so when run on a smaller one. */
    gdk_monitor_get_geometry (monitor, &area);
    if (area.height < 1200)
      {
        g_test_skip ("the popover check needs a screen at least 1200 px high");
        close_window (window);
        return;
      }
  }
  g_assert_true (gtk_widget_activate (GTK_WIDGET (row)));
  spin (500);
  {
    GtkWidget *popover = find_descendant (GTK_WIDGET (row), GTK_TYPE_POPOVER);
    guint wrapped = 0;

    g_assert_nonnull (popover);
    g_assert_true (gtk_widget_get_mapped (popover));
    for (GtkWidget *w = find_descendant (popover, GTK_TYPE_LIST_VIEW); w != NULL; w = NULL)
      for (GtkWidget *item = gtk_widget_get_first_child (w); item != NULL; item = gtk_widget_get_next_sibling (item))
        {
          GtkWidget *label = find_descendant (item, GTK_TYPE_LABEL);

          if (label == NULL || !gtk_widget_get_mapped (label))
            continue;
          g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
          wrapped += gtk_label_get_wrap (GTK_LABEL (label));
        }
    g_assert_cmpuint (wrapped, ==, 5);
    if (g_getenv ("HR_TEST_SHOTS") != NULL)
      {
        g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "runtime-popover.png", NULL);

        gui_test_save_png (popover, path);
      }
    gtk_popover_popdown (GTK_POPOVER (popover));
    spin (200);
  }
  close_window (window);
}

static gboolean
not_visible (gpointer widget)
{
  return !gtk_widget_get_visible (widget);
}

static gboolean
visible (gpointer widget)
{
  return gtk_widget_get_visible (widget);
}

/* The Export menu exports the Models page's chart and table: on the
 * other pages it is not shown. */
static void
test_catalog_export_button (void)
{
  HrWindow *window = open_window (1100, 720);
  GtkWidget *button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), HR_TYPE_WINDOW, "export_button"));

  g_assert_true (GTK_IS_MENU_BUTTON (button));
  g_assert_true (iterate_until (visible, button, 5000));
  for (guint i = 0; i < 4; i++)
    {
      const char *pages[] = { "hub", "board", "servers", "file" };

      adw_view_stack_set_visible_child_name (hr_window_get_stack (window), pages[i]);
      g_assert_true (iterate_until (not_visible, button, 5000));
    }
  adw_view_stack_set_visible_child_name (hr_window_get_stack (window), "models");
  g_assert_true (iterate_until (visible, button, 5000));
  close_window (window);
}

static const char *
selected_name (GtkSingleSelection *selection)
{
  gpointer item = gtk_single_selection_get_selected_item (selection);

  return item != NULL ? hr_model_row_get_name (item) : NULL;
}

static void
select_named (GtkSingleSelection *selection,
              const char         *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)); i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (hr_model_row_get_name (row), name))
        {
          gtk_single_selection_set_selected (selection, i);
          return;
        }
    }
  g_error ("no row %s", name);
}

/* A search that still shows the selected row keeps it selected; one that
 * hides it selects a row it shows. */
static void
test_catalog_search_keeps_selection (void)
{
  HrWindow *window = open_window (1100, 720);
  HrModelsPage *page = hr_window_get_models_page (window);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (hr_models_page_get_column_view (page)));
  GtkEditable *search = hr_models_page_get_search_entry (page);

  gtk_editable_set_text (search, "qwen");
  spin (500);
  select_named (selection, "qwen3:4b");
  g_assert_cmpstr (selected_name (selection), ==, "qwen3:4b");
  gtk_editable_set_text (search, "qwen3");
  spin (500);
  g_assert_cmpstr (selected_name (selection), ==, "qwen3:4b");
  gtk_editable_set_text (search, "4b");
  spin (500);
  g_assert_cmpstr (selected_name (selection), ==, "qwen3:4b");
  gtk_editable_set_text (search, "");
  spin (500);
  g_assert_cmpstr (selected_name (selection), ==, "qwen3:4b");
  gtk_editable_set_text (search, "llama");
  spin (500);
  g_assert_nonnull (selected_name (selection));
  g_assert_nonnull (strstr (selected_name (selection), "llama"));
  close_window (window);
}

/* A card sold as "12 GB" holds 12 GiB: the pool says both. */
static void
test_catalog_both_units (void)
{
  g_autofree char *gb = hr_gui_format_size_both_units (G_GUINT64_CONSTANT (12) << 30, HR_UNIT_GB);
  g_autofree char *gib = hr_gui_format_size_both_units (G_GUINT64_CONSTANT (12) << 30, HR_UNIT_GIB);

  g_assert_cmpstr (gb, ==, "12.88 GB = 12.00 GiB");
  g_assert_cmpstr (gib, ==, "12.00 GiB = 12.88 GB");
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED);

  g_test_add_func ("/catalog-layout/both-units", test_catalog_both_units);
  g_test_add_func ("/catalog-layout/resize-alignment", test_catalog_resize_alignment);
  g_test_add_func ("/catalog-layout/compact", test_catalog_compact);
  g_test_add_func ("/catalog-layout/columns-fit", test_catalog_columns_fit);
  g_test_add_func ("/catalog-layout/legend-in-view", test_catalog_legend_in_view);
  g_test_add_func ("/catalog-layout/zoom", test_catalog_zoom);
  g_test_add_func ("/catalog-layout/export-button", test_catalog_export_button);
  g_test_add_func ("/catalog-layout/presentation", test_catalog_presentation);
  g_test_add_func ("/catalog-layout/runtime-no-tooltip", test_catalog_runtime_no_tooltip);
  g_test_add_func ("/catalog-layout/export-png", test_catalog_export_png);
  g_test_add_func ("/catalog-layout/search-keeps-selection", test_catalog_search_keeps_selection);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
