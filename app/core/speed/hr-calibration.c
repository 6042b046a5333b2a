/* hr-calibration.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The learned residual: see hr-calibration.h.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-measurement.h"
#include "hr-units.h"

#define SRC_LEARNED \
  "Headroom app/core/speed/hr-calibration.c: least-squares fit of reported - predicted (/api/ps size less the " \
  "runtime model's total) = a + b x num_ctx over this board's measurements at this server version, " \
  "outliers beyond 3 x 1.4826 x MAD of a Theil-Sen line set aside"

/* The points the fit sees, as doubles. */
typedef struct {
  double x;
  double y;
} Pt;

static int
compare_double (const void *a,
                const void *b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return (da > db) - (da < db);
}

/* Median of @values (reorders them). */
static double
median (double *values,
        gsize   n)
{
  if (n == 0)
    return 0.0;
  qsort (values, n, sizeof (double), compare_double);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

/* Ordinary least squares of y = a + b x over the points marked in @use;
 * a constant (the mean) when fewer than two distinct contexts. */
static void
least_squares (const Pt       *pts,
               const gboolean *use,
               gsize           n,
               double         *out_a,
               double         *out_b,
               gboolean       *out_linear)
{
  double sx = 0, sy = 0, mx, my, sxx = 0, sxy = 0;
  gsize m = 0;

  for (gsize i = 0; i < n; i++)
    if (use[i])
      {
        sx += pts[i].x;
        sy += pts[i].y;
        m++;
      }
  mx = sx / m;
  my = sy / m;
  for (gsize i = 0; i < n; i++)
    if (use[i])
      {
        sxx += (pts[i].x - mx) * (pts[i].x - mx);
        sxy += (pts[i].x - mx) * (pts[i].y - my);
      }
  if (m < 2 || sxx <= 0.0)
    {
      *out_a = my;
      *out_b = 0.0;
      *out_linear = FALSE;
      return;
    }
  *out_b = sxy / sxx;
  *out_a = my - *out_b * mx;
  *out_linear = TRUE;
}

/* Theil-Sen: the median of the pairwise slopes and the median intercept;
 * one bad point cannot drag it the way it drags least squares. */
static void
theil_sen (const Pt *pts,
           gsize     n,
           double   *out_a,
           double   *out_b)
{
  g_autofree double *slopes = g_new (double, n * (n - 1) / 2 + 1);
  g_autofree double *intercepts = g_new (double, n);
  gsize k = 0;

  for (gsize i = 0; i < n; i++)
    for (gsize j = i + 1; j < n; j++)
      if (pts[j].x != pts[i].x)
        slopes[k++] = (pts[j].y - pts[i].y) / (pts[j].x - pts[i].x);
  *out_b = k > 0 ? median (slopes, k) : 0.0;
  for (gsize i = 0; i < n; i++)
    intercepts[i] = pts[i].y - *out_b * pts[i].x;
  *out_a = median (intercepts, n);
}

/* Caps the pairwise work of Theil-Sen. */
#define MAX_POINTS 4096

/**
 * hr_calibration_fit:
 * @points: (array length=n_points) (nullable): measured residuals
 * @n_points: how many (0 is allowed)
 * @out: (out caller-allocates): the fit
 * @error: return location for a #GError
 *
 * Fits residual = a + b x context tokens by least squares:
 *  - no point: %HR_CALIBRATION_NONE (a = b = 0; the overhead is the model's
 *    estimate);
 *  - one point, or every point at one context: %HR_CALIBRATION_CONSTANT,
 *    a = their mean, b = 0;
 *  - otherwise %HR_CALIBRATION_LINEAR.
 * Outliers (from three points up): a Theil-Sen line is fitted first; a point
 * whose deviation from the median deviation is more than
 * max(3 x 1.4826 x MAD, %HR_CALIBRATION_OUTLIER_FLOOR_BYTES) is set aside
 * (MAD = the median absolute deviation, 1.4826 x MAD estimates the standard
 * deviation of normal noise), as long as two points remain; least squares
 * then runs on the rest. residual_rms_bytes is what is left over the points
 * used.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT when @points is
 *   %NULL but @n_points is not 0, or %HR_CORE_ERROR_LIMIT past 4096 points.
 */
gboolean
hr_calibration_fit (const HrResidualPoint *points,
                    guint                  n_points,
                    HrCalibration         *out,
                    GError               **error)
{
  g_autofree Pt *pts = NULL;
  g_autofree gboolean *use = NULL;
  double a, b, sum2 = 0.0;
  gboolean linear;

  memset (out, 0, sizeof *out);
  if (n_points > 0 && points == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("%u measured sizes were promised but none given"), n_points);
      return FALSE;
    }
  if (n_points > MAX_POINTS)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("%u measured sizes are more than the %u the fit takes"), n_points, MAX_POINTS);
      return FALSE;
    }
  out->n_points = n_points;
  if (n_points == 0)
    {
      out->kind = HR_CALIBRATION_NONE;
      return TRUE;
    }

  pts = g_new (Pt, n_points);
  use = g_new (gboolean, n_points);
  for (guint i = 0; i < n_points; i++)
    {
      pts[i].x = points[i].context_tokens;
      pts[i].y = (double) points[i].residual_bytes;
      use[i] = TRUE;
    }

  if (n_points >= 3)
    {
      g_autofree double *dev = g_new (double, n_points);
      g_autofree double *abs_dev = g_new (double, n_points);
      g_autofree double *sorted = g_new (double, n_points);
      double ta, tb, med, mad, threshold;
      guint n_out = 0;

      theil_sen (pts, n_points, &ta, &tb);
      for (guint i = 0; i < n_points; i++)
        dev[i] = pts[i].y - (ta + tb * pts[i].x);
      memcpy (sorted, dev, n_points * sizeof (double));
      med = median (sorted, n_points);
      for (guint i = 0; i < n_points; i++)
        abs_dev[i] = fabs (dev[i] - med);
      memcpy (sorted, abs_dev, n_points * sizeof (double));
      mad = median (sorted, n_points);
      threshold = MAX (3.0 * 1.4826 * mad, HR_CALIBRATION_OUTLIER_FLOOR_BYTES);
      for (guint i = 0; i < n_points; i++)
        if (abs_dev[i] > threshold)
          n_out++;
      if (n_points - n_out >= 2)
        for (guint i = 0; i < n_points; i++)
          if (abs_dev[i] > threshold)
            {
              use[i] = FALSE;
              out->n_outliers++;
            }
    }

  least_squares (pts, use, n_points, &a, &b, &linear);
  out->kind = linear ? HR_CALIBRATION_LINEAR : HR_CALIBRATION_CONSTANT;
  out->constant_bytes = a;
  out->bytes_per_token = b;
  out->n_used = n_points - out->n_outliers;
  for (guint i = 0; i < n_points; i++)
    if (use[i])
      {
        double e = pts[i].y - (a + b * pts[i].x);
        sum2 += e * e;
      }
  out->residual_rms_bytes = sqrt (sum2 / out->n_used);
  return TRUE;
}

/**
 * hr_calibration_overhead_bytes:
 * @calibration: a fit
 * @context_tokens: num_ctx
 *
 * Returns: a + b x @context_tokens, rounded to a byte (may be negative: the
 *   model can overshoot); 0 with no fit.
 */
gint64
hr_calibration_overhead_bytes (const HrCalibration *calibration,
                               guint32              context_tokens)
{
  double v;

  if (calibration->kind == HR_CALIBRATION_NONE)
    return 0;
  v = round (calibration->constant_bytes + calibration->bytes_per_token * context_tokens);
  if (v > (double) G_MAXINT64 / 2)
    return G_MAXINT64 / 2;
  if (v < (double) G_MININT64 / 2)
    return G_MININT64 / 2;
  return (gint64) v;
}

/**
 * hr_calibration_describe:
 * @calibration: a fit
 *
 * Says what the learned overhead rests on, for a person: "learned from 4
 * measurements on this board, residual now 0.02 GB" (decimal GB, the RMS
 * left after the fit), with the outliers set aside when there are any; or,
 * with nothing measured, that the overhead is the model's estimate.
 *
 * Returns: (transfer full): the text, translated.
 */
char *
hr_calibration_describe (const HrCalibration *calibration)
{
  g_autofree char *rms = NULL;
  GString *text;

  if (calibration->kind == HR_CALIBRATION_NONE)
    return g_strdup (_("no memory size measured on this board yet: the overhead is the model's estimate"));

  rms = hr_format_decimal (calibration->residual_rms_bytes / 1e9, 2);
  text = g_string_new (NULL);
  g_string_append_printf (text,
                          g_dngettext (GETTEXT_PACKAGE,
                                       "learned from %u measurement on this board, residual now %s GB",
                                       "learned from %u measurements on this board, residual now %s GB",
                                       calibration->n_used),
                          calibration->n_used, rms);
  if (calibration->n_outliers > 0)
    g_string_append_printf (text,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "; %u set aside as an outlier",
                                         "; %u set aside as outliers",
                                         calibration->n_outliers),
                            calibration->n_outliers);
  return g_string_free (text, FALSE);
}

/* A signed whole number of bytes with thousands separators: "-3,000". */
static char *
format_signed (double value)
{
  double r = round (value);
  g_autofree char *digits = hr_format_count ((guint64) fabs (r));

  return r < 0 ? g_strconcat ("-", digits, NULL) : g_steal_pointer (&digits);
}

/**
 * hr_calibration_apply:
 * @calibration: the board's fit
 * @prediction: a prediction to add the learned overhead to
 *
 * Appends the "learned overhead" term (a + b x num_ctx of the prediction;
 * 0 bytes and "the overhead is the model's estimate" with no fit) and moves
 * the total by it (never below 0). The term's note is
 * hr_calibration_describe(). Does nothing when the prediction already has
 * the term.
 */
void
hr_calibration_apply (const HrCalibration *calibration,
                      HrRuntimePrediction *prediction)
{
  HrRuntimeTerm *term;
  gint64 bytes;
  g_autofree char *describe = NULL;

  if (hr_runtime_prediction_get_term (prediction, HR_RUNTIME_TERM_LEARNED) != NULL ||
      prediction->n_terms >= HR_RUNTIME_N_TERM_KINDS)
    return;

  bytes = hr_calibration_overhead_bytes (calibration, prediction->context_tokens);
  term = &prediction->terms[prediction->n_terms++];
  memset (term, 0, sizeof *term);
  term->kind = HR_RUNTIME_TERM_LEARNED;
  term->id = "learned";
  term->label = _("Learned overhead");
  term->bytes = bytes;
  term->source = SRC_LEARNED;

  describe = hr_calibration_describe (calibration);
  g_strlcpy (term->note, describe, sizeof term->note);
  switch (calibration->kind)
    {
    case HR_CALIBRATION_NONE:
      g_snprintf (term->formula, sizeof term->formula, "%s", _("0 bytes (no size measured yet)"));
      break;
    case HR_CALIBRATION_CONSTANT:
      {
        g_autofree char *a = format_signed (calibration->constant_bytes);

        g_snprintf (term->formula, sizeof term->formula, _("a = %s bytes"), a);
      }
      break;
    case HR_CALIBRATION_LINEAR:
    default:
      {
        g_autofree char *a = format_signed (calibration->constant_bytes);
        g_autofree char *total = format_signed ((double) bytes);
        g_autofree char *ctx = hr_format_count (prediction->context_tokens);
        char slope[G_ASCII_DTOSTR_BUF_SIZE];

        g_ascii_formatd (slope, sizeof slope, "%.3f", calibration->bytes_per_token);
        g_snprintf (term->formula, sizeof term->formula,
                    _("a + b x num_ctx = %s + %s x %s = %s bytes"), a, slope, ctx, total);
      }
      break;
    }

  if (bytes >= 0)
    hr_add_u64 (prediction->total_bytes, (guint64) bytes, &prediction->total_bytes);
  else
    prediction->total_bytes = prediction->total_bytes > (guint64) -bytes ? prediction->total_bytes - (guint64) -bytes : 0;
}

/**
 * hr_calibration_same_version:
 * @a: (nullable): a server version ("0.31.2", "ollama 0.31.2")
 * @b: (nullable): another
 *
 * Returns: %TRUE when both name the same MAJOR.MINOR.PATCH (or are both
 *   %NULL, or are the same text).
 */
gboolean
hr_calibration_same_version (const char *a,
                             const char *b)
{
  guint a1, a2, a3, b1, b2, b3;

  if (a == NULL || b == NULL)
    return a == b;
  if (hr_runtime_parse_version (a, &a1, &a2, &a3) && hr_runtime_parse_version (b, &b1, &b2, &b3))
    return a1 == b1 && a2 == b2 && a3 == b3;
  return g_strcmp0 (a, b) == 0;
}

/**
 * hr_calibration_points_from_archive:
 * @measurements: (element-type HrMeasurement): the archive
 * @board_id: the board
 * @runtime_version: (nullable): keep only this server version; %NULL keeps
 *   every version
 * @catalog: (element-type HrModelSpec) (nullable): to predict again
 * @template_inputs: (nullable): the settings to predict with (parallel
 *   slots, KV cache type, flash attention ...); spec, context and version
 *   are taken from each measurement. When it names an era, only
 *   measurements from servers of that era are kept (a residual learned on
 *   Ollama 0.31 says nothing about the 0.12 estimator).
 *
 * Turns the measured sizes of @board_id into residual points. Each size's
 * prediction is made again with today's runtime model when the catalog has
 * the model (so an improved model does not learn its own old error), else the
 * prediction stored with the measurement is used; a size with no reported
 * figure, or no way to predict it, is skipped.
 *
 * Returns: (transfer full) (element-type HrResidualPoint): the points.
 */
GArray *
hr_calibration_points_from_archive (GPtrArray             *measurements,
                                    const char            *board_id,
                                    const char            *runtime_version,
                                    GPtrArray             *catalog,
                                    const HrRuntimeInputs *template_inputs)
{
  GArray *points = g_array_new (FALSE, FALSE, sizeof (HrResidualPoint));
  HrRuntimeEra era = template_inputs != NULL ? template_inputs->era : HR_RUNTIME_ERA_AUTO;

  if (measurements == NULL)
    return points;
  for (guint i = 0; i < measurements->len; i++)
    {
      const HrMeasurement *m = g_ptr_array_index (measurements, i);
      HrModelSpec *spec;

      if (g_strcmp0 (m->board, board_id) != 0 || m->sizes == NULL)
        continue;
      if (runtime_version != NULL && !hr_calibration_same_version (runtime_version, m->runtime_version))
        continue;
      if (era != HR_RUNTIME_ERA_AUTO && hr_runtime_era_for_version (m->runtime_version) != era)
        continue;
      spec = catalog != NULL && m->model != NULL ? hr_catalog_find (catalog, m->model) : NULL;

      for (guint j = 0; j < m->sizes->len; j++)
        {
          const HrMeasuredSize *size = &g_array_index (m->sizes, HrMeasuredSize, j);
          guint64 predicted = size->predicted_bytes;
          HrResidualPoint point;

          if (size->reported_bytes == 0 || size->context_tokens == 0)
            continue;
          if (spec != NULL)
            {
              HrRuntimeInputs in;
              HrRuntimePrediction p;

              if (template_inputs != NULL)
                in = *template_inputs;
              else
                hr_runtime_inputs_init (&in, spec, size->context_tokens);
              in.spec = spec;
              in.context_tokens = size->context_tokens;
              in.server_version = m->runtime_version;
              in.skip_text = TRUE;
              if (hr_runtime_predict (&in, &p, NULL))
                predicted = p.total_bytes;
            }
          if (predicted == 0 || size->reported_bytes > (guint64) G_MAXINT64 || predicted > (guint64) G_MAXINT64)
            continue;
          point.context_tokens = size->context_tokens;
          point.residual_bytes = (gint64) size->reported_bytes - (gint64) predicted;
          g_array_append_val (points, point);
        }
    }
  return points;
}
