/* hr-cli-matrix.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli matrix`: every catalog model on every board: verdict, margin
 * and expected decode rate, and the recommendation per board; on a board
 * that splits, the GPU/host split (hr_evaluate()).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-cli-predict.h"
#include "hr-error.h"
#include "hr-evaluate.h"
#include "hr-measurement.h"
#include "hr-runtime.h"
#include "hr-units.h"

static char *
gb (double bytes,
    int    decimals)
{
  return hr_format_decimal (bytes / 1e9, decimals);
}

typedef struct {
  const HrBoard   *board;
  HrEfficiencyFit  fit;
  GHashTable      *rates;      /* model -> double* */
  HrCalibration    calibration;
  HrEvaluation    *evals;      /* one per row */
  gint64          *runtime;    /* predicted (ps) bytes per row, -1 without the runtime */
  gint64          *learned;    /* learned bytes per row */
  gint             recommended;
} Column;

static void
column_clear (Column *c)
{
  g_clear_pointer (&c->rates, g_hash_table_unref);
  g_clear_pointer (&c->evals, g_free);
  g_clear_pointer (&c->runtime, g_free);
  g_clear_pointer (&c->learned, g_free);
}

static const char *
source_letter (HrRateSource source)
{
  switch (source)
    {
    case HR_RATE_SOURCE_MEASURED: return "m";
    case HR_RATE_SOURCE_ESTIMATE: return "e";
    case HR_RATE_SOURCE_PRIOR:    return "p";
    case HR_RATE_SOURCE_EXTRAPOLATED:
    default: return "x";
    }
}

static char *
cell_text (const HrEvaluation *e)
{
  g_autofree char *margin = gb ((double) e->margin_bytes, 2);
  g_autofree char *tps = NULL;

  if (e->tps > 0.0 && isfinite (e->tps))
    {
      g_autofree char *rate = hr_format_decimal (e->tps, 1);
      tps = g_strconcat (rate, source_letter (e->source), NULL);
    }
  else
    tps = g_strdup ("-");
  if (e->verdict == HR_VERDICT_PARTIAL)
    return g_strdup_printf ("%s %u/%u %s %s", hr_verdict_to_string (e->verdict), e->gpu_layers, e->total_layers, margin, tps);
  return g_strdup_printf ("%s %s %s", hr_verdict_to_string (e->verdict), margin, tps);
}

static void
csv_field (GString    *out,
           const char *text)
{
  if (strpbrk (text, ",\"\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* The rows (models) and columns (boards) asked for, in order. */
static gboolean
pick_rows_and_boards (HrCliContext  *ctx,
                      const HrCliPredictOptions *o,
                      GPtrArray     *rows,
                      GPtrArray     *boards,
                      int           *out_status)
{
  if (!hr_cli_select_models (ctx->catalog, o->models_text, rows) ||
      !hr_cli_select_boards (ctx->boards, o->boards, boards))
    {
      *out_status = HR_CLI_EXIT_USAGE;
      return FALSE;
    }
  if (rows->len == 0 || boards->len == 0)
    {
      *out_status = hr_cli_usage_error ("%s", _("the matrix needs at least one model and one board"));
      return FALSE;
    }
  /* Say which columns are one GPU's: a board with several GPUs and no host
   * memory (with host memory the rows are placed across the GPUs,
   * hr_evaluate()). */
  for (guint i = 0; i < boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (boards, i);
      g_autofree char *first_only = hr_board_has_host (board) ? NULL : hr_board_first_device_only_text (board);

      if (first_only != NULL)
        fprintf (stderr, "headroom-cli: %s: %s\n", ((HrBoard *) g_ptr_array_index (boards, i))->id, first_only);
    }
  return TRUE;

}

/* One board's column: every model's evaluation, and the runtime model's
 * prediction with the board's learned overhead unless --runtime seed. */
static gboolean
fill_column (Column         *c,
             HrCliContext   *ctx,
             const HrCliPredictOptions *o,
             GPtrArray      *rows,
             GError        **error)
{
  g_autoptr(GArray) points = NULL;
  HrEvaluationInputs s;
  HrRuntimeInputs template_inputs;

  c->rates = hr_measurement_archive_rates (ctx->measurements, c->board->id);
  points = hr_measurement_archive_points (ctx->measurements, c->board->id, ctx->catalog);
  if (points->len > 0)
    hr_rate_fit_efficiency ((const HrRatePoint *) (gconstpointer) points->data, points->len,
                            c->board->bandwidth_bytes_per_s, &c->fit, NULL);
  hr_cli_predict_inputs (&template_inputs, o, NULL);
  if (!o->no_runtime)
    hr_cli_board_calibration (ctx, c->board, o->version, &template_inputs, &c->calibration);
  else
    hr_calibration_fit (NULL, 0, &c->calibration, NULL);

  hr_cli_context_scenario (ctx, c->board, &c->fit, &s);
  s.precision = o->precision;
  s.kv_type = o->kv_type;
  s.context_tokens = o->context;
  s.parallel_slots = MAX (o->parallel, 1);

  c->evals = g_new0 (HrEvaluation, rows->len);
  c->runtime = g_new0 (gint64, rows->len);
  c->learned = g_new0 (gint64, rows->len);
  for (guint r = 0; r < rows->len; r++)
    {
      const HrModelSpec *spec = g_ptr_array_index (rows, r);
      const double *tps = g_hash_table_lookup (c->rates, spec->name);
      HrEvaluation *e = &c->evals[r];

      hr_evaluate (&s, spec, tps ? *tps : NAN, 0, e);
      c->runtime[r] = -1;
      if (!o->no_runtime && !e->split)
        {
          HrRuntimeInputs in;
          HrRuntimePrediction p;
          guint64 footprint, seed;

          hr_cli_predict_inputs (&in, o, spec);
          in.skip_text = TRUE;
          /* llama-server's --fit fits an unset -c to the board's memory. */
          if (in.era == HR_RUNTIME_ERA_LLAMA_SERVER)
            in.free_bytes = MAX (hr_board_headroom_bytes (c->board), 1);
          if (!hr_runtime_predict (&in, &p, error))
            return FALSE;
          c->runtime[r] = (gint64) MIN (p.total_bytes, (guint64) G_MAXINT64);
          hr_calibration_apply (&c->calibration, &p);
          c->learned[r] = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_LEARNED);
          footprint = hr_cli_pool_footprint (c->board, &p);
          seed = e->footprint.weights + e->footprint.kv_cache;
          e->footprint.overhead = footprint > seed ? footprint - seed : 0;
          e->footprint.total = footprint;
          e->verdict = hr_board_verdict (c->board, footprint, &e->margin_bytes);
        }
    }
  c->recommended = hr_recommend ((HrModelSpec * const *) rows->pdata, c->evals, rows->len);
  return TRUE;
}

static void
print_matrix_json (const HrCliPredictOptions *o,
                   GPtrArray     *rows,
                   GArray        *columns)
{
  g_autoptr(JsonBuilder) jb = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "context_tokens");
  json_builder_add_int_value (jb, o->context);
  json_builder_set_member_name (jb, "precision");
  json_builder_add_string_value (jb, o->precision ? o->precision->id : "as pulled");
  json_builder_set_member_name (jb, "kv_cache_type");
  json_builder_add_string_value (jb, hr_kv_cache_type_to_string (o->kv_type));
  json_builder_set_member_name (jb, "parallel_slots");
  json_builder_add_int_value (jb, MAX (o->parallel, 1));
  json_builder_set_member_name (jb, "runtime");
  json_builder_add_string_value (jb, hr_runtime_era_to_string (o->era));
  json_builder_set_member_name (jb, "boards");
  json_builder_begin_array (jb);
  for (guint b = 0; b < columns->len; b++)
    {
      Column *c = &g_array_index (columns, Column, b);
      g_autofree char *describe = hr_calibration_describe (&c->calibration);

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "id");
      json_builder_add_string_value (jb, c->board->id);
      json_builder_set_member_name (jb, "name");
      json_builder_add_string_value (jb, c->board->name);
      json_builder_set_member_name (jb, "unified");
      json_builder_add_boolean_value (jb, c->board->unified);
      json_builder_set_member_name (jb, "budget_bytes");
      json_builder_add_int_value (jb, (gint64) hr_board_budget_bytes (c->board));
      json_builder_set_member_name (jb, "efficiency");
      json_builder_add_double_value (jb, c->fit.efficiency);
      json_builder_set_member_name (jb, "learned_overhead");
      json_builder_add_string_value (jb, describe);
      json_builder_set_member_name (jb, "recommended");
      if (c->recommended >= 0)
        json_builder_add_string_value (jb, ((HrModelSpec *) g_ptr_array_index (rows, c->recommended))->name);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "cells");
      json_builder_begin_array (jb);
      for (guint r = 0; r < rows->len; r++)
        {
          const HrEvaluation *e = &c->evals[r];

          json_builder_begin_object (jb);
          json_builder_set_member_name (jb, "model");
          json_builder_add_string_value (jb, ((HrModelSpec *) g_ptr_array_index (rows, r))->name);
          json_builder_set_member_name (jb, "footprint_bytes");
          json_builder_add_int_value (jb, (gint64) MIN (e->footprint.total, (guint64) G_MAXINT64));
          json_builder_set_member_name (jb, "predicted_bytes");
          if (c->runtime[r] >= 0)
            json_builder_add_int_value (jb, c->runtime[r]);
          else
            json_builder_add_null_value (jb);
          json_builder_set_member_name (jb, "learned_bytes");
          json_builder_add_int_value (jb, c->learned[r]);
          json_builder_set_member_name (jb, "verdict");
          json_builder_add_string_value (jb, hr_verdict_to_string (e->verdict));
          json_builder_set_member_name (jb, "margin_bytes");
          json_builder_add_int_value (jb, (gint64) MIN (e->margin_bytes, (guint64) G_MAXINT64));
          json_builder_set_member_name (jb, "tps");
          json_builder_add_double_value (jb, hr_cli_json_rate (e->tps));
          json_builder_set_member_name (jb, "source");
          json_builder_add_string_value (jb, hr_rate_source_to_string (e->source));
          json_builder_set_member_name (jb, "speed");
          json_builder_add_string_value (jb, hr_speed_to_string (e->speed));
          hr_cli_add_split_json (jb, e);
          json_builder_end_object (jb);
        }
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  root = json_builder_get_root (jb);
  hr_cli_print_json (root);
}

static void
print_matrix_csv (GPtrArray *rows,
                  GArray    *columns)
{
  g_autoptr(GString) out = g_string_new ("model,board,verdict,margin_gb,footprint_gb,tps,source,speed,recommended\n");

  for (guint r = 0; r < rows->len; r++)
    for (guint b = 0; b < columns->len; b++)
      {
        Column *c = &g_array_index (columns, Column, b);
        const HrEvaluation *e = &c->evals[r];
        g_autofree char *margin = gb ((double) e->margin_bytes, 2);
        g_autofree char *total = gb ((double) e->footprint.total, 2);
        g_autofree char *tps = hr_format_decimal (e->tps, 1);

        csv_field (out, ((HrModelSpec *) g_ptr_array_index (rows, r))->name);
        g_string_append_c (out, ',');
        csv_field (out, c->board->id);
        g_string_append_printf (out, ",%s,%s,%s,%s,%s,%s,%s\n",
                                hr_verdict_to_string (e->verdict), margin, total, tps,
                                hr_rate_source_to_string (e->source), hr_speed_to_string (e->speed),
                                c->recommended == (gint) r ? "yes" : "no");
      }
  fputs (out->str, stdout);
}

static void
print_matrix_table (const HrCliPredictOptions *o,
                    GPtrArray     *rows,
                    GArray        *columns)
{
  g_autofree char *ctx_count = hr_format_count (o->context);
  g_autofree guint *widths = g_new0 (guint, columns->len);
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  guint name_width = strlen ("model");

  printf (g_dngettext (GETTEXT_PACKAGE,
                       "context %s tokens, %s, %s KV cache, %u slot\n",
                       "context %s tokens, %s, %s KV cache, %u slots\n",
                       MAX (o->parallel, 1)),
          ctx_count, o->precision ? o->precision->id : _("as pulled"),
          hr_kv_cache_type_to_string (o->kv_type), MAX (o->parallel, 1));
  if (o->no_runtime)
    printf ("%s\n", _("footprint: weights + KV cache (the seed's)"));
  else
    printf (_("footprint: %s + learned overhead; unified boards add what stays in host memory\n"),
            hr_runtime_era_label (o->era == HR_RUNTIME_ERA_AUTO ? hr_runtime_era_for_version (o->version) : o->era));
  printf ("%s\n", _("cell: verdict (partial: layers on the GPU), margin in GB, decode t/s (m measured, e estimate, x extrapolated, p prior)"));

  for (guint r = 0; r < rows->len; r++)
    {
      name_width = MAX (name_width, strlen (((HrModelSpec *) g_ptr_array_index (rows, r))->name));
      for (guint b = 0; b < columns->len; b++)
        {
          Column *c = &g_array_index (columns, Column, b);
          char *text = cell_text (&c->evals[r]);

          widths[b] = MAX (widths[b], MAX (strlen (text), strlen (c->board->id)));
          g_ptr_array_add (cells, text);
        }
    }

  printf ("%-*s", (int) name_width + 2, "model");
  for (guint b = 0; b < columns->len; b++)
    {
      Column *c = &g_array_index (columns, Column, b);
      if (b + 1 < columns->len)
        printf ("%-*s", (int) widths[b] + 2, c->board->id);
      else
        printf ("%s", c->board->id);
    }
  printf ("\n");
  for (guint r = 0; r < rows->len; r++)
    {
      printf ("%-*s", (int) name_width + 2, ((HrModelSpec *) g_ptr_array_index (rows, r))->name);
      for (guint b = 0; b < columns->len; b++)
        {
          const char *text = g_ptr_array_index (cells, r * columns->len + b);
          if (b + 1 < columns->len)
            printf ("%-*s", (int) widths[b] + 2, text);
          else
            printf ("%s", text);
        }
      printf ("\n");
    }
  for (guint b = 0; b < columns->len; b++)
    {
      Column *c = &g_array_index (columns, Column, b);
      g_autofree char *describe = hr_calibration_describe (&c->calibration);

      const char *best = c->recommended >= 0 ?
        ((HrModelSpec *) g_ptr_array_index (rows, c->recommended))->name : _("none");

      if (o->no_runtime)
        printf (_("%s: recommended %s\n"), c->board->id, best);
      else
        printf (_("%s: recommended %s; %s\n"), c->board->id, best, describe);
    }
}

/**
 * hr_cli_cmd_matrix:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli matrix [--context N] [--precision P] [--kv-type T]
 * [--parallel N] [--runtime ollama-0.30|ollama-0.12|llama-server|auto|seed]
 * [--boards A,B] [--models A,B] [--catalog FILE] [--measurements DIR]
 * [--json|--csv]`: rows are catalog models, columns the boards; each cell
 * the verdict, margin and expected decode rate (hr_evaluate()) with the
 * footprint from the runtime model plus each board's learned overhead
 * (the ollama ps size, and on unified boards what stays in host memory too;
 * --runtime seed, or its older word none: the seed's weights + KV cache), and the recommendation per
 * board (hr_recommend()). Each board's efficiency is fitted from its own
 * measurements (hr_rate_fit_efficiency()).
 *
 * Returns: 0, 1 when data cannot be read, 2 for bad arguments.
 */
int
hr_cli_cmd_matrix (int    argc,
                   char **argv)
{
  g_auto(HrCliPredictOptions) o = { 0 };
  GOptionEntry entries[] = {
    OPT_CONTEXT, OPT_PRECISION, OPT_KV_TYPE, OPT_PARALLEL, OPT_FLASH,
    { "runtime", 0, 0, G_OPTION_ARG_STRING, &o.runtime_text, N_("Footprint: ollama-0.30, ollama-0.12, llama-server, auto or seed (the seed's weights + KV cache; none is read as seed); default ollama-0.30"), N_("ERA") },
    OPT_VERSION,
    { "boards", 0, 0, G_OPTION_ARG_STRING, &o.boards, N_("Only these boards, comma-separated, in this order"), N_("A,B,...") },
    { "models", 0, 0, G_OPTION_ARG_STRING, &o.models_text, N_("Only these models, comma-separated, in this order"), N_("A,B,...") },
    OPT_CATALOG, OPT_MEASURE, OPT_JSON,
    { "csv", 0, 0, G_OPTION_ARG_NONE, &o.csv, N_("Print CSV, one line per model and board"), NULL },
    { NULL }
  };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) boards = g_ptr_array_new ();
  g_autoptr(GArray) columns = NULL;
  g_autoptr(GError) error = NULL;
  int status = HR_CLI_EXIT_OK;

  if (!hr_cli_parse_options ("matrix", NULL, entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc > 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[1]);
  if (o.json && o.csv)
    return hr_cli_usage_error ("%s", _("give at most one of --json and --csv"));
  if (!hr_cli_predict_options_resolve (&o, "ollama-0.30"))
    return HR_CLI_EXIT_USAGE;
  if (!hr_cli_predict_load_context (&ctx, &o, &status))
    return status;

  if (!pick_rows_and_boards (&ctx, &o, rows, boards, &status))
    return status;

  columns = g_array_sized_new (FALSE, TRUE, sizeof (Column), boards->len);
  g_array_set_clear_func (columns, (GDestroyNotify) column_clear);
  g_array_set_size (columns, boards->len);

  for (guint b = 0; b < boards->len; b++)
    {
      Column *c = &g_array_index (columns, Column, b);

      c->board = g_ptr_array_index (boards, b);
      if (!fill_column (c, &ctx, &o, rows, &error))
        return hr_cli_fail (g_steal_pointer (&error));
    }

  if (o.json)
    print_matrix_json (&o, rows, columns);
  else if (o.csv)
    print_matrix_csv (rows, columns);
  else
    print_matrix_table (&o, rows, columns);
  return HR_CLI_EXIT_OK;
}
