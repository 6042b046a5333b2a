/* test-hf-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * config.json, tokenizer_config.json, generation_config.json and LICENSE
 * parsing; the derived parameter count; base-or-instruct evidence; names.
 * The Qwen2.5-3B-Instruct figures are docs/seed-figures.md's ("A Hugging Face
 * lookup"); its config.json and generation_config.json fixtures are the
 * files as the seed's week 3 prints them.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config.h"
#include "hr-memory.h"
#include "hub-fixtures.h"

static HrHfConfig *
parse (const char *json,
       GError    **error)
{
  return hr_hf_config_parse (json, strlen (json), error);
}

static HrHfConfig *
parse_fixture (const char *name)
{
  g_autoptr(GBytes) bytes = hub_fixture (name);
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  HrHfConfig *config = hr_hf_config_parse (data, size, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static void
test_qwen_config (void)
{
  g_autoptr(HrHfConfig) c = parse_fixture ("qwen2.5-3b-instruct/config.json");

  g_assert_cmpstr (c->architecture, ==, "Qwen2ForCausalLM");
  g_assert_cmpstr (c->model_type, ==, "qwen2");
  g_assert_null (c->nested_in);
  g_assert_cmpuint (c->layers, ==, 36);
  g_assert_cmpuint (c->hidden_size, ==, 2048);
  g_assert_cmpuint (c->intermediate_size, ==, 11008);
  g_assert_cmpuint (c->heads, ==, 16);
  g_assert_cmpuint (c->kv_heads, ==, 2);
  g_assert_cmpuint (c->head_dim, ==, 128);
  g_assert_false (c->head_dim_explicit);
  g_assert_cmpuint (c->vocab_size, ==, 151936);
  g_assert_cmpuint (c->max_position_embeddings, ==, 32768);
  g_assert_true (c->tied_embeddings);
  /* sliding_window 32768 but use_sliding_window false: no window. */
  g_assert_cmpuint (c->sliding_window, ==, 0);
  g_assert_null (c->layer_sliding);
  g_assert_cmpstr (c->dtype, ==, "bfloat16");
  g_assert_cmpstr (hr_hf_config_precision (c), ==, "bf16");
  g_assert_true (c->qkv_bias);
  g_assert_cmpuint (c->experts, ==, 0);
  g_assert_false (c->mla);
  g_assert_cmpint (c->bos_token_id, ==, 151643);
  g_assert_cmpuint (c->eos_token_ids->len, ==, 1);
  g_assert_cmpint (g_array_index (c->eos_token_ids, gint64, 0), ==, 151645);
}

/* The derived count lands on the Hub's 3,085,938,688 exactly. */
static void
test_qwen_config_parameters (void)
{
  g_autoptr(HrHfConfig) c = parse_fixture ("qwen2.5-3b-instruct/config.json");
  g_autoptr(GError) error = NULL;
  HrHfParameterCount count;

  g_assert_true (hr_hf_config_count_parameters (c, &count, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count.embeddings, ==, 151936ull * 2048);
  g_assert_cmpuint (count.output, ==, 0);
  g_assert_cmpuint (count.total, ==, 3085938688);
  g_assert_cmpuint (count.active, ==, count.total);
  g_assert_cmpuint (count.embeddings + count.attention + count.mlp + count.norms + count.output, ==, count.total);
  g_assert_cmpfloat (hr_hf_parameters_relative_difference (count.total, 3085938688), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (hr_hf_parameters_relative_difference (3100000000, 3085938688),
                                  0.0045566, 1e-6);
  g_assert_true (isinf (hr_hf_parameters_relative_difference (1, 0)));
}

static void
test_qwen_config_spec (void)
{
  g_autoptr(HrHfConfig) c = parse_fixture ("qwen2.5-3b-instruct/config.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) spec = hr_hf_config_to_model_spec (c, QWEN_REPO, "hf:" QWEN_REPO "@" QWEN_SHA, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (spec->name, ==, QWEN_REPO);
  g_assert_cmpstr (spec->architecture, ==, "qwen2");
  g_assert_cmpstr (spec->precision, ==, "bf16");
  g_assert_cmpuint (spec->layers, ==, 36);
  g_assert_cmpuint (spec->heads, ==, 16);
  g_assert_cmpuint (spec->kv_heads, ==, 2);
  g_assert_cmpuint (spec->key_length, ==, 128);
  g_assert_cmpuint (spec->value_length, ==, 128);
  g_assert_cmpuint (spec->embedding_length, ==, 2048);
  g_assert_cmpuint (spec->context_length, ==, 32768);
  g_assert_cmpuint (spec->vocab_size, ==, 151936);
  g_assert_true (spec->tied_embeddings);
  g_assert_cmpstr (spec->origin, ==, "hf:Qwen/Qwen2.5-3B-Instruct@aa8e72537993ba99e69dfaafa59ed015b17504d1");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_LAYERS), ==, "config.json num_hidden_layers");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KEY_LENGTH), ==,
                   "config.json hidden_size / num_attention_heads");
  /* KV cache per token at f16: 2 x 36 x 2 x 128 x 2 bytes. */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 36864);
}

static void
test_qwen_tokenizer_and_generation (void)
{
  g_autoptr(GBytes) tok_bytes = hub_fixture ("qwen2.5-3b-instruct/tokenizer_config.json");
  g_autoptr(GBytes) gen_bytes = hub_fixture ("qwen2.5-3b-instruct/generation_config.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHfTokenizerConfig) tok = NULL;
  g_autoptr(HrHfGenerationConfig) gen = NULL;
  g_autoptr(HrHfKindEvidence) ev = NULL;
  const char *tags[] = { "transformers", "safetensors", "qwen2", "text-generation", "chat",
                         "conversational", "en", "base_model:Qwen/Qwen2.5-3B",
                         "base_model:finetune:Qwen/Qwen2.5-3B", "license:other", NULL };
  gsize size;
  const char *data;

  data = g_bytes_get_data (tok_bytes, &size);
  tok = hr_hf_tokenizer_config_parse (data, size, &error);
  g_assert_no_error (error);
  g_assert_true (tok->has_model_max_length);
  g_assert_cmpuint (tok->model_max_length, ==, 131072);
  g_assert_true (tok->has_chat_template);
  g_assert_cmpstr (tok->tokenizer_class, ==, "Qwen2Tokenizer");
  g_assert_null (tok->bos_token);
  g_assert_cmpstr (tok->eos_token, ==, "<|im_end|>");
  g_assert_cmpstr (g_hash_table_lookup (tok->added_tokens, GINT_TO_POINTER (151645)), ==, "<|im_end|>");
  g_assert_cmpstr (g_hash_table_lookup (tok->added_tokens, GINT_TO_POINTER (151643)), ==, "<|endoftext|>");

  data = g_bytes_get_data (gen_bytes, &size);
  gen = hr_hf_generation_config_parse (data, size, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gen->bos_token_id, ==, 151643);
  g_assert_cmpint (gen->pad_token_id, ==, 151643);
  g_assert_cmpuint (gen->eos_token_ids->len, ==, 2);
  g_assert_cmpint (g_array_index (gen->eos_token_ids, gint64, 0), ==, 151645);
  g_assert_cmpint (g_array_index (gen->eos_token_ids, gint64, 1), ==, 151643);
  g_assert_true (gen->do_sample);

  ev = hr_hf_kind_evidence (QWEN_REPO, tags, "Qwen/Qwen2.5-3B", tok, gen);
  g_assert_cmpint (ev->kind, ==, HR_HF_KIND_INSTRUCT);
  g_assert_cmpstr (hr_hf_kind_to_string (ev->kind), ==, "instruct");
  g_assert_cmpstr (ev->base_model, ==, "Qwen/Qwen2.5-3B");
  g_assert_cmpuint (ev->evidence->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (ev->evidence, 0), ==,
                   "generation_config.json ends a turn on token 151645 “<|im_end|>”, a chat end-of-turn token");
  g_assert_cmpstr (g_ptr_array_index (ev->evidence, 1), ==, "the repository name says it is instruction-tuned");
  g_assert_cmpstr (g_ptr_array_index (ev->evidence, 2), ==, "the model card names Qwen/Qwen2.5-3B as its base model");
  g_assert_cmpstr (g_ptr_array_index (ev->evidence, 3), ==, "tokenizer_config.json carries a chat template");
  g_assert_cmpstr (g_ptr_array_index (ev->evidence, 4), ==, "the Hub tags it conversational");
}

static void
test_kind_base (void)
{
  /* The base model: one EOS (end of text), no instruct name, no base. */
  const char *gen_json = "{\"bos_token_id\":151643,\"do_sample\":false,\"eos_token_id\":151643,\"max_new_tokens\":2048}";
  const char *tok_json = "{\"added_tokens_decoder\":{\"151643\":{\"content\":\"<|endoftext|>\",\"special\":true},"
                         "\"151645\":{\"content\":\"<|im_end|>\",\"special\":true}},\"chat_template\":\"x\",\"model_max_length\":1e30}";
  g_autoptr(HrHfGenerationConfig) gen = hr_hf_generation_config_parse (gen_json, strlen (gen_json), NULL);
  g_autoptr(HrHfTokenizerConfig) tok = hr_hf_tokenizer_config_parse (tok_json, strlen (tok_json), NULL);
  g_autoptr(HrHfKindEvidence) base = NULL;
  g_autoptr(HrHfKindEvidence) tune = NULL;
  const char *tags[] = { "base_model:finetune:Qwen/Qwen2.5-3B", NULL };

  g_assert_nonnull (gen);
  g_assert_nonnull (tok);
  /* 1e30 is transformers' "unset". */
  g_assert_false (tok->has_model_max_length);
  g_assert_false (gen->do_sample);
  g_assert_cmpuint (gen->eos_token_ids->len, ==, 1);

  base = hr_hf_kind_evidence ("Qwen/Qwen2.5-3B", NULL, NULL, tok, gen);
  g_assert_cmpint (base->kind, ==, HR_HF_KIND_BASE);
  g_assert_null (base->base_model);
  g_assert_cmpstr (g_ptr_array_index (base->evidence, base->evidence->len - 1), ==,
                   "no end-of-turn token, no instruct name and no base model: a base model");

  /* A fine-tune named by a tag, with no instruct evidence: unknown. */
  tune = hr_hf_kind_evidence ("someone/qwen-code-tune", tags, NULL, tok, gen);
  g_assert_cmpint (tune->kind, ==, HR_HF_KIND_UNKNOWN);
  g_assert_cmpstr (tune->base_model, ==, "Qwen/Qwen2.5-3B");
  g_assert_cmpstr (hr_hf_kind_to_string (tune->kind), ==, "unknown");
}

static void
test_head_dim (void)
{
  g_autoptr(GError) error = NULL;
  /* Qwen3-4B: 2560 / 32 = 80, but head_dim says 128, and it wins. */
  g_autoptr(HrHfConfig) qwen3 =
    parse ("{\"architectures\":[\"Qwen3ForCausalLM\"],\"model_type\":\"qwen3\",\"hidden_size\":2560,"
           "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"head_dim\":128,\"num_hidden_layers\":36,"
           "\"intermediate_size\":9728,\"vocab_size\":151936,\"max_position_embeddings\":40960,"
           "\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"dtype\":\"float16\","
           "\"sliding_window\":null,\"use_sliding_window\":false,\"attention_bias\":false}", &error);
  g_autoptr(HrHfConfig) null_dim = NULL;
  g_autoptr(HrModelSpec) spec = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (qwen3->head_dim, ==, 128);
  g_assert_true (qwen3->head_dim_explicit);
  g_assert_false (qwen3->qkv_bias);
  /* dtype wins over torch_dtype. */
  g_assert_cmpstr (qwen3->dtype, ==, "float16");
  g_assert_cmpstr (hr_hf_config_precision (qwen3), ==, "fp16");
  spec = hr_hf_config_to_model_spec (qwen3, "Qwen/Qwen3-4B", NULL, NULL);
  g_assert_cmpuint (spec->key_length, ==, 128);
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KEY_LENGTH), ==, "config.json head_dim");

  null_dim = parse ("{\"hidden_size\":4096,\"num_attention_heads\":32,\"head_dim\":null,"
                    "\"num_hidden_layers\":32,\"intermediate_size\":14336,\"vocab_size\":128256}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (null_dim->head_dim, ==, 128);
  g_assert_false (null_dim->head_dim_explicit);
  /* No KV-head key: as many as the attention heads. */
  g_assert_cmpuint (null_dim->kv_heads, ==, 32);
}

static void
test_text_config (void)
{
  g_autoptr(GError) error = NULL;
  /* A Gemma 3-style multimodal config: the language model under text_config. */
  g_autoptr(HrHfConfig) c =
    parse ("{\"architectures\":[\"Gemma3ForConditionalGeneration\"],\"model_type\":\"gemma3\","
           "\"torch_dtype\":\"bfloat16\",\"hidden_size\":1152,\"num_hidden_layers\":27,"
           "\"num_attention_heads\":16,"
           "\"text_config\":{\"model_type\":\"gemma3_text\",\"hidden_size\":2560,\"intermediate_size\":10240,"
           "\"num_hidden_layers\":6,\"num_attention_heads\":8,\"num_key_value_heads\":4,\"head_dim\":256,"
           "\"sliding_window\":1024,\"vocab_size\":262208,\"max_position_embeddings\":131072,"
           "\"layer_types\":[\"sliding_attention\",\"sliding_attention\",\"sliding_attention\","
           "\"sliding_attention\",\"sliding_attention\",\"full_attention\"],"
           "\"quantization_config\":{\"quant_method\":\"awq\",\"bits\":4,\"group_size\":128}},"
           "\"vision_config\":{\"hidden_size\":1152,\"num_hidden_layers\":27}}", &error);
  g_autoptr(HrModelSpec) spec = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (c->nested_in, ==, "text_config");
  g_assert_cmpstr (c->architecture, ==, "Gemma3ForConditionalGeneration");
  g_assert_cmpstr (c->model_type, ==, "gemma3");
  g_assert_cmpstr (c->text_model_type, ==, "gemma3_text");
  g_assert_cmpuint (c->layers, ==, 6);
  g_assert_cmpuint (c->hidden_size, ==, 2560);
  g_assert_cmpuint (c->heads, ==, 8);
  g_assert_cmpuint (c->kv_heads, ==, 4);
  g_assert_cmpuint (c->head_dim, ==, 256);
  g_assert_cmpuint (c->vocab_size, ==, 262208);
  g_assert_cmpuint (c->max_position_embeddings, ==, 131072);
  g_assert_cmpuint (c->sliding_window, ==, 1024);
  g_assert_nonnull (c->layer_sliding);
  g_assert_cmpuint (c->layer_sliding->len, ==, 6);
  g_assert_cmpuint (g_array_index (c->layer_sliding, guint8, 0), ==, 1);
  g_assert_cmpuint (g_array_index (c->layer_sliding, guint8, 5), ==, 0);
  g_assert_cmpstr (c->dtype, ==, "bfloat16");
  g_assert_cmpstr (c->quant_method, ==, "awq");
  g_assert_cmpuint (c->quant_bits, ==, 4);
  g_assert_cmpuint (c->quant_group_size, ==, 128);
  g_assert_cmpstr (hr_hf_config_precision (c), ==, "int4");

  spec = hr_hf_config_to_model_spec (c, "google/gemma-3-4b-it", NULL, NULL);
  g_assert_cmpstr (spec->architecture, ==, "gemma3");
  g_assert_cmpuint (spec->sliding_window, ==, 1024);
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 0));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 5));
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_LAYERS), ==,
                   "config.json text_config.num_hidden_layers");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "config.json text_config.sliding_window, layer_types");
}

static void
test_moe (void)
{
  g_autoptr(GError) error = NULL;
  /* Mixtral-8x7B: 8 experts, 2 per token; the formula gives the published
   * 46,702,792,704 parameters, 12,879,925,248 active. */
  g_autoptr(HrHfConfig) mixtral =
    parse ("{\"architectures\":[\"MixtralForCausalLM\"],\"model_type\":\"mixtral\",\"hidden_size\":4096,"
           "\"intermediate_size\":14336,\"num_hidden_layers\":32,\"num_attention_heads\":32,"
           "\"num_key_value_heads\":8,\"num_local_experts\":8,\"num_experts_per_tok\":2,"
           "\"vocab_size\":32000,\"max_position_embeddings\":32768,\"sliding_window\":null,"
           "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\"}", &error);
  /* DeepSeek-V2-Lite: MLA, 64 routed + 2 shared experts, first layer dense;
   * n_routed_experts wins over num_experts. */
  g_autoptr(HrHfConfig) ds =
    parse ("{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"model_type\":\"deepseek_v2\",\"hidden_size\":2048,"
           "\"intermediate_size\":10944,\"moe_intermediate_size\":1408,\"num_hidden_layers\":27,"
           "\"num_attention_heads\":16,\"num_key_value_heads\":16,\"n_routed_experts\":64,\"num_experts\":8,"
           "\"n_shared_experts\":2,\"num_experts_per_tok\":6,\"first_k_dense_replace\":1,"
           "\"kv_lora_rank\":512,\"q_lora_rank\":null,\"qk_rope_head_dim\":64,\"qk_nope_head_dim\":128,"
           "\"v_head_dim\":128,\"vocab_size\":102400,\"max_position_embeddings\":163840,"
           "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\"}", &error);
  g_autoptr(HrModelSpec) spec = NULL;
  HrHfParameterCount count;

  g_assert_no_error (error);
  g_assert_cmpuint (mixtral->experts, ==, 8);
  g_assert_cmpuint (mixtral->experts_per_token, ==, 2);
  g_assert_false (mixtral->tied_embeddings);
  g_assert_cmpuint (mixtral->sliding_window, ==, 0);
  g_assert_true (hr_hf_config_count_parameters (mixtral, &count, &error));
  g_assert_cmpuint (count.total, ==, 46702792704);
  g_assert_cmpuint (count.active, ==, 12879925248);
  g_assert_cmpuint (count.output, ==, 32000ull * 4096);

  g_assert_cmpuint (ds->experts, ==, 64);
  g_assert_cmpuint (ds->shared_experts, ==, 2);
  g_assert_cmpuint (ds->first_dense_layers, ==, 1);
  g_assert_true (ds->mla);
  g_assert_cmpuint (ds->q_lora_rank, ==, 0);
  g_assert_true (hr_hf_config_count_parameters (ds, &count, &error));
  g_assert_cmpuint (count.total, ==, 15706498048);
  g_assert_cmpuint (count.active, ==, 2661164032);
  spec = hr_hf_config_to_model_spec (ds, "deepseek-ai/DeepSeek-V2-Lite", NULL, NULL);
  g_assert_cmpuint (spec->expert_count, ==, 64);
  g_assert_cmpuint (spec->expert_used_count, ==, 6);
  /* MLA: one latent of kv_lora_rank + qk_rope_head_dim per token and layer
   * (as the GGUF converter writes it and llama.cpp caches it). */
  g_assert_cmpuint (spec->kv_heads, ==, 1);
  g_assert_cmpuint (spec->key_length, ==, 576);
  g_assert_cmpuint (spec->value_length, ==, 512);
  g_assert_true (spec->kv_latent);
  g_assert_cmpuint (hr_model_spec_kv_elements_per_token (spec), ==, 27 * 576);
}

static void
test_old_styles (void)
{
  g_autoptr(GError) error = NULL;
  /* GPT-2: n_layer / n_embd / n_head, n_inner null = 4 x n_embd; the
   * formula gives its 124,439,808 parameters. */
  g_autoptr(HrHfConfig) gpt2 =
    parse ("{\"architectures\":[\"GPT2LMHeadModel\"],\"model_type\":\"gpt2\",\"n_layer\":12,\"n_embd\":768,"
           "\"n_head\":12,\"n_inner\":null,\"n_positions\":1024,\"n_ctx\":1024,\"vocab_size\":50257}", &error);
  /* Falcon-7B: multi_query means one KV head. */
  g_autoptr(HrHfConfig) falcon =
    parse ("{\"model_type\":\"falcon\",\"hidden_size\":4544,\"num_attention_heads\":71,\"num_hidden_layers\":32,"
           "\"multi_query\":true,\"vocab_size\":65024}", &error);
  /* Mistral 7B v0.1: a window with no use_sliding_window flag. */
  g_autoptr(HrHfConfig) mistral =
    parse ("{\"model_type\":\"mistral\",\"hidden_size\":4096,\"num_attention_heads\":32,\"num_key_value_heads\":8,"
           "\"num_hidden_layers\":32,\"intermediate_size\":14336,\"sliding_window\":4096,\"vocab_size\":32000}", &error);
  HrHfParameterCount count;

  g_assert_no_error (error);
  g_assert_true (gpt2->gpt2_style);
  g_assert_cmpuint (gpt2->layers, ==, 12);
  g_assert_cmpuint (gpt2->hidden_size, ==, 768);
  g_assert_cmpuint (gpt2->intermediate_size, ==, 3072);
  g_assert_cmpuint (gpt2->max_position_embeddings, ==, 1024);
  g_assert_true (hr_hf_config_count_parameters (gpt2, &count, &error));
  g_assert_cmpuint (count.total, ==, 124439808);

  g_assert_cmpuint (falcon->kv_heads, ==, 1);
  g_assert_cmpuint (falcon->head_dim, ==, 64);
  g_assert_cmpuint (mistral->sliding_window, ==, 4096);
  g_assert_null (mistral->layer_sliding);
}

static void
test_errors (void)
{
  static const struct {
    const char *json;
    gint        code;
    const char *message;
  } cases[] = {
    { "[1]", HR_CORE_ERROR_PARSE, "config.json is not a JSON object" },
    { "{\"hidden_size\":2048,\"num_attention_heads\":16}", HR_CORE_ERROR_INVALID_DATA,
      "config.json gives no layer count (num_hidden_layers or n_layer)" },
    { "{\"num_hidden_layers\":\"36\",\"hidden_size\":2048,\"num_attention_heads\":16}", HR_CORE_ERROR_INVALID_DATA,
      "config.json: “num_hidden_layers” is not a whole number between 0 and 4294967295" },
    { "{\"num_hidden_layers\":36,\"hidden_size\":2048}", HR_CORE_ERROR_INVALID_DATA,
      "config.json gives no attention head count (num_attention_heads or n_head)" },
    { "{\"num_hidden_layers\":36,\"num_attention_heads\":16}", HR_CORE_ERROR_INVALID_DATA,
      "config.json gives no hidden size (hidden_size or n_embd)" },
    { "{\"num_hidden_layers\":36,\"hidden_size\":2048,\"num_attention_heads\":16,\"num_key_value_heads\":32}",
      HR_CORE_ERROR_INVALID_DATA, "config.json has more key/value heads (32) than attention heads (16)" },
    { "{\"num_hidden_layers\":36,\"hidden_size\":2001,\"num_attention_heads\":16}", HR_CORE_ERROR_INVALID_DATA,
      "config.json: hidden size 2001 is not a multiple of 16 heads and there is no head_dim" },
    { "{\"num_hidden_layers\":2,\"hidden_size\":64,\"num_attention_heads\":4,\"sliding_window\":8,"
      "\"layer_types\":[\"full_attention\"]}", HR_CORE_ERROR_INVALID_DATA,
      "config.json: layer_types lists 1 layers but num_hidden_layers is 2" },
    { "{\"num_hidden_layers\":1e40,\"hidden_size\":64,\"num_attention_heads\":4}", HR_CORE_ERROR_INVALID_DATA,
      "config.json: “num_hidden_layers” is not a whole number between 0 and 4294967295" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrHfConfig) c = parse (cases[i].json, &error);

      g_test_message ("case %u: %s", i, cases[i].json);
      g_assert_null (c);
      g_assert_error (error, HR_CORE_ERROR, cases[i].code);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (hr_hf_config_parse ("{", 1, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_true (g_str_has_prefix (error->message, "config.json is not valid JSON: "));
    g_clear_error (&error);
    g_assert_null (hr_hf_tokenizer_config_parse ("", 0, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_cmpstr (error->message, ==, "tokenizer_config.json is empty or not text");
    g_clear_error (&error);
    g_assert_null (hr_hf_generation_config_parse ("7", 1, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_cmpstr (error->message, ==, "generation_config.json is not a JSON object");
  }
}

static void
test_license (void)
{
  g_autoptr(GBytes) bytes = hub_fixture ("qwen2.5-3b-instruct/LICENSE");
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  g_autoptr(HrHfLicenseFile) qwen = hr_hf_license_file_read (data, size);
  const char *apache = "\n                                 Apache License\n                           Version 2.0, January 2004\n"
                       "   Licensed under the Apache License; you may not use this file except in compliance.\n";
  g_autoptr(HrHfLicenseFile) open = hr_hf_license_file_read (apache, strlen (apache));
  const char *md = "Some preamble\n\n## Gemma Terms of Use ##\n\nThe research purposes only clause is not here.\n";
  g_autoptr(HrHfLicenseFile) heading = hr_hf_license_file_read (md, strlen (md));
  const char *nc = "CC BY-NC 4.0\nAttribution-NonCommercial 4.0 International\n";
  g_autoptr(HrHfLicenseFile) ccnc = hr_hf_license_file_read (nc, strlen (nc));
  g_autoptr(HrHfLicenseFile) empty = hr_hf_license_file_read (NULL, 0);

  g_assert_cmpstr (qwen->title, ==, "Qwen RESEARCH LICENSE AGREEMENT");
  g_assert_true (qwen->non_commercial);
  g_assert_cmpstr (qwen->phrase, ==, "non commercial");

  g_assert_cmpstr (open->title, ==, "Apache License");
  g_assert_false (open->non_commercial);
  g_assert_null (open->phrase);

  g_assert_cmpstr (heading->title, ==, "Gemma Terms of Use");
  g_assert_true (heading->non_commercial);
  g_assert_cmpstr (heading->phrase, ==, "research purposes only");

  g_assert_true (ccnc->non_commercial);
  g_assert_cmpstr (ccnc->phrase, ==, "noncommercial");

  g_assert_null (empty->title);
  g_assert_false (empty->non_commercial);

  g_assert_true (hr_hf_license_tag_is_open ("apache-2.0"));
  g_assert_true (hr_hf_license_tag_is_open ("mit"));
  g_assert_false (hr_hf_license_tag_is_open ("other"));
  g_assert_false (hr_hf_license_tag_is_open ("llama3.1"));
  g_assert_false (hr_hf_license_tag_is_open (NULL));
  g_assert_true (hr_hf_license_tag_non_commercial ("cc-by-nc-4.0"));
  g_assert_false (hr_hf_license_tag_non_commercial ("cc-by-4.0"));
}

static void
test_repo_parse (void)
{
  static const struct {
    const char *text;
    const char *repo;
    const char *revision;
  } good[] = {
    { "Qwen/Qwen2.5-3B-Instruct", "Qwen/Qwen2.5-3B-Instruct", NULL },
    { "  Qwen/Qwen2.5-3B-Instruct@aa8e72537993ba99e69dfaafa59ed015b17504d1 ", "Qwen/Qwen2.5-3B-Instruct",
      "aa8e72537993ba99e69dfaafa59ed015b17504d1" },
    { "https://huggingface.co/google/gemma-3-1b-it@refs/pr/1", "google/gemma-3-1b-it", "refs/pr/1" },
    { "a_b/c.d", "a_b/c.d", NULL },
  };
  static const char * const bad[] = {
    "Qwen", "/x", "x/", "a/b/c", "a/../b", "a/b c", "-a/b", "a/b.", "a--b/c", "a/b@", "a/b@x y", "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *repo = NULL;
      g_autofree char *rev = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (hr_hf_repo_parse (good[i].text, &repo, &rev, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (repo, ==, good[i].repo);
      g_assert_cmpstr (rev, ==, good[i].revision);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *repo = NULL;
      g_autofree char *rev = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_false (hr_hf_repo_parse (bad[i], &repo, &rev, &error));
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
      g_assert_null (repo);
    }
  {
    g_autofree char *repo = NULL;
    g_autofree char *rev = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_false (hr_hf_repo_parse ("Qwen", &repo, &rev, &error));
    g_assert_cmpstr (error->message, ==,
                     "“Qwen” is not a repository id: write owner/name, for example Qwen/Qwen2.5-3B-Instruct");
  }
}

static void
test_gguf_names (void)
{
  static const struct {
    const char *name;
    const char *label;
  } cases[] = {
    { "Llama-3.2-3B-Instruct-Q4_K_M.gguf", "Q4_K_M" },
    { "qwen2.5-3b-instruct-q4_k_m.gguf", "Q4_K_M" },
    { "gemma-3-1b-it-Q8_0.gguf", "Q8_0" },
    { "gemma-3-1b-it-f16.gguf", "F16" },
    { "model-BF16-00001-of-00002.gguf", "BF16" },
    { "Meta-Llama-3-8B.IQ4_XS.gguf", "IQ4_XS" },
    { "sub/dir/x-IQ2_XXS.gguf", "IQ2_XXS" },
    { "Q4_K_M-but-then-Q8_0.gguf", "Q8_0" },
    { "model.gguf", NULL },
    { "XQ4_K_M.gguf", NULL },
  };
  guint index = 0, count = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = hr_hf_gguf_quant_label (cases[i].name);

      g_assert_cmpstr (label, ==, cases[i].label);
    }

  g_assert_true (hr_hf_gguf_split_part ("model-BF16-00001-of-00002.gguf", &index, &count));
  g_assert_cmpuint (index, ==, 1);
  g_assert_cmpuint (count, ==, 2);
  g_assert_false (hr_hf_gguf_split_part ("model-00003-of-00002.gguf", &index, &count));
  g_assert_false (hr_hf_gguf_split_part ("model-Q4_K_M.gguf", &index, &count));
  g_assert_false (hr_hf_gguf_split_part ("00001-of-00002.gguf", &index, &count));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/hf-config/qwen/config", test_qwen_config);
  g_test_add_func ("/hf-config/qwen/parameters", test_qwen_config_parameters);
  g_test_add_func ("/hf-config/qwen/spec", test_qwen_config_spec);
  g_test_add_func ("/hf-config/qwen-tokenizer-generation", test_qwen_tokenizer_and_generation);
  g_test_add_func ("/hf-config/kind-base", test_kind_base);
  g_test_add_func ("/hf-config/head-dim", test_head_dim);
  g_test_add_func ("/hf-config/text-config", test_text_config);
  g_test_add_func ("/hf-config/moe", test_moe);
  g_test_add_func ("/hf-config/old-styles", test_old_styles);
  g_test_add_func ("/hf-config/errors", test_errors);
  g_test_add_func ("/hf-config/license", test_license);
  g_test_add_func ("/hf-config/repo-parse", test_repo_parse);
  g_test_add_func ("/hf-config/gguf-names", test_gguf_names);

  return g_test_run ();
}
