/* hr-hardware-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the hardware parsers (hr-hardware.c, hr-hardware-amd-smi.c,
 * hr-hardware-macos.c) share. Not installed; no API.
 */
#pragma once

#include "hr-hardware.h"

G_BEGIN_DECLS

/* An AMD GPU as a tool listed it, by its index. */
typedef struct {
  char    *name;
  guint64  total;
  guint64  used;
  gboolean has_total;
} AmdGpu;

char   **hr_hardware_split_lines   (const char         *text);
gboolean hr_hardware_parse_count   (const char         *text,
                                    guint64            *out);
AmdGpu  *hr_hardware_amd_gpu       (GArray             *gpus,
                                    guint               index);
void     hr_hardware_amd_gpu_clear (gpointer            data);
gboolean hr_hardware_add_amd_gpus  (GArray             *gpus,
                                    const char         *tool,
                                    const char         *default_name,
                                    HrHardwareReading  *reading,
                                    GError            **error);
HrBoard *hr_hardware_make_unified_board (HrHardwareReading *reading,
                                         const char        *id,
                                         const char        *name,
                                         GPtrArray         *known_boards,
                                         double             bandwidth_gb_s,
                                         GError           **error);

G_END_DECLS
