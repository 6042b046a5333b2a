/* hr-rates.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-error.h"
#include "hr-rates.h"

/**
 * hr_rate_ceiling_tps:
 * @bandwidth_bytes_per_s: the board's peak memory bandwidth, bytes per second
 * @weight_bytes: the weights read once per token
 *
 * ceiling = bandwidth / weight bytes: decoding reads every weight once per
 * token, so this is the most tokens per second the memory can feed
 * (docs/seed-figures.md "Rates": 102 GB/s / 2.0 GB = 51.0 t/s).
 *
 * Returns: tokens per second, 0 when @weight_bytes is 0.
 */
double
hr_rate_ceiling_tps (double  bandwidth_bytes_per_s,
                     guint64 weight_bytes)
{
  if (weight_bytes == 0)
    return 0.0;
  return bandwidth_bytes_per_s / (double) weight_bytes;
}

/**
 * hr_rate_fit_efficiency:
 * @points: (array length=n_points): measured models on one board
 * @n_points: how many
 * @bandwidth_bytes_per_s: the board's peak bandwidth, bytes per second
 * @out_fit: (out caller-allocates): the fit
 * @error: return location for a #GError
 *
 * Fits the board's efficiency the seed's way: the mean of measured / ceiling
 * over the measured models, rounded to two decimals, and the fitted band as
 * the smallest and largest weight sizes measured. From the seed's two
 * measurements (2.0 GB at 18.4 t/s, 4.9 GB at 7.4 t/s, 102 GB/s) this gives
 * 0.36 and (2.0, 4.9) GB: the constant comes out of the data.
 *
 * Returns: %TRUE on success; %HR_CORE_ERROR_INVALID_ARGUMENT when there are no
 *   points, a point has no weight size or no positive rate, or the bandwidth
 *   is not positive (@out_fit then has n_points 0).
 */
gboolean
hr_rate_fit_efficiency (const HrRatePoint *points,
                        guint              n_points,
                        double             bandwidth_bytes_per_s,
                        HrEfficiencyFit   *out_fit,
                        GError           **error)
{
  double sum = 0.0;
  guint64 low = G_MAXUINT64, high = 0;

  *out_fit = (HrEfficiencyFit) { 0 };

  if (n_points == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("no measured model on this board: measure one to fit its efficiency"));
      return FALSE;
    }
  if (!(bandwidth_bytes_per_s > 0.0))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the board has no memory bandwidth set"));
      return FALSE;
    }

  for (guint i = 0; i < n_points; i++)
    {
      if (points[i].weight_bytes == 0 || !(points[i].decode_tps > 0.0) || !isfinite (points[i].decode_tps))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("measurement %u has no weight size or no positive decode rate"), i + 1);
          return FALSE;
        }
      sum += points[i].decode_tps / hr_rate_ceiling_tps (bandwidth_bytes_per_s, points[i].weight_bytes);
      low = MIN (low, points[i].weight_bytes);
      high = MAX (high, points[i].weight_bytes);
    }

  out_fit->efficiency = round (sum / n_points * 100.0) / 100.0;
  out_fit->band_low_bytes = low;
  out_fit->band_high_bytes = high;
  out_fit->n_points = n_points;
  return TRUE;
}

/**
 * hr_rate_source_for:
 * @fit: the board's efficiency fit
 * @weight_bytes: the model's weights
 *
 * The band rule for an unmeasured model: trust the fitted efficiency within
 * a factor of two of the data, [low / 2, high x 2] ("estimate"), and call it
 * "extrapolated" outside (docs/seed-figures.md: [1.0, 9.8] GB). Without a fit every
 * rate is extrapolated.
 *
 * Returns: %HR_RATE_SOURCE_ESTIMATE or %HR_RATE_SOURCE_EXTRAPOLATED.
 */
HrRateSource
hr_rate_source_for (const HrEfficiencyFit *fit,
                    guint64                weight_bytes)
{
  if (fit == NULL || fit->n_points == 0)
    return HR_RATE_SOURCE_EXTRAPOLATED;
  /* weight >= low / 2 and weight <= high x 2, in integers. */
  if ((double) weight_bytes * 2.0 >= (double) fit->band_low_bytes &&
      (double) weight_bytes <= (double) fit->band_high_bytes * 2.0)
    return HR_RATE_SOURCE_ESTIMATE;
  return HR_RATE_SOURCE_EXTRAPOLATED;
}

/**
 * hr_rate_floor_tps:
 * @reply_tokens: decode tokens in a typical reply
 * @stage_ceiling_ms: the language stage's share of the turn, ms
 * @prefill_allowance_ms: time kept for prefill, ms
 *
 * floor = reply tokens / ((stage ceiling - prefill allowance) / 1000)
 * (docs/seed-figures.md: 27 / 2.65 = 10.2 t/s).
 *
 * Returns: tokens per second; 0 when no time is left to decode.
 */
double
hr_rate_floor_tps (guint32 reply_tokens,
                   guint32 stage_ceiling_ms,
                   guint32 prefill_allowance_ms)
{
  if (stage_ceiling_ms <= prefill_allowance_ms)
    return 0.0;
  return reply_tokens / ((double) (stage_ceiling_ms - prefill_allowance_ms) / 1000.0);
}

/**
 * hr_rate_speed:
 * @tps: the rate
 * @source: where it came from
 * @floor_tps: the board's floor
 *
 * Returns: %HR_SPEED_UNKNOWN when the rate is extrapolated (an admission,
 *   not a figure); for a prior rate %HR_SPEED_LIKELY_OK when @tps >=
 *   @floor_tps, else %HR_SPEED_LIKELY_SLOW (a prior is published rates on
 *   other boards of the kind, not this board's); else %HR_SPEED_OK when
 *   @tps >= @floor_tps, else %HR_SPEED_SLOW.
 */
HrSpeed
hr_rate_speed (double       tps,
               HrRateSource source,
               double       floor_tps)
{
  if (source == HR_RATE_SOURCE_EXTRAPOLATED)
    return HR_SPEED_UNKNOWN;
  if (source == HR_RATE_SOURCE_PRIOR)
    return tps >= floor_tps ? HR_SPEED_LIKELY_OK : HR_SPEED_LIKELY_SLOW;
  return tps >= floor_tps ? HR_SPEED_OK : HR_SPEED_SLOW;
}

/**
 * hr_rate_source_to_string:
 * @source: a rate source
 *
 * Returns: (transfer none): "measured", "estimate", "extrapolated" or "prior".
 */
const char *
hr_rate_source_to_string (HrRateSource source)
{
  switch (source)
    {
    case HR_RATE_SOURCE_MEASURED: return "measured";
    case HR_RATE_SOURCE_ESTIMATE: return "estimate";
    case HR_RATE_SOURCE_PRIOR:    return "prior";
    case HR_RATE_SOURCE_EXTRAPOLATED:
    default:                      return "extrapolated";
    }
}

/**
 * hr_speed_to_string:
 * @speed: a speed verdict
 *
 * Returns: (transfer none): "ok", "slow", "unknown", "likely ok" or
 *   "likely slow".
 */
const char *
hr_speed_to_string (HrSpeed speed)
{
  switch (speed)
    {
    case HR_SPEED_OK:   return "ok";
    case HR_SPEED_SLOW: return "slow";
    case HR_SPEED_LIKELY_OK:   return "likely ok";
    case HR_SPEED_LIKELY_SLOW: return "likely slow";
    case HR_SPEED_UNKNOWN:
    default:            return "unknown";
    }
}
