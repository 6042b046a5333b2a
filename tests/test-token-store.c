/* test-token-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrTokenStore where the test runs: the suite's session bus has no Secret
 * Service (and a bare `meson test` may have no bus at all), so a lookup
 * says in words that the keyring is not available; built without
 * libsecret, that it is not built in. Only lookups run: nothing is written
 * to a keyring a developer may have.
 */
#include "config.h"

#include <string.h>

#include "hr-token-store.h"

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
test_lookup_without_service (void)
{
  g_autoptr(HrTokenStore) store = hr_token_store_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  hr_token_store_lookup_async (store, HR_TOKEN_KIND_HUB, "http://127.0.0.1:1/headroom-test",
                               NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  token = hr_token_store_lookup_finish (store, result, &error);
  g_assert_null (token);
  if (!hr_token_store_is_built ())
    {
      g_assert_error (error, HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_NOT_BUILT);
      g_assert_cmpstr (error->message, ==,
                       "This Headroom was built without keyring support (libsecret), so no stored token can be read");
      return;
    }
  if (error == NULL)
    {
      g_test_skip ("a Secret Service answers on this bus");
      return;
    }
  g_assert_error (error, HR_TOKEN_STORE_ERROR, HR_TOKEN_STORE_ERROR_UNAVAILABLE);
  g_assert_true (g_str_has_prefix (error->message, "The keyring is not available (no Secret Service "));
  g_assert_nonnull (strstr (error->message, "so the stored token could not be read"));
}

static void
test_cancelled (void)
{
  g_autoptr(HrTokenStore) store = hr_token_store_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!hr_token_store_is_built ())
    {
      g_test_skip ("built without libsecret");
      return;
    }
  g_cancellable_cancel (cancellable);
  hr_token_store_lookup_async (store, HR_TOKEN_KIND_OLLAMA, "http://127.0.0.1:1",
                               cancellable, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (hr_token_store_lookup_finish (store, result, &error));
  /* Cancelling is not an error to show: it stays G_IO_ERROR_CANCELLED. */
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/token-store/lookup-without-service", test_lookup_without_service);
  g_test_add_func ("/token-store/cancelled", test_cancelled);

  return g_test_run ();
}
