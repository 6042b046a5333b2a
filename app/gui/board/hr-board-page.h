/* hr-board-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardPage: the Board page: one Ollama server on a board, reached over
 * its HTTP API only (docs/ollama.md). The connection (URL, an optional token
 * kept in the keyring, saved servers), the server version, the models on
 * the board and what is loaded now (refreshed every few seconds while the
 * page is shown), per model Measure, Unload, Delete and Add to Catalog, a
 * pull behind the pull check with one overall progress bar, and a "Try it"
 * chat. The connection itself is an HrBoardConnection the page and its
 * pull and chat panels observe. The window sets the page's "session"
 * (saved servers, the catalog, the measurement archive) and "scenario"
 * (the board measurements are filed under and the pull check's inputs).
 */
#pragma once

#include <adwaita.h>

#include "hr-page.h"

#include "hr-board-connection.h"
#include "hr-scenario.h"
#include "hr-session.h"

G_BEGIN_DECLS

/** HR_BOARD_PAGE_REFRESH_SECONDS: how often the lists refresh while the page is shown. */
#define HR_BOARD_PAGE_REFRESH_SECONDS HR_BOARD_CONNECTION_REFRESH_SECONDS

#define HR_TYPE_BOARD_PAGE (hr_board_page_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardPage, hr_board_page, HR, BOARD_PAGE, HrPage)

GtkWidget      *hr_board_page_new               (void);
void            hr_board_page_connect           (HrBoardPage  *self,
                                                 const char   *url);

G_END_DECLS
