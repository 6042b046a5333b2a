/* gguf-writer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small GGUF writer for the tests and the benchmark: it lays bytes out
 * exactly as the GGUF specification says (little-endian; strings are u64
 * length + bytes; arrays are u32 element type + u64 count + elements), so
 * the parser is checked against the format, not against itself.
 */
#pragma once

#include <glib.h>
#include <string.h>

#define GgufWriter GByteArray /* so g_autoptr (GgufWriter) works */

static inline GgufWriter *
gw_new (void)
{
  return g_byte_array_new ();
}

static inline void
gw_bytes (GgufWriter *w, const void *data, gsize n)
{
  g_byte_array_append (w, data, (guint) n);
}

static inline void
gw_u8 (GgufWriter *w, guint8 v)
{
  gw_bytes (w, &v, 1);
}

static inline void
gw_u16 (GgufWriter *w, guint16 v)
{
  v = GUINT16_TO_LE (v);
  gw_bytes (w, &v, 2);
}

static inline void
gw_u32 (GgufWriter *w, guint32 v)
{
  v = GUINT32_TO_LE (v);
  gw_bytes (w, &v, 4);
}

static inline void
gw_u64 (GgufWriter *w, guint64 v)
{
  v = GUINT64_TO_LE (v);
  gw_bytes (w, &v, 8);
}

static inline void
gw_f32 (GgufWriter *w, float f)
{
  guint32 v;

  memcpy (&v, &f, 4);
  gw_u32 (w, v);
}

static inline void
gw_f64 (GgufWriter *w, double d)
{
  guint64 v;

  memcpy (&v, &d, 8);
  gw_u64 (w, v);
}

static inline void
gw_strn (GgufWriter *w, const char *s, gsize n)
{
  gw_u64 (w, n);
  gw_bytes (w, s, n);
}

static inline void
gw_str (GgufWriter *w, const char *s)
{
  gw_strn (w, s, strlen (s));
}

/* magic, version, tensor count, metadata count */
static inline void
gw_header (GgufWriter *w, guint32 version, guint64 n_tensors, guint64 n_kv)
{
  gw_bytes (w, "GGUF", 4);
  gw_u32 (w, version);
  gw_u64 (w, n_tensors);
  gw_u64 (w, n_kv);
}

/* GGUF value types */
enum {
  GW_UINT8, GW_INT8, GW_UINT16, GW_INT16, GW_UINT32, GW_INT32, GW_FLOAT32,
  GW_BOOL, GW_STRING, GW_ARRAY, GW_UINT64, GW_INT64, GW_FLOAT64,
};

static inline void
gw_key (GgufWriter *w, const char *key, guint32 type)
{
  gw_str (w, key);
  gw_u32 (w, type);
}

static inline void
gw_kv_u32 (GgufWriter *w, const char *key, guint32 v)
{
  gw_key (w, key, GW_UINT32);
  gw_u32 (w, v);
}

static inline void
gw_kv_f32 (GgufWriter *w, const char *key, float v)
{
  gw_key (w, key, GW_FLOAT32);
  gw_f32 (w, v);
}

static inline void
gw_kv_str (GgufWriter *w, const char *key, const char *v)
{
  gw_key (w, key, GW_STRING);
  gw_str (w, v);
}

static inline void
gw_kv_bool (GgufWriter *w, const char *key, gboolean v)
{
  gw_key (w, key, GW_BOOL);
  gw_u8 (w, v ? 1 : 0);
}

/* An array head: key, ARRAY, element type, count; the caller writes the elements. */
static inline void
gw_kv_array (GgufWriter *w, const char *key, guint32 elem_type, guint64 count)
{
  gw_key (w, key, GW_ARRAY);
  gw_u32 (w, elem_type);
  gw_u64 (w, count);
}

static inline void
gw_kv_u32_array (GgufWriter *w, const char *key, const guint32 *v, guint n)
{
  gw_kv_array (w, key, GW_UINT32, n);
  for (guint i = 0; i < n; i++)
    gw_u32 (w, v[i]);
}

static inline void
gw_kv_i32_array (GgufWriter *w, const char *key, const gint32 *v, guint n)
{
  gw_kv_array (w, key, GW_INT32, n);
  for (guint i = 0; i < n; i++)
    gw_u32 (w, (guint32) v[i]);
}

static inline void
gw_kv_str_array (GgufWriter *w, const char *key, const char * const *v, guint n)
{
  gw_kv_array (w, key, GW_STRING, n);
  for (guint i = 0; i < n; i++)
    gw_str (w, v[i]);
}

/* One tensor info: name, n_dims, dims (ne[0] first), ggml type, offset. */
static inline void
gw_tensor (GgufWriter *w, const char *name, guint32 n_dims, const guint64 *dims,
           guint32 type, guint64 offset)
{
  gw_str (w, name);
  gw_u32 (w, n_dims);
  for (guint32 i = 0; i < n_dims; i++)
    gw_u64 (w, dims[i]);
  gw_u32 (w, type);
  gw_u64 (w, offset);
}

static inline guint64
gw_align (guint64 offset, guint64 alignment)
{
  return (offset + alignment - 1) / alignment * alignment;
}

/* The tensor list of llama3.2:3b as Ollama ships it (Q4_K_M):
 * token_embd Q6_K (tied: no output.weight), 28 blocks of attn_norm F32,
 * attn_q/k/output Q4_K, attn_v and ffn_down Q6_K on llama.cpp's
 * "use_more_bits" layers (i < n/8, i >= 7n/8, (i - n/8) % 3 == 2) else
 * Q4_K, ffn_gate/up Q4_K, ffn_norm F32; output_norm F32 and rope_freqs F32.
 * Shapes: embedding 3072, feed-forward 8192, 8 KV heads x 128, vocab 128256.
 * That is Q4_K x168, Q6_K x29, F32 x58 (docs/seed-figures.md W6).
 * @tensor_bytes_fn gives each tensor's bytes for the running offset. */
typedef struct {
  const char *name;
  guint32     n_dims;
  guint64     dims[2];
  guint32     type;
} GwTensorSpec;

#define GW_F32  0
#define GW_Q4_K 12
#define GW_Q6_K 14

static inline guint64
gw_spec_bytes (const GwTensorSpec *t)
{
  guint64 elements = t->dims[0] * (t->n_dims > 1 ? t->dims[1] : 1);

  switch (t->type)
    {
    case GW_F32:  return elements * 4;
    case GW_Q4_K: return elements / 256 * 144;
    case GW_Q6_K: return elements / 256 * 210;
    default:      g_assert_not_reached ();
    }
}

/* Fills @out (255 entries, names owned by @names). */
static inline guint
gw_llama32_3b_tensors (GwTensorSpec *out, GPtrArray *names)
{
  const guint64 E = 3072, F = 8192, KV = 1024, V = 128256;
  const guint L = 28;
  guint n = 0;

#define ADD(nm, nd, d0, d1, ty) G_STMT_START { \
    out[n].name = nm; out[n].n_dims = nd; out[n].dims[0] = d0; out[n].dims[1] = d1; \
    out[n].type = ty; n++; } G_STMT_END

  ADD ("token_embd.weight", 2, E, V, GW_Q6_K);
  for (guint i = 0; i < L; i++)
    {
      gboolean more = i < L / 8 || i >= 7 * L / 8 || (i >= L / 8 && (i - L / 8) % 3 == 2);
      char *nm;

#define NAME(suffix) (nm = g_strdup_printf ("blk.%u." suffix, i), g_ptr_array_add (names, nm), nm)
      ADD (NAME ("attn_norm.weight"), 1, E, 1, GW_F32);
      ADD (NAME ("attn_q.weight"), 2, E, E, GW_Q4_K);
      ADD (NAME ("attn_k.weight"), 2, E, KV, GW_Q4_K);
      ADD (NAME ("attn_v.weight"), 2, E, KV, more ? GW_Q6_K : GW_Q4_K);
      ADD (NAME ("attn_output.weight"), 2, E, E, GW_Q4_K);
      ADD (NAME ("ffn_gate.weight"), 2, E, F, GW_Q4_K);
      ADD (NAME ("ffn_up.weight"), 2, E, F, GW_Q4_K);
      ADD (NAME ("ffn_down.weight"), 2, F, E, more ? GW_Q6_K : GW_Q4_K);
      ADD (NAME ("ffn_norm.weight"), 1, E, 1, GW_F32);
#undef NAME
    }
  ADD ("output_norm.weight", 1, E, 1, GW_F32);
  ADD ("rope_freqs.weight", 1, 64, 1, GW_F32);
#undef ADD
  return n;
}

/* Writes the tensor infos of @specs with offsets packed at 32-byte alignment. */
static inline void
gw_write_tensors (GgufWriter *w, const GwTensorSpec *specs, guint n)
{
  guint64 offset = 0;

  for (guint i = 0; i < n; i++)
    {
      gw_tensor (w, specs[i].name, specs[i].n_dims, specs[i].dims, specs[i].type, offset);
      offset = gw_align (offset + gw_spec_bytes (&specs[i]), 32);
    }
}

/* llama3.2:3b's keys and its 255 tensors with a 128,256-token vocabulary:
 * a header of about 2 MB, read by growing Range requests. */
static G_GNUC_UNUSED GBytes *
gw_llama32_3b_header (void)
{
  GgufWriter *w = gw_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GwTensorSpec specs[260];
  guint n = gw_llama32_3b_tensors (specs, names);
  const guint n_vocab = 128256;

  gw_header (w, 3, n, 15);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_u32 (w, "llama.block_count", 28);
  gw_kv_u32 (w, "llama.context_length", 131072);
  gw_kv_u32 (w, "llama.embedding_length", 3072);
  gw_kv_u32 (w, "llama.feed_forward_length", 8192);
  gw_kv_u32 (w, "llama.attention.head_count", 24);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 8);
  gw_kv_f32 (w, "llama.rope.freq_base", 500000.0f);
  gw_kv_u32 (w, "llama.attention.key_length", 128);
  gw_kv_u32 (w, "llama.attention.value_length", 128);
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "llama.vocab_size", n_vocab);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_array (w, "tokenizer.ggml.tokens", GW_STRING, n_vocab);
  for (guint i = 0; i < n_vocab; i++)
    {
      g_autofree char *t = g_strdup_printf ("t%u", i);

      gw_str (w, t);
    }
  gw_kv_array (w, "tokenizer.ggml.token_type", GW_INT32, n_vocab);
  for (guint i = 0; i < n_vocab; i++)
    gw_u32 (w, 1);
  gw_write_tensors (w, specs, n);
  return g_byte_array_free_to_bytes (w);
}
