/* hr-scroll-content.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child of a vertically scrolling GtkScrolledWindow that is not asked
 * for a height GTK 4.8 then throws away (hr-scroll-content.c).
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_SCROLL_CONTENT (hr_scroll_content_get_type ())

G_DECLARE_FINAL_TYPE (HrScrollContent, hr_scroll_content, HR, SCROLL_CONTENT, AdwBin)

GtkWidget *hr_scroll_content_new              (GtkWidget       *child);
gboolean   hr_scroll_content_height_is_unused (HrScrollContent *self);

G_END_DECLS
