/* hr-board-import.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardImport: the board list's "Detect This Computer" (the tools run in
 * a thread, hr_hardware_detect_async()) and "Import from Text…" (the same
 * tools' output pasted or opened from a file, hr_hardware_parse_paste()).
 * It shows what was read and what the user must confirm, asks for what no
 * tool prints (each GPU's bandwidth, the host memory's), and saves the
 * board only once it is complete; a missing tool or an unreadable line
 * gets its message and no board.
 */
#pragma once

#include <adwaita.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

typedef enum {
  HR_BOARD_IMPORT_DETECT, /* read this computer */
  HR_BOARD_IMPORT_PASTE,  /* read the tools' output from another */
} HrBoardImportMode;

#define HR_TYPE_BOARD_IMPORT (hr_board_import_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardImport, hr_board_import, HR, BOARD_IMPORT, AdwWindow)

GtkWidget     *hr_board_import_new              (GtkWindow         *parent,
                                                 HrScenario        *scenario,
                                                 HrBoardImportMode  mode);
void           hr_board_import_read_text        (HrBoardImport     *self,
                                                 const char        *text);
gboolean       hr_board_import_get_busy         (HrBoardImport     *self);
const char    *hr_board_import_get_status       (HrBoardImport     *self);
const char    *hr_board_import_get_read_text    (HrBoardImport     *self);
const char    *hr_board_import_get_confirm_text (HrBoardImport     *self);
const HrBoard *hr_board_import_get_board        (HrBoardImport     *self);
gboolean       hr_board_import_get_complete     (HrBoardImport     *self);
GtkSpinButton *hr_board_import_get_bandwidth_spin (HrBoardImport   *self,
                                                   guint            gpu);
gboolean       hr_board_import_save             (HrBoardImport     *self,
                                                 GError           **error);

G_END_DECLS
