/* hr-token-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrTokenStore: the one place tokens are kept in the keyring (libsecret,
 * the freedesktop Secret Service). Two kinds, each under the schema and
 * attribute Headroom has always used, so tokens stored before still read:
 *  - an Ollama board's token: schema io.github.headroom.Headroom.OllamaToken,
 *    attribute "url" = the board's normalised base URL;
 *  - the Hugging Face token: schema io.github.headroom.Headroom.HubToken,
 *    attribute "endpoint" = the Hub's base URL without a trailing slash.
 * Without libsecret at build time every call fails with
 * %HR_TOKEN_STORE_ERROR_NOT_BUILT.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/** HR_TOKEN_STORE_OLLAMA_SCHEMA: the schema of Ollama board tokens (keyed by "url"). */
#define HR_TOKEN_STORE_OLLAMA_SCHEMA "io.github.headroom.Headroom.OllamaToken"
/** HR_TOKEN_STORE_HUB_SCHEMA: the schema of Hugging Face tokens (keyed by "endpoint"). */
#define HR_TOKEN_STORE_HUB_SCHEMA    "io.github.headroom.Headroom.HubToken"
/** HR_TOKEN_STORE_LOOKUP_TIMEOUT_MS: a lookup waits this long at most (D-Bus activation of the keyring). */
#define HR_TOKEN_STORE_LOOKUP_TIMEOUT_MS 5000

/**
 * HrTokenKind:
 * @HR_TOKEN_KIND_OLLAMA: an Ollama board's token, keyed by its base URL
 * @HR_TOKEN_KIND_HUB: a Hugging Face token, keyed by the Hub endpoint
 *
 * Which schema (and so which attribute) a token is kept under.
 */
typedef enum {
  HR_TOKEN_KIND_OLLAMA,
  HR_TOKEN_KIND_HUB,
} HrTokenKind;

#define HR_TOKEN_STORE_ERROR (hr_token_store_error_quark ())

/**
 * HrTokenStoreError:
 * @HR_TOKEN_STORE_ERROR_NOT_BUILT: Headroom was built without libsecret
 * @HR_TOKEN_STORE_ERROR_UNAVAILABLE: no Secret Service answers on the session bus
 * @HR_TOKEN_STORE_ERROR_TIMEOUT: the keyring did not answer a lookup in time
 * @HR_TOKEN_STORE_ERROR_LOCKED: the keyring is locked and was not unlocked
 * @HR_TOKEN_STORE_ERROR_FAILED: any other failure, with the keyring's text
 *
 * Every message says in words what happened to the token; the raw cause is
 * appended only when it adds something a person can act on.
 */
typedef enum {
  HR_TOKEN_STORE_ERROR_NOT_BUILT,
  HR_TOKEN_STORE_ERROR_UNAVAILABLE,
  HR_TOKEN_STORE_ERROR_TIMEOUT,
  HR_TOKEN_STORE_ERROR_LOCKED,
  HR_TOKEN_STORE_ERROR_FAILED,
} HrTokenStoreError;

GQuark hr_token_store_error_quark (void);

#define HR_TYPE_TOKEN_STORE (hr_token_store_get_type ())
G_DECLARE_FINAL_TYPE (HrTokenStore, hr_token_store, HR, TOKEN_STORE, GObject)

HrTokenStore *hr_token_store_new               (void);
gboolean      hr_token_store_is_built          (void);
void          hr_token_store_set_lookup_timeout (HrTokenStore        *self,
                                                 guint                timeout_ms);

void          hr_token_store_lookup_async      (HrTokenStore        *self,
                                                HrTokenKind          kind,
                                                const char          *key,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
char         *hr_token_store_lookup_finish     (HrTokenStore        *self,
                                                GAsyncResult        *result,
                                                GError             **error);

void          hr_token_store_store_async       (HrTokenStore        *self,
                                                HrTokenKind          kind,
                                                const char          *key,
                                                const char          *token,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      hr_token_store_store_finish      (HrTokenStore        *self,
                                                GAsyncResult        *result,
                                                GError             **error);

void          hr_token_store_clear_async       (HrTokenStore        *self,
                                                HrTokenKind          kind,
                                                const char          *key,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      hr_token_store_clear_finish      (HrTokenStore        *self,
                                                GAsyncResult        *result,
                                                GError             **error);

G_END_DECLS
