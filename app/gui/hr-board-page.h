/* hr-board-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardPage: the Board page: manage a remote Ollama server.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_BOARD_PAGE (hr_board_page_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardPage, hr_board_page, HR, BOARD_PAGE, AdwBin)

GtkWidget *hr_board_page_new (void);

G_END_DECLS
