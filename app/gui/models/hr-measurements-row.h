/* hr-measurements-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasurementsRow: the board editor's list of the selected board's
 * measurements (to see and remove one): one row
 * per record, newest first, with its date and time in the locale's format,
 * the server version, the model, the decode rate and the /api/ps size per
 * context. A record of the user's archive can be deleted (through
 * HrSession, which removes the file atomically and emits
 * ::measurements-changed); a toast in the window's AdwToastOverlay (the
 * nearest one above the row) offers to undo that. Built-in records say so
 * and have no delete button.
 */
#pragma once

#include <adwaita.h>

#include "hr-scenario.h"
#include "hr-units.h"

G_BEGIN_DECLS

#define HR_TYPE_MEASUREMENTS_ROW (hr_measurements_row_get_type ())

G_DECLARE_FINAL_TYPE (HrMeasurementsRow, hr_measurements_row, HR, MEASUREMENTS_ROW, AdwExpanderRow)

GtkWidget  *hr_measurements_row_new               (void);
void        hr_measurements_row_set_scenario      (HrMeasurementsRow *self,
                                                   HrScenario        *scenario);
void        hr_measurements_row_set_unit          (HrMeasurementsRow *self,
                                                   HrUnit             unit);
gboolean    hr_measurements_row_delete            (HrMeasurementsRow *self,
                                                   const char        *id);
gboolean    hr_measurements_row_undo              (HrMeasurementsRow *self);
GPtrArray  *hr_measurements_row_get_ids           (HrMeasurementsRow *self);
GPtrArray  *hr_measurements_row_get_texts         (HrMeasurementsRow *self);
const char *hr_measurements_row_get_toast_title   (HrMeasurementsRow *self);
AdwToast   *hr_measurements_row_get_toast         (HrMeasurementsRow *self);
char       *hr_measurements_format_date           (const char        *iso8601);

G_END_DECLS
