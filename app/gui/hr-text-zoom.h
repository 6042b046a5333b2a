/* hr-text-zoom.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Larger and smaller text in every window of the application
 * (Ctrl+plus, Ctrl+minus, Ctrl+0), remembered in the "text-zoom" setting.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* How much larger the presentation view's text is than the window's
 * (the "window.presentation" rule): 11 pt text becomes 17.6 pt. */
#define HR_TEXT_ZOOM_PRESENTATION 1.6

void   hr_text_zoom_install (GtkApplication *application,
                             GSettings      *settings);
double hr_text_zoom_step    (double          zoom,
                             int             direction);

G_END_DECLS
