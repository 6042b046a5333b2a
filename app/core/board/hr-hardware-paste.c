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

/* The paste as it is split: each tool's lines, the JSON documents, and
 * where a JSON document or a tool's run is under way. */
typedef struct {
  GString   *parts[N_PARTS];  /* each tool's lines, newline-terminated */
  GPtrArray *amd_json;        /* amd-smi --json documents */
  GString   *json;            /* the JSON document being read, or NULL */
  guint      json_line;       /* its first line, from 1 */
  gint       depth;           /* its brackets open */
  gboolean   in_string;       /* whether its last line ended in a string */
  Part       mode;            /* the tool whose run is under way */
} PasteSplit;

/* Frees what @split holds. */
static void
paste_split_clear (PasteSplit *split)
{
  for (guint i = 0; i < N_PARTS; i++)
    g_string_free (split->parts[i], TRUE);
  g_ptr_array_unref (split->amd_json);
  if (split->json != NULL)
    g_string_free (split->json, TRUE);
}

/* Adds @line to the JSON document under way (or starts one at line @n);
 * a document whose brackets close goes to its part. */
static void
add_json_line (PasteSplit *split,
               const char *line,
               guint       n)
{
  if (split->json == NULL)
    {
      split->json = g_string_new (NULL);
      split->json_line = n;
      split->in_string = FALSE;
      split->depth = 0;
      split->mode = PART_NONE;
    }
  g_string_append (split->json, line);
  g_string_append_c (split->json, '\n');
  split->depth += json_depth (line, &split->in_string);
  if (split->depth <= 0)
    finish_json (g_steal_pointer (&split->json), split->parts[PART_PROFILER], split->amd_json);
}

/* Which tool printed @line, by its shape and the run under way (which it
 * may start or end); *@out_skip for a banner or warning no tool needs. */
static Part
line_part (PasteSplit *split,
           const char *line,
           gboolean   *out_skip)
{
  Part part = classify (line);

  *out_skip = FALSE;
  if (strong_part (part) || part == PART_VULKAN)
    split->mode = part == PART_AMD_SMI || part == PART_PROFILER ? part : PART_NONE;
  else if (split->mode == PART_AMD_SMI && g_regex_match_simple ("^[A-Z0-9_]+:( .*)?$", line, 0, 0))
    part = PART_AMD_SMI;
  else if (split->mode == PART_PROFILER && g_regex_match_simple ("^[^:]+:( .*)?$", line, 0, 0))
    part = PART_PROFILER;
  else if (split->mode == PART_VULKAN && part == PART_NONE)
    part = PART_VULKAN;
  else if (part != PART_NONE)
    split->mode = PART_NONE;
  else if (g_str_equal (line, "VULKANINFO"))
    {
      split->mode = PART_VULKAN;
      part = PART_VULKAN;
    }
  else if (line[0] == '=' || g_str_has_prefix (line, "WARNING"))
    *out_skip = TRUE;
  return part;
}

/* Sorts @lines into @split's parts; fails on the first line no tool
 * printed, or a JSON document that does not close. */
static gboolean
split_paste (PasteSplit  *split,
             char       **lines,
             GError     **error)
{
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gboolean skip;
      Part part;

      if (split->json == NULL && (line[0] == '\0' || is_shell_prompt (line)))
        continue;
      if (split->json != NULL || line[0] == '{' || line[0] == '[')
        {
          add_json_line (split, line, i + 1);
          continue;
        }
      part = line_part (split, line, &skip);
      if (skip)
        continue;
      if (part == PART_NONE)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("line %u: cannot read \"%s\": not the output of %s, %s, %s, %s, %s, %s, %s or %s"),
                       i + 1, line, HR_HARDWARE_NVIDIA_SMI_COMMAND, HR_HARDWARE_ROCM_SMI_COMMAND,
                       HR_HARDWARE_AMD_SMI_COMMAND, HR_HARDWARE_DRM_COMMAND, HR_HARDWARE_VULKANINFO_COMMAND,
                       HR_HARDWARE_MEMINFO_COMMAND, HR_HARDWARE_SYSCTL_COMMAND, HR_HARDWARE_PROFILER_COMMAND);
          return FALSE;
        }
      g_string_append (split->parts[part], line);
      g_string_append_c (split->parts[part], '\n');
    }
  if (split->json != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("line %u: the JSON from there on is cut off: its brackets do not close"),
                   split->json_line);
      return FALSE;
    }
  return TRUE;
}

/* Hands each part to its tool's parser: amd-smi's over rocm-smi's, the DRM
 * files only without either (they describe the same AMD GPUs). */
static gboolean
parse_parts (PasteSplit         *split,
             HrHardwareReading  *reading,
             GError            **error)
{
  GString **parts = split->parts;
  gboolean amd = parts[PART_AMD_SMI]->len > 0 || split->amd_json->len > 0;

  if (parts[PART_NVIDIA]->len > 0 && !hr_hardware_parse_nvidia_smi (parts[PART_NVIDIA]->str, reading, error))
    return FALSE;
  if (amd)
    {
      if (parts[PART_AMD_SMI]->len > 0)
        g_ptr_array_add (split->amd_json, g_strdup (parts[PART_AMD_SMI]->str));
      g_ptr_array_add (split->amd_json, NULL);
      if (!hr_hardware_parse_amd_smi ((const char * const *) split->amd_json->pdata, reading, error))
        return FALSE;
    }
  else if (parts[PART_ROCM]->len > 0 && !hr_hardware_parse_rocm_smi (parts[PART_ROCM]->str, reading, error))
    return FALSE;
  if (parts[PART_DRM]->len > 0 && parts[PART_ROCM]->len == 0 && !amd &&
      !hr_hardware_parse_drm (parts[PART_DRM]->str, reading, error))
    return FALSE;
  return (parts[PART_VULKAN]->len == 0 || hr_hardware_parse_vulkaninfo (parts[PART_VULKAN]->str, reading, error)) &&
         (parts[PART_MEMINFO]->len == 0 || hr_hardware_parse_meminfo (parts[PART_MEMINFO]->str, reading, error)) &&
         (parts[PART_SYSCTL]->len == 0 || hr_hardware_parse_sysctl (parts[PART_SYSCTL]->str, reading, error)) &&
         (parts[PART_PROFILER]->len == 0 || hr_hardware_parse_system_profiler (parts[PART_PROFILER]->str, reading, error));
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
  PasteSplit split = { { NULL }, NULL, NULL, 0, 0, FALSE, PART_NONE };
  gboolean ok;

  for (guint i = 0; i < N_PARTS; i++)
    split.parts[i] = g_string_new (NULL);
  split.amd_json = g_ptr_array_new_with_free_func (g_free);
  ok = split_paste (&split, lines, error) && parse_parts (&split, reading, error);
  paste_split_clear (&split);
  return ok;
}

