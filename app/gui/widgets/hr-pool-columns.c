/* hr-pool-columns.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's pool mode on a board with host memory, for a model the
 * split placed (hr_offload_predict()): one column per GPU of the board (or
 * the one GPU's VRAM) plus host memory, each bottom up resident, weights,
 * KV cache, compute buffer, reserve and free, with its budget and pool
 * lines; a legend of the parts that stays above the columns when they do
 * not leave it room beside them; and each column's figures in words, under
 * or beside it. Every column is also a child widget with no drawing of its
 * own, laid over the column, whose accessible label is that column's
 * figures, so a screen reader walks the columns one by one.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-memory-chart-private.h"
#include "hr-units.h"

#define COLUMN_GAP 12.0

/* The parts of one memory, bottom up; free is what the rest leaves of @pool. */
static void
fill_column (PoolColumn *c,
             guint64     resident,
             const HrOffloadSide *side,
             guint64     reserve,
             guint64     pool)
{
  guint64 sum = 0;

  c->parts[0] = (PoolPart) { SEG_RESIDENT, resident };
  c->parts[1] = (PoolPart) { SEG_WEIGHTS, side != NULL ? side->weights : 0 };
  c->parts[2] = (PoolPart) { SEG_KV_CACHE, side != NULL ? side->kv_cache : 0 };
  c->parts[3] = (PoolPart) { SEG_COMPUTE, side != NULL ? side->compute : 0 };
  c->parts[4] = (PoolPart) { SEG_RESERVE, reserve };
  for (guint i = 0; i < 5; i++)
    hr_add_u64 (sum, c->parts[i].bytes, &sum);
  c->parts[5] = (PoolPart) { SEG_FREE, sum < pool ? pool - sum : 0 };
  c->pool = pool;
  c->budget_line = pool > reserve ? pool - reserve : 0;
  c->budget = pool > reserve + resident ? pool - reserve - resident : 0;
}

/* The columns of the selected row's split: every GPU of the board in its
 * order (one a GPU Ollama did not give llama-server holds no model), then
 * host memory. */
static guint
make_columns (HrMemoryChart *self,
              const HrOffload *split)
{
  const HrBoard *b = self->board;
  guint n = 0;
  guint n_gpus = b->devices != NULL && split->n_devices > 0 ? b->devices->len : 0;

  if (n_gpus == 0)
    {
      PoolColumn *c = &self->columns[n++];

      memset (c, 0, sizeof *c);
      /* Translators: the pool chart's caption over the GPU's column */
      g_strlcpy (c->caption, _("VRAM"), sizeof c->caption);
      g_strlcpy (c->name, _("VRAM"), sizeof c->name);
      c->layers = split->gpu_layers;
      fill_column (c, b->resident_bytes, &split->vram, b->reserve_bytes, b->pool_bytes);
    }
  for (guint g = 0; g < MIN (n_gpus, HR_DEVICE_MAX); g++)
    {
      const HrDevice *device = g_ptr_array_index (b->devices, g);
      const HrOffloadDevice *d = NULL;
      PoolColumn *c = &self->columns[n++];

      memset (c, 0, sizeof *c);
      for (guint i = 0; i < split->n_devices; i++)
        if (split->devices[i].board_index == g)
          {
            d = &split->devices[i];
            c->binding = split->n_devices > 1 && split->binding_device == (gint) i;
          }
      /* Translators: the pool chart's caption over a GPU's column, "GPU 0" */
      g_snprintf (c->caption, sizeof c->caption, _("GPU %u"), g);
      /* Translators: a GPU in words, "GPU 0 NVIDIA GeForce RTX 3090" */
      g_snprintf (c->name, sizeof c->name, _("GPU %1$u %2$s"), g, device->name);
      c->layers = d != NULL ? d->layers : 0;
      fill_column (c, device->resident_bytes, d != NULL ? &d->side : NULL, device->reserve_bytes,
                   device->memory_bytes);
    }
  {
    PoolColumn *c = &self->columns[n++];

    memset (c, 0, sizeof *c);
    c->host = TRUE;
    /* Translators: the pool chart's caption over host memory's column */
    g_strlcpy (c->caption, _("Host"), sizeof c->caption);
    g_strlcpy (c->name, _("host memory"), sizeof c->name);
    c->layers = split->total_layers > split->gpu_layers ? split->total_layers - split->gpu_layers : 0;
    fill_column (c, b->host_resident_bytes, &split->host, b->host_reserve_bytes, b->host_pool_bytes);
  }
  return n;
}

/**
 * _hr_memory_chart_column_text:
 * @self: a chart with columns (n_columns > 0)
 * @column: one of them
 *
 * Returns: (transfer full): the column's figures in words, its accessible
 *   label: "GPU 1 NVIDIA GeForce RTX 3090, full first: 40 layers; weights
 *   19.54 GB, KV cache 1.22 GB, compute buffer 0.3 GB, resident 0.5 GB,
 *   reserve 0.5 GB, free 2.48 GB of 25.77 GB"
 */
char *
_hr_memory_chart_column_text (HrMemoryChart *self,
                              guint          column)
{
  const PoolColumn *c = &self->columns[column];
  g_autofree char *weights = hr_gui_format_size (c->parts[1].bytes, self->unit);
  g_autofree char *kv = hr_gui_format_size (c->parts[2].bytes, self->unit);
  g_autofree char *compute = hr_gui_format_size (c->parts[3].bytes, self->unit);
  g_autofree char *resident = hr_gui_format_size (c->parts[0].bytes, self->unit);
  g_autofree char *reserve = hr_gui_format_size (c->parts[4].bytes, self->unit);
  g_autofree char *free_bytes = hr_gui_format_size (c->parts[5].bytes, self->unit);
  g_autofree char *pool = hr_gui_format_size (c->pool, self->unit);
  g_autofree char *layers = NULL;
  g_autofree char *name = NULL;

  if (c->host)
    /* Translators: the layers of a split model left to the CPU */
    layers = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u layer on the CPU", "%u layers on the CPU",
                                           c->layers), c->layers);
  else
    /* Translators: the layers of a model on one GPU */
    layers = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u layer", "%u layers", c->layers), c->layers);
  /* Translators: a GPU's name, then that it runs out of memory first */
  name = c->binding ? g_strdup_printf (_("%s, full first"), c->name) : g_strdup (c->name);
  /* Translators: a pool chart column in words: the memory, its layers, then its parts and size */
  return g_strdup_printf (_("%1$s: %2$s; weights %3$s, KV cache %4$s, compute buffer %5$s, resident %6$s, "
                            "reserve %7$s, free %8$s of %9$s"),
                          name, layers, weights, kv, compute, resident, reserve, free_bytes, pool);
}

/* One accessible child per column, labelled with its figures. */
static void
sync_column_widgets (HrMemoryChart *self)
{
  while (self->column_widgets->len > self->n_columns)
    {
      GtkWidget *w = g_ptr_array_steal_index (self->column_widgets, self->column_widgets->len - 1);

      gtk_widget_unparent (w);
    }
  while (self->column_widgets->len < self->n_columns)
    {
      GtkWidget *w = g_object_new (GTK_TYPE_BOX, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG,
                                   "can-target", FALSE, NULL);

      gtk_widget_set_parent (w, GTK_WIDGET (self));
      g_ptr_array_add (self->column_widgets, w);
    }
  for (guint i = 0; i < self->n_columns; i++)
    {
      g_autofree char *text = _hr_memory_chart_column_text (self, i);

      gtk_accessible_update_property (GTK_ACCESSIBLE (g_ptr_array_index (self->column_widgets, i)),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    }
}

/**
 * _hr_memory_chart_refresh_columns:
 * @self: a #HrMemoryChart
 *
 * Places the selected row again (hr_formula_predict_split(), the inputs
 * hr_evaluate() used) and makes the pool's columns and their accessible
 * children; none when the pool is not split. Call it when the row, its
 * evaluation, the scenario or the unit changed, never while drawing.
 */
void
_hr_memory_chart_refresh_columns (HrMemoryChart *self)
{
  g_autofree HrOffload *split = NULL;

  self->n_columns = 0;
  if (_hr_memory_chart_pool_is_split (self))
    split = hr_formula_predict_split (hr_model_row_get_spec (self->selected), &self->scenario);
  if (split != NULL)
    self->n_columns = make_columns (self, split);
  sync_column_widgets (self);
}

/**
 * _hr_memory_chart_split_part:
 * @self: a chart in pool mode with a split model selected
 * @bar: a column (0 the first GPU, the last host memory)
 * @segment: a segment of that column, or its budget or pool line
 *
 * Returns: the bytes the column draws for @segment (its budget line: the
 *   model's budget there; its pool line: the memory's size)
 */
guint64
_hr_memory_chart_split_part (HrMemoryChart *self,
                             guint          bar,
                             Segment        segment)
{
  const PoolColumn *c;

  if (bar >= self->n_columns)
    return 0;
  c = &self->columns[bar];
  if (segment == SEG_LINE_BUDGET)
    return c->budget;
  if (segment == SEG_LINE_POOL)
    return c->pool;
  for (guint i = 0; i < POOL_COLUMN_PARTS; i++)
    if (c->parts[i].segment == segment)
      return c->parts[i].bytes;
  return 0;
}

/* The columns' width and left edge at @width. */
static double
column_width (HrMemoryChart *self,
              double         width)
{
  double n = MAX (self->n_columns, 1);

  return CLAMP ((width - 2 * PAD - (n - 1) * COLUMN_GAP) / n, 14.0, POOL_COLUMN);
}

/* Whether the legend and the figures go under the columns (no room beside). */
static gboolean
is_narrow (HrMemoryChart *self,
           double         width)
{
  double cw = column_width (self, width);
  double columns = self->n_columns * cw + (self->n_columns - 1) * COLUMN_GAP;

  return width - (PAD + columns + 16) < 220;
}

/**
 * _hr_memory_chart_allocate_columns:
 * @self: a #HrMemoryChart
 * @width: its width
 * @height: its height
 *
 * Lays each column's accessible child over its column (they draw nothing).
 */
void
_hr_memory_chart_allocate_columns (HrMemoryChart *self,
                                   int            width,
                                   int            height)
{
  double cw = column_width (self, width);

  for (guint i = 0; i < self->column_widgets->len; i++)
    {
      GtkWidget *w = g_ptr_array_index (self->column_widgets, i);
      GtkAllocation a = { (int) (PAD + i * (cw + COLUMN_GAP)), 0, MAX (1, (int) cw), MAX (1, height) };

      gtk_widget_size_allocate (w, &a, -1);
    }
}

static void
draw_column (HrMemoryChart   *self,
             GtkSnapshot     *snapshot,
             GArray          *hits,
             const PoolColumn *c,
             guint            bar,
             double           x,
             double           cw,
             double           col_bottom,
             double           scale)
{
  double yy = col_bottom;
  const struct { Segment segment; guint64 bytes; } lines[2] = {
    { SEG_LINE_BUDGET, c->budget_line }, { SEG_LINE_POOL, c->pool },
  };

  for (guint i = 0; i < POOL_COLUMN_PARTS; i++)
    {
      double h = c->parts[i].bytes * scale;

      if (h <= 0)
        continue;
      _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[c->parts[i].segment], x, yy - h,
                                  cw, MAX (1.0, h - (h > 3 ? 1 : 0)));
      if (hits == self->hits && self->hover_bar == (int) bar && self->hover_segment == c->parts[i].segment)
        _hr_memory_chart_draw_rect (snapshot, &self->colors.hover, x, yy - h, cw, MAX (1.0, h - 1));
      _hr_memory_chart_add_hit (hits, x, yy - h, cw, MAX (1.0, h), bar, c->parts[i].segment);
      yy -= h;
    }
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      double py = col_bottom - lines[i].bytes * scale;

      _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[lines[i].segment], x - 3, py - LINE_WIDTH / 2,
                                  cw + 6, LINE_WIDTH);
      _hr_memory_chart_add_hit (hits, x - 3, py - 4, cw + 6, 8, bar, lines[i].segment);
    }
}

/* Each column's figures: its name in bold, then "41 layers · weights
 * 19.95 GB · ..." wrapped to @text_width. Returns the y under them. */
static double
draw_figures (HrMemoryChart *self,
              GtkSnapshot   *snapshot,
              double         x,
              double         y,
              int            text_width)
{
  for (guint i = 0; i < self->n_columns; i++)
    {
      const PoolColumn *c = &self->columns[i];
      g_autofree char *weights = hr_gui_format_size_fixed (c->parts[1].bytes, self->unit);
      g_autofree char *kv = hr_gui_format_size_fixed (c->parts[2].bytes, self->unit);
      g_autofree char *compute = hr_gui_format_size_fixed (c->parts[3].bytes, self->unit);
      g_autofree char *free_bytes = hr_gui_format_size_fixed (c->parts[5].bytes, self->unit);
      g_autofree char *heading = c->binding ? g_strdup_printf (_("%s, full first"), c->name) : g_strdup (c->name);
      g_autofree char *line = NULL;
      PangoLayout *layout;
      int h;

      /* Translators: a pool chart column's figures under its name: layers, weights, KV cache,
         compute buffer, free */
      line = g_strdup_printf (c->host ? _("%1$u layers on the CPU · weights %2$s · KV %3$s · compute %4$s · free %5$s")
                                      : _("%1$u layers · weights %2$s · KV %3$s · compute %4$s · free %5$s"),
                              c->layers, weights, kv, compute, free_bytes);
      layout = _hr_memory_chart_cached_layout (self, heading, TRUE, text_width, PANGO_ELLIPSIZE_END);
      _hr_memory_chart_draw_layout (snapshot, layout, x, y,
                                    c->binding ? &self->colors.seg[SEG_LINE_POOL] : &self->colors.fg);
      pango_layout_get_pixel_size (layout, NULL, &h);
      y += h;
      layout = _hr_memory_chart_cached_layout (self, line, FALSE, text_width, PANGO_ELLIPSIZE_NONE);
      _hr_memory_chart_draw_layout (snapshot, layout, x, y, &self->colors.dim_fg);
      pango_layout_get_pixel_size (layout, NULL, &h);
      y += h + 6;
    }
  return y;
}

/**
 * _hr_memory_chart_draw_columns:
 * @self: a chart with columns (n_columns > 0)
 * @snapshot: (nullable): where to draw; %NULL only measures
 * @hits: (nullable): the rectangles drawn, for tooltips
 * @width: the chart's width
 * @height: its height (0 when measuring)
 * @y: the top, under the model's name
 *
 * Draws the legend, the columns on one scale with their captions, and each
 * column's figures. Where the columns leave the legend less than 220 px
 * beside them (a phone's width, or many GPUs), the legend goes above the
 * columns, so it is read before them and never scrolls away under them,
 * and the figures below.
 *
 * Returns: the height used
 */
double
_hr_memory_chart_draw_columns (HrMemoryChart *self,
                               GtkSnapshot   *snapshot,
                               GArray        *hits,
                               double         width,
                               double         height,
                               double         y)
{
  static const Segment legend[] = {
    SEG_WEIGHTS, SEG_KV_CACHE, SEG_COMPUTE, SEG_RESIDENT, SEG_RESERVE, SEG_FREE, SEG_LINE_BUDGET, SEG_LINE_POOL,
  };
  double cw = column_width (self, width);
  double columns_width = self->n_columns * cw + (self->n_columns - 1) * COLUMN_GAP;
  gboolean narrow = is_narrow (self, width);
  double side_x = PAD + columns_width + 16;
  double col_top, col_bottom, scale, scale_max = 0, figures_y;
  int th = _hr_memory_chart_text_height (self);

  if (narrow)
    y += _hr_memory_chart_draw_legend (self, snapshot, PAD, y, width - 2 * PAD, legend, NULL,
                                       G_N_ELEMENTS (legend)) + 12;
  for (guint i = 0; i < self->n_columns; i++)
    {
      guint64 sum = 0;

      for (guint k = 0; k + 1 < POOL_COLUMN_PARTS; k++)
        hr_add_u64 (sum, self->columns[i].parts[k].bytes, &sum);
      scale_max = MAX (scale_max, (double) MAX (sum, self->columns[i].pool));
    }
  col_top = y + th + 4;
  col_bottom = narrow ? col_top + 200 : MAX (height - PAD, col_top + 12 * (th + 4));
  scale = (col_bottom - col_top) / MAX (scale_max, 1.0);

  for (guint i = 0; i < self->n_columns; i++)
    {
      double x = PAD + i * (cw + COLUMN_GAP);
      PangoLayout *caption = _hr_memory_chart_cached_layout (self, self->columns[i].caption, TRUE,
                                                             (int) cw + (int) COLUMN_GAP - 2, PANGO_ELLIPSIZE_END);

      _hr_memory_chart_draw_layout (snapshot, caption, x, y, &self->colors.fg);
      draw_column (self, snapshot, hits, &self->columns[i], i, x, cw, col_bottom, scale);
    }

  if (narrow)
    figures_y = draw_figures (self, snapshot, PAD, col_bottom + 12, (int) MAX (40, width - 2 * PAD));
  else
    {
      double legend_h = _hr_memory_chart_draw_legend (self, snapshot, side_x, y, width - side_x - PAD, legend,
                                                      NULL, G_N_ELEMENTS (legend));

      figures_y = draw_figures (self, snapshot, side_x, y + legend_h + 12, (int) MAX (40, width - side_x - PAD));
    }
  return MAX (col_bottom, figures_y) + PAD;
}
