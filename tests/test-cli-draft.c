/* test-cli-draft.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --draft MODEL|FILE.gguf (app/cli/hr-cli-draft.c): llama-server's draft
 * model beside the model, as its own rows in predict and gguf, a `draft`
 * JSON object, in the total and the verdict; refused (exit 2) under an
 * Ollama runtime, for a name that is neither a catalog model nor a file,
 * and with the fit finders. Run as a child process ($HEADROOM_CLI) on the
 * built-in catalog and on two small GGUF files written with
 * tests/llama/llama-models.h (a sentencepiece vocabulary of 4,096 tokens).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-test-util.h"
#include "llama/llama-models.h"
#include "llama/llama-models-attn.h"

static char *dir;

static char *
write_model (LmModel *m)
{
  char *path = g_strdup_printf ("%s/%s.gguf", dir, m->id);

  lm_model_write (m, path);
  lm_model_free (m);
  return path;
}

static JsonObject *
parse (JsonParser *parser,
       const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static gint64
term_bytes (JsonObject *o,
            const char *id)
{
  JsonArray *terms = json_object_get_array_member (o, "terms");

  for (guint i = 0; i < json_array_get_length (terms); i++)
    {
      JsonObject *t = json_array_get_object_element (terms, i);

      if (g_strcmp0 (json_object_get_string_member (t, "id"), id) == 0)
        return json_object_get_int_member (t, "bytes");
    }
  return -1;
}

/* llama3.1:8b with llama3.2:1b on an RTX 3090, -c 8192 -np 1: the draft's
 * terms are llama3.2:1b's own (its file on the GPU, tied; 16 x 8 x
 * (64 + 64) x 8,192 x 2 bytes of f16 KV) and they add to the total. */
static void
test_catalog_json (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) alone = { 0 };
  g_auto(Run) with = { 0 };
  JsonObject *o, *a, *draft, *device;
  JsonArray *devices;

  run_cli (&alone, "predict", "llama3.1:8b", "--runtime", "llama-server", "--context", "8192", "--parallel", "1",
           "--board", "rtx-3090", "--json", NULL);
  g_assert_cmpint (alone.status, ==, 0);
  run_cli (&with, "predict", "llama3.1:8b", "--draft", "llama3.2:1b", "--runtime", "llama-server", "--context", "8192",
           "--parallel", "1", "--board", "rtx-3090", "--json", NULL);
  g_assert_cmpint (with.status, ==, 0);
  a = json_object_ref (parse (parser, alone.out));
  o = parse (parser, with.out);

  draft = json_object_get_object_member (o, "draft");
  g_assert_nonnull (draft);
  g_assert_cmpstr (json_object_get_string_member (draft, "model"), ==, "llama3.2:1b");
  g_assert_cmpint (json_object_get_int_member (draft, "weights_bytes"), ==, 1300000000);
  g_assert_cmpint (json_object_get_int_member (draft, "kv_bytes"), ==, 268435456);
  g_assert_cmpint (json_object_get_int_member (draft, "compute_bytes"), ==, 79697920);
  g_assert_cmpint (json_object_get_int_member (draft, "output_bytes"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (draft, "total_bytes"), ==, 1648133376);
  g_assert_true (json_object_get_boolean_member (draft, "vocab_compatible"));
  devices = json_object_get_array_member (draft, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 1);
  device = json_array_get_object_element (devices, 0);
  g_assert_cmpstr (json_object_get_string_member (device, "name"), ==, "NVIDIA GeForce RTX 3090");
  g_assert_cmpint (json_object_get_int_member (device, "kv_bytes"), ==, 268435456);
  g_assert_cmpint (term_bytes (o, "draft_weights"), ==, 1300000000);
  g_assert_cmpint (term_bytes (o, "draft_kv_cache"), ==, 268435456);
  g_assert_cmpint (term_bytes (o, "draft_compute"), ==, 79697920);
  g_assert_cmpint (term_bytes (o, "draft_output"), ==, -1);
  g_assert_cmpint (term_bytes (o, "kv_cache"), ==, term_bytes (a, "kv_cache"));
  g_assert_cmpint (json_object_get_int_member (a, "total_bytes"), ==, 5814053197);
  g_assert_cmpint (json_object_get_int_member (o, "total_bytes"), ==, 5814053197 + 1648133376);
  g_assert_cmpint (json_object_get_int_member (o, "pool_footprint_bytes"), ==, 5814053197 + 1648133376);
  g_assert_cmpint (json_object_get_int_member (o, "host_bytes"), ==, 581153587);
  g_assert_false (json_object_has_member (a, "draft"));
  json_object_unref (a);
}

/* The verdict counts the draft: qwen2.5:32b at 16,384 tokens fits an
 * RTX 3090 with 191,820,032 bytes to spare; its 0.5b draft (683,955,200
 * bytes) leaves 7,864,832 over the budget's edge: tight. */
static void
test_verdict (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) alone = { 0 };
  g_auto(Run) with = { 0 };
  JsonObject *o;

  run_cli (&alone, "predict", "qwen2.5:32b", "--runtime", "llama-server", "--context", "16384", "--parallel", "1",
           "--board", "rtx-3090", "--json", NULL);
  run_cli (&with, "predict", "qwen2.5:32b", "--draft", "qwen2.5:0.5b", "--runtime", "llama-server", "--context", "16384",
           "--parallel", "1", "--board", "rtx-3090", "--json", NULL);
  g_assert_cmpint (alone.status, ==, 0);
  g_assert_cmpint (with.status, ==, 0);
  o = parse (parser, alone.out);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "fits");
  g_assert_cmpint (json_object_get_int_member (o, "total_bytes"), ==, 24077983744);
  g_assert_cmpint (json_object_get_int_member (o, "margin_bytes"), ==, 191820032);
  o = parse (parser, with.out);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "tight");
  g_assert_cmpint (json_object_get_int_member (o, "total_bytes"), ==, 24077983744 + 683955200);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "draft"), "total_bytes"), ==, 683955200);
  /* 24 layers x 2 KV heads x (64 + 64) x 16,384 x 2 bytes */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "draft"), "kv_bytes"), ==,
                   24 * 2 * 128 * 16384 * 2);
}

/* Two GGUF files on the CPU backend, -c 4096 -np 2, flash attention on:
 * the figures tests/llama compares with the real llama-server's buffer
 * lines (13.58 MiB model, 8.00 MiB KV, 14.26 MiB compute, 0.03 MiB output). */
/* A tiny qwen2 target and a draft with the same vocabulary, saved. */
typedef struct {
  char *target;
  char *draft;
} DraftFiles;

static void
draft_files_set_up (DraftFiles    *f,
                    gconstpointer  data)
{
  f->target = write_model (lm_tiny_qwen2 ("target", 8, 1024, 2816, 16, 4, 4096));
  f->draft = write_model (lm_tiny_qwen2 ("draft", 4, 512, 1408, 8, 2, 4096));
}

static void
draft_files_tear_down (DraftFiles    *f,
                       gconstpointer  data)
{
  g_unlink (f->target);
  g_unlink (f->draft);
  g_free (f->target);
  g_free (f->draft);
}

static void
test_files (DraftFiles    *f,
            gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0 };
  JsonObject *o, *d;

  run_cli (&r, "predict", f->target, "--draft", f->draft, "--runtime", "llama-server", "--backend", "cpu",
           "--context", "4096", "--parallel", "2", "--flash-attention", "on", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  d = json_object_get_object_member (o, "draft");
  g_assert_cmpstr (json_object_get_string_member (d, "model"), ==, "draft");
  g_assert_cmpint (json_object_get_int_member (d, "weights_bytes"), ==, 14235648);
  g_assert_cmpint (json_object_get_int_member (d, "kv_bytes"), ==, 4 * 2 * (64 + 64) * 4096 * 2);
  g_assert_cmpint (json_object_get_int_member (d, "compute_bytes"), ==, 14952448);
  g_assert_cmpint (json_object_get_int_member (d, "output_bytes"), ==, 2 * 4096 * 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (d, "devices"), 0),
                                                  "name"), ==, "CPU");
}

/* gguf FILE --draft FILE: the rows under the facts. */
static void
test_files_gguf (DraftFiles    *f,
                 gconstpointer  data)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "gguf", f->target, "--draft", f->draft, "--runtime", "llama-server", "--backend", "cpu",
           "--context", "4096", "--parallel", "2", "--flash-attention", "on", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\n  Draft: weights     0.01 GB (0.01 GiB)\n"
                                   "  Draft: KV cache    0.01 GB (0.01 GiB)\n"
                                   "  Draft: compute     0.01 GB (0.01 GiB)\n"
                                   "  Draft: output      0.00 GB (0.00 GiB)\n"));
  g_assert_nonnull (strstr (r.out, "\n  draft model        draft (llama-server -md) on CPU: 0.04 GB (0.04 GiB) of the total\n"));
}

/* 2,048 tokens against 4,096: llama-server loads it and decodes
 * without speculation; the memory is taken all the same. */
static void
test_files_other_vocabulary (DraftFiles    *f,
                             gconstpointer  data)
{
  g_autofree char *other = write_model (lm_tiny_qwen2 ("other", 4, 512, 1408, 8, 2, 2048));
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0 };
  JsonObject *o, *d;
  JsonArray *notes;
  guint found = 0;

  run_cli (&r, "predict", f->target, "--draft", other, "--runtime", "llama-server", "--backend", "cpu",
           "--context", "4096", "--json", NULL);
  g_unlink (other);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  d = json_object_get_object_member (o, "draft");
  g_assert_false (json_object_get_boolean_member (d, "vocab_compatible"));
  g_assert_cmpint (json_object_get_int_member (d, "kv_bytes"), ==, 4 * 2 * (64 + 64) * 4096 * 2);
  notes = json_object_get_array_member (o, "notes");
  /* One note says so, wherever the other notes put it. */
  for (guint i = 0; i < json_array_get_length (notes); i++)
    if (g_str_has_prefix (json_array_get_string_element (notes, i),
                          "The draft's vocabulary (2,048 tokens) differs from the model's (4,096) by more than 128"))
      found++;
  g_assert_cmpuint (found, ==, 1);
}

/* --mtp on a glm4moe file with one nextn layer, -c 4096 -np 2, CPU: the
 * MTP context's KV is that layer's 2 x (128 + 128) x 4,096 x 2 bytes (the
 * 4.00 MiB llama-server logs), its logits 2 x 4,096 x 4, its compute the
 * model's own buffer (an estimate), no weights of its own. */
static void
test_mtp (void)
{
  g_autofree char *model = write_model (lm_tiny_glm4moe_mtp ());
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0 };
  JsonObject *o, *d;

  run_cli (&r, "predict", model, "--mtp", "--runtime", "llama-server", "--backend", "cpu",
           "--context", "4096", "--parallel", "2", "--json", NULL);
  g_unlink (model);
  g_assert_cmpint (r.status, ==, 0);
  o = parse (parser, r.out);
  d = json_object_get_object_member (o, "draft");
  g_assert_cmpstr (json_object_get_string_member (d, "kind"), ==, "mtp");
  g_assert_cmpint (json_object_get_int_member (d, "mtp_layers"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (d, "weights_bytes"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (d, "kv_bytes"), ==, 2 * (128 + 128) * 4096 * 2);
  g_assert_cmpint (json_object_get_int_member (d, "output_bytes"), ==, 2 * 4096 * 4);
  g_assert_cmpint (json_object_get_int_member (d, "compute_bytes"), ==, term_bytes (o, "compute"));
}

static void
test_mtp_gguf (void)
{
  g_autofree char *model = write_model (lm_tiny_glm4moe_mtp ());
  g_auto(Run) r = { 0 };

  run_cli (&r, "gguf", model, "--mtp", "--runtime", "llama-server", "--context", "4096", NULL);
  g_unlink (model);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\n  MTP: KV cache      0.00 GB (0.00 GiB)\n"));
  g_assert_nonnull (strstr (r.out, "\n  MTP heads          the model's 1 MTP layer (--spec-type draft-mtp) on "));
}

/* A --mtp command line refused as a usage error (exit 2); "MODEL" stands
 * for a GGUF with an MTP layer, "PLAIN" for one without. */
typedef struct {
  const char *path;
  const char *argv[8];
  const char *message;
} MtpRefusal;

static const MtpRefusal mtp_refusals[] = {
  { "/cli-draft/mtp/refuses-no-mtp-layers", { "predict", "PLAIN", "--mtp", "--runtime", "llama-server", NULL },
    "headroom-cli: --mtp: the file has no MTP layers (qwen2.nextn_predict_layers is 0 or missing), and llama-server refuses --spec-type draft-mtp for it\n" },
  { "/cli-draft/mtp/refuses-catalog-model", { "predict", "llama3.1:8b", "--mtp", "--runtime", "llama-server", NULL },
    "headroom-cli: --mtp reads the MTP layers from the model's GGUF file ({arch}.nextn_predict_layers): give the model as FILE.gguf\n" },
  { "/cli-draft/mtp/refuses-ollama", { "predict", "MODEL", "--mtp", NULL },
    "headroom-cli: --mtp sizes llama-server's --spec-type draft-mtp: give --runtime llama-server (Ollama passes it only with draft_num_predict set, server/routes.go)\n" },
  { "/cli-draft/mtp/refuses-with-draft", { "predict", "MODEL", "--mtp", "--draft", "llama3.2:1b", "--runtime", "llama-server", NULL },
    "headroom-cli: --mtp sizes the model's own MTP heads and --draft a model of its own: give one of them\n" },
};

static void
test_mtp_refused (gconstpointer data)
{
  const MtpRefusal *c = data;
  g_autofree char *model = write_model (lm_tiny_glm4moe_mtp ());
  g_autofree char *plain = write_model (lm_tiny_qwen2 ("plain", 2, 256, 512, 4, 2, 512));
  const char *argv[8] = { NULL };
  g_auto(Run) r = { 0 };

  for (guint i = 0; c->argv[i] != NULL; i++)
    argv[i] = g_str_equal (c->argv[i], "MODEL") ? model : g_str_equal (c->argv[i], "PLAIN") ? plain : c->argv[i];
  run_cli_argv (&r, argv);
  g_unlink (model);
  g_unlink (plain);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, c->message);
}

static void
test_refused (void)
{
  {
    g_auto(Run) r = { 0 };

    run_cli (&r, "predict", "llama3.1:8b", "--draft", "llama3.2:1b", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.out, ==, "");
    g_assert_cmpstr (r.err, ==, "headroom-cli: --draft sizes llama-server's draft model (-md): give --runtime llama-server. Ollama passes a model's DRAFT as --spec-type draft-mtp (llm/llama_server.go appendDraftArgs), which loads only MTP or DFlash heads, not a model of its own\n");
  }
  {
    g_auto(Run) r = { 0 };

    run_cli (&r, "predict", "llama3.1:8b", "--draft", "llama3.2:1b", "--runtime", "ollama-0.12", NULL);
    g_assert_cmpint (r.status, ==, 2);
  }
  {
    g_auto(Run) r = { 0 };

    run_cli (&r, "predict", "llama3.1:8b", "--draft", "nosuch", "--runtime", "llama-server", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.err, ==, "headroom-cli: --draft nosuch is neither a catalog model nor a GGUF file\n");
  }
  {
    g_auto(Run) r = { 0 };
    g_autofree char *missing = g_build_filename (dir, "missing.gguf", NULL);
    g_autofree char *expected = g_strdup_printf ("headroom-cli: --draft %s: cannot open %s: No such file or directory\n",
                                                 missing, missing);

    run_cli (&r, "predict", "llama3.1:8b", "--draft", missing, "--runtime", "llama-server", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_cmpstr (r.err, ==, expected);
  }
  {
    g_auto(Run) r = { 0 };

    run_cli (&r, "predict", "llama3.1:8b", "--draft", "llama3.2:1b", "--runtime", "llama-server", "--max-context", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.err, ==, "headroom-cli: --max-context and --best-precision do not count a --draft model yet: give --context instead\n");
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  dir = g_dir_make_tmp ("headroom-draft-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_test_add_func ("/cli-draft/catalog-json", test_catalog_json);
  g_test_add_func ("/cli-draft/verdict", test_verdict);
  g_test_add ("/cli-draft/files/predict", DraftFiles, NULL, draft_files_set_up, test_files, draft_files_tear_down);
  g_test_add ("/cli-draft/files/gguf", DraftFiles, NULL, draft_files_set_up, test_files_gguf, draft_files_tear_down);
  g_test_add ("/cli-draft/files/other-vocabulary", DraftFiles, NULL, draft_files_set_up, test_files_other_vocabulary, draft_files_tear_down);
  g_test_add_func ("/cli-draft/mtp/predict", test_mtp);
  g_test_add_func ("/cli-draft/mtp/gguf", test_mtp_gguf);
  for (guint i = 0; i < G_N_ELEMENTS (mtp_refusals); i++)
    g_test_add_data_func (mtp_refusals[i].path, &mtp_refusals[i], test_mtp_refused);
  g_test_add_func ("/cli-draft/refused", test_refused);
  status = g_test_run ();
  g_rmdir (dir);
  g_free (dir);
  return status;
}
