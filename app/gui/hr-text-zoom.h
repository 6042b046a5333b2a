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

void   hr_text_zoom_install (GtkApplication *application,
                             GSettings      *settings);
double hr_text_zoom_step    (double          zoom,
                             int             direction);

G_END_DECLS
