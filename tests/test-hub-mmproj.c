/* test-hub-mmproj.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Projectors on the Hub (hr-hub-mmproj.c) against the fake Hub
 * (fake-hub.c): a GGUF repository with three mmproj files beside its
 * model, where the one llama.cpp's -hf takes (common/download.cpp
 * find_best_sibling: closest quantization bits) is read by range request
 * and no other; and a safetensors checkpoint whose index names a vision
 * tower, whose headers are then read and the tower sized as the
 * projector. Then `headroom-cli hub` on both, line for line.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "fake-hub.h"
#include "hr-hub-client.h"
#include "hub-test-util.h"
#include "mmproj-fixtures.h"

#define GGUF_REPO "test-org/tiny-vision-GGUF"
#define ST_REPO   "test-org/Tiny-VL"

/* The model, a Q5_K_M (5 bits), and three projectors: F16 (diff 11),
 * F32 (27) and Q8_0 (3): llama.cpp picks Q8_0. Without the projector
 * exclusion "mmproj-F16.gguf" would come first in path order and be taken
 * for the model. */
static void
add_gguf_repo (FakeHub *fake)
{
  g_autoptr(GgufWriter) model = mmproj_write_inline ("llama");
  g_autoptr(GgufWriter) projector = mmproj_write_projector ();
  g_autoptr(GBytes) model_head = g_bytes_new (model->data, model->len);
  g_autoptr(GBytes) projector_head = g_bytes_new (projector->data, projector->len);
  FakeRepo *repo = fake_add_repo (fake, GGUF_REPO, "3333333333333333333333333333333333333333",
                                  "{\"tags\":[\"gguf\",\"license:apache-2.0\"],\"cardData\":{\"license\":\"apache-2.0\"},"
                                  "\"config\":{},\"gguf\":{\"total\":8384,\"architecture\":\"llama\",\"context_length\":2048}}");

  repo_add_file (repo, "README.md", 900, FALSE, NULL, FALSE);
  repo_add_file (repo, "mmproj-F16.gguf", 851251104, TRUE, NULL, TRUE);
  repo_add_file (repo, "mmproj-F32.gguf", 1702502208, TRUE, NULL, TRUE);
  repo_add_file (repo, "mmproj-Q8_0.gguf", projector->len, TRUE, projector_head, TRUE);
  repo_add_file (repo, "tiny-vision-Q5_K_M.gguf", model->len, TRUE, model_head, TRUE);
}

static void
test_gguf_repo (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  const HrHubFile *f;

  add_gguf_repo (fake);
  lookup = run_lookup (client, GGUF_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lookup->gguf_chosen, ==, "tiny-vision-Q5_K_M.gguf");
  g_assert_cmpuint (lookup->gguf_files->len, ==, 1);
  g_assert_cmpuint (lookup->mmproj_files->len, ==, 3);
  f = g_ptr_array_index (lookup->mmproj_files, 0);
  g_assert_cmpstr (f->path, ==, "mmproj-F16.gguf");
  g_assert_cmpuint (f->size, ==, 851251104);
  g_assert_cmpstr (lookup->mmproj_chosen, ==, "mmproj-Q8_0.gguf");
  g_assert_nonnull (lookup->mmproj);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (lookup->mmproj), ==, MMPROJ_FILE_TENSOR_BYTES);
  g_assert_cmpuint (hr_gguf_file_get_file_bytes (lookup->mmproj), ==, 55648);
  g_assert_cmpuint (lookup->spec->projector_bytes, ==, MMPROJ_FILE_TENSOR_BYTES);
  g_assert_nonnull (strstr (lookup->spec->projector_source, "mmproj-Q8_0.gguf's GGUF header"));
  /* one header each: the other projectors are never asked for */
  g_assert_cmpuint (log_count (fake, "mmproj-F16.gguf"), ==, 0);
  g_assert_cmpuint (log_count (fake, "mmproj-F32.gguf"), ==, 0);
  g_assert_cmpuint (log_count (fake, "mmproj-Q8_0.gguf"), >=, 1);
}

/* ------------------------------------------------------------ safetensors */

/* One BF16 shard: the language model's embed_tokens 8x4 (64 B) and
 * lm_head 4x2 (16 B), layer 0's q_proj 4x4 (32 B); the tower's
 * vision_tower.blocks.0.attn.qkv 4x4 (32 B) and
 * multi_modal_projector.linear_1 4x2 (16 B): 80 parameters, 160 bytes, of
 * which the tower 24 parameters, 48 bytes. */
#define ST_JSON \
  "{\"model.embed_tokens.weight\":{\"dtype\":\"BF16\",\"shape\":[8,4],\"data_offsets\":[0,64]}," \
  "\"model.layers.0.self_attn.q_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[4,4],\"data_offsets\":[64,96]}," \
  "\"lm_head.weight\":{\"dtype\":\"BF16\",\"shape\":[4,2],\"data_offsets\":[96,112]}," \
  "\"vision_tower.blocks.0.attn.qkv.weight\":{\"dtype\":\"BF16\",\"shape\":[4,4],\"data_offsets\":[112,144]}," \
  "\"multi_modal_projector.linear_1.weight\":{\"dtype\":\"BF16\",\"shape\":[4,2],\"data_offsets\":[144,160]}}"
#define ST_SHARD "model-00001-of-00001.safetensors"
#define ST_INDEX \
  "{\"metadata\":{\"total_size\":160},\"weight_map\":{" \
  "\"model.embed_tokens.weight\":\"" ST_SHARD "\",\"model.layers.0.self_attn.q_proj.weight\":\"" ST_SHARD "\"," \
  "\"lm_head.weight\":\"" ST_SHARD "\",\"vision_tower.blocks.0.attn.qkv.weight\":\"" ST_SHARD "\"," \
  "\"multi_modal_projector.linear_1.weight\":\"" ST_SHARD "\"}}"
#define ST_CONFIG \
  "{\"architectures\":[\"Qwen2ForCausalLM\"],\"model_type\":\"qwen2\",\"num_hidden_layers\":1,\"hidden_size\":4," \
  "\"num_attention_heads\":2,\"num_key_value_heads\":1,\"intermediate_size\":8,\"vocab_size\":8," \
  "\"max_position_embeddings\":2048,\"torch_dtype\":\"bfloat16\",\"tie_word_embeddings\":false}"

static void
add_st_repo (FakeHub *fake)
{
  FakeRepo *repo = fake_add_repo (fake, ST_REPO, "4444444444444444444444444444444444444444",
                                  "{\"tags\":[\"transformers\",\"safetensors\",\"license:apache-2.0\"],"
                                  "\"cardData\":{\"license\":\"apache-2.0\"},"
                                  "\"config\":{\"architectures\":[\"Qwen2ForCausalLM\"],\"model_type\":\"qwen2\"},"
                                  "\"safetensors\":{\"parameters\":{\"BF16\":80},\"total\":80}}");
  gsize json_len = strlen (ST_JSON);
  GByteArray *head = g_byte_array_new ();
  guint8 len[8];
  g_autoptr(GBytes) head_bytes = NULL;
  g_autoptr(GBytes) config = g_bytes_new_static (ST_CONFIG, strlen (ST_CONFIG));
  g_autoptr(GBytes) index = g_bytes_new_static (ST_INDEX, strlen (ST_INDEX));

  for (guint i = 0; i < 8; i++)
    len[i] = (guint8) (((guint64) json_len >> (8 * i)) & 0xff);
  g_byte_array_append (head, len, 8);
  g_byte_array_append (head, (const guint8 *) ST_JSON, (guint) json_len);
  head_bytes = g_byte_array_free_to_bytes (head);
  repo_add_file (repo, "config.json", g_bytes_get_size (config), FALSE, config, FALSE);
  repo_add_file (repo, "model.safetensors.index.json", g_bytes_get_size (index), FALSE, index, FALSE);
  repo_add_file (repo, ST_SHARD, 8 + json_len + 160, TRUE, head_bytes, TRUE);
}

static void
test_safetensors_tower (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_st_repo (fake);
  lookup = run_lookup (client, ST_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->tower_tensors, ==, 2);
  g_assert_cmpuint (lookup->tower_parameters, ==, 24);
  g_assert_cmpuint (lookup->tower_bytes, ==, 48);
  /* the repository's own counts stay; the spec's weights lose the tower */
  g_assert_cmpuint (lookup->parameters, ==, 80);
  g_assert_cmpuint (lookup->tensor_bytes, ==, 160);
  g_assert_nonnull (lookup->spec);
  g_assert_cmpuint (lookup->spec->projector_bytes, ==, 48);
  g_assert_cmpuint (lookup->spec->parameters, ==, 56);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, 112);
  g_assert_cmpstr (lookup->spec->projector_source, ==,
                   "the safetensors headers: 2 vision/audio tower tensors at the checkpoint's dtype");
  g_assert_cmpuint (log_count (fake, ST_SHARD), >=, 1);
}

/* ------------------------------------------------------------------ cli */

static void
assert_line (const char *out,
             const char *line)
{
  g_autofree char *with_nl = g_strconcat ("\n", line, "\n", NULL);

  if (strstr (out, with_nl) == NULL)
    g_error ("no line “%s” in:\n%s", line, out);
}

static void
test_cli_hub (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  CliRun run;

  add_gguf_repo (fake);
  add_st_repo (fake);
  run_cli (fake, (const char *[]) { "hub", GGUF_REPO, NULL }, &run);
  if (run.status != 0)
    g_printerr ("%s\n%s\n", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "mmproj files        mmproj-F16.gguf, 851,251,104 bytes");
  assert_line (run.out, "                    mmproj-Q8_0.gguf, 55,648 bytes");
  assert_line (run.out, "projector           mmproj-Q8_0.gguf: 3 tensors, 55,296 bytes, 0.00 GB (0.00 GiB), from its header "
                        "(llama.cpp's -hf takes this one with tiny-vision-Q5_K_M.gguf; Ollama counts all its tensors)");
  assert_line (run.out, "  Vision projector   0.00 GB (0.00 GiB)");
  g_assert_nonnull (strstr (run.out, "\n  projector offload  on the GPU: "));
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, (const char *[]) { "hub", ST_REPO, "--json", NULL }, &run);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonObject *root, *tower, *pj;

    g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
    root = json_node_get_object (json_parser_get_root (parser));
    tower = json_object_get_object_member (root, "tower");
    g_assert_cmpint (json_object_get_int_member (tower, "tensors"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (tower, "parameters"), ==, 24);
    g_assert_cmpint (json_object_get_int_member (tower, "bytes"), ==, 48);
    pj = json_object_get_object_member (root, "projector");
    g_assert_cmpint (json_object_get_int_member (pj, "bytes"), ==, 48);
  }
  g_free (run.out);
  g_free (run.err);
  run_cli (fake, (const char *[]) { "hub", ST_REPO, NULL }, &run);
  g_assert_cmpint (run.status, ==, 0);
  assert_line (run.out, "vision tower        2 tensors, 24 parameters, 48 bytes, 0.00 GB (0.00 GiB) at the checkpoint's dtype: "
                        "sized as the projector, apart from the weights");
  g_free (run.out);
  g_free (run.err);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/hub-mmproj/gguf-repo", test_gguf_repo);
  g_test_add_func ("/hub-mmproj/safetensors-tower", test_safetensors_tower);
  g_test_add_func ("/hub-mmproj/cli", test_cli_hub);
  return g_test_run ();
}
