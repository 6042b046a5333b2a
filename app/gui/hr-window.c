/* hr-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "hr-board-page.h"
#include "hr-gguf-page.h"
#include "hr-hub-page.h"
#include "hr-window.h"

typedef enum {
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_CSV,
} ExportKind;

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
/* Export                                                              */

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    HrWindow        *self)
{
  ExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "hr-export-kind"));
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gboolean ok = FALSE;

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;

  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = file ? g_file_get_path (file) : NULL;
  if (path == NULL)
    {
      hr_window_add_toast (self, _("Export needs a local file"));
      goto out;
    }

  switch (kind)
    {
    case EXPORT_PNG:
      ok = hr_models_page_export_png (self->models_page, path, &error);
      break;
    case EXPORT_SVG:
      ok = hr_models_page_export_svg (self->models_page, path, &error);
      break;
    case EXPORT_CSV:
    default:
      ok = hr_models_page_export_csv (self->models_page, path, &error);
      break;
    }

  if (ok)
    {
      g_autofree char *message = g_strdup_printf (_("Exported to %s"), path);

      hr_window_add_toast (self, message);
    }
  else
    {
      hr_window_add_toast (self, error->message);
    }

out:
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  ExportKind kind;
  const char *title;
  const char *name;

  if (g_str_equal (action_name, "win.export-png"))
    {
      kind = EXPORT_PNG;
      title = _("Export Chart as PNG");
      name = "headroom-chart.png";
      gtk_file_filter_set_name (filter, _("PNG images"));
      gtk_file_filter_add_mime_type (filter, "image/png");
    }
  else if (g_str_equal (action_name, "win.export-svg"))
    {
      kind = EXPORT_SVG;
      title = _("Export Chart as SVG");
      name = "headroom-chart.svg";
      gtk_file_filter_set_name (filter, _("SVG images"));
      gtk_file_filter_add_mime_type (filter, "image/svg+xml");
    }
  else
    {
      kind = EXPORT_CSV;
      title = _("Export Table as CSV");
      name = "headroom-models.csv";
      gtk_file_filter_set_name (filter, _("CSV files"));
      gtk_file_filter_add_mime_type (filter, "text/csv");
    }

  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_set_data (G_OBJECT (dialog), "hr-export-kind", GINT_TO_POINTER (kind));
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->stack, "models");
  hr_models_page_focus_search (self->models_page);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  AdwFlap *flap = hr_models_page_get_flap (self->models_page);

  adw_view_stack_set_visible_child_name (self->stack, "models");
  adw_flap_set_reveal_flap (flap, !adw_flap_get_reveal_flap (flap));
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->stack, g_variant_get_string (parameter, NULL));
}

/* "Open GGUF File…": the File page, and a file chooser over it. */
static void
open_gguf_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->stack, "file");
  hr_gguf_page_choose_file (self->gguf_page, GTK_WINDOW (self));
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

  gtk_widget_class_install_action (widget_class, "win.export-png", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-svg", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.open-gguf", NULL, open_gguf_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-png", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-csv", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-page", "s", "models");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-page", "s", "hub");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-page", "s", "board");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK, "win.show-page", "s", "file");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-gguf", NULL);
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
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
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

  hr_models_page_load (self->models_page, problems);
  hr_hub_page_set_models_page (self->hub_page, self->models_page);
  hr_gguf_page_set_models_page (self->gguf_page, self->models_page);
  for (guint i = 0; i < problems->len; i++)
    hr_window_add_toast (self, g_ptr_array_index (problems, i));
}

/**
 * hr_window_new:
 * @application: the #HrApplication
 *
 * Opens a window on the built-in and the user's catalog and boards.
 *
 * Returns: (transfer full): a new #HrWindow
 */
HrWindow *
hr_window_new (GtkApplication *application)
{
  HrWindow *self = g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
  GtkWidget *board = adw_view_stack_get_child_by_name (self->stack, "board");

  /* The Board page works on the application's session and scenario. */
  if (HR_IS_APPLICATION (application) && HR_IS_BOARD_PAGE (board))
    {
      HrSession *session = hr_application_get_session (HR_APPLICATION (application));

      if (!hr_session_get_loaded (session))
        hr_session_load (session);
      g_object_set (board,
                    "session", session,
                    "scenario", hr_application_get_scenario (HR_APPLICATION (application)),
                    NULL);
    }
  return self;
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
