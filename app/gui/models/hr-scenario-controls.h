/* hr-scenario-controls.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScenarioControls: the Models page's precision and context sliders, KV
 * cache type, parallel slots, runtime and flash attention, each bound to
 * its HrScenario property (g_object_bind_property_full()), never read back
 * by hand.
 */
#pragma once

#include <adwaita.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_SCENARIO_CONTROLS (hr_scenario_controls_get_type ())

G_DECLARE_FINAL_TYPE (HrScenarioControls, hr_scenario_controls, HR, SCENARIO_CONTROLS, GtkBox)

GtkWidget     *hr_scenario_controls_new                 (void);
void           hr_scenario_controls_set_scenario        (HrScenarioControls *self,
                                                         HrScenario         *scenario);
GtkRange      *hr_scenario_controls_get_precision_scale (HrScenarioControls *self);
GtkRange      *hr_scenario_controls_get_context_scale   (HrScenarioControls *self);
AdwComboRow   *hr_scenario_controls_get_runtime_row     (HrScenarioControls *self);
GtkSwitch     *hr_scenario_controls_get_flash_switch    (HrScenarioControls *self);
GtkSpinButton *hr_scenario_controls_get_cpu_moe_spin    (HrScenarioControls *self);

G_END_DECLS
