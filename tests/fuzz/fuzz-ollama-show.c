/* fuzz-ollama-show.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for Ollama's /api/show answer mapped to a model spec
 * (hr-ollama-show.c), the JSON source of the one GGUF key mapper
 * (hr-gguf-keys.c). Any bytes must give a spec within the mapper's limits
 * or an HR_CORE_ERROR, never a crash, a leak, a critical or undefined
 * behaviour. Built with clang only when -Dfuzzing=true; the seeds are
 * corpus-ollama-show/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "hr-error.h"
#include "hr-gguf-keys.h"
#include "hr-ollama-show.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = NULL;
  const HrModelSpec *spec;

  if (size > G_MAXSSIZE || !json_parser_load_from_data (parser, (const char *) data, (gssize) size, NULL))
    return 0;
  show = hr_ollama_show_parse (json_parser_get_root (parser), "fuzz:1", &error);
  if (show == NULL)
    {
      g_assert_true (error != NULL && error->domain == HR_CORE_ERROR);
      return 0;
    }
  spec = show->spec;
  g_assert_cmpuint (spec->layers, <=, HR_MODEL_SPEC_MAX_LAYERS);
  if (spec->layer_kv_heads != NULL)
    g_assert_cmpuint (spec->layer_kv_heads->len, ==, spec->layers);
  if (spec->layer_sliding != NULL)
    g_assert_cmpuint (spec->layer_sliding->len, ==, spec->layers);
  g_assert_true (show->n_tensors == 0 || spec->tensors != NULL);
  return 0;
}
