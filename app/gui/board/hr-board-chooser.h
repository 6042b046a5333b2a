/* hr-board-chooser.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardChooser: the small dialog that asks which board an Ollama server
 * runs on, the first time the server is connected or measured without a
 * remembered board (a measurement is saved to the server's own
 * board, never to whatever the Models page shows). One row per board of
 * the session, the last board chosen for a server first selected; the
 * choice is remembered with the saved server by the caller.
 */
#pragma once

#include <adwaita.h>

#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_BOARD_CHOOSER (hr_board_chooser_get_type ())

G_DECLARE_FINAL_TYPE (HrBoardChooser, hr_board_chooser, HR, BOARD_CHOOSER, AdwMessageDialog)

HrBoardChooser *hr_board_chooser_ask          (GtkWidget           *parent,
                                               HrSession           *session,
                                               const char          *url,
                                               const char          *board_id,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
char           *hr_board_chooser_ask_finish   (GAsyncResult        *result,
                                               GError             **error);
const char     *hr_board_chooser_get_board_id (HrBoardChooser      *self);
void            hr_board_chooser_set_board_id (HrBoardChooser      *self,
                                               const char          *board_id);
const char     *hr_board_chooser_default_board (HrSession          *session,
                                                const char         *fallback);

G_END_DECLS
