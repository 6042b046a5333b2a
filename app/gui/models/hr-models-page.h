/* hr-models-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrModelsPage: the Models page. The board selector and editor
 * (HrBoardEditor), the scenario's controls (HrScenarioControls), the
 * catalog as a sortable, searchable table (HrCatalogView), the stacked
 * memory chart, the pool chart and the explain panel of the selected
 * model, and the Boards view. It shows the session's catalog under the
 * scenario and re-evaluates its rows in place on every "changed".
 */
#pragma once

#include <adwaita.h>

#include "hr-page.h"

G_BEGIN_DECLS

#define HR_TYPE_MODELS_PAGE (hr_models_page_get_type ())

G_DECLARE_FINAL_TYPE (HrModelsPage, hr_models_page, HR, MODELS_PAGE, HrPage)

GtkWidget  *hr_models_page_new           (void);
void        hr_models_page_focus_search  (HrModelsPage  *self);
AdwFlap    *hr_models_page_get_flap      (HrModelsPage  *self);
AdwFlap    *hr_models_page_get_explain_flap (HrModelsPage *self);
void        hr_models_page_set_presenting (HrModelsPage *self,
                                           gboolean      presenting);

gboolean    hr_models_page_export_png    (HrModelsPage  *self,
                                          const char    *path,
                                          GError       **error);
gboolean    hr_models_page_export_svg    (HrModelsPage  *self,
                                          const char    *path,
                                          GError       **error);
gboolean    hr_models_page_export_csv    (HrModelsPage  *self,
                                          const char    *path,
                                          GError       **error);

G_END_DECLS
