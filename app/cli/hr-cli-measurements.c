/* hr-cli-measurements.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli measurements`: see the measurement archive, one record a
 * line with its id, and delete one of your own.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-measurement.h"
#include "hr-units.h"

typedef struct {
  char     *board;
  char     *measurements;
  gboolean  json;
} MeasurementsOptions;

static void
measurements_options_clear (MeasurementsOptions *o)
{
  g_free (o->board);
  g_free (o->measurements);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MeasurementsOptions, measurements_options_clear)

/* The folder records may be deleted from: --measurements DIR, else yours. */
static char *
writable_dir (const MeasurementsOptions *o)
{
  return o->measurements != NULL ? g_strdup (o->measurements) : hr_data_measurements_dir ();
}

static gboolean
in_dir (const HrMeasurement *m,
        const char          *dir)
{
  g_autofree char *parent = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (m->path == NULL)
    return FALSE;
  parent = g_path_get_dirname (m->path);
  a = g_canonicalize_filename (parent, NULL);
  b = g_canonicalize_filename (dir, NULL);
  return g_strcmp0 (a, b) == 0;
}

/* "2048: 2.35 GB, 4096: 2.59 GB": what /api/ps reported per context. */
static char *
sizes_text (const HrMeasurement *m)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < m->sizes->len; i++)
    {
      const HrMeasuredSize *s = &g_array_index (m->sizes, HrMeasuredSize, i);
      g_autofree char *size = hr_format_bytes (s->reported_bytes, HR_UNIT_GB, 2);

      g_string_append_printf (text, "%s%u: %s", i > 0 ? ", " : "", s->context_tokens, size);
    }
  if (text->len == 0)
    g_string_append (text, "-");
  return g_string_free (text, FALSE);
}

static void
pad (GString    *line,
     const char *text,
     guint       width)
{
  glong n = g_utf8_strlen (text, -1);

  g_string_append (line, text);
  for (glong i = n; i < (glong) width; i++)
    g_string_append_c (line, ' ');
  g_string_append (line, "  ");
}

enum { C_ID, C_BOARD, C_DATE, C_SERVER, C_MODEL, C_TPS, C_SIZES, C_WHERE, N_C };

static void
print_table (GPtrArray  *records,
             const char *dir)
{
  const char *titles[N_C] = { "ID", N_("BOARD"), N_("DATE"), N_("SERVER"), N_("MODEL"), "t/s", N_("SIZES"), N_("ARCHIVE") };
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  guint widths[N_C] = { 0 };

  for (int c = 0; c < N_C; c++)
    widths[c] = (guint) g_utf8_strlen (c == C_ID || c == C_TPS ? titles[c] : _(titles[c]), -1);
  for (guint i = 0; i < records->len; i++)
    {
      const HrMeasurement *m = g_ptr_array_index (records, i);
      char **row = g_new0 (char *, N_C + 1);
      char tps[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (tps, sizeof tps, "%.1f", m->decode_tps_mean);
      row[C_ID] = hr_measurement_dup_id (m);
      row[C_BOARD] = g_strdup (m->board);
      row[C_DATE] = g_strdup (m->date != NULL ? m->date : "-");
      row[C_SERVER] = g_strdup (m->runtime_version != NULL ? m->runtime_version : "-");
      row[C_MODEL] = g_strdup (m->model);
      row[C_TPS] = g_strdup (tps);
      row[C_SIZES] = sizes_text (m);
      /* Translators: where a record lives: your archive, or the built-in data */
      row[C_WHERE] = g_strdup (in_dir (m, dir) ? _("yours") : _("built-in"));
      for (int c = 0; c < N_C; c++)
        widths[c] = MAX (widths[c], (guint) g_utf8_strlen (row[c], -1));
      g_ptr_array_add (cells, row);
    }

  for (guint r = 0; r <= cells->len; r++)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      for (int c = 0; c < N_C; c++)
        {
          const char *text = r == 0 ? (c == C_ID || c == C_TPS ? titles[c] : _(titles[c]))
                                    : ((char **) g_ptr_array_index (cells, r - 1))[c];

          if (c == C_TPS)
            {
              /* Rates right-aligned. */
              for (glong i = g_utf8_strlen (text, -1); i < (glong) widths[c]; i++)
                g_string_append_c (line, ' ');
              g_string_append (line, text);
              g_string_append (line, "  ");
            }
          else
            pad (line, text, c == N_C - 1 ? 0 : widths[c]);
        }
      g_strchomp (line->str);
      printf ("%s\n", line->str);
    }
}

static void
print_json (GPtrArray  *records,
            const char *dir)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (b);
  for (guint i = 0; i < records->len; i++)
    {
      const HrMeasurement *m = g_ptr_array_index (records, i);
      g_autofree char *id = hr_measurement_dup_id (m);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, id);
      json_builder_set_member_name (b, "board");
      json_builder_add_string_value (b, m->board);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, m->model);
      json_builder_set_member_name (b, "date");
      if (m->date != NULL)
        json_builder_add_string_value (b, m->date);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "runtime_version");
      if (m->runtime_version != NULL)
        json_builder_add_string_value (b, m->runtime_version);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "decode_tps");
      json_builder_add_double_value (b, m->decode_tps_mean);
      json_builder_set_member_name (b, "sizes");
      hr_measured_sizes_to_json (b, m->sizes);
      json_builder_set_member_name (b, "path");
      json_builder_add_string_value (b, m->path);
      json_builder_set_member_name (b, "deletable");
      json_builder_add_boolean_value (b, in_dir (m, dir));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

static int
cmd_list (MeasurementsOptions *o,
          HrCliContext        *ctx)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new ();
  g_autofree char *dir = writable_dir (o);

  for (guint i = 0; i < ctx->measurements->len; i++)
    {
      HrMeasurement *m = g_ptr_array_index (ctx->measurements, i);

      if (o->board == NULL || g_strcmp0 (m->board, ctx->board->id) == 0)
        g_ptr_array_add (records, m);
    }
  if (o->json)
    {
      print_json (records, dir);
      return HR_CLI_EXIT_OK;
    }
  if (records->len == 0)
    {
      if (o->board != NULL)
        printf (_("no measurements of %s; measure one with headroom-cli ollama measure MODEL --board %s\n"),
                ctx->board->id, ctx->board->id);
      else
        printf ("%s\n", _("no measurements; measure one with headroom-cli ollama measure MODEL"));
      return HR_CLI_EXIT_OK;
    }
  print_table (records, dir);
  return HR_CLI_EXIT_OK;
}

static int
cmd_delete (MeasurementsOptions *o,
            HrCliContext        *ctx,
            const char          *id)
{
  g_autofree char *dir = writable_dir (o);
  g_autoptr(HrMeasurement) removed = NULL;
  g_autoptr(GError) error = NULL;

  if (!hr_measurement_archive_remove (ctx->measurements, dir, id, &removed, &error))
    {
      if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
        return hr_cli_usage_error (_("%s; \"headroom-cli measurements\" lists the ids"), error->message);
      return hr_cli_fail (g_steal_pointer (&error));
    }
  /* Translators: the id, then the record's board, model and date */
  printf (_("deleted %1$s (%2$s, %3$s, %4$s)\n"), id, removed->board, removed->model,
          removed->date != NULL ? removed->date : "-");
  return HR_CLI_EXIT_OK;
}

/**
 * hr_cli_cmd_measurements:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli measurements [--board B] [--measurements DIR] [--json]`
 * lists the archive (built-in and yours, or DIR), one record a line: its
 * id (the file's name without ".json", hr_measurement_dup_id()), board,
 * date, server version, model, decode t/s and the /api/ps sizes per
 * context. `headroom-cli measurements delete ID` removes one of yours
 * (atomically: the file goes, hr_measurement_archive_remove()); built-in
 * records are never changed.
 *
 * Returns: 0; 1 when a file cannot be read or removed, or the record is
 *   built-in; 2 for bad arguments, an unknown board or an unknown id.
 */
int
hr_cli_cmd_measurements (int    argc,
                         char **argv)
{
  g_auto(MeasurementsOptions) o = { 0 };
  GOptionEntry entries[] = {
    { "board", 0, 0, G_OPTION_ARG_STRING, &o.board, N_("Only the measurements of this board (id or name)"), N_("NAME") },
    { "measurements", 0, 0, G_OPTION_ARG_FILENAME, &o.measurements, N_("Measurement archive to use instead of the built-in and your own"), N_("DIR") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print JSON instead of a table"), NULL },
    { NULL }
  };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean delete;

  if (!hr_cli_parse_options ("measurements", _("[delete ID]"), entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  delete = argc > 1 && g_str_equal (argv[1], "delete");
  if (delete && argc != 3)
    return hr_cli_usage_error ("%s", _("measurements delete takes one id, e.g. headroom-cli measurements delete "
                                       "jetson-orin-nano-super-llama3.2_3b-20260101T120000Z"));
  if (!delete && argc > 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\"; use headroom-cli measurements [--board NAME] or "
                                 "headroom-cli measurements delete ID"), argv[1]);
  if (delete && (o.board != NULL || o.json))
    return hr_cli_usage_error ("%s", _("--board and --json only go with listing the measurements"));

  if (!hr_cli_context_load (&ctx, o.board, NULL, o.measurements, &error))
    {
      if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND) && o.board != NULL)
        return hr_cli_usage_error ("%s", error->message);
      return hr_cli_fail (g_steal_pointer (&error));
    }

  return delete ? cmd_delete (&o, &ctx, argv[2]) : cmd_list (&o, &ctx);
}
