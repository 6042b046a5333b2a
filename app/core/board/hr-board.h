/* hr-board.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A board: its memory pool and what is already spoken for, its memory
 * bandwidth, and the turn budget that sets the speed floor. The budget and
 * the verdicts are the seed's (docs/seed-figures.md, "Budget and verdicts"):
 *   headroom = pool - resident
 *   budget   = headroom - reserve
 *   fits  if footprint <= budget    (margin = budget - footprint)
 *   tight if footprint <= headroom  (margin = headroom - footprint)
 *   over  otherwise                 (margin = footprint - headroom)
 *
 * A discrete-GPU board (unified FALSE) also knows its host memory: the
 * pool, resident, reserve and bandwidth above are then the GPU's VRAM, and
 * the host_* fields the system RAM that layers llama.cpp keeps off the GPU
 * live in (hr-offload.h). A unified board has one pool and no host_* figures.
 * A board file written before these fields existed still loads: a missing
 * "backend" is "cuda" and missing host figures are 0, "not known", which
 * leaves a model that does not fit the VRAM "over", as before.
 *
 * A board with several GPUs also holds a list of devices (hr-device.h), in
 * llama.cpp's device order. The board's own pool_bytes, resident_bytes,
 * reserve_bytes, bandwidth_bytes_per_s and backend then stay the first
 * device's figures (hr_board_set_devices() keeps them so), so that code
 * reading only them sees the first GPU, as it does on a one-GPU board. A
 * one-GPU board needs no list (devices NULL) and is what it always was;
 * hr_board_dup_devices() gives every board's devices as one list.
 */
#pragma once

#include <glib-object.h>

#include "hr-device.h"

G_BEGIN_DECLS

typedef enum {
  HR_VERDICT_FITS,
  HR_VERDICT_TIGHT,
  HR_VERDICT_OVER,
  HR_VERDICT_PARTIAL, /* runs, with part of the model in host memory (hr-offload.h) */
} HrVerdict;

/* The runtime backend a board's Ollama uses (llama.cpp's device kinds). */
typedef enum {
  HR_BOARD_BACKEND_CUDA,  /* NVIDIA (and ROCm): llama.cpp CUDA0 */
  HR_BOARD_BACKEND_METAL, /* Apple: MTL0 */
  HR_BOARD_BACKEND_CPU,   /* no GPU: every layer in host memory */
} HrBoardBackend;

typedef struct _HrBoard HrBoard;

struct _HrBoard {
  char    *id;                   /* "jetson-orin-nano-super" */
  char    *name;                 /* "Jetson Orin Nano Super" */
  guint64  pool_bytes;           /* memory the model can live in */
  guint64  resident_bytes;       /* held by the OS and the app's own stack */
  guint64  reserve_bytes;        /* held back for bursts */
  double   bandwidth_bytes_per_s;/* peak memory bandwidth, bytes per second */
  gboolean unified;              /* CPU and GPU share the pool */
  guint32  reply_tokens;         /* turn budget: decode tokens per reply */
  guint32  stage_ceiling_ms;     /* turn budget: the LLM stage's share, ms */
  guint32  prefill_allowance_ms; /* turn budget: time kept for prefill, ms */
  char    *source;               /* where the figures come from */
  /* For partial offload (hr-offload.h); 0 = not known. */
  HrBoardBackend backend;             /* default cuda */
  guint64  host_pool_bytes;           /* discrete boards: system RAM */
  guint64  host_resident_bytes;       /* held by the OS and other programs */
  guint64  host_reserve_bytes;        /* held back */
  double   host_bandwidth_bytes_per_s;/* system RAM bandwidth, bytes per second */
  /* For several GPUs (hr-device.h). */
  GPtrArray *devices;                 /* (element-type HrDevice) (nullable): NULL = the one
                                       * device the fields above describe; else every device,
                                       * the first one mirrored in the fields above */
};

#define HR_TYPE_BOARD (hr_board_get_type ())

GType       hr_board_get_type       (void) G_GNUC_CONST;
HrBoard    *hr_board_new            (const char    *id,
                                     const char    *name);
HrBoard    *hr_board_copy           (const HrBoard *board);
void        hr_board_free           (HrBoard       *board);
gboolean    hr_board_validate       (const HrBoard *board,
                                     GError       **error);
guint64     hr_board_headroom_bytes (const HrBoard *board);
guint64     hr_board_budget_bytes   (const HrBoard *board);
double      hr_board_floor_tps      (const HrBoard *board);
HrVerdict   hr_board_verdict        (const HrBoard *board,
                                     guint64        footprint_bytes,
                                     guint64       *out_margin_bytes);
const char *hr_verdict_to_string    (HrVerdict      verdict);
gboolean    hr_board_has_host       (const HrBoard *board);
guint64     hr_board_host_headroom_bytes (const HrBoard *board);
guint64     hr_board_host_budget_bytes   (const HrBoard *board);
const char *hr_board_backend_to_string   (HrBoardBackend backend);
gboolean    hr_board_backend_from_string (const char     *str,
                                          HrBoardBackend *out_backend);
guint       hr_board_n_devices           (const HrBoard  *board);
gboolean    hr_board_is_multi_device     (const HrBoard  *board);
GPtrArray  *hr_board_dup_devices         (const HrBoard  *board);
void        hr_board_set_devices         (HrBoard        *board,
                                          GPtrArray      *devices);
HrBoardBackend hr_board_backend_for_device (HrDeviceBackend backend);
char       *hr_board_first_device_only_text (const HrBoard *board);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrBoard, hr_board_free)

G_END_DECLS
