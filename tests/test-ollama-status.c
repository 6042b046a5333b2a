/* test-ollama-status.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr_ollama_client_status_async(): a server's version and loaded models,
 * asked at once, as the Servers page and `ollama ps --all` show them; the
 * first failure of the two is the answer's error.
 */
#include "config.h"

#include <locale.h>

#include "fake-ollama.h"
#include "hr-net-error.h"
#include "hr-ollama-status.h"

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_null (*out);
  *out = g_object_ref (result);
}

/* Asks @client for its status and waits for the answer. */
static HrOllamaStatus *
status_of (HrOllamaClient  *client,
           GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  hr_ollama_client_status_async (client, NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return hr_ollama_client_status_finish (client, result, error);
}

static HrOllamaClient *
client_for (const char *url)
{
  g_autoptr(GError) error = NULL;
  HrOllamaClient *client = hr_ollama_client_new (url, &error);

  g_assert_no_error (error);
  hr_ollama_client_set_timeouts (client, 5000, 2000, 5000);
  return client;
}

/* Both calls answer: the version and the one model loaded. */
static void
test_status_answered (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = client_for (fake_ollama_get_url (fake));
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaStatus) status = NULL;

  fake_ollama_add_llama32 (fake);
  fake_ollama_load (fake, "llama3.2:3b", 4096);
  status = status_of (client, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status->version, ==, "0.31.2");
  g_assert_cmpuint (status->loaded->len, ==, 1);
  g_assert_cmpstr (((HrOllamaLoaded *) g_ptr_array_index (status->loaded, 0))->name, ==, "llama3.2:3b");
  g_assert_cmpuint (fake_ollama_count (fake, "/api/version"), ==, 1);
  g_assert_cmpuint (fake_ollama_count (fake, "/api/ps"), ==, 1);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

/* /api/ps fails while /api/version answers: no status, the ps error. */
static void
test_status_one_fails (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = client_for (fake_ollama_get_url (fake));
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaStatus) status = NULL;
  g_autofree char *expected = NULL;

  fake_ollama_set_fault (fake, "/api/ps", FAKE_FAULT_500, "out of memory");
  status = status_of (client, &error);
  g_assert_null (status);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_SERVER);
  expected = g_strdup_printf ("Ollama at %s failed: out of memory", fake_ollama_get_url (fake));
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

/* Nothing listens: the connection's error, said once. */
static void
test_status_refused (void)
{
  g_autofree char *url = fake_ollama_refused_url ();
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaStatus) status = status_of (client, &error);

  g_assert_null (status);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED);
}

/* Cancelled before either answers: G_IO_ERROR_CANCELLED. */
static void
test_status_cancelled (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = client_for (fake_ollama_get_url (fake));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaStatus) status = NULL;

  fake_ollama_set_fault (fake, "/api/version", FAKE_FAULT_NEVER_ANSWER, NULL);
  fake_ollama_set_fault (fake, "/api/ps", FAKE_FAULT_NEVER_ANSWER, NULL);
  hr_ollama_client_status_async (client, cancellable, on_done, &result);
  g_cancellable_cancel (cancellable);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  status = hr_ollama_client_status_finish (client, result, &error);
  g_assert_null (status);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("OLLAMA_HOST");

  g_test_add_func ("/ollama-status/answered", test_status_answered);
  g_test_add_func ("/ollama-status/one-fails", test_status_one_fails);
  g_test_add_func ("/ollama-status/refused", test_status_refused);
  g_test_add_func ("/ollama-status/cancelled", test_status_cancelled);
  return g_test_run ();
}
