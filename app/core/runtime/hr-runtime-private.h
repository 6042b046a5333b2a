/* hr-runtime-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the runtime model's files share (hr-runtime.c, the public entry;
 * hr-runtime-eras.c, versions and eras; hr-runtime-figures.c, the model's
 * figures and the text helpers; hr-runtime-step.c, a context step;
 * hr-runtime-0-30.c, Ollama 0.30+ on
 * llama-server; hr-runtime-compute.c, llama.cpp's compute buffer;
 * hr-runtime-compute-recurrent.c, the same for recurrent and hybrid models;
 * hr-runtime-0-12.c, the old estimator). Not installed, not public.
 */
#pragma once

#include "hr-runtime.h"
#include "hr-units.h"

G_BEGIN_DECLS

#define MIB G_GUINT64_CONSTANT (1048576)

/* llama.cpp pads the KV cache to 256 cells (docs/runtimes.md,
 * "Ollama 0.30 and newer"; llama_kv_cache::get_padding). */
#define KV_PAD_0_30 256u


/* The spec's own figures a bytes-only step reads (rt_spec_dims()), kept
 * beside the cache's flags: with them one row's slider step reads its
 * cache and not the spec's cache lines, which over a large catalog cost
 * more than the arithmetic. */
typedef struct {
  guint32 context_length;    /* spec->context_length: the clamp */
  guint32 sliding_window;    /* spec->sliding_window: the sliding layers' cells */
  guint32 vocab_size;        /* spec->vocab_size: the CPU backend's output buffer */
  guint32 expert_count;      /* spec->expert_count */
  guint32 expert_used_count; /* spec->expert_used_count */
  guint32 embedding;         /* rt_embedding_of (spec) */
  guint32 heads;             /* rt_heads_of (spec) */
  guint64 projector_bytes;   /* spec->projector_bytes */
} SpecDims;

/* Thousands-separated counts without allocating: a ring of buffers. */
typedef struct {
  char buf[16][32];
  guint next;
} Counts;

typedef struct {
  const HrRuntimeInputs *in;
  const HrModelSpec     *spec;
  HrRuntimePrediction   *out;
  gboolean               text;
  gboolean               overflow;
  guint64                total;         /* the terms' bytes so far (rt_add_term()) */
  guint                  version_major, version_minor, version_patch;
  gboolean               have_version;
  gboolean               arch_gemma3;   /* looked up once: the per-layer loops ask */
  gboolean               arch_gptoss;
  const SpecDims        *dims;          /* the spec's figures a step reads: the cache's, or dims_local */
  gboolean               recurrent_only; /* hr_model_spec_recurrent_only (spec), looked up once */
  guint                  recurrent_layers; /* hr_model_spec_recurrent_layers (spec) */
  HrRuntimeSpecCache    *cache;         /* the inputs' cache when bytes-only, else NULL */
  /* rt_init_ctx() zeroes every field above, one by one (a new
   * field must be added there), and counts.next: the rest is written
   * before it is read. */
  SpecDims               dims_local;    /* dims without a cache */
  Counts                 counts;        /* its 512 bytes of digits */
} Ctx;

/* The model's weight figures (rt_figure_weights()). What a bytes-only
 * step on a GPU reads (exact to token_embd) comes first, packed. */
typedef struct {
  guint8   exact;        /* from the tensor list */
  guint8   tied;         /* no output tensor: the output shares token_embd */
  guint32  n_ff;         /* the feed-forward width; for a mixture of experts one expert's */
  guint64  all;          /* every tensor (estimate: the weights) */
  guint64  token_embd;
  guint32  n_ff_dense;   /* a mixture of experts' dense layers' width (0 = every layer is MoE) */
  guint32  n_ff_shexp;   /* its shared experts' width, all of them (0 = none) */
  guint64  output;       /* output group, 0 when tied */
  guint64  output_norm;
  guint64  blk_sum;      /* every blk.N group */
  guint64  blk0;         /* the blk.0 group */
  double   bits;         /* bits per weight used for estimates */
  const char *n_ff_from; /* "spec", "tensor", "parameters", "guess" */
} Figures;


typedef struct {
  guint64 reserve, buffer_layer, layers, output, kv, recurrent, graph;
  guint64 kv0;
  guint64 batch, context;
  const char *graph_arch;
} Old;

/* Ollama 0.30+: the KV layout llama.cpp makes for one prediction. */
typedef struct {
  guint64  slots;
  guint64  ubatch;
  gboolean unified;        /* one stream for every slot (llama-server's -np auto) */
  guint64  ctx_total;      /* n_ctx: num_ctx x slots (Ollama), -c (llama-server) */
  guint64  cells_seq;      /* cells of one stream: pad256(pad256(ctx_total) / slots), unified pad256(ctx_total) */
  guint64  cells;          /* every stream of a global layer: cells_seq x streams */
  guint64  cells_swa_seq;  /* one stream of a sliding-window layer, 0 = none */
  guint64  cells_swa;      /* cells_swa_seq x streams */
  guint    n_global, n_sliding, n_recurrent;
  guint32  kvh_global, kvh_sliding;
  gboolean mixed_heads;
  guint64  global_elements, sliding_elements;  /* KV heads x (key + value length), summed */
} Layout;

/* The per-layer sums of layout_0_30() that do not depend on the context:
 * the KV elements per token of each layer kind. */
typedef struct {
  guint    n_global, n_sliding, n_recurrent;
  guint32  kvh_global, kvh_sliding;
  guint8   mixed_heads;
  guint8   overflow;
  guint64  global_elements, sliding_elements;
} LayerSums;

/* What a context step (hr_runtime_predict_context_step(),
 * hr-runtime-step.c) reads besides the layer sums, the spec's figures and
 * the model's: what the last bytes-only prediction made with the cache
 * resolved (slots, batch, flash attention, KV type), and its total and
 * host bytes without the two terms the context changes, the KV cache and
 * the compute buffer. Written by rt_step_record() after each bytes-only
 * Ollama 0.30+ prediction without a draft; any other prediction made with
 * the cache clears it (attach_cache(), hr-runtime.c). */
typedef struct {
  guint8   valid;
  guint8   unified;           /* out->kv_unified */
  guint8   flash_attention;   /* effective */
  guint8   kv_type;           /* HrKvCacheType, effective */
  guint8   has_kv;            /* a KV cache term: not purely recurrent */
  guint32  per_den;           /* hr_kv_cache_element_bytes_scaled() of kv_type */
  guint32  per_num;
  guint32  slots;             /* out->parallel_slots */
  guint32  batch;             /* -b, the era's default when the inputs leave it 0 */
  guint32  ubatch;            /* -ub, likewise */
  guint64  fixed_total;       /* the total less the KV cache and compute buffer terms */
  guint64  host_bytes;
} StepRecord;

/* HrRuntimeSpecCache: keyed by the spec and the precision asked for
 * (hr_runtime_predict() empties it when either differs); each part has
 * its own validity, the layer sums also the flash-attention setting they
 * were made under (without it V is as wide as the widest layer's). What a
 * slider step reads comes first and is small (bytes, not gbooleans), so
 * that one row's step touches two or three cache lines of it: over a
 * catalog of many rows the memory traffic, not the arithmetic, is most of
 * the time. */
struct _HrRuntimeSpecCache {
  const HrModelSpec *spec;
  const HrPrecision *precision;
  HrModelSpec *exact;           /* owned, the shallow copy hr_runtime_exact_spec() makes; NULL
                                 * unless the spec has exact figures (kept apart: a step does
                                 * not read it, and the cache is smaller without it) */
  guint8    have_exact;         /* exact is set: hr_runtime_exact_spec() of spec, made once */
  guint8    have_arch;
  guint8    arch_gemma3, arch_gptoss;
  guint8    have_facts;         /* shape_ok, recurrent_only and recurrent_layers are set */
  guint8    shape_ok;           /* the spec passed check_shape() (hr-runtime.c) */
  guint8    recurrent_only;     /* hr_model_spec_recurrent_only() */
  guint8    have_figures;
  guint8    figures_overflow;
  gint8     sums_flash;         /* -1: none; else the flash attention they were made with */
  gint8     heads_block32;      /* -1: unknown; 1: every K and V head size divides 32 */
  guint8    have_dims;
  guint32   recurrent_layers;   /* hr_model_spec_recurrent_layers() */
  StepRecord step;
  SpecDims  dims;
  LayerSums sums;
  Figures   figures;
};

const char    *rt_count           (Counts            *c,
                                   guint64            value) G_GNUC_INTERNAL;
void           rt_note_text       (Ctx               *ctx,
                                   const char        *format,
                                   ...) G_GNUC_PRINTF (2, 3) G_GNUC_INTERNAL;
/* rt_note() formats a note only when the prediction keeps texts: its
 * arguments (gettext lookups, rt_count() digits) are not evaluated in the
 * bytes-only mode a slider step uses. */
#define rt_note(ctx, ...) G_STMT_START { if ((ctx)->text) rt_note_text ((ctx), __VA_ARGS__); } G_STMT_END
/* Checked arithmetic: an overflow marks the prediction (finish() then
 * fails it). Inline: the slider evaluates every row on every step, and the
 * constant pads (256 cells) become shifts. */
static inline guint64
rt_mul (Ctx     *ctx,
        guint64  a,
        guint64  b)
{
  guint64 r;

  if (!hr_mul_u64 (a, b, &r))
    {
      ctx->overflow = TRUE;
      return G_MAXUINT64;
    }
  return r;
}

static inline guint64
rt_add (Ctx     *ctx,
        guint64  a,
        guint64  b)
{
  guint64 r;

  if (!hr_add_u64 (a, b, &r))
    {
      ctx->overflow = TRUE;
      return G_MAXUINT64;
    }
  return r;
}

/* @value rounded up to a multiple of @to. */
static inline guint64
rt_pad_up (guint64 value,
           guint64 to)
{
  return (value + to - 1) / to * to;
}

/* @ctx before a prediction: every field zero but dims_local and the
 * counts' digits, which are written before they are read. Field by field:
 * a memset of the struct's head starts a string instruction that costs
 * more than these stores, on every slider step. */
static inline void
rt_init_ctx (Ctx *ctx)
{
  ctx->in = NULL;
  ctx->spec = NULL;
  ctx->out = NULL;
  ctx->text = FALSE;
  ctx->overflow = FALSE;
  ctx->total = 0;
  ctx->version_major = ctx->version_minor = ctx->version_patch = 0;
  ctx->have_version = FALSE;
  ctx->arch_gemma3 = ctx->arch_gptoss = FALSE;
  ctx->dims = NULL;
  ctx->recurrent_only = FALSE;
  ctx->recurrent_layers = 0;
  ctx->cache = NULL;
  ctx->counts.next = 0;
}

/* The cells of @l (layout_0_30(), hr-runtime-0-30.c; a context step,
 * hr-runtime-step.c) from its slots, unified flag and n_ctx (ctx_total),
 * the batch and micro-batch asked for and the sliding window (0 = none):
 * llama.cpp's n_batch = min(n_ctx, n_batch), n_ubatch = min(n_batch,
 * n_ubatch). */
static inline void
rt_layout_cells (Ctx     *ctx,
                 Layout  *l,
                 guint64  batch,
                 guint64  ubatch,
                 guint32  sliding_window)
{
  guint64 n_ctx;

  batch = MIN (batch, l->ctx_total);
  l->ubatch = MIN (ubatch, batch);
  /* src/llama-context.cpp: n_ctx = pad256(n_ctx); with kv_unified one
   * stream of n_ctx_seq = n_ctx cells that every slot shares, else (as
   * with Ollama's -np, or llama-server's -np N) one stream per slot of
   * n_ctx_seq = pad256(n_ctx / slots) cells (src/llama-kv-cache.cpp
   * n_stream). A sliding-window layer's stream holds
   * pad256(min(n_ctx_seq, window x (unified ? slots : 1) + ubatch))
   * cells (src/llama-kv-cache-iswa.cpp). A hybrid model's attention cache
   * is the same size: create_memory passes attn_n_pad 1 to
   * llama_memory_hybrid, but its kv_size is cparams.n_ctx_seq, which
   * llama_context already padded to 256, and llama_kv_cache::get_n_kv pads
   * the cells a graph sees to max(n_pad, 256) (src/llama-kv-cache.cpp). */
  n_ctx = rt_pad_up (l->ctx_total, KV_PAD_0_30);
  if (l->unified)
    {
      l->cells_seq = n_ctx;
      l->cells = n_ctx;
    }
  else
    {
      l->cells_seq = rt_pad_up (n_ctx / l->slots, KV_PAD_0_30);
      l->cells = rt_mul (ctx, l->cells_seq, l->slots);
    }
  if (sliding_window > 0)
    {
      guint64 window = l->unified ? rt_mul (ctx, sliding_window, l->slots) : sliding_window;

      l->cells_swa_seq = MIN (l->cells_seq, rt_pad_up (rt_add (ctx, window, l->ubatch), KV_PAD_0_30));
      l->cells_swa = l->unified ? l->cells_swa_seq : rt_mul (ctx, l->cells_swa_seq, l->slots);
    }
  else
    l->cells_swa_seq = l->cells_swa = 0;
}

/* @l's layers from the layer sums. */
static inline void
rt_layout_sums (Layout          *l,
                const LayerSums *sums)
{
  l->n_global = sums->n_global;
  l->n_sliding = sums->n_sliding;
  l->n_recurrent = sums->n_recurrent;
  l->kvh_global = sums->kvh_global;
  l->kvh_sliding = sums->kvh_sliding;
  l->mixed_heads = sums->mixed_heads;
  l->global_elements = sums->global_elements;
  l->sliding_elements = sums->sliding_elements;
}

/* The KV cache's bytes of @l: every global layer's elements per cell x its
 * cells, and the sliding layers' x theirs, x @per_num / @per_den bytes an
 * element (hr_kv_cache_element_bytes_scaled(): a quantized type's blocks
 * are not whole bytes an element). */
static inline guint64
rt_kv_bytes (Ctx          *ctx,
             const Layout *l,
             guint64       per_num,
             guint32       per_den)
{
  guint64 g = rt_mul (ctx, rt_mul (ctx, l->global_elements, l->cells), per_num);
  guint64 s = rt_mul (ctx, rt_mul (ctx, l->sliding_elements, l->cells_swa), per_num);

  /* Whole-byte types (f16) need no 64-bit division on every row. */
  if (per_den != 1)
    {
      g /= per_den;
      s /= per_den;
    }
  return rt_add (ctx, g, s);
}

extern const char * const rt_term_ids[HR_RUNTIME_N_TERM_KINDS] G_GNUC_INTERNAL;
void           rt_label_term      (Ctx               *ctx,
                                   HrRuntimeTerm     *term) G_GNUC_INTERNAL;

/* Appends a term of @bytes (only the learned term may be negative) citing
 * @source, labelled when the prediction keeps texts, its formula and note
 * empty for the caller to write; its bytes join the running total
 * (finish() in hr-runtime.c). Inline: every slider step adds three or
 * four. */
static inline HrRuntimeTerm *
rt_add_term (Ctx               *ctx,
             HrRuntimeTermKind  kind,
             gint64             bytes,
             const char        *source)
{
  HrRuntimeTerm *term = &ctx->out->terms[ctx->out->n_terms++];

  term->kind = kind;
  term->id = rt_term_ids[kind];
  term->label = NULL;
  term->bytes = bytes;
  term->source = source;
  term->formula[0] = '\0';
  term->note[0] = '\0';
  ctx->total = rt_add (ctx, ctx->total, (guint64) MAX (bytes, 0));
  if (ctx->text)
    rt_label_term (ctx, term);
  return term;
}
void           rt_append_note     (HrRuntimeTerm     *term,
                                   const char        *text) G_GNUC_INTERNAL;
guint          rt_version_key     (guint              major,
                                   guint              minor,
                                   guint              patch) G_GNUC_INTERNAL;
gboolean       rt_arch_is         (const HrModelSpec *spec,
                                   const char        *arch) G_GNUC_INTERNAL;
guint32        rt_heads_of        (const HrModelSpec *spec) G_GNUC_INTERNAL;
guint32        rt_embedding_of    (const HrModelSpec *spec) G_GNUC_INTERNAL;
void           rt_spec_dims       (const HrModelSpec *spec,
                                   SpecDims          *dims) G_GNUC_INTERNAL;
void           rt_figure_weights  (Ctx               *ctx,
                                   Figures           *f) G_GNUC_INTERNAL;
gboolean       rt_layer_sliding   (const HrModelSpec *spec,
                                   guint              i) G_GNUC_INTERNAL;
gboolean       rt_layers_uniform  (const HrModelSpec *spec) G_GNUC_INTERNAL;
guint32        rt_layer_key_length (const HrModelSpec *spec,
                                    guint              i) G_GNUC_INTERNAL;
guint32        rt_layer_value_length (const HrModelSpec *spec,
                                      guint              i) G_GNUC_INTERNAL;
gboolean       rt_layer_recurrent (const HrModelSpec *spec,
                                   guint              i) G_GNUC_INTERNAL;
guint64        rt_recurrent_values (Ctx              *ctx) G_GNUC_INTERNAL;
gboolean       rt_resolve_flash_attention (Ctx       *ctx,
                                           GError   **error) G_GNUC_INTERNAL;
gboolean       rt_resolve_llama_server (Ctx          *ctx,
                                        GError      **error) G_GNUC_INTERNAL;
void           rt_predict_0_30    (Ctx               *ctx,
                                   const Figures     *f) G_GNUC_INTERNAL;
void           rt_compute_0_30    (Ctx               *ctx,
                                   const Figures     *f,
                                   const Layout      *l) G_GNUC_INTERNAL;
void           rt_step_record     (Ctx               *ctx) G_GNUC_INTERNAL;
void           rt_compute_recurrent_cpu (Ctx         *ctx,
                                         const Figures *f,
                                         const Layout  *l) G_GNUC_INTERNAL;
guint64        rt_old_compute     (Ctx               *ctx,
                                   const Figures     *f,
                                   guint32            slots,
                                   Old               *o) G_GNUC_INTERNAL;
void           rt_predict_seed    (Ctx               *ctx) G_GNUC_INTERNAL;
gboolean       rt_add_draft       (Ctx               *ctx,
                                   GError           **error) G_GNUC_INTERNAL;
void           rt_predict_0_12    (Ctx               *ctx,
                                   const Figures     *f) G_GNUC_INTERNAL;

G_END_DECLS
