/* hr-priors.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prior decode efficiencies per kind of hardware, for a board that has no
 * measurement of its own. Each prior is the mean of measured / ceiling over
 * published runs (data/priors.json: hardware, bandwidth, the model's weight
 * bytes, the measured decode rate and where it was published), the seed's
 * efficiency fit (hr_rate_fit_efficiency()) applied across boards of a kind:
 *   efficiency = mean(decode_tps / (bandwidth / weight_bytes)), to 0.01
 */
#pragma once

#include <glib.h>

#include "hr-board.h"

G_BEGIN_DECLS

typedef enum {
  HR_HARDWARE_DISCRETE_NVIDIA, /* a discrete NVIDIA GPU (CUDA, VRAM) */
  HR_HARDWARE_APPLE_UNIFIED,   /* Apple silicon (Metal, unified memory) */
  HR_HARDWARE_NVIDIA_UNIFIED,  /* Jetson, DGX Spark (CUDA, unified memory) */
  HR_HARDWARE_CPU,             /* the CPU reading host memory */
  HR_HARDWARE_N_KINDS
} HrHardwareKind;

typedef struct {
  HrHardwareKind kind;
  char    *hardware;               /* "NVIDIA GeForce RTX 3090 Ti" */
  char    *model;                  /* "llama 7B Q4_0" */
  guint64  weight_bytes;           /* the weights read per token */
  double   bandwidth_bytes_per_s;  /* the hardware's peak memory bandwidth */
  double   decode_tps;             /* the measured decode rate */
  char    *source;                 /* where it was published (URL and what) */
} HrPriorRun;

typedef struct _HrPriors HrPriors;

HrPriors   *hr_priors_load_data       (const char      *data,
                                       gssize           length,
                                       const char      *display_name,
                                       GError         **error);
HrPriors   *hr_priors_load_file       (const char      *path,
                                       GError         **error);
void        hr_priors_free            (HrPriors        *priors);
guint       hr_priors_get_n_runs      (const HrPriors  *priors);
const HrPriorRun *hr_priors_get_run   (const HrPriors  *priors,
                                       guint            index);
double      hr_priors_efficiency      (const HrPriors  *priors,
                                       HrHardwareKind   kind,
                                       guint           *out_n_runs);
double      hr_prior_run_efficiency   (const HrPriorRun *run);
HrHardwareKind hr_board_hardware_kind (const HrBoard   *board);
const char *hr_hardware_kind_to_string (HrHardwareKind  kind);
gboolean    hr_hardware_kind_from_string (const char     *str,
                                          HrHardwareKind *out_kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrPriors, hr_priors_free)

G_END_DECLS
