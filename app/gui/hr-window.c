/* hr-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "hr-board-page.h"
#include "hr-hub-page.h"
#include "hr-window-private.h"

struct _HrWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;
  AdwViewSwitcherTitle *switcher_title;
  GtkToggleButton      *sidebar_button;
  GtkToggleButton      *explain_button;
  guint                 sync_buttons_id;
  HrModelsPage         *models_page;
  HrHubPage            *hub_page;
  HrGgufPage           *gguf_page;

  GSettings            *settings;
  HrSession            *session;
  HrScenario           *scenario;
  GPtrArray            *messages;   /* every toast shown, in order */
};

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

/**
 * hr_window_add_toast:
 * @self: a #HrWindow
 * @message: what to tell the person, plain text
 *
 * Shows @message in a toast and keeps it in hr_window_get_messages().
 */
void
hr_window_add_toast (HrWindow   *self,
                     const char *message)
{
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (HR_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  g_ptr_array_add (self->messages, g_strdup (message));

  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * hr_window_get_toast_overlay:
 * @self: a #HrWindow
 *
 * Returns: (transfer none): the overlay the window's toasts show in
 *   (hr_window_show_toast())
 */
AdwToastOverlay *
hr_window_get_toast_overlay (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->toast_overlay;
}

/**
 * hr_window_get_messages:
 * @self: a #HrWindow
 *
 * Returns: (transfer none) (element-type utf8): every message shown in a
 *   toast since the window opened
 */
GPtrArray *
hr_window_get_messages (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->messages;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static gboolean
hr_window_close_request (GtkWindow *window)
{
  HrWindow *self = HR_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (self->settings, "window-is-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }

  return GTK_WINDOW_CLASS (hr_window_parent_class)->close_request (window);
}

/* ------------------------------------------------------------------ */
/* The session and the scenario                                        */

static void
show_problems (HrWindow *self)
{
  GPtrArray *problems = hr_session_get_problems (self->session);

  for (guint i = 0; i < problems->len; i++)
    hr_window_add_toast (self, g_ptr_array_index (problems, i));
}

static void
on_problem (HrSession  *session,
            const char *message,
            HrWindow   *self)
{
  hr_window_add_toast (self, message);
}

/* Every page that has the "session" and "scenario" properties gets them. */
static void
give_pages (HrWindow   *self,
            HrScenario *scenario)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->stack));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GObjectClass *klass = G_OBJECT_GET_CLASS (child);

      if (g_object_class_find_property (klass, "session") != NULL)
        g_object_set (child, "session", self->session, NULL);
      if (g_object_class_find_property (klass, "scenario") != NULL)
        g_object_set (child, "scenario", scenario, NULL);
    }
}

/* The application's session and scenario, once the window belongs to it;
 * a window shown without an application (the page tests) has its own. */
static void
ensure_session (HrWindow *self,
                gboolean  own)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (self->session != NULL)
    return;

  if (HR_IS_APPLICATION (application))
    {
      self->session = g_object_ref (hr_application_get_session (HR_APPLICATION (application)));
      self->scenario = g_object_ref (hr_application_get_scenario (HR_APPLICATION (application)));
    }
  else if (own)
    {
      self->session = hr_session_new (self->settings);
      self->scenario = hr_scenario_new (self->session);
      hr_scenario_bind_settings (self->scenario, self->settings);
    }
  else
    {
      return;
    }
  give_pages (self, self->scenario);

  /* What could not be read is told once the session is loaded. */
  g_signal_connect_object (self->session, "problem", G_CALLBACK (on_problem), self, 0);
  if (hr_session_get_loaded (self->session))
    show_problems (self);
  else
    g_signal_connect_object (self->session, "notify::loaded", G_CALLBACK (show_problems), self,
                             G_CONNECT_SWAPPED);
  hr_session_load_async (self->session, NULL, NULL, NULL);
}

static void
on_application_set (HrWindow *self)
{
  ensure_session (self, FALSE);
}

static void
hr_window_realize (GtkWidget *widget)
{
  ensure_session (HR_WINDOW (widget), TRUE);
  GTK_WIDGET_CLASS (hr_window_parent_class)->realize (widget);
}

static void
hr_window_dispose (GObject *object)
{
  HrWindow *self = (HrWindow *)object;

  g_clear_handle_id (&self->sync_buttons_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_WINDOW);

  G_OBJECT_CLASS (hr_window_parent_class)->dispose (object);
}

static void
hr_window_finalize (GObject *object)
{
  HrWindow *self = (HrWindow *)object;

  g_clear_object (&self->settings);
  g_clear_object (&self->scenario);
  g_clear_object (&self->session);
  g_clear_pointer (&self->messages, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_window_parent_class)->finalize (object);
}

static void
hr_window_class_init (HrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = hr_window_dispose;
  object_class->finalize = hr_window_finalize;
  window_class->close_request = hr_window_close_request;
  widget_class->realize = hr_window_realize;

  g_type_ensure (HR_TYPE_MODELS_PAGE);
  g_type_ensure (HR_TYPE_HUB_PAGE);
  g_type_ensure (HR_TYPE_BOARD_PAGE);
  g_type_ensure (HR_TYPE_GGUF_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, explain_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, models_page);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, hub_page);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, gguf_page);

  _hr_window_class_actions_init (widget_class);
}

/* A flap folds while it is being allocated: showing a header bar button
 * right then would change the header bar after its own allocation, so the
 * buttons follow the flaps from an idle, before the next frame. */
static gboolean
sync_flap_buttons (gpointer user_data)
{
  HrWindow *self = user_data;

  self->sync_buttons_id = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_button),
                          adw_flap_get_folded (hr_models_page_get_flap (self->models_page)));
  gtk_widget_set_visible (GTK_WIDGET (self->explain_button),
                          adw_flap_get_folded (hr_models_page_get_explain_flap (self->models_page)));
  return G_SOURCE_REMOVE;
}

static void
queue_sync_flap_buttons (HrWindow *self)
{
  if (self->sync_buttons_id == 0)
    self->sync_buttons_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, sync_flap_buttons, self, NULL);
}

static void
hr_window_init (HrWindow *self)
{
  AdwFlap *flap;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->messages = g_ptr_array_new_with_free_func (g_free);
  self->settings = g_settings_new (APPLICATION_ID);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-is-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  flap = hr_models_page_get_flap (self->models_page);
  g_signal_connect_object (flap, "notify::folded", G_CALLBACK (queue_sync_flap_buttons), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property (flap, "reveal-flap", self->sidebar_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  flap = hr_models_page_get_explain_flap (self->models_page);
  g_signal_connect_object (flap, "notify::folded", G_CALLBACK (queue_sync_flap_buttons), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property (flap, "reveal-flap", self->explain_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  sync_flap_buttons (self);

  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_set), NULL);
}

/**
 * hr_window_new:
 * @application: the #HrApplication
 *
 * Opens a window on @application's session and scenario; it starts
 * loading the session (hr_session_load_async()).
 *
 * Returns: (transfer full): a new #HrWindow
 */
HrWindow *
hr_window_new (GtkApplication *application)
{
  return g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
}

/**
 * hr_window_get_models_page:
 * @self: a #HrWindow
 *
 * Returns: (transfer none): the Models page
 */
HrModelsPage *
hr_window_get_models_page (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->models_page;
}

/**
 * hr_window_get_stack:
 * @self: a #HrWindow
 *
 * Returns: (transfer none): the view stack holding the pages "models",
 *   "hub", "board" and "file"
 */
AdwViewStack *
hr_window_get_stack (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->stack;
}

/**
 * hr_window_get_gguf_page:
 * @self: a #HrWindow
 *
 * Returns: (transfer none): the File page
 */
HrGgufPage *
hr_window_get_gguf_page (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->gguf_page;
}
