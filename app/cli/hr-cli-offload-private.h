/* hr-cli-offload-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-cli-offload.c (the split and the fit finders) asks of
 * hr-cli-offload-print.c (the split's text and JSON). Include only from
 * app/cli/hr-cli-offload*.c.
 */
#pragma once

#include "hr-cli.h"
#include "hr-cli-predict.h"
#include "hr-units.h"

G_BEGIN_DECLS

/* @bytes as decimal GB with two decimals ("4.71"); (transfer full). */
static inline char *
hr_cli_offload_gb (guint64 bytes)
{
  return hr_format_decimal (hr_bytes_to_gb (bytes), 2);
}

/* The split's verdict in words ("fits, 0.40 GB under budget"); (transfer full). */
char *hr_cli_offload_split_verdict_text     (const HrOffload *split);
/* The split's members of predict's JSON: both sides, the devices, the
 * verdict, margin and rate (@text: the decode arithmetic, or %NULL). */
void  hr_cli_offload_add_split_members      (JsonObject      *o,
                                             const HrOffload *split,
                                             double           tps,
                                             HrRateSource     source,
                                             HrSpeed          speed,
                                             const char      *text);
/* On stdout: what the fit had to place the model in, or the layers
 * @num_gpu put there when the user set them. */
void  hr_cli_offload_print_fit_target       (const HrOffload *split,
                                             gint32           num_gpu);
/* On stdout: where the projector went. */
void  hr_cli_offload_print_projector        (const HrOffload *split);
/* On stdout: the layers on each side, the GPUs, both sides' bytes. */
void  hr_cli_offload_print_placement_figures (const HrOffload *split);
/* On stdout: the decode arithmetic (@text) and the rate with its source
 * and speed. */
void  hr_cli_offload_print_split_rate       (const HrBoard   *board,
                                             const HrOffload *split,
                                             double           tps,
                                             HrRateSource     source,
                                             HrSpeed          speed,
                                             const char      *text);

G_END_DECLS
