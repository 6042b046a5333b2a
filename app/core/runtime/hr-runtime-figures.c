/* hr-runtime-figures.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime model's shared pieces (hr-runtime-private.h): counts with
 * thousands separators, overflow-checked arithmetic, terms and notes, and
 * the model's figures (weights by tensor group, n_ff, which layers slide,
 * recurrent state) read from its spec.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime-private.h"
#include "hr-units.h"



const char *
rt_count (Counts  *c,
   guint64  value)
{
  char digits[32];
  char *out = c->buf[c->next++ % G_N_ELEMENTS (c->buf)];
  int n = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, value);
  int o = 0;

  for (int i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        out[o++] = ',';
      out[o++] = digits[i];
    }
  out[o] = '\0';
  return out;
}

void
rt_note_text (Ctx        *ctx,
              const char *format,
              ...)
{
  va_list args;

  if (!ctx->text || ctx->out->n_notes >= HR_RUNTIME_MAX_NOTES)
    return;
  va_start (args, format);
  g_vsnprintf (ctx->out->notes[ctx->out->n_notes++], HR_RUNTIME_TEXT_LEN, format, args);
  va_end (args);
}

/* Each term kind's stable id (HrRuntimeTerm id). */
const char * const rt_term_ids[HR_RUNTIME_N_TERM_KINDS] = {
  [HR_RUNTIME_TERM_RESERVE] = "reserve",
  [HR_RUNTIME_TERM_BUFFER_LAYER] = "buffer_layer",
  [HR_RUNTIME_TERM_WEIGHTS] = "weights",
  [HR_RUNTIME_TERM_OUTPUT] = "output",
  [HR_RUNTIME_TERM_KV_CACHE] = "kv_cache",
  [HR_RUNTIME_TERM_RECURRENT_STATE] = "recurrent_state",
  [HR_RUNTIME_TERM_COMPUTE] = "compute",
  [HR_RUNTIME_TERM_LEARNED] = "learned",
  [HR_RUNTIME_TERM_PROJECTOR] = "projector",
  [HR_RUNTIME_TERM_DRAFT_WEIGHTS] = "draft_weights",
  [HR_RUNTIME_TERM_DRAFT_KV] = "draft_kv_cache",
  [HR_RUNTIME_TERM_DRAFT_COMPUTE] = "draft_compute",
  [HR_RUNTIME_TERM_DRAFT_OUTPUT] = "draft_output",
};

/* A new term's label, for a person (rt_add_term() with texts). */
void
rt_label_term (Ctx           *ctx,
               HrRuntimeTerm *term)
{
  HrRuntimeTermKind kind = term->kind;

  switch (kind)
    {
    case HR_RUNTIME_TERM_RESERVE: term->label = _("Per-GPU reserve"); break;
    case HR_RUNTIME_TERM_BUFFER_LAYER: term->label = _("Extra layer (buffer)"); break;
    case HR_RUNTIME_TERM_WEIGHTS:
      term->label = ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_12 ? _("Repeating layers") :
                    ctx->in->backend == HR_RUNTIME_BACKEND_CPU ? _("Weights (CPU backend, host memory)") :
                    _("Weights on the GPU");
      break;
    case HR_RUNTIME_TERM_OUTPUT:
      term->label = ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_12 ? _("Output layer") : _("Output buffer");
      break;
    case HR_RUNTIME_TERM_KV_CACHE: term->label = _("KV cache"); break;
    case HR_RUNTIME_TERM_RECURRENT_STATE: term->label = _("Recurrent state"); break;
    case HR_RUNTIME_TERM_COMPUTE:
      term->label = ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_12 ? _("Compute graph") : _("Compute buffer");
      break;
    case HR_RUNTIME_TERM_LEARNED: term->label = _("Learned overhead"); break;
    case HR_RUNTIME_TERM_PROJECTOR: term->label = _("Vision projector"); break;
    case HR_RUNTIME_TERM_DRAFT_WEIGHTS: term->label = _("Draft: weights"); break;
    case HR_RUNTIME_TERM_DRAFT_KV: term->label = _("Draft: KV cache"); break;
    case HR_RUNTIME_TERM_DRAFT_COMPUTE: term->label = _("Draft: compute"); break;
    case HR_RUNTIME_TERM_DRAFT_OUTPUT: term->label = _("Draft: output"); break;
    case HR_RUNTIME_N_TERM_KINDS:
    default: break;
    }
}

/* ------------------------------------------------------------ model figures */


static gboolean
name_is (const char *name,
         const char *group)
{
  gsize n = strlen (group);

  return strncmp (name, group, n) == 0 && name[n] == '.';
}

/* "blk.N.*": TRUE, with @out_first set when N is 0. */
static gboolean
blk_index (const char *name,
           gboolean   *out_first)
{
  const char *p = name + 4;

  if (name[0] != 'b' || name[1] != 'l' || name[2] != 'k' || name[3] != '.' || !g_ascii_isdigit (*p))
    return FALSE;
  *out_first = p[0] == '0' && p[1] == '.';
  while (g_ascii_isdigit (*p))
    p++;
  return *p == '.';
}

guint32
rt_heads_of (const HrModelSpec *spec)
{
  if (spec->heads > 0)
    return spec->heads;
  if (spec->embedding_length > 0 && spec->key_length > 0)
    return MAX (1u, spec->embedding_length / spec->key_length);
  return MAX (1u, spec->kv_heads);
}

guint32
rt_embedding_of (const HrModelSpec *spec)
{
  if (spec->embedding_length > 0)
    return spec->embedding_length;
  return rt_heads_of (spec) * spec->key_length;
}

/* The spec's figures a bytes-only step reads, copied (see SpecDims). */
void
rt_spec_dims (const HrModelSpec *spec,
              SpecDims          *dims)
{
  dims->context_length = spec->context_length;
  dims->sliding_window = spec->sliding_window;
  dims->vocab_size = spec->vocab_size;
  dims->expert_count = spec->expert_count;
  dims->expert_used_count = spec->expert_used_count;
  dims->embedding = rt_embedding_of (spec);
  dims->heads = rt_heads_of (spec);
  dims->projector_bytes = spec->projector_bytes;
}

/* "blk.N.@suffix": TRUE for any layer N. */
static gboolean
blk_tensor_is (const char *name,
               const char *suffix)
{
  const char *p;

  if (name == NULL || strncmp (name, "blk.", 4) != 0 || !g_ascii_isdigit (name[4]))
    return FALSE;
  for (p = name + 4; g_ascii_isdigit (*p); p++)
    ;
  return *p == '.' && strcmp (p + 1, suffix) == 0;
}

/* A mixture of experts' layer mix: the widest dense layer (ffn_down is
 * [n_ff, n_embd]) and the shared experts' width, from the tensors of any
 * layer, else from the keys (llama.cpp src/models/deepseek2.cpp and
 * glm4-moe.cpp: the first leading_dense_block_count layers are dense, of
 * feed_forward_length; llama4.cpp: every interleave_moe_layer_step-th
 * layer is MoE, the others dense, the shared expert of the expert width;
 * deepseek2: expert_shared_count experts of the expert width). */
static void
figure_moe_layers (const HrModelSpec *spec,
                   Figures           *f)
{
  gboolean have_tensors = spec->tensors != NULL && spec->tensors->len > 0;

  f->n_ff_dense = 0;
  f->n_ff_shexp = 0;
  if (have_tensors)
    {
      for (guint i = 0; i < spec->tensors->len; i++)
        {
          const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);
          guint32 w = (guint32) MIN (t->dims[0], G_MAXUINT32);

          if (blk_tensor_is (t->name, "ffn_down.weight"))
            f->n_ff_dense = MAX (f->n_ff_dense, w);
          else if (blk_tensor_is (t->name, "ffn_down_shexp.weight"))
            f->n_ff_shexp = MAX (f->n_ff_shexp, w);
        }
      return;
    }
  if (spec->leading_dense_layers > 0 || spec->moe_layer_step > 1)
    f->n_ff_dense = spec->feed_forward_length;
  if (g_strcmp0 (spec->architecture, "llama4") == 0)
    f->n_ff_shexp = f->n_ff;
  else if (spec->expert_shared_count > 0)
    f->n_ff_shexp = f->n_ff * spec->expert_shared_count;
}

static void
figure_n_ff (Ctx     *ctx,
             Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  guint64 emb = rt_embedding_of (spec);

  /* A mixture of experts: each expert's n_ff, from the expert tensors of
   * any layer (the first layers may be dense: deepseek2, glm4moe, llama4),
   * else {arch}.expert_feed_forward_length (ARCH.feed_forward_length is the
   * dense width there, when present). */
  if (spec->expert_count > 1)
    {
      f->n_ff = 0;
      for (guint i = 0; spec->tensors != NULL && i < spec->tensors->len; i++)
        {
          const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);

          if (blk_tensor_is (t->name, "ffn_down_exps.weight"))
            {
              f->n_ff = (guint32) MIN (t->dims[0], G_MAXUINT32);
              f->n_ff_from = "tensor";
              break;
            }
        }
      if (f->n_ff == 0 && spec->expert_feed_forward_length > 0)
        {
          f->n_ff = spec->expert_feed_forward_length;
          f->n_ff_from = "spec";
        }
      if (f->n_ff > 0)
        {
          figure_moe_layers (spec, f);
          return;
        }
    }
  if (spec->feed_forward_length > 0)
    {
      f->n_ff = spec->feed_forward_length;
      f->n_ff_from = "spec";
      return;
    }
  if (spec->tensors != NULL)
    {
      for (guint i = 0; i < spec->tensors->len; i++)
        {
          const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);

          /* ffn_down is [n_ff, n_embd]: ne[0] is the intermediate size. */
          if (g_strcmp0 (t->name, "blk.0.ffn_down.weight") == 0 ||
              g_strcmp0 (t->name, "blk.0.ffn_down_exps.weight") == 0)
            {
              f->n_ff = (guint32) MIN (t->dims[0], G_MAXUINT32);
              f->n_ff_from = "tensor";
              return;
            }
        }
    }
  /* From the parameter count: P = embeddings + layers x (attention + 3 x
   * embedding x n_ff) for a gated feed-forward, solved for n_ff. */
  if (spec->parameters > 0 && spec->layers > 0 && emb > 0)
    {
      double heads = rt_heads_of (spec);
      double kv = spec->kv_heads;
      double embeddings = (double) spec->vocab_size * emb * (spec->tied_embeddings ? 1.0 : 2.0);
      double attention = emb * (heads * spec->key_length + kv * spec->key_length +
                                kv * spec->value_length + heads * spec->value_length);
      double per_layer = ((double) spec->parameters - embeddings) / spec->layers;
      double n_ff = (per_layer - attention) / (3.0 * emb);

      if (spec->expert_count > 1)
        n_ff /= spec->expert_count;
      if (n_ff >= 1.0 && n_ff < 1e7)
        {
          f->n_ff = (guint32) (n_ff + 0.5);
          f->n_ff_from = "parameters";
          return;
        }
    }
  f->n_ff = (guint32) MIN (4 * emb, G_MAXUINT32);
  f->n_ff_from = "guess";
}

/* The figures from the tensor list, exact: every tensor's bytes summed
 * by group (blk.N, blk.0, token_embd, output, output_norm); no output
 * tensor means the output is token_embd (tied). */
static void
figures_from_tensors (Ctx     *ctx,
                      Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  gboolean have_output = FALSE;

  f->exact = TRUE;
  for (guint i = 0; i < spec->tensors->len; i++)
    {
      const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);
      gboolean first;

      f->all = rt_add (ctx, f->all, t->bytes);
      if (t->name == NULL)
        continue;
      /* The first letter sorts most names out without a string compare. */
      switch (t->name[0])
        {
        case 'b':
          if (blk_index (t->name, &first))
            {
              f->blk_sum = rt_add (ctx, f->blk_sum, t->bytes);
              if (first)
                f->blk0 = rt_add (ctx, f->blk0, t->bytes);
            }
          break;
        case 't':
          if (name_is (t->name, "token_embd"))
            f->token_embd = rt_add (ctx, f->token_embd, t->bytes);
          break;
        case 'o':
          if (name_is (t->name, "output"))
            {
              f->output = rt_add (ctx, f->output, t->bytes);
              have_output = TRUE;
            }
          else if (name_is (t->name, "output_norm"))
            f->output_norm = rt_add (ctx, f->output_norm, t->bytes);
          break;
        default:
          break;
        }
    }
  f->tied = !have_output;
}

/* The figures without a tensor list (or at another precision than the
 * file's): the weights from the spec (hr_memory_spec_weight_bytes()),
 * token_embd (and an untied output) as vocab x embedding at f->bits, the
 * blocks the rest, blk.0 their average; with texts, notes saying so. */
static void
figures_estimated (Ctx     *ctx,
                   Figures *f,
                   gboolean same_precision)
{
  const HrModelSpec *spec = ctx->spec;
  const HrPrecision *precision = ctx->in->precision;
  guint64 weights = hr_memory_spec_weight_bytes (spec, precision);
  guint64 emb_values = rt_mul (ctx, spec->vocab_size, rt_embedding_of (spec));
  guint64 embd = hr_memory_weight_bytes (emb_values, f->bits);
  guint64 both;
  char bits[G_ASCII_DTOSTR_BUF_SIZE];

  f->exact = FALSE;
  f->tied = spec->tied_embeddings != FALSE;
  f->all = weights;
  f->token_embd = embd;
  f->output = f->tied ? 0 : embd;
  both = rt_add (ctx, f->token_embd, f->output);
  f->blk_sum = weights > both ? weights - both : 0;
  f->blk0 = spec->layers > 0 ? f->blk_sum / spec->layers : 0;
  if (!ctx->text)
    return;
  g_ascii_formatd (bits, sizeof bits, "%.2f", f->bits);
  if (spec->tensors != NULL && !same_precision)
    rt_note (ctx, _("The tensor list is the file as pulled (%s); at %s the weights are sketched from the parameter count."),
             spec->precision, precision->label);
  if (spec->vocab_size == 0)
    rt_note (ctx, _("No tensor list and no vocabulary size: token_embd cannot be told apart from the other weights."));
  else
    rt_note (ctx, _("No tensor list: token_embd estimated as vocab x embedding x bits / 8 = %s x %s x %s / 8 = %s bytes, at the precision's average bits per weight."),
             rt_count (&ctx->counts, spec->vocab_size), rt_count (&ctx->counts, rt_embedding_of (spec)),
             bits, rt_count (&ctx->counts, embd));
}

/* The model's weight figures: from the tensor list where it is the file
 * at the precision asked, else estimated; then the feed-forward widths
 * (figure_n_ff()). */
void
rt_figure_weights (Ctx     *ctx,
                   Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  const HrPrecision *file_precision = hr_precision_lookup (spec->precision);
  const HrPrecision *precision = ctx->in->precision;
  gboolean same_precision = precision == NULL ||
    (spec->precision != NULL && g_ascii_strcasecmp (precision->id, spec->precision) == 0);

  memset (f, 0, sizeof *f);
  f->bits = precision != NULL ? precision->bits_per_weight :
            file_precision != NULL ? file_precision->bits_per_weight : 16.0;
  if (spec->tensors != NULL && spec->tensors->len > 0 && same_precision)
    figures_from_tensors (ctx, f);
  else
    figures_estimated (ctx, f, same_precision);
  figure_n_ff (ctx, f);
}

/* @arch is lower case: most names are told apart by their first letter,
 * without a call (the slider asks several times per row and step). */
gboolean
rt_arch_is (const HrModelSpec *spec,
         const char        *arch)
{
  const char *a = spec->architecture;

  return a != NULL && g_ascii_tolower (a[0]) == arch[0] && g_ascii_strcasecmp (a, arch) == 0;
}

/* llama.cpp's per-architecture sliding-window patterns
 * (src/llama-model.cpp load_hparams, set_swa_pattern): a layer is sliding
 * when i % period < period - 1; 0 for an architecture without one. */
static guint
swa_period (const HrModelSpec *spec)
{
  if (rt_arch_is (spec, "gemma2") || rt_arch_is (spec, "gpt-oss") || rt_arch_is (spec, "gptoss"))
    return 2;
  if (rt_arch_is (spec, "gemma3"))
    return 6;
  if (rt_arch_is (spec, "cohere2") || rt_arch_is (spec, "exaone4") || rt_arch_is (spec, "llama4"))
    return 4;
  return 0;
}

/* Does llama.cpp treat layer @i as a sliding-window layer? */
gboolean
rt_layer_sliding (const HrModelSpec *spec,
                    guint              i)
{
  guint period;

  if (spec->sliding_window == 0)
    return FALSE;
  /* llama.cpp switches the phi3 architecture's sliding window off
   * (load_hparams: "Phi SWA is currently disabled"). */
  if (rt_arch_is (spec, "phi3"))
    return FALSE;
  if (spec->layer_sliding != NULL)
    return hr_model_spec_layer_is_sliding (spec, i);
  period = swa_period (spec);
  if (period > 0)
    return (i % period) < period - 1;
  return hr_model_spec_layer_is_sliding (spec, i);
}

/* Are all of @spec's layers alike to llama.cpp: the same KV heads and head
 * sizes, all sliding or none, none recurrent? Then one layer's figures times
 * the layer count are the model's, and a per-layer loop can be skipped. */
gboolean
rt_layers_uniform (const HrModelSpec *spec)
{
  if (spec->layer_kv_heads != NULL || spec->layer_recurrent != NULL)
    return FALSE;
  if (spec->sliding_window == 0 || rt_arch_is (spec, "phi3"))
    return TRUE;
  return spec->layer_sliding == NULL && swa_period (spec) == 0;
}

/* Layer @i's key and value head sizes: a sliding-window layer's own
 * (key_length_swa, llama.cpp hparams.n_embd_head_k (il)), else the model's. */
guint32
rt_layer_key_length (const HrModelSpec *spec,
                     guint              i)
{
  return spec->key_length_swa > 0 && rt_layer_sliding (spec, i) ? spec->key_length_swa : spec->key_length;
}

guint32
rt_layer_value_length (const HrModelSpec *spec,
                       guint              i)
{
  return spec->value_length_swa > 0 && rt_layer_sliding (spec, i) ? spec->value_length_swa : spec->value_length;
}

gboolean
rt_layer_recurrent (const HrModelSpec *spec,
                    guint              i)
{
  return hr_model_spec_layer_is_recurrent (spec, i) &&
         (spec->recurrent_r > 0 || spec->recurrent_s > 0);
}

/* Values of recurrent state per layer per slot: llama.cpp's n_embd_r () +
 * n_embd_s () (src/llama-hparams.cpp), as the spec's mapper worked them out
 * for the architecture. */
guint64
rt_recurrent_values (Ctx *ctx)
{
  return rt_add (ctx, ctx->spec->recurrent_r, ctx->spec->recurrent_s);
}

/* Appends " @text" to @term's note (cut at HR_RUNTIME_TEXT_LEN). */
void
rt_append_note (HrRuntimeTerm *term,
                const char    *text)
{
  gsize len = strlen (term->note);

  g_snprintf (term->note + len, sizeof term->note - len, len > 0 ? " %s" : "%s", text);
}
