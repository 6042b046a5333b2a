/* hr-model-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrModelRow: one model of the catalog as the window lists it: its
 * HrModelSpec, the measured decode rate on the current board (if any), and
 * the HrEvaluation of the current scenario, cached so sorting, drawing and
 * exporting read plain fields.
 */
#pragma once

#include <glib-object.h>

#include "hr-evaluate.h"
#include "hr-model-spec.h"
#include "hr-calibration.h"
#include "hr-runtime.h"

G_BEGIN_DECLS

#define HR_TYPE_MODEL_ROW (hr_model_row_get_type ())

G_DECLARE_FINAL_TYPE (HrModelRow, hr_model_row, HR, MODEL_ROW, GObject)

HrModelRow         *hr_model_row_new               (const HrModelSpec  *spec);
const HrModelSpec  *hr_model_row_get_spec          (HrModelRow         *self);
const char         *hr_model_row_get_name          (HrModelRow         *self);
gboolean            hr_model_row_matches           (HrModelRow         *self,
                                                    const char         *folded_needle);
const HrEvaluation *hr_model_row_get_evaluation    (HrModelRow         *self);
guint64             hr_model_row_get_kv_per_token  (HrModelRow         *self);
HrKvCacheType       hr_model_row_get_kv_type       (HrModelRow         *self);
double              hr_model_row_get_measured_tps  (HrModelRow         *self);
void                hr_model_row_set_measured_tps  (HrModelRow         *self,
                                                    double              measured_tps);
gboolean            hr_model_row_get_recommended   (HrModelRow         *self);
void                hr_model_row_set_recommended   (HrModelRow         *self,
                                                    gboolean            recommended);
void                hr_model_row_evaluate          (HrModelRow         *self,
                                                    const HrEvaluationInputs   *scenario);
void                hr_model_row_evaluate_runtime  (HrModelRow            *self,
                                                    const HrEvaluationInputs      *scenario,
                                                    const HrRuntimeInputs *runtime,
                                                    const HrCalibration   *calibration);
gint64              hr_model_row_get_learned_bytes (HrModelRow         *self);
guint64             hr_model_row_get_projector_bytes (HrModelRow       *self);
const HrEvaluation *hr_model_row_get_plain_evaluation (HrModelRow      *self);
gboolean            hr_model_row_get_runtime_failed (HrModelRow        *self);
void                hr_model_row_changed           (HrModelRow         *self);
guint               hr_model_row_get_serial        (HrModelRow         *self);
void                hr_model_row_watch             (HrModelRow         *self);
void                hr_model_row_unwatch           (HrModelRow         *self);

G_END_DECLS
