/* hr-board-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <string.h>

#include "hr-board-format.h"
#include "hr-gui-format.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

/**
 * hr_board_format_added:
 * @spec: a model just added to the catalog from /api/show
 *
 * Returns: (transfer full): what was added, for a toast or the pull note:
 *   "Added llama3.2:3b to the catalog: 3.21 B parameters, Q4_K_M, 2.0 GB of
 *   weights" (parameters as hr_gui_format_parameters() prints them; the weights' size as
 *   `ollama list` prints it, hr_gui_format_ollama_size())
 */
char *
hr_board_format_added (const HrModelSpec *spec)
{
  g_autofree char *parameters = NULL;
  g_autofree char *weights = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  parameters = hr_gui_format_parameters (spec->parameters);
  weights = hr_gui_format_ollama_size (spec->file_bytes);
  /* Translators: a model added to the catalog from /api/show: name, parameters ("3.21 B"), precision, weights */
  return g_strdup_printf (_("Added %1$s to the catalog: %2$s parameters, %3$s, %4$s of weights"),
                          spec->name, parameters, spec->precision ? spec->precision : _("unknown precision"),
                          weights);
}

/**
 * hr_board_format_parameter_size:
 * @parameter_size: (nullable): Ollama's details.parameter_size, "3.2B",
 *   "494.03M", "137M" (Ollama's format.HumanNumber: a number and one of
 *   K, M, B or T, for 10^3, 10^6, 10^9 and 10^12)
 *
 * The parameter count the way the rest of the window shows it
 * (hr_gui_format_parameters()): "3.2B" -> "3.20 B", "137M" -> "0.14 B",
 * "1.26M" -> "1.26 M".
 * Text that is not such a count (or one past 10^15) is returned as it
 * came, so nothing the server said is lost.
 *
 * Returns: (transfer full): the text; "unknown" for %NULL or ""
 */
char *
hr_board_format_parameter_size (const char *parameter_size)
{
  const char *units = "KMBT";
  const char *unit;
  char *end = NULL;
  double value;

  if (parameter_size == NULL || parameter_size[0] == '\0')
    return g_strdup (_("unknown"));
  value = g_ascii_strtod (parameter_size, &end);
  if (end == parameter_size || *end == '\0' || end[1] != '\0' ||
      (unit = strchr (units, *end)) == NULL || !isfinite (value) || value <= 0.0)
    return g_strdup (parameter_size);
  value *= pow (1000.0, (double) (unit - units + 1));
  if (value >= 1e15)
    return g_strdup (parameter_size);
  return hr_gui_format_parameters ((guint64) llround (value));
}

/* Two models this close in size, of the same family, parameter count and
 * quantization, are one file under two manifests: a variant's parameters
 * layer is a few hundred bytes (server/create.go writes num_ctx and the
 * like as a JSON "params" layer). */
#define VARIANT_APART_BYTES 65536

/**
 * hr_board_format_frees:
 * @models: (element-type HrOllamaModel): the models on the board, as
 *   /api/tags listed them
 * @name: the model to be deleted
 *
 * What deleting @name frees, for the Delete dialog, from its size in
 * /api/tags (decimal units, as `ollama list` prints it,
 * hr_gui_format_ollama_size()). Ollama keeps each file (blob) once, by its
 * digest, however many models use it, and deletes only the blobs no other
 * model uses; /api/tags gives each model's manifest digest but not its
 * layers'. So: alone on the board, the size is what is freed; another
 * model with the same manifest digest shares every file, so almost
 * nothing is freed; so does a variant of the same weights (another model
 * of the same family, parameter count and quantization within 64 KiB of
 * its size: a parameters layer apart); otherwise another model may share some of its files
 * (the same weights under another tag), and the size is an upper bound.
 *
 * Returns: (transfer full) (nullable): "Deleting qwen2.5:14b frees 9.0 GB
 *   on the board." or the "up to" and "almost nothing" sentences; %NULL
 *   when @name is not in @models
 */
char *
hr_board_format_frees (GPtrArray  *models,
                       const char *name)
{
  const HrOllamaModel *model = NULL;
  const HrOllamaModel *twin = NULL;
  const HrOllamaModel *variant = NULL;
  g_autofree char *size = NULL;

  g_return_val_if_fail (models != NULL && name != NULL, NULL);

  for (guint i = 0; i < models->len && model == NULL; i++)
    if (g_strcmp0 (((HrOllamaModel *) g_ptr_array_index (models, i))->name, name) == 0)
      model = g_ptr_array_index (models, i);
  if (model == NULL)
    return NULL;
  for (guint i = 0; i < models->len && twin == NULL; i++)
    {
      const HrOllamaModel *other = g_ptr_array_index (models, i);

      if (other != model && model->digest != NULL && g_strcmp0 (other->digest, model->digest) == 0)
        twin = other;
    }

  /* A variant (made by /api/create from another model, or that model when
   * a variant of it is there): another manifest over the same weights,
   * only a parameters layer of a few hundred bytes apart. */
  for (guint i = 0; i < models->len && twin == NULL && variant == NULL; i++)
    {
      const HrOllamaModel *other = g_ptr_array_index (models, i);
      guint64 apart = other->size > model->size ? other->size - model->size : model->size - other->size;

      if (other != model && model->size > VARIANT_APART_BYTES && apart <= VARIANT_APART_BYTES &&
          g_strcmp0 (other->quantization_level, model->quantization_level) == 0 &&
          g_strcmp0 (other->parameter_size, model->parameter_size) == 0 &&
          g_strcmp0 (other->family, model->family) == 0)
        variant = other;
    }

  size = hr_gui_format_ollama_size (model->size);
  if (variant != NULL)
    /* Translators: the model to delete, and the model whose weights it shares */
    return g_strdup_printf (_("Deleting %1$s frees almost nothing on the board: it shares its weights with %2$s "
                              "(a variant of the same file, its own parameters apart), and they stay for it."),
                            model->name, variant->name);
  if (twin != NULL)
    /* Translators: the model to delete, and another name of the same files */
    return g_strdup_printf (_("Deleting %1$s frees almost nothing on the board: %2$s is the same model under "
                              "another name, and its files stay for it."), model->name, twin->name);
  if (models->len == 1)
    /* Translators: the model to delete and its size on disk, "9.0 GB" */
    return g_strdup_printf (_("Deleting %1$s frees %2$s on the board."), model->name, size);
  /* Translators: the model to delete and its size on disk, "9.0 GB" */
  return g_strdup_printf (_("Deleting %1$s frees up to %2$s on the board: Ollama keeps a file shared with "
                            "another model until no model uses it."), model->name, size);
}
