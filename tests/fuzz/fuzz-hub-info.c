/* fuzz-hub-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for the Hub's answer mapping (hr-hub-info.c): the
 * input as the model info, a tree page, and as each small
 * file of the second step, then the whole lookup assembled and finished.
 * Any bytes must give a result or an HR_CORE_ERROR, never a crash, a leak
 * or undefined behaviour. Built with clang only when -Dfuzzing=true; the
 * seeds are corpus-hub-info/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hub-info.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  g_autoptr(HrHubAnswers) a = hr_hub_answers_new ("fuzz/model", "main");
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *gguf = NULL;

  if (!hr_hub_answers_read_model_info (a, "https://hub.example", text, size, &error))
    {
      g_assert_true (error != NULL && error->domain == HR_CORE_ERROR);
      g_clear_error (&error);
    }
  else
    {
      g_assert_cmpuint (strlen (a->result->sha), ==, 40);
      gguf = hr_hub_answers_choose_gguf (a);
      hr_hub_answers_read_gguf_field (a);
      hr_hub_answers_license_sibling (a);
    }
  if (!hr_hub_answers_read_tree_page (a, text, size, &error))
    {
      g_assert_true (error != NULL && error->domain == HR_CORE_ERROR);
      g_clear_error (&error);
    }
  hr_hub_answers_group_files (a);

  a->config = g_bytes_new (data, size);
  a->generation = g_bytes_new (data, size);
  a->tokenizer = g_bytes_new (data, size);
  a->index = g_bytes_new (data, size);
  a->license = g_bytes_new (data, size);
  a->license_path = g_strdup ("LICENSE");
  hr_hub_answers_assemble (a);
  hr_hub_answers_wants_headers (a);

  /* The input as a safetensors header and as a GGUF split's first part
   * and a later one: the sums, reconciliations and shard checks. */
  {
    HrSafetensorsHeader *header = hr_safetensors_header_parse (data, size, NULL);
    HrGgufFile *gguf_file = hr_gguf_file_parse_data (data, size, NULL);

    if (header != NULL)
      {
        a->headers = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_safetensors_header_free);
        g_ptr_array_add (a->headers, header);
      }
    if (gguf_file != NULL && a->result->gguf == NULL)
      {
        g_auto(GStrv) shards = NULL;

        a->result->gguf = gguf_file;
        g_free (a->result->gguf_chosen);
        a->result->gguf_chosen = g_strdup ("fuzz-00001-of-00002.gguf");
        shards = hr_hub_answers_gguf_shard_paths (a);
        a->gguf_shards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gguf_file_unref);
        g_ptr_array_add (a->gguf_shards, hr_gguf_file_ref (gguf_file));
      }
    else if (gguf_file != NULL)
      hr_gguf_file_unref (gguf_file);
  }
  lookup = hr_hub_answers_finish (a, &error);
  if (lookup == NULL)
    g_assert_true (error != NULL && error->domain == HR_CORE_ERROR);
  else
    hr_hub_lookup_weight_precision (lookup);
  return 0;
}
