/* hr-catalog-model-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the scenario, which owns the catalog model, calls on it.
 */
#pragma once

#include "hr-catalog-model.h"

G_BEGIN_DECLS

typedef struct _HrScenario HrScenario;

HrCatalogModel *_hr_catalog_model_new    (HrScenario     *scenario);
void            _hr_catalog_model_update (HrCatalogModel *self,
                                          gboolean        rebuild);

G_END_DECLS
