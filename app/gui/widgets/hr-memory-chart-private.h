/* hr-memory-chart-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's fields and the functions its files share
 * (hr-memory-chart.c, hr-memory-chart-layout.c, hr-pool-chart.c,
 * hr-memory-chart-text.c).
 */
#pragma once

#include "hr-memory-chart.h"

G_BEGIN_DECLS
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
  SEG_VRAM,      /* a partial model's bytes on the GPU (hr-offload.h) */
  SEG_HOST,      /* and in host memory */
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

typedef struct {
  Segment segment;
  guint64 bytes;
} PoolPart;

/* resident, weights, KV cache, overhead, learned overhead, reserve, free */
#define POOL_MAX_PARTS 7

void _hr_memory_chart_add_hit (GArray *hits, double x, double y, double width, double height, guint bar, Segment segment);
PangoLayout * _hr_memory_chart_cached_layout (HrMemoryChart *self, const char *text, gboolean bold, int width, PangoEllipsizeMode ellipsize);
double _hr_memory_chart_draw_chart (HrMemoryChart *self, GtkSnapshot *snapshot, GArray *hits, double width, double height);
void _hr_memory_chart_draw_layout (GtkSnapshot *snapshot, PangoLayout *layout, double x, double y, const GdkRGBA *color);
double _hr_memory_chart_draw_models (HrMemoryChart *self, GtkSnapshot *snapshot, GArray *hits, double width, double height);
void _hr_memory_chart_draw_rect (GtkSnapshot *snapshot, const GdkRGBA *color, double x, double y, double width, double height);
gboolean _hr_memory_chart_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode, GtkTooltip *tooltip);
guint64 _hr_memory_chart_learned_part (HrModelRow *row);
PangoLayout * _hr_memory_chart_make_layout (HrMemoryChart *self, const char *text, gboolean bold);
void _hr_memory_chart_on_leave (GtkEventControllerMotion *controller, HrMemoryChart *self);
void _hr_memory_chart_on_motion (GtkEventControllerMotion *controller, double x, double y, HrMemoryChart *self);
guint64 _hr_memory_chart_overhead_part (HrModelRow *row);
gboolean _hr_memory_chart_pool_is_split (HrMemoryChart *self);
guint64 _hr_memory_chart_split_part (HrMemoryChart *self, guint bar, Segment segment);
guint _hr_memory_chart_pool_parts (HrMemoryChart *self, PoolPart *parts, guint64 *out_sum);
const char * _hr_memory_chart_pool_segment_label (HrMemoryChart *self, Segment segment);
const char * _hr_memory_chart_segment_label (Segment segment);
int _hr_memory_chart_text_height (HrMemoryChart *self);
void _hr_memory_chart_update_description (HrMemoryChart *self);

G_END_DECLS
