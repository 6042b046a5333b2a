/* hr-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrWindow: the main window. An AdwViewStack of three pages (Models,
 * Hugging Face, Board) behind an AdwViewSwitcherTitle, toasts for what went
 * wrong at start, and the export actions.
 */
#pragma once

#include <adwaita.h>

#include "hr-models-page.h"

G_BEGIN_DECLS

#define HR_TYPE_WINDOW (hr_window_get_type ())

G_DECLARE_FINAL_TYPE (HrWindow, hr_window, HR, WINDOW, AdwApplicationWindow)

HrWindow     *hr_window_new             (GtkApplication *application);
HrModelsPage *hr_window_get_models_page (HrWindow       *self);
AdwViewStack *hr_window_get_stack       (HrWindow       *self);
void          hr_window_add_toast       (HrWindow       *self,
                                         const char     *message);
GPtrArray    *hr_window_get_messages    (HrWindow       *self);

G_END_DECLS
