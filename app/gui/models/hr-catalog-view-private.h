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
  GListStore         *store;            /* HrModelRow: the model's rows as last made */
  GListModel         *model;            /* the rows given (the scenario's HrCatalogModel) */
  guint               generation;       /* hr_catalog_model_get_generation() the store holds */
  GtkCustomFilter    *filter;
  char               *search_folded;
  GtkFilterListModel *filter_model;
  GtkSortListModel   *sort_model;
  GtkSingleSelection *selection;
  guint               scroll_to;
  guint               scroll_id;
  guint               refit_id;         /* timeout that measures the columns again */
};

void hr_catalog_cells_connect (GtkListItemFactory *factory,
                               HrCatalogView      *self);

G_END_DECLS
