/* fuzz-ollama-manifest.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for the Ollama registry's mapping (hr-ollama-manifest.c)
 * and the GGUF extent walk (hr-gguf-extent.c): the input as a model name,
 * a manifest, a config blob and a registry error body, and as the front of
 * a GGUF file. Any bytes must give a result or an HR_CORE_ERROR, never a
 * crash, a leak or undefined behaviour; and where the GGUF parser reads a
 * header whole, the walk must end exactly where it does, and no prefix may
 * claim to need more than that. Built with clang only when -Dfuzzing=true;
 * the seeds are corpus-ollama-manifest/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-gguf-extent.h"
#include "hr-ollama-manifest.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_extent (const uint8_t *data,
              size_t         size)
{
  g_autoptr(HrGgufFile) file = hr_gguf_file_parse_data (data, size, NULL);
  guint64 end = 0, need = 0, header;

  if (file == NULL)
    {
      hr_gguf_header_extent (data, size, &end, &need);
      return;
    }
  header = hr_gguf_file_get_header_bytes (file);
  g_assert_true (hr_gguf_header_extent (data, size, &end, &need));
  g_assert_cmpuint (end, ==, header);
  for (guint64 n = 0; n < header; n += 1 + header / 16)
    {
      g_assert_false (hr_gguf_header_extent (data, (gsize) n, &end, &need));
      g_assert_cmpuint (need, >, n);
      g_assert_cmpuint (need, <=, header);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(HrOllamaName) name = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaManifest) manifest = NULL;
  g_autoptr(HrOllamaConfig) config = NULL;
  g_autofree char *code = hr_ollama_registry_error_code ((const char *) data, size);

  if (hr_ollama_name_parse (text, &name, &error))
    {
      g_autofree char *display = hr_ollama_name_display (&name);
      g_autofree char *path = hr_ollama_name_path (&name);
    }
  else
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  manifest = hr_ollama_manifest_parse ((const char *) data, size, "fuzz:latest", &error);
  g_assert_true ((manifest != NULL) == (error == NULL));
  g_assert_true (error == NULL || error->domain == HR_CORE_ERROR);
  if (manifest != NULL)
    g_assert_nonnull (manifest->model);
  g_clear_error (&error);

  config = hr_ollama_config_parse ((const char *) data, size, "fuzz:latest", &error);
  g_assert_true ((config != NULL) == (error == NULL));
  g_clear_error (&error);

  check_extent (data, size);
  return 0;
}
