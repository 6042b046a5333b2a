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
#include <string.h>

#include "hr-hub-info.h"
#include "hr-hub-info-private.h"
#include "hr-mmproj.h"
#include "hr-units.h"

/**
 * hr_hub_answers_choose_mmproj:
 * @a: the answers, after the model info
 * @model_path: the GGUF file chosen as the model (hr_hub_answers_choose_gguf())
 *
 * The projector llama.cpp's -hf downloads with @model_path, among the
 * repository's siblings (hr_mmproj_choose_sibling()).
 *
 * Returns: (transfer full) (nullable): its path, or %NULL when the
 *   repository has none.
 */
char *
hr_hub_answers_choose_mmproj (HrHubAnswers *a,
                              const char   *model_path)
{
  if (a->siblings == NULL)
    return NULL;
  return hr_mmproj_choose_sibling ((const char * const *) a->siblings->pdata, a->siblings->len, model_path);
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
