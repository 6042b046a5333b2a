/* hr-cli-common.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-measurement.h"

/* The board the seed measured on, and the default when none is named. */
#define DEFAULT_BOARD "jetson-orin-nano-super"

/**
 * hr_cli_usage_error:
 * @format: printf-style message, already translated
 *
 * Prints "headroom-cli: MESSAGE" as one line on stderr, after what is
 * already printed on stdout (flushed first, so the two read in order when
 * they go to the same place).
 *
 * Returns: %HR_CLI_EXIT_USAGE (2).
 */
int
hr_cli_usage_error (const char *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* What was printed comes before the message where the two streams meet. */
  fflush (stdout);
  fprintf (stderr, "headroom-cli: %s\n", message);
  return HR_CLI_EXIT_USAGE;
}

/**
 * hr_cli_fail:
 * @error: (transfer full): what went wrong
 *
 * Prints the error's message as one line on stderr (stdout flushed first,
 * as hr_cli_usage_error()) and frees it.
 *
 * Returns: %HR_CLI_EXIT_FAILED (1).
 */
int
hr_cli_fail (GError *error)
{
  fflush (stdout);
  fprintf (stderr, "headroom-cli: %s\n", error->message);
  g_error_free (error);
  return HR_CLI_EXIT_FAILED;
}

/* A fractional number json-glib printed with 17 significant digits
 * ("4.0800000000000001"), in the shortest form that reads back as the same
 * double ("4.08"). */
static gboolean
shorten_number (const GMatchInfo *match,
                GString          *result,
                gpointer          user_data)
{
  g_autofree char *lead = g_match_info_fetch (match, 1);
  g_autofree char *number = g_match_info_fetch (match, 2);
  double value = g_ascii_strtod (number, NULL);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (result, lead);
  for (int digits = 1; digits <= 17; digits++)
    {
      g_autofree char *format = g_strdup_printf ("%%.%dg", digits);

      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        {
          /* Still a fraction, as json-glib writes a double ("5.0"). */
          g_string_append (result, buffer);
          if (strpbrk (buffer, ".eEn") == NULL)
            g_string_append (result, ".0");
          return FALSE;
        }
    }
  g_string_append (result, number);
  return FALSE;
}

/**
 * hr_cli_print_json:
 * @node: the document to print (not consumed)
 *
 * Prints @node pretty-printed on stdout with a trailing newline, each
 * fractional number in the shortest form that reads back as the same
 * double (json-glib writes 17 significant digits: 4.0800000000000001).
 */
void
hr_cli_print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GRegex) number = NULL;
  g_autofree char *text = NULL;
  g_autofree char *shorter = NULL;

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);
  /* A value is a whole line of the pretty output, after "key : " or alone
   * in an array; a line never starts inside a string (its newlines are
   * escaped), so no string's text is touched. */
  number = g_regex_new ("^(\\s*(?:\"(?:[^\"\\\\]|\\\\.)*\" : )?)(-?[0-9]+\\.[0-9]+(?:[eE][-+]?[0-9]+)?)(?=,?$)",
                        G_REGEX_MULTILINE | G_REGEX_OPTIMIZE, 0, NULL);
  shorter = g_regex_replace_eval (number, text, -1, 0, 0, shorten_number, NULL, NULL);
  printf ("%s\n", shorter != NULL ? shorter : text);
}

/**
 * hr_cli_parse_u32:
 * @option: the option's name for messages, "--context"
 * @text: what the user typed
 * @min: the smallest allowed value
 * @max: the largest allowed value
 * @out: (out): the value
 *
 * Parses a whole decimal number in [@min, @max], printing one clear line on
 * stderr when it is not one.
 *
 * Returns: %TRUE when @text is valid.
 */
gboolean
hr_cli_parse_u32 (const char *option,
                  const char *text,
                  guint32     min,
                  guint32     max,
                  guint32    *out)
{
  guint64 value;
  g_autoptr(GError) error = NULL;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, min, max, &value, &error))
    {
      hr_cli_usage_error (_("%s must be a whole number from %u to %u, not \"%s\""),
                          option, min, max, text ? text : "");
      return FALSE;
    }
  *out = (guint32) value;
  return TRUE;
}

/**
 * hr_cli_json_rate:
 * @tps: a rate in tokens per second
 *
 * A rate as the JSON documents carry it: to 2 decimals (1/100 t/s; the
 * text prints 1), so that "tps" reads 4.08, not 4.0800000000000001.
 *
 * Returns: @tps rounded to 2 decimals; @tps itself when it is not finite.
 */
double
hr_cli_json_rate (double tps)
{
  return isfinite (tps) ? round (tps * 100.0) / 100.0 : tps;
}

/* Opens @path for reading and closes it again: %TRUE when it can be opened
 * and is a folder exactly when @want_folder; else %FALSE with the error
 * hr_cli_check_readable() and hr_cli_check_folder() document. */
static gboolean
check_path (const char  *path,
            gboolean     want_folder,
            GError     **error)
{
  g_autofree char *display = g_filename_display_name (path);
  GStatBuf st;
  int fd = g_open (path, O_RDONLY, 0);
  int saved = errno;
  gboolean folder;

  if (fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot open %s: %s"), display, g_strerror (saved));
      return FALSE;
    }
  folder = fstat (fd, &st) == 0 && S_ISDIR (st.st_mode);
  g_close (fd, NULL);
  if (folder && !want_folder)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
                   _("cannot open %s: it is a folder, not a file"), display);
      return FALSE;
    }
  if (!folder && want_folder)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
                   _("cannot open %s: it is a file, not a folder"), display);
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_cli_check_readable:
 * @path: a file the user named (a GGUF file, a catalog)
 * @error: return location for a #GError
 *
 * Opens @path for reading and closes it again, so that a file that is
 * missing, unreadable or a folder is told in the CLI's words before a
 * reader's own message: "cannot open PATH: REASON", the reason the system's
 * (g_strerror()), or "it is a folder, not a file".
 *
 * Returns: %TRUE when @path is a file that can be opened; %FALSE with a
 *   %G_FILE_ERROR (g_file_error_from_errno(); %G_FILE_ERROR_ISDIR for a
 *   folder).
 */
gboolean
hr_cli_check_readable (const char  *path,
                       GError     **error)
{
  return check_path (path, FALSE, error);
}

/**
 * hr_cli_check_folder:
 * @path: a folder the user named (a measurement archive)
 * @error: return location for a #GError
 *
 * Opens @path and closes it again, so that a folder that is missing or
 * unreadable, or a file given for a folder, is an error in the same words
 * hr_cli_check_readable() gives files ("cannot open PATH: REASON", the
 * system's reason, or "it is a file, not a folder"), not an empty archive.
 *
 * Returns: %TRUE when @path is a folder that can be opened; %FALSE with a
 *   %G_FILE_ERROR (g_file_error_from_errno(); %G_FILE_ERROR_NOTDIR for a
 *   file).
 */
gboolean
hr_cli_check_folder (const char  *path,
                     GError     **error)
{
  return check_path (path, TRUE, error);
}

/**
 * hr_cli_name_width:
 * @specs: (element-type HrModelSpec): the models a table prints, one a row
 * @min_width: the column's width before any name is longer (14, the
 *   seed's tables')
 *
 * The width of a table's model-name column: @min_width, or the longest
 * name in @specs plus one space, so that a long name ("mistral-nemo:12b")
 * keeps its row in line and apart from the next column. Names are counted
 * in bytes, as printf's "%-*s" pads them.
 *
 * Returns: the width in characters, at least @min_width.
 */
int
hr_cli_name_width (GPtrArray *specs,
                   int        min_width)
{
  int width = min_width;

  for (guint i = 0; i < specs->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (specs, i);

      width = MAX (width, (int) MIN (strlen (spec->name), 1000) + 1);
    }
  return width;
}

/* Levenshtein distance between two strings of characters, or @limit + 1
 * once it is past @limit (the rows are cut short there). */
static guint
edit_distance (const gunichar *a,
               glong           na,
               const gunichar *b,
               glong           nb,
               guint           limit)
{
  g_autofree guint *prev = NULL, *cur = NULL;
  guint result;

  if ((guint) ABS (na - nb) > limit)
    return limit + 1;
  prev = g_new (guint, nb + 1);
  cur = g_new (guint, nb + 1);
  for (glong j = 0; j <= nb; j++)
    prev[j] = (guint) j;
  for (glong i = 1; i <= na; i++)
    {
      guint row_min;

      cur[0] = (guint) i;
      row_min = cur[0];
      for (glong j = 1; j <= nb; j++)
        {
          guint cost = a[i - 1] == b[j - 1] ? 0 : 1;

          cur[j] = MIN (MIN (prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
          row_min = MIN (row_min, cur[j]);
        }
      if (row_min > limit)
        return limit + 1;
      memcpy (prev, cur, (gsize) (nb + 1) * sizeof (guint));
    }
  result = prev[nb];
  return MIN (result, limit + 1);
}

/**
 * hr_cli_suggest_model:
 * @catalog: (element-type HrModelSpec): the catalog
 * @name: a model name that is not in it
 *
 * The catalog name @name most likely meant: one that differs only in case
 * ("Llama3.2:3B"), else the nearest within two edits (Levenshtein distance
 * on the case-folded names: "lama3.2:3b", "qwen2.5-14b"), the first in
 * catalog order on a tie.
 *
 * Returns: (transfer none) (nullable): that name, or %NULL when none is
 *   that close.
 */
const char *
hr_cli_suggest_model (GPtrArray  *catalog,
                      const char *name)
{
  g_autofree char *folded = NULL;
  g_autofree gunichar *chars = NULL;
  const char *best = NULL;
  guint best_distance = 3;
  glong n = 0;

  if (!g_utf8_validate (name, -1, NULL) || strlen (name) > 256)
    return NULL;
  folded = g_utf8_casefold (name, -1);
  chars = g_utf8_to_ucs4_fast (folded, -1, &n);
  for (guint i = 0; i < catalog->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (catalog, i);
      g_autofree char *other = NULL;
      g_autofree gunichar *other_chars = NULL;
      glong m = 0;
      guint d;

      if (!g_utf8_validate (spec->name, -1, NULL))
        continue;
      other = g_utf8_casefold (spec->name, -1);
      if (g_str_equal (folded, other))
        return spec->name;
      other_chars = g_utf8_to_ucs4_fast (other, -1, &m);
      d = edit_distance (chars, n, other_chars, m, 2);
      if (d < best_distance)
        {
          best_distance = d;
          best = spec->name;
        }
    }
  return best;
}

/**
 * hr_cli_unknown_model:
 * @catalog: (element-type HrModelSpec): the catalog
 * @name: a model name that is not in it
 *
 * The usage error for a model name the catalog does not have: the name,
 * the nearest catalog name when one is close (hr_cli_suggest_model()) and
 * how to list them all.
 *
 * Returns: %HR_CLI_EXIT_USAGE (2).
 */
int
hr_cli_unknown_model (GPtrArray  *catalog,
                      const char *name)
{
  const char *suggestion = hr_cli_suggest_model (catalog, name);

  if (suggestion != NULL)
    /* Translators: the name typed, then the catalog's name nearest to it */
    return hr_cli_usage_error (_("\"%s\" is not in the catalog (did you mean %s?); run \"headroom-cli catalog\" to see the names"),
                               name, suggestion);
  return hr_cli_usage_error (_("\"%s\" is not in the catalog; run \"headroom-cli catalog\" to see the names"), name);
}

/* Splits a comma-separated --models or --boards list, each name stripped;
 * NULL after a usage error when it is empty or has an empty name. */
static GStrv
split_list (const char *option,
            const char *text)
{
  g_auto(GStrv) names = g_strsplit (text, ",", -1);
  guint empty = 0, n = 0;

  for (; names[n] != NULL; n++)
    if (*g_strstrip (names[n]) == '\0')
      empty++;
  if (empty == n)
    {
      /* Translators: %s is the option, --models or --boards */
      hr_cli_usage_error (_("%s needs at least one name, comma-separated"), option);
      return NULL;
    }
  if (empty > 0)
    {
      /* Translators: the option (--models or --boards), then what was given */
      hr_cli_usage_error (_("%s has an empty name in \"%s\" (two commas, or one at an end)"), option, text);
      return NULL;
    }
  return g_steal_pointer (&names);
}

/**
 * hr_cli_select_models:
 * @catalog: (element-type HrModelSpec): the catalog
 * @models_text: (nullable): --models, comma-separated names; %NULL for all
 * @rows: (element-type HrModelSpec): where the rows go, borrowed from
 *   @catalog: the whole catalog, or the names in their order
 *
 * The models a table prints. An empty list, an empty name ("a,,b") or a
 * name not in the catalog (hr_cli_unknown_model()) is a usage error,
 * printed.
 *
 * Returns: %TRUE; %FALSE after printing the usage error.
 */
gboolean
hr_cli_select_models (GPtrArray  *catalog,
                      const char *models_text,
                      GPtrArray  *rows)
{
  g_auto(GStrv) names = NULL;

  if (models_text == NULL)
    {
      for (guint i = 0; i < catalog->len; i++)
        g_ptr_array_add (rows, g_ptr_array_index (catalog, i));
      return TRUE;
    }
  names = split_list ("--models", models_text);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; names[i] != NULL; i++)
    {
      HrModelSpec *spec = hr_catalog_find (catalog, names[i]);

      if (spec == NULL)
        {
          hr_cli_unknown_model (catalog, names[i]);
          return FALSE;
        }
      g_ptr_array_add (rows, spec);
    }
  return TRUE;
}

/* "unknown board "X"; the boards are: a, b, c", as an error. */
static void
set_unknown_board (GError    **error,
                   GPtrArray  *boards,
                   const char *name)
{
  g_autoptr(GString) ids = g_string_new (NULL);

  for (guint i = 0; i < boards->len; i++)
    g_string_append_printf (ids, "%s%s", i ? ", " : "", ((HrBoard *) g_ptr_array_index (boards, i))->id);
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
               _("unknown board \"%s\"; the boards are: %s"), name, ids->str);
}

/**
 * hr_cli_select_boards:
 * @boards: (element-type HrBoard): the boards
 * @boards_text: (nullable): --boards, comma-separated ids or names; %NULL
 *   for all
 * @out: (element-type HrBoard): where the boards go, borrowed from @boards
 *
 * The boards a table prints, as hr_cli_select_models() picks models: an
 * empty list or name is a usage error, and so is an unknown board, which
 * lists the boards' ids as `--board` does.
 *
 * Returns: %TRUE; %FALSE after printing the usage error.
 */
gboolean
hr_cli_select_boards (GPtrArray  *boards,
                      const char *boards_text,
                      GPtrArray  *out)
{
  g_auto(GStrv) names = NULL;

  if (boards_text == NULL)
    {
      for (guint i = 0; i < boards->len; i++)
        g_ptr_array_add (out, g_ptr_array_index (boards, i));
      return TRUE;
    }
  names = split_list ("--boards", boards_text);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; names[i] != NULL; i++)
    {
      HrBoard *board = hr_boards_find (boards, names[i]);

      if (board == NULL)
        {
          g_autoptr(GError) error = NULL;

          set_unknown_board (&error, boards, names[i]);
          hr_cli_usage_error ("%s", error->message);
          return FALSE;
        }
      g_ptr_array_add (out, board);
    }
  return TRUE;
}

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
      set_unknown_board (error, ctx->boards, board_name ? board_name : DEFAULT_BOARD);
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

/**
 * hr_cli_parse_options:
 * @command: the subcommand ("fit"), for `--help` and messages
 * @parameter_string: (nullable): what follows the options in `--help`
 *   ("MODEL")
 * @entries: (array zero-terminated=1): the subcommand's options
 * @argc: (inout): the arguments, the subcommand first
 * @argv: (inout) (array length=argc): the arguments; the options are
 *   removed
 *
 * Parses a subcommand's options, naming the program "headroom-cli COMMAND"
 * and translating the option texts.
 *
 * Returns: %TRUE; %FALSE after printing the usage error on stderr.
 */
gboolean
hr_cli_parse_options (const char   *command,
                      const char   *parameter_string,
                      GOptionEntry *entries,
                      int          *argc,
                      char       ***argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (parameter_string);
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("headroom-cli %s", command);

  g_set_prgname (prgname);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      hr_cli_usage_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}
