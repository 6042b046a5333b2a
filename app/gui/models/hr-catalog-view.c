/* hr-catalog-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-accessible.h"
#include "hr-catalog-view-private.h"
#include "hr-catalog-columns.h"
#include "hr-gui-format.h"
#include "hr-library-lookup.h"

G_DEFINE_FINAL_TYPE (HrCatalogView, hr_catalog_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SCENARIO,
  N_PROPS
};

static void queue_refit (HrCatalogView *self);

static GParamSpec *properties[N_PROPS];


/* ------------------------------------------------------------------ */
/* Sorting and filtering                                               */

/* Which columns the column view's sorter consults (see
 * sort_depends_on_figures()). */
static gboolean probing_sort;
static guint    probed_columns;

#define FIGURE_COLUMNS ((1u << HR_MODELS_COLUMN_KV_PER_TOKEN) | (1u << HR_MODELS_COLUMN_KV_CACHE) | \
                        (1u << HR_MODELS_COLUMN_TOTAL) | (1u << HR_MODELS_COLUMN_VERDICT) | \
                        (1u << HR_MODELS_COLUMN_TPS) | (1u << HR_MODELS_COLUMN_SOURCE) | \
                        (1u << HR_MODELS_COLUMN_SPEED))

#define CMP(a, b) ((a) < (b) ? GTK_ORDERING_SMALLER : (a) > (b) ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL)

/* A verdict's place in the Verdict column's order: fits, tight, partial
 * (runs, part on the CPU), over. HR_VERDICT_PARTIAL comes after
 * HR_VERDICT_OVER in the enum, so the enum's value cannot be compared. */
static int
verdict_rank (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS: return 0;
    case HR_VERDICT_TIGHT: return 1;
    case HR_VERDICT_PARTIAL: return 2;
    case HR_VERDICT_OVER:
    default: return 3;
    }
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  HrModelRow *ra = (HrModelRow *) a;
  HrModelRow *rb = (HrModelRow *) b;
  HrModelsColumn column = GPOINTER_TO_INT (user_data);
  const HrModelSpec *sa = hr_model_row_get_spec (ra);
  const HrModelSpec *sb = hr_model_row_get_spec (rb);
  const HrEvaluation *ea = hr_model_row_get_evaluation (ra);
  const HrEvaluation *eb = hr_model_row_get_evaluation (rb);
  int result = GTK_ORDERING_EQUAL;

  if (G_UNLIKELY (probing_sort))
    probed_columns |= 1u << column;

  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:
      break;
    case HR_MODELS_COLUMN_PARAMETERS:
      result = CMP (sa->parameters, sb->parameters);
      break;
    case HR_MODELS_COLUMN_PRECISION:
      result = g_strcmp0 (sa->precision, sb->precision);
      result = CMP (result, 0);
      break;
    case HR_MODELS_COLUMN_FILE_SIZE:
      result = CMP (sa->file_bytes, sb->file_bytes);
      break;
    case HR_MODELS_COLUMN_KV_PER_TOKEN:
      result = CMP (hr_model_row_get_kv_per_token (ra), hr_model_row_get_kv_per_token (rb));
      break;
    case HR_MODELS_COLUMN_KV_CACHE:
      result = CMP (ea->footprint.kv_cache, eb->footprint.kv_cache);
      break;
    case HR_MODELS_COLUMN_TOTAL:
      result = CMP (ea->footprint.total, eb->footprint.total);
      break;
    case HR_MODELS_COLUMN_VERDICT:
      /* fits, tight, partial, over; inside a verdict, the smaller total first */
      result = CMP (verdict_rank (ea->verdict), verdict_rank (eb->verdict));
      if (result == GTK_ORDERING_EQUAL)
        result = CMP (ea->footprint.total, eb->footprint.total);
      break;
    case HR_MODELS_COLUMN_TPS:
      result = CMP (ea->tps, eb->tps);
      break;
    case HR_MODELS_COLUMN_SOURCE:
      result = CMP (ea->source, eb->source);
      break;
    case HR_MODELS_COLUMN_SPEED:
      result = CMP (ea->speed, eb->speed);
      break;
    case HR_MODELS_N_COLUMNS:
    default:
      break;
    }

  if (result == GTK_ORDERING_EQUAL)
    result = CMP (strcmp (hr_model_row_get_name (ra), hr_model_row_get_name (rb)), 0);

  return result;
}

static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  HrCatalogView *self = user_data;

  return hr_model_row_matches (item, self->search_folded);
}

static void
update_count (HrCatalogView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  guint all = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
  g_autofree char *shown_text = hr_gui_format_count (shown);
  g_autofree char *all_text = hr_gui_format_count (all);
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s model", "%s models", all), all_text);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s model", "%s of %s models", all),
                            shown_text, all_text);

  gtk_label_set_text (self->count_label, text);

  /* A search that matches nothing says so, instead of a bare table. */
  if (shown == 0 && all > 0)
    {
      const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
      g_autofree char *stripped = g_strstrip (g_strdup (search));
      /* Translators: the title shown when a search of the Models table matches no model */
      g_autofree char *title = g_strdup_printf (_("No models match “%s”"), stripped);

      adw_status_page_set_title (self->empty_page, title);
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }
  else
    gtk_stack_set_visible_child_name (self->stack, "table");
}

static void
on_search_changed (HrCatalogView   *self,
                   GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *folded = g_utf8_casefold (text, -1);
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;

  g_strstrip (folded);
  if (self->search_folded != NULL && strstr (folded, self->search_folded) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (self->search_folded != NULL && strstr (self->search_folded, folded) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;

  g_free (self->search_folded);
  self->search_folded = g_steal_pointer (&folded);
  gtk_filter_changed (GTK_FILTER (self->filter), change);
}

static void
on_filter_items_changed (GListModel   *model,
                         guint         position,
                         guint         removed,
                         guint         added,
                         HrCatalogView *self)
{
  update_count (self);
}


/* Scrolls the list so the selected row is in view, from an idle so a list
 * just re-sorted has its new height. GTK 4.8 has no call to scroll a column
 * view to a row, so this moves the view's adjustment, as a person scrolling
 * would: every row has the same height. */
static gboolean
scroll_to_selected (gpointer user_data)
{
  HrCatalogView *self = user_data;
  GtkAdjustment *adjustment;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
  double row_height, row_top, value, page;

  self->scroll_id = 0;
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
  if (adjustment == NULL || n == 0 || self->scroll_to >= n)
    return G_SOURCE_REMOVE;

  row_height = gtk_adjustment_get_upper (adjustment) / n;
  row_top = row_height * self->scroll_to;
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);

  if (row_top < value || row_top + 2 * row_height > value + page)
    gtk_adjustment_set_value (adjustment, row_top - (page - row_height) / 2);

  return G_SOURCE_REMOVE;
}

/**
 * hr_catalog_view_select_row:
 * @self: a #HrCatalogView
 * @row: (nullable): a row of the page; %NULL selects the recommended row
 *
 * Selects @row in the list (if the search shows it) and scrolls to it.
 */
void
hr_catalog_view_select_row (HrCatalogView *self,
                           HrModelRow   *row)
{
  GListModel *model;
  guint n;

  g_return_if_fail (HR_IS_CATALOG_VIEW (self));

  model = G_LIST_MODEL (self->sort_model);
  n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) item = g_list_model_get_item (model, i);

      if ((row != NULL && item == row) || (row == NULL && hr_model_row_get_recommended (item)))
        {
          gtk_single_selection_set_selected (self->selection, i);
          self->scroll_to = i;
          if (self->scroll_id == 0)
            self->scroll_id = g_idle_add (scroll_to_selected, self);
          return;
        }
    }
}


/* The column the column view's sorter consults first, and in which
 * direction (1 ascending, -1 descending), found by comparing two rows:
 * the primary column's comparison never returns equal for two rows (the
 * name breaks ties), so no later column is consulted. FALSE when it
 * cannot tell (two rows of one name, or no sorter). */
static gboolean
primary_sort (HrCatalogView  *self,
              gpointer        first,
              gpointer        second,
              HrModelsColumn *column,
              int            *direction)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  int result, own;

  probed_columns = 0;
  probing_sort = TRUE;
  result = gtk_sorter_compare (sorter, first, second);
  probing_sort = FALSE;
  if (probed_columns == 0 || (probed_columns & (probed_columns - 1)) != 0)
    return FALSE;
  *column = (HrModelsColumn) g_bit_nth_lsf (probed_columns, -1);
  own = compare_rows (first, second, GINT_TO_POINTER (*column));
  if (result == GTK_ORDERING_EQUAL || own == GTK_ORDERING_EQUAL)
    return FALSE;
  *direction = result == own ? 1 : -1;
  return TRUE;
}

/* Whether the list's order can change when the figures do: not when it is
 * sorted by name, parameters, precision or file size. When in doubt, yes. */
static gboolean
sort_depends_on_figures (HrCatalogView *self)
{
  g_autoptr(GObject) first = NULL;
  g_autoptr(GObject) second = NULL;
  HrModelsColumn column;
  int direction;

  if (self->model == NULL || g_list_model_get_n_items (self->model) < 2)
    return FALSE;

  first = g_list_model_get_item (self->model, 0);
  second = g_list_model_get_item (self->model, 1);
  if (!primary_sort (self, first, second, &column, &direction))
    return TRUE;
  return ((1u << column) & FIGURE_COLUMNS) != 0;
}

static void
on_sorted_items_changed (HrCatalogView *self)
{
  self->order_stale = TRUE;
}

/* Whether the rows the table lists are still in its sorter's order after
 * a re-evaluation: one comparison per pair of neighbours, on the rows as
 * the sort model last ordered them (read again only after it changed). A
 * re-sort is asked for only when they are not: GTK 4.8's sort model sorts
 * all the rows anew and tells the list they all moved. */
static gboolean
order_holds (HrCatalogView *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  GListModel *sorted = G_LIST_MODEL (self->sort_model);
  HrModelsColumn column;
  gpointer *rows;
  int direction;
  guint n;

  if (self->order_stale)
    {
      n = g_list_model_get_n_items (sorted);
      g_ptr_array_set_size (self->order, 0);
      for (guint i = 0; i < n; i++)
        {
          GObject *row = g_list_model_get_item (sorted, i);

          /* The catalog model holds the rows; the order is read again
           * whenever the sort model changes, rows made anew included. */
          g_ptr_array_add (self->order, row);
          g_object_unref (row);
        }
      self->order_stale = FALSE;
    }
  n = self->order->len;
  rows = self->order->pdata;
  if (n < 2)
    return TRUE;
  if (!primary_sort (self, rows[0], rows[1], &column, &direction))
    return FALSE;
  for (guint i = 0; i + 1 < n; i++)
    {
      int result = compare_rows (rows[i], rows[i + 1], GINT_TO_POINTER (column)) * direction;

      if (result > 0)
        return FALSE;
      /* Two rows of one name: the later columns decide. */
      if (result == 0 && gtk_sorter_compare (sorter, rows[i], rows[i + 1]) == GTK_ORDERING_LARGER)
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Columns                                                             */

static void
setup_columns (HrCatalogView *self)
{
  GtkColumnViewColumn *sort_column = NULL;

  for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      g_autoptr(GtkCustomSorter) sorter = NULL;

      g_object_set_data (G_OBJECT (factory), "hr-column", GINT_TO_POINTER (c));
      hr_catalog_cells_connect (factory, self);

      column = gtk_column_view_column_new (hr_catalog_view_column_title (c),
                                           g_steal_pointer (&factory));
      sorter = gtk_custom_sorter_new (compare_rows, GINT_TO_POINTER (c), NULL);
      gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
      gtk_column_view_column_set_resizable (column, TRUE);
      if (c == HR_MODELS_COLUMN_NAME)
        gtk_column_view_column_set_expand (column, TRUE);
      if (c == HR_MODELS_COLUMN_PARAMETERS)
        sort_column = column;

      gtk_column_view_append_column (self->column_view, column);
    }

  /* The seed's tables list models by parameters, smallest first. */
  gtk_column_view_sort_by_column (self->column_view, sort_column, GTK_SORT_ASCENDING);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */

/* The rows were evaluated again (the same rows, each watched one that
 * changed already told its cells): the Verdict column widens to its
 * widest pill when the verdicts span more (hr_catalog_columns_fit_verdict()),
 * and the sort model re-sorts only when the table is sorted by a figure
 * (not by name, parameters, precision or file size) and the new figures
 * put a row out of order. */
static void
on_rows_evaluated (HrCatalogView *self)
{
  if (sort_depends_on_figures (self) && !order_holds (self))
    gtk_sorter_changed (gtk_column_view_get_sorter (self->column_view), GTK_SORTER_CHANGE_DIFFERENT);
  hr_catalog_columns_fit_verdict (self->column_view, self->model, self->unit);
}

/* The rows were made anew: the filter and sort models have followed the
 * model's "items-changed" (it is theirs); the Verdict column follows. */
static void
on_rows_made (HrCatalogView *self)
{
  hr_catalog_columns_fit_verdict (self->column_view, self->model, self->unit);
}

/**
 * hr_catalog_view_set_model:
 * @self: a #HrCatalogView
 * @rows: the rows to list, evaluated: the scenario's #HrCatalogModel
 *   (referenced)
 *
 * Lists @rows, searched and sorted: the filter model sits on @rows
 * itself, so rows made anew reach the table through its "items-changed";
 * rows re-evaluated (#HrCatalogModel::evaluated) refresh their shown cells
 * through #HrModelRow::changed and are re-sorted where the order depends
 * on their figures and changed.
 */
void
hr_catalog_view_set_model (HrCatalogView  *self,
                           HrCatalogModel *rows)
{
  g_return_if_fail (HR_IS_CATALOG_VIEW (self));
  g_return_if_fail (HR_IS_CATALOG_MODEL (rows));

  if (self->model == G_LIST_MODEL (rows))
    return;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_set_object (&self->model, G_LIST_MODEL (rows));
  gtk_filter_list_model_set_model (self->filter_model, self->model);
  g_signal_connect_object (rows, "evaluated", G_CALLBACK (on_rows_evaluated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (rows, "items-changed", G_CALLBACK (on_rows_made), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  update_count (self);
  hr_catalog_columns_fit (self->column_view, self->model, self->unit);
}

/**
 * hr_catalog_view_set_scenario:
 * @self: a #HrCatalogView
 * @scenario: the scenario whose precision the Precision column names; the
 *   columns the settings hide (its session's) are hidden then. Set once
 *   (#HrCatalogView:scenario, which the Models page's template binds to
 *   the page's).
 */
void
hr_catalog_view_set_scenario (HrCatalogView *self,
                              HrScenario    *scenario)
{
  GSettings *settings;

  g_return_if_fail (HR_IS_CATALOG_VIEW (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));

  if (self->scenario == scenario)
    return;
  g_return_if_fail (self->scenario == NULL);
  self->scenario = g_object_ref (scenario);
  /* The hidden columns are the application's settings, which the session
   * hands down (hr_catalog_columns_bind_settings()). */
  settings = hr_session_get_settings (hr_scenario_get_session (scenario));
  if (settings != NULL)
    {
      hr_catalog_columns_bind_settings (self->column_view, settings);
      /* A new text size measures the columns again. */
      g_signal_connect_object (settings, "changed::text-zoom", G_CALLBACK (queue_refit), self, G_CONNECT_SWAPPED);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

/**
 * hr_catalog_view_set_unit:
 * @self: a #HrCatalogView
 * @unit: the unit sizes are shown in; cells refresh with their rows
 */
void
hr_catalog_view_set_unit (HrCatalogView *self,
                          HrUnit         unit)
{
  g_return_if_fail (HR_IS_CATALOG_VIEW (self));

  self->unit = unit;
}

/**
 * hr_catalog_view_get_rows:
 * @self: a #HrCatalogView
 *
 * Returns: (transfer none): the rows as the table shows them: searched and
 *   sorted
 */
GListModel *
hr_catalog_view_get_rows (HrCatalogView *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_VIEW (self), NULL);

  return G_LIST_MODEL (self->sort_model);
}

/**
 * hr_catalog_view_get_selection:
 * @self: a #HrCatalogView
 *
 * Returns: (transfer none): the selection over hr_catalog_view_get_rows()
 */
GtkSingleSelection *
hr_catalog_view_get_selection (HrCatalogView *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_VIEW (self), NULL);

  return self->selection;
}

/**
 * hr_catalog_view_focus_search:
 * @self: a #HrCatalogView
 *
 * Moves the keyboard focus to the search entry.
 */
void
hr_catalog_view_focus_search (HrCatalogView *self)
{
  g_return_if_fail (HR_IS_CATALOG_VIEW (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/**
 * hr_catalog_view_set_library_lookup:
 * @self: a #HrCatalogView
 * @lookup: the Ollama library lookup (hr_library_lookup_new()), placed
 *   under the search
 */
void
hr_catalog_view_set_library_lookup (HrCatalogView *self,
                                    GtkWidget     *lookup)
{
  g_return_if_fail (HR_IS_CATALOG_VIEW (self));

  gtk_box_insert_child_after (GTK_BOX (self), lookup, gtk_widget_get_first_child (GTK_WIDGET (self)));
}

/** hr_catalog_view_get_column_view: @self: a view. Returns: (transfer none): the table */
GtkColumnView *
hr_catalog_view_get_column_view (HrCatalogView *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_VIEW (self), NULL);

  return self->column_view;
}

/** hr_catalog_view_get_search_entry: @self: a view. Returns: (transfer none): the search entry */
GtkEditable *
hr_catalog_view_get_search_entry (HrCatalogView *self)
{
  g_return_val_if_fail (HR_IS_CATALOG_VIEW (self), NULL);

  return GTK_EDITABLE (self->search_entry);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_catalog_view_dispose (GObject *object)
{
  HrCatalogView *self = (HrCatalogView *)object;

  g_clear_handle_id (&self->scroll_id, g_source_remove);
  g_clear_handle_id (&self->refit_id, g_source_remove);
  if (self->column_view != NULL)
    hr_catalog_columns_stop_following (self->column_view);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  g_clear_pointer (&self->order, g_ptr_array_unref);
  g_clear_object (&self->scenario);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_CATALOG_VIEW);

  G_OBJECT_CLASS (hr_catalog_view_parent_class)->dispose (object);
}

static void
hr_catalog_view_finalize (GObject *object)
{
  HrCatalogView *self = (HrCatalogView *)object;

  g_clear_pointer (&self->search_folded, g_free);

  G_OBJECT_CLASS (hr_catalog_view_parent_class)->finalize (object);
}

static void
hr_catalog_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrCatalogView *self = HR_CATALOG_VIEW (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_object (value, self->scenario);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_catalog_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  HrCatalogView *self = HR_CATALOG_VIEW (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      /* The template binds it before the page has a scenario. */
      if (g_value_get_object (value) != NULL)
        hr_catalog_view_set_scenario (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_catalog_view_class_init (HrCatalogViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_catalog_view_dispose;
  object_class->finalize = hr_catalog_view_finalize;
  object_class->get_property = hr_catalog_view_get_property;
  object_class->set_property = hr_catalog_view_set_property;

  /**
   * HrCatalogView:scenario:
   *
   * The scenario whose precision the Precision column names, on the
   * session whose settings hide columns. Set once.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-catalog-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCatalogView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HrCatalogView, count_label);
  gtk_widget_class_bind_template_child (widget_class, HrCatalogView, column_view);
  gtk_widget_class_bind_template_child (widget_class, HrCatalogView, stack);
  gtk_widget_class_bind_template_child (widget_class, HrCatalogView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
}

/* The text's size changed (Ctrl+plus, the presentation view): the
 * headers and pills are measured again once the new style applies. */
static gboolean
refit_columns (gpointer user_data)
{
  HrCatalogView *self = user_data;

  self->refit_id = 0;
  hr_catalog_columns_fit (self->column_view, self->model, self->unit);
  return G_SOURCE_REMOVE;
}

static void
queue_refit (HrCatalogView *self)
{
  if (self->refit_id == 0)
    self->refit_id = g_timeout_add (50, refit_columns, self);
}

/* The headers are measured in the window's fonts once the table shows;
 * again when the window's text size changes: the "text-zoom" setting, or
 * the window's style classes (the presentation view's "presentation"). */
static void
on_column_view_mapped (HrCatalogView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  hr_catalog_columns_fit (self->column_view, self->model, self->unit);
  if (root != NULL && g_object_get_data (G_OBJECT (self), "hr-watched-root") != root)
    {
      g_object_set_data (G_OBJECT (self), "hr-watched-root", root);
      g_signal_connect_object (root, "notify::css-classes", G_CALLBACK (queue_refit), self, G_CONNECT_SWAPPED);
    }
}

static void
hr_catalog_view_init (HrCatalogView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->search_folded = g_strdup ("");
  self->order = g_ptr_array_new ();
  self->order_stale = TRUE;
  /* The rows come with hr_catalog_view_set_model(): the scenario's
   * catalog model, which the filter model then sits on. */
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  setup_columns (self);
  hr_catalog_columns_setup (self->column_view, GTK_WIDGET (self));
  /* Translators: for a screen reader, the page shown when no model matches the search */
  hr_accessible_name_status_page (self->empty_page, _("No matching models"));
  g_signal_connect_swapped (self->column_view, "map", G_CALLBACK (on_column_view_mapped), self);
  hr_catalog_columns_follow_width (self->column_view, GTK_WIDGET (self));
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filter_model)),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->filter_model, "items-changed",
                    G_CALLBACK (on_filter_items_changed), self);
  g_signal_connect_swapped (self->sort_model, "items-changed",
                            G_CALLBACK (on_sorted_items_changed), self);
  update_count (self);
}

/**
 * hr_catalog_view_new:
 *
 * Returns: (transfer floating): a new, empty #HrCatalogView
 */
GtkWidget *
hr_catalog_view_new (void)
{
  return g_object_new (HR_TYPE_CATALOG_VIEW, NULL);
}
