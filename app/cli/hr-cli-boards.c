/* hr-cli-boards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli boards detect` and `headroom-cli boards import FILE|-`: a
 * board made from what the machine's tools say (the parsers are
 * app/core/board/hr-hardware.c; the tools run here), and `--gpus SIZE,...`, the
 * ad-hoc board of discrete CUDA devices predict, gguf, hub and library
 * take.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-hardware.h"
#include "hr-units.h"

#define MEMINFO_PATH "/proc/meminfo"

/* ------------------------------------------------------------- --gpus */

/**
 * hr_cli_gpus_board:
 * @gpus_text: "24GiB,12GiB": each GPU's memory (hr_parse_size()), in
 *   llama.cpp's device order (CUDA0 first)
 * @error: return location for a #GError
 *
 * An ad-hoc board of discrete CUDA devices named CUDA0, CUDA1, ...: each
 * SIZE is the memory free for the model (nothing resident, nothing
 * reserved: give what nvidia-smi shows free on a card with a desktop), its
 * bandwidth not known (0: no speed is given). Host memory is this
 * computer's (/proc/meminfo: MemTotal, MemTotal - MemAvailable resident),
 * its bandwidth not known; when /proc/meminfo cannot be read the board has
 * no host memory and a model that does not fit the GPUs is "over".
 *
 * Returns: (transfer full): the board, id "gpus", or %NULL with
 *   hr_parse_size()'s error prefixed with "--gpus", or
 *   %HR_CORE_ERROR_INVALID_ARGUMENT for more than %HR_DEVICE_MAX sizes.
 */
HrBoard *
hr_cli_gpus_board (const char  *gpus_text,
                   GError     **error)
{
  g_auto(GStrv) sizes = g_strsplit (gpus_text, ",", -1);
  g_autoptr(GPtrArray) devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autofree char *meminfo = NULL;
  g_autofree char *name = NULL;

  if (g_strv_length (sizes) == 0 || g_strv_length (sizes) > HR_DEVICE_MAX)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("--gpus takes 1 to %u sizes, as 24GiB,12GiB"), HR_DEVICE_MAX);
      return NULL;
    }
  for (guint i = 0; sizes[i] != NULL; i++)
    {
      g_autofree char *device_name = g_strdup_printf ("CUDA%u", i);
      guint64 bytes;

      if (!hr_parse_size (sizes[i], &bytes, error))
        {
          g_prefix_error (error, "--gpus: ");
          return NULL;
        }
      g_ptr_array_add (devices, hr_device_new (device_name, bytes, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_CUDA));
    }
  name = g_strdup_printf ("--gpus %s", gpus_text);
  board = hr_board_new ("gpus", name);
  hr_board_set_devices (board, g_steal_pointer (&devices));
  if (g_file_get_contents (MEMINFO_PATH, &meminfo, NULL, NULL) &&
      hr_hardware_parse_meminfo (meminfo, reading, NULL))
    {
      board->host_pool_bytes = reading->host_total_bytes;
      board->host_resident_bytes = reading->host_available_bytes > 0 ?
                                   reading->host_total_bytes - reading->host_available_bytes : 0;
      board->source = g_strdup (_("--gpus: each GPU's memory as given, nothing resident or reserved, bandwidth not known; host memory this computer's (/proc/meminfo MemTotal, less MemAvailable in use), its bandwidth not known"));
    }
  else
    board->source = g_strdup (_("--gpus: each GPU's memory as given, nothing resident or reserved, bandwidth not known; host memory not known (/proc/meminfo could not be read)"));
  return g_steal_pointer (&board);
}

/* ------------------------------------------------------ detect / import */

typedef struct {
  char    *id;
  char    *name;
  char    *bandwidth_text;
  char    *host_bandwidth_text;
  char    *pool_text;
  gboolean save;
  gboolean force;
  gboolean json;
} BoardsOptions;

static void
boards_options_clear (BoardsOptions *o)
{
  g_free (o->id);
  g_free (o->name);
  g_free (o->bandwidth_text);
  g_free (o->host_bandwidth_text);
  g_free (o->pool_text);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BoardsOptions, boards_options_clear)

static gboolean
parse_gb_s (const char *option,
            const char *text,
            double     *out)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !(v >= 0.0) || v > 100000.0)
    {
      hr_cli_usage_error (_("%s must be GB/s from 0 to 100,000 (0 = not known), not \"%s\""), option, text);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

static char *
gib_text (guint64 bytes)
{
  return hr_format_bytes (bytes, HR_UNIT_GIB, 1);
}

static char *
bandwidth_text (double bytes_per_s)
{
  g_autofree char *number = NULL;

  if (!(bytes_per_s > 0.0))
    return g_strdup (_("not known"));
  number = hr_format_decimal (bytes_per_s / 1e9, 1);
  return g_strdup_printf (_("%s GB/s"), number);
}

static void
print_board (const HrBoard           *board,
             const HrHardwareReading *reading)
{
  g_autofree char *host = gib_text (board->host_pool_bytes);
  g_autofree char *host_used = gib_text (board->host_resident_bytes);
  g_autofree char *host_reserve = hr_format_bytes (board->host_reserve_bytes, HR_UNIT_GB, 1);
  g_autofree char *host_bw = bandwidth_text (board->host_bandwidth_bytes_per_s);

  printf ("%s (%s)\n", board->name, board->id);
  printf ("%s\n", _("read:"));
  for (guint i = 0; i < reading->read->len; i++)
    printf ("  %s\n", (char *) g_ptr_array_index (reading->read, i));
  if (board->unified)
    {
      g_autofree char *pool = gib_text (board->pool_bytes);
      g_autofree char *used = hr_format_bytes (board->resident_bytes, HR_UNIT_GB, 1);
      g_autofree char *reserve = hr_format_bytes (board->reserve_bytes, HR_UNIT_GB, 1);
      g_autofree char *bw = bandwidth_text (board->bandwidth_bytes_per_s);

      /* Translators: a unified board: the GPU's pool (0 = not known), in use, reserved, bandwidth, backend */
      printf (_("unified memory: pool %s%s, %s in use, %s reserved, bandwidth %s (%s)\n"), pool,
              board->pool_bytes == 0 ? _(" (not known)") : "", used, reserve, bw, hr_board_backend_to_string (board->backend));
    }
  for (guint i = 0; board->devices != NULL && i < board->devices->len; i++)
    {
      const HrDevice *d = g_ptr_array_index (board->devices, i);
      g_autofree char *memory = gib_text (d->memory_bytes);
      g_autofree char *used = gib_text (d->resident_bytes);
      g_autofree char *reserve = hr_format_bytes (d->reserve_bytes, HR_UNIT_GB, 1);
      g_autofree char *bw = bandwidth_text (d->bandwidth_bytes_per_s);

      /* Translators: GPU number, name, memory, in use, reserved, bandwidth, kind, backend */
      printf (_("GPU %u: %s, %s, %s in use, %s reserved, bandwidth %s (%s, %s)\n"), i, d->name, memory, used,
              reserve, bw, hr_device_kind_to_string (d->kind), hr_device_backend_to_string (d->backend));
    }
  if (!board->unified)
    printf (_("host memory: %s, %s in use, %s reserved, bandwidth %s\n"), host, host_used, host_reserve, host_bw);
  if (reading->confirm->len > 0)
    {
      printf ("%s\n", _("to confirm:"));
      for (guint i = 0; i < reading->confirm->len; i++)
        printf ("  - %s\n", (char *) g_ptr_array_index (reading->confirm, i));
    }
}

/* The user's boards.json with @board in it, written atomically; a board
 * of the same id is replaced only with @force (else
 * %HR_CORE_ERROR_INVALID_DATA and the file as it was); a user file that
 * cannot be read is left alone. */
static gboolean
save_board (const HrBoard  *board,
            gboolean        force,
            char          **out_path,
            GError        **error)
{
  g_autofree char *path = hr_data_user_file ("boards.json");
  g_autoptr(GPtrArray) boards = NULL;
  g_autoptr(GError) load_error = NULL;
  gboolean replaced = FALSE;

  boards = hr_boards_load_file (path, &load_error);
  if (boards == NULL && !g_error_matches (load_error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("not saving: your boards file cannot be read and is left as it is: %s"), load_error->message);
      return FALSE;
    }
  if (boards == NULL)
    boards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_board_free);
  for (guint i = 0; i < boards->len && !replaced; i++)
    if (g_strcmp0 (((HrBoard *) g_ptr_array_index (boards, i))->id, board->id) == 0)
      {
        if (!force)
          {
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                         _("not saved: your boards file already has a board \"%s\": give another --id, or --force to replace it"),
                         board->id);
            return FALSE;
          }
        hr_board_free (g_ptr_array_index (boards, i));
        boards->pdata[i] = hr_board_copy (board);
        replaced = TRUE;
      }
  if (!replaced)
    g_ptr_array_add (boards, hr_board_copy (board));
  {
    g_autofree char *dir = g_path_get_dirname (path);

    if (g_mkdir_with_parents (dir, 0700) != 0)
      {
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("cannot create %s"), dir);
        return FALSE;
      }
  }
  if (!hr_boards_save_file (boards, path, error))
    return FALSE;
  *out_path = g_steal_pointer (&path);
  return TRUE;
}

/* Parses --bandwidth's "A,B,..." GB/s into @out; FALSE (the usage error
 * said) on a value that is not one. */
static gboolean
parse_bandwidths (const char *text,
                  GArray     *out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      double v;

      if (!parse_gb_s ("--bandwidth", parts[i], &v))
        return FALSE;
      g_array_append_val (out, v);
    }
  return TRUE;
}

/* The tools' output pasted into @file, or standard input for "-". */
static char *
read_pasted (const char  *file,
             GError     **error)
{
  g_autofree char *text = NULL;

  if (g_str_equal (file, "-"))
    {
      g_autoptr(GString) in = g_string_new (NULL);
      char buffer[4096];
      size_t n;

      while ((n = fread (buffer, 1, sizeof buffer, stdin)) > 0)
        g_string_append_len (in, buffer, (gssize) n);
      return g_string_free (g_steal_pointer (&in), FALSE);
    }
  if (!hr_cli_check_readable (file, error) || !g_file_get_contents (file, &text, NULL, error))
    return NULL;
  return g_steal_pointer (&text);
}

/* Fills @reading from @file (import) or from this machine's tools
 * (detect); with no GPU on this machine the error says where to run it. */
static gboolean
read_hardware (const char         *file,
               HrHardwareReading  *reading,
               GError            **error)
{
  g_autoptr(GError) local = NULL;

  if (file != NULL)
    {
      g_autofree char *text = read_pasted (file, error);

      return text != NULL && hr_hardware_parse_paste (text, reading, error);
    }
  if (hr_hardware_detect (reading, NULL, &local))
    return TRUE;
  /* No GPU at all (the only failure after /proc/meminfo is read): say
   * where to run it instead. */
  if (g_error_matches (local, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND) && reading->host_total_bytes > 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("%s. Run this on the machine with the GPUs, or paste the tools' output from it into \"headroom-cli boards import -\""),
                   local->message);
      return FALSE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* Applies --pool to a unified reading; the exit code (0 when it was
 * applied or not given). */
static int
apply_pool (const char        *pool_text,
            HrHardwareReading *reading)
{
  g_autoptr(GError) error = NULL;

  if (pool_text == NULL)
    return HR_CLI_EXIT_OK;
  if (reading->unified_name == NULL)
    return hr_cli_usage_error ("%s", _("--pool is for a unified board (an Apple silicon Mac), and no unified GPU was read"));
  if (!hr_parse_size (pool_text, &reading->unified_pool_bytes, &error))
    {
      g_prefix_error (&error, "--pool: ");
      return hr_cli_fail (g_steal_pointer (&error));
    }
  return HR_CLI_EXIT_OK;
}

/* Adds @name: [the strings of @strings] to @b. */
static void
add_string_array (JsonBuilder *b,
                  const char  *name,
                  GPtrArray   *strings)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (strings, i));
  json_builder_end_array (b);
}

/* --json: the board as boards.json holds it, whether it is complete, and
 * what was read and what to confirm. */
static void
print_board_json (const HrBoard           *board,
                  const HrHardwareReading *reading,
                  gboolean                 complete)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "board");
  json_builder_add_value (b, hr_board_to_json (board));
  json_builder_set_member_name (b, "complete");
  json_builder_add_boolean_value (b, complete);
  add_string_array (b, "read", reading->read);
  add_string_array (b, "confirm", reading->confirm);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

/* --save (refused while @invalid says what is missing), or, printed, what
 * is left to do; the exit code. */
static int
save_or_advise (const BoardsOptions *o,
                const HrBoard       *board,
                const GError        *invalid)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (!o->save)
    {
      if (!o->json && invalid != NULL && board->unified)
        printf (_("not complete, so not saved: give what is missing (--pool, --bandwidth), then --save\n"));
      else if (!o->json && invalid != NULL)
        printf (_("not complete, so not saved: give what is missing (--bandwidth, --host-bandwidth), then --save\n"));
      else if (!o->json)
        printf (_("complete: --save puts it into your boards file\n"));
      return HR_CLI_EXIT_OK;
    }
  if (invalid != NULL)
    {
      g_set_error (&error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   board->unified ? _("not saved: %s (give what is missing: --pool, --bandwidth)")
                                  : _("not saved: %s (give what is missing: --bandwidth, --host-bandwidth)"), invalid->message);
      return hr_cli_fail (g_steal_pointer (&error));
    }
  if (!save_board (board, o->force, &path, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  if (!o->json)
    printf (_("saved as \"%s\" in %s\n"), board->id, path);
  return HR_CLI_EXIT_OK;
}

static int
boards_make (const char *command,
             const char *parameters,
             int         argc,
             char      **argv,
             gboolean    import)
{
  g_auto(BoardsOptions) o = { 0 };
  GOptionEntry entries[] = {
    { "id", 0, 0, G_OPTION_ARG_STRING, &o.id, N_("The board's id (default: this-computer)"), N_("ID") },
    { "name", 0, 0, G_OPTION_ARG_STRING, &o.name, N_("The board's name (default: This computer)"), N_("NAME") },
    { "bandwidth", 0, 0, G_OPTION_ARG_STRING, &o.bandwidth_text, N_("Each GPU's memory bandwidth in GB/s, in the order read (0 = not known); no tool prints it"), N_("A,B,...") },
    { "host-bandwidth", 0, 0, G_OPTION_ARG_STRING, &o.host_bandwidth_text, N_("The host memory's bandwidth in GB/s; no tool prints it"), N_("GB/S") },
    { "pool", 0, 0, G_OPTION_ARG_STRING, &o.pool_text, N_("A unified board's GPU share of its memory, as you confirmed it (an Apple silicon Mac: what Metal lets the GPU use); no tool prints it"), N_("SIZE") },
    { "save", 0, 0, G_OPTION_ARG_NONE, &o.save, N_("Save the board into your boards file (only once nothing is missing)"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &o.force, N_("With --save: replace a board of the same id in your boards file"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print the board as boards.json holds it, with what was read and what to confirm"), NULL },
    { NULL }
  };
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(GArray) bandwidths = g_array_new (FALSE, TRUE, sizeof (double));
  g_autoptr(GPtrArray) known = NULL;
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) invalid = NULL;
  g_autofree char *builtin = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  double host_bandwidth = 0.0;
  int rc;

  if (!hr_cli_parse_options (command, parameters, entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (import && argc != 2)
    return hr_cli_usage_error ("%s", _("give the file with the tools' output, or - for standard input: \"headroom-cli boards import -\""));
  if (!import && argc != 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[1]);
  if (o.bandwidth_text != NULL && !parse_bandwidths (o.bandwidth_text, bandwidths))
    return HR_CLI_EXIT_USAGE;
  if (o.host_bandwidth_text != NULL && !parse_gb_s ("--host-bandwidth", o.host_bandwidth_text, &host_bandwidth))
    return HR_CLI_EXIT_USAGE;

  if (!read_hardware (import ? argv[1] : NULL, reading, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  if ((rc = apply_pool (o.pool_text, reading)) != HR_CLI_EXIT_OK)
    return rc;
  known = hr_boards_load_file (builtin, NULL);
  board = hr_hardware_make_board (reading, o.id != NULL ? o.id : "this-computer",
                                  o.name != NULL ? o.name : _("This computer"), known,
                                  (const double *) (gconstpointer) bandwidths->data, bandwidths->len, host_bandwidth, &error);
  if (board == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  hr_board_validate (board, &invalid);

  if (o.json)
    print_board_json (board, reading, invalid == NULL);
  else
    print_board (board, reading);
  return save_or_advise (&o, board, invalid);
}

/**
 * hr_cli_cmd_boards:
 * @argc: arguments, "boards" first
 * @argv: "boards", then "detect" or "import FILE|-" and their options
 *
 * `boards detect`: runs nvidia-smi, amd-smi (else rocm-smi) and vulkaninfo
 * where they are installed, reads the DRM sysfs memory files and
 * /proc/meminfo (built on macOS: sysctl and system_profiler), and prints
 * (--json: as boards.json holds it) the "This computer" board they make,
 * with what was read and what the user must confirm; `--save` writes it
 * into the user's boards file once it is complete, refusing an id the
 * file already has unless `--force` is given. `boards import FILE|-`
 * does the same from those tools' output pasted from another machine.
 * `--pool SIZE` gives a unified board's GPU share (an Apple silicon Mac),
 * which no tool prints.
 *
 * Returns: 0; 1 when no GPU or host memory was read, a tool failed, a line
 *   could not be read, or saving was refused; 2 on a usage error.
 */
int
hr_cli_cmd_boards (int    argc,
                   char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "detect"))
    return boards_make ("boards detect", "", argc - 1, argv + 1, FALSE);
  if (argc >= 2 && g_str_equal (argv[1], "import"))
    return boards_make ("boards import", _("(FILE | -)"), argc - 1, argv + 1, TRUE);
  if (argc >= 2 && (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")))
    return boards_make ("boards", _("detect | import (FILE | -)"), argc, argv, FALSE);
  return hr_cli_usage_error ("%s", _("give \"detect\" (read this computer) or \"import FILE|-\" (the tools' output from another)"));
}
