/* hr-board-page-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Board page's actions ("board." prefix): connect, refresh, and per
 * model measure, unload, delete and add-to-catalog; pull and cancel-pull
 * (the pull panel's), send, stop-chat and new-chat (the chat panel's).
 * What a person should know is said through the window's `win.toast`.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-format.h"
#include "hr-board-page-private.h"
#include "hr-gui-format.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

static gboolean
is_cancelled (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
toast (HrBoardPage *self,
       const char  *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
}

static HrOllamaClient *
client (HrBoardPage *self)
{
  return self->connection != NULL ? hr_board_connection_get_client (self->connection) : NULL;
}

/* How an unload or a delete ends: the client's _finish. */
typedef gboolean (*CallFinish) (HrOllamaClient  *client,
                                GAsyncResult    *result,
                                GError         **error);

/* A call about one model: the page (a reference), the model's name, and
 * for an unload or a delete how it ends and what is said then (translated
 * formats: the model; the model and the error). */
typedef struct {
  HrBoardPage *self;
  char        *model;
  CallFinish   finish;
  const char  *done;
  const char  *failed;
} Call;

static Call *
call_new (HrBoardPage *self,
          const char  *model)
{
  Call *call = g_new0 (Call, 1);

  call->self = g_object_ref (self);
  call->model = g_strdup (model);
  return call;
}

static void
call_free (Call *call)
{
  g_object_unref (call->self);
  g_free (call->model);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

/* ------------------------------------------------------------------ */
/* Unload, delete, add to catalog                                      */

/* An unload or a delete ended: say how, and list the board again. */
static void
on_changed_board (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrBoardPage *self = call->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  call->finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (is_cancelled (error))
    return;
  if (error != NULL)
    message = g_strdup_printf (call->failed, call->model, error->message);
  else
    message = g_strdup_printf (call->done, call->model);
  toast (self, message);
  hr_board_connection_end_action (self->connection);
  hr_board_connection_refresh (self->connection);
}

static void
unload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  Call *call;

  if (client (self) == NULL)
    return;
  call = call_new (self, model);
  call->finish = hr_ollama_client_unload_finish;
  call->done = _("Unloaded %s");
  call->failed = _("Could not unload %s: %s");
  hr_ollama_client_unload_async (client (self), model, hr_board_connection_begin_action (self->connection),
                                 on_changed_board, call);
}

static void
on_delete_response (AdwMessageDialog *dialog,
                    const char       *response,
                    HrBoardPage      *self)
{
  const char *model = g_object_get_data (G_OBJECT (dialog), "hr-model");
  Call *call;

  if (g_strcmp0 (response, "delete") != 0 || client (self) == NULL)
    return;
  call = call_new (self, model);
  call->finish = hr_ollama_client_delete_finish;
  call->done = _("Deleted %s from the board");
  call->failed = _("Could not delete %s: %s");
  hr_ollama_client_delete_async (client (self), model, hr_board_connection_begin_action (self->connection),
                                 on_changed_board, call);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *heading = g_strdup_printf (_("Delete %s?"), model);
  g_autofree char *body = NULL;
  g_autofree char *frees = NULL;
  GtkWidget *dialog;

  if (client (self) == NULL)
    return;
  body = g_strdup_printf (_("This removes the model's files from the board at %s. A loaded copy stays loaded until it is unloaded. Using the model again means pulling it again."),
                          hr_board_connection_get_url (self->connection));
  frees = hr_board_format_frees (hr_board_connection_get_models (self->connection), model);
  if (frees != NULL)
    {
      g_autofree char *said = g_strdup_printf ("%s %s", frees, body);

      g_free (body);
      body = g_steal_pointer (&said);
    }
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "hr-model", g_strdup (model), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_delete_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_copy_response (AdwMessageDialog *dialog,
                  const char       *response,
                  HrBoardPage      *self)
{
  const char *model = g_object_get_data (G_OBJECT (dialog), "hr-model");
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "hr-entry");
  Call *call;

  if (g_strcmp0 (response, "copy") != 0 || client (self) == NULL)
    return;
  call = call_new (self, gtk_editable_get_text (entry));
  call->finish = hr_ollama_client_copy_finish;
  call->done = _("Copied to %s");
  call->failed = _("Could not copy to %s: %s");
  hr_ollama_client_copy_async (client (self), model, gtk_editable_get_text (entry),
                               hr_board_connection_begin_action (self->connection), on_changed_board, call);
}

/* Copy refuses a name the board has (Ollama would replace that model)
 * and one Ollama does not accept, saying which. */
static void
on_copy_name_changed (GtkEditable      *entry,
                      AdwMessageDialog *dialog)
{
  HrBoardPage *self = g_object_get_data (G_OBJECT (dialog), "hr-page");
  const char *name = gtk_editable_get_text (entry);
  GPtrArray *models = hr_board_connection_get_models (self->connection);
  HrOllamaModelName parsed;
  gboolean taken = FALSE, ok;

  for (guint i = 0; models != NULL && i < models->len; i++)
    if (hr_ollama_model_name_equal (((HrOllamaModel *) g_ptr_array_index (models, i))->name, name))
      taken = TRUE;
  ok = hr_ollama_model_name_parse (name, &parsed, NULL);
  if (ok)
    hr_ollama_model_name_clear (&parsed);
  adw_message_dialog_set_response_enabled (dialog, "copy", ok && !taken);
  adw_message_dialog_set_body (dialog, taken ? _("The board already has a model of that name: choose another.") :
                                       !ok ? _("Ollama does not accept that name.") :
                                       _("A second name for the same files: it takes almost no room on the board."));
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *heading = g_strdup_printf (_("Copy %s"), model);
  g_autofree char *suggested = g_strdup_printf ("%s-copy", model);
  GtkWidget *dialog, *entry;

  if (client (self) == NULL)
    return;
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, NULL);
  entry = gtk_entry_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("The copy's name"), -1);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "copy", _("_Copy"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "copy", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "copy");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "hr-model", g_strdup (model), g_free);
  g_object_set_data (G_OBJECT (dialog), "hr-entry", entry);
  g_object_set_data (G_OBJECT (dialog), "hr-page", self);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_copy_name_changed), dialog, 0);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_copy_response), self, 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), suggested);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_shown (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrBoardPage *self = call->self;
  const char *model = call->model;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = hr_ollama_client_show_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *message = NULL;

  if (is_cancelled (error))
    return;
  if (show == NULL)
    message = g_strdup_printf (_("Could not add %s to the catalog: %s"), model, error->message);
  else if (self->session == NULL)
    message = g_strdup_printf (_("Could not add %s to the catalog: there is no catalog to add it to"), model);
  else if (!hr_session_add_model (self->session, show->spec, &error))
    message = g_strdup_printf (_("Could not add %s to the catalog: %s"), model, error->message);
  else
    message = hr_board_format_added (show->spec);
  toast (self, message);
  hr_board_connection_end_action (self->connection);
}

static void
add_to_catalog_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);

  if (client (self) == NULL)
    return;
  hr_ollama_client_show_async (client (self), model, hr_board_connection_begin_action (self->connection),
                               on_shown, call_new (self, model));
}

/* ------------------------------------------------------------------ */
/* Measure                                                             */

static void
on_measure_saved (HrMeasureWindow *window,
                  HrBoardPage     *self)
{
  if (self->session != NULL)
    hr_session_reload_measurements (self->session);
  hr_board_connection_refresh (self->connection);
}

/* Opens the Measure window for @model, saving to @board_id: the board the
 * server belongs to, never merely the Models page's. */
void
_hr_board_page_open_measure (HrBoardPage *self,
                             const char  *model,
                             const char  *board_id)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  HrMeasureWindow *window;

  if (self->measure_window != NULL)
    gtk_window_destroy (self->measure_window);

  window = hr_measure_window_new (client (self), model, board_id);
  if (self->session != NULL)
    {
      g_autofree char *archive = hr_session_dup_measurements_dir (self->session);

      hr_measure_window_set_archive_dir (window, archive);
      hr_measure_window_set_session (window, self->session);
    }
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  g_signal_connect_object (window, "saved", G_CALLBACK (on_measure_saved), self, 0);
  g_set_weak_pointer (&self->measure_window, GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (window));
}

static void
measure_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  const char *board;

  if (client (self) == NULL)
    return;
  /* A server without a remembered board is asked about first. */
  board = _hr_board_page_get_server_board (self);
  if (board == NULL && self->session != NULL)
    _hr_board_page_ask_server_board (self, model);
  else
    _hr_board_page_open_measure (self, model, board != NULL ? board : _hr_board_page_get_board_id (self));
}

/* ------------------------------------------------------------------ */
/* The rest                                                            */

static void
connect_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  hr_board_page_connect (HR_BOARD_PAGE (widget), NULL);
}

static void
disconnect_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  hr_board_connection_disconnect (HR_BOARD_PAGE (widget)->connection);
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  if (hr_board_connection_get_version (self->connection) == NULL)
    hr_board_page_connect (self, NULL);
  else
    hr_board_connection_refresh (self->connection);
}

static void
pull_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  _hr_board_page_ensure_built (HR_BOARD_PAGE (widget));
  hr_pull_panel_pull (HR_BOARD_PAGE (widget)->pull_panel);
}

static void
cancel_pull_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  _hr_board_page_ensure_built (HR_BOARD_PAGE (widget));
  hr_pull_panel_cancel (HR_BOARD_PAGE (widget)->pull_panel);
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  _hr_board_page_ensure_built (HR_BOARD_PAGE (widget));
  hr_chat_panel_send (HR_BOARD_PAGE (widget)->chat_panel);
}

static void
stop_chat_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _hr_board_page_ensure_built (HR_BOARD_PAGE (widget));
  hr_chat_panel_stop (HR_BOARD_PAGE (widget)->chat_panel);
}

static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  _hr_board_page_ensure_built (HR_BOARD_PAGE (widget));
  hr_chat_panel_new_conversation (HR_BOARD_PAGE (widget)->chat_panel);
}

/**
 * _hr_board_page_update_actions:
 * @self: a #HrBoardPage
 *
 * Enables what can be done now: the per-model actions while connected, a
 * pull while none is under way and a name is typed, a message while no
 * reply streams and one is typed.
 */
void
_hr_board_page_update_actions (HrBoardPage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean connected = hr_board_connection_is_connected (self->connection);
  /* Before the page is built no pull or chat can be under way or typed. */
  gboolean pulling = self->built && hr_pull_panel_is_pulling (self->pull_panel);
  gboolean chatting = self->built && hr_chat_panel_is_chatting (self->chat_panel);
  gboolean can_pull = self->built && hr_pull_panel_get_can_pull (self->pull_panel);
  gboolean can_send = self->built && hr_chat_panel_get_can_send (self->chat_panel);

  gtk_widget_action_set_enabled (widget, "board.measure", connected);
  gtk_widget_action_set_enabled (widget, "board.unload", connected);
  gtk_widget_action_set_enabled (widget, "board.delete", connected);
  gtk_widget_action_set_enabled (widget, "board.copy", connected);
  gtk_widget_action_set_enabled (widget, "board.add-to-catalog", connected);
  gtk_widget_action_set_enabled (widget, "board.pull",
                                 connected && !pulling && can_pull);
  gtk_widget_action_set_enabled (widget, "board.cancel-pull", pulling);
  gtk_widget_action_set_enabled (widget, "board.send",
                                 connected && !chatting && can_send);
  gtk_widget_action_set_enabled (widget, "board.stop-chat", chatting);
  gtk_widget_action_set_enabled (widget, "board.refresh", client (self) != NULL);
}

/**
 * _hr_board_page_class_actions_init:
 * @widget_class: the #HrBoardPage class
 *
 * Installs the page's actions and their shortcuts (Ctrl+R and F5 refresh).
 */
void
_hr_board_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "board.connect", NULL, connect_action);
  gtk_widget_class_install_action (widget_class, "board.disconnect", NULL, disconnect_action);
  gtk_widget_class_install_action (widget_class, "board.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "board.measure", "s", measure_action);
  gtk_widget_class_install_action (widget_class, "board.unload", "s", unload_action);
  gtk_widget_class_install_action (widget_class, "board.delete", "s", delete_action);
  gtk_widget_class_install_action (widget_class, "board.copy", "s", copy_action);
  gtk_widget_class_install_action (widget_class, "board.add-to-catalog", "s", add_to_catalog_action);
  gtk_widget_class_install_action (widget_class, "board.pull", NULL, pull_action);
  gtk_widget_class_install_action (widget_class, "board.cancel-pull", NULL, cancel_pull_action);
  gtk_widget_class_install_action (widget_class, "board.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "board.stop-chat", NULL, stop_chat_action);
  gtk_widget_class_install_action (widget_class, "board.new-chat", NULL, new_chat_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "board.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "board.refresh", NULL);
}
