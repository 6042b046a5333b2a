/* hr-memory-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's widget: colours from the theme, measuring, snapshot,
 * the rows it follows, its properties and API, and export.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-gui-enums.h"
#include "hr-memory-chart-private.h"
#include "hr-pool.h"

G_DEFINE_FINAL_TYPE (HrMemoryChart, hr_memory_chart, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODE,
  PROP_UNIT,
  PROP_SELECTED_ONLY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Colours                                                             */

static void
lookup_color (GtkStyleContext *context,
              const char      *name,
              const char      *fallback_name,
              const char      *fallback_spec,
              GdkRGBA         *out)
{
  if (gtk_style_context_lookup_color (context, name, out))
    return;
  if (fallback_name != NULL && gtk_style_context_lookup_color (context, fallback_name, out))
    return;
  gdk_rgba_parse (out, fallback_spec);
}

static void
load_colors (HrMemoryChart *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  Colors *c = &self->colors;

  /* Named colours of libadwaita 1.2 and of ui/style.css (style-dark.css). */
  lookup_color (context, "hr_weights_color", "blue_3", "#3584e4", &c->seg[SEG_WEIGHTS]);
  lookup_color (context, "hr_kv_color", "purple_2", "#c061cb", &c->seg[SEG_KV_CACHE]);
  lookup_color (context, "hr_overhead_color", "orange_3", "#ff7800", &c->seg[SEG_OVERHEAD]);
  lookup_color (context, "hr_learned_color", "brown_2", "#b5835a", &c->seg[SEG_LEARNED]);
  lookup_color (context, "hr_compute_color", "orange_3", "#ff7800", &c->seg[SEG_COMPUTE]);
  lookup_color (context, "hr_vram_color", "blue_5", "#1a5fb4", &c->seg[SEG_VRAM]);
  lookup_color (context, "hr_host_color", "yellow_4", "#f5c211", &c->seg[SEG_HOST]);
  lookup_color (context, "hr_resident_color", "light_5", "#9a9996", &c->seg[SEG_RESIDENT]);
  lookup_color (context, "hr_reserve_color", "light_3", "#deddda", &c->seg[SEG_RESERVE]);
  lookup_color (context, "hr_free_color", "success_color", "#26a269", &c->seg[SEG_FREE]);
  lookup_color (context, "success_color", NULL, "#1b8553", &c->seg[SEG_LINE_BUDGET]);
  lookup_color (context, "warning_color", NULL, "#9c6e03", &c->seg[SEG_LINE_HEADROOM]);
  lookup_color (context, "error_color", NULL, "#c01c28", &c->seg[SEG_LINE_POOL]);
  lookup_color (context, "window_fg_color", NULL, "rgba(0,0,0,0.8)", &c->fg);
  lookup_color (context, "window_bg_color", NULL, "#fafafa", &c->bg);
  lookup_color (context, "accent_bg_color", NULL, "#3584e4", &c->selection);

  c->dim_fg = c->fg;
  c->dim_fg.alpha *= 0.6f;
  c->grid = c->fg;
  c->grid.alpha *= 0.12f;
  c->selection.alpha = 0.16f;
  c->hover = c->fg;
  c->hover.alpha = 0.18f;
}

/* ------------------------------------------------------------------ */
/* GtkWidget                                                           */

static void
hr_memory_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);

  self->in_view = TRUE;
  _hr_memory_chart_draw_chart (self, snapshot, self->hits,
                               gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  self->in_view = FALSE;
}

static gboolean
resize_for_page (gpointer user_data)
{
  HrMemoryChart *self = user_data;

  self->page_resize_id = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

/* The view's width changed: the scrolled window sets it while it is
 * allocated, when a resize cannot be queued, so the new measure (the
 * legend's lines in the new width) comes from an idle, and only when the
 * last measure flowed the legend in another width. */
static void
on_page_size (HrMemoryChart *self)
{
  if (self->page_resize_id != 0 ||
      gtk_adjustment_get_page_size (self->hadjustment) == self->measured_page)
    return;
  self->page_resize_id = g_idle_add (resize_for_page, self);
}

/* In a scrolled window, the models chart keeps its legend at the top of
 * what is in view (hr-memory-chart-layout.c): redraw when it scrolls. */
static void
hr_memory_chart_root (GtkWidget *widget)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);
  GtkWidget *scrolled;

  GTK_WIDGET_CLASS (hr_memory_chart_parent_class)->root (widget);

  scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled == NULL)
    return;
  self->vadjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)));
  self->vadjustment_id = g_signal_connect_swapped (self->vadjustment, "value-changed",
                                                   G_CALLBACK (gtk_widget_queue_draw), self);
  /* Sideways the legend follows the view too, and flows in its width: a
   * new width of the view can take the legend more lines. */
  self->hadjustment = g_object_ref (gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scrolled)));
  self->hadjustment_value_id = g_signal_connect_swapped (self->hadjustment, "value-changed",
                                                         G_CALLBACK (gtk_widget_queue_draw), self);
  self->hadjustment_page_id = g_signal_connect_swapped (self->hadjustment, "notify::page-size",
                                                        G_CALLBACK (on_page_size), self);
}

static void
hr_memory_chart_unroot (GtkWidget *widget)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);

  if (self->vadjustment != NULL)
    g_clear_signal_handler (&self->vadjustment_id, self->vadjustment);
  g_clear_object (&self->vadjustment);
  if (self->hadjustment != NULL)
    {
      g_clear_signal_handler (&self->hadjustment_value_id, self->hadjustment);
      g_clear_signal_handler (&self->hadjustment_page_id, self->hadjustment);
    }
  g_clear_object (&self->hadjustment);
  g_clear_handle_id (&self->page_resize_id, g_source_remove);

  GTK_WIDGET_CLASS (hr_memory_chart_parent_class)->unroot (widget);
}

static void
hr_memory_chart_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  _hr_memory_chart_allocate_columns (HR_MEMORY_CHART (widget), width, height);
}

static void
hr_memory_chart_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);
  gboolean pool = self->mode == HR_MEMORY_CHART_MODE_POOL;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* The legend's words set the width: larger with the text (Ctrl+plus,
       * the presentation view), against the 11 pt the sizes were set for. */
      const PangoFontDescription *font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
      double text_scale = MAX (1.0, pango_font_description_get_size (font) / (11.0 * PANGO_SCALE));

      *minimum = (int) ((pool ? 180 : 200) * text_scale);
      *natural = (int) ((pool ? 200 : 380) * text_scale);
    }
  else
    {
      double width = for_size > 0 ? for_size : (pool ? 240 : 520);
      double height;

      self->in_view = TRUE;
      height = _hr_memory_chart_draw_chart (self, NULL, NULL, width, 0);
      self->in_view = FALSE;
      self->measured_page = self->hadjustment != NULL ? gtk_adjustment_get_page_size (self->hadjustment) : 0;

      *minimum = *natural = (int) ceil (height);
    }
}

/* The pool column's legend wraps its long names, and the models chart's
 * legend and its "The first N of M models" note flow in the width it gets
 * (its legend in the part in view): the height of either follows the
 * width. */
static GtkSizeRequestMode
hr_memory_chart_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
hr_memory_chart_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);

  GTK_WIDGET_CLASS (hr_memory_chart_parent_class)->css_changed (widget, change);

  load_colors (self);
  g_hash_table_remove_all (self->layouts);
  gtk_widget_queue_resize (widget);
}

/* ------------------------------------------------------------------ */
/* The list                                                            */

static void
collect_bars (HrMemoryChart *self)
{
  guint n;

  g_ptr_array_set_size (self->bars, 0);
  self->n_rows = 0;

  if (self->rows == NULL || self->mode != HR_MEMORY_CHART_MODE_MODELS)
    return;

  if (self->selected_only)
    {
      /* The presentation view: the selected model's bar alone, no count of
       * the rows left out under it. */
      if (self->selected != NULL)
        g_ptr_array_add (self->bars, g_object_ref (self->selected));
      self->n_rows = self->bars->len;
      return;
    }

  self->n_rows = g_list_model_get_n_items (self->rows);
  n = MIN (self->n_rows, HR_MEMORY_CHART_MAX_BARS);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (self->bars, g_list_model_get_item (self->rows, i));
}

static void
on_items_changed (GListModel    *model,
                  guint          position,
                  guint          removed,
                  guint          added,
                  HrMemoryChart *self)
{
  /* Only the first rows are drawn: later changes move nothing on screen,
   * except the count under the chart. */
  if (position >= HR_MEMORY_CHART_MAX_BARS && removed == added && !self->selected_only)
    return;

  hr_memory_chart_update (self);
}

/**
 * hr_memory_chart_update:
 * @self: a #HrMemoryChart
 *
 * The rows' evaluations changed (a slider moved): re-reads the first rows of
 * the list, rewrites the accessible description and redraws.
 */
void
hr_memory_chart_update (HrMemoryChart *self)
{
  guint bars_before;
  gboolean truncated_before;

  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  bars_before = self->bars->len;
  truncated_before = self->n_rows > self->bars->len;

  collect_bars (self);
  _hr_memory_chart_refresh_columns (self);
  _hr_memory_chart_update_description (self);

  /* The height depends on the number of bars (and the note under them),
   * not on their figures: a slider step only needs a redraw. */
  if (bars_before == self->bars->len && truncated_before == (self->n_rows > self->bars->len))
    gtk_widget_queue_draw (GTK_WIDGET (self));
  else
    gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_memory_chart_dispose (GObject *object)
{
  HrMemoryChart *self = (HrMemoryChart *)object;

  if (self->rows != NULL)
    g_clear_signal_handler (&self->items_changed_id, self->rows);
  g_clear_object (&self->rows);
  g_clear_object (&self->selected);
  g_clear_object (&self->followed);
  if (self->bars != NULL)
    g_ptr_array_set_size (self->bars, 0);
  if (self->column_widgets != NULL)
    {
      self->n_columns = 0;
      for (guint i = 0; i < self->column_widgets->len; i++)
        gtk_widget_unparent (g_ptr_array_index (self->column_widgets, i));
      g_ptr_array_set_size (self->column_widgets, 0);
    }

  /* A disposed chart describes nothing more. */
  g_clear_handle_id (&self->description_id, g_source_remove);

  G_OBJECT_CLASS (hr_memory_chart_parent_class)->dispose (object);
}

static void
hr_memory_chart_finalize (GObject *object)
{
  HrMemoryChart *self = (HrMemoryChart *)object;

  g_clear_pointer (&self->bars, g_ptr_array_unref);
  g_clear_pointer (&self->column_widgets, g_ptr_array_unref);
  g_clear_pointer (&self->hits, g_array_unref);
  g_clear_pointer (&self->layouts, g_hash_table_unref);
  g_clear_pointer (&self->board, hr_board_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->learned_text, g_free);

  G_OBJECT_CLASS (hr_memory_chart_parent_class)->finalize (object);
}

static void
hr_memory_chart_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrMemoryChart *self = HR_MEMORY_CHART (object);

  switch (prop_id)
    {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_UNIT:
      g_value_set_int (value, self->unit);
      break;
    case PROP_SELECTED_ONLY:
      g_value_set_boolean (value, self->selected_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_memory_chart_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  HrMemoryChart *self = HR_MEMORY_CHART (object);

  switch (prop_id)
    {
    case PROP_MODE:
      hr_memory_chart_set_mode (self, g_value_get_enum (value));
      break;
    case PROP_UNIT:
      hr_memory_chart_set_unit (self, g_value_get_int (value));
      break;
    case PROP_SELECTED_ONLY:
      hr_memory_chart_set_selected_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_memory_chart_class_init (HrMemoryChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_memory_chart_dispose;
  object_class->finalize = hr_memory_chart_finalize;
  object_class->get_property = hr_memory_chart_get_property;
  object_class->set_property = hr_memory_chart_set_property;

  widget_class->snapshot = hr_memory_chart_snapshot;
  widget_class->measure = hr_memory_chart_measure;
  widget_class->size_allocate = hr_memory_chart_size_allocate;
  widget_class->root = hr_memory_chart_root;
  widget_class->unroot = hr_memory_chart_unroot;
  widget_class->get_request_mode = hr_memory_chart_get_request_mode;
  widget_class->css_changed = hr_memory_chart_css_changed;
  widget_class->query_tooltip = _hr_memory_chart_query_tooltip;

  /**
   * HrMemoryChart:mode:
   *
   * "models": one bar per model of the list; "pool": the board's pool as one
   * column for the selected model.
   */
  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL,
                       HR_TYPE_MEMORY_CHART_MODE, HR_MEMORY_CHART_MODE_MODELS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * HrMemoryChart:unit:
   *
   * The axis and labels in GB (0, bytes / 1e9) or GiB (1, bytes / 1024^3).
   */
  properties[PROP_UNIT] =
    g_param_spec_int ("unit", NULL, NULL,
                      HR_UNIT_GB, HR_UNIT_GIB, HR_UNIT_GB,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * HrMemoryChart:selected-only:
   *
   * Models mode: draw the selected model's bar alone, three times as tall
   * (the presentation view, where a room reads one bar and its formula).
   */
  properties[PROP_SELECTED_ONLY] =
    g_param_spec_boolean ("selected-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "memorychart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_memory_chart_init (HrMemoryChart *self)
{
  GtkEventController *motion;

  self->bars = g_ptr_array_new_with_free_func (g_object_unref);
  self->column_widgets = g_ptr_array_new ();
  self->hits = g_array_new (FALSE, FALSE, sizeof (HitRect));
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->hover_bar = -1;
  self->hover_segment = N_SEGS;
  self->bar_height = BAR_HEIGHT_NORMAL;
  self->description = g_strdup ("");

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (_hr_memory_chart_on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (_hr_memory_chart_on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory chart"),
                                  -1);
  load_colors (self);
}

/**
 * hr_memory_chart_new:
 * @mode: models (one bar per model) or pool (one column)
 *
 * Returns: (transfer floating): a new #HrMemoryChart
 */
GtkWidget *
hr_memory_chart_new (HrMemoryChartMode mode)
{
  return g_object_new (HR_TYPE_MEMORY_CHART, "mode", mode, NULL);
}

/**
 * hr_memory_chart_get_mode:
 * @self: a #HrMemoryChart
 *
 * Returns: the chart's mode
 */
HrMemoryChartMode
hr_memory_chart_get_mode (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), HR_MEMORY_CHART_MODE_MODELS);

  return self->mode;
}

/**
 * hr_memory_chart_set_mode:
 * @self: a #HrMemoryChart
 * @mode: models or pool
 *
 * Sets what the chart draws.
 */
void
hr_memory_chart_set_mode (HrMemoryChart     *self,
                          HrMemoryChartMode  mode)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  if (self->mode == mode)
    return;

  self->mode = mode;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  mode == HR_MEMORY_CHART_MODE_POOL ? _("Pool chart")
                                                                    : _("Memory chart"),
                                  -1);
  hr_memory_chart_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

/**
 * hr_memory_chart_get_unit:
 * @self: a #HrMemoryChart
 *
 * Returns: the unit of the axis and the labels
 */
HrUnit
hr_memory_chart_get_unit (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), HR_UNIT_GB);

  return self->unit;
}

/**
 * hr_memory_chart_set_unit:
 * @self: a #HrMemoryChart
 * @unit: GB (decimal) or GiB (binary), the "units" preference
 *
 * Sets the unit the axis, the legend and the description use.
 */
void
hr_memory_chart_set_unit (HrMemoryChart *self,
                          HrUnit         unit)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  if (self->unit == unit)
    return;

  self->unit = unit;
  hr_memory_chart_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

/**
 * hr_memory_chart_set_rows:
 * @self: a #HrMemoryChart
 * @rows: (nullable): a #GListModel of #HrModelRow, in the order to draw
 *
 * Sets the list whose first %HR_MEMORY_CHART_MAX_BARS rows the chart draws
 * in models mode.
 */
void
hr_memory_chart_set_rows (HrMemoryChart *self,
                          GListModel    *rows)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));
  g_return_if_fail (rows == NULL || G_IS_LIST_MODEL (rows));

  if (self->rows == rows)
    return;

  if (self->rows != NULL)
    g_clear_signal_handler (&self->items_changed_id, self->rows);
  g_set_object (&self->rows, rows);
  if (rows != NULL)
    self->items_changed_id = g_signal_connect (rows, "items-changed",
                                               G_CALLBACK (on_items_changed), self);

  hr_memory_chart_update (self);
}

/**
 * hr_memory_chart_set_scenario:
 * @self: a #HrMemoryChart
 * @scenario: the board and settings the rows were evaluated under; the chart
 *   copies the scenario and its board
 *
 * Sets the board (budget, headroom and pool lines) and the inputs the
 * tooltips' formulas name. Call hr_memory_chart_update() after the rows are
 * re-evaluated.
 */
void
hr_memory_chart_set_scenario (HrMemoryChart    *self,
                              const HrEvaluationInputs *scenario)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));
  g_return_if_fail (scenario != NULL && scenario->board != NULL);

  if (self->board == NULL || self->board != scenario->board)
    {
      HrBoard *copy = hr_board_copy (scenario->board);

      g_clear_pointer (&self->board, hr_board_free);
      self->board = copy;
    }
  self->scenario = *scenario;
  self->scenario.board = self->board;
  self->has_scenario = TRUE;
}

/**
 * hr_memory_chart_set_learned_text:
 * @self: a #HrMemoryChart
 * @text: (nullable): what the board's learned overhead rests on
 *   (hr_calibration_describe()); %NULL when no runtime model is selected
 *
 * With a text, the rows' learned overhead (hr_model_row_get_learned_bytes())
 * is drawn as its own "Learned overhead" segment after the overhead, in the
 * legend, the pool column and the tooltips, which give @text. Takes effect
 * at the next hr_memory_chart_update().
 */
void
hr_memory_chart_set_learned_text (HrMemoryChart *self,
                                  const char    *text)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  if (g_strcmp0 (self->learned_text, text) == 0)
    return;
  g_free (self->learned_text);
  self->learned_text = g_strdup (text);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * hr_memory_chart_set_selected:
 * @self: a #HrMemoryChart
 * @row: (nullable): the selected row
 *
 * Highlights @row's bar (models mode) or draws its column (pool mode).
 */
void
hr_memory_chart_set_selected (HrMemoryChart *self,
                              HrModelRow    *row)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  if (g_set_object (&self->selected, row))
    {
      if (self->selected_only)
        {
          hr_memory_chart_update (self);
          return;
        }
      if (self->mode == HR_MEMORY_CHART_MODE_POOL)
        {
          _hr_memory_chart_refresh_columns (self);
          _hr_memory_chart_update_description (self);
        }
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

/**
 * hr_memory_chart_set_selected_only:
 * @self: a #HrMemoryChart
 * @selected_only: %TRUE to draw the selected model's bar alone
 *
 * The presentation view's chart (win.presentation): in models mode, only
 * the selected row's bar, three times as tall, with its segments, the
 * board's lines and the legend; %FALSE draws the list's first rows again.
 */
void
hr_memory_chart_set_selected_only (HrMemoryChart *self,
                                   gboolean       selected_only)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  selected_only = !!selected_only;
  if (self->selected_only == selected_only)
    return;
  self->selected_only = selected_only;
  self->bar_height = selected_only ? BAR_HEIGHT_ALONE : BAR_HEIGHT_NORMAL;
  hr_memory_chart_update (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ONLY]);
}

/**
 * hr_memory_chart_get_selected_only:
 * @self: a #HrMemoryChart
 *
 * Returns: whether the chart draws the selected model's bar alone
 */
gboolean
hr_memory_chart_get_selected_only (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), FALSE);

  return self->selected_only;
}

/**
 * hr_memory_chart_get_description:
 * @self: a #HrMemoryChart
 *
 * The accessible description: every drawn bar's figures in words, e.g.
 * "llama3.2:3b: weights 2.0 GB, KV cache 0.47 GB, total 2.47 GB, fits with
 * 2.63 GB to spare." The chart rebuilds it 200 ms after its bars change,
 * or now, when it is read before that.
 *
 * Returns: (transfer none): the description
 */
const char *
hr_memory_chart_get_description (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), NULL);

  _hr_memory_chart_flush_description (self);
  return self->description;
}

/**
 * hr_memory_chart_get_n_bars:
 * @self: a #HrMemoryChart
 *
 * Returns: how many bars models mode draws (at most %HR_MEMORY_CHART_MAX_BARS)
 */
guint
hr_memory_chart_get_n_bars (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->bars->len;
}

static double
heading_height (HrMemoryChart *self,
                const char    *heading,
                int            width)
{
  g_autoptr(PangoLayout) layout = NULL;
  int h;

  if (heading == NULL)
    return 0;

  layout = g_object_ref (_hr_memory_chart_cached_layout (self, heading, TRUE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE));
  pango_layout_get_pixel_size (layout, NULL, &h);
  return PAD + h;
}

/**
 * hr_memory_chart_get_export_height:
 * @self: a #HrMemoryChart
 * @width: the exported image's width, pixels
 * @heading: (nullable): a heading drawn above the chart
 *
 * Returns: the height, in pixels, hr_memory_chart_render() needs at @width
 */
int
hr_memory_chart_get_export_height (HrMemoryChart *self,
                                   int            width,
                                   const char    *heading)
{
  double height;

  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  height = heading_height (self, heading, width) + _hr_memory_chart_draw_chart (self, NULL, NULL, width, 0);
  if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    height = MAX (height, 320);

  return (int) ceil (height);
}

/**
 * hr_memory_chart_render:
 * @self: a #HrMemoryChart
 * @width: pixels
 * @height: pixels
 * @heading: (nullable): a heading drawn above the chart, such as the inputs
 *   (board, precision, context, KV cache type)
 *
 * Draws the chart the way it is drawn on screen, on the window's background
 * colour, for export as PNG (a GskRenderer) or SVG (gsk_render_node_draw()
 * on a cairo SVG surface).
 *
 * Returns: (transfer full) (nullable): the render node
 */
GskRenderNode *
hr_memory_chart_render (HrMemoryChart *self,
                        int            width,
                        int            height,
                        const char    *heading)
{
  g_autoptr(GtkSnapshot) snapshot = NULL;
  double offset;

  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  snapshot = gtk_snapshot_new ();
  _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, 0, 0, width, height);

  offset = heading_height (self, heading, width);
  if (heading != NULL)
    {
      PangoLayout *layout = _hr_memory_chart_cached_layout (self, heading, TRUE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);

      _hr_memory_chart_draw_layout (snapshot, layout, PAD, PAD, &self->colors.fg);
    }

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (float) offset));
  /* A picture for others: the selection is the person's, not the chart's;
   * each bar says its total and verdict, which the table said on screen. */
  self->exporting = TRUE;
  _hr_memory_chart_draw_chart (self, snapshot, NULL, width, height - offset);
  self->exporting = FALSE;
  gtk_snapshot_restore (snapshot);

  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

static void
on_followed_changed (HrMemoryChart *self)
{
  if (hr_scenario_get_board (self->followed) == NULL)
    return;
  hr_memory_chart_set_scenario (self, hr_scenario_peek_evaluation_inputs (self->followed));
  hr_memory_chart_set_learned_text (self, hr_scenario_get_calibration_text (self->followed));
  hr_memory_chart_update (self);
}

/**
 * hr_memory_chart_follow:
 * @self: a #HrMemoryChart
 * @scenario: the scenario the rows are evaluated under; set once
 *
 * On each #HrScenario::changed, takes @scenario's inputs and learned
 * overhead text and updates (hr_memory_chart_update()). Connect whatever
 * re-evaluates the rows first: the chart draws their cached evaluations.
 */
void
hr_memory_chart_follow (HrMemoryChart *self,
                        HrScenario    *scenario)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));
  g_return_if_fail (self->followed == NULL);

  self->followed = g_object_ref (scenario);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (on_followed_changed), self,
                           G_CONNECT_SWAPPED);
  on_followed_changed (self);
}
