/* hr-cli-split.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GPU/host split and the prior as the table commands (fit, dashboard,
 * check, matrix) print them: "partial 34/49", VRAM and host bytes, the
 * PROCESSOR text `ollama ps` would show, and the one note a board without
 * measurements gets. Every figure comes from app/core (hr_evaluate()).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "hr-cli.h"
#include "hr-units.h"

/**
 * hr_cli_split_layers_text:
 * @e: a row with a split (e->split)
 *
 * Returns: (transfer full): "34/49", the layers on the GPU out of the total,
 *   or "-" for a row without a split.
 */
char *
hr_cli_split_layers_text (const HrEvaluation *e)
{
  if (!e->split)
    return g_strdup ("-");
  return g_strdup_printf ("%u/%u", e->gpu_layers, e->total_layers);
}

/**
 * hr_cli_verdict_text:
 * @e: a row
 *
 * The verdict with its margin in GB (decimal, 2 decimals), as the seed's fit
 * table words it: "fits, 4.65 GB under budget", "tight, 0.66 GB left above
 * the OS", "over by 3.71 GB", and for a split "partial 34/49, 21.24 GB of
 * host memory left" (the host's free memory less what the model keeps there);
 * with every layer on the GPU and experts in host memory, "partial 49/49,
 * the experts of 10 layers in host memory, 26.35 GB of host memory left".
 *
 * Returns: (transfer full): the text.
 */
char *
hr_cli_verdict_text (const HrEvaluation *e)
{
  g_autofree char *m = hr_format_decimal (hr_bytes_to_gb (e->margin_bytes), 2);

  switch (e->verdict)
    {
    case HR_VERDICT_FITS:  return g_strdup_printf (_("fits, %s GB under budget"), m);
    case HR_VERDICT_TIGHT: return g_strdup_printf (_("tight, %s GB left above the OS"), m);
    case HR_VERDICT_PARTIAL:
      if (e->gpu_layers == e->total_layers && e->expert_host_layers > 0)
        /* every layer counts as on the GPU: what is in host memory is experts */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "partial %1$u/%2$u, the experts of %3$u layer in host memory, %4$s GB of host memory left",
                                             "partial %1$u/%2$u, the experts of %3$u layers in host memory, %4$s GB of host memory left",
                                             e->expert_host_layers),
                                e->gpu_layers, e->total_layers, e->expert_host_layers, m);
      return g_strdup_printf (_("partial %u/%u, %s GB of host memory left"), e->gpu_layers, e->total_layers, m);
    case HR_VERDICT_OVER:
    default:               return g_strdup_printf (_("over by %s GB"), m);
    }
}

/**
 * hr_cli_add_split_json:
 * @b: a builder inside an object
 * @e: a row
 *
 * Adds "gpu_layers", "total_layers", "vram_bytes", "host_bytes" and
 * "processor". A row without a split (a one-pool board) has every layer in
 * its pool: gpu_layers and total_layers are null, vram_bytes the footprint,
 * host_bytes 0 and processor "100% GPU".
 */
void
hr_cli_add_split_json (JsonBuilder        *b,
                       const HrEvaluation *e)
{
  json_builder_set_member_name (b, "gpu_layers");
  if (e->split)
    json_builder_add_int_value (b, e->gpu_layers);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "total_layers");
  if (e->split)
    json_builder_add_int_value (b, e->total_layers);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "vram_bytes");
  json_builder_add_int_value (b, (gint64) MIN (e->split ? e->vram_bytes : e->footprint.total, (guint64) G_MAXINT64));
  json_builder_set_member_name (b, "host_bytes");
  json_builder_add_int_value (b, (gint64) MIN (e->split ? e->host_bytes : 0, (guint64) G_MAXINT64));
  json_builder_set_member_name (b, "processor");
  json_builder_add_string_value (b, e->split ? e->processor : "100% GPU");
}

/**
 * hr_cli_print_prior_note:
 * @ctx: a loaded context
 * @board: the board the rows are on
 * @evaluations: (array length=n): the rows
 * @n: how many
 *
 * When any row's rate is a prior, prints once, on stdout, that the board has
 * no measurement, which prior stands in (its kind, efficiency and how many
 * published runs it is the mean of, data/priors.json) and what to do:
 * measure one model with `headroom-cli ollama measure`. On a board with
 * measurements (@ctx's own board with a fit) a prior rate comes only from a
 * split's CPU side, and the note says that instead. Prints nothing
 * otherwise.
 */
void
hr_cli_print_prior_note (HrCliContext       *ctx,
                         const HrBoard      *board,
                         const HrEvaluation *evaluations,
                         guint               n)
{
  HrHardwareKind kind = hr_board_hardware_kind (board);
  guint runs = 0;
  double eff;
  g_autofree char *eff_text = NULL;
  gboolean any = FALSE;

  for (guint i = 0; i < n && !any; i++)
    any = evaluations[i].source == HR_RATE_SOURCE_PRIOR;
  if (!any)
    return;
  if (ctx->board == board && ctx->fit.n_points > 0)
    {
      /* Measured on this board: only the CPU's side of a split is a prior. */
      eff = hr_cli_context_prior (ctx, HR_HARDWARE_CPU, &runs);
      eff_text = hr_format_decimal (eff, 2);
      printf (g_dngettext (GETTEXT_PACKAGE,
                           "note: a partial model's rate on %s times its CPU layers with a prior: efficiency %s for cpu hardware, from %u published run (data/priors.json).\n",
                           "note: a partial model's rate on %s times its CPU layers with a prior: efficiency %s for cpu hardware, the mean of %u published runs (data/priors.json).\n",
                           runs),
              board->id, eff_text, runs);
      return;
    }
  eff = hr_cli_context_prior (ctx, kind, &runs);
  eff_text = hr_format_decimal (eff, 2);
  printf (g_dngettext (GETTEXT_PACKAGE,
                       "note: the rates on %s are a prior, not a measurement: efficiency %s for %s hardware, from %u published run (data/priors.json).\n",
                       "note: the rates on %s are a prior, not a measurement: efficiency %s for %s hardware, the mean of %u published runs (data/priors.json).\n",
                       runs),
          board->id, eff_text, hr_hardware_kind_to_string (kind), runs);
  printf (_("      Measure one model on it (headroom-cli ollama measure MODEL) and its rates become its own.\n"));
}
