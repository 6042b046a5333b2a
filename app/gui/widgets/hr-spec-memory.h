/* hr-spec-memory.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSpecMemory: the memory of one model that is not (yet) in the catalog,
 * under the window's shared #HrScenario (board, KV cache type, parallel
 * slots, runtime; its precision and context are this widget's two sliders,
 * bound to the scenario both ways): the stacked memory chart, the figures
 * in words, and "Add to Catalog" (hr_session_add_model()). The Hugging
 * Face and File pages show it under their facts.
 */
#pragma once

#include <adwaita.h>

#include "hr-memory-chart.h"
#include "hr-model-spec.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_SPEC_MEMORY (hr_spec_memory_get_type ())

G_DECLARE_FINAL_TYPE (HrSpecMemory, hr_spec_memory, HR, SPEC_MEMORY, GtkBox)

GtkWidget         *hr_spec_memory_new              (void);
void               hr_spec_memory_set_scenario     (HrSpecMemory      *self,
                                                    HrScenario        *scenario);
void               hr_spec_memory_set_spec         (HrSpecMemory      *self,
                                                    const HrModelSpec *spec);
const HrModelSpec *hr_spec_memory_get_spec         (HrSpecMemory      *self);
void               hr_spec_memory_set_can_add      (HrSpecMemory      *self,
                                                    gboolean           can_add,
                                                    const char        *reason);
gboolean           hr_spec_memory_add_to_catalog   (HrSpecMemory      *self,
                                                    GError           **error);
void               hr_spec_memory_refresh          (HrSpecMemory      *self);

G_END_DECLS
