/* hr-runtime-compute.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama 0.30+: llama.cpp's compute buffer. llama-context.cpp
 * graph_reserve builds the worst-case graph (ubatch tokens against one
 * slot's stream of the KV cache: with Ollama's -np the cache is not
 * unified, so the graph does not grow with slots) and ggml-alloc lays it
 * out with reuse (llama-server's -np auto: one unified stream, so the graph
 * spans every cell); the logged size is the peak of the tensors alive at
 * once. The graph inputs live through the whole graph: the attention mask
 * (llama-graph.cpp build_attn_inp_kq_mask: cells x ubatch, f16 with flash
 * attention, f32 without; one per kind of layer, global and
 * sliding-window). The rest is the peak of two phases: attention (without
 * flash attention the scores, cells x ubatch x heads x 4 bytes, dominate)
 * and the feed-forward block.
 *
 * Two models: the CPU backend's, fitted to the buffers a real llama-server
 * logs (tests/llama/test-llama.c: fifteen model shapes, contexts 512 to
 * 65,536, 1 to 4 slots, f16 / q8_0 / q4_0; the widest kind of layer of a
 * mixture of experts with dense layers, and per architecture the tensors
 * its graph keeps beside the widths, cpu_graph_shape()); and the GPU one
 * (CUDA, Metal), checked against the allocator figures in docs/seed-figures.md,
 * "Compute buffer reference figures".
 * Three CPU terms are traced rather than fitted: ggml/src/ggml-alloc.c's
 * allocation log (its AT_PRINTF) was read tensor by tensor for multi-head
 * latent attention without flash attention (mla_v_cont_extra()), for
 * cohere2's rope-less global layers and for gemma2/gemma3's feed-forward
 * phase without flash attention.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-runtime-private.h"

#define SRC_030_COMPUTE \
  "Headroom's estimate of llama.cpp src/llama-context.cpp graph_reserve (the worst-case graph, ubatch " \
  "tokens against the full KV cache, allocated by ggml-alloc with reuse: the peak of tensors alive at once), " \
  "after docs/memory-model.md \"Compute buffer\"; checked against docs/seed-figures.md's 66 / 228 MiB " \
  "(llama3.2:3b, 4096), 112 / 300 MiB (Llama-3.1-8B, 4096) and 137 / 353 MiB (phi-4, 4096), flash attention on / off"
#define SRC_030_COMPUTE_CPU \
  "Headroom's model of llama.cpp src/llama-context.cpp graph_reserve on the CPU backend (ggml-alloc's peak of " \
  "the worst-case graph; the mask from src/llama-graph.cpp build_attn_inp_kq_mask), fitted to the compute " \
  "buffers llama-server (llama.cpp de3ff815, node-llama-cpp 3.22.1) logs for llama3.2:3b, qwen2.5:0.5b, " \
  "gemma2:2b, gemma3:1b and qwen3:30b-a3b shapes (tests/llama/llama-models.h) and for Qwen3-8B, Phi-3-mini, " \
  "Ministral-3-8B, Command R7B, EXAONE-4.0-32B, Llama-4-Maverick, gpt-oss-20b, DeepSeek-V2-Lite, GLM-4.5-Air " \
  "and Gemma 4 31B layer shapes (tests/llama/llama-models-attn.h); the per-architecture counts are " \
  "cpu_graph_shape()'s; MLA's latent V copy without flash attention (src/llama-graph.cpp build_attn_mha) " \
  "traced with ggml/src/ggml-alloc.c's allocation log"

/* The GPU backends' estimate (CUDA, Metal). */
static void
compute_gpu (Ctx           *ctx,
             const Figures *f,
             const Layout  *l)
{
  const SpecDims *dims = ctx->dims;
  HrRuntimePrediction *out = ctx->out;
  guint64 ubatch = l->ubatch;
  guint64 emb = dims->embedding;
  guint64 heads = dims->heads;
  guint64 n_ff = f->n_ff;
  guint64 compute, ffn, mask, scores = 0;
  guint64 cells = l->n_global > 0 ? l->cells_seq : l->n_sliding > 0 ? l->cells_swa_seq : 0;
  HrRuntimeTerm *term;

  if (dims->expert_count > 1 && dims->expert_used_count > 0)
    n_ff = rt_mul (ctx, n_ff, dims->expert_used_count);
  if (out->flash_attention)
    {
      ffn = rt_mul (ctx, rt_mul (ctx, 4, ubatch), rt_add (ctx, rt_mul (ctx, 3, n_ff), emb));
      mask = rt_mul (ctx, rt_mul (ctx, cells, ubatch), 4 + 2);
      compute = rt_add (ctx, ffn, mask);
    }
  else
    {
      scores = rt_mul (ctx, rt_mul (ctx, rt_mul (ctx, cells, ubatch), heads), 4);
      mask = rt_mul (ctx, rt_mul (ctx, cells, ubatch), 4);
      ffn = rt_mul (ctx, rt_mul (ctx, 4, ubatch), rt_add (ctx, n_ff, emb));
      compute = rt_add (ctx, rt_add (ctx, scores, mask), ffn);
    }
  term = rt_add_term (ctx, HR_RUNTIME_TERM_COMPUTE, (gint64) MIN (compute, (guint64) G_MAXINT64), SRC_030_COMPUTE);
  if (!ctx->text)
    return;
  if (out->flash_attention)
    {
      g_snprintf (term->formula, sizeof term->formula,
                  _("ubatch x 4 x (3 x n_ff + embedding) + cells x ubatch x (4 + 2) = %s x 4 x (3 x %s + %s) + %s x %s x 6 = %s bytes"),
                  rt_count (&ctx->counts, ubatch), rt_count (&ctx->counts, n_ff), rt_count (&ctx->counts, emb),
                  rt_count (&ctx->counts, cells), rt_count (&ctx->counts, ubatch), rt_count (&ctx->counts, compute));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("With flash attention the feed-forward intermediates (gate, up and their product, f32) and the attention mask (f32 and an f16 copy) are the peak; llama-server reserves one output per slot, so no vocab x ubatch logits."));
    }
  else
    {
      g_snprintf (term->formula, sizeof term->formula,
                  _("cells x ubatch x heads x 4 + cells x ubatch x 4 + ubatch x 4 x (n_ff + embedding) = %s x %s x %s x 4 + %s x %s x 4 + %s x 4 x (%s + %s) = %s bytes"),
                  rt_count (&ctx->counts, cells), rt_count (&ctx->counts, ubatch), rt_count (&ctx->counts, heads),
                  rt_count (&ctx->counts, cells), rt_count (&ctx->counts, ubatch),
                  rt_count (&ctx->counts, ubatch), rt_count (&ctx->counts, n_ff), rt_count (&ctx->counts, emb),
                  rt_count (&ctx->counts, compute));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("Without flash attention the attention scores (cells x ubatch x heads, f32) dominate and grow with the context."));
    }
}

/* What the CPU backend's peak holds beside the feed-forward width and the
 * attention tensors, per architecture, in tensors of one value per token
 * (units of ubatch x 4 bytes). These counts are fitted, an estimate: they
 * reproduce the compute buffers llama-server (llama.cpp de3ff815) logs for
 * the shapes of tests/llama/llama-models*.h at every context, slot count
 * and cache type of the suite, but they count whole tensors of ggml-alloc's
 * peak, whose layout (reuse, fragmentation) was not traced tensor by
 * tensor; each row names what in the architecture's graph
 * (src/models/<arch>.cpp) most likely makes its difference:
 *  - ffn_emb / ffn_emb_quant: embedding-wide tensors alive with the
 *    feed-forward phase with flash attention, f16 / quantized cache;
 *  - attn_emb, attn_kv: embedding- and KV-wide ones in the attention phase
 *    without flash attention (beside 2 x query width and the scores);
 *  - moe_emb: for the MoE layers, embedding-wide ones beside
 *    3 x n_ff x used + embedding x used (the chosen experts' gate, up, their
 *    product and down projections, src/llama-graph.cpp build_moe_ffn). */
typedef struct {
  const char *arch;
  guint ffn_emb, ffn_emb_quant;
  guint attn_emb, attn_kv;
  guint moe_emb;
  gboolean moe_query;   /* the MoE phase holds a query-wide tensor instead of
                         * embedding x used (gpt-oss) */
  gboolean ffn_query;   /* the dense feed-forward phase holds a sliding layer's
                         * query-wide tensor beside ffn_emb x embedding (gemma4) */
  gboolean nope_global; /* the global layers' query has no rope: one query-wide
                         * tensor fewer in their attention phase (cohere2) */
  gboolean ffn_attn_hole; /* without flash attention the feed-forward phase sits
                           * above the attention output's hole and holds every
                           * cache's V-index input (gemma2, gemma3) */
} CpuGraphShape;

static const CpuGraphShape cpu_default_shape = { NULL, 4, 3, 3, 2, 5, FALSE, FALSE };

/* The CPU backend's per-architecture graph shape (see CpuGraphShape). */
static const CpuGraphShape *
cpu_graph_shape (const HrModelSpec *spec)
{
  static const CpuGraphShape shapes[] = {
    /* The sandwich norms and the two caches of a sliding-window model.
     * Without flash attention, traced with ggml-alloc's AT_PRINTF
     * (ggml/src/ggml-alloc.c) on gemma2-2b at 2,048 x 4: the residual
     * (src/models/gemma2.cpp's attention output after its post-norm) is
     * placed above kqv and kqv_out (src/llama-graph.cpp build_attn_mha and
     * build_attn's wo: two query-wide tensors, freed), so the feed-forward
     * block sits on that hole, beside the V-index input of each cache
     * (src/llama-kv-cache.cpp build_input_v_idxs, one per cache of
     * llama_kv_cache_iswa): +12.00 MiB there, +5.00 measured on gemma3-1b. */
    { "gemma2", 4, 5, 3, 4, 5, FALSE, FALSE, FALSE, TRUE },
    { "gemma3", 4, 5, 3, 4, 5, FALSE, FALSE, FALSE, TRUE },
    /* Attention and feed-forward in parallel from one norm (cohere2.cpp):
     * the attention output lives through the feed-forward block; no rope
     * on the global layers. */
    { "cohere2", 5, 5, 3, 4, 5, FALSE, FALSE, TRUE },
    /* Norms after attention and feed-forward only (exaone4.cpp: no
     * attn_norm): one embedding-wide tensor less in attention. */
    { "exaone4", 4, 4, 2, 4, 5, FALSE, FALSE },
    /* Fused attn_qkv and ffn_up (phi3.cpp): q, k and v, gate and up are
     * views of one output. */
    { "phi3", 3, 3, 1, 2, 5, FALSE, FALSE },
    /* Chunked attention: two caches, as a sliding-window model. */
    { "llama4", 4, 3, 3, 4, 5, FALSE, FALSE },
    /* Sliding window, sinks and biased experts (openai-moe.cpp,
     * LLM_FFN_SWIGLU_OAI_MOE with add_id biases). */
    { "gpt-oss", 4, 4, 3, 4, 3, TRUE, FALSE },
    { "gptoss", 4, 4, 3, 4, 3, TRUE, FALSE },
    /* Multi-head latent attention (deepseek2.cpp): the absorbed query and
     * the latent output are two more embedding-wide tensors (measured on
     * DeepSeek-V2-Lite, where heads x value_length_mla = embedding); its
     * MoE phase holds one fewer. Without flash attention the latent V's
     * contiguous copy is added by mla_v_cont_extra(). */
    { "deepseek2", 4, 3, 5, 2, 4, FALSE, FALSE },
    /* 96 heads over a 4096 embedding (GLM-4.5-Air): one more
     * embedding-wide tensor in attention. */
    { "glm4moe", 4, 4, 4, 2, 5, FALSE, FALSE },
    /* Sliding layers of 256-wide heads, global ones of 512 (gemma4.cpp):
     * the feed-forward phase holds a sliding layer's query (heads x
     * key_length_swa) beside three embedding-wide tensors (measured on
     * Gemma 4 31B's layers; a quantized cache adds about 1.3 MiB more). */
    { "gemma4", 3, 3, 3, 2, 5, FALSE, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (rt_arch_is (spec, shapes[i].arch))
      return &shapes[i];
  return &cpu_default_shape;
}

/* The widest blk.N.<suffix> ne[1] of the tensor list (0 = none). */
static guint64
widest_tensor_rows (const HrModelSpec *spec,
                    const char        *suffix)
{
  gsize s = strlen (suffix);
  guint64 widest = 0;

  for (guint i = 0; spec->tensors != NULL && i < spec->tensors->len; i++)
    {
      const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);
      gsize n = strlen (t->name);

      if (t->n_dims >= 2 && g_str_has_prefix (t->name, "blk.") && n > s && strcmp (t->name + n - s, suffix) == 0)
        widest = MAX (widest, t->dims[1]);
    }
  return widest;
}

/* Multi-head latent attention without flash attention: what the copy of
 * the latent V adds to the attention phase's peak, in bytes.
 *
 * src/llama-graph.cpp build_attn (the llm_graph_input_attn_k overload that
 * src/models/deepseek2.cpp calls for MLA) makes V a view of the K cache
 * (the first kv_lora_rank values of each cell, not transposed), so
 * build_attn_mha's non-flash branch copies it, ggml_cont(ggml_transpose(v))
 * ("v_cont"): kv_lora_rank x cells x streams in the cache's type (f16, the
 * only V type llama.cpp allows without flash attention). The worst-case
 * graph (src/llama-context.cpp sched_reserve, init_full: every cell of
 * every stream, src/llama-kv-cache.cpp llama_kv_cache_context) sees all
 * streams, so the copy grows with num_ctx x slots, where the scores
 * (cells of one stream x ubatch x heads) do not.
 *
 * ggml-alloc (ggml/src/ggml-alloc.c ggml_dyn_tallocr_alloc: best fit among
 * the free blocks, else the end) allocates v_cont after the query (Qcur)
 * and before the scores (kq), which take the end: the copy costs nothing
 * while it fits the hole the layer's earlier tensors left below Qcur, and
 * its whole size once it does not. Traced with ggml-alloc's AT_PRINTF on
 * DeepSeek-V2-Lite's layers:
 *  - the first layer's hole is its attn_norm (embedding), q (heads x
 *    key_length_mla), q_nope_absorbed (heads x kv_lora_rank) and q_pe
 *    (heads x rope), freed before v_cont (deepseek2.cpp's MLA branch);
 *  - after a MoE layer the hole is that layer's ffn_inp and ffn_norm (two
 *    embeddings), its experts' down output (embedding x used) and the
 *    router's logits, argsort (experts each) and weights (used)
 *    (src/llama-graph.cpp build_moe_ffn); that hole is larger by
 *    hole_moe - hole_first, and so is the MoE layer's Qcur offset, which
 *    is what compute_cpu()'s attention phase already counts.
 * So the peak is the larger of the MoE layer's (+ v_cont when it does not
 * fit hole_moe) and the first layer's (hole_moe - hole_first lower, +
 * v_cont when it does not fit hole_first). A dense model's layers are all
 * the first layer's kind here. */
static guint64
mla_v_cont_extra (Ctx               *ctx,
                  const Layout      *l,
                  gboolean           moe,
                  guint64            emb,
                  guint64            heads)
{
  const HrModelSpec *spec = ctx->spec;
  guint64 u = rt_mul (ctx, l->ubatch, 4);
  guint64 rank = spec->value_length;          /* kv_lora_rank: the latent V */
  guint64 rope = spec->key_length > spec->value_length ? spec->key_length - spec->value_length : 0;
  guint64 q_rows = widest_tensor_rows (spec, ".attn_q.weight");
  guint64 q_lora = widest_tensor_rows (spec, ".attn_q_a.weight");
  guint64 v_cont, hole_first, hole_moe, first = 0, later = 0;

  if (q_rows == 0)
    q_rows = widest_tensor_rows (spec, ".attn_q_b.weight");
  /* Without a tensor list (keys only) key_length_mla is not in the spec:
   * an estimate, DeepSeek-V2/V3's qk_nope_head_dim 128 + the rope dims. */
  if (q_rows == 0)
    q_rows = rt_mul (ctx, heads, 128 + rope);
  /* v_cont: kv_lora_rank x the cells of every stream x 2 bytes (f16). */
  v_cont = rt_mul (ctx, rt_mul (ctx, rank, l->cells), 2);
  /* The first layer's hole: attn_norm, q (heads x key_length_mla, the rows
   * of attn_q or attn_q_b), q_nope_absorbed and q_pe. With a query LoRA
   * (attn_q_a, not in DeepSeek-V2-Lite) its q_lora_rank-wide output is
   * counted there too: an estimate, not traced. */
  hole_first = rt_mul (ctx, u, rt_add (ctx, rt_add (ctx, emb, q_rows), rt_add (ctx, rt_mul (ctx, heads, rank),
                                                                             rt_add (ctx, rt_mul (ctx, heads, rope), q_lora))));
  hole_moe = hole_first;
  if (moe)
    hole_moe = rt_add (ctx, rt_mul (ctx, u, rt_mul (ctx, emb, 2 + spec->expert_used_count)),
                       rt_mul (ctx, rt_mul (ctx, l->ubatch, 4), 2 * (guint64) spec->expert_count + spec->expert_used_count));
  if (v_cont > hole_moe)
    later = v_cont;
  if (v_cont > hole_first)
    first = hole_moe >= hole_first ? (v_cont > hole_moe - hole_first ? v_cont - (hole_moe - hole_first) : 0)
                                   : rt_add (ctx, v_cont, hole_first - hole_moe);
  return MAX (first, later);
}

/* What compute_cpu() works with: the widths of one layer, in f32 values
 * per token, and the parts of its peak in bytes. */
typedef struct {
  const CpuGraphShape *shape;
  guint64  u;          /* ubatch x 4: one f32 value per token */
  guint64  emb, heads;
  guint64  q, kv;      /* query width (heads x key length), KV width */
  gboolean moe;
  guint64  width;      /* the feed-forward width with its embedding-wide company */
  guint64  ffn_off;    /* the feed-forward phase without flash attention */
  guint64  mla_extra;  /* multi-head latent attention's V copy (mla_v_cont_extra()) */
} CpuWidths;

/* The feed-forward widths of the widest kind of layer: a dense one's
 * (3 x n_ff, with gemma4's sliding query) and a MoE one's (3 x n_ff x used
 * + embedding x used, gpt-oss a query), each with its embedding-wide
 * company: ffn_emb (quantized cache: ffn_emb_quant) or moe_emb x
 * embedding in width, 3 (MoE: moe_emb - 1) x embedding in ffn_off. A
 * mixture of experts may have dense layers too (Figures.n_ff_dense). */
static void
cpu_ffn_widths (Ctx           *ctx,
                const Figures *f,
                CpuWidths     *w)
{
  const HrModelSpec *spec = ctx->spec;
  const CpuGraphShape *shape = w->shape;
  guint ffn_emb = ctx->out->kv_type != HR_KV_CACHE_F16 ? shape->ffn_emb_quant : shape->ffn_emb;
  guint64 dense_w = 0, moe_w = 0;

  if (w->moe)
    {
      moe_w = rt_add (ctx, rt_mul (ctx, rt_mul (ctx, 3, f->n_ff), spec->expert_used_count),
                      shape->moe_query ? w->q : rt_mul (ctx, w->emb, spec->expert_used_count));
      dense_w = rt_mul (ctx, 3, f->n_ff_dense);
    }
  else
    dense_w = rt_mul (ctx, 3, f->n_ff);
  if (dense_w > 0 && shape->ffn_query)
    dense_w = rt_add (ctx, dense_w, rt_mul (ctx, w->heads, spec->key_length_swa > 0 ? spec->key_length_swa : spec->key_length));
  if (dense_w > 0)
    {
      w->width = rt_add (ctx, dense_w, rt_mul (ctx, ffn_emb, w->emb));
      w->ffn_off = rt_add (ctx, dense_w, rt_mul (ctx, 3, w->emb));
    }
  if (w->moe)
    {
      w->width = MAX (w->width, rt_add (ctx, moe_w, rt_mul (ctx, shape->moe_emb, w->emb)));
      w->ffn_off = MAX (w->ffn_off, rt_add (ctx, moe_w, rt_mul (ctx, shape->moe_emb - 1, w->emb)));
    }
}

/* One attention phase without flash attention: attn_emb x embedding +
 * @q_units x query width + attn_kv x KV width per token, and the scores of
 * @cells, in bytes. */
static guint64
cpu_attention_bytes (Ctx             *ctx,
                     const CpuWidths *w,
                     const Layout    *l,
                     guint64          q_units,
                     guint64          cells)
{
  return rt_add (ctx, rt_mul (ctx, w->u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, w->shape->attn_emb, w->emb), rt_mul (ctx, q_units, w->q)),
                                                 rt_mul (ctx, w->shape->attn_kv, w->kv))),
                 rt_mul (ctx, rt_mul (ctx, rt_mul (ctx, cells, l->ubatch), w->heads), 4));
}

/* Without flash attention: the larger of the attention phase (over the
 * widest layer's cells) and the feed-forward phase (ffn_off + 2 x KV
 * width; gemma2/gemma3's sits on the attention output's hole, with every
 * cache's V-index input), in bytes; width becomes ffn_off, the one the
 * formula shows. */
static guint64
cpu_unflashed_peak (Ctx          *ctx,
                    const Layout *l,
                    CpuWidths    *w)
{
  const CpuGraphShape *shape = w->shape;
  guint64 score_cells = l->n_global > 0 ? l->cells_seq : l->cells_swa_seq;
  guint64 attn = cpu_attention_bytes (ctx, w, l, 2, score_cells);
  guint64 ffn = rt_mul (ctx, w->u, rt_add (ctx, w->ffn_off, rt_mul (ctx, 2, w->kv)));

  if (shape->ffn_attn_hole)
    ffn = rt_mul (ctx, w->u, rt_add (ctx, rt_add (ctx, w->ffn_off, rt_mul (ctx, 2, w->q)), rt_mul (ctx, shape->attn_kv, w->kv)));

  /* cohere2's global layers have no rope (src/models/cohere2.cpp:
   * ggml_rope_ext only where hparams.is_swa(il)): traced with
   * ggml-alloc's AT_PRINTF on Command R7B (8,192 x 4), a global layer
   * holds inp_embd, the residual, attn_norm (the parallel feed-forward
   * block reads it too), one query-wide Qcur and the two V-index
   * inputs (src/llama-kv-cache.cpp build_input_v_idxs, one per cache)
   * when its scores are allocated: one query-wide tensor fewer than
   * the sliding layers, whose peak keeps the count above, over their
   * own cells. */
  if (shape->nope_global && l->n_global > 0 && l->n_sliding > 0)
    attn = MAX (cpu_attention_bytes (ctx, w, l, 1, l->cells_seq), cpu_attention_bytes (ctx, w, l, 2, l->cells_swa_seq));
  if (ctx->spec->kv_latent)
    attn = rt_add (ctx, attn, w->mla_extra = mla_v_cont_extra (ctx, l, w->moe, w->emb, w->heads));
  w->width = w->ffn_off;
  return MAX (attn, ffn);
}

/* The CPU term's formula and note (with texts). */
static void
cpu_compute_texts (Ctx             *ctx,
                   const Figures   *f,
                   const Layout    *l,
                   const CpuWidths *w,
                   HrRuntimeTerm   *term,
                   guint64          mask_cells,
                   guint64          compute)
{
  HrRuntimePrediction *out = ctx->out;
  const CpuGraphShape *shape = w->shape;
  Counts *c = &ctx->counts;
  guint64 score_cells = l->n_global > 0 ? l->cells_seq : l->cells_swa_seq;

  if (out->flash_attention)
    g_snprintf (term->formula, sizeof term->formula,
                _("mask cells x ubatch x 2 + ubatch x 4 x (feed-forward width %s + 5) = %s x %s x 2 + %s x 4 x (%s + 5) = %s bytes"),
                w->moe ? _("max(3 x n_ff x used + embedding x used + embeddings, 3 x dense n_ff + embeddings)") : _("3 x n_ff + embeddings"),
                rt_count (c, mask_cells), rt_count (c, l->ubatch), rt_count (c, l->ubatch), rt_count (c, w->width),
                rt_count (c, compute));
  else
    g_snprintf (term->formula, sizeof term->formula,
                _("mask cells x ubatch x 4 + max(ubatch x 4 x (%u x embedding + 2 x query width + %u x KV width) + cells x ubatch x heads x 4, ubatch x 4 x (feed-forward width + 2 x KV width)) + ubatch x 4 x 5 = %s x %s x 4 + max(%s x 4 x (%u x %s + 2 x %s + %u x %s) + %s x %s x %s x 4, %s x 4 x (%s + 2 x %s)) + %s x 20 = %s bytes"),
                shape->attn_emb, shape->attn_kv, rt_count (c, mask_cells), rt_count (c, l->ubatch), rt_count (c, l->ubatch),
                shape->attn_emb, rt_count (c, w->emb), rt_count (c, w->q), shape->attn_kv, rt_count (c, w->kv), rt_count (c, score_cells),
                rt_count (c, l->ubatch), rt_count (c, w->heads), rt_count (c, l->ubatch), rt_count (c, w->width), rt_count (c, w->kv),
                rt_count (c, l->ubatch), rt_count (c, compute));
  g_snprintf (term->note, sizeof term->note, "%s",
              l->unified ?
              _("The compute buffer is one graph against the unified stream the slots share: the mask spans all of its cells. The mask is an input, alive through the whole graph: one per kind of layer, f16 with flash attention.") :
              out->era == HR_RUNTIME_ERA_LLAMA_SERVER ?
              _("The compute buffer is one slot's graph whatever the number of slots (with -np N llama-server's cache is not unified: each slot has its own stream). The mask is an input, alive through the whole graph: one per kind of layer, f16 with flash attention.") :
              _("The compute buffer is one slot's graph whatever the number of slots (Ollama's cache is not unified: each slot has its own stream). The mask is an input, alive through the whole graph: one per kind of layer, f16 with flash attention."));
  if (w->mla_extra > 0)
    {
      char extra[160];

      g_snprintf (extra, sizeof extra,
                  _("The attention phase also holds a contiguous copy of the latent V, kv_lora_rank x every stream's cells x 2 bytes: +%s bytes."),
                  rt_count (c, w->mla_extra));
      rt_append_note (term, extra);
    }
  if (g_strcmp0 (f->n_ff_from, "parameters") == 0 || g_strcmp0 (f->n_ff_from, "guess") == 0)
    rt_append_note (term, g_strcmp0 (f->n_ff_from, "parameters") == 0 ?
                    _("n_ff inferred from the parameter count (no tensor list).") :
                    _("n_ff unknown: taken as 4 x embedding."));
}

/* The CPU backend. In units of ubatch x 4 bytes (one f32 value per token),
 * with the per-architecture counts of cpu_graph_shape():
 *  - feed-forward width: the widest kind of layer: a dense one
 *    3 x n_ff (gate, up, their product) + ffn_emb x embedding, a MoE one
 *    3 x n_ff_exp x used + embedding x used (each chosen expert's down
 *    projection) + moe_emb x embedding (cpu_ffn_widths());
 *  - flash attention: mask (2 bytes a cell) + that width;
 *  - without: mask (4 bytes a cell) + the larger of the attention phase,
 *    attn_emb x embedding + 2 x query width + attn_kv x KV width + the
 *    scores of the widest layer, and the feed-forward phase, width + 3 x
 *    embedding + 2 x KV width (cpu_unflashed_peak());
 *  - and the small inputs (tokens, positions, output ids): 5 units. */
static void
compute_cpu (Ctx           *ctx,
             const Figures *f,
             const Layout  *l)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  CpuWidths w = { .shape = cpu_graph_shape (spec) };
  guint64 mask_cells, mask, base, compute;
  HrRuntimeTerm *term;

  w.u = rt_mul (ctx, l->ubatch, 4);
  w.emb = rt_embedding_of (spec);
  w.heads = rt_heads_of (spec);
  w.q = rt_mul (ctx, w.heads, spec->key_length);
  w.kv = rt_mul (ctx, spec->kv_heads, spec->key_length);
  w.moe = spec->expert_count > 1 && spec->expert_used_count > 0;
  cpu_ffn_widths (ctx, f, &w);
  mask_cells = rt_add (ctx, l->n_global > 0 ? l->cells_seq : 0, l->n_sliding > 0 ? l->cells_swa_seq : 0);
  mask = rt_mul (ctx, rt_mul (ctx, mask_cells, l->ubatch), out->flash_attention ? 2 : 4);
  base = out->flash_attention ? rt_mul (ctx, w.u, w.width) : cpu_unflashed_peak (ctx, l, &w);
  compute = rt_add (ctx, rt_add (ctx, mask, base), rt_mul (ctx, 5, w.u));
  term = rt_add_term (ctx, HR_RUNTIME_TERM_COMPUTE, (gint64) MIN (compute, (guint64) G_MAXINT64), SRC_030_COMPUTE_CPU);
  if (ctx->text)
    cpu_compute_texts (ctx, f, l, &w, term, mask_cells, compute);
}

/**
 * rt_compute_0_30: (skip)
 * @ctx: the prediction under way
 * @f: the model's figures
 * @l: the KV layout
 *
 * Adds the compute-buffer term for the inputs' backend; a recurrent or
 * hybrid model on the CPU has its own model (rt_compute_recurrent_cpu()).
 */
void
rt_compute_0_30 (Ctx           *ctx,
                 const Figures *f,
                 const Layout  *l)
{
  if (ctx->in->backend == HR_RUNTIME_BACKEND_CPU && ctx->recurrent_layers > 0)
    rt_compute_recurrent_cpu (ctx, f, l); /* hr-runtime-compute-recurrent.c */
  else if (ctx->in->backend == HR_RUNTIME_BACKEND_CPU)
    compute_cpu (ctx, f, l);
  else
    {
      compute_gpu (ctx, f, l);
      if (ctx->text && (g_strcmp0 (f->n_ff_from, "parameters") == 0 || g_strcmp0 (f->n_ff_from, "guess") == 0))
        rt_append_note (&ctx->out->terms[ctx->out->n_terms - 1],
                        g_strcmp0 (f->n_ff_from, "parameters") == 0 ?
                        _("n_ff inferred from the parameter count (no tensor list).") :
                        _("n_ff unknown: taken as 4 x embedding."));
    }
}
