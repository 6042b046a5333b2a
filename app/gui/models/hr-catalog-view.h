/* hr-catalog-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrCatalogView: the Models page's table. The catalog's rows (HrModelRow)
 * in a sortable GtkColumnView with a search entry and a count; cells show
 * each row's cached evaluation and refresh through HrModelRow::changed, so
 * a slider step re-evaluates rows in place and never rebuilds the list.
 */
#pragma once

#include <adwaita.h>

#include "hr-catalog-model.h"
#include "hr-model-row.h"
#include "hr-scenario.h"
#include "hr-units.h"

G_BEGIN_DECLS

typedef enum {
  HR_MODELS_COLUMN_NAME,
  HR_MODELS_COLUMN_PARAMETERS,
  HR_MODELS_COLUMN_PRECISION,
  HR_MODELS_COLUMN_FILE_SIZE,
  HR_MODELS_COLUMN_KV_PER_TOKEN,
  HR_MODELS_COLUMN_KV_CACHE,
  HR_MODELS_COLUMN_TOTAL,
  HR_MODELS_COLUMN_VERDICT,
  HR_MODELS_COLUMN_TPS,
  HR_MODELS_COLUMN_SOURCE,
  HR_MODELS_COLUMN_SPEED,
  HR_MODELS_N_COLUMNS
} HrModelsColumn;

#define HR_TYPE_CATALOG_VIEW (hr_catalog_view_get_type ())

G_DECLARE_FINAL_TYPE (HrCatalogView, hr_catalog_view, HR, CATALOG_VIEW, GtkBox)

GtkWidget          *hr_catalog_view_new             (void);
void                hr_catalog_view_set_scenario    (HrCatalogView  *self,
                                                     HrScenario     *scenario);
void                hr_catalog_view_set_unit        (HrCatalogView  *self,
                                                     HrUnit          unit);
void                hr_catalog_view_set_model       (HrCatalogView  *self,
                                                     HrCatalogModel *rows);
GListModel         *hr_catalog_view_get_rows        (HrCatalogView  *self);
GtkSingleSelection *hr_catalog_view_get_selection   (HrCatalogView  *self);
void                hr_catalog_view_select_row      (HrCatalogView  *self,
                                                     HrModelRow     *row);
void                hr_catalog_view_focus_search    (HrCatalogView  *self);
void                hr_catalog_view_set_library_lookup (HrCatalogView *self,
                                                        GtkWidget     *lookup);
GtkColumnView      *hr_catalog_view_get_column_view (HrCatalogView  *self);
GtkEditable        *hr_catalog_view_get_search_entry (HrCatalogView *self);
const char         *hr_catalog_view_column_title    (HrModelsColumn  column);
char               *hr_catalog_view_cell_text       (HrCatalogView  *self,
                                                     HrModelRow     *row,
                                                     HrModelsColumn  column);

G_END_DECLS
