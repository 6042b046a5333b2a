/* fuzz-hf-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for the Hugging Face small-file parsers: config.json
 * (and the derived parameter count and model spec), tokenizer_config.json,
 * generation_config.json, a LICENSE file, the base-or-instruct evidence and
 * the name parsers. Any bytes must give a result or an HR_CORE_ERROR, never
 * a crash, a leak or undefined behaviour. Built with clang only when
 * -Dfuzzing=true; the seeds are corpus-hf-config/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHfConfig) config = NULL;
  g_autoptr(HrHfTokenizerConfig) tokenizer = NULL;
  g_autoptr(HrHfGenerationConfig) generation = NULL;
  g_autoptr(HrHfLicenseFile) license = NULL;
  g_autoptr(HrHfKindEvidence) kind = NULL;
  g_autofree char *name = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *revision = NULL;
  g_autofree char *label = NULL;
  guint part, parts;

  config = hr_hf_config_parse (text, size, &error);
  if (config == NULL)
    {
      g_assert_true (error != NULL && error->domain == HR_CORE_ERROR);
      g_clear_error (&error);
    }
  else
    {
      HrHfParameterCount count;
      g_autoptr(HrModelSpec) spec = NULL;

      g_assert_cmpuint (config->layers, >, 0);
      g_assert_cmpuint (config->kv_heads, <=, config->heads);
      if (hr_hf_config_count_parameters (config, &count, &error))
        {
          g_autofree char *difference = hr_hf_parameters_describe_difference (count.total, config->layers);

          g_assert_cmpuint (count.active, <=, count.total);
          g_assert_nonnull (difference);
          hr_hf_parameters_relative_difference (count.total, config->layers);
        }
      else
        g_clear_error (&error);
      spec = hr_hf_config_to_model_spec (config, "fuzz/model", "hf:fuzz/model@0", &error);
      g_assert_nonnull (spec);
      hr_model_spec_validate (spec, NULL);
      hr_model_spec_kv_elements_per_token (spec);
      hr_hf_config_precision (config);
      g_assert_nonnull (config->tied_source);
      hr_hf_config_settle_tied (config, TRUE);
      g_assert_false (config->tied_embeddings);
    }

  tokenizer = hr_hf_tokenizer_config_parse (text, size, NULL);
  generation = hr_hf_generation_config_parse (text, size, NULL);
  license = hr_hf_license_file_read (text, size);
  g_assert_nonnull (license);
  kind = hr_hf_kind_evidence ("fuzz/model-Instruct", NULL, NULL, tokenizer, generation);
  g_assert_nonnull (kind);

  /* Names: the input as a repository id and as a GGUF file name. */
  name = g_strndup (text, MIN (size, 1024));
  if (hr_hf_repo_parse (name, &repo, &revision, NULL))
    g_assert_nonnull (strchr (repo, '/'));
  label = hr_hf_gguf_quant_label (name);
  hr_hf_gguf_split_part (name, &part, &parts);
  {
    /* The input's lines as a repository's file list. */
    g_auto(GStrv) lines = g_strsplit (name, "\n", 64);
    guint n = g_strv_length (lines);
    g_autofree guint64 *sizes = g_new0 (guint64, n + 1);
    g_autoptr(GPtrArray) groups = NULL;

    for (guint i = 0; i < n; i++)
      sizes[i] = (guint64) strlen (lines[i]) << 32;
    groups = hr_hf_gguf_group_files ((const char * const *) lines, sizes, n);
    for (guint i = 0; i < groups->len; i++)
      {
        const HrHfGgufGroup *g = g_ptr_array_index (groups, i);

        g_assert_cmpuint (g->parts_found, <=, g->parts);
        g_assert_true (g->complete == (g->problem == NULL));
      }
  }
  hr_hf_license_tag_is_open (name);
  return 0;
}
