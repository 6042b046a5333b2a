/* hr-catalog-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a slider step stays fast with 10,000 rows: the scenario asks the
 * model to re-evaluate before it emits "changed"; one pass over the rows
 * evaluates each in place (hr_evaluate() and the runtime's bytes-only
 * prediction allocate nothing), keeps the recommendation as it goes
 * (hr_recommend_prefers()), sums up the verdicts' extent for the table's
 * Verdict column, and notes which of the rows cells watch changed what
 * they show. Only those emit HrModelRow::changed; the others get a new
 * serial. Then "evaluated". The list's membership is the same, so there
 * is no "items-changed": a list view on the model keeps its rows bound
 * and its place. Nothing is allocated on a step.
 */

#include "config.h"

#include <string.h>

#include "hr-catalog-model-private.h"
#include "hr-model-row-private.h"

struct _HrCatalogModel
{
  GObject      parent_instance;

  GPtrArray   *rows;             /* HrModelRow* */
  GPtrArray   *notify;           /* HrModelRow*, unowned: watched rows whose figures changed */
  HrCatalogExtent extent;        /* of the last evaluation */
  HrModelRow  *recommended;      /* unowned, one of rows; nullable */
  guint        rates_serial;     /* hr_scenario_get_rates_serial() the rows' rates are of */
  gboolean     rates_set;
  gboolean     made;             /* the rows were made from the loaded session */
  guint        generation;       /* bumped each time the rows are made anew */
  HrEvaluationInputs last_inputs; /* what the last pass evaluated every row under */
  HrRuntimeInputs last_runtime;  /* and its runtime template, when it had one */
  gboolean     last_has_runtime;
  gboolean     last_valid;       /* there was a last pass, and over these rows */
};

static void hr_catalog_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (HrCatalogModel, hr_catalog_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, hr_catalog_model_list_model_init))

enum {
  EVALUATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

/* A watched row's figures changed: it emits HrModelRow::changed once the
 * pass is over. */
static void
note_changed (HrCatalogModel *self,
              HrModelRow     *row)
{
  if (row->watchers > 0 && !g_ptr_array_find (self->notify, row, NULL))
    g_ptr_array_add (self->notify, row);
}

/* What of a row a slider step reads and writes: its fields up to the end
 * of its evaluation's head (hr-model-row-private.h). */
#define ROW_HOT_BYTES (G_STRUCT_OFFSET (HrModelRow, evaluation) + G_STRUCT_OFFSET (HrEvaluation, gpu_efficiency))

/* Asks for the rows a few places ahead of @i to be brought into the
 * cache: what a step reads of the row 8 ahead, and of the spec and runtime
 * cache of the row 4 ahead (read through its pointers, so once the row
 * itself is in). The frame's drawing has pushed the rows out of the cache
 * and a step reads some 600 bytes of each of 10,000 rows: waiting on each
 * in turn took a third of the pass. Asking for the lines a step does not
 * read as well (the spec's sources and tensors, the evaluation's devices:
 * 18 lines a row, not 10) made the prefetches themselves wait, a third of
 * the loop's time in a profile (bench-window, perf). */
static inline void
prefetch_rows (HrModelRow **rows,
               guint        i,
               guint        n)
{
#if defined(__GNUC__) || defined(__clang__)
  if (i + 8 < n)
    {
      for (gsize o = G_STRUCT_OFFSET (HrModelRow, spec); o < ROW_HOT_BYTES; o += 64)
        __builtin_prefetch ((const char *) rows[i + 8] + o, 1);
      __builtin_prefetch ((const char *) rows[i + 8] + ROW_HOT_BYTES - 1, 1);
    }
  if (i + 4 < n)
    {
      const HrModelRow *ahead = rows[i + 4];

      /* The spec's head: its name and parameters (hr_recommend_prefers()),
       * the shape the CPU backend's compute buffer reads. */
      __builtin_prefetch (ahead->spec, 0);
      __builtin_prefetch ((const char *) ahead->spec + 63, 0);
      hr_runtime_spec_cache_prefetch (ahead->runtime_cache);
    }
#endif
}

/* Whether @in's inputs and runtime template are the last pass's but for
 * the context. */
static gboolean
same_but_context (HrCatalogModel        *self,
                  const HrCatalogInputs *in)
{
  HrEvaluationInputs inputs = *in->inputs;
  HrRuntimeInputs runtime;

  inputs.context_tokens = self->last_inputs.context_tokens;
  if (memcmp (&inputs, &self->last_inputs, sizeof inputs) != 0 ||
      (in->runtime != NULL) != self->last_has_runtime)
    return FALSE;
  if (in->runtime == NULL)
    return TRUE;
  runtime = *in->runtime;
  runtime.context_tokens = self->last_runtime.context_tokens;
  return memcmp (&runtime, &self->last_runtime, sizeof runtime) == 0;
}

/* Every row under the scenario, in one pass: the recommended one marked,
 * the extent summed up, the watched rows whose figures changed told. */
static void
evaluate_rows (HrCatalogModel        *self,
               const HrCatalogInputs *in)
{
  HrModelRow **rows = (HrModelRow **) self->rows->pdata;
  guint n = self->rows->len;
  gboolean lookup_rates = !self->rates_set || self->rates_serial != in->rates_serial;
  HrModelRow *best = NULL;
  HrModelRow *was = self->recommended;
  gboolean context_step;
  HrRuntimeInputs pass;

  self->rates_set = TRUE;
  self->rates_serial = in->rates_serial;
  if (lookup_rates)
    for (guint i = 0; i < n; i++)
      hr_model_row_set_measured_tps (rows[i], in->measured_tps (in->data, hr_model_row_get_name (rows[i])));
  /* A step of the context slider over rows the last pass evaluated under
   * the same inputs but for the context, and the same rates: the rows make
   * only what the context changes again. */
  context_step = in->context_step && self->last_valid && !lookup_rates && same_but_context (self, in);
  self->last_inputs = *in->inputs;
  self->last_has_runtime = in->runtime != NULL;
  self->last_valid = TRUE;
  if (in->runtime != NULL)
    {
      self->last_runtime = *in->runtime;
      _hr_model_row_prepare_runtime (in->inputs, in->runtime, &pass);
    }

  memset (&self->extent, 0, sizeof self->extent);
  g_ptr_array_set_size (self->notify, 0);
  for (guint i = 0; i < n; i++)
    {
      HrModelRow *row = rows[i];
      gboolean watched = row->watchers > 0;
      HrEvaluation before;
      guint64 kv_before = 0;
      int kv_type_before = 0;

      prefetch_rows (rows, i, n);

      if (watched)
        {
          before = row->evaluation;
          kv_before = row->kv_per_token;
          kv_type_before = row->kv_type;
        }
      _hr_model_row_evaluate_runtime (row, in->inputs, in->runtime != NULL ? &pass : NULL,
                                      in->calibration, context_step);
      hr_catalog_extent_add (&self->extent, &row->evaluation);
      if (hr_recommend_prefers (row->spec, &row->evaluation,
                                best != NULL ? best->spec : NULL, best != NULL ? &best->evaluation : NULL))
        best = row;
      /* What a cell shows is read from the evaluation and the KV figure:
       * the same bytes, the same cells. A row nobody watches only gets a
       * new serial, for the cells that show it later. */
      if (!watched)
        row->serial++;
      else if (memcmp (&before, &row->evaluation, sizeof before) != 0 ||
               kv_before != row->kv_per_token || kv_type_before != row->kv_type)
        g_ptr_array_add (self->notify, row);
    }

  self->recommended = best;
  if (best != was)
    {
      if (was != NULL)
        {
          was->recommended = FALSE;
          was->serial++;
          note_changed (self, was);
        }
      if (best != NULL)
        {
          best->recommended = TRUE;
          best->serial++;
          note_changed (self, best);
        }
    }
  for (guint i = 0; i < self->notify->len; i++)
    _hr_model_row_changed (g_ptr_array_index (self->notify, i));
  g_ptr_array_set_size (self->notify, 0);
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
  self->recommended = NULL;
  self->rates_set = FALSE;
  self->last_valid = FALSE;
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
 * scenario refitted them), marks the recommended row (hr_recommend()'s
 * pick), and emits #HrModelRow::changed on each watched row whose figures
 * or mark changed. Rows made anew (@rebuild, or the first evaluation) are
 * then announced with "items-changed" from 0, the old count removed and
 * the new added; rows only re-evaluated with #HrCatalogModel::evaluated.
 * Before the scenario has a board (the session not loaded) the list stays
 * empty.
 */
void
_hr_catalog_model_update (HrCatalogModel        *self,
                          const HrCatalogInputs *in,
                          gboolean               rebuild)
{
  guint before;
  gboolean made = FALSE;

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
      memset (&self->extent, 0, sizeof self->extent);
      self->made = FALSE;
      self->last_valid = FALSE;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, before, 0);
      return;
    }
  if (rebuild || !self->made)
    {
      make_rows (self, in->session);
      made = TRUE;
    }
  evaluate_rows (self, in);
  if (made && (before > 0 || self->rows->len > 0))
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, self->rows->len);
  else if (!made)
    g_signal_emit (self, signals[EVALUATED], 0);
}

/**
 * hr_catalog_model_refresh:
 * @self: a #HrCatalogModel
 *
 * Emits #HrModelRow::changed on every watched row (every row gets a new
 * serial) and then #HrCatalogModel::evaluated, as after a scenario change
 * but with the figures as they are, for what changes how the rows read
 * without changing the scenario (the units a page shows sizes in).
 */
void
hr_catalog_model_refresh (HrCatalogModel *self)
{
  g_return_if_fail (HR_IS_CATALOG_MODEL (self));

  if (self->rows->len == 0)
    return;
  /* The rows' figures stay as they are: only how they read changes. */
  for (guint i = 0; i < self->rows->len; i++)
    _hr_model_row_changed (g_ptr_array_index (self->rows, i));
  g_signal_emit (self, signals[EVALUATED], 0);
}

/**
 * hr_catalog_model_get_extent:
 * @self: a #HrCatalogModel
 *
 * Returns: (transfer none): what the rows' verdicts span at the last
 *   evaluation (hr_catalog_extent_add() over every row), all zero without
 *   rows
 */
const HrCatalogExtent *
hr_catalog_model_get_extent (HrCatalogModel *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_MODEL (self), NULL);

  return &self->extent;
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
  g_clear_pointer (&self->notify, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_catalog_model_parent_class)->finalize (object);
}

static void
hr_catalog_model_class_init (HrCatalogModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_catalog_model_finalize;

  /**
   * HrCatalogModel::evaluated:
   *
   * The same rows were evaluated again (a scenario change) or are read
   * again (hr_catalog_model_refresh()): every watched row whose figures
   * changed has emitted #HrModelRow::changed. The list's membership did
   * not change, so there is no "items-changed"; a view sorted by a figure
   * re-sorts (gtk_sorter_changed()), one that measures the rows measures
   * again.
   */
  signals[EVALUATED] =
    g_signal_new ("evaluated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
hr_catalog_model_init (HrCatalogModel *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->notify = g_ptr_array_new ();
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
