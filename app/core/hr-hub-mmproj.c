/* hr-hub-mmproj.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A Hub repository's vision or audio projector (hr-mmproj.h): in a GGUF
 * repository the mmproj file llama.cpp's -hf would take beside the chosen
 * model (common/download.cpp find_best_sibling), its header read by range
 * request as the model's is; in a safetensors checkpoint the vision /
 * audio tower's tensors, summed from the safetensors headers.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "hr-hub-info.h"
#include "hr-hub-info-private.h"
#include "hr-mmproj.h"
#include "hr-units.h"

/* llama.cpp common/download.cpp extract_quant_bits: the first number in
 * the file's quantization tag ("Q4_K_M" 4, "F16" 16, "BF16" 16), 0 = none. */
static int
quant_bits (const char *path)
{
  g_autofree char *label = hr_hf_gguf_quant_label (path);
  const char *digit;

  if (label == NULL || (digit = strpbrk (label, "0123456789")) == NULL)
    return 0;
  return atoi (digit);
}

/* The directories of @path, split ("a/b/c.gguf" -> "a", "b"). */
static char **
dirs_of (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  guint n = g_strv_length (parts);

  g_free (parts[n - 1]);
  parts[n - 1] = NULL;
  return g_steal_pointer (&parts);
}

static int
compare_path (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * hr_hub_answers_choose_mmproj:
 * @a: the answers, after the model info
 * @model_path: the GGUF file chosen as the model (hr_hub_answers_choose_gguf())
 *
 * The projector llama.cpp's -hf downloads with @model_path
 * (common/download.cpp find_best_sibling, keyword "mmproj"): among the
 * siblings that are projectors (hr_mmproj_path_is_projector()) and whose
 * directory holds the model's (is it, or one above it), the deepest; then
 * the one whose quantization bits are closest to the model's (the first
 * number of the tag: Q4_K_M 4, F16 16); the first in path order on a tie.
 *
 * Returns: (transfer full) (nullable): its path, or %NULL when the
 *   repository has none.
 */
char *
hr_hub_answers_choose_mmproj (HrHubAnswers *a,
                              const char   *model_path)
{
  g_autoptr(GPtrArray) candidates = g_ptr_array_new ();
  g_auto(GStrv) model_dirs = dirs_of (model_path);
  int model_bits = quant_bits (model_path);
  const char *best = NULL;
  guint best_depth = 0;
  int best_diff = 0;

  for (guint i = 0; a->siblings != NULL && i < a->siblings->len; i++)
    if (hr_mmproj_path_is_projector (g_ptr_array_index (a->siblings, i)))
      g_ptr_array_add (candidates, g_ptr_array_index (a->siblings, i));
  g_ptr_array_sort (candidates, compare_path);
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *path = g_ptr_array_index (candidates, i);
      g_auto(GStrv) dirs = dirs_of (path);
      guint depth = g_strv_length (dirs);
      gboolean inside = depth <= g_strv_length (model_dirs);
      int diff;

      for (guint d = 0; inside && d < depth; d++)
        inside = strcmp (dirs[d], model_dirs[d]) == 0;
      if (!inside)
        continue;
      diff = abs (quant_bits (path) - model_bits);
      if (best == NULL || depth > best_depth || (depth == best_depth && diff < best_diff))
        {
          best = path;
          best_depth = depth;
          best_diff = diff;
        }
    }
  return g_strdup (best);
}

/**
 * hr_hub_answers_add_projector: (skip)
 * @a: the answers, the spec built (hr_hub_answers_finish())
 *
 * Puts the projector in the spec:
 *  - a GGUF repository with an mmproj file read: all its tensors
 *    (Ollama llm/llama_server.go mmprojMemoryRequirement, the separate
 *    file), in place of any v./mm./a. tensors inside the model's file;
 *  - a safetensors checkpoint with a vision or audio tower in its headers
 *    (hr_mmproj_safetensors_is_tower()): the tower's bytes at the
 *    checkpoint's dtype become the projector, and leave the spec's
 *    parameters and file bytes, so the weights are the language model's
 *    (as llama.cpp's convert_hf_to_gguf.py --mmproj writes the tower to
 *    a file of its own). The repository's own counts (parameters,
 *    tensor_bytes) are kept; tower_* say what moved.
 */
void
hr_hub_answers_add_projector (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  HrModelSpec *spec = r->spec;

  if (spec == NULL)
    return;
  if (r->gguf != NULL && r->mmproj != NULL)
    {
      guint64 bytes = hr_gguf_file_get_tensor_bytes (r->mmproj);

      if (bytes == 0)
        return;
      spec->projector_bytes = bytes;
      g_free (spec->projector_source);
      spec->projector_source = g_strdup_printf ("%s's GGUF header, read by range request: all its tensors "
                                                "(Ollama llm/llama_server.go mmprojMemoryRequirement)",
                                                r->mmproj_chosen);
      return;
    }
  if (r->gguf == NULL && r->tower_bytes > 0)
    {
      spec->projector_bytes = r->tower_bytes;
      g_free (spec->projector_source);
      spec->projector_source = g_strdup_printf ("the safetensors headers: %u vision/audio tower tensors at the checkpoint's dtype",
                                                r->tower_tensors);
      if (spec->parameters >= r->tower_parameters)
        spec->parameters -= r->tower_parameters;
      if (spec->file_bytes >= r->tower_bytes)
        spec->file_bytes -= r->tower_bytes;
    }
}
