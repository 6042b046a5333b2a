/* hr-catalog-model-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the scenario, which owns the catalog model, calls on it.
 */
#pragma once

#include "hr-calibration.h"
#include "hr-catalog-model.h"
#include "hr-evaluate.h"
#include "hr-runtime.h"
#include "hr-session.h"

G_BEGIN_DECLS

/* What the rows are evaluated under: the scenario's, handed in by it, so
 * that the model needs nothing of the scenario's but these. */
typedef struct {
  HrSession                *session;      /* the catalog and the library */
  const HrBoard            *board;        /* NULL: not loaded, no rows */
  const HrEvaluationInputs *inputs;
  const HrRuntimeInputs    *runtime;      /* NULL: the plain math */
  const HrCalibration      *calibration;
  guint                     rates_serial; /* a new serial: the rates are looked up again */
  gboolean                  context_step; /* only inputs->context_tokens changed since the last
                                           * update (hr_scenario_set_context_tokens()) */
  double                  (*measured_tps) (gpointer    data,
                                           const char *model_name);
  gpointer                  data;         /* for measured_tps */
} HrCatalogInputs;

HrCatalogModel *_hr_catalog_model_new    (void);
void            _hr_catalog_model_update (HrCatalogModel        *self,
                                          const HrCatalogInputs *in,
                                          gboolean               rebuild);

G_END_DECLS
