/* hr-hardware-macos.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * macOS's own tools: `sysctl hw.memsize iogpu.wired_limit_mb` (the Mac's
 * memory, and the GPU's wired-memory limit when the user set one) and
 * `system_profiler SPDisplaysDataType` (its GPUs, as text or with -json),
 * and the unified board an Apple silicon Mac makes. Pure: the text comes in
 * (hr-hardware.h); app/cli runs the tools when built on macOS.
 *
 * On Apple silicon the GPU shares the Mac's memory. How much of it Metal
 * lets the GPU use (MTLDevice recommendedMaxWorkingSetSize, what llama.cpp's
 * Metal backend reports as the device's memory: ggml/src/ggml-metal
 * ggml_backend_metal_device_get_memory) neither tool prints, so it is not
 * guessed: it is the user's iogpu.wired_limit_mb when set, or what the user
 * confirms, and otherwise left for the user to give.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hardware-private.h"
#include "hr-json.h"
#include "hr-units.h"

#define MIB G_GUINT64_CONSTANT (1048576)
#define GIB G_GUINT64_CONSTANT (1073741824)
/* Headroom's assumptions, as on the built-in Apple boards (data/boards.json):
 * 1.0 GB resident for other apps' GPU buffers, 1.0 GB held back. */
#define APPLE_RESIDENT_BYTES G_GUINT64_CONSTANT (1000000000)
#define APPLE_RESERVE_BYTES  G_GUINT64_CONSTANT (1000000000)

/**
 * hr_hardware_parse_sysctl:
 * @text: the output of %HR_HARDWARE_SYSCTL_COMMAND: "hw.memsize:
 *   34359738368" (bytes) and "iogpu.wired_limit_mb: 0" (MiB; 0 = macOS's
 *   default); a lone number is read as `sysctl -n hw.memsize` prints it;
 *   "sysctl: unknown oid 'iogpu.wired_limit_mb'" (macOS before 14) is
 *   skipped
 * @reading: the reading: host_total_bytes (hw.memsize), host_from_sysctl,
 *   wired_limit_bytes
 * @error: return location for a #GError
 *
 * Returns: %TRUE when hw.memsize was read; else %HR_CORE_ERROR_PARSE
 *   quoting the line, or %HR_CORE_ERROR_NOT_FOUND without hw.memsize.
 */
gboolean
hr_hardware_parse_sysctl (const char         *text,
                          HrHardwareReading  *reading,
                          GError            **error)
{
  g_auto(GStrv) lines = hr_hardware_split_lines (text);
  g_autoptr(GRegex) re = g_regex_new ("^([a-z0-9_.]+)\\s*[:=]\\s*(\\S+)$", 0, 0, NULL);
  guint64 memsize = 0, wired = 0;
  gboolean has_wired = FALSE;
  guint n_lines = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n_lines += lines[i][0] != '\0';
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *key = NULL, *value = NULL;
      const char *line = lines[i];
      guint64 v;

      if (line[0] == '\0' || g_str_has_prefix (line, "sysctl: unknown oid"))
        continue;
      if (n_lines == 1 && hr_hardware_parse_count (line, &memsize))
        continue;
      if (!g_regex_match (re, line, 0, &m))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("sysctl: cannot read \"%s\": expected \"hw.memsize: BYTES\" as \"%s\" prints it"),
                       line, HR_HARDWARE_SYSCTL_COMMAND);
          return FALSE;
        }
      key = g_match_info_fetch (m, 1);
      value = g_match_info_fetch (m, 2);
      if (!g_str_equal (key, "hw.memsize") && !g_str_equal (key, "iogpu.wired_limit_mb"))
        continue;
      if (!hr_hardware_parse_count (value, &v) ||
          (g_str_equal (key, "iogpu.wired_limit_mb") && !hr_mul_u64 (v, MIB, &v)))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("sysctl: cannot read \"%s\": %s must be a whole number"), line, key);
          return FALSE;
        }
      if (g_str_equal (key, "hw.memsize"))
        memsize = v;
      else
        {
          wired = v;
          has_wired = TRUE;
        }
    }
  if (memsize == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("sysctl: no hw.memsize line"));
      return FALSE;
    }
  reading->host_total_bytes = memsize;
  reading->host_available_bytes = 0;
  reading->host_from_sysctl = TRUE;
  reading->wired_limit_bytes = wired;
  {
    g_autofree char *t = hr_format_count (memsize);

    g_ptr_array_add (reading->read, g_strdup_printf (_("sysctl: hw.memsize %s bytes"), t));
  }
  if (has_wired && wired > 0)
    {
      g_autofree char *w = hr_format_count (wired / MIB);

      g_ptr_array_add (reading->read, g_strdup_printf (_("sysctl: iogpu.wired_limit_mb %s (the GPU's wired-memory limit, as set on this Mac)"), w));
    }
  else if (has_wired)
    g_ptr_array_add (reading->read, g_strdup (_("sysctl: iogpu.wired_limit_mb 0 (macOS's default limit, which no tool prints)")));
  g_ptr_array_add (reading->confirm, g_strdup (_("memory in use: sysctl gives the Mac's memory, not what the OS and other programs hold: confirm it")));
  return TRUE;
}

/* "4 GB", "1536 MB" (system_profiler's VRAM figures: binary units) into bytes. */
static gboolean
parse_profiler_size (const char *text,
                     guint64    *out_bytes)
{
  g_auto(GStrv) parts = g_strsplit (text, " ", -1);
  guint64 n;

  if (g_strv_length (parts) != 2 || !hr_hardware_parse_count (parts[0], &n))
    return FALSE;
  if (g_str_equal (parts[1], "GB"))
    return hr_mul_u64 (n, GIB, out_bytes);
  if (g_str_equal (parts[1], "MB"))
    return hr_mul_u64 (n, MIB, out_bytes);
  return FALSE;
}

typedef struct {
  char    *name;
  char    *vendor;
  char    *bus;
  guint32  cores;
  guint64  vram;        /* "VRAM (Total)" / spdisplays_vram */
  guint64  vram_shared; /* "VRAM (Dynamic, Max)" / spdisplays_vram_shared */
} ProfilerGpu;

static void
profiler_gpu_clear (gpointer data)
{
  ProfilerGpu *g = data;

  g_free (g->name);
  g_free (g->vendor);
  g_free (g->bus);
}

/* The GPUs read into the reading: Apple silicon as the unified GPU, a GPU
 * with its own VRAM as a discrete Metal device, one with only a shared
 * maximum (an Intel iGPU) named and not counted. */
static gboolean
add_profiler_gpus (GArray             *gpus,
                   HrHardwareReading  *reading,
                   GError            **error)
{
  guint counted = 0;

  for (guint i = 0; i < gpus->len; i++)
    {
      const ProfilerGpu *g = &g_array_index (gpus, ProfilerGpu, i);
      gboolean apple = g_str_has_prefix (g->name, "Apple ") ||
                       (g->vendor != NULL && strstr (g->vendor, "Apple") != NULL);

      if (apple)
        {
          g_autofree char *cores = g->cores > 0 ? g_strdup_printf (_(", %u GPU cores"), g->cores) : g_strdup ("");

          if (reading->unified_name != NULL)
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                           _("system_profiler: two Apple GPUs (%s, %s): Headroom reads one Mac at a time"),
                           reading->unified_name, g->name);
              return FALSE;
            }
          reading->unified_name = g_strdup (g->name);
          reading->unified_cores = g->cores;
          g_ptr_array_add (reading->read, g_strdup_printf (_("system_profiler: %s (Apple silicon%s): it shares the Mac's memory"), g->name, cores));
          counted++;
        }
      else if (g->vram > 0)
        {
          g_autofree char *mib = hr_format_count (g->vram / MIB);
          HrDevice *device = hr_device_new (g->name, g->vram, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_METAL);

          g_ptr_array_add (reading->devices, device);
          g_ptr_array_add (reading->read, g_strdup_printf (_("system_profiler: %s, VRAM %s MiB"), g->name, mib));
          g_ptr_array_add (reading->confirm, g_strdup_printf (_("%s: memory in use not read (system_profiler gives none): confirm it"), g->name));
          counted++;
        }
      else if (g->vram_shared > 0)
        {
          g_autofree char *mib = hr_format_count (g->vram_shared / MIB);

          g_ptr_array_add (reading->read, g_strdup_printf (_("system_profiler: %s, up to %s MiB of system memory (integrated: not counted as a GPU)"), g->name, mib));
        }
      else
        g_ptr_array_add (reading->read, g_strdup_printf (_("system_profiler: %s (no memory figure)"), g->name));
    }
  if (counted == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("system_profiler listed no Apple silicon GPU and no GPU with its own VRAM"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_profiler_json (const char  *text,
                     GArray      *gpus,
                     GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  JsonNode *root;
  JsonArray *list;

  if (!json_parser_load_from_data (parser, text, -1, &local))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("system_profiler: cannot read its JSON: %s"), local->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      !json_object_has_member (json_node_get_object (root), "SPDisplaysDataType") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (json_node_get_object (root), "SPDisplaysDataType")))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("system_profiler: its JSON has no \"SPDisplaysDataType\" list (as \"%s -json\" prints it)"), HR_HARDWARE_PROFILER_COMMAND);
      return FALSE;
    }
  list = json_object_get_array_member (json_node_get_object (root), "SPDisplaysDataType");
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *o;
      const char *name, *vram, *shared, *cores;
      ProfilerGpu g = { 0 };

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      o = json_node_get_object (node);
      name = json_object_get_string_member_with_default (o, "sppci_model", NULL);
      if (name == NULL)
        name = json_object_get_string_member_with_default (o, "_name", NULL);
      if (name == NULL)
        continue;
      vram = json_object_get_string_member_with_default (o, "spdisplays_vram", NULL);
      shared = json_object_get_string_member_with_default (o, "spdisplays_vram_shared", NULL);
      cores = json_object_get_string_member_with_default (o, "sppci_cores", NULL);
      g.name = hr_json_safe_text (name, -1, 128);
      g.vendor = hr_json_safe_text (json_object_get_string_member_with_default (o, "spdisplays_vendor", ""), -1, 128);
      g.bus = hr_json_safe_text (json_object_get_string_member_with_default (o, "sppci_bus", ""), -1, 128);
      if ((vram != NULL && !parse_profiler_size (vram, &g.vram)) ||
          (shared != NULL && !parse_profiler_size (shared, &g.vram_shared)))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("system_profiler: cannot read the VRAM of %s (\"%s\"): expected \"N GB\" or \"N MB\""),
                       g.name, vram != NULL ? vram : shared);
          profiler_gpu_clear (&g);
          return FALSE;
        }
      if (cores != NULL)
        {
          guint64 c;

          if (hr_hardware_parse_count (cores, &c) && c <= G_MAXUINT32)
            g.cores = (guint32) c;
        }
      g_array_append_val (gpus, g);
    }
  return TRUE;
}

static gboolean
parse_profiler_text (const char  *text,
                     GArray      *gpus,
                     GError     **error)
{
  g_auto(GStrv) lines = hr_hardware_split_lines (text);
  g_autoptr(GRegex) re = g_regex_new ("^([^:]+):\\s*(.*)$", 0, 0, NULL);
  ProfilerGpu *g = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *key = NULL, *value = NULL;
      const char *line = lines[i];

      if (line[0] == '\0')
        continue;
      if (!g_regex_match (re, line, 0, &m))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("system_profiler: cannot read \"%s\": expected \"Key: value\" lines as \"%s\" prints them"),
                       line, HR_HARDWARE_PROFILER_COMMAND);
          return FALSE;
        }
      key = g_match_info_fetch (m, 1);
      value = g_match_info_fetch (m, 2);
      if (g_str_equal (key, "Chipset Model") && value[0] != '\0')
        {
          ProfilerGpu fresh = { 0 };

          fresh.name = g_strdup (value);
          g_array_append_val (gpus, fresh);
          g = &g_array_index (gpus, ProfilerGpu, gpus->len - 1);
          continue;
        }
      if (g == NULL || value[0] == '\0')
        continue;
      if (g_str_equal (key, "Vendor"))
        {
          g_free (g->vendor);
          g->vendor = g_strdup (value);
        }
      else if (g_str_equal (key, "Bus"))
        {
          g_free (g->bus);
          g->bus = g_strdup (value);
        }
      else if (g_str_equal (key, "Total Number of Cores"))
        {
          guint64 c;

          if (hr_hardware_parse_count (value, &c) && c <= G_MAXUINT32)
            g->cores = (guint32) c;
        }
      else if (g_str_equal (key, "VRAM (Total)") || g_str_equal (key, "VRAM (Dynamic, Max)"))
        {
          gboolean total = g_str_equal (key, "VRAM (Total)");

          if (!parse_profiler_size (value, total ? &g->vram : &g->vram_shared))
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                           _("system_profiler: cannot read \"%s\": expected \"N GB\" or \"N MB\""), line);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/**
 * hr_hardware_parse_system_profiler:
 * @text: the output of %HR_HARDWARE_PROFILER_COMMAND: "Graphics/Displays:",
 *   then per GPU "Chipset Model: Apple M2 Max", "Type: GPU", "Bus:
 *   Built-In", "Total Number of Cores: 38", "Vendor: Apple (0x106b)", and on
 *   a GPU with its own memory "VRAM (Total): 8 GB" (an iGPU: "VRAM (Dynamic,
 *   Max): 1536 MB"), then its displays; or of the same with -json
 *   ({"SPDisplaysDataType": [{"sppci_model", "sppci_cores",
 *   "spdisplays_vendor", "spdisplays_vram", "spdisplays_vram_shared"}]})
 * @reading: the reading: an Apple silicon GPU goes into unified_name and
 *   unified_cores (no device: its memory is the Mac's); a GPU with its own
 *   VRAM (an Intel Mac's Radeon) is a discrete "metal" device; an iGPU's
 *   shared maximum is read and not counted
 * @error: return location for a #GError
 *
 * Returns: %TRUE with an Apple silicon GPU or a GPU with VRAM; else
 *   %HR_CORE_ERROR_PARSE quoting the line, or %HR_CORE_ERROR_NOT_FOUND.
 */
gboolean
hr_hardware_parse_system_profiler (const char         *text,
                                   HrHardwareReading  *reading,
                                   GError            **error)
{
  g_autoptr(GArray) gpus = g_array_new (FALSE, TRUE, sizeof (ProfilerGpu));
  const char *p = text != NULL ? text : "";
  gboolean ok;

  g_array_set_clear_func (gpus, profiler_gpu_clear);
  while (g_ascii_isspace (*p))
    p++;
  ok = *p == '{' ? parse_profiler_json (p, gpus, error) : parse_profiler_text (p, gpus, error);
  return ok && add_profiler_gpus (gpus, reading, error);
}

/* A built-in Apple board of this chip and memory: "Apple M2 Max, 32 GB"
 * (data/boards.json names them so). */
static const HrBoard *
known_apple_board (GPtrArray  *known,
                   const char *chip,
                   guint64     memsize)
{
  g_autofree char *want = g_strdup_printf ("%s, %" G_GUINT64_FORMAT " GB", chip, memsize / GIB);

  for (guint i = 0; known != NULL && i < known->len; i++)
    {
      const HrBoard *b = g_ptr_array_index (known, i);

      if (b->unified && b->backend == HR_BOARD_BACKEND_METAL && g_strcmp0 (b->name, want) == 0)
        return b;
    }
  return NULL;
}

/* hr-hardware-private.h. The unified Metal board of an Apple silicon Mac:
 * its pool the GPU share the user confirmed (reading->unified_pool_bytes),
 * else the wired limit the user set (iogpu.wired_limit_mb), else 0, not
 * guessed, and listed to confirm (such a board does not validate);
 * resident and reserve 1.0 GB each (Headroom's assumptions, as on the
 * built-in Apple boards); its bandwidth as given, or a built-in board's of
 * the same chip and memory, or listed to give. */
HrBoard *
hr_hardware_make_unified_board (HrHardwareReading *reading,
                                const char        *id,
                                const char        *name,
                                GPtrArray         *known_boards,
                                double             bandwidth_gb_s,
                                GError           **error)
{
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GString) source = g_string_new (_("read from the machine's tools:"));
  g_autofree char *memory = NULL;
  const HrBoard *known;
  guint64 memsize = reading->host_total_bytes;

  if (memsize == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("%s shares the Mac's memory, and no memory size was read (%s)"), reading->unified_name, HR_HARDWARE_SYSCTL_COMMAND);
      return NULL;
    }
  if (reading->unified_pool_bytes > memsize)
    {
      g_autofree char *pool = hr_format_bytes (reading->unified_pool_bytes, HR_UNIT_GIB, 1);
      g_autofree char *total = hr_format_bytes (memsize, HR_UNIT_GIB, 1);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the GPU's share given (%s) is more than the Mac's memory (%s, hw.memsize)"), pool, total);
      return NULL;
    }
  for (guint i = 0; i < reading->read->len; i++)
    g_string_append_printf (source, "%s %s", i == 0 ? "" : ";", (char *) g_ptr_array_index (reading->read, i));
  board = hr_board_new (id, name);
  board->unified = TRUE;
  board->backend = HR_BOARD_BACKEND_METAL;
  memory = hr_format_bytes (memsize, HR_UNIT_GIB, 1);
  if (reading->unified_pool_bytes > 0)
    {
      g_autofree char *pool = hr_format_bytes (reading->unified_pool_bytes, HR_UNIT_GIB, 2);

      board->pool_bytes = reading->unified_pool_bytes;
      g_string_append_printf (source, _("; pool %s: the GPU's share of the %s as given"), pool, memory);
    }
  else if (reading->wired_limit_bytes > 0)
    {
      g_autofree char *pool = hr_format_bytes (reading->wired_limit_bytes, HR_UNIT_GIB, 2);

      board->pool_bytes = MIN (reading->wired_limit_bytes, memsize);
      g_string_append_printf (source, _("; pool %s: the wired-memory limit set on this Mac (iogpu.wired_limit_mb)"), pool);
      g_ptr_array_add (reading->confirm, g_strdup_printf (_("pool: %s is the GPU wired-memory limit set on this Mac (iogpu.wired_limit_mb); confirm the GPU may use that much"), pool));
    }
  else
    g_ptr_array_add (reading->confirm,
                     g_strdup_printf (_("pool: %s shares the Mac's %s; how much of it Metal lets the GPU use (recommendedMaxWorkingSetSize) neither sysctl nor system_profiler prints, and Headroom does not guess it: give it (--pool SIZE), or set iogpu.wired_limit_mb and read again"),
                                      reading->unified_name, memory));
  board->resident_bytes = APPLE_RESIDENT_BYTES;
  board->reserve_bytes = APPLE_RESERVE_BYTES;
  known = known_apple_board (known_boards, reading->unified_name, memsize);
  if (bandwidth_gb_s > 0.0)
    {
      board->bandwidth_bytes_per_s = bandwidth_gb_s * 1e9;
      g_string_append_printf (source, _("; bandwidth %g GB/s as given"), bandwidth_gb_s);
    }
  else if (known != NULL)
    {
      board->bandwidth_bytes_per_s = known->bandwidth_bytes_per_s;
      g_string_append_printf (source, _("; bandwidth %g GB/s from the built-in board \"%s\""), known->bandwidth_bytes_per_s / 1e9, known->id);
    }
  else
    g_ptr_array_add (reading->confirm, g_strdup_printf (_("%s: memory bandwidth not read (no tool prints it): give it in GB/s (--bandwidth), from Apple's spec for the chip"), reading->unified_name));
  g_string_append (source, _("; resident 1.0 GB and reserve 1.0 GB are Headroom's assumptions, as on the built-in Apple boards: edit them to your Mac"));
  g_ptr_array_add (reading->confirm, g_strdup (_("resident 1.0 GB and reserve 1.0 GB are Headroom's assumptions for other apps' GPU buffers")));
  board->source = g_string_free (g_steal_pointer (&source), FALSE);
  return g_steal_pointer (&board);
}
