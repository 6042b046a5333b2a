/* hr-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrWindow: the main window. An AdwViewStack of four pages (Models,
 * Hugging Face, Board, File) behind an AdwViewSwitcherTitle, each given
 * the application's HrSession and HrScenario; toasts, the export actions
 * and the page actions (hr-window-actions.c). Pages reach the window only
 * through its actions:
 *   win.toast      "s"  shows a message in a toast (kept for the tests)
 *   win.show-page  "s"  "models", "hub", "board" or "file"
 *   win.open-gguf  "s"  the File page on a path; "" lets the person choose
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_WINDOW (hr_window_get_type ())

G_DECLARE_FINAL_TYPE (HrWindow, hr_window, HR, WINDOW, AdwApplicationWindow)

HrWindow *hr_window_new (GtkApplication *application);

G_END_DECLS
