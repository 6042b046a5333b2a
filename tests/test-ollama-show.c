/* test-ollama-show.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * /api/show answers mapped to a model spec (docs/ollama.md, "/api/show").
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "hr-error.h"
#include "hr-ollama-show.h"
#include "hr-runtime.h"

static HrOllamaShow *
parse (const char  *json,
       GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  return hr_ollama_show_parse (json_parser_get_root (parser), "m:1", error);
}

/* Shaped like llama3.2:3b's answer: parameters as a double, no key_length,
 * an array hidden as null, a tied Q6_K embedding. Tensor bytes from ggml's
 * block sizes: Q6_K 210 bytes per 256 weights, Q4_K 144 per 256, F32 4. */
static const char *llama_like =
  "{\"details\": {\"family\": \"llama\", \"parameter_size\": \"3.2B\", \"quantization_level\": \"Q4_K_M\"},"
  " \"model_info\": {"
  "  \"general.architecture\": \"llama\","
  "  \"general.parameter_count\": 3.212749888e9,"
  "  \"general.file_type\": 15,"
  "  \"llama.block_count\": 28,"
  "  \"llama.embedding_length\": 3072,"
  "  \"llama.attention.head_count\": 24,"
  "  \"llama.attention.head_count_kv\": 8,"
  "  \"llama.context_length\": 131072,"
  "  \"llama.vocab_size\": 128256,"
  "  \"tokenizer.ggml.tokens\": null},"
  " \"tensors\": ["
  "  {\"name\": \"token_embd.weight\", \"type\": \"Q6_K\", \"shape\": [3072, 128256]},"
  "  {\"name\": \"blk.0.attn_q.weight\", \"type\": \"Q4_K\", \"shape\": [3072, 3072]},"
  "  {\"name\": \"blk.0.attn_k.weight\", \"type\": \"Q4_K\", \"shape\": [3072, 1024]},"
  "  {\"name\": \"output_norm.weight\", \"type\": \"F32\", \"shape\": [3072]}],"
  " \"capabilities\": [\"completion\", \"tools\"]}";

static void
test_llama_like (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = parse (llama_like, &error);
  HrModelSpec *spec;
  /* 323,205,120 (the embedding: 12 blocks x 210 bytes x 128256 rows, the
   * 308.23 MiB llama.cpp maps on the host) + 5,308,416 + 1,769,472 + 12,288 */
  const guint64 weights = 323205120 + 5308416 + 1769472 + 12288;

  g_assert_no_error (error);
  g_assert_nonnull (show);
  spec = show->spec;
  g_assert_cmpstr (spec->name, ==, "m:1");
  g_assert_cmpstr (spec->architecture, ==, "llama");
  g_assert_cmpuint (spec->parameters, ==, 3212749888);
  g_assert_cmpuint (spec->layers, ==, 28);
  g_assert_cmpuint (spec->heads, ==, 24);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_null (spec->layer_kv_heads);
  g_assert_cmpuint (spec->key_length, ==, 128);
  g_assert_cmpuint (spec->value_length, ==, 128);
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KEY_LENGTH), ==,
                   "embedding_length / head_count (Ollama /api/show has no key_length)");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KV_HEADS), ==,
                   "Ollama /api/show model_info llama.attention.head_count_kv");
  g_assert_cmpuint (spec->embedding_length, ==, 3072);
  g_assert_cmpuint (spec->context_length, ==, 131072);
  g_assert_cmpuint (spec->sliding_window, ==, 0);
  g_assert_cmpuint (spec->vocab_size, ==, 128256);
  g_assert_true (show->has_file_type);
  g_assert_cmpuint (show->file_type, ==, 15);
  g_assert_cmpstr (show->quantization, ==, "Q4_K_M");
  g_assert_cmpstr (spec->precision, ==, "q4_K_M");
  g_assert_cmpstr (show->family, ==, "llama");
  g_assert_cmpstr (show->parameter_size, ==, "3.2B");
  g_assert_cmpuint (show->n_tensors, ==, 4);
  g_assert_cmpuint (show->weight_bytes, ==, weights);
  g_assert_cmpuint (weights, ==, 330295296);
  g_assert_cmpuint (spec->file_bytes, ==, weights);
  g_assert_cmpfloat_with_epsilon (show->bits_per_weight, 330295296.0 * 8 / 3212749888.0, 1e-12);
  g_assert_true (show->tied_embeddings);
  g_assert_true (spec->tied_embeddings);
  g_assert_false (show->embedding_model);
  g_assert_cmpuint (g_strv_length (show->capabilities), ==, 2);
  g_assert_cmpstr (show->capabilities[1], ==, "tools");
}

/* A hybrid model without `verbose`: head_count_kv is hidden as null and
 * recovered from the key projections (0 for a layer without attention). */
static void
test_hidden_kv_array (void)
{
  const char *json =
    "{\"model_info\": {"
    "  \"general.architecture\": \"lfm2\","
    "  \"general.parameter_count\": 354483968,"
    "  \"general.file_type\": 1,"
    "  \"lfm2.block_count\": 3,"
    "  \"lfm2.embedding_length\": 1024,"
    "  \"lfm2.attention.head_count\": 16,"
    "  \"lfm2.attention.head_count_kv\": null,"
    "  \"lfm2.attention.sliding_window\": 4096,"
    "  \"lfm2.shortconv.l_cache\": 3,"
    "  \"lfm2.context_length\": 128000},"
    " \"tensors\": ["
    "  {\"name\": \"token_embd.weight\", \"type\": \"F16\", \"shape\": [1024, 65536]},"
    "  {\"name\": \"blk.0.attn_k.weight\", \"type\": \"F16\", \"shape\": [1024, 512]},"
    "  {\"name\": \"blk.1.shortconv.conv.weight\", \"type\": \"F32\", \"shape\": [3, 1024]},"
    "  {\"name\": \"blk.2.attn_k.weight\", \"type\": \"F16\", \"shape\": [1024, 256]},"
    "  {\"name\": \"output.weight\", \"type\": \"F16\", \"shape\": [1024, 65536]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = parse (json, &error);
  HrModelSpec *spec;

  g_assert_no_error (error);
  spec = show->spec;
  g_assert_cmpuint (spec->key_length, ==, 64);
  g_assert_nonnull (spec->layer_kv_heads);
  g_assert_cmpuint (spec->layer_kv_heads->len, ==, 3);
  g_assert_cmpuint (g_array_index (spec->layer_kv_heads, guint32, 0), ==, 8);
  g_assert_cmpuint (g_array_index (spec->layer_kv_heads, guint32, 1), ==, 0);
  g_assert_cmpuint (g_array_index (spec->layer_kv_heads, guint32, 2), ==, 4);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_cmpuint (spec->sliding_window, ==, 4096);
  g_assert_cmpuint (spec->context_length, ==, 128000);
  g_assert_cmpstr (show->quantization, ==, "F16");
  g_assert_cmpstr (spec->precision, ==, "f16");
  /* Untied: it has its own output.weight. */
  g_assert_false (show->tied_embeddings);
  /* 2 x 1024 x 65536 x 2 + 1024 x 512 x 2 + 3 x 1024 x 4 + 1024 x 256 x 2 */
  g_assert_cmpuint (show->weight_bytes, ==, 268435456 + 1048576 + 12288 + 524288);
  /* The recurrent layers follow the recovered KV heads (src/models/lfm2.cpp:
   * is_recr = head_count_kv 0), the state is n_embd x (l_cache - 1), and
   * with a sliding window the attention layers slide. */
  g_assert_nonnull (spec->layer_recurrent);
  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 1);
  g_assert_true (hr_model_spec_layer_is_recurrent (spec, 1));
  g_assert_cmpuint (spec->recurrent_r, ==, 2048);
  g_assert_cmpuint (spec->recurrent_s, ==, 0);
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 0));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 1));
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 2));
}

/* With `verbose` the per-layer array is there. */
static void
test_verbose_kv_array (void)
{
  const char *json =
    "{\"model_info\": {"
    "  \"general.architecture\": \"gemma3\","
    "  \"gemma3.block_count\": 3,"
    "  \"gemma3.embedding_length\": 2560,"
    "  \"gemma3.attention.head_count\": [8, 8, 8],"
    "  \"gemma3.attention.head_count_kv\": [4, 4, 2.0],"
    "  \"gemma3.attention.key_length\": 256,"
    "  \"gemma3.attention.value_length\": 256,"
    "  \"gemma3.pooling_type\": 1}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = parse (json, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (show->spec->heads, ==, 8);
  g_assert_cmpuint (show->spec->kv_heads, ==, 4);
  g_assert_cmpuint (show->spec->layer_kv_heads->len, ==, 3);
  g_assert_cmpuint (g_array_index (show->spec->layer_kv_heads, guint32, 2), ==, 2);
  g_assert_cmpuint (show->spec->key_length, ==, 256);
  g_assert_true (show->embedding_model);
  /* No tensors: weights unknown, never guessed. */
  g_assert_cmpuint (show->weight_bytes, ==, 0);
  g_assert_cmpfloat (show->bits_per_weight, ==, 0.0);
  g_assert_null (show->spec->tensors);
  g_assert_null (show->quantization);
  g_assert_false (show->has_file_type);
}

/* The one key mapper gives /api/show the GGUF file's sliding layers:
 * llama.cpp's gemma3 rule (five sliding layers, then a global one) when
 * model_info hides the pattern. */
static void
test_sliding_layers (void)
{
  const char *json =
    "{\"model_info\": {"
    "  \"general.architecture\": \"gemma3\","
    "  \"gemma3.block_count\": 6,"
    "  \"gemma3.attention.head_count\": 8,"
    "  \"gemma3.attention.sliding_window\": 512,"
    "  \"gemma3.attention.sliding_window_pattern\": null}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = parse (json, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (show->spec->sliding_window, ==, 512);
  g_assert_nonnull (show->spec->layer_sliding);
  g_assert_cmpuint (show->spec->layer_sliding->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpuint (g_array_index (show->spec->layer_sliding, guint8, i), ==, i < 5);
  g_assert_cmpstr (hr_model_spec_get_source (show->spec, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "Ollama /api/show model_info gemma3.attention.sliding_window; sliding layers: "
                   "llama.cpp rule: gemma3 has 5 sliding layers per global layer");
  /* no head_count_kv: one KV head per head */
  g_assert_cmpuint (show->spec->kv_heads, ==, 8);
}

/* With `verbose` the pattern is there, as GGUF's booleans. */
static void
test_sliding_pattern (void)
{
  const char *json =
    "{\"model_info\": {"
    "  \"general.architecture\": \"gemma3\","
    "  \"gemma3.block_count\": 4,"
    "  \"gemma3.attention.sliding_window\": 512,"
    "  \"gemma3.attention.sliding_window_pattern\": [true, false, true, false]}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = parse (json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (show->spec->layer_sliding);
  g_assert_cmpuint (show->spec->layer_sliding->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpuint (g_array_index (show->spec->layer_sliding, guint8, i), ==, i % 2 == 0);
  g_assert_cmpstr (hr_model_spec_get_source (show->spec, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "Ollama /api/show model_info gemma3.attention.sliding_window; sliding layers: "
                   "Ollama /api/show model_info gemma3.attention.sliding_window_pattern");
}

static void
assert_fails (const char *json,
              gint        code,
              const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = parse (json, &error);

  g_assert_null (show);
  g_assert_error (error, HR_CORE_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_invalid (void)
{
  assert_fails ("[1, 2]", HR_CORE_ERROR_INVALID_DATA, "/api/show for m:1 is not a JSON object");
  assert_fails ("{\"license\": \"x\"}", HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1 has no model_info; the server may be older than Headroom supports");
  assert_fails ("{\"model_info\": {\"general.architecture\": 5}}", HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"general.architecture\" is missing");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"llama.block_count\": \"28\"}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"llama.block_count\" is not a whole number");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"llama.block_count\": 28.5}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"llama.block_count\" is not a whole number");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"llama.block_count\": 4097}}",
                HR_CORE_ERROR_LIMIT,
                "/api/show for m:1: model_info \"llama.block_count\" is 4,097; Headroom accepts at most 4,096 layers");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"llama.block_count\": 2,"
                " \"llama.attention.head_count_kv\": [8, 8, 8]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"llama.attention.head_count_kv\" is not an array of one count per layer");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"general.parameter_count\": -3}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"general.parameter_count\" is not a whole number");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"llama.attention.head_count_kv\": {\"a\": 1}}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"llama.attention.head_count_kv\" is not a whole number");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\"},"
                " \"tensors\": [{\"name\": \"a\", \"type\": \"F32\", \"shape\": [1, 2, 3, 4, 5]}]}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: tensor 0 is not {\"name\", \"type\", \"shape\": [1 to 4 sizes]}");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\"},"
                " \"tensors\": [{\"name\": \"a\", \"type\": \"F32\", \"shape\": [\"3\"]}]}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: tensor 0 is not {\"name\", \"type\", \"shape\": [1 to 4 sizes]}");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\"}, \"tensors\": {}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: \"tensors\" is not a list");
  /* A head count of 0 is impossible, but for a recurrent model,
   * which is sized from its own keys (hr-gguf-recurrent.c): without them
   * llama.cpp would not load it, and Headroom says which one is missing;
   * qwen4exp is refused with the reason. */
  assert_fails ("{\"model_info\": {\"general.architecture\": \"llama\", \"llama.block_count\": 2,"
                " \"llama.attention.head_count\": 32, \"llama.attention.head_count_kv\": 0}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info \"llama.attention.head_count_kv\" is 0; a model has at least one KV head");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"mamba\", \"mamba.block_count\": 64,"
                " \"mamba.attention.head_count\": 0}}",
                HR_CORE_ERROR_INVALID_DATA,
                "/api/show for m:1: model_info has no \"mamba.ssm.conv_kernel\"; llama.cpp needs it to load mamba "
                "(src/models/mamba.cpp)");
  assert_fails ("{\"model_info\": {\"general.architecture\": \"qwen4exp\", \"qwen4exp.block_count\": 4}}",
                HR_CORE_ERROR_UNSUPPORTED,
                "/api/show for m:1: Headroom does not size qwen4exp: llama.cpp gives it a llama_memory_hybrid_idx "
                "(src/llama-model.cpp create_memory: a per-token QSA indexer key cache beside the attention and "
                "recurrent caches) and hyper-connection and PLE rows in the recurrent state "
                "(src/llama-memory-recurrent.cpp cache_ple_r_l)");
}

/* Tensors of a type this version does not know (a newer ggml
 * type, here "Q9_Z" and "MXFP9") keep the rest of the answer: the metadata,
 * the known tensors' exact bytes as a lower bound that says so, the count,
 * and a prediction that notes its weights are a lower bound. */
static void
test_unknown_tensor_type (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autoptr(HrOllamaShow) show = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  gboolean noted = FALSE;
  const char *tail = strstr (llama_like, "  {\"name\": \"output_norm.weight\"");
  const guint64 known = 323205120 + 5308416 + 1769472 + 12288; /* test_llama_like's four */

  g_assert_nonnull (tail);
  json = g_strdup_printf ("%.*s"
                          "  {\"name\": \"blk.0.attn_v.weight\", \"type\": \"Q9_Z\", \"shape\": [3072, 1024]},"
                          "  {\"name\": \"blk.0.attn_output.weight\", \"type\": \"MXFP9\", \"shape\": [3072, 3072]},"
                          "%s",
                          (int) (tail - llama_like), llama_like, tail);
  show = parse (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (show);
  g_assert_cmpuint (show->spec->layers, ==, 28);
  g_assert_cmpuint (show->spec->kv_heads, ==, 8);
  g_assert_cmpuint (show->spec->parameters, ==, 3212749888);
  g_assert_cmpstr (show->quantization, ==, "Q4_K_M");
  g_assert_cmpuint (show->n_tensors, ==, 4);
  g_assert_cmpuint (show->n_unknown_tensors, ==, 2);
  g_assert_cmpstr (show->unknown_type, ==, "Q9_Z");
  g_assert_cmpuint (show->spec->unknown_tensors, ==, 2);
  g_assert_cmpuint (show->spec->tensors->len, ==, 4);
  g_assert_cmpuint (show->weight_bytes, ==, known);
  g_assert_cmpuint (show->spec->file_bytes, ==, known);
  g_assert_cmpfloat (show->bits_per_weight, ==, 0.0);
  g_assert_cmpstr (hr_model_spec_get_source (show->spec, HR_SPEC_FIELD_FILE_BYTES), ==,
                   "Ollama /api/show tensors, a lower bound: 2 of type \"Q9_Z\" (this version does not know it) are not counted");

  hr_runtime_inputs_init (&in, show->spec, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < p.n_notes; i++)
    noted |= g_strcmp0 (p.notes[i], "The weights are a lower bound: 2 tensors have a type this version of "
                                    "Headroom does not know, and their bytes are not counted.") == 0;
  g_assert_true (noted);

  /* Every tensor unknown: the metadata stays, no weight bytes at all. */
  {
    g_autoptr(HrOllamaShow) all = parse ("{\"model_info\": {\"general.architecture\": \"llama\"},"
                                         " \"tensors\": [{\"name\": \"a\", \"type\": \"Q9_Z\", \"shape\": [32]}]}",
                                         &error);

    g_assert_no_error (error);
    g_assert_cmpstr (all->spec->architecture, ==, "llama");
    g_assert_cmpuint (all->n_tensors, ==, 0);
    g_assert_cmpuint (all->n_unknown_tensors, ==, 1);
    g_assert_cmpuint (all->weight_bytes, ==, 0);
    g_assert_cmpuint (all->spec->file_bytes, ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/ollama-show/llama-like", test_llama_like);
  g_test_add_func ("/ollama-show/unknown-tensor-type", test_unknown_tensor_type);
  g_test_add_func ("/ollama-show/hidden-kv-array", test_hidden_kv_array);
  g_test_add_func ("/ollama-show/verbose-kv-array", test_verbose_kv_array);
  g_test_add_func ("/ollama-show/sliding-layers", test_sliding_layers);
  g_test_add_func ("/ollama-show/sliding-pattern", test_sliding_pattern);
  g_test_add_func ("/ollama-show/invalid", test_invalid);

  return g_test_run ();
}
