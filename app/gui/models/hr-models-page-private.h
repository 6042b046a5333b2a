/* hr-models-page-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the tests, the benchmark and hr-models-export.c reach inside the
 * Models page. The first block also serves the pages that still reach the
 * Models page for the session's data (the Board page, the spec memory card)
 * until they take the session and the scenario themselves; each is a thin
 * call into HrSession or HrScenario.
 */
#pragma once

#include "hr-boards-view.h"
#include "hr-catalog-view.h"
#include "hr-explain-panel.h"
#include "hr-memory-chart.h"
#include "hr-model-row.h"
#include "hr-models-page.h"

G_BEGIN_DECLS

/* Into the session and the scenario */
void                      hr_models_page_set_catalog         (HrModelsPage      *self,
                                                              GPtrArray         *specs);
const char               *hr_models_page_get_calibration_text (HrModelsPage     *self);
char                     *hr_models_page_describe_inputs     (HrModelsPage      *self);

/* The rows */
GListModel       *hr_models_page_get_rows            (HrModelsPage      *self);
HrModelRow       *hr_models_page_find_row            (HrModelsPage      *self,
                                                      const char        *name);
void              hr_models_page_select_row          (HrModelsPage      *self,
                                                      HrModelRow        *row);
char             *hr_models_page_cell_text           (HrModelsPage      *self,
                                                      HrModelRow        *row,
                                                      HrModelsColumn     column);
const char       *hr_models_page_column_title        (HrModelsColumn     column);

/* The widgets */
GtkRange         *hr_models_page_get_context_scale   (HrModelsPage      *self);
GtkRange         *hr_models_page_get_precision_scale (HrModelsPage      *self);
AdwComboRow      *hr_models_page_get_runtime_row     (HrModelsPage      *self);
GtkSwitch        *hr_models_page_get_flash_switch    (HrModelsPage      *self);
GtkEditable      *hr_models_page_get_search_entry    (HrModelsPage      *self);
GtkColumnView    *hr_models_page_get_column_view     (HrModelsPage      *self);
HrMemoryChart    *hr_models_page_get_memory_chart    (HrModelsPage      *self);
HrMemoryChart    *hr_models_page_get_pool_chart      (HrModelsPage      *self);
HrExplainPanel   *hr_models_page_get_explain_panel   (HrModelsPage      *self);
GtkLabel         *hr_models_page_get_pool_note       (HrModelsPage      *self);
GtkStack         *hr_models_page_get_view_stack      (HrModelsPage      *self);
HrBoardsView     *hr_models_page_get_boards_view     (HrModelsPage      *self);

G_END_DECLS
