/* hr-evaluate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hr-evaluate.h"
#include "hr-offload.h"
#include "hr-units.h"

/**
 * hr_evaluation_inputs_init:
 * @scenario: (out caller-allocates): the scenario
 * @board: the board (not copied: it must outlive @scenario)
 * @fit: (nullable): the board's efficiency fit; %NULL = none
 *
 * Sets the defaults: as pulled, an f16 cache, 4,096 tokens (Ollama's default
 * num_ctx from 0.6.7 and the seed's window), one slot, and the board's floor.
 */
void
hr_evaluation_inputs_init (HrEvaluationInputs    *scenario,
                           const HrBoard         *board,
                           const HrEfficiencyFit *fit)
{
  *scenario = (HrEvaluationInputs) {
    .board = board,
    .precision = NULL,
    .kv_type = HR_KV_CACHE_F16,
    .context_tokens = 4096,
    .parallel_slots = 1,
    .floor_tps = board ? hr_board_floor_tps (board) : 0.0,
  };
  if (fit != NULL)
    scenario->fit = *fit;
}

/* The split's placement into the row: layers, the two sides' bytes, the
 * verdict and margin, the footprint (its overhead past the seed's weights
 * and KV cache), the devices and their layers. */
static void
copy_split (const HrOffload *split,
            HrEvaluation    *out)
{
  guint64 seed = out->footprint.weights + out->footprint.kv_cache;

  out->split = TRUE;
  out->gpu_layers = split->gpu_layers;
  out->total_layers = split->total_layers;
  out->expert_host_layers = split->partial_layers;
  out->vram_bytes = split->vram.total;
  out->host_bytes = split->host.total;
  memcpy (out->processor, split->processor, sizeof out->processor);
  out->verdict = split->verdict;
  out->margin_bytes = split->margin_bytes;
  out->footprint.total = split->vram.total + split->host.total;
  out->footprint.overhead = out->footprint.total > seed ? out->footprint.total - seed : 0;
  out->n_devices = (guint8) MIN (split->n_devices, HR_DEVICE_MAX);
  out->binding_device = (gint8) (split->binding_device >= 0 && (guint) split->binding_device < out->n_devices
                                 ? split->binding_device : -1);
  for (guint i = 0; i < out->n_devices; i++)
    {
      out->device_index[i] = (guint8) MIN (split->devices[i].board_index, G_MAXUINT8);
      out->device_layers[i] = (guint16) MIN (split->devices[i].layers, G_MAXUINT16);
    }
}

/* Several GPUs (hr-offload-devices.c), every layer on them: a token
 * passes the devices in turn, each reading its share of the weights at
 * its own bandwidth; the row's efficiency is kept. A device of unknown
 * bandwidth leaves the rate unknown (extrapolated). */
static void
rate_across_devices (const HrOffload *split,
                     HrEvaluation    *out)
{
  double eff = out->ceiling_tps > 0.0 ? out->tps / out->ceiling_tps : 0.0, t = 0.0;
  gboolean known = TRUE;

  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *d = &split->devices[i];

      if (d->layers == 0 || split->vram.weights == 0)
        continue;
      if (!(d->bandwidth_bytes_per_s > 0.0))
        known = FALSE;
      else
        t += (double) d->side.weights / (double) split->vram.weights * (double) out->read_bytes /
             d->bandwidth_bytes_per_s;
    }
  out->ceiling_tps = known && t > 0.0 ? 1.0 / t : 0.0;
  out->tps = out->ceiling_tps * eff;
  if (!known)
    out->source = HR_RATE_SOURCE_EXTRAPOLATED;
}

/* A row partly in host memory: the two-sided rate at the fitted (else
 * prior) GPU efficiency and the CPU prior, and its ceiling at 100 %. */
static void
rate_partial (const HrEvaluationInputs *scenario,
              const HrOffload          *split,
              HrEvaluation             *out)
{
  double eff_gpu = scenario->fit.n_points > 0 ? scenario->fit.efficiency : scenario->prior_efficiency;
  double eff_host = scenario->cpu_prior_efficiency;
  double tps, ceiling;

  if (hr_offload_decode_tps (split, scenario->board, 1.0, 1.0, &ceiling, NULL, NULL))
    out->ceiling_tps = ceiling;
  if (hr_offload_decode_tps (split, scenario->board, eff_gpu, eff_host, &tps, NULL, NULL))
    {
      out->tps = tps;
      out->source = HR_RATE_SOURCE_PRIOR;
      out->gpu_efficiency = eff_gpu;
      out->host_efficiency = eff_host;
    }
  else
    {
      out->tps = 0.0;
      out->source = HR_RATE_SOURCE_EXTRAPOLATED;
    }
}

/* The GPU/host split of a row on a board that has one: the verdict,
 * margin and footprint become the split's (the runtime prediction, VRAM and
 * host together); a row partly in host memory gets the two-sided rate.
 * Returns FALSE (the row left as the seed's) when the split cannot be
 * predicted, e.g. a spec without the runtime's shape. */
static gboolean
evaluate_split (const HrEvaluationInputs *scenario,
                const HrModelSpec        *spec,
                HrEvaluation             *out)
{
  HrOffloadInputs in;
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);

  hr_offload_inputs_init (&in, scenario->board, spec, scenario->context_tokens);
  in.runtime.precision = scenario->precision;
  in.runtime.kv_type = scenario->kv_type;
  in.runtime.parallel_slots = MAX (scenario->parallel_slots, 1);
  if (scenario->num_gpu_set)
    in.num_gpu = (gint32) MIN (scenario->num_gpu, (guint32) G_MAXINT32);
  in.n_cpu_moe = scenario->n_cpu_moe;
  if (!hr_offload_predict (&in, split, NULL))
    return FALSE;

  copy_split (split, out);
  if (split->n_devices > 0 && split->verdict != HR_VERDICT_PARTIAL && out->source != HR_RATE_SOURCE_MEASURED)
    rate_across_devices (split, out);
  if (split->verdict == HR_VERDICT_PARTIAL)
    rate_partial (scenario, split, out);
  return TRUE;
}

/* @out zeroed, binding_device -1 (none). In 64-byte steps: GCC makes a
 * memset of the whole row (224 bytes, alignment unknown) a rep stos, whose
 * start-up costs more than the stores themselves, on every row of every
 * slider step; a fixed 64-byte memset becomes four vector stores. */
static void
zero_evaluation (HrEvaluation *out)
{
  char *p = (char *) out;
  gsize i;

  for (i = 0; i + 64 <= sizeof *out; i += 64)
    memset (p + i, 0, 64);
  memset (p + i, 0, sizeof *out - i);
  out->binding_device = -1;
}

/* What of a row the context changes, from @cache's figures: the
 * footprint (hr_memory_footprint(): the weights, the KV cache at the
 * scenario's context, @overhead_bytes), the verdict and margin on the
 * total, and whether the context is past the model's limit. Shared by
 * hr_evaluate_cached() and hr_evaluate_context_step(), so a context step
 * gives the whole evaluation's figures by construction. */
static void
context_figures (const HrEvaluationInputs *scenario,
                 const HrEvaluationCache  *cache,
                 guint64                   overhead_bytes,
                 HrEvaluation             *out)
{
  HrFootprint *f = &out->footprint;

  f->weights = cache->weights;
  f->kv_cache = hr_memory_kv_cache_bytes_for_elements (cache->kv_elements, scenario->kv_type,
                                                       scenario->context_tokens, scenario->parallel_slots);
  f->overhead = overhead_bytes;
  hr_add_u64 (f->weights, f->kv_cache, &f->total);
  hr_add_u64 (f->total, f->overhead, &f->total);
  out->verdict = hr_board_verdict (scenario->board, f->total, &out->margin_bytes);
  out->past_context_limit = cache->context_length > 0 && scenario->context_tokens > cache->context_length;
}

/**
 * hr_evaluate:
 * @scenario: the inputs shared by every row
 * @spec: the model
 * @measured_tps: the model's measured decode rate on this board, or NAN
 * @overhead_bytes: runtime overhead for the footprint (0 by default)
 * @out: (out caller-allocates): the row
 *
 * One row of the dashboard: footprint (hr_memory_footprint()), verdict and
 * margin (hr_board_verdict()), ceiling, rate and its source, speed. The
 * ceiling is the bandwidth over the weights one token reads (read_bytes,
 * hr_offload_token_read_bytes(): a mixture of experts reads its dense
 * weights and only the experts a token routes to, wherever they live). A
 * row whose verdict is over keeps the rate it would have with every layer
 * on the GPU (the seed's dashboard, docs/seed-figures.md, rates its over
 * row, and its speed); the window's table and `predict` give it no speed
 * verdict (it does not load). A
 * measured rate counts only at the model's own precision: sketching it at
 * another precision falls back to ceiling x efficiency. A board with no
 * efficiency fit (nothing measured on it) and a prior_efficiency in the
 * scenario gets ceiling x prior, source "prior"; a board with a fit never
 * uses the prior, so the seed board's rows are the seed's.
 *
 * On a discrete board whose host memory is known (hr_board_has_host()) the
 * row is the GPU/host split as Ollama 0.30+ with llama.cpp's fit places it
 * (hr_offload_predict(), the scenario's num_gpu when set): the verdict
 * (fits, tight, partial, over) and margin are the split's, the footprint's
 * total is its VRAM + host bytes (overhead: that less weights and KV cache,
 * @overhead_bytes unused). A partial row's rate is the two-sided read time
 * (hr_offload_decode_tps()) with the GPU's fitted efficiency (else its
 * prior) and the CPU's prior, source "prior" (the CPU side is always a
 * prior), its ceiling the same at efficiency 1; a measured rate, taken with
 * every layer on the GPU, does not apply to it. Such a row allocates one
 * scratch split; a one-pool board's row allocates nothing.
 *
 * A board with several GPUs and host memory gets the placement across its
 * GPUs (hr-offload-devices.c): the split's verdict and, with every layer
 * on the GPUs, the ceiling 1 / sum of (device's share of the weights x
 * weights / its bandwidth), at the row's efficiency (no rate when a device
 * holding layers has no known bandwidth). Without host memory (no split)
 * it is judged on its first GPU alone (its own pool and bandwidth) and the
 * row says so: first_device_only. A placed row carries the GPUs it uses,
 * their layers and the one full first (n_devices, device_index,
 * device_layers, binding_device), so a table can say "2 GPUs 41+40 layers"
 * without placing the model again.
 */
void
hr_evaluate (const HrEvaluationInputs  *scenario,
             const HrModelSpec *spec,
             double             measured_tps,
             guint64            overhead_bytes,
             HrEvaluation      *out)
{
  hr_evaluate_cached (scenario, spec, NULL, measured_tps, overhead_bytes, out);
}

/**
 * hr_evaluate_cached:
 * @scenario: as hr_evaluate()
 * @spec: as hr_evaluate()
 * @cache: (nullable): @spec's figures kept between calls, or %NULL
 * @measured_tps: as hr_evaluate()
 * @overhead_bytes: as hr_evaluate()
 * @out: (out caller-allocates): as hr_evaluate()
 *
 * hr_evaluate(), the same figures, with what depends on the model and the
 * precision alone (the weights' bytes, the KV elements per token, whether
 * the precision is the model's own, the weights one token reads) taken from @cache when it was made for
 * the same @spec and scenario precision (the same pointers), else worked
 * out and kept there. The caller must not change @spec while its cache is
 * in use, or must zero the cache after.
 */
void
hr_evaluate_cached (const HrEvaluationInputs *scenario,
                    const HrModelSpec        *spec,
                    HrEvaluationCache        *cache,
                    double                    measured_tps,
                    guint64                   overhead_bytes,
                    HrEvaluation             *out)
{
  HrEvaluationCache local;
  gboolean as_pulled;

  if (cache == NULL || !cache->valid || cache->spec != spec || cache->precision != scenario->precision)
    {
      if (cache == NULL)
        cache = &local;
      cache->spec = spec;
      cache->precision = scenario->precision;
      cache->weights = hr_memory_spec_weight_bytes (spec, scenario->precision);
      cache->kv_elements = hr_model_spec_kv_elements_per_token (spec);
      cache->as_pulled = scenario->precision == NULL ||
                         (spec->precision != NULL && g_ascii_strcasecmp (scenario->precision->id, spec->precision) == 0);
      cache->context_length = spec->context_length;
      cache->read_bytes = hr_offload_token_read_bytes (spec, scenario->precision, cache->weights);
      cache->valid = TRUE;
    }

  zero_evaluation (out);
  context_figures (scenario, cache, overhead_bytes, out);
  out->read_bytes = cache->read_bytes;
  out->ceiling_tps = hr_rate_ceiling_tps (scenario->board->bandwidth_bytes_per_s, out->read_bytes);

  as_pulled = cache->as_pulled;

  if (as_pulled && measured_tps > 0.0 && isfinite (measured_tps))
    {
      out->tps = measured_tps;
      out->source = HR_RATE_SOURCE_MEASURED;
    }
  else if (scenario->fit.n_points == 0 && scenario->prior_efficiency > 0.0)
    {
      out->tps = out->ceiling_tps * scenario->prior_efficiency;
      out->source = HR_RATE_SOURCE_PRIOR;
    }
  else
    {
      out->tps = out->ceiling_tps * scenario->fit.efficiency;
      out->source = hr_rate_source_for (&scenario->fit, out->footprint.weights);
    }
  out->first_device_only = hr_board_is_multi_device (scenario->board);
  if (hr_board_has_host (scenario->board) && evaluate_split (scenario, spec, out))
    out->first_device_only = FALSE; /* placed across the GPUs */
  if (!(scenario->board->bandwidth_bytes_per_s > 0.0))
    {
      /* a board whose bandwidth is not known (an ad-hoc --gpus board): no rate */
      out->ceiling_tps = out->tps = 0.0;
      out->source = HR_RATE_SOURCE_EXTRAPOLATED;
    }
  out->speed = hr_rate_speed (out->tps, out->source, scenario->floor_tps);
}

/**
 * hr_evaluate_context_step:
 * @scenario: the inputs @inout was last evaluated under, with
 *   hr_evaluate_cached() and @cache, but for their context_tokens
 * @cache: the cache that evaluation used
 * @overhead_bytes: as hr_evaluate() (the same as that evaluation's)
 * @inout: (inout): that evaluation
 *
 * What a step of the context slider changes in a row on a board that
 * keeps nothing in host memory, worked out alone: the KV cache at
 * @scenario's context_tokens (hr_memory_kv_cache_bytes_for_elements(),
 * 2 x layers x KV heads x head dim x bytes x tokens, from the elements
 * per token @cache keeps), so the total, the verdict and margin
 * (hr_board_verdict()), and whether the context is past the model's
 * limit. The ceiling, the rate, its source and the speed read the weights
 * and the board alone, so they stay as they are. The figures are
 * hr_evaluate_cached()'s under @scenario, byte for byte; a 10,000-row
 * slider step makes them for every row. A board with host memory places
 * the split again at each context (hr_offload_predict()): there it
 * refuses, and so for a cache made for another spec or precision.
 *
 * Returns: %TRUE when @inout was updated; %FALSE, @inout untouched, when
 *   the caller must call hr_evaluate_cached() instead
 */
gboolean
hr_evaluate_context_step (const HrEvaluationInputs *scenario,
                          const HrModelSpec        *spec,
                          const HrEvaluationCache  *cache,
                          guint64                   overhead_bytes,
                          HrEvaluation             *inout)
{
  if (cache == NULL || !cache->valid || cache->spec != spec || cache->precision != scenario->precision ||
      inout->split || hr_board_has_host (scenario->board))
    return FALSE;
  context_figures (scenario, cache, overhead_bytes, inout);
  return TRUE;
}

/**
 * hr_recommend_prefers:
 * @spec: a model
 * @evaluation: its row under the scenario
 * @best_spec: (nullable): the model recommended so far, %NULL for none
 * @best: (nullable): its row, %NULL for none
 *
 * One step of hr_recommend(): whether the row of @spec qualifies (its
 * verdict is fits and its speed is ok, or "likely ok" on a prior) and is
 * preferred over the row recommended so far: more parameters; on a tie of
 * size the faster; then the first by name. Going over rows in any order
 * and keeping each row this prefers gives hr_recommend()'s pick, so a
 * caller that evaluates rows one by one picks as it goes, with no array.
 *
 * Returns: %TRUE when @spec's row is the better recommendation
 */
gboolean
hr_recommend_prefers (const HrModelSpec  *spec,
                      const HrEvaluation *evaluation,
                      const HrModelSpec  *best_spec,
                      const HrEvaluation *best)
{
  if (evaluation->verdict != HR_VERDICT_FITS ||
      (evaluation->speed != HR_SPEED_OK && evaluation->speed != HR_SPEED_LIKELY_OK))
    return FALSE;
  if (best_spec == NULL || best == NULL)
    return TRUE;
  /* The largest model that fits at a usable speed; between two of one
   * size the faster, then the first by name, so that every list of the
   * same models, in whatever order, recommends the same one. */
  return spec->parameters > best_spec->parameters ||
         (spec->parameters == best_spec->parameters &&
          (evaluation->tps > best->tps ||
           (evaluation->tps == best->tps && g_strcmp0 (spec->name, best_spec->name) < 0)));
}

/**
 * hr_recommend:
 * @specs: (array length=n_rows): the models
 * @evaluations: (array length=n_rows): their rows under one scenario
 * @n_rows: how many
 *
 * The seed's recommendation: among rows whose verdict is fits and whose
 * speed is ok, the one with the most parameters (on a tie the faster, then
 * the first by name, so any order of the same rows recommends one). On a
 * board without measurements, whose rates are priors, "likely ok" stands
 * for ok (a prior never meets a measured row: one board has one or the
 * other). hr_recommend_prefers() is its comparison.
 *
 * Returns: the index of the recommended row, or -1 when none qualifies.
 */
gint
hr_recommend (HrModelSpec * const *specs,
              const HrEvaluation  *evaluations,
              guint                n_rows)
{
  gint best = -1;

  for (guint i = 0; i < n_rows; i++)
    if (hr_recommend_prefers (specs[i], &evaluations[i],
                              best >= 0 ? specs[best] : NULL, best >= 0 ? &evaluations[best] : NULL))
      best = (gint) i;
  return best;
}

/**
 * hr_pull_check:
 * @spec: the model someone wants to pull
 * @evaluation: its row on the board
 * @floor_tps: the board's floor
 *
 * Every reason to refuse the pull, at once (docs/seed-figures.md
 * "Checking a pull"): over budget ("qwen2.5:14b is over by 3.71 GB"), no
 * measured rate when the rate is extrapolated ("... has no rate this board
 * has measured"), and too slow ("qwen2.5:14b decodes at 4.1 t/s, under the
 * 10.2 t/s floor"); a prior rate under the floor says what it rests on
 * ("... would decode at about 3.2 t/s (predicted from the published
 * efficiency of its kind of board, not measured), under the 10.2 t/s
 * floor"). An empty array is the only
 * permission to pull.
 *
 * Returns: (transfer full) (element-type utf8): the reasons, possibly empty.
 */
GPtrArray *
hr_pull_check (const HrModelSpec  *spec,
               const HrEvaluation *evaluation,
               double              floor_tps)
{
  GPtrArray *reasons = g_ptr_array_new_with_free_func (g_free);

  if (evaluation->verdict == HR_VERDICT_OVER)
    {
      g_autofree char *margin = hr_format_decimal (hr_bytes_to_gb (evaluation->margin_bytes), 2);
      g_ptr_array_add (reasons, g_strdup_printf (_("%s is over by %s GB"), spec->name, margin));
    }

  if (evaluation->source == HR_RATE_SOURCE_EXTRAPOLATED)
    {
      g_ptr_array_add (reasons, g_strdup_printf (_("%s has no rate this board has measured"), spec->name));
    }
  else if (evaluation->source == HR_RATE_SOURCE_PRIOR && evaluation->tps < floor_tps)
    {
      g_autofree char *tps = hr_format_decimal (evaluation->tps, 1);
      g_autofree char *floor_text = hr_format_decimal (floor_tps, 1);
      g_ptr_array_add (reasons, g_strdup_printf (_("%s would decode at about %s t/s (predicted from the published efficiency of its kind of board, not measured), under the %s t/s floor"),
                                                 spec->name, tps, floor_text));
    }
  else if (evaluation->tps < floor_tps)
    {
      g_autofree char *tps = hr_format_decimal (evaluation->tps, 1);
      g_autofree char *floor_text = hr_format_decimal (floor_tps, 1);
      g_ptr_array_add (reasons, g_strdup_printf (_("%s decodes at %s t/s, under the %s t/s floor"),
                                                 spec->name, tps, floor_text));
    }

  return reasons;
}
