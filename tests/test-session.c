/* test-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSession without a window: loading the shipped catalog, boards and
 * measurements in a worker thread, a broken user catalog and boards file
 * (named exactly, never saved over), adding a model, saving a board,
 * reloading the archive and the saved Ollama servers.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-session-items.h"
#include "hr-session.h"

static guint
count_files (const char *dir,
             const char *suffix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, suffix))
      n++;
  return n;
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

static void
count_signal (gpointer  instance,
              guint    *count)
{
  (*count)++;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_session_load_finish (HR_SESSION (source), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static HrSession *
loaded_session (GSettings *settings)
{
  HrSession *session = hr_session_new (settings);

  hr_session_load (session);
  g_assert_true (hr_session_get_loaded (session));
  return session;
}

static void
test_session_load_async (void)
{
  g_autofree char *catalog_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  g_autofree char *measurements_dir = g_build_filename (hr_data_builtin_dir (), "measurements", NULL);
  g_autoptr(GPtrArray) builtin = hr_catalog_load_file (catalog_path, NULL);
  g_autoptr(HrSession) session = hr_session_new (NULL);
  const HrBoard *seed;
  gboolean done = FALSE;
  guint notified = 0;

  g_assert_nonnull (builtin);
  g_signal_connect (session, "notify::loaded", G_CALLBACK (count_notify), &notified);
  g_assert_false (hr_session_get_loaded (session));
  g_assert_cmpuint (hr_session_get_catalog (session)->len, ==, 0);

  hr_session_load_async (session, NULL, on_loaded, &done);
  /* Nothing is the session's before the main loop hears back. */
  g_assert_false (hr_session_get_loaded (session));
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (hr_session_get_loaded (session));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (hr_session_get_problems (session)->len, ==, 0);
  g_assert_cmpuint (hr_session_get_catalog (session)->len, ==, builtin->len);
  g_assert_nonnull (hr_session_find_model (session, "llama3.2:3b"));
  g_assert_null (hr_session_find_model (session, "no-such-model"));
  g_assert_cmpuint (hr_session_get_measurements (session)->len, ==, count_files (measurements_dir, ".json"));
  g_assert_true (hr_session_get_boards_writable (session));

  /* docs/seed-figures.md, "Budget and verdicts": 8.0 - 1.9 - 1.0 = 5.1 GB. */
  seed = hr_session_find_board (session, "jetson-orin-nano-super");
  g_assert_nonnull (seed);
  g_assert_cmpuint (seed->pool_bytes, ==, 8000000000);
  g_assert_cmpuint (hr_board_budget_bytes (seed), ==, 5100000000);
  g_assert_nonnull (hr_session_find_board (session, "dgx-spark"));

  /* A second load does nothing. */
  done = FALSE;
  hr_session_load_async (session, NULL, on_loaded, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (notified, ==, 1);
}

/* The broken files' cases: a catalog cut short and a boards file whose
 * board lacks its figures, each session loading them afresh. */
static const char bad_catalog[] = "{ \"version\": 1, \"models\": [ { \"name\": \"x\" ";
static const char bad_boards[] = "{ \"version\": 1, \"boards\": [ { \"id\": \"mine\", \"name\": \"Mine\" } ] }\n";

typedef struct {
  char      *catalog_path;
  char      *boards_path;
  GError    *catalog_error;   /* why the catalog could not be read */
  GError    *boards_error;    /* why the boards file could not be read */
  char      *catalog_expected;
  char      *boards_expected;
  HrSession *session;
} Broken;

static void
broken_set_up (Broken        *b,
               gconstpointer  data)
{
  b->catalog_path = hr_data_user_file ("catalog.json");
  b->boards_path = hr_data_user_file ("boards.json");
  write_file (b->catalog_path, bad_catalog);
  write_file (b->boards_path, bad_boards);
  g_assert_null (hr_catalog_load_file (b->catalog_path, &b->catalog_error));
  g_assert_null (hr_boards_load_file (b->boards_path, &b->boards_error));
  b->catalog_expected = g_strdup_printf ("Could not read %s: %s. It was left as it is.",
                                         b->catalog_path, b->catalog_error->message);
  b->boards_expected = g_strdup_printf ("Could not read %s: %s. It was left as it is.",
                                        b->boards_path, b->boards_error->message);
  g_test_expect_message ("Headroom", G_LOG_LEVEL_WARNING, b->catalog_expected);
  g_test_expect_message ("Headroom", G_LOG_LEVEL_WARNING, b->boards_expected);
  b->session = loaded_session (NULL);
  g_test_assert_expected_messages ();
}

static void
broken_tear_down (Broken        *b,
                  gconstpointer  data)
{
  g_clear_object (&b->session);
  g_unlink (b->catalog_path);
  g_unlink (b->boards_path);
  g_free (b->catalog_path);
  g_free (b->boards_path);
  g_clear_error (&b->catalog_error);
  g_clear_error (&b->boards_error);
  g_free (b->catalog_expected);
  g_free (b->boards_expected);
}

/* Each file's problem, said once, in order. */
static void
test_broken_problems (Broken        *b,
                      gconstpointer  data)
{
  GPtrArray *problems = hr_session_get_problems (b->session);

  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (problems, 0), ==, b->catalog_expected);
  g_assert_cmpstr (g_ptr_array_index (problems, 1), ==, b->boards_expected);
}

/* The built-in data is there. */
static void
test_broken_built_in (Broken        *b,
                      gconstpointer  data)
{
  g_assert_nonnull (hr_session_find_model (b->session, "llama3.2:3b"));
  g_assert_nonnull (hr_session_find_board (b->session, "jetson-orin-nano-super"));
  g_assert_false (hr_session_get_boards_writable (b->session));
}

/* Adding a model does not write over the catalog that failed. */
static void
test_broken_add_model (Broken        *b,
                       gconstpointer  data)
{
  g_autoptr(HrModelSpec) spec = hr_model_spec_copy (hr_session_find_model (b->session, "llama3.2:3b"));
  g_autoptr(GError) error = NULL;
  g_autofree char *add_expected = NULL;
  g_autofree char *catalog_after = NULL;

  g_free (spec->name);
  spec->name = g_strdup ("mine:3b");
  g_assert_false (hr_session_add_model (b->session, spec, &error));
  add_expected = g_strdup_printf ("Your catalog %s could not be read, so it was not saved over: %s",
                                  b->catalog_path, b->catalog_error->message);
  g_assert_cmpstr (error->message, ==, add_expected);
  g_assert_null (hr_session_find_model (b->session, "mine:3b"));
  g_assert_true (g_file_get_contents (b->catalog_path, &catalog_after, NULL, NULL));
  g_assert_cmpstr (catalog_after, ==, bad_catalog);
}

/* Nor does saving a board write over the boards file that failed. */
static void
test_broken_save_board (Broken        *b,
                        gconstpointer  data)
{
  g_autoptr(HrBoard) board = hr_board_copy (hr_session_find_board (b->session, "jetson-orin-nano-super"));
  g_autoptr(GError) error = NULL;
  g_autofree char *save_expected = NULL;
  g_autofree char *boards_after = NULL;

  g_assert_false (hr_session_save_board (b->session, board, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  save_expected = g_strdup_printf ("Not saving: %s could not be read (%s). Fix or move it, then open "
                                   "Headroom again.", b->boards_path, b->boards_error->message);
  g_assert_cmpstr (error->message, ==, save_expected);
  g_assert_true (g_file_get_contents (b->boards_path, &boards_after, NULL, NULL));
  g_assert_cmpstr (boards_after, ==, bad_boards);
}

static void
on_model_added (HrSession  *session,
                const char *name,
                char      **out)
{
  g_free (*out);
  *out = g_strdup (name);
}

static void
test_session_add_model (void)
{
  g_autofree char *catalog_path = hr_data_user_file ("catalog.json");
  g_autofree char *added = NULL;
  g_autoptr(HrSession) session = loaded_session (NULL);
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  guint n = hr_session_get_catalog (session)->len;
  guint changed = 0;

  g_signal_connect (session, "catalog-changed", G_CALLBACK (count_signal), &changed);
  g_signal_connect (session, "model-added", G_CALLBACK (on_model_added), &added);

  spec = hr_model_spec_copy (hr_session_find_model (session, "llama3.2:3b"));
  g_free (spec->name);
  spec->name = g_strdup ("mine:3b");
  g_assert_true (hr_session_add_model (session, spec, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpstr (added, ==, "mine:3b");
  g_assert_cmpuint (hr_session_get_catalog (session)->len, ==, n + 1);
  g_assert_nonnull (hr_session_find_model (session, "mine:3b"));

  saved = hr_catalog_load_file (catalog_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (saved->len, ==, 1);
  g_assert_cmpstr (((HrModelSpec *) g_ptr_array_index (saved, 0))->name, ==, "mine:3b");

  /* An unusable model changes nothing. */
  spec->parameters = 0;
  g_assert_false (hr_session_add_model (session, spec, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpuint (changed, ==, 1);

  /* hr_session_set_catalog() replaces the list in memory only. */
  g_ptr_array_set_size (saved, 0);
  hr_session_set_catalog (session, saved);
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (hr_session_get_catalog (session)->len, ==, 0);
  g_unlink (catalog_path);
}

static void
test_session_save_board (void)
{
  g_autofree char *boards_path = hr_data_user_file ("boards.json");
  g_autoptr(HrSession) session = loaded_session (NULL);
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  guint n = hr_session_get_boards (session)->len;
  guint changed = 0;

  g_signal_connect (session, "boards-changed", G_CALLBACK (count_signal), &changed);
  board = hr_board_copy (hr_session_find_board (session, "jetson-orin-nano-super"));
  board->reply_tokens = 30;
  g_assert_true (hr_session_save_board (session, board, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (hr_session_get_boards (session)->len, ==, n);
  g_assert_cmpuint (hr_session_find_board (session, "jetson-orin-nano-super")->reply_tokens, ==, 30);

  saved = hr_boards_load_file (boards_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (saved->len, ==, 1);
  g_assert_cmpstr (((HrBoard *) g_ptr_array_index (saved, 0))->id, ==, "jetson-orin-nano-super");
  g_assert_cmpuint (((HrBoard *) g_ptr_array_index (saved, 0))->reply_tokens, ==, 30);
  g_assert_cmpuint (((HrBoard *) g_ptr_array_index (saved, 0))->pool_bytes, ==, 8000000000);
  g_unlink (boards_path);
}

static void
on_problem (HrSession  *session,
            const char *message,
            GPtrArray  *out)
{
  g_ptr_array_add (out, g_strdup (message));
}

static void
test_session_reload_measurements (void)
{
  g_autoptr(HrSession) session = loaded_session (NULL);
  g_autofree char *dir = hr_session_dup_measurements_dir (session);
  g_autofree char *bad = g_build_filename (dir, "broken.json", NULL);
  g_autofree char *expected_dir = hr_data_measurements_dir ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  guint n = hr_session_get_measurements (session)->len;
  guint changed = 0;

  g_assert_cmpstr (dir, ==, expected_dir);
  g_signal_connect (session, "measurements-changed", G_CALLBACK (count_signal), &changed);
  g_signal_connect (session, "problem", G_CALLBACK (on_problem), problems);

  write_file (bad, "{ \"version\": ");
  hr_session_reload_measurements (session);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (hr_session_get_measurements (session)->len, ==, n);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "broken.json"));
  g_assert_cmpuint (hr_session_get_problems (session)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (hr_session_get_problems (session), 0), ==,
                   g_ptr_array_index (problems, 0));
  g_unlink (bad);
}

/* The boards, the archive and the saved servers as list models: the same
 * entries, in the same order, spliced before each "*-changed". */
static void
on_servers_changed_count_items (HrSession *session,
                                guint     *n_items)
{
  *n_items = g_list_model_get_n_items (hr_session_get_server_list (session));
}

static void
test_session_lists (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = NULL;
  g_autoptr(HrBoardItem) first_board = NULL;
  g_autoptr(HrMeasurementItem) first_run = NULL;
  g_autoptr(HrServerItem) server = NULL;
  GListModel *boards, *runs, *servers;
  guint seen = G_MAXUINT;

  g_settings_reset (settings, "ollama-boards");
  g_settings_reset (settings, "last-ollama-board");
  session = loaded_session (settings);
  boards = hr_session_get_board_list (session);
  runs = hr_session_get_measurement_list (session);
  servers = hr_session_get_server_list (session);

  g_assert_true (g_list_model_get_item_type (boards) == HR_TYPE_BOARD_ITEM);
  g_assert_cmpuint (g_list_model_get_n_items (boards), ==, hr_session_get_boards (session)->len);
  g_assert_cmpuint (g_list_model_get_n_items (boards), >, 0);
  first_board = g_list_model_get_item (boards, 0);
  g_assert_cmpstr (hr_board_item_get_board (first_board)->id, ==,
                   ((HrBoard *) g_ptr_array_index (hr_session_get_boards (session), 0))->id);
  g_assert_cmpuint (g_list_model_get_n_items (runs), ==, hr_session_get_measurements (session)->len);
  g_assert_cmpuint (g_list_model_get_n_items (runs), >, 0);
  first_run = g_list_model_get_item (runs, 0);
  g_assert_true (hr_measurement_item_get_measurement (first_run) ==
                 g_ptr_array_index (hr_session_get_measurements (session), 0));
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 0);

  /* Spliced before "servers-changed": a listener reads the new list. */
  g_signal_connect (session, "servers-changed", G_CALLBACK (on_servers_changed_count_items), &seen);
  hr_session_remember_server (session, "http://a:11434", "jetson-orin-nano-super");
  g_assert_cmpuint (seen, ==, 1);
  server = g_list_model_get_item (servers, 0);
  g_assert_cmpstr (hr_server_item_get_url (server), ==, "http://a:11434");
  g_assert_cmpstr (hr_server_item_get_board_id (server), ==, "jetson-orin-nano-super");
  hr_session_forget_server (session, "http://a:11434");
  g_assert_cmpuint (seen, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 0);
}

static void
test_session_servers (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = NULL;
  g_autofree char *last = NULL;
  GArray *servers;
  guint changed = 0;

  g_settings_reset (settings, "ollama-boards");
  g_settings_reset (settings, "last-ollama-board");
  session = hr_session_new (settings);
  g_signal_connect (session, "servers-changed", G_CALLBACK (count_signal), &changed);
  servers = hr_session_get_servers (session);
  g_assert_cmpuint (servers->len, ==, 0);

  hr_session_remember_server (session, "http://a:11434", "jetson-orin-nano-super");
  hr_session_remember_server (session, "http://b:11434", "dgx-spark");
  g_assert_cmpuint (changed, ==, 2);
  servers = hr_session_get_servers (session);
  g_assert_cmpuint (servers->len, ==, 2);
  g_assert_cmpstr (g_array_index (servers, HrSavedServer, 0).url, ==, "http://a:11434");
  g_assert_cmpstr (g_array_index (servers, HrSavedServer, 1).board_id, ==, "dgx-spark");
  g_assert_cmpstr (hr_session_get_server_board (session, "http://a:11434"), ==, "jetson-orin-nano-super");
  g_assert_null (hr_session_get_server_board (session, "http://c:11434"));
  last = hr_session_dup_last_server (session);
  g_assert_cmpstr (last, ==, "http://b:11434");
  g_clear_pointer (&last, g_free);

  /* The same URL again: one entry, moved last, with its new board. */
  hr_session_remember_server (session, "http://a:11434", "dgx-spark");
  servers = hr_session_get_servers (session);
  g_assert_cmpuint (servers->len, ==, 2);
  g_assert_cmpstr (g_array_index (servers, HrSavedServer, 1).url, ==, "http://a:11434");
  g_assert_cmpstr (hr_session_get_server_board (session, "http://a:11434"), ==, "dgx-spark");

  /* Forgetting the last server clears "last-ollama-board". */
  hr_session_forget_server (session, "http://a:11434");
  g_assert_cmpuint (hr_session_get_servers (session)->len, ==, 1);
  last = hr_session_dup_last_server (session);
  g_assert_cmpstr (last, ==, "");
  g_clear_pointer (&last, g_free);

  /* A change made in the settings is heard. */
  g_settings_reset (settings, "ollama-boards");
  g_assert_cmpuint (hr_session_get_servers (session)->len, ==, 0);
  g_assert_cmpuint (changed, ==, 5);
}

/* One record deleted through the session, and put back. */
/* The deleting cases: a session whose archive holds a user's record of
 * qwen2.5:7b on the RTX 4090 (101.5 t/s) besides the built-in ones. */
#define USER_RECORD "rtx-4090-qwen2.5_7b-20261201T120000Z"

typedef struct {
  HrSession *session;
  char      *dir;        /* the user's archive */
  char      *path;       /* the user's record's file */
  guint      n;          /* the records at the start */
  guint      changed;    /* "measurements-changed" since */
} Archive;

static void
archive_set_up (Archive       *a,
                gconstpointer  data)
{
  a->session = loaded_session (NULL);
  a->dir = hr_session_dup_measurements_dir (a->session);
  a->path = g_build_filename (a->dir, USER_RECORD ".json", NULL);
  write_file (a->path, "{\"board\": \"rtx-4090\", \"model\": \"qwen2.5:7b\", \"date\": \"2026-12-01T12:00:00Z\", "
                       "\"runtime_version\": \"ollama 0.31.2\", \"decode_tps\": {\"mean\": 101.5}}");
  hr_session_reload_measurements (a->session);
  a->n = hr_session_get_measurements (a->session)->len;
  g_signal_connect (a->session, "measurements-changed", G_CALLBACK (count_signal), &a->changed);
}

static void
archive_tear_down (Archive       *a,
                   gconstpointer  data)
{
  g_unlink (a->path);
  g_clear_object (&a->session);
  g_free (a->dir);
  g_free (a->path);
}

/* The user's record can go; a built-in one cannot. */
static void
test_archive_deletable (Archive       *a,
                        gconstpointer  data)
{
  GPtrArray *records = hr_session_get_measurements (a->session);
  HrMeasurement *record = hr_measurement_archive_find (records, USER_RECORD);

  g_assert_nonnull (record);
  g_assert_true (hr_session_is_measurement_deletable (a->session, record));
  g_assert_false (hr_session_is_measurement_deletable (a->session,
                                                       hr_measurement_archive_find (records, "dgx-spark-phi4-week2")));
}

/* Deleted: the file, the record and its rate go; no temporary is left in
 * the archive. */
static void
test_archive_deleted (Archive       *a,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrMeasurement) removed = hr_session_delete_measurement (a->session, USER_RECORD, &error);
  g_autoptr(GHashTable) rates = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (removed);
  g_assert_cmpstr (removed->model, ==, "qwen2.5:7b");
  g_assert_false (g_file_test (a->path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (a->changed, ==, 1);
  g_assert_cmpuint (hr_session_get_measurements (a->session)->len, ==, a->n - 1);
  rates = hr_measurement_archive_rates (hr_session_get_measurements (a->session), "rtx-4090");
  g_assert_null (g_hash_table_lookup (rates, "qwen2.5:7b"));
  g_assert_cmpuint (count_files (a->dir, ""), ==, 0);
}

/* Undo: the same file, the same id, the rate back; never over a file
 * that is there again. */
static void
test_archive_restored (Archive       *a,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrMeasurement) removed = hr_session_delete_measurement (a->session, USER_RECORD, &error);
  g_autoptr(GHashTable) rates = NULL;

  g_assert_true (hr_session_restore_measurement (a->session, removed, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (a->path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (a->changed, ==, 2);
  g_assert_cmpuint (hr_session_get_measurements (a->session)->len, ==, a->n);
  rates = hr_measurement_archive_rates (hr_session_get_measurements (a->session), "rtx-4090");
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (rates, "qwen2.5:7b"), ==, 101.5);
  g_assert_false (hr_session_restore_measurement (a->session, removed, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
  g_assert_cmpuint (a->changed, ==, 2);
}

/* An unknown id and a built-in record: nothing changes. */
static void
test_archive_refused (Archive       *a,
                      gconstpointer  data)
{
  g_autofree char *builtin = g_build_filename (hr_data_builtin_dir (), "measurements", "dgx-spark-phi4-week2.json", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (hr_session_delete_measurement (a->session, "no-such-record", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "no measurement has the id \"no-such-record\"");
  g_clear_error (&error);
  g_assert_null (hr_session_delete_measurement (a->session, "dgx-spark-phi4-week2", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_file_test (builtin, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (a->changed, ==, 0);
}

/* The board offered first for a new server: the one chosen last. */
static void
test_session_last_server_board (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = NULL;

  g_settings_reset (settings, "ollama-boards");
  g_settings_reset (settings, "last-ollama-board");
  session = loaded_session (settings);
  g_assert_null (hr_session_get_last_server_board (session));
  hr_session_remember_server (session, "http://a:11434", "dgx-spark");
  hr_session_remember_server (session, "http://b:11434", "rtx-4090");
  g_assert_cmpstr (hr_session_get_last_server_board (session), ==, "rtx-4090");
  /* A board that no longer exists is passed over. */
  hr_session_remember_server (session, "http://c:11434", "gone-board");
  g_assert_cmpstr (hr_session_get_last_server_board (session), ==, "rtx-4090");
  g_settings_reset (settings, "ollama-boards");
  g_settings_reset (settings, "last-ollama-board");
}

/* This run's own data, config and cache folders (not
 * G_TEST_OPTION_ISOLATE_DIRS: its g_set_user_dirs() allocations are
 * reported as leaks under the GUI tests' fast unwinder). */
static char *isolated_root;

static void
isolate_dirs (void)
{
  static const char * const vars[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME" };
  g_autoptr(GError) error = NULL;

  isolated_root = g_dir_make_tmp ("headroom-test-session-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    {
      g_autofree char *dir = g_build_filename (isolated_root, vars[i], NULL);

      g_setenv (vars[i], dir, TRUE);
    }
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, entry, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  isolate_dirs ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/load-async", test_session_load_async);
  g_test_add ("/session/broken-user-files/problems", Broken, NULL, broken_set_up, test_broken_problems, broken_tear_down);
  g_test_add ("/session/broken-user-files/built-in-data", Broken, NULL, broken_set_up, test_broken_built_in, broken_tear_down);
  g_test_add ("/session/broken-user-files/add-model", Broken, NULL, broken_set_up, test_broken_add_model, broken_tear_down);
  g_test_add ("/session/broken-user-files/save-board", Broken, NULL, broken_set_up, test_broken_save_board, broken_tear_down);
  g_test_add_func ("/session/add-model", test_session_add_model);
  g_test_add_func ("/session/save-board", test_session_save_board);
  g_test_add_func ("/session/reload-measurements", test_session_reload_measurements);
  g_test_add_func ("/session/servers", test_session_servers);
  g_test_add_func ("/session/lists", test_session_lists);
  g_test_add ("/session/delete-measurement/deletable", Archive, NULL, archive_set_up, test_archive_deletable, archive_tear_down);
  g_test_add ("/session/delete-measurement/deleted", Archive, NULL, archive_set_up, test_archive_deleted, archive_tear_down);
  g_test_add ("/session/delete-measurement/restored", Archive, NULL, archive_set_up, test_archive_restored, archive_tear_down);
  g_test_add ("/session/delete-measurement/refused", Archive, NULL, archive_set_up, test_archive_refused, archive_tear_down);
  g_test_add_func ("/session/last-server-board", test_session_last_server_board);

  result = g_test_run ();
  remove_tree (isolated_root);
  g_free (isolated_root);
  return result;
}
