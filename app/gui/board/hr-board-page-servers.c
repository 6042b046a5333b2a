/* hr-board-page-servers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Board page's question of which board a server runs on: a
 * server connected or measured without a remembered board is asked about
 * once (HrBoardChooser), and the answer is saved with the server
 * (hr_session_remember_server()); measurements then go to that board,
 * never merely to the one the Models page shows.
 */

#include "config.h"

#include "hr-board-chooser.h"
#include "hr-board-page-private.h"

/* The board remembered for the connected server, if it still exists. */
const char *
_hr_board_page_get_server_board (HrBoardPage *self)
{
  const char *id;

  if (self->session == NULL)
    return NULL;
  id = hr_session_get_server_board (self->session, hr_board_connection_get_url (self->connection));
  return id != NULL && hr_session_find_board (self->session, id) != NULL ? id : NULL;
}

typedef struct {
  GWeakRef  page;
  char     *url;
  char     *model;   /* nullable: measure it once the board is chosen */
} AskData;

static void
ask_data_free (AskData *data)
{
  g_weak_ref_clear (&data->page);
  g_free (data->url);
  g_free (data->model);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AskData, ask_data_free)

static void
on_server_board_chosen (GObject      *source,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(AskData) data = user_data;
  g_autoptr(HrBoardPage) self = g_weak_ref_get (&data->page);
  g_autofree char *id = hr_board_chooser_ask_finish (result, NULL);

  if (self == NULL || id == NULL || self->session == NULL)
    return;
  /* ::servers-changed refills the saved servers' list. */
  hr_session_remember_server (self->session, data->url, id);
  /* The board the server is on is the one its pull check uses, as when a
   * saved server is chosen. */
  if (self->scenario != NULL && hr_session_find_board (self->session, id) != NULL)
    hr_scenario_set_board_id (self->scenario, id);
  if (data->model != NULL &&
      g_strcmp0 (hr_board_connection_get_url (self->connection), data->url) == 0 &&
      hr_board_connection_get_client (self->connection) != NULL)
    _hr_board_page_open_measure (self, data->model, id);
}

/* Asks which board the connected server runs on (once at a time) and
 * remembers the answer with the server; then measures @model, if given. */
void
_hr_board_page_ask_server_board (HrBoardPage *self,
                                 const char  *model)
{
  const char *url = hr_board_connection_get_url (self->connection);
  AskData *data;
  HrBoardChooser *chooser;

  if (self->session == NULL || url == NULL)
    return;
  /* One question at a time, about the server connected now. */
  if (self->board_chooser != NULL)
    gtk_window_destroy (self->board_chooser);
  data = g_new0 (AskData, 1);
  g_weak_ref_init (&data->page, self);
  data->url = g_strdup (url);
  data->model = g_strdup (model);
  chooser = hr_board_chooser_ask (GTK_WIDGET (self), self->session, url,
                                  hr_board_chooser_default_board (self->session, _hr_board_page_get_board_id (self)),
                                  NULL, on_server_board_chosen, data);
  g_set_weak_pointer (&self->board_chooser, GTK_WINDOW (chooser));
}

/**
 * _hr_board_page_get_board_chooser:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (nullable): the dialog asking which board the
 *   server is on, while it is open
 */
GtkWindow *
_hr_board_page_get_board_chooser (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->board_chooser;
}
