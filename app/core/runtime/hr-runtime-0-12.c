/* hr-runtime-0-12.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama up to 0.12.10: the old estimator (llm/memory.go
 * estimateGPULayers, fs/ggml/ggml.go GraphSize, ml/device.go
 * MinimumMemory), term by term.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime-private.h"
#include "hr-units.h"

#define SRC_012_RESERVE \
  "Ollama ml/device.go MinimumMemory (0.12; discover/gpu.go cudaMinimumMemory, rocmMinimumMemory and " \
  "metalMinimumMemory before): 457 MiB per CUDA or ROCm GPU, 512 MiB on Metal"
#define SRC_012_BUFFER \
  "Ollama llm/memory.go estimateGPULayers: \"add one layer worth of memory as a buffer\" (blk.0 and its KV)"
#define SRC_012_LAYERS \
  "Ollama llm/memory.go estimateGPULayers: the sum of the blk.N tensor groups (fs/ggml GroupLayers)"
#define SRC_012_OUTPUT \
  "Ollama llm/memory.go estimateGPULayers: output_norm + output, or token_embd when the model has no output tensor"
#define SRC_012_KV \
  "Ollama fs/ggml/ggml.go GraphSize: per layer num_ctx x slots x (key + value length) x KV heads x " \
  "bytes per element (kvCacheBytesPerElement: f16 2, q8_0 1, q4_0 0.5)"
#define SRC_012_RS \
  "Ollama fs/ggml/ggml.go GraphSize, recurrent layers: ((d_conv - 1) x (d_inner + 2 x n_group x d_state) " \
  "+ d_state x d_inner) x 4 bytes (f32)"
#define SRC_012_GRAPH \
  "Ollama fs/ggml/ggml.go GraphSize, the full-offload graph of the architecture (llm/memory.go: " \
  "GQA x KV / 6 when the architecture has no formula)"

/* ------------------------------------------------------------ era 0.12 */


static guint64
old_kv_layer (Ctx          *ctx,
              guint         i,
              guint64       context,
              guint64       slots,
              guint64       batch,
              HrKvCacheType type,
              gboolean     *out_recurrent)
{
  const HrModelSpec *spec = ctx->spec;
  guint32 kvh = hr_model_spec_layer_kv_heads (spec, i);
  guint64 dims = (guint64) spec->key_length + spec->value_length;
  guint64 cells = context;
  guint64 elements;

  *out_recurrent = FALSE;
  if (kvh == 0)
    {
      /* GraphSize takes a layer without KV heads as recurrent, f32. */
      *out_recurrent = TRUE;
      return rt_mul (ctx, rt_recurrent_values (ctx), 4);
    }
  if (ctx->arch_gemma3 && (i + 1) % 6 != 0)
    cells = rt_add (ctx, rt_mul (ctx, slots, spec->sliding_window), batch);
  else if (ctx->arch_gptoss)
    {
      /* GraphSize's gpt-oss case: even layers slots x 4096 + batch cells,
       * odd layers the full context. */
      if (i % 2 == 0)
        cells = rt_add (ctx, rt_mul (ctx, slots, 4096), batch);
    }
  elements = rt_mul (ctx, rt_mul (ctx, cells, dims), kvh);
  /* kvCacheBytesPerElement: f16 2, q8_0 1, q4_0 0.5. */
  switch (type)
    {
    case HR_KV_CACHE_Q8_0: return elements;
    case HR_KV_CACHE_Q4_0: return elements / 2;
    case HR_KV_CACHE_F16:
    default: return rt_mul (ctx, elements, 2);
    }
}

/* What fs/ggml/ggml.go GraphSize reads of the model, and where its
 * formula goes (formula NULL: bytes only). */
typedef struct {
  Ctx    *ctx;
  guint64 batch, context;
  guint64 emb, heads, vocab;
  guint64 emb_heads_k;              /* key length */
  guint64 heads_kv, heads_kv_min;   /* the most and the fewest KV heads of a layer (min at least 1) */
  char   *formula;
  gsize   formula_len;
} Graph;

#define F(g, ...) G_STMT_START { if ((g)->formula) g_snprintf ((g)->formula, (g)->formula_len, __VA_ARGS__); } G_STMT_END
#define N(g, v) rt_count (&(g)->ctx->counts, (v))

/* GraphSize's llama and llama4 case. */
static guint64
graph_llama (const Graph *g)
{
  Ctx *ctx = g->ctx;
  guint64 a = rt_mul (ctx, 4 * g->batch, rt_add (ctx, 1 + 4 * g->emb, rt_mul (ctx, g->context, 1 + g->heads)));
  guint64 b = rt_mul (ctx, 4 * g->batch, g->emb + g->vocab);
  guint64 graph = MAX (a, b);

  F (g, "max(4 x batch x (1 + 4 x embedding + context x (1 + heads)), 4 x batch x (embedding + vocab)) = "
     "max(4 x %s x (1 + 4 x %s + %s x (1 + %s)), 4 x %s x (%s + %s)) = %s bytes",
     N (g, g->batch), N (g, g->emb), N (g, g->context), N (g, g->heads),
     N (g, g->batch), N (g, g->emb), N (g, g->vocab), N (g, graph));
  return graph;
}

/* GraphSize's gemma, gemma2, gemma3 and gemma3n case (gemma3n x 4). */
static guint64
graph_gemma (const Graph *g)
{
  Ctx *ctx = g->ctx;
  gboolean gemma3n = rt_arch_is (ctx->spec, "gemma3n");
  guint64 a = rt_mul (ctx, 4 * g->batch, g->emb + g->vocab);
  guint64 b = rt_mul (ctx, 4 * g->batch, rt_add (ctx, rt_add (ctx, 2 + g->context, rt_mul (ctx, g->context, g->heads)),
                                                 2 * g->emb + 2 * g->emb_heads_k * g->heads));
  guint64 graph = MAX (a, b);

  if (gemma3n)
    graph = rt_mul (ctx, graph, 4);
  F (g, "max(4 x batch x (embedding + vocab), 4 x batch x (2 + context + context x heads + 2 x embedding + 2 x key length x heads))%s = "
     "max(4 x %s x (%s + %s), 4 x %s x (2 + %s + %s x %s + 2 x %s + 2 x %s x %s)) = %s bytes",
     gemma3n ? " x 4" : "",
     N (g, g->batch), N (g, g->emb), N (g, g->vocab), N (g, g->batch),
     N (g, g->context), N (g, g->context), N (g, g->heads), N (g, g->emb),
     N (g, g->emb_heads_k), N (g, g->heads), N (g, graph));
  return graph;
}

/* GraphSize's command-r case. */
static guint64
graph_command_r (const Graph *g)
{
  Ctx *ctx = g->ctx;
  guint64 a = rt_mul (ctx, 4 * g->batch, g->emb + g->vocab);
  guint64 b = rt_mul (ctx, 4 * g->batch, rt_add (ctx, 2 + 4 * g->emb, rt_mul (ctx, g->context, 1 + g->heads)));
  guint64 graph = MAX (a, b);

  F (g, "max(4 x batch x (embedding + vocab), 4 x batch x (2 + 4 x embedding + context x (1 + heads))) = "
     "max(4 x %s x (%s + %s), 4 x %s x (2 + 4 x %s + %s x (1 + %s))) = %s bytes",
     N (g, g->batch), N (g, g->emb), N (g, g->vocab), N (g, g->batch),
     N (g, g->emb), N (g, g->context), N (g, g->heads), N (g, graph));
  return graph;
}

/* GraphSize's qwen2 (@emb_units 2) and phi2 (@emb_units 4) cases. */
static guint64
graph_qwen2_phi2 (const Graph *g,
                  guint        emb_units)
{
  Ctx *ctx = g->ctx;
  guint64 a = rt_mul (ctx, 4 * g->batch, g->emb + g->vocab);
  guint64 b = rt_mul (ctx, 4 * g->batch, rt_add (ctx, 1 + emb_units * g->emb + g->context, rt_mul (ctx, g->context, g->heads)));
  guint64 graph = MAX (a, b);

  F (g, "max(4 x batch x (embedding + vocab), 4 x batch x (1 + %u x embedding + context + context x heads)) = "
     "max(4 x %s x (%s + %s), 4 x %s x (1 + %u x %s + %s + %s x %s)) = %s bytes",
     emb_units, N (g, g->batch), N (g, g->emb), N (g, g->vocab), N (g, g->batch),
     emb_units, N (g, g->emb), N (g, g->context), N (g, g->context), N (g, g->heads), N (g, graph));
  return graph;
}

/* GraphSize's stablelm case. */
static guint64
graph_stablelm (const Graph *g)
{
  guint64 graph = rt_mul (g->ctx, 4 * g->batch, rt_add (g->ctx, rt_mul (g->ctx, g->context, 1 + g->heads), 3 * g->emb + 2));

  F (g, "4 x batch x (context x (1 + heads) + 3 x embedding + 2) = 4 x %s x (%s x (1 + %s) + 3 x %s + 2) = %s bytes",
     N (g, g->batch), N (g, g->context), N (g, g->heads), N (g, g->emb), N (g, graph));
  return graph;
}

/* GraphSize's deepseek2 case. */
static guint64
graph_deepseek2 (const Graph *g)
{
  Ctx *ctx = g->ctx;
  guint64 a = rt_mul (ctx, 4 * g->batch, 3 * g->emb + g->vocab);
  guint64 b = rt_mul (ctx, 4 * g->batch, rt_add (ctx, 3 * g->emb + 2 + 2 * g->emb_heads_k * g->heads_kv,
                                                 rt_mul (ctx, g->context, 1 + g->heads_kv)));
  guint64 graph = MAX (a, b);

  F (g, "max(4 x batch x (3 x embedding + vocab), 4 x batch x (3 x embedding + 2 + context x (1 + KV heads) + 2 x key length x KV heads)) = "
     "max(4 x %s x (3 x %s + %s), 4 x %s x (3 x %s + 2 + %s x (1 + %s) + 2 x %s x %s)) = %s bytes",
     N (g, g->batch), N (g, g->emb), N (g, g->vocab), N (g, g->batch),
     N (g, g->emb), N (g, g->context), N (g, g->heads_kv), N (g, g->emb_heads_k),
     N (g, g->heads_kv), N (g, graph));
  return graph;
}

/* Any other architecture: llm/memory.go's graphPartialOffload = GQA x KV
 * total / 6, which the full graph falls back to; gpt-oss without flash
 * attention takes 2 x, with it (4 x slots + context / 1024 + 110) MiB. */
static guint64
graph_fallback (const Graph *g,
                const Old   *o)
{
  Ctx *ctx = g->ctx;
  guint64 gqa = g->heads / g->heads_kv_min;
  guint64 kv_total = rt_add (ctx, o->kv, o->recurrent);
  guint64 graph;

  if (!rt_arch_is (ctx->spec, "gptoss") && !rt_arch_is (ctx->spec, "gpt-oss"))
    {
      graph = rt_mul (ctx, gqa, kv_total) / 6;
      F (g, "GQA x KV / 6 = (%s / %s) x %s / 6 = %s bytes",
         N (g, g->heads), N (g, g->heads_kv_min), N (g, kv_total), N (g, graph));
    }
  else if (ctx->out->flash_attention)
    {
      graph = rt_mul (ctx, 4 * ctx->out->parallel_slots + (g->context >> 10) + 110, MIB);
      F (g, "(4 x slots + context / 1024 + 110) MiB = (4 x %u + %s / 1024 + 110) MiB = %s bytes",
         ctx->out->parallel_slots, N (g, g->context), N (g, graph));
    }
  else
    {
      graph = rt_mul (ctx, 2 * gqa, kv_total) / 6;
      F (g, "2 x GQA x KV / 6 = 2 x %s x %s / 6 = %s bytes", N (g, gqa), N (g, kv_total), N (g, graph));
    }
  return graph;
}

#undef N
#undef F

/* The old estimator's full-offload graph (fs/ggml/ggml.go GraphSize) for
 * the model's architecture, into @out_graph, with its formula when
 * @formula is not NULL; o->graph_arch names the architecture whose case
 * it took (NULL: the GQA fallback). */
static void
old_graph (Ctx     *ctx,
           Old     *o,
           guint64 *out_graph,
           char    *formula,
           gsize    formula_len)
{
  const HrModelSpec *spec = ctx->spec;
  Graph g = {
    .ctx = ctx, .batch = o->batch, .context = o->context,
    .emb = rt_embedding_of (spec), .heads = rt_heads_of (spec), .vocab = spec->vocab_size,
    .emb_heads_k = spec->key_length, .heads_kv = 0, .heads_kv_min = G_MAXUINT64,
    .formula = formula, .formula_len = formula_len,
  };

  for (guint i = 0; i < spec->layers; i++)
    {
      guint64 kvh = hr_model_spec_layer_kv_heads (spec, i);
      g.heads_kv = MAX (g.heads_kv, kvh);
      g.heads_kv_min = MIN (g.heads_kv_min, kvh);
    }
  if (g.heads_kv_min == 0 || g.heads_kv_min == G_MAXUINT64)
    g.heads_kv_min = 1;

  o->graph_arch = spec->architecture;
  if (rt_arch_is (spec, "llama") || rt_arch_is (spec, "llama4"))
    *out_graph = graph_llama (&g);
  else if (rt_arch_is (spec, "gemma") || rt_arch_is (spec, "gemma2") || rt_arch_is (spec, "gemma3") || rt_arch_is (spec, "gemma3n"))
    *out_graph = graph_gemma (&g);
  else if (rt_arch_is (spec, "command-r"))
    *out_graph = graph_command_r (&g);
  else if (rt_arch_is (spec, "qwen2"))
    *out_graph = graph_qwen2_phi2 (&g, 2);
  else if (rt_arch_is (spec, "phi2"))
    *out_graph = graph_qwen2_phi2 (&g, 4);
  else if (rt_arch_is (spec, "stablelm"))
    *out_graph = graph_stablelm (&g);
  else if (rt_arch_is (spec, "deepseek2"))
    *out_graph = graph_deepseek2 (&g);
  else
    {
      *out_graph = graph_fallback (&g, o);
      o->graph_arch = NULL;
    }
}

guint64
rt_old_compute (Ctx           *ctx,
             const Figures *f,
             guint32        slots,
             Old           *o)
{
  const HrModelSpec *spec = ctx->spec;
  HrKvCacheType type = ctx->out->kv_type;
  guint64 num_batch = ctx->in->batch > 0 ? ctx->in->batch : 512;
  guint64 total = 0;
  gboolean recurrent;

  memset (o, 0, sizeof *o);
  o->context = rt_mul (ctx, ctx->out->context_tokens, slots);
  /* GraphSize(num_ctx, min(num_ctx, num_batch), ...) */
  o->batch = MIN ((guint64) ctx->out->context_tokens, num_batch);
  o->reserve = ctx->in->backend == HR_RUNTIME_BACKEND_METAL ? 512 * MIB : 457 * MIB;

  for (guint i = 0; i < spec->layers; i++)
    {
      guint64 kv = old_kv_layer (ctx, i, o->context, slots, o->batch, type, &recurrent);

      if (i == 0)
        o->kv0 = kv;
      if (recurrent)
        o->recurrent = rt_add (ctx, o->recurrent, kv);
      else
        o->kv = rt_add (ctx, o->kv, kv);
    }
  o->buffer_layer = rt_add (ctx, f->blk0, o->kv0);
  o->layers = f->blk_sum;
  o->output = rt_add (ctx, f->output_norm, f->tied ? f->token_embd : f->output);
  old_graph (ctx, o, &o->graph, NULL, 0);

  total = rt_add (ctx, total, o->reserve);
  total = rt_add (ctx, total, o->buffer_layer);
  total = rt_add (ctx, total, o->layers);
  total = rt_add (ctx, total, o->output);
  total = rt_add (ctx, total, o->kv);
  total = rt_add (ctx, total, o->recurrent);
  total = rt_add (ctx, total, o->graph);
  return total;
}

/* The old estimator's fixed terms: the per-GPU reserve, the extra layer
 * kept as a buffer, the repeating layers and the output layer
 * (llm/memory.go estimateGPULayers). */
static void
old_weight_terms (Ctx           *ctx,
                  const Figures *f,
                  const Old     *o)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimeTerm *term;

  term = rt_add_term (ctx, HR_RUNTIME_TERM_RESERVE, (gint64) o->reserve, SRC_012_RESERVE);
  if (ctx->text)
    {
      g_snprintf (term->formula, sizeof term->formula,
                  ctx->in->backend == HR_RUNTIME_BACKEND_METAL ? _("512 MiB = %s bytes (Metal)") : _("457 MiB = %s bytes (CUDA or ROCm)"),
                  rt_count (&ctx->counts, o->reserve));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("Set aside on every GPU the model uses for the CUDA context and other structures; OLLAMA_GPU_OVERHEAD is only checked against free memory, not added."));
    }

  term = rt_add_term (ctx, HR_RUNTIME_TERM_BUFFER_LAYER, (gint64) o->buffer_layer, SRC_012_BUFFER);
  if (ctx->text)
    g_snprintf (term->formula, sizeof term->formula, _("blk.0 + its KV = %s + %s = %s bytes"),
                rt_count (&ctx->counts, f->blk0), rt_count (&ctx->counts, o->kv0), rt_count (&ctx->counts, o->buffer_layer));

  term = rt_add_term (ctx, HR_RUNTIME_TERM_WEIGHTS, (gint64) o->layers, SRC_012_LAYERS);
  if (ctx->text)
    {
      g_snprintf (term->formula, sizeof term->formula, _("%u repeating layers (blk.0 .. blk.%u) = %s bytes"),
                  spec->layers, spec->layers - 1, rt_count (&ctx->counts, o->layers));
      g_snprintf (term->note, sizeof term->note, "%s",
                  f->exact ? _("The old estimator leaves token_embd out when the model has an output tensor, and other tensors (rope_freqs) too.")
                           : _("Without a tensor list: the weights less the embedding estimates."));
    }

  term = rt_add_term (ctx, HR_RUNTIME_TERM_OUTPUT, (gint64) o->output, SRC_012_OUTPUT);
  if (ctx->text)
    g_snprintf (term->formula, sizeof term->formula,
                f->tied ? _("output_norm + token_embd (tied, no output tensor) = %s + %s = %s bytes")
                        : _("output_norm + output = %s + %s = %s bytes"),
                rt_count (&ctx->counts, f->output_norm), rt_count (&ctx->counts, f->tied ? f->token_embd : f->output),
                rt_count (&ctx->counts, o->output));
}

/* The terms that grow with the context and slots: the KV cache as the
 * old estimator counted it (whole bytes per element) and any recurrent
 * state. */
static void
old_kv_terms (Ctx       *ctx,
              const Old *o)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  HrRuntimeTerm *term;

  term = rt_add_term (ctx, HR_RUNTIME_TERM_KV_CACHE, (gint64) o->kv, SRC_012_KV);
  if (ctx->text)
    {
      const char *elem = out->kv_type == HR_KV_CACHE_Q8_0 ? "1" : out->kv_type == HR_KV_CACHE_Q4_0 ? "0.5" : "2";

      g_snprintf (term->formula, sizeof term->formula,
                  g_dngettext (GETTEXT_PACKAGE, "%u layers x %u KV heads x (%u + %u) x %s x %s slot x %s bytes = %s bytes",
                               "%u layers x %u KV heads x (%u + %u) x %s x %s slots x %s bytes = %s bytes",
                               out->parallel_slots),
                  spec->layers, spec->kv_heads, spec->key_length, spec->value_length,
                  rt_count (&ctx->counts, out->context_tokens), rt_count (&ctx->counts, out->parallel_slots), elem,
                  rt_count (&ctx->counts, o->kv));
      if (out->kv_type != HR_KV_CACHE_F16)
        g_snprintf (term->note, sizeof term->note, "%s",
                    _("The old estimator counted q8_0 as 1 byte and q4_0 as half a byte per element; the real blocks are 34/32 and 18/32."));
      else if (rt_arch_is (spec, "gemma3"))
        g_snprintf (term->note, sizeof term->note, "%s",
                    _("gemma3: five of every six layers hold slots x window + batch cells."));
      else if (spec->sliding_window > 0)
        g_snprintf (term->note, sizeof term->note, "%s",
                    _("The old estimator gives every layer the full context; it did not model this model's sliding window."));
    }

  if (o->recurrent > 0)
    {
      term = rt_add_term (ctx, HR_RUNTIME_TERM_RECURRENT_STATE, (gint64) o->recurrent, SRC_012_RS);
      if (ctx->text)
        g_snprintf (term->formula, sizeof term->formula, _("recurrent layers x %s values x 4 bytes = %s bytes"),
                    rt_count (&ctx->counts, rt_recurrent_values (ctx)), rt_count (&ctx->counts, o->recurrent));
    }
}

/* The compute graph's term (fs/ggml/ggml.go GraphSize, old_graph()),
 * its formula worked out again with the texts. */
static void
old_graph_term (Ctx *ctx,
                Old *o)
{
  HrRuntimeTerm *term;

  term = rt_add_term (ctx, HR_RUNTIME_TERM_COMPUTE, (gint64) o->graph, SRC_012_GRAPH);
  if (ctx->text)
    {
      guint64 graph;
      old_graph (ctx, o, &graph, term->formula, sizeof term->formula);
      g_snprintf (term->note, sizeof term->note, _("batch = min(num_ctx, num_batch) = %s; context = num_ctx x slots = %s.%s"),
                  rt_count (&ctx->counts, o->batch), rt_count (&ctx->counts, o->context),
                  o->graph_arch == NULL ? _(" No formula for this architecture: the default.") : "");
    }
}

/* Ollama up to 0.12.10's estimate (llm/memory.go, rt_old_compute()), term
 * by term. */
void
rt_predict_0_12 (Ctx           *ctx,
              const Figures *f)
{
  HrRuntimePrediction *out = ctx->out;
  Old o;

  rt_old_compute (ctx, f, out->parallel_slots, &o);
  out->kv_cells = (guint32) MIN (o.context, G_MAXUINT32);
  out->ubatch = (guint32) o.batch;
  out->host_bytes = 0;
  old_weight_terms (ctx, f, &o);
  old_kv_terms (ctx, &o);
  old_graph_term (ctx, &o);
}

