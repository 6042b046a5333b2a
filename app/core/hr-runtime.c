/* hr-runtime.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime model: see hr-runtime.h. The rules come from Ollama's and
 * llama.cpp's own source, read for the facts and written again here:
 *  - Ollama 0.30+: llm/llama_server.go (launch flags, buffer-size parsing),
 *    llama.cpp src/llama-model.cpp (token_embd stays in host memory),
 *    src/llama-kv-cache.cpp / llama-kv-cache-iswa.cpp (cells, padding,
 *    sliding-window layers), src/llama-context.cpp (graph reserve).
 *  - Ollama <= 0.12.10: llm/memory.go estimateGPULayers, fs/ggml/ggml.go
 *    GraphSize, ml/device.go MinimumMemory, server/sched.go (automatic
 *    parallel slots).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-ollama-host.h"
#include "hr-runtime.h"
#include "hr-units.h"

#define MIB G_GUINT64_CONSTANT (1048576)

/* llama.cpp pads the KV cache to 256 cells (ollama-api.md, "How Ollama 0.30+
 * sizes a loaded model"; llama_kv_cache::get_padding). */
#define KV_PAD_0_30 256u

#define SRC_030_WEIGHTS \
  "ollama-api.md \"How Ollama 0.30+ sizes a loaded model\"; llama.cpp src/llama-model.cpp " \
  "load_tensors (the input token_embd stays in host memory; a tied output is loaded as a GPU copy); " \
  "Ollama llm/llama_server.go (size = the GPU buffers when every layer is offloaded)"
#define SRC_030_KV \
  "llama.cpp src/llama-kv-cache.cpp (per layer: cells x KV heads x (key + value length) x element size; " \
  "the context padded to 256 cells) and src/llama-kv-cache-iswa.cpp (sliding-window layers: " \
  "pad256(min(context, window x slots + ubatch))); element sizes from ggml: f16 2, q8_0 34/32, q4_0 18/32"
#define SRC_030_RS \
  "llama.cpp src/llama-memory-recurrent.cpp (per slot: (d_conv - 1) x (d_inner + 2 x n_group x d_state) " \
  "+ d_state x d_inner values, always f32)"
#define SRC_030_COMPUTE \
  "Headroom's estimate of llama.cpp src/llama-context.cpp graph_reserve (the worst-case graph, ubatch " \
  "tokens against the full KV cache, allocated by ggml-alloc with reuse: the peak of tensors alive at once), " \
  "after ollama-api.md \"How Ollama 0.30+ sizes a loaded model\"; checked there against 66 / 228 MiB " \
  "(llama3.2:3b, 4096), 112 / 300 MiB (Llama-3.1-8B, 4096) and 137 / 353 MiB (phi-4, 4096), flash attention on / off"
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

/* Thousands-separated counts without allocating: a ring of buffers. */
typedef struct {
  char buf[16][32];
  guint next;
} Counts;

static const char *
C (Counts  *c,
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

typedef struct {
  const HrRuntimeInputs *in;
  const HrModelSpec     *spec;
  HrRuntimePrediction   *out;
  gboolean               text;
  gboolean               overflow;
  Counts                 counts;
  guint                  version_major, version_minor, version_patch;
  gboolean               have_version;
  gboolean               arch_gemma3;   /* looked up once: the per-layer loops ask */
  gboolean               arch_gptoss;
} Ctx;

static void
add_note (Ctx        *ctx,
          const char *format,
          ...) G_GNUC_PRINTF (2, 3);

static void
add_note (Ctx        *ctx,
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

static guint64
mul (Ctx     *ctx,
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

static guint64
add (Ctx     *ctx,
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

static guint64
pad_up (guint64 value,
        guint64 to)
{
  return (value + to - 1) / to * to;
}

static HrRuntimeTerm *
add_term (Ctx               *ctx,
          HrRuntimeTermKind  kind,
          gint64             bytes,
          const char        *source)
{
  static const char *ids[HR_RUNTIME_N_TERM_KINDS] = {
    [HR_RUNTIME_TERM_RESERVE] = "reserve",
    [HR_RUNTIME_TERM_BUFFER_LAYER] = "buffer_layer",
    [HR_RUNTIME_TERM_WEIGHTS] = "weights",
    [HR_RUNTIME_TERM_OUTPUT] = "output",
    [HR_RUNTIME_TERM_KV_CACHE] = "kv_cache",
    [HR_RUNTIME_TERM_RECURRENT_STATE] = "recurrent_state",
    [HR_RUNTIME_TERM_COMPUTE] = "compute",
    [HR_RUNTIME_TERM_LEARNED] = "learned",
  };
  HrRuntimeTerm *term = &ctx->out->terms[ctx->out->n_terms++];

  term->kind = kind;
  term->id = ids[kind];
  term->label = NULL;
  term->bytes = bytes;
  term->source = source;
  term->formula[0] = '\0';
  term->note[0] = '\0';
  if (ctx->text)
    {
      switch (kind)
        {
        case HR_RUNTIME_TERM_RESERVE: term->label = _("Per-GPU reserve"); break;
        case HR_RUNTIME_TERM_BUFFER_LAYER: term->label = _("Extra layer (buffer)"); break;
        case HR_RUNTIME_TERM_WEIGHTS:
          term->label = ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_12 ? _("Repeating layers") : _("Weights on the GPU");
          break;
        case HR_RUNTIME_TERM_OUTPUT: term->label = _("Output layer"); break;
        case HR_RUNTIME_TERM_KV_CACHE: term->label = _("KV cache"); break;
        case HR_RUNTIME_TERM_RECURRENT_STATE: term->label = _("Recurrent state"); break;
        case HR_RUNTIME_TERM_COMPUTE:
          term->label = ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_12 ? _("Compute graph") : _("Compute buffer");
          break;
        case HR_RUNTIME_TERM_LEARNED: term->label = _("Learned overhead"); break;
        case HR_RUNTIME_N_TERM_KINDS:
        default: break;
        }
    }
  return term;
}

/* ---------------------------------------------------------------- versions */

/**
 * hr_runtime_parse_version:
 * @version: (nullable): "0.31.2", "v0.12.10", "ollama 0.31.2" or
 *   "0.31.2-rc1" (what /api/version and the measurement archive hold)
 * @out_major: (out) (optional): major
 * @out_minor: (out) (optional): minor
 * @out_patch: (out) (optional): patch, 0 when absent
 *
 * Returns: %TRUE when a MAJOR.MINOR[.PATCH] version was found.
 */
gboolean
hr_runtime_parse_version (const char *version,
                          guint      *out_major,
                          guint      *out_minor,
                          guint      *out_patch)
{
  guint64 parts[3] = { 0, 0, 0 };
  const char *p;
  guint n = 0;

  if (version == NULL)
    return FALSE;
  p = version;
  while (*p != '\0' && !g_ascii_isdigit (*p))
    p++;
  while (n < 3 && g_ascii_isdigit (*p))
    {
      char *end = NULL;

      parts[n] = g_ascii_strtoull (p, &end, 10);
      if (end == p || parts[n] > G_MAXUINT16)
        return FALSE;
      n++;
      p = end;
      if (*p != '.')
        break;
      p++;
    }
  if (n < 2)
    return FALSE;
  if (out_major)
    *out_major = parts[0];
  if (out_minor)
    *out_minor = parts[1];
  if (out_patch)
    *out_patch = parts[2];
  return TRUE;
}

static guint
version_key (guint major,
             guint minor,
             guint patch)
{
  return major * 1000000u + minor * 1000u + MIN (patch, 999u);
}

/**
 * hr_runtime_era_for_version:
 * @version: (nullable): the server's /api/version
 *
 * Which era sizes a loaded model on that server (ollama-api.md, "What `size`
 * in /api/ps measures"): up to 0.12.10 Ollama's estimate; from 0.30
 * llama-server's buffers. Versions in between sized what the runner
 * allocated (weights + KV + compute graph), which the 0.30 model describes
 * best; a dev build ("0.0.0"), an unknown or unreadable version also gets
 * the newest era.
 *
 * Returns: %HR_RUNTIME_ERA_OLLAMA_0_12 or %HR_RUNTIME_ERA_OLLAMA_0_30.
 */
HrRuntimeEra
hr_runtime_era_for_version (const char *version)
{
  guint major, minor, patch;

  if (!hr_runtime_parse_version (version, &major, &minor, &patch))
    return HR_RUNTIME_ERA_OLLAMA_0_30;
  if (major == 0 && minor == 0 && patch == 0)
    return HR_RUNTIME_ERA_OLLAMA_0_30;
  if (version_key (major, minor, patch) <= version_key (0, 12, 10))
    return HR_RUNTIME_ERA_OLLAMA_0_12;
  return HR_RUNTIME_ERA_OLLAMA_0_30;
}

/**
 * hr_runtime_era_to_string:
 * @era: an era
 *
 * Returns: "ollama-0.30", "ollama-0.12" or "auto" (the CLI's --runtime words).
 */
const char *
hr_runtime_era_to_string (HrRuntimeEra era)
{
  switch (era)
    {
    case HR_RUNTIME_ERA_OLLAMA_0_30: return "ollama-0.30";
    case HR_RUNTIME_ERA_OLLAMA_0_12: return "ollama-0.12";
    case HR_RUNTIME_ERA_AUTO:
    default: return "auto";
    }
}

/**
 * hr_runtime_era_from_string:
 * @str: "ollama-0.30", "ollama-0.12" or "auto" (case-insensitive)
 * @out_era: (out): the era
 *
 * Returns: %TRUE when @str names an era.
 */
gboolean
hr_runtime_era_from_string (const char   *str,
                            HrRuntimeEra *out_era)
{
  static const HrRuntimeEra eras[] = { HR_RUNTIME_ERA_AUTO, HR_RUNTIME_ERA_OLLAMA_0_30, HR_RUNTIME_ERA_OLLAMA_0_12 };

  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (eras); i++)
    if (g_ascii_strcasecmp (str, hr_runtime_era_to_string (eras[i])) == 0)
      {
        *out_era = eras[i];
        return TRUE;
      }
  return FALSE;
}

/**
 * hr_runtime_era_label:
 * @era: an era
 *
 * Returns: (transfer none): the era as a person reads it, translated.
 */
const char *
hr_runtime_era_label (HrRuntimeEra era)
{
  switch (era)
    {
    case HR_RUNTIME_ERA_OLLAMA_0_30: return _("Ollama 0.30 and newer (llama-server buffers)");
    case HR_RUNTIME_ERA_OLLAMA_0_12: return _("Ollama up to 0.12 (the old estimator)");
    case HR_RUNTIME_ERA_AUTO:
    default: return _("chosen from the server version");
    }
}

/**
 * hr_runtime_auto_parallel_tries:
 * @version: (nullable): the server version
 * @out_tries: (out caller-allocates) (array fixed-size=2): the slot counts
 *   the old scheduler tries, largest first
 *
 * Ollama's automatic parallel slots (server/sched.go defaultParallel, when
 * OLLAMA_NUM_PARALLEL is unset): 0.2 to 0.6 try 4 then 1, 0.7 to 0.9 try 2
 * then 1, before 0.2 and from 0.10 one slot. An unknown version is taken as
 * 0.12 (one slot).
 *
 * Returns: how many entries of @out_tries are set (1 or 2).
 */
guint
hr_runtime_auto_parallel_tries (const char *version,
                                guint32     out_tries[2])
{
  guint major, minor, patch;
  guint key;

  out_tries[0] = 1;
  out_tries[1] = 1;
  if (!hr_runtime_parse_version (version, &major, &minor, &patch))
    return 1;
  key = version_key (major, minor, patch);
  if (key >= version_key (0, 2, 0) && key < version_key (0, 7, 0))
    out_tries[0] = 4;
  else if (key >= version_key (0, 7, 0) && key < version_key (0, 10, 0))
    out_tries[0] = 2;
  else
    return 1;
  return 2;
}

/**
 * hr_runtime_format_ps_size:
 * @bytes: a loaded size
 *
 * The size as `ollama ps` prints SIZE (hr_ollama_format_size(): decimal GB,
 * one decimal under 10, the integer part from 10 up).
 *
 * Returns: (transfer full): "2.6 GB".
 */
char *
hr_runtime_format_ps_size (guint64 bytes)
{
  return hr_ollama_format_size (bytes);
}

/* ------------------------------------------------------------ model figures */

typedef struct {
  gboolean exact;        /* from the tensor list */
  gboolean tied;         /* no output tensor: the output shares token_embd */
  guint64  all;          /* every tensor (estimate: the weights) */
  guint64  token_embd;
  guint64  output;       /* output group, 0 when tied */
  guint64  output_norm;
  guint64  blk_sum;      /* every blk.N group */
  guint64  blk0;         /* the blk.0 group */
  double   bits;         /* bits per weight used for estimates */
  guint32  n_ff;
  const char *n_ff_from; /* "spec", "tensor", "parameters", "guess" */
} Figures;

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

static guint32
heads_of (const HrModelSpec *spec)
{
  if (spec->heads > 0)
    return spec->heads;
  if (spec->embedding_length > 0 && spec->key_length > 0)
    return MAX (1u, spec->embedding_length / spec->key_length);
  return MAX (1u, spec->kv_heads);
}

static guint32
embedding_of (const HrModelSpec *spec)
{
  if (spec->embedding_length > 0)
    return spec->embedding_length;
  return heads_of (spec) * spec->key_length;
}

static void
figure_n_ff (Ctx     *ctx,
             Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  guint64 emb = embedding_of (spec);

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
      double heads = heads_of (spec);
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

static void
figure_weights (Ctx     *ctx,
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
    {
      gboolean have_output = FALSE;

      f->exact = TRUE;
      for (guint i = 0; i < spec->tensors->len; i++)
        {
          const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);
          gboolean first;

          f->all = add (ctx, f->all, t->bytes);
          if (t->name == NULL)
            continue;
          /* The first letter sorts most names out without a string compare. */
          switch (t->name[0])
            {
            case 'b':
              if (blk_index (t->name, &first))
                {
                  f->blk_sum = add (ctx, f->blk_sum, t->bytes);
                  if (first)
                    f->blk0 = add (ctx, f->blk0, t->bytes);
                }
              break;
            case 't':
              if (name_is (t->name, "token_embd"))
                f->token_embd = add (ctx, f->token_embd, t->bytes);
              break;
            case 'o':
              if (name_is (t->name, "output"))
                {
                  f->output = add (ctx, f->output, t->bytes);
                  have_output = TRUE;
                }
              else if (name_is (t->name, "output_norm"))
                f->output_norm = add (ctx, f->output_norm, t->bytes);
              break;
            default:
              break;
            }
        }
      f->tied = !have_output;
    }
  else
    {
      guint64 weights = hr_memory_spec_weight_bytes (spec, precision);
      guint64 emb_values = mul (ctx, spec->vocab_size, embedding_of (spec));
      guint64 embd = hr_memory_weight_bytes (emb_values, f->bits);
      guint64 both;

      f->exact = FALSE;
      f->tied = spec->tied_embeddings;
      f->all = weights;
      f->token_embd = embd;
      f->output = f->tied ? 0 : embd;
      both = add (ctx, f->token_embd, f->output);
      f->blk_sum = weights > both ? weights - both : 0;
      f->blk0 = spec->layers > 0 ? f->blk_sum / spec->layers : 0;

      if (ctx->text)
        {
          char bits[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (bits, sizeof bits, "%.2f", f->bits);
          if (spec->tensors != NULL && !same_precision)
            add_note (ctx, _("The tensor list is the file as pulled (%s); at %s the weights are sketched from the parameter count."),
                      spec->precision, precision->label);
          if (spec->vocab_size == 0)
            add_note (ctx, _("No tensor list and no vocabulary size: token_embd cannot be told apart from the other weights."));
          else
            add_note (ctx, _("No tensor list: token_embd estimated as vocab x embedding x bits / 8 = %s x %s x %s / 8 = %s bytes, at the precision's average bits per weight."),
                      C (&ctx->counts, spec->vocab_size), C (&ctx->counts, embedding_of (spec)),
                      bits, C (&ctx->counts, embd));
        }
    }
  figure_n_ff (ctx, f);
}

static gboolean
arch_is (const HrModelSpec *spec,
         const char        *arch)
{
  return spec->architecture != NULL && g_ascii_strcasecmp (spec->architecture, arch) == 0;
}

/* Does llama.cpp treat layer @i as a sliding-window layer? */
static gboolean
layer_sliding_0_30 (const HrModelSpec *spec,
                    guint              i)
{
  guint period = 0;

  if (spec->sliding_window == 0)
    return FALSE;
  /* llama.cpp switches the phi3 architecture's sliding window off
   * (load_hparams: "Phi SWA is currently disabled"). */
  if (arch_is (spec, "phi3"))
    return FALSE;
  if (spec->layer_sliding != NULL)
    return hr_model_spec_layer_is_sliding (spec, i);
  /* llama.cpp's per-architecture patterns (llama-model.cpp set_swa_pattern):
   * a layer is sliding when i % period < period - 1. */
  if (arch_is (spec, "gemma2") || arch_is (spec, "gpt-oss") || arch_is (spec, "gptoss"))
    period = 2;
  else if (arch_is (spec, "gemma3"))
    period = 6;
  else if (arch_is (spec, "cohere2"))
    period = 4;
  if (period > 0)
    return (i % period) < period - 1;
  return hr_model_spec_layer_is_sliding (spec, i);
}

static gboolean
layer_recurrent (const HrModelSpec *spec,
                 guint              i)
{
  return hr_model_spec_layer_kv_heads (spec, i) == 0 &&
         spec->ssm_state_size > 0 && spec->ssm_inner_size > 0;
}

/* Values of recurrent state per layer per slot (llama.cpp n_embd_r + n_embd_s). */
static guint64
recurrent_values (Ctx *ctx)
{
  const HrModelSpec *spec = ctx->spec;
  guint64 r = 0, s;

  if (spec->ssm_conv_kernel > 0)
    r = mul (ctx, spec->ssm_conv_kernel - 1,
             add (ctx, spec->ssm_inner_size,
                  mul (ctx, 2, mul (ctx, spec->ssm_group_count, spec->ssm_state_size))));
  s = mul (ctx, spec->ssm_state_size, spec->ssm_inner_size);
  return add (ctx, r, s);
}

/* ---------------------------------------------------------- settings */

static void
resolve_flash_attention (Ctx *ctx)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  gboolean supported = TRUE;

  if (out->era == HR_RUNTIME_ERA_OLLAMA_0_12)
    {
      /* fs/ggml SupportsFlashAttention: not gemma2, and key length equal to
       * value length. */
      supported = !arch_is (spec, "gemma2") && spec->key_length == spec->value_length;
      switch (ctx->in->flash_attention)
        {
        case HR_FLASH_ATTENTION_ON:
          out->flash_attention = supported;
          if (!supported)
            add_note (ctx, _("Ollama 0.12 does not use flash attention for this model (gemma2, or key and value lengths differ): it is off."));
          break;
        case HR_FLASH_ATTENTION_OFF:
          out->flash_attention = FALSE;
          break;
        case HR_FLASH_ATTENTION_AUTO:
        default:
          /* fs/ggml FlashAttention(): on by default for these architectures. */
          out->flash_attention = supported &&
            (arch_is (spec, "gemma3") || arch_is (spec, "gptoss") || arch_is (spec, "gpt-oss") ||
             arch_is (spec, "qwen3") || arch_is (spec, "qwen3moe") ||
             arch_is (spec, "qwen3vl") || arch_is (spec, "qwen3vlmoe"));
          add_note (ctx, out->flash_attention ?
                    _("Flash attention on: Ollama 0.12 turns it on by default for this architecture.") :
                    _("Flash attention off: Ollama 0.12 turns it on only when OLLAMA_FLASH_ATTENTION is set or for gemma3, gpt-oss and qwen3."));
          break;
        }
    }
  else
    {
      switch (ctx->in->flash_attention)
        {
        case HR_FLASH_ATTENTION_ON:
          out->flash_attention = TRUE;
          break;
        case HR_FLASH_ATTENTION_OFF:
          out->flash_attention = FALSE;
          break;
        case HR_FLASH_ATTENTION_AUTO:
        default:
          out->flash_attention = TRUE;
          add_note (ctx, _("Flash attention auto: Ollama starts llama-server with --flash-attn auto, which turns it on where the GPU backend supports it (CUDA and Metal do)."));
          break;
        }
    }

  out->kv_type = ctx->in->kv_type;
  if (out->kv_type != HR_KV_CACHE_F16 && !out->flash_attention)
    {
      add_note (ctx, _("A %s KV cache needs flash attention; with it off the cache is f16."),
                hr_kv_cache_type_to_string (out->kv_type));
      out->kv_type = HR_KV_CACHE_F16;
    }
}

/* ------------------------------------------------------------ era 0.30 */

static void
predict_0_30 (Ctx           *ctx,
              const Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  guint64 slots = out->parallel_slots;
  guint64 ctx_total = mul (ctx, out->context_tokens, slots);
  guint64 batch = ctx->in->batch > 0 ? ctx->in->batch : 512;
  guint64 ubatch = ctx->in->ubatch > 0 ? ctx->in->ubatch : 512;
  guint64 cells, cells_swa = 0, compute_cells;
  guint64 per_num, kv_bytes_total = 0, rs_values = 0, weights;
  guint32 per_den;
  guint64 dims = (guint64) spec->key_length + spec->value_length;
  guint n_global = 0, n_sliding = 0, n_recurrent = 0;
  guint32 kvh_global = 0, kvh_sliding = 0;
  gboolean mixed_heads = FALSE;
  guint64 global_elements = 0, sliding_elements = 0;
  HrRuntimeTerm *term;

  /* llama.cpp: n_batch = min(n_ctx, n_batch), n_ubatch = min(n_batch, n_ubatch). */
  batch = MIN (batch, ctx_total);
  ubatch = MIN (ubatch, batch);
  out->ubatch = (guint32) ubatch;

  cells = pad_up (ctx_total, KV_PAD_0_30);
  if (spec->sliding_window > 0)
    cells_swa = MIN (cells, pad_up (add (ctx, mul (ctx, spec->sliding_window, slots), ubatch), KV_PAD_0_30));

  for (guint i = 0; i < spec->layers; i++)
    {
      guint32 kvh = hr_model_spec_layer_kv_heads (spec, i);

      if (kvh == 0)
        {
          if (layer_recurrent (spec, i))
            n_recurrent++;
          continue;
        }
      if (layer_sliding_0_30 (spec, i))
        {
          if (n_sliding > 0 && kvh != kvh_sliding)
            mixed_heads = TRUE;
          kvh_sliding = kvh;
          n_sliding++;
          sliding_elements = add (ctx, sliding_elements, mul (ctx, kvh, dims));
        }
      else
        {
          if (n_global > 0 && kvh != kvh_global)
            mixed_heads = TRUE;
          kvh_global = kvh;
          n_global++;
          global_elements = add (ctx, global_elements, mul (ctx, kvh, dims));
        }
    }
  out->kv_cells = n_global > 0 || n_sliding == 0 ? (guint32) MIN (cells, G_MAXUINT32) : 0;
  out->kv_cells_sliding = n_sliding > 0 ? (guint32) MIN (cells_swa, G_MAXUINT32) : 0;

  per_num = hr_kv_cache_element_bytes_scaled (out->kv_type, &per_den);
  {
    guint64 g = mul (ctx, mul (ctx, global_elements, cells), per_num) / per_den;
    guint64 s = mul (ctx, mul (ctx, sliding_elements, cells_swa), per_num) / per_den;

    kv_bytes_total = add (ctx, g, s);
  }

  /* Weights on the GPU. */
  weights = f->tied ? f->all : (f->all > f->token_embd ? f->all - f->token_embd : 0);
  out->host_bytes = f->token_embd;
  term = add_term (ctx, HR_RUNTIME_TERM_WEIGHTS, (gint64) MIN (weights, (guint64) G_MAXINT64), SRC_030_WEIGHTS);
  if (ctx->text)
    {
      if (f->tied)
        {
          g_snprintf (term->formula, sizeof term->formula,
                      _("every tensor = %s bytes (tied embeddings: the output is token_embd's GPU copy)"),
                      C (&ctx->counts, f->all));
          g_snprintf (term->note, sizeof term->note,
                      _("The model has no output tensor, so llama.cpp loads token_embd a second time as the output on the GPU; the input copy (%s bytes) stays in host memory and is not in the ollama ps size."),
                      C (&ctx->counts, f->token_embd));
        }
      else
        {
          g_snprintf (term->formula, sizeof term->formula,
                      _("every tensor - token_embd = %s - %s = %s bytes"),
                      C (&ctx->counts, f->all), C (&ctx->counts, f->token_embd), C (&ctx->counts, weights));
          g_snprintf (term->note, sizeof term->note,
                      _("llama.cpp keeps the input embedding (token_embd, %s bytes) in host memory; the model has its own output tensor, so token_embd is not on the GPU and not in the ollama ps size."),
                      C (&ctx->counts, f->token_embd));
        }
      if (!f->exact)
        {
          gsize len = strlen (term->note);
          g_snprintf (term->note + len, sizeof term->note - len, " %s",
                      spec->file_bytes > 0 && ctx->in->precision == NULL ?
                      _("Without a tensor list the file size stands for every tensor (it also holds the GGUF header, a few MB)."):
                      _("Without a tensor list every tensor is parameters x bits / 8."));
        }
    }

  /* KV cache. */
  term = add_term (ctx, HR_RUNTIME_TERM_KV_CACHE, (gint64) MIN (kv_bytes_total, (guint64) G_MAXINT64), SRC_030_KV);
  if (ctx->text)
    {
      char elem[32];

      if (per_den == 1)
        g_snprintf (elem, sizeof elem, "%" G_GUINT64_FORMAT, per_num);
      else
        g_snprintf (elem, sizeof elem, "%" G_GUINT64_FORMAT "/%u", per_num, per_den);

      if (mixed_heads)
        g_snprintf (term->formula, sizeof term->formula,
                    _("sum over layers of KV heads x (%u + %u) x cells x %s bytes; global layers %s cells, sliding layers %s cells = %s bytes"),
                    spec->key_length, spec->value_length, elem,
                    C (&ctx->counts, cells), C (&ctx->counts, cells_swa), C (&ctx->counts, kv_bytes_total));
      else if (n_sliding > 0 && n_global > 0)
        g_snprintf (term->formula, sizeof term->formula,
                    _("%u global layers x %u KV heads x (%u + %u) x %s cells x %s bytes + %u sliding layers x %u KV heads x (%u + %u) x %s cells x %s bytes = %s bytes"),
                    n_global, kvh_global, spec->key_length, spec->value_length, C (&ctx->counts, cells), elem,
                    n_sliding, kvh_sliding, spec->key_length, spec->value_length, C (&ctx->counts, cells_swa), elem,
                    C (&ctx->counts, kv_bytes_total));
      else
        g_snprintf (term->formula, sizeof term->formula,
                    _("%u layers x %u KV heads x (%u + %u) x %s cells x %s bytes = %s bytes"),
                    n_sliding > 0 ? n_sliding : n_global, n_sliding > 0 ? kvh_sliding : kvh_global,
                    spec->key_length, spec->value_length,
                    C (&ctx->counts, n_sliding > 0 ? cells_swa : cells), elem, C (&ctx->counts, kv_bytes_total));

      if (n_sliding > 0)
        g_snprintf (term->note, sizeof term->note,
                    _("Cells = pad256(num_ctx x slots) = pad256(%s x %s) = %s; sliding-window layers hold pad256(min(%s, window x slots + ubatch)) = pad256(min(%s, %s x %s + %s)) = %s cells."),
                    C (&ctx->counts, out->context_tokens), C (&ctx->counts, slots), C (&ctx->counts, cells),
                    C (&ctx->counts, cells), C (&ctx->counts, ctx_total), C (&ctx->counts, spec->sliding_window),
                    C (&ctx->counts, slots), C (&ctx->counts, ubatch), C (&ctx->counts, cells_swa));
      else
        g_snprintf (term->note, sizeof term->note,
                    _("Cells = pad256(num_ctx x slots) = pad256(%s x %s) = %s: llama.cpp pads the cache to a multiple of 256."),
                    C (&ctx->counts, out->context_tokens), C (&ctx->counts, slots), C (&ctx->counts, cells));
      if (spec->sliding_window > 0 && n_sliding == 0 && arch_is (spec, "phi3"))
        {
          gsize len = strlen (term->note);
          g_snprintf (term->note + len, sizeof term->note - len, " %s",
                      _("llama.cpp switches the phi3 architecture's sliding window off: every layer holds the full context."));
        }
    }

  /* Recurrent state. */
  if (n_recurrent > 0)
    {
      guint64 rs;

      rs_values = recurrent_values (ctx);
      rs = mul (ctx, mul (ctx, mul (ctx, rs_values, n_recurrent), slots), 4);
      term = add_term (ctx, HR_RUNTIME_TERM_RECURRENT_STATE, (gint64) MIN (rs, (guint64) G_MAXINT64), SRC_030_RS);
      kv_bytes_total = add (ctx, kv_bytes_total, rs);
      if (ctx->text)
        g_snprintf (term->formula, sizeof term->formula,
                    _("%u recurrent layers x ((%u - 1) x (%u + 2 x %u x %u) + %u x %u) values x %s slots x 4 bytes = %s bytes"),
                    n_recurrent, spec->ssm_conv_kernel, spec->ssm_inner_size, spec->ssm_group_count,
                    spec->ssm_state_size, spec->ssm_state_size, spec->ssm_inner_size,
                    C (&ctx->counts, slots), C (&ctx->counts, rs));
    }

  /* Compute buffer. */
  {
    guint64 emb = embedding_of (spec);
    guint64 heads = heads_of (spec);
    guint64 n_ff = f->n_ff;
    guint64 compute, ffn, mask, scores = 0;

    if (spec->expert_count > 1 && spec->expert_used_count > 0)
      n_ff = mul (ctx, n_ff, spec->expert_used_count);
    compute_cells = n_global > 0 ? cells : n_sliding > 0 ? cells_swa : 0;

    if (out->flash_attention)
      {
        ffn = mul (ctx, mul (ctx, 4, ubatch), add (ctx, mul (ctx, 3, n_ff), emb));
        mask = mul (ctx, mul (ctx, compute_cells, ubatch), 4 + 2);
        compute = add (ctx, ffn, mask);
      }
    else
      {
        scores = mul (ctx, mul (ctx, mul (ctx, compute_cells, ubatch), heads), 4);
        mask = mul (ctx, mul (ctx, compute_cells, ubatch), 4);
        ffn = mul (ctx, mul (ctx, 4, ubatch), add (ctx, n_ff, emb));
        compute = add (ctx, add (ctx, scores, mask), ffn);
      }
    term = add_term (ctx, HR_RUNTIME_TERM_COMPUTE, (gint64) MIN (compute, (guint64) G_MAXINT64), SRC_030_COMPUTE);
    if (ctx->text)
      {
        if (out->flash_attention)
          {
            g_snprintf (term->formula, sizeof term->formula,
                        _("ubatch x 4 x (3 x n_ff + embedding) + cells x ubatch x (4 + 2) = %s x 4 x (3 x %s + %s) + %s x %s x 6 = %s bytes"),
                        C (&ctx->counts, ubatch), C (&ctx->counts, n_ff), C (&ctx->counts, emb),
                        C (&ctx->counts, compute_cells), C (&ctx->counts, ubatch), C (&ctx->counts, compute));
            g_snprintf (term->note, sizeof term->note,
                        _("With flash attention the feed-forward intermediates (gate, up and their product, f32) and the attention mask (f32 and an f16 copy) are the peak; llama-server reserves one output per slot, so no vocab x ubatch logits."));
          }
        else
          {
            g_snprintf (term->formula, sizeof term->formula,
                        _("cells x ubatch x heads x 4 + cells x ubatch x 4 + ubatch x 4 x (n_ff + embedding) = %s x %s x %s x 4 + %s x %s x 4 + %s x 4 x (%s + %s) = %s bytes"),
                        C (&ctx->counts, compute_cells), C (&ctx->counts, ubatch), C (&ctx->counts, heads),
                        C (&ctx->counts, compute_cells), C (&ctx->counts, ubatch),
                        C (&ctx->counts, ubatch), C (&ctx->counts, n_ff), C (&ctx->counts, emb),
                        C (&ctx->counts, compute));
            g_snprintf (term->note, sizeof term->note,
                        _("Without flash attention the attention scores (cells x ubatch x heads, f32) dominate and grow with the context."));
          }
        if (g_strcmp0 (f->n_ff_from, "parameters") == 0 || g_strcmp0 (f->n_ff_from, "guess") == 0)
          {
            gsize len = strlen (term->note);
            g_snprintf (term->note + len, sizeof term->note - len, " %s",
                        g_strcmp0 (f->n_ff_from, "parameters") == 0 ?
                        _("n_ff inferred from the parameter count (no tensor list)."):
                        _("n_ff unknown: taken as 4 x embedding."));
          }
      }
  }
}

/* ------------------------------------------------------------ era 0.12 */

typedef struct {
  guint64 reserve, buffer_layer, layers, output, kv, recurrent, graph;
  guint64 kv0;
  guint64 batch, context;
  const char *graph_arch;
} Old;

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
      return mul (ctx, recurrent_values (ctx), 4);
    }
  if (ctx->arch_gemma3 && (i + 1) % 6 != 0)
    cells = add (ctx, mul (ctx, slots, spec->sliding_window), batch);
  else if (ctx->arch_gptoss)
    {
      /* GraphSize's gpt-oss case: even layers slots x 4096 + batch cells,
       * odd layers the full context. */
      if (i % 2 == 0)
        cells = add (ctx, mul (ctx, slots, 4096), batch);
    }
  elements = mul (ctx, mul (ctx, cells, dims), kvh);
  /* kvCacheBytesPerElement: f16 2, q8_0 1, q4_0 0.5. */
  switch (type)
    {
    case HR_KV_CACHE_Q8_0: return elements;
    case HR_KV_CACHE_Q4_0: return elements / 2;
    case HR_KV_CACHE_F16:
    default: return mul (ctx, elements, 2);
    }
}

static void
old_graph (Ctx     *ctx,
           Old     *o,
           guint64 *out_graph,
           char    *formula,
           gsize    formula_len)
{
  const HrModelSpec *spec = ctx->spec;
  guint64 batch = o->batch, context = o->context;
  guint64 emb = embedding_of (spec);
  guint64 heads = heads_of (spec);
  guint64 heads_kv = 0, heads_kv_min = G_MAXUINT64;
  guint64 vocab = spec->vocab_size;
  guint64 emb_heads_k = spec->key_length;
  guint64 a, b;

  for (guint i = 0; i < spec->layers; i++)
    {
      guint64 kvh = hr_model_spec_layer_kv_heads (spec, i);
      heads_kv = MAX (heads_kv, kvh);
      heads_kv_min = MIN (heads_kv_min, kvh);
    }
  if (heads_kv_min == 0 || heads_kv_min == G_MAXUINT64)
    heads_kv_min = 1;

#define F(...) G_STMT_START { if (formula) g_snprintf (formula, formula_len, __VA_ARGS__); } G_STMT_END
  if (arch_is (spec, "llama") || arch_is (spec, "llama4"))
    {
      a = mul (ctx, 4 * batch, add (ctx, 1 + 4 * emb, mul (ctx, context, 1 + heads)));
      b = mul (ctx, 4 * batch, emb + vocab);
      *out_graph = MAX (a, b);
      F ("max(4 x batch x (1 + 4 x embedding + context x (1 + heads)), 4 x batch x (embedding + vocab)) = "
         "max(4 x %s x (1 + 4 x %s + %s x (1 + %s)), 4 x %s x (%s + %s)) = %s bytes",
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, context), C (&ctx->counts, heads),
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, vocab), C (&ctx->counts, *out_graph));
    }
  else if (arch_is (spec, "gemma") || arch_is (spec, "gemma2") || arch_is (spec, "gemma3") || arch_is (spec, "gemma3n"))
    {
      a = mul (ctx, 4 * batch, emb + vocab);
      b = mul (ctx, 4 * batch, add (ctx, add (ctx, 2 + context, mul (ctx, context, heads)),
                                    2 * emb + 2 * emb_heads_k * heads));
      *out_graph = MAX (a, b);
      if (arch_is (spec, "gemma3n"))
        *out_graph = mul (ctx, *out_graph, 4);
      F ("max(4 x batch x (embedding + vocab), 4 x batch x (2 + context + context x heads + 2 x embedding + 2 x key length x heads))%s = "
         "max(4 x %s x (%s + %s), 4 x %s x (2 + %s + %s x %s + 2 x %s + 2 x %s x %s)) = %s bytes",
         arch_is (spec, "gemma3n") ? " x 4" : "",
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, vocab), C (&ctx->counts, batch),
         C (&ctx->counts, context), C (&ctx->counts, context), C (&ctx->counts, heads), C (&ctx->counts, emb),
         C (&ctx->counts, emb_heads_k), C (&ctx->counts, heads), C (&ctx->counts, *out_graph));
    }
  else if (arch_is (spec, "command-r"))
    {
      a = mul (ctx, 4 * batch, emb + vocab);
      b = mul (ctx, 4 * batch, add (ctx, 2 + 4 * emb, mul (ctx, context, 1 + heads)));
      *out_graph = MAX (a, b);
      F ("max(4 x batch x (embedding + vocab), 4 x batch x (2 + 4 x embedding + context x (1 + heads))) = "
         "max(4 x %s x (%s + %s), 4 x %s x (2 + 4 x %s + %s x (1 + %s))) = %s bytes",
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, vocab), C (&ctx->counts, batch),
         C (&ctx->counts, emb), C (&ctx->counts, context), C (&ctx->counts, heads), C (&ctx->counts, *out_graph));
    }
  else if (arch_is (spec, "qwen2"))
    {
      a = mul (ctx, 4 * batch, emb + vocab);
      b = mul (ctx, 4 * batch, add (ctx, 1 + 2 * emb + context, mul (ctx, context, heads)));
      *out_graph = MAX (a, b);
      F ("max(4 x batch x (embedding + vocab), 4 x batch x (1 + 2 x embedding + context + context x heads)) = "
         "max(4 x %s x (%s + %s), 4 x %s x (1 + 2 x %s + %s + %s x %s)) = %s bytes",
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, vocab), C (&ctx->counts, batch),
         C (&ctx->counts, emb), C (&ctx->counts, context), C (&ctx->counts, context), C (&ctx->counts, heads),
         C (&ctx->counts, *out_graph));
    }
  else if (arch_is (spec, "phi2"))
    {
      a = mul (ctx, 4 * batch, emb + vocab);
      b = mul (ctx, 4 * batch, add (ctx, 1 + 4 * emb + context, mul (ctx, context, heads)));
      *out_graph = MAX (a, b);
      F ("max(4 x batch x (embedding + vocab), 4 x batch x (1 + 4 x embedding + context + context x heads)) = "
         "max(4 x %s x (%s + %s), 4 x %s x (1 + 4 x %s + %s + %s x %s)) = %s bytes",
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, vocab), C (&ctx->counts, batch),
         C (&ctx->counts, emb), C (&ctx->counts, context), C (&ctx->counts, context), C (&ctx->counts, heads),
         C (&ctx->counts, *out_graph));
    }
  else if (arch_is (spec, "stablelm"))
    {
      *out_graph = mul (ctx, 4 * batch, add (ctx, mul (ctx, context, 1 + heads), 3 * emb + 2));
      F ("4 x batch x (context x (1 + heads) + 3 x embedding + 2) = 4 x %s x (%s x (1 + %s) + 3 x %s + 2) = %s bytes",
         C (&ctx->counts, batch), C (&ctx->counts, context), C (&ctx->counts, heads), C (&ctx->counts, emb),
         C (&ctx->counts, *out_graph));
    }
  else if (arch_is (spec, "deepseek2"))
    {
      a = mul (ctx, 4 * batch, 3 * emb + vocab);
      b = mul (ctx, 4 * batch, add (ctx, 3 * emb + 2 + 2 * emb_heads_k * heads_kv, mul (ctx, context, 1 + heads_kv)));
      *out_graph = MAX (a, b);
      F ("max(4 x batch x (3 x embedding + vocab), 4 x batch x (3 x embedding + 2 + context x (1 + KV heads) + 2 x key length x KV heads)) = "
         "max(4 x %s x (3 x %s + %s), 4 x %s x (3 x %s + 2 + %s x (1 + %s) + 2 x %s x %s)) = %s bytes",
         C (&ctx->counts, batch), C (&ctx->counts, emb), C (&ctx->counts, vocab), C (&ctx->counts, batch),
         C (&ctx->counts, emb), C (&ctx->counts, context), C (&ctx->counts, heads_kv), C (&ctx->counts, emb_heads_k),
         C (&ctx->counts, heads_kv), C (&ctx->counts, *out_graph));
    }
  else
    {
      /* llm/memory.go: graphPartialOffload = GQA x KV total / 6, and the full
       * graph falls back to it (gpt-oss without flash attention takes 2 x). */
      guint64 gqa = heads / heads_kv_min;
      guint64 kv_total = add (ctx, o->kv, o->recurrent);

      if (arch_is (spec, "gptoss") || arch_is (spec, "gpt-oss"))
        {
          if (ctx->out->flash_attention)
            {
              *out_graph = mul (ctx, 4 * ctx->out->parallel_slots + (context >> 10) + 110, MIB);
              F ("(4 x slots + context / 1024 + 110) MiB = (4 x %u + %s / 1024 + 110) MiB = %s bytes",
                 ctx->out->parallel_slots, C (&ctx->counts, context), C (&ctx->counts, *out_graph));
            }
          else
            {
              *out_graph = mul (ctx, 2 * gqa, kv_total) / 6;
              F ("2 x GQA x KV / 6 = 2 x %s x %s / 6 = %s bytes",
                 C (&ctx->counts, gqa), C (&ctx->counts, kv_total), C (&ctx->counts, *out_graph));
            }
        }
      else
        {
          *out_graph = mul (ctx, gqa, kv_total) / 6;
          F ("GQA x KV / 6 = (%s / %s) x %s / 6 = %s bytes",
             C (&ctx->counts, heads), C (&ctx->counts, heads_kv_min), C (&ctx->counts, kv_total),
             C (&ctx->counts, *out_graph));
        }
      o->graph_arch = NULL;
      return;
    }
#undef F
  o->graph_arch = spec->architecture;
}

static guint64
old_compute (Ctx           *ctx,
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
  o->context = mul (ctx, ctx->out->context_tokens, slots);
  /* GraphSize(num_ctx, min(num_ctx, num_batch), ...) */
  o->batch = MIN ((guint64) ctx->out->context_tokens, num_batch);
  o->reserve = ctx->in->backend == HR_RUNTIME_BACKEND_METAL ? 512 * MIB : 457 * MIB;

  for (guint i = 0; i < spec->layers; i++)
    {
      guint64 kv = old_kv_layer (ctx, i, o->context, slots, o->batch, type, &recurrent);

      if (i == 0)
        o->kv0 = kv;
      if (recurrent)
        o->recurrent = add (ctx, o->recurrent, kv);
      else
        o->kv = add (ctx, o->kv, kv);
    }
  o->buffer_layer = add (ctx, f->blk0, o->kv0);
  o->layers = f->blk_sum;
  o->output = add (ctx, f->output_norm, f->tied ? f->token_embd : f->output);
  old_graph (ctx, o, &o->graph, NULL, 0);

  total = add (ctx, total, o->reserve);
  total = add (ctx, total, o->buffer_layer);
  total = add (ctx, total, o->layers);
  total = add (ctx, total, o->output);
  total = add (ctx, total, o->kv);
  total = add (ctx, total, o->recurrent);
  total = add (ctx, total, o->graph);
  return total;
}

static void
predict_0_12 (Ctx           *ctx,
              const Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  HrRuntimeTerm *term;
  Old o;

  old_compute (ctx, f, out->parallel_slots, &o);
  out->kv_cells = (guint32) MIN (o.context, G_MAXUINT32);
  out->ubatch = (guint32) o.batch;
  out->host_bytes = 0;

  term = add_term (ctx, HR_RUNTIME_TERM_RESERVE, (gint64) o.reserve, SRC_012_RESERVE);
  if (ctx->text)
    {
      g_snprintf (term->formula, sizeof term->formula,
                  ctx->in->backend == HR_RUNTIME_BACKEND_METAL ? _("512 MiB = %s bytes (Metal)") : _("457 MiB = %s bytes (CUDA or ROCm)"),
                  C (&ctx->counts, o.reserve));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("Set aside on every GPU the model uses for the CUDA context and other structures; OLLAMA_GPU_OVERHEAD is only checked against free memory, not added."));
    }

  term = add_term (ctx, HR_RUNTIME_TERM_BUFFER_LAYER, (gint64) o.buffer_layer, SRC_012_BUFFER);
  if (ctx->text)
    g_snprintf (term->formula, sizeof term->formula, _("blk.0 + its KV = %s + %s = %s bytes"),
                C (&ctx->counts, f->blk0), C (&ctx->counts, o.kv0), C (&ctx->counts, o.buffer_layer));

  term = add_term (ctx, HR_RUNTIME_TERM_WEIGHTS, (gint64) o.layers, SRC_012_LAYERS);
  if (ctx->text)
    {
      g_snprintf (term->formula, sizeof term->formula, _("%u repeating layers (blk.0 .. blk.%u) = %s bytes"),
                  spec->layers, spec->layers - 1, C (&ctx->counts, o.layers));
      g_snprintf (term->note, sizeof term->note, "%s",
                  f->exact ? _("The old estimator leaves token_embd out when the model has an output tensor, and other tensors (rope_freqs) too.")
                           : _("Without a tensor list: the weights less the embedding estimates."));
    }

  term = add_term (ctx, HR_RUNTIME_TERM_OUTPUT, (gint64) o.output, SRC_012_OUTPUT);
  if (ctx->text)
    g_snprintf (term->formula, sizeof term->formula,
                f->tied ? _("output_norm + token_embd (tied, no output tensor) = %s + %s = %s bytes")
                        : _("output_norm + output = %s + %s = %s bytes"),
                C (&ctx->counts, f->output_norm), C (&ctx->counts, f->tied ? f->token_embd : f->output),
                C (&ctx->counts, o.output));

  term = add_term (ctx, HR_RUNTIME_TERM_KV_CACHE, (gint64) o.kv, SRC_012_KV);
  if (ctx->text)
    {
      const char *elem = out->kv_type == HR_KV_CACHE_Q8_0 ? "1" : out->kv_type == HR_KV_CACHE_Q4_0 ? "0.5" : "2";

      g_snprintf (term->formula, sizeof term->formula,
                  _("%u layers x %u KV heads x (%u + %u) x %s x %s slots x %s bytes = %s bytes"),
                  spec->layers, spec->kv_heads, spec->key_length, spec->value_length,
                  C (&ctx->counts, out->context_tokens), C (&ctx->counts, out->parallel_slots), elem,
                  C (&ctx->counts, o.kv));
      if (out->kv_type != HR_KV_CACHE_F16)
        g_snprintf (term->note, sizeof term->note, "%s",
                    _("The old estimator counted q8_0 as 1 byte and q4_0 as half a byte per element; the real blocks are 34/32 and 18/32."));
      else if (arch_is (spec, "gemma3"))
        g_snprintf (term->note, sizeof term->note, "%s",
                    _("gemma3: five of every six layers hold slots x window + batch cells."));
      else if (spec->sliding_window > 0)
        g_snprintf (term->note, sizeof term->note, "%s",
                    _("The old estimator gives every layer the full context; it did not model this model's sliding window."));
    }

  if (o.recurrent > 0)
    {
      term = add_term (ctx, HR_RUNTIME_TERM_RECURRENT_STATE, (gint64) o.recurrent, SRC_012_RS);
      if (ctx->text)
        g_snprintf (term->formula, sizeof term->formula, _("recurrent layers x %s values x 4 bytes = %s bytes"),
                    C (&ctx->counts, recurrent_values (ctx)), C (&ctx->counts, o.recurrent));
    }

  term = add_term (ctx, HR_RUNTIME_TERM_COMPUTE, (gint64) o.graph, SRC_012_GRAPH);
  if (ctx->text)
    {
      guint64 graph;
      old_graph (ctx, &o, &graph, term->formula, sizeof term->formula);
      g_snprintf (term->note, sizeof term->note, _("batch = min(num_ctx, num_batch) = %s; context = num_ctx x slots = %s.%s"),
                  C (&ctx->counts, o.batch), C (&ctx->counts, o.context),
                  o.graph_arch == NULL ? _(" No formula for this architecture: the default.") : "");
    }
}

/* -------------------------------------------------------------- public */

/**
 * hr_runtime_inputs_init:
 * @inputs: (out caller-allocates): inputs to fill
 * @spec: the model
 * @context_tokens: num_ctx
 *
 * Sets the defaults: the era from the version (none yet: the newest),
 * automatic parallel slots, an f16 KV cache, flash attention as the server
 * decides, batch and micro-batch 512 (Ollama's num_batch default), CUDA.
 */
void
hr_runtime_inputs_init (HrRuntimeInputs   *inputs,
                        const HrModelSpec *spec,
                        guint32            context_tokens)
{
  memset (inputs, 0, sizeof *inputs);
  inputs->spec = spec;
  inputs->context_tokens = context_tokens;
  inputs->kv_type = HR_KV_CACHE_F16;
  inputs->flash_attention = HR_FLASH_ATTENTION_AUTO;
  inputs->batch = 512;
  inputs->ubatch = 512;
  inputs->era = HR_RUNTIME_ERA_AUTO;
  inputs->backend = HR_RUNTIME_BACKEND_CUDA;
}

/**
 * hr_runtime_predict:
 * @inputs: the model and the server's settings
 * @out: (out caller-allocates): the prediction
 * @error: return location for a #GError
 *
 * Predicts what the server will load and report as /api/ps `size`, term by
 * term (see hr-runtime.h for the two eras and the sources each term cites).
 * Assumes every layer fits on one GPU (the case `100% GPU` describes).
 * num_ctx above the model's context limit is clamped to it, as Ollama does.
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT when
 *   there is no spec, no context, no layers, no KV heads or no head dims, or
 *   %HR_CORE_ERROR_OVERFLOW when a figure does not fit 64 bits.
 */
gboolean
hr_runtime_predict (const HrRuntimeInputs *inputs,
                    HrRuntimePrediction   *out,
                    GError               **error)
{
  const HrModelSpec *spec = inputs->spec;
  Ctx ctx = { 0 };
  Figures f;
  guint64 total = 0;

  /* The header only: the terms and notes are written as they are added
   * (a whole memset costs more than the bytes-only prediction itself). */
  memset (out, 0, G_STRUCT_OFFSET (HrRuntimePrediction, terms));
  out->total_bytes = 0;
  out->host_bytes = 0;
  out->n_notes = 0;
  if (spec == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, _("no model to predict"));
      return FALSE;
    }
  if (inputs->context_tokens == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the context window must be at least 1 token"));
      return FALSE;
    }
  if (spec->layers == 0 || spec->kv_heads == 0 || spec->key_length == 0 || spec->value_length == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("%s has no layers, KV heads or head dims: the runtime model needs them"),
                   spec->name ? spec->name : _("the model"));
      return FALSE;
    }

  ctx.in = inputs;
  ctx.spec = spec;
  ctx.out = out;
  ctx.text = !inputs->skip_text;
  ctx.arch_gemma3 = arch_is (spec, "gemma3");
  ctx.arch_gptoss = arch_is (spec, "gptoss") || arch_is (spec, "gpt-oss");
  ctx.have_version = hr_runtime_parse_version (inputs->server_version, &ctx.version_major,
                                               &ctx.version_minor, &ctx.version_patch);

  /* The era. */
  out->era = inputs->era != HR_RUNTIME_ERA_AUTO ? inputs->era : hr_runtime_era_for_version (inputs->server_version);
  out->era_id = hr_runtime_era_to_string (out->era);
  out->era_label = ctx.text ? hr_runtime_era_label (out->era) : NULL;
  if (ctx.text && inputs->era == HR_RUNTIME_ERA_AUTO)
    {
      guint key = ctx.have_version ? version_key (ctx.version_major, ctx.version_minor, ctx.version_patch) : 0;

      if (!ctx.have_version)
        add_note (&ctx, _("Server version unknown: modelled as Ollama 0.30 and newer."));
      else if (key == 0)
        add_note (&ctx, _("A development build (0.0.0): modelled as Ollama 0.30 and newer."));
      else if (key > version_key (0, 12, 10) && key < version_key (0, 30, 0))
        add_note (&ctx, _("Ollama %u.%u.%u sized what its runner allocated (weights, KV cache, compute graph): modelled as the 0.30 buffers; the learned overhead covers the difference."),
                  ctx.version_major, ctx.version_minor, ctx.version_patch);
      else if (out->era == HR_RUNTIME_ERA_OLLAMA_0_12 && key >= version_key (0, 11, 11))
        add_note (&ctx, _("From 0.11.11 models on Ollama's own engine report what was allocated instead of this estimate."));
    }

  /* num_ctx: clamped to the model's limit (Ollama 0.9.3+, llm/server.go). */
  out->context_tokens = inputs->context_tokens;
  if (spec->context_length > 0 && out->context_tokens > spec->context_length)
    {
      add_note (&ctx, _("num_ctx %u is past the model's limit: Ollama clamps it to %u."),
                out->context_tokens, spec->context_length);
      out->context_tokens = spec->context_length;
    }

  resolve_flash_attention (&ctx);
  figure_weights (&ctx, &f);

  /* Parallel slots. */
  if (inputs->parallel_slots > 0)
    out->parallel_slots = inputs->parallel_slots;
  else if (out->era == HR_RUNTIME_ERA_OLLAMA_0_30)
    out->parallel_slots = 1;
  else
    {
      guint32 tries[2];
      guint n = hr_runtime_auto_parallel_tries (ctx.have_version ? inputs->server_version : NULL, tries);

      out->parallel_slots = tries[0];
      if (n == 2)
        {
          Old probe;

          if (inputs->free_bytes > 0 && old_compute (&ctx, &f, tries[0], &probe) > inputs->free_bytes)
            {
              out->parallel_slots = tries[1];
              add_note (&ctx, _("Automatic parallel slots: %u did not fit the free memory, so %u (server/sched.go)."),
                        tries[0], tries[1]);
            }
          else
            add_note (&ctx, inputs->free_bytes > 0 ?
                      _("Automatic parallel slots: %u fit the free memory (server/sched.go tries %u, then %u).") :
                      _("Automatic parallel slots: %u, the first the scheduler tries (server/sched.go tries %u, then %u; free memory unknown)."),
                      tries[0], tries[0], tries[1]);
        }
    }

  if (out->era == HR_RUNTIME_ERA_OLLAMA_0_30)
    predict_0_30 (&ctx, &f);
  else
    predict_0_12 (&ctx, &f);

  if (ctx.overflow)
    {
      memset (out, 0, sizeof *out);
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("the prediction for %s does not fit 64 bits: check its figures"),
                   spec->name ? spec->name : _("the model"));
      return FALSE;
    }

  for (guint i = 0; i < out->n_terms; i++)
    total = add (&ctx, total, (guint64) MAX (out->terms[i].bytes, 0));
  out->total_bytes = total;
  return TRUE;
}

/**
 * hr_runtime_prediction_get_term:
 * @prediction: a prediction
 * @kind: which term
 *
 * Returns: (transfer none) (nullable): the term, or %NULL when this era has none.
 */
const HrRuntimeTerm *
hr_runtime_prediction_get_term (const HrRuntimePrediction *prediction,
                                HrRuntimeTermKind          kind)
{
  for (guint i = 0; i < prediction->n_terms; i++)
    if (prediction->terms[i].kind == kind)
      return &prediction->terms[i];
  return NULL;
}

/**
 * hr_runtime_prediction_term_bytes:
 * @prediction: a prediction
 * @kind: which term
 *
 * Returns: the term's bytes, 0 when the era has no such term.
 */
gint64
hr_runtime_prediction_term_bytes (const HrRuntimePrediction *prediction,
                                  HrRuntimeTermKind          kind)
{
  const HrRuntimeTerm *term = hr_runtime_prediction_get_term (prediction, kind);

  return term != NULL ? term->bytes : 0;
}

/**
 * hr_runtime_prediction_to_json:
 * @prediction: a prediction
 *
 * The prediction as JSON: era, settings, each term (id, label, bytes,
 * formula, source, note), the total in bytes, GB and as `ollama ps` shows
 * it, host bytes and the notes.
 *
 * Returns: (transfer full): a JSON object node.
 */
JsonNode *
hr_runtime_prediction_to_json (const HrRuntimePrediction *prediction)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *ps = hr_runtime_format_ps_size (prediction->total_bytes);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "era");
  json_builder_add_string_value (builder, prediction->era_id);
  json_builder_set_member_name (builder, "era_label");
  json_builder_add_string_value (builder, prediction->era_label ? prediction->era_label : hr_runtime_era_label (prediction->era));
  json_builder_set_member_name (builder, "context_tokens");
  json_builder_add_int_value (builder, prediction->context_tokens);
  json_builder_set_member_name (builder, "parallel_slots");
  json_builder_add_int_value (builder, prediction->parallel_slots);
  json_builder_set_member_name (builder, "kv_cache_type");
  json_builder_add_string_value (builder, hr_kv_cache_type_to_string (prediction->kv_type));
  json_builder_set_member_name (builder, "flash_attention");
  json_builder_add_boolean_value (builder, prediction->flash_attention);
  json_builder_set_member_name (builder, "ubatch");
  json_builder_add_int_value (builder, prediction->ubatch);
  json_builder_set_member_name (builder, "kv_cells");
  json_builder_add_int_value (builder, prediction->kv_cells);
  json_builder_set_member_name (builder, "kv_cells_sliding");
  json_builder_add_int_value (builder, prediction->kv_cells_sliding);
  json_builder_set_member_name (builder, "terms");
  json_builder_begin_array (builder);
  for (guint i = 0; i < prediction->n_terms; i++)
    {
      const HrRuntimeTerm *term = &prediction->terms[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, term->id);
      json_builder_set_member_name (builder, "label");
      json_builder_add_string_value (builder, term->label ? term->label : term->id);
      json_builder_set_member_name (builder, "bytes");
      json_builder_add_int_value (builder, term->bytes);
      json_builder_set_member_name (builder, "formula");
      json_builder_add_string_value (builder, term->formula);
      json_builder_set_member_name (builder, "source");
      json_builder_add_string_value (builder, term->source ? term->source : "");
      json_builder_set_member_name (builder, "note");
      json_builder_add_string_value (builder, term->note);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "total_bytes");
  json_builder_add_int_value (builder, (gint64) MIN (prediction->total_bytes, (guint64) G_MAXINT64));
  json_builder_set_member_name (builder, "total_gb");
  json_builder_add_double_value (builder, hr_bytes_to_gb (prediction->total_bytes));
  json_builder_set_member_name (builder, "total_gib");
  json_builder_add_double_value (builder, hr_bytes_to_gib (prediction->total_bytes));
  json_builder_set_member_name (builder, "ollama_ps_size");
  json_builder_add_string_value (builder, ps);
  json_builder_set_member_name (builder, "host_bytes");
  json_builder_add_int_value (builder, (gint64) MIN (prediction->host_bytes, (guint64) G_MAXINT64));
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < prediction->n_notes; i++)
    json_builder_add_string_value (builder, prediction->notes[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
