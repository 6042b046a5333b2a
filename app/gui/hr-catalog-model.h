/* hr-catalog-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrCatalogModel: the catalog as a GListModel of HrModelRow, evaluated
 * under one scenario, which owns it (hr_scenario_get_catalog_model()).
 * It lists the session's catalog and the models looked up in the Ollama
 * library in this run; whenever the scenario is about to emit "changed"
 * it re-evaluates every row in place, marks the recommended one, emits
 * HrModelRow::changed on the rows cells watch whose figures changed, and
 * then "evaluated" (the same rows: a listener may re-sort or redraw,
 * never rebuild; "items-changed" is only for a change of the rows
 * themselves). When the session's catalog changes it makes the rows anew,
 * evaluates them and emits "items-changed" with the old and the new
 * counts. Whoever shows rows (the Models table, the charts, the Boards
 * view, the explain panel) reads them after that, so nothing depends on
 * the order in which listeners were connected.
 */
#pragma once

#include <gio/gio.h>

#include "hr-model-row.h"

G_BEGIN_DECLS

#define HR_TYPE_CATALOG_MODEL (hr_catalog_model_get_type ())

G_DECLARE_FINAL_TYPE (HrCatalogModel, hr_catalog_model, HR, CATALOG_MODEL, GObject)

/**
 * HrCatalogExtent:
 * @widest_margin: per verdict, of the rows not placed by a GPU/host
 *   split, the largest margin in bytes (hr_board_verdict())
 * @seen: per verdict, whether such a row has it
 * @split: some row is partial by a split (hr_offload_predict())
 * @split_gpu_layers: of those rows, the most layers on the GPU
 * @split_total_layers: of those rows, the most layers
 * @experts: one of those rows has every layer on the GPU and some experts
 *   in host memory ("partial: experts")
 * @placed_on_devices: some row is placed across the GPUs of a board with
 *   several (its n_devices, hr-offload-devices.c)
 *
 * What the rows' verdict pills span: the table's Verdict column is as
 * wide as the widest pill, which is one of these (hr-catalog-columns.c).
 * Zeroed as a whole, so two extents compare with memcmp().
 */
typedef struct {
  guint64  widest_margin[HR_VERDICT_PARTIAL + 1];
  gboolean seen[HR_VERDICT_PARTIAL + 1];
  gboolean split;
  guint32  split_gpu_layers;
  guint32  split_total_layers;
  gboolean experts;
  gboolean placed_on_devices;
} HrCatalogExtent;

/**
 * hr_catalog_extent_add:
 * @extent: an extent, zeroed before the first row
 * @e: one more row's evaluation
 *
 * Widens @extent to @e's verdict pill.
 */
static inline void
hr_catalog_extent_add (HrCatalogExtent    *extent,
                       const HrEvaluation *e)
{
  if (e->split && e->n_devices > 0)
    extent->placed_on_devices = TRUE;
  if (e->verdict == HR_VERDICT_PARTIAL && e->split)
    {
      extent->split = TRUE;
      extent->experts |= e->gpu_layers == e->total_layers && e->expert_host_layers > 0;
      extent->split_gpu_layers = MAX (extent->split_gpu_layers, e->gpu_layers);
      extent->split_total_layers = MAX (extent->split_total_layers, e->total_layers);
    }
  else if ((guint) e->verdict <= HR_VERDICT_PARTIAL)
    {
      extent->seen[e->verdict] = TRUE;
      extent->widest_margin[e->verdict] = MAX (extent->widest_margin[e->verdict], e->margin_bytes);
    }
}

HrModelRow *hr_catalog_model_find_row        (HrCatalogModel *self,
                                              const char     *name);
HrModelRow *hr_catalog_model_get_recommended (HrCatalogModel *self);
void        hr_catalog_model_refresh         (HrCatalogModel *self);
guint       hr_catalog_model_get_generation  (HrCatalogModel *self);
const HrCatalogExtent *
            hr_catalog_model_get_extent      (HrCatalogModel *self);

G_END_DECLS
