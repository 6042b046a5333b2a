/* hr-scenario-sliders.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The precision and context sliders every page that shows memory has, set
 * up the same way and bound to the shared #HrScenario's "precision" and
 * "context-tokens", both ways: moving one moves them all.
 */
#pragma once

#include <gtk/gtk.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

void hr_scenario_sliders_setup (GtkScale   *precision_scale,
                                const char *first_label,
                                GtkScale   *context_scale);
void hr_scenario_sliders_bind  (HrScenario *scenario,
                                GtkScale   *precision_scale,
                                GtkScale   *context_scale);

G_END_DECLS
