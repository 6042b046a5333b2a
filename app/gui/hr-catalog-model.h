/* hr-catalog-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrCatalogModel: the catalog as a GListModel of HrModelRow, evaluated
 * under one scenario, which owns it (hr_scenario_get_catalog_model()).
 * It lists the session's catalog and the models looked up in the Ollama
 * library in this run; whenever the scenario is about to emit "changed"
 * it re-evaluates every row in place, marks the recommended one, and then
 * emits "items-changed" over all of them (the same rows: a listener may
 * re-sort or redraw, never rebuild). When the session's catalog changes
 * it makes the rows anew, evaluates them and emits "items-changed" with
 * the old and the new counts. Whoever shows rows (the Models table, the
 * charts, the Boards view, the explain panel) reads them after that, so
 * nothing depends on the order in which listeners were connected.
 */
#pragma once

#include <gio/gio.h>

#include "hr-model-row.h"

G_BEGIN_DECLS

#define HR_TYPE_CATALOG_MODEL (hr_catalog_model_get_type ())

G_DECLARE_FINAL_TYPE (HrCatalogModel, hr_catalog_model, HR, CATALOG_MODEL, GObject)

HrModelRow *hr_catalog_model_find_row        (HrCatalogModel *self,
                                              const char     *name);
HrModelRow *hr_catalog_model_get_recommended (HrCatalogModel *self);
void        hr_catalog_model_refresh         (HrCatalogModel *self);
guint       hr_catalog_model_get_generation  (HrCatalogModel *self);

G_END_DECLS
