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
      int tw, th;
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
      item_width = SWATCH + 6 + tw;

      if (x > x0 && x + item_width > x0 + width)
        {
          x = x0;
          y += line_height + 4;
          line_height = 0;
        }

      if (segments[i] >= SEG_LINE_BUDGET)
        _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segments[i]],
                                    x + SWATCH / 2 - LINE_WIDTH / 2, y + (th - SWATCH) / 2.0, LINE_WIDTH, SWATCH);
      else
        _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segments[i]],
                                    x, y + (th - SWATCH) / 2.0, SWATCH, SWATCH);
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

double
_hr_memory_chart_draw_models (HrMemoryChart *self,
                              GtkSnapshot   *snapshot,
                              GArray        *hits,
                              double         width,
                              double         height)
{
  /* The legend: the areas a bar can have (a partial model's GPU and host
   * parts only when one is drawn), then the board's lines with their sizes. */
  Segment legend_segments[9];
  guint64 legend_values[9];
  guint n_legend = 0, n_areas;
  gboolean any_partial = FALSE;
  double legend_height;
  const HrBoard *board = self->has_scenario ? self->board : NULL;
  double y = PAD;
  double name_width = 0;
  double x0, x1, top, bottom;
  g_autoptr(GArray) label_x = NULL; /* an export's label x per bar */
  double max_value = 0;
  double step, axis_max, scale;
  int th = _hr_memory_chart_text_height (self);

  for (guint i = 0; i < self->bars->len && !any_partial; i++)
    {
      const HrEvaluation *e = hr_model_row_get_evaluation (g_ptr_array_index (self->bars, i));

      any_partial = e->split && e->verdict == HR_VERDICT_PARTIAL;
    }
  legend_segments[n_legend++] = SEG_WEIGHTS;
  legend_segments[n_legend++] = SEG_KV_CACHE;
  legend_segments[n_legend++] = SEG_OVERHEAD;
  if (self->learned_text != NULL)
    legend_segments[n_legend++] = SEG_LEARNED;
  if (any_partial)
    {
      legend_segments[n_legend++] = SEG_VRAM;
      legend_segments[n_legend++] = SEG_HOST;
    }
  n_areas = n_legend;
  for (guint i = 0; i < G_N_ELEMENTS (legend_values); i++)
    legend_values[i] = G_MAXUINT64;
  if (board != NULL)
    {
      guint64 lines[3];

      _hr_memory_chart_board_lines (self, lines);
      legend_values[n_legend] = lines[0];
      legend_segments[n_legend++] = SEG_LINE_BUDGET;
      legend_values[n_legend] = lines[1];
      legend_segments[n_legend++] = SEG_LINE_HEADROOM;
      legend_values[n_legend] = lines[2];
      legend_segments[n_legend++] = SEG_LINE_POOL;
    }

  legend_height = _hr_memory_chart_draw_legend (self, snapshot, PAD, y, width - 2 * PAD,
                                                legend_segments, board != NULL ? legend_values : NULL,
                                                board != NULL ? n_legend : n_areas);
  y += legend_height + 10;

  if (self->bars->len == 0 || board == NULL)
    {
      g_autoptr(PangoLayout) layout = _hr_memory_chart_make_layout (self, _("No models to show"), FALSE);

      _hr_memory_chart_draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      return y + th + PAD;
    }

  for (guint i = 0; i < self->bars->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->bars, i);
      /* measured bold, as the selected row's name is drawn, so it is not cut */
      g_autoptr(PangoLayout) layout = _hr_memory_chart_make_layout (self, hr_model_row_get_name (row), TRUE);
      int tw;

      pango_layout_get_pixel_size (layout, &tw, NULL);
      name_width = MAX (name_width, tw);
      max_value = MAX (max_value, to_unit (self, hr_model_row_get_evaluation (row)->footprint.total));
    }
  name_width = CLAMP (name_width, 40, MAX (40, width * 0.35));
  /* The axis ends a little past the pool, or at twice the pool: a bar
   * longer than that is cut short with a break mark, so one huge model does
   * not squeeze the rest against the left edge. */
  {
    guint64 lines[3];

    _hr_memory_chart_board_lines (self, lines);
    max_value = CLAMP (max_value, to_unit (self, lines[2]), 2 * to_unit (self, lines[2]));
  }

  x0 = PAD + name_width + NAME_GAP;
  x1 = width - PAD - 8;
  /* An export, and the presentation view's one bar, write "3.87 GB · fits
   * 1.23 GB" after each bar: room for the widest. */
  if (self->exporting || self->selected_only)
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
      x1 -= widest + 8;
    }
  if (x1 - x0 < 40)
    x1 = x0 + 40;

  step = nice_step (max_value, MAX (2.0, (x1 - x0) / 90.0));
  axis_max = ceil (max_value * 1.02 / step) * step;
  scale = (x1 - x0) / axis_max;

  top = y;
  bottom = top + self->bars->len * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;

  draw_grid (self, snapshot, x0, scale, step, axis_max, top, bottom, width);
  label_x = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < self->bars->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->bars, i);
      const HrEvaluation *e = hr_model_row_get_evaluation (row);
      const HrFootprint *f = &e->footprint;
      double by = top + i * (BAR_HEIGHT + BAR_GAP);
      double x = x0;
      gboolean partial = e->split && e->verdict == HR_VERDICT_PARTIAL;
      /* A partial model is drawn by where it lives: VRAM, then host memory. */
      const guint64 parts[4] = { partial ? e->vram_bytes : f->weights, partial ? e->host_bytes : f->kv_cache,
                                 partial ? 0 : _hr_memory_chart_overhead_part (row),
                                 partial ? 0 : _hr_memory_chart_learned_part (row) };
      const Segment segs[4] = { partial ? SEG_VRAM : SEG_WEIGHTS, partial ? SEG_HOST : SEG_KV_CACHE,
                                SEG_OVERHEAD, SEG_LEARNED };
      gboolean selected = row == self->selected && !self->exporting;
      PangoLayout *layout = _hr_memory_chart_cached_layout (self, hr_model_row_get_name (row), selected,
                                                            (int) name_width, PANGO_ELLIPSIZE_END);

      /* the one bar of the presentation view is not highlighted */
      if (selected && !self->selected_only)
        _hr_memory_chart_draw_rect (snapshot, &self->colors.selection, PAD / 2, by - BAR_GAP / 2,
                                    width - PAD, BAR_HEIGHT + BAR_GAP);

      _hr_memory_chart_draw_layout (snapshot, layout, PAD, by + (BAR_HEIGHT - th) / 2.0, &self->colors.fg);

      for (guint s = 0; s < G_N_ELEMENTS (parts); s++)
        {
          double w = to_unit (self, parts[s]) * scale;

          if (w <= 0 || x >= x1)
            continue;
          w = MIN (w, x1 - x);
          /* Keep a hairline between segments, never below one pixel. */
          _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segs[s]], x, by,
                                      MAX (1.0, w - (w > 3 ? 1 : 0)), BAR_HEIGHT);
          if (hits == self->hits && self->hover_bar == (int) i && self->hover_segment == segs[s])
            _hr_memory_chart_draw_rect (snapshot, &self->colors.hover, x, by, MAX (1.0, w - 1), BAR_HEIGHT);
          _hr_memory_chart_add_hit (hits, x, by, MAX (1.0, w), BAR_HEIGHT, i, segs[s]);
          x += w;
        }

      if (to_unit (self, f->total) * scale > x1 - x0 + 0.5)
        {
          /* The break mark of a bar cut short */
          _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, x1 - 10, by - 1, 3, BAR_HEIGHT + 2);
          _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, x1 - 5, by - 1, 3, BAR_HEIGHT + 2);
        }
      if (self->exporting || self->selected_only)
        g_array_append_val (label_x, (double) { MIN (x, x1) + 6 });
    }

  draw_board_lines (self, snapshot, hits, board, x0, scale, top, bottom);

  /* An export's total and verdict after each bar, over the board's lines
   * on the chart's background so a line never crosses the text. */
  for (guint i = 0; i < label_x->len; i++)
    {
      g_autofree char *label = bar_label (self, g_ptr_array_index (self->bars, i));
      g_autoptr(PangoLayout) text = _hr_memory_chart_make_layout (self, label, FALSE);
      double lx = g_array_index (label_x, double, i);
      double ly = top + i * (BAR_HEIGHT + BAR_GAP) + (BAR_HEIGHT - th) / 2.0;
      int tw;

      pango_layout_get_pixel_size (text, &tw, NULL);
      _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, lx - 2, ly, tw + 4, th);
      _hr_memory_chart_draw_layout (snapshot, text, lx, ly, &self->colors.dim_fg);
    }

  /* Scrolled down in its window (on screen, not in an export), the legend
   * is drawn again over the bars at the top of what is in view, so the
   * colours stay explained whichever bars are shown. */
  if (hits == self->hits && self->vadjustment != NULL && gtk_adjustment_get_value (self->vadjustment) > PAD)
    {
      double at = gtk_adjustment_get_value (self->vadjustment);

      _hr_memory_chart_draw_rect (snapshot, &self->colors.bg, 0, at, width, legend_height + PAD + 6);
      _hr_memory_chart_draw_rect (snapshot, &self->colors.grid, 0, at + legend_height + PAD + 6, width, 1);
      _hr_memory_chart_draw_legend (self, snapshot, PAD, at + PAD / 2, width - 2 * PAD,
                                    legend_segments, board != NULL ? legend_values : NULL,
                                    board != NULL ? n_legend : n_areas);
    }

  y = bottom + AXIS_GAP + th + 6;

  if (self->n_rows > self->bars->len)
    {
      g_autofree char *shown = hr_gui_format_count (self->bars->len);
      g_autofree char *all = hr_gui_format_count (self->n_rows);
      g_autofree char *text = g_strdup_printf (_("The first %s of %s models, in the list's order; "
                                                 "search to narrow the list"), shown, all);
      PangoLayout *layout = _hr_memory_chart_cached_layout (self, text, FALSE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);
      int lh;

      pango_layout_get_pixel_size (layout, NULL, &lh);
      _hr_memory_chart_draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      y += lh + 4;
    }

  return y + PAD - 6;
}
