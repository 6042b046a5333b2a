/* hr-board-connection.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardConnection: the Board page's connection to one Ollama server, in
 * a plain GObject (no widgets). It owns the client, the server's URL and
 * token (the keyring when there is one, else this session's memory), the
 * state of the connection and the server's version, the models on the
 * board (/api/tags) and what is loaded now (/api/ps), the refresh timer and
 * the cancellables of the calls it makes. The page, the pull panel and the
 * chat panel observe it (notify and signals); nobody pushes to them by
 * hand.
 */
#pragma once

#include <gio/gio.h>

#include "hr-ollama-client.h"
#include "hr-token-store.h"
#include "hr-board-enums.h"

G_BEGIN_DECLS

/** HR_BOARD_CONNECTION_REFRESH_SECONDS: how often the lists refresh while auto-refresh is on. */
#define HR_BOARD_CONNECTION_REFRESH_SECONDS 5

/**
 * HrBoardConnectionState:
 * @HR_BOARD_CONNECTION_DISCONNECTED: no server asked for yet
 * @HR_BOARD_CONNECTION_CONNECTING: waiting for the keyring or for /api/version
 * @HR_BOARD_CONNECTION_CONNECTED: the server answered with its version
 * @HR_BOARD_CONNECTION_FAILED: the address was not one, the server did
 *   not answer, or a refresh failed (the lists are then empty); "error"
 *   says why
 *
 * Where the connection stands.
 */
typedef enum {
  HR_BOARD_CONNECTION_DISCONNECTED,
  HR_BOARD_CONNECTION_CONNECTING,
  HR_BOARD_CONNECTION_CONNECTED,
  HR_BOARD_CONNECTION_FAILED,
} HrBoardConnectionState;

/* HR_TYPE_BOARD_CONNECTION_STATE is registered by gnome.mkenums_simple
 * (hr-board-enums.h, app/gui/meson.build). */

#define HR_TYPE_BOARD_CONNECTION (hr_board_connection_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardConnection, hr_board_connection, HR, BOARD_CONNECTION, GObject)

/*
 * Properties (all G_PARAM_EXPLICIT_NOTIFY, notified only on change):
 *   "client"        HrOllamaClient  read   the client of the server last asked for
 *   "url"           string          read   its normalised URL
 *   "state"         HrBoardConnectionState read
 *   "version"       string          read   the server's version, NULL unless connected
 *   "error"         string          read   why the connect or the last refresh failed
 *   "busy"          boolean         read   a connect, refresh or action is pending
 *   "token-note"    string          read   where the token is kept, when that is worth saying
 *   "use-keyring"   boolean         read/write
 *   "auto-refresh"  boolean         read/write  refresh every few seconds while connected
 *   "timeout"       guint           read/write  longest silence accepted, s (0: defaults)
 * Signals:
 *   "models-changed"  the models on the board were listed (again)
 *   "loaded-changed"  what is loaded was listed (again)
 *   "token-found"     (const char *token) the keyring had a token for the server
 */

HrBoardConnection      *hr_board_connection_new              (void);
void                    hr_board_connection_set_token_store  (HrBoardConnection  *self,
                                                              HrTokenStore       *store);

void                    hr_board_connection_connect          (HrBoardConnection *self,
                                                              const char        *url,
                                                              const char        *token,
                                                              gboolean           saved);
void                    hr_board_connection_refresh          (HrBoardConnection *self);
void                    hr_board_connection_disconnect       (HrBoardConnection *self);

HrOllamaClient         *hr_board_connection_get_client       (HrBoardConnection *self);
const char             *hr_board_connection_get_url          (HrBoardConnection *self);
HrBoardConnectionState  hr_board_connection_get_state        (HrBoardConnection *self);
gboolean                hr_board_connection_is_connected     (HrBoardConnection *self);
const char             *hr_board_connection_get_version      (HrBoardConnection *self);
const char             *hr_board_connection_get_error        (HrBoardConnection *self);
const char             *hr_board_connection_get_failure_title (HrBoardConnection *self);
gboolean                hr_board_connection_get_busy         (HrBoardConnection *self);
const char             *hr_board_connection_get_token_note   (HrBoardConnection *self);
GPtrArray              *hr_board_connection_get_models       (HrBoardConnection *self);
GPtrArray              *hr_board_connection_get_loaded       (HrBoardConnection *self);

gboolean                hr_board_connection_get_use_keyring  (HrBoardConnection *self);
void                    hr_board_connection_set_use_keyring  (HrBoardConnection *self,
                                                              gboolean           use_keyring);
gboolean                hr_board_connection_get_auto_refresh (HrBoardConnection *self);
void                    hr_board_connection_set_auto_refresh (HrBoardConnection *self,
                                                              gboolean           auto_refresh);

guint                   hr_board_connection_get_timeout      (HrBoardConnection *self);
void                    hr_board_connection_set_timeout      (HrBoardConnection *self,
                                                              guint              seconds);

GCancellable           *hr_board_connection_begin_action     (HrBoardConnection *self);
void                    hr_board_connection_end_action       (HrBoardConnection *self);

G_END_DECLS
