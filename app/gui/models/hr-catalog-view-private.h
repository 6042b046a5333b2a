/* hr-catalog-view-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What HrCatalogView's files share: the instance structure and the cell
 * factories' handlers (hr-catalog-cells.c). Internal to HrCatalogView.
 */
#pragma once

#include <adwaita.h>

#include "hr-catalog-view.h"

G_BEGIN_DECLS

struct _HrCatalogView
{
  GtkBox              parent_instance;

  /* template */
  GtkSearchEntry     *search_entry;
  GtkLabel           *count_label;
  GtkColumnView      *column_view;
  GtkStack           *stack;
  AdwStatusPage      *empty_page;

  HrScenario         *scenario;         /* for the precision column */
  HrUnit              unit;
  GListModel         *model;            /* the rows given (the scenario's HrCatalogModel) */
  GtkCustomFilter    *filter;
  char               *search_folded;
  GtkFilterListModel *filter_model;
  GtkSortListModel   *sort_model;
  GtkSingleSelection *selection;
  GPtrArray          *order;            /* HrModelRow*, unowned: sort_model's rows, read when order_stale */
  gboolean            order_stale;      /* sort_model changed since order was read */
  guint               scroll_to;
  guint               scroll_id;
  guint               refit_id;         /* timeout that measures the columns again */
};

void hr_catalog_cells_connect (GtkListItemFactory *factory,
                               HrCatalogView      *self);

G_END_DECLS
