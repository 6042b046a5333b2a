/* hr-pool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pool's bands: see hr-pool.h.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-pool.h"
#include "hr-units.h"

static HrPoolBand *
add_band (HrPoolLayout   *out,
          HrPoolBandKind  kind,
          const char     *id,
          const char     *label,
          guint64         start,
          guint64         bytes)
{
  HrPoolBand *band = &out->bands[out->n_bands++];

  band->kind = kind;
  band->id = id;
  band->label = label;
  band->start_bytes = start;
  band->bytes = bytes;
  band->note[0] = '\0';
  return band;
}

/**
 * hr_pool_layout:
 * @board: a board
 * @out: (out caller-allocates): its bands, bottom up
 *
 * Divides the board's pool into the resident share, the reserve and the
 * budget (headroom = pool - resident, budget = headroom - reserve;
 * docs/seed-figures.md). On a unified board the resident band is labelled as the
 * OS and desktop sharing the model's memory, and the layout's note says
 * nvidia-smi reports no memory figure there (on GB10 and Jetson it prints
 * "Not Supported" / "N/A" for memory; `free -h` shows the one pool). On a
 * discrete GPU the resident band is the desktop and the CUDA context on the
 * card. Figures past the pool are cut at the pool.
 */
void
hr_pool_layout (const HrBoard *board,
                HrPoolLayout  *out)
{
  guint64 pool = board->pool_bytes;
  guint64 resident = MIN (board->resident_bytes, pool);
  guint64 reserve = MIN (board->reserve_bytes, pool - resident);
  guint64 budget = pool - resident - reserve;
  g_autofree char *resident_gb = hr_format_decimal (hr_bytes_to_gb (resident), 1);
  g_autofree char *reserve_gb = hr_format_decimal (hr_bytes_to_gb (reserve), 1);
  g_autofree char *budget_gb = hr_format_decimal (hr_bytes_to_gb (budget), 1);
  g_autofree char *pool_gb = hr_format_decimal (hr_bytes_to_gb (pool), 1);
  HrPoolBand *band;

  memset (out, 0, sizeof *out);
  out->unified = board->unified;
  out->pool_bytes = pool;

  if (board->unified)
    {
      band = add_band (out, HR_POOL_BAND_RESIDENT, "resident", _("OS and desktop (resident)"), 0, resident);
      g_snprintf (band->note, sizeof band->note,
                  _("%s GB of the shared memory is held by the OS, the desktop and the app's own stack before any model loads."),
                  resident_gb);
    }
  else
    {
      band = add_band (out, HR_POOL_BAND_RESIDENT, "resident", _("Desktop and CUDA context (resident)"), 0, resident);
      g_snprintf (band->note, sizeof band->note,
                  _("%s GB of the card is taken by the desktop and the CUDA context before any model loads."),
                  resident_gb);
    }

  band = add_band (out, HR_POOL_BAND_RESERVE, "reserve", _("Reserve"), resident, reserve);
  g_snprintf (band->note, sizeof band->note, _("%s GB held back for bursts and other processes."), reserve_gb);

  band = add_band (out, HR_POOL_BAND_BUDGET, "budget", _("Budget"), resident + reserve, budget);
  g_snprintf (band->note, sizeof band->note, _("%s GB of the %s GB pool is the model's budget."), budget_gb, pool_gb);

  if (board->unified)
    g_snprintf (out->note, sizeof out->note, "%s",
                _("Unified memory: the CPU and the GPU share one pool, so the OS and desktop use the model's memory. nvidia-smi reports no memory figure on these boards; the pool comes from the board profile (free -h shows it)."));
}
