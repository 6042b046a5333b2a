/* hr-board-editor.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardEditor: the Models page's board selector (bound to the scenario's
 * "board-id"), the editor of the selected board's pool, resident memory,
 * reserve, bandwidth and turn budget (unsaved values go to
 * hr_scenario_set_edited_board(), saving to hr_session_save_board()), and
 * the board's summary line, and the board's measurements
 * (HrMeasurementsRow), each of the user's deletable with Undo in a toast.
 */
#pragma once

#include <adwaita.h>

#include "hr-measurements-row.h"
#include "hr-scenario.h"
#include "hr-units.h"

G_BEGIN_DECLS

#define HR_TYPE_BOARD_EDITOR (hr_board_editor_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardEditor, hr_board_editor, HR, BOARD_EDITOR, GtkBox)

GtkWidget   *hr_board_editor_new           (void);
void         hr_board_editor_set_scenario  (HrBoardEditor *self,
                                            HrScenario    *scenario);
void         hr_board_editor_set_unit      (HrBoardEditor *self,
                                            HrUnit         unit);
AdwComboRow *hr_board_editor_get_board_row (HrBoardEditor *self);
HrMeasurementsRow *hr_board_editor_get_measurements_row (HrBoardEditor *self);

G_END_DECLS
