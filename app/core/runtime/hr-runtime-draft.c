/* hr-runtime-draft.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * llama-server's draft model for speculative decoding (-md, --spec-draft-model),
 * sized beside the model it drafts for, the way llama.cpp v0.5.0 loads it:
 *
 *  - common/speculative.cpp common_base_params_to_speculative(): the draft's
 *    params are the target's, with the draft's own model, -ngld (default
 *    -1, "auto") and -ctkd / -ctvd (default f16, not the target's -ctk);
 *    the batch, micro-batch, slots (n_parallel), kv_unified and flash
 *    attention are the target's; n_outputs_max = n_parallel.
 *  - common_speculative_init_result: "the draft context holds as many
 *    tokens per sequence as the target context": cparams.n_ctx =
 *    llama_n_ctx(ctx_tgt); there is no -cd in this version.
 *  - src/llama-model.cpp: n_gpu_layers < 0 offloads n_layer + 1 layers,
 *    every one; common/fit.cpp only measures the draft
 *    (common_fit_extra_model, add_extra_memory: model + context + compute
 *    on the target's devices) and fits the target around it, so the draft
 *    is all on the GPU, its input token_embd in host memory.
 *  - MTP heads inside the model's file (--spec-type draft-mtp, no -md):
 *    common_speculative_init_result makes a context of type
 *    LLAMA_CONTEXT_TYPE_MTP on the target's own weights (common/fit.cpp
 *    shares_model: only its context and compute count); src/llama-model.cpp
 *    create_memory gives it a KV cache of the layers il >= n_layer() alone
 *    (the nextn layers), f16 by -ctkd / -ctvd's default.
 *  - tools/server/server-context.cpp load_model: the draft is loaded (and
 *    its memory taken) even when common_speculative_init() then refuses
 *    it: "the target and draft vocabs are not compatible" is logged and
 *    the server decodes without speculation.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime-private.h"

/* common/speculative.cpp SPEC_VOCAB_MAX_SIZE_DIFFERENCE: the most the
 * target's and the draft's vocabulary sizes may differ. */
#define DRAFT_VOCAB_MAX_DIFFERENCE 128u

#define SRC_MTP \
  "llama.cpp common/speculative.cpp common_speculative_init_result (an MTP context on the " \
  "target's weights, n_ctx and slots the target's), src/llama-model.cpp create_memory " \
  "(LLAMA_CONTEXT_TYPE_MTP: a KV cache of the layers il >= n_layer(), the nextn layers), " \
  "common/common.h (-ctkd/-ctvd f16)"

#define SRC_DRAFT \
  "llama.cpp common/speculative.cpp common_base_params_to_speculative and " \
  "common_speculative_init_result (n_ctx = the target's, f16 KV by default, the target's " \
  "slots, batch and flash attention); src/llama-model.cpp (-ngld auto = every layer); " \
  "common/fit.cpp add_extra_memory (the draft's model, context and compute on the " \
  "target's devices)"

/**
 * hr_runtime_draft_inputs:
 * @inputs: the target model's inputs (inputs->draft_spec set)
 * @target: the target's prediction so far (its context, slots and flash
 *   attention resolved)
 * @out: (out caller-allocates): the draft model's inputs
 *
 * The inputs llama-server's draft context is made with
 * (common/speculative.cpp common_base_params_to_speculative(),
 * common_speculative_init_result): the draft's spec as its file is (no
 * precision sketch), n_ctx = the target's resolved n_ctx, the target's
 * slots as given (-np unset stays auto: 4 slots in one unified stream,
 * as for the target), an f16 KV cache (-ctkd / -ctvd's default), the
 * target's effective flash attention, batch and micro-batch, backend.
 */
void
hr_runtime_draft_inputs (const HrRuntimeInputs     *inputs,
                         const HrRuntimePrediction *target,
                         HrRuntimeInputs           *out)
{
  *out = *inputs;
  out->spec = inputs->draft_spec;
  out->draft_spec = NULL;
  out->cache = NULL; /* the target's: another spec */
  out->mtp_layers = 0;
  out->precision = NULL;
  out->context_tokens = target->context_tokens;
  out->kv_type = HR_KV_CACHE_F16;
  out->flash_attention = target->flash_attention ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  out->server_version = NULL;
}

/**
 * hr_runtime_draft_vocab_compatible:
 * @target: the target model
 * @draft: the draft model
 *
 * Whether llama-server's vocabulary check (common/speculative.cpp
 * common_speculative_are_compatible()) can pass, as far as the specs
 * tell: the vocabulary sizes may differ by at most 128 tokens
 * (SPEC_VOCAB_MAX_SIZE_DIFFERENCE). The check also compares the
 * vocabulary type, BOS/EOS and every token's text from id 5, which a spec
 * does not hold. An unknown size (0) passes.
 *
 * Returns: %FALSE when the sizes tell they are not compatible
 */
gboolean
hr_runtime_draft_vocab_compatible (const HrModelSpec *target,
                                   const HrModelSpec *draft)
{
  guint32 a = target->vocab_size, b = draft->vocab_size;

  if (a == 0 || b == 0)
    return TRUE;
  return (a > b ? a - b : b - a) <= DRAFT_VOCAB_MAX_DIFFERENCE;
}

static HrRuntimeTerm *
draft_term (Ctx               *ctx,
            HrRuntimeTermKind  kind,
            guint64            bytes)
{
  return rt_add_term (ctx, kind, (gint64) MIN (bytes, (guint64) G_MAXINT64), SRC_DRAFT);
}

/* The MTP context on the model's own nextn layers: their KV at the
 * target's cells, f16; its compute an estimate (the target's buffer);
 * on the CPU backend its logits, one row per slot. */
static void
add_mtp (Ctx *ctx)
{
  const HrModelSpec *spec = ctx->spec;
  guint32 n = MIN (ctx->in->mtp_layers, spec->layers);
  guint64 cells = ctx->out->kv_cells, elements = 0, kv, compute;
  HrRuntimeTerm *term;

  for (guint32 il = spec->layers - n; il < spec->layers; il++)
    {
      guint32 kvh = spec->kv_heads;

      /* The GGUF reader gives the nextn layers 0 KV heads, since the
       * model's own cache leaves them out (create_memory: il < n_layer ());
       * the MTP context's cache holds them with the model's heads. */
      if (spec->layer_kv_heads != NULL && il < spec->layer_kv_heads->len &&
          il < spec->layers - MIN (spec->nextn_layers, spec->layers))
        kvh = g_array_index (spec->layer_kv_heads, guint32, il);
      elements = rt_add (ctx, elements, (guint64) kvh * (spec->key_length + spec->value_length));
    }
  kv = rt_mul (ctx, rt_mul (ctx, elements, cells), 2);
  term = rt_add_term (ctx, HR_RUNTIME_TERM_DRAFT_KV, (gint64) MIN (kv, (guint64) G_MAXINT64), SRC_MTP);
  if (ctx->text)
    {
      term->label = _("MTP: KV cache");
      g_snprintf (term->formula, sizeof term->formula,
                  g_dngettext (GETTEXT_PACKAGE,
                               "%u MTP layer: %s KV values x %s cells x 2 bytes (f16, -ctkd/-ctvd) = %s bytes",
                               "%u MTP layers: %s KV values x %s cells x 2 bytes (f16, -ctkd/-ctvd) = %s bytes", n),
                  n, rt_count (&ctx->counts, elements), rt_count (&ctx->counts, cells), rt_count (&ctx->counts, kv));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("The MTP context runs on the model's own weights (no second copy): its own cache holds the MTP layers alone."));
    }
  compute = (guint64) MAX (hr_runtime_prediction_term_bytes (ctx->out, HR_RUNTIME_TERM_COMPUTE), 0);
  term = rt_add_term (ctx, HR_RUNTIME_TERM_DRAFT_COMPUTE, (gint64) MIN (compute, (guint64) G_MAXINT64), SRC_MTP);
  if (ctx->text)
    {
      term->label = _("MTP: compute");
      g_snprintf (term->formula, sizeof term->formula,
                  _("estimate: the model's own compute buffer = %s bytes"), rt_count (&ctx->counts, compute));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("An estimate, on the high side: the MTP graph is one layer and the output head. On a small glm4moe llama-server logged 8.01 MiB for it against the model's 11.01 MiB."));
    }
  if (ctx->in->backend == HR_RUNTIME_BACKEND_CPU && spec->vocab_size > 0)
    {
      guint64 out = rt_mul (ctx, rt_mul (ctx, ctx->out->parallel_slots, spec->vocab_size), 4);

      term = rt_add_term (ctx, HR_RUNTIME_TERM_DRAFT_OUTPUT, (gint64) MIN (out, (guint64) G_MAXINT64), SRC_MTP);
      if (ctx->text)
        {
          term->label = _("MTP: output");
          g_snprintf (term->formula, sizeof term->formula, _("slots x vocab x 4 = %u x %s x 4 = %s bytes"),
                      ctx->out->parallel_slots, rt_count (&ctx->counts, spec->vocab_size), rt_count (&ctx->counts, out));
        }
    }
}

/* The draft's buffers, its terms summed by what they hold. */
typedef struct {
  guint64 weights, kv, compute, output;
} DraftSums;

/* The draft model's own prediction (hr_runtime_predict() on
 * hr_runtime_draft_inputs()) into @dp; its error, if any, prefixed with
 * its name. */
static gboolean
predict_draft (Ctx                 *ctx,
               HrRuntimePrediction *dp,
               GError             **error)
{
  const HrModelSpec *draft = ctx->in->draft_spec;
  HrRuntimeInputs din;
  g_autoptr(GError) local_error = NULL;

  hr_runtime_draft_inputs (ctx->in, ctx->out, &din);
  if (hr_runtime_predict (&din, dp, error != NULL ? &local_error : NULL))
    return TRUE;
  if (local_error != NULL)
    g_set_error (error, local_error->domain, local_error->code, _("the draft model %s: %s"),
                 draft->name != NULL ? draft->name : "?", local_error->message);
  return FALSE;
}

/* The draft's terms grouped as its own terms of the target's prediction:
 * weights (and a projector), KV cache (and recurrent state), the output
 * buffer, and the rest, its compute buffer. */
static void
sum_draft_terms (Ctx                       *ctx,
                 const HrRuntimePrediction *dp,
                 DraftSums                 *sums)
{
  memset (sums, 0, sizeof *sums);
  for (guint i = 0; i < dp->n_terms; i++)
    {
      guint64 b = (guint64) MAX (dp->terms[i].bytes, 0);

      switch (dp->terms[i].kind)
        {
        case HR_RUNTIME_TERM_WEIGHTS:
        case HR_RUNTIME_TERM_PROJECTOR:
          sums->weights = rt_add (ctx, sums->weights, b);
          break;
        case HR_RUNTIME_TERM_KV_CACHE:
        case HR_RUNTIME_TERM_RECURRENT_STATE:
          sums->kv = rt_add (ctx, sums->kv, b);
          break;
        case HR_RUNTIME_TERM_OUTPUT:
          sums->output = rt_add (ctx, sums->output, b);
          break;
        default:
          sums->compute = rt_add (ctx, sums->compute, b);
          break;
        }
    }
}

/* The draft's terms in the target's prediction, with their formulas and
 * the weights' note when the prediction keeps texts. */
static void
add_draft_terms (Ctx                       *ctx,
                 const HrRuntimePrediction *dp,
                 const DraftSums           *sums)
{
  const char *name = ctx->in->draft_spec->name != NULL ? ctx->in->draft_spec->name : "?";
  HrRuntimeTerm *term;

  term = draft_term (ctx, HR_RUNTIME_TERM_DRAFT_WEIGHTS, sums->weights);
  if (ctx->text)
    {
      if (ctx->in->backend == HR_RUNTIME_BACKEND_CPU)
        g_snprintf (term->formula, sizeof term->formula,
                    _("%s, every tensor (CPU backend, host memory) = %s bytes"),
                    name, rt_count (&ctx->counts, sums->weights));
      else
        g_snprintf (term->formula, sizeof term->formula,
                    _("%s, every layer on the GPU (-ngld auto) = %s bytes"),
                    name, rt_count (&ctx->counts, sums->weights));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("llama-server loads the draft with every layer offloaded; its fit measures the draft and fits the target's layers and context around it."));
    }
  term = draft_term (ctx, HR_RUNTIME_TERM_DRAFT_KV, sums->kv);
  if (ctx->text)
    g_snprintf (term->formula, sizeof term->formula,
                g_dngettext (GETTEXT_PACKAGE, "the draft's own cache at the target's n_ctx %s and %u slot, f16 (-ctkd/-ctvd) = %s bytes",
                             "the draft's own cache at the target's n_ctx %s and %u slots, f16 (-ctkd/-ctvd) = %s bytes",
                             dp->parallel_slots),
                rt_count (&ctx->counts, dp->context_tokens), dp->parallel_slots, rt_count (&ctx->counts, sums->kv));
  term = draft_term (ctx, HR_RUNTIME_TERM_DRAFT_COMPUTE, sums->compute);
  if (ctx->text)
    g_snprintf (term->formula, sizeof term->formula,
                _("the draft context's compute buffer, ubatch %u, flash attention %s = %s bytes"),
                dp->ubatch, dp->flash_attention ? _("on") : _("off"), rt_count (&ctx->counts, sums->compute));
  if (sums->output > 0)
    {
      term = draft_term (ctx, HR_RUNTIME_TERM_DRAFT_OUTPUT, sums->output);
      if (ctx->text)
        g_snprintf (term->formula, sizeof term->formula,
                    _("the draft's logits, one row per slot = %s bytes"), rt_count (&ctx->counts, sums->output));
    }
}

/* The -md draft model: predicted on its own, its terms added, its host
 * bytes (its token_embd) beside the target's, and what the server does
 * with a vocabulary it cannot use or an unset -c. Its prediction lives on
 * the stack here, not in rt_add_draft()'s frame: the slider's predictions
 * have no draft and should not pay for the room. */
static gboolean
add_draft_model (Ctx     *ctx,
                 GError **error)
{
  const HrModelSpec *draft = ctx->in->draft_spec;
  HrRuntimePrediction draft_prediction; /* on the stack: nothing is allocated */
  DraftSums sums;

  if (!predict_draft (ctx, &draft_prediction, error))
    return FALSE;
  sum_draft_terms (ctx, &draft_prediction, &sums);
  add_draft_terms (ctx, &draft_prediction, &sums);
  ctx->out->host_bytes = rt_add (ctx, ctx->out->host_bytes, draft_prediction.host_bytes);

  if (!hr_runtime_draft_vocab_compatible (ctx->spec, draft))
    rt_note (ctx, _("The draft's vocabulary (%s tokens) differs from the model's (%s) by more than 128: llama-server loads it and takes its memory, then logs “the target and draft vocabs are not compatible” and decodes without speculation (common/speculative.cpp common_speculative_are_compatible)."),
             rt_count (&ctx->counts, draft->vocab_size), rt_count (&ctx->counts, ctx->spec->vocab_size));
  if (ctx->in->context_tokens == 0)
    rt_note (ctx, "%s", _("With -c unset, llama-server's fit counts the draft at every context it tries (common/fit.cpp add_extra_memory); Headroom fits the context without it, so give --context with --draft."));
  return TRUE;
}

/**
 * rt_add_draft:
 * @ctx: the target's prediction, resolved and with its terms
 * @error: return location for a #GError
 *
 * Adds the draft model's terms (weights, KV cache with any recurrent
 * state, compute buffer, and on the CPU backend its output buffer) and
 * its host bytes, from hr_runtime_predict() run on
 * hr_runtime_draft_inputs() (add_draft_model()); or, with mtp_layers, the
 * MTP context's (add_mtp(): the nextn layers' f16 KV at the target's
 * cells, the target's compute buffer as an estimate, the CPU backend's
 * logits). Nothing without either.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_UNSUPPORTED for an era other
 *   than llama-server (Ollama passes its DRAFT as --spec-type draft-mtp,
 *   llm/llama_server.go appendDraftArgs, which loads only MTP heads), or
 *   the draft's own prediction error, its message prefixed with its name;
 *   %HR_CORE_ERROR_INVALID_ARGUMENT for a draft and MTP heads together.
 */
gboolean
rt_add_draft (Ctx     *ctx,
              GError **error)
{
  const HrModelSpec *draft = ctx->in->draft_spec;

  if (draft == NULL && ctx->in->mtp_layers == 0)
    return TRUE;
  if (draft != NULL && ctx->in->mtp_layers > 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("a draft model and the model's own MTP heads: size one of them"));
      return FALSE;
    }
  if (ctx->out->era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED, "%s",
                   draft != NULL ?
                   _("a draft model is sized for llama-server (--runtime llama-server): Ollama passes a model's DRAFT as --spec-type draft-mtp (llm/llama_server.go appendDraftArgs), which loads only MTP or DFlash heads") :
                   _("MTP heads are sized for llama-server's --spec-type draft-mtp (--runtime llama-server)"));
      return FALSE;
    }
  if (draft == NULL)
    {
      add_mtp (ctx);
      return TRUE;
    }
  return add_draft_model (ctx, error);
}
