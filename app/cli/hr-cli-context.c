/* hr-cli-context.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrCliContext, what every command reads: the catalog and boards (the
 * built-in files with the user's copies over them), the measurements
 * archive (the folder the user names, or the data directory's), the
 * priors, and the chosen board with its measured rates and fitted
 * efficiency; then the prior and the scenario a command evaluates with.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-measurement.h"

/* The board the seed measured on, and the default when none is named. */
#define DEFAULT_BOARD "jetson-orin-nano-super"

/* A missing built-in file means an uninstalled or broken installation:
 * say how to point Headroom at its data. */
static void
explain_missing_builtin (GError **error)
{
  if (error != NULL && g_error_matches (*error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    g_prefix_error (error, _("Headroom's built-in data is missing (reinstall it, or set HEADROOM_DATA_DIR to the data/ folder of its source tree): "));
}

static GPtrArray *
load_catalog (const char  *catalog_path,
              GPtrArray   *warnings,
              GError     **error)
{
  g_autofree char *builtin = NULL;
  g_autofree char *user_path = NULL;
  g_autoptr(GPtrArray) catalog = NULL;
  g_autoptr(GPtrArray) user = NULL;
  g_autoptr(GError) user_error = NULL;

  if (catalog_path != NULL)
    return hr_cli_check_readable (catalog_path, error) ? hr_catalog_load_file (catalog_path, error) : NULL;

  builtin = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  catalog = hr_catalog_load_file (builtin, error);
  if (catalog == NULL)
    {
      explain_missing_builtin (error);
      return NULL;
    }

  user_path = hr_data_user_file ("catalog.json");
  user = hr_catalog_load_file (user_path, &user_error);
  if (user != NULL)
    hr_catalog_merge (catalog, user);
  else if (!g_error_matches (user_error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    g_ptr_array_add (warnings, g_strdup_printf (_("skipped your catalog (it is left as it is): %s"), user_error->message));

  return g_steal_pointer (&catalog);
}

static GPtrArray *
load_boards (GPtrArray  *warnings,
             GError    **error)
{
  g_autofree char *builtin = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  g_autofree char *user_path = hr_data_user_file ("boards.json");
  g_autoptr(GPtrArray) boards = NULL;
  g_autoptr(GPtrArray) user = NULL;
  g_autoptr(GError) user_error = NULL;

  boards = hr_boards_load_file (builtin, error);
  if (boards == NULL)
    {
      explain_missing_builtin (error);
      return NULL;
    }

  user = hr_boards_load_file (user_path, &user_error);
  if (user != NULL)
    hr_boards_merge (boards, user);
  else if (!g_error_matches (user_error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    g_ptr_array_add (warnings, g_strdup_printf (_("skipped your boards file (it is left as it is): %s"), user_error->message));

  return g_steal_pointer (&boards);
}

static gboolean
load_archive (GPtrArray   *into,
              const char  *directory,
              GPtrArray   *warnings,
              GError     **error)
{
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) loaded = hr_measurement_archive_load (directory, errors, error);

  if (loaded == NULL)
    return FALSE;
  for (guint i = 0; i < errors->len; i++)
    g_ptr_array_add (warnings, g_strdup_printf (_("skipped a measurement: %s"), (char *) g_ptr_array_index (errors, i)));
  for (guint i = 0; i < loaded->len; i++)
    g_ptr_array_add (into, g_steal_pointer (&loaded->pdata[i]));
  return TRUE;
}

/* The note that a board with several GPUs is sized on its first one
 * (hr_board_first_device_only_text()), where that is still so: a board
 * with host memory is placed across its GPUs (hr-offload-devices.c, by
 * predict's split and hr_evaluate()'s rows), one without is not. */
static char *
first_device_note (const HrBoard *board)
{
  if (hr_board_has_host (board))
    return NULL;
  return hr_board_first_device_only_text (board);
}

/* The measurements into @ctx: the folder the user names (it must be
 * there: a typo is not an empty archive), else the built-in archive and
 * the user's (skipped with a warning when it cannot be listed; the
 * default location missing is an empty one). */
static gboolean
load_measurements (HrCliContext  *ctx,
                   const char    *measurements_dir,
                   GError       **error)
{
  g_autofree char *builtin = NULL;
  g_autofree char *user = NULL;
  g_autoptr(GError) user_error = NULL;

  if (measurements_dir != NULL)
    return hr_cli_check_folder (measurements_dir, error) &&
           load_archive (ctx->measurements, measurements_dir, ctx->warnings, error);

  builtin = g_build_filename (hr_data_builtin_dir (), "measurements", NULL);
  user = hr_data_measurements_dir ();
  if (!load_archive (ctx->measurements, builtin, ctx->warnings, error))
    return FALSE;
  /* The user's archive is theirs: if it cannot be listed, say so and go
   * on with the built-in measurements. */
  if (!load_archive (ctx->measurements, user, ctx->warnings, &user_error))
    g_ptr_array_add (ctx->warnings, g_strdup_printf (_("skipped your measurements: %s"), user_error->message));
  return TRUE;
}

/* The board's measured rates and the efficiency fitted from them. */
static void
fit_board (HrCliContext *ctx)
{
  g_autoptr(GArray) points = NULL;

  ctx->rates = hr_measurement_archive_rates (ctx->measurements, ctx->board->id);
  points = hr_measurement_archive_points (ctx->measurements, ctx->board->id, ctx->catalog);
  if (points->len > 0)
    hr_rate_fit_efficiency ((const HrRatePoint *) (gpointer) points->data, points->len,
                            ctx->board->bandwidth_bytes_per_s, &ctx->fit, NULL);
}

/* The built-in prior efficiencies; without them a board with no
 * measurement has no rate, as before (a warning says so). */
static void
load_priors (HrCliContext *ctx)
{
  g_autofree char *priors = g_build_filename (hr_data_builtin_dir (), "priors.json", NULL);
  g_autoptr(GError) priors_error = NULL;

  ctx->priors = hr_priors_load_file (priors, &priors_error);
  if (ctx->priors == NULL)
    g_ptr_array_add (ctx->warnings, g_strdup_printf (_("no prior efficiencies (boards without measurements get no rate): %s"),
                                                     priors_error->message));
}

/**
 * hr_cli_context_load:
 * @ctx: (out caller-allocates): the context; clear it with hr_cli_context_clear()
 * @board_name: (nullable): a board id or name; %NULL = the seed's board
 * @catalog_path: (nullable): a catalog file to use instead of the built-in
 *   catalog merged with the user's
 * @measurements_dir: (nullable): an archive to use instead of the built-in
 *   measurements plus the user's; it must be a folder that can be opened
 *   (hr_cli_check_folder())
 * @error: return location for a #GError
 *
 * Loads what a subcommand needs and fits the board's efficiency from its
 * measurements. A malformed user file is skipped with a warning in
 * @ctx->warnings (and never rewritten); a malformed built-in file or an
 * explicitly named file is an error.
 *
 * Returns: %TRUE on success; %HR_CORE_ERROR_NOT_FOUND for an unknown board,
 *   hr_cli_check_folder()'s errors for @measurements_dir, or the loaders'
 *   errors.
 */
gboolean
hr_cli_context_load (HrCliContext *ctx,
                     const char   *board_name,
                     const char   *catalog_path,
                     const char   *measurements_dir,
                     GError      **error)
{
  *ctx = (HrCliContext) { 0 };
  ctx->warnings = g_ptr_array_new_with_free_func (g_free);
  ctx->measurements = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);

  /* What an interrupted save left beside the user's catalog.json and
   * boards.json (the archive's folder is cleaned as it is read). */
  {
    g_autofree char *user_dir = hr_data_user_dir ();

    hr_file_remove_stale_temporaries (user_dir);
  }

  ctx->catalog = load_catalog (catalog_path, ctx->warnings, error);
  if (ctx->catalog == NULL)
    return FALSE;

  ctx->boards = load_boards (ctx->warnings, error);
  if (ctx->boards == NULL)
    return FALSE;

  ctx->board = hr_boards_find (ctx->boards, board_name ? board_name : DEFAULT_BOARD);
  if (ctx->board == NULL)
    {
      hr_cli_set_unknown_board (error, ctx->boards, board_name ? board_name : DEFAULT_BOARD);
      return FALSE;
    }

  if (!load_measurements (ctx, measurements_dir, error))
    return FALSE;
  fit_board (ctx);
  load_priors (ctx);
  {
    g_autofree char *first_only = first_device_note (ctx->board);

    if (first_only != NULL)
      g_ptr_array_add (ctx->warnings, g_steal_pointer (&first_only));
  }

  fflush (stdout);
  for (guint i = 0; i < ctx->warnings->len; i++)
    fprintf (stderr, "headroom-cli: %s\n", (char *) g_ptr_array_index (ctx->warnings, i));

  return TRUE;
}

/**
 * hr_cli_context_use_board:
 * @ctx: a loaded context
 * @board: (transfer full): a board made for this run (--gpus)
 *
 * Makes @board the context's board: added to @ctx->boards, with no
 * measurement, rate or efficiency fit of its own (it has none). Says on
 * stderr when it has several GPUs and is sized on its first
 * (hr_board_first_device_only_text(); not for a board with host memory,
 * which is placed across its GPUs).
 */
void
hr_cli_context_use_board (HrCliContext *ctx,
                          HrBoard      *board)
{
  g_autofree char *first_only = first_device_note (board);

  g_ptr_array_add (ctx->boards, board);
  ctx->board = board;
  g_clear_pointer (&ctx->rates, g_hash_table_unref);
  memset (&ctx->fit, 0, sizeof ctx->fit);
  if (first_only != NULL)
    fprintf (stderr, "headroom-cli: %s\n", first_only);
}

/**
 * hr_cli_context_measured_tps:
 * @ctx: a loaded context
 * @model: a model name
 *
 * Returns: the model's measured decode rate on the context's board, or NAN.
 */
double
hr_cli_context_measured_tps (HrCliContext *ctx,
                             const char   *model)
{
  const double *tps = ctx->rates ? g_hash_table_lookup (ctx->rates, model) : NULL;

  return tps ? *tps : NAN;
}

/**
 * hr_cli_context_clear:
 * @ctx: a context
 *
 * Frees what hr_cli_context_load() loaded.
 */
void
hr_cli_context_clear (HrCliContext *ctx)
{
  g_clear_pointer (&ctx->catalog, g_ptr_array_unref);
  g_clear_pointer (&ctx->boards, g_ptr_array_unref);
  g_clear_pointer (&ctx->measurements, g_ptr_array_unref);
  g_clear_pointer (&ctx->rates, g_hash_table_unref);
  g_clear_pointer (&ctx->warnings, g_ptr_array_unref);
  g_clear_pointer (&ctx->priors, hr_priors_free);
  g_clear_pointer (&ctx->draft, hr_model_spec_free);
  ctx->board = NULL;
}

/**
 * hr_cli_context_prior:
 * @ctx: a loaded context
 * @kind: a kind of hardware
 * @out_n_runs: (out) (optional): how many published runs the prior is the mean of
 *
 * Returns: the prior efficiency for @kind (hr_priors_efficiency()), or 0
 *   when the priors could not be read or none is known for @kind.
 */
double
hr_cli_context_prior (HrCliContext   *ctx,
                      HrHardwareKind  kind,
                      guint          *out_n_runs)
{
  if (out_n_runs)
    *out_n_runs = 0;
  if (ctx->priors == NULL)
    return 0.0;
  return hr_priors_efficiency (ctx->priors, kind, out_n_runs);
}

/**
 * hr_cli_context_scenario:
 * @ctx: a loaded context
 * @board: the board (borrowed: it must outlive @out)
 * @fit: (nullable): the board's efficiency fit
 * @out: (out caller-allocates): the scenario
 *
 * hr_evaluation_inputs_init() with the priors set: the board's kind's
 * (hr_board_hardware_kind()), used only when @fit has no points, and the
 * CPU's, for layers a split keeps in host memory.
 */
void
hr_cli_context_scenario (HrCliContext          *ctx,
                         const HrBoard         *board,
                         const HrEfficiencyFit *fit,
                         HrEvaluationInputs    *out)
{
  hr_evaluation_inputs_init (out, board, fit);
  out->prior_efficiency = hr_cli_context_prior (ctx, hr_board_hardware_kind (board), NULL);
  out->cpu_prior_efficiency = hr_cli_context_prior (ctx, HR_HARDWARE_CPU, NULL);
}
