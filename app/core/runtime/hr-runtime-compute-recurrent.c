/* hr-runtime-compute-recurrent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama 0.30+: llama.cpp's compute buffer for recurrent and hybrid models
 * on the CPU backend. graph_reserve (src/llama-context.cpp) builds the
 * worst-case graph: ubatch tokens, split into one sequence per slot
 * (llama_memory_recurrent's split_equal), and ggml-alloc's peak is the
 * largest phase of one layer plus the graph inputs (the attention mask of
 * the attention layers). Three phases, in f32 values per token (x ubatch
 * x 4 bytes), fitted to the buffers llama-server (llama.cpp de3ff815)
 * logs for the shapes of tests/llama/llama-models-hybrid.h and for
 * probes that vary one dimension at a time:
 *
 *  - the Mamba-2 scan (src/models/mamba-base.cpp build_mamba2_layer): the
 *    input projection zxBCdt (d_in_proj), the convolution input and output
 *    (2 x conv_dim), the scan output (d_inner) and the residual stream
 *    (3 x embedding), and per slot the gathered state and two conv rows
 *    ((n_embd_s + 2 x n_embd_r) x 4 bytes): exact for nemotron-h 9B and
 *    mamba2 2.7B, within 3 % when the group count grows to 8;
 *  - the gated delta net (src/models/delta-net-base.cpp, qwen35):
 *    3 x conv_dim + 3 x embedding and the per-slot state, within 2 MiB of
 *    the probes with 128-wide heads (Qwen3.5 all have them); qwen3next's
 *    fused qkvz projection has its own two points, traced tensor by tensor
 *    (see rt_compute_recurrent_cpu());
 *  - the feed-forward block: 3 x n_ff + 3 x embedding for a gated one
 *    (qwen35, lfm2; granitehybrid holds 5 x embedding), 2 x n_ff + 3 x
 *    embedding for nemotron-h's squared-ReLU up/down; for a mixture of
 *    experts 3 x n_ff x used + embedding x (used + 1) + 3 x embedding
 *    (qwen35moe, kimi-linear; 7 x experts more with a biased sigmoid
 *    router, kimi-linear); and without flash
 *    attention the attention phase of hr-runtime-compute.c (the scores;
 *    3 query widths where attn_q also holds the gate, qwen35).
 *
 * Not measured, so left out of the peak and said so in the note: the
 * short convolution (lfm2: always below its feed-forward block in the
 * measured shapes), Kimi delta attention, RWKV, and Mamba-1.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-runtime-private.h"

#define SRC_030_COMPUTE_RECURRENT \
  "Headroom's model of llama.cpp src/llama-context.cpp graph_reserve for recurrent and hybrid models on the " \
  "CPU backend (the largest of the Mamba-2 scan of src/models/mamba-base.cpp, the gated delta net of " \
  "src/models/delta-net-base.cpp, the feed-forward block and, without flash attention, the attention scores, " \
  "plus the mask of src/llama-graph.cpp), fitted to the compute buffers llama-server (llama.cpp de3ff815) logs " \
  "for qwen3.5-4b, mamba2-2.7b, granite-4.0-h, nemotron-h 9B and LFM2-1.2B shapes (tests/llama/test-llama.c); " \
  "the delta nets of qwen35 and qwen3next and kimi-linear's latent attention traced tensor by tensor with " \
  "ggml/src/ggml-alloc.c's allocation log"

/* What the tensor list says about the recurrent block and the FFN. */
typedef struct {
  guint64 d_in_proj;   /* blk.N.ssm_in.weight ne[1] (Mamba) */
  guint64 conv_dim;    /* blk.N.ssm_conv1d.weight ne[1] */
  guint64 d_inner;     /* blk.N.ssm_out.weight ne[0] */
  gboolean delta_net;  /* blk.N.ssm_beta.weight or ssm_ba.weight: a gated delta net
                        * (qwen3next's has an ssm_in too: not Mamba) */
  guint64 attn_q;      /* the widest blk.N.attn_q.weight ne[1] */
  guint64 n_ff;        /* the widest blk.N.ffn_down.weight ne[0] */
  guint64 n_ff_exp;    /* the widest blk.N.ffn_down_exps.weight ne[0] (one expert) */
  gboolean gated;      /* a blk.N.ffn_gate.weight */
  gboolean probs_bias; /* a blk.N.exp_probs_b.bias: a biased sigmoid router */
  gboolean post_attn_norm; /* a blk.N.post_attention_norm.weight (qwen35, qwen35moe, qwen3next) */
  guint64 kv_lora_rank; /* blk.N.attn_kv_a_norm.weight ne[0] (MLA's latent width) */
} Block;

static gboolean
suffix_is (const char *name,
           const char *suffix)
{
  gsize n = strlen (name), s = strlen (suffix);

  return g_str_has_prefix (name, "blk.") && n > s && strcmp (name + n - s, suffix) == 0;
}

static void
scan_block (const HrModelSpec *spec,
            Block             *b)
{
  memset (b, 0, sizeof *b);
  for (guint i = 0; spec->tensors != NULL && i < spec->tensors->len; i++)
    {
      const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);

      if (t->n_dims >= 2 && suffix_is (t->name, ".ssm_in.weight"))
        b->d_in_proj = MAX (b->d_in_proj, t->dims[1]);
      else if (t->n_dims >= 2 && suffix_is (t->name, ".ssm_conv1d.weight"))
        b->conv_dim = MAX (b->conv_dim, t->dims[1]);
      else if (suffix_is (t->name, ".ssm_out.weight"))
        b->d_inner = MAX (b->d_inner, t->dims[0]);
      else if (suffix_is (t->name, ".ssm_beta.weight") || suffix_is (t->name, ".ssm_ba.weight"))
        b->delta_net = TRUE; /* qwen35 has beta and alpha apart, qwen3next fused */
      else if (suffix_is (t->name, ".ffn_down.weight"))
        b->n_ff = MAX (b->n_ff, t->dims[0]);
      else if (suffix_is (t->name, ".ffn_down_exps.weight"))
        b->n_ff_exp = MAX (b->n_ff_exp, t->dims[0]);
      else if (suffix_is (t->name, ".ffn_gate.weight"))
        b->gated = TRUE;
      else if (suffix_is (t->name, ".exp_probs_b.bias"))
        b->probs_bias = TRUE;
      else if (suffix_is (t->name, ".post_attention_norm.weight"))
        b->post_attn_norm = TRUE;
      else if (suffix_is (t->name, ".attn_kv_a_norm.weight"))
        b->kv_lora_rank = MAX (b->kv_lora_rank, t->dims[0]);
      else if (t->n_dims >= 2 && suffix_is (t->name, ".attn_q.weight"))
        b->attn_q = MAX (b->attn_q, t->dims[1]);
    }
}

/* One layer's phases while they are worked out: the inputs they share and
 * each one's peak in bytes (0: not modelled), with the figures the note
 * shows. */
typedef struct {
  const Layout *l;
  Block    b;
  guint64  u;        /* ubatch x 4: one f32 value per token */
  guint64  emb;
  guint64  state;    /* per slot: the gathered state and two conv rows, x slots, bytes */
  gboolean moe;
  guint64  ffn, recr, attn;
  char     ffn_text[160], recr_text[160];
} Phases;

/* The feed-forward phase: a mixture of experts' chosen experts (3 x n_ff
 * x used + embedding x (used + 1) + 3 x embedding; 7 x experts more with
 * a biased sigmoid router), else the dense block (3 x n_ff gated, 2 x
 * n_ff for nemotron-h's squared ReLU, + 3 x embedding, 5 for
 * granitehybrid). */
static void
ffn_phase (Ctx           *ctx,
           const Figures *f,
           Phases        *p)
{
  const HrModelSpec *spec = ctx->spec;
  Counts *c = &ctx->counts;

  if (p->moe)
    {
      /* Each expert's n_ff from any layer's expert tensors (kimi-linear's
       * first layer is dense, so blk.0 has none). */
      guint64 n_ff_exp = p->b.n_ff_exp > 0 ? p->b.n_ff_exp : f->n_ff;

      p->ffn = rt_mul (ctx, p->u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, rt_mul (ctx, 3, n_ff_exp), spec->expert_used_count),
                                                       rt_mul (ctx, p->emb, spec->expert_used_count + 1)),
                                          rt_mul (ctx, 3, p->emb)));
      g_snprintf (p->ffn_text, sizeof p->ffn_text, "3 x %s x %u + %s x %u + 3 x %s", rt_count (c, n_ff_exp),
                  spec->expert_used_count, rt_count (c, p->emb), spec->expert_used_count + 1, rt_count (c, p->emb));
      /* A sigmoid router with a selection bias (exp_probs_b, llama-graph.cpp
       * build_moe_ffn) holds seven expert-wide tensors more: measured on
       * kimi-linear (+3.50 MiB at 256 experts, 1 and 4 slots) only. */
      if (p->b.probs_bias)
        {
          p->ffn = rt_add (ctx, p->ffn, rt_mul (ctx, p->u, rt_mul (ctx, 7, spec->expert_count)));
          g_strlcat (p->ffn_text, " + 7 x experts", sizeof p->ffn_text);
        }
    }
  else if (p->b.n_ff > 0)
    {
      guint e_units = rt_arch_is (spec, "granitehybrid") ? 5 : 3;
      guint ff_units = p->b.gated ? 3 : 2;

      p->ffn = rt_mul (ctx, p->u, rt_add (ctx, rt_mul (ctx, ff_units, p->b.n_ff), rt_mul (ctx, e_units, p->emb)));
      g_snprintf (p->ffn_text, sizeof p->ffn_text, "%u x %s + %u x %s", ff_units, rt_count (c, p->b.n_ff),
                  e_units, rt_count (c, p->emb));
    }
}

/* qwen3next's fused qkvz delta net (src/models/qwen3next.cpp
 * build_layer_attn_linear), traced with ggml-alloc's AT_PRINTF
 * (ggml/src/ggml-alloc.c ggml_dyn_tallocr_alloc) on Qwen3-Next-80B's
 * layers, 1 and 4 slots. In f32 values per token (x ubatch x 4 bytes),
 * with the key width H_k x S_k = (conv_dim - d_inner) / 2 and, as
 * src/models/delta-net-base.cpp asserts S_k == S_v, H_v x S_k =
 * d_inner. The larger of two points:
 *  - the gated delta net's output (src/models/delta-net-base.cpp
 *    build_recurrent_attn, ggml_gated_delta_net as fused by
 *    src/llama-context.cpp resolve_fused_ops: d_inner per token plus
 *    the final state of every sequence, n_embd_s x slots) on top of
 *    inp_embd, the residual, attn_norm, the conv-state rows
 *    (delta-net-base.cpp build_conv_state: n_embd_r x slots),
 *    mixed_qkvz (d_in_proj), the gathered state (src/llama-graph.cpp
 *    build_rs, a get_rows of n_embd_s x slots), the convolution
 *    output (ggml_ssm_conv: conv_dim), the
 *    l2-normed query and key (H_k x S_k, one alive) and their
 *    repeats to the value heads (2 x H_v x S_k): 3 x embedding +
 *    d_in_proj + conv_dim + (conv_dim - d_inner) / 2 + 3 x d_inner,
 *    plus the state twice and the conv rows;
 *  - a later layer's convolution input (delta-net-base.cpp
 *    build_conv_state's concat of the conv rows and qkv_mixed:
 *    conv_dim per token plus n_embd_r x slots) on top of inp_embd,
 *    attn_norm, the residual and a hole
 *    one embedding wide, mixed_qkvz, query_flat, key_flat and their
 *    concat (2 x (conv_dim - d_inner)) and qkv_mixed (conv_dim):
 *    4 x embedding + d_in_proj + 2 x (conv_dim - d_inner) + 2 x
 *    conv_dim, plus the conv rows.
 * The state terms grow with the slots: llama-server splits the
 * worst-case ubatch into one sequence per slot (src/llama-context.cpp
 * sched_reserve: n_seqs = n_seq_max). */
static void
fused_delta_net_phase (Ctx    *ctx,
                       Phases *p)
{
  const HrModelSpec *spec = ctx->spec;
  const Block *b = &p->b;
  Counts *c = &ctx->counts;
  guint64 u = p->u, emb = p->emb;
  guint64 s_bytes = rt_mul (ctx, rt_mul (ctx, spec->recurrent_s, 4), p->l->slots);
  guint64 r_bytes = rt_mul (ctx, rt_mul (ctx, spec->recurrent_r, 4), p->l->slots);
  guint64 k_width = (b->conv_dim - b->d_inner) / 2;
  guint64 out_point = rt_add (ctx, rt_mul (ctx, u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, 3, emb), b->d_in_proj),
                                                           rt_add (ctx, rt_add (ctx, b->conv_dim, k_width),
                                                                   rt_mul (ctx, 3, b->d_inner)))),
                              rt_add (ctx, rt_mul (ctx, 2, s_bytes), r_bytes));
  guint64 conv_point = rt_add (ctx, rt_mul (ctx, u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, 4, emb), b->d_in_proj),
                                                            rt_add (ctx, rt_mul (ctx, 2, b->conv_dim - b->d_inner),
                                                                    rt_mul (ctx, 2, b->conv_dim)))),
                               r_bytes);

  p->recr = MAX (out_point, conv_point);
  g_snprintf (p->recr_text, sizeof p->recr_text, "fused qkvz delta net max(3 x %s + %s + %s + %s + 3 x %s, 4 x %s + %s + 4 x %s - 2 x %s)",
              rt_count (c, emb), rt_count (c, b->d_in_proj), rt_count (c, b->conv_dim), rt_count (c, k_width),
              rt_count (c, b->d_inner), rt_count (c, emb), rt_count (c, b->d_in_proj), rt_count (c, b->conv_dim),
              rt_count (c, b->d_inner));
}

/* qwen35 / qwen35moe (src/models/qwen35.cpp, qwen35moe.cpp
 * build_layer_attn_linear), traced with ggml-alloc's AT_PRINTF on
 * Qwen3.5-4B (8,192 x 4, every delta-net layer alike): inp_embd, the
 * residual and attn_norm, the conv-state rows (n_embd_r x slots),
 * qkv_mixed (conv_dim), the convolution input (src/models/
 * delta-net-base.cpp build_conv_state: conv_dim per token plus the
 * conv rows) and the convolution output (ggml_ssm_conv: conv_dim)
 * alive together. The gathered state (src/llama-graph.cpp build_rs:
 * n_embd_s x slots) is allocated once the conv rows and qkv_mixed are
 * freed and takes their hole (conv_dim per token + the conv rows);
 * only a state larger than that goes to the end of the buffer. */
static void
delta_net_phase (Ctx    *ctx,
                 Phases *p)
{
  const HrModelSpec *spec = ctx->spec;
  Counts *c = &ctx->counts;
  guint64 s_bytes = rt_mul (ctx, rt_mul (ctx, spec->recurrent_s, 4), p->l->slots);
  guint64 r_bytes = rt_mul (ctx, rt_mul (ctx, spec->recurrent_r, 4), p->l->slots);

  p->recr = rt_add (ctx, rt_mul (ctx, p->u, rt_add (ctx, rt_mul (ctx, 3, p->emb), rt_mul (ctx, 3, p->b.conv_dim))),
                    rt_mul (ctx, 2, r_bytes));
  if (s_bytes > rt_add (ctx, rt_mul (ctx, p->u, p->b.conv_dim), r_bytes))
    p->recr = rt_add (ctx, p->recr, s_bytes);
  g_snprintf (p->recr_text, sizeof p->recr_text, "gated delta net 3 x %s + 3 x %s", rt_count (c, p->emb),
              rt_count (c, p->b.conv_dim));
}

/* The recurrent phase: one of the delta nets, or the Mamba-2 scan (the
 * file's comment); any other block (a short convolution, Kimi delta
 * attention, RWKV, Mamba-1) is not modelled and stays 0. */
static void
recurrent_phase (Ctx    *ctx,
                 Phases *p)
{
  const Block *b = &p->b;

  if (b->delta_net && b->conv_dim > 0 && b->d_in_proj > 0 && b->d_inner > 0 && b->conv_dim > b->d_inner)
    fused_delta_net_phase (ctx, p);
  else if (b->delta_net && b->conv_dim > 0)
    delta_net_phase (ctx, p);
  else if (b->d_in_proj > 0 && b->conv_dim > 0 && b->d_inner > 0)
    {
      p->recr = rt_add (ctx, rt_mul (ctx, p->u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, 3, p->emb), b->d_in_proj),
                                                       rt_add (ctx, rt_mul (ctx, 2, b->conv_dim), b->d_inner))),
                        p->state);
      g_snprintf (p->recr_text, sizeof p->recr_text, "Mamba-2 scan 3 x %s + %s + 2 x %s + %s", rt_count (&ctx->counts, p->emb),
                  rt_count (&ctx->counts, b->d_in_proj), rt_count (&ctx->counts, b->conv_dim), rt_count (&ctx->counts, b->d_inner));
    }
}

/* Multi-head latent attention's phase (kimi-linear's attention layers,
 * src/models/kimi-linear.cpp, the absorbed MLA of deepseek2.cpp), traced
 * with ggml-alloc's AT_PRINTF on Kimi-Linear-48B (2,048 x 4): inp_embd, a
 * two-embedding hole (attn_norm and the KV path's norm, freed), the
 * residual and the embedding-wide norm input, then q (heads x
 * key_length_mla, the rows of attn_q), q_nope_absorbed (heads x
 * kv_lora_rank) and Qcur (heads x (kv_lora_rank + rope)) alive together
 * before the scores (@scores bytes). V is a view of the latent cache, so
 * there is no V-index input (src/llama-kv-cache.cpp build_input_v_idxs:
 * n_tokens) but a contiguous copy, v_cont (src/llama-graph.cpp
 * build_attn_mha: kv_lora_rank x every stream's cells x 2 bytes, f16),
 * allocated after q and q_nope_absorbed are freed: it takes the hole they
 * leave while it fits (8 MiB at 2,048 x 4 and 32 MiB at 32,768 x 1
 * measured within it) and the end of the buffer, beside the scores, once
 * it does not. */
static guint64
mla_attention_phase (Ctx          *ctx,
                     const Phases *p,
                     guint64       heads,
                     guint64       scores)
{
  const HrModelSpec *spec = ctx->spec;
  /* kv_lora_rank from attn_kv_a_norm (kimi-linear's GGUF has no
   * value_length: llama.cpp takes embedding / heads there). Without a
   * tensor list: an estimate, DeepSeek-V2/V3's and Kimi's 64 rope dims and
   * qk_nope_head_dim 128. */
  guint64 rank = p->b.kv_lora_rank > 0 ? p->b.kv_lora_rank : spec->key_length > 64 ? spec->key_length - 64 : spec->key_length;
  guint64 rope = spec->key_length > rank ? spec->key_length - rank : 0;
  guint64 q_rows = p->b.attn_q > 0 ? p->b.attn_q : rt_mul (ctx, heads, 128 + rope);
  guint64 v_cont = rt_mul (ctx, rt_mul (ctx, rank, p->l->cells), 2);
  guint64 attn = rt_add (ctx, rt_mul (ctx, p->u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, 4, p->emb), q_rows),
                                                        rt_mul (ctx, heads, rt_add (ctx, rt_mul (ctx, 2, rank), rope)))),
                         scores);

  if (v_cont > rt_mul (ctx, p->u, rt_add (ctx, q_rows, rt_mul (ctx, heads, rank))))
    attn = rt_add (ctx, attn, v_cont);
  return attn;
}

/* Without flash attention, the attention layers' phase: that of
 * hr-runtime-compute.c (the embedding-, query- and KV-wide tensors
 * beside the scores of the widest layer), or multi-head latent
 * attention's. None with flash attention or without attention layers. */
static void
attention_phase (Ctx    *ctx,
                 Phases *p)
{
  const HrModelSpec *spec = ctx->spec;
  const Layout *l = p->l;
  guint64 heads, q, kv, score_cells, scores;
  guint q_units, e_units;

  if (ctx->out->flash_attention || (l->n_global == 0 && l->n_sliding == 0))
    return;
  heads = rt_heads_of (spec);
  q = rt_mul (ctx, heads, spec->key_length);
  kv = rt_mul (ctx, spec->kv_heads, spec->key_length);
  score_cells = l->n_global > 0 ? l->cells_seq : l->cells_swa_seq;
  scores = rt_mul (ctx, rt_mul (ctx, rt_mul (ctx, score_cells, l->ubatch), heads), 4);
  /* qwen35 / qwen3next: attn_q holds the query and its gate (2 x the
   * query width, src/models/qwen35.cpp): one more query-wide tensor. */
  q_units = p->b.attn_q == 2 * q ? 3 : 2;
  /* The embedding-wide tensors: inp_embd, the residual and one more.
   * A mixture of experts with a post-attention norm (qwen3next,
   * qwen35moe) holds one more, traced with ggml-alloc's AT_PRINTF on
   * Qwen3-Next-80B (1 and 4 slots) and measured on Qwen3.5-35B-A3B
   * (+4.00 MiB, 2,048 x 4 and 8,192 x 1): the previous layer's
   * attn_residual and attn_post_norm (src/models/qwen3next.cpp and
   * qwen35moe.cpp: both alive through its MoE block and freed at its
   * end) leave a two-embedding hole below the residual that the query
   * does not fit. The 2 x KV width is the V-index input of a
   * transposed V cache (src/llama-kv-cache.cpp build_input_v_idxs:
   * n_embd_v_gqa x ubatch int64). */
  e_units = p->b.delta_net && p->moe && p->b.post_attn_norm ? 4 : 3;

  p->attn = rt_add (ctx, rt_mul (ctx, p->u, rt_add (ctx, rt_add (ctx, rt_mul (ctx, e_units, p->emb), rt_mul (ctx, q_units, q)),
                                                   rt_mul (ctx, 2, kv))),
                    scores);
  if (spec->kv_latent)
    p->attn = mla_attention_phase (ctx, p, heads, scores);
}

/* The largest phase, with what was measured rather than derived:
 * falcon-h1 (attention beside the Mamba-2 mixer in every layer) holds one
 * query-wide tensor more through its feed-forward block (added to ffn);
 * with a quantized KV cache the peak phase of falcon-h1 and of a model
 * whose Mamba-2 scan is the peak (nemotron-h) holds one more (+2.08 and
 * +10.77 MiB measured, 1,024 and 5,120 wide). */
static guint64
peak_phase (Ctx    *ctx,
            Phases *p)
{
  const HrModelSpec *spec = ctx->spec;
  guint64 q_bytes = rt_mul (ctx, p->u, rt_mul (ctx, rt_heads_of (spec), spec->key_length));
  gboolean falcon = rt_arch_is (spec, "falcon-h1");
  gboolean quantized = ctx->out->kv_type != HR_KV_CACHE_F16 && (p->l->n_global > 0 || p->l->n_sliding > 0);
  guint64 peak;

  if (falcon && p->ffn > 0)
    p->ffn = rt_add (ctx, p->ffn, q_bytes);
  peak = MAX (MAX (p->ffn, p->recr), p->attn);
  if (quantized && peak != p->attn && (falcon || (peak == p->recr && p->b.d_in_proj > 0 && !p->b.delta_net)))
    peak = rt_add (ctx, peak, q_bytes);
  return peak;
}

/**
 * rt_compute_recurrent_cpu: (skip)
 * @ctx: the prediction under way
 * @f: the model's figures
 * @l: the KV layout (its slots, ubatch and mask cells)
 *
 * Adds the compute-buffer term of a recurrent or hybrid model
 * (hr_model_spec_recurrent_layers() > 0) on the CPU backend: the mask
 * plus the largest phase (see the file's comment) plus the small inputs
 * (5 values per token, as for attention models).
 */
void
rt_compute_recurrent_cpu (Ctx           *ctx,
                          const Figures *f,
                          const Layout  *l)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  Counts *c = &ctx->counts;
  Phases p = { .l = l };
  guint64 mask_cells, mask, peak, compute;
  const char *phase;
  HrRuntimeTerm *term;

  p.u = rt_mul (ctx, l->ubatch, 4);
  p.emb = rt_embedding_of (spec);
  p.state = rt_mul (ctx, rt_mul (ctx, rt_add (ctx, spec->recurrent_s, rt_mul (ctx, 2, spec->recurrent_r)), 4), l->slots);
  p.moe = spec->expert_count > 1 && spec->expert_used_count > 0;
  scan_block (spec, &p.b);
  mask_cells = rt_add (ctx, l->n_global > 0 ? l->cells_seq : 0, l->n_sliding > 0 ? l->cells_swa_seq : 0);
  mask = rt_mul (ctx, rt_mul (ctx, mask_cells, l->ubatch), out->flash_attention ? 2 : 4);

  ffn_phase (ctx, f, &p);
  recurrent_phase (ctx, &p);
  attention_phase (ctx, &p);
  peak = peak_phase (ctx, &p);
  phase = peak == p.attn && p.attn > 0 ? _("the attention scores") :
          peak >= p.recr && p.recr >= p.ffn && p.recr > 0 ? _("the recurrent block") : _("the feed-forward block");
  compute = rt_add (ctx, rt_add (ctx, mask, peak), rt_mul (ctx, 5, p.u));
  term = rt_add_term (ctx, HR_RUNTIME_TERM_COMPUTE, (gint64) MIN (compute, (guint64) G_MAXINT64), SRC_030_COMPUTE_RECURRENT);
  if (!ctx->text)
    return;
  g_snprintf (term->formula, sizeof term->formula,
              _("mask %s x %s x %u + max(recurrent %s, feed-forward %s, attention %s) + %s x 20 = %s bytes (peak: %s)"),
              rt_count (c, mask_cells), rt_count (c, l->ubatch), out->flash_attention ? 2 : 4,
              rt_count (c, p.recr), rt_count (c, p.ffn), rt_count (c, p.attn), rt_count (c, l->ubatch),
              rt_count (c, compute), phase);
  g_snprintf (term->note, sizeof term->note,
              _("Values per token x ubatch x 4 bytes: recurrent phase %s (plus the state of each slot, %s bytes), feed-forward %s. The recurrent phase grows with the slots (llama-server splits the batch into one sequence per slot), not with the context."),
              p.recr_text[0] != '\0' ? p.recr_text : _("not modelled for this block (short convolution, Kimi delta attention, RWKV or Mamba-1)"),
              rt_count (c, p.state), p.ffn_text[0] != '\0' ? p.ffn_text : _("none"));
}
