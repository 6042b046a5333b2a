/* hr-formula.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-formula.h"
#include "hr-error.h"
#include "hr-gui-format.h"
#include "hr-offload.h"
#include "hr-priors.h"
#include "hr-units.h"

static char *
format_bytes_and_size (guint64 bytes)
{
  g_autofree char *count = hr_gui_format_count (bytes);
  g_autofree char *size = hr_gui_format_size_both (bytes);

  /* Translators: "469,762,048 bytes = 0.47 GB (0.44 GiB)" */
  return g_strdup_printf (_("%s bytes = %s"), count, size);
}

/**
 * hr_formula_weights:
 * @spec: the model
 * @scenario: the scenario it was evaluated under (its precision, or %NULL
 *   for "as pulled")
 * @evaluation: what hr_evaluate() gave
 *
 * Weights as parameters x bits / 8 (docs/seed-figures.md, "Weights"), or the
 * file's own size when the precision is "as pulled" and the size is known.
 *
 * Returns: (transfer full): "3,212,749,888 parameters x 4.6 bits / 8 =
 *   1,847,331,186 bytes = 1.85 GB (1.72 GiB)"
 */
char *
hr_formula_weights (const HrModelSpec  *spec,
                    const HrEvaluationInputs   *scenario,
                    const HrEvaluation *evaluation)
{
  guint64 weights = evaluation->footprint.weights;
  const HrPrecision *precision = scenario->precision;
  g_autofree char *rhs = format_bytes_and_size (weights);

  if ((precision == NULL ||
       (spec->precision != NULL && g_ascii_strcasecmp (precision->id, spec->precision) == 0)) &&
      spec->file_bytes > 0 && weights == spec->file_bytes)
    /* Translators: %1$s is a precision such as "q4_K_M", %2$s "2,019,377,376 bytes = 2.02 GB (1.88 GiB)" */
    return g_strdup_printf (_("the file as pulled (%1$s): %2$s"),
                            spec->precision ? spec->precision : "?", rhs);

  if (precision == NULL && spec->precision != NULL)
    precision = hr_precision_lookup (spec->precision);

  if (precision != NULL && spec->parameters > 0 &&
      hr_memory_weight_bytes (spec->parameters, precision->bits_per_weight) == weights)
    {
      g_autofree char *params = hr_gui_format_count (spec->parameters);
      g_autofree char *bits = hr_gui_format_bits (precision->bits_per_weight);

      /* Translators: "3,212,749,888 parameters x 4.6 bits / 8 = ..." */
      return g_strdup_printf (_("%1$s parameters x %2$s bits (%3$s) / 8 = %4$s"),
                              params, bits, precision->label, rhs);
    }

  return g_steal_pointer (&rhs);
}

/**
 * hr_formula_effective_bits:
 * @spec: the model
 *
 * The bits per weight of the real file: file bytes x 8 / parameters
 * (hr_memory_effective_bits(); docs/seed-figures.md W6: llama3.2:3b's Q4_K_M blob
 * is 5.028 bits per parameter).
 *
 * Returns: (transfer full) (nullable): the formula, or %NULL when the file
 *   size or the parameter count is unknown
 */
char *
hr_formula_effective_bits (const HrModelSpec *spec)
{
  g_autofree char *file = NULL;
  g_autofree char *params = NULL;
  g_autofree char *bits = NULL;

  if (spec->file_bytes == 0 || spec->parameters == 0)
    return NULL;

  file = hr_gui_format_count (spec->file_bytes);
  params = hr_gui_format_count (spec->parameters);
  bits = hr_gui_format_bits (hr_memory_effective_bits (spec->file_bytes, spec->parameters));

  return g_strdup_printf (_("%s bytes x 8 / %s parameters = %s bits per weight in the real file"),
                          file, params, bits);
}

/*
 * The per-token factors of the KV cache, "2 x 28 layers x 8 KV heads x 128
 * head dim x 2 bytes", when every layer has the same KV heads and the
 * product equals the core's figure; NULL otherwise.
 */
static char *
kv_factors (const HrModelSpec *spec,
            HrKvCacheType      kv_type,
            guint64            per_token)
{
  guint32 per_elements = 1;
  guint64 scaled = hr_kv_cache_element_bytes_scaled (kv_type, &per_elements);
  g_autofree char *element = NULL;
  guint64 elements = 0;
  guint64 product = 0;

  if (spec->layer_kv_heads != NULL || per_elements == 0)
    return NULL;

  if (!hr_mul_u64 (spec->layers, spec->kv_heads, &elements) ||
      !hr_mul_u64 (elements, (guint64)spec->key_length + spec->value_length, &elements) ||
      !hr_mul_u64 (elements, scaled, &product))
    return NULL;

  if (product % per_elements != 0 || product / per_elements != per_token)
    return NULL;

  if (per_elements == 1)
    element = g_strdup_printf ("%" G_GUINT64_FORMAT, scaled);
  else
    element = g_strdup_printf ("%" G_GUINT64_FORMAT "/%u", scaled, per_elements);

  if (spec->key_length == spec->value_length)
    /* Translators: the KV cache per token, "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes" */
    return g_strdup_printf (_("2 x %1$u layers x %2$u KV heads x %3$u head dim x %4$s bytes"),
                            spec->layers, spec->kv_heads, spec->key_length, element);

  return g_strdup_printf (_("%1$u layers x %2$u KV heads x (%3$u key dim + %4$u value dim) x %5$s bytes"),
                          spec->layers, spec->kv_heads, spec->key_length, spec->value_length,
                          element);
}

/**
 * hr_formula_kv_per_token:
 * @spec: the model
 * @kv_type: the KV cache element type (f16 2 bytes, q8_0 34/32, q4_0 18/32)
 *
 * Returns: (transfer full): "2 x 28 layers x 8 KV heads x 128 head dim x 2
 *   bytes = 114,688 bytes per token" (docs/seed-figures.md, "KV cache")
 */
char *
hr_formula_kv_per_token (const HrModelSpec *spec,
                         HrKvCacheType      kv_type)
{
  guint64 per_token = hr_memory_kv_bytes_per_token (spec, kv_type);
  g_autofree char *count = hr_gui_format_count (per_token);
  g_autofree char *factors = kv_factors (spec, kv_type, per_token);

  if (factors != NULL)
    return g_strdup_printf (_("%s = %s bytes per token"), factors, count);

  return g_strdup_printf (_("%s bytes per token, summed over layers whose KV heads differ"), count);
}

/**
 * hr_formula_kv_cache:
 * @spec: the model
 * @scenario: context tokens (num_ctx), KV cache type, parallel slots
 * @evaluation: what hr_evaluate() gave
 *
 * Returns: (transfer full): "2 x 28 layers x 8 KV heads x 128 head dim x 2
 *   bytes x 4,096 tokens = 469,762,048 bytes = 0.47 GB (0.44 GiB)"
 */
char *
hr_formula_kv_cache (const HrModelSpec  *spec,
                     const HrEvaluationInputs   *scenario,
                     const HrEvaluation *evaluation)
{
  guint64 kv = evaluation->footprint.kv_cache;
  guint64 per_token = hr_memory_kv_bytes_per_token (spec, scenario->kv_type);
  g_autofree char *factors = kv_factors (spec, scenario->kv_type, per_token);
  g_autofree char *tokens = hr_gui_format_count (scenario->context_tokens);
  g_autofree char *rhs = format_bytes_and_size (kv);
  guint64 product = 0;

  if (!hr_mul_u64 (per_token, scenario->context_tokens, &product) ||
      !hr_mul_u64 (product, MAX (scenario->parallel_slots, 1), &product) ||
      product != kv)
    {
      g_autofree char *per = hr_gui_format_count (per_token);

      /* A quantized cache rounds the whole cache up to 32-element blocks. */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%1$s bytes per token x %2$s tokens x %3$u parallel slot, "
                                           "rounded up to whole 32-element blocks = %4$s",
                                           "%1$s bytes per token x %2$s tokens x %3$u parallel slots, "
                                           "rounded up to whole 32-element blocks = %4$s",
                                           MAX (scenario->parallel_slots, 1)),
                              per, tokens, MAX (scenario->parallel_slots, 1), rhs);
    }

  if (factors == NULL)
    {
      g_autofree char *per = hr_gui_format_count (per_token);

      factors = g_strdup_printf (_("%s bytes per token"), per);
    }

  if (scenario->parallel_slots > 1)
    return g_strdup_printf (_("%1$s x %2$s tokens x %3$u parallel slots = %4$s"),
                            factors, tokens, scenario->parallel_slots, rhs);

  return g_strdup_printf (_("%1$s x %2$s tokens = %3$s"), factors, tokens, rhs);
}

/**
 * hr_formula_overhead:
 * @evaluation: what hr_evaluate() gave
 *
 * Returns: (transfer full): the runtime overhead and what it holds
 */
char *
hr_formula_overhead (const HrEvaluation *evaluation)
{
  g_autofree char *rhs = format_bytes_and_size (evaluation->footprint.overhead);

  if (evaluation->footprint.overhead == 0)
    return g_strdup_printf (_("%s: no runtime overhead model is set, so the runtime's own "
                              "buffers are not counted"), rhs);

  return g_steal_pointer (&rhs);
}

/**
 * hr_formula_total:
 * @evaluation: what hr_evaluate() gave
 *
 * Returns: (transfer full): "weights + KV cache + overhead = total"
 */
char *
hr_formula_total (const HrEvaluation *evaluation)
{
  const HrFootprint *f = &evaluation->footprint;
  g_autofree char *w = hr_gui_format_size (f->weights, HR_UNIT_GB);
  g_autofree char *kv = hr_gui_format_size (f->kv_cache, HR_UNIT_GB);
  g_autofree char *o = hr_gui_format_size (f->overhead, HR_UNIT_GB);
  g_autofree char *rhs = format_bytes_and_size (f->total);

  return g_strdup_printf (_("%1$s weights + %2$s KV cache + %3$s overhead = %4$s"),
                          w, kv, o, rhs);
}

/**
 * hr_formula_headroom:
 * @board: the board
 *
 * Returns: (transfer full): "8.0 GB pool - 1.9 GB resident = 6.1 GB (5.68 GiB) headroom"
 */
char *
hr_formula_headroom (const HrBoard *board)
{
  g_autofree char *pool = hr_gui_format_size (board->pool_bytes, HR_UNIT_GB);
  g_autofree char *resident = hr_gui_format_size (board->resident_bytes, HR_UNIT_GB);
  g_autofree char *headroom = hr_gui_format_size_both (hr_board_headroom_bytes (board));

  return g_strdup_printf (_("%1$s pool - %2$s resident = %3$s headroom"),
                          pool, resident, headroom);
}

/**
 * hr_formula_budget:
 * @board: the board
 *
 * Returns: (transfer full): "8.0 GB pool - 1.9 GB resident - 1.0 GB reserve
 *   = 5.1 GB (4.75 GiB) budget" (docs/seed-figures.md, "Budget and verdicts")
 */
char *
hr_formula_budget (const HrBoard *board)
{
  g_autofree char *pool = hr_gui_format_size (board->pool_bytes, HR_UNIT_GB);
  g_autofree char *resident = hr_gui_format_size (board->resident_bytes, HR_UNIT_GB);
  g_autofree char *reserve = hr_gui_format_size (board->reserve_bytes, HR_UNIT_GB);
  g_autofree char *budget = hr_gui_format_size_both (hr_board_budget_bytes (board));

  return g_strdup_printf (_("%1$s pool - %2$s resident - %3$s reserve = %4$s budget"),
                          pool, resident, reserve, budget);
}

/**
 * hr_formula_verdict:
 * @board: the board
 * @evaluation: what hr_evaluate() gave
 *
 * Every line is true as written: a split row (hr_offload_predict()) that
 * is partial says what its host memory holds against the host budget
 * (host headroom less the host reserve: the pool chart's Free), and one
 * that is over names the side it is over on: the host memory (its bytes
 * there less the host headroom, hr_offload_judge()) or the GPU (a num_gpu
 * too large: its bytes there less the GPU's headroom).
 *
 * Returns: (transfer full): "5.1 GB budget - 2.47 GB total = 2.63 GB to
 *   spare: fits"; the tight and over cases measure against the headroom
 */
char *
hr_formula_verdict (const HrBoard      *board,
                    const HrEvaluation *evaluation)
{
  g_autofree char *total = hr_gui_format_size (evaluation->footprint.total, HR_UNIT_GB);
  g_autofree char *margin = hr_gui_format_size_both (evaluation->margin_bytes);
  g_autofree char *budget = hr_gui_format_size (hr_board_budget_bytes (board), HR_UNIT_GB);
  g_autofree char *headroom = hr_gui_format_size (hr_board_headroom_bytes (board), HR_UNIT_GB);

  switch (evaluation->verdict)
    {
    case HR_VERDICT_FITS:
      return g_strdup_printf (_("%1$s budget - %2$s total = %3$s to spare: fits"),
                              budget, total, margin);
    case HR_VERDICT_TIGHT:
      return g_strdup_printf (_("%1$s total is past the %2$s budget; %3$s headroom - %1$s total "
                                "= %4$s left above the resident memory: tight"),
                              total, budget, headroom, margin);
    case HR_VERDICT_PARTIAL:
      if (evaluation->split)
        {
          guint64 host_budget = hr_board_host_budget_bytes (board);
          g_autofree char *hb = hr_gui_format_size (host_budget, HR_UNIT_GB);
          g_autofree char *host = hr_gui_format_size (evaluation->host_bytes, HR_UNIT_GB);
          g_autofree char *reserve = hr_gui_format_size (board->host_reserve_bytes, HR_UNIT_GB);

          if (evaluation->host_bytes <= host_budget)
            {
              g_autofree char *spare = hr_gui_format_size_both (host_budget - evaluation->host_bytes);

              return g_strdup_printf (_("%1$u of %2$u layers fit the GPU; %3$s host budget - %4$s in host memory "
                                        "= %5$s to spare: partial"),
                                      evaluation->gpu_layers, evaluation->total_layers, hb, host, spare);
            }
          {
            g_autofree char *into = hr_gui_format_size_both (evaluation->host_bytes - host_budget);

            return g_strdup_printf (_("%1$u of %2$u layers fit the GPU; %3$s in host memory - %4$s host budget "
                                      "= %5$s into the %6$s host reserve: partial"),
                                    evaluation->gpu_layers, evaluation->total_layers, host, hb, into, reserve);
          }
        }
      return g_strdup_printf (_("%1$u of %2$u layers fit the GPU; the rest stays in host memory "
                                "with %3$s of it to spare: partial"),
                              evaluation->gpu_layers, evaluation->total_layers, margin);
    case HR_VERDICT_OVER:
    default:
      if (evaluation->split && evaluation->n_devices <= 1 && evaluation->vram_bytes > hr_board_headroom_bytes (board))
        {
          g_autofree char *vram = hr_gui_format_size (evaluation->vram_bytes, HR_UNIT_GB);

          return g_strdup_printf (_("%1$s on the GPU - %2$s headroom = over by %3$s on the GPU"),
                                  vram, headroom, margin);
        }
      if (evaluation->split)
        {
          g_autofree char *host = hr_gui_format_size (evaluation->host_bytes, HR_UNIT_GB);
          g_autofree char *host_headroom = hr_gui_format_size (hr_board_host_headroom_bytes (board), HR_UNIT_GB);

          return g_strdup_printf (_("%1$s in host memory - %2$s host headroom = over by %3$s in host memory"),
                                  host, host_headroom, margin);
        }
      return g_strdup_printf (_("%1$s total - %2$s headroom = over by %3$s"),
                              total, headroom, margin);
    }
}

/**
 * hr_formula_ceiling:
 * @board: the board
 * @evaluation: what hr_evaluate() gave
 *
 * Returns: (transfer full): "102 GB/s / 2.0 GB = 51.0 t/s ceiling"
 *   (every weight is read once per token; docs/seed-figures.md, "Rates");
 *   a mixture of experts divides by what a token reads, its dense weights
 *   and the experts it routes to (evaluation->read_bytes,
 *   hr_offload_token_read_bytes())
 */
char *
hr_formula_ceiling (const HrBoard      *board,
                    const HrEvaluation *evaluation)
{
  gboolean routed = evaluation->read_bytes > 0 && evaluation->read_bytes < evaluation->footprint.weights;
  g_autofree char *weights = hr_gui_format_size (routed ? evaluation->read_bytes : evaluation->footprint.weights,
                                                 HR_UNIT_GB);
  g_autofree char *bandwidth = hr_gui_format_plain (board->bandwidth_bytes_per_s / 1e9);
  g_autofree char *ceiling = hr_gui_format_decimal (evaluation->ceiling_tps, 1);

  if (routed)
    /* Translators: GB/s, the bytes one token reads, t/s */
    return g_strdup_printf (_("%1$s GB/s / %2$s read per token (the dense weights and the experts it routes to) = %3$s t/s ceiling"),
                            bandwidth, weights, ceiling);
  return g_strdup_printf (_("%1$s GB/s / %2$s weights = %3$s t/s ceiling"),
                          bandwidth, weights, ceiling);
}

/**
 * hr_formula_rate:
 * @scenario: the scenario, with the board's efficiency fit
 * @evaluation: what hr_evaluate() gave
 *
 * The window calls every rate that is not measured "predicted"
 * (hr_gui_rate_source_label()); this line says what the prediction rests
 * on: the efficiency fitted on this board's measurements, inside or outside
 * the band of weight sizes they cover (docs/seed-figures.md, "Rates"), or
 * the published efficiency of its kind of hardware (data/priors.json).
 *
 * Returns: (transfer full): the decode rate and what it rests on
 */
char *
hr_formula_rate (const HrEvaluationInputs   *scenario,
                 const HrEvaluation *evaluation)
{
  const HrEfficiencyFit *fit = &scenario->fit;
  g_autofree char *tps = hr_gui_format_decimal (evaluation->tps, 1);
  g_autofree char *ceiling = hr_gui_format_decimal (evaluation->ceiling_tps, 1);
  g_autofree char *efficiency = hr_gui_format_decimal (fit->efficiency, 2);
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;

  if (evaluation->source == HR_RATE_SOURCE_MEASURED)
    return g_strdup_printf (_("%s t/s measured on this board (the measurement archive's "
                              "mean decode rate)"), tps);

  if (!(evaluation->tps > 0.0) && !(scenario->board->bandwidth_bytes_per_s > 0.0))
    return g_strdup (_("No rate: the board's memory bandwidth is not known"));
  if (!(evaluation->tps > 0.0))
    return g_strdup (_("No rate: this board has no measurements to fit an efficiency to, "
                       "and no published efficiency is known for its kind of hardware"));

  if (evaluation->source == HR_RATE_SOURCE_PRIOR && evaluation->split
      && evaluation->verdict == HR_VERDICT_PARTIAL)
    return g_strdup_printf (_("%s t/s predicted: the GPU's layers at its efficiency and the "
                              "CPU's at the CPU's published efficiency (see Partial offload speed)"), tps);

  if (evaluation->source == HR_RATE_SOURCE_PRIOR)
    {
      g_autofree char *prior = hr_gui_format_decimal (scenario->prior_efficiency, 2);

      return g_strdup_printf (_("%1$s t/s ceiling x %2$s efficiency = %3$s t/s predicted: this "
                                "board has no measurements, so the efficiency is the mean of "
                                "published runs on its kind of hardware (data/priors.json)"),
                              ceiling, prior, tps);
    }

  low = hr_gui_format_size (fit->band_low_bytes / 2, HR_UNIT_GB);
  high = hr_gui_format_size (fit->band_high_bytes * 2, HR_UNIT_GB);

  if (evaluation->source == HR_RATE_SOURCE_ESTIMATE)
    return g_strdup_printf (_("%1$s t/s ceiling x %2$s efficiency = %3$s t/s predicted, from the "
                              "efficiency fitted on this board's measurements: the weights lie "
                              "inside the band it holds for, %4$s to %5$s"),
                            ceiling, efficiency, tps, low, high);

  return g_strdup_printf (_("%1$s t/s ceiling x %2$s efficiency = %3$s t/s predicted, from the "
                            "efficiency fitted on this board's measurements, but the weights lie "
                            "outside the band it holds for, %4$s to %5$s"),
                          ceiling, efficiency, tps, low, high);
}

/**
 * hr_formula_floor:
 * @board: the board and its turn budget
 * @scenario: the scenario (its floor_tps)
 *
 * Returns: (transfer full): "27 tokens / ((3,000 ms - 350 ms) / 1000) =
 *   10.2 t/s floor" (docs/seed-figures.md, "Rates")
 */
char *
hr_formula_floor (const HrBoard    *board,
                  const HrEvaluationInputs *scenario)
{
  g_autofree char *stage = hr_gui_format_count (board->stage_ceiling_ms);
  g_autofree char *prefill = hr_gui_format_count (board->prefill_allowance_ms);
  g_autofree char *floor_tps = hr_gui_format_decimal (scenario->floor_tps, 1);

  return g_strdup_printf (_("%1$u tokens / ((%2$s ms - %3$s ms) / 1000) = %4$s t/s floor"),
                          board->reply_tokens, stage, prefill, floor_tps);
}

/**
 * hr_formula_speed:
 * @scenario: the scenario (its floor_tps)
 * @evaluation: what hr_evaluate() gave
 *
 * Returns: (transfer full): "18.4 t/s >= 10.2 t/s floor: ok"; for a row
 *   that does not load, that it has no speed verdict
 */
char *
hr_formula_speed (const HrEvaluationInputs   *scenario,
                  const HrEvaluation *evaluation)
{
  g_autofree char *tps = hr_gui_format_decimal (evaluation->tps, 1);
  g_autofree char *floor_tps = hr_gui_format_decimal (scenario->floor_tps, 1);

  if (evaluation->verdict == HR_VERDICT_OVER)
    return g_strdup (_("it does not load on this board, so it has no speed verdict"));
  switch (evaluation->speed)
    {
    case HR_SPEED_OK:
      return g_strdup_printf (_("%s t/s >= %s t/s floor: ok"), tps, floor_tps);
    case HR_SPEED_SLOW:
      return g_strdup_printf (_("%s t/s < %s t/s floor: slow"), tps, floor_tps);
    case HR_SPEED_LIKELY_OK:
      return g_strdup_printf (_("%s t/s >= %s t/s floor, predicted from a published efficiency: likely ok"), tps, floor_tps);
    case HR_SPEED_LIKELY_SLOW:
      return g_strdup_printf (_("%s t/s < %s t/s floor, predicted from a published efficiency: likely slow"), tps, floor_tps);
    case HR_SPEED_UNKNOWN:
    default:
      if (!(evaluation->tps > 0.0))
        return g_strdup (_("no rate, so the speed is unknown"));
      return g_strdup (_("the rate is predicted outside the band this board's measurements "
                         "cover, so the speed is unknown"));
    }
}

/**
 * hr_formula_context:
 * @spec: the model (its native context limit)
 * @scenario: the scenario (its context window)
 *
 * Returns: (transfer full): the context window against the model's native
 *   limit
 */
char *
hr_formula_context (const HrModelSpec *spec,
                    const HrEvaluationInputs  *scenario)
{
  g_autofree char *tokens = hr_gui_format_context (scenario->context_tokens);
  g_autofree char *limit = NULL;

  if (spec->context_length == 0)
    return g_strdup_printf (_("%s; the model's native context limit is unknown"), tokens);

  limit = hr_gui_format_context (spec->context_length);

  if (scenario->context_tokens > spec->context_length)
    return g_strdup_printf (_("%1$s is past the model's native limit of %2$s"), tokens, limit);

  return g_strdup_printf (_("%1$s of the model's native %2$s"), tokens, limit);
}

/* The split hr_evaluate() made for the row (its evaluate_split()): the same
 * inputs, so the figures are the row's. */
static void
split_inputs (const HrEvaluationInputs *scenario,
              const HrModelSpec        *spec,
              HrOffloadInputs          *in)
{
  hr_offload_inputs_init (in, scenario->board, spec, scenario->context_tokens);
  in->runtime.precision = scenario->precision;
  in->runtime.kv_type = scenario->kv_type;
  in->runtime.parallel_slots = MAX (scenario->parallel_slots, 1);
  if (scenario->num_gpu_set)
    in->num_gpu = (gint32) MIN (scenario->num_gpu, (guint32) G_MAXINT32);
  in->n_cpu_moe = scenario->n_cpu_moe;
}

static char *
format_side (const char          *name,
             const HrOffloadSide *side)
{
  g_autofree char *weights = hr_gui_format_size (side->weights, HR_UNIT_GB);
  g_autofree char *kv = hr_gui_format_size (side->kv_cache, HR_UNIT_GB);
  g_autofree char *compute = hr_gui_format_size (side->compute, HR_UNIT_GB);
  g_autofree char *total = format_bytes_and_size (side->total);

  /* Translators: one side of a GPU/host split, "VRAM: 9.03 GB weights + 1.1 GB KV cache +
     0.52 GB compute = 10,652,000,000 bytes = 10.65 GB (9.92 GiB)" */
  return g_strdup_printf (_("%1$s: %2$s weights + %3$s KV cache + %4$s compute = %5$s"),
                          name, weights, kv, compute, total);
}

/**
 * hr_formula_split:
 * @spec: the model
 * @scenario: the scenario (a board with host memory, hr_board_has_host())
 * @evaluation: what hr_evaluate() gave
 *
 * The GPU/host split (hr_offload_predict(), with the inputs hr_evaluate()
 * used): the layers on the GPU, VRAM and host bytes term by term, and the
 * PROCESSOR text `ollama ps` would show.
 *
 * Returns: (transfer full) (nullable): "34 of 49 layers on the GPU ...", or
 *   %NULL for a row without a split
 */
char *
hr_formula_split (const HrModelSpec        *spec,
                  const HrEvaluationInputs *scenario,
                  const HrEvaluation       *evaluation)
{
  return hr_formula_split_for (spec, scenario, evaluation, HR_RUNTIME_ERA_OLLAMA_0_30);
}

/**
 * hr_formula_split_for:
 * @spec: the model
 * @scenario: the scenario (a board with host memory, hr_board_has_host())
 * @evaluation: what hr_evaluate() gave
 * @era: the runtime the window sizes for
 *
 * hr_formula_split(), its last line what the server says: under Ollama the
 * PROCESSOR column of `ollama ps`, under llama-server its "offloaded N/M
 * layers to GPU" line (src/llama-model.cpp load_tensors).
 *
 * Returns: (transfer full) (nullable): the text, or %NULL for a row without
 *   a split
 */
char *
hr_formula_split_for (const HrModelSpec        *spec,
                      const HrEvaluationInputs *scenario,
                      const HrEvaluation       *evaluation,
                      HrRuntimeEra              era)
{
  HrOffloadInputs in;
  g_autofree HrOffload *split = NULL;
  g_autofree char *vram = NULL;
  g_autofree char *host = NULL;
  g_autofree char *embd = NULL;

  if (!evaluation->split)
    return NULL;
  /* Only now: the split is large (its layers' placement), and zeroing it
   * for a row without one cost more than the rest of the explain panel. */
  split = g_new0 (HrOffload, 1);
  split_inputs (scenario, spec, &in);
  if (!hr_offload_predict (&in, split, NULL))
    return NULL;

  vram = format_side (_("VRAM"), &split->vram);
  host = format_side (_("host memory"), &split->host);
  embd = hr_gui_format_size (split->token_embd_bytes, HR_UNIT_GB);
  if (split->cpu_moe_layers > 0)
    {
      g_autofree char *experts = hr_gui_format_size (split->cpu_moe_bytes, HR_UNIT_GB);

      /* Translators: the split with the user's --n-cpu-moe: the last layer whose experts stay in
         host memory, the option's N, those experts' size, the layers on the GPU of the total,
         the two sides, the token embedding's size, the PROCESSOR column of `ollama ps` */
      return g_strdup_printf (_("Experts of layers 0\u2013%1$u kept in host memory by --n-cpu-moe %2$u "
                                "(LLAMA_ARG_N_CPU_MOE): %3$s; the rest of each layer stays on its GPU, "
                                "and fit no longer places the layers\n%4$u of %5$u layers on the GPU\n"
                                "%6$s\n%7$s (the token embedding, %8$s, always stays there)\n"
                                "ollama ps would show PROCESSOR %9$s"),
                              split->cpu_moe_layers - 1, scenario->n_cpu_moe, experts,
                              split->gpu_layers, split->total_layers, vram, host, embd, split->processor);
    }
  if (era == HR_RUNTIME_ERA_LLAMA_SERVER)
    /* Translators: the split: layers on the GPU of the total, the two sides, the token
       embedding's size, and the line llama-server logs (kept as llama.cpp prints it) */
    return g_strdup_printf (_("%1$u of %2$u layers on the GPU (the output layer and the last blocks, "
                              "as llama.cpp's fit places them)\n%3$s\n%4$s (the token embedding, "
                              "%5$s, always stays there)\nllama-server would log: offloaded %1$u/%2$u layers to GPU"),
                            split->gpu_layers, split->total_layers, vram, host, embd);
  /* Translators: the split: layers on the GPU of the total, the two sides, the token
     embedding's size, and the PROCESSOR column of `ollama ps` */
  return g_strdup_printf (_("%1$u of %2$u layers on the GPU (the output layer and the last blocks, "
                            "as llama.cpp's fit places them)\n%3$s\n%4$s (the token embedding, "
                            "%5$s, always stays there)\nollama ps would show PROCESSOR %6$s"),
                          split->gpu_layers, split->total_layers, vram, host, embd,
                          split->processor);
}

/**
 * hr_formula_split_rate:
 * @spec: the model
 * @scenario: the scenario
 * @evaluation: what hr_evaluate() gave
 *
 * Returns: (transfer full) (nullable): a partial row's decode time, each
 *   side's weights at its own bandwidth and efficiency
 *   (hr_offload_decode_tps()), or %NULL for a row that is not partial
 */
char *
hr_formula_split_rate (const HrModelSpec        *spec,
                       const HrEvaluationInputs *scenario,
                       const HrEvaluation       *evaluation)
{
  HrOffloadInputs in;
  g_autofree HrOffload *split = NULL;
  char *text = NULL;
  double tps;

  if (!evaluation->split || evaluation->verdict != HR_VERDICT_PARTIAL)
    return NULL;
  if (!(evaluation->gpu_efficiency > 0.0) || !(evaluation->host_efficiency > 0.0))
    return g_strdup (_("No efficiency is known for one side (nothing measured and none "
                       "published for its kind of hardware), so the rate of a partial offload "
                       "is not worked out"));
  split = g_new0 (HrOffload, 1);
  split_inputs (scenario, spec, &in);
  if (!hr_offload_predict (&in, split, NULL) ||
      !hr_offload_decode_tps (split, scenario->board, evaluation->gpu_efficiency,
                              evaluation->host_efficiency, &tps, &text, NULL))
    return NULL;
  return text;
}

/**
 * hr_formula_max_context:
 * @spec: the model
 * @scenario: the scenario (its context is not used)
 * @allow_partial: %FALSE: every layer on the GPU and fits; %TRUE: with
 *   partial offload, at or above the board's floor
 * @out_context: (out): the answer in tokens, 0 when none fits
 *
 * The largest context window (hr_offload_max_context(), in 256-token
 * steps), at the GPU's fitted (else prior) efficiency and the CPU's prior.
 *
 * Returns: (transfer full) (nullable): the answer in words, or %NULL on a
 *   board without host memory (no split to search)
 */
char *
hr_formula_max_context (const HrModelSpec        *spec,
                        const HrEvaluationInputs *scenario,
                        gboolean                  allow_partial,
                        guint32                  *out_context)
{
  HrOffloadInputs in;
  g_autoptr(GError) error = NULL;
  g_autofree char *tokens = NULL;
  double gpu = scenario->fit.n_points > 0 ? scenario->fit.efficiency : scenario->prior_efficiency;
  guint32 context = 0;

  *out_context = 0;
  if (scenario->board == NULL || !hr_board_has_host (scenario->board))
    return NULL;
  split_inputs (scenario, spec, &in);
  if (!hr_offload_max_context (&in, allow_partial, gpu, scenario->cpu_prior_efficiency,
                               &context, &error))
    {
      if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
        return g_strdup (allow_partial
                         ? _("none: not even 256 tokens run at the floor rate with partial offload")
                         : _("none: not even 256 tokens fit all on the GPU"));
      return g_strdup (error->message);
    }
  *out_context = context;
  tokens = hr_gui_format_context (context);
  return g_strdup (tokens);
}

/**
 * hr_formula_best_precision:
 * @spec: the model
 * @scenario: the scenario, at its context
 * @allow_partial: %FALSE: every layer on the GPU and fits; %TRUE: fits,
 *   tight or partial
 *
 * Returns: (transfer full) (nullable): the precision with the most bits
 *   per weight that fits (hr_offload_best_precision()), in words, or %NULL
 *   on a board without host memory
 */
char *
hr_formula_best_precision (const HrModelSpec        *spec,
                           const HrEvaluationInputs *scenario,
                           gboolean                  allow_partial)
{
  HrOffloadInputs in;
  g_autoptr(GError) error = NULL;
  const HrPrecision *best;

  if (scenario->board == NULL || !hr_board_has_host (scenario->board))
    return NULL;
  split_inputs (scenario, spec, &in);
  best = hr_offload_best_precision (&in, allow_partial, &error);
  if (best == NULL)
    {
      if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
        return g_strdup (_("none fits at this context"));
      return g_strdup (error->message);
    }
  return g_strdup (best->label);
}
