/* hr-hardware-detect.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading this computer: runs the tools the parsers of hr-hardware.c read
 * (nvidia-smi, rocm-smi, vulkaninfo, found on PATH), reads the DRM sysfs
 * memory files and /proc/meminfo, and fills a reading. `headroom-cli boards
 * detect` and the window's "Detect This Computer" both call it; it blocks,
 * so the window runs it in a thread (hr_hardware_detect_async()).
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hardware.h"

#define MEMINFO_PATH "/proc/meminfo"

/* Runs @argv[0] found on PATH; FALSE with *out_missing when it is not
 * there, FALSE with @error when it fails (its first line of stderr, else
 * of stdout, as it said it); its stdout in @out_text. */
static gboolean
run_tool (const char * const  *argv,
          GCancellable        *cancellable,
          char               **out_text,
          gboolean            *out_missing,
          GError             **error)
{
  g_autofree char *path = g_find_program_in_path (argv[0]);
  g_autofree char *err = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_auto(GStrv) full = NULL;

  *out_missing = path == NULL;
  if (path == NULL)
    return FALSE;
  g_strv_builder_add (builder, path);
  for (guint i = 1; argv[i] != NULL; i++)
    g_strv_builder_add (builder, argv[i]);
  full = g_strv_builder_end (builder);
  process = g_subprocess_newv ((const char * const *) full,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, error);
  if (process == NULL || !g_subprocess_communicate_utf8 (process, NULL, cancellable, out_text, &err, error))
    {
      if (process != NULL)
        g_subprocess_force_exit (process);
      return FALSE;
    }
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    {
      g_autofree char *said = g_strstrip (g_strdup (err != NULL && err[0] != '\0' ? err : (*out_text != NULL ? *out_text : "")));
      char *newline = strchr (said, '\n');

      if (newline != NULL)
        *newline = '\0';
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("%s failed: %s"), argv[0], said);
      g_clear_pointer (out_text, g_free);
      return FALSE;
    }
  return TRUE;
}

/* The DRM sysfs memory files, as "PATH:VALUE" lines (the shape
 * HR_HARDWARE_DRM_COMMAND prints). */
static char *
read_drm (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/sys/class/drm", 0, NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      if (!g_regex_match_simple ("^card\\d+$", entry, 0, 0))
        continue;
      for (guint k = 0; k < 2; k++)
        {
          const char *file = k == 0 ? "mem_info_vram_total" : "mem_info_vram_used";
          g_autofree char *path = g_build_filename ("/sys/class/drm", entry, "device", file, NULL);
          g_autofree char *value = NULL;

          if (g_file_get_contents (path, &value, NULL, NULL))
            g_string_append_printf (text, "%s:%s\n", path, g_strstrip (value));
        }
    }
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

#ifndef __APPLE__
/* amd-smi's static and metric outputs (HR_HARDWARE_AMD_SMI_COMMAND, with
 * --json); FALSE with *out_missing when amd-smi is not there. A metric
 * that fails leaves static's figures alone. */
static gboolean
detect_amd_smi (HrHardwareReading  *reading,
                GCancellable       *cancellable,
                gboolean           *out_missing,
                GError            **error)
{
  static const char * const stat[] = { "amd-smi", "static", "--asic", "--vram", "--json", NULL };
  static const char * const metric[] = { "amd-smi", "metric", "--mem-usage", "--json", NULL };
  g_autofree char *stat_text = NULL;
  g_autofree char *metric_text = NULL;
  const char *outputs[3] = { NULL, NULL, NULL };
  gboolean gone;

  if (!run_tool (stat, cancellable, &stat_text, out_missing, error))
    return FALSE;
  outputs[0] = stat_text;
  if (run_tool (metric, cancellable, &metric_text, &gone, NULL))
    outputs[1] = metric_text;
  return hr_hardware_parse_amd_smi (outputs, reading, error);
}
#endif

#ifdef __APPLE__
/* What a Mac says: sysctl's hw.memsize (and the wired limit, when macOS
 * has it) and system_profiler -json. */
static gboolean
detect_macos (HrHardwareReading  *reading,
              GCancellable       *cancellable,
              GError            **error)
{
  static const char * const memsize[] = { "sysctl", "hw.memsize", NULL };
  static const char * const wired[] = { "sysctl", "iogpu.wired_limit_mb", NULL };
  static const char * const profiler[] = { "system_profiler", "SPDisplaysDataType", "-json", NULL };
  g_autofree char *text = NULL;
  g_autofree char *limit = NULL;
  g_autofree char *both = NULL;
  gboolean gone;

  if (!run_tool (memsize, cancellable, &text, &gone, error))
    {
      if (gone)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("%s is not there on this Mac"), "sysctl");
      return FALSE;
    }
  run_tool (wired, cancellable, &limit, &gone, NULL);
  both = g_strconcat (text, "\n", limit != NULL ? limit : "", NULL);
  if (!hr_hardware_parse_sysctl (both, reading, error))
    return FALSE;
  g_clear_pointer (&text, g_free);
  if (!run_tool (profiler, cancellable, &text, &gone, error))
    {
      if (gone)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND, _("%s is not there on this Mac"), "system_profiler");
      return FALSE;
    }
  return hr_hardware_parse_system_profiler (text, reading, error);
}
#endif

#ifndef __APPLE__
/* nvidia-smi's GPUs; a missing nvidia-smi goes to @missing. */
static gboolean
detect_nvidia (HrHardwareReading  *reading,
               GCancellable       *cancellable,
               GPtrArray          *missing,
               GError            **error)
{
  static const char * const nvidia[] = { "nvidia-smi", "--query-gpu=name,memory.total,memory.used", "--format=csv,noheader,nounits", NULL };
  g_autofree char *text = NULL;
  gboolean gone;

  if (run_tool (nvidia, cancellable, &text, &gone, error))
    return hr_hardware_parse_nvidia_smi (text, reading, error);
  if (!gone)
    return FALSE;
  g_ptr_array_add (missing, "nvidia-smi");
  return TRUE;
}

/* The AMD GPUs: amd-smi's, else rocm-smi's (amd-smi replaces rocm-smi;
 * both list the same GPUs). amd-smi there with no AMD GPU beside NVIDIA
 * ones read already is no failure. *@out_amd says whether either read
 * them; the tools missing go to @missing. */
static gboolean
detect_amd (HrHardwareReading  *reading,
            GCancellable       *cancellable,
            GPtrArray          *missing,
            gboolean           *out_amd,
            GError            **error)
{
  static const char * const rocm[] = { "rocm-smi", "--showproductname", "--showmeminfo", "vram", NULL };
  g_autofree char *text = NULL;
  gboolean gone;

  *out_amd = FALSE;
  if (detect_amd_smi (reading, cancellable, &gone, error))
    {
      *out_amd = TRUE;
      return TRUE;
    }
  if (!gone && !(reading->devices->len > 0 && g_error_matches (*error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND)))
    return FALSE;
  if (!gone)
    g_clear_error (error);
  else
    g_ptr_array_add (missing, "amd-smi");

  if (run_tool (rocm, cancellable, &text, &gone, error))
    {
      *out_amd = TRUE;
      return hr_hardware_parse_rocm_smi (text, reading, error);
    }
  if (!gone)
    return FALSE;
  g_ptr_array_add (missing, "rocm-smi");
  return TRUE;
}

/* The "no GPU found" error, naming the tools that were not there. */
static void
set_no_gpu_error (GPtrArray  *missing,
                  GError    **error)
{
  g_autoptr(GString) list = g_string_new (NULL);

  for (guint i = 0; i < missing->len; i++)
    g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", (char *) g_ptr_array_index (missing, i));
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
               _("no GPU found: not there on this computer: %s (only %s was read)"),
               list->str, MEMINFO_PATH);
}

/* The GPUs and host memory of a Linux machine: nvidia-smi, amd-smi or
 * rocm-smi, the DRM files (without amd-smi or rocm-smi), vulkaninfo and
 * /proc/meminfo. */
static gboolean
detect_linux (HrHardwareReading  *reading,
              GCancellable       *cancellable,
              GError            **error)
{
  static const char * const vulkan[] = { "vulkaninfo", "--summary", NULL };
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_autofree char *drm = NULL;
  g_autofree char *meminfo = NULL;
  gboolean gone;
  gboolean amd;

  if (!detect_nvidia (reading, cancellable, missing, error) ||
      !detect_amd (reading, cancellable, missing, &amd, error))
    return FALSE;

  drm = read_drm ();
  if (drm != NULL && !amd)
    {
      if (!hr_hardware_parse_drm (drm, reading, error))
        return FALSE;
    }
  else if (drm == NULL)
    g_ptr_array_add (missing, "/sys/class/drm/card*/device/mem_info_vram_total");

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (run_tool (vulkan, cancellable, &text, &gone, NULL))
    hr_hardware_parse_vulkaninfo (text, reading, NULL);
  else
    g_ptr_array_add (missing, "vulkaninfo");

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!g_file_get_contents (MEMINFO_PATH, &meminfo, NULL, error) ||
      !hr_hardware_parse_meminfo (meminfo, reading, error))
    return FALSE;

  if (reading->devices->len == 0 && reading->vulkan_names->len == 0)
    {
      set_no_gpu_error (missing, error);
      return FALSE;
    }
  return TRUE;
}
#endif

/**
 * hr_hardware_detect:
 * @reading: the reading to fill (hr_hardware_reading_new())
 * @cancellable: (nullable): stops a tool that is running
 * @error: return location for a #GError
 *
 * Reads this computer: nvidia-smi (HR_HARDWARE_NVIDIA_SMI_COMMAND), amd-smi
 * (HR_HARDWARE_AMD_SMI_COMMAND), else rocm-smi (HR_HARDWARE_ROCM_SMI_COMMAND),
 * the DRM sysfs files where neither gave anything (amdgpu's
 * mem_info_vram_total and _used), vulkaninfo --summary (names only) and
 * /proc/meminfo, each where it is there; on macOS sysctl and
 * system_profiler instead. Blocks while the tools run.
 *
 * Returns: %TRUE when a GPU was read; else %FALSE with %HR_CORE_ERROR_NOT_FOUND
 *   ("no GPU found: not there on this computer: nvidia-smi, ... (only
 *   /proc/meminfo was read)"), a tool's failure ("nvidia-smi failed: its
 *   words"), a parser's error (a line it cannot read), or
 *   %G_IO_ERROR_CANCELLED. On %FALSE the reading is not to be used.
 */
gboolean
hr_hardware_detect (HrHardwareReading  *reading,
                    GCancellable       *cancellable,
                    GError            **error)
{
  g_return_val_if_fail (reading != NULL, FALSE);

#ifdef __APPLE__
  return detect_macos (reading, cancellable, error);
#else
  return detect_linux (reading, cancellable, error);
#endif
}

static void
detect_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  GError *error = NULL;

  if (!hr_hardware_detect (reading, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&reading), (GDestroyNotify) hr_hardware_reading_free);
}

/**
 * hr_hardware_detect_async:
 * @cancellable: (nullable): stops the reading
 * @callback: called on the caller's main context when it is done
 * @user_data: for @callback
 *
 * hr_hardware_detect() in a worker thread (a #GTask), so a window stays
 * responsive while the tools run.
 */
void
hr_hardware_detect_async (GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, hr_hardware_detect_async);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, detect_thread);
}

/**
 * hr_hardware_detect_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the reading (free with
 *   hr_hardware_reading_free()), or %NULL with hr_hardware_detect()'s errors
 */
HrHardwareReading *
hr_hardware_detect_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_hardware_detect_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
