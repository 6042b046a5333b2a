/* hr-hub-assemble.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lookup's second step: the files fetched from the repository
 * (config.json, tokenizer_config.json, generation_config.json, the license
 * file and model.safetensors.index.json) into the HrHubLookup, after the
 * model info (hr-hub-info.c) and before the headers and the spec
 * (hr_hub_answers_finish()).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-hub-info.h"
#include "hr-hub-info-private.h"

/* The index: tensor count and, without the API's figure, the parameters. */
static void
read_index (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;

  if (a->index != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (a->index, &size);
      g_autoptr(HrSafetensorsIndex) index = hr_safetensors_index_parse (data, size, NULL);

      if (index != NULL)
        {
          r->n_tensors = index->n_tensors;
          a->index_tower_tensors = index->tower_tensors;
          if (index->has_total_size)
            {
              r->tensor_bytes = index->total_size;
              a->has_index_total = TRUE;
              a->index_total = index->total_size;
            }
          /* The weight map settles tying. */
          if (r->config != NULL)
            hr_hf_config_settle_tied (r->config, index->has_lm_head);
          if (!a->api_parameters && index->has_total_size && r->config != NULL)
            {
              const char *precision = hr_hf_config_precision (r->config);
              const char *dtype = r->config->dtype;
              guint bytes_per = 0;

              if (g_strcmp0 (precision, "bf16") == 0 || g_strcmp0 (precision, "fp16") == 0)
                bytes_per = 2;
              else if (g_strcmp0 (precision, "fp32") == 0)
                bytes_per = 4;
              if (bytes_per > 0 && r->config->quant_method == NULL &&
                  index->total_size % bytes_per == 0)
                {
                  HrSafetensorsDtype *d = g_new0 (HrSafetensorsDtype, 1);

                  r->parameters = index->total_size / bytes_per;
                  r->parameters_source = g_strdup_printf (_("model.safetensors.index.json total_size / %u bytes (%s)"),
                                                          bytes_per, dtype ? dtype : precision);
                  d->dtype = g_strdup (bytes_per == 4 ? "F32" : g_strcmp0 (precision, "bf16") == 0 ? "BF16" : "F16");
                  d->parameters = r->parameters;
                  d->bytes = index->total_size;
                  g_ptr_array_add (r->parameters_by_dtype, d);
                }
            }
        }
    }
}

/* config.json into r->config: its architecture, model_type, BOS and EOS
 * win over the API's; without it, or when it does not parse, the problem
 * goes to config_problem. */
static void
read_config_answer (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data;

  if (a->config == NULL)
    {
      r->config_problem = g_strdup (_("the repository has no config.json"));
      return;
    }
  data = g_bytes_get_data (a->config, &size);
  r->config = hr_hf_config_parse (data, size, &error);
  if (r->config == NULL)
    {
      r->config_problem = g_strdup (error->message);
      return;
    }
  if (r->config->architecture != NULL)
    {
      g_free (r->architecture);
      r->architecture = g_strdup (r->config->architecture);
    }
  if (r->config->model_type != NULL)
    {
      g_free (r->model_type);
      r->model_type = g_strdup (r->config->model_type);
    }
  if (r->config->bos_token_id >= 0)
    r->bos_token_id = r->config->bos_token_id;
  g_array_append_vals (r->eos_token_ids, r->config->eos_token_ids->data, r->config->eos_token_ids->len);
}

/* tokenizer_config.json's model_max_length; returns the parsed file (or
 * %NULL) for the kind evidence. */
static HrHfTokenizerConfig *
read_tokenizer_answer (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  HrHfTokenizerConfig *tokenizer;
  gsize size;
  const char *data;

  if (a->tokenizer == NULL)
    return NULL;
  data = g_bytes_get_data (a->tokenizer, &size);
  tokenizer = hr_hf_tokenizer_config_parse (data, size, NULL);
  if (tokenizer != NULL && tokenizer->has_model_max_length)
    {
      r->has_tokenizer_max_length = TRUE;
      r->tokenizer_max_length = tokenizer->model_max_length;
    }
  return tokenizer;
}

/* generation_config.json's BOS and EOS, which win (it is what a runtime
 * stops on); returns the parsed file (or %NULL) for the kind evidence. */
static HrHfGenerationConfig *
read_generation_answer (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  HrHfGenerationConfig *generation;
  gsize size;
  const char *data;

  if (a->generation == NULL)
    return NULL;
  data = g_bytes_get_data (a->generation, &size);
  generation = hr_hf_generation_config_parse (data, size, NULL);
  if (generation == NULL)
    return NULL;
  if (generation->bos_token_id >= 0)
    r->bos_token_id = generation->bos_token_id;
  if (generation->eos_token_ids->len > 0)
    {
      g_array_set_size (r->eos_token_ids, 0);
      g_array_append_vals (r->eos_token_ids, generation->eos_token_ids->data,
                           generation->eos_token_ids->len);
    }
  return generation;
}

/* The card's base_model (a string, or the first of a list), or %NULL. */
static const char *
card_base_model (HrHubAnswers *a)
{
  JsonNode *card = a->info != NULL ? json_object_get_member (json_node_get_object (a->info), "cardData") : NULL;
  JsonNode *base = card != NULL && JSON_NODE_HOLDS_OBJECT (card)
                   ? json_object_get_member (json_node_get_object (card), "base_model") : NULL;

  if (base != NULL && JSON_NODE_HOLDS_ARRAY (base) &&
      json_array_get_length (json_node_get_array (base)) > 0)
    base = json_array_get_element (json_node_get_array (base), 0);
  if (base != NULL && JSON_NODE_HOLDS_VALUE (base) && json_node_get_value_type (base) == G_TYPE_STRING)
    return json_node_get_string (base);
  return NULL;
}

/* License: the tag, and the file when the tag is not a known open one. */
static void
read_license (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  g_autoptr(HrHfLicenseFile) file = NULL;
  gsize size;
  const char *data;

  if (hr_hf_license_tag_non_commercial (r->license))
    {
      r->non_commercial = TRUE;
      r->non_commercial_reason = g_strdup_printf (_("the license tag %s is non-commercial"), r->license);
    }
  if (a->license == NULL)
    return;
  data = g_bytes_get_data (a->license, &size);
  file = hr_hf_license_file_read (data, size);
  r->license_file = g_strdup (a->license_path);
  r->license_title = g_strdup (file->title);
  if (file->non_commercial && !r->non_commercial)
    {
      r->non_commercial = TRUE;
      r->non_commercial_reason = g_strdup_printf (_("%s says “%s”"), a->license_path, file->phrase);
    }
}

/**
 * hr_hub_answers_assemble:
 * @a: the answers, after the second step
 *
 * Reads what the second step brought into the result: config.json (the
 * architecture, derived parameter count, BOS/EOS), tokenizer_config.json
 * (model_max_length), generation_config.json (its BOS/EOS win), the card's
 * base_model with the tags for base or instruct, the license tag and file,
 * and the safetensors index (tensor count and bytes; its weight map settles
 * tying, hr_hf_config_settle_tied(); without the API's count, parameters =
 * total_size / bytes per parameter for bf16, fp16 or fp32 weights that are
 * not quantized), then the count derived from config.json. Files that do
 * not parse are as absent; config.json's problem is kept in config_problem.
 */
void
hr_hub_answers_assemble (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  g_autoptr(HrHfTokenizerConfig) tokenizer = NULL;
  g_autoptr(HrHfGenerationConfig) generation = NULL;

  read_config_answer (a);
  tokenizer = read_tokenizer_answer (a);
  generation = read_generation_answer (a);
  r->kind = hr_hf_kind_evidence (r->repo, (const char * const *) r->tags, card_base_model (a), tokenizer, generation);
  read_license (a);
  read_index (a);
  if (r->config != NULL)
    r->has_derived = hr_hf_config_count_parameters (r->config, &r->derived, NULL);
}
