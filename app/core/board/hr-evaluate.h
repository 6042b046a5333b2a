/* hr-evaluate.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row of the dashboard: a model under a scenario (board, precision,
 * context, KV cache type, parallel slots, efficiency fit) gives a footprint,
 * a verdict with its margin, a rate with its source, and a speed. On a
 * discrete-GPU board whose host memory is known (hr_board_has_host()) the
 * row also carries the GPU/host split (hr-offload.h). This is the hot path
 * of every slider move: on a one-pool board it allocates nothing.
 */
#pragma once

#include <glib.h>
#include "hr-board.h"
#include "hr-memory.h"
#include "hr-model-spec.h"
#include "hr-precision.h"
#include "hr-rates.h"

G_BEGIN_DECLS

typedef struct {
  const HrBoard     *board;          /* not owned */
  const HrPrecision *precision;      /* NULL = "as pulled": each model's own file */
  HrKvCacheType      kv_type;
  guint32            context_tokens; /* num_ctx */
  guint32            parallel_slots; /* >= 1 */
  HrEfficiencyFit    fit;            /* the board's efficiency fit */
  double             floor_tps;      /* from the board's turn budget */
  double             prior_efficiency; /* the board kind's prior (hr-priors.h), used only
                                        * without a fit; 0 = none */
  double             cpu_prior_efficiency; /* the CPU's prior, for the layers a split keeps in
                                            * host memory; 0 = none */
  gboolean           num_gpu_set;    /* a user's num_gpu: FALSE = automatic (llama.cpp's fit) */
  guint32            num_gpu;        /* layers on the GPU (-ngl) when num_gpu_set */
  guint32            n_cpu_moe;      /* blocks 0 ... N-1 keep their MoE experts in host memory
                                      * (LLAMA_ARG_N_CPU_MOE, hr-offload.h); 0 = none */
} HrEvaluationInputs;

typedef struct {
  HrFootprint  footprint;
  HrVerdict    verdict;
  guint64      margin_bytes;       /* see hr_board_verdict() */
  double       ceiling_tps;
  double       tps;                /* measured, or ceiling x efficiency */
  HrRateSource source;
  HrSpeed      speed;
  gboolean     past_context_limit; /* context_tokens > spec->context_length */
  /* The split, set when split is TRUE (hr_offload_predict()); else zero. */
  gboolean     split;              /* the board keeps what does not fit in host memory */
  guint32      gpu_layers;         /* "offloaded N/M layers to GPU": N */
  guint32      total_layers;       /* M: blocks + the output layer */
  guint64      vram_bytes;         /* on the GPU (Ollama's size_vram) */
  guint64      host_bytes;         /* in host memory */
  double       gpu_efficiency;     /* the efficiencies a partial row's rate used; 0 = none */
  double       host_efficiency;
  char         processor[32];      /* `ollama ps` PROCESSOR: "100% GPU", "29%/71% CPU/GPU" */
  /* A board with several GPUs (hr-offload-devices.c): the GPUs the split
   * gave layers to, in llama.cpp's order; n_devices 0 on any other board. */
  guint8       n_devices;          /* GPUs Ollama gave llama-server (1: one GPU chosen) */
  gint8        binding_device;     /* index into device_layers[] of the GPU full first, -1 none */
  guint8       device_index[HR_DEVICE_MAX];  /* each one's index in the board's device list */
  guint16      device_layers[HR_DEVICE_MAX]; /* layers on it, the output layer counted */
  gboolean     first_device_only;  /* the board has several GPUs and no split ran: this row is its first
                                    * GPU's alone (hr_board_first_device_only_text()) */
  guint32      expert_host_layers; /* of the GPU layers, those whose expert tensors (some or all)
                                    * are in host memory (hr_offload_predict()'s partial_layers) */
  guint64      read_bytes;         /* the weights one token reads: dense + the routed experts
                                    * (hr_offload_token_read_bytes()); the ceiling's divisor */
} HrEvaluation;

/**
 * HrEvaluationCache:
 * @spec: the model the figures are for (the key; not owned)
 * @precision: the scenario's precision they are for (the key; %NULL: as pulled)
 * @valid: whether the figures are set
 * @weights: hr_memory_spec_weight_bytes() of @spec at @precision
 * @kv_elements: hr_model_spec_kv_elements_per_token() of @spec
 * @as_pulled: @precision is %NULL or the model's own
 * @context_length: @spec's context limit (0: unknown)
 * @read_bytes: hr_offload_token_read_bytes() of @spec at @precision and
 *   @weights (the weights one token reads)
 *
 * What hr_evaluate() works out from the model and the precision alone,
 * kept between slider steps by a caller that holds one per model
 * (hr_evaluate_cached()). Zero it to start (or when the spec changed).
 */
typedef struct {
  const HrModelSpec *spec;
  const HrPrecision *precision;
  gboolean           valid;
  guint64            weights;
  guint64            kv_elements;
  gboolean           as_pulled;
  guint32            context_length;
  guint64            read_bytes;
} HrEvaluationCache;

void      hr_evaluation_inputs_init (HrEvaluationInputs       *inputs,
                                     const HrBoard            *board,
                                     const HrEfficiencyFit    *fit);
void      hr_evaluate       (const HrEvaluationInputs *scenario,
                             const HrModelSpec        *spec,
                             double                    measured_tps,
                             guint64                   overhead_bytes,
                             HrEvaluation             *out);
void      hr_evaluate_cached (const HrEvaluationInputs *scenario,
                              const HrModelSpec        *spec,
                              HrEvaluationCache        *cache,
                              double                    measured_tps,
                              guint64                   overhead_bytes,
                              HrEvaluation             *out);
gboolean  hr_evaluate_context_step (const HrEvaluationInputs *scenario,
                                    const HrModelSpec        *spec,
                                    const HrEvaluationCache  *cache,
                                    guint64                   overhead_bytes,
                                    HrEvaluation             *inout);
gint      hr_recommend      (HrModelSpec * const *specs,
                             const HrEvaluation  *evaluations,
                             guint                n_rows);
gboolean  hr_recommend_prefers (const HrModelSpec  *spec,
                                const HrEvaluation *evaluation,
                                const HrModelSpec  *best_spec,
                                const HrEvaluation *best);
GPtrArray *hr_pull_check    (const HrModelSpec  *spec,
                             const HrEvaluation *evaluation,
                             double              floor_tps);

G_END_DECLS
