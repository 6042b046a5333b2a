/* llama-models-hybrid.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recurrent and hybrid models for the llama suite (test-llama.c): real
 * shapes, zero weights, sparse files (llama-models.h writes them). Tensor
 * names and shapes are the ones llama.cpp's loaders ask for
 * (src/models/<arch>.cpp load_arch_tensors); the matrices are Q8_0 (their
 * rows are multiples of 32), norms, biases, convolutions and the SSM
 * scalars F32.
 */
#pragma once

#include "llama-models.h"

/* "ARCH.key" = an array of u32, one per layer (or any length). */
static inline void
lm_u32_array (LmModel       *m,
              const char    *arch,
              const char    *key,
              const guint32 *v,
              guint          n)
{
  g_autofree char *k = g_strdup_printf ("%s.%s", arch, key);

  gw_kv_u32_array (m->kv, k, v, n);
  m->n_kv++;
}

/* The Qwen3.5 attention and gated-delta-net parts of layer @i
 * (src/models/qwen35.cpp load_block_trunk): every fourth layer a gated
 * query (attn_q of 2 x heads x head_dim), else the fused qkv of the delta
 * net (2 x NK x HK + NV x HK), its gate, convolution, dt, A, beta, alpha,
 * norm and out projection. */
static inline void
lm_qwen35_mixer (LmModel *m,
                 guint    i,
                 guint64  E,
                 guint64  heads,
                 guint64  kv_heads,
                 guint64  head_dim,
                 guint64  HK,
                 guint64  NK,
                 guint64  NV)
{
  const guint64 KEY = HK * NK, VAL = HK * NV, CONV = 2 * KEY + VAL;

  lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
  lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
  if ((i + 1) % 4 == 0)
    {
      lm_tensor (m, LM_Q8_0, E, head_dim * heads * 2, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_Q8_0, E, head_dim * kv_heads, 0, "blk.%u.attn_k.weight", i);
      lm_tensor (m, LM_Q8_0, E, head_dim * kv_heads, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_Q8_0, head_dim * heads, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_F32, head_dim, 0, 0, "blk.%u.attn_q_norm.weight", i);
      lm_tensor (m, LM_F32, head_dim, 0, 0, "blk.%u.attn_k_norm.weight", i);
    }
  else
    {
      lm_tensor (m, LM_Q8_0, E, CONV, 0, "blk.%u.attn_qkv.weight", i);
      lm_tensor (m, LM_Q8_0, E, VAL, 0, "blk.%u.attn_gate.weight", i);
      lm_tensor (m, LM_F32, 4, CONV, 0, "blk.%u.ssm_conv1d.weight", i);
      lm_tensor (m, LM_F32, NV, 0, 0, "blk.%u.ssm_dt.bias", i);
      lm_tensor (m, LM_F32, NV, 0, 0, "blk.%u.ssm_a", i);
      lm_tensor (m, LM_Q8_0, E, NV, 0, "blk.%u.ssm_beta.weight", i);
      lm_tensor (m, LM_Q8_0, E, NV, 0, "blk.%u.ssm_alpha.weight", i);
      lm_tensor (m, LM_F32, HK, 0, 0, "blk.%u.ssm_norm.weight", i);
      lm_tensor (m, LM_Q8_0, VAL, E, 0, "blk.%u.ssm_out.weight", i);
    }
}

/* The Qwen3.5 keys: the gated delta net's ssm.* and the rope sections. */
static inline void
lm_qwen35_keys (LmModel    *m,
                const char *arch,
                guint64     HK,
                guint64     NK,
                guint64     NV)
{
  const guint32 sections[4] = { 11, 11, 10, 0 };

  lm_u32 (m, arch, "full_attention_interval", 4);
  lm_u32 (m, arch, "ssm.conv_kernel", 4);
  lm_u32 (m, arch, "ssm.inner_size", HK * NV);
  lm_u32 (m, arch, "ssm.state_size", HK);
  lm_u32 (m, arch, "ssm.time_step_rank", NV);
  lm_u32 (m, arch, "ssm.group_count", NK);
  lm_u32_array (m, arch, "rope.dimension_sections", sections, 4);
}

/* Qwen3.5-4B (Qwen/Qwen3.5-4B config.json): 32 layers, 2560 wide, every
 * fourth layer full attention (16 heads, 4 KV heads x 256, a gated query),
 * the others a gated delta net (16 key heads and 32 value heads of 128,
 * conv kernel 4), n_ff 9216, vocab 248320, tied. */
static inline LmModel *
lm_qwen35_4b (void)
{
  const guint L = 32;
  const guint64 E = 2560, F = 9216, V = 248320;
  LmModel *m = lm_model_new ("qwen3.5-4b", "qwen3.5:4b", "qwen35");

  lm_hparams (m, "qwen35", L, 262144, E, F, 16, 4, 256);
  lm_qwen35_keys (m, "qwen35", 128, 16, 32);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_qwen35_mixer (m, i, E, 16, 4, 256, 128, 16, 32);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* Qwen3.5-4B with its multi-token-prediction block, as convert_hf_to_gguf.py
 * writes it (conversion/qwen.py _QwenMtpMixin: block_count 33,
 * nextn_predict_layers 1): block 32 is a full-attention layer with its
 * feed-forward and nextn.eh_proj (2 x 2560 -> 2560), enorm, hnorm and
 * shared_head_norm (src/models/qwen35.cpp load_arch_tensors). */
static inline LmModel *
lm_qwen35_4b_mtp (void)
{
  const guint L = 32;
  const guint64 E = 2560, F = 9216, V = 248320, D = 256;
  LmModel *m = lm_model_new ("qwen3.5-4b-mtp", "qwen3.5:4b", "qwen35");

  lm_hparams (m, "qwen35", L + 1, 262144, E, F, 16, 4, D);
  lm_u32 (m, "qwen35", "nextn_predict_layers", 1);
  lm_qwen35_keys (m, "qwen35", 128, 16, 32);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i <= L; i++)
    {
      if (i < L)
        lm_qwen35_mixer (m, i, E, 16, 4, D, 128, 16, 32);
      else
        {
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
          lm_tensor (m, LM_Q8_0, E, D * 16 * 2, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, D * 4, 0, "blk.%u.attn_k.weight", i);
          lm_tensor (m, LM_Q8_0, E, D * 4, 0, "blk.%u.attn_v.weight", i);
          lm_tensor (m, LM_Q8_0, D * 16, E, 0, "blk.%u.attn_output.weight", i);
          lm_tensor (m, LM_F32, D, 0, 0, "blk.%u.attn_q_norm.weight", i);
          lm_tensor (m, LM_F32, D, 0, 0, "blk.%u.attn_k_norm.weight", i);
          lm_tensor (m, LM_Q8_0, 2 * E, E, 0, "blk.%u.nextn.eh_proj.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.nextn.enorm.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.nextn.hnorm.weight", i);
          lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.nextn.shared_head_norm.weight", i);
        }
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* Qwen3.5-35B-A3B (Qwen/Qwen3.5-35B-A3B config.json): 40 layers, 2048
 * wide, every fourth layer full attention (16 heads, 2 KV heads x 256),
 * the others a gated delta net (16 key and 32 value heads of 128), 256
 * experts of 512 with 8 used and a shared expert of 512, vocab 248320, its
 * own output. */
static inline LmModel *
lm_qwen35_35b_a3b (void)
{
  const guint L = 40;
  const guint64 E = 2048, FE = 512, X = 256, V = 248320;
  LmModel *m = lm_model_new ("qwen3.5-35b-a3b", "qwen3.5:35b-a3b", "qwen35moe");

  lm_hparams (m, "qwen35moe", L, 262144, E, 0, 16, 2, 256);
  lm_u32 (m, "qwen35moe", "expert_count", X);
  lm_u32 (m, "qwen35moe", "expert_used_count", 8);
  lm_u32 (m, "qwen35moe", "expert_feed_forward_length", FE);
  lm_u32 (m, "qwen35moe", "expert_shared_feed_forward_length", FE);
  lm_qwen35_keys (m, "qwen35moe", 128, 16, 32);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_qwen35_mixer (m, i, E, 16, 2, 256, 128, 16, 32);
      lm_tensor (m, LM_F32, E, X, 0, "blk.%u.ffn_gate_inp.weight", i);
      lm_tensor (m, LM_Q8_0, FE, E, X, "blk.%u.ffn_down_exps.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, X, "blk.%u.ffn_gate_exps.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, X, "blk.%u.ffn_up_exps.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_gate_inp_shexp.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, 0, "blk.%u.ffn_gate_shexp.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, 0, "blk.%u.ffn_up_shexp.weight", i);
      lm_tensor (m, LM_Q8_0, FE, E, 0, "blk.%u.ffn_down_shexp.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q8_0, E, V, 0, "output.weight");
  return m;
}

/* The Mamba-2 block (src/models/mamba2.cpp, granite-hybrid.cpp): in_proj
 * of 2 x d_inner + 2 x groups x d_state + heads rows, the depthwise
 * convolution, dt bias, A, D, the grouped norm and out_proj. */
static inline void
lm_mamba2_block (LmModel *m,
                 guint    i,
                 guint64  E,
                 guint64  d_inner,
                 guint64  d_state,
                 guint64  groups,
                 guint64  heads)
{
  const guint64 conv = d_inner + 2 * groups * d_state;

  lm_tensor (m, LM_Q8_0, E, d_inner + conv + heads, 0, "blk.%u.ssm_in.weight", i);
  lm_tensor (m, LM_F32, 4, conv, 0, "blk.%u.ssm_conv1d.weight", i);
  lm_tensor (m, LM_F32, conv, 0, 0, "blk.%u.ssm_conv1d.bias", i);
  lm_tensor (m, LM_F32, heads, 0, 0, "blk.%u.ssm_dt.bias", i);
  lm_tensor (m, LM_F32, 1, heads, 0, "blk.%u.ssm_a", i);
  lm_tensor (m, LM_F32, 1, heads, 0, "blk.%u.ssm_d", i);
  lm_tensor (m, LM_F32, d_inner / groups, groups, 0, "blk.%u.ssm_norm.weight", i);
  lm_tensor (m, LM_Q8_0, d_inner, E, 0, "blk.%u.ssm_out.weight", i);
}

/* mamba2-2.7b (state-spaces/mamba2-2.7b): 64 layers, 2560 wide, d_inner
 * 5120, d_state 128, one group, 80 heads of 64, conv 4, vocab 50288 (the
 * converter pads it to a multiple of 16: 50288), tied. */
static inline LmModel *
lm_mamba2_27b (void)
{
  const guint L = 64;
  const guint64 E = 2560, V = 50288;
  LmModel *m = lm_model_new ("mamba2-2.7b", "mamba2:2.7b", "mamba2");

  lm_u32 (m, "mamba2", "block_count", L);
  lm_u32 (m, "mamba2", "context_length", 1048576);
  lm_u32 (m, "mamba2", "embedding_length", E);
  lm_u32 (m, "mamba2", "feed_forward_length", 0);
  lm_u32 (m, "mamba2", "attention.head_count", 0);
  lm_u32 (m, "mamba2", "ssm.conv_kernel", 4);
  lm_u32 (m, "mamba2", "ssm.inner_size", 5120);
  lm_u32 (m, "mamba2", "ssm.state_size", 128);
  lm_u32 (m, "mamba2", "ssm.time_step_rank", 80);
  lm_u32 (m, "mamba2", "ssm.group_count", 1);
  lm_f32 (m, "mamba2", "attention.layer_norm_rms_epsilon", 1e-5f);
  gw_kv_u32 (m->kv, "general.file_type", 7); /* Q8_0 */
  m->n_kv++;
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_mamba2_block (m, i, E, 5120, 128, 1, 80);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* granite-4.0-h-micro-like (ibm-granite granite-4.0-h: Mamba-2 layers
 * with a few attention layers): 40 layers, 2048 wide, attention in layers
 * 9, 19, 29, 39 (16 heads, 4 KV heads x 128), Mamba-2 elsewhere (d_inner
 * 4096 = 2 x 2048, d_state 128, one group, 64 heads, conv 4), n_ff 8192,
 * vocab 100352, tied. */
static inline LmModel *
lm_granite4_h (void)
{
  const guint L = 40;
  const guint64 E = 2048, F = 8192, V = 100352;
  guint32 kv[40];
  LmModel *m = lm_model_new ("granite4-h", "granite4:h-like", "granitehybrid");

  for (guint i = 0; i < L; i++)
    kv[i] = (i + 1) % 10 == 0 ? 4 : 0;
  lm_u32 (m, "granitehybrid", "block_count", L);
  lm_u32 (m, "granitehybrid", "context_length", 131072);
  lm_u32 (m, "granitehybrid", "embedding_length", E);
  lm_u32 (m, "granitehybrid", "feed_forward_length", F);
  lm_u32 (m, "granitehybrid", "attention.head_count", 16);
  lm_u32_array (m, "granitehybrid", "attention.head_count_kv", kv, L);
  lm_u32 (m, "granitehybrid", "attention.key_length", 128);
  lm_u32 (m, "granitehybrid", "attention.value_length", 128);
  lm_u32 (m, "granitehybrid", "rope.dimension_count", 128);
  lm_f32 (m, "granitehybrid", "attention.layer_norm_rms_epsilon", 1e-5f);
  lm_u32 (m, "granitehybrid", "ssm.conv_kernel", 4);
  lm_u32 (m, "granitehybrid", "ssm.inner_size", 4096);
  lm_u32 (m, "granitehybrid", "ssm.state_size", 128);
  lm_u32 (m, "granitehybrid", "ssm.time_step_rank", 64);
  lm_u32 (m, "granitehybrid", "ssm.group_count", 1);
  gw_kv_u32 (m->kv, "general.file_type", 7); /* Q8_0 */
  m->n_kv++;
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      if (kv[i] == 0)
        lm_mamba2_block (m, i, E, 4096, 128, 1, 64);
      else
        {
          lm_tensor (m, LM_Q8_0, E, 16 * 128, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, 4 * 128, 0, "blk.%u.attn_k.weight", i);
          lm_tensor (m, LM_Q8_0, E, 4 * 128, 0, "blk.%u.attn_v.weight", i);
          lm_tensor (m, LM_Q8_0, 16 * 128, E, 0, "blk.%u.attn_output.weight", i);
        }
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* NVIDIA-Nemotron-Nano-9B-v2-like (nvidia config.json: 56 layers, 4480
 * wide, Mamba-2 with 128 heads of 80 = d_inner 10240, 8 groups, d_state
 * 128, conv 4; attention 40 heads, 8 KV heads x 128; MLP n_ff 15680,
 * squared ReLU: up and down only; vocab 131072, its own output). 27
 * Mamba-2, 4 attention and 25 MLP layers, as that model has; the order
 * here is M - M - ... with attention at 14, 21, 30 and 39. */
static inline LmModel *
lm_nemotron_h_9b (void)
{
  const guint L = 56;
  const guint64 E = 4480, F = 15680, V = 131072;
  guint32 kv[56], ff[56];
  guint n_m = 0;
  LmModel *m = lm_model_new ("nemotron-h-9b", "nemotron-nano:9b-like", "nemotron_h");

  for (guint i = 0; i < L; i++)
    {
      gboolean attn = i == 14 || i == 21 || i == 30 || i == 39;
      gboolean mamba = !attn && n_m < 27 && (i % 2 == 0 || (L - i) <= 27u - n_m);

      n_m += mamba;
      kv[i] = attn ? 8 : 0;
      ff[i] = attn || mamba ? 0 : F;
    }
  lm_u32 (m, "nemotron_h", "block_count", L);
  lm_u32 (m, "nemotron_h", "context_length", 131072);
  lm_u32 (m, "nemotron_h", "embedding_length", E);
  lm_u32_array (m, "nemotron_h", "feed_forward_length", ff, L);
  lm_u32 (m, "nemotron_h", "attention.head_count", 40);
  lm_u32_array (m, "nemotron_h", "attention.head_count_kv", kv, L);
  lm_u32 (m, "nemotron_h", "attention.key_length", 128);
  lm_u32 (m, "nemotron_h", "attention.value_length", 128);
  lm_u32 (m, "nemotron_h", "rope.dimension_count", 128);
  lm_f32 (m, "nemotron_h", "attention.layer_norm_epsilon", 1e-5f);
  lm_f32 (m, "nemotron_h", "attention.layer_norm_rms_epsilon", 1e-5f);
  lm_u32 (m, "nemotron_h", "ssm.conv_kernel", 4);
  lm_u32 (m, "nemotron_h", "ssm.inner_size", 10240);
  lm_u32 (m, "nemotron_h", "ssm.state_size", 128);
  lm_u32 (m, "nemotron_h", "ssm.time_step_rank", 128);
  lm_u32 (m, "nemotron_h", "ssm.group_count", 8);
  gw_kv_u32 (m->kv, "general.file_type", 7); /* Q8_0 */
  m->n_kv++;
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      if (kv[i] == 0 && ff[i] == 0)
        lm_mamba2_block (m, i, E, 10240, 128, 8, 128);
      else if (ff[i] == 0)
        {
          lm_tensor (m, LM_Q8_0, E, 40 * 128, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, 8 * 128, 0, "blk.%u.attn_k.weight", i);
          lm_tensor (m, LM_Q8_0, E, 8 * 128, 0, "blk.%u.attn_v.weight", i);
          lm_tensor (m, LM_Q8_0, 40 * 128, E, 0, "blk.%u.attn_output.weight", i);
        }
      else
        {
          lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
          lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
        }
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q8_0, E, V, 0, "output.weight");
  return m;
}

/* LFM2-1.2B (LiquidAI/LFM2-1.2B config.json): 16 layers, 2048 wide,
 * attention in layers 2, 5, 8, 10, 12, 14 (32 heads, 8 KV heads x 64, q
 * and k norms), gated short convolutions elsewhere (L_cache 3), n_ff 8192
 * (block_ff_dim 12288 auto-adjusted), vocab 65536, tied; the final norm is
 * token_embd_norm. */
static inline LmModel *
lm_lfm2_12b (void)
{
  const guint L = 16;
  const guint64 E = 2048, F = 8192, V = 65536;
  guint32 kv[16];
  LmModel *m = lm_model_new ("lfm2-1.2b", "lfm2:1.2b", "lfm2");

  for (guint i = 0; i < L; i++)
    kv[i] = i == 2 || i == 5 || i == 8 || i == 10 || i == 12 || i == 14 ? 8 : 0;
  lm_u32 (m, "lfm2", "block_count", L);
  lm_u32 (m, "lfm2", "context_length", 128000);
  lm_u32 (m, "lfm2", "embedding_length", E);
  lm_u32 (m, "lfm2", "feed_forward_length", F);
  lm_u32 (m, "lfm2", "attention.head_count", 32);
  lm_u32_array (m, "lfm2", "attention.head_count_kv", kv, L);
  lm_u32 (m, "lfm2", "rope.dimension_count", 64);
  lm_f32 (m, "lfm2", "rope.freq_base", 1000000.0f);
  lm_f32 (m, "lfm2", "attention.layer_norm_rms_epsilon", 1e-5f);
  lm_u32 (m, "lfm2", "shortconv.l_cache", 3);
  gw_kv_u32 (m->kv, "general.file_type", 7); /* Q8_0 */
  m->n_kv++;
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      if (kv[i] > 0)
        {
          lm_tensor (m, LM_F32, 64, 0, 0, "blk.%u.attn_q_norm.weight", i);
          lm_tensor (m, LM_F32, 64, 0, 0, "blk.%u.attn_k_norm.weight", i);
          lm_tensor (m, LM_Q8_0, E, E, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, 8 * 64, 0, "blk.%u.attn_k.weight", i);
          lm_tensor (m, LM_Q8_0, E, 8 * 64, 0, "blk.%u.attn_v.weight", i);
          lm_tensor (m, LM_Q8_0, E, E, 0, "blk.%u.attn_output.weight", i);
        }
      else
        {
          lm_tensor (m, LM_F32, 3, E, 0, "blk.%u.shortconv.conv.weight", i);
          lm_tensor (m, LM_Q8_0, E, 3 * E, 0, "blk.%u.shortconv.in_proj.weight", i);
          lm_tensor (m, LM_Q8_0, E, E, 0, "blk.%u.shortconv.out_proj.weight", i);
        }
    }
  lm_tensor (m, LM_F32, E, 0, 0, "token_embd_norm.weight");
  return m;
}

/* Falcon-H1-1.5B-like (tiiuae Falcon-H1: attention and Mamba-2 side by
 * side in every layer, src/models/falcon-h1.cpp): 24 layers, 2048 wide,
 * attention 8 heads, 2 KV heads x 128; Mamba-2 d_inner 3072 (48 heads of
 * 64), d_state 256, one group, conv 4; n_ff 8192; vocab 65536, tied. */
static inline LmModel *
lm_falcon_h1 (void)
{
  const guint L = 24;
  const guint64 E = 2048, F = 8192, V = 65536, DI = 3072, DS = 256, NH = 48;
  const guint64 conv = DI + 2 * DS;
  LmModel *m = lm_model_new ("falcon-h1-1.5b", "falcon-h1:1.5b-like", "falcon-h1");

  lm_hparams (m, "falcon-h1", L, 131072, E, F, 8, 2, 128);
  lm_u32 (m, "falcon-h1", "ssm.conv_kernel", 4);
  lm_u32 (m, "falcon-h1", "ssm.inner_size", DI);
  lm_u32 (m, "falcon-h1", "ssm.state_size", DS);
  lm_u32 (m, "falcon-h1", "ssm.time_step_rank", NH);
  lm_u32 (m, "falcon-h1", "ssm.group_count", 1);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_Q8_0, E, DI + conv + NH, 0, "blk.%u.ssm_in.weight", i);
      lm_tensor (m, LM_F32, 4, conv, 0, "blk.%u.ssm_conv1d.weight", i);
      lm_tensor (m, LM_F32, conv, 0, 0, "blk.%u.ssm_conv1d.bias", i);
      lm_tensor (m, LM_F32, NH, 0, 0, "blk.%u.ssm_dt.bias", i);
      lm_tensor (m, LM_F32, 1, NH, 0, "blk.%u.ssm_a", i);
      lm_tensor (m, LM_F32, 1, NH, 0, "blk.%u.ssm_d", i);
      lm_tensor (m, LM_F32, DI, 1, 0, "blk.%u.ssm_norm.weight", i);
      lm_tensor (m, LM_Q8_0, DI, E, 0, "blk.%u.ssm_out.weight", i);
      lm_tensor (m, LM_Q8_0, E, 8 * 128, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_Q8_0, E, 2 * 128, 0, "blk.%u.attn_k.weight", i);
      lm_tensor (m, LM_Q8_0, E, 2 * 128, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_Q8_0, 8 * 128, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* Kimi-Linear-48B-A3B (moonshotai config.json): 27 layers, 2304 wide, 32
 * heads; Kimi delta attention (head_dim 128, conv 4) except in the layers
 * full_attn_layers names (4, 8, 12, 16, 20, 24, 27, 1-based: 3, 7, 11, 15,
 * 19, 23, 26), which are MLA (kv_lora_rank 512, rope 64, nope 128, v 128,
 * no q compression) with one KV head (conversion/kimi_linear.py writes
 * num_key_value_heads; llama.cpp's MLA cache is one latent of
 * kv_lora_rank + rope per token, so a file with more fails in set_rows);
 * the first layer a dense FFN of
 * 9216, the others 256 experts of 1024 (8 used) and one shared expert;
 * vocab 163840, its own output. */
static inline LmModel *
lm_kimi_linear (void)
{
  const guint L = 27;
  const guint64 E = 2304, H = 32, HD = 128, X = 256, FE = 1024, F = 9216, V = 163840;
  guint32 kv[27];
  LmModel *m = lm_model_new ("kimi-linear-48b", "kimi-linear:48b-a3b", "kimi-linear");

  for (guint i = 0; i < L; i++)
    kv[i] = i == 3 || i == 7 || i == 11 || i == 15 || i == 19 || i == 23 || i == 26 ? 1 : 0;
  lm_u32 (m, "kimi-linear", "block_count", L);
  lm_u32 (m, "kimi-linear", "context_length", 1048576);
  lm_u32 (m, "kimi-linear", "embedding_length", E);
  lm_u32 (m, "kimi-linear", "feed_forward_length", F);
  lm_u32 (m, "kimi-linear", "attention.head_count", H);
  lm_u32_array (m, "kimi-linear", "attention.head_count_kv", kv, L);
  lm_u32 (m, "kimi-linear", "attention.key_length", 512 + 64);
  lm_u32 (m, "kimi-linear", "attention.key_length_mla", 192);
  lm_u32 (m, "kimi-linear", "attention.value_length_mla", 128);
  lm_u32 (m, "kimi-linear", "attention.kv_lora_rank", 512);
  lm_u32 (m, "kimi-linear", "rope.dimension_count", 64);
  lm_f32 (m, "kimi-linear", "attention.layer_norm_rms_epsilon", 1e-5f);
  lm_u32 (m, "kimi-linear", "ssm.conv_kernel", 4);
  lm_u32 (m, "kimi-linear", "kda.head_dim", HD);
  lm_u32 (m, "kimi-linear", "expert_count", X);
  lm_u32 (m, "kimi-linear", "expert_used_count", 8);
  lm_u32 (m, "kimi-linear", "expert_feed_forward_length", FE);
  lm_u32 (m, "kimi-linear", "expert_shared_count", 1);
  lm_u32 (m, "kimi-linear", "leading_dense_block_count", 1);
  lm_u32 (m, "kimi-linear", "expert_gating_func", 2);
  gw_kv_u32 (m->kv, "general.file_type", 7); /* Q8_0 */
  m->n_kv++;
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      if (kv[i] == 0)
        {
          lm_tensor (m, LM_F32, 4, 1, HD * H, "blk.%u.ssm_conv1d_q.weight", i);
          lm_tensor (m, LM_F32, 4, 1, HD * H, "blk.%u.ssm_conv1d_k.weight", i);
          lm_tensor (m, LM_F32, 4, 1, HD * H, "blk.%u.ssm_conv1d_v.weight", i);
          lm_tensor (m, LM_Q8_0, E, HD * H, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, HD * H, 0, "blk.%u.attn_k.weight", i);
          lm_tensor (m, LM_Q8_0, E, HD * H, 0, "blk.%u.attn_v.weight", i);
          lm_tensor (m, LM_Q8_0, E, HD, 0, "blk.%u.ssm_f_a.weight", i);
          lm_tensor (m, LM_Q8_0, HD, HD * H, 0, "blk.%u.ssm_f_b.weight", i);
          lm_tensor (m, LM_Q8_0, E, H, 0, "blk.%u.ssm_beta.weight", i);
          lm_tensor (m, LM_F32, 1, H, 0, "blk.%u.ssm_a", i);
          lm_tensor (m, LM_F32, HD * H, 0, 0, "blk.%u.ssm_dt.bias", i);
          lm_tensor (m, LM_Q8_0, E, HD, 0, "blk.%u.ssm_g_a.weight", i);
          lm_tensor (m, LM_Q8_0, HD, HD * H, 0, "blk.%u.ssm_g_b.weight", i);
          lm_tensor (m, LM_F32, HD, 0, 0, "blk.%u.ssm_norm.weight", i);
          lm_tensor (m, LM_Q8_0, HD * H, E, 0, "blk.%u.attn_output.weight", i);
        }
      else
        {
          lm_tensor (m, LM_F32, 512, 0, 0, "blk.%u.attn_kv_a_norm.weight", i);
          lm_tensor (m, LM_Q8_0, E, H * 192, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, 512 + 64, 0, "blk.%u.attn_kv_a_mqa.weight", i);
          lm_tensor (m, LM_Q8_0, 128, 512, H, "blk.%u.attn_k_b.weight", i);
          lm_tensor (m, LM_Q8_0, 512, 128, H, "blk.%u.attn_v_b.weight", i);
          lm_tensor (m, LM_Q8_0, H * 128, E, 0, "blk.%u.attn_output.weight", i);
        }
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      if (i == 0)
        {
          lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
          lm_tensor (m, LM_Q8_0, F, E, 0, "blk.%u.ffn_down.weight", i);
          lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
        }
      else
        {
          lm_tensor (m, LM_F32, E, X, 0, "blk.%u.ffn_gate_inp.weight", i);
          lm_tensor (m, LM_Q8_0, E, FE, X, "blk.%u.ffn_gate_exps.weight", i);
          lm_tensor (m, LM_Q8_0, FE, E, X, "blk.%u.ffn_down_exps.weight", i);
          lm_tensor (m, LM_Q8_0, E, FE, X, "blk.%u.ffn_up_exps.weight", i);
          lm_tensor (m, LM_Q8_0, E, FE, 0, "blk.%u.ffn_gate_shexp.weight", i);
          lm_tensor (m, LM_Q8_0, FE, E, 0, "blk.%u.ffn_down_shexp.weight", i);
          lm_tensor (m, LM_Q8_0, E, FE, 0, "blk.%u.ffn_up_shexp.weight", i);
          lm_tensor (m, LM_F32, X, 0, 0, "blk.%u.exp_probs_b.bias", i);
        }
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q8_0, E, V, 0, "output.weight");
  return m;
}

/* Qwen3-Next-80B-A3B (Qwen/Qwen3-Next-80B-A3B-Instruct config.json): 48
 * layers, 2048 wide, every fourth layer full attention (16 heads, 2 KV
 * heads x 256, a gated query), the others a gated delta net with the
 * fused qkvz projection (ssm_in) and ssm_ba (16 key and 32 value heads of
 * 128, conv 4); 512 experts of 512 (10 used) and a shared expert of 512;
 * vocab 151936, its own output (src/models/qwen3next.cpp). */
static inline LmModel *
lm_qwen3next_80b (void)
{
  const guint L = 48;
  const guint64 E = 2048, FE = 512, X = 512, V = 151936, HK = 128, NK = 16, NV = 32;
  const guint64 KEY = HK * NK, VAL = HK * NV, CONV = 2 * KEY + VAL;
  LmModel *m = lm_model_new ("qwen3-next-80b", "qwen3-next:80b", "qwen3next");

  lm_hparams (m, "qwen3next", L, 262144, E, 0, 16, 2, 256);
  lm_u32 (m, "qwen3next", "expert_count", X);
  lm_u32 (m, "qwen3next", "expert_used_count", 10);
  lm_u32 (m, "qwen3next", "expert_feed_forward_length", FE);
  lm_u32 (m, "qwen3next", "expert_shared_feed_forward_length", FE);
  lm_u32 (m, "qwen3next", "full_attention_interval", 4);
  lm_u32 (m, "qwen3next", "ssm.conv_kernel", 4);
  lm_u32 (m, "qwen3next", "ssm.inner_size", VAL);
  lm_u32 (m, "qwen3next", "ssm.state_size", HK);
  lm_u32 (m, "qwen3next", "ssm.time_step_rank", NV);
  lm_u32 (m, "qwen3next", "ssm.group_count", NK);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      if ((i + 1) % 4 == 0)
        {
          lm_tensor (m, LM_Q8_0, E, 256 * 16 * 2, 0, "blk.%u.attn_q.weight", i);
          lm_tensor (m, LM_Q8_0, E, 256 * 2, 0, "blk.%u.attn_k.weight", i);
          lm_tensor (m, LM_Q8_0, E, 256 * 2, 0, "blk.%u.attn_v.weight", i);
          lm_tensor (m, LM_Q8_0, 256 * 16, E, 0, "blk.%u.attn_output.weight", i);
          lm_tensor (m, LM_F32, 256, 0, 0, "blk.%u.attn_q_norm.weight", i);
          lm_tensor (m, LM_F32, 256, 0, 0, "blk.%u.attn_k_norm.weight", i);
        }
      else
        {
          lm_tensor (m, LM_Q8_0, E, 2 * KEY + 2 * VAL, 0, "blk.%u.ssm_in.weight", i);
          lm_tensor (m, LM_F32, 4, CONV, 0, "blk.%u.ssm_conv1d.weight", i);
          lm_tensor (m, LM_F32, NV, 0, 0, "blk.%u.ssm_dt.bias", i);
          lm_tensor (m, LM_F32, NV, 0, 0, "blk.%u.ssm_a", i);
          lm_tensor (m, LM_Q8_0, E, 2 * NV, 0, "blk.%u.ssm_ba.weight", i);
          lm_tensor (m, LM_F32, HK, 0, 0, "blk.%u.ssm_norm.weight", i);
          lm_tensor (m, LM_Q8_0, VAL, E, 0, "blk.%u.ssm_out.weight", i);
        }
      lm_tensor (m, LM_F32, E, X, 0, "blk.%u.ffn_gate_inp.weight", i);
      lm_tensor (m, LM_Q8_0, FE, E, X, "blk.%u.ffn_down_exps.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, X, "blk.%u.ffn_gate_exps.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, X, "blk.%u.ffn_up_exps.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_gate_inp_shexp.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, 0, "blk.%u.ffn_gate_shexp.weight", i);
      lm_tensor (m, LM_Q8_0, E, FE, 0, "blk.%u.ffn_up_shexp.weight", i);
      lm_tensor (m, LM_Q8_0, FE, E, 0, "blk.%u.ffn_down_shexp.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q8_0, E, V, 0, "output.weight");
  return m;
}
