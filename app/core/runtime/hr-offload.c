/* hr-offload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GPU/host split (see hr-offload.h). The rule is llama.cpp's
 * common/fit.cpp common_params_fit_impl as Ollama 0.30+ runs it
 * (llm/llama_server.go startLlamaServer: no -ngl unless num_gpu is set, the
 * context fixed by -c), read for the facts and written again here:
 *  - step 1: every layer on the GPU when the dry run leaves at least the
 *    margin free ("no changes needed");
 *  - step 2 (shrinking the context) does not run: Ollama sets -c;
 *  - step 3: layers filled from the back, the output layer first
 *    (set_ngl_tensor_split_tbo: il0 = n_layer + 1 - n_gpu_layers), by false
 *    position between a fitting and a failing count; for a mixture of experts
 *    with every ffn_*_exps tensor in host memory;
 *  - step 4 (MoE, when the dense parts of every layer fit): layers turned
 *    full from the front, then one more layer tried with its up (and gate)
 *    tensors on the GPU.
 * Which layers a count of n_gpu_layers puts where is llama.cpp's
 * src/llama-model.cpp load_tensors: i_gpu_start = max(n_layer + 1 -
 * n_gpu_layers, 0), the output layer is layer n_layer (so the first one
 * offloaded), the input layer (token_embd) always on the CPU.
 * False position and bisection find the same count: the largest that fits,
 * since memory grows with every layer added. Here the dry run is Headroom's
 * own: the runtime prediction's terms (hr-runtime.h) spread over the layers.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hr-error.h"
#include "hr-memory.h"
#include "hr-offload.h"
#include "hr-offload-private.h"
#include "hr-units.h"

/* --------------------------------------------------------------- layers */

static gboolean
name_is (const char *name,
         const char *group)
{
  gsize n = strlen (group);

  return strncmp (name, group, n) == 0 && name[n] == '.';
}

static void
classify (Layer      *l,
          const char *rest,
          guint64     bytes)
{
  gboolean expert = g_str_has_prefix (rest, "ffn_") &&
                    (strstr (rest, "_exps.") != NULL || strstr (rest, "_chexps.") != NULL);

  l->total += bytes;
  if (g_str_has_prefix (rest, "ffn_down"))
    {
      l->down += bytes;
      l->down_x += expert ? bytes : 0;
    }
  else if (g_str_has_prefix (rest, "ffn_gate"))
    {
      l->gate += bytes;
      l->gate_x += expert ? bytes : 0;
    }
  else if (g_str_has_prefix (rest, "ffn_up"))
    {
      l->up += bytes;
      l->up_x += expert ? bytes : 0;
    }
}

/* Expert tensors' share of a block without a tensor list: the gated
 * feed-forward of every expert (3 x embedding x n_ff each) over the block's
 * parameters, from the parameter count as hr-runtime.c figures n_ff. */
static double
expert_share (const HrModelSpec *spec)
{
  double emb = spec->embedding_length;
  double heads = spec->heads, kv = spec->kv_heads;
  double embeddings = (double) spec->vocab_size * emb * (spec->tied_embeddings ? 1.0 : 2.0);
  double per_layer, attention, experts;

  if (spec->expert_count == 0 || spec->parameters == 0 || spec->layers == 0 || emb == 0.0)
    return 0.0;
  per_layer = ((double) spec->parameters - embeddings) / spec->layers;
  attention = emb * (heads * spec->key_length + kv * spec->key_length + kv * spec->value_length + heads * spec->value_length);
  if (spec->feed_forward_length > 0)
    experts = 3.0 * emb * spec->feed_forward_length * spec->expert_count;
  else
    experts = per_layer - attention - emb * spec->expert_count;
  if (!(per_layer > 0.0) || !(experts > 0.0))
    return 0.0;
  return MIN (experts / per_layer, 1.0);
}

static gboolean
same_precision (const HrRuntimeInputs *in)
{
  return in->precision == NULL ||
         (in->spec->precision != NULL && g_ascii_strcasecmp (in->precision->id, in->spec->precision) == 0);
}

/* Per-layer weights: the tensor list when the runtime uses it, else the
 * blocks' share spread evenly, the embeddings apart as hr-runtime.c does. */
static guint64
fill_weights (Model                 *m,
              const HrRuntimeInputs *in)
{
  HrModelSpec exact;
  const HrModelSpec *spec = hr_runtime_exact_spec (in->spec, &exact);
  guint64 sum = 0;

  if (spec->tensors != NULL && spec->tensors->len > 0 && same_precision (in))
    {
      m->tied = TRUE;
      for (guint i = 0; i < spec->tensors->len; i++)
        {
          const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);
          const char *p;
          char *end;
          guint64 index;

          if (t->name == NULL)
            continue;
          if (name_is (t->name, "output"))
            m->tied = FALSE;
          if (!g_str_has_prefix (t->name, "blk.") || !g_ascii_isdigit (t->name[4]))
            continue;
          index = g_ascii_strtoull (t->name + 4, &end, 10);
          if (*end != '.' || index >= m->n)
            continue; /* blocks past block_count (nextn): with the output layer */
          p = end + 1;
          classify (&m->layers[index], p, t->bytes);
          sum += t->bytes;
        }
    }
  else
    {
      const HrPrecision *file = hr_precision_lookup (spec->precision);
      double bits = in->precision ? in->precision->bits_per_weight : file ? file->bits_per_weight : 16.0;
      guint64 all = hr_memory_spec_weight_bytes (spec, in->precision);
      guint64 emb = spec->embedding_length > 0 ? spec->embedding_length : (guint64) spec->heads * spec->key_length;
      guint64 embd = hr_memory_weight_bytes ((guint64) spec->vocab_size * emb, bits);
      guint64 both = spec->tied_embeddings ? embd : embd * 2;
      guint64 blocks = all > both ? all - both : 0;
      double share = expert_share (spec);

      m->tied = spec->tied_embeddings;
      for (guint i = 0; i < m->n; i++)
        {
          Layer *l = &m->layers[i];
          guint64 x;

          l->total = blocks / m->n + (i < blocks % m->n ? 1 : 0);
          x = (guint64) (l->total * share / 3.0);
          l->up = l->up_x = x;
          l->gate = l->gate_x = x;
          l->down = l->down_x = x;
          sum += l->total;
        }
    }
  return sum;
}

/* The KV cache and the recurrent state by layer: llama.cpp puts each
 * layer's K, V and r, s tensors on that layer's device
 * (src/llama-kv-cache.cpp, src/llama-memory-recurrent.cpp: dev_layer (il)).
 * Each layer's share is hr_runtime_layer_state_bytes(), scaled so the parts
 * add up to the prediction's terms (exact for Ollama 0.30+, whose terms
 * are these sums; proportional for the old estimator), the remainder on
 * the last layer that has any. */
static void
fill_kv (Model                     *m,
         const HrModelSpec         *spec,
         const HrRuntimePrediction *p)
{
  guint64 rs = (guint64) MAX (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_RECURRENT_STATE), 0);
  guint64 kv = (guint64) MAX (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_KV_CACHE), 0) + rs;
  double w_sum = 0;
  guint64 given = 0;
  gint last = -1;

  for (guint i = 0; i < m->n; i++)
    w_sum += (double) hr_runtime_layer_state_bytes (p, spec, i);
  if (w_sum <= 0 || kv == 0)
    return;
  for (guint i = 0; i < m->n; i++)
    {
      double w = (double) hr_runtime_layer_state_bytes (p, spec, i);

      if (w <= 0)
        continue;
      m->layers[i].kv = MIN ((guint64) ((double) kv * (w / w_sum)), kv - given);
      given += m->layers[i].kv;
      last = (gint) i;
    }
  m->layers[last].kv += kv - given;
}

/**
 * hr_offload_token_read_bytes:
 * @spec: the model
 * @precision: (nullable): the precision it is sketched at; %NULL = its own file's
 * @weight_bytes: its weights at that precision (the footprint's weights)
 *
 * The weights one decoded token reads: every dense weight, and of a
 * mixture of experts' expert tensors (blk.N.ffn_{up,gate,down}_exps and
 * _chexps) only the expert_used_count of expert_count a token routes to
 * (llama.cpp src/llama-graph.cpp build_moe_ffn: ggml_mul_mat_id reads the
 * rows of the selected experts only), on whatever device they live. The
 * experts' share of the weights is the tensor list's (a GGUF-sourced spec)
 * or, without one, the gated feed-forward of every expert over the blocks'
 * parameters (expert_share(), hr-offload.c), the same split
 * hr_offload_predict() places. A dense model reads all of @weight_bytes.
 *
 * Returns: bytes, at most @weight_bytes
 */
guint64
hr_offload_token_read_bytes (const HrModelSpec *spec,
                             const HrPrecision *precision,
                             guint64            weight_bytes)
{
  HrModelSpec exact;
  const HrModelSpec *s;
  double fraction = 0.0, idle;

  if (spec == NULL || spec->expert_count == 0 || spec->expert_used_count == 0 ||
      spec->expert_used_count > spec->expert_count)
    return weight_bytes;
  idle = 1.0 - (double) spec->expert_used_count / spec->expert_count;
  s = hr_runtime_exact_spec (spec, &exact);
  if (s->tensors != NULL && s->tensors->len > 0)
    {
      guint64 all = 0, experts = 0;

      for (guint i = 0; i < s->tensors->len; i++)
        {
          const HrTensorInfo *t = g_ptr_array_index (s->tensors, i);
          const char *rest;

          all += t->bytes;
          if (t->name == NULL || !g_str_has_prefix (t->name, "blk.") ||
              (rest = strchr (t->name + 4, '.')) == NULL)
            continue;
          rest++;
          if (g_str_has_prefix (rest, "ffn_") &&
              (strstr (rest, "_exps.") != NULL || strstr (rest, "_chexps.") != NULL))
            experts += t->bytes;
        }
      fraction = all > 0 ? (double) experts / (double) all : 0.0;
    }
  else
    {
      const HrPrecision *file = hr_precision_lookup (s->precision);
      double bits = precision ? precision->bits_per_weight : file ? file->bits_per_weight : 16.0;
      guint64 all = hr_memory_spec_weight_bytes (s, precision);
      guint64 emb = s->embedding_length > 0 ? s->embedding_length : (guint64) s->heads * s->key_length;
      guint64 embd = hr_memory_weight_bytes ((guint64) s->vocab_size * emb, bits);
      guint64 both = s->tied_embeddings ? embd : embd * 2;

      if (all > both)
        fraction = expert_share (s) * (double) (all - both) / (double) all;
    }
  return weight_bytes - (guint64) ((double) weight_bytes * MIN (fraction, 1.0) * idle);
}

/* --------------------------------------------------------------- memory */

/* What block @i holds on the GPU with @n GPU layers, @part of them partial
 * (common/fit.cpp set_ngl_tensor_split_tbo: the first n - part counted from
 * il0 are whole, the first partial one overflows by @overflow, the others
 * by LAYER_FRACTION_MOE). */
static HrLayerFraction
fraction_of (const Model     *m,
             guint            i,
             guint            n,
             guint            part,
             HrLayerFraction  overflow)
{
  guint il0 = m->n + 1 - n;

  if (n == 0 || i < il0)
    return HR_LAYER_FRACTION_NONE;
  if (i < il0 + (n - part))
    return user_fraction (m, i, FRACTION_FULL);
  return i == il0 + (n - part) ? overflow : HR_LAYER_FRACTION_MOE;
}

/* The GPU's bytes for a layout: common/fit.cpp get_memory_for_layers. */
static guint64
gpu_bytes (const Model     *m,
           guint            n,
           guint            part,
           HrLayerFraction  overflow)
{
  guint64 total;

  if (n == 0)
    return 0;
  total = m->output + m->compute;
  for (guint i = m->n + 1 - n; i < m->n; i++)
    total += on_gpu (&m->layers[i], fraction_of (m, i, n, part, overflow)) + m->layers[i].kv;
  return total;
}

static gboolean
fits (guint64 bytes,
      gint64  target)
{
  return target >= 0 && bytes <= (guint64) target;
}

/* Largest n in [lo, hi] with ok(n), given ok(lo) (bisection). */
#define LARGEST(lo, hi, OK) \
  G_STMT_START { guint a_ = (lo), b_ = (hi); \
    while (a_ < b_) { guint k = a_ + (b_ - a_ + 1) / 2; if (OK) a_ = k; else b_ = k - 1; } \
    (lo) = a_; } G_STMT_END

/* common_params_fit_impl steps 1, 3 and 4 for one device. */
static void
fit_layers (const Model     *m,
            gint64           target,
            guint64          free_bytes,
            gint64           margin,
            guint           *out_n,
            guint           *out_part,
            HrLayerFraction *out_overflow)
{
  guint all = m->n + 1, n = 0, part = 0;
  HrLayerFraction overflow = HR_LAYER_FRACTION_MOE;
  guint64 dense_all;
  gint64 surplus;

  *out_overflow = HR_LAYER_FRACTION_MOE;
  if (fits (gpu_bytes (m, all, 0, overflow), target))
    {
      *out_n = all;
      *out_part = 0;
      return;
    }
  if (!m->moe)
    {
      LARGEST (n, all, fits (gpu_bytes (m, k, 0, overflow), target));
      *out_n = n;
      *out_part = 0;
      return;
    }

  /* Step 3, MoE: dense-only layers, the output layer whole. */
  LARGEST (n, all, fits (gpu_bytes (m, k, k - 1, overflow), target));
  part = n > 0 ? n - 1 : 0;

  /* dmds_cpu_moe: every layer on the GPU, every expert tensor in host memory. */
  dense_all = m->output + m->compute;
  for (guint i = 0; i < m->n; i++)
    dense_all += m->layers[i].total - experts_of (&m->layers[i]) + m->layers[i].kv;
  surplus = (gint64) MIN (free_bytes, (guint64) G_MAXINT64) - (gint64) MIN (dense_all, (guint64) G_MAXINT64) - margin;

  if (surplus > 0 && n > 0)
    {
      /* Step 4: whole layers from the front, then one more partly. */
      if (fits (gpu_bytes (m, n, 0, overflow), target))
        part = 0;
      else
        {
          guint full = 1;

          LARGEST (full, n, fits (gpu_bytes (m, n, n - k, overflow), target));
          part = n - full;
        }
      if (n > 1 && part > 0)
        {
          if ((gint64) gpu_bytes (m, n, part, HR_LAYER_FRACTION_UP) < target)
            {
              overflow = HR_LAYER_FRACTION_UP;
              if ((gint64) gpu_bytes (m, n, part, HR_LAYER_FRACTION_GATE) < target)
                overflow = HR_LAYER_FRACTION_GATE;
            }
          else if ((gint64) gpu_bytes (m, n, part, HR_LAYER_FRACTION_ATTN) < target)
            overflow = HR_LAYER_FRACTION_ATTN;
        }
    }
  *out_n = n;
  *out_part = part;
  *out_overflow = overflow;
}

/* --------------------------------------------------------------- split */

static gboolean
build_model (Model                     *m,
             const HrRuntimeInputs     *in,
             const HrRuntimePrediction *p)
{
  const HrModelSpec *spec = in->spec;
  guint64 weights = (guint64) MAX (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_WEIGHTS), 0);
  guint64 blocks, emb, cells;

  memset (m, 0, sizeof *m);
  m->n = spec->layers;
  m->layers = g_new0 (Layer, m->n);
  blocks = fill_weights (m, in);
  fill_kv (m, spec, p);
  m->output = weights > blocks ? weights - blocks : 0;
  m->token_embd = p->host_bytes;
  m->compute = (guint64) MAX (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_COMPUTE), 0);
  emb = spec->embedding_length > 0 ? spec->embedding_length : (guint64) spec->heads * spec->key_length;
  cells = p->kv_cells > 0 ? p->kv_cells : p->kv_cells_sliding;
  m->inputs = (guint64) p->ubatch * 4 * (emb + cells);
  m->moe = spec->expert_count > 0;
  m->active = m->moe && spec->expert_used_count > 0 && spec->expert_used_count <= spec->expert_count ?
              (double) spec->expert_used_count / spec->expert_count : 1.0;
  return TRUE;
}

/**
 * hr_offload_inputs_init:
 * @inputs: (out caller-allocates): the inputs
 * @board: the board (not copied: it must outlive @inputs)
 * @spec: the model (not copied)
 * @context_tokens: num_ctx
 *
 * The runtime defaults (hr_runtime_inputs_init()) in the Ollama 0.30 era,
 * the backend of the board (Metal for a "metal" board, else CUDA), automatic
 * layers (num_gpu -1, Ollama's default), llama.cpp's 1024 MiB margin,
 * no learned overhead, Ollama's placement and no placement input
 * (n_cpu_moe 0, -sm layer, no -ts).
 */
void
hr_offload_inputs_init (HrOffloadInputs   *inputs,
                        const HrBoard     *board,
                        const HrModelSpec *spec,
                        guint32            context_tokens)
{
  memset (inputs, 0, sizeof *inputs);
  inputs->board = board;
  hr_runtime_inputs_init (&inputs->runtime, spec, context_tokens);
  inputs->runtime.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  inputs->runtime.skip_text = TRUE;
  if (board != NULL && board->backend == HR_BOARD_BACKEND_METAL)
    inputs->runtime.backend = HR_RUNTIME_BACKEND_METAL;
  inputs->num_gpu = -1;
  inputs->fit_margin_bytes = HR_OFFLOAD_FIT_MARGIN_BYTES;
  inputs->sched_spread = FALSE;
  inputs->main_gpu_set = FALSE;
  inputs->main_gpu = 0;
}

/**
 * hr_offload_format_processor:
 * @vram_bytes: Ollama's size_vram
 * @size_bytes: Ollama's size
 * @out: (out caller-allocates) (array fixed-size=32): the text
 *
 * The PROCESSOR column of `ollama ps` (Ollama cmd/cmd.go ListRunningHandler):
 * "100% CPU" when nothing is in VRAM, "100% GPU" when all is, else the CPU
 * share of the size rounded to a whole percent and the GPU's the rest,
 * "16%/84% CPU/GPU"; "Unknown" when the VRAM is larger than the size.
 */
void
hr_offload_format_processor (guint64 vram_bytes,
                             guint64 size_bytes,
                             char    out[32])
{
  if (vram_bytes == 0)
    g_strlcpy (out, "100% CPU", 32);
  else if (vram_bytes == size_bytes)
    g_strlcpy (out, "100% GPU", 32);
  else if (vram_bytes > size_bytes || size_bytes == 0)
    g_strlcpy (out, "Unknown", 32);
  else
    {
      int cpu = (int) round ((double) (size_bytes - vram_bytes) / (double) size_bytes * 100.0);

      g_snprintf (out, 32, "%d%%/%d%% CPU/GPU", cpu, 100 - cpu);
    }
}

static void
sum_side (HrOffloadSide *side)
{
  side->total = side->weights + side->kv_cache + side->compute;
}

/* Both sides' bytes and per-token reads for a layout. */
static void
place (const Model     *m,
       guint            n,
       guint            part,
       HrLayerFraction  overflow,
       HrOffload       *out)
{
  double idle = 1.0 - m->active;
  gboolean whole;
  guint partial = 0;

  out->vram = (HrOffloadSide) { 0 };
  out->host = (HrOffloadSide) { 0 };
  out->gpu_read_bytes = 0;
  out->host_read_bytes = 0;
  out->host.weights = m->token_embd;
  if (n > 0)
    {
      out->vram.weights = m->output;
      out->vram.compute = m->compute;
      out->gpu_read_bytes = m->output;
    }
  else
    {
      guint64 output = m->tied ? (m->output > m->token_embd ? m->output - m->token_embd : 0) : m->output;

      out->host.weights += output;
      out->host_read_bytes += m->tied ? m->output : output;
    }
  for (guint i = 0; i < m->n; i++)
    {
      const Layer *l = &m->layers[i];
      HrLayerFraction f = fraction_of (m, i, n, part, overflow);
      guint64 gpu = on_gpu (l, f), gpu_x = experts_on_gpu (l, f);
      guint64 host_x = experts_of (l) - gpu_x;

      out->vram.weights += gpu;
      out->host.weights += l->total - gpu;
      out->gpu_read_bytes += gpu - (guint64) (gpu_x * idle);
      out->host_read_bytes += (l->total - gpu) - (guint64) (host_x * idle);
      if (f == HR_LAYER_FRACTION_NONE)
        out->host.kv_cache += l->kv;
      else
        out->vram.kv_cache += l->kv;
      if (counts_partial (m, i, f))
        partial++;
    }
  whole = n == m->n + 1 && part == 0 && partial == 0;
  out->host.compute = whole ? m->inputs : m->inputs + m->compute;
  sum_side (&out->vram);
  sum_side (&out->host);
  out->gpu_layers = n;
  out->partial_layers = partial;
  out->overflow = partial > 0 ? overflow : HR_LAYER_FRACTION_MOE;
  out->size_bytes = whole ? out->vram.total : out->vram.total + out->host.total;
  hr_offload_format_processor (out->vram.total, out->size_bytes, out->processor);
}

/* The verdict of a discrete board's split (see hr_offload_predict());
 * hr-offload-private.h. */
void
hr_offload_judge (const HrBoard *board,
                  HrOffload     *out)
{
  gboolean whole = out->gpu_layers == out->total_layers && out->partial_layers == 0;
  guint64 budget = hr_board_budget_bytes (board);
  guint64 host_room = hr_board_host_headroom_bytes (board);

  if (out->vram.total > out->free_vram_bytes)
    {
      out->verdict = HR_VERDICT_OVER;
      out->margin_bytes = out->vram.total - out->free_vram_bytes;
    }
  else if (whole)
    {
      out->verdict = out->vram.total <= budget ? HR_VERDICT_FITS : HR_VERDICT_TIGHT;
      out->margin_bytes = out->vram.total <= budget ? budget - out->vram.total : out->free_vram_bytes - out->vram.total;
    }
  else if (hr_board_has_host (board) && out->host.total <= host_room)
    {
      out->verdict = HR_VERDICT_PARTIAL;
      out->margin_bytes = host_room - out->host.total;
    }
  else
    {
      out->verdict = HR_VERDICT_OVER;
      out->margin_bytes = hr_board_has_host (board) ? out->host.total - host_room : out->host.total;
    }
}

/**
 * hr_offload_pool_bytes:
 * @board: the board
 * @prediction: the runtime prediction (hr_runtime_predict(), with any
 *   learned overhead already applied)
 *
 * What a model takes of the board's pool when it is judged at one context
 * and precision: the runtime total (the ollama ps size, and the learned
 * overhead when applied) and, on a unified board, the bytes the runtime
 * keeps in host memory (prediction->host_bytes, the input token
 * embedding), which there come out of the same pool. Every one-pool
 * verdict on a runtime prediction is judged on this figure
 * (hr_board_verdict()), the fit finders' (hr_offload_max_context(),
 * hr_offload_best_precision()) through hr_offload_predict() too, so a
 * finder's answer gets the verdict a direct prediction at it gets.
 *
 * Returns: bytes (saturating at G_MAXUINT64)
 */
guint64
hr_offload_pool_bytes (const HrBoard             *board,
                       const HrRuntimePrediction *prediction)
{
  return hr_offload_pool_bytes_for (board, prediction->total_bytes, prediction->host_bytes);
}

/**
 * hr_offload_pool_bytes_for:
 * @board: the board
 * @total_bytes: a prediction's total, in bytes (with any learned overhead)
 * @host_bytes: what it keeps in host memory, in bytes
 *
 * hr_offload_pool_bytes() on a prediction's two figures (a context step's,
 * hr_runtime_predict_context_step(), has no whole prediction): the total,
 * and on a unified board the host bytes too.
 *
 * Returns: bytes (saturating at G_MAXUINT64)
 */
guint64
hr_offload_pool_bytes_for (const HrBoard *board,
                           guint64        total_bytes,
                           guint64        host_bytes)
{
  guint64 total = total_bytes;

  if (board->unified)
    hr_add_u64 (total, host_bytes, &total); /* G_MAXUINT64 on overflow */
  return total;
}

/* The projector (Ollama llm/llama_server.go, hr-mmproj.h): whether it is
 * offloaded, on this board's one GPU (its free memory, its pool as the
 * total), and the fit margin Ollama pads for it. A CPU board has no GPU
 * to test. */
static void
place_projector (const HrOffloadInputs *inputs,
                 const HrBoard         *board,
                 HrOffload             *out)
{
  guint64 projector = inputs->runtime.spec != NULL ? inputs->runtime.spec->projector_bytes : 0;

  if (inputs->llama_server)
    {
      /* llama-server by hand: --mmproj-offload is on by default
       * (common/common.h mmproj_use_gpu) and fit keeps its own margin. */
      out->mmproj_offload = HR_MMPROJ_OFFLOAD_ON;
      out->fit_margin_used_bytes = inputs->fit_margin_bytes;
      out->projector_vram_bytes = projector;
      out->projector_host_bytes = 0;
      return;
    }
  out->mmproj_offload = projector > 0 ? hr_mmproj_offload_on_board (board, inputs->num_gpu, inputs->runtime.spec)
                                      : HR_MMPROJ_OFFLOAD_ON;
  out->fit_margin_used_bytes = hr_mmproj_fit_margin_bytes (projector, out->mmproj_offload,
                                                           inputs->fit_margin_bytes,
                                                           inputs->fit_margin_from_user);
  out->projector_vram_bytes = out->mmproj_offload == HR_MMPROJ_OFFLOAD_ON ? projector : 0;
  out->projector_host_bytes = out->mmproj_offload == HR_MMPROJ_OFFLOAD_ON ? 0 : projector;
}

/**
 * hr_offload_predict:
 * @inputs: the board, the model and the server's settings
 * @out: (out caller-allocates): the split
 * @error: return location for a #GError
 *
 * Where each layer of the model goes on the board, as Ollama 0.30+ with
 * llama.cpp's automatic fit places it (common/fit.cpp
 * common_params_fit_impl; Ollama llm/llama_server.go startLlamaServer passes
 * -ngl only for a user's num_gpu):
 *
 * - The target is the free VRAM (pool - resident) less the fit margin.
 * - Every layer goes on the GPU when the whole model (the runtime
 *   prediction's weights + KV cache + compute) is within the target.
 * - Otherwise the output layer and the last blocks go on the GPU, as many as
 *   fit; the output layer is the first placed and never split. A block on
 *   the GPU brings its KV cache; any GPU layer brings the compute buffer.
 * - A mixture of experts keeps its ffn_*_exps tensors in host memory first;
 *   when the dense parts of every layer fit, layers are turned whole from
 *   the front and one more layer is tried with its up (then gate) tensors on
 *   the GPU (LAYER_FRACTION_UP, _GATE, else _ATTN).
 * - Host memory holds token_embd, the CPU layers' weights and KV cache, the
 *   expert tensors left there, and a host compute buffer: ubatch x 4 x
 *   (embedding + cells) bytes (the input embeddings and the mask, f32; from
 *   ollama#9221's 26.01 MiB at 5,120 x 512 and 8,192 cells) plus, when any
 *   layer computes on the CPU, the compute buffer once more (Headroom's
 *   estimate: the CPU backend's graph holds the same peak).
 * - num_gpu 0 puts everything in host memory; num_gpu N places N layers
 *   (the output layer first) with no fit, as -ngl N does.
 *
 * Per-layer bytes come from the spec's tensor list when the runtime uses it
 * (a GGUF-sourced spec at its own precision); otherwise the blocks' weights
 * are spread evenly and, for a MoE, the experts' share is figured from the
 * parameter count. The KV cache is spread over the layers by their KV heads.
 *
 * A unified board keeps every layer in its one pool: the verdict is the
 * seed's (hr_board_verdict()) on what the model takes of that pool, the
 * runtime total and what stays in host memory together
 * (hr_offload_pool_bytes(), in pool_bytes: the figure `predict` and the
 * window's table judge at one context, with the board's learned overhead
 * when inputs->calibration is set: hr_calibration_apply() on the
 * prediction, as they apply it), and PROCESSOR "100% GPU". A "cpu"
 * board keeps every layer in host memory: the verdict is the
 * seed's on the host total against its pool, PROCESSOR "100% CPU".
 *
 * On a discrete board the verdict and margin are: over when the VRAM used
 * passes the free VRAM (a num_gpu too large: margin the excess); fits
 * (budget - VRAM) or tight (free VRAM - VRAM) with every layer on the GPU;
 * partial when some of it is in host memory and the host's free memory
 * (host pool - host resident) holds it (margin what is left); over when it
 * does not, or when the board's host memory is not known (margin the
 * excess, or the host bytes needed).
 *
 * A vision or audio projector (spec->projector_bytes) follows Ollama
 * llm/llama_server.go: --no-mmproj-offload for num_gpu 0, for a num_gpu
 * below the layers, or when the GPU's free memory is under the projector
 * + 1 GiB (hr_mmproj_offload_decision(); a CPU board counts as num_gpu 0);
 * offloaded, the fit margin becomes ceil((projector + 1 GiB) / MiB) MiB
 * (LLAMA_ARG_FIT_TARGET, mmprojFitTargetMiB) unless the user set it
 * (inputs->fit_margin_from_user), which moves layers to the host. The
 * projector's own bytes are in projector_vram_bytes / projector_host_bytes,
 * not in the sides nor in size_bytes (clip.cpp logs no buffer line for
 * them that `ollama ps` counts; see hr-runtime.c).
 *
 * `ollama ps` SIZE is the VRAM when every layer is whole on the GPU, else
 * the VRAM and the host buffers together (Ollama llm/llama_server.go
 * MemorySize); PROCESSOR follows hr_offload_format_processor().
 *
 * A board with several GPUs (hr_board_is_multi_device(), discrete) is
 * placed across them as Ollama chooses them and llama.cpp fits them
 * (hr-offload-devices.c hr_offload_predict_devices()): n_devices, devices[]
 * and binding_device say where, choice why; the sides are the devices'
 * sums. inputs->sched_spread and inputs->main_gpu are Ollama's
 * OLLAMA_SCHED_SPREAD and main_gpu there.
 *
 * The placement inputs people set (hr_offload_check_placement() first):
 * inputs->n_cpu_moe (--cpu-moe, --n-cpu-moe; under Ollama its
 * LLAMA_ARG_CPU_MOE / LLAMA_ARG_N_CPU_MOE, which it passes on) keeps the
 * expert tensors of blocks 0 ... N-1 in host memory (cpu_moe_layers,
 * cpu_moe_bytes) and, a tensor override, stops fit's layer search: every
 * layer (or num_gpu's) is placed as -ngl -1 leaves it, the rest of each
 * block with its KV on its device (fit_skipped). inputs->llama_server
 * places as llama-server run by hand: every discrete GPU (no Ollama
 * choice, no projector padding), -sm none the --main-gpu alone, -ts the
 * layers in the user's shares without fit (user_split).
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT
 *   when there is no board, the runtime era is not 0.30 or llama-server
 *   (Ollama 0.12's own estimator placed layers differently, llm/memory.go
 *   estimateGPULayers, and is not modelled here), a placement input is
 *   refused (hr_offload_check_placement()) or -sm none's --main-gpu names
 *   no GPU, or with hr_runtime_predict()'s errors.
 */
gboolean
hr_offload_predict (const HrOffloadInputs *inputs,
                    HrOffload             *out,
                    GError               **error)
{
  const HrBoard *board = inputs->board;
  Model m;
  guint n, part;
  HrLayerFraction overflow = HR_LAYER_FRACTION_MOE;

  if (board != NULL && hr_board_is_multi_device (board) && board->backend != HR_BOARD_BACKEND_CPU && !board->unified)
    return hr_offload_predict_devices (inputs, out, error);
  if (!hr_offload_begin (inputs, board, out, &m, error))
    return FALSE;

  if (board->backend == HR_BOARD_BACKEND_CPU)
    {
      n = part = 0;
    }
  else if (board->unified)
    {
      n = m.n + 1;
      part = 0;
    }
  else if (inputs->num_gpu >= 0)
    {
      n = MIN ((guint) inputs->num_gpu, m.n + 1);
      part = 0;
    }
  else if (m.overrides)
    {
      /* common/fit.cpp common_params_fit_impl: "tensor_buft_overrides
       * already set by user, abort"; -ngl stays -1, every layer
       * (src/llama-model.cpp llama_model::n_gpu_layers()). */
      n = m.n + 1;
      part = 0;
      out->fit_skipped = TRUE;
    }
  else
    fit_layers (&m, out->target_bytes, out->free_vram_bytes,
                (gint64) MIN (out->fit_margin_used_bytes, (guint64) G_MAXINT64), &n, &part, &overflow);

  place (&m, n, part, overflow, out);
  g_free (m.layers);

  if (board->backend == HR_BOARD_BACKEND_CPU)
    out->verdict = hr_board_verdict (board, out->host.total, &out->margin_bytes);
  else if (board->unified)
    {
      out->pool_bytes = hr_offload_pool_bytes (board, &out->prediction);
      out->verdict = hr_board_verdict (board, out->pool_bytes, &out->margin_bytes);
    }
  else
    hr_offload_judge (board, out);
  return TRUE;
}

/**
 * hr_offload_check_placement:
 * @inputs: the inputs, their board set
 * @error: return location for a #GError
 *
 * The user's placement inputs, checked as llama.cpp takes them
 * (common/arg.cpp and src/llama-model.cpp make_gpu_buft_list):
 *  - -sm row needs the backend's split buffer type
 *    ("ggml_backend_split_buffer_type"), which at this llama.cpp only
 *    ggml-sycl and ggml-hexagon give; CUDA, ROCm (HIP builds ggml-cuda),
 *    Vulkan and Metal do not, and load_tensors stops with "device CUDA0
 *    does not support split buffers";
 *  - -ts and -sm are llama-server's (Ollama sets its own: --split-mode none
 *    on one GPU, llm/llama_server.go appendMainGPUArgs);
 *  - -ts: one share per GPU llama-server uses (the discrete ones, else
 *    all), none negative, not all zero (which llama.cpp takes as no -ts
 *    at all).
 * hr_offload_predict() checks them first.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT naming the
 *   input and what to give instead.
 */
gboolean
hr_offload_check_placement (const HrOffloadInputs *inputs,
                            GError               **error)
{
  const HrBoard *board = inputs->board;
  guint n_gpus = board->devices != NULL && board->devices->len > 0 ? board->devices->len :
                 board->backend != HR_BOARD_BACKEND_CPU && !board->unified ? 1 : 0;
  guint discrete = 0;
  gboolean any = FALSE;

  /* llama-server's devices: the discrete GPUs when there is one
   * (src/llama.cpp: integrated ones only when none is found). */
  for (guint i = 0; board->devices != NULL && i < board->devices->len; i++)
    if (((const HrDevice *) g_ptr_array_index (board->devices, i))->kind != HR_DEVICE_KIND_INTEGRATED)
      discrete++;
  if (discrete > 0)
    n_gpus = discrete;

  if (inputs->split_mode == HR_SPLIT_MODE_ROW)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, "%s",
                   _("--split-mode row needs a split buffer type, which llama.cpp's CUDA, ROCm, Vulkan and Metal backends no longer have: "
                     "llama-server stops with \"device CUDA0 does not support split buffers\" (src/llama-model.cpp make_gpu_buft_list); "
                     "use --split-mode layer"));
      return FALSE;
    }
  if ((inputs->split_mode != HR_SPLIT_MODE_LAYER || inputs->n_tensor_split > 0) && !inputs->llama_server)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, "%s",
                   _("--tensor-split and --split-mode are llama-server's options: Ollama sets the split itself; use --runtime llama-server"));
      return FALSE;
    }
  if (inputs->n_tensor_split == 0)
    return TRUE;
  if (inputs->n_tensor_split != n_gpus)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   /* Translators: the count of values given, the board, its GPUs */
                   _("--tensor-split gives %u shares, but %s has %u GPUs: give one share per GPU, in their order"),
                   inputs->n_tensor_split, board->name, n_gpus);
      return FALSE;
    }
  for (guint i = 0; i < inputs->n_tensor_split; i++)
    {
      if (!(inputs->tensor_split[i] >= 0.0f) || isinf (inputs->tensor_split[i]))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("--tensor-split share %u is negative or not a number: each GPU's share is 0 or more"), i + 1);
          return FALSE;
        }
      any = any || inputs->tensor_split[i] > 0.0f;
    }
  if (!any)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, "%s",
                   _("--tensor-split is all zero: give at least one GPU a share above 0"));
      return FALSE;
    }
  return TRUE;
}

/* The start every placement shares (hr-offload-private.h): the runtime
 * prediction, the model cut into layers (@m, its layers to g_free()), the
 * projector's decision judged on @projector_board's GPU, the free VRAM and
 * target of inputs->board. */
gboolean
hr_offload_begin (const HrOffloadInputs *inputs,
                  const HrBoard         *projector_board,
                  HrOffload             *out,
                  Model                 *m,
                  GError               **error)
{
  const HrBoard *board = inputs->board;
  HrRuntimeInputs runtime = inputs->runtime;

  memset (out, 0, G_STRUCT_OFFSET (HrOffload, total_layers));
  out->pool_bytes = 0;
  out->n_devices = 0;
  out->binding_device = -1;
  out->spread = FALSE;
  out->choice = HR_OFFLOAD_CHOICE_ALL;
  out->pipeline_parallel = FALSE;
  out->ollama_predicted_bytes = 0;
  out->cpu_moe_layers = 0;
  out->cpu_moe_bytes = 0;
  out->fit_skipped = FALSE;
  out->user_split = FALSE;
  memset (m, 0, sizeof *m);
  if (board == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, _("no board to place the model on"));
      return FALSE;
    }
  if (!hr_offload_check_placement (inputs, error))
    return FALSE;
  runtime.parallel_slots = runtime.parallel_slots > 0 ? runtime.parallel_slots : 1;
  if (!hr_runtime_predict (&runtime, &out->prediction, error))
    return FALSE;
  if (out->prediction.era != HR_RUNTIME_ERA_OLLAMA_0_30 && out->prediction.era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the GPU/host split follows Ollama 0.30 and newer (llama.cpp's fit); Ollama 0.12's own estimator is not modelled"));
      return FALSE;
    }

  if (board->unified && board->backend != HR_BOARD_BACKEND_CPU && inputs->calibration != NULL)
    hr_calibration_apply (inputs->calibration, &out->prediction);
  build_model (m, &runtime, &out->prediction);
  m->cpu_moe = MIN (inputs->n_cpu_moe, m->n);
  m->overrides = inputs->n_cpu_moe > 0;
  out->cpu_moe_layers = m->cpu_moe;
  for (guint i = 0; i < m->cpu_moe; i++)
    out->cpu_moe_bytes += experts_of (&m->layers[i]);
  out->total_layers = m->n + 1;
  out->token_embd_bytes = m->token_embd;
  out->free_vram_bytes = hr_board_headroom_bytes (board);
  place_projector (inputs, projector_board, out);
  out->target_bytes = (gint64) MIN (out->free_vram_bytes, (guint64) G_MAXINT64) -
                      (gint64) MIN (out->fit_margin_used_bytes, (guint64) G_MAXINT64);
  out->user_layers = inputs->num_gpu >= 0;
  return TRUE;
}

/**
 * hr_layer_fraction_to_string:
 * @fraction: a fraction
 *
 * Returns: (transfer none): "none", "attn", "up", "gate" or "moe"
 *   (llama.cpp's LAYER_FRACTION_* names, lower case).
 */
const char *
hr_layer_fraction_to_string (HrLayerFraction fraction)
{
  switch (fraction)
    {
    case HR_LAYER_FRACTION_NONE: return "none";
    case HR_LAYER_FRACTION_ATTN: return "attn";
    case HR_LAYER_FRACTION_UP:   return "up";
    case HR_LAYER_FRACTION_GATE: return "gate";
    case HR_LAYER_FRACTION_MOE:
    default:                     return "moe";
    }
}
