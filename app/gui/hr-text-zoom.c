/* hr-text-zoom.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "hr-text-zoom.h"

#define ZOOM_KEY "text-zoom"

/* The sizes Ctrl+plus and Ctrl+minus step through, as fractions of the
 * desktop's text size; the ends are the key's range in the schema. */
static const double zoom_steps[] = { 0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0 };

/**
 * hr_text_zoom_step:
 * @zoom: the text size now, as a fraction of the desktop's (1.0 = 100 %)
 * @direction: 1 for the next larger step, -1 for the next smaller, 0 for
 *   the desktop's size
 *
 * Returns: the next of 50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250
 *   and 300 % from @zoom in @direction, @zoom's end of that list where
 *   there is none, or 1.0 for @direction 0
 */
double
hr_text_zoom_step (double zoom,
                   int    direction)
{
  if (direction == 0)
    return 1.0;
  if (direction > 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (zoom_steps); i++)
        if (zoom_steps[i] > zoom + 0.001)
          return zoom_steps[i];
      return zoom_steps[G_N_ELEMENTS (zoom_steps) - 1];
    }
  for (guint i = G_N_ELEMENTS (zoom_steps); i > 0; i--)
    if (zoom_steps[i - 1] < zoom - 0.001)
      return zoom_steps[i - 1];
  return zoom_steps[0];
}

/* The style sheet for @zoom: every window's text (and so every label,
 * heading and chart text sized relative to it, as libadwaita's are) at
 * @zoom times the desktop's size. A CSS provider, because the GtkSettings
 * font size (gtk-xft-dpi) is the whole display's, not the application's. */
static void
apply_zoom (GSettings      *settings,
            const char     *key,
            GtkCssProvider *provider)
{
  double zoom = g_settings_get_double (settings, ZOOM_KEY);
  g_autofree char *css = NULL;
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  char larger[G_ASCII_DTOSTR_BUF_SIZE];

  /* The presentation view (win.presentation) is larger again. */
  g_ascii_formatd (larger, sizeof larger, "%.0f", zoom * HR_TEXT_ZOOM_PRESENTATION * 100.0);
  if (fabs (zoom - 1.0) < 0.001)
    css = g_strdup_printf ("window.presentation { font-size: %s%%; }", larger);
  else
    css = g_strdup_printf ("window { font-size: %s%%; } window.presentation { font-size: %s%%; }",
                           g_ascii_formatd (number, sizeof number, "%.0f", zoom * 100.0), larger);
  gtk_css_provider_load_from_data (provider, css, -1);
}

static void
zoom_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GSettings *settings = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  int direction = g_str_equal (name, "zoom-in") ? 1 : g_str_equal (name, "zoom-out") ? -1 : 0;
  double zoom = g_settings_get_double (settings, ZOOM_KEY);

  g_settings_set_double (settings, ZOOM_KEY, hr_text_zoom_step (zoom, direction));
}

/* Zoom in and out are insensitive at the ends of the steps, the reset at
 * the desktop's size. */
static void
update_actions (GSettings    *settings,
                const char   *key,
                GActionMap   *map)
{
  double zoom = g_settings_get_double (settings, ZOOM_KEY);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "zoom-in")),
                               zoom < zoom_steps[G_N_ELEMENTS (zoom_steps) - 1] - 0.001);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "zoom-out")),
                               zoom > zoom_steps[0] + 0.001);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "zoom-reset")),
                               fabs (zoom - 1.0) >= 0.001);
}

/**
 * hr_text_zoom_install:
 * @application: the application, started up (a display is open)
 * @settings: the application's settings, with the "text-zoom" key
 *
 * Adds app.zoom-in (Ctrl+plus, Ctrl+=), app.zoom-out (Ctrl+minus) and
 * app.zoom-reset (Ctrl+0), which step
 * the "text-zoom" setting through hr_text_zoom_step(), and a style
 * provider on the default display that sizes every window's text at that
 * setting, now and whenever it changes, and the presentation view's
 * ("window.presentation") at HR_TEXT_ZOOM_PRESENTATION times that.
 */
void
hr_text_zoom_install (GtkApplication *application,
                      GSettings      *settings)
{
  static const char *in_accels[] = { "<Control>plus", "<Control>equal", NULL };
  static const char *out_accels[] = { "<Control>minus", NULL };
  static const char *reset_accels[] = { "<Control>0", NULL };
  const GActionEntry entries[] = {
    { "zoom-in", zoom_activated, NULL, NULL, NULL, { 0 } },
    { "zoom-out", zoom_activated, NULL, NULL, NULL, { 0 } },
    { "zoom-reset", zoom_activated, NULL, NULL, NULL, { 0 } },
  };
  GtkCssProvider *provider = gtk_css_provider_new ();
  GdkDisplay *display = gdk_display_get_default ();

  g_action_map_add_action_entries (G_ACTION_MAP (application), entries, G_N_ELEMENTS (entries), settings);
  gtk_application_set_accels_for_action (application, "app.zoom-in", in_accels);
  gtk_application_set_accels_for_action (application, "app.zoom-out", out_accels);
  gtk_application_set_accels_for_action (application, "app.zoom-reset", reset_accels);

  if (display != NULL)
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  /* The provider lives as long as the settings it follows. */
  g_object_set_data_full (G_OBJECT (settings), "hr-text-zoom-provider", provider, g_object_unref);
  g_signal_connect_object (settings, "changed::" ZOOM_KEY, G_CALLBACK (apply_zoom), provider, 0);
  g_signal_connect_object (settings, "changed::" ZOOM_KEY, G_CALLBACK (update_actions), application, 0);
  apply_zoom (settings, ZOOM_KEY, provider);
  update_actions (settings, ZOOM_KEY, G_ACTION_MAP (application));
}
