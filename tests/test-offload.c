/* test-offload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GPU/host split (hr-offload.h) on small synthetic models whose every
 * tensor is f32, so each layer's bytes are computed by hand below; the
 * runtime's KV and compute terms (hr-runtime.h) are read from the runtime.
 * Then the speed, the old scheduler's slots, the fit finders, and the table
 * of five catalog models on the RTX 3060 12 GB.
 */
#include "config.h"

#include <math.h>

#include "hr-board.h"
#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-offload.h"
#include "hr-priors.h"
#include "hr-units.h"

#define MIB G_GUINT64_CONSTANT (1048576)

/* The dense model: 4 blocks of f32 tensors, embedding 256, vocabulary 1,000.
 * block = attn_q 256x256 (262,144 B) + ffn_up, ffn_gate 256x512 and
 * ffn_down 512x256 (524,288 B each) + attn_norm 256 (1,024 B) = 1,836,032 B;
 * token_embd and output 256x1000 = 1,024,000 B each; output_norm 1,024 B. */
#define BLOCK   G_GUINT64_CONSTANT (1836032)
#define EMBD    G_GUINT64_CONSTANT (1024000)
#define OUT_GRP G_GUINT64_CONSTANT (1025024) /* output + output_norm */
/* KV at 256 tokens: 2 KV heads x (64 + 64) x 256 cells x 2 bytes a layer. */
#define KV_LAYER G_GUINT64_CONSTANT (131072)
/* Host compute at full offload: ubatch 256 x 4 x (256 + 256 cells). */
#define INPUTS  G_GUINT64_CONSTANT (524288)
/* The MoE model's block: attn_q 262,144 + attn_norm 1,024 + ffn_gate_inp
 * 256x4 (4,096), and 4 experts of ffn_up_exps, ffn_gate_exps 256x128x4 and
 * ffn_down_exps 128x256x4 (524,288 B each). */
#define MOE_DENSE G_GUINT64_CONSTANT (267264)
#define MOE_X     G_GUINT64_CONSTANT (524288)

static void
add_tensor (GPtrArray  *tensors,
            const char *name,
            guint       n_dims,
            guint64     d0,
            guint64     d1,
            guint64     d2)
{
  guint64 dims[3] = { d0, d1, d2 };
  g_autoptr(GError) error = NULL;
  HrTensorInfo *info = hr_tensor_info_new (name, HR_GGML_TYPE_F32, n_dims, dims, &error);

  g_assert_no_error (error);
  g_ptr_array_add (tensors, info);
}

static HrModelSpec *
synthetic_spec (gboolean moe,
                gboolean tied)
{
  HrModelSpec *spec = hr_model_spec_new (moe ? "synthetic-moe" : "synthetic-dense");
  GPtrArray *tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_tensor_info_free);

  spec->architecture = g_strdup (moe ? "qwen3moe" : "llama");
  spec->precision = g_strdup ("f32");
  spec->layers = 4;
  spec->heads = 4;
  spec->kv_heads = 2;
  spec->key_length = 64;
  spec->value_length = 64;
  spec->embedding_length = 256;
  spec->context_length = 4096;
  spec->vocab_size = 1000;
  spec->tied_embeddings = tied;
  if (moe)
    {
      spec->expert_count = 4;
      spec->expert_used_count = 2;
    }
  add_tensor (tensors, "token_embd.weight", 2, 256, 1000, 0);
  for (guint i = 0; i < 4; i++)
    {
      char name[64];

#define T(suffix, n, a, b, c) G_STMT_START { g_snprintf (name, sizeof name, "blk.%u." suffix, i); add_tensor (tensors, name, n, a, b, c); } G_STMT_END
      T ("attn_norm.weight", 1, 256, 0, 0);
      T ("attn_q.weight", 2, 256, 256, 0);
      if (moe)
        {
          T ("ffn_gate_inp.weight", 2, 256, 4, 0);
          T ("ffn_up_exps.weight", 3, 256, 128, 4);
          T ("ffn_gate_exps.weight", 3, 256, 128, 4);
          T ("ffn_down_exps.weight", 3, 128, 256, 4);
        }
      else
        {
          T ("ffn_up.weight", 2, 256, 512, 0);
          T ("ffn_gate.weight", 2, 256, 512, 0);
          T ("ffn_down.weight", 2, 512, 256, 0);
        }
#undef T
    }
  add_tensor (tensors, "output_norm.weight", 1, 256, 0, 0);
  if (!tied)
    add_tensor (tensors, "output.weight", 2, 256, 1000, 0);
  hr_model_spec_take_tensors (spec, tensors);
  return spec;
}

/* A discrete board with @vram free after 1 GB resident, and 32 GiB of host
 * memory at 51.2 GB/s. */
static HrBoard *
discrete_board (guint64 free_vram)
{
  HrBoard *board = hr_board_new ("test-gpu", "Test GPU");

  board->resident_bytes = 1000000000;
  board->pool_bytes = free_vram + board->resident_bytes;
  board->reserve_bytes = 1;
  board->bandwidth_bytes_per_s = 360e9;
  board->unified = FALSE;
  board->backend = HR_BOARD_BACKEND_CUDA;
  board->host_pool_bytes = G_GUINT64_CONSTANT (34359738368);
  board->host_resident_bytes = 4000000000;
  board->host_reserve_bytes = 2000000000;
  board->host_bandwidth_bytes_per_s = 51.2e9;
  return board;
}

static guint64
compute_of (const HrOffload *split)
{
  return (guint64) hr_runtime_prediction_term_bytes (&split->prediction, HR_RUNTIME_TERM_COMPUTE);
}

/* One prediction at 256 tokens on a board with @free_vram free. */
static void
predict_at (const HrModelSpec *spec,
            guint64            free_vram,
            gint32             num_gpu,
            HrOffload         *out)
{
  g_autoptr(HrBoard) board = discrete_board (free_vram);
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, board, spec, 256);
  in.num_gpu = num_gpu;
  g_assert_true (hr_offload_predict (&in, out, &error));
  g_assert_no_error (error);
}

static void
test_offload_processor (void)
{
  char text[32];

  hr_offload_format_processor (84, 100, text);
  g_assert_cmpstr (text, ==, "16%/84% CPU/GPU");
  hr_offload_format_processor (0, 100, text);
  g_assert_cmpstr (text, ==, "100% CPU");
  hr_offload_format_processor (100, 100, text);
  g_assert_cmpstr (text, ==, "100% GPU");
  hr_offload_format_processor (199, 200, text); /* 0.5 % rounds away from zero, as Go's math.Round */
  g_assert_cmpstr (text, ==, "1%/99% CPU/GPU");
  hr_offload_format_processor (101, 100, text);
  g_assert_cmpstr (text, ==, "Unknown");
}

static void
test_offload_dense_full (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  HrOffload *split = g_new0 (HrOffload, 1);

  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, -1, split);
  g_assert_cmpuint (split->total_layers, ==, 5);
  g_assert_cmpuint (split->gpu_layers, ==, 5);
  g_assert_cmpuint (split->partial_layers, ==, 0);
  /* every layer on the GPU: the runtime's total, term for term */
  g_assert_cmpuint (split->vram.weights, ==, 4 * BLOCK + OUT_GRP);
  g_assert_cmpuint (split->vram.kv_cache, ==, 4 * KV_LAYER);
  g_assert_cmpuint (split->vram.total, ==, split->prediction.total_bytes);
  g_assert_cmpuint (split->host.weights, ==, EMBD);
  g_assert_cmpuint (split->host.kv_cache, ==, 0);
  g_assert_cmpuint (split->host.compute, ==, INPUTS);
  g_assert_cmpuint (split->size_bytes, ==, split->vram.total);
  g_assert_cmpstr (split->processor, ==, "100% GPU");
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpuint (split->gpu_read_bytes, ==, 4 * BLOCK + OUT_GRP);
  g_assert_cmpuint (split->host_read_bytes, ==, 0);
  g_free (split);
}

static void
test_offload_dense_partial (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute, free_vram;
  char expect[32];

  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, -1, split);
  compute = compute_of (split);

  /* Room for the output layer and two blocks, not three: blocks 2 and 3. */
  free_vram = HR_OFFLOAD_FIT_MARGIN_BYTES + OUT_GRP + compute + 2 * (BLOCK + KV_LAYER) + 1000;
  predict_at (spec, free_vram, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 3);
  g_assert_cmpuint (split->partial_layers, ==, 0);
  g_assert_cmpuint (split->vram.weights, ==, OUT_GRP + 2 * BLOCK);
  g_assert_cmpuint (split->vram.kv_cache, ==, 2 * KV_LAYER);
  g_assert_cmpuint (split->vram.compute, ==, compute);
  g_assert_cmpuint (split->vram.total, ==, free_vram - HR_OFFLOAD_FIT_MARGIN_BYTES - 1000);
  g_assert_cmpuint (split->host.weights, ==, EMBD + 2 * BLOCK);
  g_assert_cmpuint (split->host.kv_cache, ==, 2 * KV_LAYER);
  g_assert_cmpuint (split->host.compute, ==, INPUTS + compute);
  g_assert_cmpuint (split->size_bytes, ==, split->vram.total + split->host.total);
  hr_offload_format_processor (split->vram.total, split->size_bytes, expect);
  g_assert_cmpstr (split->processor, ==, expect);
  g_assert_true (g_str_has_suffix (split->processor, "CPU/GPU"));
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_PARTIAL);
  g_assert_cmpuint (split->gpu_read_bytes, ==, OUT_GRP + 2 * BLOCK);
  g_assert_cmpuint (split->host_read_bytes, ==, 2 * BLOCK);

  /* One byte less and the second block no longer fits. */
  predict_at (spec, free_vram - 1001, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 2);

  /* The same split with no host memory known is over: host bytes needed. */
  {
    g_autoptr(HrBoard) board = discrete_board (free_vram);
    g_autoptr(GError) error = NULL;
    HrOffloadInputs in;

    board->host_pool_bytes = board->host_resident_bytes = board->host_reserve_bytes = 0;
    board->host_bandwidth_bytes_per_s = 0.0;
    hr_offload_inputs_init (&in, board, spec, 256);
    g_assert_true (hr_offload_predict (&in, split, &error));
    g_assert_cmpuint (split->gpu_layers, ==, 3);
    g_assert_cmpint (split->verdict, ==, HR_VERDICT_OVER);
    g_assert_cmpuint (split->margin_bytes, ==, split->host.total);

    /* and with a host too small for its part, over by the excess */
    board->host_pool_bytes = split->host.total + 10;
    board->host_resident_bytes = 20;
    board->host_bandwidth_bytes_per_s = 51.2e9;
    g_assert_true (hr_offload_predict (&in, split, &error));
    g_assert_cmpint (split->verdict, ==, HR_VERDICT_OVER);
    g_assert_cmpuint (split->margin_bytes, ==, 10);
  }
  g_free (split);
}

/* Each layer's KV and recurrent state goes with the layer (llama.cpp
 * dev_layer (il)): a hybrid whose blocks 0-2 are recurrent and block 3 has
 * attention, with -ngl 2 (the output layer and block 3 on the GPU), holds
 * the whole KV cache on the GPU and the state of blocks 0-2 in host memory;
 * with -ngl 3 block 2's state moves to the GPU. A sliding-window layer
 * holds fewer cells than a global one, so it takes less. */
static void
test_offload_state_by_layer (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autoptr(HrModelSpec) swa = synthetic_spec (FALSE, FALSE);
  HrOffload *split = g_new0 (HrOffload, 1);
  guint32 kvh[4] = { 0, 0, 0, 2 };
  guint8 recr[4] = { 1, 1, 1, 0 };
  guint8 sliding[4] = { 1, 1, 1, 0 };
  /* Per recurrent layer and slot: (r + s) x 4 bytes = (96 + 1,000) x 4. */
  const guint64 rs_layer = (96 + 1000) * 4;

  g_free (spec->architecture);
  spec->architecture = g_strdup ("qwen35");
  spec->layer_kv_heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (spec->layer_kv_heads, kvh, 4);
  spec->layer_recurrent = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_array_append_vals (spec->layer_recurrent, recr, 4);
  spec->recurrent_r = 96;
  spec->recurrent_s = 1000;

  predict_at (spec, 100 * HR_OFFLOAD_FIT_MARGIN_BYTES, 2, split);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&split->prediction, HR_RUNTIME_TERM_KV_CACHE), ==, KV_LAYER);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&split->prediction, HR_RUNTIME_TERM_RECURRENT_STATE), ==, 3 * rs_layer);
  g_assert_cmpuint (hr_runtime_layer_state_bytes (&split->prediction, spec, 0), ==, rs_layer);
  g_assert_cmpuint (hr_runtime_layer_state_bytes (&split->prediction, spec, 3), ==, KV_LAYER);
  g_assert_cmpuint (split->vram.kv_cache, ==, KV_LAYER);
  g_assert_cmpuint (split->host.kv_cache, ==, 3 * rs_layer);
  predict_at (spec, 100 * HR_OFFLOAD_FIT_MARGIN_BYTES, 3, split);
  g_assert_cmpuint (split->vram.kv_cache, ==, KV_LAYER + rs_layer);
  g_assert_cmpuint (split->host.kv_cache, ==, 2 * rs_layer);

  /* Sliding layers 0-2 over a 32-token window: at 1,024 tokens the global
   * layer holds 1,024 cells and each sliding one pad256(min(1,024, 32 +
   * ubatch 512)) = 768. */
  swa->sliding_window = 32;
  swa->layer_sliding = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_array_append_vals (swa->layer_sliding, sliding, 4);
  {
    g_autoptr(HrBoard) board = discrete_board (100 * HR_OFFLOAD_FIT_MARGIN_BYTES);
    g_autoptr(GError) error = NULL;
    HrOffloadInputs in;
    const guint64 per_cell = 2 * (64 + 64) * 2;

    hr_offload_inputs_init (&in, board, swa, 1024);
    in.num_gpu = 2;
    g_assert_true (hr_offload_predict (&in, split, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (split->prediction.kv_cells, ==, 1024);
    g_assert_cmpuint (split->prediction.kv_cells_sliding, ==, 768);
    g_assert_cmpuint (split->vram.kv_cache, ==, 1024 * per_cell);
    g_assert_cmpuint (split->host.kv_cache, ==, 3 * 768 * per_cell);
  }
  g_free (split);
}

/* A projector of 1 MiB pads llama.cpp's fit margin to 1,025 MiB
 * (LLAMA_ARG_FIT_TARGET, Ollama llm/llama_server.go mmprojFitTargetMiB):
 * the board that held three layers holds two; a margin the user set is
 * kept; a projector the GPU cannot hold with 1 GiB beside it stays in host
 * memory (--no-mmproj-offload, limited-vram) and pads nothing; num_gpu 2
 * of 5 layers is partial-text-offload, num_gpu 0 cpu-only. */
/* Free VRAM for the output group and two blocks of @spec past the fit
 * margin; @compute set to its compute buffer. */
static guint64
projector_free_vram (const HrModelSpec *spec,
                     guint64           *compute)
{
  g_autofree HrOffload *probe = g_new0 (HrOffload, 1);

  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, -1, probe);
  *compute = compute_of (probe);
  return HR_OFFLOAD_FIT_MARGIN_BYTES + OUT_GRP + *compute + 2 * (BLOCK + KV_LAYER) + 1000;
}

static void
test_offload_projector (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute, free_vram = projector_free_vram (spec, &compute);

  predict_at (spec, free_vram, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 3);
  g_assert_cmpuint (split->fit_margin_used_bytes, ==, HR_OFFLOAD_FIT_MARGIN_BYTES);
  g_assert_cmpint (split->mmproj_offload, ==, HR_MMPROJ_OFFLOAD_ON);
  g_assert_cmpuint (split->projector_vram_bytes, ==, 0);
}

static void
test_offload_projector_margin (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute, free_vram = projector_free_vram (spec, &compute);

  spec->projector_bytes = MIB;
  predict_at (spec, free_vram, -1, split);
  g_assert_cmpint (split->mmproj_offload, ==, HR_MMPROJ_OFFLOAD_ON);
  g_assert_cmpuint (split->fit_margin_used_bytes, ==, 1025 * MIB);
  g_assert_cmpint (split->target_bytes, ==, (gint64) (free_vram - 1025 * MIB));
  g_assert_cmpuint (split->gpu_layers, ==, 2);
  g_assert_cmpuint (split->vram.weights, ==, OUT_GRP + BLOCK);
  g_assert_cmpuint (split->projector_vram_bytes, ==, MIB);
  g_assert_cmpuint (split->projector_host_bytes, ==, 0);
  /* the projector's weights are in neither side: ollama ps does not see them */
  g_assert_cmpuint (split->vram.total, ==, OUT_GRP + BLOCK + KV_LAYER + compute);
}

/* the user's LLAMA_ARG_FIT_TARGET in Ollama's environment: unpadded */
static void
test_offload_projector_user_fit_target (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute, free_vram = projector_free_vram (spec, &compute);
  g_autoptr(HrBoard) board = discrete_board (free_vram);
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;

  spec->projector_bytes = MIB;
  hr_offload_inputs_init (&in, board, spec, 256);
  in.fit_margin_from_user = TRUE;
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (split->fit_margin_used_bytes, ==, HR_OFFLOAD_FIT_MARGIN_BYTES);
  g_assert_cmpuint (split->gpu_layers, ==, 3);
}

/* free VRAM under projector + 1 GiB: limited-vram, no padding, 3 layers */
static void
test_offload_projector_limited_vram (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute, free_vram = projector_free_vram (spec, &compute);

  spec->projector_bytes = free_vram - HR_OFFLOAD_FIT_MARGIN_BYTES + 1;
  predict_at (spec, free_vram, -1, split);
  g_assert_cmpint (split->mmproj_offload, ==, HR_MMPROJ_OFFLOAD_LIMITED_VRAM);
  g_assert_cmpuint (split->fit_margin_used_bytes, ==, HR_OFFLOAD_FIT_MARGIN_BYTES);
  g_assert_cmpuint (split->gpu_layers, ==, 3);
  g_assert_cmpuint (split->projector_vram_bytes, ==, 0);
  g_assert_cmpuint (split->projector_host_bytes, ==, free_vram - HR_OFFLOAD_FIT_MARGIN_BYTES + 1);
}

/* num_gpu short of the text layers, past them, and 0 */
static void
test_offload_projector_num_gpu (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);

  spec->projector_bytes = MIB;
  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, 2, split);
  g_assert_cmpint (split->mmproj_offload, ==, HR_MMPROJ_OFFLOAD_PARTIAL_TEXT);
  g_assert_cmpuint (split->gpu_layers, ==, 2);
  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, 5, split);
  g_assert_cmpint (split->mmproj_offload, ==, HR_MMPROJ_OFFLOAD_ON);
  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, 0, split);
  g_assert_cmpint (split->mmproj_offload, ==, HR_MMPROJ_OFFLOAD_CPU_ONLY);
  g_assert_cmpuint (split->projector_host_bytes, ==, MIB);
}

static void
test_offload_output_alone (void)
{
  g_autoptr(HrModelSpec) dense = synthetic_spec (FALSE, FALSE);
  g_autoptr(HrModelSpec) tied = synthetic_spec (FALSE, TRUE);
  HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute;

  predict_at (dense, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, -1, split);
  compute = compute_of (split);

  /* The output layer with the compute buffer is one byte past the target:
   * nothing goes on the GPU. */
  predict_at (dense, HR_OFFLOAD_FIT_MARGIN_BYTES + OUT_GRP + compute - 1, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 0);
  g_assert_cmpuint (split->vram.total, ==, 0);
  g_assert_cmpuint (split->host.weights, ==, EMBD + 4 * BLOCK + OUT_GRP);
  g_assert_cmpuint (split->host.kv_cache, ==, 4 * KV_LAYER);
  g_assert_cmpuint (split->host.compute, ==, INPUTS + compute);
  g_assert_cmpstr (split->processor, ==, "100% CPU");
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_PARTIAL);
  /* exactly at the target it is the only layer on the GPU */
  predict_at (dense, HR_OFFLOAD_FIT_MARGIN_BYTES + OUT_GRP + compute, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 1);
  g_assert_cmpuint (split->vram.total, ==, OUT_GRP + compute);

  /* Tied: the GPU output is token_embd's copy (+ output_norm); in host
   * memory the copy is not needed, only output_norm is added. */
  predict_at (tied, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, -1, split);
  g_assert_cmpuint (split->vram.weights, ==, 4 * BLOCK + EMBD + 1024);
  g_assert_cmpuint (split->vram.total, ==, split->prediction.total_bytes);
  predict_at (tied, HR_OFFLOAD_FIT_MARGIN_BYTES + EMBD + 1024 + compute - 1, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 0);
  g_assert_cmpuint (split->host.weights, ==, EMBD + 4 * BLOCK + 1024);
  g_assert_cmpuint (split->host_read_bytes, ==, 4 * BLOCK + EMBD + 1024);
  g_free (split);
}

static void
test_offload_num_gpu (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  HrOffload *split = g_new0 (HrOffload, 1);

  /* -ngl 2 on a board with room for all: no fit, output + block 3. */
  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, 2, split);
  g_assert_true (split->user_layers);
  g_assert_cmpuint (split->gpu_layers, ==, 2);
  g_assert_cmpuint (split->vram.weights, ==, OUT_GRP + BLOCK);
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_PARTIAL);
  /* num_gpu 0: CPU only */
  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, 0, split);
  g_assert_cmpuint (split->gpu_layers, ==, 0);
  g_assert_cmpstr (split->processor, ==, "100% CPU");
  /* num_gpu past the layers: all of them, and too many for a small GPU is over */
  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, 99, split);
  g_assert_cmpuint (split->gpu_layers, ==, 5);
  predict_at (spec, 2 * BLOCK, 99, split);
  g_assert_cmpuint (split->gpu_layers, ==, 5);
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_OVER);
  g_assert_cmpuint (split->margin_bytes, ==, split->vram.total - 2 * BLOCK);
  g_free (split);
}

static void
test_offload_moe (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (TRUE, FALSE);
  HrOffload *split = g_new0 (HrOffload, 1);
  guint64 compute, base, free_vram;

  predict_at (spec, 4 * HR_OFFLOAD_FIT_MARGIN_BYTES, -1, split);
  compute = compute_of (split);
  g_assert_cmpuint (split->gpu_layers, ==, 5);
  g_assert_cmpuint (split->vram.weights, ==, 4 * (MOE_DENSE + 3 * MOE_X) + OUT_GRP);
  /* two of four experts read per token */
  g_assert_cmpuint (split->gpu_read_bytes, ==, 4 * (MOE_DENSE + 3 * MOE_X / 2) + OUT_GRP);

  /* Every dense part fits, experts do not: step 4 turns blocks 0 and 1
   * whole (block 0 is whole from step 3 already), then block 2 takes its
   * ffn_up_exps (LAYER_FRACTION_UP) but not its gate. */
  base = OUT_GRP + compute + 4 * (KV_LAYER + MOE_DENSE);
  free_vram = HR_OFFLOAD_FIT_MARGIN_BYTES + base + 2 * 3 * MOE_X + MOE_X + 1000;
  predict_at (spec, free_vram, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 5);
  g_assert_cmpuint (split->partial_layers, ==, 2); /* blocks 2 and 3 */
  g_assert_cmpint (split->overflow, ==, HR_LAYER_FRACTION_UP);
  /* UP sends blk.2.ffn_(gate|gate_up|down).* to the CPU: the router
   * ffn_gate_inp (4,096 B) goes with the gate experts */
  g_assert_cmpuint (split->vram.weights, ==, OUT_GRP + 4 * MOE_DENSE + 2 * 3 * MOE_X + MOE_X - 4096);
  g_assert_cmpuint (split->vram.kv_cache, ==, 4 * KV_LAYER);
  g_assert_cmpuint (split->host.weights, ==, EMBD + 4096 + 2 * MOE_X + 3 * MOE_X);
  g_assert_cmpuint (split->host.kv_cache, ==, 0);
  g_assert_cmpuint (split->gpu_read_bytes, ==, OUT_GRP + 4 * MOE_DENSE - 4096 + 3 * MOE_X + MOE_X / 2);
  g_assert_cmpuint (split->host_read_bytes, ==, 4096 + (2 * MOE_X + 3 * MOE_X) / 2);
  g_assert_true (g_str_has_suffix (split->processor, "CPU/GPU"));
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_PARTIAL);

  /* The dense parts do not all fit: step 3 alone, and the fill from the
   * back cannot place even one more block (its first GPU block is whole):
   * only the output layer. */
  free_vram = HR_OFFLOAD_FIT_MARGIN_BYTES + base - 1;
  predict_at (spec, free_vram, -1, split);
  g_assert_cmpuint (split->gpu_layers, ==, 1);
  g_assert_cmpuint (split->partial_layers, ==, 0);
  g_assert_cmpuint (split->vram.total, ==, OUT_GRP + compute);
  g_free (split);
}

static void
test_offload_board_kinds (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (FALSE, FALSE);
  g_autoptr(HrBoard) board = discrete_board (1);
  g_autoptr(GError) error = NULL;
  HrOffload *split = g_new0 (HrOffload, 1);
  HrOffloadInputs in;

  /* unified: one pool, every layer in it, the seed's verdict */
  board->unified = TRUE;
  board->host_pool_bytes = board->host_resident_bytes = board->host_reserve_bytes = 0;
  board->host_bandwidth_bytes_per_s = 0.0;
  hr_offload_inputs_init (&in, board, spec, 256);
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_cmpuint (split->gpu_layers, ==, 5);
  g_assert_cmpstr (split->processor, ==, "100% GPU");
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_OVER);
  /* judged on the runtime total and the token embedding, which stays in
   * host memory, the same pool (the free pool is 1 byte) */
  g_assert_cmpuint (split->prediction.host_bytes, ==, EMBD);
  g_assert_cmpuint (split->pool_bytes, ==, split->prediction.total_bytes + EMBD);
  g_assert_cmpuint (split->margin_bytes, ==, split->prediction.total_bytes + EMBD - 1);
  {
    /* a learned overhead moves the pool figure as predict's total, and
     * not the GPU's buffers */
    HrCalibration cal = { .kind = HR_CALIBRATION_CONSTANT, .constant_bytes = 1000.0, .n_points = 1, .n_used = 1 };
    guint64 total = split->prediction.total_bytes, vram = split->vram.total;

    in.calibration = &cal;
    g_assert_true (hr_offload_predict (&in, split, &error));
    g_assert_cmpuint (split->prediction.total_bytes, ==, total + 1000);
    g_assert_cmpuint (split->pool_bytes, ==, total + 1000 + EMBD);
    g_assert_cmpuint (split->vram.total, ==, vram);
    in.calibration = NULL;
  }

  /* cpu: every layer in host memory, the seed's verdict on its pool */
  board->unified = FALSE;
  board->backend = HR_BOARD_BACKEND_CPU;
  board->pool_bytes = 16000000000;
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_cmpuint (split->gpu_layers, ==, 0);
  g_assert_cmpstr (split->processor, ==, "100% CPU");
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpuint (split->host.total, ==, EMBD + 4 * BLOCK + OUT_GRP + 4 * KV_LAYER + INPUTS + compute_of (split));

  /* errors */
  in.board = NULL;
  g_assert_false (hr_offload_predict (&in, split, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "no board to place the model on");
  g_clear_error (&error);
  in.board = board;
  in.runtime.era = HR_RUNTIME_ERA_OLLAMA_0_12;
  g_assert_false (hr_offload_predict (&in, split, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_free (split);
}

static void
test_offload_speed (void)
{
  g_autoptr(HrBoard) board = discrete_board (12000000000);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  HrOffload split = { 0 };
  double tps;

  /* 3.6 GB at 360 GB/s x 0.5 = 20 ms; 0.512 GB at 51.2 GB/s x 0.5 = 20 ms. */
  split.gpu_read_bytes = 3600000000;
  split.host_read_bytes = 512000000;
  g_assert_true (hr_offload_decode_tps (&split, board, 0.5, 0.5, &tps, &text, &error));
  g_assert_cmpfloat_with_epsilon (tps, 25.0, 1e-9);
  g_assert_cmpstr (text, ==, "t = 3,600,000,000 bytes / (360.0 GB/s x 0.50) on the GPU + 512,000,000 bytes / "
                             "(51.2 GB/s x 0.50) on the CPU = 20.0 ms + 20.0 ms = 40.0 ms per token: 25.0 t/s");
  g_clear_pointer (&text, g_free);

  /* all on the GPU: the seed's ceiling x efficiency, 360 / 3.6 x 0.5 = 50 */
  split.host_read_bytes = 0;
  g_assert_true (hr_offload_decode_tps (&split, board, 0.5, 0.0, &tps, &text, &error));
  g_assert_cmpfloat_with_epsilon (tps, 50.0, 1e-9);
  g_assert_cmpstr (text, ==, "t = 3,600,000,000 bytes / (360.0 GB/s x 0.50) = 20.0 ms per token: 50.0 t/s");

  /* errors name what is missing */
  split.host_read_bytes = 1;
  g_assert_false (hr_offload_decode_tps (&split, board, 0.5, 0.0, &tps, NULL, &error));
  g_assert_cmpstr (error->message, ==, "the CPU efficiency must be above 0 and at most 1: part of the model runs on the CPU");
  g_clear_error (&error);
  board->host_bandwidth_bytes_per_s = 0.0;
  g_assert_false (hr_offload_decode_tps (&split, board, 0.5, 0.5, &tps, NULL, &error));
  g_assert_cmpstr (error->message, ==, "the board's host memory bandwidth is not known (\"host_bandwidth_gb_s\"): part of the model runs on the CPU");
  g_clear_error (&error);
  g_assert_false (hr_offload_decode_tps (&split, board, 1.5, 0.5, &tps, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------ the built-in data */

static GPtrArray *
builtin (const char *basename)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), basename, NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *array = g_str_equal (basename, "boards.json") ? hr_boards_load_file (path, &error)
                                                           : hr_catalog_load_file (path, &error);

  g_assert_no_error (error);
  return array;
}

/* The layers' KV and recurrent state add up to the prediction's terms,
 * exactly, for every built-in model (sliding windows, hybrids, MLA, gemma4's
 * own sliding head size), flash attention on and off, 1 and 4 slots: the
 * split of a partial offload gives away no byte and invents none. */
static void
test_offload_state_adds_up (void)
{
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  guint checked = 0;

  for (guint i = 0; i < catalog->len; i++)
    for (guint flash = 0; flash < 2; flash++)
      for (guint32 slots = 1; slots <= 4; slots += 3)
        {
          const HrModelSpec *spec = g_ptr_array_index (catalog, i);
          g_autoptr(GError) error = NULL;
          HrRuntimeInputs in;
          HrRuntimePrediction p;
          guint64 sum = 0, terms;

          hr_runtime_inputs_init (&in, spec, 8192);
          in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
          in.parallel_slots = slots;
          in.flash_attention = flash ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
          in.skip_text = TRUE;
          g_assert_true (hr_runtime_predict (&in, &p, &error));
          g_assert_no_error (error);
          for (guint l = 0; l < spec->layers; l++)
            sum += hr_runtime_layer_state_bytes (&p, spec, l);
          terms = (guint64) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE) +
                  (guint64) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE);
          if (sum != terms)
            g_error ("%s, flash %u, %u slots: layers %" G_GUINT64_FORMAT " != terms %" G_GUINT64_FORMAT,
                     spec->name, flash, slots, sum, terms);
          checked++;
        }
  g_assert_cmpuint (checked, ==, catalog->len * 4);
}

static void
test_offload_parallel_slots (void)
{
  g_autoptr(GPtrArray) boards = builtin ("boards.json");
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  const HrBoard *rtx = hr_boards_find (boards, "rtx-3060-12gb");
  const HrModelSpec *spec = hr_catalog_find (catalog, "llama3.2:3b");
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  guint32 slots;

  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_12;
  in.server_version = "0.5.7";
  g_assert_true (hr_offload_auto_parallel_slots (rtx, &in, &slots, &error));
  g_assert_cmpuint (slots, ==, 4);
  /* 4 x 32,768 tokens of KV (4 x 3.8 GB) pass the 11.9 GB free: 1 slot */
  in.context_tokens = 32768;
  g_assert_true (hr_offload_auto_parallel_slots (rtx, &in, &slots, &error));
  g_assert_cmpuint (slots, ==, 1);
  /* from 0.10 one slot whatever the memory */
  in.context_tokens = 4096;
  in.server_version = "0.11.4";
  g_assert_true (hr_offload_auto_parallel_slots (rtx, &in, &slots, &error));
  g_assert_cmpuint (slots, ==, 1);
}

static double
prior (HrHardwareKind kind)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "priors.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrPriors) priors = hr_priors_load_file (path, &error);

  g_assert_no_error (error);
  return hr_priors_efficiency (priors, kind, NULL);
}

static gboolean
split_fits (HrOffloadInputs *in,
            guint32          context)
{
  HrOffload *split = g_new0 (HrOffload, 1);
  gboolean fits;

  in->runtime.context_tokens = context;
  g_assert_true (hr_offload_predict (in, split, NULL));
  fits = split->verdict == HR_VERDICT_FITS;
  g_free (split);
  return fits;
}

static void
test_offload_max_context (void)
{
  g_autoptr(GPtrArray) boards = builtin ("boards.json");
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  const HrBoard *rtx = hr_boards_find (boards, "rtx-3060-12gb");
  const HrModelSpec *spec = hr_catalog_find (catalog, "qwen2.5:14b");
  const HrModelSpec *small = hr_catalog_find (catalog, "qwen2.5:0.5b");
  g_autoptr(GError) error = NULL;
  double eg = prior (HR_HARDWARE_DISCRETE_NVIDIA), eh = prior (HR_HARDWARE_CPU);
  HrOffloadInputs in;
  HrOffload *split = g_new0 (HrOffload, 1);
  guint32 context;
  double tps;

  hr_offload_inputs_init (&in, rtx, spec, 4096);
  g_assert_true (hr_offload_max_context (&in, FALSE, 0, 0, &context, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (context % HR_OFFLOAD_CONTEXT_STEP, ==, 0);
  g_assert_true (split_fits (&in, context));
  g_assert_false (split_fits (&in, context + HR_OFFLOAD_CONTEXT_STEP));
  g_test_message ("qwen2.5:14b on the RTX 3060: all on the GPU up to %u tokens", context);

  /* with partial offload above the floor: faster than the floor at the
   * answer, slower (or not running) one step past it */
  g_assert_true (hr_offload_max_context (&in, TRUE, eg, eh, &context, &error));
  g_assert_no_error (error);
  in.runtime.context_tokens = context;
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_true (hr_offload_decode_tps (split, rtx, eg, eh, &tps, NULL, &error));
  g_assert_cmpfloat (tps, >=, hr_board_floor_tps (rtx));
  if (context < spec->context_length)
    {
      in.runtime.context_tokens = context + HR_OFFLOAD_CONTEXT_STEP;
      g_assert_true (hr_offload_predict (&in, split, &error));
      g_assert_true (split->verdict == HR_VERDICT_OVER ||
                     (hr_offload_decode_tps (split, rtx, eg, eh, &tps, NULL, &error) && tps < hr_board_floor_tps (rtx)));
    }
  g_test_message ("qwen2.5:14b on the RTX 3060: above the floor up to %u tokens", context);

  /* a small model fits at its whole context */
  hr_offload_inputs_init (&in, rtx, small, 4096);
  g_assert_true (hr_offload_max_context (&in, FALSE, 0, 0, &context, &error));
  g_assert_cmpuint (context, ==, small->context_length);

  /* nothing at all */
  {
    g_autoptr(HrBoard) tiny = hr_board_copy (rtx);

    tiny->pool_bytes = tiny->resident_bytes + 600000000;
    tiny->reserve_bytes = 1;
    hr_offload_inputs_init (&in, tiny, spec, 4096);
    g_assert_false (hr_offload_max_context (&in, FALSE, 0, 0, &context, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
    g_assert_cmpstr (error->message, ==, "qwen2.5:14b does not fit NVIDIA GeForce RTX 3060 12 GB's GPU even at 256 tokens");
  }
  g_free (split);
}

/* The seed's generic INT8 and INT4: no GGUF file type, so no precision a
 * runtime can be given. */
static gboolean
generic_precision (const HrPrecision *p)
{
  return g_strcmp0 (p->id, "int8") == 0 || g_strcmp0 (p->id, "int4") == 0;
}

static void
test_offload_best_precision (void)
{
  g_autoptr(GPtrArray) boards = builtin ("boards.json");
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  const HrBoard *rtx = hr_boards_find (boards, "rtx-3060-12gb");
  const HrModelSpec *spec = hr_catalog_find (catalog, "llama3.1:8b");
  g_autoptr(GError) error = NULL;
  const HrPrecision *best, *list;
  HrOffloadInputs in;
  HrOffload *split = g_new0 (HrOffload, 1);
  guint n;

  hr_offload_inputs_init (&in, rtx, spec, 4096);
  best = hr_offload_best_precision (&in, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (best);
  in.runtime.precision = best;
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_cmpint (split->verdict, ==, HR_VERDICT_FITS);
  /* every precision with more bits does not fit */
  list = hr_precision_list (&n);
  for (guint i = 0; i < n; i++)
    if (list[i].bits_per_weight > best->bits_per_weight && !generic_precision (&list[i]))
      {
        in.runtime.precision = &list[i];
        g_assert_true (hr_offload_predict (&in, split, &error));
        g_assert_cmpint (split->verdict, !=, HR_VERDICT_FITS);
      }
  g_test_message ("llama3.1:8b on the RTX 3060 at 4,096: best precision %s", best->label);

  /* with partial offload a larger one runs */
  in.runtime.precision = NULL;
  g_assert_cmpfloat (hr_offload_best_precision (&in, TRUE, &error)->bits_per_weight, >, best->bits_per_weight);
  g_free (split);
}

/* A direct evaluation at one context and precision on a unified board, as
 * `predict` and the window's table judge it: the runtime prediction's
 * total plus what it keeps in host memory (the same pool), against the
 * board's budget (hr_board_verdict()). Written out here, apart from
 * app/core/runtime/hr-offload.c, so that a finder judging another figure fails. */
static HrVerdict
unified_verdict (const HrOffloadInputs *in,
                 guint32                context,
                 const HrPrecision     *precision,
                 guint64               *out_pool,
                 guint64               *out_margin)
{
  HrRuntimeInputs runtime = in->runtime;
  HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  g_autoptr(GError) error = NULL;
  HrVerdict verdict;

  runtime.context_tokens = context;
  runtime.precision = precision;
  runtime.parallel_slots = 1;
  g_assert_true (hr_runtime_predict (&runtime, p, &error));
  g_assert_no_error (error);
  *out_pool = p->total_bytes + p->host_bytes;
  verdict = hr_board_verdict (in->board, *out_pool, out_margin);
  g_free (p);
  return verdict;
}

/* The finder's answer on a unified board against direct evaluations: at
 * the answer the split's verdict, margin and pool figure are the direct
 * one's and accepted; one step past it is not (or the answer is the
 * model's whole context). */
static void
check_unified_context (HrOffloadInputs *in,
                       gboolean         allow_partial,
                       double           eg,
                       double           eh,
                       guint           *n_limited)
{
  const HrModelSpec *spec = in->runtime.spec;
  g_autoptr(GError) error = NULL;
  HrOffload *split = g_new0 (HrOffload, 1);
  guint64 pool, margin;
  guint32 context;
  HrVerdict v;
  double tps;

  g_assert_true (hr_offload_max_context (in, allow_partial, eg, eh, &context, &error));
  g_assert_no_error (error);
  v = unified_verdict (in, context, NULL, &pool, &margin);
  in->runtime.context_tokens = context;
  g_assert_true (hr_offload_predict (in, split, &error));
  g_assert_cmpint (split->verdict, ==, v);
  g_assert_cmpuint (split->margin_bytes, ==, margin);
  g_assert_cmpuint (split->pool_bytes, ==, pool);
  if (allow_partial)
    g_assert_cmpint (v, !=, HR_VERDICT_OVER);
  else
    g_assert_cmpint (v, ==, HR_VERDICT_FITS);
  g_test_message ("%s on %s: %s up to %u tokens (%s, %" G_GUINT64_FORMAT " bytes of the pool)",
                  spec->name, in->board->id, allow_partial ? "runs" : "fits", context,
                  hr_verdict_to_string (v), pool);
  if (context < spec->context_length)
    {
      (*n_limited)++;
      v = unified_verdict (in, context + HR_OFFLOAD_CONTEXT_STEP, NULL, &pool, &margin);
      if (!allow_partial)
        g_assert_cmpint (v, !=, HR_VERDICT_FITS);
      else if (v != HR_VERDICT_OVER)
        {
          in->runtime.context_tokens = context + HR_OFFLOAD_CONTEXT_STEP;
          g_assert_true (hr_offload_predict (in, split, &error));
          g_assert_true (hr_offload_decode_tps (split, in->board, eg, eh, &tps, NULL, &error));
          g_assert_cmpfloat (tps, <, hr_board_floor_tps (in->board));
        }
    }
  g_free (split);
}

/* The best precision on a unified board: the direct evaluation fits at it,
 * and at no GGUF file type with more bits per weight. */
static void
check_unified_precision (HrOffloadInputs *in,
                         guint32          context)
{
  g_autoptr(GError) error = NULL;
  const HrPrecision *best, *list;
  guint64 pool, margin;
  guint n;

  in->runtime.context_tokens = context;
  best = hr_offload_best_precision (in, FALSE, &error);
  if (best == NULL)
    {
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
      g_clear_error (&error);
    }
  else
    {
      g_assert_false (generic_precision (best));
      g_assert_cmpint (unified_verdict (in, context, best, &pool, &margin), ==, HR_VERDICT_FITS);
    }
  list = hr_precision_list (&n);
  for (guint i = 0; i < n; i++)
    if (!generic_precision (&list[i]) && (best == NULL || list[i].bits_per_weight > best->bits_per_weight))
      g_assert_cmpint (unified_verdict (in, context, &list[i], &pool, &margin), !=, HR_VERDICT_FITS);
}

/* The finders on every unified board of data/boards.json judge what a
 * direct evaluation judges: the runtime total and what stays in host
 * memory against the budget. (They once judged the GPU's buffers alone, so
 * on the Jetson llama3.2:3b "fit" at 25,600 tokens where predict at 25,600
 * said tight.) */
static void
test_offload_unified_finders (void)
{
  static const char *names[] = { "llama3.2:3b", "qwen3:4b", "gemma3:4b", "llama3.1:8b", "phi4", "gemma3:27b" };
  g_autoptr(GPtrArray) boards = builtin ("boards.json");
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  double eh = prior (HR_HARDWARE_CPU);
  guint n_boards = 0, n_limited = 0;

  for (guint b = 0; b < boards->len; b++)
    {
      const HrBoard *board = g_ptr_array_index (boards, b);
      double eg = prior (hr_board_hardware_kind (board));

      if (!board->unified)
        continue;
      n_boards++;
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          const HrModelSpec *spec = hr_catalog_find (catalog, names[i]);
          g_autoptr(GError) error = NULL;
          HrOffloadInputs in;
          guint32 context;

          g_assert_nonnull (spec);
          hr_offload_inputs_init (&in, board, spec, 4096);
          if (!hr_offload_max_context (&in, FALSE, 0, 0, &context, &error))
            {
              /* not even 256 tokens: the direct evaluation agrees */
              guint64 pool, margin;

              g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
              g_assert_cmpint (unified_verdict (&in, HR_OFFLOAD_CONTEXT_STEP, NULL, &pool, &margin), !=, HR_VERDICT_FITS);
              continue;
            }
          check_unified_context (&in, FALSE, 0, 0, &n_limited);
          if (hr_offload_max_context (&in, TRUE, eg, eh, &context, NULL))
            check_unified_context (&in, TRUE, eg, eh, &n_limited);
          check_unified_precision (&in, 4096);
          check_unified_precision (&in, 32768);
        }
    }
  /* the Jetson, the DGX Spark and four Macs; most answers short of the
   * model's whole context, where the next step is checked */
  g_assert_cmpuint (n_boards, ==, 6);
  g_assert_cmpuint (n_limited, >=, 10);
}

/* ollama#9221: a Qwen2.5-32B at n_ctx 8,192 (4 slots x 2,048) on one GPU,
 * every layer there: the host compute buffer was 26.01 MiB, ubatch 512 x 4 x
 * (5,120 + 8,192 cells) = 27,262,976 B = 26.00 MiB. */
static void
test_offload_host_compute_9221 (void)
{
  g_autoptr(GPtrArray) boards = builtin ("boards.json");
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  g_autoptr(GError) error = NULL;
  HrOffload *split = g_new0 (HrOffload, 1);
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, hr_boards_find (boards, "rtx-3090"), hr_catalog_find (catalog, "qwen2.5:32b"), 2048);
  in.runtime.parallel_slots = 4;
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_cmpuint (split->gpu_layers, ==, 65);
  g_assert_cmpstr (split->processor, ==, "100% GPU");
  g_assert_cmpuint (split->host.compute, ==, 27262976);
  g_assert_cmpfloat (fabs (split->host.compute / 1048576.0 - 26.01), <, 0.02);
  g_free (split);
}

/* The closing note's table: five catalog models on the RTX 3060 12 GB. */
static void
test_offload_rtx3060_table (void)
{
  static const char *names[] = { "qwen2.5:0.5b", "llama3.2:3b", "llama3.1:8b", "qwen2.5:14b", "qwen3:30b-a3b" };
  static const guint32 contexts[] = { 4096, 32768 };
  g_autoptr(GPtrArray) boards = builtin ("boards.json");
  g_autoptr(GPtrArray) catalog = builtin ("catalog.json");
  const HrBoard *rtx = hr_boards_find (boards, "rtx-3060-12gb");
  double eg = prior (HR_HARDWARE_DISCRETE_NVIDIA), eh = prior (HR_HARDWARE_CPU);
  HrOffload *split = g_new0 (HrOffload, 1);

  g_test_message ("| model | num_ctx | layers on the GPU | PROCESSOR | VRAM GB | host GB | verdict | t/s (prior %.2f GPU, %.2f CPU) |", eg, eh);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (guint j = 0; j < G_N_ELEMENTS (contexts); j++)
      {
        const HrModelSpec *spec = hr_catalog_find (catalog, names[i]);
        g_autoptr(GError) error = NULL;
        g_autofree char *vram = NULL, *host = NULL;
        HrOffloadInputs in;
        double tps;

        g_assert_nonnull (spec);
        hr_offload_inputs_init (&in, rtx, spec, contexts[j]);
        g_assert_true (hr_offload_predict (&in, split, &error));
        g_assert_no_error (error);
        g_assert_true (hr_offload_decode_tps (split, rtx, eg, eh, &tps, NULL, &error));
        g_assert_cmpuint (split->vram.total, <=, split->free_vram_bytes);
        vram = hr_format_bytes (split->vram.total, HR_UNIT_GB, 2);
        host = hr_format_bytes (split->host.total, HR_UNIT_GB, 2);
        g_test_message ("| %s | %u | %u/%u | %s | %s | %s | %s | %.1f |", names[i], contexts[j],
                        split->gpu_layers, split->total_layers, split->processor, vram, host,
                        hr_verdict_to_string (split->verdict), tps);
      }
  g_free (split);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/offload/processor", test_offload_processor);
  g_test_add_func ("/offload/dense-full", test_offload_dense_full);
  g_test_add_func ("/offload/dense-partial", test_offload_dense_partial);
  g_test_add_func ("/offload/projector/no-projector", test_offload_projector);
  g_test_add_func ("/offload/projector/margin", test_offload_projector_margin);
  g_test_add_func ("/offload/projector/user-fit-target", test_offload_projector_user_fit_target);
  g_test_add_func ("/offload/projector/limited-vram", test_offload_projector_limited_vram);
  g_test_add_func ("/offload/projector/num-gpu", test_offload_projector_num_gpu);
  g_test_add_func ("/offload/output-alone", test_offload_output_alone);
  g_test_add_func ("/offload/state-by-layer", test_offload_state_by_layer);
  g_test_add_func ("/offload/state-adds-up", test_offload_state_adds_up);
  g_test_add_func ("/offload/num-gpu", test_offload_num_gpu);
  g_test_add_func ("/offload/moe", test_offload_moe);
  g_test_add_func ("/offload/board-kinds", test_offload_board_kinds);
  g_test_add_func ("/offload/speed", test_offload_speed);
  g_test_add_func ("/offload/parallel-slots", test_offload_parallel_slots);
  g_test_add_func ("/offload/max-context", test_offload_max_context);
  g_test_add_func ("/offload/best-precision", test_offload_best_precision);
  g_test_add_func ("/offload/unified-finders", test_offload_unified_finders);
  g_test_add_func ("/offload/host-compute-9221", test_offload_host_compute_9221);
  g_test_add_func ("/offload/rtx3060-table", test_offload_rtx3060_table);
  return g_test_run ();
}
