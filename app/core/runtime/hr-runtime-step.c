/* hr-runtime-step.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A context step: the bytes of a prediction at another context under the
 * inputs of the last bytes-only one, remaking only what the context
 * changes (the context slider re-predicts every row of the catalog on
 * every step).
 */

#include "config.h"

#include "hr-runtime-private.h"
#include "hr-units.h"

/**
 * rt_step_record: (skip)
 * @ctx: a bytes-only prediction with a cache, just finished without error
 *
 * Keeps in the cache what a context step under the same inputs reads
 * (StepRecord, hr-runtime-private.h): only for Ollama 0.30+ without a
 * draft or MTP layers, whose context changes the clamp, the layout, the
 * KV cache term and the compute term and nothing else (llama-server
 * resolves its slots and --fit from the context:
 * rt_resolve_llama_server(); the old estimator's layers and graph follow
 * it throughout). A prediction with not exactly one compute term and one
 * KV cache term (none for a purely recurrent model) is not kept.
 */
void
rt_step_record (Ctx *ctx)
{
  const HrRuntimePrediction *out = ctx->out;
  StepRecord *rec = &ctx->cache->step;
  guint n_kv = 0, n_compute = 0;
  guint64 variable = 0;
  guint32 per_den;

  rec->valid = FALSE;
  if (out->era != HR_RUNTIME_ERA_OLLAMA_0_30 || ctx->in->draft_spec != NULL || ctx->in->mtp_layers > 0 ||
      out->parallel_slots == 0)
    return;
  for (guint i = 0; i < out->n_terms; i++)
    {
      const HrRuntimeTerm *t = &out->terms[i];

      if (t->kind != HR_RUNTIME_TERM_KV_CACHE && t->kind != HR_RUNTIME_TERM_COMPUTE)
        continue;
      if (t->kind == HR_RUNTIME_TERM_KV_CACHE)
        n_kv++;
      else
        n_compute++;
      variable += (guint64) MAX (t->bytes, 0);
    }
  if (n_compute != 1 || n_kv != (ctx->recurrent_only ? 0u : 1u) || variable > out->total_bytes)
    return;
  rec->unified = (guint8) !!out->kv_unified;
  rec->flash_attention = (guint8) !!out->flash_attention;
  rec->kv_type = (guint8) out->kv_type;
  rec->has_kv = (guint8) (n_kv == 1);
  rec->per_num = (guint32) hr_kv_cache_element_bytes_scaled (out->kv_type, &per_den);
  rec->per_den = per_den;
  rec->slots = out->parallel_slots;
  /* layout_0_30()'s defaults: Ollama's num_batch 512, as -b and -ub. */
  rec->batch = ctx->in->batch > 0 ? ctx->in->batch : 512;
  rec->ubatch = ctx->in->ubatch > 0 ? ctx->in->ubatch : 512;
  rec->fixed_total = out->total_bytes - variable;
  rec->host_bytes = out->host_bytes;
  rec->valid = TRUE;
}

/* The prediction a step's compute term is added to (rt_add_term()), one
 * per thread, kept: a prediction is some 18 KB, which on the stack of
 * every row's step would double the stack a slider step spans. */
static GPrivate scratch_key = G_PRIVATE_INIT (g_free);

static HrRuntimePrediction *
step_scratch (void)
{
  HrRuntimePrediction *scratch = g_private_get (&scratch_key);

  if (G_UNLIKELY (scratch == NULL))
    {
      scratch = g_new0 (HrRuntimePrediction, 1);
      g_private_set (&scratch_key, scratch);
    }
  return scratch;
}

/**
 * hr_runtime_predict_context_step:
 * @inputs: bytes-only inputs (skip_text) with a cache, the same as those of
 *   the last prediction made with that cache but for context_tokens
 * @out: (out caller-allocates): the prediction's figures at
 *   inputs->context_tokens
 *
 * The figures hr_runtime_predict() would give for @inputs, in bytes: the
 * context after the clamp to the model's limit, the KV cache term (0 for a
 * purely recurrent model), the compute buffer term, the total and the host
 * bytes, and the KV cache's type, when the cache holds the last prediction
 * of an Ollama 0.30+ era without a draft. Only what llama.cpp sizes from
 * n_ctx is worked out again, by the functions the whole prediction uses
 * (rt_layout_cells(), rt_kv_bytes(), rt_compute_0_30()); every other term
 * is in the total as the last prediction had it. Nothing is allocated and
 * no text is made.
 *
 * The caller vouches that nothing but the context changed since the
 * cache's last prediction (the catalog model's pass on a context-slider
 * step); the record does not hold the inputs to compare.
 *
 * Returns: %TRUE with @out set; %FALSE when the cache holds no such
 *   record (another era, a draft, a cache emptied for another spec or
 *   precision, no prediction yet) or a figure overflows 64 bits: then the
 *   caller makes the whole prediction with hr_runtime_predict(), which
 *   records for the next step
 */
gboolean
hr_runtime_predict_context_step (const HrRuntimeInputs *inputs,
                                 HrRuntimeContextStep  *out)
{
  HrRuntimeSpecCache *cache = inputs->skip_text ? inputs->cache : NULL;
  const StepRecord *rec;
  HrRuntimePrediction *scratch;
  guint32 limit;
  guint64 kv = 0, compute, total;
  Layout l;
  Ctx ctx;

  if (cache == NULL || !cache->step.valid || cache->spec != inputs->spec ||
      cache->precision != inputs->precision || inputs->context_tokens == 0)
    return FALSE;
  rec = &cache->step;

  /* resolve_context(): Ollama clamps num_ctx to the model's limit. */
  out->context_tokens = inputs->context_tokens;
  out->context_clamped = FALSE;
  limit = cache->dims.context_length;
  if (limit > 0 && out->context_tokens > limit)
    {
      out->context_tokens = limit;
      out->context_clamped = TRUE;
    }

  rt_init_ctx (&ctx);
  ctx.in = inputs;
  ctx.cache = cache;
  ctx.spec = cache->exact != NULL ? cache->exact : inputs->spec;
  ctx.dims = &cache->dims;
  ctx.arch_gemma3 = cache->arch_gemma3;
  ctx.arch_gptoss = cache->arch_gptoss;
  ctx.recurrent_only = cache->recurrent_only;
  ctx.recurrent_layers = cache->recurrent_layers;
  /* What the compute buffer's functions read of the prediction; the one
   * term they add goes into the thread's scratch one. */
  scratch = step_scratch ();
  ctx.out = scratch;
  scratch->era = HR_RUNTIME_ERA_OLLAMA_0_30;
  scratch->flash_attention = rec->flash_attention;
  scratch->kv_type = (HrKvCacheType) rec->kv_type;
  scratch->n_terms = 0;

  /* layout_0_30(): Ollama passes -c num_ctx x slots. */
  l.slots = rec->slots;
  l.unified = rec->unified;
  l.ctx_total = rt_mul (&ctx, out->context_tokens, rec->slots);
  rt_layout_cells (&ctx, &l, rec->batch, rec->ubatch, cache->dims.sliding_window);
  rt_layout_sums (&l, &cache->sums);
  if (rec->has_kv)
    kv = rt_kv_bytes (&ctx, &l, rec->per_num, rec->per_den);
  rt_compute_0_30 (&ctx, &cache->figures, &l);
  if (ctx.overflow || scratch->n_terms != 1 || cache->sums.overflow)
    return FALSE;
  compute = (guint64) MAX (scratch->terms[0].bytes, 0);
  if (kv > (guint64) G_MAXINT64 || !hr_add_u64 (rec->fixed_total, kv, &total) || !hr_add_u64 (total, compute, &total))
    return FALSE;
  out->kv_type = (HrKvCacheType) rec->kv_type;
  out->kv_cache_bytes = kv;
  out->compute_bytes = compute;
  out->total_bytes = total;
  out->host_bytes = rec->host_bytes;
  return TRUE;
}
