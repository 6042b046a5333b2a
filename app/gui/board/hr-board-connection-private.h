/* hr-board-connection-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardConnection's instance structure, shared by hr-board-connection.c
 * (connecting, refreshing and the object's life),
 * hr-board-connection-token.c (the token) and
 * hr-board-connection-accessors.c (what a reader asks of it). Internal to
 * HrBoardConnection.
 */
#pragma once

#include "hr-board-connection.h"
#include "hr-token-store.h"

G_BEGIN_DECLS

struct _HrBoardConnection
{
  GObject                 parent_instance;

  HrOllamaClient         *client;
  char                   *url;              /* the client's normalised URL */
  char                   *given_url;        /* as given, userinfo included: never shown */
  HrBoardConnectionState  state;
  gboolean                bad_address;      /* FAILED because the address was not one */
  gboolean                lost;             /* FAILED after it had connected */
  guint                   timeout_s;        /* 0: the client's own deadlines */
  char                   *version;          /* NULL until connected */
  char                   *error;
  GPtrArray              *models;           /* HrOllamaModel* (/api/tags) */
  GPtrArray              *loaded;           /* HrOllamaLoaded* (/api/ps) */
  gboolean                busy;

  char                   *typed_token;      /* the token given to the last connect */
  GHashTable             *session_tokens;   /* URL -> token, this session only */
  char                   *token_note;
  HrTokenStore           *token_store;
  gboolean                use_keyring;
  gboolean                keyring_unavailable;
  GCancellable           *keyring_cancellable;

  GCancellable           *connect_cancellable;
  GCancellable           *refresh_cancellable;
  guint                   refresh_pending;
  guint                   refresh_source;
  gboolean                auto_refresh;
  GCancellable           *action_cancellable;
  guint                   actions_pending;

  gboolean                disposed;
};

/* Its properties, notified by hr-board-connection.c and
 * hr-board-connection-token.c. */
enum {
  PROP_0,
  PROP_CLIENT,
  PROP_URL,
  PROP_STATE,
  PROP_VERSION,
  PROP_ERROR,
  PROP_BUSY,
  PROP_TOKEN_NOTE,
  PROP_USE_KEYRING,
  PROP_AUTO_REFRESH,
  PROP_TIMEOUT,
  N_PROPS
};

/* hr-board-connection.c: sets *@field to a copy of @value and notifies
 * @prop (one of PROP_*) when it changed; whether @error is a cancellation
 * (not an error to show). */
void          _hr_board_connection_set_string   (HrBoardConnection *self,
                                                 char             **field,
                                                 const char        *value,
                                                 guint              prop);
gboolean      _hr_board_connection_is_cancelled (const GError      *error);

/* hr-board-connection-token.c: the token note once the keyring failed;
 * the token store (the session's, or one of the connection's own); which
 * token the client sends for @token and @saved, %TRUE when the keyring is
 * worth asking. */
void          _hr_board_connection_say_keyring_unavailable (HrBoardConnection *self);
HrTokenStore *_hr_board_connection_token_store  (HrBoardConnection *self);
gboolean      _hr_board_connection_choose_token (HrBoardConnection *self,
                                                 const char        *token,
                                                 gboolean           saved);

G_END_DECLS
