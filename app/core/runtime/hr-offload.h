/* hr-offload.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GPU/host split: when a model does not fit a discrete GPU, Ollama 0.30+
 * starts llama-server without -ngl and llama.cpp's automatic fit
 * (common/fit.cpp, common_params_fit_impl) puts as many layers on the GPU as
 * fit the free VRAM less a margin, filled from the last block back; the rest
 * stays in host memory and runs on the CPU. This module models that rule on
 * top of the runtime prediction (hr-runtime.h, used as it is), and from the
 * split the decode rate (each side reads its weights at its own bandwidth),
 * the older scheduler's automatic parallel slots, and the fit finders.
 * Pure: no I/O.
 */
#pragma once

#include <glib.h>

#include "hr-board.h"
#include "hr-device.h"
#include "hr-calibration.h"
#include "hr-mmproj.h"
#include "hr-model-spec.h"
#include "hr-precision.h"
#include "hr-runtime.h"

G_BEGIN_DECLS

/** HR_OFFLOAD_FIT_MARGIN_BYTES: llama.cpp's default fit target, 1024 MiB
 * left free on each device (common/common.h fit_params_target, -fitt). */
#define HR_OFFLOAD_FIT_MARGIN_BYTES (G_GUINT64_CONSTANT (1024) * 1024 * 1024)

/** HR_OFFLOAD_CONTEXT_STEP: the fit finders' step in tokens (llama.cpp pads
 * the KV cache to 256 cells, so memory moves in 256-token steps). */
#define HR_OFFLOAD_CONTEXT_STEP 256u

/* How much of a partial (MoE) layer stays on the GPU: llama.cpp's
 * common_layer_fraction_t, in the same order. */
typedef enum {
  HR_LAYER_FRACTION_NONE, /* nothing of it on the GPU */
  HR_LAYER_FRACTION_ATTN, /* attention (and norms) only: every ffn_* on the CPU */
  HR_LAYER_FRACTION_UP,   /* attention + ffn_up*: ffn_gate* and ffn_down* on the CPU */
  HR_LAYER_FRACTION_GATE, /* all but ffn_down* */
  HR_LAYER_FRACTION_MOE,  /* all but the expert tensors ffn_{up,gate,down,gate_up}_exps */
} HrLayerFraction;

/* llama-server's --split-mode (common/arg.cpp -sm; src/llama.cpp,
 * src/llama-model.cpp load_tensors). */
typedef enum {
  HR_SPLIT_MODE_LAYER, /* the default: whole layers per device, each layer's KV with it */
  HR_SPLIT_MODE_ROW,   /* matrix rows across the GPUs: needs the backend's split buffer type */
  HR_SPLIT_MODE_NONE,  /* one GPU, --main-gpu */
} HrSplitMode;

/** HR_OFFLOAD_CPU_MOE_ALL: n_cpu_moe for --cpu-moe, every block's experts
 * in host memory (common/arg.cpp: the one override LLM_FFN_EXPS_REGEX). */
#define HR_OFFLOAD_CPU_MOE_ALL G_MAXUINT32

typedef struct {
  const HrBoard  *board;            /* not owned */
  HrRuntimeInputs runtime;          /* the model and the server's settings (era 0.30) */
  gint32          num_gpu;          /* Ollama's num_gpu: -1 = automatic (no -ngl), 0 = CPU only, N = -ngl N */
  guint64         fit_margin_bytes; /* free VRAM llama.cpp leaves, default 1024 MiB */
  const HrCalibration *calibration; /* nullable, not owned: the board's learned overhead; added
                                     * to a unified board's pool figure (see hr_offload_predict()) */
  gboolean        fit_margin_from_user; /* fit_margin_bytes is the user's LLAMA_ARG_FIT_TARGET in
                                         * Ollama's environment: Ollama keeps it unpadded */
  /* A board with several GPUs (hr-offload-devices.c): */
  gboolean        sched_spread;     /* OLLAMA_SCHED_SPREAD set: every GPU of the group, no one-GPU try */
  gboolean        main_gpu_set;     /* the user's main_gpu option is set ... */
  guint32         main_gpu;         /* ... to this index within a library's group (llama_server:
                                     * llama-server's -mg, an index in the board's GPUs) */
  /* Placement inputs people set (hr-offload-devices.c, llama.cpp common/arg.cpp): */
  guint32         n_cpu_moe;        /* --n-cpu-moe N: the expert tensors (ffn_*_exps) of blocks
                                     * 0 ... N-1 in host memory; HR_OFFLOAD_CPU_MOE_ALL = --cpu-moe;
                                     * 0 = none. Any of it stops fit's layer search. */
  gboolean        llama_server;     /* llama-server run by hand: every GPU of the board, no Ollama
                                     * choice of GPUs nor projector padding */
  HrSplitMode     split_mode;       /* -sm (llama_server only; row is refused) */
  guint           n_tensor_split;   /* -ts values given (llama_server only), 0 = none */
  float           tensor_split[HR_DEVICE_MAX]; /* -ts A,B,...: each GPU's share, not normalised */
} HrOffloadInputs;

/* One side's bytes, term by term. */
typedef struct {
  guint64 weights;  /* tensors held on this side */
  guint64 kv_cache; /* KV cache and recurrent state of this side's layers */
  guint64 compute;  /* compute buffer */
  guint64 total;    /* the sum */
} HrOffloadSide;

/* Why Ollama gave llama-server the GPUs it did (server/sched.go
 * selectLlamaServerPlacement). */
typedef enum {
  HR_OFFLOAD_CHOICE_ALL,          /* num_gpu 0: every GPU passed through (nothing offloaded) */
  HR_OFFLOAD_CHOICE_FITS_ONE,     /* the estimate fits 80 % of one GPU: that one (bestSingleGPUFit) */
  HR_OFFLOAD_CHOICE_MAIN_GPU,     /* the user's main_gpu: that GPU (bestExplicitMainGPU) */
  HR_OFFLOAD_CHOICE_SPREAD,       /* OLLAMA_SCHED_SPREAD: every GPU of the best group */
  HR_OFFLOAD_CHOICE_NONE_FITS,    /* no single GPU holds the estimate: every GPU of the best group */
  HR_OFFLOAD_CHOICE_MAIN_OUTSIDE, /* main_gpu names no GPU of a group: every GPU of the best group */
  HR_OFFLOAD_CHOICE_LLAMA_SERVER, /* llama-server by hand: every GPU (src/llama.cpp llama_model_load devices) */
  HR_OFFLOAD_CHOICE_SPLIT_NONE,   /* llama-server -sm none: the --main-gpu alone */
} HrOffloadChoice;

/* One GPU Ollama gave llama-server on a board with several (hr-offload-devices.c). */
typedef struct {
  char     name[64];         /* "CUDA0 NVIDIA GeForce RTX 3090": llama.cpp's name and the device's */
  guint    board_index;      /* its index in the board's device list */
  guint32  layers;           /* layers on it, the output layer counted (llama.cpp "offloaded N/M") */
  guint32  first_layer;      /* the first of them (0 ... n_layer; n_layer is the output layer) */
  guint32  partial_layers;   /* of them, blocks with their expert tensors in host memory */
  gboolean output_layer;     /* it holds the output layer */
  HrOffloadSide side;        /* its buffers: weights, KV (and recurrent state), compute */
  guint64  free_bytes;       /* its free memory before the load (memory - resident) */
  gint64   target_bytes;     /* free less the fit margin: what fit lets it use */
  gint64   free_after_bytes; /* free - side.total (negative: over) */
  guint64  read_bytes;       /* weights it reads per token (active experts only) */
  double   bandwidth_bytes_per_s; /* its bandwidth, 0 = not known */
} HrOffloadDevice;

typedef struct {
  HrRuntimePrediction prediction;  /* the all-on-the-GPU runtime prediction the split starts from */
  guint32  total_layers;     /* blocks + 1 (the output layer), as "offloaded N/M layers to GPU" */
  guint32  gpu_layers;       /* N of that line: the output layer and the last N - 1 blocks */
  guint32  partial_layers;   /* GPU blocks with some tensors in host memory (MoE experts first) */
  HrLayerFraction overflow;  /* the fraction of the first partial block */
  gboolean user_layers;      /* num_gpu set: llama.cpp's fit did not run */
  guint64  free_vram_bytes;  /* the board's VRAM less its resident bytes */
  gint64   target_bytes;     /* free VRAM less the fit margin (negative: nothing fits) */
  HrOffloadSide vram;        /* on the GPU: Ollama's size_vram */
  HrOffloadSide host;        /* in host memory (weights include token_embd) */
  guint64  token_embd_bytes; /* the input embedding, always in host memory */
  guint64  size_bytes;       /* `ollama ps` SIZE: VRAM when every layer is on the GPU, else VRAM + host */
  guint64  gpu_read_bytes;   /* weights the GPU reads per token (active experts only) */
  guint64  host_read_bytes;  /* weights the CPU reads per token (no token_embd: one row a token) */
  HrVerdict verdict;         /* fits / tight / partial / over */
  guint64  margin_bytes;     /* see hr_offload_predict() */
  guint64  pool_bytes;       /* unified board: what the model takes of the one pool, the
                              * figure the verdict is judged on (hr_offload_pool_bytes()); else 0 */
  char     processor[32];    /* "100% GPU", "16%/84% CPU/GPU", "100% CPU" */
  /* A vision or audio projector (spec->projector_bytes; hr-mmproj.h): */
  HrMmprojOffload mmproj_offload;  /* whether Ollama passes --no-mmproj-offload, and why */
  guint64  fit_margin_used_bytes;  /* the margin fit left: fit_margin_bytes, or projector + 1 GiB
                                    * rounded up to MiB (LLAMA_ARG_FIT_TARGET) */
  guint64  projector_vram_bytes;   /* the projector's weights on the GPU (not in size_bytes) */
  guint64  projector_host_bytes;   /* ... or in host memory with --no-mmproj-offload */
  /* A board with several GPUs (hr-offload-devices.c); n_devices 0 on any other board. */
  guint    n_devices;        /* GPUs Ollama gave llama-server: 1 (one GPU chosen) or the group's */
  HrOffloadDevice devices[HR_DEVICE_MAX];
  gint     binding_device;   /* index in devices[] of the one with the least free after, -1 none */
  gboolean spread;           /* Ollama spread the model over every GPU of a group */
  HrOffloadChoice choice;    /* why those GPUs */
  gboolean pipeline_parallel;/* llama.cpp's pipeline parallelism: input copies on every device */
  guint64  ollama_predicted_bytes; /* Ollama's PredictServerVRAM, the one-GPU test's figure */
  /* The user's placement inputs, as applied: */
  guint32  cpu_moe_layers;   /* blocks whose expert tensors --cpu-moe / --n-cpu-moe keep in host memory */
  guint64  cpu_moe_bytes;    /* those expert tensors' bytes (all in host memory) */
  gboolean fit_skipped;      /* a tensor override or -ts stopped fit's layer search: every layer
                              * (or -ngl's) placed by load_tensors' proportional split */
  gboolean user_split;       /* the layers were split by the user's -ts, not by free memory */
} HrOffload;

void      hr_offload_inputs_init   (HrOffloadInputs       *inputs,
                                    const HrBoard         *board,
                                    const HrModelSpec     *spec,
                                    guint32                context_tokens);
guint64   hr_offload_pool_bytes    (const HrBoard             *board,
                                    const HrRuntimePrediction *prediction);
guint64   hr_offload_pool_bytes_for (const HrBoard            *board,
                                     guint64                   total_bytes,
                                     guint64                   host_bytes);
gboolean  hr_offload_check_placement (const HrOffloadInputs *inputs,
                                      GError               **error);
gboolean  hr_offload_predict       (const HrOffloadInputs *inputs,
                                    HrOffload             *out,
                                    GError               **error);
guint64   hr_offload_token_read_bytes (const HrModelSpec       *spec,
                                       const HrPrecision       *precision,
                                       guint64                  weight_bytes);
void      hr_offload_format_processor (guint64             vram_bytes,
                                       guint64             size_bytes,
                                       char                out[32]);
gboolean  hr_offload_decode_tps    (const HrOffload       *split,
                                    const HrBoard         *board,
                                    double                 gpu_efficiency,
                                    double                 host_efficiency,
                                    double                *out_tps,
                                    char                 **out_text,
                                    GError               **error);
gboolean  hr_offload_auto_parallel_slots (const HrBoard         *board,
                                          const HrRuntimeInputs *inputs,
                                          guint32               *out_slots,
                                          GError               **error);
gboolean  hr_offload_max_context   (const HrOffloadInputs *inputs,
                                    gboolean               allow_partial,
                                    double                 gpu_efficiency,
                                    double                 host_efficiency,
                                    guint32               *out_context,
                                    GError               **error);
const HrPrecision *hr_offload_best_precision (const HrOffloadInputs *inputs,
                                              gboolean               allow_partial,
                                              GError               **error);
const char *hr_layer_fraction_to_string (HrLayerFraction fraction);

G_END_DECLS
