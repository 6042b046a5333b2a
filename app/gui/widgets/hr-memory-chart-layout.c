/* hr-memory-chart-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's drawing: shaped text, rectangles, the legend and the
 * models mode's bars against the budget, headroom and pool lines.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-memory-chart-private.h"
#include "hr-pool.h"

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* Shaping text is the costly part of a frame: a slider step redraws the
 * same names, ticks and legend, so each layout is made once and kept until
 * the style (the font) changes. */
PangoLayout *
_hr_memory_chart_cached_layout (HrMemoryChart      *self,
                                const char         *text,
                                gboolean            bold,
                                int                 width,
                                PangoEllipsizeMode  ellipsize)
{
  g_autofree char *key = g_strdup_printf ("%d|%d|%d|%s", bold, width, ellipsize, text);
  PangoLayout *layout = g_hash_table_lookup (self->layouts, key);

  if (layout != NULL)
    return layout;

  if (g_hash_table_size (self->layouts) > 2000)
    g_hash_table_remove_all (self->layouts);

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  if (bold)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  if (width > 0)
    {
      pango_layout_set_width (layout, width * PANGO_SCALE);
      if (ellipsize != PANGO_ELLIPSIZE_NONE)
        pango_layout_set_ellipsize (layout, ellipsize);
      else
        pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
    }

  g_hash_table_insert (self->layouts, g_steal_pointer (&key), layout);
  return layout;
}

PangoLayout *
_hr_memory_chart_make_layout (HrMemoryChart *self,
                              const char    *text,
                              gboolean       bold)
{
  return g_object_ref (_hr_memory_chart_cached_layout (self, text, bold, -1, PANGO_ELLIPSIZE_NONE));
}

void
_hr_memory_chart_draw_layout (GtkSnapshot   *snapshot,
                              PangoLayout   *layout,
                              double         x,
                              double         y,
                              const GdkRGBA *color)
{
  if (snapshot == NULL)
    return;

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

void
_hr_memory_chart_draw_rect (GtkSnapshot   *snapshot,
                            const GdkRGBA *color,
                            double         x,
                            double         y,
                            double         width,
                            double         height)
{
  if (snapshot == NULL || width <= 0 || height <= 0)
    return;

  gtk_snapshot_append_color (snapshot, color,
                             &GRAPHENE_RECT_INIT ((float) x, (float) y,
                                                  (float) width, (float) height));
}

void
_hr_memory_chart_add_hit (GArray  *hits,
                          double   x,
                          double   y,
                          double   width,
                          double   height,
                          guint    bar,
                          Segment  segment)
{
  HitRect hit;

  if (hits == NULL || width <= 0 || height <= 0)
    return;

  graphene_rect_init (&hit.rect, (float) x, (float) y, (float) width, (float) height);
  hit.bar = bar;
  hit.segment = segment;
  g_array_append_val (hits, hit);
}

/* What an exported bar says after it: "3.87 GB · fits 1.23 GB", the
 * total and the verdict as the table's cells say them. */
static char *
bar_label (HrMemoryChart *self,
           HrModelRow    *row)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (row);
  g_autofree char *total = hr_gui_format_size_fixed (e->footprint.total, self->unit);
  g_autofree char *verdict = hr_gui_format_evaluation_verdict (e, self->unit);

  /* Translators: after an exported chart's bar: the total, then the verdict */
  return g_strdup_printf (_("%1$s · %2$s"), total, verdict);
}

static double
to_unit (HrMemoryChart *self,
         guint64        bytes)
{
  return self->unit == HR_UNIT_GIB ? hr_bytes_to_gib (bytes) : hr_bytes_to_gb (bytes);
}

/* A legend entry: a swatch (or a line) and "Budget 5.1 GB". Flows into
 * lines no wider than @width; returns the height used. */
double
_hr_memory_chart_draw_legend (HrMemoryChart *self,
                              GtkSnapshot   *snapshot,
                              double         x0,
                              double         y0,
                              double         width,
                              const Segment *segments,
                              const guint64 *values,
                              guint          n)
{
  double x = x0;
  double y = y0;
  double line_height = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PangoLayout) layout = NULL;
      g_autofree char *text = NULL;
      int tw, th, th_line;
      double item_width;

      if (values != NULL && values[i] != G_MAXUINT64)
        {
          g_autofree char *size = hr_gui_format_size_fixed (values[i], self->unit);

          /* Translators: a chart legend entry, "Budget 5.1 GB" */
          text = g_strdup_printf (_("%1$s %2$s"), _hr_memory_chart_segment_label (segments[i]), size);
        }
      else
        text = g_strdup (_hr_memory_chart_segment_label (segments[i]));

      layout = _hr_memory_chart_make_layout (self, text, FALSE);
      pango_layout_get_pixel_size (layout, &tw, &th);
      th_line = th;
      /* An entry wider than the legend (a phone's narrow view) wraps
       * beside its swatch rather than run past the edge. */
      if (SWATCH + 6 + tw > width && width > SWATCH + 6 + 4 * SWATCH)
        {
          g_object_unref (layout);
          layout = g_object_ref (_hr_memory_chart_cached_layout (self, text, FALSE, (int) (width - SWATCH - 6),
                                                                 PANGO_ELLIPSIZE_NONE));
          pango_layout_get_pixel_size (layout, &tw, &th);
        }
      item_width = SWATCH + 6 + tw;

      if (x > x0 && x + item_width > x0 + width)
        {
          x = x0;
          y += line_height + 4;
          line_height = 0;
        }

      if (segments[i] >= SEG_LINE_BUDGET)
        _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segments[i]],
                                    x + SWATCH / 2 - LINE_WIDTH / 2, y + (th_line - SWATCH) / 2.0, LINE_WIDTH, SWATCH);
      else
        _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segments[i]],
                                    x, y + (th_line - SWATCH) / 2.0, SWATCH, SWATCH);
      _hr_memory_chart_draw_layout (snapshot, layout, x + SWATCH + 6, y, &self->colors.fg);

      x += item_width + LEGEND_GAP;
      line_height = MAX (line_height, th);
    }

  return y + line_height - y0;
}

/* 1, 2 or 5 x 10^k: a tick step giving about @target ticks over @range. */
static double
nice_step (double range,
           double target)
{
  double raw, magnitude, fraction;

  if (!(range > 0) || !(target >= 1))
    return 1.0;

  raw = range / target;
  magnitude = pow (10.0, floor (log10 (raw)));
  fraction = raw / magnitude;

  if (fraction <= 1.0)
    return magnitude;
  if (fraction <= 2.0)
    return 2.0 * magnitude;
  if (fraction <= 5.0)
    return 5.0 * magnitude;
  return 10.0 * magnitude;
}

int
_hr_memory_chart_text_height (HrMemoryChart *self)
{
  g_autoptr(PangoLayout) layout = _hr_memory_chart_make_layout (self, "0", FALSE);
  int th;

  pango_layout_get_pixel_size (layout, NULL, &th);
  return th;
}

/* The footprint's overhead without the learned part, and the learned
 * part drawn on its own (a negative learned overhead has already been
 * taken off the overhead: nothing to draw). */
guint64
_hr_memory_chart_learned_part (HrModelRow *row)
{
  gint64 learned = hr_model_row_get_learned_bytes (row);

  return learned > 0 ? (guint64) learned : 0;
}

guint64
_hr_memory_chart_overhead_part (HrModelRow *row)
{
  guint64 overhead = hr_model_row_get_evaluation (row)->footprint.overhead;
  guint64 learned = _hr_memory_chart_learned_part (row);

  return overhead > learned ? overhead - learned : 0;
}

/* The pool column's resident band: on a unified board it is the OS and
 * the desktop in the model's own memory (hr_pool_layout()). */
const char *
_hr_memory_chart_pool_segment_label (HrMemoryChart *self,
                                     Segment        segment)
{
  if (segment == SEG_RESIDENT && self->board != NULL && self->board->unified)
    {
      HrPoolLayout layout;

      hr_pool_layout (self->board, &layout);
      return layout.bands[HR_POOL_BAND_RESIDENT].label;
    }
  return _hr_memory_chart_segment_label (segment);
}

/* ------------------------------------------------------------------ */
/* Models mode                                                         */

/* The vertical grid and its labels, every @step up to @axis_max. */
static void
draw_grid (HrMemoryChart *self,
           GtkSnapshot   *snapshot,
           double         x0,
           double         scale,
           double         step,
           double         axis_max,
           double         top,
           double         bottom,
           double         width)
{
  for (double v = 0; v <= axis_max + step / 2; v += step)
    {
      double x = x0 + v * scale;
      g_autofree char *tick = hr_gui_format_plain (v);
      g_autofree char *text = NULL;
      g_autoptr(PangoLayout) layout = NULL;
      int tw;

      _hr_memory_chart_draw_rect (snapshot, &self->colors.grid, x - 0.5, top - 4, 1, bottom - top + 8);
      text = v == 0 ? g_strdup ("0")
                    : g_strdup_printf ("%s %s", tick, hr_gui_unit_label (self->unit));
      layout = _hr_memory_chart_make_layout (self, text, FALSE);
      pango_layout_get_pixel_size (layout, &tw, NULL);
      _hr_memory_chart_draw_layout (snapshot, layout, CLAMP (x - tw / 2.0, 0, width - tw), bottom + AXIS_GAP,
                                    &self->colors.dim_fg);
    }
}

/* The budget, headroom and pool lines over the bars. */
/**
 * _hr_memory_chart_board_lines:
 * @self: a chart with a board
 * @out: (out caller-allocates): budget, headroom and pool, bytes
 *
 * The models chart's three lines. On a board whose model is placed across
 * several GPUs (hr_board_is_multi_device() with host memory) they are the
 * sums over its GPUs (hr_device_budget_bytes(), hr_device_headroom_bytes(),
 * the memory), since a model's bar is its bytes on all of them; else the
 * board's own (its one GPU or pool).
 *
 * Returns: %TRUE when the lines are sums over several GPUs
 */
gboolean
_hr_memory_chart_board_lines (HrMemoryChart *self,
                              guint64        out[3])
{
  const HrBoard *board = self->board;

  out[0] = hr_board_budget_bytes (board);
  out[1] = hr_board_headroom_bytes (board);
  out[2] = board->pool_bytes;
  if (!hr_board_is_multi_device (board) || !hr_board_has_host (board))
    return FALSE;
  out[0] = out[1] = out[2] = 0;
  for (guint i = 0; i < board->devices->len; i++)
    {
      const HrDevice *d = g_ptr_array_index (board->devices, i);

      hr_add_u64 (out[0], hr_device_budget_bytes (d), &out[0]);
      hr_add_u64 (out[1], hr_device_headroom_bytes (d), &out[1]);
      hr_add_u64 (out[2], d->memory_bytes, &out[2]);
    }
  return TRUE;
}

static void
draw_board_lines (HrMemoryChart *self,
                  GtkSnapshot   *snapshot,
                  GArray        *hits,
                  const HrBoard *board,
                  double         x0,
                  double         scale,
                  double         top,
                  double         bottom)
{
  guint64 values[3];
  const Segment segs[3] = { SEG_LINE_BUDGET, SEG_LINE_HEADROOM, SEG_LINE_POOL };

  _hr_memory_chart_board_lines (self, values);
  for (guint s = 0; s < 3; s++)
    {
      double x = x0 + to_unit (self, values[s]) * scale;

      _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segs[s]], x - LINE_WIDTH / 2, top - 6,
                                  LINE_WIDTH, bottom - top + 12);
      _hr_memory_chart_add_hit (hits, x - 4, top - 6, 8, bottom - top + 12, 0, segs[s]);
    }
}

/* The models chart's legend: the areas a bar can have, then (with a board)
 * its lines with their sizes. */
typedef struct
{
  Segment  segments[9];
  guint64  values[9];
  guint    n_areas;  /* entries without the board's lines */
  guint    n_all;    /* entries with them */
  gboolean with_board;
} ModelsLegend;

/* The x positions and scale of the models chart's bars. */
typedef struct
{
  double name_width;
  double x0, x1;     /* where bars start and where they are cut short */
  double step, axis_max, scale;
  double top, bottom;
} ModelsAxis;

/* Whether @row is drawn by where it lives (VRAM, then host memory). */
static gboolean
row_is_partial (HrModelRow *row)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (row);

  return e->split && e->verdict == HR_VERDICT_PARTIAL;
}

/* Fills @legend: a partial model's GPU and host parts only when one is
 * drawn, the board's three lines only with a board. */
static void
models_legend_init (HrMemoryChart *self,
                    const HrBoard *board,
                    ModelsLegend  *legend)
{
  gboolean any_partial = FALSE;
  guint n = 0;

  for (guint i = 0; i < self->bars->len && !any_partial; i++)
    any_partial = row_is_partial (g_ptr_array_index (self->bars, i));
  legend->segments[n++] = SEG_WEIGHTS;
  legend->segments[n++] = SEG_KV_CACHE;
  legend->segments[n++] = SEG_OVERHEAD;
  if (self->learned_text != NULL)
    legend->segments[n++] = SEG_LEARNED;
  if (any_partial)
    {
      legend->segments[n++] = SEG_VRAM;
      legend->segments[n++] = SEG_HOST;
    }
  legend->n_areas = n;
  for (guint i = 0; i < G_N_ELEMENTS (legend->values); i++)
    legend->values[i] = G_MAXUINT64;
  legend->with_board = board != NULL;
  if (board != NULL)
    {
      const Segment line_segments[3] = { SEG_LINE_BUDGET, SEG_LINE_HEADROOM, SEG_LINE_POOL };
      guint64 lines[3];

      _hr_memory_chart_board_lines (self, lines);
      for (guint s = 0; s < 3; s++)
        {
          legend->values[n] = lines[s];
          legend->segments[n++] = line_segments[s];
        }
    }
  legend->n_all = n;
}

/* Draws @legend at (@x, @y) in @width; returns the height used. */
static double
models_legend_draw (HrMemoryChart      *self,
                    GtkSnapshot        *snapshot,
                    const ModelsLegend *legend,
                    double              x,
                    double              y,
                    double              width)
{
  return _hr_memory_chart_draw_legend (self, snapshot, x, y, width, legend->segments,
                                       legend->with_board ? legend->values : NULL,
                                       legend->with_board ? legend->n_all : legend->n_areas);
}

/* The widest of the bars' names (40 px to a third of @width) and the
 * largest total, in the chart's unit, returned through @max_value. */
static double
models_name_width (HrMemoryChart *self,
                   double         width,
                   double        *max_value)
{
  double name_width = 0;

  *max_value = 0;
  for (guint i = 0; i < self->bars->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->bars, i);
      /* measured bold, as the selected row's name is drawn, so it is not cut */
      g_autoptr(PangoLayout) layout = _hr_memory_chart_make_layout (self, hr_model_row_get_name (row), TRUE);
      int tw;

      pango_layout_get_pixel_size (layout, &tw, NULL);
      name_width = MAX (name_width, tw);
      *max_value = MAX (*max_value, to_unit (self, hr_model_row_get_evaluation (row)->footprint.total));
    }
  return CLAMP (name_width, 40, MAX (40, width * 0.35));
}

/* The widest "3.87 GB · fits 1.23 GB" an export writes after a bar. */
static int
models_widest_label (HrMemoryChart *self)
{
  int widest = 0;

  for (guint i = 0; i < self->bars->len; i++)
    {
      g_autofree char *label = bar_label (self, g_ptr_array_index (self->bars, i));
      g_autoptr(PangoLayout) layout = _hr_memory_chart_make_layout (self, label, FALSE);
      int tw;

      pango_layout_get_pixel_size (layout, &tw, NULL);
      widest = MAX (widest, tw);
    }
  return widest;
}

/* Lays the bars out in @width from @top: names, where bars start and end,
 * and the axis's step and scale. */
static void
models_axis_init (HrMemoryChart *self,
                  double         width,
                  double         top,
                  ModelsAxis    *axis)
{
  double max_value;
  guint64 lines[3];

  axis->name_width = models_name_width (self, width, &max_value);
  /* The axis ends a little past the pool, or at twice the pool: a bar
   * longer than that is cut short with a break mark, so one huge model does
   * not squeeze the rest against the left edge. */
  _hr_memory_chart_board_lines (self, lines);
  max_value = CLAMP (max_value, to_unit (self, lines[2]), 2 * to_unit (self, lines[2]));

  axis->x0 = PAD + axis->name_width + NAME_GAP;
  axis->x1 = width - PAD - 8;
  /* An export, and the presentation view's one bar, write "3.87 GB · fits
   * 1.23 GB" after each bar: room for the widest. */
  if (self->exporting || self->selected_only)
    axis->x1 -= models_widest_label (self) + 8;
  if (axis->x1 - axis->x0 < 40)
    axis->x1 = axis->x0 + 40;

  axis->step = nice_step (max_value, MAX (2.0, (axis->x1 - axis->x0) / 90.0));
  axis->axis_max = ceil (max_value * 1.02 / axis->step) * axis->step;
  axis->scale = (axis->x1 - axis->x0) / axis->axis_max;
  axis->top = top;
  axis->bottom = top + self->bars->len * (self->bar_height + BAR_GAP) - BAR_GAP;
}

/* Draws bar @i: its selection band, its name, its parts (with their hit
 * areas and hover) and a break mark when cut short. Returns where its
 * part ends, the x an export's label starts at less 6. */
static double
draw_model_bar (HrMemoryChart    *self,
                GtkSnapshot      *snapshot,
                GArray           *hits,
                const ModelsAxis *axis,
                guint             i,
                double            width,
                int               th)
{
  HrModelRow *row = g_ptr_array_index (self->bars, i);
  const HrEvaluation *e = hr_model_row_get_evaluation (row);
  const HrFootprint *f = &e->footprint;
  double by = axis->top + i * (self->bar_height + BAR_GAP);
  double x = axis->x0;
  gboolean partial = row_is_partial (row);
  /* A partial model is drawn by where it lives: VRAM, then host memory. */
  const guint64 parts[4] = { partial ? e->vram_bytes : f->weights, partial ? e->host_bytes : f->kv_cache,
                             partial ? 0 : _hr_memory_chart_overhead_part (row),
                             partial ? 0 : _hr_memory_chart_learned_part (row) };
  const Segment segs[4] = { partial ? SEG_VRAM : SEG_WEIGHTS, partial ? SEG_HOST : SEG_KV_CACHE,
                            SEG_OVERHEAD, SEG_LEARNED };
  gboolean selected = row == self->selected && !self->exporting;
  PangoLayout *layout = _hr_memory_chart_cached_layout (self, hr_model_row_get_name (row), selected,
                                                        (int) axis->name_width, PANGO_ELLIPSIZE_END);

  /* the one bar of the presentation view is not highlighted */
  if (selected && !self->selected_only)
    _hr_memory_chart_draw_rect (snapshot, &self->colors.selection, PAD / 2, by - BAR_GAP / 2,
                                width - PAD, self->bar_height + BAR_GAP);

  _hr_memory_chart_draw_layout (snapshot, layout, PAD, by + (self->bar_height - th) / 2.0, &self->colors.fg);

  for (guint s = 0; s < G_N_ELEMENTS (parts); s++)
    {
      double w = to_unit (self, parts[s]) * axis->scale;

      if (w <= 0 || x >= axis->x1)
        continue;
      w = MIN (w, axis->x1 - x);
      /* Keep a hairline between segments, never below one pixel. */
      _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segs[s]], x, by,
                                  MAX (1.0, w - (w > 3 ? 1 : 0)), self->bar_height);
      if (hits == self->hits && self->hover_bar == (int) i && self->hover_segment == segs[s])
        _hr_memory_chart_draw_rect (snapshot, &self->colors.hover, x, by, MAX (1.0, w - 1), self->bar_height);
      _hr_memory_chart_add_hit (hits, x, by, MAX (1.0, w), self->bar_height, i, segs[s]);
      x += w;
    }

  if (to_unit (self, f->total) * axis->scale > axis->x1 - axis->x0 + 0.5)
    {
      /* The break mark of a bar cut short */
      _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, axis->x1 - 10, by - 1, 3, self->bar_height + 2);
      _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, axis->x1 - 5, by - 1, 3, self->bar_height + 2);
    }
  return MIN (x, axis->x1);
}

/* An export's total and verdict after each bar (at @label_x), over the
 * board's lines on the chart's background so a line never crosses the
 * text. */
static void
draw_export_labels (HrMemoryChart    *self,
                    GtkSnapshot      *snapshot,
                    const ModelsAxis *axis,
                    GArray           *label_x,
                    int               th)
{
  for (guint i = 0; i < label_x->len; i++)
    {
      g_autofree char *label = bar_label (self, g_ptr_array_index (self->bars, i));
      g_autoptr(PangoLayout) text = _hr_memory_chart_make_layout (self, label, FALSE);
      double lx = g_array_index (label_x, double, i);
      double ly = axis->top + i * (self->bar_height + BAR_GAP) + (self->bar_height - th) / 2.0;
      int tw;

      pango_layout_get_pixel_size (text, &tw, NULL);
      _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, lx - 2, ly, tw + 4, th);
      _hr_memory_chart_draw_layout (snapshot, text, lx, ly, &self->colors.dim_fg);
    }
}

/**
 * _hr_memory_chart_legend_span: (skip)
 * @self: the chart
 * @width: the chart's width, in pixels
 * @x: (out): where the legend starts, in pixels from the chart's left
 * @span: (out): the width the legend flows in, in pixels
 *
 * On screen (measured or drawn, HrMemoryChart:in_view), in a scrolled
 * window that shows less than @width: the part in view, so the legend
 * stays whole and in sight as the chart scrolls sideways (a chart at its
 * minimum width in a narrow window); otherwise, and in an export, the
 * whole width. PAD each side.
 */
void
_hr_memory_chart_legend_span (HrMemoryChart *self,
                              double         width,
                              double        *x,
                              double        *span)
{
  double page = self->in_view && self->hadjustment != NULL ? gtk_adjustment_get_page_size (self->hadjustment) : 0;

  if (page > 4 * PAD && page < width)
    {
      *x = MIN (gtk_adjustment_get_value (self->hadjustment), width - page) + PAD;
      *span = page - 2 * PAD;
      return;
    }
  *x = PAD;
  *span = width - 2 * PAD;
}

/* Scrolled down in its window (on screen, not in an export), the legend
 * is drawn again over the bars at the top of what is in view, so the
 * colours stay explained whichever bars are shown. */
static void
draw_sticky_legend (HrMemoryChart      *self,
                    GtkSnapshot        *snapshot,
                    GArray             *hits,
                    const ModelsLegend *legend,
                    double              legend_height,
                    double              width)
{
  double at, x, span;

  if (hits != self->hits || self->vadjustment == NULL || gtk_adjustment_get_value (self->vadjustment) <= PAD)
    return;

  at = gtk_adjustment_get_value (self->vadjustment);
  _hr_memory_chart_legend_span (self, width, &x, &span);
  _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, 0, at, width, legend_height + PAD + 6);
  _hr_memory_chart_draw_rect (snapshot, &self->colors.grid, 0, at + legend_height + PAD + 6, width, 1);
  models_legend_draw (self, snapshot, legend, x, at + PAD / 2, span);
}

/* When the chart shows fewer bars than the list has rows, says so at @y;
 * returns the y below it. */
static double
draw_first_of_note (HrMemoryChart *self,
                    GtkSnapshot   *snapshot,
                    double         y,
                    double         width)
{
  g_autofree char *shown = NULL;
  g_autofree char *all = NULL;
  g_autofree char *text = NULL;
  PangoLayout *layout;
  int lh;

  if (self->n_rows <= self->bars->len)
    return y;

  shown = hr_gui_format_count (self->bars->len);
  all = hr_gui_format_count (self->n_rows);
  text = g_strdup_printf (_("The first %s of %s models, in the list's order; "
                            "search to narrow the list"), shown, all);
  layout = _hr_memory_chart_cached_layout (self, text, FALSE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, NULL, &lh);
  _hr_memory_chart_draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
  return y + lh + 4;
}

double
_hr_memory_chart_draw_models (HrMemoryChart *self,
                              GtkSnapshot   *snapshot,
                              GArray        *hits,
                              double         width,
                              double         height)
{
  const HrBoard *board = self->has_scenario ? self->board : NULL;
  int th = _hr_memory_chart_text_height (self);
  g_autoptr(GArray) label_x = NULL; /* an export's label x per bar */
  ModelsLegend legend;
  ModelsAxis axis;
  double legend_height, legend_x, legend_span;
  double y = PAD;

  models_legend_init (self, board, &legend);
  _hr_memory_chart_legend_span (self, width, &legend_x, &legend_span);
  legend_height = models_legend_draw (self, snapshot, &legend, legend_x, y, legend_span);
  y += legend_height + 10;

  if (self->bars->len == 0 || board == NULL)
    {
      g_autoptr(PangoLayout) layout = _hr_memory_chart_make_layout (self, _("No models to show"), FALSE);

      _hr_memory_chart_draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      return y + th + PAD;
    }

  models_axis_init (self, width, y, &axis);
  draw_grid (self, snapshot, axis.x0, axis.scale, axis.step, axis.axis_max, axis.top, axis.bottom, width);
  label_x = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < self->bars->len; i++)
    {
      double end = draw_model_bar (self, snapshot, hits, &axis, i, width, th);

      if (self->exporting || self->selected_only)
        g_array_append_val (label_x, (double) { end + 6 });
    }

  draw_board_lines (self, snapshot, hits, board, axis.x0, axis.scale, axis.top, axis.bottom);
  draw_export_labels (self, snapshot, &axis, label_x, th);
  draw_sticky_legend (self, snapshot, hits, &legend, legend_height, width);

  y = axis.bottom + AXIS_GAP + th + 6;
  y = draw_first_of_note (self, snapshot, y, width);
  return y + PAD - 6;
}
