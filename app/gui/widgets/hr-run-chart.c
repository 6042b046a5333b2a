/* hr-run-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-gui-format.h"
#include "hr-ollama-client.h"
#include "hr-run-chart.h"

/*
 * Two panels side by side, each with one bar per run in the order the runs
 * completed: TTFT (ms, lower is better) and decode rate (tokens/s, higher is
 * better). A cold run's bar is drawn in a lighter shade. A figure that is
 * not known (-1) leaves the bar out and says "n/a" under it. Rectangles and
 * text only: gtk_snapshot_append_color() and gtk_snapshot_append_layout().
 */

#define PAD        10.0
#define TITLE_GAP   6.0
#define LABEL_H    16.0
#define BAR_GAP     6.0
#define PANEL_GAP  24.0

typedef struct {
  char    *label;       /* "2048 #1" */
  gboolean cold;
  double   ttft_ms;     /* -1 = n/a */
  double   decode_tps;  /* -1 = n/a */
} Run;

struct _HrRunChart
{
  GtkWidget  parent_instance;

  GArray    *runs;      /* Run */
  char      *description;
  GdkRGBA    fg;
  GdkRGBA    ttft;
  GdkRGBA    decode;
  GdkRGBA    grid;
};

G_DEFINE_FINAL_TYPE (HrRunChart, hr_run_chart, GTK_TYPE_WIDGET)

static void
run_clear (gpointer data)
{
  Run *run = data;

  g_free (run->label);
}

static void
lookup_color (GtkWidget  *widget,
              const char *name,
              const char *fallback,
              GdkRGBA    *out)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (context, name, out))
    gdk_rgba_parse (out, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
hr_run_chart_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  HrRunChart *self = HR_RUN_CHART (widget);

  GTK_WIDGET_CLASS (hr_run_chart_parent_class)->css_changed (widget, change);

  lookup_color (widget, "window_fg_color", "rgba(0,0,0,0.8)", &self->fg);
  lookup_color (widget, "accent_color", "#1c71d8", &self->ttft);
  lookup_color (widget, "success_color", "#26a269", &self->decode);
  self->grid = self->fg;
  self->grid.alpha *= 0.15f;
  gtk_widget_queue_draw (widget);
}

static void
draw_text (GtkSnapshot *snapshot,
           GtkWidget   *widget,
           const char  *text,
           double       x,
           double       y,
           double       width,
           gboolean     centered,
           const GdkRGBA *color)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  if (centered)
    pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

static char *
format_value (double value,
              int    digits)
{
  if (value < 0 || !isfinite (value))
    return g_strdup (_("n/a"));
  return hr_gui_format_decimal (value, digits == 0 ? 0 : 1);
}

static void
draw_panel (HrRunChart  *self,
            GtkSnapshot *snapshot,
            const char  *title,
            gsize        offset,
            int          digits,
            const GdkRGBA *color,
            double       x,
            double       y,
            double       width,
            double       height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double max = 0;
  double plot_top = y + LABEL_H + TITLE_GAP;
  double plot_bottom = y + height - LABEL_H * 2;
  double plot_h = plot_bottom - plot_top - LABEL_H;
  guint n = self->runs->len;
  double slot;
  GdkRGBA light = *color;

  light.alpha *= 0.55f;
  draw_text (snapshot, widget, title, x, y, width, FALSE, &self->fg);
  gtk_snapshot_append_color (snapshot, &self->grid,
                             &GRAPHENE_RECT_INIT ((float) x, (float) plot_bottom, (float) width, 1));
  if (n == 0 || plot_h <= 4)
    return;

  for (guint i = 0; i < n; i++)
    {
      const Run *run = &g_array_index (self->runs, Run, i);
      double value = G_STRUCT_MEMBER (double, run, offset);

      if (value > max)
        max = value;
    }

  slot = width / n;
  for (guint i = 0; i < n; i++)
    {
      const Run *run = &g_array_index (self->runs, Run, i);
      double value = G_STRUCT_MEMBER (double, run, offset);
      double bar_w = MAX (2.0, slot - BAR_GAP);
      double bx = x + i * slot + (slot - bar_w) / 2;
      g_autofree char *text = format_value (value, digits);

      if (value > 0 && max > 0)
        {
          double bh = MAX (1.0, value / max * plot_h);

          gtk_snapshot_append_color (snapshot, run->cold ? &light : color,
                                     &GRAPHENE_RECT_INIT ((float) bx, (float) (plot_bottom - bh),
                                                          (float) bar_w, (float) bh));
          draw_text (snapshot, widget, text, x + i * slot, plot_bottom - bh - LABEL_H, slot, TRUE, &self->fg);
        }
      else
        {
          draw_text (snapshot, widget, text, x + i * slot, plot_bottom - LABEL_H, slot, TRUE, &self->fg);
        }
      draw_text (snapshot, widget, run->label, x + i * slot, plot_bottom + 2, slot, TRUE, &self->fg);
      if (run->cold)
        draw_text (snapshot, widget, _("cold"), x + i * slot, plot_bottom + 2 + LABEL_H, slot, TRUE, &self->fg);
    }
}

static void
hr_run_chart_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  HrRunChart *self = HR_RUN_CHART (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  double panel_w = (width - 2 * PAD - PANEL_GAP) / 2;

  if (panel_w < 40 || height < 60)
    return;

  if (self->runs->len == 0)
    {
      GdkRGBA dim = self->fg;

      dim.alpha *= 0.55f;
      draw_text (snapshot, widget, _("Each run appears here as it completes."),
                 PAD, height / 2 - LABEL_H / 2, width - 2 * PAD, TRUE, &dim);
      return;
    }

  draw_panel (self, snapshot, _("TTFT (ms)"), G_STRUCT_OFFSET (Run, ttft_ms), 0, &self->ttft,
              PAD, PAD, panel_w, height - 2 * PAD);
  draw_panel (self, snapshot, _("Decode (tokens/s)"), G_STRUCT_OFFSET (Run, decode_tps), 1, &self->decode,
              PAD + panel_w + PANEL_GAP, PAD, panel_w, height - 2 * PAD);
}

static void
hr_run_chart_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 600;
    }
  else
    {
      *minimum = 160;
      *natural = 200;
    }
}

static void
update_description (HrRunChart *self)
{
  GString *s = g_string_new (NULL);

  if (self->runs->len == 0)
    g_string_append (s, _("No runs yet."));
  for (guint i = 0; i < self->runs->len; i++)
    {
      const Run *run = &g_array_index (self->runs, Run, i);
      g_autofree char *ttft = format_value (run->ttft_ms, 0);
      g_autofree char *tps = format_value (run->decode_tps, 1);

      if (i > 0)
        g_string_append (s, "; ");
      /* Translators: one run in the chart's description: its label, cold or warm, TTFT ms, decode t/s */
      g_string_append_printf (s, _("%1$s (%2$s): TTFT %3$s ms, decode %4$s t/s"),
                              run->label, run->cold ? _("cold") : _("warm"), ttft, tps);
    }
  g_free (self->description);
  self->description = g_string_free (s, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->description,
                                  -1);
}

static void
hr_run_chart_finalize (GObject *object)
{
  HrRunChart *self = (HrRunChart *)object;

  g_clear_pointer (&self->runs, g_array_unref);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (hr_run_chart_parent_class)->finalize (object);
}

static void
hr_run_chart_class_init (HrRunChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = hr_run_chart_finalize;
  widget_class->snapshot = hr_run_chart_snapshot;
  widget_class->measure = hr_run_chart_measure;
  widget_class->css_changed = hr_run_chart_css_changed;

  gtk_widget_class_set_css_name (widget_class, "runchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_run_chart_init (HrRunChart *self)
{
  self->runs = g_array_new (FALSE, TRUE, sizeof (Run));
  g_array_set_clear_func (self->runs, run_clear);
  gdk_rgba_parse (&self->fg, "rgba(0,0,0,0.8)");
  gdk_rgba_parse (&self->ttft, "#1c71d8");
  gdk_rgba_parse (&self->decode, "#26a269");
  gdk_rgba_parse (&self->grid, "rgba(0,0,0,0.15)");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("TTFT and decode rate per run"),
                                  -1);
  update_description (self);
}

/**
 * hr_run_chart_new:
 *
 * Returns: (transfer floating): a new, empty #HrRunChart
 */
GtkWidget *
hr_run_chart_new (void)
{
  return g_object_new (HR_TYPE_RUN_CHART, NULL);
}

/**
 * hr_run_chart_clear:
 * @self: a #HrRunChart
 *
 * Removes every run.
 */
void
hr_run_chart_clear (HrRunChart *self)
{
  g_return_if_fail (HR_IS_RUN_CHART (self));

  g_array_set_size (self->runs, 0);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * hr_run_chart_add_run:
 * @self: a #HrRunChart
 * @label: the run's label under its bars ("2048 #1": num_ctx and run)
 * @cold: whether the model was unloaded before the run
 * @ttft_ms: client time to first token in ms, or -1 when there was none
 * @decode_tps: decode tokens/s (eval_count / eval_duration x 1e9), or -1
 *   when not computable
 *
 * Adds one completed run at the right end.
 */
void
hr_run_chart_add_run (HrRunChart *self,
                      const char *label,
                      gboolean    cold,
                      double      ttft_ms,
                      double      decode_tps)
{
  Run run = { 0 };

  g_return_if_fail (HR_IS_RUN_CHART (self));
  g_return_if_fail (label != NULL);

  run.label = g_strdup (label);
  run.cold = cold;
  run.ttft_ms = ttft_ms;
  run.decode_tps = decode_tps;
  g_array_append_val (self->runs, run);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * hr_run_chart_get_n_runs:
 * @self: a #HrRunChart
 *
 * Returns: the runs drawn
 */
guint
hr_run_chart_get_n_runs (HrRunChart *self)
{
  g_return_val_if_fail (HR_IS_RUN_CHART (self), 0);

  return self->runs->len;
}

/**
 * hr_run_chart_get_description:
 * @self: a #HrRunChart
 *
 * Returns: (transfer none): the accessible description: every run with its
 *   TTFT in ms and decode rate in tokens/s
 */
const char *
hr_run_chart_get_description (HrRunChart *self)
{
  g_return_val_if_fail (HR_IS_RUN_CHART (self), NULL);

  return self->description;
}
