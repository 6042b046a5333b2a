/* hr-cli-core.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed's table calculators: catalog, fit, dashboard and check (the
 * weights calculator is hr-cli-weights.c). With the seed's inputs each
 * prints the seed's table line for line (docs/seed-figures.md); every
 * figure comes from app/core.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-evaluate.h"
#include "hr-memory.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Options shared by the table commands. */
typedef struct {
  char    *board;
  char    *catalog;
  char    *measurements;
  char    *context_text;
  char    *kv_type_text;
  char    *parallel_text;
  char    *models_text;
  gboolean json;
  guint32  context;
  guint32  parallel;
  HrKvCacheType kv_type;
} TableOptions;

static void
table_options_clear (TableOptions *o)
{
  g_free (o->board);
  g_free (o->catalog);
  g_free (o->measurements);
  g_free (o->context_text);
  g_free (o->kv_type_text);
  g_free (o->parallel_text);
  g_free (o->models_text);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TableOptions, table_options_clear)

#define OPT_BOARD        { "board", 0, 0, G_OPTION_ARG_STRING, &o.board, N_("Board id or name (default: the seed's Jetson Orin Nano Super)"), N_("NAME") }
#define OPT_CATALOG      { "catalog", 0, 0, G_OPTION_ARG_FILENAME, &o.catalog, N_("Catalog file to use instead of the built-in and your own"), N_("FILE") }
#define OPT_MEASUREMENTS { "measurements", 0, 0, G_OPTION_ARG_FILENAME, &o.measurements, N_("Measurement archive to use instead of the built-in and your own"), N_("DIR") }
#define OPT_CONTEXT      { "context", 0, 0, G_OPTION_ARG_STRING, &o.context_text, N_("Context window in tokens (default 4096)"), N_("N") }
#define OPT_KV_TYPE      { "kv-type", 0, 0, G_OPTION_ARG_STRING, &o.kv_type_text, N_("KV cache type: f16, q8_0 or q4_0 (default f16)"), N_("TYPE") }
#define OPT_PARALLEL     { "parallel", 0, 0, G_OPTION_ARG_STRING, &o.parallel_text, N_("Parallel slots, 1 to 64 (default 1)"), N_("N") }
#define OPT_MODELS       { "models", 0, 0, G_OPTION_ARG_STRING, &o.models_text, N_("Only these models, comma-separated, in this order"), N_("A,B,...") }
#define OPT_JSON         { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print JSON instead of a table"), NULL }

/* Checks --context, --kv-type and --parallel. */
static gboolean
resolve_scenario_options (TableOptions *o)
{
  o->context = 4096;
  o->parallel = 1;
  o->kv_type = HR_KV_CACHE_F16;

  if (o->context_text != NULL && !hr_cli_parse_u32 ("--context", o->context_text, 1, 64u * 1024u * 1024u, &o->context))
    return FALSE;
  if (o->parallel_text != NULL && !hr_cli_parse_u32 ("--parallel", o->parallel_text, 1, 64, &o->parallel))
    return FALSE;
  if (o->kv_type_text != NULL && !hr_kv_cache_type_from_string (o->kv_type_text, &o->kv_type))
    {
      hr_cli_usage_error (_("--kv-type must be f16, q8_0 or q4_0, not \"%s\""), o->kv_type_text);
      return FALSE;
    }
  return TRUE;
}

/* The rows to print: the whole catalog, or the --models list in its order
 * (hr_cli_select_models()). Returns NULL after printing a usage error. */
static GPtrArray *
select_models (GPtrArray    *catalog,
               TableOptions *o)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  if (!hr_cli_select_models (catalog, o->models_text, rows))
    return NULL;
  return g_steal_pointer (&rows);
}

static char *
fmt (double value,
     int    decimals)
{
  return hr_format_decimal (value, decimals);
}

/* ---------------------------------------------------------------------- */
/* catalog                                                                */

/* A catalog entry in catalog --json: its figures beside the weights its
 * precision predicts (file_bytes null when not known). */
static void
add_catalog_entry_json (JsonBuilder       *b,
                        const HrModelSpec *spec,
                        const HrPrecision *precision,
                        guint64            predicted)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, spec->name);
  json_builder_set_member_name (b, "parameters");
  json_builder_add_int_value (b, (gint64) spec->parameters);
  json_builder_set_member_name (b, "precision");
  json_builder_add_string_value (b, spec->precision);
  json_builder_set_member_name (b, "bits_per_weight");
  json_builder_add_double_value (b, precision->bits_per_weight);
  json_builder_set_member_name (b, "predicted_weight_bytes");
  json_builder_add_int_value (b, (gint64) predicted);
  json_builder_set_member_name (b, "file_bytes");
  if (spec->file_bytes)
    json_builder_add_int_value (b, (gint64) spec->file_bytes);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}

/**
 * hr_cli_cmd_catalog:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli catalog [--catalog FILE] [--models A,B] [--json]`: each
 * model's predicted weights at its precision's bits per weight beside the
 * pulled file (Running Larger Models, model_catalog.py).
 *
 * Returns: 0, 1 when the catalog cannot be read, 2 for bad arguments.
 */
int
hr_cli_cmd_catalog (int    argc,
                    char **argv)
{
  g_auto(TableOptions) o = { 0 };
  GOptionEntry entries[] = { OPT_CATALOG, OPT_MODELS, OPT_JSON, { NULL } };
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(JsonBuilder) b = NULL;
  int nw, qw = 9;

  if (!hr_cli_parse_options ("catalog", NULL, entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc > 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[1]);

  if (!hr_cli_context_load (&ctx, NULL, o.catalog, NULL, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  rows = select_models (ctx.catalog, &o);
  if (rows == NULL)
    return HR_CLI_EXIT_USAGE;
  nw = hr_cli_name_width (rows, 14);
  /* The quant column is the seed's 9 characters, wider (with one space
   * before it) when a precision's name is longer (mxfp4_moe). */
  for (guint i = 0; i < rows->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (rows, i);

      if (spec->precision != NULL)
        qw = MAX (qw, (int) strlen (spec->precision) + 1);
    }

  if (o.json)
    {
      b = json_builder_new ();
      json_builder_begin_array (b);
    }
  else
    printf ("%-*s%8s%*s%11s%9s\n", nw, "model", "params", qw, "quant", "predicted", "pulled");

  for (guint i = 0; i < rows->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (rows, i);
      const HrPrecision *precision = hr_precision_lookup (spec->precision);
      guint64 predicted = hr_memory_weight_bytes (spec->parameters, precision->bits_per_weight);
      g_autofree char *params = fmt (spec->parameters / 1e9, 1);
      g_autofree char *pred = fmt (hr_bytes_to_gb (predicted), 1);
      g_autofree char *pulled = spec->file_bytes ? fmt (hr_bytes_to_gb (spec->file_bytes), 1) : g_strdup ("-");

      if (o.json)
        add_catalog_entry_json (b, spec, precision, predicted);
      else
        printf ("%-*s%7sB%*s%10sG%8s%s\n", nw, spec->name, params, qw, spec->precision, pred,
                pulled, spec->file_bytes ? "G" : " ");
    }

  if (o.json)
    {
      g_autoptr(JsonNode) root = NULL;
      json_builder_end_array (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
    }
  return HR_CLI_EXIT_OK;
}

/* ---------------------------------------------------------------------- */
/* fit                                                                    */

/* "an 8.0 GB pool" but "a 24.0 GB pool": English picks the article by how
 * the number is said (eight, eleven, eighteen, eighty...). */
static gboolean
takes_an (const char *number)
{
  return number[0] == '8' || g_str_has_prefix (number, "11.") || g_str_has_prefix (number, "18.");
}

static void
add_evaluation_json (JsonBuilder        *b,
                     const HrModelSpec  *spec,
                     const HrEvaluation *e)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, spec->name);
  json_builder_set_member_name (b, "parameters");
  json_builder_add_int_value (b, (gint64) spec->parameters);
  json_builder_set_member_name (b, "weight_bytes");
  json_builder_add_int_value (b, (gint64) e->footprint.weights);
  json_builder_set_member_name (b, "kv_cache_bytes");
  json_builder_add_int_value (b, (gint64) e->footprint.kv_cache);
  json_builder_set_member_name (b, "overhead_bytes");
  json_builder_add_int_value (b, (gint64) e->footprint.overhead);
  json_builder_set_member_name (b, "total_bytes");
  json_builder_add_int_value (b, (gint64) e->footprint.total);
  json_builder_set_member_name (b, "verdict");
  json_builder_add_string_value (b, hr_verdict_to_string (e->verdict));
  json_builder_set_member_name (b, "margin_bytes");
  json_builder_add_int_value (b, (gint64) e->margin_bytes);
  json_builder_set_member_name (b, "ceiling_tps");
  json_builder_add_double_value (b, hr_cli_json_rate (e->ceiling_tps));
  json_builder_set_member_name (b, "tps");
  json_builder_add_double_value (b, hr_cli_json_rate (e->tps));
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, hr_rate_source_to_string (e->source));
  json_builder_set_member_name (b, "speed");
  json_builder_add_string_value (b, hr_speed_to_string (e->speed));
  json_builder_set_member_name (b, "past_context_limit");
  json_builder_add_boolean_value (b, e->past_context_limit);
  hr_cli_add_split_json (b, e);
  json_builder_end_object (b);
}

static void
add_board_json (JsonBuilder   *b,
                const HrBoard *board,
                const HrEvaluationInputs *s)
{
  json_builder_set_member_name (b, "board");
  json_builder_add_string_value (b, board->id);
  json_builder_set_member_name (b, "pool_bytes");
  json_builder_add_int_value (b, (gint64) board->pool_bytes);
  json_builder_set_member_name (b, "resident_bytes");
  json_builder_add_int_value (b, (gint64) board->resident_bytes);
  json_builder_set_member_name (b, "reserve_bytes");
  json_builder_add_int_value (b, (gint64) board->reserve_bytes);
  json_builder_set_member_name (b, "headroom_bytes");
  json_builder_add_int_value (b, (gint64) hr_board_headroom_bytes (board));
  json_builder_set_member_name (b, "budget_bytes");
  json_builder_add_int_value (b, (gint64) hr_board_budget_bytes (board));
  json_builder_set_member_name (b, "context_tokens");
  json_builder_add_int_value (b, s->context_tokens);
  json_builder_set_member_name (b, "kv_cache_type");
  json_builder_add_string_value (b, hr_kv_cache_type_to_string (s->kv_type));
  json_builder_set_member_name (b, "parallel_slots");
  json_builder_add_int_value (b, s->parallel_slots);
}

/* Loads the board, catalog and (with @measurements) measurement archive
 * for a table command; the exit code (2 for a --board not found). */
static int
load_table_context (HrCliContext       *ctx,
                    const TableOptions *o,
                    const char         *measurements)
{
  g_autoptr(GError) error = NULL;

  if (hr_cli_context_load (ctx, o->board, o->catalog, measurements, &error))
    return HR_CLI_EXIT_OK;
  if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND) && o->board != NULL)
    return hr_cli_usage_error ("%s", error->message);
  return hr_cli_fail (g_steal_pointer (&error));
}

/* The board's scenario with --context, --kv-type and --parallel. */
static void
table_scenario (HrCliContext       *ctx,
                const TableOptions *o,
                HrEvaluationInputs *s)
{
  hr_cli_context_scenario (ctx, ctx->board, &ctx->fit, s);
  s->context_tokens = o->context;
  s->kv_type = o->kv_type;
  s->parallel_slots = o->parallel;
}

/* Evaluates every row; returns the evaluations (n = rows->len). */
static HrEvaluation *
evaluate_rows (HrCliContext *ctx,
               HrEvaluationInputs   *s,
               GPtrArray    *rows)
{
  HrEvaluation *evals = g_new0 (HrEvaluation, MAX (rows->len, 1));

  for (guint i = 0; i < rows->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (rows, i);
      hr_evaluate (s, spec, hr_cli_context_measured_tps (ctx, spec->name), 0, &evals[i]);
    }
  return evals;
}

/* A column's width: at least @width, and wide enough for @text with a space
 * before it, so that no two columns run together (an absurd --context
 * makes the KV cache's header and figures longer than the seed's widths). */
static int
column_width (int         width,
              const char *text)
{
  return MAX (width, (int) g_utf8_strlen (text, -1) + 1);
}

/* One model's figures in the fit table, as printed. */
typedef struct {
  char *w, *kv, *total, *layers, *vram, *host;
} FitCells;

static void
fit_cells_clear (FitCells *c)
{
  g_free (c->w);
  g_free (c->kv);
  g_free (c->total);
  g_free (c->layers);
  g_free (c->vram);
  g_free (c->host);
}

static void
fit_cells (const HrEvaluation *e,
           FitCells           *out)
{
  out->w = fmt (hr_bytes_to_gb (e->footprint.weights), 1);
  out->kv = fmt (hr_bytes_to_gb (e->footprint.kv_cache), 2);
  out->total = fmt (hr_bytes_to_gb (e->footprint.total), 2);
  out->layers = e->split ? hr_cli_split_layers_text (e) : g_strdup ("-");
  out->vram = e->split ? fmt (hr_bytes_to_gb (e->vram_bytes), 2) : g_strdup ("-");
  out->host = e->split ? fmt (hr_bytes_to_gb (e->host_bytes), 2) : g_strdup ("-");
}

/* The fit table: the seed's columns, and on a board that splits (a
 * discrete GPU with host memory) the split's too. The figures' columns keep
 * the seed's widths and grow where a figure or header needs more. */
static void
print_fit_table (const HrBoard            *board,
                 const HrEvaluationInputs *s,
                 GPtrArray                *rows,
                 const HrEvaluation       *evals)
{
  gboolean split = hr_board_has_host (board);
  g_autofree char *budget = fmt (hr_bytes_to_gb (hr_board_budget_bytes (board)), 1);
  g_autofree char *pool = fmt (hr_bytes_to_gb (board->pool_bytes), 1);
  g_autofree char *resident = fmt (hr_bytes_to_gb (board->resident_bytes), 1);
  g_autofree char *reserve = fmt (hr_bytes_to_gb (board->reserve_bytes), 1);
  g_autofree char *kv_header = g_strdup_printf ("kv@%u", s->context_tokens);
  g_autofree FitCells *cells = g_new0 (FitCells, MAX (rows->len, 1));
  int ww = column_width (9, "weights"), kw = column_width (9, kv_header), tw = column_width (8, "total");
  int lw = 8, vw = 8, hw = 8, nw = hr_cli_name_width (rows, 14);

  for (guint i = 0; i < rows->len; i++)
    {
      fit_cells (&evals[i], &cells[i]);
      ww = column_width (ww, cells[i].w);
      kw = column_width (kw, cells[i].kv);
      tw = column_width (tw, cells[i].total);
      lw = column_width (lw, cells[i].layers);
      vw = column_width (vw, cells[i].vram);
      hw = column_width (hw, cells[i].host);
    }

  if (takes_an (pool))
    printf (_("budget %s GB: an %s GB pool, %s GB resident, %s GB held back"), budget, pool, resident, reserve);
  else
    printf (_("budget %s GB: a %s GB pool, %s GB resident, %s GB held back"), budget, pool, resident, reserve);
  printf ("\n");
  if (split)
    {
      g_autofree char *host = fmt (hr_bytes_to_gb (board->host_pool_bytes), 1);
      g_autofree char *host_resident = fmt (hr_bytes_to_gb (board->host_resident_bytes), 1);
      g_autofree char *host_free = fmt (hr_bytes_to_gb (hr_board_host_headroom_bytes (board)), 1);

      printf (_("host memory %s GB, %s GB resident: %s GB free for the layers that do not fit the GPU"),
              host, host_resident, host_free);
      printf ("\n");
      printf ("%-*s%*s%*s%*s%*s%*s%*s  %-17s%s\n", nw, "model", ww, "weights", kw, kv_header, tw, "total",
              lw, "layers", vw, "VRAM", hw, "host", "processor", "verdict");
    }
  else
    printf ("%-*s%*s%*s%*s   verdict\n", nw, "model", ww, "weights", kw, kv_header, tw, "total");
  for (guint i = 0; i < rows->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (rows, i);
      const HrEvaluation *e = &evals[i];
      const FitCells *c = &cells[i];
      g_autofree char *verdict = hr_cli_verdict_text (e);
      const char *past = e->past_context_limit ? _(" (past the model's context limit)") : "";

      if (split)
        printf ("%-*s%*s%*s%*s%*s%*s%*s  %-17s%s%s\n", nw, spec->name, ww, c->w, kw, c->kv, tw, c->total,
                lw, c->layers, vw, c->vram, hw, c->host, e->split ? e->processor : "-", verdict, past);
      else
        printf ("%-*s%*s%*s%*s   %s%s\n", nw, spec->name, ww, c->w, kw, c->kv, tw, c->total, verdict, past);
    }
  for (guint i = 0; i < rows->len; i++)
    fit_cells_clear (&cells[i]);
}

/**
 * hr_cli_cmd_fit:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli fit [--board NAME] [--context N] [--kv-type T] [--parallel N]`:
 * each model's weights + KV cache against the board's budget, with the
 * seed's verdicts (Running Larger Models, model_catalog.py). On a board
 * that splits (hr_board_has_host()) the rows are hr_evaluate()'s split:
 * layers on the GPU, VRAM and host GB, PROCESSOR, and the verdict partial.
 *
 * Returns: 0, 1 when data cannot be read, 2 for bad arguments.
 */
int
hr_cli_cmd_fit (int    argc,
                char **argv)
{
  g_auto(TableOptions) o = { 0 };
  GOptionEntry entries[] = { OPT_BOARD, OPT_CONTEXT, OPT_KV_TYPE, OPT_PARALLEL, OPT_CATALOG, OPT_MODELS, OPT_JSON, { NULL } };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree HrEvaluation *evals = NULL;
  HrEvaluationInputs s;
  int rc;

  if (!hr_cli_parse_options ("fit", NULL, entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc > 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[1]);
  if (!resolve_scenario_options (&o))
    return HR_CLI_EXIT_USAGE;
  if ((rc = load_table_context (&ctx, &o, NULL)) != HR_CLI_EXIT_OK)
    return rc;
  rows = select_models (ctx.catalog, &o);
  if (rows == NULL)
    return HR_CLI_EXIT_USAGE;

  table_scenario (&ctx, &o, &s);
  evals = evaluate_rows (&ctx, &s, rows);

  if (o.json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      add_board_json (b, ctx.board, &s);
      json_builder_set_member_name (b, "models");
      json_builder_begin_array (b);
      for (guint i = 0; i < rows->len; i++)
        add_evaluation_json (b, g_ptr_array_index (rows, i), &evals[i]);
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
      return HR_CLI_EXIT_OK;
    }

  print_fit_table (ctx.board, &s, rows, evals);
  return HR_CLI_EXIT_OK;
}

/* ---------------------------------------------------------------------- */
/* dashboard                                                              */

/* The dashboard's "efficiency" (the fit from measurements, else null)
 * and "prior_efficiency" (the kind's prior when nothing was measured). */
static void
add_efficiency_json (JsonBuilder              *b,
                     const HrCliContext       *ctx,
                     const HrEvaluationInputs *s)
{
  json_builder_set_member_name (b, "efficiency");
  if (ctx->fit.n_points > 0)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "value");
      json_builder_add_double_value (b, ctx->fit.efficiency);
      json_builder_set_member_name (b, "band_low_bytes");
      json_builder_add_int_value (b, (gint64) ctx->fit.band_low_bytes);
      json_builder_set_member_name (b, "band_high_bytes");
      json_builder_add_int_value (b, (gint64) ctx->fit.band_high_bytes);
      json_builder_set_member_name (b, "measurements");
      json_builder_add_int_value (b, ctx->fit.n_points);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "prior_efficiency");
  if (ctx->fit.n_points == 0 && s->prior_efficiency > 0.0)
    json_builder_add_double_value (b, s->prior_efficiency);
  else
    json_builder_add_null_value (b);
}

/* dashboard --json: the board, its rates' basis, each model and the
 * recommended one (@best, -1 for none). */
static void
print_dashboard_json (const HrCliContext       *ctx,
                      const HrEvaluationInputs *s,
                      GPtrArray                *rows,
                      const HrEvaluation       *evals,
                      gint                      best)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  add_board_json (b, ctx->board, s);
  json_builder_set_member_name (b, "floor_tps");
  json_builder_add_double_value (b, hr_cli_json_rate (s->floor_tps));
  json_builder_set_member_name (b, "bandwidth_gb_s");
  json_builder_add_double_value (b, ctx->board->bandwidth_bytes_per_s / 1e9);
  add_efficiency_json (b, ctx, s);
  json_builder_set_member_name (b, "models");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    add_evaluation_json (b, g_ptr_array_index (rows, i), &evals[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "recommended");
  if (best >= 0)
    json_builder_add_string_value (b, ((HrModelSpec *) g_ptr_array_index (rows, best))->name);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

/* One model's line of the dashboard, names @nw wide; with @split the
 * layers and PROCESSOR columns. */
static void
print_dashboard_row (const HrModelSpec  *spec,
                     const HrEvaluation *e,
                     int                 nw,
                     gboolean            split)
{
  g_autofree char *total = fmt (hr_bytes_to_gb (e->footprint.total), 2);
  /* no rate (a row that does not load, a bandwidth not known): "-", not 0.0 */
  gboolean rated = e->tps > 0.0 || e->source == HR_RATE_SOURCE_MEASURED;
  g_autofree char *ceiling = e->ceiling_tps > 0.0 ? fmt (e->ceiling_tps, 1) : g_strdup ("-");
  g_autofree char *tps = rated ? fmt (e->tps, 1) : g_strdup ("-");
  const char *source = rated ? hr_rate_source_to_string (e->source) : "-";
  const char *speed = hr_speed_to_string (e->speed);
  g_autofree char *layers = hr_cli_split_layers_text (e);

  if (split)
    printf ("  %-*s%9s  %-8s%7s  %-17s%8s%7s  %-14s%s\n", nw, spec->name, total,
            hr_verdict_to_string (e->verdict), layers,
            e->split ? e->processor : "-", ceiling, tps, source, speed);
  else
    printf ("  %-*s%9s  %-8s%8s%7s  %-14s%s\n", nw, spec->name, total,
            hr_verdict_to_string (e->verdict), ceiling, tps, source, speed);
}

/* The dashboard as the seed's table: budget, floor and peak, a line per
 * model, the recommendation and the prior's note. */
static void
print_dashboard_table (HrCliContext             *ctx,
                       const HrEvaluationInputs *s,
                       GPtrArray                *rows,
                       const HrEvaluation       *evals,
                       gint                      best)
{
  const char *rule = "======================================================================";
  const char *thin = "----------------------------------------------------------------------";
  g_autofree char *budget = fmt (hr_bytes_to_gb (hr_board_budget_bytes (ctx->board)), 1);
  g_autofree char *floor_text = fmt (s->floor_tps, 1);
  g_autofree char *peak = fmt (ctx->board->bandwidth_bytes_per_s / 1e9, 0);
  gboolean split = hr_board_has_host (ctx->board);
  int nw = hr_cli_name_width (rows, 14);

  printf ("%s\n", rule);
  printf ("  ");
  printf (_("Model budget %s GB   floor %s t/s   peak %s GB/s"), budget, floor_text, peak);
  printf ("\n%s\n", rule);
  if (split)
    printf ("  %-*s%9s  %-8s%7s  %-17s%8s%7s  %-14sspeed\n", nw, "model", "total GB", "memory", "layers",
            "processor", "ceiling", "t/s", "source");
  else
    printf ("  %-*s%9s  %-8s%8s%7s  %-14sspeed\n", nw, "model", "total GB", "memory", "ceiling", "t/s", "source");
  for (guint i = 0; i < rows->len; i++)
    print_dashboard_row (g_ptr_array_index (rows, i), &evals[i], nw, split);
  printf ("%s\n", thin);
  printf ("  ");
  if (best >= 0)
    printf (_("recommended: %s"), ((HrModelSpec *) g_ptr_array_index (rows, best))->name);
  else
    printf ("%s", _("recommended: none (no model both fits and reaches the floor)"));
  printf ("\n%s\n", rule);
  hr_cli_print_prior_note (ctx, ctx->board, evals, rows->len);
}

/**
 * hr_cli_cmd_dashboard:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli dashboard [--board NAME] [--measurements DIR]`: memory and
 * rate for every model, with the recommendation (Running Larger Models,
 * model_rates.py). A board without measurements gets its kind's prior
 * (hr_cli_context_scenario()) and one note (hr_cli_print_prior_note()); a
 * board that splits adds the layers and PROCESSOR columns.
 *
 * Returns: 0, 1 when data cannot be read, 2 for bad arguments.
 */
int
hr_cli_cmd_dashboard (int    argc,
                      char **argv)
{
  g_auto(TableOptions) o = { 0 };
  GOptionEntry entries[] = { OPT_BOARD, OPT_MEASUREMENTS, OPT_CONTEXT, OPT_KV_TYPE, OPT_PARALLEL, OPT_CATALOG, OPT_MODELS, OPT_JSON, { NULL } };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree HrEvaluation *evals = NULL;
  HrEvaluationInputs s;
  gint best;
  int rc;

  if (!hr_cli_parse_options ("dashboard", NULL, entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc > 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[1]);
  if (!resolve_scenario_options (&o))
    return HR_CLI_EXIT_USAGE;
  if ((rc = load_table_context (&ctx, &o, o.measurements)) != HR_CLI_EXIT_OK)
    return rc;
  rows = select_models (ctx.catalog, &o);
  if (rows == NULL)
    return HR_CLI_EXIT_USAGE;

  table_scenario (&ctx, &o, &s);
  evals = evaluate_rows (&ctx, &s, rows);
  best = hr_recommend ((HrModelSpec * const *) rows->pdata, evals, rows->len);
  if (o.json)
    print_dashboard_json (&ctx, &s, rows, evals, best);
  else
    print_dashboard_table (&ctx, &s, rows, evals, best);
  return HR_CLI_EXIT_OK;
}

/* ---------------------------------------------------------------------- */
/* check                                                                  */

/* Under an "over" refusal: when a lower precision would not be over
 * (hr_cli_lower_precision_fits()), the predict command that finds the
 * highest precision that fits, with check's board and scenario. */
static void
print_precision_hint (HrCliContext       *ctx,
                      const HrModelSpec  *spec,
                      const TableOptions *o)
{
  g_autoptr(GString) command = g_string_new (NULL);
  const HrPrecision *lower;
  HrRuntimeInputs in;

  hr_runtime_inputs_init (&in, spec, o->context);
  in.kv_type = o->kv_type;
  in.parallel_slots = o->parallel;
  lower = hr_cli_lower_precision_fits (ctx, &in);
  if (lower == NULL)
    return;
  g_string_printf (command, "headroom-cli predict %s --board %s", spec->name, ctx->board->id);
  if (o->context_text != NULL)
    g_string_append_printf (command, " --context %u", o->context);
  if (o->kv_type_text != NULL)
    g_string_append_printf (command, " --kv-type %s", hr_kv_cache_type_to_string (o->kv_type));
  if (o->parallel_text != NULL)
    g_string_append_printf (command, " --parallel %u", o->parallel);
  if (o->catalog != NULL)
    {
      g_autofree char *quoted = g_shell_quote (o->catalog);
      g_string_append_printf (command, " --catalog %s", quoted);
    }
  if (o->measurements != NULL)
    {
      g_autofree char *quoted = g_shell_quote (o->measurements);
      g_string_append_printf (command, " --measurements %s", quoted);
    }
  g_string_append (command, " --best-precision");
  printf ("  ");
  /* Translators: the first %s is a precision's id ("q2_K"), %g its bits
   * per weight, the last %s a command line */
  printf (_("hint: at %s (%g bits per weight) it is not over; try \"%s\" to pick the highest precision that fits"),
          lower->id, lower->bits_per_weight, command->str);
  printf ("\n");
}

/* What check found for one name: the model (%NULL when not in the
 * catalog, with the nearest name), its evaluation and the reasons to
 * refuse it. */
typedef struct {
  const char        *name;
  const HrModelSpec *spec;
  const char        *suggestion;
  HrEvaluation       e;
  GPtrArray         *reasons;
} CheckResult;

static void
check_result_clear (CheckResult *r)
{
  g_clear_pointer (&r->reasons, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CheckResult, check_result_clear)

/* Fills @r for @name: the seed's pull check, or for a name not on the
 * menu, that one reason with the nearest name to try. */
static void
check_model (HrCliContext       *ctx,
             const TableOptions *o,
             const char         *name,
             CheckResult        *r)
{
  HrEvaluationInputs s;

  r->name = name;
  r->spec = hr_catalog_find (ctx->catalog, name);
  if (r->spec == NULL)
    {
      /* The seed's pull check: a name not on the menu is one more reason
       * to refuse (exit 1), with the nearest name to try. */
      r->reasons = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (r->reasons, g_strdup_printf (_("\"%s\" is not on the menu: it is not in the catalog"), name));
      r->suggestion = hr_cli_suggest_model (ctx->catalog, name);
      return;
    }
  table_scenario (ctx, o, &s);
  hr_evaluate (&s, r->spec, hr_cli_context_measured_tps (ctx, r->spec->name), 0, &r->e);
  r->reasons = hr_pull_check (r->spec, &r->e, s.floor_tps);
}

/* check --json: allowed or not, the reasons, and the verdict and rate
 * (or, for a name not in the catalog, the suggestion). */
static void
print_check_json (const HrBoard     *board,
                  const CheckResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, r->name);
  json_builder_set_member_name (b, "board");
  json_builder_add_string_value (b, board->id);
  json_builder_set_member_name (b, "allowed");
  json_builder_add_boolean_value (b, r->reasons->len == 0);
  json_builder_set_member_name (b, "reasons");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->reasons->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (r->reasons, i));
  json_builder_end_array (b);
  if (r->spec != NULL)
    {
      json_builder_set_member_name (b, "verdict");
      json_builder_add_string_value (b, hr_verdict_to_string (r->e.verdict));
      json_builder_set_member_name (b, "tps");
      json_builder_add_double_value (b, hr_cli_json_rate (r->e.tps));
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, hr_rate_source_to_string (r->e.source));
      json_builder_set_member_name (b, "speed");
      json_builder_add_string_value (b, hr_speed_to_string (r->e.speed));
      hr_cli_add_split_json (b, &r->e);
    }
  else
    {
      json_builder_set_member_name (b, "suggestion");
      if (r->suggestion != NULL)
        json_builder_add_string_value (b, r->suggestion);
      else
        json_builder_add_null_value (b);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

/* Each "refused:" line, then a hint: a lower precision that fits, or the
 * catalog's nearest name. */
static void
print_check_refusal (HrCliContext       *ctx,
                     const TableOptions *o,
                     const CheckResult  *r)
{
  for (guint i = 0; i < r->reasons->len; i++)
    printf ("  %s %s\n", _("refused:"), (char *) g_ptr_array_index (r->reasons, i));
  if (r->spec != NULL && r->e.verdict == HR_VERDICT_OVER)
    print_precision_hint (ctx, r->spec, o);
  else if (r->spec == NULL)
    {
      printf ("  ");
      if (r->suggestion != NULL)
        /* Translators: %s is the catalog's name nearest to the one typed */
        printf (_("hint: did you mean %s? \"headroom-cli catalog\" lists the names"), r->suggestion);
      else
        printf ("%s", _("hint: \"headroom-cli catalog\" lists the names"));
      printf ("\n");
    }
}

/* check as text: the refusal or the "allowed:" line, a partial model's
 * split and the prior's note. */
static void
print_check_text (HrCliContext       *ctx,
                  const TableOptions *o,
                  const CheckResult  *r)
{
  const HrEvaluation *e = &r->e;

  if (r->reasons->len > 0)
    print_check_refusal (ctx, o, r);
  else
    {
      g_autofree char *verdict = hr_cli_verdict_text (e);
      g_autofree char *tps = fmt (e->tps, 1);

      printf ("  ");
      printf (_("allowed: %s %s, and decodes at %s t/s (%s)"), r->spec->name, verdict, tps,
              hr_rate_source_to_string (e->source));
      printf ("\n");
    }
  if (r->spec == NULL)
    return;
  if (e->split && e->verdict == HR_VERDICT_PARTIAL)
    {
      g_autofree char *vram = fmt (hr_bytes_to_gb (e->vram_bytes), 2);
      g_autofree char *host = fmt (hr_bytes_to_gb (e->host_bytes), 2);

      printf ("  ");
      printf (_("split: %u/%u layers on the GPU, %s GB VRAM + %s GB host memory (%s)"),
              e->gpu_layers, e->total_layers, vram, host, e->processor);
      printf ("\n");
    }
  hr_cli_print_prior_note (ctx, ctx->board, e, 1);
}

/**
 * hr_cli_cmd_check:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli check MODEL [--board NAME]`: the pull check, printing every
 * reason to refuse at once (docs/seed-figures.md "Checking a pull"). A model over
 * the board's memory that a lower precision takes off "over" gets a hint
 * naming `predict --best-precision` (print_precision_hint()). A partial
 * model prints its split; a rate that is a prior prints the one note.
 *
 * Returns: 0 allowed, 1 refused (or data unreadable), 2 for bad arguments.
 */
int
hr_cli_cmd_check (int    argc,
                  char **argv)
{
  g_auto(TableOptions) o = { 0 };
  GOptionEntry entries[] = { OPT_BOARD, OPT_MEASUREMENTS, OPT_CONTEXT, OPT_KV_TYPE, OPT_PARALLEL, OPT_CATALOG, OPT_JSON, { NULL } };
  g_auto(HrCliContext) ctx = { 0 };
  g_auto(CheckResult) r = { 0 };
  int rc;

  if (!hr_cli_parse_options ("check", _("MODEL"), entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc != 2)
    return hr_cli_usage_error ("%s", _("check takes one model name, e.g. headroom-cli check llama3.2:3b"));
  if (!resolve_scenario_options (&o))
    return HR_CLI_EXIT_USAGE;
  if ((rc = load_table_context (&ctx, &o, o.measurements)) != HR_CLI_EXIT_OK)
    return rc;

  check_model (&ctx, &o, argv[1], &r);
  if (o.json)
    print_check_json (ctx.board, &r);
  else
    print_check_text (&ctx, &o, &r);
  return r.reasons->len == 0 ? HR_CLI_EXIT_OK : HR_CLI_EXIT_FAILED;
}
