/* hr-pool-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's pool mode: the board's pool as one column for the
 * selected model (resident, weights, KV cache, overhead, reserve, free),
 * or on a board with host memory one per memory (hr-pool-columns.c), and
 * the drawing of either mode (draw_chart).
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-memory-chart-private.h"
#include "hr-pool.h"

/* ------------------------------------------------------------------ */
/* Pool mode                                                           */

guint
_hr_memory_chart_pool_parts (HrMemoryChart *self,
                             PoolPart      *parts,
                             guint64       *out_sum)
{
  const HrBoard *board = self->board;
  const HrFootprint *f = &hr_model_row_get_evaluation (self->selected)->footprint;
  guint64 sum = 0;
  guint n = 0;

  parts[n++] = (PoolPart) { SEG_RESIDENT, board->resident_bytes };
  parts[n++] = (PoolPart) { SEG_WEIGHTS, f->weights };
  parts[n++] = (PoolPart) { SEG_KV_CACHE, f->kv_cache };
  parts[n++] = (PoolPart) { SEG_OVERHEAD, self->learned_text != NULL ? _hr_memory_chart_overhead_part (self->selected) : f->overhead };
  if (self->learned_text != NULL)
    parts[n++] = (PoolPart) { SEG_LEARNED, _hr_memory_chart_learned_part (self->selected) };
  parts[n++] = (PoolPart) { SEG_RESERVE, board->reserve_bytes };

  for (guint i = 0; i < n; i++)
    hr_add_u64 (sum, parts[i].bytes, &sum);

  parts[n++] = (PoolPart) { SEG_FREE, sum < board->pool_bytes ? board->pool_bytes - sum : 0 };
  *out_sum = sum;

  return n;
}

/* ------------------------------------------------------------------ */
/* Pool mode on a board with host memory: a column per memory          */

/* Whether the pool shows its memories apart (hr-pool-columns.c): a split
 * model on a board with host memory. */
gboolean
_hr_memory_chart_pool_is_split (HrMemoryChart *self)
{
  return self->mode == HR_MEMORY_CHART_MODE_POOL && self->selected != NULL && self->has_scenario
         && hr_board_has_host (self->board) && hr_model_row_get_evaluation (self->selected)->split;
}

/* Under the legend, when the column passes the pool line, what passes
 * which line, wrapped to the legend's width: the table's "over" figure is
 * measured from the headroom (the pool less the resident memory), the
 * column from the pool line with the reserve stacked on. Returns the y
 * under the text. */
static double
draw_past_pool (HrMemoryChart *self,
                GtkSnapshot   *snapshot,
                double         x,
                double         y,
                int            text_width,
                guint64        sum)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (self->selected);
  g_autofree char *past = hr_gui_format_size_fixed (sum - self->board->pool_bytes, self->unit);
  g_autofree char *reserve = hr_gui_format_size_fixed (self->board->reserve_bytes, self->unit);
  g_autofree char *headline = NULL;
  g_autofree char *detail = NULL;
  PangoLayout *layout;
  int h;

  if (e->verdict == HR_VERDICT_OVER)
    {
      g_autofree char *over = hr_gui_format_size_fixed (e->margin_bytes, self->unit);

      /* Translators: under the pool column: the table's "over" figure and the line it is measured from */
      headline = g_strdup_printf (_("%s past the headroom"), over);
      /* Translators: under the pool column: how far the column with the reserve on top passes the pool line */
      detail = g_strdup_printf (_("%s past the pool line with the %s reserve"), past, reserve);
    }
  else
    /* Translators: under the pool column of a tight model: how much of the reserve it takes */
    headline = g_strdup_printf (_("%s into the %s reserve"), past, reserve);

  layout = _hr_memory_chart_cached_layout (self, headline, TRUE, text_width, PANGO_ELLIPSIZE_NONE);
  _hr_memory_chart_draw_layout (snapshot, layout, x, y, &self->colors.seg[SEG_LINE_POOL]);
  pango_layout_get_pixel_size (layout, NULL, &h);
  y += h + 2;
  if (detail != NULL)
    {
      layout = _hr_memory_chart_cached_layout (self, detail, FALSE, text_width, PANGO_ELLIPSIZE_NONE);
      _hr_memory_chart_draw_layout (snapshot, layout, x, y, &self->colors.dim_fg);
      pango_layout_get_pixel_size (layout, NULL, &h);
      y += h + 2;
    }
  return y + 6;
}

/* The pool column from @col_bottom up, @scale pixels a byte: resident,
 * weights, KV cache, overhead, (learned overhead,) reserve, free, with
 * their hit areas, then the pool line where the board's memory ends. */
static void
draw_pool_column (HrMemoryChart  *self,
                  GtkSnapshot    *snapshot,
                  GArray         *hits,
                  const PoolPart *parts,
                  guint           n_parts,
                  double          col_bottom,
                  double          scale)
{
  double yy = col_bottom;
  double py = col_bottom - self->board->pool_bytes * scale;

  for (guint i = 0; i < n_parts; i++)
    {
      double h = parts[i].bytes * scale;

      if (h <= 0)
        continue;
      _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[parts[i].segment], PAD, yy - h,
                                  POOL_COLUMN, MAX (1.0, h - (h > 3 ? 1 : 0)));
      if (hits == self->hits && self->hover_bar == 0 && self->hover_segment == parts[i].segment)
        _hr_memory_chart_draw_rect (snapshot, &self->colors.hover, PAD, yy - h, POOL_COLUMN, MAX (1.0, h - 1));
      _hr_memory_chart_add_hit (hits, PAD, yy - h, POOL_COLUMN, MAX (1.0, h), 0, parts[i].segment);
      yy -= h;
    }

  _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[SEG_LINE_POOL], PAD - 6, py - LINE_WIDTH / 2,
                              POOL_COLUMN + 12, LINE_WIDTH);
  _hr_memory_chart_add_hit (hits, PAD - 6, py - 4, POOL_COLUMN + 12, 8, 0, SEG_LINE_POOL);
}

/* One legend entry at (@x, @y): a swatch (a line for the pool), the name,
 * and its size dimmed under it; returns the y of the next entry. */
static double
draw_pool_legend_entry (HrMemoryChart *self,
                        GtkSnapshot   *snapshot,
                        Segment        segment,
                        guint64        bytes,
                        double         x,
                        double         y,
                        double         width,
                        int            th)
{
  /* The pool in both units: beside a card sold as "12 GB" (12 GiB),
   * "12.88 GB" alone reads as a different figure. */
  g_autofree char *size = segment == SEG_LINE_POOL ? hr_gui_format_size_both_units (bytes, self->unit)
                                                   : hr_gui_format_size_fixed (bytes, self->unit);
  int text_width = (int) MAX (20, width - x - SWATCH - 6 - PAD / 2);
  /* Long names ("OS and desktop (resident)") wrap rather than lose their end. */
  PangoLayout *name = _hr_memory_chart_cached_layout (self, _hr_memory_chart_pool_segment_label (self, segment), FALSE, text_width,
                                                      PANGO_ELLIPSIZE_NONE);
  /* The pool's two units wrap rather than lose the second. */
  PangoLayout *value = _hr_memory_chart_cached_layout (self, size, FALSE, text_width,
                                                       segment == SEG_LINE_POOL ? PANGO_ELLIPSIZE_NONE
                                                                                : PANGO_ELLIPSIZE_END);
  int name_h, value_h;

  if (segment == SEG_LINE_POOL)
    _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segment], x, y + th / 2.0 - 1,
                                SWATCH, LINE_WIDTH);
  else
    _hr_memory_chart_draw_rect (snapshot, &self->colors.seg[segment], x,
                                y + (th - SWATCH) / 2.0, SWATCH, SWATCH);
  pango_layout_get_pixel_size (name, NULL, &name_h);
  _hr_memory_chart_draw_layout (snapshot, name, x + SWATCH + 6, y, &self->colors.fg);
  _hr_memory_chart_draw_layout (snapshot, value, x + SWATCH + 6, y + name_h, &self->colors.dim_fg);
  pango_layout_get_pixel_size (value, NULL, &value_h);
  return y + name_h + MAX (th, value_h) + 6;
}

/* The selected model's name in bold at @y; returns the y below it. */
static double
draw_pool_title (HrMemoryChart *self,
                 GtkSnapshot   *snapshot,
                 double         y,
                 double         width)
{
  PangoLayout *title = _hr_memory_chart_cached_layout (self, hr_model_row_get_name (self->selected), TRUE,
                                                       (int) (width - 2 * PAD), PANGO_ELLIPSIZE_END);
  int title_h;

  pango_layout_get_pixel_size (title, NULL, &title_h);
  _hr_memory_chart_draw_layout (snapshot, title, PAD, y, &self->colors.fg);
  return y + title_h + 10;
}

static double
draw_pool (HrMemoryChart *self,
           GtkSnapshot   *snapshot,
           GArray        *hits,
           double         width,
           double         height)
{
  PoolPart parts[POOL_MAX_PARTS];
  guint n_parts;
  guint64 sum = 0;
  double y = PAD;
  double col_top, col_bottom, scale;
  double legend_x, legend_y;
  int th = _hr_memory_chart_text_height (self);

  if (self->selected == NULL || !self->has_scenario)
    {
      PangoLayout *layout = _hr_memory_chart_cached_layout (self, _("Select a model to see the pool"), FALSE,
                                                            (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);

      _hr_memory_chart_draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      return y + 2 * th + PAD;
    }

  y = draw_pool_title (self, snapshot, y, width);
  if (self->n_columns > 0)
    return _hr_memory_chart_draw_columns (self, snapshot, hits, width, height, y);

  n_parts = _hr_memory_chart_pool_parts (self, parts, &sum);
  col_top = y;
  col_bottom = MAX (height - PAD, col_top + (n_parts + 1) * (2 * th + 6));
  scale = (col_bottom - col_top) / (double) MAX (sum, self->board->pool_bytes);
  draw_pool_column (self, snapshot, hits, parts, n_parts, col_bottom, scale);

  /* The legend, top to bottom in the column's order: the name, and its
   * size dimmed under it, so a narrow chart cuts nothing short. */
  legend_x = PAD + POOL_COLUMN + 12;
  legend_y = draw_pool_legend_entry (self, snapshot, SEG_LINE_POOL, self->board->pool_bytes,
                                     legend_x, col_top, width, th);
  for (int i = (int) n_parts - 1; i >= 0; i--)
    legend_y = draw_pool_legend_entry (self, snapshot, parts[i].segment, parts[i].bytes,
                                       legend_x, legend_y, width, th);

  if (sum > self->board->pool_bytes)
    legend_y = draw_past_pool (self, snapshot, legend_x, legend_y + 4,
                                    (int) MAX (20, width - legend_x - PAD / 2), sum);

  return MAX (col_bottom, legend_y) + PAD;
}

double
_hr_memory_chart_draw_chart (HrMemoryChart *self,
                             GtkSnapshot   *snapshot,
                             GArray        *hits,
                             double         width,
                             double         height)
{
  if (hits != NULL)
    g_array_set_size (hits, 0);

  if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    return draw_pool (self, snapshot, hits, width, height);

  return _hr_memory_chart_draw_models (self, snapshot, hits, width, height);
}
