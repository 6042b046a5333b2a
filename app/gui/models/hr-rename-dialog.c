/* hr-rename-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-rename-dialog.h"

typedef struct {
  HrSession *session;
  char      *name;
  GtkWidget *entry;
  GtkWidget *problem;
} RenameData;

static void
rename_data_free (RenameData *data)
{
  g_clear_object (&data->session);
  g_free (data->name);
  g_free (data);
}

/**
 * hr_rename_dialog_problem:
 * @session: the session
 * @name: the model's name now
 * @new_name: the name typed
 *
 * What keeps @new_name from being the model's name, as the dialog says it
 * under the entry: empty, or another model's (hr_session_rename_model()
 * refuses the same).
 *
 * Returns: (transfer none) (nullable): the problem, or %NULL when @new_name
 *   can be used
 */
const char *
hr_rename_dialog_problem (HrSession  *session,
                          const char *name,
                          const char *new_name)
{
  g_autofree char *stripped = g_strstrip (g_strdup (new_name != NULL ? new_name : ""));

  if (stripped[0] == '\0')
    return _("A model needs a name: type one.");
  if (g_strcmp0 (stripped, name) != 0 && hr_session_find_model (session, stripped) != NULL)
    return _("Another model has this name: choose another.");
  return NULL;
}

static void
on_entry_changed (GtkEditable      *entry,
                  AdwMessageDialog *dialog)
{
  RenameData *data = g_object_get_data (G_OBJECT (dialog), "hr-rename");
  const char *problem = hr_rename_dialog_problem (data->session, data->name,
                                                  gtk_editable_get_text (entry));

  gtk_label_set_text (GTK_LABEL (data->problem), problem != NULL ? problem : "");
  gtk_widget_set_visible (data->problem, problem != NULL);
  adw_message_dialog_set_response_enabled (dialog, "rename", problem == NULL);
}

static void
on_response (AdwMessageDialog *dialog,
             const char       *response,
             gpointer          user_data)
{
  RenameData *data = g_object_get_data (G_OBJECT (dialog), "hr-rename");
  g_autoptr(GError) error = NULL;
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (dialog));
  GtkWidget *failed;

  if (g_strcmp0 (response, "rename") != 0)
    return;
  if (hr_session_rename_model (data->session, data->name,
                               gtk_editable_get_text (GTK_EDITABLE (data->entry)), &error))
    return;

  /* Translators: the heading of the dialog that says a rename failed */
  failed = adw_message_dialog_new (parent, _("The Model Was Not Renamed"), error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (failed), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (failed));
}

/**
 * hr_rename_dialog_new:
 * @parent: (nullable): the window the dialog belongs to
 * @session: the session whose catalog has the model
 * @name: the name of a model the user added
 *   (hr_session_model_is_users())
 *
 * A dialog that asks for a new name for @name, says under the entry why a
 * name cannot be used (hr_rename_dialog_problem()) with the Rename button
 * off meanwhile, and renames with hr_session_rename_model(), saying so in
 * a second dialog when that fails (the file could not be written).
 *
 * Returns: (transfer none): the dialog, not shown yet
 */
GtkWidget *
hr_rename_dialog_new (GtkWindow  *parent,
                      HrSession  *session,
                      const char *name)
{
  RenameData *data = g_new0 (RenameData, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* Translators: the body of the Rename dialog; %s is the model's name */
  body = g_strdup_printf (_("A new name for “%s” in your catalog."), name);
  dialog = adw_message_dialog_new (parent, _("Rename Model"), body);
  data->session = g_object_ref (session);
  data->name = g_strdup (name);
  data->entry = gtk_entry_new ();
  data->problem = gtk_label_new (NULL);
  g_object_set_data_full (G_OBJECT (dialog), "hr-rename", data, (GDestroyNotify) rename_data_free);

  gtk_editable_set_text (GTK_EDITABLE (data->entry), name);
  gtk_entry_set_activates_default (GTK_ENTRY (data->entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (data->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("New name"),
                                  -1);
  gtk_widget_add_css_class (data->problem, "error");
  gtk_label_set_wrap (GTK_LABEL (data->problem), TRUE);
  gtk_label_set_xalign (GTK_LABEL (data->problem), 0.0);
  gtk_widget_set_visible (data->problem, FALSE);
  gtk_box_append (GTK_BOX (box), data->entry);
  gtk_box_append (GTK_BOX (box), data->problem);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "rename", _("_Rename"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "rename",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (data->entry, "changed", G_CALLBACK (on_entry_changed), dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), NULL);
  on_entry_changed (GTK_EDITABLE (data->entry), ADW_MESSAGE_DIALOG (dialog));
  return dialog;
}
