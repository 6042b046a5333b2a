/* hr-offload-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-offload.c and hr-offload-devices.c share: the model cut into
 * layers (weights by tensor group, KV by layer) and the parts of a layer
 * a layout keeps on a GPU. Not installed; no API.
 */
#pragma once

#include "hr-offload.h"

G_BEGIN_DECLS

typedef struct {
  guint64 total;                /* every tensor of blk.N */
  guint64 up, gate, down;       /* ffn_up*, ffn_gate* (gate_inp, gate_up), ffn_down* */
  guint64 up_x, gate_x, down_x; /* the expert tensors among them (ffn_*_exps, _chexps) */
  guint64 kv;                   /* this layer's share of the KV cache */
} Layer;

typedef struct {
  guint    n;            /* blocks */
  Layer   *layers;
  gboolean tied;         /* no output tensor: the GPU output is token_embd's copy */
  guint64  output;       /* the output layer on the GPU: weights term - blocks */
  guint64  token_embd;
  guint64  compute;      /* the runtime's compute buffer */
  guint64  inputs;       /* host compute at full offload: embeddings in + mask */
  double   active;       /* experts read per token / experts (1 for a dense model) */
  gboolean moe;
  guint32  cpu_moe;      /* blocks 0 ... cpu_moe - 1 keep their expert tensors in host memory */
  gboolean overrides;    /* the user set a tensor override (--cpu-moe, --n-cpu-moe) */
} Model;

static inline guint64
experts_of (const Layer *l)
{
  return l->up_x + l->gate_x + l->down_x;
}

static inline guint64
on_gpu (const Layer     *l,
        HrLayerFraction  fraction)
{
  switch (fraction)
    {
    case HR_LAYER_FRACTION_MOE:  return l->total - experts_of (l);
    case HR_LAYER_FRACTION_GATE: return l->total - l->down;
    case HR_LAYER_FRACTION_UP:   return l->total - l->down - l->gate;
    case HR_LAYER_FRACTION_ATTN: return l->total - l->down - l->gate - l->up;
    case HR_LAYER_FRACTION_NONE: return 0;
    default:                     return l->total;
    }
}

static inline guint64
experts_on_gpu (const Layer     *l,
                HrLayerFraction  fraction)
{
  switch (fraction)
    {
    case HR_LAYER_FRACTION_GATE: return l->up_x + l->gate_x;
    case HR_LAYER_FRACTION_UP:   return l->up_x;
    case HR_LAYER_FRACTION_MOE:
    case HR_LAYER_FRACTION_ATTN:
    case HR_LAYER_FRACTION_NONE: return 0;
    default:                     return experts_of (l);
    }
}

/* (HrLayerFraction) -1: the whole layer. */
#define FRACTION_FULL ((HrLayerFraction) -1)

/* Block @il's fraction on its GPU once the user's overrides apply: a
 * whole block below m->cpu_moe keeps all but its expert tensors
 * (common/arg.cpp --n-cpu-moe: blk.N.ffn_(up|down|gate|gate_up)_(ch|)exps
 * to the CPU buffer type, src/llama-model.cpp create_tensor's override
 * match). */
static inline HrLayerFraction
user_fraction (const Model     *m,
               guint            il,
               HrLayerFraction  fraction)
{
  return fraction == FRACTION_FULL && il < m->cpu_moe ? HR_LAYER_FRACTION_MOE : fraction;
}

/* Whether block @il counts as partly in host memory with @fraction: a
 * block the override leaves whole (no expert tensors) does not. */
static inline gboolean
counts_partial (const Model     *m,
                guint            il,
                HrLayerFraction  fraction)
{
  if (fraction == FRACTION_FULL || fraction == HR_LAYER_FRACTION_NONE)
    return FALSE;
  return !(il < m->cpu_moe && experts_of (&m->layers[il]) == 0);
}

gboolean hr_offload_begin        (const HrOffloadInputs *inputs,
                                  const HrBoard         *projector_board,
                                  HrOffload             *out,
                                  Model                 *m,
                                  GError               **error);
void     hr_offload_judge        (const HrBoard         *board,
                                  HrOffload             *out);
guint64  hr_offload_predict_server_vram (const HrOffloadInputs     *inputs,
                                         const HrRuntimePrediction *prediction);
guint    hr_offload_select_gpus  (const HrOffloadInputs *inputs,
                                  guint64                predicted,
                                  guint                  ids[HR_DEVICE_MAX],
                                  gboolean              *out_spread,
                                  HrOffloadChoice       *out_choice);
gboolean hr_offload_predict_devices (const HrOffloadInputs *inputs,
                                     HrOffload             *out,
                                     GError               **error);
gboolean hr_offload_check_decode (const HrOffload *split,
                                  double           gpu_efficiency,
                                  double           host_efficiency,
                                  GError         **error);
gboolean hr_offload_decode_tps_devices (const HrOffload *split,
                                        const HrBoard   *board,
                                        double           gpu_efficiency,
                                        double           host_efficiency,
                                        double          *out_tps,
                                        char           **out_text,
                                        GError         **error);

G_END_DECLS
