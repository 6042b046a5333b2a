/* test-offload-devices.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The placement across several GPUs (hr-offload-devices.c) on synthetic
 * models of f32 tensors, so every layer's bytes are known by hand:
 * Ollama's choice of GPUs (server/sched.go), llama.cpp's fit from the last
 * device to the first (common/fit.cpp), the default and the num_gpu splits
 * by free memory (src/llama-model.cpp load_tensors), the pipeline copies,
 * a MoE's dense-first fill, the verdict and the speed.
 */
#include "config.h"

#include <math.h>

#include "hr-board.h"
#include "hr-device.h"
#include "hr-error.h"
#include "hr-offload.h"
#include "hr-units.h"

#define MIB G_GUINT64_CONSTANT (1048576)
#define MARGIN HR_OFFLOAD_FIT_MARGIN_BYTES

/* A dense block: attn_q 256x256 (262,144 B) + ffn_up, ffn_gate 256x512 and
 * ffn_down 512x256 (524,288 B each) + attn_norm (1,024 B). */
#define BLOCK   G_GUINT64_CONSTANT (1836032)
#define EMBD    G_GUINT64_CONSTANT (1024000)
#define OUT_GRP G_GUINT64_CONSTANT (1025024) /* output + output_norm */
/* KV at 256 tokens: 2 KV heads x (64 + 64) x 256 cells x 2 bytes. */
#define KV_LAYER G_GUINT64_CONSTANT (131072)
/* The graph inputs: ubatch 256 x 4 x (embedding 256 + 256 cells). */
#define INPUTS  G_GUINT64_CONSTANT (524288)
/* A MoE block: attn_q + attn_norm + ffn_gate_inp 256x4 (267,264 B), and
 * ffn_{up,gate,down}_exps of 4 experts x 256 x 128 (524,288 B each). */
#define MOE_DENSE G_GUINT64_CONSTANT (267264)
#define MOE_X     G_GUINT64_CONSTANT (524288)
#define MOE_BLOCK (MOE_DENSE + 3 * MOE_X)

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

  g_ptr_array_add (tensors, hr_tensor_info_new (name, HR_GGML_TYPE_F32, n_dims, dims, &error));
  g_assert_no_error (error);
}

/* @blocks blocks, untied output, f32; a MoE of 4 experts, 2 used. */
static HrModelSpec *
synthetic_spec (guint    blocks,
                gboolean moe)
{
  HrModelSpec *spec = hr_model_spec_new (moe ? "synthetic-moe" : "synthetic-dense");
  GPtrArray *tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_tensor_info_free);

  spec->architecture = g_strdup (moe ? "qwen3moe" : "llama");
  spec->precision = g_strdup ("f32");
  spec->layers = blocks;
  spec->heads = 4;
  spec->kv_heads = 2;
  spec->key_length = 64;
  spec->value_length = 64;
  spec->embedding_length = 256;
  spec->context_length = 4096;
  spec->vocab_size = 1000;
  spec->file_bytes = 16000000;
  if (moe)
    {
      spec->expert_count = 4;
      spec->expert_used_count = 2;
    }
  add_tensor (tensors, "token_embd.weight", 2, 256, 1000, 0);
  for (guint i = 0; i < blocks; i++)
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
  add_tensor (tensors, "output.weight", 2, 256, 1000, 0);
  hr_model_spec_take_tensors (spec, tensors);
  return spec;
}

/* A board of @n CUDA GPUs with @free[i] free each (1 GB resident), kinds
 * from @integrated (nullable), 360 GB/s each but the second at 720; 32 GiB
 * of host memory at 51.2 GB/s. */
static HrBoard *
gpus_board (guint           n,
            const guint64  *free,
            const gboolean *integrated)
{
  HrBoard *board = hr_board_new ("test-gpus", "Test GPUs");
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("CUDA%u", i);
      HrDevice *d = hr_device_new (name, free[i] + 1000000000,
                                   integrated != NULL && integrated[i] ? HR_DEVICE_KIND_INTEGRATED : HR_DEVICE_KIND_DISCRETE,
                                   HR_DEVICE_BACKEND_CUDA);

      d->resident_bytes = 1000000000;
      d->reserve_bytes = 1;
      d->bandwidth_bytes_per_s = i == 1 ? 720e9 : 360e9;
      g_ptr_array_add (devices, d);
    }
  board->unified = FALSE;
  board->host_pool_bytes = G_GUINT64_CONSTANT (34359738368);
  board->host_resident_bytes = 4000000000;
  board->host_reserve_bytes = 2000000000;
  board->host_bandwidth_bytes_per_s = 51.2e9;
  hr_board_set_devices (board, devices);
  return board;
}

static guint64
compute_of (const HrOffload *split)
{
  return (guint64) hr_runtime_prediction_term_bytes (&split->prediction, HR_RUNTIME_TERM_COMPUTE);
}

static void
predict_on (const HrBoard     *board,
            const HrModelSpec *spec,
            gboolean           spread,
            gint32             num_gpu,
            HrOffload         *out)
{
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, board, spec, 256);
  in.sched_spread = spread;
  in.num_gpu = num_gpu;
  g_assert_true (hr_offload_predict (&in, out, &error));
  g_assert_no_error (error);
}

static void
assert_device (const HrOffloadDevice *d,
               guint                  index,
               guint32                first,
               guint32                layers,
               guint64                weights,
               guint64                kv,
               guint64                compute)
{
  g_assert_cmpuint (d->board_index, ==, index);
  g_assert_cmpuint (d->first_layer, ==, first);
  g_assert_cmpuint (d->layers, ==, layers);
  g_assert_cmpuint (d->side.weights, ==, weights);
  g_assert_cmpuint (d->side.kv_cache, ==, kv);
  g_assert_cmpuint (d->side.compute, ==, compute);
  g_assert_cmpuint (d->side.total, ==, weights + kv + compute);
  g_assert_cmpint (d->free_after_bytes, ==, (gint64) d->free_bytes - (gint64) d->side.total);
}

/* The whole model fits both GPUs: fit's default layout stays, the layers
 * split by free memory (equal: 5 of the 9 layers below the 0.5 split
 * point on CUDA0), every layer offloaded on two devices, so pipeline
 * parallelism is on: each device's compute holds 3 more copies of the
 * inputs, the host's 4. */
static void
test_devices_default_split (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  guint64 free[2] = { 1200 * MIB, 1200 * MIB };
  g_autoptr(HrBoard) board = gpus_board (2, free, NULL);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c;

  predict_on (board, spec, TRUE, -1, s);
  c = compute_of (s);
  g_assert_cmpuint (s->n_devices, ==, 2);
  g_assert_true (s->spread);
  g_assert_true (s->pipeline_parallel);
  g_assert_cmpuint (s->gpu_layers, ==, 9);
  assert_device (&s->devices[0], 0, 0, 5, 5 * BLOCK, 5 * KV_LAYER, c + 3 * INPUTS);
  assert_device (&s->devices[1], 1, 5, 4, 3 * BLOCK + OUT_GRP, 3 * KV_LAYER, c + 3 * INPUTS);
  g_assert_true (s->devices[1].output_layer);
  g_assert_false (s->devices[0].output_layer);
  g_assert_cmpuint (s->vram.total, ==, s->devices[0].side.total + s->devices[1].side.total);
  g_assert_cmpuint (s->host.weights, ==, EMBD);
  g_assert_cmpuint (s->host.compute, ==, 4 * INPUTS);
  g_assert_cmpuint (s->size_bytes, ==, s->vram.total);
  g_assert_cmpstr (s->processor, ==, "100% GPU");
  g_assert_cmpint (s->verdict, ==, HR_VERDICT_FITS);
  /* CUDA0 holds more: it is left with less */
  g_assert_cmpint (s->binding_device, ==, 0);
  g_assert_cmpuint (s->free_vram_bytes, ==, 2400 * MIB);
}

/* Too little room: fit fills the last device first with the output layer
 * and the last blocks, then the one before; the rest on the CPU. CUDA1
 * holds the output layer and 3 blocks (5-7), CUDA0 2 blocks (3, 4), blocks
 * 0-2 stay in host memory; no pipeline parallelism (not every layer is
 * offloaded). CUDA1 is left with less: it is full first. */
static void
test_devices_fit_two (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(HrBoard) probe = NULL;
  guint64 free[2] = { 4 * MARGIN, 4 * MARGIN }, c;

  probe = gpus_board (2, free, NULL);
  predict_on (probe, spec, TRUE, -1, s);
  c = compute_of (s);
  free[0] = MARGIN + c + 2 * (BLOCK + KV_LAYER) + 3000;
  free[1] = MARGIN + c + OUT_GRP + 3 * (BLOCK + KV_LAYER) + 1000;
  {
    g_autoptr(HrBoard) board = gpus_board (2, free, NULL);

    predict_on (board, spec, TRUE, -1, s);
  }
  g_assert_cmpuint (s->n_devices, ==, 2);
  g_assert_false (s->pipeline_parallel);
  g_assert_cmpuint (s->gpu_layers, ==, 6);
  g_assert_cmpuint (s->total_layers, ==, 9);
  assert_device (&s->devices[0], 0, 3, 2, 2 * BLOCK, 2 * KV_LAYER, c);
  assert_device (&s->devices[1], 1, 5, 4, 3 * BLOCK + OUT_GRP, 3 * KV_LAYER, c);
  g_assert_cmpint (s->devices[0].free_after_bytes, ==, (gint64) (MARGIN + 3000));
  g_assert_cmpint (s->devices[1].free_after_bytes, ==, (gint64) (MARGIN + 1000));
  g_assert_cmpuint (s->host.weights, ==, EMBD + 3 * BLOCK);
  g_assert_cmpuint (s->host.kv_cache, ==, 3 * KV_LAYER);
  g_assert_cmpuint (s->host.compute, ==, INPUTS + c);
  g_assert_cmpuint (s->size_bytes, ==, s->vram.total + s->host.total);
  g_assert_cmpint (s->verdict, ==, HR_VERDICT_PARTIAL);
  g_assert_cmpint (s->binding_device, ==, 1);
  g_assert_cmpuint (s->gpu_read_bytes, ==, 5 * BLOCK + OUT_GRP);
  g_assert_cmpuint (s->host_read_bytes, ==, 3 * BLOCK);

  /* 1,001 bytes less on CUDA1: block 5 no longer fits there; CUDA0 still
   * takes two (blocks 4, 5), so 5 layers are offloaded. */
  free[1] -= 1001;
  {
    g_autoptr(HrBoard) board = gpus_board (2, free, NULL);

    predict_on (board, spec, TRUE, -1, s);
  }
  g_assert_cmpuint (s->devices[1].layers, ==, 3);
  g_assert_cmpuint (s->devices[1].first_layer, ==, 6);
  g_assert_cmpuint (s->devices[0].layers, ==, 2);
  g_assert_cmpuint (s->devices[0].first_layer, ==, 4);
  g_assert_cmpuint (s->gpu_layers, ==, 5);
}

/* Three GPUs, filled from the last: CUDA2 the output layer and blocks 6,
 * 7; CUDA1 blocks 3-5; CUDA0 block 2; blocks 0, 1 on the CPU. */
static void
test_devices_fit_three (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 free[3] = { 4 * MARGIN, 4 * MARGIN, 4 * MARGIN }, c;

  {
    g_autoptr(HrBoard) probe = gpus_board (3, free, NULL);

    predict_on (probe, spec, TRUE, -1, s);
    c = compute_of (s);
  }
  free[0] = MARGIN + c + 1 * (BLOCK + KV_LAYER) + 1000;
  free[1] = MARGIN + c + 3 * (BLOCK + KV_LAYER) + 1000;
  free[2] = MARGIN + c + OUT_GRP + 2 * (BLOCK + KV_LAYER) + 1000;
  {
    g_autoptr(HrBoard) board = gpus_board (3, free, NULL);

    predict_on (board, spec, TRUE, -1, s);
  }
  g_assert_cmpuint (s->n_devices, ==, 3);
  g_assert_cmpuint (s->gpu_layers, ==, 7);
  assert_device (&s->devices[0], 0, 2, 1, BLOCK, KV_LAYER, c);
  assert_device (&s->devices[1], 1, 3, 3, 3 * BLOCK, 3 * KV_LAYER, c);
  assert_device (&s->devices[2], 2, 6, 3, 2 * BLOCK + OUT_GRP, 2 * KV_LAYER, c);
  g_assert_true (s->devices[2].output_layer);
  g_assert_cmpuint (s->host.weights, ==, EMBD + 2 * BLOCK);
  g_assert_cmpuint (s->vram.compute, ==, 3 * c);
  g_assert_cmpint (s->verdict, ==, HR_VERDICT_PARTIAL);
}

/* A user's num_gpu: no fit, load_tensors' split by free memory of the last
 * num_gpu layers. free 3:1, num_gpu 5: i_gpu_start 4, the split point
 * 0.75: layers 4-7 ((il - 4) / 5 < 0.75) on CUDA0, the output layer alone
 * on CUDA1. */
static void
test_devices_num_gpu (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  guint64 free[2] = { 3 * 1024 * MIB, 1024 * MIB };
  g_autoptr(HrBoard) board = gpus_board (2, free, NULL);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c;

  predict_on (board, spec, TRUE, 5, s);
  c = compute_of (s);
  g_assert_true (s->user_layers);
  g_assert_cmpuint (s->gpu_layers, ==, 5);
  assert_device (&s->devices[0], 0, 4, 4, 4 * BLOCK, 4 * KV_LAYER, c);
  assert_device (&s->devices[1], 1, 8, 1, OUT_GRP, 0, c);
  g_assert_cmpuint (s->host.weights, ==, EMBD + 4 * BLOCK);

  /* num_gpu 9 (every layer): 0.75 of 9 is 6.75, so layers 0-6 on CUDA0 */
  predict_on (board, spec, TRUE, 9, s);
  g_assert_cmpuint (s->devices[0].layers, ==, 7);
  g_assert_cmpuint (s->devices[1].layers, ==, 2);
  g_assert_true (s->pipeline_parallel);
}

/* Ollama's choice: PredictServerVRAM = file 16,000,000 + 2 x 8 layers x 2
 * KV heads x (256 / 4) x 256 x 2 = 17,048,576 bytes, which fits a GPU
 * when it is at most 80 % of its free memory: 21,310,720 bytes at least. */
/* CUDA0 misses by a byte; the integrated CUDA2 has more, but a discrete
 * GPU comes first: CUDA1 alone. */
static void
test_devices_ollama_choice (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 free[3] = { 21310719, 21310720, 100 * MIB };
  gboolean integrated[3] = { FALSE, FALSE, TRUE };
  g_autoptr(HrBoard) board = gpus_board (3, free, integrated);

  predict_on (board, spec, FALSE, -1, s);
  g_assert_cmpuint (s->ollama_predicted_bytes, ==, 17048576);
  g_assert_cmpuint (s->n_devices, ==, 1);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_FITS_ONE);
  g_assert_false (s->spread);
  g_assert_cmpuint (s->devices[0].board_index, ==, 1);
  g_assert_cmpstr (s->devices[0].name, ==, "CUDA1");
  g_assert_cmpuint (s->devices[0].free_bytes, ==, 21310720);
  /* sized on that GPU alone, as one GPU's split */
  g_assert_cmpuint (s->free_vram_bytes, ==, 21310720);
  g_assert_cmpuint (s->devices[0].side.total, ==, s->vram.total);
}

/* Two discrete GPUs that both fit the synthetic model, and an integrated
 * one. Returns: (transfer full) */
static HrBoard *
both_fit_board (void)
{
  guint64 free[3] = { 30000000, 21310720, 100 * MIB };
  gboolean integrated[3] = { FALSE, FALSE, TRUE };

  return gpus_board (3, free, integrated);
}

/* Both discrete GPUs fit: the one with more free memory. */
static void
test_devices_ollama_choice_most_free (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(HrBoard) board = both_fit_board ();

  predict_on (board, spec, FALSE, -1, s);
  g_assert_cmpuint (s->n_devices, ==, 1);
  g_assert_cmpuint (s->devices[0].board_index, ==, 0);
}

/* OLLAMA_SCHED_SPREAD: every GPU of the group. */
static void
test_devices_ollama_choice_spread (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(HrBoard) board = both_fit_board ();

  predict_on (board, spec, TRUE, -1, s);
  g_assert_cmpuint (s->n_devices, ==, 3);
  g_assert_true (s->spread);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_SPREAD);
}

/* No discrete GPU fits: every GPU of the group. */
static void
test_devices_ollama_choice_none_fits (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 small[2] = { 21310719, 20000000 };
  g_autoptr(HrBoard) board = gpus_board (2, small, NULL);

  predict_on (board, spec, FALSE, -1, s);
  g_assert_cmpuint (s->n_devices, ==, 2);
  g_assert_true (s->spread);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_NONE_FITS);
}

/* main_gpu 2: that GPU alone, whether or not the estimate fits. */
static void
test_devices_ollama_choice_main_gpu (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(HrBoard) board = both_fit_board ();
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, board, spec, 256);
  in.main_gpu_set = TRUE;
  in.main_gpu = 2;
  g_assert_true (hr_offload_predict (&in, s, &error));
  g_assert_cmpuint (s->n_devices, ==, 1);
  g_assert_cmpuint (s->devices[0].board_index, ==, 2);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_MAIN_GPU);
}

/* main_gpu 3 names no GPU of the group: every GPU, passed through */
static void
test_devices_ollama_choice_main_outside (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(HrBoard) board = both_fit_board ();
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, board, spec, 256);
  in.main_gpu_set = TRUE;
  in.main_gpu = 3;
  g_assert_true (hr_offload_predict (&in, s, &error));
  g_assert_cmpuint (s->n_devices, ==, 3);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_MAIN_OUTSIDE);
}

/* A MoE on two GPUs (common/fit.cpp steps 3 and 4). Dense fill, last
 * device first, experts in host memory: on the last device fit's count
 * keeps the first layer by index whole (set_ngl_tensor_split_tbo: the
 * first n_full = n_layer - n_part layers, and there n_part = n_layer - 1),
 * so CUDA1, with room for the output layer and two dense-only blocks but
 * not a whole block, takes the output layer alone; CUDA0 takes blocks 0-3
 * dense-only. The dense parts all fit (global surplus 6 x MOE_X + 2,000
 * bytes), so step 4 turns CUDA0's blocks whole from the front: one fits
 * (block 0: 1 x MOE_BLOCK + 3 x MOE_DENSE + 4 KV within its 2 x MOE_BLOCK
 * + 2 KV + 1,000), two do not. */
/* The compute buffer of the 4-block MoE model spread over two GPUs. */
static guint64
moe_compute (const HrModelSpec *spec)
{
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 free[2] = { 4 * MARGIN, 4 * MARGIN };
  g_autoptr(HrBoard) probe = gpus_board (2, free, NULL);

  predict_on (probe, spec, TRUE, -1, s);
  return compute_of (s);
}

/* @s spread over two GPUs with @free0 and @free1 bytes free. */
static void
moe_on (const HrModelSpec *spec,
        guint64            free0,
        guint64            free1,
        HrOffload         *s)
{
  guint64 free[2] = { free0, free1 };
  g_autoptr(HrBoard) board = gpus_board (2, free, NULL);

  predict_on (board, spec, TRUE, -1, s);
}

static void
test_devices_moe (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (4, TRUE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c = moe_compute (spec);

  moe_on (spec, MARGIN + c + 2 * (MOE_BLOCK + KV_LAYER) + 1000,
          MARGIN + c + OUT_GRP + 2 * (MOE_DENSE + KV_LAYER) + 1000, s);
  g_assert_cmpuint (s->gpu_layers, ==, 5);
  assert_device (&s->devices[0], 0, 0, 4, MOE_BLOCK + 3 * MOE_DENSE, 4 * KV_LAYER, c);
  g_assert_cmpuint (s->devices[0].partial_layers, ==, 3);
  assert_device (&s->devices[1], 1, 4, 1, OUT_GRP, 0, c);
  g_assert_cmpuint (s->devices[1].partial_layers, ==, 0);
  g_assert_cmpuint (s->partial_layers, ==, 3);
  g_assert_false (s->pipeline_parallel);
  g_assert_cmpuint (s->host.weights, ==, EMBD + 3 * 3 * MOE_X);
  g_assert_cmpuint (s->host.compute, ==, INPUTS + c);
  g_assert_cmpint (s->verdict, ==, HR_VERDICT_PARTIAL);
  /* active experts: 2 of 4, so half of each expert tensor is read */
  g_assert_cmpuint (s->devices[0].read_bytes, ==, MOE_BLOCK - 3 * MOE_X / 2 + 3 * MOE_DENSE);
  g_assert_cmpuint (s->host_read_bytes, ==, 3 * 3 * MOE_X / 2);
}

/* With room on CUDA1 for the gate and down tensors of one more layer,
 * step 4's last try keeps block 1's attention and ffn_up_exps on CUDA0
 * (LAYER_FRACTION_UP: 263,168 + 524,288 bytes) and puts its ffn_gate_inp,
 * ffn_gate_exps and ffn_down_exps (4,096 + 2 x 524,288) in CUDA1's
 * buffer; GATE (all but ffn_down) no longer fits CUDA0. */
static void
test_devices_moe_fraction_up (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (4, TRUE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c = moe_compute (spec);

  moe_on (spec, MARGIN + c + 2 * (MOE_BLOCK + KV_LAYER) + 1000,
          MARGIN + c + OUT_GRP + 2 * MOE_X + 2 * (MOE_DENSE + KV_LAYER) + 1000, s);
  g_assert_cmpuint (s->gpu_layers, ==, 5);
  assert_device (&s->devices[0], 0, 0, 4, MOE_BLOCK + (263168 + MOE_X) + 2 * MOE_DENSE, 4 * KV_LAYER, c);
  assert_device (&s->devices[1], 1, 4, 1, OUT_GRP + (4096 + 2 * MOE_X), 0, c);
  g_assert_cmpint (s->overflow, ==, HR_LAYER_FRACTION_UP);
  g_assert_cmpuint (s->host.weights, ==, EMBD + 2 * 3 * MOE_X);
}

/* Without the surplus (CUDA0 too small for even the dense parts of all
 * four blocks) step 4 does not run: dense-only layers stay. */
static void
test_devices_moe_no_surplus (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (4, TRUE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c = moe_compute (spec);

  moe_on (spec, MARGIN + c + 3 * (MOE_DENSE + KV_LAYER) + 1000,
          MARGIN + c + OUT_GRP + 2 * (MOE_DENSE + KV_LAYER) + 1000, s);
  assert_device (&s->devices[0], 0, 1, 3, 3 * MOE_DENSE, 3 * KV_LAYER, c);
  g_assert_cmpuint (s->devices[0].partial_layers, ==, 3);
  g_assert_cmpuint (s->host.weights, ==, EMBD + MOE_BLOCK + 3 * 3 * MOE_X);
}

/* The decode rate: each device's reads at its bandwidth, then the host's. */
static void
test_devices_speed (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  guint64 free[2] = { 1200 * MIB, 1200 * MIB };
  g_autoptr(HrBoard) board = gpus_board (2, free, NULL);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  double tps, t;

  predict_on (board, spec, TRUE, -1, s);
  g_assert_true (hr_offload_decode_tps (s, board, 0.5, 0.5, &tps, &text, &error));
  g_assert_no_error (error);
  t = (double) (5 * BLOCK) / (360e9 * 0.5) + (double) (3 * BLOCK + OUT_GRP) / (720e9 * 0.5);
  g_assert_cmpfloat_with_epsilon (tps, 1.0 / t, 1e-6 * tps);
  g_assert_cmpstr (text, ==, "t = 9,180,160 bytes / (360.0 GB/s x 0.50) on CUDA0 (0.1 ms) + "
                             "6,533,120 bytes / (720.0 GB/s x 0.50) on CUDA1 (0.0 ms) = 0.1 ms per token: 14461.6 t/s");

  /* A device with layers and no bandwidth: no rate, and it is named. */
  ((HrDevice *) g_ptr_array_index (board->devices, 1))->bandwidth_bytes_per_s = 0.0;
  predict_on (board, spec, TRUE, -1, s);
  g_assert_false (hr_offload_decode_tps (s, board, 0.5, 0.5, &tps, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "the memory bandwidth of CUDA1 is not known: it holds layers of the model");
}

/* Over: a num_gpu that puts more on a GPU than it has; the excess. */
static void
test_devices_over (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);

  /* splits by free: 1 / 101 of 9 layers, so CUDA0 holds layer 0 alone,
   * 1,836,032 + 131,072 bytes and its compute in 1 MiB */
  {
    guint64 tiny[2] = { MIB, 100 * MIB };
    g_autoptr(HrBoard) b2 = gpus_board (2, tiny, NULL);

    predict_on (b2, spec, TRUE, 9, s);
    g_assert_cmpuint (s->devices[0].layers, ==, 1);
    g_assert_cmpint (s->verdict, ==, HR_VERDICT_OVER);
    g_assert_cmpuint (s->margin_bytes, ==, s->devices[0].side.total - MIB);
    g_assert_cmpint (s->devices[0].free_after_bytes, <, 0);
    g_assert_cmpint (s->binding_device, ==, 0);
  }
}

/* The largest context on two GPUs where Ollama's placement switches with
 * the context (server/sched.go bestSingleGPUFit): up to some context its
 * estimate fits 80 % of one GPU, so the model goes on that one alone and,
 * past what fits it, spills to the CPU (partial); past the 80 % it goes on
 * both, where it fits again. "Fits" is not monotone in the context, so a
 * plain bisection stops in the first run of fitting contexts. The answer
 * must be the largest context any placement fits, found here by trying
 * every step. */
static void
test_devices_max_context_switch (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  guint64 free[2] = { 3000 * MIB, 3000 * MIB };
  g_autoptr(HrBoard) board = NULL;
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;
  guint32 context = 0, oracle = 0, one_gpu_last = 0, spread_first = 0;

  /* KV (8 x 4 heads x 128 x 2 bytes a token) well over the compute
   * buffer's mask (a 32-token micro-batch) */
  spec->kv_heads = 4;
  spec->context_length = 524288;
  board = gpus_board (2, free, NULL);
  hr_offload_inputs_init (&in, board, spec, 256);
  in.runtime.batch = 32;
  in.runtime.ubatch = 32;
  for (guint32 c = HR_OFFLOAD_CONTEXT_STEP; c <= spec->context_length; c += HR_OFFLOAD_CONTEXT_STEP)
    {
      in.runtime.context_tokens = c;
      g_assert_true (hr_offload_predict (&in, s, &error));
      g_assert_no_error (error);
      if (s->verdict == HR_VERDICT_FITS)
        {
          if (s->n_devices == 1)
            one_gpu_last = c;
          else if (spread_first == 0)
            spread_first = c;
          oracle = c;
        }
    }
  /* CUDA0 alone holds up to 244,992 tokens; past them it spills (partial)
   * until Ollama's estimate passes 80 % of one GPU, then both hold up to
   * 441,600 */
  g_assert_cmpuint (one_gpu_last, ==, 244992);
  g_assert_cmpuint (spread_first, >, one_gpu_last + HR_OFFLOAD_CONTEXT_STEP);
  g_assert_cmpuint (oracle, ==, 441600);
  g_assert_true (hr_offload_max_context (&in, FALSE, 0, 0, &context, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (context, ==, oracle);
  in.runtime.context_tokens = context;
  g_assert_true (hr_offload_predict (&in, s, &error));
  g_assert_cmpuint (s->n_devices, ==, 2);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_NONE_FITS);
}

/* The inputs people set: predicts @spec at 256 tokens on @board with
 * them; returns the error (NULL on success). */
static GError *
predict_with (const HrBoard     *board,
              const HrModelSpec *spec,
              gboolean           llama_server,
              guint32            n_cpu_moe,
              const float       *ts,
              guint              n_ts,
              HrSplitMode        mode,
              gint32             main_gpu,
              HrOffload         *out)
{
  GError *error = NULL;
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, board, spec, 256);
  in.sched_spread = TRUE;
  in.llama_server = llama_server;
  in.n_cpu_moe = n_cpu_moe;
  in.split_mode = mode;
  in.n_tensor_split = n_ts;
  for (guint i = 0; i < n_ts; i++)
    in.tensor_split[i] = ts[i];
  in.main_gpu_set = main_gpu >= 0;
  in.main_gpu = main_gpu >= 0 ? (guint32) main_gpu : 0;
  if (!hr_offload_predict (&in, out, &error))
    g_assert_nonnull (error);
  return error;
}

/* --n-cpu-moe 2 on two GPUs with room for all: fit stops (a tensor
 * override), every layer is placed by free memory (equal: blocks 0-2 on
 * CUDA0, block 3 and the output layer on CUDA1), and blocks 0 and 1 keep
 * their three expert tensors in host memory while their attention, router
 * and KV stay on CUDA0. No pipeline parallelism (an override). The host
 * reads the active half of those experts per token. --cpu-moe: every
 * block's experts in host memory. */
static void
test_devices_cpu_moe (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (4, TRUE);
  guint64 free[2] = { 1200 * MIB, 1200 * MIB };
  g_autoptr(HrBoard) board = gpus_board (2, free, NULL);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c;

  g_assert_null (predict_with (board, spec, FALSE, 2, NULL, 0, HR_SPLIT_MODE_LAYER, -1, s));
  c = compute_of (s);
  g_assert_true (s->fit_skipped);
  g_assert_false (s->user_split);
  g_assert_false (s->pipeline_parallel);
  g_assert_cmpuint (s->cpu_moe_layers, ==, 2);
  g_assert_cmpuint (s->cpu_moe_bytes, ==, 6 * MOE_X);
  g_assert_cmpuint (s->gpu_layers, ==, 5);
  assert_device (&s->devices[0], 0, 0, 3, 2 * MOE_DENSE + MOE_BLOCK, 3 * KV_LAYER, c);
  assert_device (&s->devices[1], 1, 3, 2, MOE_BLOCK + OUT_GRP, KV_LAYER, c);
  g_assert_cmpuint (s->devices[0].partial_layers, ==, 2);
  g_assert_cmpuint (s->devices[1].partial_layers, ==, 0);
  g_assert_cmpuint (s->partial_layers, ==, 2);
  g_assert_cmpuint (s->host.weights, ==, EMBD + 6 * MOE_X);
  g_assert_cmpuint (s->host.kv_cache, ==, 0);
  g_assert_cmpuint (s->host.compute, ==, INPUTS + c);
  g_assert_cmpuint (s->host_read_bytes, ==, 3 * MOE_X);
  g_assert_cmpuint (s->devices[0].read_bytes, ==, 2 * MOE_DENSE + MOE_DENSE + 3 * MOE_X / 2);
  g_assert_cmpuint (s->size_bytes, ==, s->vram.total + s->host.total);
  g_assert_cmpint (s->verdict, ==, HR_VERDICT_PARTIAL);

  g_assert_null (predict_with (board, spec, FALSE, HR_OFFLOAD_CPU_MOE_ALL, NULL, 0, HR_SPLIT_MODE_LAYER, -1, s));
  g_assert_cmpuint (s->cpu_moe_layers, ==, 4);
  g_assert_cmpuint (s->cpu_moe_bytes, ==, 12 * MOE_X);
  assert_device (&s->devices[0], 0, 0, 3, 3 * MOE_DENSE, 3 * KV_LAYER, c);
  assert_device (&s->devices[1], 1, 3, 2, MOE_DENSE + OUT_GRP, KV_LAYER, c);
  g_assert_cmpuint (s->host.weights, ==, EMBD + 12 * MOE_X);

  /* One GPU: every layer on it, the first 3 blocks' experts in host memory. */
  {
    guint64 one_free[1] = { 1200 * MIB };
    g_autoptr(HrBoard) one = gpus_board (1, one_free, NULL);

    g_assert_null (predict_with (one, spec, FALSE, 3, NULL, 0, HR_SPLIT_MODE_LAYER, -1, s));
    g_assert_cmpuint (s->n_devices, ==, 0);
    g_assert_true (s->fit_skipped);
    g_assert_cmpuint (s->gpu_layers, ==, 5);
    g_assert_cmpuint (s->partial_layers, ==, 3);
    g_assert_cmpuint (s->vram.weights, ==, 3 * MOE_DENSE + MOE_BLOCK + OUT_GRP);
    g_assert_cmpuint (s->vram.kv_cache, ==, 4 * KV_LAYER);
    g_assert_cmpuint (s->host.weights, ==, EMBD + 9 * MOE_X);
    g_assert_cmpuint (s->host_read_bytes, ==, 9 * MOE_X / 2);
    g_assert_cmpint (s->verdict, ==, HR_VERDICT_PARTIAL);
  }
}

/* llama-server run by hand: every GPU, no Ollama choice; -ts 3,1 over the
 * 9 layers (the split point 0.75: layers 0-6 on CUDA0, block 7 and the
 * output layer on CUDA1), fit skipped, every layer offloaded with no
 * override, so pipeline parallelism is on. -sm none: the --main-gpu alone,
 * fit on it. */
/* Two GPUs of 1,200 MiB free each. Returns: (transfer full) */
static HrBoard *
two_1200_board (void)
{
  guint64 free[2] = { 1200 * MIB, 1200 * MIB };

  return gpus_board (2, free, NULL);
}

/* No input: fit's default layout, as Ollama's spread gets it. */
static void
test_devices_llama_server (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autoptr(HrBoard) board = two_1200_board ();
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 c;

  g_assert_null (predict_with (board, spec, TRUE, 0, NULL, 0, HR_SPLIT_MODE_LAYER, -1, s));
  c = compute_of (s);
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_LLAMA_SERVER);
  g_assert_cmpuint (s->ollama_predicted_bytes, ==, 0);
  g_assert_false (s->fit_skipped);
  assert_device (&s->devices[0], 0, 0, 5, 5 * BLOCK, 5 * KV_LAYER, c + 3 * INPUTS);
}

static void
test_devices_llama_server_tensor_split (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autoptr(HrBoard) board = two_1200_board ();
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  float ts[2] = { 3.0f, 1.0f };
  guint64 c;

  g_assert_null (predict_with (board, spec, TRUE, 0, NULL, 0, HR_SPLIT_MODE_LAYER, -1, s));
  c = compute_of (s);
  g_assert_null (predict_with (board, spec, TRUE, 0, ts, 2, HR_SPLIT_MODE_LAYER, -1, s));
  g_assert_true (s->fit_skipped);
  g_assert_true (s->user_split);
  g_assert_true (s->pipeline_parallel);
  assert_device (&s->devices[0], 0, 0, 7, 7 * BLOCK, 7 * KV_LAYER, c + 3 * INPUTS);
  assert_device (&s->devices[1], 1, 7, 2, BLOCK + OUT_GRP, KV_LAYER, c + 3 * INPUTS);
  g_assert_cmpint (s->verdict, ==, HR_VERDICT_FITS);
}

/* -ts 0,1: everything on CUDA1 */
static void
test_devices_llama_server_all_on_second (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autoptr(HrBoard) board = two_1200_board ();
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  float ts[2] = { 0.0f, 1.0f };

  g_assert_null (predict_with (board, spec, TRUE, 0, ts, 2, HR_SPLIT_MODE_LAYER, -1, s));
  g_assert_cmpuint (s->devices[0].layers, ==, 0);
  g_assert_cmpuint (s->devices[1].layers, ==, 9);
  g_assert_cmpuint (s->devices[0].side.total, ==, 0);
  g_assert_cmpint (s->binding_device, ==, 1);
}

/* An integrated GPU beside discrete ones: llama-server leaves it out,
 * so -ts has one share per discrete GPU, 1:3 over the 9 layers (the
 * split point 0.25: layers 0-2 on CUDA0, the rest on CUDA2). */
static void
test_devices_llama_server_integrated (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 three[3] = { 1200 * MIB, 1200 * MIB, 1200 * MIB };
  gboolean integrated[3] = { FALSE, TRUE, FALSE };
  g_autoptr(HrBoard) mixed = gpus_board (3, three, integrated);
  float ts13[2] = { 1.0f, 3.0f };

  g_assert_null (predict_with (mixed, spec, TRUE, 0, ts13, 2, HR_SPLIT_MODE_LAYER, -1, s));
  g_assert_cmpuint (s->n_devices, ==, 2);
  g_assert_cmpuint (s->devices[0].board_index, ==, 0);
  g_assert_cmpuint (s->devices[0].layers, ==, 3);
  g_assert_cmpuint (s->devices[1].board_index, ==, 2);
  g_assert_cmpuint (s->devices[1].layers, ==, 6);
}

static void
test_devices_llama_server_split_none (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  g_autoptr(HrBoard) board = two_1200_board ();
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);

  g_assert_null (predict_with (board, spec, TRUE, 0, NULL, 0, HR_SPLIT_MODE_NONE, 1, s));
  g_assert_cmpint (s->choice, ==, HR_OFFLOAD_CHOICE_SPLIT_NONE);
  g_assert_cmpuint (s->n_devices, ==, 1);
  g_assert_cmpuint (s->devices[0].board_index, ==, 1);
  g_assert_cmpuint (s->devices[0].side.weights, ==, 8 * BLOCK + OUT_GRP);
  g_assert_false (s->pipeline_parallel);
}

static void
assert_refused (GError     *error,
                const char *message)
{
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
}

/* What llama-server or Headroom refuses, each with its message. */
static void
test_devices_placement_refused (void)
{
  g_autoptr(HrModelSpec) spec = synthetic_spec (8, FALSE);
  guint64 free[2] = { 1200 * MIB, 1200 * MIB };
  g_autoptr(HrBoard) board = gpus_board (2, free, NULL);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  float ts[3] = { 1.0f, 1.0f, 1.0f };
  float neg[2] = { 1.0f, -1.0f };
  float zero[2] = { 0.0f, 0.0f };

  assert_refused (predict_with (board, spec, TRUE, 0, NULL, 0, HR_SPLIT_MODE_ROW, -1, s),
                  "--split-mode row needs a split buffer type, which llama.cpp's CUDA, ROCm, Vulkan and Metal backends no longer have: "
                  "llama-server stops with \"device CUDA0 does not support split buffers\" (src/llama-model.cpp make_gpu_buft_list); "
                  "use --split-mode layer");
  assert_refused (predict_with (board, spec, FALSE, 0, ts, 2, HR_SPLIT_MODE_LAYER, -1, s),
                  "--tensor-split and --split-mode are llama-server's options: Ollama sets the split itself; use --runtime llama-server");
  assert_refused (predict_with (board, spec, TRUE, 0, ts, 3, HR_SPLIT_MODE_LAYER, -1, s),
                  "--tensor-split gives 3 shares, but Test GPUs has 2 GPUs: give one share per GPU, in their order");
  assert_refused (predict_with (board, spec, TRUE, 0, neg, 2, HR_SPLIT_MODE_LAYER, -1, s),
                  "--tensor-split share 2 is negative or not a number: each GPU's share is 0 or more");
  assert_refused (predict_with (board, spec, TRUE, 0, zero, 2, HR_SPLIT_MODE_LAYER, -1, s),
                  "--tensor-split is all zero: give at least one GPU a share above 0");
  assert_refused (predict_with (board, spec, TRUE, 0, NULL, 0, HR_SPLIT_MODE_NONE, 2, s),
                  "--main-gpu 2 names no GPU: llama-server sees 2 on this board (0 to 1)");
}


int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/offload-devices/default-split", test_devices_default_split);
  g_test_add_func ("/offload-devices/fit-two", test_devices_fit_two);
  g_test_add_func ("/offload-devices/fit-three", test_devices_fit_three);
  g_test_add_func ("/offload-devices/num-gpu", test_devices_num_gpu);
  g_test_add_func ("/offload-devices/ollama-choice/discrete-first", test_devices_ollama_choice);
  g_test_add_func ("/offload-devices/ollama-choice/most-free", test_devices_ollama_choice_most_free);
  g_test_add_func ("/offload-devices/ollama-choice/spread", test_devices_ollama_choice_spread);
  g_test_add_func ("/offload-devices/ollama-choice/none-fits", test_devices_ollama_choice_none_fits);
  g_test_add_func ("/offload-devices/ollama-choice/main-gpu", test_devices_ollama_choice_main_gpu);
  g_test_add_func ("/offload-devices/ollama-choice/main-outside", test_devices_ollama_choice_main_outside);
  g_test_add_func ("/offload-devices/moe/partial", test_devices_moe);
  g_test_add_func ("/offload-devices/moe/fraction-up", test_devices_moe_fraction_up);
  g_test_add_func ("/offload-devices/moe/no-surplus", test_devices_moe_no_surplus);
  g_test_add_func ("/offload-devices/speed", test_devices_speed);
  g_test_add_func ("/offload-devices/over", test_devices_over);
  g_test_add_func ("/offload-devices/max-context-switch", test_devices_max_context_switch);
  g_test_add_func ("/offload-devices/cpu-moe", test_devices_cpu_moe);
  g_test_add_func ("/offload-devices/llama-server/default-layout", test_devices_llama_server);
  g_test_add_func ("/offload-devices/llama-server/tensor-split", test_devices_llama_server_tensor_split);
  g_test_add_func ("/offload-devices/llama-server/all-on-second", test_devices_llama_server_all_on_second);
  g_test_add_func ("/offload-devices/llama-server/integrated", test_devices_llama_server_integrated);
  g_test_add_func ("/offload-devices/llama-server/split-none", test_devices_llama_server_split_none);
  g_test_add_func ("/offload-devices/placement-refused", test_devices_placement_refused);
  return g_test_run ();
}
