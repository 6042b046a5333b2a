/* hr-wrap-labels.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HR_WRAP_LABELS_MIN_CHARS 8

void hr_wrap_labels_set_min_chars (GtkWidget *root);

G_END_DECLS
