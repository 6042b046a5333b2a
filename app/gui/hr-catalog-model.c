/* hr-catalog-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a slider step stays fast with 10,000 rows: the scenario asks the
 * model to re-evaluate before it emits "changed"; every row is evaluated
 * in place (hr_evaluate() allocates nothing), hr_recommend() runs over two
 * preallocated arrays, the few cells bound to rows refresh through
 * HrModelRow::changed, and one "items-changed" over the same rows follows.
 * Nothing is allocated for the list on a step.
 */

#include "config.h"

#include "hr-catalog-model-private.h"

struct _HrCatalogModel
{
  GObject      parent_instance;

  GPtrArray   *rows;             /* HrModelRow* */
  GArray      *evaluations;      /* HrEvaluation, scratch for hr_recommend() */
  GPtrArray   *spec_ptrs;        /* HrModelSpec*, scratch for hr_recommend() */
  HrModelRow  *recommended;      /* unowned, one of rows; nullable */
  guint        rates_serial;     /* hr_scenario_get_rates_serial() the rows' rates are of */
  gboolean     rates_set;
  gboolean     made;             /* the rows were made from the loaded session */
  guint        generation;       /* bumped each time the rows are made anew */
};

static void hr_catalog_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (HrCatalogModel, hr_catalog_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, hr_catalog_model_list_model_init))

/* ------------------------------------------------------------------ */
/* GListModel                                                          */

static GType
hr_catalog_model_get_item_type (GListModel *model)
{
  return HR_TYPE_MODEL_ROW;
}

static guint
hr_catalog_model_get_n_items (GListModel *model)
{
  return HR_CATALOG_MODEL (model)->rows->len;
}

static gpointer
hr_catalog_model_get_item (GListModel *model,
                           guint       position)
{
  HrCatalogModel *self = HR_CATALOG_MODEL (model);

  if (position >= self->rows->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->rows, position));
}

static void
hr_catalog_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = hr_catalog_model_get_item_type;
  iface->get_n_items = hr_catalog_model_get_n_items;
  iface->get_item = hr_catalog_model_get_item;
}

/* ------------------------------------------------------------------ */
/* Evaluating                                                          */

/* Every row under the scenario, the recommended one marked. */
static void
evaluate_rows (HrCatalogModel        *self,
               const HrCatalogInputs *in)
{
  HrModelSpec **specs;
  HrEvaluation *evaluations;
  guint n = self->rows->len;
  gboolean lookup_rates = !self->rates_set || self->rates_serial != in->rates_serial;
  gint best;

  self->rates_set = TRUE;
  self->rates_serial = in->rates_serial;
  g_array_set_size (self->evaluations, n);
  g_ptr_array_set_size (self->spec_ptrs, n);
  evaluations = (HrEvaluation *) (gpointer) self->evaluations->data;
  specs = (HrModelSpec **) self->spec_ptrs->pdata;

  for (guint i = 0; i < n; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);

      if (lookup_rates)
        hr_model_row_set_measured_tps (row, in->measured_tps (in->data, hr_model_row_get_name (row)));
      hr_model_row_evaluate_runtime (row, in->inputs, in->runtime, in->calibration);
      evaluations[i] = *hr_model_row_get_evaluation (row);
      specs[i] = (HrModelSpec *) hr_model_row_get_spec (row);
    }

  best = hr_recommend (specs, evaluations, n);
  self->recommended = best >= 0 ? g_ptr_array_index (self->rows, best) : NULL;
  for (guint i = 0; i < n; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);

      hr_model_row_set_recommended (row, (gint) i == best);
      hr_model_row_changed (row);
    }
}

/* The session's catalog and library, as new rows. */
static void
make_rows (HrCatalogModel *self,
           HrSession      *session)
{
  GPtrArray *catalog = hr_session_get_catalog (session);
  GPtrArray *library = hr_session_get_library (session);

  g_ptr_array_set_size (self->rows, 0);
  for (guint i = 0; i < catalog->len; i++)
    g_ptr_array_add (self->rows, hr_model_row_new (g_ptr_array_index (catalog, i)));
  /* The models looked up in the Ollama library in this run (hr-session-library.c). */
  for (guint i = 0; i < library->len; i++)
    g_ptr_array_add (self->rows, hr_model_row_new (g_ptr_array_index (library, i)));
  self->rates_set = FALSE;
  self->made = TRUE;
  self->generation++;
}

/**
 * _hr_catalog_model_update:
 * @self: a #HrCatalogModel
 * @in: what the rows are evaluated under (the scenario's)
 * @rebuild: %TRUE when the session's catalog (or library) changed: the
 *   rows are made anew from it first
 *
 * What the scenario calls right before it emits #HrScenario::changed (and
 * only it): re-evaluates every row under the scenario (its board, inputs,
 * runtime template and learned overhead; the measured rates again when the
 * scenario refitted them), marks the recommended row (hr_recommend()),
 * emits #HrModelRow::changed on each, then "items-changed" over all the
 * rows. Before the scenario has a board (the session not loaded) the list
 * stays empty.
 */
void
_hr_catalog_model_update (HrCatalogModel        *self,
                          const HrCatalogInputs *in,
                          gboolean               rebuild)
{
  guint before;

  g_return_if_fail (HR_IS_CATALOG_MODEL (self));
  g_return_if_fail (in != NULL);

  before = self->rows->len;
  if (in->board == NULL)
    {
      if (before == 0)
        {
          self->made = FALSE;
          return;
        }
      g_ptr_array_set_size (self->rows, 0);
      self->recommended = NULL;
      self->made = FALSE;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, before, 0);
      return;
    }
  if (rebuild || !self->made)
    make_rows (self, in->session);
  evaluate_rows (self, in);
  if (before > 0 || self->rows->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, self->rows->len);
}

/**
 * hr_catalog_model_refresh:
 * @self: a #HrCatalogModel
 *
 * Emits #HrModelRow::changed on every row and "items-changed" over them,
 * as after a scenario change but with the figures as they are, for what
 * changes how the rows read without changing the scenario (the units a
 * page shows sizes in).
 */
void
hr_catalog_model_refresh (HrCatalogModel *self)
{
  g_return_if_fail (HR_IS_CATALOG_MODEL (self));

  if (self->rows->len == 0)
    return;
  /* The rows' figures stay as they are: only how they read changes. */
  for (guint i = 0; i < self->rows->len; i++)
    hr_model_row_changed (g_ptr_array_index (self->rows, i));
  g_list_model_items_changed (G_LIST_MODEL (self), 0, self->rows->len, self->rows->len);
}

/**
 * hr_catalog_model_find_row:
 * @self: a #HrCatalogModel
 * @name: a model name
 *
 * Returns: (transfer none) (nullable): the row of the model named @name
 */
HrModelRow *
hr_catalog_model_find_row (HrCatalogModel *self,
                           const char     *name)
{
  g_return_val_if_fail (HR_IS_CATALOG_MODEL (self), NULL);

  for (guint i = 0; name != NULL && i < self->rows->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (hr_model_row_get_name (row), name) == 0)
        return row;
    }
  return NULL;
}

/**
 * hr_catalog_model_get_recommended:
 * @self: a #HrCatalogModel
 *
 * Returns: (transfer none) (nullable): the row hr_recommend() picked at
 *   the last evaluation (the largest model that fits with room), or %NULL
 *   when none fits
 */
HrModelRow *
hr_catalog_model_get_recommended (HrCatalogModel *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_MODEL (self), NULL);

  return self->recommended;
}

/**
 * hr_catalog_model_get_generation:
 * @self: a #HrCatalogModel
 *
 * Which making of the rows the model holds: it grows each time the rows
 * are made anew from the session (its first load, each change of its
 * catalog), and stays the same while they are only re-evaluated. A
 * listener to "items-changed" tells the two apart with it.
 *
 * Returns: the generation, 0 before the rows were first made
 */
guint
hr_catalog_model_get_generation (HrCatalogModel *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_MODEL (self), 0);

  return self->generation;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_catalog_model_finalize (GObject *object)
{
  HrCatalogModel *self = (HrCatalogModel *)object;

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->evaluations, g_array_unref);
  g_clear_pointer (&self->spec_ptrs, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_catalog_model_parent_class)->finalize (object);
}

static void
hr_catalog_model_class_init (HrCatalogModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_catalog_model_finalize;
}

static void
hr_catalog_model_init (HrCatalogModel *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->evaluations = g_array_new (FALSE, TRUE, sizeof (HrEvaluation));
  self->spec_ptrs = g_ptr_array_new ();
}

/**
 * _hr_catalog_model_new:
 *
 * Returns: (transfer full): an empty model; its owner, the scenario, fills
 *   it with _hr_catalog_model_update()
 */
HrCatalogModel *
_hr_catalog_model_new (void)
{
  return g_object_new (HR_TYPE_CATALOG_MODEL, NULL);
}
