/* hr-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "hr-text-zoom.h"
#include "hr-preferences-window.h"
#include "hr-scenario.h"
#include "hr-session.h"
#include "hr-window.h"

struct _HrApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  HrSession      *session;
  HrScenario     *scenario;
};

G_DEFINE_FINAL_TYPE (HrApplication, hr_application, ADW_TYPE_APPLICATION)

/* The same as data/io.github.headroom.Headroom.metainfo.xml.in's
 * <url type="homepage"> and <url type="bugtracker">. */
#define HR_APPLICATION_WEBSITE   "https://github.com/headroom/Headroom"
#define HR_APPLICATION_ISSUE_URL "https://github.com/headroom/Headroom/issues"

static HrWindow *
active_window (HrApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  return HR_IS_WINDOW (window) ? HR_WINDOW (window) : NULL;
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  HrApplication *self = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* Close the windows so they save their size; then the application ends. */
  for (GList *l = windows; l != NULL;)
    {
      GtkWindow *window = l->data;

      l = l->next;
      gtk_window_close (window);
    }
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  HrApplication *self = user_data;
  static const char *developers[] = { "The Headroom developers", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", active_window (self),
                        "modal", TRUE,
                        "application-name", _("Headroom"),
                        "application-icon", APPLICATION_ID,
                        "developer-name", _("The Headroom developers"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Will this model fit on that board, how fast will it run, and why? "
                                      "Headroom shows every figure with the formula that made it."),
                        "developers", developers,
                        /* Translators: your names, one per line */
                        "translator-credits", _("translator-credits"),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2026 The Headroom developers",
                        /* The metainfo's homepage and bugtracker URLs. */
                        "website", HR_APPLICATION_WEBSITE,
                        "issue-url", HR_APPLICATION_ISSUE_URL,
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  HrApplication *self = user_data;
  HrWindow *window = active_window (self);
  GtkWidget *preferences;

  if (window == NULL)
    return;

  preferences = hr_preferences_window_new (GTK_WINDOW (window), hr_application_get_settings (self),
                                           hr_session_get_boards (hr_application_get_session (self)));
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
shortcuts_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  HrApplication *self = user_data;
  HrWindow *window = active_window (self);

  if (window != NULL)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
  { "preferences", preferences_activated, NULL, NULL, NULL, { 0 } },
  { "shortcuts", shortcuts_activated, NULL, NULL, NULL, { 0 } },
};

static void
hr_application_activate (GApplication *application)
{
  HrApplication *self = HR_APPLICATION (application);
  HrWindow *window = active_window (self);

  if (window == NULL)
    window = hr_window_new (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (window));
}

/* `headroom FILE.gguf…` and a file manager's "Open With": each file on the
 * File page (win.open-gguf), the first in the window already open, the
 * others each in a window of its own. */
static void
hr_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  HrApplication *self = HR_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    {
      HrWindow *window = i == 0 ? active_window (self) : NULL;
      g_autofree char *path = g_file_get_path (files[i]);
      g_autofree char *uri = path == NULL ? g_file_get_uri (files[i]) : NULL;

      if (window == NULL)
        window = hr_window_new (GTK_APPLICATION (self));
      gtk_window_present (GTK_WINDOW (window));
      gtk_widget_activate_action (GTK_WIDGET (window), "win.open-gguf", "s", path != NULL ? path : uri);
    }
}

static void
hr_application_startup (GApplication *application)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  /* GtkApplication's own, were the shortcuts window where it looks. */
  static const char *help_accels[] = { "<Control>question", NULL };

  G_APPLICATION_CLASS (hr_application_parent_class)->startup (application);

  hr_application_get_scenario (HR_APPLICATION (application));

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.preferences",
                                         preferences_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-help-overlay",
                                         help_accels);
  hr_text_zoom_install (GTK_APPLICATION (application), HR_APPLICATION (application)->settings);
}

/* The session lives while a window shows it: the last window closed, the
 * next window (a test's, or the app's after a quit was cancelled) reads
 * the files afresh, as a new start would. */
static void
hr_application_window_removed (GtkApplication *application,
                               GtkWindow      *window)
{
  HrApplication *self = HR_APPLICATION (application);

  GTK_APPLICATION_CLASS (hr_application_parent_class)->window_removed (application, window);

  if (gtk_application_get_windows (application) == NULL)
    {
      g_clear_object (&self->scenario);
      g_clear_object (&self->session);
    }
}

static void
hr_application_dispose (GObject *object)
{
  HrApplication *self = (HrApplication *)object;

  g_clear_object (&self->scenario);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_application_parent_class)->dispose (object);
}

static void
hr_application_class_init (HrApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  object_class->dispose = hr_application_dispose;
  gtk_app_class->window_removed = hr_application_window_removed;

  app_class->activate = hr_application_activate;
  app_class->open = hr_application_open;
  app_class->startup = hr_application_startup;
}

static void
hr_application_init (HrApplication *self)
{
}

/**
 * hr_application_new:
 *
 * Returns: (transfer full): the application, id io.github.headroom.Headroom,
 *   which opens the files it is given (G_APPLICATION_HANDLES_OPEN) on the
 *   File page; its resources (templates, style.css) live under
 *   /io/github/headroom/Headroom/
 */
HrApplication *
hr_application_new (void)
{
  return g_object_new (HR_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS | G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/headroom/Headroom",
                       NULL);
}

/**
 * hr_application_get_settings:
 * @self: the #HrApplication
 *
 * The application's one #GSettings (io.github.headroom.Headroom), made on
 * first use; the session hands it down to the pages
 * (hr_session_get_settings()), and the window and the preferences window
 * are given it.
 *
 * Returns: (transfer none): the settings
 */
GSettings *
hr_application_get_settings (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);

  if (self->settings == NULL)
    self->settings = g_settings_new (APPLICATION_ID);
  return self->settings;
}

/**
 * hr_application_get_session:
 * @self: the #HrApplication
 *
 * The application's one session (created on first use, on the app's
 * settings; its windows load it with hr_session_load_async()).
 *
 * Returns: (transfer none): the session every page shares
 */
HrSession *
hr_application_get_session (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);

  if (self->session == NULL)
    {
      self->session = hr_session_new (hr_application_get_settings (self));
    }
  return self->session;
}

/**
 * hr_application_get_scenario:
 * @self: the #HrApplication
 *
 * The application's one scenario, on its session, bound to the settings
 * (hr_scenario_bind_settings()).
 *
 * Returns: (transfer none): the scenario every page shares
 */
HrScenario *
hr_application_get_scenario (HrApplication *self)
{
  g_return_val_if_fail (HR_IS_APPLICATION (self), NULL);

  if (self->scenario == NULL)
    {
      self->scenario = hr_scenario_new (hr_application_get_session (self));
      hr_scenario_bind_settings (self->scenario, hr_application_get_settings (self));
    }
  return self->scenario;
}
