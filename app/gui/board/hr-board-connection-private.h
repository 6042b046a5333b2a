/* hr-board-connection-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardConnection's instance structure, shared by hr-board-connection.c
 * (connecting, refreshing, the token and the object's life) and
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

G_END_DECLS
