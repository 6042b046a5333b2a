/* hr-board-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardPage: the Board page: one Ollama server on a board, reached over
 * its HTTP API only (ollama-api.md). The connection (URL, an optional token
 * kept in the keyring, saved servers), the server version, the models on
 * the board and what is loaded now (refreshed every few seconds while the
 * page is shown), per model Measure, Unload, Delete and Add to Catalog, a
 * pull behind the pull check with one overall progress bar, and a "Try it"
 * chat.
 */
#pragma once

#include <adwaita.h>

#include "hr-models-page.h"
#include "hr-ollama-client.h"

G_BEGIN_DECLS

/** HR_BOARD_PAGE_REFRESH_SECONDS: how often the lists refresh while the page is shown. */
#define HR_BOARD_PAGE_REFRESH_SECONDS 5

#define HR_TYPE_BOARD_PAGE (hr_board_page_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardPage, hr_board_page, HR, BOARD_PAGE, AdwBin)

GtkWidget      *hr_board_page_new               (void);
void            hr_board_page_set_models_page   (HrBoardPage  *self,
                                                 HrModelsPage *models_page);
void            hr_board_page_set_use_keyring   (HrBoardPage  *self,
                                                 gboolean      use_keyring);
void            hr_board_page_connect           (HrBoardPage  *self,
                                                 const char   *url);
HrOllamaClient *hr_board_page_get_client        (HrBoardPage  *self);
const char     *hr_board_page_get_version       (HrBoardPage  *self);
GPtrArray      *hr_board_page_get_models        (HrBoardPage  *self);
GPtrArray      *hr_board_page_get_loaded        (HrBoardPage  *self);
gboolean        hr_board_page_is_busy           (HrBoardPage  *self);
GPtrArray      *hr_board_page_get_messages      (HrBoardPage  *self);
GtkProgressBar *hr_board_page_get_pull_bar      (HrBoardPage  *self);
const char     *hr_board_page_get_error         (HrBoardPage  *self);
const char     *hr_board_page_get_check_text    (HrBoardPage  *self);
const char     *hr_board_page_get_pull_note     (HrBoardPage  *self);
const char     *hr_board_page_get_token_note    (HrBoardPage  *self);
gboolean        hr_board_page_is_pulling        (HrBoardPage  *self);
gboolean        hr_board_page_is_chatting       (HrBoardPage  *self);
GtkWindow      *hr_board_page_get_measure_window (HrBoardPage *self);

G_END_DECLS
