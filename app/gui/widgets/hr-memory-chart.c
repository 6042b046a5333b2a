/* hr-memory-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-memory-chart.h"
#include "hr-pool.h"

/*
 * The chart draws with gtk_snapshot_append_color() only (text through
 * gtk_snapshot_append_layout()), takes its colours from the theme in
 * css_changed, and remembers the rectangles it drew so query_tooltip can
 * hit-test them. The same drawing routine makes the exported PNG and SVG.
 */

#define PAD          12.0
#define BAR_HEIGHT   18.0
#define BAR_GAP       8.0
#define NAME_GAP     10.0
#define LEGEND_GAP   14.0
#define SWATCH       12.0
#define LINE_WIDTH    2.0
#define AXIS_GAP      6.0
#define POOL_COLUMN  48.0

typedef enum {
  SEG_WEIGHTS,
  SEG_KV_CACHE,
  SEG_OVERHEAD,
  SEG_LEARNED,
  SEG_RESIDENT,
  SEG_RESERVE,
  SEG_FREE,
  SEG_LINE_BUDGET,
  SEG_LINE_HEADROOM,
  SEG_LINE_POOL,
  N_SEGS
} Segment;

typedef struct {
  graphene_rect_t rect;
  guint           bar;     /* index into self->bars */
  Segment         segment;
} HitRect;

typedef struct {
  GdkRGBA seg[N_SEGS];
  GdkRGBA fg;
  GdkRGBA dim_fg;
  GdkRGBA grid;
  GdkRGBA bg;
  GdkRGBA selection;
  GdkRGBA hover;
} Colors;

struct _HrMemoryChart
{
  GtkWidget          parent_instance;

  HrMemoryChartMode  mode;
  HrUnit             unit;
  GListModel        *rows;
  gulong             items_changed_id;
  GPtrArray         *bars;        /* HrModelRow*, the rows drawn */
  guint              n_rows;      /* rows in the list, drawn or not */
  HrModelRow        *selected;
  HrBoard           *board;       /* owned copy */
  HrEvaluationInputs         scenario;    /* .board points at self->board */
  gboolean           has_scenario;
  HrScenario        *followed;    /* nullable: hr_memory_chart_follow() */

  Colors             colors;
  GHashTable        *layouts;     /* "bold|width|text" -> PangoLayout, shaped once */
  GArray            *hits;        /* HitRect, from the last on-screen frame */
  int                hover_bar;   /* the segment under the pointer, bar -1 for none */
  Segment            hover_segment;
  char              *description;
  char              *learned_text; /* the board's learned overhead explained; NULL: no runtime */
};

G_DEFINE_FINAL_TYPE (HrMemoryChart, hr_memory_chart, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (HrMemoryChartMode, hr_memory_chart_mode,
                    G_DEFINE_ENUM_VALUE (HR_MEMORY_CHART_MODE_MODELS, "models"),
                    G_DEFINE_ENUM_VALUE (HR_MEMORY_CHART_MODE_POOL, "pool"))

enum {
  PROP_0,
  PROP_MODE,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
segment_label (Segment segment)
{
  switch (segment)
    {
    case SEG_WEIGHTS:       return _("Weights");
    case SEG_KV_CACHE:      return _("KV cache");
    case SEG_OVERHEAD:      return _("Overhead");
    case SEG_LEARNED:       return _("Learned overhead");
    case SEG_RESIDENT:      return _("Resident");
    case SEG_RESERVE:       return _("Reserve");
    case SEG_FREE:          return _("Free");
    case SEG_LINE_BUDGET:   return _("Budget");
    /* Translators: the memory term (pool - resident), not the app's name */
    case SEG_LINE_HEADROOM: return C_("memory", "Headroom");
    case SEG_LINE_POOL:     return _("Pool");
    case N_SEGS:
    default:                return "";
    }
}

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
/* Text                                                                */

/* Shaping text is the costly part of a frame: a slider step redraws the
 * same names, ticks and legend, so each layout is made once and kept until
 * the style (the font) changes. */
static PangoLayout *
cached_layout (HrMemoryChart      *self,
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

static PangoLayout *
make_layout (HrMemoryChart *self,
             const char    *text,
             gboolean       bold)
{
  return g_object_ref (cached_layout (self, text, bold, -1, PANGO_ELLIPSIZE_NONE));
}

static void
draw_layout (GtkSnapshot   *snapshot,
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

static void
draw_rect (GtkSnapshot   *snapshot,
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

static void
add_hit (GArray  *hits,
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

static double
to_unit (HrMemoryChart *self,
         guint64        bytes)
{
  return self->unit == HR_UNIT_GIB ? hr_bytes_to_gib (bytes) : hr_bytes_to_gb (bytes);
}

/* A legend entry: a swatch (or a line) and "Budget 5.1 GB". Flows into
 * lines no wider than @width; returns the height used. */
static double
draw_legend (HrMemoryChart *self,
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
          g_autofree char *size = hr_gui_format_size (values[i], self->unit);

          /* Translators: a chart legend entry, "Budget 5.1 GB" */
          text = g_strdup_printf (_("%1$s %2$s"), segment_label (segments[i]), size);
        }
      else
        text = g_strdup (segment_label (segments[i]));

      layout = make_layout (self, text, FALSE);
      pango_layout_get_pixel_size (layout, &tw, &th);
      item_width = SWATCH + 6 + tw;

      if (x > x0 && x + item_width > x0 + width)
        {
          x = x0;
          y += line_height + 4;
          line_height = 0;
        }

      if (segments[i] >= SEG_LINE_BUDGET)
        draw_rect (snapshot, &self->colors.seg[segments[i]],
                   x + SWATCH / 2 - LINE_WIDTH / 2, y + (th - SWATCH) / 2.0, LINE_WIDTH, SWATCH);
      else
        draw_rect (snapshot, &self->colors.seg[segments[i]],
                   x, y + (th - SWATCH) / 2.0, SWATCH, SWATCH);
      draw_layout (snapshot, layout, x + SWATCH + 6, y, &self->colors.fg);

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

static int
text_height (HrMemoryChart *self)
{
  g_autoptr(PangoLayout) layout = make_layout (self, "0", FALSE);
  int th;

  pango_layout_get_pixel_size (layout, NULL, &th);
  return th;
}

/* The footprint's overhead without the learned part, and the learned
 * part drawn on its own (a negative learned overhead has already been
 * taken off the overhead: nothing to draw). */
static guint64
learned_part (HrModelRow *row)
{
  gint64 learned = hr_model_row_get_learned_bytes (row);

  return learned > 0 ? (guint64) learned : 0;
}

static guint64
overhead_part (HrModelRow *row)
{
  guint64 overhead = hr_model_row_get_evaluation (row)->footprint.overhead;
  guint64 learned = learned_part (row);

  return overhead > learned ? overhead - learned : 0;
}

/* The pool column's resident band: on a unified board it is the OS and
 * the desktop in the model's own memory (hr_pool_layout()). */
static const char *
pool_segment_label (HrMemoryChart *self,
                    Segment        segment)
{
  if (segment == SEG_RESIDENT && self->board != NULL && self->board->unified)
    {
      HrPoolLayout layout;

      hr_pool_layout (self->board, &layout);
      return layout.bands[HR_POOL_BAND_RESIDENT].label;
    }
  return segment_label (segment);
}

/* ------------------------------------------------------------------ */
/* Models mode                                                         */

static double
draw_models (HrMemoryChart *self,
             GtkSnapshot   *snapshot,
             GArray        *hits,
             double         width,
             double         height)
{
  static const Segment plain_segments[] = {
    SEG_WEIGHTS, SEG_KV_CACHE, SEG_OVERHEAD, SEG_LINE_BUDGET, SEG_LINE_HEADROOM, SEG_LINE_POOL,
  };
  static const Segment runtime_segments[] = {
    SEG_WEIGHTS, SEG_KV_CACHE, SEG_OVERHEAD, SEG_LEARNED, SEG_LINE_BUDGET, SEG_LINE_HEADROOM, SEG_LINE_POOL,
  };
  const Segment *legend_segments = self->learned_text != NULL ? runtime_segments : plain_segments;
  guint n_legend = self->learned_text != NULL ? G_N_ELEMENTS (runtime_segments) : G_N_ELEMENTS (plain_segments);
  guint n_areas = n_legend - 3;
  guint64 legend_values[G_N_ELEMENTS (runtime_segments)] = {
    G_MAXUINT64, G_MAXUINT64, G_MAXUINT64, G_MAXUINT64, G_MAXUINT64, G_MAXUINT64, G_MAXUINT64,
  };
  const HrBoard *board = self->has_scenario ? self->board : NULL;
  double y = PAD;
  double name_width = 0;
  double x0, x1, top, bottom;
  double max_value = 0;
  double step, axis_max, scale;
  int th = text_height (self);

  if (board != NULL)
    {
      legend_values[n_areas] = hr_board_budget_bytes (board);
      legend_values[n_areas + 1] = hr_board_headroom_bytes (board);
      legend_values[n_areas + 2] = board->pool_bytes;
    }

  y += draw_legend (self, snapshot, PAD, y, width - 2 * PAD,
                    legend_segments, board != NULL ? legend_values : NULL,
                    board != NULL ? n_legend : n_areas);
  y += 10;

  if (self->bars->len == 0 || board == NULL)
    {
      g_autoptr(PangoLayout) layout = make_layout (self, _("No models to show"), FALSE);

      draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      return y + th + PAD;
    }

  for (guint i = 0; i < self->bars->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->bars, i);
      g_autoptr(PangoLayout) layout = make_layout (self, hr_model_row_get_name (row), FALSE);
      int tw;

      pango_layout_get_pixel_size (layout, &tw, NULL);
      name_width = MAX (name_width, tw);
      max_value = MAX (max_value, to_unit (self, hr_model_row_get_evaluation (row)->footprint.total));
    }
  name_width = CLAMP (name_width, 40, MAX (40, width * 0.35));
  /* The axis ends a little past the pool, or at twice the pool: a bar
   * longer than that is cut short with a break mark, so one huge model does
   * not squeeze the rest against the left edge. */
  max_value = CLAMP (max_value, to_unit (self, board->pool_bytes), 2 * to_unit (self, board->pool_bytes));

  x0 = PAD + name_width + NAME_GAP;
  x1 = width - PAD - 8;
  if (x1 - x0 < 40)
    x1 = x0 + 40;

  step = nice_step (max_value, MAX (2.0, (x1 - x0) / 90.0));
  axis_max = ceil (max_value * 1.02 / step) * step;
  scale = (x1 - x0) / axis_max;

  top = y;
  bottom = top + self->bars->len * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;

  /* Grid and axis labels */
  for (double v = 0; v <= axis_max + step / 2; v += step)
    {
      double x = x0 + v * scale;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *text = NULL;
      g_autoptr(PangoLayout) layout = NULL;
      int tw;

      draw_rect (snapshot, &self->colors.grid, x - 0.5, top - 4, 1, bottom - top + 8);
      g_ascii_formatd (buf, sizeof buf, "%g", v);
      text = v == 0 ? g_strdup ("0")
                    : g_strdup_printf ("%s %s", buf, hr_gui_unit_label (self->unit));
      layout = make_layout (self, text, FALSE);
      pango_layout_get_pixel_size (layout, &tw, NULL);
      draw_layout (snapshot, layout, CLAMP (x - tw / 2.0, 0, width - tw), bottom + AXIS_GAP,
                   &self->colors.dim_fg);
    }

  for (guint i = 0; i < self->bars->len; i++)
    {
      HrModelRow *row = g_ptr_array_index (self->bars, i);
      const HrFootprint *f = &hr_model_row_get_evaluation (row)->footprint;
      double by = top + i * (BAR_HEIGHT + BAR_GAP);
      double x = x0;
      const guint64 parts[4] = { f->weights, f->kv_cache, overhead_part (row), learned_part (row) };
      const Segment segs[4] = { SEG_WEIGHTS, SEG_KV_CACHE, SEG_OVERHEAD, SEG_LEARNED };
      PangoLayout *layout = cached_layout (self, hr_model_row_get_name (row), row == self->selected,
                                           (int) name_width, PANGO_ELLIPSIZE_END);

      if (row == self->selected)
        draw_rect (snapshot, &self->colors.selection, PAD / 2, by - BAR_GAP / 2,
                   width - PAD, BAR_HEIGHT + BAR_GAP);

      draw_layout (snapshot, layout, PAD, by + (BAR_HEIGHT - th) / 2.0, &self->colors.fg);

      for (guint s = 0; s < G_N_ELEMENTS (parts); s++)
        {
          double w = to_unit (self, parts[s]) * scale;

          if (w <= 0 || x >= x1)
            continue;
          w = MIN (w, x1 - x);
          /* Keep a hairline between segments, never below one pixel. */
          draw_rect (snapshot, &self->colors.seg[segs[s]], x, by,
                     MAX (1.0, w - (w > 3 ? 1 : 0)), BAR_HEIGHT);
          if (hits == self->hits && self->hover_bar == (int) i && self->hover_segment == segs[s])
            draw_rect (snapshot, &self->colors.hover, x, by, MAX (1.0, w - 1), BAR_HEIGHT);
          add_hit (hits, x, by, MAX (1.0, w), BAR_HEIGHT, i, segs[s]);
          x += w;
        }

      if (to_unit (self, f->total) * scale > x1 - x0 + 0.5)
        {
          /* The break mark of a bar cut short */
          draw_rect (snapshot, &self->colors.bg, x1 - 10, by - 1, 3, BAR_HEIGHT + 2);
          draw_rect (snapshot, &self->colors.bg, x1 - 5, by - 1, 3, BAR_HEIGHT + 2);
        }
    }

  /* Budget, headroom and pool lines over the bars */
  {
    const guint64 values[3] = {
      hr_board_budget_bytes (board), hr_board_headroom_bytes (board), board->pool_bytes,
    };
    const Segment segs[3] = { SEG_LINE_BUDGET, SEG_LINE_HEADROOM, SEG_LINE_POOL };

    for (guint s = 0; s < 3; s++)
      {
        double x = x0 + to_unit (self, values[s]) * scale;

        draw_rect (snapshot, &self->colors.seg[segs[s]], x - LINE_WIDTH / 2, top - 6,
                   LINE_WIDTH, bottom - top + 12);
        add_hit (hits, x - 4, top - 6, 8, bottom - top + 12, 0, segs[s]);
      }
  }

  y = bottom + AXIS_GAP + th + 6;

  if (self->n_rows > self->bars->len)
    {
      g_autofree char *shown = hr_format_count (self->bars->len);
      g_autofree char *all = hr_format_count (self->n_rows);
      g_autofree char *text = g_strdup_printf (_("The first %s of %s models, in the list's order; "
                                                 "search to narrow the list"), shown, all);
      PangoLayout *layout = cached_layout (self, text, FALSE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);
      int lh;

      pango_layout_get_pixel_size (layout, NULL, &lh);
      draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      y += lh + 4;
    }

  return y + PAD - 6;
}

/* ------------------------------------------------------------------ */
/* Pool mode                                                           */

typedef struct {
  Segment segment;
  guint64 bytes;
} PoolPart;

/* resident, weights, KV cache, overhead, learned overhead, reserve, free */
#define POOL_MAX_PARTS 7

static guint
pool_parts (HrMemoryChart *self,
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
  parts[n++] = (PoolPart) { SEG_OVERHEAD, self->learned_text != NULL ? overhead_part (self->selected) : f->overhead };
  if (self->learned_text != NULL)
    parts[n++] = (PoolPart) { SEG_LEARNED, learned_part (self->selected) };
  parts[n++] = (PoolPart) { SEG_RESERVE, board->reserve_bytes };

  for (guint i = 0; i < n; i++)
    hr_add_u64 (sum, parts[i].bytes, &sum);

  parts[n++] = (PoolPart) { SEG_FREE, sum < board->pool_bytes ? board->pool_bytes - sum : 0 };
  *out_sum = sum;

  return n;
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
  double col_top, col_bottom, col_height, scale_max, scale;
  double legend_x, legend_y;
  int th = text_height (self);
  g_autoptr(PangoLayout) title = NULL;
  int title_h;

  if (self->selected == NULL || !self->has_scenario)
    {
      PangoLayout *layout = cached_layout (self, _("Select a model to see the pool"), FALSE,
                                           (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);

      draw_layout (snapshot, layout, PAD, y, &self->colors.dim_fg);
      return y + 2 * th + PAD;
    }

  title = g_object_ref (cached_layout (self, hr_model_row_get_name (self->selected), TRUE,
                                      (int) (width - 2 * PAD), PANGO_ELLIPSIZE_END));
  pango_layout_get_pixel_size (title, NULL, &title_h);
  draw_layout (snapshot, title, PAD, y, &self->colors.fg);
  y += title_h + 10;

  n_parts = pool_parts (self, parts, &sum);
  scale_max = (double) MAX (sum, self->board->pool_bytes);

  col_top = y;
  col_bottom = MAX (height - PAD, col_top + (n_parts + 1) * (2 * th + 6));
  col_height = col_bottom - col_top;
  scale = col_height / scale_max;

  /* Bottom up: resident, weights, KV cache, overhead, (learned overhead,)
   * reserve, free. */
  {
    double yy = col_bottom;

    for (guint i = 0; i < n_parts; i++)
      {
        double h = parts[i].bytes * scale;

        if (h <= 0)
          continue;
        draw_rect (snapshot, &self->colors.seg[parts[i].segment], PAD, yy - h,
                   POOL_COLUMN, MAX (1.0, h - (h > 3 ? 1 : 0)));
        if (hits == self->hits && self->hover_bar == 0 && self->hover_segment == parts[i].segment)
          draw_rect (snapshot, &self->colors.hover, PAD, yy - h, POOL_COLUMN, MAX (1.0, h - 1));
        add_hit (hits, PAD, yy - h, POOL_COLUMN, MAX (1.0, h), 0, parts[i].segment);
        yy -= h;
      }

    /* The pool line, where the board's memory ends */
    {
      double py = col_bottom - self->board->pool_bytes * scale;

      draw_rect (snapshot, &self->colors.seg[SEG_LINE_POOL], PAD - 6, py - LINE_WIDTH / 2,
                 POOL_COLUMN + 12, LINE_WIDTH);
      add_hit (hits, PAD - 6, py - 4, POOL_COLUMN + 12, 8, 0, SEG_LINE_POOL);
    }
  }

  /* The legend, top to bottom in the column's order: the name, and its
   * size dimmed under it, so a narrow chart cuts nothing short. */
  legend_x = PAD + POOL_COLUMN + 12;
  legend_y = col_top;
  for (int i = (int) n_parts; i >= 0; i--)
    {
      Segment segment = i == (int) n_parts ? SEG_LINE_POOL : parts[i].segment;
      guint64 bytes = i == (int) n_parts ? self->board->pool_bytes : parts[i].bytes;
      g_autofree char *size = hr_gui_format_size (bytes, self->unit);
      int text_width = (int) MAX (20, width - legend_x - SWATCH - 6 - PAD / 2);
      /* Long names ("OS and desktop (resident)") wrap rather than lose their end. */
      PangoLayout *name = cached_layout (self, pool_segment_label (self, segment), FALSE, text_width,
                                         PANGO_ELLIPSIZE_NONE);
      PangoLayout *value = cached_layout (self, size, FALSE, text_width, PANGO_ELLIPSIZE_END);
      int name_h;

      if (segment == SEG_LINE_POOL)
        draw_rect (snapshot, &self->colors.seg[segment], legend_x, legend_y + th / 2.0 - 1,
                   SWATCH, LINE_WIDTH);
      else
        draw_rect (snapshot, &self->colors.seg[segment], legend_x,
                   legend_y + (th - SWATCH) / 2.0, SWATCH, SWATCH);
      pango_layout_get_pixel_size (name, NULL, &name_h);
      draw_layout (snapshot, name, legend_x + SWATCH + 6, legend_y, &self->colors.fg);
      draw_layout (snapshot, value, legend_x + SWATCH + 6, legend_y + name_h, &self->colors.dim_fg);
      legend_y += name_h + th + 6;
    }

  if (sum > self->board->pool_bytes)
    {
      g_autofree char *over = hr_gui_format_size (sum - self->board->pool_bytes, self->unit);
      g_autofree char *text = g_strdup_printf (_("%s past the pool"), over);
      g_autoptr(PangoLayout) layout = make_layout (self, text, TRUE);

      draw_layout (snapshot, layout, legend_x, legend_y + 4, &self->colors.seg[SEG_LINE_POOL]);
      legend_y += th + 10;
    }

  return MAX (col_bottom, legend_y) + PAD;
}

static double
draw_chart (HrMemoryChart *self,
            GtkSnapshot   *snapshot,
            GArray        *hits,
            double         width,
            double         height)
{
  if (hits != NULL)
    g_array_set_size (hits, 0);

  if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    return draw_pool (self, snapshot, hits, width, height);

  return draw_models (self, snapshot, hits, width, height);
}

/* ------------------------------------------------------------------ */
/* Description and tooltips                                            */

static void
update_description (HrMemoryChart *self)
{
  GString *text = g_string_new (NULL);

  if (!self->has_scenario)
    {
      g_string_append (text, _("No board selected"));
    }
  else if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    {
      g_autofree char *pool = hr_gui_format_size (self->board->pool_bytes, self->unit);

      if (self->selected == NULL)
        {
          g_string_append_printf (text, _("%s pool %s; no model selected"), self->board->name, pool);
        }
      else
        {
          PoolPart parts[POOL_MAX_PARTS];
          guint64 sum;
          guint n = pool_parts (self, parts, &sum);

          g_string_append_printf (text, _("%s pool %s with %s:"), self->board->name, pool,
                                  hr_model_row_get_name (self->selected));
          for (guint i = 0; i < n; i++)
            {
              g_autofree char *size = hr_gui_format_size (parts[i].bytes, self->unit);

              g_string_append_printf (text, "%s %s %s", i == 0 ? "" : ",",
                                      segment_label (parts[i].segment), size);
            }
          if (sum > self->board->pool_bytes)
            {
              g_autofree char *over = hr_gui_format_size (sum - self->board->pool_bytes, self->unit);

              g_string_append (text, "; ");
              g_string_append_printf (text, _("%s past the pool"), over);
            }
        }
    }
  else
    {
      g_autofree char *budget = hr_gui_format_size (hr_board_budget_bytes (self->board), self->unit);
      g_autofree char *headroom = hr_gui_format_size (hr_board_headroom_bytes (self->board), self->unit);
      g_autofree char *pool = hr_gui_format_size (self->board->pool_bytes, self->unit);

      g_string_append_printf (text, _("Memory per model on %s: budget %s, headroom %s, pool %s."),
                              self->board->name, budget, headroom, pool);
      if (self->learned_text != NULL)
        {
          g_string_append_c (text, ' ');
          /* Translators: the chart's description: the learned overhead, then what it rests on */
          g_string_append_printf (text, _("Overhead includes the learned overhead: %s."), self->learned_text);
        }

      for (guint i = 0; i < self->bars->len; i++)
        {
          HrModelRow *row = g_ptr_array_index (self->bars, i);
          const HrEvaluation *e = hr_model_row_get_evaluation (row);
          g_autofree char *weights = hr_gui_format_size (e->footprint.weights, self->unit);
          g_autofree char *kv = hr_gui_format_size (e->footprint.kv_cache, self->unit);
          g_autofree char *total = hr_gui_format_size (e->footprint.total, self->unit);
          g_autofree char *verdict = hr_gui_format_verdict_sentence (e->verdict, e->margin_bytes,
                                                                     self->unit);

          g_string_append_c (text, ' ');
          if (e->footprint.overhead > 0)
            {
              g_autofree char *overhead = hr_gui_format_size (e->footprint.overhead, self->unit);

              /* Translators: what a screen reader says for one bar of the chart */
              g_string_append_printf (text, _("%1$s: weights %2$s, KV cache %3$s, overhead %4$s, "
                                              "total %5$s, %6$s."),
                                      hr_model_row_get_name (row), weights, kv, overhead, total,
                                      verdict);
            }
          else
            {
              /* Translators: what a screen reader says for one bar of the chart */
              g_string_append_printf (text, _("%1$s: weights %2$s, KV cache %3$s, total %4$s, %5$s."),
                                      hr_model_row_get_name (row), weights, kv, total, verdict);
            }
        }

      if (self->n_rows > self->bars->len)
        {
          g_autofree char *more = hr_format_count (self->n_rows - self->bars->len);

          g_string_append_c (text, ' ');
          g_string_append_printf (text, _("%s more models are in the list but not drawn."), more);
        }
    }

  g_free (self->description);
  self->description = g_string_free (text, FALSE);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->description,
                                  -1);
}

static char *
tooltip_for_hit (HrMemoryChart *self,
                 const HitRect *hit)
{
  HrModelRow *row = NULL;
  const HrModelSpec *spec = NULL;
  const HrEvaluation *e = NULL;
  g_autofree char *formula = NULL;
  const char *name = NULL;
  guint64 bytes = 0;
  g_autofree char *count = NULL;
  g_autofree char *size = NULL;

  if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    row = self->selected;
  else if (hit->segment < SEG_LINE_BUDGET && hit->bar < self->bars->len)
    row = g_ptr_array_index (self->bars, hit->bar);

  if (row != NULL)
    {
      spec = hr_model_row_get_spec (row);
      e = hr_model_row_get_evaluation (row);
      name = hr_model_row_get_name (row);
    }

  switch (hit->segment)
    {
    case SEG_WEIGHTS:
      g_return_val_if_fail (e != NULL, NULL);
      bytes = e->footprint.weights;
      if (self->learned_text != NULL && !hr_model_row_get_runtime_failed (row))
        formula = g_strdup (_("as the runtime loads them: weights on the GPU and the output layer, and on a "
                              "unified board what stays in host memory; the explain panel shows each term"));
      else
        formula = hr_formula_weights (spec, &self->scenario, e);
      break;
    case SEG_KV_CACHE:
      g_return_val_if_fail (e != NULL, NULL);
      bytes = e->footprint.kv_cache;
      if (self->learned_text != NULL && !hr_model_row_get_runtime_failed (row))
        formula = g_strdup (_("as the runtime allocates it, padded to its cells (and any recurrent state); "
                              "the explain panel shows the formula"));
      else
        formula = hr_formula_kv_cache (spec, &self->scenario, e);
      break;
    case SEG_OVERHEAD:
      g_return_val_if_fail (e != NULL, NULL);
      if (self->learned_text != NULL)
        {
          bytes = overhead_part (row);
          formula = g_strdup (_("what the runtime loads besides the weights and the KV cache: its "
                                "compute buffer (the old estimator also a reserve and a buffer layer); "
                                "the explain panel shows each term"));
        }
      else
        {
          bytes = e->footprint.overhead;
          formula = hr_formula_overhead (e);
        }
      break;
    case SEG_LEARNED:
      g_return_val_if_fail (e != NULL, NULL);
      bytes = learned_part (row);
      formula = g_strdup (self->learned_text ? self->learned_text : "");
      break;
    case SEG_RESIDENT:
      bytes = self->board->resident_bytes;
      if (self->board->unified)
        {
          HrPoolLayout layout;

          hr_pool_layout (self->board, &layout);
          formula = g_strdup (layout.bands[HR_POOL_BAND_RESIDENT].note);
        }
      else
        formula = g_strdup (_("held by the OS and the app's own stack before any model loads"));
      break;
    case SEG_RESERVE:
      bytes = self->board->reserve_bytes;
      formula = g_strdup (_("held back for bursts and other processes"));
      break;
    case SEG_FREE:
      {
        PoolPart parts[POOL_MAX_PARTS];
        guint64 sum;

        guint n = pool_parts (self, parts, &sum);

        bytes = parts[n - 1].bytes;
        formula = g_strdup (_("pool - resident - weights - KV cache - overhead - reserve"));
      }
      break;
    case SEG_LINE_BUDGET:
      bytes = hr_board_budget_bytes (self->board);
      formula = hr_formula_budget (self->board);
      name = NULL;
      break;
    case SEG_LINE_HEADROOM:
      bytes = hr_board_headroom_bytes (self->board);
      formula = hr_formula_headroom (self->board);
      name = NULL;
      break;
    case SEG_LINE_POOL:
      bytes = self->board->pool_bytes;
      formula = g_strdup_printf (_("the memory of %s"), self->board->name);
      name = NULL;
      break;
    case N_SEGS:
    default:
      return NULL;
    }

  count = hr_format_count (bytes);
  size = hr_gui_format_size_both (bytes);

  if (name != NULL)
    /* Translators: a chart tooltip: model, segment, exact bytes, size, formula */
    return g_strdup_printf (_("%1$s: %2$s\n%3$s bytes = %4$s\n%5$s"),
                            name, pool_segment_label (self, hit->segment), count, size, formula);

  return g_strdup_printf (_("%1$s\n%2$s bytes = %3$s\n%4$s"),
                          pool_segment_label (self, hit->segment), count, size, formula);
}

static int
hit_test (HrMemoryChart *self,
          double         x,
          double         y)
{
  /* Lines are added last and drawn on top: test them first. */
  for (int i = (int) self->hits->len - 1; i >= 0; i--)
    {
      const HitRect *hit = &g_array_index (self->hits, HitRect, i);

      if (graphene_rect_contains_point (&hit->rect, &GRAPHENE_POINT_INIT ((float) x, (float) y)))
        return i;
    }
  return -1;
}

/**
 * hr_memory_chart_get_tooltip_at:
 * @self: a #HrMemoryChart
 * @x: widget coordinate, pixels
 * @y: widget coordinate, pixels
 *
 * The tooltip the chart shows at (@x, @y), from the rectangles of the last
 * frame drawn on screen: the segment's exact bytes, GB and GiB, and its
 * formula.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL where nothing is
 */
char *
hr_memory_chart_get_tooltip_at (HrMemoryChart *self,
                                double         x,
                                double         y)
{
  int index;

  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), NULL);

  index = hit_test (self, x, y);
  if (index < 0 || !self->has_scenario)
    return NULL;

  return tooltip_for_hit (self, &g_array_index (self->hits, HitRect, index));
}

static gboolean
hr_memory_chart_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_mode,
                               GtkTooltip *tooltip)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);
  g_autofree char *text = NULL;

  if (keyboard_mode)
    return FALSE;

  text = hr_memory_chart_get_tooltip_at (self, x, y);
  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           HrMemoryChart            *self)
{
  int index = hit_test (self, x, y);
  int bar = -1;
  Segment segment = N_SEGS;

  if (index >= 0)
    {
      const HitRect *hit = &g_array_index (self->hits, HitRect, index);

      bar = (int) hit->bar;
      segment = hit->segment;
    }

  if (bar != self->hover_bar || segment != self->hover_segment)
    {
      self->hover_bar = bar;
      self->hover_segment = segment;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *controller,
          HrMemoryChart            *self)
{
  if (self->hover_bar != -1)
    {
      self->hover_bar = -1;
      self->hover_segment = N_SEGS;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/* ------------------------------------------------------------------ */
/* GtkWidget                                                           */

static void
hr_memory_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);

  draw_chart (self, snapshot, self->hits,
              gtk_widget_get_width (widget), gtk_widget_get_height (widget));
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
      *minimum = pool ? 180 : 200;
      *natural = pool ? 200 : 380;
    }
  else
    {
      double width = for_size > 0 ? for_size : (pool ? 240 : 520);
      double height = draw_chart (self, NULL, NULL, width, 0);

      *minimum = *natural = (int) ceil (height);
    }
}

/* The pool column's legend wraps its long names, so its height follows
 * the width it gets; the models chart's does not. */
static GtkSizeRequestMode
hr_memory_chart_get_request_mode (GtkWidget *widget)
{
  return HR_MEMORY_CHART (widget)->mode == HR_MEMORY_CHART_MODE_POOL ?
         GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH : GTK_SIZE_REQUEST_CONSTANT_SIZE;
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
  if (position >= HR_MEMORY_CHART_MAX_BARS && removed == added)
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
  update_description (self);

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

  G_OBJECT_CLASS (hr_memory_chart_parent_class)->dispose (object);
}

static void
hr_memory_chart_finalize (GObject *object)
{
  HrMemoryChart *self = (HrMemoryChart *)object;

  g_clear_pointer (&self->bars, g_ptr_array_unref);
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
  widget_class->get_request_mode = hr_memory_chart_get_request_mode;
  widget_class->css_changed = hr_memory_chart_css_changed;
  widget_class->query_tooltip = hr_memory_chart_query_tooltip;

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

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "memorychart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_memory_chart_init (HrMemoryChart *self)
{
  GtkEventController *motion;

  self->bars = g_ptr_array_new_with_free_func (g_object_unref);
  self->hits = g_array_new (FALSE, FALSE, sizeof (HitRect));
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->hover_bar = -1;
  self->hover_segment = N_SEGS;
  self->description = g_strdup ("");

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
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
      if (self->mode == HR_MEMORY_CHART_MODE_POOL)
        update_description (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

/**
 * hr_memory_chart_get_description:
 * @self: a #HrMemoryChart
 *
 * The accessible description: every drawn bar's figures in words, e.g.
 * "llama3.2:3b: weights 2.0 GB, KV cache 0.47 GB, total 2.47 GB, fits with
 * 2.63 GB to spare."
 *
 * Returns: (transfer none): the description
 */
const char *
hr_memory_chart_get_description (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), NULL);

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

  layout = g_object_ref (cached_layout (self, heading, TRUE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE));
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

  height = heading_height (self, heading, width) + draw_chart (self, NULL, NULL, width, 0);
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
  draw_rect (snapshot, &self->colors.bg, 0, 0, width, height);

  offset = heading_height (self, heading, width);
  if (heading != NULL)
    {
      PangoLayout *layout = cached_layout (self, heading, TRUE, (int) (width - 2 * PAD), PANGO_ELLIPSIZE_NONE);

      draw_layout (snapshot, layout, PAD, PAD, &self->colors.fg);
    }

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (float) offset));
  draw_chart (self, snapshot, NULL, width, height - offset);
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
