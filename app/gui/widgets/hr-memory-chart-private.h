/* hr-memory-chart-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's fields and the functions its files share
 * (hr-memory-chart.c, hr-memory-chart-layout.c, hr-pool-chart.c,
 * hr-pool-columns.c, hr-memory-chart-text.c).
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
/* A bar's height (self->bar_height): 18 px, three times that when the
 * chart shows the selected model alone (HrMemoryChart:selected-only, the
 * presentation view). */
#define BAR_HEIGHT_NORMAL 18.0
#define BAR_HEIGHT_ALONE  54.0
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
  SEG_COMPUTE,   /* a device's compute buffer (llama-context.cpp sched_reserve) */
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

typedef struct {
  Segment segment;
  guint64 bytes;
} PoolPart;

/* One memory of the pool chart on a board with host memory: a GPU (or the
 * one GPU's VRAM) or host memory, bottom up resident, weights, KV cache,
 * compute buffer, reserve, free (hr-pool-columns.c). */
#define POOL_COLUMN_PARTS 6
typedef struct {
  char     caption[32];   /* over the column: "GPU 0", "VRAM", "Host" */
  char     name[128];     /* in words: "GPU 0 NVIDIA GeForce RTX 3090", "host memory" */
  gboolean host;          /* host memory, run by the CPU */
  gboolean binding;       /* the GPU full first */
  guint32  layers;        /* layers on it (host: on the CPU), the output layer counted */
  PoolPart parts[POOL_COLUMN_PARTS];
  guint64  budget_line;   /* where the budget line is drawn: pool - reserve */
  guint64  budget;        /* the model's budget there: pool - resident - reserve */
  guint64  pool;          /* the memory's size */
} PoolColumn;

/* Every GPU of a board, and host memory */
#define POOL_MAX_COLUMNS (HR_DEVICE_MAX + 1)

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
  gboolean           selected_only; /* draw the selected row's bar alone */
  double             bar_height;    /* BAR_HEIGHT_NORMAL or BAR_HEIGHT_ALONE, px */
  gboolean           exporting;   /* hr_memory_chart_render() draws: no selection, a total and verdict per bar */
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
  guint              description_id; /* the description's rebuild, due (0: up to date) */
  char              *learned_text; /* the board's learned overhead explained; NULL: no runtime */
  PoolColumn         columns[POOL_MAX_COLUMNS]; /* the pool's memories for a split model */
  guint              n_columns;    /* 0: not split (one pool column) */
  GPtrArray         *column_widgets; /* GtkWidget*, one per column: its accessible label */
  GtkAdjustment     *vadjustment;  /* the scrolled window's, while rooted: the legend stays in view */
  gulong             vadjustment_id;
  GtkAdjustment     *hadjustment;  /* the same sideways: a chart wider than its window keeps
                                    * its legend in view and whole */
  gulong             hadjustment_value_id, hadjustment_page_id;
  double             measured_page; /* the view's width the last measure flowed the legend in */
  guint              page_resize_id; /* a resize for a new view width, due (0: none) */
  gboolean           in_view;      /* measuring or drawing for the screen (not an export):
                                    * the legend flows in the view (_hr_memory_chart_legend_span()) */
};

/* resident, weights, KV cache, overhead, learned overhead, reserve, free */
#define POOL_MAX_PARTS 7

gboolean _hr_memory_chart_board_lines (HrMemoryChart *self, guint64 out[3]);
void _hr_memory_chart_add_hit (GArray *hits, double x, double y, double width, double height, guint bar, Segment segment);
PangoLayout * _hr_memory_chart_cached_layout (HrMemoryChart *self, const char *text, gboolean bold, int width, PangoEllipsizeMode ellipsize);
double _hr_memory_chart_draw_chart (HrMemoryChart *self, GtkSnapshot *snapshot, GArray *hits, double width, double height);
void _hr_memory_chart_legend_span (HrMemoryChart *self, double width, double *x, double *span);
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
void _hr_memory_chart_refresh_columns (HrMemoryChart *self);
char * _hr_memory_chart_column_text (HrMemoryChart *self, guint column);
double _hr_memory_chart_draw_columns (HrMemoryChart *self, GtkSnapshot *snapshot, GArray *hits, double width, double height, double y);
void _hr_memory_chart_allocate_columns (HrMemoryChart *self, int width, int height);
double _hr_memory_chart_draw_legend (HrMemoryChart *self, GtkSnapshot *snapshot, double x0, double y0, double width, const Segment *segments, const guint64 *values, guint n);
guint _hr_memory_chart_pool_parts (HrMemoryChart *self, PoolPart *parts, guint64 *out_sum);
const char * _hr_memory_chart_pool_segment_label (HrMemoryChart *self, Segment segment);
const char * _hr_memory_chart_segment_label (Segment segment);
int _hr_memory_chart_text_height (HrMemoryChart *self);
void _hr_memory_chart_update_description (HrMemoryChart *self);
void _hr_memory_chart_flush_description (HrMemoryChart *self);

G_END_DECLS
