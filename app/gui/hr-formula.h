/* hr-formula.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each figure of an evaluation written out as its formula with the values
 * substituted, for the explain panel and the chart's tooltips. The figures
 * come from app/core (hr_memory_*, hr_board_*, hr_rate_*); a formula is only
 * printed when the core's figure equals it, otherwise the core's figure is
 * given with the reason the short formula does not apply.
 */
#pragma once

#include <glib.h>

#include "hr-evaluate.h"
#include "hr-offload.h"

G_BEGIN_DECLS

char *hr_formula_weights         (const HrModelSpec  *spec,
                                  const HrEvaluationInputs   *scenario,
                                  const HrEvaluation *evaluation);
char *hr_formula_effective_bits  (const HrModelSpec  *spec);
char *hr_formula_kv_per_token    (const HrModelSpec  *spec,
                                  HrKvCacheType       kv_type);
char *hr_formula_kv_cache        (const HrModelSpec  *spec,
                                  const HrEvaluationInputs   *scenario,
                                  const HrEvaluation *evaluation);
char *hr_formula_overhead        (const HrEvaluation *evaluation);
char *hr_formula_total           (const HrEvaluation *evaluation);
char *hr_formula_headroom        (const HrBoard      *board);
char *hr_formula_budget          (const HrBoard      *board);
char *hr_formula_verdict         (const HrBoard      *board,
                                  const HrEvaluation *evaluation);
char *hr_formula_ceiling         (const HrBoard      *board,
                                  const HrEvaluation *evaluation);
char *hr_formula_rate            (const HrEvaluationInputs   *scenario,
                                  const HrEvaluation *evaluation);
char *hr_formula_floor           (const HrBoard      *board,
                                  const HrEvaluationInputs   *scenario);
char *hr_formula_speed           (const HrEvaluationInputs   *scenario,
                                  const HrEvaluation *evaluation);
char *hr_formula_context         (const HrModelSpec  *spec,
                                  const HrEvaluationInputs   *scenario);

char *hr_formula_split           (const HrModelSpec  *spec,
                                  const HrEvaluationInputs *scenario,
                                  const HrEvaluation *evaluation);
char *hr_formula_split_rate      (const HrModelSpec  *spec,
                                  const HrEvaluationInputs *scenario,
                                  const HrEvaluation *evaluation);
char *hr_formula_max_context     (const HrModelSpec  *spec,
                                  const HrEvaluationInputs *scenario,
                                  gboolean            allow_partial,
                                  guint32            *out_context);
char *hr_formula_best_precision  (const HrModelSpec  *spec,
                                  const HrEvaluationInputs *scenario,
                                  gboolean            allow_partial);

char *hr_formula_split_for       (const HrModelSpec  *spec,
                                  const HrEvaluationInputs *scenario,
                                  const HrEvaluation *evaluation,
                                  HrRuntimeEra        era);
HrOffload *hr_formula_predict_split (const HrModelSpec        *spec,
                                     const HrEvaluationInputs *scenario);
char *hr_formula_device          (const HrOffload    *split,
                                  const HrBoard      *board,
                                  guint               i);
char *hr_formula_devices         (const HrOffload    *split,
                                  const HrBoard      *board);
char *hr_formula_host_side       (const HrOffload    *split);
char *hr_formula_server_report   (const HrOffload    *split,
                                  const HrBoard      *board,
                                  HrRuntimeEra        era);
char *hr_formula_full_first      (const HrOffload    *split);

G_END_DECLS
