/* hr-board-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-format.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

/**
 * hr_board_format_added:
 * @spec: a model just added to the catalog from /api/show
 *
 * Returns: (transfer full): what was added, for a toast or the pull note:
 *   "Added llama3.2:3b to the catalog: 3.21 B parameters, Q4_K_M, 2.0 GB of
 *   weights" (parameters in billions, two decimals; the weights' size as
 *   `ollama list` prints it, hr_ollama_format_size())
 */
char *
hr_board_format_added (const HrModelSpec *spec)
{
  g_autofree char *parameters = NULL;
  g_autofree char *weights = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  parameters = hr_format_decimal (spec->parameters / 1e9, 2);
  weights = hr_ollama_format_size (spec->file_bytes);
  /* Translators: a model added to the catalog from /api/show: name, parameters in billions, precision, weights */
  return g_strdup_printf (_("Added %1$s to the catalog: %2$s B parameters, %3$s, %4$s of weights"),
                          spec->name, parameters, spec->precision ? spec->precision : _("unknown precision"),
                          weights);
}
