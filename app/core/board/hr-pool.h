/* hr-pool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a board's memory pool divides, for the chart: the resident share
 * (the OS, the desktop and the app's own stack), the reserve held back, and
 * the budget the model gets (docs/seed-figures.md, "Budget and verdicts"). On a
 * unified-memory board (Jetson, DGX Spark, Apple) the resident share is the
 * OS and desktop living in the same memory as the model, and nvidia-smi
 * reports no memory figure there, so the pool comes from the board profile.
 */
#pragma once

#include <glib.h>

#include "hr-board.h"

G_BEGIN_DECLS

typedef enum {
  HR_POOL_BAND_RESIDENT, /* the OS / desktop / CUDA context: already spoken for */
  HR_POOL_BAND_RESERVE,  /* held back for bursts */
  HR_POOL_BAND_BUDGET,   /* what a model may use */
  HR_POOL_N_BANDS
} HrPoolBandKind;

/** HR_POOL_TEXT_LEN: room for a band's note, bytes with the NUL. */
#define HR_POOL_TEXT_LEN 384

typedef struct {
  HrPoolBandKind kind;
  const char *id;            /* "resident", "reserve", "budget" */
  const char *label;         /* translated */
  guint64     start_bytes;   /* from the bottom of the pool */
  guint64     bytes;
  char        note[HR_POOL_TEXT_LEN];
} HrPoolBand;

typedef struct {
  gboolean   unified;
  guint64    pool_bytes;
  guint      n_bands;
  HrPoolBand bands[HR_POOL_N_BANDS];
  char       note[HR_POOL_TEXT_LEN]; /* the board-wide note ("" on a discrete GPU) */
} HrPoolLayout;

void hr_pool_layout (const HrBoard *board,
                     HrPoolLayout  *out);

G_END_DECLS
