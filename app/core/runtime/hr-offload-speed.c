/* hr-offload-speed.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decode speed from a GPU/host split (see hr-offload.h): the checks every
 * speed figure needs, and tokens per second from the weights each side
 * reads per token and its memory bandwidth.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-offload.h"
#include "hr-offload-private.h"
#include "hr-units.h"

/* --------------------------------------------------------------- speed */

/* What every decode-speed figure needs: some weights read, and an
 * efficiency in (0, 1] for each side that reads any (the GPUs', the CPU's).
 * Returns %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT otherwise. */
gboolean
hr_offload_check_decode (const HrOffload *split,
                         double           gpu_efficiency,
                         double           host_efficiency,
                         GError         **error)
{
  if (split->gpu_read_bytes == 0 && split->host_read_bytes == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, _("the split reads no weights: nothing to time"));
      return FALSE;
    }
  if (split->gpu_read_bytes > 0 && !(gpu_efficiency > 0.0 && gpu_efficiency <= 1.0))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the GPU efficiency must be above 0 and at most 1: measure a model on this board or use a prior"));
      return FALSE;
    }
  if (split->host_read_bytes > 0 && !(host_efficiency > 0.0 && host_efficiency <= 1.0))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the CPU efficiency must be above 0 and at most 1: part of the model runs on the CPU"));
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_offload_decode_tps:
 * @split: a split (hr_offload_predict())
 * @board: the board it was predicted on
 * @gpu_efficiency: the GPU's measured or prior efficiency, in (0, 1]
 * @host_efficiency: the CPU's, in (0, 1] (unused when nothing is read there)
 * @out_tps: (out): tokens per second
 * @out_text: (out) (optional) (transfer full): the arithmetic, for a person
 *
 * Decoding reads every weight once per token, each side at its own memory:
 *   t = gpu_read / (bandwidth_gpu x eff_gpu) + host_read / (bandwidth_host x eff_host)
 *   tokens/s = 1 / t
 * gpu_read and host_read are the split's weights read per token: a mixture
 * of experts reads only expert_used_count / expert_count of its expert
 * tensors, and token_embd is not counted (one row a token). The GPU side is
 * the board's bandwidth; the host side a discrete board's host bandwidth,
 * or on a "cpu" board its one pool's. With no host reads this is the seed's
 * ceiling x efficiency (docs/seed-figures.md "Rates") on the split's weights.
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT when
 *   an efficiency a side needs is outside (0, 1], the host bandwidth the
 *   split needs is not known, or nothing is read at all.
 */
gboolean
hr_offload_decode_tps (const HrOffload *split,
                       const HrBoard   *board,
                       double           gpu_efficiency,
                       double           host_efficiency,
                       double          *out_tps,
                       char           **out_text,
                       GError         **error)
{
  gboolean cpu_board = board->backend == HR_BOARD_BACKEND_CPU;
  double bw_gpu = board->bandwidth_bytes_per_s;
  double bw_host = cpu_board ? board->bandwidth_bytes_per_s : board->host_bandwidth_bytes_per_s;
  double t_gpu = 0.0, t_host = 0.0;

  if (split->n_devices > 0)
    return hr_offload_decode_tps_devices (split, board, gpu_efficiency, host_efficiency, out_tps, out_text, error);
  *out_tps = 0.0;
  if (out_text)
    *out_text = NULL;
  if (!hr_offload_check_decode (split, gpu_efficiency, host_efficiency, error))
    return FALSE;
  if (split->host_read_bytes > 0 && !(bw_host > 0.0))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the board's host memory bandwidth is not known (\"host_bandwidth_gb_s\"): part of the model runs on the CPU"));
      return FALSE;
    }
  if (split->gpu_read_bytes > 0)
    t_gpu = (double) split->gpu_read_bytes / (bw_gpu * gpu_efficiency);
  if (split->host_read_bytes > 0)
    t_host = (double) split->host_read_bytes / (bw_host * host_efficiency);
  *out_tps = 1.0 / (t_gpu + t_host);

  if (out_text)
    {
      g_autofree char *gb = hr_format_count (split->gpu_read_bytes);
      g_autofree char *hb = hr_format_count (split->host_read_bytes);
      g_autofree char *bwg = hr_format_decimal (bw_gpu / 1e9, 1);
      g_autofree char *bwh = hr_format_decimal (bw_host / 1e9, 1);
      g_autofree char *eg = hr_format_decimal (gpu_efficiency, 2);
      g_autofree char *eh = hr_format_decimal (host_efficiency, 2);
      g_autofree char *tg = hr_format_decimal (t_gpu * 1000.0, 1);
      g_autofree char *th = hr_format_decimal (t_host * 1000.0, 1);
      g_autofree char *tt = hr_format_decimal ((t_gpu + t_host) * 1000.0, 1);
      g_autofree char *tps = hr_format_decimal (*out_tps, 1);

      if (split->host_read_bytes == 0)
        *out_text = g_strdup_printf (_("t = %s bytes / (%s GB/s x %s) = %s ms per token: %s t/s"), gb, bwg, eg, tt, tps);
      else if (split->gpu_read_bytes == 0)
        *out_text = g_strdup_printf (_("t = %s bytes / (%s GB/s x %s) = %s ms per token on the CPU: %s t/s"), hb, bwh, eh, tt, tps);
      else
        *out_text = g_strdup_printf (_("t = %s bytes / (%s GB/s x %s) on the GPU + %s bytes / (%s GB/s x %s) on the CPU = %s ms + %s ms = %s ms per token: %s t/s"),
                                     gb, bwg, eg, hb, bwh, eh, tg, th, tt, tps);
    }
  return TRUE;
}
