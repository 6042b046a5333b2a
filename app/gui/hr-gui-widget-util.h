/* hr-gui-widget-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small pieces several pages' widgets share (hr-gui-widget-util.c).
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

void        hr_gui_label_spin_by_row    (GtkSpinButton *spin);
void        hr_gui_label_no_tab_stop    (GtkLabel      *label);
void        hr_gui_rows_bound_subtitles (GtkWidget     *root,
                                         int            lines);
void        hr_gui_expander_row_defer_rows (AdwExpanderRow *expander,
                                            GtkWidget      *row);
GtkListItemFactory *hr_gui_name_factory (int max_chars);

G_END_DECLS
