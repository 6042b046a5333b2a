/* hr-cli-common.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every command uses to talk to the user: usage errors and failures
 * on stderr, JSON on stdout (numbers as short as they read back), a
 * number option read and checked, a file or folder checked before it is
 * read, and a subcommand's options parsed. Names are resolved in
 * hr-cli-names.c, the data loaded in hr-cli-context.c.
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
