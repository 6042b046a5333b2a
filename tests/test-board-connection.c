/* test-board-connection.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardConnection without a window, against the in-process fake Ollama
 * (tests/fake-ollama.h): the states a connect goes through and what each
 * notifies, the lists and their signals, a failed refresh that keeps what
 * was listed, auto-refresh only while it is on, an address that is not
 * one, a server that is not there, a token kept for the session only, a
 * new server dropping the old one's lists, and connecting again with the
 * URL's userinfo.
 */

#include "config.h"

#include <string.h>

#include "fake-ollama.h"
#include "hr-board-connection.h"
#include "hr-board-format.h"
#include "hr-gui-format.h"
#include "hr-test-wait.h"

typedef struct {
  FakeOllama        *fake;
  HrBoardConnection *connection;
  GPtrArray         *states;      /* every "state" notified, as strings */
  guint              models_changed;
  guint              loaded_changed;
  guint              busy_changes;
} Fixture;

static gboolean
not_busy (gpointer data)
{
  return !hr_board_connection_get_busy (data);
}

static void
on_state (HrBoardConnection *connection,
          GParamSpec        *pspec,
          Fixture           *f)
{
  GEnumClass *klass = g_type_class_ref (HR_TYPE_BOARD_CONNECTION_STATE);
  GEnumValue *value = g_enum_get_value (klass, hr_board_connection_get_state (connection));

  g_ptr_array_add (f->states, g_strdup (value->value_nick));
  g_type_class_unref (klass);
}

static void
on_models_changed (HrBoardConnection *connection,
                   Fixture           *f)
{
  f->models_changed++;
}

static void
on_loaded_changed (HrBoardConnection *connection,
                   Fixture           *f)
{
  f->loaded_changed++;
}

static void
on_busy (HrBoardConnection *connection,
         GParamSpec        *pspec,
         Fixture           *f)
{
  f->busy_changes++;
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (f->fake);
  f->connection = hr_board_connection_new ();
  hr_board_connection_set_use_keyring (f->connection, FALSE);
  f->states = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->connection, "notify::state", G_CALLBACK (on_state), f);
  g_signal_connect (f->connection, "notify::busy", G_CALLBACK (on_busy), f);
  g_signal_connect (f->connection, "models-changed", G_CALLBACK (on_models_changed), f);
  g_signal_connect (f->connection, "loaded-changed", G_CALLBACK (on_loaded_changed), f);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_assert_finalize_object (f->connection);
  g_ptr_array_unref (f->states);
  fake_ollama_free (f->fake);
}

static void
connect_and_wait (Fixture    *f,
                  const char *url,
                  const char *token)
{
  hr_board_connection_connect (f->connection, url, token, FALSE);
  g_assert_true (hr_test_wait_until (not_busy, f->connection, 10000));
}

static void
test_connect (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *typed = g_strdup (fake_ollama_get_url (f->fake) + strlen ("http://"));
  const HrOllamaModel *model;

  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_DISCONNECTED);
  g_assert_null (hr_board_connection_get_client (f->connection));
  fake_ollama_load (f->fake, "llama3.2:3b", 4096);

  /* Typed without the scheme: normalised. Busy until the lists are in. */
  hr_board_connection_connect (f->connection, typed, NULL, FALSE);
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_CONNECTING);
  g_assert_true (hr_board_connection_get_busy (f->connection));
  g_assert_cmpstr (hr_board_connection_get_url (f->connection), ==, fake_ollama_get_url (f->fake));
  g_assert_true (hr_test_wait_until (not_busy, f->connection, 10000));

  g_assert_cmpuint (f->states->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->states, 0), ==, "connecting");
  g_assert_cmpstr (g_ptr_array_index (f->states, 1), ==, "connected");
  /* Busy once, then not: one notify each way. */
  g_assert_cmpuint (f->busy_changes, ==, 2);
  g_assert_true (hr_board_connection_is_connected (f->connection));
  g_assert_cmpstr (hr_board_connection_get_version (f->connection), ==, "0.31.2");
  g_assert_null (hr_board_connection_get_error (f->connection));

  /* Emptied by the connect, then listed. */
  g_assert_cmpuint (f->models_changed, ==, 2);
  g_assert_cmpuint (f->loaded_changed, ==, 2);
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 1);
  model = g_ptr_array_index (hr_board_connection_get_models (f->connection), 0);
  g_assert_cmpstr (model->name, ==, "llama3.2:3b");
  g_assert_cmpuint (hr_board_connection_get_loaded (f->connection)->len, ==, 1);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/tags"), ==, 1);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/ps"), ==, 1);
}

static void
test_refresh_failure (Fixture       *f,
                      gconstpointer  data)
{
  connect_and_wait (f, fake_ollama_get_url (f->fake), NULL);

  /* A refresh that fails says why; what was listed goes with the version,
   * and the other call of the refresh is let go. */
  f->models_changed = f->loaded_changed = 0;
  fake_ollama_set_fault (f->fake, "/api/tags", FAKE_FAULT_500, "something broke");
  hr_board_connection_refresh (f->connection);
  g_assert_true (hr_test_wait_until (not_busy, f->connection, 5000));
  g_assert_true (g_str_has_prefix (hr_board_connection_get_error (f->connection),
                                   "Could not list the models on the board: "));
  g_assert_nonnull (strstr (hr_board_connection_get_error (f->connection), "something broke"));
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_FAILED);
  g_assert_cmpstr (hr_board_connection_get_failure_title (f->connection), ==, "Could Not Read the Board");
  g_assert_null (hr_board_connection_get_version (f->connection));
  g_assert_false (hr_board_connection_is_connected (f->connection));
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 0);
  g_assert_cmpuint (hr_board_connection_get_loaded (f->connection)->len, ==, 0);
  g_assert_cmpuint (f->models_changed, >=, 1);
  g_assert_cmpuint (f->loaded_changed, >=, 1);
  /* Refresh does nothing without a server that answered. */
  hr_board_connection_refresh (f->connection);
  g_assert_false (hr_board_connection_get_busy (f->connection));

  /* Connecting again, once it is well, clears it. */
  fake_ollama_set_fault (f->fake, "/api/tags", FAKE_FAULT_NONE, NULL);
  connect_and_wait (f, fake_ollama_get_url (f->fake), NULL);
  g_assert_null (hr_board_connection_get_error (f->connection));
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 1);
}

static HrOllamaModel *
listed (const char *name,
        const char *digest,
        guint64     size)
{
  HrOllamaModel *model = g_new0 (HrOllamaModel, 1);

  model->name = g_strdup (name);
  model->digest = g_strdup (digest);
  model->size = size;
  return model;
}

/* Ollama's details.parameter_size, shown the way the Models table shows a
 * parameter count; anything else is kept as the server said it. */
static void
test_parameter_size (void)
{
  const char *cases[][2] = {
    { "3.2B", "3.20 B" }, { "494.03M", "0.49 B" }, { "70.6B", "70.60 B" }, { "1.2T", "1200.00 B" },
    { "about 3B", "about 3B" }, { "3.2", "3.2" }, { "3.2Bq", "3.2Bq" }, { "-1B", "-1B" },
    { "9999T", "9999T" }, { "", "unknown" }, { NULL, "unknown" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = hr_board_format_parameter_size (cases[i][0]);

      g_assert_cmpstr (text, ==, cases[i][1]);
    }
}

/* A small model's count keeps two significant figures (a 1,262,848-parameter GGUF
 * once showed "0.00 B"): millions below
 * 0.1 billion, the count itself below 10^5, never "100.00 M". */
static void
test_small_parameters (void)
{
  const struct { guint64 parameters; const char *text; } counts[] = {
    { 1262848, "1.26 M" }, { 12345678, "12.35 M" }, { 99994999, "99.99 M" }, { 99995000, "0.10 B" },
    { 100000000, "0.10 B" }, { 494030000, "0.49 B" }, { 3212749888, "3.21 B" }, { 100000, "0.10 M" },
    { 99999, "99,999" }, { 7, "7" }, { 0, "–" },
  };
  const char *sizes[][2] = { { "1.26M", "1.26 M" }, { "137M", "0.14 B" }, { "50K", "50,000" } };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autofree char *text = hr_gui_format_parameters (counts[i].parameters);

      g_assert_cmpstr (text, ==, counts[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *text = hr_board_format_parameter_size (sizes[i][0]);

      g_assert_cmpstr (text, ==, sizes[i][1]);
    }
}

/* What the Delete dialog says a delete frees (hr_board_format_frees()). */
static void
test_frees (void)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_model_free);
  g_autofree char *alone = NULL, *shared = NULL, *twin = NULL;

  g_ptr_array_add (models, listed ("qwen2.5:14b", "7cdf5a0187d5", 8988124069));
  alone = hr_board_format_frees (models, "qwen2.5:14b");
  g_assert_cmpstr (alone, ==, "Deleting qwen2.5:14b frees 9.0 GB on the board.");
  g_assert_null (hr_board_format_frees (models, "llama3.2:3b"));

  /* Another model may share some of its files: an upper bound. */
  g_ptr_array_add (models, listed ("llama3.2:3b", "a80c4f17acd5", 2019393189));
  shared = hr_board_format_frees (models, "qwen2.5:14b");
  g_assert_cmpstr (shared, ==, "Deleting qwen2.5:14b frees up to 9.0 GB on the board: Ollama keeps a file shared "
                               "with another model until no model uses it.");

  /* The same manifest under another name shares every file. */
  g_ptr_array_add (models, listed ("qwen2.5:latest", "7cdf5a0187d5", 8988124069));
  twin = hr_board_format_frees (models, "qwen2.5:14b");
  g_assert_cmpstr (twin, ==, "Deleting qwen2.5:14b frees almost nothing on the board: qwen2.5:latest is the same "
                             "model under another name, and its files stay for it.");

  /* A variant made by create-variant: another manifest, the same weights
   * and a parameters layer of a few hundred bytes. */
  {
    g_autofree char *variant = NULL;
    g_autofree char *source = NULL;
    HrOllamaModel *l = g_ptr_array_index (models, 1);
    HrOllamaModel *v = listed ("llama3.2:3b-ctx24k", "5b2c9e01aa03", 2019393189 + 412);

    l->family = g_strdup ("llama");
    l->parameter_size = g_strdup ("3.2B");
    l->quantization_level = g_strdup ("Q4_K_M");
    v->family = g_strdup ("llama");
    v->parameter_size = g_strdup ("3.2B");
    v->quantization_level = g_strdup ("Q4_K_M");
    g_ptr_array_add (models, v);
    variant = hr_board_format_frees (models, "llama3.2:3b-ctx24k");
    g_assert_cmpstr (variant, ==, "Deleting llama3.2:3b-ctx24k frees almost nothing on the board: it shares its "
                                  "weights with llama3.2:3b (a variant of the same file, its own parameters apart), "
                                  "and they stay for it.");
    source = hr_board_format_frees (models, "llama3.2:3b");
    g_assert_cmpstr (source, ==, "Deleting llama3.2:3b frees almost nothing on the board: it shares its "
                                 "weights with llama3.2:3b-ctx24k (a variant of the same file, its own parameters "
                                 "apart), and they stay for it.");
  }
}

static gboolean
tags_twice (gpointer data)
{
  return fake_ollama_count (data, "/api/tags") >= 2;
}

static void
test_auto_refresh (Fixture       *f,
                   gconstpointer  data)
{
  connect_and_wait (f, fake_ollama_get_url (f->fake), NULL);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/tags"), ==, 1);

  /* Off (the default): nothing more is asked. */
  g_assert_false (hr_test_wait_until (tags_twice, f->fake, HR_BOARD_CONNECTION_REFRESH_SECONDS * 1000 + 500));

  /* On: at once, then on the timer. */
  hr_board_connection_set_auto_refresh (f->connection, TRUE);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/tags"), ==, 1);
  g_assert_true (hr_test_wait_until (tags_twice, f->fake, 5000));
  g_assert_true (hr_test_wait_until (not_busy, f->connection, 5000));
  hr_board_connection_set_auto_refresh (f->connection, FALSE);
}

static void
test_bad_address (Fixture       *f,
                  gconstpointer  data)
{
  hr_board_connection_connect (f->connection, "ftp://h", NULL, FALSE);
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_FAILED);
  g_assert_cmpstr (hr_board_connection_get_failure_title (f->connection), ==, "Not a Server Address");
  g_assert_nonnull (hr_board_connection_get_error (f->connection));
  g_assert_null (hr_board_connection_get_client (f->connection));
  g_assert_false (hr_board_connection_get_busy (f->connection));

  /* After a server that answered: its lists go too. */
  connect_and_wait (f, fake_ollama_get_url (f->fake), NULL);
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 1);
  hr_board_connection_connect (f->connection, "ftp://h", NULL, FALSE);
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_FAILED);
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 0);
  g_assert_null (hr_board_connection_get_version (f->connection));
  g_assert_false (hr_board_connection_get_busy (f->connection));
}

static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *url = fake_ollama_refused_url ();
  g_autofree char *expected = g_strdup_printf ("nothing is listening at %s; is `ollama serve` running, and bound to an address this machine can reach?",
                                               url);

  connect_and_wait (f, url, NULL);
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_FAILED);
  g_assert_cmpstr (hr_board_connection_get_failure_title (f->connection), ==, "Could Not Connect");
  g_assert_cmpstr (hr_board_connection_get_error (f->connection), ==, expected);
  g_assert_false (hr_board_connection_is_connected (f->connection));
}

static void
test_token (Fixture       *f,
            gconstpointer  data)
{
  fake_ollama_set_token (f->fake, "s3cret-token");
  connect_and_wait (f, fake_ollama_get_url (f->fake), NULL);
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_FAILED);
  g_assert_null (hr_board_connection_get_token_note (f->connection));

  connect_and_wait (f, fake_ollama_get_url (f->fake), "s3cret-token");
  g_assert_true (hr_board_connection_is_connected (f->connection));
  g_assert_cmpstr (fake_ollama_last_authorization (f->fake), ==, "Bearer s3cret-token");
  g_assert_cmpstr (hr_board_connection_get_token_note (f->connection), ==,
                   "The keyring is not available: the token is kept in memory until Headroom closes, and asked for again next time.");

  /* Without one given, the session's is sent. */
  connect_and_wait (f, fake_ollama_get_url (f->fake), "");
  g_assert_true (hr_board_connection_is_connected (f->connection));
}

/* Connecting again (no URL) uses the URL as given, its userinfo included,
 * though "url" leaves the password out. */
static void
test_connect_again (Fixture       *f,
                    gconstpointer  data)
{
  const char *url = fake_ollama_get_url (f->fake);
  g_autofree char *with_user = g_strdup_printf ("http://admin:secret@%s", url + strlen ("http://"));

  connect_and_wait (f, with_user, NULL);
  g_assert_true (hr_board_connection_is_connected (f->connection));
  g_assert_cmpstr (hr_board_connection_get_url (f->connection), ==, url);
  g_assert_cmpstr (fake_ollama_last_authorization (f->fake), ==, "Basic YWRtaW46c2VjcmV0");

  connect_and_wait (f, url, NULL);
  g_assert_true (hr_board_connection_is_connected (f->connection));
  g_assert_null (fake_ollama_last_authorization (f->fake));

  connect_and_wait (f, with_user, NULL);
  connect_and_wait (f, NULL, NULL);
  g_assert_true (hr_board_connection_is_connected (f->connection));
  g_assert_cmpstr (hr_board_connection_get_url (f->connection), ==, url);
  g_assert_cmpstr (fake_ollama_last_authorization (f->fake), ==, "Basic YWRtaW46c2VjcmV0");

  /* An address that is none keeps the server last asked for. */
  connect_and_wait (f, "http://[nope", NULL);
  g_assert_cmpint (hr_board_connection_get_state (f->connection), ==, HR_BOARD_CONNECTION_FAILED);
  connect_and_wait (f, NULL, NULL);
  g_assert_true (hr_board_connection_is_connected (f->connection));
  g_assert_cmpstr (fake_ollama_last_authorization (f->fake), ==, "Basic YWRtaW46c2VjcmV0");
}

static void
on_client (HrBoardConnection *connection,
           GParamSpec        *pspec,
           guint             *count)
{
  (*count)++;
}

static void
test_new_server (Fixture       *f,
                 gconstpointer  data)
{
  FakeOllama *other = fake_ollama_new ();
  guint clients = 0;

  fake_ollama_set_version (other, "0.12.6");
  g_signal_connect (f->connection, "notify::client", G_CALLBACK (on_client), &clients);
  connect_and_wait (f, fake_ollama_get_url (f->fake), NULL);
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 1);

  /* Another server: a new client, and the old one's lists go. */
  hr_board_connection_connect (f->connection, fake_ollama_get_url (other), NULL, FALSE);
  g_assert_cmpuint (clients, ==, 2);
  g_assert_null (hr_board_connection_get_version (f->connection));
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 0);
  g_assert_true (hr_test_wait_until (not_busy, f->connection, 10000));
  g_assert_cmpstr (hr_board_connection_get_version (f->connection), ==, "0.12.6");
  g_assert_cmpuint (hr_board_connection_get_models (f->connection)->len, ==, 0);

  g_signal_handlers_disconnect_by_func (f->connection, on_client, &clients);
  fake_ollama_free (other);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("OLLAMA_HOST");

  g_test_add ("/board-connection/connect", Fixture, NULL, setup, test_connect, teardown);
  g_test_add ("/board-connection/refresh-failure", Fixture, NULL, setup, test_refresh_failure, teardown);
  g_test_add ("/board-connection/auto-refresh", Fixture, NULL, setup, test_auto_refresh, teardown);
  g_test_add ("/board-connection/bad-address", Fixture, NULL, setup, test_bad_address, teardown);
  g_test_add ("/board-connection/refused", Fixture, NULL, setup, test_refused, teardown);
  g_test_add ("/board-connection/token", Fixture, NULL, setup, test_token, teardown);
  g_test_add ("/board-connection/new-server", Fixture, NULL, setup, test_new_server, teardown);
  g_test_add ("/board-connection/connect-again", Fixture, NULL, setup, test_connect_again, teardown);
  g_test_add_func ("/board-connection/frees", test_frees);
  g_test_add_func ("/board-connection/parameter-size", test_parameter_size);
  g_test_add_func ("/board-connection/small-parameters", test_small_parameters);

  return g_test_run ();
}
