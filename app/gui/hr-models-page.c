/* hr-models-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-boards-view.h"
#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-export.h"
#include "hr-gui-format.h"
#include "hr-measurement.h"
#include "hr-models-page.h"
#include "hr-pool.h"
#include "hr-precision.h"
#include "hr-runtime.h"
#include "hr-window.h"

/*
 * How a slider step stays fast with 10,000 rows: every row is re-evaluated
 * in place (hr_evaluate() allocates nothing), hr_recommend() runs over two
 * preallocated arrays, the few cells bound to rows refresh through
 * HrModelRow::changed, and the sort model is told once that the order may
 * have changed. Nothing is removed from or added to the list.
 */

/* The precisions the slider offers, in bits order; NULL is "as pulled". */
static const char * const precision_ids[] = {
  NULL, "int4", "q4_K_M", "q5_K_M", "q6_K", "q8_0", "fp16", "fp32",
};

#define CONTEXT_MIN_LOG2 9   /* 512 tokens */
#define CONTEXT_MAX_LOG2 17  /* 131,072 tokens */

/* The Runtime control's items, in the order of the settings' enum. */
typedef enum {
  RUNTIME_NONE,   /* weights + KV cache: the seed's plain math */
  RUNTIME_0_30,   /* Ollama 0.30 and newer */
  RUNTIME_0_12,   /* Ollama up to 0.12 */
  RUNTIME_BOARD,  /* the era of the board's server version */
  N_RUNTIMES
} Runtime;

struct _HrModelsPage
{
  AdwBin              parent_instance;

  /* template */
  AdwFlap            *flap;
  AdwComboRow        *board_row;
  AdwExpanderRow     *editor_row;
  GtkSpinButton      *pool_spin;
  GtkSpinButton      *resident_spin;
  GtkSpinButton      *reserve_spin;
  GtkSpinButton      *bandwidth_spin;
  GtkSpinButton      *reply_spin;
  GtkSpinButton      *stage_spin;
  GtkSpinButton      *prefill_spin;
  GtkButton          *save_button;
  GtkButton          *revert_button;
  GtkLabel           *board_summary;
  GtkScale           *precision_scale;
  GtkScale           *context_scale;
  GtkLabel           *precision_value;
  GtkLabel           *context_value;
  AdwComboRow        *kv_row;
  GtkSpinButton      *slots_spin;
  GtkSearchEntry     *search_entry;
  GtkLabel           *count_label;
  GtkColumnView      *column_view;
  HrMemoryChart      *memory_chart;
  HrMemoryChart      *pool_chart;
  HrExplainPanel     *explain_panel;
  AdwFlap            *explain_flap;
  guint               scroll_to;
  guint               scroll_id;
  AdwComboRow        *runtime_row;
  GtkLabel           *pool_note;
  GtkSwitch          *flash_switch;
  GtkStack           *view_stack;
  HrBoardsView       *boards_view;

  GtkStringList      *runtime_names;
  Runtime             runtime;
  HrRuntimeInputs     runtime_inputs;   /* the template every row's prediction starts from */
  HrCalibration       calibration;      /* the board's learned overhead under runtime_inputs */
  char               *calibration_text;
  char               *server_version;   /* the board's, from its newest measurement; nullable */

  GSettings          *settings;
  HrUnit              unit;

  GPtrArray          *catalog;          /* HrModelSpec* */
  GPtrArray          *boards;           /* HrBoard*, built-in merged with the user's */
  GPtrArray          *user_boards;      /* the user's boards file as read; NULL if unreadable */
  char               *user_boards_path;
  char               *user_boards_problem;
  GPtrArray          *measurements;     /* HrMeasurement* */
  GtkStringList      *board_names;

  HrBoard            *board;            /* the selected board, as edited */
  guint               board_index;
  HrEfficiencyFit     fit;
  HrEvaluationInputs          scenario;
  const HrPrecision  *precisions[G_N_ELEMENTS (precision_ids)];
  guint               n_precisions;

  GListStore         *store;
  GPtrArray          *rows;             /* HrModelRow*, the store's order */
  GArray             *evaluations;      /* HrEvaluation, scratch for hr_recommend() */
  GPtrArray          *spec_ptrs;        /* HrModelSpec*, scratch for hr_recommend() */
  GtkCustomFilter    *filter;
  char               *search_folded;
  GtkFilterListModel *filter_model;
  GtkSortListModel   *sort_model;
  GtkSingleSelection *selection;

  gboolean            updating_controls;
};

G_DEFINE_FINAL_TYPE (HrModelsPage, hr_models_page, ADW_TYPE_BIN)

static void reevaluate (HrModelsPage *self);
static void update_runtime_names (HrModelsPage *self);

/* ------------------------------------------------------------------ */
/* Cells                                                               */

/**
 * hr_models_page_column_title:
 * @column: a column
 *
 * Returns: (transfer none): the column's title, as the table and the CSV
 *   header show it
 */
const char *
hr_models_page_column_title (HrModelsColumn column)
{
  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:         return _("Name");
    case HR_MODELS_COLUMN_PARAMETERS:   return _("Parameters");
    case HR_MODELS_COLUMN_PRECISION:    return _("Precision");
    case HR_MODELS_COLUMN_FILE_SIZE:    return _("File size");
    case HR_MODELS_COLUMN_KV_PER_TOKEN: return _("KV bytes/token");
    case HR_MODELS_COLUMN_KV_CACHE:     return _("KV cache");
    case HR_MODELS_COLUMN_TOTAL:        return _("Total");
    case HR_MODELS_COLUMN_VERDICT:      return _("Verdict");
    case HR_MODELS_COLUMN_TPS:          return _("t/s");
    case HR_MODELS_COLUMN_SOURCE:       return _("Source");
    case HR_MODELS_COLUMN_SPEED:        return _("Speed");
    case HR_MODELS_N_COLUMNS:
    default:                            return "";
    }
}

/**
 * hr_models_page_cell_text:
 * @self: a #HrModelsPage
 * @row: a row of the page
 * @column: a column
 *
 * The text the table shows in @column for @row (the CSV export writes the
 * same text). The name column holds the model's name only; the page adds
 * the recommended star and the context note beside it.
 *
 * Returns: (transfer full): the text
 */
char *
hr_models_page_cell_text (HrModelsPage   *self,
                          HrModelRow     *row,
                          HrModelsColumn  column)
{
  const HrModelSpec *spec = hr_model_row_get_spec (row);
  const HrEvaluation *e = hr_model_row_get_evaluation (row);

  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:
      return g_strdup (hr_model_row_get_name (row));
    case HR_MODELS_COLUMN_PARAMETERS:
      {
        g_autofree char *billions = NULL;

        if (spec->parameters == 0)
          return g_strdup ("–");
        billions = hr_format_decimal (spec->parameters / 1e9, 2);
        /* Translators: a parameter count in billions, "3.21 B"; the exact count is in the explain panel */
        return g_strdup_printf (_("%s B"), billions);
      }
    case HR_MODELS_COLUMN_PRECISION:
      if (self->scenario.precision != NULL)
        return g_strdup (self->scenario.precision->label);
      return g_strdup (spec->precision ? spec->precision : "–");
    case HR_MODELS_COLUMN_FILE_SIZE:
      return spec->file_bytes ? hr_gui_format_size (spec->file_bytes, self->unit) : g_strdup ("–");
    case HR_MODELS_COLUMN_KV_PER_TOKEN:
      return hr_format_count (hr_model_row_get_kv_per_token (row));
    case HR_MODELS_COLUMN_KV_CACHE:
      return hr_gui_format_size (e->footprint.kv_cache, self->unit);
    case HR_MODELS_COLUMN_TOTAL:
      return hr_gui_format_size (e->footprint.total, self->unit);
    case HR_MODELS_COLUMN_VERDICT:
      return hr_gui_format_verdict (e->verdict, e->margin_bytes, self->unit);
    case HR_MODELS_COLUMN_TPS:
      return hr_gui_format_tps (e->tps);
    case HR_MODELS_COLUMN_SOURCE:
      return g_strdup (hr_gui_rate_source_label (e->source));
    case HR_MODELS_COLUMN_SPEED:
      return g_strdup (hr_gui_speed_label (e->speed));
    case HR_MODELS_N_COLUMNS:
    default:
      return g_strdup ("");
    }
}

static char *
context_note (HrModelRow *row)
{
  const HrModelSpec *spec = hr_model_row_get_spec (row);
  g_autofree char *limit = NULL;

  if (!hr_model_row_get_evaluation (row)->past_context_limit)
    return NULL;

  limit = hr_format_count (spec->context_length);
  /* Translators: beside a model's name when the context slider is past its native limit */
  return g_strdup_printf (_("past its %s-token limit"), limit);
}

static void
set_label_text (GtkWidget  *label,
                const char *text)
{
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
}

static void
refresh_cell (GtkListItem *item)
{
  HrModelsPage *self = g_object_get_data (G_OBJECT (item), "hr-page");
  HrModelsColumn column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), "hr-column"));
  HrModelRow *row = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;

  if (row == NULL || child == NULL)
    return;

  text = hr_models_page_cell_text (self, row, column);

  if (column == HR_MODELS_COLUMN_NAME)
    {
      GtkWidget *star = gtk_widget_get_first_child (child);
      GtkWidget *label = gtk_widget_get_next_sibling (star);
      GtkWidget *note = gtk_widget_get_next_sibling (label);
      g_autofree char *note_text = context_note (row);

      gtk_widget_set_visible (star, hr_model_row_get_recommended (row));
      set_label_text (label, text);
      set_label_text (note, note_text ? note_text : "");
      gtk_widget_set_visible (note, note_text != NULL);
    }
  else if (column == HR_MODELS_COLUMN_VERDICT)
    {
      const HrEvaluation *e = hr_model_row_get_evaluation (row);
      const char *css = hr_gui_verdict_css_class (e->verdict);

      set_label_text (child, text);
      if (!gtk_widget_has_css_class (child, css))
        {
          gtk_widget_remove_css_class (child, "success");
          gtk_widget_remove_css_class (child, "warning");
          gtk_widget_remove_css_class (child, "error");
          gtk_widget_add_css_class (child, css);
        }
    }
  else
    {
      set_label_text (child, text);
    }
}

/* The list keeps about 200 rows of cells bound for smooth scrolling, but
 * only a screenful is mapped: the others refresh when they are mapped. */
static void
on_row_changed (HrModelRow  *row,
                GtkListItem *item)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (child != NULL && gtk_widget_get_mapped (child))
    refresh_cell (item);
  else
    g_object_set_data (G_OBJECT (item), "hr-stale", GINT_TO_POINTER (TRUE));
}

static gboolean
refresh_stale_cell (gpointer user_data)
{
  GtkListItem *item = user_data;

  g_object_set_data (G_OBJECT (item), "hr-refresh-pending", NULL);
  if (g_object_get_data (G_OBJECT (item), "hr-stale") != NULL)
    {
      g_object_set_data (G_OBJECT (item), "hr-stale", NULL);
      refresh_cell (item);
    }
  return G_SOURCE_REMOVE;
}

/* A cell is mapped while the list allocates its rows: changing a label
 * right then would leave it unallocated for this frame's drawing, so a
 * stale cell refreshes from an idle that runs before the next frame. */
static void
on_cell_mapped (GtkWidget   *child,
                GtkListItem *item)
{
  if (g_object_get_data (G_OBJECT (item), "hr-stale") == NULL ||
      g_object_get_data (G_OBJECT (item), "hr-refresh-pending") != NULL)
    return;

  g_object_set_data (G_OBJECT (item), "hr-refresh-pending", GINT_TO_POINTER (TRUE));
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_stale_cell, g_object_ref (item), g_object_unref);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            HrModelsPage             *self)
{
  HrModelsColumn column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "hr-column"));
  GtkWidget *child;

  g_object_set_data (G_OBJECT (item), "hr-page", self);
  g_object_set_data (G_OBJECT (item), "hr-column", GINT_TO_POINTER (column));

  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:
      {
        GtkWidget *star = gtk_image_new_from_icon_name ("starred-symbolic");
        GtkWidget *label = gtk_label_new (NULL);
        GtkWidget *note = gtk_label_new (NULL);

        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_widget_add_css_class (star, "recommended-star");
        gtk_widget_set_tooltip_text (star, _("Recommended: the largest model that fits and is fast enough"));
        gtk_accessible_update_property (GTK_ACCESSIBLE (star),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, _("Recommended"),
                                        -1);
        gtk_widget_set_visible (star, FALSE);
        gtk_label_set_xalign (GTK_LABEL (label), 0.0);
        gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
        gtk_widget_add_css_class (note, "caption");
        gtk_widget_add_css_class (note, "warning");
        gtk_widget_set_visible (note, FALSE);
        gtk_box_append (GTK_BOX (child), star);
        gtk_box_append (GTK_BOX (child), label);
        gtk_box_append (GTK_BOX (child), note);
      }
      break;
    case HR_MODELS_COLUMN_VERDICT:
      child = gtk_label_new (NULL);
      gtk_widget_add_css_class (child, "verdict-pill");
      gtk_widget_add_css_class (child, "numeric");
      gtk_widget_set_halign (child, GTK_ALIGN_START);
      break;
    case HR_MODELS_COLUMN_PRECISION:
    case HR_MODELS_COLUMN_SOURCE:
    case HR_MODELS_COLUMN_SPEED:
      child = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (child), 0.0);
      break;
    default:
      child = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (child), 1.0);
      gtk_widget_add_css_class (child, "numeric");
      break;
    }

  g_signal_connect (child, "map", G_CALLBACK (on_cell_mapped), item);
  gtk_list_item_set_child (item, child);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           HrModelsPage             *self)
{
  HrModelRow *row = gtk_list_item_get_item (item);

  g_signal_connect (row, "changed", G_CALLBACK (on_row_changed), item);
  hr_model_row_watch (row);
  g_object_set_data (G_OBJECT (item), "hr-stale", NULL);
  refresh_cell (item);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             HrModelsPage             *self)
{
  HrModelRow *row = gtk_list_item_get_item (item);

  if (row != NULL)
    {
      g_signal_handlers_disconnect_by_func (row, on_row_changed, item);
      hr_model_row_unwatch (row);
    }
}

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
      /* fits before tight before over; inside a verdict, the smaller total first */
      result = CMP (ea->verdict, eb->verdict);
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
  HrModelsPage *self = user_data;

  return hr_model_row_matches (item, self->search_folded);
}

static void
update_count (HrModelsPage *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  guint all = self->rows->len;
  g_autofree char *shown_text = hr_format_count (shown);
  g_autofree char *all_text = hr_format_count (all);
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s model", "%s models", all), all_text);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s model", "%s of %s models", all),
                            shown_text, all_text);

  gtk_label_set_text (self->count_label, text);
}

static void
on_search_changed (HrModelsPage   *self,
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
                         HrModelsPage *self)
{
  update_count (self);
}

/* ------------------------------------------------------------------ */
/* Selection                                                           */

static void
on_selected_item_changed (GtkSingleSelection *selection,
                          GParamSpec         *pspec,
                          HrModelsPage       *self)
{
  HrModelRow *row = gtk_single_selection_get_selected_item (selection);

  hr_memory_chart_set_selected (self->memory_chart, row);
  hr_memory_chart_set_selected (self->pool_chart, row);
  if (self->board != NULL)
    hr_explain_panel_set_row (self->explain_panel, row, &self->scenario);
}

/* Scrolls the list so the selected row is in view, from an idle so a list
 * just re-sorted has its new height. GTK 4.8 has no call to scroll a column
 * view to a row, so this moves the view's adjustment, as a person scrolling
 * would: every row has the same height. */
static gboolean
scroll_to_selected (gpointer user_data)
{
  HrModelsPage *self = user_data;
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
 * hr_models_page_select_row:
 * @self: a #HrModelsPage
 * @row: (nullable): a row of the page; %NULL selects the recommended row
 *
 * Selects @row in the list (if the search shows it) and scrolls to it.
 */
void
hr_models_page_select_row (HrModelsPage *self,
                           HrModelRow   *row)
{
  GListModel *model;
  guint n;

  g_return_if_fail (HR_IS_MODELS_PAGE (self));

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

/* ------------------------------------------------------------------ */
/* The scenario                                                        */

static const HrPrecision *
selected_precision (HrModelsPage *self)
{
  guint index = (guint) gtk_range_get_value (GTK_RANGE (self->precision_scale));

  if (index >= self->n_precisions)
    return NULL;
  return self->precisions[index];
}

static guint32
selected_context (HrModelsPage *self)
{
  int log2 = (int) gtk_range_get_value (GTK_RANGE (self->context_scale));

  return (guint32) 1 << CLAMP (log2, CONTEXT_MIN_LOG2, CONTEXT_MAX_LOG2);
}

static void
build_scenario (HrModelsPage *self)
{
  hr_evaluation_inputs_init (&self->scenario, self->board, &self->fit);
  self->scenario.precision = selected_precision (self);
  self->scenario.kv_type = (HrKvCacheType) adw_combo_row_get_selected (self->kv_row);
  self->scenario.context_tokens = selected_context (self);
  self->scenario.parallel_slots = (guint32) gtk_spin_button_get_value_as_int (self->slots_spin);
}

/* The runtime template and the board's learned overhead under it: after
 * the board, the measurements or a runtime setting changed (never on a
 * slider step: the context is each measurement's own). */
static void
update_runtime (HrModelsPage *self)
{
  HrRuntimeInputs *in = &self->runtime_inputs;
  g_autoptr(GArray) points = NULL;

  g_clear_pointer (&self->server_version, g_free);
  g_clear_pointer (&self->calibration_text, g_free);
  if (self->board != NULL)
    self->server_version = g_strdup (hr_gui_board_server_version (self->measurements, self->board->id));

  hr_runtime_inputs_init (in, NULL, selected_context (self));
  in->flash_attention = gtk_switch_get_active (self->flash_switch) ? HR_FLASH_ATTENTION_ON
                                                                   : HR_FLASH_ATTENTION_OFF;
  in->kv_type = (HrKvCacheType) adw_combo_row_get_selected (self->kv_row);
  in->parallel_slots = (guint32) gtk_spin_button_get_value_as_int (self->slots_spin);
  in->precision = selected_precision (self);
  switch (self->runtime)
    {
    case RUNTIME_0_30:
      in->era = HR_RUNTIME_ERA_OLLAMA_0_30;
      break;
    case RUNTIME_0_12:
      in->era = HR_RUNTIME_ERA_OLLAMA_0_12;
      break;
    case RUNTIME_BOARD:
      in->era = HR_RUNTIME_ERA_AUTO;
      in->server_version = self->server_version;
      break;
    case RUNTIME_NONE:
    case N_RUNTIMES:
    default:
      break;
    }

  if (self->runtime == RUNTIME_NONE || self->board == NULL)
    {
      hr_calibration_fit (NULL, 0, &self->calibration, NULL);
      return;
    }

  points = hr_calibration_points_from_archive (self->measurements, self->board->id,
                                               self->runtime == RUNTIME_BOARD ? self->server_version : NULL,
                                               self->catalog, in);
  if (!hr_calibration_fit ((const HrResidualPoint *) (gpointer) points->data, points->len,
                           &self->calibration, NULL))
    hr_calibration_fit (NULL, 0, &self->calibration, NULL);
  self->calibration_text = hr_calibration_describe (&self->calibration);
}

static const HrRuntimeInputs *
runtime_template (HrModelsPage *self)
{
  return self->runtime == RUNTIME_NONE ? NULL : &self->runtime_inputs;
}

/* The Boards view is laid out only while it shows: with thousands of
 * models, the list's slider steps stay as fast as before. */
static void
update_boards_view (HrModelsPage *self)
{
  g_autoptr(GPtrArray) specs = NULL;
  g_autofree char *inputs = NULL;
  GListModel *model;
  guint n;

  if (self->board == NULL ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "boards") != 0)
    return;

  model = G_LIST_MODEL (self->sort_model);
  n = MIN (g_list_model_get_n_items (model), HR_BOARDS_VIEW_MAX_MODELS);
  specs = g_ptr_array_new_full (n, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (model, i);

      g_ptr_array_add (specs, (gpointer) hr_model_row_get_spec (row));
    }
  inputs = hr_models_page_describe_inputs (self);
  hr_boards_view_update (self->boards_view, self->boards, specs, self->measurements, self->catalog,
                         &self->scenario, runtime_template (self), self->runtime == RUNTIME_BOARD,
                         self->unit, inputs);
}

/* On a unified board, the note under the pool column (hr_pool_layout()). */
static void
update_pool_note (HrModelsPage *self)
{
  HrPoolLayout layout;

  hr_pool_layout (self->board, &layout);
  gtk_label_set_text (self->pool_note, layout.note);
  gtk_widget_set_visible (GTK_WIDGET (self->pool_note), layout.unified && layout.note[0] != '\0');
}

static void
update_summary (HrModelsPage *self)
{
  g_autofree char *budget = hr_gui_format_size (hr_board_budget_bytes (self->board), self->unit);
  g_autofree char *headroom = hr_gui_format_size (hr_board_headroom_bytes (self->board), self->unit);
  g_autofree char *pool = hr_gui_format_size (self->board->pool_bytes, self->unit);
  g_autofree char *floor_tps = hr_format_decimal (self->scenario.floor_tps, 1);
  g_autofree char *fit = NULL;
  g_autofree char *text = NULL;

  if (self->fit.n_points > 0)
    {
      g_autofree char *efficiency = hr_format_decimal (self->fit.efficiency, 2);

      fit = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "efficiency %s, fitted on %u measured model",
                                          "efficiency %s, fitted on %u measured models",
                                          self->fit.n_points),
                             efficiency, self->fit.n_points);
    }
  else
    {
      fit = g_strdup (_("no measured models on this board: rates are extrapolated"));
    }

  text = g_strdup_printf (_("Budget %1$s, headroom %2$s, pool %3$s; floor %4$s t/s; %5$s."),
                          budget, headroom, pool, floor_tps, fit);
  gtk_label_set_text (self->board_summary, text);
}

/* Whether the list's order can change when the figures do: not when it is
 * sorted by name, parameters, precision or file size. Comparing two rows
 * asks the primary sort column, whose comparison never returns equal for
 * two rows (the name breaks ties), so no later column is consulted. When
 * in doubt, yes. */
static gboolean
sort_depends_on_figures (HrModelsPage *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);

  if (self->rows->len < 2)
    return FALSE;

  probed_columns = 0;
  probing_sort = TRUE;
  gtk_sorter_compare (sorter, g_ptr_array_index (self->rows, 0), g_ptr_array_index (self->rows, 1));
  probing_sort = FALSE;

  return probed_columns == 0 || (probed_columns & FIGURE_COLUMNS) != 0;
}

static void
reevaluate (HrModelsPage *self)
{
  HrModelSpec **specs;
  HrEvaluation *evaluations;
  guint n = self->rows->len;
  gint best;

  if (self->board == NULL)
    return;

  build_scenario (self);

  g_array_set_size (self->evaluations, n);
  g_ptr_array_set_size (self->spec_ptrs, n);
  evaluations = (HrEvaluation *) (gpointer) self->evaluations->data;
  specs = (HrModelSpec **) self->spec_ptrs->pdata;

  for (guint i = 0; i < n; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);

      hr_model_row_evaluate_runtime (row, &self->scenario, runtime_template (self), &self->calibration);
      evaluations[i] = *hr_model_row_get_evaluation (row);
      specs[i] = (HrModelSpec *) hr_model_row_get_spec (row);
    }

  best = hr_recommend (specs, evaluations, n);

  for (guint i = 0; i < n; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);

      hr_model_row_set_recommended (row, (gint) i == best);
      hr_model_row_changed (row);
    }

  /* The figures moved: the order may have too. */
  if (sort_depends_on_figures (self))
    gtk_sorter_changed (gtk_column_view_get_sorter (self->column_view), GTK_SORTER_CHANGE_DIFFERENT);

  hr_memory_chart_set_scenario (self->memory_chart, &self->scenario);
  hr_memory_chart_set_scenario (self->pool_chart, &self->scenario);
  hr_memory_chart_set_learned_text (self->memory_chart, self->calibration_text);
  hr_memory_chart_set_learned_text (self->pool_chart, self->calibration_text);
  hr_memory_chart_update (self->memory_chart);
  hr_memory_chart_update (self->pool_chart);
  hr_explain_panel_set_runtime (self->explain_panel, runtime_template (self), &self->calibration);
  hr_explain_panel_update (self->explain_panel, &self->scenario);
  update_summary (self);
  update_pool_note (self);
  update_boards_view (self);
}

static void
refit (HrModelsPage *self)
{
  g_autoptr(GArray) points = NULL;
  g_autoptr(GHashTable) rates = NULL;

  points = hr_measurement_archive_points (self->measurements, self->board->id, self->catalog);
  /* No measured model on the board is not an error here: rates are then
   * extrapolated, and the summary says so. */
  if (!hr_rate_fit_efficiency ((const HrRatePoint *) (gpointer) points->data, points->len,
                               self->board->bandwidth_bytes_per_s, &self->fit, NULL))
    self->fit = (HrEfficiencyFit) { 0 };

  rates = hr_measurement_archive_rates (self->measurements, self->board->id);
  for (guint i = 0; i < self->rows->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);
      const double *tps = g_hash_table_lookup (rates, hr_model_row_get_name (row));

      hr_model_row_set_measured_tps (row, tps ? *tps : 0.0);
    }

  update_runtime_names (self);
  update_runtime (self);
}

/* ------------------------------------------------------------------ */
/* The board and its editor                                            */

static void
load_editor (HrModelsPage *self)
{
  self->updating_controls = TRUE;
  gtk_spin_button_set_value (self->pool_spin, hr_bytes_to_gb (self->board->pool_bytes));
  gtk_spin_button_set_value (self->resident_spin, hr_bytes_to_gb (self->board->resident_bytes));
  gtk_spin_button_set_value (self->reserve_spin, hr_bytes_to_gb (self->board->reserve_bytes));
  gtk_spin_button_set_value (self->bandwidth_spin, self->board->bandwidth_bytes_per_s / 1e9);
  gtk_spin_button_set_value (self->reply_spin, self->board->reply_tokens);
  gtk_spin_button_set_value (self->stage_spin, self->board->stage_ceiling_ms);
  gtk_spin_button_set_value (self->prefill_spin, self->board->prefill_allowance_ms);
  self->updating_controls = FALSE;
}

static void
select_board (HrModelsPage *self,
              guint         index)
{
  if (index >= self->boards->len)
    return;

  g_clear_pointer (&self->board, hr_board_free);
  self->board = hr_board_copy (g_ptr_array_index (self->boards, index));
  self->board_index = index;

  load_editor (self);
  refit (self);
  reevaluate (self);
  hr_models_page_select_row (self, NULL);
}

static void
on_board_selected (AdwComboRow  *row,
                   GParamSpec   *pspec,
                   HrModelsPage *self)
{
  if (self->updating_controls)
    return;

  select_board (self, adw_combo_row_get_selected (row));
}

static void
on_editor_changed (GtkSpinButton *spin,
                   HrModelsPage  *self)
{
  g_autoptr(HrBoard) edited = NULL;
  g_autoptr(GError) error = NULL;
  double value = gtk_spin_button_get_value (spin);

  if (self->updating_controls || self->board == NULL)
    return;

  /* Only the field that moved changes: the others keep their exact bytes. */
  edited = hr_board_copy (self->board);
  if (spin == self->pool_spin)
    edited->pool_bytes = hr_bytes_from_gb (value);
  else if (spin == self->resident_spin)
    edited->resident_bytes = hr_bytes_from_gb (value);
  else if (spin == self->reserve_spin)
    edited->reserve_bytes = hr_bytes_from_gb (value);
  else if (spin == self->bandwidth_spin)
    edited->bandwidth_bytes_per_s = value * 1e9;
  else if (spin == self->reply_spin)
    edited->reply_tokens = (guint32) value;
  else if (spin == self->stage_spin)
    edited->stage_ceiling_ms = (guint32) value;
  else if (spin == self->prefill_spin)
    edited->prefill_allowance_ms = (guint32) value;

  if (!hr_board_validate (edited, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (spin), "error");
      gtk_label_set_text (self->board_summary, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), FALSE);
      return;
    }

  gtk_widget_remove_css_class (GTK_WIDGET (self->pool_spin), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->resident_spin), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->reserve_spin), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->bandwidth_spin), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->reply_spin), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->stage_spin), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->prefill_spin), "error");
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), TRUE);

  hr_board_free (self->board);
  self->board = g_steal_pointer (&edited);
  refit (self);
  reevaluate (self);
}

static void
show_message (HrModelsPage *self,
              const char   *message)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (HR_IS_WINDOW (root))
    hr_window_add_toast (HR_WINDOW (root), message);
  else
    g_message ("%s", message);
}

static void
on_save_clicked (HrModelsPage *self,
                 GtkButton    *button)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  gboolean replaced = FALSE;

  if (self->board == NULL)
    return;

  if (self->user_boards == NULL)
    {
      /* Never write over a file that could not be read. */
      message = g_strdup_printf (_("Not saving: %s could not be read (%s). Fix or move it, then "
                                   "open Headroom again."),
                                 self->user_boards_path, self->user_boards_problem);
      show_message (self, message);
      return;
    }

  for (guint i = 0; i < self->user_boards->len && !replaced; i++)
    {
      HrBoard **slot = (HrBoard **) &self->user_boards->pdata[i];

      if (g_strcmp0 ((*slot)->id, self->board->id) == 0)
        {
          hr_board_free (*slot);
          *slot = hr_board_copy (self->board);
          replaced = TRUE;
        }
    }
  if (!replaced)
    g_ptr_array_add (self->user_boards, hr_board_copy (self->board));

  if (!hr_boards_save_file (self->user_boards, self->user_boards_path, &error))
    {
      show_message (self, error->message);
      return;
    }

  hr_board_free (g_ptr_array_index (self->boards, self->board_index));
  self->boards->pdata[self->board_index] = hr_board_copy (self->board);

  message = g_strdup_printf (_("Saved “%s” to %s"), self->board->name, self->user_boards_path);
  show_message (self, message);
}

static void
on_revert_clicked (HrModelsPage *self,
                   GtkButton    *button)
{
  select_board (self, self->board_index);
}

/* ------------------------------------------------------------------ */
/* Sliders and settings                                                */

static char *
format_precision_value (GtkScale *scale,
                        double    value,
                        gpointer  user_data)
{
  HrModelsPage *self = user_data;
  guint index = (guint) value;
  const HrPrecision *precision;
  g_autofree char *bits = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (index >= self->n_precisions || self->precisions[index] == NULL)
    return g_strdup (_("as pulled"));

  precision = self->precisions[index];
  bits = g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", precision->bits_per_weight));
  /* Translators: the precision slider's value, "Q4_K_M, 4.6 bits per weight" */
  return g_strdup_printf (_("%1$s, %2$s bits per weight"), precision->label, bits);
}

static char *
format_context_value (GtkScale *scale,
                      double    value,
                      gpointer  user_data)
{
  int log2 = CLAMP ((int) value, CONTEXT_MIN_LOG2, CONTEXT_MAX_LOG2);

  return hr_gui_format_context ((guint32) 1 << log2);
}

/* The value beside each slider's heading, and what a screen reader says
 * for it (the scale's own value is an index or a power of two). */
static void
update_slider_labels (HrModelsPage *self)
{
  g_autofree char *precision = format_precision_value (self->precision_scale,
                                                       gtk_range_get_value (GTK_RANGE (self->precision_scale)),
                                                       self);
  g_autofree char *context = format_context_value (self->context_scale,
                                                   gtk_range_get_value (GTK_RANGE (self->context_scale)),
                                                   self);

  gtk_label_set_text (self->precision_value, precision);
  gtk_label_set_text (self->context_value, context);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->precision_scale),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, precision,
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->context_scale),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, context,
                                  -1);
}

static void
on_precision_changed (GtkRange     *range,
                      HrModelsPage *self)
{
  const HrPrecision *precision;

  update_slider_labels (self);
  if (self->updating_controls)
    return;

  precision = selected_precision (self);
  g_settings_set_string (self->settings, "precision", precision ? precision->id : "as-pulled");
  update_runtime (self);
  reevaluate (self);
}

static void
on_context_changed (GtkRange     *range,
                    HrModelsPage *self)
{
  update_slider_labels (self);
  if (self->updating_controls)
    return;

  reevaluate (self);
}

static void
on_kv_changed (AdwComboRow  *row,
               GParamSpec   *pspec,
               HrModelsPage *self)
{
  if (self->updating_controls)
    return;

  g_settings_set_enum (self->settings, "kv-cache-type", (int) adw_combo_row_get_selected (row));
  update_runtime (self);
  reevaluate (self);
}

static void
on_slots_changed (GtkSpinButton *spin,
                  HrModelsPage  *self)
{
  if (self->updating_controls)
    return;

  g_settings_set_uint (self->settings, "parallel-slots",
                       (guint) gtk_spin_button_get_value_as_int (spin));
  update_runtime (self);
  reevaluate (self);
}

/* The fourth item names the version it models, or says none is known. */
static void
update_runtime_names (HrModelsPage *self)
{
  g_autofree char *board_item = NULL;
  const char *items[N_RUNTIMES + 1];
  const char *version = self->board ? hr_gui_board_server_version (self->measurements, self->board->id) : NULL;
  gboolean was_updating = self->updating_controls;

  if (version != NULL)
    /* Translators: a Runtime item, "From the board's server version (ollama 0.31.2)" */
    board_item = g_strdup_printf (_("From the board's server version (%s)"), version);
  else
    board_item = g_strdup (_("From the board's server version (none measured yet: the newest)"));

  items[RUNTIME_NONE] = _("Weights + KV only");
  items[RUNTIME_0_30] = _("Ollama 0.30+ (llama-server)");
  items[RUNTIME_0_12] = _("Ollama up to 0.12");
  items[RUNTIME_BOARD] = board_item;
  items[N_RUNTIMES] = NULL;

  self->updating_controls = TRUE;
  gtk_string_list_splice (self->runtime_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->runtime_names)), items);
  adw_combo_row_set_selected (self->runtime_row, self->runtime);
  self->updating_controls = was_updating;
}

static void
on_runtime_changed (AdwComboRow  *row,
                    GParamSpec   *pspec,
                    HrModelsPage *self)
{
  guint selected = adw_combo_row_get_selected (row);

  if (self->updating_controls || selected >= N_RUNTIMES)
    return;

  self->runtime = (Runtime) selected;
  g_settings_set_enum (self->settings, "runtime", (int) self->runtime);
  gtk_widget_set_sensitive (GTK_WIDGET (self->flash_switch), self->runtime != RUNTIME_NONE);
  update_runtime (self);
  reevaluate (self);
}

static void
on_flash_changed (GtkSwitch    *flash,
                  GParamSpec   *pspec,
                  HrModelsPage *self)
{
  if (self->updating_controls)
    return;

  g_settings_set_boolean (self->settings, "flash-attention", gtk_switch_get_active (flash));
  update_runtime (self);
  reevaluate (self);
}

static void
on_view_changed (GtkStack     *stack,
                 GParamSpec   *pspec,
                 HrModelsPage *self)
{
  update_boards_view (self);
}

static void
on_units_changed (GSettings    *settings,
                  const char   *key,
                  HrModelsPage *self)
{
  self->unit = g_settings_get_enum (settings, "units") == 1 ? HR_UNIT_GIB : HR_UNIT_GB;
  hr_memory_chart_set_unit (self->memory_chart, self->unit);
  hr_memory_chart_set_unit (self->pool_chart, self->unit);
  reevaluate (self);
}

static void
setup_precision_scale (HrModelsPage *self)
{
  self->n_precisions = 0;

  for (guint i = 0; i < G_N_ELEMENTS (precision_ids); i++)
    {
      const HrPrecision *precision = precision_ids[i] ? hr_precision_lookup (precision_ids[i]) : NULL;
      const char *label;
      g_autofree char *markup = NULL;

      if (precision_ids[i] != NULL && precision == NULL)
        continue;

      if (precision == NULL)
        label = _("as pulled");
      else if (g_strcmp0 (precision->id, "fp16") == 0)
        label = _("FP16/BF16");
      else
        label = precision->label;

      self->precisions[self->n_precisions] = precision;
      markup = g_markup_printf_escaped ("<small>%s</small>", label);
      gtk_scale_add_mark (self->precision_scale, self->n_precisions,
                          self->n_precisions % 2 == 0 ? GTK_POS_BOTTOM : GTK_POS_TOP, markup);
      self->n_precisions++;
    }

  gtk_range_set_range (GTK_RANGE (self->precision_scale), 0, MAX (1, self->n_precisions - 1));
}

static void
setup_context_scale (HrModelsPage *self)
{
  static const struct { int log2; const char *label; } marks[] = {
    { 9, "512" }, { 11, "2K" }, { 12, "4K" }, { 13, "8K" }, { 14, "16K" }, { 15, "32K" }, { 17, "128K" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      g_autofree char *markup = g_markup_printf_escaped ("<small>%s</small>", marks[i].label);

      gtk_scale_add_mark (self->context_scale, marks[i].log2, GTK_POS_BOTTOM, markup);
    }
}

static void
load_controls_from_settings (HrModelsPage *self)
{
  g_autofree char *precision = g_settings_get_string (self->settings, "precision");
  guint context = g_settings_get_uint (self->settings, "default-context");
  int log2 = CONTEXT_MIN_LOG2;

  self->updating_controls = TRUE;

  gtk_range_set_value (GTK_RANGE (self->precision_scale), 0);
  for (guint i = 0; i < self->n_precisions; i++)
    if (self->precisions[i] != NULL && g_ascii_strcasecmp (self->precisions[i]->id, precision) == 0)
      gtk_range_set_value (GTK_RANGE (self->precision_scale), i);

  /* The nearest power of two the slider has. */
  while (log2 < CONTEXT_MAX_LOG2 && ((guint) 1 << log2) * 3 / 2 < context)
    log2++;
  gtk_range_set_value (GTK_RANGE (self->context_scale), log2);

  adw_combo_row_set_selected (self->kv_row, (guint) g_settings_get_enum (self->settings, "kv-cache-type"));
  gtk_spin_button_set_value (self->slots_spin, g_settings_get_uint (self->settings, "parallel-slots"));
  self->runtime = (Runtime) CLAMP (g_settings_get_enum (self->settings, "runtime"), 0, N_RUNTIMES - 1);
  adw_combo_row_set_selected (self->runtime_row, self->runtime);
  gtk_switch_set_active (self->flash_switch, g_settings_get_boolean (self->settings, "flash-attention"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->flash_switch), self->runtime != RUNTIME_NONE);

  self->unit = g_settings_get_enum (self->settings, "units") == 1 ? HR_UNIT_GIB : HR_UNIT_GB;
  hr_memory_chart_set_unit (self->memory_chart, self->unit);
  hr_memory_chart_set_unit (self->pool_chart, self->unit);

  self->updating_controls = FALSE;
  update_slider_labels (self);
}

/* ------------------------------------------------------------------ */
/* Columns                                                             */

static void
setup_columns (HrModelsPage *self)
{
  /* Fixed widths: a cell whose text changes then never makes the view
   * measure every bound cell of its column again. */
  static const int widths[HR_MODELS_N_COLUMNS] = {
    [HR_MODELS_COLUMN_NAME] = 110,
    [HR_MODELS_COLUMN_PARAMETERS] = 100,
    [HR_MODELS_COLUMN_PRECISION] = 75,
    [HR_MODELS_COLUMN_FILE_SIZE] = 70,
    [HR_MODELS_COLUMN_KV_PER_TOKEN] = 115,
    [HR_MODELS_COLUMN_KV_CACHE] = 75,
    [HR_MODELS_COLUMN_TOTAL] = 75,
    [HR_MODELS_COLUMN_VERDICT] = 120,
    [HR_MODELS_COLUMN_TPS] = 45,
    [HR_MODELS_COLUMN_SOURCE] = 90,
    [HR_MODELS_COLUMN_SPEED] = 75,
  };
  GtkColumnViewColumn *sort_column = NULL;

  for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      g_autoptr(GtkCustomSorter) sorter = NULL;

      g_object_set_data (G_OBJECT (factory), "hr-column", GINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), self);

      column = gtk_column_view_column_new (hr_models_page_column_title (c),
                                           g_steal_pointer (&factory));
      sorter = gtk_custom_sorter_new (compare_rows, GINT_TO_POINTER (c), NULL);
      gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_fixed_width (column, widths[c]);
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
/* GObject                                                             */

static void
hr_models_page_dispose (GObject *object)
{
  HrModelsPage *self = (HrModelsPage *)object;

  g_clear_handle_id (&self->scroll_id, g_source_remove);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  if (self->memory_chart != NULL)
    hr_memory_chart_set_rows (self->memory_chart, NULL);


  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->store);
  g_clear_object (&self->board_names);
  g_clear_object (&self->runtime_names);

  G_OBJECT_CLASS (hr_models_page_parent_class)->dispose (object);
}

static void
hr_models_page_finalize (GObject *object)
{
  HrModelsPage *self = (HrModelsPage *)object;

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->evaluations, g_array_unref);
  g_clear_pointer (&self->spec_ptrs, g_ptr_array_unref);
  g_clear_pointer (&self->catalog, g_ptr_array_unref);
  g_clear_pointer (&self->boards, g_ptr_array_unref);
  g_clear_pointer (&self->user_boards, g_ptr_array_unref);
  g_clear_pointer (&self->measurements, g_ptr_array_unref);
  g_clear_pointer (&self->board, hr_board_free);
  g_clear_pointer (&self->user_boards_path, g_free);
  g_clear_pointer (&self->user_boards_problem, g_free);
  g_clear_pointer (&self->search_folded, g_free);
  g_clear_pointer (&self->calibration_text, g_free);
  g_clear_pointer (&self->server_version, g_free);

  G_OBJECT_CLASS (hr_models_page_parent_class)->finalize (object);
}

static void
hr_models_page_class_init (HrModelsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_models_page_dispose;
  object_class->finalize = hr_models_page_finalize;

  g_type_ensure (HR_TYPE_MEMORY_CHART);
  g_type_ensure (HR_TYPE_EXPLAIN_PANEL);
  g_type_ensure (HR_TYPE_BOARDS_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/hr-models-page.ui");
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, flap);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, board_row);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, editor_row);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, pool_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, resident_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, reserve_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, bandwidth_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, reply_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, stage_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, prefill_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, save_button);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, revert_button);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, board_summary);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, precision_scale);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, context_scale);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, precision_value);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, context_value);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, kv_row);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, slots_spin);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, memory_chart);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, pool_chart);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, explain_panel);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, explain_flap);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, runtime_row);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, pool_note);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, flash_switch);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, boards_view);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_revert_clicked);
}

/* A spin button at the end of a row is named, for a screen reader, by the
 * row's title (without its mnemonic underscore). */
static void
label_spin_by_row (GtkSpinButton *spin)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_PREFERENCES_ROW);
  g_autoptr(GString) title = NULL;

  if (row == NULL)
    return;

  title = g_string_new (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  g_string_replace (title, "__", "\x01", 0);
  g_string_replace (title, "_", "", 0);
  g_string_replace (title, "\x01", "_", 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title->str,
                                  -1);
}

static void
hr_models_page_init (HrModelsPage *self)
{
  GtkSpinButton *editor_spins[7];

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->evaluations = g_array_new (FALSE, TRUE, sizeof (HrEvaluation));
  self->spec_ptrs = g_ptr_array_new ();
  self->catalog = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  self->boards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_board_free);
  self->measurements = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);
  self->board_names = gtk_string_list_new (NULL);
  self->runtime_names = gtk_string_list_new (NULL);
  self->search_folded = g_strdup ("");

  self->store = g_list_store_new (HR_TYPE_MODEL_ROW);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  setup_columns (self);
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filter_model)),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->selection, "notify::selected-item",
                    G_CALLBACK (on_selected_item_changed), self);
  g_signal_connect (self->filter_model, "items-changed",
                    G_CALLBACK (on_filter_items_changed), self);
  hr_memory_chart_set_rows (self->memory_chart, G_LIST_MODEL (self->sort_model));

  adw_combo_row_set_model (self->board_row, G_LIST_MODEL (self->board_names));
  adw_combo_row_set_model (self->runtime_row, G_LIST_MODEL (self->runtime_names));
  update_runtime_names (self);

  setup_precision_scale (self);
  setup_context_scale (self);
  load_controls_from_settings (self);

  g_signal_connect (self->board_row, "notify::selected", G_CALLBACK (on_board_selected), self);
  g_signal_connect (self->precision_scale, "value-changed", G_CALLBACK (on_precision_changed), self);
  g_signal_connect (self->context_scale, "value-changed", G_CALLBACK (on_context_changed), self);
  g_signal_connect (self->kv_row, "notify::selected", G_CALLBACK (on_kv_changed), self);
  g_signal_connect (self->slots_spin, "value-changed", G_CALLBACK (on_slots_changed), self);
  g_signal_connect (self->runtime_row, "notify::selected", G_CALLBACK (on_runtime_changed), self);
  g_signal_connect (self->flash_switch, "notify::active", G_CALLBACK (on_flash_changed), self);
  g_signal_connect (self->view_stack, "notify::visible-child", G_CALLBACK (on_view_changed), self);
  g_signal_connect (self->settings, "changed::units", G_CALLBACK (on_units_changed), self);

  editor_spins[0] = self->pool_spin;
  editor_spins[1] = self->resident_spin;
  editor_spins[2] = self->reserve_spin;
  editor_spins[3] = self->bandwidth_spin;
  editor_spins[4] = self->reply_spin;
  editor_spins[5] = self->stage_spin;
  editor_spins[6] = self->prefill_spin;
  for (guint i = 0; i < G_N_ELEMENTS (editor_spins); i++)
    {
      g_signal_connect (editor_spins[i], "value-changed", G_CALLBACK (on_editor_changed), self);
      label_spin_by_row (editor_spins[i]);
    }
  label_spin_by_row (self->slots_spin);


  update_count (self);
}

/**
 * hr_models_page_new:
 *
 * Returns: (transfer floating): a new, empty #HrModelsPage; call
 *   hr_models_page_load() to read the catalog, boards and measurements
 */
GtkWidget *
hr_models_page_new (void)
{
  return g_object_new (HR_TYPE_MODELS_PAGE, NULL);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static void
add_problem (GPtrArray  *problems,
             const char *path,
             GError     *error)
{
  /* Translators: a file that could not be read at start: path, then the reason */
  g_autofree char *message = g_strdup_printf (_("Could not read %s: %s. It was left as it is."),
                                              path, error->message);

  g_warning ("%s", message);
  if (problems != NULL)
    g_ptr_array_add (problems, g_steal_pointer (&message));
}

static GPtrArray *
load_user_file (const char  *basename,
                GPtrArray *(*load) (const char *, GError **),
                GPtrArray   *problems,
                char       **out_problem)
{
  g_autofree char *path = hr_data_user_file (basename);
  g_autoptr(GError) error = NULL;
  GPtrArray *result;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_ptr_array_new_with_free_func (g_str_equal (basename, "boards.json")
                                           ? (GDestroyNotify) hr_board_free
                                           : (GDestroyNotify) hr_model_spec_free);

  result = load (path, &error);
  if (result == NULL)
    {
      add_problem (problems, path, error);
      if (out_problem != NULL)
        *out_problem = g_strdup (error->message);
    }

  return result;
}

/**
 * hr_models_page_set_catalog:
 * @self: a #HrModelsPage
 * @specs: (element-type HrModelSpec): the models to list; copied
 *
 * Replaces the list's models (the benchmark and the tests use it to list a
 * catalog of their own) and re-evaluates them on the current board.
 */
void
hr_models_page_set_catalog (HrModelsPage *self,
                            GPtrArray    *specs)
{
  g_autoptr(GPtrArray) new_rows = NULL;

  g_return_if_fail (HR_IS_MODELS_PAGE (self));
  g_return_if_fail (specs != NULL);

  g_ptr_array_set_size (self->catalog, 0);
  for (guint i = 0; i < specs->len; i++)
    g_ptr_array_add (self->catalog, hr_model_spec_copy (g_ptr_array_index (specs, i)));

  new_rows = g_ptr_array_new_full (self->catalog->len, g_object_unref);
  for (guint i = 0; i < self->catalog->len; i++)
    g_ptr_array_add (new_rows, hr_model_row_new (g_ptr_array_index (self->catalog, i)));

  g_ptr_array_set_size (self->rows, 0);
  for (guint i = 0; i < new_rows->len; i++)
    g_ptr_array_add (self->rows, g_object_ref (g_ptr_array_index (new_rows, i)));

  if (self->board != NULL)
    {
      refit (self);
      build_scenario (self);
      for (guint i = 0; i < self->rows->len; i++)
        hr_model_row_evaluate (g_ptr_array_index (self->rows, i), &self->scenario);
    }

  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       new_rows->pdata, new_rows->len);

  if (self->board != NULL)
    {
      reevaluate (self);
      hr_models_page_select_row (self, NULL);
    }
}

/**
 * hr_models_page_add_model:
 * @self: a #HrModelsPage
 * @spec: the model to add (copied); its name is the catalog key and its
 *   origin ("hf:owner/name@sha", "gguf:sha256:...") is kept
 *
 * Adds @spec to the user's catalog file (hr_data_user_file()
 * "catalog.json"), replacing a model of the same name, saved atomically
 * (hr_file_save_atomic()), then to the list, re-evaluated on the current
 * board and selected. Nothing changes when any step fails.
 *
 * Returns: %TRUE when the model was saved and listed; %FALSE with @error
 *   set: %HR_CORE_ERROR_INVALID_DATA when @spec is not a usable model
 *   (hr_model_spec_validate()), or the error of reading the user's catalog
 *   (which is then not saved over) or of writing it.
 */
gboolean
hr_models_page_add_model (HrModelsPage       *self,
                          const HrModelSpec  *spec,
                          GError            **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) user = NULL;
  g_autoptr(GPtrArray) one = NULL;
  g_autoptr(GPtrArray) catalog = NULL;
  HrModelRow *row;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!hr_model_spec_validate (spec, error))
    return FALSE;

  path = hr_data_user_file ("catalog.json");
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      user = hr_catalog_load_file (path, error);
      if (user == NULL)
        {
          g_prefix_error (error, _("Your catalog %s could not be read, so it was not saved over: "), path);
          return FALSE;
        }
    }
  else
    user = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);

  one = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_ptr_array_add (one, hr_model_spec_copy (spec));
  hr_catalog_merge (user, one);
  if (!hr_catalog_save_file (user, path, error))
    return FALSE;

  catalog = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  for (guint i = 0; i < self->catalog->len; i++)
    g_ptr_array_add (catalog, hr_model_spec_copy (g_ptr_array_index (self->catalog, i)));
  hr_catalog_merge (catalog, one);
  hr_models_page_set_catalog (self, catalog);

  row = hr_models_page_find_row (self, spec->name);
  if (row != NULL)
    hr_models_page_select_row (self, row);
  return TRUE;
}

/* The measurement archive: built-in, then the user's. */
static void
load_measurements (HrModelsPage *self,
                   GPtrArray    *problems)
{
  g_autofree char *builtin_measurements = g_build_filename (hr_data_builtin_dir (), "measurements", NULL);
  g_autofree char *user_measurements = hr_data_measurements_dir ();
  const char *measurement_dirs[2] = { builtin_measurements, user_measurements };
  g_autoptr(GError) error = NULL;

  g_ptr_array_set_size (self->measurements, 0);
  for (guint d = 0; d < G_N_ELEMENTS (measurement_dirs); d++)
    {
      g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) found = hr_measurement_archive_load (measurement_dirs[d], errors, &error);

      if (found == NULL)
        {
          add_problem (problems, measurement_dirs[d], error);
          g_clear_error (&error);
          continue;
        }
      for (guint i = 0; i < errors->len; i++)
        {
          if (problems != NULL)
            g_ptr_array_add (problems, g_strdup (g_ptr_array_index (errors, i)));
        }
      for (guint i = 0; i < found->len; i++)
        g_ptr_array_add (self->measurements, g_steal_pointer (&found->pdata[i]));
      g_ptr_array_set_free_func (found, NULL);
    }
}

/**
 * hr_models_page_reload_measurements:
 * @self: a #HrModelsPage
 *
 * Reads the measurement archive again (after a measurement was saved),
 * refits the board's efficiency from it and re-evaluates every row, so a
 * newly measured model shows its rate as measured. An archive file that
 * cannot be read is named in a toast of the window.
 */
void
hr_models_page_reload_measurements (HrModelsPage *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *window;

  g_return_if_fail (HR_IS_MODELS_PAGE (self));

  load_measurements (self, problems);
  window = gtk_widget_get_ancestor (GTK_WIDGET (self), HR_TYPE_WINDOW);
  for (guint i = 0; i < problems->len && window != NULL; i++)
    hr_window_add_toast (HR_WINDOW (window), g_ptr_array_index (problems, i));
  if (self->board == NULL)
    return;
  refit (self);
  reevaluate (self);
}

/**
 * hr_models_page_load:
 * @self: a #HrModelsPage
 * @problems: (element-type utf8) (nullable): where a message is appended
 *   for each file that could not be read
 *
 * Reads the built-in catalog, boards and measurements (hr_data_builtin_dir())
 * and the user's copies (hr_data_user_dir()), which win by name or id. A
 * file that cannot be read is named in @problems and left untouched; the
 * page opens with what could be read, and a boards file that could not be
 * read is never saved over.
 */
void
hr_models_page_load (HrModelsPage *self,
                     GPtrArray    *problems)
{
  g_autofree char *builtin_catalog = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  g_autofree char *builtin_boards = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  g_autofree char *default_board = NULL;
  g_autoptr(GPtrArray) catalog = NULL;
  g_autoptr(GPtrArray) user_catalog = NULL;
  g_autoptr(GPtrArray) boards = NULL;
  g_autoptr(GError) error = NULL;
  guint selected = 0;

  g_return_if_fail (HR_IS_MODELS_PAGE (self));

  /* The catalog */
  catalog = hr_catalog_load_file (builtin_catalog, &error);
  if (catalog == NULL)
    {
      add_problem (problems, builtin_catalog, error);
      g_clear_error (&error);
      catalog = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
    }
  user_catalog = load_user_file ("catalog.json", hr_catalog_load_file, problems, NULL);
  if (user_catalog != NULL)
    hr_catalog_merge (catalog, user_catalog);

  /* The boards */
  boards = hr_boards_load_file (builtin_boards, &error);
  if (boards == NULL)
    {
      add_problem (problems, builtin_boards, error);
      g_clear_error (&error);
      boards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_board_free);
    }
  g_clear_pointer (&self->user_boards, g_ptr_array_unref);
  g_clear_pointer (&self->user_boards_problem, g_free);
  g_free (self->user_boards_path);
  self->user_boards_path = hr_data_user_file ("boards.json");
  self->user_boards = load_user_file ("boards.json", hr_boards_load_file, problems,
                                      &self->user_boards_problem);
  if (self->user_boards != NULL)
    hr_boards_merge (boards, self->user_boards);
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button),
                                 _("Your boards file could not be read, so it is not saved over"));

  if (boards->len == 0)
    g_ptr_array_add (boards, hr_board_new ("none", _("No board")));

  g_ptr_array_unref (self->boards);
  self->boards = g_steal_pointer (&boards);

  /* The measurement archive: built-in, then the user's */
  load_measurements (self, problems);

  /* The board selector */
  default_board = g_settings_get_string (self->settings, "default-board");
  self->updating_controls = TRUE;
  gtk_string_list_splice (self->board_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->board_names)), NULL);
  for (guint i = 0; i < self->boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (self->boards, i);

      gtk_string_list_append (self->board_names, board->name);
      if (g_strcmp0 (board->id, default_board) == 0)
        selected = i;
    }
  adw_combo_row_set_selected (self->board_row, selected);
  self->updating_controls = FALSE;

  g_clear_pointer (&self->board, hr_board_free);
  self->board = hr_board_copy (g_ptr_array_index (self->boards, selected));
  self->board_index = selected;
  load_editor (self);

  hr_models_page_set_catalog (self, catalog);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */

/**
 * hr_models_page_get_boards:
 * @self: a #HrModelsPage
 *
 * Returns: (transfer none) (element-type HrBoard): the boards the selector
 *   offers, built-in merged with the user's
 */
GPtrArray *
hr_models_page_get_boards (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return self->boards;
}

/**
 * hr_models_page_get_scenario:
 * @self: a #HrModelsPage
 *
 * Returns: (transfer none): the scenario the rows were last evaluated under
 */
const HrEvaluationInputs *
hr_models_page_get_scenario (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return &self->scenario;
}

/**
 * hr_models_page_get_rows:
 * @self: a #HrModelsPage
 *
 * Returns: (transfer none): the rows as the table shows them: searched and
 *   sorted
 */
GListModel *
hr_models_page_get_rows (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return G_LIST_MODEL (self->sort_model);
}

/**
 * hr_models_page_find_row:
 * @self: a #HrModelsPage
 * @name: a model name
 *
 * Returns: (transfer none) (nullable): the row of the model named @name,
 *   searched or not
 */
HrModelRow *
hr_models_page_find_row (HrModelsPage *self,
                         const char   *name)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (hr_model_row_get_name (row), name) == 0)
        return row;
    }
  return NULL;
}

/**
 * hr_models_page_describe_inputs:
 * @self: a #HrModelsPage
 *
 * Returns: (transfer full): the inputs in one line, for the title of an
 *   exported file: "Headroom: Jetson Orin Nano Super (jetson-orin-nano-super),
 *   precision as pulled, context 4,096 tokens, KV cache f16, 1 parallel slot"
 */
char *
hr_models_page_describe_inputs (HrModelsPage *self)
{
  g_autofree char *context = NULL;
  g_autofree char *text = NULL;
  const char *precision;
  HrRuntimeEra era;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  if (self->board == NULL)
    return g_strdup (_("Headroom"));

  context = hr_gui_format_context (self->scenario.context_tokens);
  precision = self->scenario.precision ? self->scenario.precision->label : _("as pulled");

  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Headroom: %1$s (%2$s), precision %3$s, context %4$s, "
                                       "KV cache %5$s, %6$u parallel slot",
                                       "Headroom: %1$s (%2$s), precision %3$s, context %4$s, "
                                       "KV cache %5$s, %6$u parallel slots",
                                       self->scenario.parallel_slots),
                          self->board->name, self->board->id, precision, context,
                          hr_gui_kv_cache_type_label (self->scenario.kv_type),
                          self->scenario.parallel_slots);
  if (self->runtime == RUNTIME_NONE)
    return g_steal_pointer (&text);

  era = self->runtime_inputs.era == HR_RUNTIME_ERA_AUTO ?
        hr_runtime_era_for_version (self->runtime_inputs.server_version) : self->runtime_inputs.era;
  /* Translators: the inputs line, then the runtime era and flash attention on/off */
  return g_strdup_printf (_("%1$s, runtime %2$s, flash attention %3$s"), text, hr_runtime_era_label (era),
                          gtk_switch_get_active (self->flash_switch) ? _("on") : _("off"));
}

/**
 * hr_models_page_focus_search:
 * @self: a #HrModelsPage
 *
 * Moves the keyboard focus to the search entry.
 */
void
hr_models_page_focus_search (HrModelsPage *self)
{
  g_return_if_fail (HR_IS_MODELS_PAGE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* ------------------------------------------------------------------ */
/* Export                                                              */

#define EXPORT_WIDTH 960

static GskRenderer *
window_renderer (HrModelsPage *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));

  if (native != NULL && gtk_widget_get_realized (GTK_WIDGET (native)))
    return gtk_native_get_renderer (native);
  return NULL;
}

/**
 * hr_models_page_export_png:
 * @self: a #HrModelsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the memory chart as a PNG, 960 pixels wide, with the inputs as its
 * heading and in its Title text chunk and the chart's description in its
 * Description chunk.
 *
 * Returns: %TRUE on success; errors as hr_export_png()
 */
gboolean
hr_models_page_export_png (HrModelsPage  *self,
                           const char    *path,
                           GError       **error)
{
  g_autofree char *title = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  int height;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);

  title = hr_models_page_describe_inputs (self);
  height = hr_memory_chart_get_export_height (self->memory_chart, EXPORT_WIDTH, title);
  node = hr_memory_chart_render (self->memory_chart, EXPORT_WIDTH, height, title);

  return hr_export_png (node, window_renderer (self), EXPORT_WIDTH, height, path, title,
                        hr_memory_chart_get_description (self->memory_chart), error);
}

/**
 * hr_models_page_export_svg:
 * @self: a #HrModelsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the memory chart as SVG with the inputs as its heading and its
 * &lt;title&gt;, and the chart's description as its &lt;desc&gt;.
 *
 * Returns: %TRUE on success; errors as hr_export_svg()
 */
gboolean
hr_models_page_export_svg (HrModelsPage  *self,
                           const char    *path,
                           GError       **error)
{
  g_autofree char *title = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  int height;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);

  title = hr_models_page_describe_inputs (self);
  height = hr_memory_chart_get_export_height (self->memory_chart, EXPORT_WIDTH, title);
  node = hr_memory_chart_render (self->memory_chart, EXPORT_WIDTH, height, title);

  return hr_export_svg (node, EXPORT_WIDTH, height, path, title,
                        hr_memory_chart_get_description (self->memory_chart), error);
}

/**
 * hr_models_page_export_csv:
 * @self: a #HrModelsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the table as CSV (RFC 4180, UTF-8): a first line "# " and the
 * inputs, a header of the column titles, then one line per row in the
 * table's order (searched and sorted) with the text each cell shows,
 * followed by the exact bytes (weights, KV cache, total, margin) and whether
 * the row is recommended or past its context limit. While the Boards view
 * shows, writes its matrix instead (hr_boards_view_to_csv(): one line per
 * model and board, the inputs, runtime included, in the "# " line).
 *
 * Returns: %TRUE on success; a #G_FILE_ERROR from hr_file_save_atomic()
 */
gboolean
hr_models_page_export_csv (HrModelsPage  *self,
                           const char    *path,
                           GError       **error)
{
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autofree char *title = NULL;
  GListModel *model;
  guint n;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "boards") == 0)
    {
      g_autofree char *boards_csv = hr_boards_view_to_csv (self->boards_view);

      return hr_file_save_atomic (path, boards_csv, strlen (boards_csv), error);
    }

  title = hr_models_page_describe_inputs (self);
  g_string_append (csv, "# ");
  g_string_append (csv, title);
  g_string_append (csv, "\r\n");

  for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
    {
      hr_export_csv_field (csv, hr_models_page_column_title (c));
      g_string_append_c (csv, ',');
    }
  hr_export_csv_field (csv, _("Weights (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("KV cache (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Total (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Margin (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Recommended"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Past context limit"));
  g_string_append (csv, "\r\n");

  model = G_LIST_MODEL (self->sort_model);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (model, i);
      const HrEvaluation *e = hr_model_row_get_evaluation (row);
      char number[32];

      for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
        {
          g_autofree char *text = hr_models_page_cell_text (self, row, c);

          hr_export_csv_field (csv, text);
          g_string_append_c (csv, ',');
        }
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->footprint.weights);
      g_string_append_printf (csv, "%s,", number);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->footprint.kv_cache);
      g_string_append_printf (csv, "%s,", number);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->footprint.total);
      g_string_append_printf (csv, "%s,", number);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->margin_bytes);
      g_string_append_printf (csv, "%s,", number);
      g_string_append (csv, hr_model_row_get_recommended (row) ? "yes," : "no,");
      g_string_append (csv, e->past_context_limit ? "yes" : "no");
      g_string_append (csv, "\r\n");
    }

  return hr_file_save_atomic (path, csv->str, csv->len, error);
}

/* Accessors for the window and the tests */

/** hr_models_page_get_pool_note: @self: a page. Returns: (transfer none): the unified-memory note under the pool column */
GtkLabel *
hr_models_page_get_pool_note (HrModelsPage *self)
{
  return self->pool_note;
}

/** hr_models_page_get_runtime_row: @self: a page. Returns: (transfer none): the Runtime control */
AdwComboRow *
hr_models_page_get_runtime_row (HrModelsPage *self)
{
  return self->runtime_row;
}

/** hr_models_page_get_flash_switch: @self: a page. Returns: (transfer none): the flash attention switch */
GtkSwitch *
hr_models_page_get_flash_switch (HrModelsPage *self)
{
  return self->flash_switch;
}

/** hr_models_page_get_view_stack: @self: a page. Returns: (transfer none): the "models" / "boards" stack */
GtkStack *
hr_models_page_get_view_stack (HrModelsPage *self)
{
  return self->view_stack;
}

/** hr_models_page_get_boards_view: @self: a page. Returns: (transfer none): the Boards view */
HrBoardsView *
hr_models_page_get_boards_view (HrModelsPage *self)
{
  return self->boards_view;
}

/**
 * hr_models_page_get_calibration_text:
 * @self: a page
 *
 * Returns: (transfer none) (nullable): what the board's learned overhead
 *   rests on (hr_calibration_describe()), or %NULL with no runtime selected
 */
const char *
hr_models_page_get_calibration_text (HrModelsPage *self)
{
  return self->calibration_text;
}

/** hr_models_page_get_flap: @self: a page. Returns: (transfer none): the sidebar's flap */
AdwFlap *
hr_models_page_get_flap (HrModelsPage *self)
{
  return self->flap;
}

/** hr_models_page_get_explain_flap: @self: a page. Returns: (transfer none): the explain panel's flap */
AdwFlap *
hr_models_page_get_explain_flap (HrModelsPage *self)
{
  return self->explain_flap;
}

/** hr_models_page_get_context_scale: @self: a page. Returns: (transfer none): the context slider (log2 of tokens, 9..17) */
GtkRange *
hr_models_page_get_context_scale (HrModelsPage *self)
{
  return GTK_RANGE (self->context_scale);
}

/** hr_models_page_get_precision_scale: @self: a page. Returns: (transfer none): the precision slider (0 = as pulled) */
GtkRange *
hr_models_page_get_precision_scale (HrModelsPage *self)
{
  return GTK_RANGE (self->precision_scale);
}

/** hr_models_page_get_kv_row: @self: a page. Returns: (transfer none): the KV cache type row (0 f16, 1 q8_0, 2 q4_0) */
AdwComboRow *
hr_models_page_get_kv_row (HrModelsPage *self)
{
  return self->kv_row;
}

/** hr_models_page_get_board_row: @self: a page. Returns: (transfer none): the board selector */
AdwComboRow *
hr_models_page_get_board_row (HrModelsPage *self)
{
  return self->board_row;
}

/** hr_models_page_get_slots_spin: @self: a page. Returns: (transfer none): the parallel slots spin button */
GtkSpinButton *
hr_models_page_get_slots_spin (HrModelsPage *self)
{
  return self->slots_spin;
}

/** hr_models_page_get_search_entry: @self: a page. Returns: (transfer none): the search entry */
GtkEditable *
hr_models_page_get_search_entry (HrModelsPage *self)
{
  return GTK_EDITABLE (self->search_entry);
}

/** hr_models_page_get_column_view: @self: a page. Returns: (transfer none): the catalog table */
GtkColumnView *
hr_models_page_get_column_view (HrModelsPage *self)
{
  return self->column_view;
}

/** hr_models_page_get_memory_chart: @self: a page. Returns: (transfer none): the per-model chart */
HrMemoryChart *
hr_models_page_get_memory_chart (HrModelsPage *self)
{
  return self->memory_chart;
}

/** hr_models_page_get_pool_chart: @self: a page. Returns: (transfer none): the pool column chart */
HrMemoryChart *
hr_models_page_get_pool_chart (HrModelsPage *self)
{
  return self->pool_chart;
}

/** hr_models_page_get_explain_panel: @self: a page. Returns: (transfer none): the explain panel */
HrExplainPanel *
hr_models_page_get_explain_panel (HrModelsPage *self)
{
  return self->explain_panel;
}
