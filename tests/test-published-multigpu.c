/* test-published-multigpu.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Headroom's placement across several GPUs (hr-offload-devices.c) against
 * the buffer lines of six runs people published from real multi-GPU runs of llama.cpp and
 * Ollama. Each case names its source, the model file as far as the log
 * tells it, the devices and the flags. Where the file is known to the byte
 * (every tensor's type follows from the log's figures and llama.cpp's
 * quantizer rules) the bytes are asserted to the published 0.01 MiB;
 * where it is not, the layer split, the KV cache (which depends on the
 * shapes alone) and what can be told are.
 *
 * load_tensors splits layers by -ts when given and by free memory when not
 * (src/llama-model.cpp: splits[i] = tensor_split[i], else each device's
 * free memory). Headroom's num_gpu path takes the free memory, so a
 * published -ts A,B is given here as free memory in the ratio A:B, which is
 * the same split (and says nothing about the devices' real size).
 */
#include "config.h"

#include "hr-board.h"
#include "hr-device.h"
#include "hr-error.h"
#include "hr-offload.h"
#include "hr-units.h"

#define MIB G_GUINT64_CONSTANT (1048576)
#define GIB G_GUINT64_CONSTANT (1073741824)
/* No output tensor: the output layer is token_embd (tied). */
#define TIED ((HrGgmlType) 255)

typedef struct {
  const char *name;
  guint       n_layer, n_embd, n_head, n_kv, head_dim, n_ff, vocab;
  HrGgmlType  embd_type;   /* token_embd */
  HrGgmlType  out_type;    /* output; TIED: tied (no output tensor) */
  HrGgmlType  block_type;  /* every block matrix */
  gboolean    ffn_norm;    /* a separate ffn_norm (Command-R has one norm a block) */
  /* llama.cpp's quantizer keeps some tensors at more bits
   * (src/llama-quant.cpp llama_tensor_get_type_impl): */
  HrGgmlType  v_type;      /* attn_v of the first n_v blocks ... */
  guint       n_v;
  HrGgmlType  down_type;   /* ffn_down of the first n_down blocks */
  guint       n_down;
  gboolean    q4_k_m;      /* Q4_K_M: attn_v and ffn_down in q6_K where use_more_bits () */
} Shape;

/* src/llama-quant.cpp use_more_bits (): the first and last eighth of the
 * blocks and every third one between. */
static gboolean
use_more_bits (guint i,
               guint n)
{
  return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

static void
add_tensor (GPtrArray  *tensors,
            const char *name,
            HrGgmlType  type,
            guint       n_dims,
            guint64     d0,
            guint64     d1)
{
  guint64 dims[2] = { d0, d1 };
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (tensors, hr_tensor_info_new (name, type, n_dims, dims, &error));
  g_assert_no_error (error);
}

/* A llama-shaped model (llama.cpp src/models/llama.cpp, command-r.cpp: the
 * tensors and their shapes) with the given types. */
static HrModelSpec *
shaped_spec (const Shape *s)
{
  HrModelSpec *spec = hr_model_spec_new (s->name);
  GPtrArray *tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_tensor_info_free);
  guint64 q = (guint64) s->n_head * s->head_dim, kv = (guint64) s->n_kv * s->head_dim;

  spec->architecture = g_strdup ("llama");
  spec->layers = s->n_layer;
  spec->heads = s->n_head;
  spec->kv_heads = s->n_kv;
  spec->key_length = s->head_dim;
  spec->value_length = s->head_dim;
  spec->embedding_length = s->n_embd;
  spec->context_length = 131072;
  spec->vocab_size = s->vocab;
  spec->tied_embeddings = s->out_type == TIED;
  add_tensor (tensors, "token_embd.weight", s->embd_type, 2, s->n_embd, s->vocab);
  for (guint i = 0; i < s->n_layer; i++)
    {
      char name[64];

#define T(suffix, type, n, a, b) G_STMT_START { g_snprintf (name, sizeof name, "blk.%u." suffix, i); add_tensor (tensors, name, type, n, a, b); } G_STMT_END
      T ("attn_norm.weight", HR_GGML_TYPE_F32, 1, s->n_embd, 0);
      T ("attn_q.weight", s->block_type, 2, s->n_embd, q);
      T ("attn_k.weight", s->block_type, 2, s->n_embd, kv);
      T ("attn_v.weight", i < s->n_v ? s->v_type : s->q4_k_m && use_more_bits (i, s->n_layer) ? HR_GGML_TYPE_Q6_K : s->block_type,
         2, s->n_embd, kv);
      T ("attn_output.weight", s->block_type, 2, q, s->n_embd);
      if (s->ffn_norm)
        T ("ffn_norm.weight", HR_GGML_TYPE_F32, 1, s->n_embd, 0);
      T ("ffn_gate.weight", s->block_type, 2, s->n_embd, s->n_ff);
      T ("ffn_up.weight", s->block_type, 2, s->n_embd, s->n_ff);
      T ("ffn_down.weight", i < s->n_down ? s->down_type : s->q4_k_m && use_more_bits (i, s->n_layer) ? HR_GGML_TYPE_Q6_K : s->block_type,
         2, s->n_ff, s->n_embd);
#undef T
    }
  add_tensor (tensors, "output_norm.weight", HR_GGML_TYPE_F32, 1, s->n_embd, 0);
  if (s->out_type != TIED)
    add_tensor (tensors, "output.weight", s->out_type, 2, s->n_embd, s->vocab);
  hr_model_spec_take_tensors (spec, tensors);
  spec->file_bytes = hr_model_spec_tensor_bytes (spec);
  return spec;
}

/* @n discrete CUDA GPUs, each with @free[i] free (nothing resident), and
 * 256 GiB of host memory. */
static HrBoard *
board_of (guint          n,
          const guint64 *free)
{
  HrBoard *board = hr_board_new ("published", "Published");
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("CUDA%u", i);
      HrDevice *d = hr_device_new (name, free[i], HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_CUDA);

      d->reserve_bytes = 1;
      d->bandwidth_bytes_per_s = 900e9;
      g_ptr_array_add (devices, d);
    }
  board->host_pool_bytes = 512 * GIB;
  board->host_bandwidth_bytes_per_s = 50e9;
  hr_board_set_devices (board, devices);
  return board;
}

static void
place (const HrBoard     *board,
       const HrModelSpec *spec,
       guint32            context,
       gint32             num_gpu,
       gboolean           flash,
       guint32            ubatch,
       HrOffload         *out)
{
  g_autoptr(GError) error = NULL;
  HrOffloadInputs in;

  hr_offload_inputs_init (&in, board, spec, context);
  in.num_gpu = num_gpu;
  in.sched_spread = TRUE;
  in.runtime.parallel_slots = 1;
  in.runtime.flash_attention = flash ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  in.runtime.ubatch = ubatch;
  g_assert_true (hr_offload_predict (&in, out, &error));
  g_assert_no_error (error);
}

/* Bytes as llama.cpp prints them: MiB with two decimals ("%.2f", which
 * rounds 1064.625 to 1064.62). */
static double
mib2 (guint64 bytes)
{
  char text[64];

  g_snprintf (text, sizeof text, "%.2f", (double) bytes / (double) MIB);
  return g_ascii_strtod (text, NULL);
}

static void
report (const char      *source,
        const HrOffload *s)
{
  for (guint i = 0; i < s->n_devices; i++)
    g_test_message ("%s: %s %u layers, weights %.2f MiB, KV %.2f MiB, compute %.2f MiB", source, s->devices[i].name,
                    s->devices[i].layers, mib2 (s->devices[i].side.weights), mib2 (s->devices[i].side.kv_cache),
                    mib2 (s->devices[i].side.compute));
  g_test_message ("%s: host weights %.2f MiB, KV %.2f MiB", source, mib2 (s->host.weights), mib2 (s->host.kv_cache));
}

/* Ollama issue #11986 ("Models are always split across multiple GPUs",
 * https://github.com/ollama/ollama/issues/11986, Ollama 0.11, August 2025):
 * a Llama 3 70B Q8_0 (80 blocks, 8 KV heads; token_embd q8_0 on the CPU:
 * "CPU_Mapped model buffer size = 1064.62 MiB", which is 128,256 x 8,192
 * q8_0 to the byte), 81/81 layers offloaded, "CUDA0 model buffer size =
 * 24277.75 MiB", "CUDA2 model buffer size = 46151.91 MiB". Every block is
 * 909,180,928 bytes of q8_0 and f32 norms, so the split is 28 blocks on
 * the first GPU and 52 + the output layer on the other: Ollama's old
 * scheduler (llm/server.go, up to 0.29) passed that as --tensor-split
 * 28,53, given here as free memory 28:53. Headroom's per-device weights
 * equal the published ones to the 0.01 MiB. The context is not in the
 * excerpt, so the KV is not compared. */
static void
test_published_ollama_11986 (void)
{
  static const Shape llama3_70b = { "llama3:70b-instruct-q8_0", 80, 8192, 64, 8, 128, 28672, 128256,
                                    HR_GGML_TYPE_Q8_0, HR_GGML_TYPE_Q8_0, HR_GGML_TYPE_Q8_0, TRUE, 0, 0, 0, 0, FALSE };
  g_autoptr(HrModelSpec) spec = shaped_spec (&llama3_70b);
  guint64 free[2] = { 28 * GIB, 53 * GIB };
  g_autoptr(HrBoard) board = board_of (2, free);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);

  place (board, spec, 8192, 81, TRUE, 512, s);
  report ("ollama#11986", s);
  g_assert_cmpuint (s->n_devices, ==, 2);
  g_assert_cmpuint (s->gpu_layers, ==, 81);
  g_assert_cmpuint (s->devices[0].layers, ==, 28);
  g_assert_cmpuint (s->devices[1].layers, ==, 53);
  g_assert_true (s->devices[1].output_layer);
  g_assert_cmpfloat (mib2 (s->devices[0].side.weights), ==, 24277.75);
  g_assert_cmpfloat (mib2 (s->devices[1].side.weights), ==, 46151.91);
  g_assert_cmpfloat (mib2 (s->host.weights), ==, 1064.62);
}

/* llama.cpp PR #6122 ("llama : greatly reduce output buffer memory usage",
 * https://github.com/ggml-org/llama.cpp/pull/6122, a comment of March 2024
 * by Wuzzooy): Command-R v01 35B (40 blocks, 64 KV heads of 128, no GQA;
 * tied output) on an RTX 4070 Ti (CUDA0) and an RTX 3090 Ti (CUDA1), n_ctx
 * 4096, n_ubatch 512, all 41 layers, pipeline parallelism (n_copies=4):
 *   CPU buffer 1640.62 MiB, CUDA0 buffer 5434.38 MiB, CUDA1 13989.53 MiB,
 *   CUDA0 KV 1536.00 MiB, CUDA1 KV 3584.00 MiB, CUDA0 compute 672.01 MiB.
 * The file is not named; its figures are a Q4_K_S to the byte: token_embd
 * q6_K (1640.62 MiB: 256,000 x 8,192), every block matrix q4_K but the
 * attn_v of blocks 0-3 and the ffn_down of blocks 0-4 in q5_K
 * (src/llama-quant.cpp: Q4_K_S, "i_attention_wv < 4" and "i_layer <
 * n_layer/8"), and the tied output duplicated on CUDA1. The log is older
 * than llama.cpp's "MiB free" lines, so the free memory that made the 12 :
 * 28 split is not known: any ratio in (11/41, 12/41] gives it; the test
 * takes 23:59. The KV cache follows each block to its device. The compute
 * buffer is Headroom's estimate (652 MiB against the published 672.01 on
 * CUDA0), not asserted. */
static void
test_published_llama_6122 (void)
{
  static const Shape command_r = { "command-r-v01-q4_k_s", 40, 8192, 64, 64, 128, 22528, 256000,
                                   HR_GGML_TYPE_Q6_K, TIED, HR_GGML_TYPE_Q4_K, FALSE,
                                   HR_GGML_TYPE_Q5_K, 4, HR_GGML_TYPE_Q5_K, 5, FALSE };
  g_autoptr(HrModelSpec) spec = shaped_spec (&command_r);
  guint64 free[2] = { 23 * GIB, 59 * GIB };
  g_autoptr(HrBoard) board = board_of (2, free);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);

  place (board, spec, 4096, 41, FALSE, 512, s);
  report ("llama.cpp#6122", s);
  g_assert_cmpuint (s->devices[0].layers, ==, 12);
  g_assert_cmpuint (s->devices[1].layers, ==, 29);
  g_assert_true (s->devices[1].output_layer);
  g_assert_true (s->pipeline_parallel);
  g_assert_cmpfloat (mib2 (s->devices[0].side.weights), ==, 5434.38);
  g_assert_cmpfloat (mib2 (s->devices[1].side.weights), ==, 13989.53);
  g_assert_cmpfloat (mib2 (s->host.weights), ==, 1640.62);
  g_assert_cmpfloat (mib2 (s->devices[0].side.kv_cache), ==, 1536.00);
  g_assert_cmpfloat (mib2 (s->devices[1].side.kv_cache), ==, 3584.00);
}

/* llama.cpp issue #7217 ("NKVO argument leads to huge compute buffers ...",
 * https://github.com/ggml-org/llama.cpp/issues/7217, build b2849, May
 * 2024): Merged-RP-Stew-V2-34B.i1-IQ4_XS.gguf (a Yi 34B: 60 blocks, 56
 * heads, 8 KV heads of 128), RTX 3090 (CUDA0) + RTX 3060 (CUDA1), -ngl 61
 * -ts 1,1 -fa -c 2048 -b 512: "CUDA_Host buffer size = 232.42 MiB",
 * "CUDA0 buffer size = 8796.98 MiB", "CUDA1 buffer size = 8588.34 MiB".
 * Its figures are an IQ4_XS to the byte: token_embd iq4_xs, output q6_K,
 * every block matrix iq4_xs but attn_v in q5_K (src/llama-quant.cpp:
 * IQ4_XS with n_gqa >= 4). -ts 1,1 puts blocks 0-30 on CUDA0 and 31-59
 * with the output layer on CUDA1. The KV lines are not in the excerpt;
 * f16 with 2,048 cells is 8 MiB a block. */
static void
test_published_llama_7217 (void)
{
  static const Shape yi_34b = { "yi-34b-iq4_xs", 60, 7168, 56, 8, 128, 20480, 64000,
                                HR_GGML_TYPE_IQ4_XS, HR_GGML_TYPE_Q6_K, HR_GGML_TYPE_IQ4_XS, TRUE,
                                HR_GGML_TYPE_Q5_K, 60, 0, 0, FALSE };
  g_autoptr(HrModelSpec) spec = shaped_spec (&yi_34b);
  guint64 free[2] = { 24 * GIB, 24 * GIB };
  g_autoptr(HrBoard) board = board_of (2, free);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);

  place (board, spec, 2048, 61, TRUE, 512, s);
  report ("llama.cpp#7217", s);
  g_assert_cmpuint (s->devices[0].layers, ==, 31);
  g_assert_cmpuint (s->devices[1].layers, ==, 30);
  g_assert_cmpfloat (mib2 (s->host.weights), ==, 232.42);
  g_assert_cmpfloat (mib2 (s->devices[0].side.weights), ==, 8796.98);
  g_assert_cmpfloat (mib2 (s->devices[1].side.weights), ==, 8588.34);
  g_assert_cmpuint (s->devices[0].side.kv_cache, ==, 31 * 8 * MIB);
  g_assert_cmpuint (s->devices[1].side.kv_cache, ==, 29 * 8 * MIB);
}

/* Ollama PR #11090 ("New Memory Management",
 * https://github.com/ollama/ollama/pull/11090, a log of July 2025 by
 * MarkWard0110, Ollama's own engine): mistral3 Q8_0 (Mistral Small 3.1
 * 24B: 40 blocks of 5,120, 8 KV heads, an inline vision tower), two GPUs,
 * "offloaded 41/41 layers", model weights CUDA0 11.5 GiB, CUDA1 11.9 GiB,
 * CPU 680.0 MiB (token_embd 131,072 x 5,120 q8_0 to the byte). The GPUs'
 * free memory is not in the excerpt; an even split (as two equal GPUs
 * give) puts 21 blocks on CUDA0, which Ollama prints as 11.5 GiB. CUDA1's
 * 19 blocks and output layer are 11.1 GiB; the 0.8 GiB more that Ollama
 * reports there is the vision tower, which Headroom keeps apart (the
 * projector, hr-mmproj.h), not in a device's weights. */
static void
test_published_ollama_11090 (void)
{
  static const Shape mistral_small = { "mistral-small3.1-q8_0", 40, 5120, 32, 8, 128, 32768, 131072,
                                       HR_GGML_TYPE_Q8_0, HR_GGML_TYPE_Q8_0, HR_GGML_TYPE_Q8_0, TRUE, 0, 0, 0, 0, FALSE };
  g_autoptr(HrModelSpec) spec = shaped_spec (&mistral_small);
  guint64 free[2] = { 16 * GIB, 16 * GIB };
  g_autoptr(HrBoard) board = board_of (2, free);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  g_autofree char *cuda0 = NULL;
  g_autofree char *cuda1 = NULL;

  place (board, spec, 4096, 41, TRUE, 512, s);
  report ("ollama#11090", s);
  g_assert_cmpuint (s->devices[0].layers, ==, 21);
  g_assert_cmpuint (s->devices[1].layers, ==, 20);
  cuda0 = g_strdup_printf ("%.1f", (double) s->devices[0].side.weights / (double) GIB);
  cuda1 = g_strdup_printf ("%.1f", (double) s->devices[1].side.weights / (double) GIB);
  g_assert_cmpstr (cuda0, ==, "11.5");
  g_assert_cmpstr (cuda1, ==, "11.1");
  g_assert_cmpfloat (mib2 (s->host.weights), ==, 680.00);
}

/* Ollama issue #9181 ("How to offload all layers to GPU?",
 * https://github.com/ollama/ollama/issues/9181, Ollama 0.5, February 2025):
 * four GPUs with 22.0 GiB available each, num_ctx 64000, an 81-layer model
 * (80 blocks with 8 KV heads of 128): "memory.required.kv=19.5 GiB",
 * "layers.split=11,11,11,11". The model file is not named (its 86.2 GiB of
 * repeating weights fit no common 70B quantization), so only the KV cache
 * is compared: 80 x 2 x 8 x 128 x 64,000 x 2 bytes = 19.53 GiB, all of it
 * whichever GPU or the host holds each layer. The split is Ollama 0.5's own
 * estimate (llm/memory.go, with its 8.2 GiB graph per GPU), which
 * Headroom's Ollama 0.30 (llama.cpp fit) placement does not reproduce: by
 * version, not a defect. */
static void
test_published_ollama_9181 (void)
{
  static const Shape llama_80 = { "80-block-8-kv-heads", 80, 8192, 64, 8, 128, 28672, 128256,
                                  HR_GGML_TYPE_Q8_0, HR_GGML_TYPE_Q8_0, HR_GGML_TYPE_Q8_0, TRUE, 0, 0, 0, 0, FALSE };
  g_autoptr(HrModelSpec) spec = shaped_spec (&llama_80);
  guint64 free[4] = { 22 * GIB, 22 * GIB, 22 * GIB, 22 * GIB };
  g_autoptr(HrBoard) board = board_of (4, free);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  guint64 kv = 0;
  g_autofree char *gib = NULL;

  place (board, spec, 64000, -1, TRUE, 512, s);
  report ("ollama#9181", s);
  for (guint i = 0; i < s->n_devices; i++)
    kv += s->devices[i].side.kv_cache;
  kv += s->host.kv_cache;
  g_assert_cmpuint (kv, ==, G_GUINT64_CONSTANT (80) * 2 * 8 * 128 * 64000 * 2);
  gib = g_strdup_printf ("%.1f", (double) kv / (double) GIB);
  g_assert_cmpstr (gib, ==, "19.5");
  g_assert_cmpuint (s->n_devices, ==, 4);
}

/* Ollama issue #10740 ("0.6.8 already have weird memory usage (also
 * 0.7.0)", https://github.com/ollama/ollama/issues/10740, May 2025, the
 * first log by Fade78): a Qwen3 32B (64 blocks of 5,120, 64 heads and 8 KV
 * heads of 128; token_embd 151,936 x 5,120 q4_K to the byte:
 * "CPU_Mapped model buffer size = 417.30 MiB") on three GPUs, "offloaded
 * 65/65 layers", CUDA0 6300.10 MiB, CUDA1 6171.19 MiB, CUDA2 6371.11 MiB.
 * Ollama up to 0.29 (llm/server.go) passed --tensor-split 22,22,21 for it,
 * given here as free memory 22:22:21. The quantization is Ollama's Q4_K_M
 * (its own quantizer, server/quantization.go), whose exact tensor types
 * the excerpt does not tell: with llama.cpp's Q4_K_M rules the blocks come
 * to 143-148 MiB less a device than published (about 6.5 MiB a block),
 * so the split and each device's share of the weights are asserted (within
 * half a point), not the bytes. */
static void
test_published_ollama_10740 (void)
{
  static const Shape qwen3_32b = { "qwen3:32b-q4_K_M", 64, 5120, 64, 8, 128, 25600, 151936,
                                   HR_GGML_TYPE_Q4_K, HR_GGML_TYPE_Q6_K, HR_GGML_TYPE_Q4_K, TRUE, 0, 0, 0, 0, TRUE };
  static const double published[3] = { 6300.10, 6171.19, 6371.11 };
  g_autoptr(HrModelSpec) spec = shaped_spec (&qwen3_32b);
  guint64 free[3] = { 22 * GIB, 22 * GIB, 21 * GIB };
  g_autoptr(HrBoard) board = board_of (3, free);
  g_autofree HrOffload *s = g_new0 (HrOffload, 1);
  double sum = 0.0, total = published[0] + published[1] + published[2];

  place (board, spec, 8192, 65, TRUE, 512, s);
  report ("ollama#10740", s);
  g_assert_cmpuint (s->n_devices, ==, 3);
  g_assert_cmpuint (s->devices[0].layers, ==, 22);
  g_assert_cmpuint (s->devices[1].layers, ==, 22);
  g_assert_cmpuint (s->devices[2].layers, ==, 21);
  g_assert_true (s->devices[2].output_layer);
  g_assert_cmpfloat (mib2 (s->host.weights), ==, 417.30);
  for (guint i = 0; i < 3; i++)
    sum += (double) s->devices[i].side.weights;
  for (guint i = 0; i < 3; i++)
    {
      double share = (double) s->devices[i].side.weights / sum;

      g_test_message ("ollama#10740: CUDA%u share %.4f, published %.4f", i, share, published[i] / total);
      g_assert_cmpfloat (share, >, published[i] / total - 0.005);
      g_assert_cmpfloat (share, <, published[i] / total + 0.005);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/published-multigpu/ollama-11986", test_published_ollama_11986);
  g_test_add_func ("/published-multigpu/llama-6122", test_published_llama_6122);
  g_test_add_func ("/published-multigpu/llama-7217", test_published_llama_7217);
  g_test_add_func ("/published-multigpu/ollama-11090", test_published_ollama_11090);
  g_test_add_func ("/published-multigpu/ollama-9181", test_published_ollama_9181);
  g_test_add_func ("/published-multigpu/ollama-10740", test_published_ollama_10740);
  return g_test_run ();
}
