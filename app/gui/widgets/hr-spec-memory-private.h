/* hr-spec-memory-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the tests read of the memory cards (tests/test-hub-page.c,
 * tests/test-gguf-page.c): not for the pages.
 */
#pragma once

#include "hr-evaluate.h"
#include "hr-spec-memory.h"

G_BEGIN_DECLS

const char        *hr_spec_memory_get_summary      (HrSpecMemory      *self);
const char        *hr_spec_memory_get_add_status   (HrSpecMemory      *self);
GtkRange          *hr_spec_memory_get_precision_scale (HrSpecMemory   *self);
GtkRange          *hr_spec_memory_get_context_scale (HrSpecMemory     *self);
GtkButton         *hr_spec_memory_get_add_button   (HrSpecMemory      *self);
HrMemoryChart     *hr_spec_memory_get_chart        (HrSpecMemory      *self);
const HrEvaluation *hr_spec_memory_get_evaluation  (HrSpecMemory      *self);
const char        *hr_spec_memory_get_scenario_text (HrSpecMemory     *self);

G_END_DECLS
