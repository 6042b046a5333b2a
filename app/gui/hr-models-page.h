/* hr-models-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrModelsPage: the Models page. The board selector and editor, the
 * precision and context sliders, KV cache type and parallel slots; the
 * catalog as a sortable, searchable column view; the stacked memory chart,
 * the pool chart and the explain panel of the selected model.
 */
#pragma once

#include <adwaita.h>

#include "hr-boards-view.h"
#include "hr-evaluate.h"
#include "hr-explain-panel.h"
#include "hr-memory-chart.h"
#include "hr-model-row.h"

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

#define HR_TYPE_MODELS_PAGE (hr_models_page_get_type ())

G_DECLARE_FINAL_TYPE (HrModelsPage, hr_models_page, HR, MODELS_PAGE, AdwBin)

GtkWidget        *hr_models_page_new                (void);
void              hr_models_page_load               (HrModelsPage      *self,
                                                     GPtrArray         *problems);
void              hr_models_page_set_catalog        (HrModelsPage      *self,
                                                     GPtrArray         *specs);
gboolean          hr_models_page_add_model          (HrModelsPage      *self,
                                                     const HrModelSpec *spec,
                                                     GError           **error);
void              hr_models_page_reload_measurements (HrModelsPage     *self);
GPtrArray        *hr_models_page_get_boards         (HrModelsPage      *self);
const HrEvaluationInputs *hr_models_page_get_scenario       (HrModelsPage      *self);
GListModel       *hr_models_page_get_rows           (HrModelsPage      *self);
HrModelRow       *hr_models_page_find_row           (HrModelsPage      *self,
                                                     const char        *name);
void              hr_models_page_select_row         (HrModelsPage      *self,
                                                     HrModelRow        *row);
char             *hr_models_page_cell_text          (HrModelsPage      *self,
                                                     HrModelRow        *row,
                                                     HrModelsColumn     column);
const char       *hr_models_page_column_title       (HrModelsColumn     column);
char             *hr_models_page_describe_inputs    (HrModelsPage      *self);
void              hr_models_page_focus_search       (HrModelsPage      *self);

gboolean          hr_models_page_export_png         (HrModelsPage      *self,
                                                     const char        *path,
                                                     GError           **error);
gboolean          hr_models_page_export_svg         (HrModelsPage      *self,
                                                     const char        *path,
                                                     GError           **error);
gboolean          hr_models_page_export_csv         (HrModelsPage      *self,
                                                     const char        *path,
                                                     GError           **error);

AdwFlap          *hr_models_page_get_flap           (HrModelsPage      *self);
AdwFlap          *hr_models_page_get_explain_flap   (HrModelsPage      *self);
GtkRange         *hr_models_page_get_context_scale  (HrModelsPage      *self);
GtkRange         *hr_models_page_get_precision_scale (HrModelsPage     *self);
AdwComboRow      *hr_models_page_get_kv_row         (HrModelsPage      *self);
AdwComboRow      *hr_models_page_get_board_row      (HrModelsPage      *self);
GtkSpinButton    *hr_models_page_get_slots_spin     (HrModelsPage      *self);
GtkEditable      *hr_models_page_get_search_entry   (HrModelsPage      *self);
GtkColumnView    *hr_models_page_get_column_view    (HrModelsPage      *self);
HrMemoryChart    *hr_models_page_get_memory_chart   (HrModelsPage      *self);
HrMemoryChart    *hr_models_page_get_pool_chart     (HrModelsPage      *self);
HrExplainPanel   *hr_models_page_get_explain_panel  (HrModelsPage      *self);
AdwComboRow      *hr_models_page_get_runtime_row    (HrModelsPage      *self);
GtkLabel         *hr_models_page_get_pool_note      (HrModelsPage      *self);
GtkSwitch        *hr_models_page_get_flash_switch   (HrModelsPage      *self);
GtkStack         *hr_models_page_get_view_stack     (HrModelsPage      *self);
HrBoardsView     *hr_models_page_get_boards_view    (HrModelsPage      *self);
const char       *hr_models_page_get_calibration_text (HrModelsPage    *self);

G_END_DECLS
