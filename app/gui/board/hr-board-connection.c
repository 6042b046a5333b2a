/* hr-board-connection.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-board-connection-private.h"
#include "hr-ollama-host.h"
#include "hr-token-store.h"

/*
 * Every call to the server is asynchronous and cancellable; a callback holds
 * a reference on the connection and does nothing once it is disposed or the
 * call was cancelled (cancelling is not an error to show). The lists are
 * refreshed by a timer that runs only while "auto-refresh" is on (the page
 * turns it on while it is shown) and the server is connected.
 */

G_DEFINE_FINAL_TYPE (HrBoardConnection, hr_board_connection, G_TYPE_OBJECT)

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

enum {
  MODELS_CHANGED,
  LOADED_CHANGED,
  TOKEN_FOUND,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* State                                                               */

static gboolean
is_cancelled (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
cancel_and_clear (GCancellable **cancellable)
{
  if (*cancellable != NULL)
    g_cancellable_cancel (*cancellable);
  g_clear_object (cancellable);
}

static void
set_string (HrBoardConnection  *self,
            char              **field,
            const char         *value,
            guint               prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

/* A URL as given may hold a password: wiped, not only freed. */
static void
wipe_string (char **str)
{
  if (*str != NULL)
    memset (*str, 0, strlen (*str));
  g_clear_pointer (str, g_free);
}

static void
set_error (HrBoardConnection *self,
           const char        *message)
{
  set_string (self, &self->error, message, PROP_ERROR);
}

static void
set_state (HrBoardConnection      *self,
           HrBoardConnectionState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
update_busy (HrBoardConnection *self)
{
  gboolean busy = self->connect_cancellable != NULL || self->refresh_pending > 0 || self->actions_pending > 0;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* ------------------------------------------------------------------ */
/* Refreshing                                                          */

static void fail (HrBoardConnection *self,
                  gboolean           bad_address,
                  const char        *message);

static void
refresh_done (HrBoardConnection *self)
{
  if (--self->refresh_pending > 0)
    return;
  g_clear_object (&self->refresh_cancellable);
  update_busy (self);
}

/* A refresh failed: what was listed may no longer be so. The lists and the
 * version go (so nothing that needs the server can be asked for), the
 * other call of the refresh is cancelled, and "error" says why. */
static void
lose (HrBoardConnection *self,
      const char        *message)
{
  cancel_and_clear (&self->refresh_cancellable);
  self->refresh_pending = 0;
  g_ptr_array_set_size (self->models, 0);
  g_ptr_array_set_size (self->loaded, 0);
  self->lost = TRUE;
  fail (self, FALSE, message);
  g_signal_emit (self, signals[MODELS_CHANGED], 0);
  g_signal_emit (self, signals[LOADED_CHANGED], 0);
  update_busy (self);
}

static void
on_tags (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(HrBoardConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = hr_ollama_client_tags_finish (HR_OLLAMA_CLIENT (source), result, &error);

  if (self->disposed || is_cancelled (error))
    return;
  if (models == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not list the models on the board: %s"),
                                                  error->message);
      lose (self, message);
      return;
    }
  else
    {
      g_ptr_array_unref (self->models);
      self->models = g_steal_pointer (&models);
      g_signal_emit (self, signals[MODELS_CHANGED], 0);
    }
  refresh_done (self);
}

static void
on_ps (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  g_autoptr(HrBoardConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = hr_ollama_client_ps_finish (HR_OLLAMA_CLIENT (source), result, &error);

  if (self->disposed || is_cancelled (error))
    return;
  if (loaded == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not read what is loaded (/api/ps): %s"),
                                                  error->message);
      lose (self, message);
      return;
    }
  else
    {
      g_ptr_array_unref (self->loaded);
      self->loaded = g_steal_pointer (&loaded);
      g_signal_emit (self, signals[LOADED_CHANGED], 0);
    }
  refresh_done (self);
}

/**
 * hr_board_connection_refresh:
 * @self: a #HrBoardConnection
 *
 * Lists the models on the board (/api/tags) and what is loaded (/api/ps)
 * again; ::models-changed and ::loaded-changed follow. Does nothing unless
 * connected, or while a refresh is still waiting. A failure empties the
 * lists, forgets the version and turns the state to
 * %HR_BOARD_CONNECTION_FAILED with "error" saying why: what was listed may
 * no longer be so, and nothing may be asked of a server that did not
 * answer. Connecting again (the page's Retry) starts afresh.
 */
void
hr_board_connection_refresh (HrBoardConnection *self)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));

  if (self->client == NULL || self->version == NULL || self->refresh_pending > 0)
    return;

  self->refresh_cancellable = g_cancellable_new ();
  self->refresh_pending = 2;
  hr_ollama_client_tags_async (self->client, self->refresh_cancellable, on_tags, g_object_ref (self));
  hr_ollama_client_ps_async (self->client, self->refresh_cancellable, on_ps, g_object_ref (self));
  update_busy (self);
}

static gboolean
on_refresh_timeout (gpointer user_data)
{
  hr_board_connection_refresh (HR_BOARD_CONNECTION (user_data));
  return G_SOURCE_CONTINUE;
}

static void
start_timer (HrBoardConnection *self)
{
  if (self->refresh_source != 0 || self->version == NULL || !self->auto_refresh)
    return;
  self->refresh_source = g_timeout_add_seconds (HR_BOARD_CONNECTION_REFRESH_SECONDS, on_refresh_timeout, self);
}

static void
stop_timer (HrBoardConnection *self)
{
  g_clear_handle_id (&self->refresh_source, g_source_remove);
}

/* ------------------------------------------------------------------ */
/* The token: the keyring when there is one, else this session's memory */

/* Said only once a token is in use: without one the keyring does not matter. */
static void
say_keyring_unavailable (HrBoardConnection *self)
{
  self->keyring_unavailable = TRUE;
  if (g_hash_table_size (self->session_tokens) > 0 ||
      (self->typed_token != NULL && *self->typed_token != '\0'))
    set_string (self, &self->token_note,
                _("The keyring is not available: the token is kept in memory until Headroom closes, and asked for again next time."),
                PROP_TOKEN_NOTE);
}

/* The store given (the session's, hr_board_connection_set_token_store()),
 * or one of the connection's own, made on first use (a connection alone,
 * the tests'). */
static HrTokenStore *
token_store (HrBoardConnection *self)
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
      !is_cancelled (error) && !self->disposed)
    say_keyring_unavailable (self);
}

static void
remember_token (HrBoardConnection *self,
                const char        *token)
{
  g_hash_table_replace (self->session_tokens, g_strdup (self->url), g_strdup (token));
  if (self->keyring_unavailable || !self->use_keyring)
    say_keyring_unavailable (self);
  else
    hr_token_store_store_async (token_store (self), HR_TOKEN_KIND_OLLAMA, self->url, token,
                                self->connect_cancellable, on_token_stored, g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* Connecting                                                          */

static void
fail (HrBoardConnection *self,
      gboolean           bad_address,
      const char        *message)
{
  if (bad_address)
    self->lost = FALSE;
  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->version, NULL, PROP_VERSION);
  stop_timer (self);
  self->bad_address = bad_address;
  set_error (self, message);
  set_state (self, HR_BOARD_CONNECTION_FAILED);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
on_version (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(HrBoardConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *version = hr_ollama_client_version_finish (HR_OLLAMA_CLIENT (source), result, &error);

  if (self->disposed || is_cancelled (error))
    return;
  g_clear_object (&self->connect_cancellable);

  if (version == NULL)
    {
      fail (self, FALSE, error->message);
      update_busy (self);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->version, version, PROP_VERSION);
  set_error (self, NULL);
  set_state (self, HR_BOARD_CONNECTION_CONNECTED);
  g_object_thaw_notify (G_OBJECT (self));
  hr_board_connection_refresh (self);
  start_timer (self);
  update_busy (self);
}

static void
connect_now (HrBoardConnection *self)
{
  hr_ollama_client_version_async (self->client, self->connect_cancellable, on_version, g_object_ref (self));
}

static void
on_token_looked_up (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(HrBoardConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = hr_token_store_lookup_finish (HR_TOKEN_STORE (source), result, &error);

  if (self->disposed || is_cancelled (error))
    return;
  g_clear_object (&self->keyring_cancellable);
  /* A keyring that fails or does not answer in time: connect without it. */
  if (error != NULL)
    say_keyring_unavailable (self);
  if (token != NULL)
    {
      hr_ollama_client_set_token (self->client, token);
      g_hash_table_replace (self->session_tokens, g_strdup (self->url), g_strdup (token));
      g_signal_emit (self, signals[TOKEN_FOUND], 0, token);
    }
  connect_now (self);
}

/* Drop everything that belongs to the previous server. */
static void
reset (HrBoardConnection *self)
{
  cancel_and_clear (&self->keyring_cancellable);
  cancel_and_clear (&self->connect_cancellable);
  cancel_and_clear (&self->refresh_cancellable);
  self->refresh_pending = 0;
  stop_timer (self);
  self->lost = FALSE;
  set_string (self, &self->version, NULL, PROP_VERSION);
  set_error (self, NULL);
  g_ptr_array_set_size (self->models, 0);
  g_ptr_array_set_size (self->loaded, 0);
  g_signal_emit (self, signals[MODELS_CHANGED], 0);
  g_signal_emit (self, signals[LOADED_CHANGED], 0);
}

/* Which token the client sends: the one given, else the one remembered
 * for the server this session. Returns whether the keyring is worth
 * asking (nothing given or remembered, and @saved). */
static gboolean
choose_token (HrBoardConnection *self,
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

/**
 * hr_board_connection_connect:
 * @self: a #HrBoardConnection
 * @url: (nullable): the server as a person types it ("10.0.0.5:11434",
 *   "board.local", "https://proxy/ollama", "http://user:pass@proxy"); %NULL
 *   for the server last asked for again, with the URL as it was given: its
 *   userinfo (a proxy's basic auth, which "url" leaves out) is kept here
 *   for that, never shown
 * @token: (nullable): a bearer token for a proxy that wants one, or %NULL
 *   or "" for none
 * @saved: whether @url is a saved server, whose token may be in the keyring
 *
 * Normalises @url the way Ollama's own clients do (docs/ollama.md,
 * "Known quirks") and asks the server for its version; once it answers the state
 * turns to %HR_BOARD_CONNECTION_CONNECTED and the lists are read. A @token
 * is sent as a bearer token and kept in the keyring (or, without one, in
 * memory for the session); without one, the token remembered this session
 * is sent, or for a @saved server the keyring's (HrTokenStore), looked up
 * for at most %HR_TOKEN_STORE_LOOKUP_TIMEOUT_MS. What fails is said in "error" in the client's
 * words, with the state %HR_BOARD_CONNECTION_FAILED.
 */
void
hr_board_connection_connect (HrBoardConnection *self,
                             const char        *url,
                             const char        *token,
                             gboolean           saved)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *normalized = NULL;
  g_autoptr(HrOllamaClient) client = NULL;
  char *given;

  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));
  g_return_if_fail (url != NULL || self->given_url != NULL);

  /* Taken now: self->given_url is replaced below. */
  given = g_strdup (url != NULL ? url : self->given_url);
  url = given;

  normalized = hr_ollama_host_normalize (url, &error);
  /* From @url, not @normalized: its userinfo is the client's basic auth;
   * "url", what is shown and saved, leaves it out. */
  if (normalized != NULL)
    client = hr_ollama_client_new (url, &error);
  if (client == NULL)
    {
      wipe_string (&given);
      reset (self);
      fail (self, TRUE, error->message);
      update_busy (self);
      return;
    }
  if (self->timeout_s > 0)
    {
      /* The same deadlines as `headroom-cli ollama --timeout`. */
      hr_ollama_client_set_timeouts (client, self->timeout_s * 1000, MIN (self->timeout_s, 10) * 1000,
                                     self->timeout_s * 1000);
      hr_ollama_client_set_load_wait (client, self->timeout_s * 1000);
    }

  g_object_freeze_notify (G_OBJECT (self));
  reset (self);
  if (g_set_object (&self->client, client))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
  set_string (self, &self->url, normalized, PROP_URL);
  wipe_string (&self->given_url);
  self->given_url = g_steal_pointer (&given);
  set_state (self, HR_BOARD_CONNECTION_CONNECTING);
  self->connect_cancellable = g_cancellable_new ();
  update_busy (self);
  g_object_thaw_notify (G_OBJECT (self));

  if (choose_token (self, token, saved))
    {
      /* A server connected to before may have a token in the keyring. */
      self->keyring_cancellable = g_cancellable_new ();
      hr_token_store_lookup_async (token_store (self), HR_TOKEN_KIND_OLLAMA, normalized,
                                   self->keyring_cancellable, on_token_looked_up, g_object_ref (self));
      return;
    }
  connect_now (self);
}

/**
 * hr_board_connection_disconnect:
 * @self: a #HrBoardConnection
 *
 * Stops talking to the server: what is pending is cancelled, the lists
 * are emptied ("models-changed" and "loaded-changed" are emitted), the
 * refresh timer stops and the state turns to
 * %HR_BOARD_CONNECTION_DISCONNECTED. The URL stays, for Connect to use.
 */
void
hr_board_connection_disconnect (HrBoardConnection *self)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));

  g_object_freeze_notify (G_OBJECT (self));
  reset (self);
  set_state (self, HR_BOARD_CONNECTION_DISCONNECTED);
  update_busy (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

/**
 * hr_board_connection_begin_action:
 * @self: a #HrBoardConnection
 *
 * Counts one call about a model (unload, delete, show) as pending, so
 * "busy" says so, until hr_board_connection_end_action().
 *
 * Returns: (transfer none): the cancellable to pass to the call; it is
 *   cancelled when the connection is disposed
 */
GCancellable *
hr_board_connection_begin_action (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), NULL);

  if (self->action_cancellable == NULL)
    self->action_cancellable = g_cancellable_new ();
  self->actions_pending++;
  update_busy (self);
  return self->action_cancellable;
}

/**
 * hr_board_connection_end_action:
 * @self: a #HrBoardConnection
 *
 * Ends what hr_board_connection_begin_action() began (not for a call that
 * was cancelled: the connection is then going away).
 */
void
hr_board_connection_end_action (HrBoardConnection *self)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));

  if (self->actions_pending > 0 && --self->actions_pending == 0)
    g_clear_object (&self->action_cancellable);
  update_busy (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_board_connection_dispose (GObject *object)
{
  HrBoardConnection *self = HR_BOARD_CONNECTION (object);

  self->disposed = TRUE;
  stop_timer (self);
  cancel_and_clear (&self->keyring_cancellable);
  cancel_and_clear (&self->connect_cancellable);
  cancel_and_clear (&self->refresh_cancellable);
  cancel_and_clear (&self->action_cancellable);
  g_clear_object (&self->client);
  g_clear_object (&self->token_store);

  G_OBJECT_CLASS (hr_board_connection_parent_class)->dispose (object);
}

static void
hr_board_connection_finalize (GObject *object)
{
  HrBoardConnection *self = HR_BOARD_CONNECTION (object);

  g_clear_pointer (&self->url, g_free);
  wipe_string (&self->given_url);
  g_clear_pointer (&self->version, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->models, g_ptr_array_unref);
  g_clear_pointer (&self->loaded, g_ptr_array_unref);
  g_clear_pointer (&self->typed_token, g_free);
  g_clear_pointer (&self->session_tokens, g_hash_table_unref);
  g_clear_pointer (&self->token_note, g_free);

  G_OBJECT_CLASS (hr_board_connection_parent_class)->finalize (object);
}

static void
hr_board_connection_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  HrBoardConnection *self = HR_BOARD_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_VERSION:
      g_value_set_string (value, self->version);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_TOKEN_NOTE:
      g_value_set_string (value, self->token_note);
      break;
    case PROP_USE_KEYRING:
      g_value_set_boolean (value, self->use_keyring);
      break;
    case PROP_AUTO_REFRESH:
      g_value_set_boolean (value, self->auto_refresh);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_s);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_board_connection_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  HrBoardConnection *self = HR_BOARD_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_USE_KEYRING:
      hr_board_connection_set_use_keyring (self, g_value_get_boolean (value));
      break;
    case PROP_AUTO_REFRESH:
      hr_board_connection_set_auto_refresh (self, g_value_get_boolean (value));
      break;
    case PROP_TIMEOUT:
      hr_board_connection_set_timeout (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_board_connection_class_init (HrBoardConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_board_connection_dispose;
  object_class->finalize = hr_board_connection_finalize;
  object_class->get_property = hr_board_connection_get_property;
  object_class->set_property = hr_board_connection_set_property;

  properties[PROP_CLIENT] = g_param_spec_object ("client", NULL, NULL, HR_TYPE_OLLAMA_CLIENT, ro);
  properties[PROP_URL] = g_param_spec_string ("url", NULL, NULL, NULL, ro);
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, HR_TYPE_BOARD_CONNECTION_STATE,
                                              HR_BOARD_CONNECTION_DISCONNECTED, ro);
  properties[PROP_VERSION] = g_param_spec_string ("version", NULL, NULL, NULL, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro);
  properties[PROP_TOKEN_NOTE] = g_param_spec_string ("token-note", NULL, NULL, NULL, ro);
  properties[PROP_USE_KEYRING] = g_param_spec_boolean ("use-keyring", NULL, NULL, TRUE, rw);
  properties[PROP_AUTO_REFRESH] = g_param_spec_boolean ("auto-refresh", NULL, NULL, FALSE, rw);
  properties[PROP_TIMEOUT] = g_param_spec_uint ("timeout", NULL, NULL, 0, 86400, 0, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[MODELS_CHANGED] = g_signal_new ("models-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[LOADED_CHANGED] = g_signal_new ("loaded-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[TOKEN_FOUND] = g_signal_new ("token-found", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
hr_board_connection_init (HrBoardConnection *self)
{
  self->models = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_model_free);
  self->loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_loaded_free);
  self->session_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->use_keyring = TRUE;
  if (!hr_token_store_is_built ())
    say_keyring_unavailable (self);
}

/**
 * hr_board_connection_set_token_store:
 * @self: a #HrBoardConnection
 * @store: the token store server tokens are remembered in and read from
 *   (the session's, hr_session_get_token_store())
 *
 * Before the first connection; without it the connection makes a store of
 * its own when it first needs one.
 */
void
hr_board_connection_set_token_store (HrBoardConnection *self,
                                     HrTokenStore      *store)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));
  g_return_if_fail (HR_IS_TOKEN_STORE (store));

  g_set_object (&self->token_store, store);
}

/**
 * hr_board_connection_new:
 *
 * Returns: (transfer full): a new connection, disconnected
 */
HrBoardConnection *
hr_board_connection_new (void)
{
  return g_object_new (HR_TYPE_BOARD_CONNECTION, NULL);
}

/**
 * hr_board_connection_set_use_keyring:
 * @self: a #HrBoardConnection
 * @use_keyring: whether tokens are stored in and read from the keyring
 *   (HrTokenStore, %HR_TOKEN_KIND_OLLAMA, keyed by URL); %FALSE keeps them in memory for the session only, and says so
 *
 * The tests turn the keyring off so no token reaches a real one.
 */
void
hr_board_connection_set_use_keyring (HrBoardConnection *self,
                                     gboolean           use_keyring)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));

  use_keyring = !!use_keyring;
  if (self->use_keyring == use_keyring)
    return;
  self->use_keyring = use_keyring;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USE_KEYRING]);
}

/**
 * hr_board_connection_get_auto_refresh:
 * @self: a #HrBoardConnection
 *
 * Returns: whether the lists refresh every
 *   %HR_BOARD_CONNECTION_REFRESH_SECONDS while connected
 */
gboolean
hr_board_connection_get_auto_refresh (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), FALSE);
  return self->auto_refresh;
}

/**
 * hr_board_connection_set_auto_refresh:
 * @self: a #HrBoardConnection
 * @auto_refresh: whether to refresh the lists every
 *   %HR_BOARD_CONNECTION_REFRESH_SECONDS while connected
 *
 * Turned on, the lists are refreshed at once and then on the timer; the
 * page turns it on while it is shown and off while it is not.
 */
void
hr_board_connection_set_auto_refresh (HrBoardConnection *self,
                                      gboolean           auto_refresh)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));

  auto_refresh = !!auto_refresh;
  if (self->auto_refresh == auto_refresh)
    return;
  self->auto_refresh = auto_refresh;
  if (auto_refresh)
    {
      hr_board_connection_refresh (self);
      start_timer (self);
    }
  else
    {
      stop_timer (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTO_REFRESH]);
}

/**
 * hr_board_connection_get_timeout:
 * @self: a #HrBoardConnection
 *
 * Returns: the longest silence accepted from the server, in seconds, or 0
 *   for the client's own deadlines
 */
guint
hr_board_connection_get_timeout (HrBoardConnection *self)
{
  g_return_val_if_fail (HR_IS_BOARD_CONNECTION (self), 0);
  return self->timeout_s;
}

/**
 * hr_board_connection_set_timeout:
 * @self: a #HrBoardConnection
 * @seconds: the longest silence accepted from the server, 1 to 86400
 *   seconds, or 0 for the client's defaults (%HR_OLLAMA_DEADLINE_MS and
 *   the others of hr-ollama-client.h)
 *
 * Applied to the clients of later connects as `headroom-cli ollama
 * --timeout` applies it: the deadline of a plain call, the wait for a
 * stream's progress and for a reply's first token, and at most 10 s to
 * connect. The tests set it small, so a stalled server gives up quickly.
 */
void
hr_board_connection_set_timeout (HrBoardConnection *self,
                                 guint              seconds)
{
  g_return_if_fail (HR_IS_BOARD_CONNECTION (self));
  g_return_if_fail (seconds <= 86400);

  if (self->timeout_s == seconds)
    return;
  self->timeout_s = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}
