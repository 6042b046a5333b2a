/* test-cli-measurements.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama measure` names the board it saves to and
 * takes --board; `headroom-cli measurements` lists the archive with an id
 * per record and `measurements delete ID` removes one of yours, never a
 * built-in one. Exact lines, exit codes 0 / 1 / 2.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "cli-test-util.h"
#include "fake-ollama.h"

/* The GSettings backend the next run_serving () uses, when not the tests'
 * memory backend: "keyfile" reads what a test wrote under the isolated
 * config directory (glib-2.0/settings/keyfile). */
static const char *settings_backend;

/* Runs headroom-cli while this process's main loop serves the fake, in
 * the test's isolated data directory. */
static void
run_serving (Run        *r,
             const char *first,
             ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_cli_serving (r, settings_backend, (const char * const *) args->pdata);
}

static void
write_record (const char *dir,
              const char *name,
              const char *board,
              const char *model,
              const char *date,
              const char *tps)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("{\"board\": \"%s\", \"model\": \"%s\", \"date\": \"%s\", "
                                           "\"runtime_version\": \"ollama 0.31.2\", \"decode_tps\": {\"mean\": %s}, "
                                           "\"sizes\": [{\"context_tokens\": 2048, \"reported_bytes\": 2354265824, "
                                           "\"reported_vram_bytes\": 2354265824, \"predicted_bytes\": 2410000000}, "
                                           "{\"context_tokens\": 4096, \"reported_bytes\": 2589139424, "
                                           "\"reported_vram_bytes\": 2589139424, \"predicted_bytes\": 0}]}",
                                           board, model, date, tps);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
}

/* The board is named before the run starts, --board chooses it, and an
 * unknown board lists the ids. */
/* A fake Ollama with llama3.2:3b at the seed's timings, and an archive
 * folder for what it measures. */
typedef struct {
  FakeOllama *fake;
  const char *url;
  char       *dir;
} MeasureServer;

static void
measure_server_set_up (MeasureServer *f,
                       gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  f->url = fake_ollama_get_url (f->fake);
  f->dir = g_build_filename (g_get_user_data_dir (), "archive-measure", NULL);
  fake_ollama_add_llama32 (f->fake);
  fake_ollama_set_final_timing (f->fake, 5908400000, 18, 62570000, 89, 3817895000);
}

static void
measure_server_tear_down (MeasureServer *f,
                          gconstpointer  data)
{
  g_free (f->dir);
  g_clear_pointer (&f->fake, fake_ollama_free);
}

static void
test_measure_board (MeasureServer *f,
                    gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autoptr(GDir) d = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  const char *name;

  run_serving (&r, "ollama", "--host", f->url, "measure", "llama3.2:3b", "--board", "dgx-spark", "--contexts", "2048",
               "--runs", "1", "--num-predict", "5", "--measurements", f->dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.err, "headroom-cli: saving the measurement to board dgx-spark (NVIDIA DGX Spark (GB10))\n"));
  g_assert_nonnull (strstr (r.out, "\ndecode mean 23.3 t/s on dgx-spark (llama3.2:3b, Ollama 0.31.2)\nsaved "));
  /* The one file is filed under the DGX Spark. */
  d = g_dir_open (f->dir, 0, NULL);
  g_assert_nonnull (d);
  name = g_dir_read_name (d);
  g_assert_nonnull (name);
  g_assert_true (g_str_has_prefix (name, "dgx-spark-llama3.2_3b-"));
  path = g_build_filename (f->dir, name, NULL);
  g_assert_null (g_dir_read_name (d));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"board\" : \"dgx-spark\""));
}

/* Without --board, and no board saved for the server: nothing runs,
 * and the message says how to name one. */
static void
test_measure_board_needed (MeasureServer *f,
                           gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *expected = NULL;

  run_serving (&r, "ollama", "--host", f->url, "measure", "llama3.2:3b", "--contexts", "2048",
               "--runs", "1", "--num-predict", "5", "--measurements", f->dir, NULL);
  g_assert_cmpint (r.status, ==, 2);
  expected = g_strdup_printf ("headroom-cli: no board is saved for %s: name the board this server runs on with "
                              "--board NAME (headroom-cli boards lists them), so the measurement is filed under it\n", f->url);
  g_assert_cmpstr (r.err, ==, expected);
  g_assert_cmpstr (r.out, ==, "");
}

/* The board the window saved for this server (its "ollama-boards"
 * setting), found whatever form --host takes. */
static void
test_measure_board_saved (MeasureServer *f,
                          gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *settings_dir = g_build_filename (g_get_user_config_dir (), "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *saved = g_strdup_printf ("[io/github/headroom/Headroom]\n"
                                            "ollama-boards=[('rtx-3090', 'http://other:11434'), ('rtx-3060-12gb', '%s')]\n", f->url);

  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (keyfile, saved, -1, NULL));
  settings_backend = "keyfile";
  run_serving (&r, "ollama", "--host", f->url, "measure", "llama3.2:3b", "--contexts", "2048",
               "--runs", "1", "--num-predict", "5", "--measurements", f->dir, NULL);
  settings_backend = NULL;
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.err, "headroom-cli: saving the measurement to board rtx-3060-12gb "
                                          "(NVIDIA GeForce RTX 3060 12 GB), the board saved for this server; "
                                          "--board NAME chooses another\n"));
  g_assert_nonnull (strstr (r.out, "\ndecode mean 23.3 t/s on rtx-3060-12gb (llama3.2:3b, Ollama 0.31.2)\n"));
}

static void
test_measure_board_unknown (MeasureServer *f,
                            gconstpointer  data)
{
  g_auto(Run) r = { 0 };

  run_serving (&r, "ollama", "--host", f->url, "measure", "llama3.2:3b", "--board", "nope", "--measurements", f->dir, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "headroom-cli: unknown board \"nope\"; the boards are: jetson-orin-nano-super, dgx-spark, "
                              "rtx-3060-12gb, rtx-3090, rtx-4090, mac-m3-pro-18gb, mac-m4-pro-24gb, mac-m2-max-32gb, "
                              "mac-m4-max-64gb, 2x-rtx-3090, rtx-3090-rtx-4090, rtx-5090-rtx-3090, "
                              "rtx-4060ti-16gb-rtx-3060-12gb, 4x-rtx-3090, 2x-rtx-a6000\n");
  g_assert_cmpstr (r.out, ==, "");
}

/* An archive folder with a measurement of the Jetson and one of the DGX
 * Spark. Returns: (transfer full): the folder */
static char *
two_record_archive (void)
{
  char *dir = g_build_filename (g_get_user_data_dir (), "archive-list", NULL);

  write_record (dir, "jetson-orin-nano-super-llama3.2_3b-20261201T101500Z.json",
                "jetson-orin-nano-super", "llama3.2:3b", "2026-12-01T10:15:00Z", "18.44");
  write_record (dir, "dgx-spark-llama3.2_3b-20261201T111500Z.json",
                "dgx-spark", "llama3.2:3b", "2026-12-01T11:15:00Z", "61.2");
  return dir;
}

static void
test_list (void)
{
  g_autofree char *dir = two_record_archive ();
  g_auto(Run) r = { 0 };

  run_serving (&r, "measurements", "--measurements", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "ID                                                   BOARD                   DATE                  SERVER         MODEL         t/s  SIZES                         ARCHIVE\n"
                   "dgx-spark-llama3.2_3b-20261201T111500Z               dgx-spark               2026-12-01T11:15:00Z  ollama 0.31.2  llama3.2:3b  61.2  2048: 2.35 GB, 4096: 2.59 GB  yours\n"
                   "jetson-orin-nano-super-llama3.2_3b-20261201T101500Z  jetson-orin-nano-super  2026-12-01T10:15:00Z  ollama 0.31.2  llama3.2:3b  18.4  2048: 2.35 GB, 4096: 2.59 GB  yours\n");
  g_assert_cmpstr (r.err, ==, "");
}

static void
test_list_json_by_board (void)
{
  g_autofree char *dir = two_record_archive ();
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *records;
  JsonObject *record;

  run_serving (&r, "measurements", "--measurements", dir, "--board", "dgx-spark", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  records = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (records), ==, 1);
  record = json_array_get_object_element (records, 0);
  g_assert_cmpstr (json_object_get_string_member (record, "id"), ==, "dgx-spark-llama3.2_3b-20261201T111500Z");
  g_assert_cmpstr (json_object_get_string_member (record, "board"), ==, "dgx-spark");
  g_assert_cmpfloat (json_object_get_double_member (record, "decode_tps"), ==, 61.2);
  g_assert_true (json_object_get_boolean_member (record, "deletable"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (record, "sizes")), ==, 2);
}

/* The built-in archive and yours (empty here): the seed's records. */
static void
test_list_built_in (void)
{
  g_auto(Run) r = { 0 };

  run_serving (&r, "measurements", "--board", "jetson-orin-nano-super", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "ID                                  BOARD                   DATE  SERVER  MODEL         t/s  SIZES  ARCHIVE\n"
                   "jetson-orin-nano-super-llama3.1-8b  jetson-orin-nano-super  -     -       llama3.1:8b   7.4  -      built-in\n"
                   "jetson-orin-nano-super-llama3.2-3b  jetson-orin-nano-super  -     -       llama3.2:3b  18.4  -      built-in\n");
}

static void
test_list_none_of_board (void)
{
  g_autofree char *dir = two_record_archive ();
  g_auto(Run) r = { 0 };

  run_serving (&r, "measurements", "--measurements", dir, "--board", "rtx-4090", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "no measurements of rtx-4090; measure one with headroom-cli ollama measure MODEL --board rtx-4090\n");
}

static void
test_list_unknown_board (void)
{
  g_auto(Run) r = { 0 };

  run_serving (&r, "measurements", "--board", "nope", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "headroom-cli: unknown board \"nope\"; the boards are: jetson-orin-nano-super, "));
}

static void
test_list_unexpected_argument (void)
{
  g_auto(Run) r = { 0 };

  run_serving (&r, "measurements", "list", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "headroom-cli: unexpected argument \"list\"; use headroom-cli measurements [--board NAME] or "
                              "headroom-cli measurements delete ID\n");
}

static void
test_delete (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "headroom", "measurements", NULL);
  g_autofree char *path = g_build_filename (dir, "dgx-spark-phi4-20261201T120000Z.json", NULL);
  g_autofree char *builtin = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "measurements",
                                               "dgx-spark-phi4-week2.json", NULL);

  /* In your own archive (XDG_DATA_HOME/headroom/measurements). */
  write_record (dir, "dgx-spark-phi4-20261201T120000Z.json", "dgx-spark", "phi4", "2026-12-01T12:00:00Z", "30");
  {
    g_auto(Run) r = { 0 };

    run_serving (&r, "measurements", "delete", "dgx-spark-phi4-20261201T120000Z", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, "deleted dgx-spark-phi4-20261201T120000Z (dgx-spark, phi4, 2026-12-01T12:00:00Z)\n");
    g_assert_cmpstr (r.err, ==, "");
  }
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  /* No temporary or other file is left behind. */
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);

    g_assert_null (g_dir_read_name (d));
  }
  {
    g_auto(Run) r = { 0 };

    /* Gone: the same id is unknown now. */
    run_serving (&r, "measurements", "delete", "dgx-spark-phi4-20261201T120000Z", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.err, ==, "headroom-cli: no measurement has the id \"dgx-spark-phi4-20261201T120000Z\"; "
                                "\"headroom-cli measurements\" lists the ids\n");
    g_assert_cmpstr (r.out, ==, "");
  }
  {
    g_auto(Run) r = { 0 };
    g_autofree char *expected = g_strdup_printf ("headroom-cli: measurement \"dgx-spark-phi4-week2\" is part of the built-in data (%s), "
                                                 "which is never changed; only your own measurements in %s can be deleted\n",
                                                 builtin, dir);

    /* A built-in record is never changed. */
    run_serving (&r, "measurements", "delete", "dgx-spark-phi4-week2", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_cmpstr (r.err, ==, expected);
    g_assert_true (g_file_test (builtin, G_FILE_TEST_IS_REGULAR));
  }
  {
    g_auto(Run) r = { 0 };

    run_serving (&r, "measurements", "delete", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.err, ==, "headroom-cli: measurements delete takes one id, e.g. headroom-cli measurements delete "
                                "jetson-orin-nano-super-llama3.2_3b-20260101T120000Z\n");
  }
}

/* A --measurements folder that is not there is an error in the words a
 * missing file gets (exit 1), in every command that reads the archive,
 * not an empty archive (dashboard once fell back to the priors); a file
 * given for the folder too. The default location missing stays an empty
 * archive, and `ollama measure` saving to a new folder makes it
 * (test-cli-ollama.c's measure). */
static void
test_missing_folder (void)
{
  g_autofree char *missing = g_build_filename (g_get_user_data_dir (), "no-such-archive", NULL);
  g_autofree char *file = g_build_filename (g_get_user_data_dir (), "a-file.json", NULL);
  g_autofree char *missing_err = g_strdup_printf ("headroom-cli: cannot open %s: No such file or directory\n", missing);
  g_autofree char *file_err = g_strdup_printf ("headroom-cli: cannot open %s: it is a file, not a folder\n", file);
  const char *commands[][4] = {
    { "dashboard", NULL },
    { "measurements", NULL },
    { "measurements", "delete", "jetson-orin-nano-super-llama3.2_3b-20260101T120000Z", NULL },
    { "check", "llama3.2:3b", NULL },
    { "predict", "llama3.2:3b", NULL },
    { "matrix", NULL },
    { "ollama", "pull", "llama3.2:3b", NULL },
  };

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "{}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    for (guint k = 0; k < 2; k++)
      {
        g_auto(Run) r = { 0 };
        const char *dir = k == 0 ? missing : file;

        if (commands[i][1] == NULL)
          run_serving (&r, commands[i][0], "--measurements", dir, NULL);
        else if (commands[i][2] == NULL)
          run_serving (&r, commands[i][0], commands[i][1], "--measurements", dir, NULL);
        else if (g_str_equal (commands[i][0], "ollama"))
          run_serving (&r, commands[i][0], commands[i][1], commands[i][2], "--measurements", dir,
                   "--host", "http://127.0.0.1:9", NULL);
        else
          run_serving (&r, commands[i][0], commands[i][1], commands[i][2], "--measurements", dir, NULL);
        g_test_message ("%s %s", commands[i][0], dir);
        g_assert_cmpint (r.status, ==, 1);
        g_assert_cmpstr (r.out, ==, "");
        g_assert_cmpstr (r.err, ==, k == 0 ? missing_err : file_err);
      }
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));

  {
    g_auto(Run) r = { 0 };

    /* No archive of yours yet: the built-in records. */
    run_serving (&r, "measurements", "--board", "dgx-spark", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    g_assert_nonnull (strstr (r.out, "dgx-spark-phi4-week2"));
  }
  g_unlink (file);
}

/* The command is in the usage text. */
static void
test_usage (void)
{
  g_auto(Run) r = { 0 };

  run_serving (&r, "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\n  headroom-cli measurements [--board NAME] [--measurements DIR] [--json]\n"
                                   "  headroom-cli measurements delete ID [--measurements DIR]\n"));
  g_assert_nonnull (strstr (r.out, "measure MODEL [--board NAME] "));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("OLLAMA_HOST");
  g_unsetenv ("HEADROOM_OLLAMA_TOKEN");

  g_test_add ("/cli-measurements/measure-board/named", MeasureServer, NULL, measure_server_set_up, test_measure_board, measure_server_tear_down);
  g_test_add ("/cli-measurements/measure-board/needed", MeasureServer, NULL, measure_server_set_up, test_measure_board_needed, measure_server_tear_down);
  g_test_add ("/cli-measurements/measure-board/saved", MeasureServer, NULL, measure_server_set_up, test_measure_board_saved, measure_server_tear_down);
  g_test_add ("/cli-measurements/measure-board/unknown", MeasureServer, NULL, measure_server_set_up, test_measure_board_unknown, measure_server_tear_down);
  g_test_add_func ("/cli-measurements/list/table", test_list);
  g_test_add_func ("/cli-measurements/list/json-by-board", test_list_json_by_board);
  g_test_add_func ("/cli-measurements/list/built-in", test_list_built_in);
  g_test_add_func ("/cli-measurements/list/none-of-board", test_list_none_of_board);
  g_test_add_func ("/cli-measurements/list/unknown-board", test_list_unknown_board);
  g_test_add_func ("/cli-measurements/list/unexpected-argument", test_list_unexpected_argument);
  g_test_add_func ("/cli-measurements/delete", test_delete);
  g_test_add_func ("/cli-measurements/missing-folder", test_missing_folder);
  g_test_add_func ("/cli-measurements/usage", test_usage);

  return g_test_run ();
}
