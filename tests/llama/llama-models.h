/* llama-models.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GGUF files with the real shapes of five Ollama models and zero weights, for
 * the suite that loads them into a real llama-server (test-llama.c). The
 * header is written as the GGUF specification lays it out (tests/gguf-writer.h);
 * the tensor data is a hole (the file is extended with ftruncate, so it is
 * sparse and reads as zeros). Tensor names and shapes are the ones
 * llama.cpp's loaders ask for (src/models/<arch>.cpp load_arch_tensors);
 * the type mix is Q4_K_M-like: Q4_K for the matrices whose rows are a
 * multiple of 256, Q6_K for the embedding and the "more bits" layers, Q8_0
 * where rows are not a multiple of 256 (as llama-quantize falls back), F32
 * for norms, biases and the MoE router. The tokenizer is a sentencepiece
 * ("llama") vocabulary of distinct tokens: <unk>, <s>, </s>, the 256 byte
 * tokens and numbered fillers, as many as the embedding has rows.
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <unistd.h>

#include "gguf-writer.h"

#define LM_F32  0
#define LM_F16  1
#define LM_Q8_0 8
#define LM_Q4_K 12
#define LM_Q6_K 14

typedef struct {
  char    *name;
  guint32  n_dims;
  guint64  dims[3];
  guint32  type;
} LmTensor;

typedef struct {
  const char *id;        /* "llama3.2-3b" */
  const char *like;      /* "llama3.2:3b" */
  GByteArray *kv;        /* the metadata key/value pairs, written */
  guint64     n_kv;
  GArray     *tensors;   /* LmTensor */
} LmModel;

static inline guint64
lm_tensor_bytes (const LmTensor *t)
{
  guint64 elements = 1;

  for (guint i = 0; i < t->n_dims; i++)
    elements *= t->dims[i];
  switch (t->type)
    {
    case LM_F32:  return elements * 4;
    case LM_F16:  return elements * 2;
    case LM_Q8_0: return elements / 32 * 34;
    case LM_Q4_K: return elements / 256 * 144;
    case LM_Q6_K: return elements / 256 * 210;
    default:      g_assert_not_reached ();
    }
}

static inline LmModel *
lm_model_new (const char *id,
              const char *like,
              const char *arch)
{
  LmModel *m = g_new0 (LmModel, 1);

  m->id = id;
  m->like = like;
  m->kv = g_byte_array_new ();
  m->tensors = g_array_new (FALSE, TRUE, sizeof (LmTensor));
  gw_kv_str (m->kv, "general.architecture", arch);
  gw_kv_str (m->kv, "general.name", like);
  gw_kv_u32 (m->kv, "general.alignment", 32);
  m->n_kv = 3;
  return m;
}

static inline void
lm_model_free (LmModel *m)
{
  for (guint i = 0; i < m->tensors->len; i++)
    g_free (g_array_index (m->tensors, LmTensor, i).name);
  g_array_unref (m->tensors);
  g_byte_array_unref (m->kv);
  g_free (m);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmModel, lm_model_free)

/* "ARCH.key" = v */
static inline void
lm_u32 (LmModel *m, const char *arch, const char *key, guint32 v)
{
  g_autofree char *k = g_strdup_printf ("%s.%s", arch, key);

  gw_kv_u32 (m->kv, k, v);
  m->n_kv++;
}

static inline void
lm_f32 (LmModel *m, const char *arch, const char *key, float v)
{
  g_autofree char *k = g_strdup_printf ("%s.%s", arch, key);

  gw_kv_f32 (m->kv, k, v);
  m->n_kv++;
}

static inline void
lm_tensor (LmModel    *m,
           guint32     type,
           guint64     d0,
           guint64     d1,
           guint64     d2,
           const char *format,
           ...) G_GNUC_PRINTF (6, 7);

/* A tensor of 1 to 3 dims (0 ends the list). */
static inline void
lm_tensor (LmModel    *m,
           guint32     type,
           guint64     d0,
           guint64     d1,
           guint64     d2,
           const char *format,
           ...)
{
  LmTensor t = { 0 };
  va_list args;

  va_start (args, format);
  t.name = g_strdup_vprintf (format, args);
  va_end (args);
  t.type = type;
  t.dims[0] = d0;
  t.dims[1] = d1;
  t.dims[2] = d2;
  t.n_dims = d2 > 0 ? 3 : d1 > 0 ? 2 : 1;
  g_array_append_val (m->tensors, t);
}

/* The sentencepiece vocabulary: n distinct tokens with scores and types. */
static inline void
lm_tokenizer (LmModel *m,
              guint32  n)
{
  gw_kv_str (m->kv, "tokenizer.ggml.model", "llama");
  gw_kv_array (m->kv, "tokenizer.ggml.tokens", GW_STRING, n);
  for (guint32 i = 0; i < n; i++)
    {
      char tok[32];

      if (i == 0)
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
    gw_u32 (m->kv, i == 0 ? 2 : i < 3 ? 3 : i < 3 + 256 ? 6 : 1);
  gw_kv_u32 (m->kv, "tokenizer.ggml.unknown_token_id", 0);
  gw_kv_u32 (m->kv, "tokenizer.ggml.bos_token_id", 1);
  gw_kv_u32 (m->kv, "tokenizer.ggml.eos_token_id", 2);
  m->n_kv += 7;
}

/* The common transformer keys. */
static inline void
lm_hparams (LmModel    *m,
            const char *arch,
            guint32     layers,
            guint32     context,
            guint32     embd,
            guint32     ff,
            guint32     heads,
            guint32     kv_heads,
            guint32     head_dim)
{
  lm_u32 (m, arch, "block_count", layers);
  lm_u32 (m, arch, "context_length", context);
  lm_u32 (m, arch, "embedding_length", embd);
  if (ff > 0)
    lm_u32 (m, arch, "feed_forward_length", ff);
  lm_u32 (m, arch, "attention.head_count", heads);
  lm_u32 (m, arch, "attention.head_count_kv", kv_heads);
  lm_u32 (m, arch, "attention.key_length", head_dim);
  lm_u32 (m, arch, "attention.value_length", head_dim);
  lm_u32 (m, arch, "rope.dimension_count", head_dim);
  lm_f32 (m, arch, "rope.freq_base", 10000.0f);
  lm_f32 (m, arch, "attention.layer_norm_rms_epsilon", 1e-6f);
  gw_kv_u32 (m->kv, "general.file_type", 15); /* Q4_K_M */
  m->n_kv++;
}

/* llama.cpp's use_more_bits rule (llama-quant.cpp) for attn_v / ffn_down. */
static inline gboolean
lm_more_bits (guint i,
              guint n)
{
  return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

/* llama3.2:3b: 28 layers, 3072 wide, 24 heads, 8 KV heads x 128, n_ff 8192,
 * vocab 128256, tied; Ollama's blob (docs/seed-figures.md W6): Q4_K x168, Q6_K x29,
 * F32 x58. */
static inline LmModel *
lm_llama32_3b (void)
{
  const guint L = 28;
  const guint64 E = 3072, F = 8192, KV = 1024, V = 128256;
  LmModel *m = lm_model_new ("llama3.2-3b", "llama3.2:3b", "llama");

  lm_hparams (m, "llama", L, 131072, E, F, 24, 8, 128);
  lm_u32 (m, "llama", "vocab_size", V);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q6_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      gboolean more = lm_more_bits (i, L);

      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_Q4_K, E, E, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_Q4_K, E, KV, 0, "blk.%u.attn_k.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, E, KV, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_Q4_K, E, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_Q4_K, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q4_K, E, F, 0, "blk.%u.ffn_up.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_F32, 64, 0, 0, "rope_freqs.weight");
  return m;
}

/* qwen2.5:0.5b: 24 layers, 896 wide, 14 heads, 2 KV heads x 64, n_ff 4864,
 * vocab 151936, tied, q/k/v biases. 896 is no multiple of 256: Q8_0. */
static inline LmModel *
lm_qwen25_05b (void)
{
  const guint L = 24;
  const guint64 E = 896, F = 4864, KV = 128, V = 151936;
  LmModel *m = lm_model_new ("qwen2.5-0.5b", "qwen2.5:0.5b", "qwen2");

  lm_hparams (m, "qwen2", L, 32768, E, F, 14, 2, 64);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_Q8_0, E, E, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_q.bias", i);
      lm_tensor (m, LM_Q8_0, E, KV, 0, "blk.%u.attn_k.weight", i);
      lm_tensor (m, LM_F32, KV, 0, 0, "blk.%u.attn_k.bias", i);
      lm_tensor (m, LM_Q8_0, E, KV, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_F32, KV, 0, 0, "blk.%u.attn_v.bias", i);
      lm_tensor (m, LM_Q8_0, E, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, LM_Q8_0, E, F, 0, "blk.%u.ffn_up.weight", i);
      lm_tensor (m, LM_Q4_K, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* The gemma2 / gemma3 block: q, k, v, output, the four norms of the
 * sandwich, gate, up, down; gemma3 adds q and k norms. */
static inline void
lm_gemma_blocks (LmModel *m,
                 guint    L,
                 guint64  E,
                 guint64  Q,
                 guint64  KV,
                 guint64  F,
                 guint64  head_dim,
                 gboolean qk_norm,
                 guint32  wide)
{
  for (guint i = 0; i < L; i++)
    {
      gboolean more = lm_more_bits (i, L);

      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, wide, E, Q, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, wide, E, KV, 0, "blk.%u.attn_k.weight", i);
      lm_tensor (m, more && wide == LM_Q4_K ? LM_Q6_K : wide, E, KV, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_Q4_K, Q, E, 0, "blk.%u.attn_output.weight", i);
      if (qk_norm)
        {
          lm_tensor (m, LM_F32, head_dim, 0, 0, "blk.%u.attn_q_norm.weight", i);
          lm_tensor (m, LM_F32, head_dim, 0, 0, "blk.%u.attn_k_norm.weight", i);
        }
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_attention_norm.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      lm_tensor (m, wide, E, F, 0, "blk.%u.ffn_gate.weight", i);
      lm_tensor (m, wide, E, F, 0, "blk.%u.ffn_up.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, F, E, 0, "blk.%u.ffn_down.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.post_ffw_norm.weight", i);
    }
}

/* gemma2:2b: 26 layers, 2304 wide, 8 heads, 4 KV heads x 256, n_ff 9216,
 * vocab 256000, tied; every other layer slides over 4096 tokens. */
static inline LmModel *
lm_gemma2_2b (void)
{
  const guint L = 26;
  const guint64 E = 2304, V = 256000;
  LmModel *m = lm_model_new ("gemma2-2b", "gemma2:2b", "gemma2");

  lm_hparams (m, "gemma2", L, 8192, E, 9216, 8, 4, 256);
  lm_u32 (m, "gemma2", "attention.sliding_window", 4096);
  lm_f32 (m, "gemma2", "attn_logit_softcapping", 50.0f);
  lm_f32 (m, "gemma2", "final_logit_softcapping", 30.0f);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q6_K, E, V, 0, "token_embd.weight");
  lm_gemma_blocks (m, L, E, 2048, 1024, 9216, 256, FALSE, LM_Q4_K);
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* gemma3:1b: 26 layers, 1152 wide, 4 heads, 1 KV head x 256, n_ff 6912,
 * vocab 262144, tied; five of every six layers slide over 512 tokens.
 * 1152 is no multiple of 256: Q8_0 for the rows that start at it. */
static inline LmModel *
lm_gemma3_1b (void)
{
  const guint L = 26;
  const guint64 E = 1152, V = 262144;
  LmModel *m = lm_model_new ("gemma3-1b", "gemma3:1b", "gemma3");

  lm_hparams (m, "gemma3", L, 32768, E, 6912, 4, 1, 256);
  lm_u32 (m, "gemma3", "attention.sliding_window", 512);
  lm_f32 (m, "gemma3", "rope.freq_base_swa", 10000.0f);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q8_0, E, V, 0, "token_embd.weight");
  lm_gemma_blocks (m, L, E, 1024, 256, 6912, 256, TRUE, LM_Q8_0);
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  return m;
}

/* qwen3:30b-a3b: 48 layers, 2048 wide, 32 heads, 4 KV heads x 128, 128
 * experts of n_ff 768, 8 used, vocab 151936, its own output tensor. */
static inline LmModel *
lm_qwen3_30b_a3b (void)
{
  const guint L = 48;
  const guint64 E = 2048, Q = 4096, KV = 512, FE = 768, X = 128, V = 151936;
  LmModel *m = lm_model_new ("qwen3-30b-a3b", "qwen3:30b-a3b", "qwen3moe");

  lm_hparams (m, "qwen3moe", L, 40960, E, 6144, 32, 4, 128);
  lm_u32 (m, "qwen3moe", "expert_count", X);
  lm_u32 (m, "qwen3moe", "expert_used_count", 8);
  lm_u32 (m, "qwen3moe", "expert_feed_forward_length", FE);
  lm_tokenizer (m, V);
  lm_tensor (m, LM_Q4_K, E, V, 0, "token_embd.weight");
  for (guint i = 0; i < L; i++)
    {
      gboolean more = lm_more_bits (i, L);

      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.attn_norm.weight", i);
      lm_tensor (m, LM_Q4_K, E, Q, 0, "blk.%u.attn_q.weight", i);
      lm_tensor (m, LM_Q4_K, E, KV, 0, "blk.%u.attn_k.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, E, KV, 0, "blk.%u.attn_v.weight", i);
      lm_tensor (m, LM_Q4_K, Q, E, 0, "blk.%u.attn_output.weight", i);
      lm_tensor (m, LM_F32, 128, 0, 0, "blk.%u.attn_q_norm.weight", i);
      lm_tensor (m, LM_F32, 128, 0, 0, "blk.%u.attn_k_norm.weight", i);
      lm_tensor (m, LM_F32, E, 0, 0, "blk.%u.ffn_norm.weight", i);
      lm_tensor (m, LM_F32, E, X, 0, "blk.%u.ffn_gate_inp.weight", i);
      lm_tensor (m, LM_Q4_K, E, FE, X, "blk.%u.ffn_gate_exps.weight", i);
      lm_tensor (m, LM_Q4_K, E, FE, X, "blk.%u.ffn_up_exps.weight", i);
      lm_tensor (m, more ? LM_Q6_K : LM_Q4_K, FE, E, X, "blk.%u.ffn_down_exps.weight", i);
    }
  lm_tensor (m, LM_F32, E, 0, 0, "output_norm.weight");
  lm_tensor (m, LM_Q6_K, E, V, 0, "output.weight");
  return m;
}

/* Writes @m to @path: the header, then a hole for the tensor data.
 * Returns the file's size in bytes. */
static inline guint64
lm_model_write (const LmModel *m,
                const char    *path)
{
  g_autoptr(GByteArray) w = gw_new ();
  guint64 offset = 0, data_start;
  int fd;

  gw_header (w, 3, m->tensors->len, m->n_kv);
  gw_bytes (w, m->kv->data, m->kv->len);
  for (guint i = 0; i < m->tensors->len; i++)
    {
      const LmTensor *t = &g_array_index (m->tensors, LmTensor, i);

      gw_tensor (w, t->name, t->n_dims, t->dims, t->type, offset);
      offset = gw_align (offset + lm_tensor_bytes (t), 32);
    }
  data_start = gw_align (w->len, 32);
  while (w->len < data_start)
    gw_u8 (w, 0);

  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, w->data, w->len), ==, (gssize) w->len);
  g_assert_cmpint (ftruncate (fd, (off_t) (data_start + offset)), ==, 0);
  g_assert_cmpint (close (fd), ==, 0);
  return data_start + offset;
}
