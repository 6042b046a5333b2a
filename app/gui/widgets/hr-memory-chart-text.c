/* hr-memory-chart-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart's words: the segments' names, the accessible description
 * of what is drawn and the tooltips of the hovered segment.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-memory-chart-private.h"
#include "hr-pool.h"

const char *
_hr_memory_chart_segment_label (Segment segment)
{
  switch (segment)
    {
    case SEG_WEIGHTS:       return _("Weights");
    case SEG_KV_CACHE:      return _("KV cache");
    case SEG_OVERHEAD:      return _("Overhead");
    case SEG_LEARNED:       return _("Learned overhead");
    /* Translators: a device's compute buffer, in the pool chart */
    case SEG_COMPUTE:       return _("Compute buffer");
    /* Translators: a partial model's part on the GPU */
    case SEG_VRAM:          return _("VRAM");
    /* Translators: a partial model's part in host memory, run by the CPU */
    case SEG_HOST:          return _("Host memory");
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
/* Description and tooltips                                            */

/* Appends "..., 1.2 GB into the 2 GB reserve" (or past the headroom and
 * the pool line) when the pool's parts @sum past its memory. */
static void
describe_pool_overflow (HrMemoryChart *self,
                        GString       *text,
                        guint64        sum)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (self->selected);
  g_autofree char *past = NULL;
  g_autofree char *reserve = NULL;

  if (sum <= self->board->pool_bytes)
    return;

  past = hr_gui_format_size_fixed (sum - self->board->pool_bytes, self->unit);
  reserve = hr_gui_format_size_fixed (self->board->reserve_bytes, self->unit);
  g_string_append (text, "; ");
  if (e->verdict == HR_VERDICT_OVER)
    {
      g_autofree char *over = hr_gui_format_size_fixed (e->margin_bytes, self->unit);

      g_string_append_printf (text, _("%s past the headroom"), over);
      g_string_append (text, ", ");
      g_string_append_printf (text, _("%s past the pool line with the %s reserve"), past, reserve);
    }
  else
    g_string_append_printf (text, _("%s into the %s reserve"), past, reserve);
}

/* The pool chart's description: the board, and the selected model's
 * parts per memory (a board with host memory) or in the one pool. */
static void
describe_pool (HrMemoryChart *self,
               GString       *text)
{
  g_autofree char *pool = hr_gui_format_size (self->board->pool_bytes, self->unit);
  PoolPart parts[POOL_MAX_PARTS];
  guint64 sum;
  guint n;

  if (self->selected == NULL)
    {
      g_string_append_printf (text, _("%s pool %s; no model selected"), self->board->name, pool);
      return;
    }
  if (self->n_columns > 0)
    {
      /* Translators: the pool's description on a board with host memory, then each
         memory's figures: "2 × RTX 3090 with llama3.1:70b: GPU 0 ...; GPU 1 ...; host memory ..." */
      g_string_append_printf (text, _("%s with %s:"), self->board->name,
                              hr_model_row_get_name (self->selected));
      for (guint c = 0; c < self->n_columns; c++)
        {
          g_autofree char *column = _hr_memory_chart_column_text (self, c);

          g_string_append_printf (text, "%s %s", c == 0 ? "" : ";", column);
        }
      return;
    }

  n = _hr_memory_chart_pool_parts (self, parts, &sum);
  g_string_append_printf (text, _("%s pool %s with %s:"), self->board->name, pool,
                          hr_model_row_get_name (self->selected));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *size = hr_gui_format_size (parts[i].bytes, self->unit);

      g_string_append_printf (text, "%s %s %s", i == 0 ? "" : ",",
                              _hr_memory_chart_segment_label (parts[i].segment), size);
    }
  describe_pool_overflow (self, text, sum);
}

/* Appends " name: weights ..., total ..., verdict." for one bar. */
static void
describe_model_bar (HrMemoryChart *self,
                    GString       *text,
                    HrModelRow    *row)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (row);
  g_autofree char *weights = hr_gui_format_size (e->footprint.weights, self->unit);
  g_autofree char *kv = hr_gui_format_size (e->footprint.kv_cache, self->unit);
  g_autofree char *total = hr_gui_format_size (e->footprint.total, self->unit);
  g_autofree char *verdict = hr_gui_format_verdict_sentence (e->verdict, e->margin_bytes,
                                                             self->unit);

  g_string_append_c (text, ' ');
  if (e->split && e->verdict == HR_VERDICT_PARTIAL)
    {
      g_autofree char *split = hr_gui_format_evaluation_sentence (e, self->unit);

      /* Translators: what a screen reader says for a bar split between GPU and CPU:
         model, total, "partial: 34 of 49 layers on the GPU, 10.65 GB in VRAM and ..." */
      g_string_append_printf (text, _("%1$s: total %2$s, %3$s; %4$s."),
                              hr_model_row_get_name (row), total, split, verdict);
    }
  else if (e->footprint.overhead > 0)
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

/* The models chart's description: the board's lines, the learned
 * overhead, each bar, and how many rows are not drawn. */
static void
describe_models (HrMemoryChart *self,
                 GString       *text)
{
  guint64 lines[3];
  gboolean summed = _hr_memory_chart_board_lines (self, lines);
  g_autofree char *budget = hr_gui_format_size (lines[0], self->unit);
  g_autofree char *headroom = hr_gui_format_size (lines[1], self->unit);
  g_autofree char *pool = hr_gui_format_size (lines[2], self->unit);

  if (summed)
    /* Translators: the memory chart's description on a board with several GPUs: its name,
       how many GPUs, then the sums of their budgets, headroom and memory */
    g_string_append_printf (text, _("Memory per model on %1$s: its %2$u GPUs together budget %3$s, "
                                    "headroom %4$s, pool %5$s."),
                            self->board->name, self->board->devices->len, budget, headroom, pool);
  else
    g_string_append_printf (text, _("Memory per model on %s: budget %s, headroom %s, pool %s."),
                            self->board->name, budget, headroom, pool);
  if (self->learned_text != NULL)
    {
      g_string_append_c (text, ' ');
      /* Translators: the chart's description: the learned overhead, then what it rests on */
      g_string_append_printf (text, _("Overhead includes the learned overhead: %s."), self->learned_text);
    }

  for (guint i = 0; i < self->bars->len; i++)
    describe_model_bar (self, text, g_ptr_array_index (self->bars, i));

  if (self->n_rows > self->bars->len)
    {
      g_autofree char *more = hr_gui_format_count (self->n_rows - self->bars->len);

      g_string_append_c (text, ' ');
      g_string_append_printf (text, _("%s more models are in the list but not drawn."), more);
    }
}

/* The accessible description rebuilt from the chart's bars. */
static void
build_description (HrMemoryChart *self)
{
  GString *text = g_string_new (NULL);

  if (!self->has_scenario)
    g_string_append (text, _("No board selected"));
  else if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    describe_pool (self, text);
  else
    describe_models (self, text);

  g_free (self->description);
  self->description = g_string_free (text, FALSE);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->description,
                                  -1);
}

static gboolean
on_description_due (gpointer user_data)
{
  HrMemoryChart *self = user_data;

  self->description_id = 0;
  build_description (self);
  return G_SOURCE_REMOVE;
}

/* How long after a change the description is rebuilt, in milliseconds. A
 * drag of the context slider changes the bars on every frame; a screen
 * reader wants the figures where the slider stops, not sixty descriptions
 * a second, and each one formats every bar's sizes. */
#define DESCRIPTION_DELAY_MS 200

/* The bars changed: the description is rebuilt once, DESCRIPTION_DELAY_MS
 * after the first change since the last rebuild, or at once when it is
 * read (hr_memory_chart_get_description(), _hr_memory_chart_flush_description()). */
void
_hr_memory_chart_update_description (HrMemoryChart *self)
{
  if (self->description_id == 0)
    self->description_id = g_timeout_add (DESCRIPTION_DELAY_MS, on_description_due, self);
}

/* A rebuild that is due, done now. */
void
_hr_memory_chart_flush_description (HrMemoryChart *self)
{
  if (self->description_id == 0)
    return;
  g_clear_handle_id (&self->description_id, g_source_remove);
  build_description (self);
}

/* The tooltip of a column's part on a board with host memory. */
static char *
column_tooltip (HrMemoryChart *self,
                const HitRect *hit)
{
  /* The memories of a board with host memory: the column's figure */
  const char *memory = self->columns[hit->bar].name;
  guint64 bytes = _hr_memory_chart_split_part (self, hit->bar, hit->segment);
  g_autofree char *count = hr_gui_format_count (bytes);
  g_autofree char *size = hr_gui_format_size_both (bytes);

  /* Translators: a pool tooltip on a board with two memories: the part, which memory,
     exact bytes, size */
  return g_strdup_printf (_("%1$s of the %2$s\n%3$s bytes = %4$s"),
                          _hr_memory_chart_segment_label (hit->segment), memory, count, size);
}

/* A model's part (weights to learned overhead) of @row: sets @bytes,
 * returns how it is worked out. */
static char *
model_part_formula (HrMemoryChart *self,
                    Segment        segment,
                    HrModelRow    *row,
                    guint64       *bytes)
{
  const HrModelSpec *spec = hr_model_row_get_spec (row);
  const HrEvaluation *e = hr_model_row_get_evaluation (row);
  gboolean learned = self->learned_text != NULL;

  switch (segment)
    {
    case SEG_WEIGHTS:
      *bytes = e->footprint.weights;
      if (learned && !hr_model_row_get_runtime_failed (row))
        return g_strdup (_("as the runtime loads them: weights on the GPU and the output layer, and on a "
                           "unified board what stays in host memory; the explain panel shows each term"));
      return hr_formula_weights (spec, &self->scenario, e);
    case SEG_KV_CACHE:
      *bytes = e->footprint.kv_cache;
      if (learned && !hr_model_row_get_runtime_failed (row))
        return g_strdup (_("as the runtime allocates it, padded to its cells (and any recurrent state); "
                           "the explain panel shows the formula"));
      return hr_formula_kv_cache (spec, &self->scenario, e);
    case SEG_OVERHEAD:
      if (!learned)
        {
          *bytes = e->footprint.overhead;
          return hr_formula_overhead (e);
        }
      *bytes = _hr_memory_chart_overhead_part (row);
      return g_strdup (_("what the runtime loads besides the weights and the KV cache: its "
                         "compute buffer (the old estimator also a reserve and a buffer layer); "
                         "the explain panel shows each term"));
    case SEG_VRAM:
      *bytes = e->vram_bytes;
      /* Translators: a chart tooltip of a partial model's VRAM part */
      return g_strdup_printf (_("%1$u of %2$u layers on the GPU, with their KV cache and the GPU's "
                                "compute buffer (PROCESSOR %3$s); the explain panel shows each term"),
                              e->gpu_layers, e->total_layers, e->processor);
    case SEG_HOST:
      *bytes = e->host_bytes;
      /* Translators: a chart tooltip of a partial model's host part */
      return g_strdup_printf (_("%u layers in host memory, run by the CPU, with the token embedding, "
                                "their KV cache and the CPU's compute buffer"),
                              e->total_layers - e->gpu_layers);
    case SEG_LEARNED:
    default:
      *bytes = _hr_memory_chart_learned_part (row);
      return g_strdup (self->learned_text ? self->learned_text : "");
    }
}

/* A pool band (resident, reserve, free): sets @bytes, returns what it
 * holds. */
static char *
pool_band_formula (HrMemoryChart *self,
                   Segment        segment,
                   guint64       *bytes)
{
  PoolPart parts[POOL_MAX_PARTS];
  guint64 sum;
  guint n;

  switch (segment)
    {
    case SEG_RESIDENT:
      *bytes = self->board->resident_bytes;
      if (self->board->unified)
        {
          HrPoolLayout layout;

          hr_pool_layout (self->board, &layout);
          return g_strdup (layout.bands[HR_POOL_BAND_RESIDENT].note);
        }
      return g_strdup (_("held by the OS and the app's own stack before any model loads"));
    case SEG_RESERVE:
      *bytes = self->board->reserve_bytes;
      return g_strdup (_("held back for bursts and other processes"));
    case SEG_FREE:
    default:
      n = _hr_memory_chart_pool_parts (self, parts, &sum);
      *bytes = parts[n - 1].bytes;
      return g_strdup (_("pool - resident - weights - KV cache - overhead - reserve"));
    }
}

/* A board line (budget, headroom, pool): sets @bytes, returns how it is
 * worked out; on a models chart of several GPUs, the sums over them. */
static char *
board_line_formula (HrMemoryChart *self,
                    Segment        segment,
                    guint64       *bytes)
{
  guint64 lines[3];

  if (self->mode == HR_MEMORY_CHART_MODE_MODELS && _hr_memory_chart_board_lines (self, lines))
    {
      *bytes = lines[segment - SEG_LINE_BUDGET];
      return g_strdup (segment == SEG_LINE_BUDGET
                       /* Translators: a chart tooltip of the budget line on a board with several GPUs */
                       ? _("the sum over its GPUs of memory - resident - reserve; each GPU's own is in the pool chart")
                       : segment == SEG_LINE_HEADROOM
                       ? _("the sum over its GPUs of memory - resident")
                       : _("the sum of its GPUs' memory"));
    }
  if (segment == SEG_LINE_BUDGET)
    {
      *bytes = hr_board_budget_bytes (self->board);
      return hr_formula_budget (self->board);
    }
  if (segment == SEG_LINE_HEADROOM)
    {
      *bytes = hr_board_headroom_bytes (self->board);
      return hr_formula_headroom (self->board);
    }
  *bytes = self->board->pool_bytes;
  return g_strdup_printf (_("the memory of %s"), self->board->name);
}

/* The row a hit belongs to: the selected model in the pool chart, the
 * hit's bar in the models chart (none for a board line). */
static HrModelRow *
row_for_hit (HrMemoryChart *self,
             const HitRect *hit)
{
  if (self->mode == HR_MEMORY_CHART_MODE_POOL)
    return self->selected;
  if (hit->segment < SEG_LINE_BUDGET && hit->bar < self->bars->len)
    return g_ptr_array_index (self->bars, hit->bar);
  return NULL;
}

static char *
tooltip_for_hit (HrMemoryChart *self,
                 const HitRect *hit)
{
  HrModelRow *row;
  g_autofree char *formula = NULL;
  const char *name = NULL;
  guint64 bytes = 0;
  g_autofree char *count = NULL;
  g_autofree char *size = NULL;

  if (self->mode == HR_MEMORY_CHART_MODE_POOL && self->n_columns > 0 && hit->bar < self->n_columns)
    return column_tooltip (self, hit);

  row = row_for_hit (self, hit);
  if (row != NULL)
    name = hr_model_row_get_name (row);

  switch (hit->segment)
    {
    case SEG_WEIGHTS:
    case SEG_KV_CACHE:
    case SEG_OVERHEAD:
    case SEG_VRAM:
    case SEG_HOST:
    case SEG_LEARNED:
      g_return_val_if_fail (row != NULL, NULL);
      formula = model_part_formula (self, hit->segment, row, &bytes);
      break;
    case SEG_RESIDENT:
    case SEG_RESERVE:
    case SEG_FREE:
      formula = pool_band_formula (self, hit->segment, &bytes);
      break;
    case SEG_LINE_BUDGET:
    case SEG_LINE_HEADROOM:
    case SEG_LINE_POOL:
      name = NULL;
      formula = board_line_formula (self, hit->segment, &bytes);
      break;
    case N_SEGS:
    default:
      return NULL;
    }

  count = hr_gui_format_count (bytes);
  size = hr_gui_format_size_both (bytes);

  if (name != NULL)
    /* Translators: a chart tooltip: model, segment, exact bytes, size, formula */
    return g_strdup_printf (_("%1$s: %2$s\n%3$s bytes = %4$s\n%5$s"),
                            name, _hr_memory_chart_pool_segment_label (self, hit->segment), count, size, formula);

  return g_strdup_printf (_("%1$s\n%2$s bytes = %3$s\n%4$s"),
                          _hr_memory_chart_pool_segment_label (self, hit->segment), count, size, formula);
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

gboolean
_hr_memory_chart_query_tooltip (GtkWidget  *widget,
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

void
_hr_memory_chart_on_motion (GtkEventControllerMotion *controller,
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

void
_hr_memory_chart_on_leave (GtkEventControllerMotion *controller,
                           HrMemoryChart            *self)
{
  if (self->hover_bar != -1)
    {
      self->hover_bar = -1;
      self->hover_segment = N_SEGS;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}
