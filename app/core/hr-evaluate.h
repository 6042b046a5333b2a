/* hr-evaluate.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row of the dashboard: a model under a scenario (board, precision,
 * context, KV cache type, parallel slots, efficiency fit) gives a footprint,
 * a verdict with its margin, a rate with its source, and a speed. This is the
 * hot path of every slider move, so it allocates nothing.
 */
#pragma once

#include <glib.h>
#include "hr-board.h"
#include "hr-memory.h"
#include "hr-model-spec.h"
#include "hr-precision.h"
#include "hr-rates.h"

G_BEGIN_DECLS

typedef struct {
  const HrBoard     *board;          /* not owned */
  const HrPrecision *precision;      /* NULL = "as pulled": each model's own file */
  HrKvCacheType      kv_type;
  guint32            context_tokens; /* num_ctx */
  guint32            parallel_slots; /* >= 1 */
  HrEfficiencyFit    fit;            /* the board's efficiency fit */
  double             floor_tps;      /* from the board's turn budget */
  double             prior_efficiency; /* the board kind's prior (hr-priors.h), used only
                                        * without a fit; 0 = none */
} HrEvaluationInputs;

typedef struct {
  HrFootprint  footprint;
  HrVerdict    verdict;
  guint64      margin_bytes;       /* see hr_board_verdict() */
  double       ceiling_tps;
  double       tps;                /* measured, or ceiling x efficiency */
  HrRateSource source;
  HrSpeed      speed;
  gboolean     past_context_limit; /* context_tokens > spec->context_length */
} HrEvaluation;

void      hr_evaluation_inputs_init (HrEvaluationInputs       *inputs,
                                     const HrBoard            *board,
                                     const HrEfficiencyFit    *fit);
void      hr_evaluate       (const HrEvaluationInputs *scenario,
                             const HrModelSpec        *spec,
                             double                    measured_tps,
                             guint64                   overhead_bytes,
                             HrEvaluation             *out);
gint      hr_recommend      (HrModelSpec * const *specs,
                             const HrEvaluation  *evaluations,
                             guint                n_rows);
GPtrArray *hr_pull_check    (const HrModelSpec  *spec,
                             const HrEvaluation *evaluation,
                             double              floor_tps);

G_END_DECLS
