/* test-real-world.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rules, each tested on inputs written from published configs and
 * headers (tests/fixtures/configs/: DeepSeek-V3, Kimi K2, a compressed-tensors
 * W4A16 Llama 3.1, gpt-oss-20b, ERNIE 4.5 21B-A3B, Qwen2.5-Omni-7B, Qwen3-8B,
 * Gemma 2 2B, Llama 3 8B, a Llava AWQ wrapper), asserting the exact
 * parameter counts, KV elements per token, weight bytes and messages.
 */
#include "config.h"

#include <string.h>

#include "gguf-writer.h"
#include "hr-error.h"
#include "hr-gguf.h"
#include "hf-gguf-test-util.h"
#include "hr-hf-config.h"
#include "hr-safetensors.h"

static HrHfParameterCount
count_of (const HrHfConfig *config)
{
  g_autoptr(GError) error = NULL;
  HrHfParameterCount count;

  g_assert_true (hr_hf_config_count_parameters (config, &count, &error));
  g_assert_no_error (error);
  return count;
}

/* Rule 1: multi-head latent attention caches one latent per token and layer. */
static void
test_mla (void)
{
  g_autoptr(HrHfConfig) v3 = load_config ("deepseek-v3-config.json");
  g_autoptr(HrHfConfig) k2 = load_config ("kimi-k2-config.json");
  g_autoptr(HrModelSpec) s3 = hr_hf_config_to_model_spec (v3, "deepseek-ai/DeepSeek-V3", NULL, NULL);
  g_autoptr(HrModelSpec) sk = hr_hf_config_to_model_spec (k2, "moonshotai/Kimi-K2-Instruct", NULL, NULL);
  HrHfParameterCount c;

  g_assert_true (v3->mla);
  g_assert_cmpuint (s3->kv_heads, ==, 1);
  g_assert_cmpuint (s3->key_length, ==, 576);
  g_assert_cmpuint (s3->value_length, ==, 512);
  g_assert_true (s3->kv_latent);
  /* 61 layers x (512 + 64): 35,136 elements, 70,272 bytes at f16 (was 61 x
   * 128 heads x (192 + 128) = 2,498,560 elements, 71 times more). */
  g_assert_cmpuint (hr_model_spec_kv_elements_per_token (s3), ==, 35136);
  g_assert_cmpuint (hr_model_spec_kv_elements_per_token (s3) * 2, ==, 70272);
  g_assert_cmpstr (hr_model_spec_get_source (s3, HR_SPEC_FIELD_KEY_LENGTH), ==,
                   "config.json kv_lora_rank + qk_rope_head_dim");
  c = count_of (v3);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (671026529280));
  g_assert_cmpuint (c.active, ==, G_GUINT64_CONSTANT (37552407552));

  /* Kimi K2: 64 heads, the same latent. */
  g_assert_cmpstr (k2->model_type, ==, "kimi_k2");
  g_assert_cmpuint (hr_model_spec_kv_elements_per_token (sk), ==, 35136);
  c = count_of (k2);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (1026408334336));
  g_assert_cmpuint (c.active, ==, G_GUINT64_CONSTANT (32861602816));
}

/* Rule 1, the GGUF side: a deepseek2 header as convert_hf_to_gguf.py writes
 * DeepSeek-V3 gives the same spec as its config.json. */
static void
test_mla_gguf_agrees (void)
{
  g_autoptr(HrHfConfig) v3 = load_config ("deepseek-v3-config.json");
  g_autoptr(HrModelSpec) from_config = hr_hf_config_to_model_spec (v3, "DeepSeek-V3", NULL, NULL);
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(HrModelSpec) from_gguf = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 dims[1] = { 7168 };

  gw_header (w, 3, 1, 11);
  gw_kv_str (w, "general.architecture", "deepseek2");
  gw_kv_u32 (w, "deepseek2.block_count", 61);
  gw_kv_u32 (w, "deepseek2.context_length", 163840);
  gw_kv_u32 (w, "deepseek2.embedding_length", 7168);
  gw_kv_u32 (w, "deepseek2.attention.head_count", 128);
  gw_kv_u32 (w, "deepseek2.attention.head_count_kv", 1);
  gw_kv_u32 (w, "deepseek2.attention.key_length", 576);
  gw_kv_u32 (w, "deepseek2.attention.value_length", 512);
  gw_kv_u32 (w, "deepseek2.attention.key_length_mla", 192);
  gw_kv_u32 (w, "deepseek2.attention.value_length_mla", 128);
  gw_kv_u32 (w, "deepseek2.attention.kv_lora_rank", 512);
  gw_tensor (w, "output_norm.weight", 1, dims, 0, 0);
  g_byte_array_set_size (w, (guint) gw_align (w->len, 32) + 7168 * 4);

  file = hr_gguf_file_parse_data (w->data, w->len, &error);
  g_assert_no_error (error);
  from_gguf = hr_gguf_file_to_model_spec (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (from_gguf->kv_heads, ==, from_config->kv_heads);
  g_assert_cmpuint (from_gguf->key_length, ==, from_config->key_length);
  g_assert_cmpuint (from_gguf->value_length, ==, from_config->value_length);
  g_assert_true (from_gguf->kv_latent);
  g_assert_cmpuint (hr_model_spec_kv_elements_per_token (from_gguf), ==,
                    hr_model_spec_kv_elements_per_token (from_config));
}

/* Rule 2: quantization described in config.json. */
static void
test_quantization (void)
{
  g_autoptr(HrHfConfig) w4a16 = load_config ("llama-3.1-8b-w4a16-config.json");
  g_autoptr(HrHfConfig) fp8 = load_config ("deepseek-v3-config.json");
  g_autoptr(HrHfConfig) mxfp4 = load_config ("gpt-oss-20b-config.json");
  g_autoptr(HrHfConfig) awq = load_config ("llava-awq-nested-config.json");
  g_autoptr(HrModelSpec) spec = hr_hf_config_to_model_spec (w4a16, "w4a16", NULL, NULL);
  g_autoptr(HrHfConfig) ct_fp8 = NULL;
  const char *fp8_channel =
    "{\"model_type\":\"qwen3\",\"num_hidden_layers\":2,\"hidden_size\":64,\"num_attention_heads\":2,"
    "\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":\"compressed-tensors\","
    "\"format\":\"float-quantized\",\"config_groups\":{\"group_0\":{\"targets\":[\"Linear\"],"
    "\"weights\":{\"num_bits\":8,\"type\":\"float\",\"strategy\":\"channel\",\"group_size\":null}}}}}";

  /* compressed-tensors W4A16 (was sized as BF16). */
  g_assert_cmpstr (w4a16->quant_method, ==, "compressed-tensors");
  g_assert_cmpuint (w4a16->quant_bits, ==, 4);
  g_assert_cmpuint (w4a16->quant_group_size, ==, 128);
  g_assert_cmpstr (w4a16->quant_format, ==, "int");
  g_assert_cmpfloat (w4a16->quant_bits_per_weight, ==, 4.125);
  g_assert_cmpstr (hr_hf_config_precision (w4a16), ==, "int4");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_PRECISION), ==,
                   "config.json quantization_config.config_groups.group_0.weights.num_bits");

  /* fp8 checkpoints: 8 bits, one f32 scale per 128 x 128 block. */
  g_assert_cmpuint (fp8->quant_bits, ==, 8);
  g_assert_cmpstr (fp8->quant_format, ==, "float");
  g_assert_cmpfloat (fp8->quant_bits_per_weight, ==, 8.001953125);
  g_assert_cmpstr (hr_hf_config_precision (fp8), ==, "int8");
  ct_fp8 = hr_hf_config_parse (fp8_channel, strlen (fp8_channel), NULL);
  g_assert_cmpuint (ct_fp8->quant_bits, ==, 8);
  g_assert_cmpstr (ct_fp8->quant_format, ==, "float");
  g_assert_cmpstr (hr_hf_config_precision (ct_fp8), ==, "int8");

  /* gpt-oss: mxfp4, 4.25 bits with the E8M0 scales. */
  g_assert_cmpstr (mxfp4->quant_method, ==, "mxfp4");
  g_assert_cmpfloat (mxfp4->quant_bits_per_weight, ==, 4.25);
  g_assert_cmpstr (hr_hf_config_precision (mxfp4), ==, "mxfp4_moe");

  /* Inside a sub-config: AWQ's legacy w_bit / q_group_size in text_config. */
  g_assert_cmpstr (awq->nested_in, ==, "text_config");
  g_assert_cmpstr (awq->quant_method, ==, "awq");
  g_assert_cmpuint (awq->quant_bits, ==, 4);
  g_assert_cmpuint (awq->quant_group_size, ==, 128);
  g_assert_cmpstr (awq->quant_source, ==, "quantization_config.w_bit");
  g_assert_cmpstr (hr_hf_config_precision (awq), ==, "int4");
}

/* Rule 5: MoE aliases, one table. */
static void
test_moe_aliases (void)
{
  g_autoptr(HrHfConfig) ernie = load_config ("ernie-4.5-21b-a3b-config.json");
  g_autoptr(HrHfConfig) oss = load_config ("gpt-oss-20b-config.json");
  HrHfParameterCount c;

  /* ERNIE 4.5: moe_num_experts, moe_k, moe_num_shared_experts,
   * moe_layer_start_index (it was read as a dense model). */
  g_assert_cmpuint (ernie->experts, ==, 64);
  g_assert_cmpuint (ernie->experts_per_token, ==, 6);
  g_assert_cmpuint (ernie->shared_experts, ==, 2);
  g_assert_cmpuint (ernie->first_dense_layers, ==, 1);
  g_assert_cmpuint (ernie->moe_intermediate_size, ==, 1536);
  c = count_of (ernie);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (21825436160));
  g_assert_cmpuint (c.active, ==, G_GUINT64_CONSTANT (3352148480));

  /* gpt-oss: num_local_experts with num_experts_per_tok. */
  g_assert_cmpuint (oss->experts, ==, 32);
  g_assert_cmpuint (oss->experts_per_token, ==, 4);

  g_assert_cmpstr (hr_hf_moe_keys (HR_HF_MOE_EXPERTS)[0], ==, "n_routed_experts");
  g_assert_cmpstr (hr_hf_moe_keys (HR_HF_MOE_EXPERTS_PER_TOKEN)[3], ==, "moe_k");
  g_assert_null (hr_hf_moe_keys (HR_HF_MOE_N_ROLES));
}

/* Rule 6: tied embeddings when the key is absent. */
static void
test_tied_default (void)
{
  g_autoptr(HrHfConfig) llama = load_config ("llama-3-8b-no-tie-key-config.json");
  g_autoptr(HrHfConfig) gemma = load_config ("gemma-2-2b-config.json");
  const char *index_json =
    "{\"metadata\":{\"total_size\":16060522496},\"weight_map\":{"
    "\"lm_head.weight\":\"model-00004-of-00004.safetensors\","
    "\"model.embed_tokens.weight\":\"model-00001-of-00004.safetensors\"}}";
  g_autoptr(HrSafetensorsIndex) index = hr_safetensors_index_parse (index_json, strlen (index_json), NULL);
  HrHfParameterCount c;

  /* LlamaConfig defaults to untied: 8,030,261,248 (was 7,504,924,672). */
  g_assert_false (llama->tied_embeddings);
  g_assert_cmpstr (llama->tied_source, ==, "no tie_word_embeddings: the default for model type “llama”");
  c = count_of (llama);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (8030261248));
  g_assert_true (hr_hf_tied_default ("gemma2"));
  g_assert_true (gemma->tied_embeddings);
  g_assert_true (hr_hf_tied_default (NULL));

  /* The weight index settles it. */
  g_assert_true (index->has_lm_head);
  hr_hf_config_settle_tied (gemma, index->has_lm_head);
  g_assert_false (gemma->tied_embeddings);
  g_assert_cmpstr (gemma->tied_source, ==, "the weights list lm_head.weight: not tied");
  hr_hf_config_settle_tied (llama, FALSE);
  g_assert_true (llama->tied_embeddings);
  g_assert_true (hr_safetensors_tensor_is_lm_head ("language_model.lm_head.weight"));
  g_assert_false (hr_safetensors_tensor_is_lm_head ("lm_head.bias"));
}

/* Rule 7: the language model two levels down. */
static void
test_deep_sub_config (void)
{
  g_autoptr(HrHfConfig) omni = load_config ("qwen2.5-omni-7b-config.json");
  HrHfParameterCount c;
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(HrHfConfig) too_deep = NULL;
  g_autoptr(GError) error = NULL;

  /* Not talker_config (a speech model): thinker_config.text_config. */
  g_assert_cmpstr (omni->nested_in, ==, "thinker_config.text_config");
  g_assert_cmpstr (omni->text_model_type, ==, "qwen2_5_omni_text");
  g_assert_cmpuint (omni->layers, ==, 28);
  g_assert_cmpuint (omni->hidden_size, ==, 3584);
  g_assert_cmpuint (omni->kv_heads, ==, 4);
  g_assert_cmpstr (omni->dtype, ==, "bfloat16");
  c = count_of (omni);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (7615616512));

  /* Five levels are past the limit: the search stops, the top is used. */
  g_string_append (deep, "{\"text_config\":{\"text_config\":{\"text_config\":{\"text_config\":{\"text_config\":"
                         "{\"num_hidden_layers\":2,\"hidden_size\":64,\"num_attention_heads\":2}}}}}}");
  too_deep = hr_hf_config_parse (deep->str, deep->len, &error);
  g_assert_null (too_deep);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
}

/* Rule 8: every tensor counted; the difference to the digit. */
static void
test_parameters_every_tensor (void)
{
  g_autoptr(HrHfConfig) qwen3 = load_config ("qwen3-8b-config.json");
  g_autoptr(HrHfConfig) gemma = load_config ("gemma-2-2b-config.json");
  HrHfParameterCount c;
  g_autofree char *same = NULL;
  g_autofree char *fewer = NULL;
  g_autofree char *more = NULL;

  /* Qwen3-8B with its q_norm / k_norm: the published 8,190,735,360 (was
   * 9,216 short and printed "0.00 % apart"). */
  c = count_of (qwen3);
  g_assert_true (qwen3->qk_norm);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (8190735360));
  /* Gemma 2 2B with its four norms per layer: 2,614,341,888. */
  c = count_of (gemma);
  g_assert_true (gemma->post_norms);
  g_assert_cmpuint (c.total, ==, G_GUINT64_CONSTANT (2614341888));

  same = hr_hf_parameters_describe_difference (8190735360, 8190735360);
  g_assert_cmpstr (same, ==, "the same count as the stored 8,190,735,360");
  fewer = hr_hf_parameters_describe_difference (8190726144, 8190735360);
  g_assert_cmpstr (fewer, ==, "9,216 fewer than the stored 8,190,735,360 (0.0001 %)");
  more = hr_hf_parameters_describe_difference (2614341888, 2614222080);
  g_assert_cmpstr (more, ==, "119,808 more than the stored 2,614,222,080 (0.0046 %)");
}

/* Builds a safetensors header JSON with contiguous offsets. */
static void
add_tensor (GString    *json,
            guint64    *offset,
            const char *name,
            const char *dtype,
            guint64     d0,
            guint64     d1,
            guint       bits)
{
  guint64 bytes = d0 * (d1 ? d1 : 1) * bits / 8;

  if (json->len > 1)
    g_string_append_c (json, ',');
  if (d1 > 0)
    g_string_append_printf (json, "\"%s\":{\"dtype\":\"%s\",\"shape\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "],"
                            "\"data_offsets\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]}",
                            name, dtype, d0, d1, *offset, *offset + bytes);
  else
    g_string_append_printf (json, "\"%s\":{\"dtype\":\"%s\",\"shape\":[%" G_GUINT64_FORMAT "],"
                            "\"data_offsets\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]}",
                            name, dtype, d0, *offset, *offset + bytes);
  *offset += bytes;
}

/* Rule 3: packed quantized tensors. */
static void
test_packed_tensors (void)
{
  g_autoptr(GString) gptq = g_string_new ("{");
  g_autoptr(GString) mlx = g_string_new ("{");
  g_autoptr(HrSafetensorsHeader) h = NULL;
  g_autoptr(HrSafetensorsHeader) m = NULL;
  g_autoptr(GError) error = NULL;
  guint64 off = 0;

  /* A Llama-3-8B GPTQ layer (in 4096, out 4096, group 128): qweight I32
   * [in / 8, out], qzeros I32 [in / 128, out / 8], scales F16 [in / 128,
   * out], g_idx I32 [in]; the embeddings F16. */
  add_tensor (gptq, &off, "model.embed_tokens.weight", "F16", 128256, 4096, 16);
  add_tensor (gptq, &off, "model.layers.0.self_attn.q_proj.qweight", "I32", 512, 4096, 32);
  add_tensor (gptq, &off, "model.layers.0.self_attn.q_proj.qzeros", "I32", 32, 512, 32);
  add_tensor (gptq, &off, "model.layers.0.self_attn.q_proj.scales", "F16", 32, 4096, 16);
  add_tensor (gptq, &off, "model.layers.0.self_attn.q_proj.g_idx", "I32", 4096, 0, 32);
  add_tensor (gptq, &off, "model.layers.0.input_layernorm.weight", "F16", 4096, 0, 16);
  g_string_append_c (gptq, '}');
  h = hr_safetensors_header_parse_json (gptq->str, gptq->len, &error);
  g_assert_no_error (error);
  /* Bytes stay the spans. */
  g_assert_cmpuint (h->data_bytes, ==, 128256ull * 4096 * 2 + 512 * 4096 * 4 + 32 * 512 * 4 + 32 * 4096 * 2 +
                    4096 * 4 + 4096 * 2);
  /* Stored elements count 2,097,152 I32 containers for 16,777,216 weights. */
  g_assert_cmpuint (h->parameters, ==, 128256ull * 4096 + 512 * 4096 + 32 * 512 + 32 * 4096 + 4096 + 4096);
  g_assert_cmpuint (h->packed_elements, ==, 512 * 4096);
  g_assert_cmpuint (h->aux_parameters, ==, 32 * 512 + 32 * 4096 + 4096);
  g_assert_cmpuint (hr_safetensors_header_parameters (h, 4), ==, 128256ull * 4096 + 4096ull * 4096 + 4096);
  g_assert_cmpuint (hr_safetensors_header_parameters (h, 0), ==, 128256ull * 4096 + 4096ull * 4096 + 4096);
  g_assert_cmpuint (hr_safetensors_header_parameters (h, 8), ==, 128256ull * 4096 + 2048ull * 4096 + 4096);

  /* mlx 4-bit, group 64: weight U32 [out, in x 4 / 32], scales and biases
   * BF16 [out, in / 64]. */
  off = 0;
  add_tensor (mlx, &off, "model.layers.0.mlp.down_proj.weight", "U32", 4096, 14336 / 8, 32);
  add_tensor (mlx, &off, "model.layers.0.mlp.down_proj.scales", "BF16", 4096, 14336 / 64, 16);
  add_tensor (mlx, &off, "model.layers.0.mlp.down_proj.biases", "BF16", 4096, 14336 / 64, 16);
  g_string_append_c (mlx, '}');
  m = hr_safetensors_header_parse_json (mlx->str, mlx->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->data_bytes, ==, 4096ull * 1792 * 4 + 2 * 4096ull * 224 * 2);
  g_assert_cmpuint (hr_safetensors_header_parameters (m, 4), ==, 4096ull * 14336);

  /* Merging shards keeps the counts. */
  g_assert_true (hr_safetensors_header_merge (h, m, &error));
  g_assert_cmpuint (hr_safetensors_header_parameters (h, 4), ==,
                    128256ull * 4096 + 4096ull * 4096 + 4096 + 4096ull * 14336);
  g_assert_false (h->has_lm_head);
}

/* Rule 4: two figures that disagree. */
static void
test_reconcile (void)
{
  g_autofree char *note = NULL;
  g_autofree char *none = NULL;

  /* The Hub's safetensors.total against its per-dtype parameters map. */
  g_assert_cmpuint (hr_safetensors_reconcile (333312, 7615616512, "the Hub's safetensors.total",
                                              "its per-dtype parameters", "parameters", &note),
                    ==, 7615616512);
  g_assert_cmpstr (note, ==, "the Hub's safetensors.total gives 333,312 parameters but its per-dtype "
                             "parameters add up to 7,615,616,512 parameters (7,615,283,200 apart); "
                             "using 7,615,616,512");
  g_clear_pointer (&note, g_free);

  /* An index's total_size against its shards' headers. */
  g_assert_cmpuint (hr_safetensors_reconcile (16060522496, 16060526592,
                                              "model.safetensors.index.json total_size",
                                              "the 4 shards' headers", "bytes", &note), ==, 16060526592);
  g_assert_cmpstr (note, ==, "model.safetensors.index.json total_size gives 16,060,522,496 bytes but the 4 "
                             "shards' headers add up to 16,060,526,592 bytes (4,096 apart); using 16,060,526,592");
  /* Agreeing, or one of them unknown: no note. */
  g_assert_cmpuint (hr_safetensors_reconcile (100, 100, "a", "b", "bytes", &none), ==, 100);
  g_assert_null (none);
  g_assert_cmpuint (hr_safetensors_reconcile (100, 0, "a", "b", "bytes", &none), ==, 100);
  g_assert_null (none);
}

/* Rule 9: a tensor of a ggml type this version does not know. */
static void
test_gguf_unknown_type (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 norm[1] = { 256 };
  const guint64 big[2] = { 512, 4 };
  const guint64 tail[1] = { 64 };
  guint unsized = 99;
  guint64 data_offset;

  gw_header (w, 3, 3, 1);
  gw_kv_str (w, "general.architecture", "llama");
  gw_tensor (w, "blk.0.attn_norm.weight", 1, norm, 0, 0);
  gw_tensor (w, "blk.0.ffn_up.weight", 2, big, 99, 1024);
  gw_tensor (w, "blk.0.ffn_down.weight", 1, tail, 77, 3072);

  file = hr_gguf_file_parse_data (w->data, w->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (file), ==, 3);
  g_assert_cmpstr (hr_gguf_file_get_string (file, "general.architecture"), ==, "llama");
  g_assert_cmpuint (hr_gguf_file_get_parameters (file), ==, 256 + 2048 + 64);
  /* Sized up to the next offset: 2,048 bytes; the last one has no size. */
  g_assert_cmpuint (hr_gguf_file_get_unknown_tensors (file, &unsized), ==, 2);
  g_assert_cmpuint (unsized, ==, 1);
  g_assert_cmpuint (hr_gguf_file_get_tensor (file, 1)->bytes, ==, 2048);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (file), ==, 1024 + 2048);

  /* Once the file size is known, the last one is sized to the end. */
  data_offset = hr_gguf_file_get_data_offset (file);
  hr_gguf_file_set_file_bytes (file, data_offset + 3072 + 96);
  g_assert_cmpuint (hr_gguf_file_get_unknown_tensors (file, &unsized), ==, 2);
  g_assert_cmpuint (unsized, ==, 0);
  g_assert_cmpuint (hr_gguf_file_get_tensor (file, 2)->bytes, ==, 96);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (file), ==, 1024 + 2048 + 96);
}

/* Rule 10: a GGUF repository split into shards, grouped per quantization. */
static void
test_gguf_shard_groups (void)
{
  const char * const paths[] = {
    "README.md",
    "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00001-of-00003.gguf",
    "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00002-of-00003.gguf",
    "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00003-of-00003.gguf",
    "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf",
    "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00003-of-00003.gguf",
    "DeepSeek-R1-Q8_0.gguf",
    "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00002-of-00003.gguf",
  };
  const guint64 sizes[] = {
    1234, 49339085664, 49855309216, 4126637440, 49835478080, 14453424000, 713291550208, 49855309216,
  };
  g_autoptr(GPtrArray) groups = hr_hf_gguf_group_files (paths, sizes, G_N_ELEMENTS (paths));
  const HrHfGgufGroup *q4, *q8, *iq1;

  g_assert_cmpuint (groups->len, ==, 3);
  iq1 = g_ptr_array_index (groups, 0);
  q4 = g_ptr_array_index (groups, 1);
  q8 = g_ptr_array_index (groups, 2);

  g_assert_cmpstr (q4->label, ==, "Q4_K_M");
  g_assert_cmpuint (q4->parts, ==, 3);
  g_assert_cmpuint (q4->parts_found, ==, 3);
  g_assert_cmpuint (q4->bytes, ==, G_GUINT64_CONSTANT (49339085664) + 49855309216 + 4126637440);
  g_assert_true (q4->complete);
  g_assert_null (q4->problem);
  g_assert_cmpstr (q4->first_path, ==, "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00001-of-00003.gguf");

  g_assert_cmpstr (q8->label, ==, "Q8_0");
  g_assert_cmpuint (q8->parts, ==, 1);
  g_assert_cmpuint (q8->bytes, ==, G_GUINT64_CONSTANT (713291550208));

  g_assert_cmpstr (iq1->label, ==, "IQ1_S");
  g_assert_false (iq1->complete);
  g_assert_cmpuint (iq1->parts_found, ==, 2);
  g_assert_cmpuint (iq1->bytes, ==, G_GUINT64_CONSTANT (49835478080) + 14453424000);
  g_assert_cmpstr (iq1->problem, ==, "part 2 of 3 is missing from the repository; the size covers 2 parts");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/real-world/mla", test_mla);
  g_test_add_func ("/real-world/mla-gguf-agrees", test_mla_gguf_agrees);
  g_test_add_func ("/real-world/quantization", test_quantization);
  g_test_add_func ("/real-world/moe-aliases", test_moe_aliases);
  g_test_add_func ("/real-world/tied-default", test_tied_default);
  g_test_add_func ("/real-world/deep-sub-config", test_deep_sub_config);
  g_test_add_func ("/real-world/parameters-every-tensor", test_parameters_every_tensor);
  g_test_add_func ("/real-world/packed-tensors", test_packed_tensors);
  g_test_add_func ("/real-world/reconcile", test_reconcile);
  g_test_add_func ("/real-world/gguf-unknown-type", test_gguf_unknown_type);
  g_test_add_func ("/real-world/gguf-shard-groups", test_gguf_shard_groups);

  return g_test_run ();
}
