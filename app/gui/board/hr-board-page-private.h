/* hr-board-page-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Board page's insides, shared by hr-board-page.c (the server rows,
 * the saved servers), hr-board-page-lists.c (the lists),
 * hr-board-page-actions.c (its actions) and hr-board-page-servers.c (the
 * board a server runs on), and the tests' access to them.
 */
#pragma once

#include "hr-board-connection.h"
#include "hr-board-page.h"
#include "hr-chat-panel.h"
#include "hr-measure-window.h"
#include "hr-pull-panel.h"

G_BEGIN_DECLS

struct _HrBoardPage
{
  HrPage               parent_instance;

  /* template */
  AdwComboRow         *saved_row;
  GtkStringList       *saved_list;
  AdwEntryRow         *url_row;
  AdwPasswordEntryRow *token_row;
  AdwActionRow        *status_row;
  GtkImage            *status_icon;
  GtkSpinner          *busy_spinner;
  GtkLabel            *token_note;
  GtkStack            *content_stack;
  AdwStatusPage       *status_page;
  GtkButton           *retry_button;
  GtkButton           *connect_button;
  GtkSpinner          *connecting_spinner;
  GtkLabel            *connecting_label;
  GtkListBox          *models_list;
  GtkListBox          *loaded_list;
  HrPullPanel         *pull_panel;
  HrChatPanel         *chat_panel;

  HrBoardConnection   *connection;
  HrSession           *session;
  HrScenario          *scenario;
  char                *models_key;       /* names the rows were built for */
  char                *loaded_key;
  gboolean             built;            /* the template, built on first show */
  gboolean             auto_connected;
  GtkWindow           *measure_window;   /* weak */
  GtkWindow           *board_chooser;    /* weak: asking which board a server is on */
};

void               _hr_board_page_class_actions_init  (GtkWidgetClass *widget_class);
void               _hr_board_page_update_actions      (HrBoardPage    *self);
void               _hr_board_page_on_models_changed   (HrBoardPage    *self);
void               _hr_board_page_on_loaded_changed   (HrBoardPage    *self);
void               _hr_board_page_ensure_built        (HrBoardPage    *self);
const char        *_hr_board_page_get_board_id        (HrBoardPage    *self);
const char        *_hr_board_page_get_server_board    (HrBoardPage    *self);
void               _hr_board_page_ask_server_board    (HrBoardPage    *self,
                                                       const char     *model);
void               _hr_board_page_open_measure        (HrBoardPage    *self,
                                                       const char     *model,
                                                       const char     *board_id);

/* Test access. */
HrBoardConnection *_hr_board_page_get_connection      (HrBoardPage    *self);
HrPullPanel       *_hr_board_page_get_pull_panel      (HrBoardPage    *self);
HrChatPanel       *_hr_board_page_get_chat_panel      (HrBoardPage    *self);
const char        *_hr_board_page_get_token_note      (HrBoardPage    *self);
HrMeasureWindow   *_hr_board_page_get_measure_window  (HrBoardPage    *self);
GtkWindow         *_hr_board_page_get_board_chooser   (HrBoardPage    *self);

G_END_DECLS
