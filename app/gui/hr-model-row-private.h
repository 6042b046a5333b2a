/* hr-model-row-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrModelRow's fields, for its list (hr-catalog-model.c) only: a slider
 * step evaluates 10,000 rows, and the list reads what it needs from each
 * row in the same pass (the verdict, the recommendation, whether anyone
 * watches it) without a checked call per field.
 */
#pragma once

#include "hr-model-row.h"

G_BEGIN_DECLS

/*
 * A row keeps its figures in plain fields and tells the few cells shown
 * for it with one signal, "changed", instead of a notify per property.
 */
struct _HrModelRow
{
  GObject       parent_instance;

  HrModelSpec  *spec;
  guint64       kv_per_token;
  double        measured_tps;
  gboolean      recommended;
  guint         watchers;      /* cells shown for the row (hr_model_row_watch()) */
  guint         serial;        /* hr_model_row_get_serial() */
  int           kv_type;       /* of kv_per_token, -1 before the first evaluation */
  /* The plain math's (weights + KV cache only: what the rate and the
   * seed's formulas use) footprint, verdict and margin. The rest of its
   * evaluation is the runtime's; hr_model_row_get_plain_evaluation()
   * puts the two together in plain_view when asked. */
  HrFootprint   plain_footprint;
  HrVerdict     plain_verdict;
  guint64       plain_margin_bytes;
  HrEvaluation *plain_view;
  gint64        learned_bytes; /* the board's learned overhead in the footprint, 0 without a runtime */
  guint64       projector_bytes; /* the runtime's projector term, counted in the footprint's overhead */
  gboolean      runtime_failed; /* the runtime model could not size the model: plain math shown */
  guint32       runtime_clamped_at; /* the last prediction clamped num_ctx to this limit, 0 = it did not */
  /* The last whole prediction's chart parts less the two terms a context
   * step makes again (hr_runtime_predict_context_step()): weights (with a
   * unified board's host bytes), KV (the recurrent state) and overhead
   * (all but the compute buffer and the learned term). */
  guint64       step_weights;
  guint64       step_kv;
  guint64       step_overhead;
  guint64       step_projector; /* its projector_bytes */
  HrRuntimeSpecCache *runtime_cache; /* what the runtime works out from the spec alone; the spec
                                      * is the row's own copy and never changes */
  HrEvaluationCache plain_cache;     /* the same for hr_evaluate() */
  /* Last: a slider step reads and writes the fields above and only the
   * head of the evaluation (the footprint, verdict, margin, rate and
   * speed: ROW_HOT_BYTES, hr-catalog-model.c), so that they are together
   * in memory; its tail (the placement across devices) and the folded
   * name are not read on a step. */
  HrEvaluation  evaluation;
  char         *name_folded;
};

void _hr_model_row_prepare_runtime  (const HrEvaluationInputs *scenario,
                                     const HrRuntimeInputs    *runtime,
                                     HrRuntimeInputs          *pass);
void _hr_model_row_evaluate_runtime (HrModelRow               *self,
                                     const HrEvaluationInputs *scenario,
                                     HrRuntimeInputs          *runtime,
                                     const HrCalibration      *calibration,
                                     gboolean                  context_step);
void _hr_model_row_changed          (HrModelRow               *self);

G_END_DECLS
