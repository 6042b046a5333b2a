/* hr-catalog-columns.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Models table's columns as laid out (hr-catalog-columns.c): each one
 * as wide as its header and, for the Verdict column, as its widest pill;
 * which are shown (the header's menu); and Tab leaving the table in one
 * stop. Internal to HrCatalogView.
 */
#pragma once

#include <adwaita.h>

#include "hr-catalog-view.h"

G_BEGIN_DECLS

void     hr_catalog_columns_setup     (GtkColumnView *view,
                                       GtkWidget     *owner);
void     hr_catalog_columns_bind_settings (GtkColumnView *view,
                                           GSettings     *settings);
void     hr_catalog_columns_fit       (GtkColumnView *view,
                                       GListModel    *rows,
                                       HrUnit         unit);
void     hr_catalog_columns_fit_verdict (GtkColumnView *view,
                                       GListModel    *rows,
                                       HrUnit         unit);
int      hr_catalog_columns_verdict_width (GtkColumnView *view,
                                       GListModel    *rows,
                                       HrUnit         unit);
void     hr_catalog_columns_set_compact (GtkColumnView *view,
                                       GtkWidget     *owner,
                                       gboolean       compact);
gboolean hr_catalog_columns_get_compact (GtkColumnView *view);
void     hr_catalog_columns_follow_width (GtkColumnView *view,
                                       GtkWidget     *owner);
void     hr_catalog_columns_stop_following (GtkColumnView *view);

G_END_DECLS
