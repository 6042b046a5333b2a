/* test-hf-config-hybrid.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hybrid and recurrent families through the config path and the GGUF
 * path (hf-gguf-test-util.h): the config side's recurrent layers, KV heads
 * per layer and llama.cpp's n_embd_r / n_embd_s (src/llama-hparams.cpp)
 * are asserted against the arithmetic written out in each test; the GGUF
 * side is compared term by term where the GGUF mapper fills the recurrent
 * layers, and marked incomplete (g_test_incomplete()) where it refuses the
 * architecture or leaves them out.
 *
 * Fixtures (tests/fixtures/configs/) and where their values come from:
 *  - qwen3-next-80b-a3b-config.json: Qwen/Qwen3-Next-80B-A3B-Instruct;
 *  - lfm2-1.2b-config.json: LiquidAI/LFM2-1.2B (attention at layers 2, 5,
 *    8, 10, 12, 14);
 *  - nemotron-nano-9b-v2-config.json: nvidia/NVIDIA-Nemotron-Nano-9B-v2
 *    (its hybrid_override_pattern, 4 attention layers of 56);
 *  - mamba-codestral-7b-config.json: mistralai/Mamba-Codestral-7B-v0.1;
 *  - granite-4.0-h-shaped-config.json: shaped after ibm-granite's Granite
 *    4.0 H models (mamba_* keys); its layer_types are not a published
 *    file's, the recurrent-state arithmetic is what it tests.
 */
#include "config.h"

#include "hf-gguf-test-util.h"

/* Qwen/Qwen3-Next-80B-A3B: full attention every 4th layer
 * (full_attention_interval 4); the gated delta net's state, llama.cpp
 * src/llama-hparams.cpp with the GGUF conversion/qwen.py Qwen3NextModel
 * writes: d_conv 4, d_inner 128 x 32 = 4,096, n_group 16, d_state 128:
 * n_embd_r = 3 x (4,096 + 2 x 16 x 128) = 24,576; n_embd_s = 128 x 4,096 =
 * 524,288. */
static void
test_qwen3_next (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("qwen3-next-80b-a3b-config.json");
  const guint64 exps[3] = { 512, 2048, 512 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "qwen3next");
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 36);
  for (guint i = 0; i < 48; i++)
    {
      gboolean attends = (i + 1) % 4 == 0;

      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, !attends);
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, attends ? 2 : 0);
    }
  g_assert_cmpuint (hub->recurrent_r, ==, 24576);
  g_assert_cmpuint (hub->recurrent_s, ==, 524288);
  g_assert_cmpuint (hub->key_length, ==, 256);
  g_assert_cmpuint (hub->feed_forward_length, ==, 512);
  g_assert_nonnull (hub->recurrent_source);

  header_init (&h, "qwen3next");
  put_text_model (&h, 48, 262144, 2048, 5120, 16, 2, 151936);
  put_u32 (&h, "attention.key_length", 256);
  put_u32 (&h, "attention.value_length", 256);
  put_u32 (&h, "expert_count", 512);
  put_u32 (&h, "expert_used_count", 10);
  put_u32 (&h, "expert_feed_forward_length", 512);
  put_u32 (&h, "expert_shared_feed_forward_length", 512);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 16);
  put_u32 (&h, "ssm.time_step_rank", 32);
  put_u32 (&h, "ssm.inner_size", 4096);
  put_u32 (&h, "full_attention_interval", 4);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

/* LiquidAI/LFM2-1.2B: 10 short-conv layers; n_embd_r = 2,048 x (3 - 1) =
 * 4,096, n_embd_s = 0 (src/llama-hparams.cpp, n_shortconv_l_cache); the
 * feed-forward width int(2 x 12,288 / 3) = 8,192 (conversion/lfm2.py). */
static void
test_lfm2 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("lfm2-1.2b-config.json");
  static const guint attn[] = { 2, 5, 8, 10, 12, 14 };
  guint32 kv[16] = { 0 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "lfm2");
  for (guint k = 0; k < G_N_ELEMENTS (attn); k++)
    kv[attn[k]] = 8;
  for (guint i = 0; i < 16; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, kv[i] == 0);
    }
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 10);
  g_assert_cmpuint (hub->recurrent_r, ==, 4096);
  g_assert_cmpuint (hub->recurrent_s, ==, 0);
  g_assert_cmpuint (hub->feed_forward_length, ==, 8192);

  header_init (&h, "lfm2");
  put_text_model (&h, 16, 128000, 2048, 8192, 32, 0, 65536);
  put_u32_array (&h, "attention.head_count_kv", kv, 16);
  put_u32 (&h, "shortconv.l_cache", 3);
  compare_hybrid (hub, &h, 8192);
}

/* Granite 4.0 H shape: mamba_expand 2 x 1,536 = d_inner 3,072, one group,
 * d_state 128, d_conv 4 (conversion/granite.py GraniteHybridModel):
 * n_embd_r = 3 x (3,072 + 2 x 128) = 9,984, n_embd_s = 128 x 3,072 =
 * 393,216; head_count_kv 0 on the 36 mamba layers. */
static void
test_granite_hybrid (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("granite-4.0-h-shaped-config.json");
  guint32 kv[40] = { 0 };
  const guint64 exps[3] = { 512, 1536, 64 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "granitehybrid");
  kv[5] = kv[15] = kv[25] = kv[35] = 4;
  for (guint i = 0; i < 40; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, kv[i] == 0);
    }
  g_assert_cmpuint (hub->recurrent_r, ==, 9984);
  g_assert_cmpuint (hub->recurrent_s, ==, 393216);

  header_init (&h, "granitehybrid");
  put_text_model (&h, 40, 131072, 1536, 512, 12, 0, 100352);
  put_u32_array (&h, "attention.head_count_kv", kv, 40);
  put_u32 (&h, "expert_count", 64);
  put_u32 (&h, "expert_used_count", 6);
  put_u32 (&h, "expert_shared_feed_forward_length", 1024);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 1);
  put_u32 (&h, "ssm.inner_size", 3072);
  put_u32 (&h, "ssm.time_step_rank", 48);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

/* nvidia/NVIDIA-Nemotron-Nano-9B-v2: "M" layers recurrent, "*" attend,
 * "-" are MLP only; d_inner = 128 heads x mamba_head_dim 80 = 10,240,
 * n_group 8, d_state 128, d_conv 4: n_embd_r = 3 x (10,240 + 2 x 8 x 128) =
 * 36,864, n_embd_s = 128 x 10,240 = 1,310,720. */
static void
test_nemotron_h (void)
{
  static const char pattern[] = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-";
  g_autoptr(HrModelSpec) hub = hub_spec ("nemotron-nano-9b-v2-config.json");
  guint32 kv[56], ff[56];
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "nemotron_h");
  for (guint i = 0; i < 56; i++)
    {
      kv[i] = pattern[i] == '*' ? 8 : 0;
      ff[i] = pattern[i] == '-' ? 15680 : 0;
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, pattern[i] == 'M');
    }
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 27);
  g_assert_cmpuint (hub->recurrent_r, ==, 36864);
  g_assert_cmpuint (hub->recurrent_s, ==, 1310720);

  header_init (&h, "nemotron_h");
  put_u32 (&h, "block_count", 56);
  put_u32 (&h, "context_length", 131072);
  put_u32 (&h, "embedding_length", 4480);
  put_u32_array (&h, "feed_forward_length", ff, 56);
  put_u32 (&h, "attention.head_count", 40);
  put_u32_array (&h, "attention.head_count_kv", kv, 56);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  put_u32 (&h, "vocab_size", 131072);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 8);
  put_u32 (&h, "ssm.inner_size", 10240);
  put_u32 (&h, "ssm.time_step_rank", 128);
  compare_hybrid (hub, &h, 8192);
}

/* moonshotai/Kimi-Linear-48B-A3B-Instruct (values from memory of the
 * published config, not re-checked): MLA on layers 4, 8, ... 24 and 27
 * (1-based full_attn_layers), KDA elsewhere; n_embd_r = 3 x (4 - 1) x 32 x
 * 128 = 36,864, n_embd_s = 128 x 128 x 32 = 524,288. */
static void
test_kimi_linear (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"KimiLinearForCausalLM\"],\"model_type\":\"kimi_linear\",\"hidden_size\":2304,"
    "\"num_hidden_layers\":27,\"num_attention_heads\":32,\"num_key_value_heads\":32,\"kv_lora_rank\":512,"
    "\"q_lora_rank\":null,\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,"
    "\"intermediate_size\":9216,\"moe_intermediate_size\":1024,\"num_experts\":256,\"num_experts_per_token\":8,"
    "\"num_shared_experts\":1,\"first_k_dense_replace\":1,\"vocab_size\":163840,\"max_position_embeddings\":1048576,"
    "\"linear_attn_config\":{\"full_attn_layers\":[4,8,12,16,20,24,27],\"head_dim\":128,\"num_heads\":32,"
    "\"short_conv_kernel_size\":4}}");
  guint32 kv[27] = { 0 };
  const guint64 exps[3] = { 1024, 2304, 256 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "kimi-linear");
  kv[3] = kv[7] = kv[11] = kv[15] = kv[19] = kv[23] = kv[26] = 1;
  for (guint i = 0; i < 27; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, kv[i] == 0);
    }
  g_assert_cmpuint (hub->key_length, ==, 576);
  g_assert_true (hub->kv_latent);
  g_assert_cmpuint (hub->recurrent_r, ==, 36864);
  g_assert_cmpuint (hub->recurrent_s, ==, 524288);

  header_init (&h, "kimi-linear");
  put_text_model (&h, 27, 1048576, 2304, 9216, 32, 0, 163840);
  put_u32_array (&h, "attention.head_count_kv", kv, 27);
  put_u32 (&h, "attention.key_length", 576);
  put_u32 (&h, "attention.value_length", 512);
  put_u32 (&h, "attention.key_length_mla", 192);
  put_u32 (&h, "attention.value_length_mla", 128);
  put_u32 (&h, "attention.kv_lora_rank", 512);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "kda.head_dim", 128);
  put_u32 (&h, "expert_count", 256);
  put_u32 (&h, "expert_used_count", 8);
  put_u32 (&h, "expert_feed_forward_length", 1024);
  put_u32 (&h, "expert_shared_count", 1);
  put_u32 (&h, "leading_dense_block_count", 1);
  put_tensor (&h, "blk.1.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

/* mistralai/Mamba-Codestral-7B-v0.1: every layer recurrent, none attends;
 * d_inner = expand 2 x 4,096 = 8,192, n_group 8, d_state 128, d_conv 4:
 * n_embd_r = 3 x (8,192 + 2 x 8 x 128) = 30,720, n_embd_s = 1,048,576.
 * The converter (conversion/mamba.py Mamba2Model) writes head_count 0,
 * feed_forward_length 0 and a placeholder context_length of 2^20 ("for
 * those who use the default"), which the header here leaves out: the
 * config has no context limit, so neither path gives one. */
static void
test_mamba2 (void)
{
  g_autoptr(HrHfConfig) config = load_config ("mamba-codestral-7b-config.json");
  g_autoptr(HrModelSpec) hub = NULL;
  Header h;

  g_assert_cmpstr (config->gguf_arch, ==, "mamba2");
  g_assert_cmpuint (config->heads, ==, 0);
  g_assert_nonnull (config->layer_recurrent);
  g_assert_cmpuint (config->layer_recurrent->len, ==, 64);
  for (guint i = 0; i < 64; i++)
    {
      g_assert_cmpuint (g_array_index (config->layer_recurrent, guint8, i), ==, 1);
      g_assert_cmpuint (g_array_index (config->layer_kv_heads, guint32, i), ==, 0);
    }
  g_assert_cmpuint (config->recurrent_r, ==, 30720);
  g_assert_cmpuint (config->recurrent_s, ==, 1048576);
  g_assert_cmpuint (hr_hf_config_feed_forward_length (config), ==, 0);

  hub = hr_hf_config_to_model_spec (config, "mistralai/Mamba-Codestral-7B-v0.1", NULL, NULL);
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 64);
  header_init (&h, "mamba2");
  put_u32 (&h, "embedding_length", 4096);
  put_u32 (&h, "feed_forward_length", 0);
  put_u32 (&h, "attention.head_count", 0);
  put_u32 (&h, "block_count", 64);
  put_u32 (&h, "vocab_size", 32768);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.inner_size", 8192);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.time_step_rank", 128);
  put_u32 (&h, "ssm.group_count", 8);
  compare_hybrid (hub, &h, 8192);
}

/* Qwen3_5TextConfig's defaults with the linear-attention keys, layer_types,
 * head_dim, num_key_value_heads, vocab_size and max_position_embeddings
 * left out (transformers configuration_qwen3_5.py): linear_conv_kernel_dim
 * 4, linear_key_head_dim 128, linear_value_head_dim 128,
 * linear_num_key_heads 16, linear_num_value_heads 32, full attention every
 * 4th layer (full_attention_interval 4), head_dim 256, 4 KV heads,
 * vocab_size 248,320, max_position_embeddings 32,768. One MTP layer
 * (mtp_num_hidden_layers), which the converter appends (conversion/qwen.py
 * _QwenMtpMixin: block_count 33, nextn_predict_layers 1, recurrent_layers
 * false there) and llama.cpp keeps out of the KV cache and the state
 * (create_memory: il < n_layer ()). The state (src/llama-hparams.cpp):
 * n_embd_r = (4 - 1) x (128 x 32 + 2 x 16 x 128) = 24,576, n_embd_s = 128
 * x 4,096 = 524,288; at 8,192 tokens, f16, one slot: KV 8 x 8,192 x 2 x 4 x
 * 256 x 2 bytes, state 24 x (24,576 + 524,288) x 4 bytes. */
/* Qwen3.5 with the transformers defaults filled in (one MTP layer). */
static HrModelSpec *
qwen35_default_spec (void)
{
  return inline_spec (
    "{\"architectures\":[\"Qwen3_5ForConditionalGeneration\"],\"model_type\":\"qwen3_5\","
    "\"text_config\":{\"model_type\":\"qwen3_5_text\",\"hidden_size\":2560,\"num_hidden_layers\":32,"
    "\"num_attention_heads\":16,\"intermediate_size\":9216,\"mtp_num_hidden_layers\":1}}");
}

/* qwen3_5's recurrent layers: every layer but each fourth, not the MTP layer. */
static gboolean
qwen35_recurrent (guint i)
{
  return i < 32 && (i + 1) % 4 != 0;
}

static void
test_qwen35_defaults (void)
{
  g_autoptr(HrModelSpec) hub = qwen35_default_spec ();

  g_assert_cmpstr (hub->architecture, ==, "qwen35");
  g_assert_cmpuint (hub->layers, ==, 33);
  g_assert_cmpuint (hub->key_length, ==, 256);
  g_assert_cmpuint (hub->kv_heads, ==, 4);
  g_assert_cmpuint (hub->vocab_size, ==, 248320);
  g_assert_cmpuint (hub->context_length, ==, 32768);
  g_assert_cmpuint (hub->recurrent_r, ==, 24576);
  g_assert_cmpuint (hub->recurrent_s, ==, 524288);
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 24);
  for (guint i = 0; i < 33; i++)
    {
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, qwen35_recurrent (i));
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, i < 32 && !qwen35_recurrent (i) ? 4 : 0);
    }
  g_assert_cmpstr (hr_model_spec_get_source (hub, HR_SPEC_FIELD_KV_HEADS), ==,
                   "transformers default (configuration_qwen3_5.py num_key_value_heads): 4");
}

/* Every default applied is listed, in the order the keys are read. */
static void
test_qwen35_defaults_listed (void)
{
  static const char json[] =
    "{\"model_type\":\"qwen3_5_text\",\"hidden_size\":2560,\"num_hidden_layers\":32,\"num_attention_heads\":16}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHfConfig) config = hr_hf_config_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (config->defaults->len, ==, 10);
  g_assert_cmpstr (g_ptr_array_index (config->defaults, 0), ==,
                   "num_key_value_heads: transformers default (configuration_qwen3_5.py num_key_value_heads): 4");
  g_assert_cmpstr (g_ptr_array_index (config->defaults, 7), ==,
                   "linear_num_key_heads: transformers default (configuration_qwen3_5.py linear_num_key_heads): 16");
  g_assert_cmpstr (g_ptr_array_index (config->defaults, 9), ==,
                   "full_attention_interval: transformers default (configuration_qwen3_5.py "
                   "full_attention_interval): 4");
}

static void
test_qwen35_defaults_gguf (void)
{
  g_autoptr(HrModelSpec) hub = qwen35_default_spec ();
  guint8 recr[33];
  Header h;

  for (guint i = 0; i < 33; i++)
    recr[i] = qwen35_recurrent (i);
  header_init (&h, "qwen35");
  put_text_model (&h, 33, 32768, 2560, 9216, 16, 4, 248320);
  put_u32 (&h, "attention.key_length", 256);
  put_u32 (&h, "attention.value_length", 256);
  put_u32 (&h, "nextn_predict_layers", 1);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 16);
  put_u32 (&h, "ssm.time_step_rank", 32);
  put_u32 (&h, "ssm.inner_size", 4096);
  put_u32 (&h, "full_attention_interval", 4);
  put_bool_array (&h, "attention.recurrent_layers", recr, 33);
  compare_hybrid (hub, &h, 8192);
}

static void
test_qwen35_defaults_prediction (void)
{
  g_autoptr(HrModelSpec) hub = qwen35_default_spec ();
  HrRuntimePrediction p;

  predict (hub, 8192, &p);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   G_GINT64_CONSTANT (8) * 8192 * 2 * 4 * 256 * 2);
  /* The MTP layer makes Ollama start a draft (--spec-draft-n-max 4), and
   * llama.cpp keeps 1 + 4 rows per slot (n_rs_seq). */
  g_assert_cmpuint (p.rs_seq, ==, 4);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE), ==,
                   G_GINT64_CONSTANT (24) * (24576 + 524288) * 4 * 5);
  g_assert_cmpuint (hr_runtime_layer_state_bytes (&p, hub, 0), ==, G_GUINT64_CONSTANT (548864) * 4 * 5);
}

/* n_rs_seq where it does not apply: draft_num_predict 0 (Ollama passes no
 * --spec-type), llama-server run by hand (no draft unless --spec-type),
 * an architecture llama.cpp does not roll back (qwen3next: n_rs_seq
 * clamped to 0, src/llama-context.cpp), and a file without nextn layers. */
static void
test_qwen35_rs_seq_off (void)
{
  g_autoptr(HrModelSpec) mtp = inline_spec (
    "{\"model_type\":\"qwen3_5_text\",\"hidden_size\":2560,\"num_hidden_layers\":32,"
    "\"num_attention_heads\":16,\"intermediate_size\":9216,\"mtp_num_hidden_layers\":1}");
  g_autoptr(HrModelSpec) plain = inline_spec (
    "{\"model_type\":\"qwen3_5_text\",\"hidden_size\":2560,\"num_hidden_layers\":32,"
    "\"num_attention_heads\":16,\"intermediate_size\":9216}");
  g_autoptr(HrModelSpec) next = hr_model_spec_copy (mtp);
  const gint64 one = G_GINT64_CONSTANT (24) * (24576 + 524288) * 4;
  g_autoptr(GError) error = NULL;
  HrRuntimePrediction p;
  HrRuntimeInputs in;

  hr_runtime_inputs_init (&in, mtp, 8192);
  g_assert_cmpuint (in.draft_num_predict, ==, 4);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = 1;
  in.draft_num_predict = 0;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.rs_seq, ==, 0);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE), ==, one);

  in.draft_num_predict = 4;
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.context_tokens = 8192;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.rs_seq, ==, 0);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE), ==, one);
  {
    gboolean said = FALSE;

    for (guint i = 0; i < p.n_notes; i++)
      said |= g_str_has_prefix (p.notes[i], "llama-server run by hand starts no MTP draft unless --spec-type draft-mtp");
    g_assert_true (said);
  }

  g_free (next->architecture);
  next->architecture = g_strdup ("qwen3next");
  predict (next, 8192, &p);
  g_assert_cmpuint (p.rs_seq, ==, 0);
  predict (plain, 8192, &p);
  g_assert_cmpuint (p.rs_seq, ==, 0);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE), ==, one);
  predict (mtp, 8192, &p);
  g_assert_cmpuint (p.rs_seq, ==, 4);
}

/* Qwen3_5MoeTextConfig's defaults (configuration_qwen3_5_moe.py): 2 KV
 * heads, num_experts 256, num_experts_per_tok 8, moe_intermediate_size
 * 512, shared_expert_intermediate_size 512, and the linear-attention
 * defaults above; 40 trunk layers and one MTP layer. */
static void
test_qwen35_moe_defaults (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"Qwen3_5MoeForConditionalGeneration\"],\"model_type\":\"qwen3_5_moe\","
    "\"text_config\":{\"model_type\":\"qwen3_5_moe_text\",\"hidden_size\":2048,\"num_hidden_layers\":40,"
    "\"num_attention_heads\":16,\"mtp_num_hidden_layers\":1}}");
  const guint64 exps[3] = { 512, 2048, 256 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "qwen35moe");
  g_assert_cmpuint (hub->layers, ==, 41);
  g_assert_cmpuint (hub->kv_heads, ==, 2);
  g_assert_cmpuint (hub->expert_count, ==, 256);
  g_assert_cmpuint (hub->expert_used_count, ==, 8);
  g_assert_cmpuint (hub->feed_forward_length, ==, 512);
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 30);
  g_assert_cmpuint (hub->recurrent_r, ==, 24576);
  g_assert_cmpuint (hub->recurrent_s, ==, 524288);

  header_init (&h, "qwen35moe");
  put_text_model (&h, 41, 32768, 2048, 0, 16, 2, 248320);
  put_u32 (&h, "attention.key_length", 256);
  put_u32 (&h, "attention.value_length", 256);
  put_u32 (&h, "nextn_predict_layers", 1);
  put_u32 (&h, "expert_count", 256);
  put_u32 (&h, "expert_used_count", 8);
  put_u32 (&h, "expert_feed_forward_length", 512);
  put_u32 (&h, "expert_shared_feed_forward_length", 512);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 16);
  put_u32 (&h, "ssm.time_step_rank", 32);
  put_u32 (&h, "ssm.inner_size", 4096);
  put_u32 (&h, "full_attention_interval", 4);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hf-config-hybrid/qwen3-next", test_qwen3_next);
  g_test_add_func ("/hf-config-hybrid/qwen35-defaults/spec", test_qwen35_defaults);
  g_test_add_func ("/hf-config-hybrid/qwen35-defaults/listed", test_qwen35_defaults_listed);
  g_test_add_func ("/hf-config-hybrid/qwen35-defaults/gguf", test_qwen35_defaults_gguf);
  g_test_add_func ("/hf-config-hybrid/qwen35-defaults/prediction", test_qwen35_defaults_prediction);
  g_test_add_func ("/hf-config-hybrid/qwen35moe-defaults", test_qwen35_moe_defaults);
  g_test_add_func ("/hf-config-hybrid/qwen35-rs-seq-off", test_qwen35_rs_seq_off);
  g_test_add_func ("/hf-config-hybrid/lfm2", test_lfm2);
  g_test_add_func ("/hf-config-hybrid/granite-hybrid", test_granite_hybrid);
  g_test_add_func ("/hf-config-hybrid/nemotron-h", test_nemotron_h);
  g_test_add_func ("/hf-config-hybrid/kimi-linear", test_kimi_linear);
  g_test_add_func ("/hf-config-hybrid/mamba2", test_mamba2);

  return g_test_run ();
}
