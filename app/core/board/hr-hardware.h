/* hr-hardware.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hardware read, not typed: parsers for what the machine's own tools
 * print (nvidia-smi, rocm-smi, amd-smi, the DRM sysfs memory files,
 * vulkaninfo --summary, /proc/meminfo, and macOS's sysctl and
 * system_profiler: hr-hardware-amd-smi.c, hr-hardware-macos.c), and the
 * board made from what they said. The parsers are pure: the text comes in;
 * hr-hardware-detect.c runs the tools on this computer
 * (hr_hardware_detect()), or the text is their output pasted from a
 * remote board.
 *
 * Nothing is guessed. A figure no tool gives (a GPU's memory bandwidth, the
 * host memory's bandwidth, how much of a unified memory the GPU may take)
 * is left unknown and listed in the reading's `confirm`; the board is not
 * made complete until the user supplies it.
 */
#pragma once

#include <gio/gio.h>

#include "hr-board.h"
#include "hr-device.h"

G_BEGIN_DECLS

/* The commands whose output the parsers read, as the messages name them. */
#define HR_HARDWARE_NVIDIA_SMI_COMMAND "nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits"
#define HR_HARDWARE_ROCM_SMI_COMMAND   "rocm-smi --showproductname --showmeminfo vram"
#define HR_HARDWARE_DRM_COMMAND        "grep . /sys/class/drm/card*/device/mem_info_vram_*"
#define HR_HARDWARE_VULKANINFO_COMMAND "vulkaninfo --summary"
#define HR_HARDWARE_MEMINFO_COMMAND    "cat /proc/meminfo"
#define HR_HARDWARE_AMD_SMI_COMMAND    "amd-smi static --asic --vram; amd-smi metric --mem-usage"
#define HR_HARDWARE_SYSCTL_COMMAND     "sysctl hw.memsize iogpu.wired_limit_mb"
#define HR_HARDWARE_PROFILER_COMMAND   "system_profiler SPDisplaysDataType"

typedef struct {
  GPtrArray *devices;          /* (element-type HrDevice): GPUs read, bandwidth 0 = not read */
  guint64    host_total_bytes; /* MemTotal; 0 = not read */
  guint64    host_available_bytes; /* MemAvailable; 0 = not read */
  GPtrArray *read;             /* (element-type utf8): what was read, one line each */
  GPtrArray *confirm;          /* (element-type utf8): what the user must confirm or give */
  GPtrArray *vulkan_names;     /* (element-type utf8): GPUs vulkaninfo named (it gives no memory) */
  /* macOS (hr-hardware-macos.c): */
  char      *unified_name;     /* an Apple silicon GPU system_profiler named (it shares the
                                * Mac's memory and gives no size of its own); NULL = none */
  guint32    unified_cores;    /* its GPU cores ("Total Number of Cores"), 0 = not read */
  gboolean   host_from_sysctl; /* host_total_bytes is hw.memsize (no figure of what is in use) */
  guint64    wired_limit_bytes;/* sysctl iogpu.wired_limit_mb, the GPU's wired-memory limit the
                                * user set; 0 = not read or macOS's default (not printed) */
  guint64    unified_pool_bytes; /* the GPU's share of the unified memory as the user confirmed
                                  * it (the caller sets it; 0 = not given) */
} HrHardwareReading;

HrHardwareReading *hr_hardware_reading_new  (void);
void               hr_hardware_reading_free (HrHardwareReading *reading);

gboolean  hr_hardware_parse_nvidia_smi (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_rocm_smi   (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_drm        (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_vulkaninfo (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_meminfo    (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_amd_smi    (const char * const *outputs,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_sysctl     (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_system_profiler (const char    *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
gboolean  hr_hardware_parse_paste      (const char         *text,
                                        HrHardwareReading  *reading,
                                        GError            **error);
HrBoard  *hr_hardware_make_board       (HrHardwareReading  *reading,
                                        const char         *id,
                                        const char         *name,
                                        GPtrArray          *known_boards,
                                        const double       *bandwidths_gb_s,
                                        guint               n_bandwidths,
                                        double              host_bandwidth_gb_s,
                                        GError            **error);

gboolean  hr_hardware_detect           (HrHardwareReading  *reading,
                                        GCancellable       *cancellable,
                                        GError            **error);
void      hr_hardware_detect_async     (GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
HrHardwareReading *hr_hardware_detect_finish (GAsyncResult *result,
                                              GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHardwareReading, hr_hardware_reading_free)

G_END_DECLS
