/* hr-board-connection-token.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardConnection's bearer token: the one given, else the one
 * remembered for the server this session, else (for a saved server) the
 * keyring's; a token given is kept in the keyring when there is one, else
 * in this session's memory, and the token note says so. Connecting is in
 * hr-board-connection.c.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-connection-private.h"
#include "hr-token-store.h"

/* Said only once a token is in use: without one the keyring does not matter. */
void
_hr_board_connection_say_keyring_unavailable (HrBoardConnection *self)
{
  self->keyring_unavailable = TRUE;
  if (g_hash_table_size (self->session_tokens) > 0 ||
      (self->typed_token != NULL && *self->typed_token != '\0'))
    _hr_board_connection_set_string (self, &self->token_note,
                _("The keyring is not available: the token is kept in memory until Headroom closes, and asked for again next time."),
                PROP_TOKEN_NOTE);
}

/* The store given (the session's, hr_board_connection_set_token_store()),
 * or one of the connection's own, made on first use (a connection alone,
 * the tests'). */
HrTokenStore *
_hr_board_connection_token_store (HrBoardConnection *self)
{
  if (self->token_store == NULL)
    self->token_store = hr_token_store_new ();
  return self->token_store;
}

static void
on_token_stored (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(HrBoardConnection) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!hr_token_store_store_finish (HR_TOKEN_STORE (source), result, &error) &&
      !_hr_board_connection_is_cancelled (error) && !self->disposed)
    _hr_board_connection_say_keyring_unavailable (self);
}

static void
remember_token (HrBoardConnection *self,
                const char        *token)
{
  g_hash_table_replace (self->session_tokens, g_strdup (self->url), g_strdup (token));
  if (self->keyring_unavailable || !self->use_keyring)
    _hr_board_connection_say_keyring_unavailable (self);
  else
    hr_token_store_store_async (_hr_board_connection_token_store (self), HR_TOKEN_KIND_OLLAMA, self->url, token,
                                self->connect_cancellable, on_token_stored, g_object_ref (self));
}

/* Which token the client sends: the one given, else the one remembered
 * for the server this session. Returns whether the keyring is worth
 * asking (nothing given or remembered, and @saved). */
gboolean
_hr_board_connection_choose_token (HrBoardConnection *self,
                                   const char        *token,
                                   gboolean           saved)
{
  const char *remembered = g_hash_table_lookup (self->session_tokens, self->url);

  g_free (self->typed_token);
  self->typed_token = g_strdup (token);
  if (token != NULL && *token != '\0')
    {
      hr_ollama_client_set_token (self->client, token);
      if (g_strcmp0 (token, remembered) != 0)
        remember_token (self, token);
      return FALSE;
    }
  if (remembered != NULL)
    {
      hr_ollama_client_set_token (self->client, remembered);
      return FALSE;
    }
  return saved && self->use_keyring && !self->keyring_unavailable;
}
