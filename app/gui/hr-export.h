/* hr-export.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing the chart as PNG and SVG and the table as CSV. Every file carries
 * the inputs it was made from (board, precision, context, KV cache type) in
 * its title or header.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean  hr_export_png       (GskRenderNode *node,
                               GskRenderer   *renderer,
                               int            width,
                               int            height,
                               const char    *path,
                               const char    *title,
                               const char    *description,
                               GError       **error);
gboolean  hr_export_svg       (GskRenderNode *node,
                               int            width,
                               int            height,
                               const char    *path,
                               const char    *title,
                               const char    *description,
                               GError       **error);
void      hr_export_csv_field (GString       *line,
                               const char    *value);

G_END_DECLS
