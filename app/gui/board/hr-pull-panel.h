/* hr-pull-panel.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrPullPanel: the Board page's "Pull a Model": the model's name (a model
 * the catalog does not know is sized from the Ollama library, or from the
 * download size typed when the library cannot be reached), the pull check
 * against the shared scenario before anything is sent (with "Pull Anyway"
 * when it refuses), one overall progress bar that only moves forward, and
 * once the pull is done the model in the catalog with the figures of
 * /api/show. It observes the page's HrBoardConnection: a new server
 * cancels the pull.
 */
#pragma once

#include <adwaita.h>

#include "hr-board-connection.h"
#include "hr-scenario.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_PULL_PANEL (hr_pull_panel_get_type ())

G_DECLARE_FINAL_TYPE (HrPullPanel, hr_pull_panel, HR, PULL_PANEL, AdwBin)

/*
 * Properties (G_PARAM_EXPLICIT_NOTIFY):
 *   "connection"  HrBoardConnection  read/write
 *   "session"     HrSession          read/write
 *   "scenario"    HrScenario         read/write
 *   "pulling"     boolean            read   a pull is under way
 *   "can-pull"    boolean            read   a model name is typed
 */

GtkWidget      *hr_pull_panel_new             (void);
void            hr_pull_panel_set_connection  (HrPullPanel       *self,
                                               HrBoardConnection *connection);
void            hr_pull_panel_set_session     (HrPullPanel       *self,
                                               HrSession         *session);
void            hr_pull_panel_set_scenario    (HrPullPanel       *self,
                                               HrScenario        *scenario);
void            hr_pull_panel_pull            (HrPullPanel       *self);
void            hr_pull_panel_cancel          (HrPullPanel       *self);
gboolean        hr_pull_panel_is_pulling      (HrPullPanel       *self);
gboolean        hr_pull_panel_get_can_pull    (HrPullPanel       *self);
const char     *hr_pull_panel_get_check_text  (HrPullPanel       *self);
const char     *hr_pull_panel_get_pull_note   (HrPullPanel       *self);
GtkProgressBar *hr_pull_panel_get_bar         (HrPullPanel       *self);

G_END_DECLS
