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

#include "hr-window-private.h"

typedef enum {
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_CSV,
} ExportKind;

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    HrWindow        *self)
{
  ExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "hr-export-kind"));
  HrModelsPage *page = hr_window_get_models_page (self);
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
      ok = hr_models_page_export_png (page, path, &error);
      break;
    case EXPORT_SVG:
      ok = hr_models_page_export_svg (page, path, &error);
      break;
    case EXPORT_CSV:
    default:
      ok = hr_models_page_export_csv (page, path, &error);
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

/* win.show-page "s": a page's name. */
static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (adw_view_stack_get_child_by_name (hr_window_get_stack (self), name) == NULL)
    {
      g_warning ("win.show-page: no page named “%s”", name);
      return;
    }
  adw_view_stack_set_visible_child_name (hr_window_get_stack (self), name);
}

/* win.open-gguf "s": the File page on a path, or "" for a file chooser. */
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
      g_autoptr(GFile) file = g_file_new_for_path (path);

      hr_gguf_page_open (page, file);
    }
}

/* win.toast "s": a message for the person, plain text. */
static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  hr_window_add_toast (HR_WINDOW (widget), g_variant_get_string (parameter, NULL));
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
 * win.export-csv, win.search, win.toggle-sidebar, win.show-page "s",
 * win.open-gguf "s", win.toast "s", win.show-help-overlay) and their keys
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
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.open-gguf", "s", open_gguf_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL, show_help_overlay_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-png", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-csv", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-page", "s", "models");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-page", "s", "hub");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-page", "s", "board");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK, "win.show-page", "s", "file");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-gguf", "s", "");
}
