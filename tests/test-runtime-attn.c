/* test-runtime-attn.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime model (CPU backend, Ollama 0.30+) on the attention variants
 * of tests/llama/llama-models-attn.h, read back from the GGUF files those
 * builders write: llama4's chunked attention (three of every four layers
 * cache pad256(min(cells, 8192 + ubatch)) cells, src/models/llama4.cpp and
 * src/llama-kv-cache-iswa.cpp), the architectures whose sliding window
 * llama.cpp decides itself (exaone4, llama4 with a window of 0), and
 * multi-head latent attention with a leading dense layer (deepseek2: the
 * expert width is not layer 0's), and gemma4's two head sizes. The figures llama-server logged for the
 * same files (llama.cpp de3ff815, tests/llama/test-llama.c) are quoted
 * where a test compares with them.
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "hr-gguf.h"
#include "hr-runtime.h"
#include "llama/llama-models-attn.h"
#include "llama/llama-models-hybrid.h"

#define MIB 1048576.0

/* The spec Headroom reads from @m's file. */
static HrModelSpec *
spec_of (LmModel *m)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-attn-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.gguf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGgufFile) file = NULL;
  HrModelSpec *spec;

  g_assert_nonnull (dir);
  lm_model_write (m, path);
  file = hr_gguf_file_load (path, NULL, &error);
  g_assert_no_error (error);
  spec = hr_gguf_file_to_model_spec (file, m->like, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (spec);
  g_unlink (path);
  g_rmdir (dir);
  return spec;
}

static void
predict_cpu (const HrModelSpec   *spec,
             guint32              context,
             guint32              slots,
             gboolean             flash,
             HrKvCacheType        kv,
             HrRuntimePrediction *p)
{
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;

  hr_runtime_inputs_init (&in, spec, context);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = slots;
  in.kv_type = kv;
  in.flash_attention = flash ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  g_assert_true (hr_runtime_predict (&in, p, &error));
  g_assert_no_error (error);
}

static gint64
kv_bytes (const HrRuntimePrediction *p)
{
  return hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_KV_CACHE);
}

/* llama4 (Llama-4-Maverick's layers, 8 of them): no sliding_window key, yet
 * llama.cpp chunks layers 0-2 and 4-6 in 8192 tokens and keeps 3 and 7
 * global. Per cell and layer K + V are 8 heads x 128 x 2 = 2,048 values. */
static void
test_llama4_chunked (void)
{
  g_autoptr(LmModel) m = lm_llama4_maverick ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  HrRuntimePrediction p;

  g_assert_cmpuint (spec->sliding_window, ==, 8192);
  g_assert_nonnull (spec->layer_sliding);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpint (hr_model_spec_layer_is_sliding (spec, i), ==, i % 4 < 3);
  g_assert_nonnull (strstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW), "chunked"));

  /* 32,768 tokens, q8_0 (34 bytes per 32 values): 2 global layers x 32,768
   * cells x 2,048 x 34 / 32 + 6 chunked layers x pad256(8,192 + 512) =
   * 8,704 cells x 2,048 x 34 / 32 = 142,606,336 + 113,639,424 bytes; the
   * 1 % off total the issue saw counted all 8 layers as global
   * (570,425,344 bytes). llama-server logs 244.38 MiB. */
  predict_cpu (spec, 32768, 1, TRUE, HR_KV_CACHE_Q8_0, &p);
  g_assert_cmpint (kv_bytes (&p), ==, 256245760);
  g_assert_cmpuint (p.kv_cells, ==, 32768);
  g_assert_cmpuint (p.kv_cells_sliding, ==, 8704);

  /* Below the chunk every layer holds the context: 8 x 4,096 x 2,048 x 2
   * (f16). */
  predict_cpu (spec, 4096, 1, TRUE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (kv_bytes (&p), ==, 134217728);

  /* Four slots of 16,384: each stream of a chunked layer holds
   * pad256(min(16,384, 8,192 + 512)) = 8,704 cells: 2 x 65,536 x 4,096 +
   * 6 x 34,816 x 4,096 bytes (f16). */
  predict_cpu (spec, 16384, 4, TRUE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (kv_bytes (&p), ==, 2 * 65536 * 4096 + 6 * 34816 * 4096);
}

/* The architectures whose window llama.cpp decides: llama4 with
 * attention.sliding_window = 0 has none (every layer global, no chunks);
 * exaone4 slides only with 64 layers (src/models/exaone4.cpp), whatever
 * the key says. */
static void
test_arch_window_rules (void)
{
  g_autoptr(LmModel) llama4 = lm_model_new ("llama4-nochunk", "llama4:nochunk", "llama4");
  g_autoptr(LmModel) exaone = lm_model_new ("exaone4-1.2b", "exaone4:1.2b", "exaone4");
  g_autoptr(HrModelSpec) l4 = NULL;
  g_autoptr(HrModelSpec) ex = NULL;

  lm_hparams (llama4, "llama4", 8, 131072, 5120, 16384, 40, 8, 128);
  lm_u32 (llama4, "llama4", "attention.sliding_window", 0);
  lm_tokenizer (llama4, 300);
  lm_tensor (llama4, LM_F32, 5120, 300, 0, "token_embd.weight");
  l4 = spec_of (llama4);
  g_assert_cmpuint (l4->sliding_window, ==, 0);
  g_assert_null (l4->layer_sliding);

  lm_hparams (exaone, "exaone4", 30, 65536, 2048, 4096, 32, 8, 64);
  lm_u32 (exaone, "exaone4", "attention.sliding_window", 4096);
  lm_tokenizer (exaone, 300);
  lm_tensor (exaone, LM_F32, 2048, 300, 0, "token_embd.weight");
  ex = spec_of (exaone);
  g_assert_cmpuint (ex->sliding_window, ==, 0);
}

/* exaone4-32b: 64 layers, three of every four slide over 4,096 tokens. At
 * 8,192 tokens: 16 x 8,192 + 48 x pad256(4,096 + 512) = 4,608 cells, 4,096
 * bytes a cell (8 heads x 128 x 2 x 2): llama-server logs 1,376.00 MiB. */
static void
test_exaone4_pattern (void)
{
  g_autoptr(LmModel) m = lm_exaone4_32b ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  HrRuntimePrediction p;

  g_assert_cmpuint (spec->sliding_window, ==, 4096);
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 0));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 3));
  predict_cpu (spec, 8192, 1, TRUE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (kv_bytes (&p), ==, (gint64) (1376.00 * MIB));
}

/* deepseek2 (DeepSeek-V2-Lite): layer 0 is dense (n_ff 10,944), the rest 64
 * experts of 1,408, 6 used. The compute buffer's widest layer is a MoE one:
 * 3 x 1,408 x 6 + 2,048 x 6 + 4 x 2,048 = 45,824 values a token, + 5, x
 * ubatch 512 x 4 bytes, + the f16 mask (2,048 cells x 512 x 2). Reading
 * the expert width from layer 0 took the dense 10,944 (430.76 MiB against
 * the 91.01 MiB llama-server logs). */
static void
test_mla_expert_width (void)
{
  g_autoptr(LmModel) m = lm_deepseek_v2_lite ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  g_autoptr(HrModelSpec) keys_only = NULL;
  HrRuntimePrediction p;
  gint64 compute;

  g_assert_true (spec->kv_latent);
  g_assert_cmpuint (spec->expert_feed_forward_length, ==, 1408);
  g_assert_cmpuint (spec->leading_dense_layers, ==, 1);
  g_assert_cmpuint (spec->expert_shared_count, ==, 2);

  predict_cpu (spec, 2048, 1, TRUE, HR_KV_CACHE_F16, &p);
  /* 27 layers x one latent of 576 x 2,048 cells x 2 bytes: 60.75 MiB. */
  g_assert_cmpint (kv_bytes (&p), ==, 27 * 576 * 2048 * 2);
  compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
  g_assert_cmpint (compute, ==, 2048 * 512 * 2 + 2048 * (45824 + 5));
  g_assert_cmpfloat (ABS (compute / MIB - 91.01), <=, 1.0);

  /* Without a tensor list (Ollama's /api/show keys only) the keys give the
   * same widths: expert_feed_forward_length, leading_dense_block_count. */
  keys_only = hr_model_spec_copy (spec);
  g_clear_pointer (&keys_only->tensors, g_ptr_array_unref);
  predict_cpu (keys_only, 2048, 1, TRUE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE), ==, compute);

  /* MLA on some layers only (a hybrid's attention layers): the formula
   * counts the layers that have the latent cache, as the bytes do. */
  g_clear_pointer (&keys_only->layer_kv_heads, g_array_unref);
  keys_only->layer_kv_heads = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_array_set_size (keys_only->layer_kv_heads, keys_only->layers);
  g_array_index (keys_only->layer_kv_heads, guint32, 3) = 1;
  g_array_index (keys_only->layer_kv_heads, guint32, 7) = 1;
  predict_cpu (keys_only, 2048, 1, TRUE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (kv_bytes (&p), ==, 2 * 576 * 2048 * 2);
  g_assert_true (g_str_has_prefix (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_KV_CACHE)->formula,
                                   "2 layers x 1 KV head x 576 latent elements"));
}

/* deepseek2 (DeepSeek-V2-Lite) without flash attention: V is a view of
 * the latent cache, copied by build_attn_mha (v_cont: 512 x every
 * stream's cells x 2 bytes). It fits the hole the first layer leaves
 * (2,048 x (2,048 + 3,072 + 8,192 + 1,024) = 29,360,128 bytes: attn_norm,
 * q, q_nope_absorbed, q_pe) up to 28 MiB, and a MoE layer's (2,048 x
 * 2,048 x 8 + 2,048 x (2 x 64 + 6) = 33,828,864) up to 32.26 MiB; the MoE
 * layer's attention sits 4,468,736 bytes higher. llama-server logs
 * 330.27 MiB (8,192 x 1: fits both), 358.01 (8,192 x 4) and 1,174.01
 * (32,768 x 1: the first layer's peak, + 33,554,432 - 4,468,736), 666.27
 * (16,384 x 4) and 2,298.27 (65,536 x 1: + the whole copy). */
static void
test_mla_v_copy (void)
{
  g_autoptr(LmModel) m = lm_deepseek_v2_lite ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  static const struct { guint32 context, slots; double logged; gint64 extra; } cases[] = {
    { 8192, 1, 330.27, 0 },
    { 8192, 4, 358.01, 33554432 - 4468736 },
    { 32768, 1, 1174.01, 33554432 - 4468736 },
    { 16384, 4, 666.27, 67108864 },
    { 65536, 1, 2298.27, 67108864 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrRuntimePrediction p;
      guint64 cells_seq = cases[i].context;
      /* compute_cpu()'s attention phase: the mask, 2,048 x (5 x 2,048 + 2
       * x 9,216 + 2 x 576 + 5) and the scores of one stream. */
      gint64 base = (gint64) (cells_seq * 512 * 4 + 2048 * (5 * 2048 + 2 * 9216 + 2 * 576 + 5) + cells_seq * 512 * 16 * 4);
      gint64 compute;

      predict_cpu (spec, cases[i].context, cases[i].slots, FALSE, HR_KV_CACHE_F16, &p);
      compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
      g_assert_cmpint (compute, ==, base + cases[i].extra);
      g_assert_cmpfloat (ABS (compute / MIB - cases[i].logged), <=, 0.02);
      if (cases[i].extra > 0)
        g_assert_nonnull (strstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_COMPUTE)->note, "latent V"));
    }

  /* With flash attention V is read in place: no copy. */
  {
    HrRuntimePrediction on, off;

    predict_cpu (spec, 32768, 1, TRUE, HR_KV_CACHE_F16, &on);
    g_assert_null (strstr (hr_runtime_prediction_get_term (&on, HR_RUNTIME_TERM_COMPUTE)->note, "latent V"));
    predict_cpu (spec, 8192, 1, FALSE, HR_KV_CACHE_F16, &off);
    g_assert_null (strstr (hr_runtime_prediction_get_term (&off, HR_RUNTIME_TERM_COMPUTE)->note, "latent V"));
  }
}

/* qwen3next (Qwen3-Next-80B-A3B): the fused qkvz delta net's two points
 * (hr-runtime-compute-recurrent.c), in values per token x 2,048 bytes
 * (ubatch 512 x 4), with embedding 2,048, d_in_proj 12,288, conv_dim
 * 8,192, d_inner 4,096, key width 2,048; n_embd_s 524,288 and n_embd_r
 * 24,576 values a slot; the f16 mask 8,192 x 512 x 2 and the 5 small
 * inputs (10,240 bytes):
 *  - 4 slots: the delta net's output, 40,960 units + 2 x 8,388,608
 *    (the state twice) + 393,216 (the conv rows): 104.39 MiB logged;
 *  - 1 slot: a later layer's convolution input, 45,056 units + 98,304:
 *    96.11 MiB logged (the old model said 94.01 for both, its MoE block);
 *  - without flash attention, 2,048 x 4: the attention phase, 4 x 2,048 +
 *    3 x 4,096 + 2 x 512 units and the scores (2,048 x 512 x 16 x 4), the
 *    f32 mask 2,048 x 512 x 4: 110.01 MiB logged, for qwen35moe too. */
static void
test_qwen3next_compute (void)
{
  g_autoptr(LmModel) m = lm_qwen3next_80b ();
  g_autoptr(LmModel) moe = lm_qwen35_35b_a3b ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  g_autoptr(HrModelSpec) spec35 = spec_of (moe);
  HrRuntimePrediction p;
  gint64 compute;

  predict_cpu (spec, 8192, 4, TRUE, HR_KV_CACHE_F16, &p);
  compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
  g_assert_cmpint (compute, ==, 8388608 + 2048 * 40960 + 2 * 8388608 + 393216 + 10240);
  g_assert_cmpfloat (ABS (compute / MIB - 104.39), <=, 0.02);

  predict_cpu (spec, 8192, 1, TRUE, HR_KV_CACHE_F16, &p);
  compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
  g_assert_cmpint (compute, ==, 8388608 + 2048 * 45056 + 98304 + 10240);
  g_assert_cmpfloat (ABS (compute / MIB - 96.11), <=, 0.02);

  predict_cpu (spec, 2048, 4, FALSE, HR_KV_CACHE_F16, &p);
  compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
  g_assert_cmpint (compute, ==, 4194304 + 2048 * (4 * 2048 + 3 * 4096 + 2 * 512) + 2048 * 512 * 16 * 4 + 10240);
  g_assert_cmpfloat (ABS (compute / MIB - 110.01), <=, 0.02);
  predict_cpu (spec35, 2048, 4, FALSE, HR_KV_CACHE_F16, &p);
  g_assert_cmpfloat (ABS (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE) / MIB - 110.01), <=, 0.02);

  /* qwen35 (Qwen3.5-4B): the gathered state takes the hole qkv_mixed and
   * the conv rows leave, so with 4 slots the delta net (3 x 2,560 + 3 x
   * 8,192 units + 2 x the conv rows, 72.03 MiB traced) stays below the
   * feed-forward block, and the buffer is the 1-slot one: llama-server
   * logs 77.28 MiB at 8,192 x 4 with q8_0 (0.27 of it the cache's
   * rotation inputs); the old model counted the state on top (79.76). */
  {
    g_autoptr(LmModel) small = lm_qwen35_4b ();
    g_autoptr(HrModelSpec) spec4b = spec_of (small);
    gint64 one;

    predict_cpu (spec4b, 8192, 1, TRUE, HR_KV_CACHE_Q8_0, &p);
    one = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
    predict_cpu (spec4b, 8192, 4, TRUE, HR_KV_CACHE_Q8_0, &p);
    compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
    g_assert_cmpint (compute, ==, one);
    g_assert_cmpfloat (ABS (compute / MIB - 77.28), <=, 0.3);
  }
}

/* kimi-linear (Kimi-Linear-48B-A3B) without flash attention: its MLA
 * layers hold inp_embd, a two-embedding hole, the residual, q (32 x 192),
 * q_nope_absorbed (32 x 512) and Qcur (32 x 576) before the scores: 4 x
 * 2,304 + 6,144 + 32 x (2 x 512 + 64) = 50,176 values a token, x 2,048
 * bytes, + the f32 mask, the scores (cells x 512 x 32 x 4) and the small
 * inputs; the latent V's copy (512 x cells x 2) fits the hole q and
 * q_nope_absorbed leave (45,088,768 bytes) up to 32,768 cells and is added
 * whole at 65,536. llama-server logs 230.01 MiB (2,048 x 4), 2,210.01
 * (32,768 x 1) and 4,386.01 (65,536 x 1); the old model said 219.76 and
 * 2,199.76 (one embedding, and 2 x KV width for a V-index input MLA does
 * not have, instead of q and q_nope_absorbed). */
static void
test_kimi_mla_compute (void)
{
  g_autoptr(LmModel) m = lm_kimi_linear ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  static const struct { guint32 context, slots; double logged; gint64 v_cont; } cases[] = {
    { 2048, 4, 230.01, 0 },
    { 32768, 1, 2210.01, 0 },
    { 65536, 1, 4386.01, 512 * 65536 * 2 },
  };

  g_assert_true (spec->kv_latent);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrRuntimePrediction p;
      gint64 cells = cases[i].context;
      gint64 compute;

      predict_cpu (spec, cases[i].context, cases[i].slots, FALSE, HR_KV_CACHE_F16, &p);
      compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
      g_assert_cmpint (compute, ==, cells * 512 * 4 + 2048 * 50176 + cells * 512 * 32 * 4 + cases[i].v_cont + 10240);
      g_assert_cmpfloat (ABS (compute / MIB - cases[i].logged), <=, 0.02);
    }
}

/* cohere2 (Command R7B) without flash attention: its global layers have
 * no rope, so the one that holds the scores keeps inp_embd, the residual,
 * attn_norm, Qcur and the two caches' V-index inputs: 3 x 4,096 + 4,096 +
 * 4 x 1,024 values a token x 2,048 bytes, beside both masks (8,192 and
 * 4,608 cells x 512 x 4), the scores (8,192 x 512 x 32 x 4) and the small
 * inputs. llama-server logs 577.01 MiB at 8,192 x 4 (the old model counted
 * a second query-wide tensor: 585.01). */
static void
test_cohere2_global_attention (void)
{
  g_autoptr(LmModel) m = lm_command_r7b ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  HrRuntimePrediction p;
  gint64 compute;

  predict_cpu (spec, 8192, 4, FALSE, HR_KV_CACHE_F16, &p);
  compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
  g_assert_cmpint (compute, ==, (8192 + 4608) * 512 * 4 + 2048 * (3 * 4096 + 4096 + 4 * 1024) + (gint64) 8192 * 512 * 32 * 4 + 10240);
  g_assert_cmpfloat (ABS (compute / MIB - 577.01), <=, 0.02);
}

/* gemma2 / gemma3 without flash attention at small contexts: the
 * feed-forward block is the peak, on top of inp_embd, both caches' V-index
 * inputs (2 x KV width each), the hole kqv and kqv_out leave (2 x query
 * width), ffn_norm and the residual, with gate, up and their product:
 * gemma2-2b 3 x 2,304 + 2 x 2,048 + 4 x 1,024 + 3 x 9,216 values a token
 * x 2,048 bytes and both f32 masks (2,048 cells x 512 x 4 each): 91.51 MiB
 * as llama-server logs at 2,048 x 4 (the old model said 79.51); gemma3-1b
 * 59.26 (54.26). */
static void
test_gemma_ffn_without_flash (void)
{
  g_autoptr(LmModel) g2 = lm_gemma2_2b ();
  g_autoptr(LmModel) g3 = lm_gemma3_1b ();
  g_autoptr(HrModelSpec) spec2 = spec_of (g2);
  g_autoptr(HrModelSpec) spec3 = spec_of (g3);
  HrRuntimePrediction p;
  gint64 compute;

  predict_cpu (spec2, 2048, 4, FALSE, HR_KV_CACHE_F16, &p);
  compute = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE);
  g_assert_cmpint (compute, ==, 2 * 2048 * 512 * 4 + 2048 * (3 * 2304 + 2 * 2048 + 4 * 1024 + 3 * 9216) + 10240);
  g_assert_cmpfloat (ABS (compute / MIB - 91.51), <=, 0.02);
  predict_cpu (spec3, 2048, 4, FALSE, HR_KV_CACHE_F16, &p);
  g_assert_cmpfloat (ABS (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE) / MIB - 59.26), <=, 0.02);
}

/* gemma4 (Gemma 4 31B's layers, 12 of them): sliding layers of 16 KV heads
 * x 256, global ones of 4 x 512 (attention.key_length_swa). At 8,192
 * tokens with flash attention: 10 x 1,536 cells x 16 x 512 x 2 + 2 x 8,192
 * x 4 x 1,024 x 2 bytes = 368.00 MiB, as llama-server logs. Without it V
 * is stored transposed, every layer's as wide as the widest (16 x 256):
 * the global layers hold 4 x 512 + 4,096 values a cell, 432.00 MiB. */
static void
test_gemma4_head_sizes (void)
{
  g_autoptr(LmModel) m = lm_gemma4_31b ();
  g_autoptr(HrModelSpec) spec = spec_of (m);
  HrRuntimePrediction p;

  g_assert_cmpuint (spec->key_length, ==, 512);
  g_assert_cmpuint (spec->key_length_swa, ==, 256);
  g_assert_cmpuint (spec->sliding_window, ==, 1024);
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 4));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 5));
  predict_cpu (spec, 8192, 1, TRUE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (kv_bytes (&p), ==, 10 * 1536 * 16 * 512 * 2 + 2 * 8192 * 4 * 1024 * 2);
  g_assert_cmpint (kv_bytes (&p), ==, (gint64) (368.00 * MIB));
  predict_cpu (spec, 8192, 1, FALSE, HR_KV_CACHE_F16, &p);
  g_assert_cmpint (kv_bytes (&p), ==, 10 * 1536 * 16 * 512 * 2 + 2 * 8192 * (4 * 512 + 4096) * 2);
  g_assert_cmpint (kv_bytes (&p), ==, (gint64) (432.00 * MIB));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/runtime-attn/llama4-chunked", test_llama4_chunked);
  g_test_add_func ("/runtime-attn/arch-window-rules", test_arch_window_rules);
  g_test_add_func ("/runtime-attn/exaone4-pattern", test_exaone4_pattern);
  g_test_add_func ("/runtime-attn/mla-expert-width", test_mla_expert_width);
  g_test_add_func ("/runtime-attn/mla-v-copy", test_mla_v_copy);
  g_test_add_func ("/runtime-attn/qwen3next-compute", test_qwen3next_compute);
  g_test_add_func ("/runtime-attn/kimi-mla-compute", test_kimi_mla_compute);
  g_test_add_func ("/runtime-attn/cohere2-global-attention", test_cohere2_global_attention);
  g_test_add_func ("/runtime-attn/gemma-ffn-without-flash", test_gemma_ffn_without_flash);
  g_test_add_func ("/runtime-attn/gemma4-head-sizes", test_gemma4_head_sizes);
  return g_test_run ();
}
