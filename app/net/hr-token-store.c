/* hr-token-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#ifdef HAVE_LIBSECRET
#include <libsecret/secret.h>
#endif

#include "hr-token-store.h"

struct _HrTokenStore
{
  GObject parent_instance;

  guint   lookup_timeout_ms;
};

G_DEFINE_FINAL_TYPE (HrTokenStore, hr_token_store, G_TYPE_OBJECT)

G_DEFINE_QUARK (hr-token-store-error-quark, hr_token_store_error)

/* What a failure was about, for its message. */
typedef enum {
  OP_LOOKUP,
  OP_STORE,
  OP_CLEAR,
} Op;

static void
hr_token_store_class_init (HrTokenStoreClass *klass)
{
}

static void
hr_token_store_init (HrTokenStore *self)
{
  self->lookup_timeout_ms = HR_TOKEN_STORE_LOOKUP_TIMEOUT_MS;
}

/**
 * hr_token_store_new:
 *
 * A store on the session's Secret Service. Creating it contacts nothing;
 * each call does.
 *
 * Returns: (transfer full): the store.
 */
HrTokenStore *
hr_token_store_new (void)
{
  return g_object_new (HR_TYPE_TOKEN_STORE, NULL);
}

/**
 * hr_token_store_is_built:
 *
 * Returns: %TRUE when Headroom was built with libsecret; %FALSE when every
 *   call fails with %HR_TOKEN_STORE_ERROR_NOT_BUILT.
 */
gboolean
hr_token_store_is_built (void)
{
#ifdef HAVE_LIBSECRET
  return TRUE;
#else
  return FALSE;
#endif
}

/**
 * hr_token_store_set_lookup_timeout:
 * @self: a store
 * @timeout_ms: how long a lookup waits for the keyring, in ms (> 0);
 *   default %HR_TOKEN_STORE_LOOKUP_TIMEOUT_MS
 *
 * The keyring may need D-Bus activation, or hang; a lookup gives up after
 * this with %HR_TOKEN_STORE_ERROR_TIMEOUT. Storing and clearing have no
 * limit of their own: they may wait for a person to unlock the keyring.
 */
void
hr_token_store_set_lookup_timeout (HrTokenStore *self,
                                   guint         timeout_ms)
{
  g_return_if_fail (HR_IS_TOKEN_STORE (self));
  g_return_if_fail (timeout_ms > 0);
  self->lookup_timeout_ms = timeout_ms;
}

#ifndef HAVE_LIBSECRET
static GError *
error_not_built (Op op)
{
  switch (op)
    {
    case OP_LOOKUP:
      return g_error_new_literal (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_NOT_BUILT,
                                  _("This Headroom was built without keyring support (libsecret), so no stored token can be read"));
    case OP_STORE:
      return g_error_new_literal (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_NOT_BUILT,
                                  _("This Headroom was built without keyring support (libsecret), so the token could not be remembered"));
    case OP_CLEAR:
    default:
      return g_error_new_literal (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_NOT_BUILT,
                                  _("This Headroom was built without keyring support (libsecret), so there is no stored token to forget"));
    }
}
#endif

typedef struct {
  Op            op;
  GCancellable *internal;    /* cancelled by the caller's or the timer */
  GCancellable *caller;
  gulong        caller_handler;
  guint         timer_id;
  gboolean      timed_out;
} Call;

static void
call_free (Call *call)
{
  g_clear_handle_id (&call->timer_id, g_source_remove);
  if (call->caller != NULL)
    g_cancellable_disconnect (call->caller, call->caller_handler);
  g_clear_object (&call->caller);
  g_clear_object (&call->internal);
  g_free (call);
}

static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

#ifdef HAVE_LIBSECRET
static gboolean
on_timeout (gpointer user_data)
{
  Call *call = user_data;

  call->timer_id = 0;
  call->timed_out = TRUE;
  g_cancellable_cancel (call->internal);
  return G_SOURCE_REMOVE;
}
#endif

static GTask *
call_new (HrTokenStore        *self,
          Op                   op,
          gpointer             tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Call *call = g_new0 (Call, 1);

  g_task_set_source_tag (task, tag);
  call->op = op;
  call->internal = g_cancellable_new ();
  if (cancellable != NULL)
    {
      call->caller = g_object_ref (cancellable);
      call->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                    g_object_ref (call->internal), g_object_unref);
    }
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);
  return task;
}

#ifdef HAVE_LIBSECRET

static const SecretSchema *
schema_for (HrTokenKind kind)
{
  static const SecretSchema ollama = {
    HR_TOKEN_STORE_OLLAMA_SCHEMA, SECRET_SCHEMA_NONE,
    {
      { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
  };
  static const SecretSchema hub = {
    HR_TOKEN_STORE_HUB_SCHEMA, SECRET_SCHEMA_NONE,
    {
      { "endpoint", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
  };

  return kind == HR_TOKEN_KIND_HUB ? &hub : &ollama;
}

static const char *
attribute_for (HrTokenKind kind)
{
  return kind == HR_TOKEN_KIND_HUB ? "endpoint" : "url";
}

/* The sentence's end after "The keyring is not available (...), so ". */
static const char *
consequence (Op op)
{
  switch (op)
    {
    case OP_LOOKUP:
      return _("the stored token could not be read");
    case OP_STORE:
      return _("the token could not be remembered");
    case OP_CLEAR:
    default:
      return _("the stored token could not be forgotten");
    }
}

/* libsecret's and D-Bus's failures in words; the raw text only when it
 * says more than "no such service". */
static GError *
error_from_secret (Op      op,
                   GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);
  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
      g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
    return g_error_new (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_UNAVAILABLE,
                        _("The keyring is not available (no Secret Service is running), so %s"),
                        consequence (op));
  if (error->domain == G_DBUS_ERROR || error->domain == G_IO_ERROR)
    return g_error_new (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_UNAVAILABLE,
                        _("The keyring is not available (no Secret Service could be reached), so %s: %s"),
                        consequence (op), error->message);
  if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED))
    return g_error_new (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_LOCKED,
                        _("The keyring is locked, so %s: unlock it, then try again"),
                        consequence (op));
  return g_error_new (HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_FAILED,
                      _("The keyring failed, so %s: %s"), consequence (op), error->message);
}

/* Returns @error on @task, mapped; a lookup cut by the timer as TIMEOUT. */
static void
call_return_error (GTask  *task,
                   GError *error)
{
  Call *call = g_task_get_task_data (task);

  g_clear_handle_id (&call->timer_id, g_source_remove);
  if (call->timed_out && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      (call->caller == NULL || !g_cancellable_is_cancelled (call->caller)))
    {
      g_task_return_new_error (task, HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_TIMEOUT,
                               _("The keyring did not answer in time, so the stored token could not be read"));
      return;
    }
  g_task_return_error (task, error_from_secret (call->op, error));
}

static void
on_looked_up (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *token = secret_password_lookup_finish (result, &error);

  if (error != NULL)
    {
      call_return_error (task, error);
      return;
    }
  if (token != NULL && token[0] == '\0')
    g_clear_pointer (&token, secret_password_free);
  g_task_return_pointer (task, g_strdup (token), g_free);
  secret_password_free (token);
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (call->op == OP_STORE)
    ok = secret_password_store_finish (result, &error);
  else
    {
      /* FALSE without an error: there was nothing to forget. */
      ok = secret_password_clear_finish (result, &error);
      ok = ok || error == NULL;
    }
  if (!ok)
    {
      call_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

#endif /* HAVE_LIBSECRET */

static gboolean
propagate_boolean (HrTokenStore  *self,
                   GAsyncResult  *result,
                   gpointer       tag,
                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tag, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hr_token_store_lookup_async:
 * @self: a store
 * @kind: which kind of token
 * @key: the board's normalised base URL (%HR_TOKEN_KIND_OLLAMA) or the
 *   Hub endpoint without a trailing slash (%HR_TOKEN_KIND_HUB)
 * @cancellable: (nullable): cancels the lookup
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Reads the token stored for @key, waiting at most the lookup timeout.
 */
void
hr_token_store_lookup_async (HrTokenStore        *self,
                             HrTokenKind          kind,
                             const char          *key,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HR_IS_TOKEN_STORE (self));
  g_return_if_fail (key != NULL);

  task = call_new (self, OP_LOOKUP, hr_token_store_lookup_async, cancellable, callback, user_data);
#ifdef HAVE_LIBSECRET
  {
    Call *call = g_task_get_task_data (task);

    call->timer_id = g_timeout_add (self->lookup_timeout_ms, on_timeout, call);
    secret_password_lookup (schema_for (kind), call->internal, on_looked_up,
                            g_steal_pointer (&task), attribute_for (kind), key, NULL);
  }
#else
  g_task_return_error (task, error_not_built (OP_LOOKUP));
#endif
}

/**
 * hr_token_store_lookup_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the token; %NULL without @error when
 *   none is stored (an empty one counts as none); %NULL with @error:
 *   %G_IO_ERROR_CANCELLED, or %HR_TOKEN_STORE_ERROR (%NOT_BUILT,
 *   %UNAVAILABLE, %TIMEOUT, %LOCKED, %FAILED).
 */
char *
hr_token_store_lookup_finish (HrTokenStore  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_token_store_lookup_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hr_token_store_store_async:
 * @self: a store
 * @kind: which kind of token
 * @key: as for hr_token_store_lookup_async()
 * @token: the token (not empty; clear with hr_token_store_clear_async())
 * @cancellable: (nullable): cancels the call
 * @callback: called when the token is stored
 * @user_data: data for @callback
 *
 * Stores @token in the default collection under @key, replacing any token
 * stored for it, labelled "Ollama token for URL" or "Hugging Face token for
 * ENDPOINT" as the keyring's own tools show it.
 */
void
hr_token_store_store_async (HrTokenStore        *self,
                            HrTokenKind          kind,
                            const char          *key,
                            const char          *token,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HR_IS_TOKEN_STORE (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (token != NULL && token[0] != '\0');

  task = call_new (self, OP_STORE, hr_token_store_store_async, cancellable, callback, user_data);
#ifdef HAVE_LIBSECRET
  {
    g_autofree char *label = kind == HR_TOKEN_KIND_HUB
                             ? g_strdup_printf (_("Hugging Face token for %s"), key)
                             : g_strdup_printf (_("Ollama token for %s"), key);
    Call *call = g_task_get_task_data (task);

    secret_password_store (schema_for (kind), SECRET_COLLECTION_DEFAULT, label, token,
                           call->internal, on_done, g_steal_pointer (&task),
                           attribute_for (kind), key, NULL);
  }
#else
  g_task_return_error (task, error_not_built (OP_STORE));
#endif
}

/**
 * hr_token_store_store_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the token is stored; %FALSE with @error as for
 *   hr_token_store_lookup_finish() (never %HR_TOKEN_STORE_ERROR_TIMEOUT).
 */
gboolean
hr_token_store_store_finish (HrTokenStore  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  return propagate_boolean (self, result, hr_token_store_store_async, error);
}

/**
 * hr_token_store_clear_async:
 * @self: a store
 * @kind: which kind of token
 * @key: as for hr_token_store_lookup_async()
 * @cancellable: (nullable): cancels the call
 * @callback: called when the token is gone
 * @user_data: data for @callback
 *
 * Forgets the token stored for @key; none stored is not an error.
 */
void
hr_token_store_clear_async (HrTokenStore        *self,
                            HrTokenKind          kind,
                            const char          *key,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HR_IS_TOKEN_STORE (self));
  g_return_if_fail (key != NULL);

  task = call_new (self, OP_CLEAR, hr_token_store_clear_async, cancellable, callback, user_data);
#ifdef HAVE_LIBSECRET
  {
    /* Read before the task is stolen: arguments have no order. */
    Call *call = g_task_get_task_data (task);

    secret_password_clear (schema_for (kind), call->internal,
                           on_done, g_steal_pointer (&task), attribute_for (kind), key, NULL);
  }
#else
  g_task_return_error (task, error_not_built (OP_CLEAR));
#endif
}

/**
 * hr_token_store_clear_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE when no token is stored for the key any more; %FALSE with
 *   @error as for hr_token_store_store_finish().
 */
gboolean
hr_token_store_clear_finish (HrTokenStore  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  return propagate_boolean (self, result, hr_token_store_clear_async, error);
}
