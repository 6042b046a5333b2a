/* hr-preferences-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrPreferencesWindow: units (GB or GiB), the default board and the
 * default context window, bound to GSettings (io.github.headroom.Headroom).
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_PREFERENCES_WINDOW (hr_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (HrPreferencesWindow, hr_preferences_window, HR, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *hr_preferences_window_new (GtkWindow *parent,
                                       GSettings *settings,
                                       GPtrArray *boards);

G_END_DECLS
