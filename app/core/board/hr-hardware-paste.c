/* hr-hardware-paste.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `boards import`: the tools' outputs pasted one after another from a
 * remote board's terminal, each line told by its shape and handed to its
 * tool's parser (hr-hardware.c, hr-hardware-amd-smi.c, hr-hardware-macos.c).
 * Pure.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hardware-private.h"

typedef enum { PART_NONE, PART_NVIDIA, PART_ROCM, PART_DRM, PART_VULKAN, PART_MEMINFO,
               PART_AMD_SMI, PART_SYSCTL, PART_PROFILER, N_PARTS } Part;

static Part
classify (const char *line)
{
  if (g_regex_match_simple ("^[^,]+,\\s*(\\d+|\\[N/A\\])(\\s*MiB)?,\\s*(\\d+|\\[N/A\\])(\\s*MiB)?$", line, 0, 0) ||
      (g_ascii_strncasecmp (line, "name", 4) == 0 && strstr (line, "memory.total") != NULL))
    return PART_NVIDIA;
  if (g_str_has_prefix (line, "GPU[") || g_str_has_prefix (line, "device,VRAM") ||
      g_regex_match_simple ("^card\\d+,\\d+,\\d+$", line, 0, 0) || g_str_has_prefix (line, "End of ROCm SMI Log"))
    return PART_ROCM;
  if (g_str_has_prefix (line, "/sys/class/drm/"))
    return PART_DRM;
  if (g_regex_match_simple ("^(hw\\.memsize|iogpu\\.wired_limit_mb)\\s*[:=]", line, 0, 0) ||
      g_str_has_prefix (line, "sysctl: unknown oid"))
    return PART_SYSCTL;
  if (g_regex_match_simple ("^GPU:\\s*\\d+$", line, 0, 0))
    return PART_AMD_SMI;
  if (g_str_equal (line, "Graphics/Displays:"))
    return PART_PROFILER;
  if (g_regex_match_simple ("^[A-Za-z0-9_()]+:\\s*\\d+(\\s*kB)?$", line, 0, 0))
    return PART_MEMINFO;
  return PART_NONE;
}


/* A shell prompt pasted with the tools' output: "$ ", "# " or "> " at the
 * start, or a first word that ends in $, #, % or > before a command
 * ("user@box:~$ nvidia-smi", "[user@box ~]$ nvidia-smi", "box% nvidia-smi").
 * No line the tools print starts that way. */
static gboolean
is_shell_prompt (const char *line)
{
  const char *space;

  if (g_str_has_prefix (line, "$ ") || g_str_has_prefix (line, "# ") || g_str_has_prefix (line, "> "))
    return TRUE;
  if (line[0] == '[')
    {
      const char *close = strchr (line, ']');

      return close != NULL && strchr ("$#%>", close[1]) != NULL && close[1] != '\0' &&
             (close[2] == ' ' || close[2] == '\0');
    }
  space = strchr (line, ' ');
  if (space == NULL)
    space = line + strlen (line);
  return space > line && strchr ("$#%>", space[-1]) != NULL && space - line >= 2 &&
         (strchr (line, '@') != NULL && strchr (line, '@') < space ? TRUE : space[-1] == '%');
}

/* The change in bracket depth over @line, outside JSON strings; *in_string
 * carries an open string to the next line. */
static gint
json_depth (const char *line,
            gboolean   *in_string)
{
  gint depth = 0;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (*in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == '"')
            *in_string = FALSE;
        }
      else if (*p == '"')
        *in_string = TRUE;
      else if (*p == '{' || *p == '[')
        depth++;
      else if (*p == '}' || *p == ']')
        depth--;
    }
  return depth;
}

/* A whole JSON document pasted: system_profiler's into its part, amd-smi's
 * into @amd_json (each parsed on its own). */
static void
finish_json (GString   *json,
             GString   *profiler,
             GPtrArray *amd_json)
{
  char *doc = g_string_free (json, FALSE);

  if (strstr (doc, "\"SPDisplaysDataType\"") != NULL)
    {
      g_string_append (profiler, doc);
      g_free (doc);
    }
  else
    g_ptr_array_add (amd_json, doc);
}

/* A line another tool printed, which ends an amd-smi or system_profiler run. */
static gboolean
strong_part (Part part)
{
  return part == PART_NVIDIA || part == PART_ROCM || part == PART_DRM || part == PART_SYSCTL ||
         part == PART_AMD_SMI || part == PART_PROFILER;
}

/**
 * hr_hardware_parse_paste:
 * @text: the outputs of any of the commands above, one after another, as
 *   pasted from a remote board's terminal; blank lines, "=" banners and
 *   shell prompts ("$ ", "# ", "> ", "user@box:~$ ", "[user@box ~]$ ",
 *   "box% ") are skipped; vulkaninfo's output runs from its "VULKANINFO"
 *   line, amd-smi's from a "GPU: N" line while its lines are "KEY: VALUE"
 *   with upper-case keys, and system_profiler's from "Graphics/Displays:",
 *   each to the next line another tool printed; a JSON document (amd-smi
 *   --json, system_profiler -json) runs from its "{" or "[" line to the
 *   bracket that closes it
 * @reading: the reading everything read goes into
 * @error: return location for a #GError
 *
 * Each line is told by its shape and handed to its tool's parser
 * (hr_hardware_parse_nvidia_smi() and the others). amd-smi and rocm-smi
 * describe the same AMD GPUs: with both, amd-smi's are read; the DRM files
 * only without either.
 *
 * Returns: %TRUE when every line was read; else %HR_CORE_ERROR_PARSE
 *   naming the first line no parser reads ("line N: ..."), or a parser's
 *   error.
 */
gboolean
hr_hardware_parse_paste (const char         *text,
                         HrHardwareReading  *reading,
                         GError            **error)
{
  g_auto(GStrv) lines = hr_hardware_split_lines (text);
  GString *parts[N_PARTS] = { NULL };
  g_autoptr(GPtrArray) amd_json = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) json = NULL;
  Part mode = PART_NONE;
  guint json_line = 0;
  gint depth = 0;
  gboolean in_string = FALSE;
  gboolean ok = TRUE;

  for (guint i = 0; i < N_PARTS; i++)
    parts[i] = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL && ok; i++)
    {
      const char *line = lines[i];
      Part part;

      if (json != NULL)
        {
          g_string_append (json, line);
          g_string_append_c (json, '\n');
          depth += json_depth (line, &in_string);
          if (depth <= 0)
            finish_json (g_steal_pointer (&json), parts[PART_PROFILER], amd_json);
          continue;
        }
      if (line[0] == '\0' || is_shell_prompt (line))
        continue;
      if (line[0] == '{' || line[0] == '[')
        {
          json = g_string_new (line);
          g_string_append_c (json, '\n');
          json_line = i + 1;
          in_string = FALSE;
          depth = json_depth (line, &in_string);
          mode = PART_NONE;
          if (depth <= 0)
            finish_json (g_steal_pointer (&json), parts[PART_PROFILER], amd_json);
          continue;
        }
      part = classify (line);
      if (strong_part (part) || part == PART_VULKAN)
        mode = part == PART_AMD_SMI || part == PART_PROFILER ? part : PART_NONE;
      else if (mode == PART_AMD_SMI && g_regex_match_simple ("^[A-Z0-9_]+:( .*)?$", line, 0, 0))
        part = PART_AMD_SMI;
      else if (mode == PART_PROFILER && g_regex_match_simple ("^[^:]+:( .*)?$", line, 0, 0))
        part = PART_PROFILER;
      else if (mode == PART_VULKAN && part == PART_NONE)
        part = PART_VULKAN;
      else if (part != PART_NONE)
        mode = PART_NONE;
      else if (g_str_equal (line, "VULKANINFO"))
        {
          mode = PART_VULKAN;
          part = PART_VULKAN;
        }
      else if (line[0] == '=' || g_str_has_prefix (line, "WARNING"))
        continue;
      if (part == PART_NONE)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("line %u: cannot read \"%s\": not the output of %s, %s, %s, %s, %s, %s, %s or %s"),
                       i + 1, line, HR_HARDWARE_NVIDIA_SMI_COMMAND, HR_HARDWARE_ROCM_SMI_COMMAND,
                       HR_HARDWARE_AMD_SMI_COMMAND, HR_HARDWARE_DRM_COMMAND, HR_HARDWARE_VULKANINFO_COMMAND,
                       HR_HARDWARE_MEMINFO_COMMAND, HR_HARDWARE_SYSCTL_COMMAND, HR_HARDWARE_PROFILER_COMMAND);
          ok = FALSE;
          break;
        }
      g_string_append (parts[part], line);
      g_string_append_c (parts[part], '\n');
    }
  if (ok && json != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("line %u: the JSON from there on is cut off: its brackets do not close"), json_line);
      ok = FALSE;
    }
  if (ok && parts[PART_NVIDIA]->len > 0)
    ok = hr_hardware_parse_nvidia_smi (parts[PART_NVIDIA]->str, reading, error);
  if (ok && (parts[PART_AMD_SMI]->len > 0 || amd_json->len > 0))
    {
      if (parts[PART_AMD_SMI]->len > 0)
        g_ptr_array_add (amd_json, g_strdup (parts[PART_AMD_SMI]->str));
      g_ptr_array_add (amd_json, NULL);
      ok = hr_hardware_parse_amd_smi ((const char * const *) amd_json->pdata, reading, error);
    }
  else if (ok && parts[PART_ROCM]->len > 0)
    ok = hr_hardware_parse_rocm_smi (parts[PART_ROCM]->str, reading, error);
  /* The DRM files describe the same AMD GPUs amd-smi and rocm-smi list. */
  if (ok && parts[PART_DRM]->len > 0 && parts[PART_ROCM]->len == 0 && parts[PART_AMD_SMI]->len == 0 && amd_json->len == 0)
    ok = hr_hardware_parse_drm (parts[PART_DRM]->str, reading, error);
  if (ok && parts[PART_VULKAN]->len > 0)
    ok = hr_hardware_parse_vulkaninfo (parts[PART_VULKAN]->str, reading, error);
  if (ok && parts[PART_MEMINFO]->len > 0)
    ok = hr_hardware_parse_meminfo (parts[PART_MEMINFO]->str, reading, error);
  if (ok && parts[PART_SYSCTL]->len > 0)
    ok = hr_hardware_parse_sysctl (parts[PART_SYSCTL]->str, reading, error);
  if (ok && parts[PART_PROFILER]->len > 0)
    ok = hr_hardware_parse_system_profiler (parts[PART_PROFILER]->str, reading, error);
  for (guint i = 0; i < N_PARTS; i++)
    g_string_free (parts[i], TRUE);
  return ok;
}

