/* hr-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's actions and their keys: export (PNG, SVG, CSV), search,
 * the sidebar, the keyboard shortcuts window, and the three actions pages
 * use instead of the window's API: win.toast, win.show-page and
 * win.open-gguf.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hub/hr-hub-page.h"
#include "board/hr-variant-dialog.h"
#include "hr-window-private.h"

/* Seconds a toast stays (AdwToast:timeout); one with a button stays
 * longer, to leave time to reach it. */
#define TOAST_TIMEOUT_S        5
#define TOAST_BUTTON_TIMEOUT_S 10

static char *
toast_key (const char *kind)
{
  return g_strconcat ("hr-toast-", kind, NULL);
}

static void
on_toast_dismissed (AdwToast *toast,
                    HrWindow *self)
{
  const char *kind = g_object_get_data (G_OBJECT (toast), "hr-toast-kind");
  g_autofree char *key = toast_key (kind);

  if (g_object_get_data (G_OBJECT (self), key) == toast)
    g_object_set_data (G_OBJECT (self), key, NULL);
}

/**
 * hr_window_show_toast:
 * @self: a #HrWindow
 * @kind: what the toast is about ("message", "export"): a toast of the same
 *   kind still shown or waiting is dismissed, so toasts replace rather than
 *   queue
 * @message: what to tell the person, plain text
 * @button_label: (nullable): the toast's button, with a mnemonic
 * @action_name: (nullable): the action the button activates
 * @action_target: (nullable): its parameter (floating references are sunk)
 *
 * Shows @message in a toast that goes away by itself after 5 seconds
 * (10 with a button), and keeps it in hr_window_get_messages().
 */
void
hr_window_show_toast (HrWindow   *self,
                      const char *kind,
                      const char *message,
                      const char *button_label,
                      const char *action_name,
                      GVariant   *action_target)
{
  g_autoptr(GVariant) target = action_target != NULL ? g_variant_ref_sink (action_target) : NULL;
  g_autofree char *key = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *previous;
  AdwToast *toast;

  g_return_if_fail (HR_IS_WINDOW (self));
  g_return_if_fail (kind != NULL);
  g_return_if_fail (message != NULL);

  key = toast_key (kind);
  previous = g_object_get_data (G_OBJECT (self), key);
  if (previous != NULL)
    adw_toast_dismiss (previous);

  g_ptr_array_add (hr_window_get_messages (self), g_strdup (message));
  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, button_label != NULL ? TOAST_BUTTON_TIMEOUT_S : TOAST_TIMEOUT_S);
  if (button_label != NULL)
    {
      adw_toast_set_button_label (toast, button_label);
      adw_toast_set_action_name (toast, action_name);
      if (target != NULL)
        adw_toast_set_action_target_value (toast, target);
    }
  g_object_set_data_full (G_OBJECT (toast), "hr-toast-kind", g_strdup (kind), g_free);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self, 0);
  g_object_set_data_full (G_OBJECT (self), key, g_object_ref (toast), g_object_unref);
  adw_toast_overlay_add_toast (hr_window_get_toast_overlay (self), toast);
}

/**
 * hr_window_peek_toast:
 * @self: a #HrWindow
 * @kind: as for hr_window_show_toast()
 *
 * Returns: (transfer none) (nullable): the toast of @kind shown or waiting,
 *   or %NULL when none is
 */
AdwToast *
hr_window_peek_toast (HrWindow   *self,
                      const char *kind)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  g_return_val_if_fail (kind != NULL, NULL);

  key = toast_key (kind);
  return g_object_get_data (G_OBJECT (self), key);
}

/* The extension a kind's file must end in: a name typed without it (or
 * with another one, left from the previous export) gets it. */
static const char *
export_extension (HrExportKind kind)
{
  switch (kind)
    {
    case HR_EXPORT_PNG:
      return ".png";
    case HR_EXPORT_SVG:
      return ".svg";
    case HR_EXPORT_CSV:
    default:
      return ".csv";
    }
}

static char *
export_path (HrExportKind  kind,
             const char   *path)
{
  const char *extension = export_extension (kind);
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, extension))
    return g_strdup (path);
  return g_strconcat (path, extension, NULL);
}

/**
 * hr_window_export_to:
 * @self: a #HrWindow
 * @kind: the chart as PNG or SVG, or the table as CSV
 * @path: the file chosen; ".png", ".svg" or ".csv" is added when its name
 *   does not end in the kind's extension (any case)
 *
 * Writes the Models page's chart or table (hr_models_page_export_png(),
 * _svg(), _csv()) and says so in an "export" toast that names the file
 * written and offers "Open Folder" (win.open-folder with the folder's
 * file:// URI), or gives the error's message.
 *
 * Returns: %TRUE when the file was written
 */
gboolean
hr_window_export_to (HrWindow     *self,
                     HrExportKind  kind,
                     const char   *path)
{
  HrModelsPage *page = hr_window_get_models_page (self);
  g_autofree char *written = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_return_val_if_fail (HR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  written = export_path (kind, path);
  switch (kind)
    {
    case HR_EXPORT_PNG:
      ok = hr_models_page_export_png (page, written, &error);
      break;
    case HR_EXPORT_SVG:
      ok = hr_models_page_export_svg (page, written, &error);
      break;
    case HR_EXPORT_CSV:
    default:
      ok = hr_models_page_export_csv (page, written, &error);
      break;
    }

  if (ok)
    {
      g_autoptr(GFile) file = g_file_new_for_path (written);
      g_autoptr(GFile) folder = g_file_get_parent (file);
      g_autofree char *uri = folder != NULL ? g_file_get_uri (folder) : NULL;
      g_autofree char *display = g_filename_display_name (written);
      /* Translators: after an export; %s is the file written */
      g_autofree char *message = g_strdup_printf (_("Exported to %s"), display);

      if (uri != NULL)
        hr_window_show_toast (self, "export", message, _("Open _Folder"), "win.open-folder",
                              g_variant_new_string (uri));
      else
        hr_window_show_toast (self, "export", message, NULL, NULL, NULL);
    }
  else
    hr_window_show_toast (self, "export", error->message, NULL, NULL, NULL);
  return ok;
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    HrWindow        *self)
{
  HrExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "hr-export-kind"));
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      path = file ? g_file_get_path (file) : NULL;
      if (path == NULL)
        hr_window_show_toast (self, "export", _("Export needs a local file"), NULL, NULL, NULL);
      else
        hr_window_export_to (self, kind, path);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
on_folder_opened (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(HrWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    {
      /* Translators: %s is why no file manager opened the folder */
      g_autofree char *message = g_strdup_printf (_("Could not open the folder: %s"), error->message);

      hr_window_show_toast (self, "export", message, NULL, NULL, NULL);
    }
}

/* win.open-folder "s": a folder's URI, shown by the default file manager. */
static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  const char *uri = g_variant_get_string (parameter, NULL);
  g_autoptr(GdkAppLaunchContext) context = gdk_display_get_app_launch_context (gtk_widget_get_display (widget));

  g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (context), NULL,
                                           on_folder_opened, g_object_ref (widget));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  HrExportKind kind;
  const char *title;
  const char *name;

  if (g_str_equal (action_name, "win.export-png"))
    {
      kind = HR_EXPORT_PNG;
      title = _("Export Chart as PNG");
      name = "headroom-chart.png";
      gtk_file_filter_set_name (filter, _("PNG images"));
      gtk_file_filter_add_mime_type (filter, "image/png");
    }
  else if (g_str_equal (action_name, "win.export-svg"))
    {
      kind = HR_EXPORT_SVG;
      title = _("Export Chart as SVG");
      name = "headroom-chart.svg";
      gtk_file_filter_set_name (filter, _("SVG images"));
      gtk_file_filter_add_mime_type (filter, "image/svg+xml");
    }
  else
    {
      kind = HR_EXPORT_CSV;
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

  adw_view_stack_set_visible_child_name (hr_window_get_stack (self), "models");
  hr_models_page_focus_search (hr_window_get_models_page (self));
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  AdwFlap *flap = hr_models_page_get_flap (hr_window_get_models_page (self));

  adw_view_stack_set_visible_child_name (hr_window_get_stack (self), "models");
  adw_flap_set_reveal_flap (flap, !adw_flap_get_reveal_flap (flap));
}

/* win.presentation (F11): one model's bar and its formula for a room to
 * read, or back. On: the window full screen, the sidebar folded away, the
 * table hidden so the chart shows the selected model's bar alone
 * (hr_models_page_set_presenting()) beside the explain panel, and every
 * text larger by "window.presentation" (hr-text-zoom.c). Off: the window,
 * the table, the sidebar and the explain panel as they were. */
static void
presentation_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  HrModelsPage *page = hr_window_get_models_page (self);
  AdwFlap *sidebar = hr_models_page_get_flap (page);
  AdwFlap *explain = hr_models_page_get_explain_flap (page);
  gboolean on = !gtk_widget_has_css_class (widget, "presentation");

  if (on)
    {
      g_object_set_data (G_OBJECT (self), "hr-presentation-sidebar", GINT_TO_POINTER (adw_flap_get_reveal_flap (sidebar)));
      g_object_set_data (G_OBJECT (self), "hr-presentation-explain", GINT_TO_POINTER (adw_flap_get_reveal_flap (explain)));
      g_object_set_data (G_OBJECT (self), "hr-presentation-fullscreen", GINT_TO_POINTER (gtk_window_is_fullscreen (GTK_WINDOW (self))));
      adw_view_stack_set_visible_child_name (hr_window_get_stack (self), "models");
      gtk_widget_add_css_class (widget, "presentation");
      adw_flap_set_reveal_flap (sidebar, FALSE);
      adw_flap_set_reveal_flap (explain, TRUE);
      hr_models_page_set_presenting (page, TRUE);
      gtk_window_fullscreen (GTK_WINDOW (self));
    }
  else
    {
      gtk_widget_remove_css_class (widget, "presentation");
      hr_models_page_set_presenting (page, FALSE);
      adw_flap_set_reveal_flap (sidebar, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "hr-presentation-sidebar")));
      adw_flap_set_reveal_flap (explain, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "hr-presentation-explain")));
      if (!GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "hr-presentation-fullscreen")))
        gtk_window_unfullscreen (GTK_WINDOW (self));
    }
}

/* win.create-variant "(ss)": a saved server's URL ("" for the one saved
 * for the Models page's board, else the first saved) and the model to
 * make the variant from ("" for the server's first): opens "Run It Like
 * This" at the scenario's context. */
static void
create_variant_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  HrSession *session = hr_window_get_session (self);
  HrScenario *scenario = hr_window_get_scenario (self);
  const char *url, *source;
  HrVariantDialog *dialog;

  if (session == NULL || scenario == NULL)
    return;
  g_variant_get (parameter, "(&s&s)", &url, &source);
  if (*url == '\0')
    {
      GArray *servers = hr_session_get_servers (session);
      const char *board = hr_scenario_get_board_id (scenario);

      for (guint i = 0; servers != NULL && i < servers->len && *url == '\0'; i++)
        if (g_strcmp0 (g_array_index (servers, HrSavedServer, i).board_id, board) == 0)
          url = g_array_index (servers, HrSavedServer, i).url;
    }
  dialog = hr_variant_dialog_new (GTK_WINDOW (self), session, *url != '\0' ? url : NULL,
                                  *source != '\0' ? source : NULL,
                                  hr_scenario_get_context_tokens (scenario), -1);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* win.load-model "(ss)": a server's URL and a model on it: loads it and
 * tells /api/ps beside the prediction (hr_variant_load_and_compare()). */
static void
load_model_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  const char *url, *model;
  g_autoptr(HrOllamaClient) client = NULL;
  g_autoptr(GError) error = NULL;

  g_variant_get (parameter, "(&s&s)", &url, &model);
  client = hr_ollama_client_new (url, &error);
  if (client == NULL)
    {
      hr_window_add_toast (HR_WINDOW (widget), error->message);
      return;
    }
  hr_variant_load_and_compare (GTK_WINDOW (widget), hr_window_get_session (HR_WINDOW (widget)), client, model, NULL);
}

/* win.show-page "s": a page's name. */
static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (hr_window_get_page (self, name) == NULL)
    {
      g_warning ("win.show-page: no page named “%s”", name);
      return;
    }
  adw_view_stack_set_visible_child_name (hr_window_get_stack (self), name);
  /* Where a person starts on the page: the Hub's repository entry, the
   * File page's open button. */
  if (g_str_equal (name, "hub"))
    hr_hub_page_focus_entry (HR_HUB_PAGE (hr_window_get_page (self, name)));
  else if (g_str_equal (name, "file"))
    hr_gguf_page_focus_open (hr_window_get_gguf_page (self));
}

/* win.open-gguf "s": the File page on a path or a URI, or "" for a file
 * chooser. */
static void
open_gguf_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  const char *path = g_variant_get_string (parameter, NULL);
  HrGgufPage *page = hr_window_get_gguf_page (self);

  adw_view_stack_set_visible_child_name (hr_window_get_stack (self), "file");
  if (*path == '\0')
    {
      hr_gguf_page_choose_file (page, GTK_WINDOW (self));
    }
  else
    {
      /* A path, or a URI (a file given without a local path, which the
       * page refuses in words). */
      g_autoptr(GFile) file = g_uri_peek_scheme (path) != NULL ? g_file_new_for_uri (path)
                                                               : g_file_new_for_path (path);

      hr_gguf_page_open (page, file);
    }
}

/* win.toast "s": a message for the person, plain text; it replaces the
 * previous one. */
static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  hr_window_show_toast (HR_WINDOW (widget), "message", g_variant_get_string (parameter, NULL), NULL, NULL, NULL);
}

/* The shortcuts window is built the first time it is asked for: were it
 * at the resource path GtkApplication looks in (gtk/help-overlay.ui),
 * every window would build it at start-up. */
static void
show_help_overlay_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (widget);

  if (gtk_application_window_get_help_overlay (window) == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/headroom/Headroom/help-overlay.ui");

      gtk_application_window_set_help_overlay (window,
                                               GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder,
                                                                                             "help_overlay")));
    }
  gtk_window_present (GTK_WINDOW (gtk_application_window_get_help_overlay (window)));
}

/**
 * _hr_window_class_actions_init:
 * @widget_class: #HrWindow's class
 *
 * Installs the window's actions (win.export-png, win.export-svg,
 * win.export-csv, win.search, win.toggle-sidebar, win.presentation (F11),
 * win.show-page "s",
 * win.open-gguf "s", win.toast "s", win.open-folder "s",
 * win.show-help-overlay) and their keys
 * (Ctrl+? for the shortcuts is the application's accelerator).
 */
void
_hr_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-png", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-svg", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.presentation", NULL, presentation_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.create-variant", "(ss)", create_variant_action);
  gtk_widget_class_install_action (widget_class, "win.load-model", "(ss)", load_model_action);
  gtk_widget_class_install_action (widget_class, "win.open-gguf", "s", open_gguf_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", "s", open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL, show_help_overlay_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F11, 0, "win.presentation", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-png", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-csv", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-page", "s", "models");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-page", "s", "hub");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-page", "s", "board");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK, "win.show-page", "s", "file");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_5, GDK_ALT_MASK, "win.show-page", "s", "servers");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-gguf", "s", "");
}
