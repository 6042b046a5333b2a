/* hr-hardware.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hardware-private.h"
#include "hr-json.h"
#include "hr-units.h"

#define MIB G_GUINT64_CONSTANT (1048576)
/* Headroom's assumptions, as on the built-in RTX boards (data/boards.json):
 * 0.5 GB held back on each GPU, 2 GB in host memory. */
#define DEVICE_RESERVE_BYTES G_GUINT64_CONSTANT (500000000)
#define HOST_RESERVE_BYTES   G_GUINT64_CONSTANT (2000000000)

/**
 * hr_hardware_reading_new:
 *
 * Returns: (transfer full): an empty reading.
 */
HrHardwareReading *
hr_hardware_reading_new (void)
{
  HrHardwareReading *reading = g_new0 (HrHardwareReading, 1);

  reading->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  reading->read = g_ptr_array_new_with_free_func (g_free);
  reading->confirm = g_ptr_array_new_with_free_func (g_free);
  reading->vulkan_names = g_ptr_array_new_with_free_func (g_free);
  return reading;
}

/**
 * hr_hardware_reading_free:
 * @reading: (nullable): a reading
 */
void
hr_hardware_reading_free (HrHardwareReading *reading)
{
  if (reading == NULL)
    return;
  g_ptr_array_unref (reading->devices);
  g_ptr_array_unref (reading->read);
  g_ptr_array_unref (reading->confirm);
  g_ptr_array_unref (reading->vulkan_names);
  g_free (reading->unified_name);
  g_free (reading);
}

/* A whole number of at most 20 digits, nothing else. */
static gboolean
parse_count (const char *text,
             guint64    *out)
{
  guint64 value = 0;

  if (text[0] == '\0' || strlen (text) > 20)
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      if (!hr_mul_u64 (value, 10, &value) || !hr_add_u64 (value, (guint64) (*p - '0'), &value))
        return FALSE;
    }
  *out = value;
  return TRUE;
}

/* The lines of a tool's output, stripped; tabs read as spaces, and any
 * other control character (an ESC sequence pasted from a terminal, a stray
 * \r, C1 codes) or invalid UTF-8 is written out as text
 * (hr_json_safe_text()), so no name read from it reaches a terminal or a
 * boards file raw. */
static char **
split_lines (const char *text)
{
  char **lines = g_strsplit (text != NULL ? text : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *safe;

      g_strdelimit (lines[i], "\t", ' ');
      safe = hr_json_safe_text (lines[i], -1, 4096);
      g_free (lines[i]);
      lines[i] = g_strstrip (safe);
    }
  return lines;
}

static void
add_line (GPtrArray  *into,
          const char *format,
          ...) G_GNUC_PRINTF (2, 3);

static void
add_line (GPtrArray  *into,
          const char *format,
          ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (into, g_strdup_vprintf (format, args));
  va_end (args);
}

/* "24576" or "24576 MiB" into bytes. */
static gboolean
parse_mib (char    *field,
           guint64 *out_bytes)
{
  guint64 mib;

  g_strstrip (field);
  if (g_str_has_suffix (field, "MiB"))
    {
      field[strlen (field) - 3] = '\0';
      g_strstrip (field);
    }
  return parse_count (field, &mib) && hr_mul_u64 (mib, MIB, out_bytes);
}

/**
 * hr_hardware_parse_nvidia_smi:
 * @text: the output of %HR_HARDWARE_NVIDIA_SMI_COMMAND: one line a GPU,
 *   "NVIDIA GeForce RTX 3090, 24576, 1234" (name, memory.total and
 *   memory.used in MiB); a header line and " MiB" units, as nvidia-smi
 *   prints them without noheader / nounits, are read too
 * @reading: the reading the GPUs are added to (discrete, "cuda", the used
 *   memory as resident, bandwidth not known)
 * @error: return location for a #GError
 *
 * Nothing is added unless every line reads.
 *
 * Returns: %TRUE with at least one GPU; else %HR_CORE_ERROR_PARSE quoting
 *   the line (a memory of "[N/A]", a unified-memory GPU such as the GB10,
 *   is refused with what the user must confirm), or %HR_CORE_ERROR_NOT_FOUND
 *   when no GPU is listed.
 */
gboolean
hr_hardware_parse_nvidia_smi (const char         *text,
                              HrHardwareReading  *reading,
                              GError            **error)
{
  g_auto(GStrv) lines = split_lines (text);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      guint64 total, used;

      if (lines[i][0] == '\0')
        continue;
      if (g_ascii_strncasecmp (lines[i], "name", 4) == 0 && strstr (lines[i], "memory.total") != NULL)
        continue;
      fields = g_strsplit (lines[i], ",", -1);
      if (g_strv_length (fields) != 3 || g_strstrip (fields[0])[0] == '\0')
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("nvidia-smi: cannot read \"%s\": expected \"NAME, TOTAL, USED\" (MiB) as \"%s\" prints it"),
                       lines[i], HR_HARDWARE_NVIDIA_SMI_COMMAND);
          return FALSE;
        }
      g_strstrip (fields[1]);
      if (strstr (fields[1], "N/A") != NULL)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("nvidia-smi: \"%s\" reports no memory.total ([N/A]): its GPU uses the system's memory (unified, as the DGX Spark's GB10); Headroom does not guess how much of it the GPU may take: confirm the pool (free -b) and use a unified board"),
                       fields[0]);
          return FALSE;
        }
      if (!parse_mib (fields[1], &total) || total == 0 || !parse_mib (fields[2], &used))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("nvidia-smi: cannot read \"%s\": memory.total and memory.used must be whole MiB as \"%s\" prints them"),
                       lines[i], HR_HARDWARE_NVIDIA_SMI_COMMAND);
          return FALSE;
        }
      if (used > total)
        {
          g_autofree char *u = hr_format_count (used / MIB), *t = hr_format_count (total / MIB);

          /* Translators: the GPU's name, MiB, MiB */
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("nvidia-smi: %1$s uses %2$s MiB of %3$s MiB: memory.used cannot be more than memory.total"),
                       fields[0], u, t);
          return FALSE;
        }
      {
        HrDevice *device = hr_device_new (fields[0], total, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_CUDA);

        device->resident_bytes = used;
        g_ptr_array_add (found, device);
      }
    }
  if (found->len == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("nvidia-smi listed no GPU"));
      return FALSE;
    }
  for (guint i = 0; i < found->len; i++)
    {
      const HrDevice *d = g_ptr_array_index (found, i);
      g_autofree char *total = hr_format_count (d->memory_bytes / MIB);
      g_autofree char *used = hr_format_count (d->resident_bytes / MIB);

      /* Translators: nvidia-smi's figures: a GPU's name, its memory.total and memory.used in MiB */
      add_line (reading->read, _("nvidia-smi: %s, memory.total %s MiB, memory.used %s MiB"), d->name, total, used);
      g_ptr_array_add (reading->devices, hr_device_copy (d));
    }
  return TRUE;
}

static AmdGpu *
amd_gpu (GArray *gpus,
         guint   index)
{
  if (index >= HR_DEVICE_MAX)
    return NULL;
  if (gpus->len <= index)
    g_array_set_size (gpus, index + 1);
  return &g_array_index (gpus, AmdGpu, index);
}

static void
amd_gpu_clear (gpointer data)
{
  g_free (((AmdGpu *) data)->name);
}

/* The AMD GPUs read into the reading, "rocm" and discrete; an APU's VRAM
 * figure is its BIOS carve-out, which the user must confirm. */
static gboolean
add_amd_gpus (GArray             *gpus,
              const char         *tool,
              const char         *default_name,
              HrHardwareReading  *reading,
              GError            **error)
{
  guint n = 0;

  for (guint i = 0; i < gpus->len; i++)
    {
      const AmdGpu *g = &g_array_index (gpus, AmdGpu, i);

      if (!g->has_total && g->name == NULL)
        continue;
      if (!g->has_total || g->total == 0)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("%s: GPU %u has no VRAM total: nothing to size it with"), tool, i);
          return FALSE;
        }
      n++;
    }
  if (n == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("%s listed no GPU memory"), tool);
      return FALSE;
    }
  for (guint i = 0; i < gpus->len; i++)
    {
      const AmdGpu *g = &g_array_index (gpus, AmdGpu, i);
      g_autofree char *name = NULL;
      g_autofree char *total = NULL;
      g_autofree char *used = NULL;
      HrDevice *device;

      if (!g->has_total)
        continue;
      if (g->used > g->total)
        {
          g_autofree char *u = hr_format_count (g->used), *t = hr_format_count (g->total);

          /* Translators: a tool's name, GPU index, bytes, bytes */
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("%1$s: GPU %2$u uses %3$s bytes of %4$s bytes of VRAM: the used memory cannot be more than the total"),
                       tool, i, u, t);
          return FALSE;
        }
      name = g->name != NULL ? g_strdup (g->name) : g_strdup_printf (default_name, i);
      device = hr_device_new (name, g->total, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_ROCM);
      device->resident_bytes = g->used;
      g_ptr_array_add (reading->devices, device);
      total = hr_format_count (g->total);
      used = hr_format_count (g->used);
      /* Translators: a tool's name, a GPU's name, its VRAM total and used in bytes */
      add_line (reading->read, _("%s: %s, VRAM total %s bytes, used %s bytes"), tool, name, total, used);
      add_line (reading->confirm, _("%s: is it a discrete GPU? On an APU the VRAM figure is only the BIOS carve-out and the GPU can also use system memory: confirm its memory"), name);
    }
  return TRUE;
}

/**
 * hr_hardware_parse_rocm_smi:
 * @text: the output of %HR_HARDWARE_ROCM_SMI_COMMAND ("GPU[0] : VRAM Total
 *   Memory (B): 17163091968", "GPU[0] : VRAM Total Used Memory (B): ...",
 *   "GPU[0] : Card Series: ..."; "=" banners skipped), or of the same
 *   with --csv ("device,VRAM Total Memory (B),VRAM Total Used Memory (B)"
 *   then "card0,17163091968,10645504")
 * @reading: the reading the GPUs are added to ("rocm")
 * @error: return location for a #GError
 *
 * Returns: %TRUE with at least one GPU; else %HR_CORE_ERROR_PARSE quoting
 *   the line, or %HR_CORE_ERROR_NOT_FOUND when no GPU memory is listed.
 */
gboolean
hr_hardware_parse_rocm_smi (const char         *text,
                            HrHardwareReading  *reading,
                            GError            **error)
{
  g_auto(GStrv) lines = split_lines (text);
  g_autoptr(GArray) gpus = g_array_new (FALSE, TRUE, sizeof (AmdGpu));
  g_autoptr(GRegex) line_re = g_regex_new ("^GPU\\[(\\d+)\\]\\s*:\\s*(.+?)\\s*:\\s*(.*)$", 0, 0, NULL);
  g_autoptr(GRegex) csv_re = g_regex_new ("^card(\\d+),(\\d+),(\\d+)$", 0, 0, NULL);

  g_array_set_clear_func (gpus, amd_gpu_clear);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      const char *line = lines[i];

      if (line[0] == '\0' || line[0] == '=' || g_str_has_prefix (line, "device,"))
        continue;
      if (g_regex_match (line_re, line, 0, &m))
        {
          g_autofree char *index = g_match_info_fetch (m, 1);
          g_autofree char *key = g_match_info_fetch (m, 2);
          g_autofree char *value = g_match_info_fetch (m, 3);
          AmdGpu *g = amd_gpu (gpus, (guint) g_ascii_strtoull (index, NULL, 10));

          if (g == NULL)
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("rocm-smi: cannot read \"%s\": more than %u GPUs"), line, HR_DEVICE_MAX);
              return FALSE;
            }
          if (g_ascii_strcasecmp (key, "VRAM Total Memory (B)") == 0 ||
              g_ascii_strcasecmp (key, "VRAM Total Used Memory (B)") == 0)
            {
              gboolean is_total = g_ascii_strcasecmp (key, "VRAM Total Memory (B)") == 0;

              if (!parse_count (value, is_total ? &g->total : &g->used))
                {
                  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                               _("rocm-smi: cannot read \"%s\": the memory must be whole bytes"), line);
                  return FALSE;
                }
              g->has_total |= is_total;
            }
          else if ((g_ascii_strcasecmp (key, "Card Series") == 0 || g_ascii_strcasecmp (key, "Card series") == 0) && value[0] != '\0')
            {
              g_free (g->name);
              g->name = g_strdup (value);
            }
          continue;
        }
      g_clear_pointer (&m, g_match_info_free);
      if (g_regex_match (csv_re, line, 0, &m))
        {
          g_autofree char *index = g_match_info_fetch (m, 1);
          g_autofree char *total = g_match_info_fetch (m, 2);
          g_autofree char *used = g_match_info_fetch (m, 3);
          AmdGpu *g = amd_gpu (gpus, (guint) g_ascii_strtoull (index, NULL, 10));

          if (g != NULL && parse_count (total, &g->total) && parse_count (used, &g->used))
            {
              g->has_total = TRUE;
              continue;
            }
        }
      if (g_str_has_prefix (line, "End of ROCm SMI Log") || g_str_has_prefix (line, "WARNING"))
        continue;
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("rocm-smi: cannot read \"%s\": expected \"GPU[N] : KEY: VALUE\" lines as \"%s\" prints them"),
                   line, HR_HARDWARE_ROCM_SMI_COMMAND);
      return FALSE;
    }
  return add_amd_gpus (gpus, "rocm-smi", "ROCm%u", reading, error);
}

/**
 * hr_hardware_parse_drm:
 * @text: "PATH:VALUE" lines as %HR_HARDWARE_DRM_COMMAND prints them:
 *   "/sys/class/drm/card0/device/mem_info_vram_total:17163091968" and
 *   "..._vram_used:..." (amdgpu's files; bytes)
 * @reading: the reading the GPUs are added to ("rocm", named "card0")
 * @error: return location for a #GError
 *
 * Returns: %TRUE with at least one GPU; else %HR_CORE_ERROR_PARSE quoting
 *   the line, or %HR_CORE_ERROR_NOT_FOUND.
 */
gboolean
hr_hardware_parse_drm (const char         *text,
                       HrHardwareReading  *reading,
                       GError            **error)
{
  g_auto(GStrv) lines = split_lines (text);
  g_autoptr(GArray) gpus = g_array_new (FALSE, TRUE, sizeof (AmdGpu));
  g_autoptr(GRegex) re = g_regex_new ("^/sys/class/drm/card(\\d+)/device/mem_info_(vram|vis_vram|gtt)_(total|used):\\s*(\\d+)$", 0, 0, NULL);

  g_array_set_clear_func (gpus, amd_gpu_clear);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *index = NULL, *pool = NULL, *which = NULL, *value = NULL;
      AmdGpu *g;
      guint64 bytes;

      if (lines[i][0] == '\0')
        continue;
      if (!g_regex_match (re, lines[i], 0, &m))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("DRM sysfs: cannot read \"%s\": expected \"/sys/class/drm/cardN/device/mem_info_vram_total:BYTES\" as \"%s\" prints it"),
                       lines[i], HR_HARDWARE_DRM_COMMAND);
          return FALSE;
        }
      index = g_match_info_fetch (m, 1);
      pool = g_match_info_fetch (m, 2);
      which = g_match_info_fetch (m, 3);
      value = g_match_info_fetch (m, 4);
      g = amd_gpu (gpus, (guint) g_ascii_strtoull (index, NULL, 10));
      if (g == NULL || !parse_count (value, &bytes))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("DRM sysfs: cannot read \"%s\""), lines[i]);
          return FALSE;
        }
      if (!g_str_equal (pool, "vram"))
        continue; /* the visible window and GTT are not the VRAM's size */
      if (g_str_equal (which, "total"))
        {
          g->total = bytes;
          g->has_total = TRUE;
        }
      else
        g->used = bytes;
    }
  return add_amd_gpus (gpus, _("DRM sysfs"), "card%u", reading, error);
}

/**
 * hr_hardware_parse_vulkaninfo:
 * @text: the output of %HR_HARDWARE_VULKANINFO_COMMAND
 * @reading: the reading: each "GPUn:" block's deviceName and deviceType
 *   go into vulkan_names (vulkaninfo --summary gives no memory size)
 * @error: return location for a #GError
 *
 * Returns: %TRUE with at least one device named; else
 *   %HR_CORE_ERROR_NOT_FOUND.
 */
gboolean
hr_hardware_parse_vulkaninfo (const char         *text,
                              HrHardwareReading  *reading,
                              GError            **error)
{
  g_auto(GStrv) lines = split_lines (text);
  g_autofree char *name = NULL;
  g_autofree char *type = NULL;
  guint before = reading->vulkan_names->len;

  for (guint i = 0; ; i++)
    {
      const char *line = lines[i];
      gboolean block = line == NULL || g_regex_match_simple ("^GPU\\d+:$", line, 0, 0);

      if (block && name != NULL)
        {
          const char *kind = type == NULL ? "?" :
                             strstr (type, "INTEGRATED") != NULL ? hr_device_kind_to_string (HR_DEVICE_KIND_INTEGRATED) :
                             strstr (type, "DISCRETE") != NULL ? hr_device_kind_to_string (HR_DEVICE_KIND_DISCRETE) : type;

          add_line (reading->vulkan_names, "%s (%s)", name, kind);
          g_clear_pointer (&name, g_free);
          g_clear_pointer (&type, g_free);
        }
      if (line == NULL)
        break;
      if (g_str_has_prefix (line, "deviceName") && strchr (line, '=') != NULL)
        name = g_strdup (g_strstrip (strchr (line, '=') + 1));
      else if (g_str_has_prefix (line, "deviceType") && strchr (line, '=') != NULL)
        type = g_strdup (g_strstrip (strchr (line, '=') + 1));
    }
  if (reading->vulkan_names->len == before)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("vulkaninfo: no \"GPUn:\" block with a deviceName (as \"%s\" prints them)"), HR_HARDWARE_VULKANINFO_COMMAND);
      return FALSE;
    }
  for (guint i = before; i < reading->vulkan_names->len; i++)
    add_line (reading->read, _("vulkaninfo: %s (it gives no memory size)"), (char *) g_ptr_array_index (reading->vulkan_names, i));
  return TRUE;
}

/**
 * hr_hardware_parse_meminfo:
 * @text: /proc/meminfo ("MemTotal:       32791612 kB" lines)
 * @reading: the reading: host_total_bytes (MemTotal) and
 *   host_available_bytes (MemAvailable; the kernel's estimate of what can
 *   be allocated without swapping, Documentation/filesystems/proc.rst)
 * @error: return location for a #GError
 *
 * Returns: %TRUE when MemTotal was read; else %HR_CORE_ERROR_PARSE quoting
 *   the line, or %HR_CORE_ERROR_NOT_FOUND without MemTotal.
 */
gboolean
hr_hardware_parse_meminfo (const char         *text,
                           HrHardwareReading  *reading,
                           GError            **error)
{
  g_auto(GStrv) lines = split_lines (text);
  g_autoptr(GRegex) re = g_regex_new ("^([A-Za-z0-9_()]+):\\s*(\\d+)(\\s*kB)?$", 0, 0, NULL);
  guint64 total = 0, available = 0;
  gboolean has_available = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *key = NULL, *value = NULL, *unit = NULL;
      guint64 v;

      if (lines[i][0] == '\0')
        continue;
      if (!g_regex_match (re, lines[i], 0, &m))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                       _("/proc/meminfo: cannot read \"%s\": expected \"Key:  N kB\""), lines[i]);
          return FALSE;
        }
      key = g_match_info_fetch (m, 1);
      value = g_match_info_fetch (m, 2);
      unit = g_match_info_fetch (m, 3);
      if (!parse_count (value, &v) || (unit[0] != '\0' && !hr_mul_u64 (v, 1024, &v)))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE, _("/proc/meminfo: cannot read \"%s\""), lines[i]);
          return FALSE;
        }
      if (g_str_equal (key, "MemTotal"))
        total = v;
      else if (g_str_equal (key, "MemAvailable"))
        {
          available = v;
          has_available = TRUE;
        }
    }
  if (total == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("/proc/meminfo: no MemTotal line"));
      return FALSE;
    }
  reading->host_total_bytes = total;
  reading->host_available_bytes = has_available ? MIN (available, total) : 0;
  {
    g_autofree char *t = hr_format_count (total);
    g_autofree char *a = hr_format_count (available);

    if (has_available)
      add_line (reading->read, _("/proc/meminfo: MemTotal %s bytes, MemAvailable %s bytes"), t, a);
    else
      {
        add_line (reading->read, _("/proc/meminfo: MemTotal %s bytes (no MemAvailable)"), t);
        add_line (reading->confirm, _("host memory in use: /proc/meminfo gave no MemAvailable; confirm what the OS and other programs hold"));
      }
  }
  return TRUE;
}

/* A one-GPU discrete board of @known whose name is the device's. */
static const HrBoard *
known_board_for (GPtrArray  *known,
                 const char *device_name)
{
  for (guint i = 0; known != NULL && i < known->len; i++)
    {
      const HrBoard *b = g_ptr_array_index (known, i);

      if (!b->unified && !hr_board_is_multi_device (b) && b->backend == HR_BOARD_BACKEND_CUDA &&
          b->name != NULL && g_ascii_strcasecmp (b->name, device_name) == 0)
        return b;
    }
  return NULL;
}

/* Checks that @reading has GPUs (naming the ones vulkaninfo saw without a
 * size), host memory, and one bandwidth per GPU when bandwidths are given. */
static gboolean
check_reading (HrHardwareReading  *reading,
               guint               n_bandwidths,
               GError            **error)
{
  if (reading->devices->len == 0 && reading->vulkan_names->len > 0)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < reading->vulkan_names->len; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", (char *) g_ptr_array_index (reading->vulkan_names, i));
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("vulkaninfo names %s but gives no memory size, and no other tool gave one: run %s or %s, or type the board in the board editor"),
                   names->str, HR_HARDWARE_NVIDIA_SMI_COMMAND, HR_HARDWARE_ROCM_SMI_COMMAND);
      return FALSE;
    }
  if (reading->devices->len == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("no GPU memory was read"));
      return FALSE;
    }
  if (reading->host_total_bytes == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("no host memory was read (%s: MemTotal)"), HR_HARDWARE_MEMINFO_COMMAND);
      return FALSE;
    }
  if (n_bandwidths != 0 && n_bandwidths != reading->devices->len)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("%u bandwidths given for %u GPUs: give one per GPU, in the order read (0 = not known)"),
                   n_bandwidths, reading->devices->len);
      return FALSE;
    }
  return TRUE;
}

/* GPU @i of @reading as the board's device: integrated when vulkaninfo
 * says so, Headroom's reserve, and the bandwidth given (@bandwidth_gb_s >
 * 0), else a built-in board's of the same name, else a line to confirm.
 * Says where each figure came from in @source. */
static HrDevice *
board_device (HrHardwareReading *reading,
              guint              i,
              GPtrArray         *known_boards,
              double             bandwidth_gb_s,
              GString           *source)
{
  HrDevice *device = hr_device_copy (g_ptr_array_index (reading->devices, i));
  const HrBoard *known = known_board_for (known_boards, device->name);
  g_autofree char *integrated = g_strdup_printf ("%s (%s)", device->name, hr_device_kind_to_string (HR_DEVICE_KIND_INTEGRATED));

  for (guint k = 0; k < reading->vulkan_names->len; k++)
    if (g_str_equal (g_ptr_array_index (reading->vulkan_names, k), integrated))
      device->kind = HR_DEVICE_KIND_INTEGRATED;
  device->reserve_bytes = MIN (DEVICE_RESERVE_BYTES, device->memory_bytes / 4);
  if (bandwidth_gb_s > 0.0)
    {
      device->bandwidth_bytes_per_s = bandwidth_gb_s * 1e9;
      g_string_append_printf (source, _("; %s: bandwidth %g GB/s as given"), device->name, bandwidth_gb_s);
    }
  else if (known != NULL)
    {
      device->bandwidth_bytes_per_s = known->bandwidth_bytes_per_s;
      g_string_append_printf (source, _("; %s: bandwidth %g GB/s from the built-in board \"%s\""),
                              device->name, known->bandwidth_bytes_per_s / 1e9, known->id);
    }
  else
    add_line (reading->confirm, _("GPU %u (%s): memory bandwidth not read (no tool prints it): give it in GB/s (--bandwidth), from the GPU's spec sheet"),
              i, device->name); /* numbered from 0, as nvidia-smi and CUDA_VISIBLE_DEVICES do */
  return device;
}

/* The host's memory as read, Headroom's reserve, and the bandwidth given
 * (else a line to confirm). */
static void
set_host_memory (HrBoard           *board,
                 HrHardwareReading *reading,
                 double             host_bandwidth_gb_s,
                 GString           *source)
{
  board->host_pool_bytes = reading->host_total_bytes;
  board->host_resident_bytes = reading->host_available_bytes > 0 ? reading->host_total_bytes - reading->host_available_bytes : 0;
  board->host_reserve_bytes = MIN (HOST_RESERVE_BYTES, reading->host_total_bytes / 4);
  if (host_bandwidth_gb_s > 0.0)
    {
      board->host_bandwidth_bytes_per_s = host_bandwidth_gb_s * 1e9;
      g_string_append_printf (source, _("; host memory bandwidth %g GB/s as given"), host_bandwidth_gb_s);
    }
  else
    add_line (reading->confirm, _("host memory bandwidth not read (no tool prints it): give it in GB/s (--host-bandwidth), channels x 8 bytes x MT/s (dual-channel DDR4-3200: 51.2)"));
}

/**
 * hr_hardware_make_board:
 * @reading: what was read (its read and confirm lists grow)
 * @id: the board's id, "this-computer"
 * @name: its name, "This computer"
 * @known_boards: (nullable) (element-type HrBoard): boards whose name may
 *   be a GPU's ("NVIDIA GeForce RTX 3090"): that GPU's bandwidth is then
 *   theirs (their source cites the spec sheet)
 * @bandwidths_gb_s: (nullable) (array length=n_bandwidths): each GPU's
 *   memory bandwidth as the user gave it, GB/s; 0 = not given
 * @n_bandwidths: 0, or how many GPUs were read
 * @host_bandwidth_gb_s: the host memory's bandwidth as the user gave it,
 *   GB/s; 0 = not given
 * @error: return location for a #GError
 *
 * The board: every GPU read, in the tools' order (CUDA first, then ROCm),
 * the used memory resident and 0.5 GB reserved on each (Headroom's
 * assumption, as on the built-in boards), and the host memory from
 * MemTotal with MemTotal - MemAvailable resident and 2 GB reserved. A
 * bandwidth neither given nor known stays 0 and goes into @reading's
 * confirm list: such a board does not validate (hr_board_validate()) and
 * is not to be saved until it is given.
 *
 * An Apple silicon Mac (@reading's unified_name, no other GPU read) makes
 * a unified Metal board instead (hr-hardware-macos.c): its pool is the GPU
 * share the user confirmed (@reading's unified_pool_bytes) or the wired
 * limit set on the Mac, never a guess; without either it is 0 and listed to
 * confirm; the first of @bandwidths_gb_s is its bandwidth.
 *
 * Returns: (transfer full): the board; %NULL with %HR_CORE_ERROR_NOT_FOUND
 *   when no GPU memory or no host memory was read (what was read is in
 *   the message), or %HR_CORE_ERROR_INVALID_ARGUMENT when @n_bandwidths
 *   is not the number of GPUs read.
 */
HrBoard *
hr_hardware_make_board (HrHardwareReading  *reading,
                        const char         *id,
                        const char         *name,
                        GPtrArray          *known_boards,
                        const double       *bandwidths_gb_s,
                        guint               n_bandwidths,
                        double              host_bandwidth_gb_s,
                        GError            **error)
{
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GString) source = g_string_new (NULL);

  if (reading->devices->len == 0 && reading->unified_name != NULL)
    {
      if (n_bandwidths > 1)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("%u bandwidths given for %u GPUs: give one per GPU, in the order read (0 = not known)"), n_bandwidths, 1u);
          return NULL;
        }
      return hr_hardware_make_unified_board (reading, id, name, known_boards,
                                             n_bandwidths == 1 ? bandwidths_gb_s[0] : 0.0, error);
    }
  if (!check_reading (reading, n_bandwidths, error))
    return NULL;

  board = hr_board_new (id, name);
  devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  g_string_append (source, _("read from the machine's tools:"));
  for (guint i = 0; i < reading->read->len; i++)
    g_string_append_printf (source, "%s %s", i == 0 ? "" : ";", (char *) g_ptr_array_index (reading->read, i));
  for (guint i = 0; i < reading->devices->len; i++)
    g_ptr_array_add (devices, board_device (reading, i, known_boards,
                                            n_bandwidths > 0 ? bandwidths_gb_s[i] : 0.0, source));
  hr_board_set_devices (board, g_steal_pointer (&devices));
  set_host_memory (board, reading, host_bandwidth_gb_s, source);
  g_string_append (source, _("; reserve 0.5 GB on each GPU and 2 GB of host memory are Headroom's assumptions, as on the built-in boards: edit them to your machine"));
  add_line (reading->confirm, _("reserve: 0.5 GB on each GPU and 2 GB of host memory held back are Headroom's assumptions"));
  board->source = g_string_free (g_steal_pointer (&source), FALSE);
  return g_steal_pointer (&board);
}

/* ------------------------------------------- shared (hr-hardware-private.h) */

char **
hr_hardware_split_lines (const char *text)
{
  return split_lines (text);
}

gboolean
hr_hardware_parse_count (const char *text,
                         guint64    *out)
{
  return parse_count (text, out);
}

AmdGpu *
hr_hardware_amd_gpu (GArray *gpus,
                     guint   index)
{
  return amd_gpu (gpus, index);
}

void
hr_hardware_amd_gpu_clear (gpointer data)
{
  amd_gpu_clear (data);
}

gboolean
hr_hardware_add_amd_gpus (GArray             *gpus,
                          const char         *tool,
                          const char         *default_name,
                          HrHardwareReading  *reading,
                          GError            **error)
{
  return add_amd_gpus (gpus, tool, default_name, reading, error);
}
