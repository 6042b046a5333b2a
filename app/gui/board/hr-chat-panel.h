/* hr-chat-panel.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrChatPanel: the Board page's "Try It": one chat message at a time to a
 * model on the board (/api/chat, streamed), with a system prompt, the
 * temperature and the seed; the conversation is kept for follow-ups until
 * a new one is started and shown as a transcript (the person's messages
 * and the model's replies, in order, scrollable, the text selectable),
 * each reply with its prefill and decode rates and time to first token. It observes the page's HrBoardConnection:
 * the model choice follows the board's models, and a new server ends the
 * conversation.
 */
#pragma once

#include <adwaita.h>

#include "hr-board-connection.h"

G_BEGIN_DECLS

#define HR_TYPE_CHAT_PANEL (hr_chat_panel_get_type ())

G_DECLARE_FINAL_TYPE (HrChatPanel, hr_chat_panel, HR, CHAT_PANEL, AdwBin)

/*
 * Properties (G_PARAM_EXPLICIT_NOTIFY):
 *   "connection"  HrBoardConnection  read/write
 *   "chatting"    boolean            read   a reply is streaming
 *   "can-send"    boolean            read   a message is typed and a model is there to send it to
 */

GtkWidget *hr_chat_panel_new              (void);
void       hr_chat_panel_set_connection   (HrChatPanel       *self,
                                           HrBoardConnection *connection);
void       hr_chat_panel_send             (HrChatPanel       *self);
void       hr_chat_panel_stop             (HrChatPanel       *self);
void       hr_chat_panel_new_conversation (HrChatPanel       *self);
gboolean   hr_chat_panel_is_chatting      (HrChatPanel       *self);
gboolean   hr_chat_panel_get_can_send     (HrChatPanel       *self);
GtkWidget *hr_chat_panel_get_transcript   (HrChatPanel       *self);
guint      hr_chat_panel_get_n_turns      (HrChatPanel       *self);

G_END_DECLS
