/* hr-runtime.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime model's entry points (see hr-runtime.h): the inputs, the
 * prediction, its terms and its JSON. The rules come from Ollama's and
 * llama.cpp's own source, read for the facts and written again in the
 * files beside this one (hr-runtime-private.h lists them):
 *  - Ollama 0.30+: llm/llama_server.go (launch flags, buffer-size parsing),
 *    llama.cpp src/llama-model.cpp (token_embd stays in host memory),
 *    src/llama-kv-cache.cpp / llama-kv-cache-iswa.cpp (cells, padding,
 *    sliding-window layers, one stream per slot), src/llama-context.cpp
 *    (graph reserve) and src/llama-graph.cpp (the attention mask).
 *  - Ollama <= 0.12.10: llm/memory.go estimateGPULayers, fs/ggml/ggml.go
 *    GraphSize, ml/device.go MinimumMemory, server/sched.go (automatic
 *    parallel slots).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime-private.h"
#include "hr-units.h"

/* The total of the terms (summed as they were added, rt_add_term()), or
 * an overflow error (the prediction zeroed). */
static gboolean
finish (Ctx     *ctx,
        GError **error)
{
  HrRuntimePrediction *out = ctx->out;

  if (ctx->overflow)
    {
      memset (out, 0, sizeof *out);
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("the prediction for %s does not fit 64 bits: check its figures"),
                   ctx->spec->name ? ctx->spec->name : _("the model"));
      return FALSE;
    }
  out->total_bytes = ctx->total;
  return TRUE;
}

#define SRC_PROJECTOR \
  "Ollama llm/llama_server.go mmprojMemoryRequirement (a separate projector GGUF: all its tensors; the " \
  "model's own GGUF: its v., mm. and a. tensors), passed to llama-server as --mmproj and loaded by " \
  "llama.cpp tools/mtmd/clip.cpp load_tensors; before 0.30, llm/memory.go projectorMemoryRequirements " \
  "(the same sum, loaded on the first GPU)"

/* A vision model's projector: its tensor bytes, beside the weights.
 *
 * Whether `ollama ps` shows it (0.30+): Ollama sums the buffer lines that
 * match llm/llama_server.go bufferSizeRegex ("<func>: <backend>
 * (model|KV|compute|output|RS) buffer size = N MiB"). clip.cpp allocates
 * the projector's weights (load_tensors,
 * ggml_backend_alloc_ctx_tensors_from_buft) without such a line; it logs
 * only "load_hparams: model size: N MiB", which the regex does not match.
 * Its compute buffer it does log, in reserve_compute_meta ("%s: %10s
 * compute buffer size = %8.2f MiB", tools/mtmd/clip.cpp), which matches:
 * that buffer is in the ps size, the weights are not. */
static void
add_projector (Ctx *ctx)
{
  guint64 bytes = ctx->dims->projector_bytes;
  HrRuntimeTerm *term;

  if (bytes == 0)
    return;
  term = rt_add_term (ctx, HR_RUNTIME_TERM_PROJECTOR, (gint64) MIN (bytes, (guint64) G_MAXINT64), SRC_PROJECTOR);
  if (!ctx->text)
    return;
  g_snprintf (term->formula, sizeof term->formula, _("the projector's tensors = %s bytes"),
              rt_count (&ctx->counts, bytes));
  if (ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_30)
    g_snprintf (term->note, sizeof term->note, "%s",
                _("Loaded by llama-server's clip loader on the GPU unless Ollama passes --no-mmproj-offload; Ollama then pads llama.cpp's fit margin by it + 1 GiB (mmprojFitTargetMiB). Not in the ollama ps size: clip.cpp logs no “model buffer size” line for these weights, which bufferSizeRegex would count; only its “reserve_compute_meta: … compute buffer size” line (tools/mtmd/clip.cpp), not predicted here, is counted."));
  else
    g_snprintf (term->note, sizeof term->note, "%s",
                _("Loaded with the model, on the first GPU, and in the size the old estimator reported (llm/memory.go projectorMemoryRequirements)."));
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
 * decides, batch and micro-batch 512 (Ollama's num_batch default), CUDA,
 * Ollama's draft_num_predict 4 (api/types.go DefaultOptions), llama-server's
 * --cache-ram 8192 MiB (common/common.h cache_ram_mib).
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
  inputs->draft_num_predict = 4;
  inputs->cache_ram_mib = 8192;
}

/* A failed step: the prediction zeroed, FALSE returned. */
static gboolean
fail (HrRuntimePrediction *out)
{
  memset (out, 0, sizeof *out);
  return FALSE;
}

/* The prediction's header before any term: zeroed up to the terms, and
 * the few fields after them. The terms and notes are written as they are
 * added (a whole memset costs more than the bytes-only prediction itself). */
static void
reset_header (HrRuntimePrediction *out)
{
  memset (out, 0, G_STRUCT_OFFSET (HrRuntimePrediction, terms));
  out->rs_seq = 0;
  out->prompt_cache_limit_bytes = 0;
  out->total_bytes = 0;
  out->host_bytes = 0;
  out->n_notes = 0;
}

/* The inputs' cache, only in the bytes-only mode (the texts are written as
 * the figures are worked out), emptied for another spec or precision; its
 * last prediction's record is cleared until this one succeeds
 * (rt_step_record()). */
static HrRuntimeSpecCache *
attach_cache (const HrRuntimeInputs *inputs)
{
  HrRuntimeSpecCache *cache = inputs->skip_text ? inputs->cache : NULL;

  if (cache == NULL)
    return NULL;
  if (cache->spec != inputs->spec || cache->precision != inputs->precision)
    {
      hr_runtime_spec_cache_reset (cache);
      cache->spec = inputs->spec;
      cache->precision = inputs->precision;
    }
  cache->step.valid = FALSE;
  return cache;
}

/* The model's recurrent layers, looked up once per prediction (or once
 * per cache: they walk the layers) and kept in @ctx. */
static void
look_up_recurrence (Ctx               *ctx,
                    const HrModelSpec *spec)
{
  HrRuntimeSpecCache *cache = ctx->cache;

  if (cache != NULL && cache->have_facts)
    {
      ctx->recurrent_only = cache->recurrent_only;
      ctx->recurrent_layers = cache->recurrent_layers;
      return;
    }
  ctx->recurrent_layers = hr_model_spec_recurrent_layers (spec);
  ctx->recurrent_only = hr_model_spec_recurrent_only (spec);
}

/* Whether the inputs can be predicted at all: a spec, a context (unless
 * llama-server's -c is unset: the trained context per slot), layers, and
 * KV heads and head dims unless the model is purely recurrent (llama.cpp
 * llm_arch_is_recurrent: no KV cache, hr-gguf-recurrent.c). A spec that
 * passed once is not looked at again while its cache holds. */
static gboolean
check_inputs (Ctx                   *ctx,
              const HrRuntimeInputs *inputs,
              GError               **error)
{
  const HrModelSpec *spec = inputs->spec;
  HrRuntimeSpecCache *cache = ctx->cache;
  gboolean ok;

  if (inputs->context_tokens == 0 && inputs->era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the context window must be at least 1 token"));
      return FALSE;
    }
  look_up_recurrence (ctx, spec);
  if (cache != NULL && cache->have_facts && cache->shape_ok)
    return TRUE;
  ok = spec->layers > 0 &&
       (ctx->recurrent_only || (spec->kv_heads > 0 && spec->key_length > 0 && spec->value_length > 0));
  if (cache != NULL)
    {
      cache->recurrent_only = (guint8) ctx->recurrent_only;
      cache->recurrent_layers = ctx->recurrent_layers;
      cache->shape_ok = (guint8) ok;
      cache->have_facts = TRUE;
    }
  if (!ok)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                 _("%s has no layers, KV heads or head dims: the runtime model needs them"),
                 spec->name ? spec->name : _("the model"));
  return ok;
}

/* The model as the runtime sizes it: a catalog row's exact blob bytes and
 * parameter count, where it has them, stand for its rounded listing
 * (hr_runtime_exact_spec()); the seed's method keeps the listing its
 * tables print. The exact view is a copy of the whole spec: with a cache,
 * made once. */
static const HrModelSpec *
sized_spec (Ctx                   *ctx,
            const HrRuntimeInputs *inputs,
            HrModelSpec           *scratch)
{
  HrRuntimeSpecCache *cache = ctx->cache;

  if (inputs->era == HR_RUNTIME_ERA_SEED)
    return inputs->spec;
  if (cache == NULL)
    return hr_runtime_exact_spec (inputs->spec, scratch);
  if (!cache->have_exact)
    {
      const HrModelSpec *view = hr_runtime_exact_spec (inputs->spec, scratch);

      if (view != inputs->spec)
        cache->exact = g_memdup2 (view, sizeof *view);
      cache->have_exact = TRUE;
    }
  return cache->exact != NULL ? cache->exact : inputs->spec;
}

/* The spec's figures a step reads (SpecDims): the cache's copy, made
 * once, or one of this prediction's own. */
static void
look_up_dims (Ctx *ctx)
{
  HrRuntimeSpecCache *cache = ctx->cache;

  if (cache == NULL)
    {
      rt_spec_dims (ctx->spec, &ctx->dims_local);
      ctx->dims = &ctx->dims_local;
      return;
    }
  if (!cache->have_dims)
    {
      rt_spec_dims (ctx->spec, &cache->dims);
      cache->have_dims = TRUE;
    }
  ctx->dims = &cache->dims;
}

/* The architectures the per-layer loops ask about, looked up once. */
static void
look_up_arch (Ctx *ctx)
{
  HrRuntimeSpecCache *cache = ctx->cache;

  if (cache != NULL && cache->have_arch)
    {
      ctx->arch_gemma3 = cache->arch_gemma3;
      ctx->arch_gptoss = cache->arch_gptoss;
      return;
    }
  ctx->arch_gemma3 = rt_arch_is (ctx->spec, "gemma3");
  ctx->arch_gptoss = rt_arch_is (ctx->spec, "gptoss") || rt_arch_is (ctx->spec, "gpt-oss");
  if (cache != NULL)
    {
      cache->have_arch = TRUE;
      cache->arch_gemma3 = (guint8) ctx->arch_gemma3;
      cache->arch_gptoss = (guint8) ctx->arch_gptoss;
    }
}

/* The era: the one asked for, else the server version's, and (with texts)
 * what choosing it from the version means. */
static void
resolve_era (Ctx *ctx)
{
  const HrRuntimeInputs *inputs = ctx->in;
  HrRuntimePrediction *out = ctx->out;
  guint key;

  out->era = inputs->era != HR_RUNTIME_ERA_AUTO ? inputs->era : hr_runtime_era_for_version (inputs->server_version);
  out->era_id = hr_runtime_era_to_string (out->era);
  out->era_label = ctx->text ? hr_runtime_era_label (out->era) : NULL;
  if (!ctx->text || inputs->era != HR_RUNTIME_ERA_AUTO)
    return;
  key = ctx->have_version ? rt_version_key (ctx->version_major, ctx->version_minor, ctx->version_patch) : 0;
  if (!ctx->have_version)
    rt_note (ctx, _("Server version unknown: modelled as Ollama 0.30 and newer."));
  else if (key == 0)
    rt_note (ctx, _("A development build (0.0.0): modelled as Ollama 0.30 and newer."));
  else if (key > rt_version_key (0, 12, 10) && key < rt_version_key (0, 30, 0))
    rt_note (ctx, _("Ollama %u.%u.%u sized what its runner allocated (weights, KV cache, compute graph): modelled as the 0.30 buffers; the learned overhead covers the difference."),
             ctx->version_major, ctx->version_minor, ctx->version_patch);
  else if (out->era == HR_RUNTIME_ERA_OLLAMA_0_12 && key >= rt_version_key (0, 11, 11))
    rt_note (ctx, _("From 0.11.11 models on Ollama's own engine report what was allocated instead of this estimate."));
}

/* The seed's tables: the context as asked (a note, not a clamp, past the
 * model's limit), the slots as asked, the KV type as asked; no draft in
 * the seed's method (rt_add_draft() refuses one). */
static gboolean
predict_seed_era (Ctx     *ctx,
                  GError **error)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;

  out->context_tokens = ctx->in->context_tokens;
  out->parallel_slots = MAX (ctx->in->parallel_slots, 1);
  out->kv_type = ctx->in->kv_type;
  out->ubatch = 0;
  if (spec->context_length > 0 && out->context_tokens > spec->context_length)
    rt_note (ctx, _("%s tokens is past the model's native context of %s."),
             rt_count (&ctx->counts, out->context_tokens), rt_count (&ctx->counts, spec->context_length));
  rt_predict_seed (ctx);
  if (!rt_add_draft (ctx, error))
    return fail (out);
  return finish (ctx, error);
}

/* num_ctx: clamped to the model's limit (Ollama 0.9.3+, llm/server.go);
 * llama-server keeps -c as given and resolves its slots with it
 * (rt_resolve_llama_server(), hr-runtime-0-30.c). */
static gboolean
resolve_context (Ctx     *ctx,
                 GError **error)
{
  guint32 limit = ctx->dims->context_length;
  HrRuntimePrediction *out = ctx->out;

  out->context_tokens = ctx->in->context_tokens;
  if (out->era == HR_RUNTIME_ERA_LLAMA_SERVER)
    return rt_resolve_llama_server (ctx, error);
  if (limit > 0 && out->context_tokens > limit)
    {
      rt_note (ctx, _("num_ctx %u is past the model's limit: Ollama clamps it to %u."),
               out->context_tokens, limit);
      out->context_tokens = limit;
      out->context_clamped = TRUE;
    }
  return TRUE;
}

/* The weight figures (rt_figure_weights()): they depend on the spec and
 * the precision alone, so with a cache they are worked out once and read
 * in place. Returns @scratch or the cache's copy. */
static const Figures *
weight_figures (Ctx     *ctx,
                Figures *scratch)
{
  HrRuntimeSpecCache *cache = ctx->cache;
  gboolean before = ctx->overflow;

  if (cache == NULL)
    {
      rt_figure_weights (ctx, scratch);
      return scratch;
    }
  if (!cache->have_figures)
    {
      ctx->overflow = FALSE;
      rt_figure_weights (ctx, &cache->figures);
      cache->figures_overflow = (guint8) ctx->overflow;
      cache->have_figures = TRUE;
    }
  ctx->overflow = before || cache->figures_overflow;
  return &cache->figures;
}

/* Parallel slots: as asked, else the era's default: one for Ollama 0.30+,
 * and for the old estimator the scheduler's automatic tries
 * (server/sched.go: the first that fits the free memory).
 * llama-server's are resolved with its context (resolve_context()). */
static void
resolve_slots (Ctx           *ctx,
               const Figures *f)
{
  const HrRuntimeInputs *inputs = ctx->in;
  HrRuntimePrediction *out = ctx->out;
  guint32 tries[2];
  guint n;
  Old probe;

  if (out->era == HR_RUNTIME_ERA_LLAMA_SERVER)
    return;
  if (inputs->parallel_slots > 0)
    {
      out->parallel_slots = inputs->parallel_slots;
      return;
    }
  if (out->era == HR_RUNTIME_ERA_OLLAMA_0_30)
    {
      out->parallel_slots = 1;
      return;
    }
  n = hr_runtime_auto_parallel_tries (ctx->have_version ? inputs->server_version : NULL, tries);
  out->parallel_slots = tries[0];
  if (n != 2)
    return;
  if (inputs->free_bytes > 0 && rt_old_compute (ctx, f, tries[0], &probe) > inputs->free_bytes)
    {
      out->parallel_slots = tries[1];
      rt_note (ctx, _("Automatic parallel slots: %u did not fit the free memory, so %u (server/sched.go)."),
               tries[0], tries[1]);
    }
  else
    rt_note (ctx, inputs->free_bytes > 0 ?
             _("Automatic parallel slots: %u fit the free memory (server/sched.go tries %u, then %u).") :
             _("Automatic parallel slots: %u, the first the scheduler tries (server/sched.go tries %u, then %u; free memory unknown)."),
             tries[0], tries[0], tries[1]);
}

/**
 * hr_runtime_predict:
 * @inputs: the model and the server's settings
 * @out: (out caller-allocates): the prediction
 * @error: return location for a #GError
 *
 * Predicts what the server will load and report as /api/ps `size`, term by
 * term (see hr-runtime.h for the two eras and the sources each term cites).
 * Assumes every layer fits on one GPU (the case `100% GPU` describes), or,
 * with %HR_RUNTIME_BACKEND_CPU, a server without one: then every buffer
 * (all weights, KV, output, compute) counts, as Ollama's MemorySize adds
 * them. The backend picks the compute-buffer model (hr-runtime-compute.c);
 * the default, CUDA, is the model checked against the figures of
 * docs/seed-figures.md, "Compute buffer reference figures".
 * num_ctx above the model's context limit is clamped to it, as Ollama does
 * (context_clamped says so: any num_ctx at or past the limit then predicts
 * the same bytes).
 *
 * With %HR_RUNTIME_ERA_LLAMA_SERVER the same buffers with llama-server's
 * own defaults (rt_resolve_llama_server()): context_tokens is -c, the whole
 * cache, 0 for unset (the trained context for each slot), never clamped;
 * no parallel_slots is -np auto (4 slots, one unified KV stream).
 *
 * With a draft_spec (llama-server's -md) the draft model's weights, KV
 * cache, compute and (CPU backend) output buffer follow as terms of their
 * own (hr-runtime-draft.c) and count in the total.
 *
 * With %HR_RUNTIME_ERA_SEED it gives the seed's weights + KV cache instead
 * (hr-runtime-seed.c): the context and slots as asked, no clamp.
 *
 * A quantized KV cache with flash attention off: Ollama before 0.30 (and
 * the 0.12 era) falls back to f16 and says so in kv_type_reason; 0.30 and
 * newer pass it to llama-server, which refuses it (an error).
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT when
 *   there is no spec, no context (llama-server: none given and no trained
 *   one), no layers, no KV heads or no head dims,
 *   or (Ollama 0.30+) a quantized KV cache with flash attention off, which
 *   llama-server refuses to load; %HR_CORE_ERROR_OVERFLOW when a figure
 *   does not fit 64 bits; %HR_CORE_ERROR_UNSUPPORTED for a draft_spec
 *   outside the llama-server era, or the draft's own error.
 */
gboolean
hr_runtime_predict (const HrRuntimeInputs *inputs,
                    HrRuntimePrediction   *out,
                    GError               **error)
{
  HrModelSpec exact;
  Ctx ctx;
  Figures scratch;
  const Figures *f;

  rt_init_ctx (&ctx);
  reset_header (out);
  if (inputs->spec == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, _("no model to predict"));
      return FALSE;
    }
  ctx.cache = attach_cache (inputs);
  if (!check_inputs (&ctx, inputs, error))
    return FALSE;

  ctx.in = inputs;
  ctx.spec = sized_spec (&ctx, inputs, &exact);
  ctx.out = out;
  ctx.text = !inputs->skip_text;
  look_up_dims (&ctx);
  look_up_arch (&ctx);
  ctx.have_version = inputs->server_version != NULL &&
                     hr_runtime_parse_version (inputs->server_version, &ctx.version_major,
                                               &ctx.version_minor, &ctx.version_patch);
  if (ctx.text && ctx.spec->unknown_tensors > 0)
    rt_note (&ctx, g_dngettext (GETTEXT_PACKAGE,
                                "The weights are a lower bound: %u tensor has a type this version of Headroom does not know, and its bytes are not counted.",
                                "The weights are a lower bound: %u tensors have a type this version of Headroom does not know, and their bytes are not counted.",
                                ctx.spec->unknown_tensors),
             ctx.spec->unknown_tensors);
  resolve_era (&ctx);
  out->kv_type_requested = inputs->kv_type;
  if (out->era == HR_RUNTIME_ERA_SEED)
    return predict_seed_era (&ctx, error);

  if (!resolve_context (&ctx, error) || !rt_resolve_flash_attention (&ctx, error))
    return fail (out);
  f = weight_figures (&ctx, &scratch);
  resolve_slots (&ctx, f);
  if (out->era == HR_RUNTIME_ERA_OLLAMA_0_30 || out->era == HR_RUNTIME_ERA_LLAMA_SERVER)
    rt_predict_0_30 (&ctx, f);
  else
    rt_predict_0_12 (&ctx, f);
  add_projector (&ctx);
  if (!rt_add_draft (&ctx, error))
    return fail (out);
  if (!finish (&ctx, error))
    return FALSE;
  /* What a context step under the same inputs may keep (hr-runtime-step.c). */
  if (ctx.cache != NULL)
    rt_step_record (&ctx);
  return TRUE;
}

/**
 * hr_runtime_exact_spec:
 * @spec: a model
 * @scratch: (out caller-allocates): room for the exact view
 *
 * The model as the runtime sizes it: a catalog row's published exact blob
 * bytes and parameter count (exact_file_bytes, exact_parameters) in place
 * of the seed's rounded listing in file_bytes and parameters, with their
 * sources (exact_file_bytes_source, exact_parameters_source). A shallow
 * copy into @scratch (its pointers are @spec's; nothing is allocated, so
 * the slider hot path may call it); @spec itself when it has no exact
 * figures.
 *
 * Returns: (transfer none): @spec or @scratch, valid as long as @spec
 */
const HrModelSpec *
hr_runtime_exact_spec (const HrModelSpec *spec,
                       HrModelSpec       *scratch)
{
  if (spec == NULL || (spec->exact_file_bytes == 0 && spec->exact_parameters == 0))
    return spec;
  *scratch = *spec;
  if (spec->exact_file_bytes > 0)
    {
      scratch->file_bytes = spec->exact_file_bytes;
      if (spec->exact_file_bytes_source != NULL)
        scratch->sources[HR_SPEC_FIELD_FILE_BYTES] = spec->exact_file_bytes_source;
    }
  if (spec->exact_parameters > 0)
    {
      scratch->parameters = spec->exact_parameters;
      if (spec->exact_parameters_source != NULL)
        scratch->sources[HR_SPEC_FIELD_PARAMETERS] = spec->exact_parameters_source;
    }
  scratch->exact_file_bytes = scratch->exact_parameters = 0;
  scratch->exact_file_bytes_source = scratch->exact_parameters_source = NULL;
  return scratch;
}

/**
 * hr_runtime_spec_cache_new:
 *
 * A cache for one model's bytes-only predictions (#HrRuntimeInputs cache):
 * what hr_runtime_predict() works out from the spec and the precision
 * alone (the weight figures, the architecture's flags, the KV elements per
 * token of each layer kind, whether the head sizes divide a quantized
 * cache's blocks, the shape check, the spec figures a step reads) is kept and reused while the spec and the precision
 * asked for are the same pointers. The figures are the same as without it;
 * only the time differs. The caller must not change the spec while its
 * cache is in use, or must call hr_runtime_spec_cache_reset() after.
 *
 * Returns: (transfer full): an empty cache; hr_runtime_spec_cache_free()
 */
HrRuntimeSpecCache *
hr_runtime_spec_cache_new (void)
{
  HrRuntimeSpecCache *cache = g_new0 (HrRuntimeSpecCache, 1);

  hr_runtime_spec_cache_reset (cache);
  return cache;
}

/**
 * hr_runtime_spec_cache_prefetch:
 * @cache: (nullable): a cache
 *
 * Asks the processor to bring what a bytes-only step reads of @cache (not
 * the whole of it) into its data cache ahead of the prediction that reads
 * it (GCC's and Clang's __builtin_prefetch; nothing elsewhere): a caller
 * walking thousands of rows asks for a row's cache a few rows ahead, so
 * the prediction does not wait on memory.
 */
void
hr_runtime_spec_cache_prefetch (const HrRuntimeSpecCache *cache)
{
#if defined(__GNUC__) || defined(__clang__)
  /* What a step reads: up to the model's figures' head (Figures), its
   * last line too when the cache does not start a line. */
  const gsize hot = G_STRUCT_OFFSET (HrRuntimeSpecCache, figures) + G_STRUCT_OFFSET (Figures, all);

  if (cache == NULL)
    return;
  for (gsize o = 0; o < hot; o += 64)
    __builtin_prefetch ((const char *) cache + o, 1);
  __builtin_prefetch ((const char *) cache + hot - 1, 1);
#endif
}

/**
 * hr_runtime_spec_cache_reset:
 * @cache: a cache
 *
 * Empties @cache: the next prediction works everything out again (after
 * the spec it was used for changed, or to use it for another spec).
 */
void
hr_runtime_spec_cache_reset (HrRuntimeSpecCache *cache)
{
  g_return_if_fail (cache != NULL);

  g_free (cache->exact);
  memset (cache, 0, sizeof *cache);
  cache->sums_flash = -1;
  cache->heads_block32 = -1;
}

/**
 * hr_runtime_spec_cache_free:
 * @cache: (nullable): a cache
 */
void
hr_runtime_spec_cache_free (HrRuntimeSpecCache *cache)
{
  if (cache == NULL)
    return;
  g_free (cache->exact);
  g_free (cache);
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
 * hr_runtime_layer_state_bytes:
 * @prediction: a prediction of @spec (hr_runtime_predict())
 * @spec: the model it predicts
 * @layer: a layer index, 0 .. @spec->layers - 1
 *
 * What one layer keeps per context under @prediction's resolved settings:
 * its KV cache, KV heads x (the layer's key + value length; the latent
 * alone under multi-head latent attention; without flash attention V as
 * wide as the widest layer's, n_embd_v_gqa_max) x the cells of its kind of layer (global
 * @prediction->kv_cells or sliding-window @prediction->kv_cells_sliding)
 * x the cache type's element size (llama.cpp src/llama-kv-cache.cpp, one
 * K and one V tensor per layer), plus its recurrent state, (n_embd_r +
 * n_embd_s) x 4 bytes x slots x (1 + @prediction->rs_seq) for a recurrent
 * layer (src/llama-memory-recurrent.cpp: n_rows = mem_size x (1 + n_rs_seq)). llama.cpp places both on the layer's
 * device, so a partial offload splits them by layer.
 *
 * Returns: bytes; 0 for a layer with neither (a nemotron-h MLP layer).
 */
guint64
hr_runtime_layer_state_bytes (const HrRuntimePrediction *prediction,
                              const HrModelSpec         *spec,
                              guint                      layer)
{
  guint32 kvh = hr_model_spec_layer_kv_heads (spec, layer);
  guint64 bytes = 0;

  if (kvh > 0)
    {
      guint32 den = 1;
      guint64 num = hr_kv_cache_element_bytes_scaled (prediction->kv_type, &den);
      guint64 cells = rt_layer_sliding (spec, layer) && prediction->kv_cells_sliding > 0
                      ? prediction->kv_cells_sliding : prediction->kv_cells;
      guint64 elements, v = 0;

      if (spec->kv_latent)
        elements = (guint64) kvh * spec->key_length;
      else
        {
          /* Without flash attention V is stored transposed and every
           * layer's V is as wide as the widest layer's (n_embd_v_gqa_max). */
          if (!prediction->flash_attention)
            for (guint i = 0; i < spec->layers; i++)
              v = MAX (v, (guint64) hr_model_spec_layer_kv_heads (spec, i) * rt_layer_value_length (spec, i));
          if (v == 0)
            v = (guint64) kvh * rt_layer_value_length (spec, layer);
          elements = (guint64) kvh * rt_layer_key_length (spec, layer) + v;
        }
      if (!hr_mul_u64 (elements, cells, &elements) || !hr_mul_u64 (elements, num, &elements))
        return G_MAXUINT64;
      bytes = elements / den;
    }
  if (rt_layer_recurrent (spec, layer))
    {
      guint64 rs;

      if (!hr_mul_u64 ((guint64) spec->recurrent_r + spec->recurrent_s, 4, &rs) ||
          !hr_mul_u64 (rs, MAX (prediction->parallel_slots, 1), &rs) ||
          !hr_mul_u64 (rs, 1 + (guint64) prediction->rs_seq, &rs) ||
          !hr_add_u64 (bytes, rs, &bytes))
        return G_MAXUINT64;
    }
  return bytes;
}

/**
 * hr_runtime_prediction_to_json:
 * @prediction: a prediction
 *
 * The prediction as JSON, the one shape every command prints: `method`
 * (the era id, or "seed"), era, settings, the KV cache type used and the
 * one asked for with the reason they differ (null when they do not), each
 * term (id, label, bytes, formula, source, note), `total_bytes` (also in
 * GB and GiB), `ollama_ps_size` (as `ollama ps` shows it), host bytes and
 * the notes.
 *
 * Returns: (transfer full): a JSON object node.
 */
JsonNode *
hr_runtime_prediction_to_json (const HrRuntimePrediction *prediction)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *ps = hr_runtime_format_ps_size (prediction->total_bytes);

  json_builder_begin_object (builder);
  /* Which method made the figures: an Ollama era, or the seed's. */
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, prediction->era_id);
  json_builder_set_member_name (builder, "era");
  json_builder_add_string_value (builder, prediction->era_id);
  json_builder_set_member_name (builder, "era_label");
  json_builder_add_string_value (builder, prediction->era_label ? prediction->era_label : hr_runtime_era_label (prediction->era));
  json_builder_set_member_name (builder, "context_tokens");
  json_builder_add_int_value (builder, prediction->context_tokens);
  json_builder_set_member_name (builder, "parallel_slots");
  json_builder_add_int_value (builder, prediction->parallel_slots);
  json_builder_set_member_name (builder, "kv_unified");
  json_builder_add_boolean_value (builder, prediction->kv_unified);
  json_builder_set_member_name (builder, "kv_cache_type");
  json_builder_add_string_value (builder, hr_kv_cache_type_to_string (prediction->kv_type));
  json_builder_set_member_name (builder, "kv_cache_type_requested");
  json_builder_add_string_value (builder, hr_kv_cache_type_to_string (prediction->kv_type_requested));
  json_builder_set_member_name (builder, "kv_cache_type_reason");
  if (prediction->kv_type_reason != NULL)
    json_builder_add_string_value (builder, prediction->kv_type_reason);
  else
    json_builder_add_null_value (builder);
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
  /* llama-server's prompt cache: an upper bound of host memory, allocated
   * as prompts are cached, not at load; null = no byte limit. */
  json_builder_set_member_name (builder, "prompt_cache_limit_bytes");
  if (prediction->prompt_cache_limit_bytes == G_MAXUINT64)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, (gint64) MIN (prediction->prompt_cache_limit_bytes, (guint64) G_MAXINT64));
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < prediction->n_notes; i++)
    json_builder_add_string_value (builder, prediction->notes[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
