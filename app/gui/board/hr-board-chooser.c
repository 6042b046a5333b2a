/* hr-board-chooser.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-chooser.h"

struct _HrBoardChooser
{
  AdwMessageDialog  parent_instance;

  GtkListBox       *list;
  GPtrArray        *ids;       /* char*, one per row */
  GPtrArray        *checks;    /* GtkCheckButton*, one per row (borrowed) */
  GTask            *task;      /* the caller's, until a response */
};

G_DEFINE_FINAL_TYPE (HrBoardChooser, hr_board_chooser, ADW_TYPE_MESSAGE_DIALOG)

static void
fill (HrBoardChooser *self,
      HrSession      *session,
      const char     *selected)
{
  GPtrArray *boards = hr_session_get_boards (session);
  GtkCheckButton *group = NULL;

  for (guint i = 0; i < boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (boards, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *title = g_markup_escape_text (board->name != NULL ? board->name : board->id, -1);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), board->id);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      gtk_check_button_set_group (GTK_CHECK_BUTTON (check), group);
      if (group == NULL)
        group = GTK_CHECK_BUTTON (check);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL,
                                      -1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      gtk_list_box_append (self->list, row);
      g_ptr_array_add (self->ids, g_strdup (board->id));
      g_ptr_array_add (self->checks, check);
    }
  hr_board_chooser_set_board_id (self, selected);
}

static void
on_response (AdwMessageDialog *dialog,
             const char       *response,
             gpointer          user_data)
{
  HrBoardChooser *self = HR_BOARD_CHOOSER (dialog);
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  const char *id = hr_board_chooser_get_board_id (self);

  if (task == NULL)
    return;
  if (g_strcmp0 (response, "choose") == 0 && id != NULL)
    g_task_return_pointer (task, g_strdup (id), g_free);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "%s", _("No board was chosen for the server"));
}

static void
on_cancelled (GCancellable   *cancellable,
              HrBoardChooser *self)
{
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (self), "cancel");
  gtk_window_close (GTK_WINDOW (self));
}

static void
hr_board_chooser_dispose (GObject *object)
{
  HrBoardChooser *self = HR_BOARD_CHOOSER (object);

  if (self->task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->task);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "%s", _("No board was chosen for the server"));
    }
  G_OBJECT_CLASS (hr_board_chooser_parent_class)->dispose (object);
}

static void
hr_board_chooser_finalize (GObject *object)
{
  HrBoardChooser *self = HR_BOARD_CHOOSER (object);

  g_clear_pointer (&self->ids, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_board_chooser_parent_class)->finalize (object);
}

static void
hr_board_chooser_class_init (HrBoardChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_board_chooser_dispose;
  object_class->finalize = hr_board_chooser_finalize;
}

static void
hr_board_chooser_init (HrBoardChooser *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->ids = g_ptr_array_new_with_free_func (g_free);
  self->checks = g_ptr_array_new ();
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Boards"), -1);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 320);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (self), scrolled);

  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), _("Which Board Is This Server On?"));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (self),
                                    "cancel", _("_Cancel"),
                                    "choose", _("_Use This Board"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (self), "choose", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (self), "choose");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (self), "cancel");
  g_signal_connect (self, "response", G_CALLBACK (on_response), NULL);
}

/**
 * hr_board_chooser_default_board:
 * @session: the session
 * @fallback: (nullable): the board to offer when no server has one yet
 *   (the board the Models page shows)
 *
 * Returns: (transfer none) (nullable): the board the chooser selects first:
 *   the last one chosen for a server (hr_session_get_last_server_board()),
 *   else @fallback
 */
const char *
hr_board_chooser_default_board (HrSession  *session,
                                const char *fallback)
{
  const char *last;

  g_return_val_if_fail (HR_IS_SESSION (session), fallback);

  last = hr_session_get_last_server_board (session);
  return last != NULL ? last : fallback;
}

/**
 * hr_board_chooser_ask:
 * @parent: (nullable): a widget of the window the dialog belongs to
 * @session: the boards to choose from
 * @url: the server's URL, named in the dialog
 * @board_id: (nullable): the board selected first
 *   (hr_board_chooser_default_board())
 * @cancellable: (nullable): closes the dialog when cancelled
 * @callback: called once the person answers (or the dialog goes away)
 * @user_data: for @callback
 *
 * Presents a modal dialog asking which board the server at @url runs on.
 * Enter chooses the selected board, Escape cancels; every row is reached
 * with Tab and the arrow keys and chosen with Space.
 *
 * Returns: (transfer none): the dialog, presented; it closes itself
 */
HrBoardChooser *
hr_board_chooser_ask (GtkWidget           *parent,
                      HrSession           *session,
                      const char          *url,
                      const char          *board_id,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  HrBoardChooser *self;
  GtkRoot *root = parent != NULL ? gtk_widget_get_root (parent) : NULL;
  g_autofree char *body = NULL;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);
  g_return_val_if_fail (url != NULL, NULL);

  self = g_object_new (HR_TYPE_BOARD_CHOOSER,
                       "transient-for", GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                       "modal", TRUE,
                       NULL);
  /* Translators: %s is an Ollama server's URL */
  body = g_strdup_printf (_("Measurements made on %s are saved to the board you choose, and its pull check uses that board. "
                            "Headroom remembers the choice with the server; change it in the Measure window."),
                          url);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), body);
  fill (self, session, board_id);

  self->task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, hr_board_chooser_ask);
  g_task_set_task_data (self->task, g_object_ref (self), g_object_unref);
  if (cancellable != NULL)
    g_signal_connect_object (cancellable, "cancelled", G_CALLBACK (on_cancelled), self, 0);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

/**
 * hr_board_chooser_ask_finish:
 * @result: the result given to hr_board_chooser_ask()'s callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the chosen board's id, or %NULL with
 *   %G_IO_ERROR_CANCELLED when the dialog was cancelled or closed
 */
char *
hr_board_chooser_ask_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_board_chooser_ask, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hr_board_chooser_get_board_id:
 * @self: a #HrBoardChooser
 *
 * Returns: (transfer none) (nullable): the id of the board selected now
 */
const char *
hr_board_chooser_get_board_id (HrBoardChooser *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CHOOSER (self), NULL);

  for (guint i = 0; i < self->checks->len; i++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i)))
      return g_ptr_array_index (self->ids, i);
  return NULL;
}

/**
 * hr_board_chooser_set_board_id:
 * @self: a #HrBoardChooser
 * @board_id: (nullable): the board to select; %NULL or an unknown id
 *   selects the first board
 */
void
hr_board_chooser_set_board_id (HrBoardChooser *self,
                               const char     *board_id)
{
  guint index = 0;

  g_return_if_fail (HR_IS_BOARD_CHOOSER (self));

  for (guint i = 0; i < self->ids->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->ids, i), board_id) == 0)
      index = i;
  if (index < self->checks->len)
    gtk_check_button_set_active (g_ptr_array_index (self->checks, index), TRUE);
}
