/* hr-boards-cell.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardsCell: a cell of the Boards view, a box that takes the focus
 * itself when it may (GtkBox only passes it on to its children, and none
 * of a cell's takes it).
 */
#pragma once

#include <gtk/gtk.h>

#include "hr-board.h"
#include "hr-evaluate.h"
#include "hr-units.h"

G_BEGIN_DECLS

#define HR_TYPE_BOARDS_CELL (hr_boards_cell_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardsCell, hr_boards_cell, HR, BOARDS_CELL, GtkBox)

GtkWidget *hr_boards_cell_new  (const HrEvaluation *e,
                                const char         *model,
                                const HrBoard      *board,
                                gboolean            recommended,
                                HrUnit              unit);
char      *hr_boards_cell_text (const HrEvaluation *e,
                                HrUnit              unit);

G_END_DECLS
