/* test-cli-ollama.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama` ($HEADROOM_CLI) against the fake Ollama running in
 * this process: the output a person reads, the exit codes (0 ok, 1 refused
 * or failed, 2 usage), and the pull check before anything is sent.
 */
#include "config.h"

#include <locale.h>
#include <signal.h>

#include "fake-ollama.h"

typedef struct {
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

static gboolean
on_interrupt (gpointer user_data)
{
  g_subprocess_send_signal (G_SUBPROCESS (user_data), SIGINT);
  return G_SOURCE_REMOVE;
}

/* Runs the CLI while this process's main loop serves the fake; sends it
 * SIGINT (Ctrl-C) after @interrupt_ms when that is not 0. */
static int
run_cli_full (guint        interrupt_ms,
              gboolean     merge,
              char       **out,
              char       **err,
              const char  *first,
              va_list      ap)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("HEADROOM_CLI");
  Wait wait = { NULL };
  guint interrupt = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (args, (char *) cli);
  g_ptr_array_add (args, (char *) "ollama");
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  g_ptr_array_add (args, NULL);

  /* The test's isolated directories, which the environment does not carry. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                       (merge ? G_SUBPROCESS_FLAGS_STDERR_MERGE : G_SUBPROCESS_FLAGS_STDERR_PIPE));
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  /* The Ollama library the pull check looks a model up in: a loopback
   * port where nothing listens, so no test reaches the real registry. */
  g_subprocess_launcher_setenv (launcher, "HEADROOM_OLLAMA_REGISTRY", "http://127.0.0.1:9", TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  if (interrupt_ms > 0)
    interrupt = g_timeout_add (interrupt_ms, on_interrupt, process);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_done, &wait);
  while (wait.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  /* The interrupt came before the end, or the test would prove nothing. */
  if (interrupt_ms > 0)
    g_assert_null (g_main_context_find_source_by_id (NULL, interrupt));
  g_assert_true (g_subprocess_communicate_utf8_finish (process, wait.result, out, err, &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}

static int
run_cli (char       **out,
         char       **err,
         const char  *first,
         ...)
{
  va_list ap;
  int status;

  va_start (ap, first);
  status = run_cli_full (0, FALSE, out, err, first, ap);
  va_end (ap);
  return status;
}

static int
run_cli_interrupted (guint        after_ms,
                     char       **out,
                     char       **err,
                     const char  *first,
                     ...)
{
  va_list ap;
  int status;

  va_start (ap, first);
  status = run_cli_full (after_ms, FALSE, out, err, first, ap);
  va_end (ap);
  return status;
}

/* Runs the CLI with stderr going where stdout goes (2>&1, a log), into
 * @out, to check the order a person reads the two in. */
static int
run_cli_merged (char       **out,
                const char  *first,
                ...)
{
  va_list ap;
  int status;

  va_start (ap, first);
  status = run_cli_full (0, TRUE, out, NULL, first, ap);
  va_end (ap);
  return status;
}

/* A fake Ollama with llama3.2:3b loaded at 4,096 tokens. */
typedef struct {
  FakeOllama *fake;
  const char *url;
  char       *out;
  char       *err;
} LoadedFake;

static void
loaded_fake_set_up (LoadedFake    *f,
                    gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  f->url = fake_ollama_get_url (f->fake);
  fake_ollama_add_llama32 (f->fake);
  fake_ollama_load (f->fake, "llama3.2:3b", 4096);
}

static void
loaded_fake_tear_down (LoadedFake    *f,
                       gconstpointer  data)
{
  g_free (f->out);
  g_free (f->err);
  fake_ollama_free (f->fake);
}

static void
test_list_ps_version (LoadedFake    *f,
                      gconstpointer  data)
{
  g_assert_cmpint (run_cli (&f->out, &f->err, "--host", f->url, "list", NULL), ==, 0);
  g_assert_cmpstr (f->out, ==,
                   "NAME                             ID                SIZE  PARAMETERS  QUANTIZATION  MODIFIED\n"
                   "llama3.2:3b                      a80c4f17acd5    2.0 GB  3.2B        Q4_K_M        2026-11-20\n");
  g_assert_cmpstr (f->err, ==, "");
}

/* A name longer than the 32-character NAME column widens it. */
static void
test_list_long_name (LoadedFake    *f,
                     gconstpointer  data)
{
  fake_ollama_add_model (f->fake, "hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
                         "f0c4a80c4f17acd5ab5d3ff6a5fd52a3a0c1bcbd8cc1b5e1e8c7c1d5ff3d8e2c", 2019393189, NULL);
  g_assert_cmpint (run_cli (&f->out, &f->err, "--host", f->url, "list", NULL), ==, 0);
  g_assert_cmpstr (f->out, ==,
                   "NAME                                              ID                SIZE  PARAMETERS  QUANTIZATION  MODIFIED\n"
                   "llama3.2:3b                                       a80c4f17acd5    2.0 GB  3.2B        Q4_K_M        2026-11-20\n"
                   "hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M f0c4a80c4f17    2.0 GB  3.2B        Q4_K_M        2026-11-20\n");
}

/* As `ollama ps` shows it (docs/seed-figures.md: llama3.2:3b at 4096, 2.6 GB, 100% GPU). */
static void
test_ps (LoadedFake    *f,
         gconstpointer  data)
{
  g_assert_cmpint (run_cli (&f->out, &f->err, "ps", "--host", f->url, NULL), ==, 0);
  g_assert_cmpstr (f->out, ==,
                   "NAME                             ID                SIZE  PROCESSOR         CONTEXT  UNTIL\n"
                   "llama3.2:3b                      a80c4f17acd5    2.6 GB  100% GPU             4096  4 minutes from now\n");
}

static void
test_version_json (LoadedFake    *f,
                   gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_cmpint (run_cli (&f->out, &f->err, "--host", f->url, "version", "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, f->out, -1, NULL));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "version"), ==, "0.31.2");
}

static void
test_show (LoadedFake    *f,
           gconstpointer  data)
{
  g_assert_cmpint (run_cli (&f->out, &f->err, "--host", f->url, "show", "llama3.2:3b", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "name               llama3.2:3b\narchitecture       llama\nparameters         3,212,749,888\n"));
  g_assert_nonnull (strstr (f->out, "\nkv_heads           8\n"));
}

static void
test_unload (LoadedFake    *f,
             gconstpointer  data)
{
  g_assert_cmpint (run_cli (&f->out, &f->err, "--host", f->url, "unload", "llama3.2:3b", NULL), ==, 0);
  g_assert_cmpstr (f->out, ==, "unloaded llama3.2:3b\n");
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
}

static void
test_delete_unknown (LoadedFake    *f,
                     gconstpointer  data)
{
  g_assert_cmpint (run_cli (&f->out, &f->err, "--host", f->url, "delete", "nosuch:1b", NULL), ==, 1);
  g_assert_cmpstr (f->out, ==, "");
  g_assert_true (g_str_has_prefix (f->err, "headroom-cli: model 'nosuch:1b' not found: nosuch:1b is not on the board at "));
}

/* An /api/show tensor list with a type this version does not
 * know: the answer is kept, the count printed, the weights a lower bound. */
static void
test_show_unknown_tensor_type (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;

  fake_ollama_add_model (fake, "newtype:1b",
                         "sha256:1111111111111111111111111111111111111111111111111111111111111111", 1000000,
                         "{\"model_info\": {\"general.architecture\": \"llama\", \"llama.block_count\": 2,"
                         " \"llama.embedding_length\": 64, \"llama.attention.head_count\": 4,"
                         " \"llama.attention.head_count_kv\": 2},"
                         " \"tensors\": [{\"name\": \"output_norm.weight\", \"type\": \"F32\", \"shape\": [64]},"
                         " {\"name\": \"blk.0.attn_q.weight\", \"type\": \"Q9_Z\", \"shape\": [64, 64]}]}");
  g_assert_cmpint (run_cli (&out, &err, "--host", url, "show", "newtype:1b", NULL), ==, 0);
  g_test_message ("%s", out);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "\nweight_bytes       256 (0.00 GB (0.00 GiB), 1 tensors)\n"));
  g_assert_nonnull (strstr (out, "\nunknown_tensors    1 (unknown size: of a type this version does not know, "
                                 "such as Q9_Z; weight_bytes leaves them out)\n"));
  g_assert_nonnull (strstr (out, "\nkv_heads           2\n"));
  /* No bits per weight from a lower bound. */
  g_assert_null (strstr (out, "bits_per_weight"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (&out, &err, "--host", url, "show", "newtype:1b", "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "unknown_tensors"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (root, "unknown_tensor_type"), ==, "Q9_Z");
  g_assert_cmpint (json_object_get_int_member (root, "weight_bytes"), ==, 256);
  g_assert_cmpint (json_object_get_int_member (root, "tensors"), ==, 1);
  fake_ollama_free (fake);
}

static const FakeLayer qwen_layers[] = {
  { "sha256:ac9bc7a69dab38da1c790838955f1293420b55ab555ef6b4615efa1c1507b1ed", 8988110976, FALSE },
  { "sha256:eb4402837c7829a690fa845de4d7f3fd842c2adee476d5341da8a46ea9255175", 1482, TRUE },
};

/* A refusal read as one stream: the notes, the reasons in the pull check's
 * order (memory, then the rate, as hr_pull_check() and the Board page give
 * them), then the conclusion, whatever the streams' buffering. */
static void
test_pull_refusal_order (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autofree char *out = NULL;
  g_autofree char *sized = NULL;

  g_assert_cmpint (run_cli_merged (&out, "--host", url, "pull", "qwen2.5:14b", NULL), ==, 1);
  g_assert_cmpstr (out, ==,
                   "  refused: qwen2.5:14b is over by 3.71 GB\n"
                   "  refused: qwen2.5:14b decodes at 4.1 t/s, under the 10.2 t/s floor\n"
                   "headroom-cli: the pull check refused it; run with --force to pull it anyway\n");

  g_assert_cmpint (run_cli_merged (&sized, "--host", url, "pull", "mystery:70b", "--size", "40", NULL), ==, 1);
  g_assert_cmpstr (sized, ==,
                   "headroom-cli: note: the model is not in the catalog; only the size you gave is checked (its KV cache is not known)\n"
                   "  refused: mystery:70b is over by 33.90 GB\n"
                   "  refused: mystery:70b has no rate this board has measured\n"
                   "headroom-cli: the pull check refused it; run with --force to pull it anyway\n");
  g_assert_cmpuint (fake_ollama_count (fake, "/api/pull"), ==, 0);
  fake_ollama_free (fake);
}

/* A fake Ollama that can pull qwen2.5:14b, in 10 steps 1 ms apart. */
typedef struct {
  FakeOllama *fake;
  const char *url;
} PullFake;

static void
pull_fake_set_up (PullFake      *f,
                  gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  f->url = fake_ollama_get_url (f->fake);
  fake_ollama_add_registry_model (f->fake, "qwen2.5:14b", qwen_layers, G_N_ELEMENTS (qwen_layers));
  fake_ollama_set_pull_steps (f->fake, 10, 1, FALSE);
}

static void
pull_fake_tear_down (PullFake      *f,
                     gconstpointer  data)
{
  g_clear_pointer (&f->fake, fake_ollama_free);
}

/* Refused like `check` (docs/seed-figures.md, "Checking a pull"), with every
 * reason, and nothing sent to the board. */
static void
test_pull (PullFake      *f,
           gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "qwen2.5:14b", NULL), ==, 1);
  g_assert_cmpstr (out, ==,
                   "  refused: qwen2.5:14b is over by 3.71 GB\n"
                   "  refused: qwen2.5:14b decodes at 4.1 t/s, under the 10.2 t/s floor\n");
  g_assert_cmpstr (err, ==, "headroom-cli: the pull check refused it; run with --force to pull it anyway\n");
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/pull"), ==, 0);
}

/* With --json, only JSON on stdout. */
static void
test_pull_refused_json (PullFake      *f,
                        gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *answer;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "qwen2.5:14b", "--json", NULL), ==, 1);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  answer = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_get_boolean_member (answer, "pulled"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (answer, "reasons")), ==, 2);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/pull"), ==, 0);
}

/* --force pulls; not a terminal, so plain lines. */
static void
test_pull_forced (PullFake      *f,
                  gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "qwen2.5:14b", "--force", NULL), ==, 0);
  /* 898,811,097 of 8,988,110,976 bytes is 9.99...%: the bar never rounds up. */
  g_assert_true (g_str_has_prefix (out, "pulling manifest\npulling ac9bc7a69dab\npulling ac9bc7a69dab: 898 MB of 9.0 GB (9%), "));
  g_assert_true (g_str_has_suffix (out, "\npulling ac9bc7a69dab: 9.0 GB of 9.0 GB (100%)\n"
                                        "pulling eb4402837c78: 9.0 GB of 9.0 GB (100%)\n"
                                        "verifying sha256 digest\nwriting manifest\nsuccess\npulled qwen2.5:14b\n"));
  g_assert_cmpstr (err, ==,
                   "  warning: qwen2.5:14b is over by 3.71 GB\n"
                   "  warning: qwen2.5:14b decodes at 4.1 t/s, under the 10.2 t/s floor\n");
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/pull"), ==, 1);
}

/* Ctrl-C stops the pull and says what is left on the board. */
static void
test_pull_interrupted (PullFake      *f,
                       gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  /* 100 steps 50 ms apart: the interrupt at 2 s comes well after the CLI
   * printed its first lines, even under the sanitizers on a loaded
   * machine, and well before the pull's end at 5 s. */
  fake_ollama_set_pull_steps (f->fake, 100, 50, FALSE);
  g_assert_cmpint (run_cli_interrupted (2000, &out, &err, "--host", f->url, "pull", "qwen2.5:14b", "--force", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (out, "pulling manifest\npulling ac9bc7a69dab\n"));
  g_assert_true (g_str_has_suffix (err, "headroom-cli: Pull of qwen2.5:14b stopped. Pulling it again resumes from the partial"
                                        " files while the server keeps them (until `ollama serve` restarts).\n"));
}

/* An unknown tag mid-stream: Ollama's text and what to do. */
static void
test_pull_unknown_tag (PullFake      *f,
                       gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "qwen2.5:99b", "--force", NULL), ==, 1);
  g_assert_true (g_str_has_suffix (err, "headroom-cli: Ollama could not pull qwen2.5:99b: pull model manifest: file does not exist; check the model name and its tag\n"));
}

/* A model the catalog does not know: refused as not on the menu, */
static void
test_pull_not_in_catalog (PullFake      *f,
                          gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "mystery:70b", NULL), ==, 1);
  g_assert_cmpstr (out, ==, "  refused: \"mystery:70b\" is not in the catalog and could not be sized from the Ollama library: "
                            "Could not reach the Ollama registry at http://127.0.0.1:9 for the manifest of mystery:70b: "
                            "check the network or HEADROOM_OLLAMA_REGISTRY (give its download size with --size GB to check it anyway)\n");
  /* it did not reach the server */
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/pull"), ==, 0);
}

/* or checked against the size the user gives. */
static void
test_pull_sized_by_user (PullFake      *f,
                         gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "mystery:70b", "--size", "40", NULL), ==, 1);
  g_assert_cmpstr (out, ==, "  refused: mystery:70b is over by 33.90 GB\n"
                            "  refused: mystery:70b has no rate this board has measured\n");
  g_assert_true (g_str_has_prefix (err, "headroom-cli: note: the model is not in the catalog; only the size you gave is checked (its KV cache is not known)\n"));
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/pull"), ==, 0);
}

static void
test_pull_size_not_a_number (PullFake      *f,
                             gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "--host", f->url, "pull", "mystery:70b", "--size", "lots", NULL), ==, 2);
  g_assert_cmpstr (err, ==, "headroom-cli: --size must be a positive number of GB, not \"lots\"\n");
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/pull"), ==, 0);
}

static void
test_measure (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "archive", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GDir) d = NULL;
  JsonObject *doc;

  fake_ollama_add_llama32 (fake);
  fake_ollama_set_final_timing (fake, 5908400000, 18, 62570000, 89, 3817895000);

  g_assert_cmpint (run_cli (&out, &err, "--host", url, "measure", "llama3.2:3b", "--board", "jetson-orin-nano-super", "--contexts", "2048",
                            "--runs", "2", "--num-predict", "5", "--measurements", dir, "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  doc = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (doc, "runs")), ==, 2);
  /* 89 tokens in 3,817,895,000 ns = 23.3 t/s */
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (doc, "decode_tps"), "mean"), ==, 23.31);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  g_assert_nonnull (g_dir_read_name (d));
  g_assert_null (g_dir_read_name (d));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Plain output: one row per run as it completes, then /api/ps beside the
   * runtime model's prediction for Ollama 0.31.2 (the fake's loaded size is
   * weights + 114,688 bytes a token + 100 MB, 2,589,139,424 bytes at 4096). */
  g_assert_cmpint (run_cli (&out, &err, "--host", url, "measure", "llama3.2:3b", "--board", "jetson-orin-nano-super", "--contexts", "4096",
                            "--runs", "1", "--measurements", dir, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "num_ctx  run  state   ttft_ms   total_ms   load_ms  prefill_t/s  out_tok     t/s\n"
                                        "   4096    1  cold  "));
  /* The runtime model's figures are its own tests' business; here the line's
   * shape, the measured side exactly. */
  g_assert_true (g_regex_match_simple ("   5908\\.4        287\\.7       89    23\\.3\n"
                                       "  num_ctx 4096: /api/ps 2\\.6 GB, 100% GPU, context 4096; predicted [0-9]+\\.[0-9][0-9] GB"
                                       " \\(runtime model, Ollama 0\\.30 and newer \\(llama-server buffers\\)\\);"
                                       " difference [+-][0-9]+\\.[0-9][0-9] GB \\([+-][0-9]+\\.[0-9]%\\)\n"
                                       "decode mean 23\\.3 t/s on [a-z0-9-]+ \\(llama3\\.2:3b, Ollama 0\\.31\\.2\\)\n"
                                       "saved .*\\.json\n$",
                                       out, G_REGEX_MULTILINE, 0));

  fake_ollama_free (fake);
}

static void
test_failures (void)
{
  g_autofree char *refused = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;

  /* Connection refused: bind a port, close it. */
  refused = fake_ollama_refused_url ();
  g_assert_cmpint (run_cli (&out, &err, "--host", refused, "list", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: nothing is listening at %s; is `ollama serve` running, and bound to an"
                              " address this machine can reach?\n", refused);
  g_assert_cmpstr (err, ==, expected);
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* measure prints its results table's header with the first result, not
   * before the error of a server that is not there. */
  g_assert_cmpint (run_cli (&out, &err, "--host", refused, "measure", "llama3.2:3b", "--board", "jetson-orin-nano-super", NULL), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_suffix (err, expected));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Usage. */
  g_assert_cmpint (run_cli (&out, &err, NULL), ==, 2);
  g_assert_cmpstr (err, ==, "headroom-cli: ollama needs a command: version, list, ps, show, measure, pull, unload, delete, create-variant, copy or load\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, "show", NULL), ==, 2);
  g_assert_cmpstr (err, ==, "headroom-cli: ollama show takes one model name, e.g. headroom-cli ollama show llama3.2:3b\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, "list", "--force", NULL), ==, 2);
  g_assert_cmpstr (err, ==, "headroom-cli: --force only goes with pull\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, "measure", "m", "--runs", "0", NULL), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, "--host", "ftp://board", "list", NULL), ==, 2);
  g_assert_cmpstr (err, ==, "headroom-cli: \"ftp://board\" is not an Ollama address: use http:// or https://, or just host:port\n");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("OLLAMA_HOST");
  g_unsetenv ("HEADROOM_OLLAMA_TOKEN");

  g_test_add ("/cli-ollama/list-ps-version/list", LoadedFake, NULL, loaded_fake_set_up, test_list_ps_version, loaded_fake_tear_down);
  g_test_add ("/cli-ollama/list-ps-version/list-long-name", LoadedFake, NULL, loaded_fake_set_up, test_list_long_name, loaded_fake_tear_down);
  g_test_add ("/cli-ollama/list-ps-version/ps", LoadedFake, NULL, loaded_fake_set_up, test_ps, loaded_fake_tear_down);
  g_test_add ("/cli-ollama/list-ps-version/version-json", LoadedFake, NULL, loaded_fake_set_up, test_version_json, loaded_fake_tear_down);
  g_test_add ("/cli-ollama/list-ps-version/show", LoadedFake, NULL, loaded_fake_set_up, test_show, loaded_fake_tear_down);
  g_test_add ("/cli-ollama/list-ps-version/unload", LoadedFake, NULL, loaded_fake_set_up, test_unload, loaded_fake_tear_down);
  g_test_add ("/cli-ollama/list-ps-version/delete-unknown", LoadedFake, NULL, loaded_fake_set_up, test_delete_unknown, loaded_fake_tear_down);
  g_test_add_func ("/cli-ollama/show-unknown-tensor-type", test_show_unknown_tensor_type);
  g_test_add_func ("/cli-ollama/pull-refusal-order", test_pull_refusal_order);
  g_test_add ("/cli-ollama/pull/refused-by-check", PullFake, NULL, pull_fake_set_up, test_pull, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/refused-json", PullFake, NULL, pull_fake_set_up, test_pull_refused_json, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/forced", PullFake, NULL, pull_fake_set_up, test_pull_forced, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/interrupted", PullFake, NULL, pull_fake_set_up, test_pull_interrupted, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/unknown-tag", PullFake, NULL, pull_fake_set_up, test_pull_unknown_tag, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/not-in-catalog", PullFake, NULL, pull_fake_set_up, test_pull_not_in_catalog, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/sized-by-user", PullFake, NULL, pull_fake_set_up, test_pull_sized_by_user, pull_fake_tear_down);
  g_test_add ("/cli-ollama/pull/size-not-a-number", PullFake, NULL, pull_fake_set_up, test_pull_size_not_a_number, pull_fake_tear_down);
  g_test_add_func ("/cli-ollama/measure", test_measure);
  g_test_add_func ("/cli-ollama/failures", test_failures);

  return g_test_run ();
}
