/* test-cli-paths.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One prediction everywhere: the same model sized by the three
 * commands that read it from different places gives the same figures, term
 * by term: `headroom-cli predict FILE` and `headroom-cli gguf FILE` on a
 * GGUF file with gemma3:1b's shapes (sliding-window layers), and
 * `headroom-cli hub REPO` on a GGUF-only repository of the fake Hub
 * (tests/fake-hub.c) holding the same file. Their JSON is the one shape:
 * `method`, `terms` (id, bytes, formula, source), `total_bytes`,
 * `ollama_ps_size`. The seed's method (--runtime seed) is named, and
 * charges every sliding-window layer the whole context.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "gguf-writer.h"
#include "hub-test-util.h"
#include "llama/llama-models.h"

#define REPO "test-org/gemma-3-1b-it-GGUF"
#define SHA  "0123456789abcdef0123456789abcdef01234567"
#define FILE_NAME "gemma-3-1b-it-Q4_K_M.gguf"

static char *gguf_path;
static guint64 gguf_size;

static JsonObject *
parse (const char *text,
       JsonParser *parser)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Writes the gemma3:1b-shaped file (a sparse file: header, then a hole)
 * into this test's own cache directory (G_TEST_OPTION_ISOLATE_DIRS). */
static void
write_file (void)
{
  g_autoptr(LmModel) model = lm_gemma3_1b ();

  g_free (gguf_path);
  gguf_path = g_build_filename (g_get_user_cache_dir (), FILE_NAME, NULL);
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_cache_dir (), 0700), ==, 0);
  gguf_size = lm_model_write (model, gguf_path);
}

/* The fake Hub with a GGUF-only repository whose one file is the file on
 * disk: its first 16 MiB (the header), then zeros. */
static FakeHub *
hub_with_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  FakeHub *fake;
  FakeRepo *repo;
  gsize length = 0, head_len;
  guint8 *head;

  write_file ();
  file = g_file_new_for_path (gguf_path);
  in = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  head_len = (gsize) MIN (gguf_size, 16u << 20);
  head = g_malloc (head_len);
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), head, head_len, &length, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, head_len);

  fake = fake_hub_new ();
  repo = fake_add_repo (fake, REPO, SHA,
                        "{\"tags\":[\"gguf\",\"license:gemma\"],\"config\":{},"
                        "\"gguf\":{\"architecture\":\"gemma3\",\"context_length\":32768}}");
  repo_add_file (repo, "README.md", 100, FALSE, NULL, FALSE);
  repo_add_file (repo, FILE_NAME, gguf_size, TRUE, g_bytes_new_take (head, head_len), TRUE);
  return fake;
}

static JsonObject *
run_json (FakeHub            *fake,
          const char * const *args,
          JsonParser         *parser,
          const char         *member)
{
  CliRun run;
  JsonObject *root;

  run_cli (fake, args, &run);
  if (run.status != 0)
    g_error ("%s failed (%d): %s", args[0], run.status, run.err);
  root = parse (run.out, parser);
  g_free (run.out);
  g_free (run.err);
  if (member == NULL)
    return root;
  g_assert_true (json_object_has_member (root, member));
  return json_object_get_object_member (root, member);
}

/* Every term's id and bytes, the total and the ps size equal. */
static void
assert_same (JsonObject *a,
             JsonObject *b)
{
  JsonArray *ta = json_object_get_array_member (a, "terms");
  JsonArray *tb = json_object_get_array_member (b, "terms");

  g_assert_cmpstr (json_object_get_string_member (a, "method"), ==, json_object_get_string_member (b, "method"));
  g_assert_cmpuint (json_array_get_length (ta), ==, json_array_get_length (tb));
  for (guint i = 0; i < json_array_get_length (ta); i++)
    {
      JsonObject *x = json_array_get_object_element (ta, i);
      JsonObject *y = json_array_get_object_element (tb, i);

      g_assert_cmpstr (json_object_get_string_member (x, "id"), ==, json_object_get_string_member (y, "id"));
      g_assert_cmpint (json_object_get_int_member (x, "bytes"), ==, json_object_get_int_member (y, "bytes"));
      g_assert_cmpstr (json_object_get_string_member (x, "formula"), ==, json_object_get_string_member (y, "formula"));
      g_assert_cmpstr (json_object_get_string_member (x, "source"), ==, json_object_get_string_member (y, "source"));
    }
  g_assert_cmpint (json_object_get_int_member (a, "total_bytes"), ==, json_object_get_int_member (b, "total_bytes"));
  g_assert_cmpstr (json_object_get_string_member (a, "ollama_ps_size"), ==, json_object_get_string_member (b, "ollama_ps_size"));
  g_assert_cmpstr (json_object_get_string_member (a, "verdict"), ==, json_object_get_string_member (b, "verdict"));
}

static gint64
term_bytes (JsonObject *prediction,
            const char *id)
{
  JsonArray *terms = json_object_get_array_member (prediction, "terms");

  for (guint i = 0; i < json_array_get_length (terms); i++)
    {
      JsonObject *t = json_array_get_object_element (terms, i);

      if (g_strcmp0 (json_object_get_string_member (t, "id"), id) == 0)
        return json_object_get_int_member (t, "bytes");
    }
  g_error ("no term %s", id);
  return -1;
}

static void
test_three_paths (void)
{
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  FakeHub *fake;
  JsonObject *predict, *gguf, *hub;

  if (g_getenv ("HEADROOM_CLI") == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set (run under meson test)");
      return;
    }
  fake = hub_with_file ();

  /* The runtime prediction (the default), at 16,384 tokens, 2 slots. */
  predict = run_json (fake, (const char *[]) { "predict", gguf_path, "--context", "16384", "--parallel", "2", "--json", NULL },
                      p1, NULL);
  gguf = run_json (fake, (const char *[]) { "gguf", gguf_path, "--context", "16384", "--parallel", "2", "--json", NULL },
                   p2, "prediction");
  hub = run_json (fake, (const char *[]) { "hub", REPO, "--context", "16384", "--parallel", "2", "--json", NULL },
                  p3, "prediction");
  g_assert_cmpstr (json_object_get_string_member (predict, "method"), ==, "ollama-0.30");
  assert_same (predict, gguf);
  assert_same (predict, hub);
  /* gemma3:1b at 16,384 tokens and 2 slots (-c 32768 -np 2): the 4 global
   * layers hold one stream of 16,384 cells per slot, the 22
   * sliding-window layers pad256(min(16384, 512 + 512)) = 1,024 cells per
   * slot; 1 KV head x (256 + 256) x 2 bytes = 1,024 bytes a cell:
   * 4 x 32,768 x 1,024 + 22 x 2,048 x 1,024 = 180,355,072 bytes (172 MiB;
   * the llama suite checks this layout against a real llama-server). */
  g_assert_cmpint (term_bytes (predict, "kv_cache"), ==, G_GINT64_CONSTANT (180355072));
  g_assert_cmpint (term_bytes (predict, "compute"), >, 0);
  g_clear_object (&p1);
  g_clear_object (&p2);
  g_clear_object (&p3);
  p1 = json_parser_new ();
  p2 = json_parser_new ();
  p3 = json_parser_new ();

  /* The seed's method, named: every layer charged the whole context of
   * both slots: 26 x 1,024 x 16,384 x 2 = 872,415,232 bytes. */
  predict = run_json (fake, (const char *[]) { "predict", gguf_path, "--context", "16384", "--parallel", "2", "--runtime", "seed", "--json", NULL },
                      p1, NULL);
  gguf = run_json (fake, (const char *[]) { "gguf", gguf_path, "--context", "16384", "--parallel", "2", "--runtime", "seed", "--json", NULL },
                   p2, "prediction");
  hub = run_json (fake, (const char *[]) { "hub", REPO, "--context", "16384", "--parallel", "2", "--runtime", "seed", "--json", NULL },
                  p3, "prediction");
  g_assert_cmpstr (json_object_get_string_member (predict, "method"), ==, "seed");
  assert_same (predict, gguf);
  assert_same (predict, hub);
  g_assert_cmpint (term_bytes (predict, "kv_cache"), ==, G_GINT64_CONSTANT (872415232));
  g_assert_cmpint (json_object_get_int_member (predict, "total_bytes"), ==,
                   term_bytes (predict, "weights") + G_GINT64_CONSTANT (872415232));

  fake_hub_free (fake);
  g_unlink (gguf_path);
}

/* The text says which method made the figures, the same on each path. */
static void
test_method_named (void)
{
  FakeHub *fake;
  CliRun run;
  const char *method_030 = "\n  method             Ollama 0.30 and newer (llama-server buffers)\n";
  const char *method_seed = "\n  method             the seed's weights + KV cache (teaching mode, not a server's figure)\n";

  if (g_getenv ("HEADROOM_CLI") == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set (run under meson test)");
      return;
    }
  fake = hub_with_file ();
  run_cli (fake, (const char *[]) { "gguf", gguf_path, NULL }, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, method_030));
  g_assert_nonnull (strstr (run.out, "\nmemory on Jetson Orin Nano Super at 4,096 tokens (f16 KV cache, 1 slot, flash attention on):\n"));
  g_free (run.out);
  g_free (run.err);
  run_cli (fake, (const char *[]) { "hub", REPO, "--runtime", "seed", NULL }, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, method_seed));
  g_free (run.out);
  g_free (run.err);
  run_cli (fake, (const char *[]) { "predict", gguf_path, NULL }, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\nruntime: Ollama 0.30 and newer (llama-server buffers)\n"));
  g_free (run.out);
  g_free (run.err);
  fake_hub_free (fake);
  g_unlink (gguf_path);
}

/* A quantized V cache without flash attention: refused on 0.30+ as
 * llama-server refuses it; before 0.30 the cache falls back to f16, and
 * gguf says so. */
static void
test_kv_fallback_note (void)
{
  FakeHub *fake;
  CliRun run;

  if (g_getenv ("HEADROOM_CLI") == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set (run under meson test)");
      return;
    }
  fake = hub_with_file ();
  run_cli (fake, (const char *[]) { "gguf", gguf_path, "--kv-type", "q8_0", "--flash-attention", "off", NULL }, &run);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "quantized V cache requires flash_attn to be enabled"));
  g_free (run.out);
  g_free (run.err);
  run_cli (fake, (const char *[]) { "gguf", gguf_path, "--kv-type", "q8_0", "--flash-attention", "off",
                                    "--server-version", "0.20.1", NULL }, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\n  KV cache type      f16, not the q8_0 asked for: Ollama before 0.30 keeps a quantized KV cache only when flash attention is forced on"));
  g_free (run.out);
  g_free (run.err);
  fake_hub_free (fake);
  g_unlink (gguf_path);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cli/paths/same-prediction", test_three_paths);
  g_test_add_func ("/cli/paths/method-named", test_method_named);
  g_test_add_func ("/cli/paths/kv-fallback", test_kv_fallback_note);
  status = g_test_run ();
  g_free (gguf_path);
  return status;
}
