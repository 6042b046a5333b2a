/* hr-run-chart.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrRunChart: a small chart of a measurement's runs, one bar per run:
 * client TTFT in ms on the left, decode tokens/s on the right. Drawn in
 * snapshot() with the theme's colours; its accessible description lists
 * every figure.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HR_TYPE_RUN_CHART (hr_run_chart_get_type ())

G_DECLARE_FINAL_TYPE (HrRunChart, hr_run_chart, HR, RUN_CHART, GtkWidget)

GtkWidget  *hr_run_chart_new             (void);
void        hr_run_chart_clear           (HrRunChart *self);
void        hr_run_chart_add_run         (HrRunChart *self,
                                          const char *label,
                                          gboolean    cold,
                                          double      ttft_ms,
                                          double      decode_tps);
guint       hr_run_chart_get_n_runs      (HrRunChart *self);
const char *hr_run_chart_get_description (HrRunChart *self);

G_END_DECLS
