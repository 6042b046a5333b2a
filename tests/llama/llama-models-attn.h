/* llama-models-attn.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sparse, real-shaped GGUF files for the attention variants of 2025-26, for
 * the suite that loads them into a real llama-server (test-llama.c). Same
 * helpers and type mix as llama-models.h (Q4_K where rows are a multiple of
 * 256, Q8_0 where not, Q6_K for the embedding and the "more bits" layers,
 * F32 for norms, biases, sinks and routers). Tensor names and shapes are the
 * ones llama.cpp (de3ff815) asks for in src/models/<arch>.cpp
 * load_arch_tensors; the keys the ones its load_arch_hparams reads. Every
 * per-layer shape is the real model's; what is shrunk is said per builder
 * (the compute buffer is one layer's graph and does not depend on the
 * number of layers or experts beyond the router's logits).
 */
#pragma once

#include "llama-models.h"

/* The per-layer attention keys when key and value lengths differ from the
 * rope dims (lm_hparams writes all three as head_dim). */
static inline void
lm_attn_keys (LmModel    *m,
              const char *arch,
              guint32     layers,
              guint32     context,
              guint32     embd,
              guint32     ff,
              guint32     heads,
              guint32     kv_heads,
              guint32     key_length,
              guint32     value_length,
              guint32     rope_dims)
{
  lm_u32 (m, arch, "block_count", layers);
  lm_u32 (m, arch, "context_length", context);
  lm_u32 (m, arch, "embedding_length", embd);
  if (ff > 0)
    lm_u32 (m, arch, "feed_forward_length", ff);
  lm_u32 (m, arch, "attention.head_count", heads);
  lm_u32 (m, arch, "attention.head_count_kv", kv_heads);
  lm_u32 (m, arch, "attention.key_length", key_length);
  lm_u32 (m, arch, "attention.value_length", value_length);
  lm_u32 (m, arch, "rope.dimension_count", rope_dims);
  lm_f32 (m, arch, "rope.freq_base", 10000.0f);
  lm_f32 (m, arch, "attention.layer_norm_rms_epsilon", 1e-6f);
  gw_kv_u32 (m->kv, "general.file_type", 15); /* Q4_K_M */
  m->n_kv++;
}

/* Q4_K for rows that are a multiple of 256, Q8_0 otherwise. */
static inline guint32
lm_wide (guint64 row)
{
  return row % 256 == 0 ? LM_Q4_K : LM_Q8_0;
}

/* The plain attention block (the caller writes its norm): q, k, v, output (optional q/k/v biases,
 * q/k norms). */
static inline void
lm_attn_block (LmModel *m,
               guint    i,
               guint    L,
               guint64  E,
               guint64  Q,
               guint64  KV,
               guint64  head_dim,
               gboolean bias,
               gboolean qk_norm)
{
  gboolean more = lm_more_bits (i, L);

  lm_tensor (m, lm_wide (E), E, Q, 0, "blk.%u.attn_q.weight", i);
  lm_tensor (m, lm_wide (E), E, KV, 0, "blk.%u.attn_k.weight", i);
  lm_tensor (m, more && E % 256 == 0 ? LM_Q6_K : lm_wide (E), E, KV, 0, "blk.%u.attn_v.weight", i);
  lm_tensor (m, lm_wide (Q), Q, E, 0, "blk.%u.attn_output.weight", i);
  if (bias)
    {
      lm_tensor (m, LM_F32, Q, 0, 0, "blk.%u.attn_q.bias", i);
      lm_tensor (m, LM_F32, KV, 0, 0, "blk.%u.attn_k.bias", i);
      lm_tensor (m, LM_F32, KV, 0, 0, "blk.%u.attn_v.bias", i);
    }
  if (qk_norm)
    {
      lm_tensor (m, LM_F32, head_dim, 0, 0, "blk.%u.attn_q_norm.weight", i);
      lm_tensor (m, LM_F32, head_dim, 0, 0, "blk.%u.attn_k_norm.weight", i);
    }
}

/* The gated feed-forward block (gate, up, down) with its norm. */
static inline void
lm_ffn_block (LmModel *m,
              guint    i,
              guint    L,
              guint64  E,
              guint64  F,
              gboolean norm)
{
  gboolean more = lm_more_bits (i, L);

  if (norm)
    lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
  lm_tensor (m, lm_wide (E), E, F, 0, "blk.%u.ffn_gate.weight", i);
  lm_tensor (m, lm_wide (E), E, F, 0, "blk.%u.ffn_up.weight", i);
  lm_tensor (m, more && F % 256 == 0 ? LM_Q6_K : lm_wide (F), F, E, 0, "blk.%u.ffn_down.weight", i);
}

/* The routed experts: router, gate, up, down ([E, FE, X] / [FE, E, X]). */
static inline void
lm_moe_block (LmModel *m,
              guint    i,
              guint64  E,
              guint64  FE,
              guint64  X)
{
  lm_tensor (m, LM_F32, E, X, 0, "blk.%u.ffn_gate_inp.weight", i);
  lm_tensor (m, lm_wide (E), E, FE, X, "blk.%u.ffn_gate_exps.weight", i);
  lm_tensor (m, lm_wide (E), E, FE, X, "blk.%u.ffn_up_exps.weight", i);
  lm_tensor (m, lm_wide (FE), FE, E, X, "blk.%u.ffn_down_exps.weight", i);
}

/* The shared expert of width FS. */
static inline void
lm_shexp_block (LmModel *m,
                guint    i,
                guint64  E,
                guint64  FS)
{
  lm_tensor (m, lm_wide (E), E, FS, 0, "blk.%u.ffn_gate_shexp.weight", i);
  lm_tensor (m, lm_wide (E), E, FS, 0, "blk.%u.ffn_up_shexp.weight", i);
  lm_tensor (m, lm_wide (FS), FS, E, 0, "blk.%u.ffn_down_shexp.weight", i);
}

/* lm_tokenizer()'s vocabulary with @special as its last tokens (control
 * tokens, type 3): llama.cpp's vocabulary loader looks some up by name for
 * some models (src/llama-vocab.cpp: "<|endoftext|>" when general.name has
 * "phi3"). */
static inline void
lm_tokenizer_special (LmModel           *m,
                      guint32            n,
                      const char *const *special,
                      guint32            n_special)
{
  guint32 first = n - n_special;

  gw_kv_str (m->kv, "tokenizer.ggml.model", "llama");
  gw_kv_array (m->kv, "tokenizer.ggml.tokens", GW_STRING, n);
  for (guint32 i = 0; i < n; i++)
    {
      char tok[32];

      if (i >= first)
        g_strlcpy (tok, special[i - first], sizeof tok);
      else if (i == 0)
        g_strlcpy (tok, "<unk>", sizeof tok);
      else if (i == 1)
        g_strlcpy (tok, "<s>", sizeof tok);
      else if (i == 2)
        g_strlcpy (tok, "</s>", sizeof tok);
      else if (i < 3 + 256)
        g_snprintf (tok, sizeof tok, "<0x%02X>", i - 3);
      else
        g_snprintf (tok, sizeof tok, "\xe2\x96\x81t%u", i);
      gw_str (m->kv, tok);
    }
  gw_kv_array (m->kv, "tokenizer.ggml.scores", GW_FLOAT32, n);
  for (guint32 i = 0; i < n; i++)
    gw_f32 (m->kv, -(float) i);
  gw_kv_array (m->kv, "tokenizer.ggml.token_type", GW_INT32, n);
  for (guint32 i = 0; i < n; i++)
    gw_u32 (m->kv, i == 0 ? 2 : i < 3 || i >= first ? 3 : i < 3 + 256 ? 6 : 1);
  gw_kv_u32 (m->kv, "tokenizer.ggml.unknown_token_id", 0);
  gw_kv_u32 (m->kv, "tokenizer.ggml.bos_token_id", 1);
  gw_kv_u32 (m->kv, "tokenizer.ggml.eos_token_id", 2);
  m->n_kv += 7;
}

/* Qwen3-8B (qwen3, dense): 36 layers, 4096 wide, 32 heads, 8 KV heads x
 * 128, q/k norms, n_ff 12288, vocab 151936, its own output. Nothing shrunk. */
static inline LmModel *
lm_qwen3_8b (void)
{
  const guint L = 36;
  const guint64 E = 4096, F = 12288, V = 151936;
  LmModel *m = lm_model_new ("qwen3-8b", "qwen3:8b", "qwen3");

  lm_hparams (m, "qwen3", L, 40960, E, F, 32, 8, 128);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, L, E, 4096, 1024, 128, FALSE, TRUE);
      lm_ffn_block (m, i, L, E, F, TRUE);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* Phi-3-mini-4k (phi3): 32 layers, 3072 wide, 32 heads = 32 KV heads x 96,
 * fused attn_qkv, ffn_up of 2 x n_ff (8192), vocab 32064, its own output;
 * its sliding_window (2047) is in the file and llama.cpp switches it off.
 * Nothing shrunk. */
static inline LmModel *
lm_phi3_mini (void)
{
  const guint L = 32;
  const guint64 E = 3072, F = 8192, V = 32064;
  LmModel *m = lm_model_new ("phi3-mini", "phi3:3.8b", "phi3");

  lm_hparams (m, "phi3", L, 4096, E, F, 32, 32, 96);
  lm_u32 (m, "phi3", "attention.sliding_window", 2047);
  lm_tokenizer_special (m, V, (const char *const[]) { "<|endoftext|>" }, 1);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      gboolean more = lm_more_bits (i, L);

      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, E, 3 * E, 0, "blk.%u.attn_qkv.weight", i);
      lm_tensor (m, LM_Q4_K, E, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      lm_tensor (m, LM_Q4_K, E, 2 * F, 0, "blk.%u.ffn_up.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, F, E, 0, "blk.%u.ffn_down.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* Ministral-3-8B (mistral3): 34 layers, 4096 wide, 32 heads, 8 KV heads x
 * 128, n_ff 14336, vocab 131072, its own output, attention temperature
 * scaling (attention.temperature_scale with the YaRN original context).
 * Nothing shrunk. */
static inline LmModel *
lm_ministral3_8b (void)
{
  const guint L = 34;
  const guint64 E = 4096, F = 14336, V = 131072;
  LmModel *m = lm_model_new ("ministral3-8b", "ministral-3:8b", "mistral3");

  lm_hparams (m, "mistral3", L, 262144, E, F, 32, 8, 128);
  lm_f32 (m, "mistral3", "attention.temperature_scale", 0.1f);
  lm_u32 (m, "mistral3", "rope.scaling.original_context_length", 16384);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, L, E, 4096, 1024, 128, FALSE, FALSE);
      lm_ffn_block (m, i, L, E, F, TRUE);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* Command R7B (cohere2): 32 layers, 4096 wide, 32 heads, 8 KV heads x 128,
 * n_ff 14336, vocab 256000, tied; three of every four layers slide over
 * 4096 tokens (llama.cpp's pattern 4). Nothing shrunk. */
static inline LmModel *
lm_command_r7b (void)
{
  const guint L = 32;
  const guint64 E = 4096, F = 14336, V = 256000;
  LmModel *m = lm_model_new ("command-r7b", "command-r7b:7b", "cohere2");

  lm_hparams (m, "cohere2", L, 8192, E, F, 32, 8, 128);
  lm_u32 (m, "cohere2", "attention.sliding_window", 4096);
  lm_f32 (m, "cohere2", "logit_scale", 0.25f);
  lm_f32 (m, "cohere2", "attention.layer_norm_epsilon", 1e-5f);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q6_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, L, E, 4096, 1024, 128, FALSE, FALSE);
      lm_ffn_block (m, i, L, E, F, FALSE);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* EXAONE-4.0-32B (exaone4): 64 layers (llama.cpp turns the sliding window
 * on only for 64), 5120 wide, 40 heads, 8 KV heads x 128, q/k norms, post
 * norms, n_ff 27392, vocab 102400, its own output; three of every four
 * layers slide over 4096 tokens. Nothing shrunk. */
static inline LmModel *
lm_exaone4_32b (void)
{
  const guint L = 64;
  const guint64 E = 5120, F = 27392, V = 102400;
  LmModel *m = lm_model_new ("exaone4-32b", "exaone4:32b", "exaone4");

  lm_hparams (m, "exaone4", L, 131072, E, F, 40, 8, 128);
  lm_u32 (m, "exaone4", "attention.sliding_window", 4096);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      /* No attn_norm: exaone4 normalises after attention and feed-forward. */
      lm_attn_block (m, i, L, E, 5120, 1024, 128, FALSE, TRUE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      lm_ffn_block (m, i, L, E, F, FALSE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_ffw_norm.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* Llama-4-Maverick's layer shapes (llama4): 48 layers, 5120 wide, 40 heads,
 * 8 KV heads x 128, a dense n_ff of 16384 in the odd layers and experts of
 * 8192 plus a shared one of 8192 in every second layer
 * (interleave_moe_layer_step 2), 1 expert used, vocab 202048, its own
 * output; chunked attention (llama.cpp: 8192-token chunks, three of every
 * four layers). Shrunk: 8 layers (two of the four-layer chunked pattern)
 * instead of 48, 16 experts (Scout's count) instead of 128. */
static inline LmModel *
lm_llama4_maverick (void)
{
  const guint L = 8;
  const guint64 E = 5120, F = 16384, FE = 8192, X = 16, V = 202048;
  LmModel *m = lm_model_new ("llama4-maverick", "llama4:maverick", "llama4");

  lm_hparams (m, "llama4", L, 1048576, E, F, 40, 8, 128);
  lm_u32 (m, "llama4", "expert_count", X);
  lm_u32 (m, "llama4", "expert_used_count", 1);
  lm_u32 (m, "llama4", "expert_feed_forward_length", FE);
  lm_u32 (m, "llama4", "interleave_moe_layer_step", 2);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, L, E, 5120, 1024, 128, FALSE, FALSE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      if ((i + 1) % 2 == 0)
        {
          lm_moe_block (m, i, E, FE, X);
          lm_shexp_block (m, i, E, FE);
        }
      else
        lm_ffn_block (m, i, L, E, F, FALSE);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* gpt-oss-20b (gpt-oss): 24 layers, 2880 wide, 64 heads, 8 KV heads x 64,
 * q/k/v and output biases, attention sinks, 32 experts of 2880 with biases,
 * 4 used, vocab 201088, its own output; every other layer slides over 128
 * tokens. The experts are Q8_0 here (the published file has MXFP4, which
 * changes the weights only). Shrunk: 8 layers instead of 24. */
static inline LmModel *
lm_gpt_oss_20b (void)
{
  const guint L = 8;
  const guint64 E = 2880, Q = 4096, KV = 512, FE = 2880, X = 32, V = 201088;
  LmModel *m = lm_model_new ("gpt-oss-20b", "gpt-oss:20b", "gpt-oss");

  lm_hparams (m, "gpt-oss", L, 131072, E, 0, 64, 8, 64);
  lm_u32 (m, "gpt-oss", "attention.sliding_window", 128);
  lm_u32 (m, "gpt-oss", "expert_count", X);
  lm_u32 (m, "gpt-oss", "expert_used_count", 4);
  lm_u32 (m, "gpt-oss", "expert_feed_forward_length", FE);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, L, E, Q, KV, 64, TRUE, FALSE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_output.bias", i);
      lm_tensor (m, LM_F32, 64, 0, 0, "blk.%u.attn_sinks.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      lm_moe_block (m, i, E, FE, X);
      lm_tensor (m, LM_F32, X, 0, 0, "blk.%u.ffn_gate_inp.bias", i);
      lm_tensor (m, LM_F32, FE, X, 0, "blk.%u.ffn_gate_exps.bias", i);
      lm_tensor (m, LM_F32, FE, X, 0, "blk.%u.ffn_up_exps.bias", i);
      lm_tensor (m, LM_F32, E, X, 0, "blk.%u.ffn_down_exps.bias", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q8_0, E, V, 0, "output.weight");
  return m;
}

/* DeepSeek-V2-Lite (deepseek2, MLA): 27 layers (llama.cpp's "lite": no q
 * LoRA), 2048 wide, 16 heads, one cached latent of kv_lora_rank 512 + 64
 * rope dims (key_length 576, value_length 512; key_length_mla 192,
 * value_length_mla 128), layer 0 dense (n_ff 10944), the rest 64 experts
 * of 1408 with 2 shared, 6 used, vocab 102400, its own output. Nothing
 * shrunk. */
static inline LmModel *
lm_deepseek_v2_lite (void)
{
  const guint L = 27;
  const guint64 E = 2048, H = 16, R = 512, ROPE = 64, KMLA = 192, VMLA = 128;
  const guint64 F = 10944, FE = 1408, X = 64, V = 102400;
  LmModel *m = lm_model_new ("deepseek-v2-lite", "deepseek-v2:16b", "deepseek2");

  lm_attn_keys (m, "deepseek2", L, 163840, E, F, H, 1, R + ROPE, R, ROPE);
  lm_u32 (m, "deepseek2", "attention.key_length_mla", KMLA);
  lm_u32 (m, "deepseek2", "attention.value_length_mla", VMLA);
  lm_u32 (m, "deepseek2", "attention.kv_lora_rank", R);
  lm_u32 (m, "deepseek2", "leading_dense_block_count", 1);
  lm_u32 (m, "deepseek2", "expert_count", X);
  lm_u32 (m, "deepseek2", "expert_used_count", 6);
  lm_u32 (m, "deepseek2", "expert_shared_count", 2);
  lm_u32 (m, "deepseek2", "expert_feed_forward_length", FE);
  lm_f32 (m, "deepseek2", "expert_weights_scale", 1.0f);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q6_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_F32, R, 0, 0, "blk.%u.attn_kv_a_norm.weight", i);
      lm_tensor (m, LM_Q4_K, E, H * KMLA, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_Q4_K, E, R + ROPE, 0, "blk.%u.attn_kv_a_mqa.weight", i);
      lm_tensor (m, LM_Q8_0, KMLA - ROPE, R, H, "blk.%u.attn_k_b.weight", i);
      lm_tensor (m, LM_Q8_0, R, VMLA, H, "blk.%u.attn_v_b.weight", i);
      lm_tensor (m, LM_Q4_K, H * VMLA, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      if (i == 0)
        lm_ffn_block (m, i, L, E, F, FALSE);
      else
        {
          lm_moe_block (m, i, E, FE, X);
          lm_shexp_block (m, i, E, 2 * FE);
        }
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* GLM-4.5-Air (glm4moe): 4096 wide, 96 heads, 8 KV heads x 128 (64 rope
 * dims), q/k/v biases, layer 0 dense (n_ff 10944), the rest 128 experts of
 * 1408 with one shared, 8 used, vocab 151552, its own output. Shrunk: 6
 * layers (the dense one and five MoE) instead of 46, and no
 * next-token-prediction layer (block_count 6, no nextn_predict_layers). */
static inline LmModel *
lm_glm45_air (void)
{
  const guint L = 6;
  const guint64 E = 4096, Q = 12288, KV = 1024, F = 10944, FE = 1408, X = 128, V = 151552;
  LmModel *m = lm_model_new ("glm4.5-air", "glm-4.5-air:106b", "glm4moe");

  lm_attn_keys (m, "glm4moe", L, 131072, E, F, 96, 8, 128, 128, 64);
  lm_u32 (m, "glm4moe", "leading_dense_block_count", 1);
  lm_u32 (m, "glm4moe", "expert_count", X);
  lm_u32 (m, "glm4moe", "expert_used_count", 8);
  lm_u32 (m, "glm4moe", "expert_shared_count", 1);
  lm_u32 (m, "glm4moe", "expert_feed_forward_length", FE);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, L, E, Q, KV, 128, TRUE, FALSE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      if (i == 0)
        lm_ffn_block (m, i, L, E, F, FALSE);
      else
        {
          lm_moe_block (m, i, E, FE, X);
          lm_tensor (m, LM_F32, X, 0, 0, "blk.%u.exp_probs_b.bias", i);
          lm_shexp_block (m, i, E, FE);
        }
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* GLM-4.5-Air with its multi-token-prediction layer, as convert_hf_to_gguf.py
 * writes it (conversion/glm.py Glm4MoeModel: block_count num_hidden_layers
 * + num_nextn_predict_layers, nextn_predict_layers 1): the shrunk trunk of
 * lm_glm45_air() and block 6, a MoE layer with nextn.eh_proj (2 x 4096 ->
 * 4096), enorm, hnorm and shared_head_norm (src/models/glm4-moe.cpp
 * load_arch_tensors). llama.cpp keeps block 6 out of the KV cache
 * (create_memory: il < n_layer ()) and, unless an MTP draft is asked for
 * (--spec-type draft-mtp: common/common.cpp load_mtp), skips its tensors
 * (TENSOR_SKIP: "model has unused tensor"). */
static inline LmModel *
lm_glm45_air_mtp (void)
{
  const guint L = 6, N = 7;
  const guint64 E = 4096, Q = 12288, KV = 1024, F = 10944, FE = 1408, X = 128, V = 151552;
  LmModel *m = lm_model_new ("glm4.5-air-mtp", "glm-4.5-air:106b", "glm4moe");

  lm_attn_keys (m, "glm4moe", N, 131072, E, F, 96, 8, 128, 128, 64);
  lm_u32 (m, "glm4moe", "leading_dense_block_count", 1);
  lm_u32 (m, "glm4moe", "expert_count", X);
  lm_u32 (m, "glm4moe", "expert_used_count", 8);
  lm_u32 (m, "glm4moe", "expert_shared_count", 1);
  lm_u32 (m, "glm4moe", "expert_feed_forward_length", FE);
  lm_u32 (m, "glm4moe", "nextn_predict_layers", N - L);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < N; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_attn_block (m, i, N, E, Q, KV, 128, TRUE, FALSE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      if (i == 0)
        lm_ffn_block (m, i, N, E, F, FALSE);
      else
        {
          lm_moe_block (m, i, E, FE, X);
          lm_tensor (m, LM_F32, X, 0, 0, "blk.%u.exp_probs_b.bias", i);
          lm_shexp_block (m, i, E, FE);
        }
      if (i >= L)
        {
          lm_tensor (m, lm_wide (2 * E), 2 * E, E, 0, "blk.%u.nextn.eh_proj.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.nextn.enorm.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.nextn.hnorm.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.nextn.shared_head_norm.weight", i);
        }
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* Gemma 4 31B's layer shapes (gemma4): 5376 wide, 32 heads; five of every
 * six layers slide over 1024 tokens with 16 KV heads x 256
 * (attention.key_length_swa), the sixth is global with 4 KV heads x 512
 * (key_length) and no attn_v (attention_k_eq_v: V is K's projection, and
 * llama.cpp still caches it); q/k norms, the sandwich norms, n_ff 21504,
 * vocab 262144, tied, the proportional rope_freqs of the global layers.
 * Shapes as the catalog's gemma4:31b row (the GGUF's head_count_kv and
 * key lengths). Shrunk: 12 layers (two patterns) instead of 60. */
static inline LmModel *
lm_gemma4_31b (void)
{
  const guint L = 12;
  const guint64 E = 5376, H = 32, F = 21504, V = 262144;
  LmModel *m = lm_model_new ("gemma4-31b", "gemma4:31b", "gemma4");
  guint32 kv_heads[12];
  gboolean swa[12];

  for (guint i = 0; i < L; i++)
    {
      swa[i] = i % 6 < 5;
      kv_heads[i] = swa[i] ? 16 : 4;
    }
  lm_u32 (m, "gemma4", "block_count", L);
  lm_u32 (m, "gemma4", "context_length", 262144);
  lm_u32 (m, "gemma4", "embedding_length", E);
  lm_u32 (m, "gemma4", "feed_forward_length", F);
  lm_u32 (m, "gemma4", "attention.head_count", H);
  gw_kv_u32_array (m->kv, "gemma4.attention.head_count_kv", kv_heads, L);
  m->n_kv++;
  lm_u32 (m, "gemma4", "attention.key_length", 512);
  lm_u32 (m, "gemma4", "attention.value_length", 512);
  lm_u32 (m, "gemma4", "attention.key_length_swa", 256);
  lm_u32 (m, "gemma4", "attention.value_length_swa", 256);
  lm_u32 (m, "gemma4", "rope.dimension_count", 512);
  lm_u32 (m, "gemma4", "rope.dimension_count_swa", 256);
  lm_f32 (m, "gemma4", "rope.freq_base", 1000000.0f);
  lm_f32 (m, "gemma4", "rope.freq_base_swa", 10000.0f);
  lm_f32 (m, "gemma4", "attention.layer_norm_rms_epsilon", 1e-6f);
  lm_u32 (m, "gemma4", "attention.sliding_window", 1024);
  lm_u32 (m, "gemma4", "embedding_length_per_layer_input", 0);
  lm_f32 (m, "gemma4", "final_logit_softcapping", 30.0f);
  gw_kv_array (m->kv, "gemma4.attention.sliding_window_pattern", GW_BOOL, L);
  for (guint i = 0; i < L; i++)
    gw_u8 (m->kv, swa[i] ? 1 : 0);
  m->n_kv++;
  gw_kv_u32 (m->kv, "general.file_type", 15);
  m->n_kv++;
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q6_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      guint64 hd = swa[i] ? 256 : 512, KV = kv_heads[i] * hd;

      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_Q4_K, E, H * hd, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_Q4_K, E, KV, 0, "blk.%u.attn_k.weight", i);
      if (swa[i])
        lm_tensor (m, lm_more_bits (i, L) ? LM_Q6_K : LM_Q4_K, E, KV, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_Q4_K, H * hd, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_F32, hd, 0, 0, "blk.%u.attn_q_norm.weight", i);
      lm_tensor (m, LM_F32, hd, 0, 0, "blk.%u.attn_k_norm.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      lm_ffn_block (m, i, L, E, F, TRUE);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_ffw_norm.weight", i);
    }
  lm_tensor (m, LM_F32, 256, 0, 0, "rope_freqs.weight");
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}
