/* test-window-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's layout, opened from the real HrApplication under Xvfb: the
 * first frame is painted before the pages are built (the start-up
 * aim); the sidebar's header bar button and F9 hide and show the sidebar
 * both ways at the default and at a phone's width; and at 360 px wide the
 * Models page and the window fit, the flaps folded.
 * HR_TEST_SHOTS=DIR saves the window at 1280 x 800 (light and dark) and
 * at 360 px with the sidebar shown and hidden.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "hr-application.h"
#include "hr-board-page.h"
#include "hr-hub-page.h"
#include "hr-models-page-private.h"
#include "hr-window-private.h"
#include "gui-test-util.h"
#include "hr-servers-overview.h"

static HrApplication *test_app;
static char *isolated_root;

/* The window the application opens at @width x @height, presented, its
 * pages built and the session loaded. */
static HrWindow *
open_window (int width,
             int height)
{
  HrWindow *window;

  reset_settings (width, height);
  g_assert_null (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
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

/* ------------------------------------------------------------------ */
/* The first frame comes before the pages                              */

typedef struct {
  HrWindow *window;
  gboolean  painted;
  gboolean  built_at_first_frame;
} FirstFrame;

static void
on_first_after_paint (GdkFrameClock *clock,
                      FirstFrame    *ff)
{
  if (ff->painted)
    return;
  ff->painted = TRUE;
  g_object_get (ff->window, "pages-built", &ff->built_at_first_frame, NULL);
}

static gboolean
first_frame_painted (gpointer data)
{
  return ((FirstFrame *) data)->painted;
}

static void
test_layout_first_frame (void)
{
  FirstFrame ff = { 0 };
  gulong id;
  GtkWidget *stack, *first;
  GdkFrameClock *clock;

  reset_settings (1100, 720);
  g_application_activate (G_APPLICATION (test_app));
  ff.window = g_object_ref (HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app))));

  /* Presented, not yet drawn: the header bar and the switcher's four
   * pages are there, each an empty bin the page will sit in. */
  g_assert_false (window_pages_built (ff.window));
  stack = find_descendant (GTK_WIDGET (ff.window), ADW_TYPE_VIEW_STACK);
  g_assert_nonnull (stack);
  first = gtk_widget_get_first_child (stack);
  g_assert_cmpstr (adw_view_stack_page_get_name (adw_view_stack_get_page (ADW_VIEW_STACK (stack), first)),
                   ==, "models");
  g_assert_true (ADW_IS_BIN (first));
  g_assert_null (adw_bin_get_child (ADW_BIN (first)));
  g_assert_null (find_descendant (GTK_WIDGET (ff.window), HR_TYPE_MODELS_PAGE));

  clock = gtk_widget_get_frame_clock (GTK_WIDGET (ff.window));
  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_first_after_paint), &ff);
  g_assert_true (iterate_until (first_frame_painted, &ff, 10000));
  g_signal_handler_disconnect (clock, id);
  g_assert_false (ff.built_at_first_frame);

  /* Then the pages, without anyone asking, each in its own bin: the
   * stack's pages (and so the switchers' buttons) are the same objects. */
  g_assert_true (wait_for_window_pages (GTK_WIDGET (ff.window), 10000));
  g_assert_true (gtk_widget_get_first_child (stack) == first);
  g_assert_true (HR_IS_MODELS_PAGE (adw_bin_get_child (ADW_BIN (first))));
  g_assert_true (hr_window_get_page (ff.window, "models") == GTK_WIDGET (hr_window_get_models_page (ff.window)));
  g_assert_true (hr_window_get_page (ff.window, "file") == GTK_WIDGET (hr_window_get_gguf_page (ff.window)));
  g_assert_true (HR_IS_HUB_PAGE (hr_window_get_page (ff.window, "hub")));
  g_assert_true (HR_IS_BOARD_PAGE (hr_window_get_page (ff.window, "board")));
  g_assert_true (HR_IS_SERVERS_OVERVIEW (hr_window_get_page (ff.window, "servers")));
  g_assert_null (hr_window_get_page (ff.window, "nowhere"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (ADW_VIEW_STACK (stack)), ==, "models");
  {
    const char *names[] = { "models", "hub", "board", "servers", "file" };
    guint i = 0;

    for (GtkWidget *child = gtk_widget_get_first_child (stack); child != NULL;
         child = gtk_widget_get_next_sibling (child), i++)
      {
        AdwViewStackPage *page = adw_view_stack_get_page (ADW_VIEW_STACK (stack), child);

        g_assert_cmpuint (i, <, G_N_ELEMENTS (names));
        g_assert_cmpstr (adw_view_stack_page_get_name (page), ==, names[i]);
        g_assert_nonnull (adw_view_stack_page_get_icon_name (page));
        g_assert_true (adw_view_stack_page_get_use_underline (page));
      }
    g_assert_cmpuint (i, ==, G_N_ELEMENTS (names));
  }
  close_window (ff.window);
}

/* A window asked for its page before its first frame builds it at once. */
static void
test_layout_early_page (void)
{
  HrWindow *window;

  reset_settings (1100, 720);
  window = g_object_ref (hr_window_new (GTK_APPLICATION (test_app)));
  g_assert_false (window_pages_built (window));
  g_assert_true (HR_IS_MODELS_PAGE (hr_window_get_models_page (window)));
  g_assert_true (window_pages_built (window));
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (window);
}

static void
save_png (GtkWidget  *widget,
          const char *name)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GtkSnapshot *snapshot;

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    return;
  path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), name, NULL);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* ------------------------------------------------------------------ */
/* The sidebar                                                         */

/* The header bar's buttons follow the page from an idle. */
static gboolean
widget_shown (gpointer widget)
{
  return gtk_widget_get_visible (widget);
}

static gboolean
widget_hidden (gpointer widget)
{
  return !gtk_widget_get_visible (widget);
}

static GtkToggleButton *
sidebar_button (HrWindow *window)
{
  GObject *button = gtk_widget_get_template_child (GTK_WIDGET (window), HR_TYPE_WINDOW, "sidebar_button");

  g_assert_true (GTK_IS_TOGGLE_BUTTON (button));
  return GTK_TOGGLE_BUTTON (button);
}

/* F9 and the button, each both ways. */
static void
check_sidebar_toggles (HrWindow *window)
{
  AdwFlap *flap = hr_models_page_get_flap (hr_window_get_models_page (window));
  GtkToggleButton *button = sidebar_button (window);
  const char *tooltip;
  gboolean start = adw_flap_get_reveal_flap (flap);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (button)));
  tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (button));
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "F9"));
  g_assert_true (gtk_toggle_button_get_active (button) == start);

  /* F9 is win.toggle-sidebar (hr-window-actions.c). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  spin (400);
  g_assert_true (adw_flap_get_reveal_flap (flap) == !start);
  g_assert_true (gtk_toggle_button_get_active (button) == !start);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  spin (400);
  g_assert_true (adw_flap_get_reveal_flap (flap) == start);

  /* The button: a click each way. */
  g_assert_true (gtk_widget_activate (GTK_WIDGET (button)));
  spin (400);
  g_assert_true (adw_flap_get_reveal_flap (flap) == !start);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  g_assert_true (gtk_widget_activate (GTK_WIDGET (button)));
  spin (400);
  g_assert_true (adw_flap_get_reveal_flap (flap) == start);
}

static void
test_layout_sidebar_wide (void)
{
  HrWindow *window = open_window (1280, 800);
  AdwFlap *flap = hr_models_page_get_flap (hr_window_get_models_page (window));
  GtkToggleButton *button = sidebar_button (window);

  g_assert_false (adw_flap_get_folded (flap));
  g_assert_true (adw_flap_get_reveal_flap (flap));
  save_png (GTK_WIDGET (window), "window-1280-light.png");
  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      AdwStyleManager *style = adw_style_manager_get_default ();

      adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
      spin (300);
      save_png (GTK_WIDGET (window), "window-1280-dark.png");
      adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
      spin (100);
    }
  check_sidebar_toggles (window);

  /* Hidden at a wide width, the button is still there to bring it back,
   * and only the Models page, which has the sidebar, shows it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  spin (400);
  g_assert_false (adw_flap_get_reveal_flap (flap));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (button)));
  adw_view_stack_set_visible_child_name (hr_window_get_stack (window), "hub");
  g_assert_true (iterate_until (widget_hidden, button, 10000));
  /* F9 from another page shows the Models page and its sidebar. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  spin (400);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (hr_window_get_stack (window)), ==, "models");
  g_assert_true (adw_flap_get_reveal_flap (flap));
  g_assert_true (iterate_until (widget_shown, button, 10000));
  g_assert_true (gtk_toggle_button_get_active (button));
  close_window (window);
}

/* ------------------------------------------------------------------ */
/* 360 px wide                                                         */

static int
minimum_width (GtkWidget *widget)
{
  int minimum = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  return minimum;
}

static void
test_layout_narrow (void)
{
  HrWindow *window = open_window (360, 720);
  HrModelsPage *page = hr_window_get_models_page (window);
  AdwFlap *flap = hr_models_page_get_flap (page);
  AdwFlap *explain = hr_models_page_get_explain_flap (page);
  /* What the window shows inside its frame (the header bar, the pages,
   * the switcher bar); the window's default width is this width. */
  GtkWidget *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));

  g_assert_cmpint (minimum_width (GTK_WIDGET (page)), <=, 360);
  g_assert_cmpint (minimum_width (content), <=, 360);
  /* The explain panel does not expand: an AdwFlap with both children
   * expanding allocates its content a negative width while it folds. */
  g_assert_false (gtk_widget_compute_expand (adw_flap_get_flap (explain), GTK_ORIENTATION_HORIZONTAL));
  g_assert_cmpint (gtk_widget_get_width (content), <=, 360);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (page)), <=, 360);

  /* Folded: the sidebar and the explain panel lie over the content, shut
   * until asked for; the switcher moved to the bottom bar. */
  g_assert_true (adw_flap_get_folded (flap));
  g_assert_true (adw_flap_get_folded (explain));
  g_assert_false (adw_flap_get_reveal_flap (flap));
  g_assert_true (iterate_until (widget_shown,
                                gtk_widget_get_template_child (GTK_WIDGET (window), HR_TYPE_WINDOW,
                                                               "explain_button"),
                                10000));
  g_assert_true (adw_view_switcher_bar_get_reveal (
                   ADW_VIEW_SWITCHER_BAR (gtk_widget_get_template_child (GTK_WIDGET (window), HR_TYPE_WINDOW,
                                                                         "switcher_bar"))));
  save_png (GTK_WIDGET (window), "window-360-folded.png");

  check_sidebar_toggles (window);
  adw_flap_set_reveal_flap (flap, TRUE);
  spin (500);
  g_assert_cmpint (gtk_widget_get_width (content), <=, 360);
  save_png (GTK_WIDGET (window), "window-360-sidebar.png");
  adw_flap_set_reveal_flap (flap, FALSE);
  spin (400);

  /* Every page fits at 360 px, the Models page's two views included. */
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (page), "boards");
  spin (300);
  g_assert_cmpint (minimum_width (GTK_WIDGET (page)), <=, 360);
  gtk_stack_set_visible_child_name (hr_models_page_get_view_stack (page), "models");
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED);

  g_test_add_func ("/window-layout/first-frame", test_layout_first_frame);
  g_test_add_func ("/window-layout/early-page", test_layout_early_page);
  g_test_add_func ("/window-layout/sidebar-wide", test_layout_sidebar_wide);
  g_test_add_func ("/window-layout/narrow", test_layout_narrow);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
