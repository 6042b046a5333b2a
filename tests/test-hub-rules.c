/* test-hub-rules.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rules in the Hub lookup, against the fake Hub (fake-hub.c):
 * a GGUF model split into shards is sized from every shard of the chosen
 * quantization, a GGUF-only repository's context length comes from the
 * header, an index whose total_size disagrees with its shards and an API
 * answer whose safetensors.total disagrees with its per-dtype map are told
 * apart (the detailed figure wins, the output says so), and a GPTQ
 * repository's packed I32 qweight is counted as the weights it holds.
 * Each test asserts the exact counts, bytes and the lines a person reads.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "fake-hub.h"
#include "gguf-writer.h"
#include "hr-hub-client.h"
#include "hr-net-error.h"
#include "hr-memory.h"
#include "hr-units.h"
#include "hub-fixtures.h"
#include "hub-test-util.h"

static void
assert_line (const char *out,
             const char *line)
{
  g_autofree char *with_newline = g_strconcat ("\n", line, "\n", NULL);

  if (strstr (out, with_newline) == NULL)
    g_error ("missing line: %s\nin:\n%s", line, out);
}

/* ------------------------------------------------------------------ */
/* A GGUF model split into 3 shards, and another quantization          */

#define TINY_GGUF_REPO "test-org/Tiny-Llama-GGUF"
#define TINY_GGUF_SHA  "3333333333333333333333333333333333333333"

/* The tiny llama: 2 blocks, embedding 256, FFN 512, 4 heads, 2 KV heads
 * of 64, vocab 1,024, untied output; Q4_K with Q6_K on V, down and the
 * embeddings, as llama.cpp's Q4_K_M. Split by gguf-split: shard 1 holds
 * the metadata, the embeddings and block 0, shard 2 block 1, shard 3 the
 * output. */
static guint
tiny_tensors (GwTensorSpec *out,
              GPtrArray    *names,
              guint        *out_shard_start)
{
  guint n = 0;

#define ADD(nm, nd, d0, d1, ty) G_STMT_START { \
    out[n].name = nm; out[n].n_dims = nd; out[n].dims[0] = d0; out[n].dims[1] = d1; \
    out[n].type = ty; n++; } G_STMT_END

  ADD ("token_embd.weight", 2, 256, 1024, GW_Q6_K);
  for (guint i = 0; i < 2; i++)
    {
      char *nm;

#define NAME(suffix) (nm = g_strdup_printf ("blk.%u." suffix, i), g_ptr_array_add (names, nm), nm)
      ADD (NAME ("attn_norm.weight"), 1, 256, 1, GW_F32);
      ADD (NAME ("attn_q.weight"), 2, 256, 256, GW_Q4_K);
      ADD (NAME ("attn_k.weight"), 2, 256, 128, GW_Q4_K);
      ADD (NAME ("attn_v.weight"), 2, 256, 128, GW_Q6_K);
      ADD (NAME ("attn_output.weight"), 2, 256, 256, GW_Q4_K);
      ADD (NAME ("ffn_gate.weight"), 2, 256, 512, GW_Q4_K);
      ADD (NAME ("ffn_up.weight"), 2, 256, 512, GW_Q4_K);
      ADD (NAME ("ffn_down.weight"), 2, 512, 256, GW_Q6_K);
      ADD (NAME ("ffn_norm.weight"), 1, 256, 1, GW_F32);
#undef NAME
    }
  ADD ("output_norm.weight", 1, 256, 1, GW_F32);
  ADD ("output.weight", 2, 256, 1024, GW_Q6_K);
#undef ADD
  /* Shard 1: the embeddings and block 0; shard 2: block 1; shard 3: the output. */
  out_shard_start[0] = 0;
  out_shard_start[1] = 10;
  out_shard_start[2] = 19;
  out_shard_start[3] = n;
  return n;
}

/* One shard as gguf-split writes it; its file size and its parameters. */
static GBytes *
tiny_shard (guint    shard,
            guint64 *out_size,
            guint64 *out_parameters)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GwTensorSpec specs[32];
  guint start[4];
  guint n = tiny_tensors (specs, names, start);
  guint first = start[shard], last = start[shard + 1];
  GgufWriter *w = gw_new ();
  guint64 offset = 0;

  g_assert_cmpuint (n, ==, 21);
  gw_header (w, 3, last - first, shard == 0 ? 11 : 3);
  if (shard == 0)
    {
      gw_kv_str (w, "general.architecture", "llama");
      gw_kv_str (w, "general.name", "Tiny Llama");
      gw_kv_u32 (w, "general.file_type", 15);
      gw_kv_u32 (w, "llama.block_count", 2);
      gw_kv_u32 (w, "llama.context_length", 8192);
      gw_kv_u32 (w, "llama.embedding_length", 256);
      gw_kv_u32 (w, "llama.feed_forward_length", 512);
      gw_kv_u32 (w, "llama.attention.head_count", 4);
    }
  gw_key (w, "split.no", GW_UINT16); gw_u16 (w, (guint16) shard);
  gw_key (w, "split.count", GW_UINT16); gw_u16 (w, 3);
  gw_key (w, "split.tensors.count", GW_INT32); gw_u32 (w, n);
  *out_parameters = 0;
  for (guint i = first; i < last; i++)
    {
      gw_tensor (w, specs[i].name, specs[i].n_dims, specs[i].dims, specs[i].type, offset);
      offset = gw_align (offset + gw_spec_bytes (&specs[i]), 32);
      *out_parameters += specs[i].dims[0] * (specs[i].n_dims > 1 ? specs[i].dims[1] : 1);
    }
  *out_size = gw_align (w->len, 32) + offset;
  return g_byte_array_free_to_bytes (w);
}

static void
add_tiny_gguf (FakeHub  *fake,
               gboolean  with_part_2,
               guint64  *out_sizes,
               guint64  *out_parameters)
{
  FakeRepo *repo = fake_add_repo (fake, TINY_GGUF_REPO, TINY_GGUF_SHA,
                                  "{\"tags\":[\"gguf\",\"license:apache-2.0\"],\"config\":{},"
                                  "\"gguf\":{\"architecture\":\"llama\",\"context_length\":8192}}");

  repo_add_file (repo, "README.md", 1000, FALSE, NULL, FALSE);
  for (guint s = 0; s < 3; s++)
    {
      g_autofree char *path = g_strdup_printf ("Tiny-Llama-Q4_K_M-%05u-of-00003.gguf", s + 1);
      g_autoptr(GBytes) head = tiny_shard (s, &out_sizes[s], &out_parameters[s]);

      if (s != 1 || with_part_2)
        repo_add_file (repo, path, out_sizes[s], TRUE, head, TRUE);
    }
  repo_add_file (repo, "Tiny-Llama-Q8_0.gguf", 3000000, TRUE, NULL, TRUE);
}

/* A fake Hub with the tiny model in three GGUF shards (and a Q8_0 file). */
typedef struct {
  FakeHub     *fake;
  HrHubClient *client;
  guint64      sizes[3];
  guint64      parameters[3];
  guint64      size_sum;
  guint64      parameter_sum;
} TinyShards;

static void
tiny_shards_set_up (TinyShards    *f,
                    gconstpointer  data)
{
  f->fake = fake_hub_new ();
  f->client = client_for (f->fake, NULL);
  add_tiny_gguf (f->fake, TRUE, f->sizes, f->parameters);
  f->size_sum = f->sizes[0] + f->sizes[1] + f->sizes[2];
  f->parameter_sum = f->parameters[0] + f->parameters[1] + f->parameters[2];
}

static void
tiny_shards_tear_down (TinyShards    *f,
                       gconstpointer  data)
{
  g_clear_object (&f->client);
  g_clear_pointer (&f->fake, fake_hub_free);
}

/* The lookup of the tiny repository. Returns: (transfer full) */
static HrHubLookup *
tiny_shards_lookup (TinyShards *f)
{
  g_autoptr(GError) error = NULL;
  HrHubLookup *lookup = run_lookup (f->client, TINY_GGUF_REPO, NULL, NULL, &error);

  g_assert_no_error (error);
  return lookup;
}

/* The tiny model's tensors: 1,024 x 256 twice, 2 x (2 x 256 x 256 +
 * 2 x 256 x 128 + 3 x 256 x 512 + 2 x 256), and the output norm. */
static void
test_gguf_shards_parameters (TinyShards    *f,
                             gconstpointer  data)
{
  g_assert_cmpuint (f->parameter_sum, ==, 2 * 262144 + 2 * (131072 + 65536 + 393216 + 512) + 256);
  g_assert_cmpuint (f->parameter_sum, ==, 1705216);
}

static void
test_gguf_shards_files (TinyShards    *f,
                        gconstpointer  data)
{
  g_autoptr(HrHubLookup) lookup = tiny_shards_lookup (f);
  const HrHubGgufFile *g;

  g_assert_cmpuint (lookup->gguf_files->len, ==, 2);
  g = g_ptr_array_index (lookup->gguf_files, 0);
  g_assert_cmpstr (g->path, ==, "Tiny-Llama-Q4_K_M-00001-of-00003.gguf");
  g_assert_cmpstr (g->label, ==, "Q4_K_M");
  g_assert_cmpuint (g->parts, ==, 3);
  g_assert_cmpuint (g->size, ==, f->size_sum);
  g_assert_null (g->problem);
  g = g_ptr_array_index (lookup->gguf_files, 1);
  g_assert_cmpstr (g->label, ==, "Q8_0");
  g_assert_cmpuint (g->parts, ==, 1);
}

/* Every shard's header, not the first one's: before, the figures were
 * shard 1's alone. */
static void
test_gguf_shards_every_header (TinyShards    *f,
                               gconstpointer  data)
{
  g_autoptr(HrHubLookup) lookup = tiny_shards_lookup (f);

  g_assert_cmpstr (lookup->gguf_chosen, ==, "Tiny-Llama-Q4_K_M-00001-of-00003.gguf");
  g_assert_cmpuint (lookup->gguf_parts_read, ==, 3);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (lookup->gguf), ==, 21);
  g_assert_cmpuint (lookup->spec->parameters, ==, f->parameter_sum);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, f->size_sum);
  g_assert_cmpuint (lookup->parameters, ==, f->parameter_sum);
  g_assert_cmpstr (lookup->parameters_source, ==, "the GGUF header of Tiny-Llama-Q4_K_M-00001-of-00003.gguf");
  g_assert_cmpuint (lookup->notes->len, ==, 0);
  /* A GGUF-only repository: the context length is the header's. */
  g_assert_null (lookup->config);
  g_assert_cmpuint (lookup->spec->context_length, ==, 8192);
  g_assert_cmpuint (lookup->spec->layers, ==, 2);
  g_assert_cmpuint (log_count (f->fake, "Q8_0.gguf"), ==, 0);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (lookup->gguf), ==, 1183232);
  g_test_message ("shard 1 alone: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " parameters; "
                  "all three: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " parameters",
                  f->sizes[0], f->parameters[0], f->size_sum, f->parameter_sum);
}

static void
test_gguf_shards_cli (TinyShards    *f,
                      gconstpointer  data)
{
  const char * const text_args[] = { "hub", TINY_GGUF_REPO, NULL };
  g_autofree char *size_text = hr_format_count (f->size_sum);
  g_autofree char *bits = hr_format_decimal (hr_memory_effective_bits (f->size_sum, f->parameter_sum), 3);
  g_autofree char *files = g_strdup_printf ("GGUF files          Q4_K_M Tiny-Llama-Q4_K_M-00001-of-00003.gguf, %s bytes over 3 parts",
                                            size_text);
  g_autofree char *header = g_strdup_printf ("GGUF header         Tiny-Llama-Q4_K_M-00001-of-00003.gguf and its other 2 parts: "
                                             "%s bits per weight over %s bytes", bits, size_text);
  /* The weights as stored: every part's tensor data (1,183,232 bytes). */
  g_autofree char *tensor_text = hr_format_count (1183232);
  g_autofree char *weights = g_strdup_printf ("weights (stored)    %s bytes: 0.00 GB (decimal, / 1e9), "
                                              "0.00 GiB (binary, / 1024^3)", tensor_text);
  CliRun run;

  run_cli (f->fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, files);
  assert_line (run.out, header);
  assert_line (run.out, "native context      8,192 tokens (llama.context_length in the GGUF header)");
  assert_line (run.out, weights);
  g_free (run.out);
  g_free (run.err);
}

static void
test_gguf_shards_cli_json (TinyShards    *f,
                           gconstpointer  data)
{
  const char * const json_args[] = { "hub", TINY_GGUF_REPO, "--json", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *obj;
  CliRun run;

  run_cli (f->fake, json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  obj = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (obj, "context_length"), ==, 8192);
  g_assert_cmpint (json_object_get_int_member (obj, "gguf_parts_read"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (obj, "gguf_file_bytes"), ==, (gint64) f->size_sum);
  g_assert_cmpint (json_object_get_int_member (obj, "gguf_parameters"), ==, (gint64) f->parameter_sum);
  g_assert_false (json_object_has_member (obj, "notes"));
  g_free (run.out);
  g_free (run.err);
}

/* A split with part 2 missing: sized from what is there, and said. */
static void
test_gguf_shard_missing (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  guint64 sizes[3], parameters[3];
  const HrHubGgufFile *g;

  add_tiny_gguf (fake, FALSE, sizes, parameters);
  lookup = run_lookup (client, TINY_GGUF_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g = g_ptr_array_index (lookup->gguf_files, 0);
  g_assert_cmpuint (g->size, ==, sizes[0] + sizes[2]);
  g_assert_cmpstr (g->problem, ==, "part 2 of 3 is missing from the repository; the size covers 2 parts");
  g_assert_cmpuint (lookup->gguf_parts_read, ==, 2);
  g_assert_cmpuint (lookup->spec->parameters, ==, parameters[0] + parameters[2]);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, sizes[0] + sizes[2]);
  g_assert_cmpuint (lookup->notes->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (lookup->notes, 0), ==,
                   "Tiny-Llama-Q4_K_M-00001-of-00003.gguf is part 1 of 3, and only 2 of them are in the "
                   "repository: the size and parameters cover those");
}

/* ------------------------------------------------------------------ */
/* safetensors repositories                                            */

/* A safetensors file: the 8-byte length, the JSON header; the data is the
 * fake's zeros. Tensors are "name:DTYPE:d0xd1" and laid out in order. */
static GBytes *
st_file (const char * const *tensors,
         guint64            *out_size,
         guint64            *out_data_bytes)
{
  g_autoptr(GString) json = g_string_new ("{\"__metadata__\":{\"format\":\"pt\"}");
  GByteArray *out = g_byte_array_new ();
  guint64 offset = 0;
  guint8 len[8];

  for (guint i = 0; tensors[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (tensors[i], ":", 3);
      g_auto(GStrv) dims = g_strsplit (f[2], "x", 2);
      guint64 d0 = g_ascii_strtoull (dims[0], NULL, 10);
      guint64 d1 = dims[1] != NULL ? g_ascii_strtoull (dims[1], NULL, 10) : 0;
      guint64 bytes = d0 * (d1 > 0 ? d1 : 1) * hr_safetensors_dtype_bits (f[1]) / 8;

      if (d1 > 0)
        g_string_append_printf (json, ",\"%s\":{\"dtype\":\"%s\",\"shape\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "],"
                                "\"data_offsets\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]}",
                                f[0], f[1], d0, d1, offset, offset + bytes);
      else
        g_string_append_printf (json, ",\"%s\":{\"dtype\":\"%s\",\"shape\":[%" G_GUINT64_FORMAT "],"
                                "\"data_offsets\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]}",
                                f[0], f[1], d0, offset, offset + bytes);
      offset += bytes;
    }
  g_string_append (json, "}");
  for (guint i = 0; i < 8; i++)
    len[i] = (guint8) ((guint64) json->len >> (8 * i));
  g_byte_array_append (out, len, 8);
  g_byte_array_append (out, (const guint8 *) json->str, json->len);
  *out_size = 8 + json->len + offset;
  *out_data_bytes = offset;
  return g_byte_array_free_to_bytes (out);
}

static void
add_bytes_file (FakeRepo   *repo,
                const char *path,
                const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  repo_add_file (repo, path, strlen (text), FALSE, bytes, FALSE);
}

/* An older tiny llama config without a dtype: the index's total_size
 * gives no parameter count, the shards' headers do. */
#define TINY_CONFIG \
  "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":256," \
  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":1,\"intermediate_size\":512," \
  "\"vocab_size\":1024,\"tie_word_embeddings\":false,\"max_position_embeddings\":4096}"

static void
test_index_disagrees (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const shard1[] = { "model.embed_tokens.weight:F32:1024x256",
                                         "model.layers.0.self_attn.q_proj.weight:F32:256x256", NULL };
  static const char * const shard2[] = { "model.layers.0.mlp.down_proj.weight:F32:256x512",
                                         "lm_head.weight:F32:1024x256", NULL };
  guint64 size1, size2, data1, data2;
  g_autoptr(GBytes) head1 = st_file (shard1, &size1, &data1);
  g_autoptr(GBytes) head2 = st_file (shard2, &size2, &data2);
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-sharded", "4444444444444444444444444444444444444444",
                                  "{\"tags\":[\"license:apache-2.0\"]}");
  g_autofree char *index = NULL;
  g_autofree char *note = NULL;
  const char * const text_args[] = { "hub", "test-org/tiny-sharded", NULL };
  CliRun run;

  /* The index says 4,096 bytes more than the shards hold. */
  index = g_strdup_printf ("{\"metadata\":{\"total_size\":%" G_GUINT64_FORMAT "},\"weight_map\":{"
                           "\"model.embed_tokens.weight\":\"model-00001-of-00002.safetensors\","
                           "\"model.layers.0.self_attn.q_proj.weight\":\"model-00001-of-00002.safetensors\","
                           "\"model.layers.0.mlp.down_proj.weight\":\"model-00002-of-00002.safetensors\","
                           "\"lm_head.weight\":\"model-00002-of-00002.safetensors\"}}", data1 + data2 + 4096);
  add_bytes_file (repo, "config.json", TINY_CONFIG);
  add_bytes_file (repo, "model.safetensors.index.json", index);
  repo_add_file (repo, "model-00001-of-00002.safetensors", size1, TRUE, head1, TRUE);
  repo_add_file (repo, "model-00002-of-00002.safetensors", size2, TRUE, head2, TRUE);

  lookup = run_lookup (client, "test-org/tiny-sharded", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (data1 + data2, ==, 4 * (2 * 262144 + 65536 + 131072));
  g_assert_cmpuint (lookup->tensor_bytes, ==, 2883584);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, 2883584);
  g_assert_cmpuint (lookup->parameters, ==, 720896);
  g_assert_cmpuint (lookup->n_tensors, ==, 4);
  g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors headers of 2 files");
  g_assert_cmpuint (lookup->notes->len, ==, 1);
  note = g_strdup ("model.safetensors.index.json total_size gives 2,887,680 bytes but the headers of 2 shards "
                   "add up to 2,883,584 bytes (4,096 apart); using 2,883,584");
  g_assert_cmpstr (g_ptr_array_index (lookup->notes, 0), ==, note);
  /* The index lists lm_head.weight: not tied. */
  g_assert_false (lookup->config->tied_embeddings);
  g_assert_cmpstr (lookup->config->tied_source, ==, "the weights list lm_head.weight: not tied");

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autofree char *line = g_strconcat ("figures disagree    ", note, NULL);

    assert_line (run.out, line);
  }
  assert_line (run.out, "tensors             4, 2,883,584 bytes of tensor data");
  g_free (run.out);
  g_free (run.err);
}

/* With a bf16 config (so the index alone would give a count),
 * an index total_size far from the shards' headers (10^15, double, half,
 * smaller) never wins: the headers are read, their bytes and count are
 * used, and the disagreement is said. */
#define TINY_CONFIG_BF16_DTYPE \
  "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":256," \
  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":1,\"intermediate_size\":512," \
  "\"vocab_size\":1024,\"tie_word_embeddings\":false,\"max_position_embeddings\":4096,\"torch_dtype\":\"bfloat16\"}"

static void
test_index_total_never_wins (void)
{
  static const char * const shard1[] = { "model.embed_tokens.weight:BF16:1024x256",
                                         "model.layers.0.self_attn.q_proj.weight:BF16:256x256", NULL };
  static const char * const shard2[] = { "model.layers.0.mlp.down_proj.weight:BF16:256x512",
                                         "lm_head.weight:BF16:1024x256", NULL };
  guint64 size1, size2, data1, data2;
  g_autoptr(GBytes) head1 = st_file (shard1, &size1, &data1);
  g_autoptr(GBytes) head2 = st_file (shard2, &size2, &data2);
  guint64 totals[] = { G_GUINT64_CONSTANT (1000000000000000), 0, 0, 0 };

  totals[1] = 2 * (data1 + data2);
  totals[2] = (data1 + data2) / 2;
  totals[3] = data1 + data2 - 2;
  for (guint i = 0; i < G_N_ELEMENTS (totals); i++)
    {
      g_autoptr(FakeHub) fake = fake_hub_new ();
      g_autoptr(HrHubClient) client = client_for (fake, NULL);
      g_autoptr(HrHubLookup) lookup = NULL;
      g_autoptr(GError) error = NULL;
      FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-bf16", "4444444444444444444444444444444444444445",
                                      "{\"tags\":[\"license:apache-2.0\"]}");
      g_autofree char *index = g_strdup_printf (
        "{\"metadata\":{\"total_size\":%" G_GUINT64_FORMAT "},\"weight_map\":{"
        "\"model.embed_tokens.weight\":\"model-00001-of-00002.safetensors\","
        "\"model.layers.0.self_attn.q_proj.weight\":\"model-00001-of-00002.safetensors\","
        "\"model.layers.0.mlp.down_proj.weight\":\"model-00002-of-00002.safetensors\","
        "\"lm_head.weight\":\"model-00002-of-00002.safetensors\"}}", totals[i]);
      g_autofree char *total = hr_format_count (totals[i]);
      g_autofree char *note = NULL;
      gboolean said = FALSE;

      add_bytes_file (repo, "config.json", TINY_CONFIG_BF16_DTYPE);
      add_bytes_file (repo, "model.safetensors.index.json", index);
      repo_add_file (repo, "model-00001-of-00002.safetensors", size1, TRUE, head1, TRUE);
      repo_add_file (repo, "model-00002-of-00002.safetensors", size2, TRUE, head2, TRUE);

      lookup = run_lookup (client, "test-org/tiny-bf16", NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (lookup->tensor_bytes, ==, data1 + data2);
      g_assert_cmpuint (lookup->parameters, ==, 720896);
      g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors headers of 2 files");
      for (guint j = 0; j < lookup->parameters_by_dtype->len; j++)
        g_assert_cmpuint (((HrSafetensorsDtype *) g_ptr_array_index (lookup->parameters_by_dtype, j))->bytes, <=, data1 + data2);
      note = g_strdup_printf ("model.safetensors.index.json total_size gives %s bytes but the headers of 2 shards "
                              "add up to 1,441,792 bytes (", total);
      for (guint j = 0; j < lookup->notes->len; j++)
        said |= g_str_has_prefix (g_ptr_array_index (lookup->notes, j), note);
      g_assert_true (said);
    }
}

/* The API's safetensors.total against its own per-dtype map (the issue's
 * figures: 333,312 against 7,615,616,512). */
static void
test_api_total_disagrees (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  FakeRepo *repo = fake_add_repo (fake, "test-org/api-disagrees", "5555555555555555555555555555555555555555",
                                  "{\"tags\":[\"license:apache-2.0\"],"
                                  "\"safetensors\":{\"parameters\":{\"BF16\":7615616512},\"total\":333312}}");
  const char * const json_args[] = { "hub", "test-org/api-disagrees", "--json", NULL };
  const char * const text_args[] = { "hub", "test-org/api-disagrees", NULL };
  const char *note = "the Hub's safetensors.total gives 333,312 parameters but its per-dtype parameters add up "
                     "to 7,615,616,512 parameters (7,615,283,200 apart); using 7,615,616,512";
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *notes;
  CliRun run;

  repo_add_file (repo, "README.md", 100, FALSE, NULL, FALSE);
  lookup = run_lookup (client, "test-org/api-disagrees", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->parameters, ==, 7615616512);
  g_assert_cmpstr (lookup->parameters_source, ==, "the Hub API (safetensors field)");
  g_assert_cmpuint (lookup->notes->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (lookup->notes, 0), ==, note);

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "parameters          7,615,616,512 (BF16 7,615,616,512), from the Hub API (safetensors field)");
  {
    g_autofree char *line = g_strconcat ("figures disagree    ", note, NULL);

    assert_line (run.out, line);
  }
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  notes = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "notes");
  g_assert_cmpuint (json_array_get_length (notes), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (notes, 0), ==, note);
  g_free (run.out);
  g_free (run.err);
}

/* GPTQ at 4 bits, group 128: qweight I32 [in / 8, out], qzeros I32
 * [in / 128, out / 8], scales F16 [in / 128, out], g_idx I32 [in]
 * (AutoGPTQ's layout); the embeddings, norms and lm_head stay F16. */
#define GPTQ_CONFIG \
  "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":256," \
  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":1,\"intermediate_size\":512," \
  "\"vocab_size\":1024,\"tie_word_embeddings\":false,\"max_position_embeddings\":4096,\"torch_dtype\":\"float16\"," \
  "\"quantization_config\":{\"quant_method\":\"gptq\",\"bits\":4,\"group_size\":128,\"desc_act\":false}}"

static char **
gptq_tensors (void)
{
  static const char * const linear[][3] = {
    { "self_attn.q_proj", "256", "256" }, { "self_attn.k_proj", "256", "128" },
    { "self_attn.v_proj", "256", "128" }, { "self_attn.o_proj", "256", "256" },
    { "mlp.gate_proj", "256", "512" }, { "mlp.up_proj", "256", "512" }, { "mlp.down_proj", "512", "256" },
  };
  GPtrArray *b = g_ptr_array_new ();

  g_ptr_array_add (b, g_strdup ("model.embed_tokens.weight:F16:1024x256"));
  for (guint i = 0; i < G_N_ELEMENTS (linear); i++)
    {
      guint64 in = g_ascii_strtoull (linear[i][1], NULL, 10);
      guint64 out = g_ascii_strtoull (linear[i][2], NULL, 10);

      g_ptr_array_add (b, g_strdup_printf ("model.layers.0.%s.qweight:I32:%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT,
                                               linear[i][0], in / 8, out));
      g_ptr_array_add (b, g_strdup_printf ("model.layers.0.%s.qzeros:I32:%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT,
                                               linear[i][0], in / 128, out / 8));
      g_ptr_array_add (b, g_strdup_printf ("model.layers.0.%s.scales:F16:%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT,
                                               linear[i][0], in / 128, out));
      g_ptr_array_add (b, g_strdup_printf ("model.layers.0.%s.g_idx:I32:%" G_GUINT64_FORMAT, linear[i][0], in));
    }
  g_ptr_array_add (b, g_strdup ("model.layers.0.input_layernorm.weight:F16:256"));
  g_ptr_array_add (b, g_strdup ("model.layers.0.post_attention_layernorm.weight:F16:256"));
  g_ptr_array_add (b, g_strdup ("model.norm.weight:F16:256"));
  g_ptr_array_add (b, g_strdup ("lm_head.weight:F16:1024x256"));
  g_ptr_array_add (b, NULL);
  return (char **) g_ptr_array_free (b, FALSE);
}

/* The Hub's map counts the I32 containers (qweight, qzeros, g_idx) and
 * the F16 elements (embeddings, lm_head, norms, scales). */
#define GPTQ_LINEAR (2 * 65536 + 2 * 32768 + 3 * 131072)   /* in x out, summed: 589,824 */
#define GPTQ_I32 (GPTQ_LINEAR / 8 + GPTQ_LINEAR / 1024 + (6 * 256 + 512))
#define GPTQ_F16 (2 * 262144 + 3 * 256 + GPTQ_LINEAR / 128)
/* Embeddings, lm_head, 3 norms and the linear layers' weights. */
#define GPTQ_EXPECTED (2 * 262144 + 3 * 256 + GPTQ_LINEAR)
#define GPTQ_NOTE "the Hub API counts 606,016 parameters, each packed container as one; unpacking the " \
                  "73,728 packed elements in the header of 1 shard gives 1,114,880; using 1,114,880"

/* A fake Hub with a tiny GPTQ repository; @data set to its safetensors'
 * data bytes. Returns: (transfer full) */
static FakeHub *
gptq_hub (guint64 *data)
{
  FakeHub *fake = fake_hub_new ();
  g_auto(GStrv) tensors = gptq_tensors ();
  guint64 size;
  g_autoptr(GBytes) head = st_file ((const char * const *) tensors, &size, data);
  g_autofree char *info = g_strdup_printf ("{\"tags\":[\"license:apache-2.0\"],"
                                           "\"config\":{\"model_type\":\"llama\",\"quantization_config\":{\"quant_method\":\"gptq\",\"bits\":4}},"
                                           "\"safetensors\":{\"parameters\":{\"F16\":%" G_GUINT64_FORMAT ",\"I32\":%" G_GUINT64_FORMAT "},"
                                           "\"total\":%" G_GUINT64_FORMAT "}}",
                                           (guint64) GPTQ_F16, (guint64) GPTQ_I32, (guint64) (GPTQ_F16 + GPTQ_I32));
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-gptq", "6666666666666666666666666666666666666666", info);

  add_bytes_file (repo, "config.json", GPTQ_CONFIG);
  repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);
  return fake;
}

static void
test_gptq_packed (void)
{
  guint64 data;
  g_autoptr(FakeHub) fake = gptq_hub (&data);
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubLookup) lookup = run_lookup (client, "test-org/tiny-gptq", NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (GPTQ_EXPECTED, ==, 1114880);
  /* Before: the API's 606,016 containers and elements. */
  g_assert_cmpuint (GPTQ_F16 + GPTQ_I32, ==, 606016);
  g_assert_cmpuint (lookup->parameters, ==, GPTQ_EXPECTED);
  g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors header of 1 file");
  g_assert_cmpuint (lookup->tensor_bytes, ==, data);
  g_assert_cmpuint (data, ==, 4 * GPTQ_I32 + 2 * GPTQ_F16);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, data);
  g_assert_true (lookup->has_derived);
  g_assert_cmpuint (lookup->derived.total, ==, GPTQ_EXPECTED);
  g_assert_cmpstr (lookup->derived_comparison, ==, "the same count as the stored 1,114,880");
  g_assert_cmpuint (lookup->notes->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (lookup->notes, 0), ==, GPTQ_NOTE);
}

static void
test_gptq_packed_cli (void)
{
  guint64 data;
  g_autoptr(FakeHub) fake = gptq_hub (&data);
  const char * const text_args[] = { "hub", "test-org/tiny-gptq", NULL };
  g_autofree char *data_text = hr_format_count (data);
  g_autofree char *line = g_strdup_printf ("weights (stored)    %s bytes: 0.00 GB (decimal, / 1e9), 0.00 GiB (binary, / 1024^3)", data_text);
  CliRun run;

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "config check        1,114,880 derived from config.json: the same count as the stored 1,114,880");
  assert_line (run.out, "figures disagree    " GPTQ_NOTE);
  assert_line (run.out, line);
  g_free (run.out);
  g_free (run.err);
}

/* ------------------------------------------------------------------ */
/* Broken weights files and a forbidden LICENSE              */

/* A safetensors file of @json as its header, with @data_bytes of data. */
static GBytes *
st_raw (const char *json,
        guint64     data_bytes,
        guint64    *out_size)
{
  GByteArray *out = g_byte_array_new ();
  gsize len = strlen (json);
  guint8 n[8];

  for (guint i = 0; i < 8; i++)
    n[i] = (guint8) ((guint64) len >> (8 * i));
  g_byte_array_append (out, n, 8);
  g_byte_array_append (out, (const guint8 *) json, len);
  *out_size = 8 + len + data_bytes;
  return g_byte_array_free_to_bytes (out);
}

/* A model.safetensors whose header is `{}` is no model that fits. */
static void
test_empty_header (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  guint64 size;
  g_autoptr(GBytes) head = st_raw ("{}", 0, &size);
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-empty", "7777777777777777777777777777777777777777",
                                  "{\"tags\":[\"license:apache-2.0\"]}");
  const char * const text_args[] = { "hub", "test-org/tiny-empty", NULL };
  const char *said = "The safetensors header of model.safetensors could not be read: The safetensors header lists no tensors";
  CliRun run;

  add_bytes_file (repo, "config.json", TINY_CONFIG);
  repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);

  lookup = run_lookup (client, "test-org/tiny-empty", NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE);
  g_assert_cmpstr (error->message, ==, said);

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, !=, 0);
  {
    g_autofree char *line = g_strconcat ("headroom-cli: ", said, "\n", NULL);

    g_assert_cmpstr (run.err, ==, line);
  }
  g_assert_null (strstr (run.out, "fits"));
  g_free (run.out);
  g_free (run.err);
}

/* A 3-byte model.safetensors is too short to hold a header,
 * and says so (not "contains a NUL byte"). */
static void
test_short_file (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) head = g_bytes_new ("\x01\x00\x00", 3);
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-short", "7777777777777777777777777777777777777778",
                                  "{\"tags\":[\"license:apache-2.0\"]}");

  add_bytes_file (repo, "config.json", TINY_CONFIG);
  repo_add_file (repo, "model.safetensors", 3, TRUE, head, TRUE);

  lookup = run_lookup (client, "test-org/tiny-short", NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED);
  g_assert_cmpstr (error->message, ==,
                   "The safetensors file model.safetensors is 3 bytes, too short to hold a header "
                   "(8 bytes of length, then the JSON)");
}

/* Model info without a siblings list (some mirrors, the
 * expand forms) still reads config.json and the weights' headers; only a
 * config.json that is really missing is said to be. */
static void
test_no_siblings (void)
{
  static const char * const tensors[] = { "model.embed_tokens.weight:F32:1024x256", "lm_head.weight:F32:1024x256", NULL };
  guint64 size, data;
  g_autoptr(GBytes) head = st_file (tensors, &size, &data);

  for (guint with_config = 0; with_config < 2; with_config++)
    {
      g_autoptr(FakeHub) fake = fake_hub_new ();
      g_autoptr(HrHubClient) client = client_for (fake, NULL);
      g_autoptr(HrHubLookup) lookup = NULL;
      g_autoptr(GError) error = NULL;
      FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-nosiblings", "7777777777777777777777777777777777777779",
                                      "{\"tags\":[\"license:apache-2.0\"]}");

      repo->no_siblings = TRUE;
      if (with_config)
        add_bytes_file (repo, "config.json", TINY_CONFIG);
      repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);

      lookup = run_lookup (client, "test-org/tiny-nosiblings", NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (lookup->parameters, ==, 2 * 262144);
      if (with_config)
        {
          g_assert_null (lookup->config_problem);
          g_assert_nonnull (lookup->config);
          g_assert_cmpuint (lookup->config->hidden_size, ==, 256);
        }
      else
        g_assert_cmpstr (lookup->config_problem, ==, "the repository has no config.json");
    }
}

/* Shards the file list gives only sizes for (no LFS entry) are
 * sized from their headers; a shard whose header cannot be fetched is
 * named, and the other shards' figures are kept. */
static void
test_shard_header_unreadable (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const shard1[] = { "model.embed_tokens.weight:F32:1024x256",
                                         "model.layers.0.self_attn.q_proj.weight:F32:256x256", NULL };
  static const char * const shard2[] = { "model.layers.0.mlp.down_proj.weight:F32:256x512",
                                         "lm_head.weight:F32:1024x256", NULL };
  guint64 size1, size2, data1, data2;
  g_autoptr(GBytes) head1 = st_file (shard1, &size1, &data1);
  g_autoptr(GBytes) head2 = st_file (shard2, &size2, &data2);
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-halfread", "4444444444444444444444444444444444444446",
                                  "{\"tags\":[\"license:apache-2.0\"]}");
  gboolean named = FALSE;

  add_bytes_file (repo, "config.json", TINY_CONFIG);
  /* Not LFS: the file list gives their sizes only. */
  repo_add_file (repo, "model-00001-of-00002.safetensors", size1, FALSE, head1, TRUE);
  repo_add_file (repo, "model-00002-of-00002.safetensors", size2, FALSE, head2, TRUE);
  fake_fault (fake, "/test-org/tiny-halfread/resolve/4444444444444444444444444444444444444446/model-00002",
              500, NULL, "Internal Error");

  lookup = run_lookup (client, "test-org/tiny-halfread", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->tensor_bytes, ==, data1);
  g_assert_cmpuint (lookup->parameters, ==, 262144 + 65536);
  g_assert_cmpuint (lookup->n_tensors, ==, 2);
  for (guint i = 0; i < lookup->notes->len; i++)
    {
      g_test_message ("%s", (char *) g_ptr_array_index (lookup->notes, i));
      named |= g_strcmp0 (g_ptr_array_index (lookup->notes, i),
                          "the header of model-00002-of-00002.safetensors could not be read (HTTP 500): "
                          "the figures cover the other 1 shard only") == 0;
    }
  g_assert_true (named);
}

#define TINY_CONFIG_BF16 \
  "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":256," \
  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":1,\"intermediate_size\":512," \
  "\"vocab_size\":1024,\"tie_word_embeddings\":false,\"max_position_embeddings\":4096,\"torch_dtype\":\"bfloat16\"}"

/* A tensor of a dtype this version does not know. */
static void
test_unknown_dtype (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  guint64 size;
  /* 1024 x 256 embeddings and lm_head in an invented 8-bit type, a
   * 256 x 256 projection in BF16; config.json says bfloat16. */
  g_autoptr(GBytes) head = st_raw ("{\"model.embed_tokens.weight\":{\"dtype\":\"F8_E3M4X\",\"shape\":[1024,256],\"data_offsets\":[0,262144]},"
                                   "\"model.layers.0.self_attn.q_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[256,256],\"data_offsets\":[262144,393216]},"
                                   "\"lm_head.weight\":{\"dtype\":\"F8_E3M4X\",\"shape\":[1024,256],\"data_offsets\":[393216,655360]}}",
                                   655360, &size);
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-odd", "8888888888888888888888888888888888888888",
                                  "{\"tags\":[\"license:apache-2.0\"]}");
  const char * const text_args[] = { "hub", "test-org/tiny-odd", NULL };
  const char * const json_args[] = { "hub", "test-org/tiny-odd", "--json", NULL };
  const char *said = "F8_E3M4X (524,288 elements in 524,288 bytes): an element size Headroom does not know, "
                     "so those bytes are the headers' data_offsets, unchecked";
  CliRun run;

  add_bytes_file (repo, "config.json", TINY_CONFIG_BF16);
  repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);

  lookup = run_lookup (client, "test-org/tiny-odd", NULL, NULL, &error);
  g_assert_no_error (error);
  /* Its elements are counted from the shapes, its bytes from data_offsets,
   * and the lookup says so instead of taking it for config.json's bf16. */
  g_assert_cmpuint (lookup->parameters, ==, 2 * 262144 + 65536);
  g_assert_cmpuint (lookup->tensor_bytes, ==, 655360);
  g_assert_cmpstr (lookup->unknown_dtypes, ==, said);

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "parameters          589,824 (BF16 65,536, F8_E3M4X 524,288), from the safetensors header of 1 file");
  {
    g_autofree char *line = g_strconcat ("unknown dtype       ", said, NULL);

    assert_line (run.out, line);
  }
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autofree char *member = g_strdup_printf ("\"unknown_dtypes\" : \"%s\"", said);

    g_assert_nonnull (strstr (run.out, member));
  }
  g_free (run.out);
  g_free (run.err);
}

/* google/gemma-3-12b-it (tests/fixtures/configs/gemma-3-12b-it-config.json):
 * text_config has no head_dim, vocab_size or sliding_window_pattern, so
 * Gemma3TextConfig's defaults apply (256, 262,208, a pattern of 6); `hub`
 * then sizes llama.cpp's KV cache: 40 sliding layers x 1,536 cells + 8
 * global layers x 4,096, at 2 x 8 x 256 x 2 bytes (f16) = 771,751,936
 * bytes, where all 48 layers sliding at head dim 240 gave 566,231,040. */
static void
test_gemma3_defaults (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_SOURCE_DIR"), "tests", "fixtures", "configs",
                                            "gemma-3-12b-it-config.json", NULL);
  g_autofree char *config = NULL;
  guint64 size;
  /* One BF16 tensor stands for the weights; the KV cache does not depend on them. */
  g_autoptr(GBytes) head = st_raw ("{\"language_model.model.embed_tokens.weight\":{\"dtype\":\"BF16\","
                                   "\"shape\":[256,256],\"data_offsets\":[0,131072]}}", 131072, &size);
  FakeRepo *repo = fake_add_repo (fake, "google/gemma-3-12b-it", "9999999999999999999999999999999999999999",
                                  "{\"tags\":[\"license:gemma\"]}");
  const char * const text_args[] = { "hub", "google/gemma-3-12b-it", "--context", "4096", "--parallel", "1",
                                     "--kv-type", "f16", "--runtime", "ollama-0.30", NULL };
  const char * const json_args[] = { "hub", "google/gemma-3-12b-it", "--context", "32768", "--parallel", "1",
                                     "--kv-type", "f16", "--runtime", "ollama-0.30", "--json", NULL };
  CliRun run;

  g_assert_true (g_file_get_contents (path, &config, NULL, NULL));
  add_bytes_file (repo, "config.json", config);
  repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "head dim            256 (transformers default (configuration_gemma3.py head_dim): 256)");
  assert_line (run.out, "vocab               262,208");
  assert_line (run.out, "sliding window      1024 tokens, on 40 of 48 layers");
  assert_line (run.out, "defaults            head_dim: transformers default (configuration_gemma3.py head_dim): 256");
  assert_line (run.out, "  KV cache           0.77 GB (0.72 GiB)");
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  /* 40 x 1,536 x 8,192 + 8 x 32,768 x 8,192 bytes: llama.cpp's 2.65 GB. */
  g_assert_nonnull (strstr (run.out, "\"bytes\" : 2650800128"));
  g_free (run.out);
  g_free (run.err);
}

/* A 403 on LICENSE alone: the lookup goes on with the card's license. */
static void
test_license_forbidden (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  const char * const text_args[] = { "hub", QWEN_REPO, NULL };
  const char * const json_args[] = { "hub", QWEN_REPO, "--json", NULL };
  const char *said = "LICENSE could not be read (HTTP 403); the license shown is the model card's";
  CliRun run;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  fake_fault (fake, "/" QWEN_REPO "/resolve/" QWEN_SHA "/LICENSE", 403, NULL, "Forbidden");

  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lookup->license, ==, "other");
  g_assert_cmpstr (lookup->license_name, ==, "qwen-research");
  g_assert_null (lookup->license_file);
  g_assert_cmpstr (lookup->license_unread, ==, said);
  /* The rest of the lookup is whole. */
  g_assert_cmpuint (lookup->spec->parameters, ==, 3085938688);

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "license             other (qwen-research)");
  {
    g_autofree char *line = g_strconcat ("license file        ", said, NULL);

    assert_line (run.out, line);
  }
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autofree char *member = g_strdup_printf ("\"license_unread\" : \"%s\"", said);

    g_assert_nonnull (strstr (run.out, member));
  }
  g_free (run.out);
  g_free (run.err);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HF_ENDPOINT");

  g_test_add ("/hub-rules/gguf-shards/parameters", TinyShards, NULL, tiny_shards_set_up, test_gguf_shards_parameters, tiny_shards_tear_down);
  g_test_add ("/hub-rules/gguf-shards/files", TinyShards, NULL, tiny_shards_set_up, test_gguf_shards_files, tiny_shards_tear_down);
  g_test_add ("/hub-rules/gguf-shards/every-header", TinyShards, NULL, tiny_shards_set_up, test_gguf_shards_every_header, tiny_shards_tear_down);
  g_test_add ("/hub-rules/gguf-shards/cli", TinyShards, NULL, tiny_shards_set_up, test_gguf_shards_cli, tiny_shards_tear_down);
  g_test_add ("/hub-rules/gguf-shards/cli-json", TinyShards, NULL, tiny_shards_set_up, test_gguf_shards_cli_json, tiny_shards_tear_down);
  g_test_add_func ("/hub-rules/gguf-shard-missing", test_gguf_shard_missing);
  g_test_add_func ("/hub-rules/index-disagrees", test_index_disagrees);
  g_test_add_func ("/hub-rules/index-total-never-wins", test_index_total_never_wins);
  g_test_add_func ("/hub-rules/api-total-disagrees", test_api_total_disagrees);
  g_test_add_func ("/hub-rules/gptq-packed/lookup", test_gptq_packed);
  g_test_add_func ("/hub-rules/gptq-packed/cli", test_gptq_packed_cli);
  g_test_add_func ("/hub-rules/empty-header", test_empty_header);
  g_test_add_func ("/hub-rules/short-file", test_short_file);
  g_test_add_func ("/hub-rules/no-siblings", test_no_siblings);
  g_test_add_func ("/hub-rules/shard-header-unreadable", test_shard_header_unreadable);
  g_test_add_func ("/hub-rules/unknown-dtype", test_unknown_dtype);
  g_test_add_func ("/hub-rules/license-forbidden", test_license_forbidden);
  g_test_add_func ("/hub-rules/gemma3-defaults", test_gemma3_defaults);

  return g_test_run ();
}
