/* test-cli-variant.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama create-variant`, `copy` and `load` against the fake
 * Ollama running in this process: the request bodies the server receives,
 * what a person reads, and every refusal before anything is sent.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "cli-test-util.h"
#include "fake-ollama.h"

/* The GSettings backend the next run uses when not the tests' memory
 * backend: "keyfile" reads the servers a test saved under the isolated
 * config directory, as the window would have. */
static const char *settings_backend;

/* Runs `headroom-cli ollama ARGS...` while this process's main loop serves
 * the fake. */
static void
run_ollama (Run        *r,
            const char *first,
            ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (args, (char *) "ollama");
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_cli_serving (r, settings_backend, (const char * const *) args->pdata);
}

static char *
body_of (FakeOllama *fake,
         const char *path)
{
  JsonNode *body = fake_ollama_last_body (fake, path);

  g_assert_nonnull (body);
  return json_to_string (body, FALSE);
}

/* A variant with a context: its name says what it is, the request is the
 * one printed, and the server then lists it; the same name again is
 * refused unless --force; the server's settings are printed, not sent. */
/* A fake Ollama with llama3.2:3b. */
typedef struct {
  FakeOllama *fake;
  const char *url;
} VariantServer;

static void
variant_server_set_up (VariantServer *f,
                       gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  f->url = fake_ollama_get_url (f->fake);
  fake_ollama_add_llama32 (f->fake);
}

static void
variant_server_tear_down (VariantServer *f,
                          gconstpointer  data)
{
  fake_ollama_free (f->fake);
}

/* What create-variant llama3.2:3b --context 24576 sends. */
#define CTX24K_BODY "{\"model\":\"llama3.2:3b-ctx24k\",\"from\":\"llama3.2:3b\"," \
                    "\"parameters\":{\"num_ctx\":24576},\"stream\":false}"

/* create-variant llama3.2:3b --context 24576, which succeeds. */
static void
create_ctx24k (VariantServer *f)
{
  g_auto(Run) r = { 0 };

  run_ollama (&r, "--host", f->url, "create-variant", "llama3.2:3b", "--context", "24576", NULL);
  g_assert_cmpint (r.status, ==, 0);
}

static void
test_create_variant (VariantServer *f,
                     gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *expected_out = g_strdup_printf ("request: POST %s/api/create %s\ncreated llama3.2:3b-ctx24k from llama3.2:3b\n",
                                                   f->url, CTX24K_BODY);
  g_autofree char *body = NULL;

  run_ollama (&r, "--host", f->url, "create-variant", "llama3.2:3b", "--context", "24576", NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, expected_out);
  body = body_of (f->fake, "/api/create");
  g_assert_cmpstr (body, ==, CTX24K_BODY);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/create"), ==, 1);
}

static void
test_create_variant_exists (VariantServer *f,
                            gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *expected = g_strdup_printf ("headroom-cli: %s already has a model \"llama3.2:3b-ctx24k\"; "
                                               "choose another --name, or --force to replace it\n", f->url);

  create_ctx24k (f);
  run_ollama (&r, "--host", f->url, "create-variant", "llama3.2:3b", "--context", "24576", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, ==, expected);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/create"), ==, 1);
}

static void
test_create_variant_force (VariantServer *f,
                           gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *body = NULL;

  create_ctx24k (f);
  run_ollama (&r, "--host", f->url, "create-variant", "llama3.2:3b", "--context", "24576", "--force",
              "--kv-type", "q8_0", "--parallel", "2", "--flash-attention", "on", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "created llama3.2:3b-ctx24k from llama3.2:3b\n"
                                   "A model cannot carry these; the server's owner sets them in the environment of `ollama serve`:\n"
                                   "  OLLAMA_KV_CACHE_TYPE=q8_0\n"
                                   "  OLLAMA_FLASH_ATTENTION=1\n"
                                   "  OLLAMA_NUM_PARALLEL=2\n"));
  body = body_of (f->fake, "/api/create");
  g_assert_cmpstr (body, ==, CTX24K_BODY);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/create"), ==, 2);
}

/* num_gpu and a name of one's own; --dry-run sends nothing (the one
 * variant created before stays the only request). */
static void
test_create_variant_dry_run (VariantServer *f,
                             gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *expected_out = g_strdup_printf ("request: POST %s/api/create {\"model\":\"mine:gpu20\",\"from\":\"llama3.2:3b\","
                                                   "\"parameters\":{\"num_gpu\":20},\"stream\":false}\nnot sent (--dry-run)\n", f->url);

  create_ctx24k (f);
  run_ollama (&r, "--host", f->url, "create-variant", "llama3.2:3b", "--num-gpu", "20", "--name", "mine:gpu20",
              "--dry-run", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, expected_out);
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/create"), ==, 1);
}

/* What is refused, and that nothing is created then. */
static void
test_create_variant_refusals (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);

  fake_ollama_add_llama32 (fake);
  {
    g_auto(Run) r = { 0 };
    g_autofree char *expected = g_strdup_printf ("headroom-cli: %s has no model \"qwen3:8b\" to make a variant from; "
                                                 "pull it first (headroom-cli ollama pull qwen3:8b)\n", url);

    run_ollama (&r, "--host", url, "create-variant", "qwen3:8b", "--context", "8192", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_cmpstr (r.err, ==, expected);
  }
  {
    g_auto(Run) r = { 0 };

    run_ollama (&r, "--host", url, "create-variant", "llama3.2:3b", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.err, ==, "headroom-cli: create-variant needs --context N, --max-context or --num-gpu L: "
                                "what the variant changes\n");
  }
  {
    g_auto(Run) r = { 0 };

    /* A name Ollama itself refuses: its words. */
    run_ollama (&r, "--host", url, "create-variant", "llama3.2:3b", "--context", "8192", "--name", "mine:ctx8k!", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "invalid model name"));
  }
  {
    g_auto(Run) r = { 0 };
    g_autofree char *expected = NULL;

    fake_ollama_set_version (fake, "0.5.4");
    run_ollama (&r, "--host", url, "create-variant", "llama3.2:3b", "--context", "8192", NULL);
    g_assert_cmpint (r.status, ==, 1);
    expected = g_strdup_printf ("headroom-cli: %s runs Ollama 0.5.4, whose /api/create does not take \"from\" and "
                                "\"parameters\"; variants need Ollama 0.5.5 or newer: update the server\n", url);
    g_assert_cmpstr (r.err, ==, expected);
  }
  {
    g_auto(Run) r = { 0 };

    fake_ollama_set_version (fake, "0.31.2");
    /* --max-context sizes on a board: none given, none saved. */
    run_ollama (&r, "--host", url, "create-variant", "llama3.2:3b", "--max-context", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_true (g_str_has_suffix (r.err, ": name the board this server runs on with --board NAME, "
                                            "so the largest context that fits it can be found\n"));
  }
  g_assert_cmpuint (fake_ollama_count (fake, "/api/create"), ==, 1); /* only the refused name reached it */
  fake_ollama_free (fake);
}

/* --max-context: the largest context at which every layer fits the
 * board's GPU, carried by the variant's name and its num_ctx. */
static void
test_create_variant_max_context (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_auto(Run) r = { 0 };
  g_autoptr(GRegex) re = g_regex_new ("^largest context with every layer on the GPU of rtx-3060-12gb: ([0-9,]+) tokens\n",
                                      0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *digits = NULL;
  g_autofree char *body = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GString) number = g_string_new (NULL);
  guint64 context;

  fake_ollama_add_llama32 (fake);
  run_ollama (&r, "--host", url, "create-variant", "llama3.2:3b", "--max-context", "--board", "rtx-3060-12gb", NULL);
  g_test_message ("%s", r.out);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match (re, r.out, 0, &match));
  digits = g_match_info_fetch (match, 1);
  for (const char *c = digits; *c != '\0'; c++)
    if (*c != ',')
      g_string_append_c (number, *c);
  context = g_ascii_strtoull (number->str, NULL, 10);
  /* llama3.2:3b as the server's /api/show describes it (2.02 GB of
   * weights, 114,688 B a token of f16 KV) on a 12 GiB card, sized as
   * Ollama 0.31.2 would (the fake's version): hr_offload_max_context()'s
   * answer, a whole number of 256-token steps. */
  g_assert_cmpuint (context, ==, 73216);
  g_assert_cmpuint (context % 256, ==, 0);
  body = body_of (fake, "/api/create");
  expected = g_strdup_printf ("\"parameters\":{\"num_ctx\":%" G_GUINT64_FORMAT "}", context);
  g_assert_nonnull (strstr (body, expected));
  fake_ollama_free (fake);
}

/* copy: the body, and an existing destination refused unless --force. */
static void
test_copy (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autofree char *body = NULL;

  fake_ollama_add_llama32 (fake);
  {
    g_auto(Run) r = { 0 };

    run_ollama (&r, "--host", url, "copy", "llama3.2:3b", "llama3.2:mine", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, "copied llama3.2:3b to llama3.2:mine\n");
    body = body_of (fake, "/api/copy");
    g_assert_cmpstr (body, ==, "{\"source\":\"llama3.2:3b\",\"destination\":\"llama3.2:mine\"}");
  }
  {
    g_auto(Run) r = { 0 };
    g_autofree char *expected = g_strdup_printf ("headroom-cli: %s already has a model \"llama3.2:mine\"; "
                                                 "choose another name, or --force to replace it\n", url);

    run_ollama (&r, "--host", url, "copy", "llama3.2:3b", "llama3.2:mine", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_cmpstr (r.err, ==, expected);
    g_assert_cmpuint (fake_ollama_count (fake, "/api/copy"), ==, 1);
  }
  fake_ollama_free (fake);
}

/* load: the keep-alive sent, then /api/ps beside the prediction. */
static void
test_load (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_auto(Run) created = { 0 };
  g_auto(Run) r = { 0 };
  g_autofree char *body = NULL;

  fake_ollama_add_llama32 (fake);
  run_ollama (&created, "--host", url, "create-variant", "llama3.2:3b", "--context", "8192", NULL);
  g_assert_cmpint (created.status, ==, 0);
  run_ollama (&r, "--host", url, "load", "llama3.2:3b-ctx8k", "--keep-alive", "30m", NULL);
  g_test_message ("%s", r.out);
  g_assert_cmpint (r.status, ==, 0);
  body = body_of (fake, "/api/generate");
  g_assert_cmpstr (body, ==, "{\"model\":\"llama3.2:3b-ctx8k\",\"keep_alive\":\"30m\",\"stream\":false}");
  /* The variant's own num_ctx applied: 2,019,377,376 + 100,000,000 +
   * 114,688 x 8,192 = 3.06 GB, all on the GPU. */
  g_assert_true (g_str_has_prefix (r.out, "loaded llama3.2:3b-ctx8k: /api/ps 3.1 GB, 100% GPU, context 8192\npredicted "));
  g_assert_nonnull (strstr (r.out, "\nsave it as a measurement on this server's board with: "
                                   "headroom-cli ollama measure llama3.2:3b-ctx8k --contexts 8192\n"));
  fake_ollama_free (fake);
}

/* Saves @servers ("[('board', 'url'), ...]") as the window's
 * "ollama-boards" setting, for the keyfile backend. */
static void
save_servers (const char *servers)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "glib-2.0", "settings", NULL);
  g_autofree char *path = g_build_filename (dir, "keyfile", NULL);
  g_autofree char *text = g_strdup_printf ("[io/github/headroom/Headroom]\nollama-boards=%s\n", servers);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* ps --all: three saved servers, one of them unreachable, asked at once;
 * the others are listed all the same, each with what is left of its
 * board's budget. */
/* Three servers the window saved: one with llama3.2:3b loaded, an idle
 * one on the same board, one that refuses connections; the CLI reads
 * them from the keyfile settings. */
typedef struct {
  FakeOllama *busy;
  FakeOllama *idle;
  char       *refused;
} SavedServers;

static void
saved_servers_set_up (SavedServers  *f,
                      gconstpointer  data)
{
  g_autofree char *servers = NULL;

  f->busy = fake_ollama_new ();
  f->idle = fake_ollama_new ();
  f->refused = fake_ollama_refused_url ();
  fake_ollama_add_llama32 (f->busy);
  fake_ollama_load (f->busy, "llama3.2:3b", 4096);
  fake_ollama_add_llama32 (f->idle);
  servers = g_strdup_printf ("[('rtx-3060-12gb', '%s'), ('rtx-3060-12gb', '%s'), ('dgx-spark', '%s')]",
                             fake_ollama_get_url (f->busy), fake_ollama_get_url (f->idle), f->refused);
  save_servers (servers);
  settings_backend = "keyfile";
}

static void
saved_servers_tear_down (SavedServers  *f,
                         gconstpointer  data)
{
  settings_backend = NULL;
  g_free (f->refused);
  fake_ollama_free (f->busy);
  fake_ollama_free (f->idle);
}

static void
test_ps_all (SavedServers  *f,
             gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autofree char *first = g_strdup_printf ("rtx-3060-12gb  %s  Ollama 0.31.2  ", fake_ollama_get_url (f->busy));
  g_autofree char *loaded = g_strdup_printf (" GB of the budget free\n  %-30s %8s  %-16s  ", "llama3.2:3b", "2.6 GB", "100% GPU");
  g_autofree char *second = g_strdup_printf ("\nrtx-3060-12gb  %s  Ollama 0.31.2  ", fake_ollama_get_url (f->idle));
  g_autofree char *third = g_strdup_printf ("dgx-spark  %s  unreachable: ", f->refused);

  run_ollama (&r, "ps", "--all", NULL);
  g_test_message ("%s", r.out);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.out, first));
  g_assert_nonnull (strstr (r.out, loaded));
  g_assert_nonnull (strstr (r.out, second));
  g_assert_nonnull (strstr (r.out, " GB of the budget free\n  nothing loaded\n"));
  g_assert_nonnull (strstr (r.out, third));
}

static void
test_ps_all_json (SavedServers  *f,
                  gconstpointer  data)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *list;
  JsonObject *a, *b, *c;

  run_ollama (&r, "ps", "--all", "--json", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  list = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (list), ==, 3);
  a = json_array_get_object_element (list, 0);
  b = json_array_get_object_element (list, 1);
  c = json_array_get_object_element (list, 2);
  g_assert_true (json_object_get_boolean_member (a, "reachable"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (a, "loaded")), ==, 1);
  /* The same board: what is loaded on the first (2,019,377,376 +
   * 100,000,000 + 114,688 x 4,096 bytes, all on the GPU) is the
   * difference of what is left. */
  g_assert_cmpint (json_object_get_int_member (b, "free_of_budget_bytes") -
                   json_object_get_int_member (a, "free_of_budget_bytes"), ==, 2589139424);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (b, "loaded")), ==, 0);
  g_assert_false (json_object_get_boolean_member (c, "reachable"));
  g_assert_nonnull (json_object_get_string_member (c, "error"));
}

static void
test_ps_all_none_saved (void)
{
  g_auto(Run) r = { 0 };

  run_ollama (&r, "ps", "--all", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "headroom-cli: the window has saved no Ollama server (its Board page saves each one it "
                              "connects to); use headroom-cli ollama --host URL ps for one server\n");
}

/* --json --dry-run: the variant's name, its source, that nothing was
 * created, the request that would be sent and the server settings it
 * needs, as stable JSON; the server is sent nothing. */
static void
test_create_variant_json (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_auto(Run) r = { 0 };

  fake_ollama_add_llama32 (fake);
  run_ollama (&r, "--host", url, "create-variant", "llama3.2:3b", "--context", "24576",
              "--kv-type", "q8_0", "--parallel", "2", "--dry-run", "--json", NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "{\n"
                   "  \"model\" : \"llama3.2:3b-ctx24k\",\n"
                   "  \"from\" : \"llama3.2:3b\",\n"
                   "  \"created\" : false,\n"
                   "  \"request\" : {\n"
                   "    \"model\" : \"llama3.2:3b-ctx24k\",\n"
                   "    \"from\" : \"llama3.2:3b\",\n"
                   "    \"parameters\" : {\n"
                   "      \"num_ctx\" : 24576\n"
                   "    },\n"
                   "    \"stream\" : false\n"
                   "  },\n"
                   "  \"environment\" : {\n"
                   "    \"OLLAMA_KV_CACHE_TYPE\" : \"q8_0\",\n"
                   "    \"OLLAMA_NUM_PARALLEL\" : \"2\"\n"
                   "  }\n"
                   "}\n");
  g_assert_cmpuint (fake_ollama_count (fake, "/api/create"), ==, 0);
  fake_ollama_free (fake);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/cli-variant/create-variant/created", VariantServer, NULL, variant_server_set_up, test_create_variant, variant_server_tear_down);
  g_test_add ("/cli-variant/create-variant/exists", VariantServer, NULL, variant_server_set_up, test_create_variant_exists, variant_server_tear_down);
  g_test_add ("/cli-variant/create-variant/force", VariantServer, NULL, variant_server_set_up, test_create_variant_force, variant_server_tear_down);
  g_test_add ("/cli-variant/create-variant/dry-run", VariantServer, NULL, variant_server_set_up, test_create_variant_dry_run, variant_server_tear_down);
  g_test_add_func ("/cli-variant/create-variant-refusals", test_create_variant_refusals);
  g_test_add_func ("/cli-variant/create-variant-max-context", test_create_variant_max_context);
  g_test_add_func ("/cli-variant/create-variant-json", test_create_variant_json);
  g_test_add_func ("/cli-variant/copy", test_copy);
  g_test_add_func ("/cli-variant/load", test_load);
  g_test_add ("/cli-variant/ps-all/text", SavedServers, NULL, saved_servers_set_up, test_ps_all, saved_servers_tear_down);
  g_test_add ("/cli-variant/ps-all/json", SavedServers, NULL, saved_servers_set_up, test_ps_all_json, saved_servers_tear_down);
  g_test_add_func ("/cli-variant/ps-all/none-saved", test_ps_all_none_saved);
  return g_test_run ();
}
