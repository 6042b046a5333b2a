/* hr-cli-predict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli predict`: what an Ollama server will load for a model, every
 * term with its formula and source (app/core/hr-runtime.c), plus the board's
 * learned overhead (app/core/hr-calibration.c).
 * `headroom-cli matrix`: every catalog model on every board: verdict, margin
 * and expected decode rate, and the recommendation per board.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-evaluate.h"
#include "hr-measurement.h"
#include "hr-runtime.h"
#include "hr-units.h"

/* Options shared by predict and matrix. */
typedef struct {
  char    *board;
  char    *boards;
  char    *catalog;
  char    *measurements;
  char    *context_text;
  char    *parallel_text;
  char    *kv_type_text;
  char    *flash_text;
  char    *runtime_text;
  char    *version;
  char    *batch_text;
  char    *backend_text;
  char    *precision_text;
  char    *models_text;
  gboolean json;
  gboolean csv;

  guint32  context;
  guint32  parallel;
  guint32  batch;
  HrKvCacheType kv_type;
  HrFlashAttention flash;
  HrRuntimeEra era;
  gboolean no_runtime;
  HrRuntimeBackend backend;
  const HrPrecision *precision;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->board);
  g_free (o->boards);
  g_free (o->catalog);
  g_free (o->measurements);
  g_free (o->context_text);
  g_free (o->parallel_text);
  g_free (o->kv_type_text);
  g_free (o->flash_text);
  g_free (o->runtime_text);
  g_free (o->version);
  g_free (o->batch_text);
  g_free (o->backend_text);
  g_free (o->precision_text);
  g_free (o->models_text);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

#define OPT_CONTEXT  { "context", 0, 0, G_OPTION_ARG_STRING, &o.context_text, N_("Context window (num_ctx) in tokens (default 4096)"), N_("N") }
#define OPT_PARALLEL { "parallel", 0, 0, G_OPTION_ARG_STRING, &o.parallel_text, N_("Parallel slots, 1 to 64 (default: the server's, 1 from Ollama 0.10)"), N_("N") }
#define OPT_KV_TYPE  { "kv-type", 0, 0, G_OPTION_ARG_STRING, &o.kv_type_text, N_("KV cache type: f16, q8_0 or q4_0 (default f16)"), N_("TYPE") }
#define OPT_FLASH    { "flash-attention", 0, 0, G_OPTION_ARG_STRING, &o.flash_text, N_("Flash attention: on, off or auto (default auto: as the server decides)"), N_("on|off|auto") }
#define OPT_BATCH    { "batch", 0, 0, G_OPTION_ARG_STRING, &o.batch_text, N_("Batch and micro-batch size (default 512, Ollama's num_batch)"), N_("N") }
#define OPT_VERSION  { "server-version", 0, 0, G_OPTION_ARG_STRING, &o.version, N_("The Ollama server's version, e.g. 0.31.2 (picks the era and filters the measurements learned from)"), N_("V") }
#define OPT_BACKEND  { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend_text, N_("GPU backend: cuda or metal (the old estimator's reserve differs)"), N_("cuda|metal") }
#define OPT_PRECISION { "precision", 0, 0, G_OPTION_ARG_STRING, &o.precision_text, N_("Sketch the weights at this precision instead of the file as pulled"), N_("P") }
#define OPT_CATALOG  { "catalog", 0, 0, G_OPTION_ARG_FILENAME, &o.catalog, N_("Catalog file to use instead of the built-in and your own"), N_("FILE") }
#define OPT_MEASURE  { "measurements", 0, 0, G_OPTION_ARG_FILENAME, &o.measurements, N_("Measurement archive to use instead of the built-in and your own"), N_("DIR") }
#define OPT_JSON     { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print JSON instead of text"), NULL }

/* Checks every shared option; prints one usage line and returns FALSE on
 * the first bad one. */
static gboolean
resolve_options (Options    *o,
                 const char *default_runtime)
{
  const char *runtime = o->runtime_text ? o->runtime_text : default_runtime;

  o->context = 4096;
  o->parallel = 0;
  o->batch = 512;
  o->kv_type = HR_KV_CACHE_F16;
  o->flash = HR_FLASH_ATTENTION_AUTO;
  o->era = HR_RUNTIME_ERA_AUTO;
  o->backend = HR_RUNTIME_BACKEND_CUDA;

  if (o->context_text != NULL && !hr_cli_parse_u32 ("--context", o->context_text, 1, 64u * 1024u * 1024u, &o->context))
    return FALSE;
  if (o->parallel_text != NULL && !hr_cli_parse_u32 ("--parallel", o->parallel_text, 1, 64, &o->parallel))
    return FALSE;
  if (o->batch_text != NULL && !hr_cli_parse_u32 ("--batch", o->batch_text, 1, 65536, &o->batch))
    return FALSE;
  if (o->kv_type_text != NULL && !hr_kv_cache_type_from_string (o->kv_type_text, &o->kv_type))
    {
      hr_cli_usage_error (_("--kv-type must be f16, q8_0 or q4_0, not \"%s\""), o->kv_type_text);
      return FALSE;
    }
  if (o->flash_text != NULL)
    {
      if (g_ascii_strcasecmp (o->flash_text, "on") == 0)
        o->flash = HR_FLASH_ATTENTION_ON;
      else if (g_ascii_strcasecmp (o->flash_text, "off") == 0)
        o->flash = HR_FLASH_ATTENTION_OFF;
      else if (g_ascii_strcasecmp (o->flash_text, "auto") == 0)
        o->flash = HR_FLASH_ATTENTION_AUTO;
      else
        {
          hr_cli_usage_error (_("--flash-attention must be on, off or auto, not \"%s\""), o->flash_text);
          return FALSE;
        }
    }
  if (runtime != NULL)
    {
      if (g_ascii_strcasecmp (runtime, "none") == 0 && default_runtime != NULL)
        o->no_runtime = TRUE;
      else if (!hr_runtime_era_from_string (runtime, &o->era))
        {
          hr_cli_usage_error (default_runtime != NULL ?
                              _("--runtime must be ollama-0.30, ollama-0.12, auto or none, not \"%s\"") :
                              _("--runtime must be ollama-0.30, ollama-0.12 or auto, not \"%s\""),
                              runtime);
          return FALSE;
        }
    }
  if (o->backend_text != NULL)
    {
      if (g_ascii_strcasecmp (o->backend_text, "cuda") == 0)
        o->backend = HR_RUNTIME_BACKEND_CUDA;
      else if (g_ascii_strcasecmp (o->backend_text, "metal") == 0)
        o->backend = HR_RUNTIME_BACKEND_METAL;
      else
        {
          hr_cli_usage_error (_("--backend must be cuda or metal, not \"%s\""), o->backend_text);
          return FALSE;
        }
    }
  if (o->version != NULL && !hr_runtime_parse_version (o->version, NULL, NULL, NULL))
    {
      hr_cli_usage_error (_("--server-version must look like 0.31.2, not \"%s\""), o->version);
      return FALSE;
    }
  if (o->precision_text != NULL)
    {
      o->precision = hr_precision_lookup (o->precision_text);
      if (o->precision == NULL)
        {
          hr_cli_usage_error (_("unknown precision \"%s\"; run \"headroom-cli weights --help\" for the list"), o->precision_text);
          return FALSE;
        }
    }
  return TRUE;
}

static void
inputs_from_options (HrRuntimeInputs   *in,
                     const Options     *o,
                     const HrModelSpec *spec)
{
  hr_runtime_inputs_init (in, spec, o->context);
  in->precision = o->precision;
  in->parallel_slots = o->parallel;
  in->kv_type = o->kv_type;
  in->flash_attention = o->flash;
  in->batch = o->batch;
  in->ubatch = o->batch;
  in->era = o->era;
  in->server_version = o->version;
  in->backend = o->backend;
}

static gboolean
load_context (HrCliContext *ctx,
              const Options *o,
              int           *out_status)
{
  g_autoptr(GError) error = NULL;

  if (hr_cli_context_load (ctx, o->board, o->catalog, o->measurements, &error))
    return TRUE;
  if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND) && o->board != NULL)
    *out_status = hr_cli_usage_error ("%s", error->message);
  else
    *out_status = hr_cli_fail (g_steal_pointer (&error));
  return FALSE;
}

/* The board's learned residual at this server version (every version when
 * none is given). */
static void
board_calibration (HrCliContext          *ctx,
                   const HrBoard         *board,
                   const char            *version,
                   const HrRuntimeInputs *template_inputs,
                   HrCalibration         *out)
{
  g_autoptr(GArray) points = hr_calibration_points_from_archive (ctx->measurements, board->id, version,
                                                                 ctx->catalog, template_inputs);

  if (!hr_calibration_fit ((const HrResidualPoint *) (gconstpointer) points->data, points->len, out, NULL))
    hr_calibration_fit (NULL, 0, out, NULL);
}

static char *
gb (double bytes,
    int    decimals)
{
  return hr_format_decimal (bytes / 1e9, decimals);
}

static char *
signed_count (gint64 value)
{
  g_autofree char *digits = hr_format_count ((guint64) (value < 0 ? -value : value));

  return value < 0 ? g_strconcat ("-", digits, NULL) : g_steal_pointer (&digits);
}

static char *
verdict_text (HrVerdict verdict,
              guint64   margin)
{
  g_autofree char *m = gb ((double) margin, 2);

  switch (verdict)
    {
    case HR_VERDICT_FITS:  return g_strdup_printf (_("fits, %s GB under budget"), m);
    case HR_VERDICT_TIGHT: return g_strdup_printf (_("tight, %s GB left above the OS"), m);
    case HR_VERDICT_OVER:
    default:               return g_strdup_printf (_("over by %s GB"), m);
    }
}

/* What the model takes from the board's pool: the ollama ps size, and on a
 * unified board also what stays in host memory (the same memory). */
static guint64
pool_footprint (const HrBoard             *board,
                const HrRuntimePrediction *p)
{
  guint64 total = p->total_bytes;

  if (board->unified)
    hr_add_u64 (total, p->host_bytes, &total);
  return total;
}

/* ---------------------------------------------------------------------- */
/* predict                                                                */

/**
 * hr_cli_cmd_predict:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli predict MODEL [--context N] [--runtime ollama-0.30|ollama-0.12|auto]
 * [--server-version V] [--parallel N] [--kv-type T] [--flash-attention on|off|auto]
 * [--batch N] [--backend cuda|metal] [--precision P] [--board NAME]
 * [--catalog FILE] [--measurements DIR] [--json]`: every term of what the
 * Ollama server will load (hr_runtime_predict()) with its formula, source
 * and note, the board's learned overhead (hr_calibration_apply()), the
 * total in GB and GiB and as `ollama ps` would show it, and the verdict on
 * the board.
 *
 * Returns: 0, 1 when data cannot be read or the prediction fails, 2 for
 *   bad arguments or an unknown model.
 */
int
hr_cli_cmd_predict (int    argc,
                    char **argv)
{
  return hr_cli_predict_run ("predict", argc, argv, NULL);
}

/**
 * hr_cli_predict_run:
 * @command: the subcommand, for its --help
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 * @source: (nullable): where MODEL comes from, and what is printed with
 *   the prediction; %NULL = the catalog (`headroom-cli predict`)
 *
 * Parses predict's options, resolves MODEL and prints its prediction, as
 * text or (with --json) as predict's JSON object, which @source may wrap.
 *
 * Returns: 0, 1 or 2 as hr_cli_cmd_predict().
 */
int
hr_cli_predict_run (const char                *command,
                    int                        argc,
                    char                     **argv,
                    const HrCliPredictSource  *source)
{
  g_autoptr(HrModelSpec) resolved = NULL;
  g_auto(Options) o = { 0 };
  GOptionEntry entries[] = {
    OPT_CONTEXT,
    { "runtime", 0, 0, G_OPTION_ARG_STRING, &o.runtime_text, N_("Which Ollama to model: ollama-0.30, ollama-0.12 or auto (default: from --server-version, else the newest)"), N_("ERA") },
    OPT_VERSION, OPT_PARALLEL, OPT_KV_TYPE, OPT_FLASH, OPT_BATCH, OPT_BACKEND, OPT_PRECISION,
    { "board", 0, 0, G_OPTION_ARG_STRING, &o.board, N_("Board whose measurements the overhead is learned from (default: the seed's Jetson Orin Nano Super)"), N_("NAME") },
    OPT_CATALOG, OPT_MEASURE, OPT_JSON,
    { NULL }
  };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *total_count = NULL, *total_gb = NULL, *total_gib = NULL, *ps = NULL;
  g_autofree char *verdict = NULL, *budget = NULL;
  const HrModelSpec *spec;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  HrCalibration cal;
  HrVerdict v;
  guint64 margin, footprint;
  int status = HR_CLI_EXIT_OK;

  if (!hr_cli_parse_options (command, _("MODEL"), entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc < 2 && source != NULL)
    return hr_cli_usage_error ("%s", source->usage);
  if (argc < 2)
    return hr_cli_usage_error ("%s", _("give the model to predict, e.g. \"headroom-cli predict llama3.2:3b --context 4096\""));
  if (argc > 2)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[2]);
  if (!resolve_options (&o, NULL))
    return HR_CLI_EXIT_USAGE;
  if (!load_context (&ctx, &o, &status))
    return status;

  if (source != NULL)
    {
      resolved = source->resolve (argv[1], source->data, &status);
      if (resolved == NULL)
        return status;
    }
  spec = resolved != NULL ? resolved : hr_catalog_find (ctx.catalog, argv[1]);
  if (spec == NULL)
    return hr_cli_usage_error (_("\"%s\" is not in the catalog; run \"headroom-cli catalog\" to see the names"), argv[1]);

  inputs_from_options (&in, &o, spec);
  if (!hr_runtime_predict (&in, &p, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  board_calibration (&ctx, ctx.board, o.version, &in, &cal);
  hr_calibration_apply (&cal, &p);

  footprint = pool_footprint (ctx.board, &p);
  v = hr_board_verdict (ctx.board, footprint, &margin);

  if (o.json)
    {
      g_autoptr(JsonNode) root = hr_runtime_prediction_to_json (&p);
      JsonObject *object = json_node_get_object (root);

      json_object_set_string_member (object, "model", spec->name);
      json_object_set_string_member (object, "board", ctx.board->id);
      json_object_set_int_member (object, "pool_footprint_bytes", (gint64) MIN (footprint, (guint64) G_MAXINT64));
      json_object_set_string_member (object, "verdict", hr_verdict_to_string (v));
      json_object_set_int_member (object, "margin_bytes", (gint64) MIN (margin, (guint64) G_MAXINT64));
      json_object_set_int_member (object, "budget_bytes", (gint64) hr_board_budget_bytes (ctx.board));
      if (source != NULL)
        {
          g_autoptr(JsonNode) wrapped = source->wrap_json (g_steal_pointer (&root), source->data);

          hr_cli_print_json (wrapped);
          return HR_CLI_EXIT_OK;
        }
      hr_cli_print_json (root);
      return HR_CLI_EXIT_OK;
    }

  if (source != NULL)
    source->print_text (source->data);
  {
    g_autofree char *ctx_count = hr_format_count (p.context_tokens);

    printf (g_dngettext (GETTEXT_PACKAGE,
                         "%s at %s tokens: %u slot, %s KV cache, flash attention %s, ubatch %u\n",
                         "%s at %s tokens: %u slots, %s KV cache, flash attention %s, ubatch %u\n",
                         p.parallel_slots),
            spec->name, ctx_count, p.parallel_slots, hr_kv_cache_type_to_string (p.kv_type),
            p.flash_attention ? _("on") : _("off"), p.ubatch);
  }
  printf (_("runtime: %s\n"), p.era_label);

  for (guint i = 0; i < p.n_terms; i++)
    {
      const HrRuntimeTerm *t = &p.terms[i];
      g_autofree char *bytes = signed_count (t->bytes);
      g_autofree char *tgb = gb ((double) t->bytes, 2);

      printf ("\n%s: %s %s (%s GB)\n", t->label, bytes, _("bytes"), tgb);
      if (t->formula[0] != '\0')
        printf ("  %s\n", t->formula);
      if (t->note[0] != '\0')
        printf ("  %s %s\n", _("note:"), t->note);
      printf ("  %s %s\n", _("source:"), t->source);
    }

  total_count = hr_format_count (p.total_bytes);
  total_gb = gb ((double) p.total_bytes, 2);
  total_gib = hr_format_decimal (hr_bytes_to_gib (p.total_bytes), 2);
  ps = hr_runtime_format_ps_size (p.total_bytes);
  printf ("\n%s %s %s = %s GB = %s GiB\n", _("total:"), total_count, _("bytes"), total_gb, total_gib);
  printf ("%s %s\n", _("ollama ps would show:"), ps);
  if (p.host_bytes > 0)
    {
      g_autofree char *host = hr_format_count (p.host_bytes);
      g_autofree char *host_gb = gb ((double) p.host_bytes, 2);

      printf (_("also in host memory: %s bytes (%s GB), not in the ollama ps size\n"), host, host_gb);
    }

  verdict = verdict_text (v, margin);
  budget = gb ((double) hr_board_budget_bytes (ctx.board), 1);
  if (ctx.board->unified && p.host_bytes > 0)
    {
      g_autofree char *fp = gb ((double) footprint, 2);
      printf (_("on %s (budget %s GB, unified: host memory counts): %s GB, %s\n"), ctx.board->name, budget, fp, verdict);
    }
  else
    printf (_("on %s (budget %s GB): %s\n"), ctx.board->name, budget, verdict);

  if (p.n_notes > 0)
    {
      printf ("%s\n", _("notes:"));
      for (guint i = 0; i < p.n_notes; i++)
        printf ("  - %s\n", p.notes[i]);
    }
  return HR_CLI_EXIT_OK;
}

/* ---------------------------------------------------------------------- */
/* matrix                                                                 */

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
                      const Options *o,
                      GPtrArray     *rows,
                      GPtrArray     *boards,
                      int           *out_status)
{
  if (o->models_text == NULL)
    for (guint i = 0; i < ctx->catalog->len; i++)
      g_ptr_array_add (rows, g_ptr_array_index (ctx->catalog, i));
  else
    {
      g_auto(GStrv) names = g_strsplit (o->models_text, ",", -1);
      for (guint i = 0; names[i] != NULL; i++)
        {
          HrModelSpec *spec = hr_catalog_find (ctx->catalog, g_strstrip (names[i]));
          if (spec == NULL)
            {
              *out_status = hr_cli_usage_error (_("\"%s\" is not in the catalog; run \"headroom-cli catalog\" to see the names"), names[i]);
              return FALSE;
            }
          g_ptr_array_add (rows, spec);
        }
    }
  if (o->boards == NULL)
    for (guint i = 0; i < ctx->boards->len; i++)
      g_ptr_array_add (boards, g_ptr_array_index (ctx->boards, i));
  else
    {
      g_auto(GStrv) names = g_strsplit (o->boards, ",", -1);
      for (guint i = 0; names[i] != NULL; i++)
        {
          HrBoard *board = hr_boards_find (ctx->boards, g_strstrip (names[i]));
          if (board == NULL)
            {
              *out_status = hr_cli_usage_error (_("unknown board \"%s\"; run \"headroom-cli matrix\" without --boards to see them all"), names[i]);
              return FALSE;
            }
          g_ptr_array_add (boards, board);
        }
    }
  if (rows->len == 0 || boards->len == 0)
    {
      *out_status = hr_cli_usage_error ("%s", _("the matrix needs at least one model and one board"));
      return FALSE;
    }
  return TRUE;

}

/* One board's column: every model's evaluation, and the runtime model's
 * prediction with the board's learned overhead unless --runtime none. */
static gboolean
fill_column (Column         *c,
             HrCliContext   *ctx,
             const Options  *o,
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
  inputs_from_options (&template_inputs, o, NULL);
  if (!o->no_runtime)
    board_calibration (ctx, c->board, o->version, &template_inputs, &c->calibration);
  else
    hr_calibration_fit (NULL, 0, &c->calibration, NULL);

  hr_evaluation_inputs_init (&s, c->board, &c->fit);
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
      if (!o->no_runtime)
        {
          HrRuntimeInputs in;
          HrRuntimePrediction p;
          guint64 footprint, seed;

          inputs_from_options (&in, o, spec);
          in.skip_text = TRUE;
          if (!hr_runtime_predict (&in, &p, error))
            return FALSE;
          c->runtime[r] = (gint64) MIN (p.total_bytes, (guint64) G_MAXINT64);
          hr_calibration_apply (&c->calibration, &p);
          c->learned[r] = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_LEARNED);
          footprint = pool_footprint (c->board, &p);
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
print_matrix_json (const Options *o,
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
  json_builder_add_string_value (jb, o->no_runtime ? "none" : hr_runtime_era_to_string (o->era));
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
          json_builder_add_double_value (jb, e->tps);
          json_builder_set_member_name (jb, "source");
          json_builder_add_string_value (jb, hr_rate_source_to_string (e->source));
          json_builder_set_member_name (jb, "speed");
          json_builder_add_string_value (jb, hr_speed_to_string (e->speed));
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
print_matrix_table (const Options *o,
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
  printf ("%s\n", _("cell: verdict, margin in GB, decode t/s (m measured, e estimate, x extrapolated)"));

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
 * [--parallel N] [--runtime ollama-0.30|ollama-0.12|auto|none]
 * [--boards A,B] [--models A,B] [--catalog FILE] [--measurements DIR]
 * [--json|--csv]`: rows are catalog models, columns the boards; each cell
 * the verdict, margin and expected decode rate (hr_evaluate()) with the
 * footprint from the runtime model plus each board's learned overhead
 * (the ollama ps size, and on unified boards what stays in host memory too;
 * --runtime none: the seed's weights + KV cache), and the recommendation per
 * board (hr_recommend()). Each board's efficiency is fitted from its own
 * measurements (hr_rate_fit_efficiency()).
 *
 * Returns: 0, 1 when data cannot be read, 2 for bad arguments.
 */
int
hr_cli_cmd_matrix (int    argc,
                   char **argv)
{
  g_auto(Options) o = { 0 };
  GOptionEntry entries[] = {
    OPT_CONTEXT, OPT_PRECISION, OPT_KV_TYPE, OPT_PARALLEL, OPT_FLASH,
    { "runtime", 0, 0, G_OPTION_ARG_STRING, &o.runtime_text, N_("Footprint: ollama-0.30, ollama-0.12, auto or none (the seed's weights + KV cache); default ollama-0.30"), N_("ERA") },
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
  if (!resolve_options (&o, "ollama-0.30"))
    return HR_CLI_EXIT_USAGE;
  if (!load_context (&ctx, &o, &status))
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
