/* hr-measure-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasureWindow: the live view of one measurement (hr-measure.h, the
 * seed's protocol): the contexts and runs to use, a table that fills as
 * each run completes (context, run, cold, TTFT, total, load, prefill and
 * decode rates), a chart of TTFT and decode rate per run, and after each
 * context /api/ps beside Headroom's prediction. Cancel works at any point
 * and the board is left as it was found; a completed run set is saved to
 * the measurement archive and announced with ::saved.
 */
#pragma once

#include <adwaita.h>

#include "hr-measure.h"
#include "hr-ollama-client.h"
#include "hr-run-chart.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_MEASURE_WINDOW (hr_measure_window_get_type ())

G_DECLARE_FINAL_TYPE (HrMeasureWindow, hr_measure_window, HR, MEASURE_WINDOW, AdwWindow)

HrMeasureWindow *hr_measure_window_new         (HrOllamaClient  *client,
                                                const char      *model,
                                                const char      *board_id);
void             hr_measure_window_set_archive_dir (HrMeasureWindow *self,
                                                    const char      *directory);
void             hr_measure_window_set_session (HrMeasureWindow *self,
                                                HrSession       *session);
const char      *hr_measure_window_get_board_id (HrMeasureWindow *self);
void             hr_measure_window_set_board_id (HrMeasureWindow *self,
                                                 const char      *board_id);
const char      *hr_measure_window_get_board_text (HrMeasureWindow *self);
gboolean         hr_measure_window_start       (HrMeasureWindow *self);
void             hr_measure_window_cancel      (HrMeasureWindow *self);
gboolean         hr_measure_window_is_running  (HrMeasureWindow *self);
HrMeasureRun    *hr_measure_window_get_run     (HrMeasureWindow *self);
HrRunChart      *hr_measure_window_get_chart   (HrMeasureWindow *self);
GPtrArray       *hr_measure_window_get_rows    (HrMeasureWindow *self);
GPtrArray       *hr_measure_window_get_ps_rows (HrMeasureWindow *self);
const char      *hr_measure_window_get_status  (HrMeasureWindow *self);

G_END_DECLS
