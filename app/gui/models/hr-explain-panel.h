/* hr-explain-panel.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrExplainPanel: every figure of the selected model written as its formula
 * with the values in it (weights, KV cache, budget, verdict, ceiling, rate,
 * floor, speed), GB and GiB side by side, with short notes on the terms.
 */
#pragma once

#include <adwaita.h>

#include "hr-calibration.h"
#include "hr-evaluate.h"
#include "hr-model-row.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_EXPLAIN_PANEL (hr_explain_panel_get_type ())

G_DECLARE_FINAL_TYPE (HrExplainPanel, hr_explain_panel, HR, EXPLAIN_PANEL, AdwBin)

GtkWidget  *hr_explain_panel_new        (void);
void        hr_explain_panel_set_row    (HrExplainPanel   *self,
                                         HrModelRow       *row,
                                         const HrEvaluationInputs *scenario);
void        hr_explain_panel_update     (HrExplainPanel   *self,
                                         const HrEvaluationInputs *scenario);
void        hr_explain_panel_set_runtime (HrExplainPanel        *self,
                                          const HrRuntimeInputs *runtime,
                                          const HrCalibration   *calibration);
void        hr_explain_panel_set_scenario (HrExplainPanel  *self,
                                          HrScenario      *scenario);
const char *hr_explain_panel_get_figure (HrExplainPanel   *self,
                                         const char       *key);

guint32     hr_explain_panel_get_found_context (HrExplainPanel *self,
                                                gboolean        allow_partial);
void        hr_explain_panel_use_found_context (HrExplainPanel *self,
                                                gboolean        allow_partial);

GtkWidget          *hr_explain_panel_get_rename_button (HrExplainPanel *self);

G_END_DECLS
