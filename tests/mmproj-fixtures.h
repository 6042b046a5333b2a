/* mmproj-fixtures.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tiny projector fixtures shared by the projector tests (test-mmproj.c,
 * test-gguf-page.c): a separate mmproj GGUF (clip architecture) and a
 * gemma3 model GGUF with its projector inside, every tensor F32 so each
 * byte is counted by hand below.
 */
#pragma once

#include "gguf-writer.h"

/* The mmproj file: v.blk.0.attn_q 64x64 (16,384 B), v.patch_embd 32x48
 * (6,144 B), mm.0.weight 64x128 (32,768 B) = 55,296 bytes of tensors. */
#define MMPROJ_FILE_TENSOR_BYTES G_GUINT64_CONSTANT (55296)
/* The gemma3 model: token_embd 64x3 (768 B) and blk.0.attn_q 64x64
 * (16,384 B) are the text model; v.patch_embd 32x48 (6,144 B) and
 * mm.input_projection 64x64 (16,384 B) its projector, 22,528 bytes. */
#define MMPROJ_INLINE_BYTES      G_GUINT64_CONSTANT (22528)
#define MMPROJ_INLINE_TEXT_BYTES G_GUINT64_CONSTANT (17152)

static inline GgufWriter *
mmproj_write_projector (void)
{
  GgufWriter *w = gw_new ();
  const guint64 q[2] = { 64, 64 }, patch[2] = { 32, 48 }, mm[2] = { 64, 128 };

  gw_header (w, 3, 3, 3);
  gw_kv_str (w, "general.architecture", "clip");
  gw_kv_u32 (w, "clip.vision.embedding_length", 64);
  gw_kv_str (w, "clip.projector_type", "gemma3");
  gw_tensor (w, "v.blk.0.attn_q.weight", 2, q, GW_F32, 0);
  gw_tensor (w, "v.patch_embd.weight", 2, patch, GW_F32, 16384);
  gw_tensor (w, "mm.0.weight", 2, mm, GW_F32, 16384 + 6144);
  g_byte_array_set_size (w, (guint) (gw_align (w->len, 32) + MMPROJ_FILE_TENSOR_BYTES));
  return w;
}

static inline GgufWriter *
mmproj_write_inline (const char *architecture)
{
  GgufWriter *w = gw_new ();
  const guint64 embd[2] = { 64, 3 }, q[2] = { 64, 64 }, patch[2] = { 32, 48 };
  const char *tokens[] = { "<bos>", "<eos>", "hi" };
  g_autofree char *blocks = g_strdup_printf ("%s.block_count", architecture);
  g_autofree char *emb = g_strdup_printf ("%s.embedding_length", architecture);
  g_autofree char *heads = g_strdup_printf ("%s.attention.head_count", architecture);
  g_autofree char *context = g_strdup_printf ("%s.context_length", architecture);

  gw_header (w, 3, 4, 8);
  gw_kv_str (w, "general.architecture", architecture);
  gw_kv_str (w, "general.name", "Tiny Vision");
  gw_kv_u32 (w, blocks, 1);
  gw_kv_u32 (w, emb, 64);
  gw_kv_u32 (w, heads, 4);
  gw_kv_u32 (w, context, 2048);
  gw_kv_str_array (w, "tokenizer.ggml.tokens", tokens, 3);
  gw_kv_str (w, "tokenizer.ggml.model", "llama");
  gw_tensor (w, "token_embd.weight", 2, embd, GW_F32, 0);
  gw_tensor (w, "blk.0.attn_q.weight", 2, q, GW_F32, 768);
  gw_tensor (w, "v.patch_embd.weight", 2, patch, GW_F32, 768 + 16384);
  gw_tensor (w, "mm.input_projection.weight", 2, q, GW_F32, 768 + 16384 + 6144);
  g_byte_array_set_size (w, (guint) (gw_align (w->len, 32) + MMPROJ_INLINE_BYTES + MMPROJ_INLINE_TEXT_BYTES));
  return w;
}

static inline char *
mmproj_save (GgufWriter *w,
             const char *name)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_user_cache_dir (), name, NULL);

  g_mkdir_with_parents (g_get_user_cache_dir (), 0700);
  g_file_set_contents (path, (const char *) w->data, w->len, &error);
  g_assert_no_error (error);
  return path;
}
