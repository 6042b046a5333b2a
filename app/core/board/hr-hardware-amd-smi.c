/* hr-hardware-amd-smi.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * amd-smi's output (the tool that replaces rocm-smi, ROCm/amdsmi): the GPUs'
 * names and VRAM, from `amd-smi static --asic --vram` and `amd-smi metric
 * --mem-usage`, printed as amd-smi's human-readable text or with --json.
 * Pure: the text comes in (hr-hardware.h).
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

/* amd-smi's "MB" is MiB: amdsmi_cli/amdsmi_commands.py (metric --mem-usage)
 * divides the library's bytes by 1024 * 1024 before it prints "MB", and
 * src/amd_smi/amd_smi.cc amdsmi_get_gpu_vram_info sets vram_size (static
 * --vram) to total / (1024 * 1024). "N/A" leaves the figure unread. */
static gboolean
parse_amd_mb (const char *text,
              gboolean   *out_read,
              guint64    *out_bytes)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  guint64 mib;

  *out_read = FALSE;
  if (g_str_equal (copy, "N/A"))
    return TRUE;
  if (g_str_has_suffix (copy, "MB"))
    {
      copy[strlen (copy) - 2] = '\0';
      g_strstrip (copy);
    }
  if (!hr_hardware_parse_count (copy, &mib) || !hr_mul_u64 (mib, MIB, out_bytes))
    return FALSE;
  *out_read = TRUE;
  return TRUE;
}

/* One figure of a JSON object: {"value": N, "unit": "MB"}, a number, or a
 * string ("N MB", "N/A"); absent: not read. */
static gboolean
json_amd_mb (JsonObject *o,
             const char *member,
             gboolean   *out_read,
             guint64    *out_bytes)
{
  JsonNode *node = o != NULL ? json_object_get_member (o, member) : NULL;

  *out_read = FALSE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *v = json_node_get_object (node);
      const char *unit = json_object_get_string_member_with_default (v, "unit", "MB");
      JsonNode *value = json_object_get_member (v, "value");
      gint64 n;

      if (value == NULL || !JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_INT64 ||
          !g_str_equal (unit, "MB"))
        return FALSE;
      n = json_node_get_int (value);
      if (n < 0 || !hr_mul_u64 ((guint64) n, MIB, out_bytes))
        return FALSE;
      *out_read = TRUE;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      gint64 n = json_node_get_int (node);

      if (n < 0 || !hr_mul_u64 ((guint64) n, MIB, out_bytes))
        return FALSE;
      *out_read = TRUE;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return parse_amd_mb (json_node_get_string (node), out_read, out_bytes);
  return FALSE;
}

static gboolean
refuse_json (const char  *what,
             GError     **error)
{
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
               _("amd-smi: cannot read its JSON: %s (as \"%s\" print it with --json)"), what, HR_HARDWARE_AMD_SMI_COMMAND);
  return FALSE;
}

/* --json: a list of GPU objects (amd-smi 24.x) or {"gpu_data": [...]}
 * (later releases), each with "gpu", "asic": {"market_name"}, "vram":
 * {"size"} and "mem_usage": {"total_vram", "used_vram"}. */
static gboolean
parse_json (const char  *text,
            GArray      *gpus,
            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  JsonNode *root;
  JsonArray *list = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &local))
    return refuse_json (local->message, error);
  root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root))
    list = json_node_get_array (root);
  else if (root != NULL && JSON_NODE_HOLDS_OBJECT (root) &&
           json_object_has_member (json_node_get_object (root), "gpu_data") &&
           JSON_NODE_HOLDS_ARRAY (json_object_get_member (json_node_get_object (root), "gpu_data")))
    list = json_object_get_array_member (json_node_get_object (root), "gpu_data");
  if (list == NULL)
    return refuse_json (_("neither a list of GPUs nor {\"gpu_data\": [...]}"), error);

  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *o, *asic, *vram, *usage;
      gint64 index = i;
      gboolean read;
      guint64 bytes;
      AmdGpu *g;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return refuse_json (_("a GPU entry is not an object"), error);
      o = json_node_get_object (node);
      if (json_object_has_member (o, "gpu"))
        {
          JsonNode *n = json_object_get_member (o, "gpu");

          if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64 || json_node_get_int (n) < 0)
            return refuse_json (_("\"gpu\" is not a GPU index"), error);
          index = json_node_get_int (n);
        }
      g = hr_hardware_amd_gpu (gpus, (guint) MIN (index, (gint64) G_MAXUINT));
      if (g == NULL)
        return refuse_json (_("more GPUs than Headroom counts"), error);
      asic = json_object_has_member (o, "asic") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "asic"))
             ? json_object_get_object_member (o, "asic") : NULL;
      vram = json_object_has_member (o, "vram") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "vram"))
             ? json_object_get_object_member (o, "vram") : NULL;
      usage = json_object_has_member (o, "mem_usage") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "mem_usage"))
              ? json_object_get_object_member (o, "mem_usage") : NULL;
      if (asic != NULL)
        {
          const char *name = json_object_get_string_member_with_default (asic, "market_name", NULL);

          if (name != NULL && name[0] != '\0' && !g_str_equal (name, "N/A"))
            {
              g_free (g->name);
              g->name = hr_json_safe_text (name, -1, 128);
            }
        }
      if (!json_amd_mb (vram, "size", &read, &bytes))
        return refuse_json (_("\"vram\": \"size\" is not whole MB"), error);
      if (read && !g->has_total)
        {
          g->total = bytes;
          g->has_total = TRUE;
        }
      if (!json_amd_mb (usage, "total_vram", &read, &bytes))
        return refuse_json (_("\"mem_usage\": \"total_vram\" is not whole MB"), error);
      if (read)
        {
          g->total = bytes;
          g->has_total = TRUE;
        }
      if (!json_amd_mb (usage, "used_vram", &read, &bytes))
        return refuse_json (_("\"mem_usage\": \"used_vram\" is not whole MB"), error);
      if (read)
        g->used = bytes;
    }
  return TRUE;
}

/* The human-readable text: "GPU: 0", then sections ("ASIC:", "VRAM:",
 * "MEM_USAGE:") of "KEY: VALUE" lines (amdsmi_cli/amdsmi_logger.py
 * _convert_json_to_human_readable: the JSON's keys upper-cased, as YAML). */
static gboolean
parse_text (const char  *text,
            GArray      *gpus,
            GError     **error)
{
  g_auto(GStrv) lines = hr_hardware_split_lines (text);
  g_autoptr(GRegex) gpu_re = g_regex_new ("^GPU:\\s*(\\d+)$", 0, 0, NULL);
  g_autoptr(GRegex) key_re = g_regex_new ("^([A-Z0-9_]+):\\s*(.*)$", 0, 0, NULL);
  g_autofree char *section = g_strdup ("");
  AmdGpu *g = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *key = NULL, *value = NULL;
      const char *line = lines[i];
      gboolean read;
      guint64 bytes;

      if (line[0] == '\0' || g_str_has_prefix (line, "WARNING"))
        continue;
      if (g_regex_match (gpu_re, line, 0, &m))
        {
          g_autofree char *index = g_match_info_fetch (m, 1);

          g = hr_hardware_amd_gpu (gpus, (guint) MIN (g_ascii_strtoull (index, NULL, 10), G_MAXUINT));
          if (g == NULL)
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("amd-smi: cannot read \"%s\": more than %u GPUs"), line, HR_DEVICE_MAX);
              return FALSE;
            }
          g_free (section);
          section = g_strdup ("");
          continue;
        }
      g_clear_pointer (&m, g_match_info_free);
      if (!g_regex_match (key_re, line, 0, &m) || g == NULL)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       g == NULL ? _("amd-smi: cannot read \"%s\": expected a \"GPU: N\" line first, as \"%s\" print it")
                                 : _("amd-smi: cannot read \"%s\": expected \"KEY: VALUE\" lines as \"%s\" print them"),
                       line, HR_HARDWARE_AMD_SMI_COMMAND);
          return FALSE;
        }
      key = g_match_info_fetch (m, 1);
      value = g_match_info_fetch (m, 2);
      if (value[0] == '\0')
        {
          g_free (section);
          section = g_steal_pointer (&key);
          continue;
        }
      if (g_str_equal (key, "MARKET_NAME") && g_str_equal (section, "ASIC") && !g_str_equal (value, "N/A"))
        {
          g_free (g->name);
          g->name = g_strdup (value);
        }
      else if ((g_str_equal (key, "SIZE") && g_str_equal (section, "VRAM")) ||
               g_str_equal (key, "TOTAL_VRAM") || g_str_equal (key, "USED_VRAM"))
        {
          if (!parse_amd_mb (value, &read, &bytes))
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                           _("amd-smi: cannot read \"%s\": the memory must be whole MB as amd-smi prints it"), line);
              return FALSE;
            }
          if (!read)
            continue;
          if (g_str_equal (key, "USED_VRAM"))
            g->used = bytes;
          else if (g_str_equal (key, "TOTAL_VRAM") || !g->has_total)
            {
              /* metric's TOTAL_VRAM comes with USED_VRAM: it wins over static's SIZE */
              g->total = bytes;
              g->has_total = TRUE;
            }
        }
    }
  return TRUE;
}

/**
 * hr_hardware_parse_amd_smi:
 * @outputs: (array zero-terminated=1): the outputs of the commands in
 *   %HR_HARDWARE_AMD_SMI_COMMAND, each as amd-smi prints it
 *   ("GPU: 0", "    ASIC:", "        MARKET_NAME: MI300A", "    VRAM:",
 *   "        SIZE: 64289 MB"; "    MEM_USAGE:", "        TOTAL_VRAM:
 *   65520 MB", "        USED_VRAM: 283 MB") or with --json (a list of
 *   {"gpu": 0, "asic": {"market_name": ...}, "vram": {"size": {"value":
 *   64289, "unit": "MB"}}, "mem_usage": {...}}, or the same list as
 *   {"gpu_data": [...]}); amd-smi's MB are MiB (see parse_amd_mb())
 * @reading: the reading the GPUs are added to ("rocm", discrete, the used
 *   memory resident; each with the APU question to confirm, as rocm-smi's)
 * @error: return location for a #GError
 *
 * The outputs are joined by GPU index: a name from one and the memory from
 * another describe the same GPU; metric's TOTAL_VRAM wins over static's
 * SIZE. Nothing is added unless every output reads.
 *
 * Returns: %TRUE with at least one GPU; else %HR_CORE_ERROR_PARSE quoting
 *   the line (or what in the JSON), or %HR_CORE_ERROR_NOT_FOUND when no
 *   GPU memory is listed.
 */
gboolean
hr_hardware_parse_amd_smi (const char * const *outputs,
                           HrHardwareReading  *reading,
                           GError            **error)
{
  g_autoptr(GArray) gpus = g_array_new (FALSE, TRUE, sizeof (AmdGpu));

  g_array_set_clear_func (gpus, hr_hardware_amd_gpu_clear);
  for (guint i = 0; outputs != NULL && outputs[i] != NULL; i++)
    {
      const char *p = outputs[i];

      while (g_ascii_isspace (*p))
        p++;
      if (*p == '[' || *p == '{' ? !parse_json (p, gpus, error) : !parse_text (p, gpus, error))
        return FALSE;
    }
  return hr_hardware_add_amd_gpus (gpus, "amd-smi", "AMD GPU %u", reading, error);
}
