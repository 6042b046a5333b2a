/* hr-rates.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decode rates (docs/seed-figures.md, "Rates"):
 *   ceiling    = bandwidth / weight bytes (every weight is read once per token)
 *   efficiency = mean(measured / ceiling) over the board's measured models,
 *                rounded to two decimals; fitted band = [smallest, largest]
 *                weight size measured
 *   estimate   = ceiling x efficiency; "estimate" inside [low / 2, high x 2],
 *                "extrapolated" outside; "measured" when the archive has it
 *   floor      = reply tokens / ((stage ceiling - prefill allowance) / 1000)
 *   speed      = unknown when extrapolated, else ok if rate >= floor, else slow
 *   prior      = ceiling x the prior efficiency of the board's kind of
 *                hardware, only where the board has no measurement; its
 *                speed is "likely ok" or "likely slow"
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  HR_RATE_SOURCE_MEASURED,
  HR_RATE_SOURCE_ESTIMATE,
  HR_RATE_SOURCE_EXTRAPOLATED,
  HR_RATE_SOURCE_PRIOR,        /* ceiling x a prior efficiency for the kind of hardware (hr-priors.h) */
} HrRateSource;

typedef enum {
  HR_SPEED_OK,
  HR_SPEED_SLOW,
  HR_SPEED_UNKNOWN,
  HR_SPEED_LIKELY_OK,   /* a prior rate at or above the floor: not measured on this board */
  HR_SPEED_LIKELY_SLOW, /* a prior rate under the floor */
} HrSpeed;

/* One measured model on a board: its weight bytes and its mean decode rate. */
typedef struct {
  guint64 weight_bytes;
  double  decode_tps;
} HrRatePoint;

typedef struct {
  double   efficiency;      /* measured / ceiling, rounded to 0.01 */
  guint64  band_low_bytes;  /* smallest measured weight size */
  guint64  band_high_bytes; /* largest measured weight size */
  guint    n_points;        /* measurements the fit used (0 = no fit) */
} HrEfficiencyFit;

double       hr_rate_ceiling_tps    (double                 bandwidth_bytes_per_s,
                                     guint64                weight_bytes);
gboolean     hr_rate_fit_efficiency (const HrRatePoint     *points,
                                     guint                  n_points,
                                     double                 bandwidth_bytes_per_s,
                                     HrEfficiencyFit       *out_fit,
                                     GError               **error);
HrRateSource hr_rate_source_for     (const HrEfficiencyFit *fit,
                                     guint64                weight_bytes);
double       hr_rate_floor_tps      (guint32                reply_tokens,
                                     guint32                stage_ceiling_ms,
                                     guint32                prefill_allowance_ms);
HrSpeed      hr_rate_speed          (double                 tps,
                                     HrRateSource           source,
                                     double                 floor_tps);
const char  *hr_rate_source_to_string (HrRateSource         source);
const char  *hr_speed_to_string     (HrSpeed                speed);

G_END_DECLS
