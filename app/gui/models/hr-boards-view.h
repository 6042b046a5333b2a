/* hr-boards-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardsView: the Models page's "Boards" view. Rows are the models,
 * columns the user's boards; each cell the verdict, margin and expected
 * decode rate at the page's precision, context, KV cache type and parallel
 * slots (the same math as `headroom-cli matrix`), and a header row with the
 * recommendation per board. Exported as CSV with the inputs in its header.
 */
#pragma once

#include <adwaita.h>

#include "hr-calibration.h"
#include "hr-evaluate.h"
#include "hr-runtime.h"
#include "hr-scenario.h"
#include "hr-units.h"

G_BEGIN_DECLS

/* At most this many models are laid out (the export holds the same). */
#define HR_BOARDS_VIEW_MAX_MODELS 300

#define HR_TYPE_BOARDS_VIEW (hr_boards_view_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardsView, hr_boards_view, HR, BOARDS_VIEW, AdwBin)

GtkWidget  *hr_boards_view_new              (void);
void        hr_boards_view_update           (HrBoardsView          *self,
                                             GPtrArray             *boards,
                                             GPtrArray             *specs,
                                             GPtrArray             *measurements,
                                             GPtrArray             *catalog,
                                             const HrEvaluationInputs      *scenario,
                                             const HrRuntimeInputs *runtime,
                                             gboolean               runtime_from_board,
                                             HrUnit                 unit,
                                             const char            *inputs);
void        hr_boards_view_follow           (HrBoardsView          *self,
                                             HrScenario            *scenario,
                                             GListModel            *rows);
void        hr_boards_view_set_unit         (HrBoardsView          *self,
                                             HrUnit                 unit);
guint       hr_boards_view_get_n_models     (HrBoardsView          *self);
guint       hr_boards_view_get_n_boards     (HrBoardsView          *self);
const HrEvaluation *hr_boards_view_get_evaluation (HrBoardsView    *self,
                                                   const char      *model,
                                                   const char      *board_id);
char       *hr_boards_view_get_cell_text    (HrBoardsView          *self,
                                             const char            *model,
                                             const char            *board_id);
const char *hr_boards_view_get_recommended  (HrBoardsView          *self,
                                             const char            *board_id);
char       *hr_boards_view_to_csv           (HrBoardsView          *self);

G_END_DECLS
