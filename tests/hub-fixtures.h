/* hub-fixtures.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real-shaped fixtures for Qwen/Qwen2.5-3B-Instruct at revision
 * aa8e72537993ba99e69dfaafa59ed015b17504d1 (docs/seed-figures.md,
 * "A Hugging Face lookup"), generated in code: the 434 tensors of a Qwen2 model with 36
 * layers, hidden 2,048, intermediate 11,008, 2 KV heads x 128, vocab 151,936,
 * tied embeddings, all BF16; split in two shards the way the repository
 * splits them: shard 1 holds the embeddings, layers 0-20 and layer 21 but its
 * mlp.down_proj; shard 2 the rest and model.norm. Their compact safetensors
 * headers are 30,199 and 19,396 bytes of JSON, padded with spaces to 30,200
 * and 19,400 (8-byte alignment), so the files are exactly 3,968,658,944 and
 * 2,203,268,048 bytes and the tensor data totals 6,171,877,376.
 */
#pragma once

#include <glib.h>
#include <string.h>

#define QWEN_REPO     "Qwen/Qwen2.5-3B-Instruct"
#define QWEN_SHA      "aa8e72537993ba99e69dfaafa59ed015b17504d1"
#define QWEN_SHARD1   "model-00001-of-00002.safetensors"
#define QWEN_SHARD2   "model-00002-of-00002.safetensors"
#define QWEN_SHARD1_BYTES G_GUINT64_CONSTANT (3968658944)
#define QWEN_SHARD2_BYTES G_GUINT64_CONSTANT (2203268048)
#define QWEN_PARAMETERS   G_GUINT64_CONSTANT (3085938688)
#define QWEN_TOTAL_SIZE   G_GUINT64_CONSTANT (6171877376)
#define QWEN_FILES_BYTES  G_GUINT64_CONSTANT (6183464935)

typedef struct {
  char    *name;
  guint    n_dims;
  guint64  dims[2];
  guint    shard;   /* 1 or 2 */
} QwenTensor;

static inline void
qwen_tensor_free (gpointer data)
{
  QwenTensor *t = data;

  g_free (t->name);
  g_free (t);
}

static inline void
qwen_add (GPtrArray *out, char *name, guint n_dims, guint64 d0, guint64 d1, guint shard)
{
  QwenTensor *t = g_new0 (QwenTensor, 1);

  t->name = name;
  t->n_dims = n_dims;
  t->dims[0] = d0;
  t->dims[1] = d1;
  t->shard = shard;
  g_ptr_array_add (out, t);
}

/* The 434 tensors, in shard order. */
static inline GPtrArray *
qwen_tensors (void)
{
  const guint64 H = 2048, I = 11008, V = 151936, KV = 256;
  GPtrArray *out = g_ptr_array_new_with_free_func (qwen_tensor_free);

  qwen_add (out, g_strdup ("model.embed_tokens.weight"), 2, V, H, 1);
  for (guint i = 0; i < 36; i++)
    {
      guint s = i <= 21 ? 1 : 2;

#define L(suffix) g_strdup_printf ("model.layers.%u." suffix, i)
      qwen_add (out, L ("input_layernorm.weight"), 1, H, 0, s);
      if (i != 21)
        qwen_add (out, L ("mlp.down_proj.weight"), 2, H, I, s);
      qwen_add (out, L ("mlp.gate_proj.weight"), 2, I, H, s);
      qwen_add (out, L ("mlp.up_proj.weight"), 2, I, H, s);
      qwen_add (out, L ("post_attention_layernorm.weight"), 1, H, 0, s);
      qwen_add (out, L ("self_attn.k_proj.bias"), 1, KV, 0, s);
      qwen_add (out, L ("self_attn.k_proj.weight"), 2, KV, H, s);
      qwen_add (out, L ("self_attn.o_proj.weight"), 2, H, H, s);
      qwen_add (out, L ("self_attn.q_proj.bias"), 1, H, 0, s);
      qwen_add (out, L ("self_attn.q_proj.weight"), 2, H, H, s);
      qwen_add (out, L ("self_attn.v_proj.bias"), 1, KV, 0, s);
      qwen_add (out, L ("self_attn.v_proj.weight"), 2, KV, H, s);
      if (i == 21)
        qwen_add (out, L ("mlp.down_proj.weight"), 2, H, I, 2);
#undef L
    }
  qwen_add (out, g_strdup ("model.norm.weight"), 1, H, 0, 2);
  /* Shard 2's first tensor is layer 21's down_proj: move it after shard 1. */
  {
    GPtrArray *sorted = g_ptr_array_new_with_free_func (qwen_tensor_free);

    for (guint pass = 1; pass <= 2; pass++)
      for (guint i = 0; i < out->len; i++)
        {
          QwenTensor *t = g_ptr_array_index (out, i);

          if (t->shard == pass)
            g_ptr_array_add (sorted, t);
        }
    g_ptr_array_set_free_func (out, NULL);
    g_ptr_array_unref (out);
    out = sorted;
  }
  return out;
}

/* A safetensors file's first bytes for one shard: 8-byte length, then the
 * JSON padded with spaces to a multiple of 8. *out_data_bytes gets the
 * tensor data size. */
static inline GBytes *
qwen_shard_head (guint shard, guint64 *out_data_bytes)
{
  g_autoptr(GPtrArray) tensors = qwen_tensors ();
  GString *json = g_string_new ("{");
  guint64 offset = 0;
  guint64 n;
  guint8 len[8];
  GByteArray *out;

  for (guint i = 0; i < tensors->len; i++)
    {
      QwenTensor *t = g_ptr_array_index (tensors, i);
      guint64 bytes = 2 * t->dims[0] * (t->n_dims > 1 ? t->dims[1] : 1);

      if (t->shard != shard)
        continue;
      g_string_append_printf (json, "\"%s\":{\"dtype\":\"BF16\",\"shape\":[%" G_GUINT64_FORMAT, t->name, t->dims[0]);
      if (t->n_dims > 1)
        g_string_append_printf (json, ",%" G_GUINT64_FORMAT, t->dims[1]);
      g_string_append_printf (json, "],\"data_offsets\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]},",
                              offset, offset + bytes);
      offset += bytes;
    }
  g_string_append (json, "\"__metadata__\":{\"format\":\"pt\"}}");
  while (json->len % 8 != 0)
    g_string_append_c (json, ' ');
  n = json->len;
  for (guint i = 0; i < 8; i++)
    len[i] = (guint8) (n >> (8 * i));
  out = g_byte_array_new ();
  g_byte_array_append (out, len, 8);
  g_byte_array_append (out, (const guint8 *) json->str, json->len);
  g_string_free (json, TRUE);
  if (out_data_bytes != NULL)
    *out_data_bytes = offset;
  return g_byte_array_free_to_bytes (out);
}

/* model.safetensors.index.json */
static inline char *
qwen_index_json (void)
{
  g_autoptr(GPtrArray) tensors = qwen_tensors ();
  GString *json = g_string_new (NULL);

  g_string_append_printf (json, "{\n  \"metadata\": {\n    \"total_size\": %" G_GUINT64_FORMAT "\n  },\n  \"weight_map\": {",
                          QWEN_TOTAL_SIZE);
  for (guint i = 0; i < tensors->len; i++)
    {
      QwenTensor *t = g_ptr_array_index (tensors, i);

      g_string_append_printf (json, "%s\n    \"%s\": \"%s\"", i ? "," : "", t->name,
                              t->shard == 1 ? QWEN_SHARD1 : QWEN_SHARD2);
    }
  g_string_append (json, "\n  }\n}\n");
  return g_string_free (json, FALSE);
}

/* Reads a fixture file under tests/fixtures/hub/. */
static inline GBytes *
hub_fixture (const char *relative)
{
  const char *src = g_getenv ("HEADROOM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : ".", "tests", "fixtures", "hub", relative, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("fixture %s: %s", path, error->message);
  return g_bytes_new_take (contents, length);
}
