/* hr-board-connection-accessors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a reader asks of an HrBoardConnection: its client, URL, state,
 * version, error and failure title, whether it is busy, the token note and
 * the lists the server gave (the models on the board, what is loaded), and
 * whether tokens go to the keyring. The object itself, connecting and
 * refreshing are in hr-board-connection.c.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-connection-private.h"

/**
 * hr_board_connection_get_client:
 * @self: a #HrBoardConnection
 *
 * Returns: (transfer none) (nullable): the client of the server last asked
 *   for, connected or not
 */
HrOllamaClient *
hr_board_connection_get_client (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->client;
}

/**
 * hr_board_connection_get_url:
 * @self: a #HrBoardConnection
 *
 * Returns: (nullable): the normalised URL of the server last asked for
 */
const char *
hr_board_connection_get_url (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->url;
}

/** hr_board_connection_get_state: @self: a #HrBoardConnection. Returns: where the connection stands */
HrBoardConnectionState
hr_board_connection_get_state (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), HR_BOARD_CONNECTION_DISCONNECTED);
  return self->state;
}

/**
 * hr_board_connection_is_connected:
 * @self: a #HrBoardConnection
 *
 * Returns: whether the server answered with its version, so models can be
 *   measured, pulled, unloaded and deleted
 */
gboolean
hr_board_connection_is_connected (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), FALSE);
  return self->client != NULL && self->version != NULL;
}

/** hr_board_connection_get_version: @self: a #HrBoardConnection. Returns: (nullable): the server's version ("0.31.2"), or %NULL when not connected */
const char *
hr_board_connection_get_version (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->version;
}

/** hr_board_connection_get_error: @self: a #HrBoardConnection. Returns: (nullable): what went wrong (a failed connect or refresh), or %NULL */
const char *
hr_board_connection_get_error (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->error;
}

/**
 * hr_board_connection_get_failure_title:
 * @self: a #HrBoardConnection
 *
 * Returns: a heading for a failure: "Not a Server Address" when the
 *   address could not be read as one, "Could Not Read the Board" when a refresh
 *   failed after the server had answered, else "Could Not Connect"
 */
const char *
hr_board_connection_get_failure_title (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  if (self->bad_address)
    return _("Not a Server Address");
  return self->lost ? _("Could Not Read the Board") : _("Could Not Connect");
}

/**
 * hr_board_connection_get_busy:
 * @self: a #HrBoardConnection
 *
 * Returns: whether a connect, a refresh or an action (unload, delete, show)
 *   is still waiting for the server
 */
gboolean
hr_board_connection_get_busy (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), FALSE);
  return self->busy;
}

/** hr_board_connection_get_token_note: @self: a #HrBoardConnection. Returns: (nullable): where the token is kept (the keyring is not available), or %NULL for nothing to say */
const char *
hr_board_connection_get_token_note (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->token_note;
}

/**
 * hr_board_connection_get_models:
 * @self: a #HrBoardConnection
 *
 * Returns: (transfer none) (element-type HrOllamaModel): the models on the
 *   board as /api/tags last listed them
 */
GPtrArray *
hr_board_connection_get_models (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->models;
}

/**
 * hr_board_connection_get_loaded:
 * @self: a #HrBoardConnection
 *
 * Returns: (transfer none) (element-type HrOllamaLoaded): what /api/ps last
 *   said is loaded
 */
GPtrArray *
hr_board_connection_get_loaded (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);
  return self->loaded;
}

/** hr_board_connection_get_use_keyring: @self: a #HrBoardConnection. Returns: whether tokens are stored in and read from the keyring */
gboolean
hr_board_connection_get_use_keyring (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), FALSE);
  return self->use_keyring;
}
