/* hr-calibration.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Learning from measurements: per board and server version, the residual
 * between what Ollama reported (/api/ps `size`) and what the runtime model
 * predicted is fitted as residual = a + b x context tokens (least squares),
 * after setting outliers aside, and added to later predictions as a
 * "learned overhead" term that says what it was learned from.
 */
#pragma once

#include <glib.h>

#include "hr-runtime.h"

G_BEGIN_DECLS

/* One measured size: its context and reported - predicted, in bytes. */
typedef struct {
  guint32 context_tokens;
  gint64  residual_bytes;
} HrResidualPoint;

typedef enum {
  HR_CALIBRATION_NONE,     /* nothing measured: the overhead is the model's estimate */
  HR_CALIBRATION_CONSTANT, /* one context measured: a constant */
  HR_CALIBRATION_LINEAR,   /* a constant and a per-token slope */
} HrCalibrationKind;

typedef struct {
  HrCalibrationKind kind;
  double constant_bytes;     /* a */
  double bytes_per_token;    /* b */
  guint  n_points;           /* measured sizes given */
  guint  n_used;             /* those the fit used */
  guint  n_outliers;         /* those set aside (see hr_calibration_fit()) */
  double residual_rms_bytes; /* root mean square left after the fit, over the used points */
} HrCalibration;

/** HR_CALIBRATION_OUTLIER_FLOOR_BYTES: deviations under 0.05 GB (half the
 *  0.1 GB step `ollama ps` shows) are never called outliers. */
#define HR_CALIBRATION_OUTLIER_FLOOR_BYTES 50000000.0

gboolean hr_calibration_fit            (const HrResidualPoint   *points,
                                        guint                    n_points,
                                        HrCalibration           *out,
                                        GError                 **error);
gint64   hr_calibration_overhead_bytes (const HrCalibration     *calibration,
                                        guint32                  context_tokens);
char    *hr_calibration_describe       (const HrCalibration     *calibration);
void     hr_calibration_apply          (const HrCalibration     *calibration,
                                        HrRuntimePrediction     *prediction);
GArray  *hr_calibration_points_from_archive (GPtrArray             *measurements,
                                             const char            *board_id,
                                             const char            *runtime_version,
                                             GPtrArray             *catalog,
                                             const HrRuntimeInputs *template_inputs);
gboolean hr_calibration_same_version   (const char              *a,
                                        const char              *b);

G_END_DECLS
