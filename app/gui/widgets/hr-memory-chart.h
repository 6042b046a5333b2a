/* hr-memory-chart.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart: the stacked memory chart. In "models" mode, one horizontal
 * bar per model of a list (weights, KV cache, overhead) against vertical
 * lines for the board's budget, headroom and pool; in "pool" mode, the
 * board's pool as one column for the selected model (resident, weights, KV
 * cache, overhead, reserve, free). A plain GtkWidget drawing in snapshot().
 */
#pragma once

#include <gtk/gtk.h>

#include "hr-evaluate.h"
#include "hr-model-row.h"
#include "hr-scenario.h"
#include "hr-units.h"

G_BEGIN_DECLS

/* What the chart draws; the GType, HR_TYPE_MEMORY_CHART_MODE, is
 * hr-gui-enums.h's (gnome.mkenums_simple). */
typedef enum {
  HR_MEMORY_CHART_MODE_MODELS, /*< nick=models >*/
  HR_MEMORY_CHART_MODE_POOL,   /*< nick=pool >*/
} HrMemoryChartMode;

/* At most this many bars are drawn: the first rows of the list, in its order. */
#define HR_MEMORY_CHART_MAX_BARS 40

#define HR_TYPE_MEMORY_CHART (hr_memory_chart_get_type ())

G_DECLARE_FINAL_TYPE (HrMemoryChart, hr_memory_chart, HR, MEMORY_CHART, GtkWidget)

GtkWidget         *hr_memory_chart_new              (HrMemoryChartMode  mode);
HrMemoryChartMode  hr_memory_chart_get_mode         (HrMemoryChart     *self);
void               hr_memory_chart_set_mode         (HrMemoryChart     *self,
                                                     HrMemoryChartMode  mode);
HrUnit             hr_memory_chart_get_unit         (HrMemoryChart     *self);
void               hr_memory_chart_set_unit         (HrMemoryChart     *self,
                                                     HrUnit             unit);
void               hr_memory_chart_set_rows         (HrMemoryChart     *self,
                                                     GListModel        *rows);
void               hr_memory_chart_set_scenario     (HrMemoryChart     *self,
                                                     const HrEvaluationInputs  *scenario);
void               hr_memory_chart_set_selected     (HrMemoryChart     *self,
                                                     HrModelRow        *row);
void               hr_memory_chart_set_selected_only (HrMemoryChart    *self,
                                                     gboolean           selected_only);
gboolean           hr_memory_chart_get_selected_only (HrMemoryChart    *self);
void               hr_memory_chart_set_learned_text (HrMemoryChart     *self,
                                                     const char        *text);
void               hr_memory_chart_follow           (HrMemoryChart     *self,
                                                     HrScenario        *scenario);
void               hr_memory_chart_update           (HrMemoryChart     *self);
const char        *hr_memory_chart_get_description  (HrMemoryChart     *self);
guint              hr_memory_chart_get_n_bars       (HrMemoryChart     *self);
char              *hr_memory_chart_get_tooltip_at   (HrMemoryChart     *self,
                                                     double             x,
                                                     double             y);
int                hr_memory_chart_get_export_height (HrMemoryChart    *self,
                                                     int                width,
                                                     const char        *heading);
GskRenderNode     *hr_memory_chart_render           (HrMemoryChart     *self,
                                                     int                width,
                                                     int                height,
                                                     const char        *heading);

G_END_DECLS
