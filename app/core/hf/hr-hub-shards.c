/* hr-hub-shards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shards of a Hub lookup: which GGUF file's header is read
 * and its split's other parts, whether every safetensors shard's header is
 * read, and their figures summed into the HrHubLookup with the notes where
 * two figures of the Hub disagree. Pure, like hr-hub-info.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hub-info.h"
#include "hr-hub-info-private.h"
#include "hr-json.h"
#include "hr-mmproj.h"
#include "hr-units.h"

/**
 * hr_hub_answers_wants_headers:
 * @a: the answers, after hr_hub_answers_assemble()
 *
 * Whether the lookup reads every safetensors shard's header: when no count
 * was found yet, when the API's per-dtype map counts packed containers
 * (I32, U32, U8: GPTQ/AWQ qweight, mlx, 4-bit), whose parameters only the
 * unpacked shapes give (hr_safetensors_header_parameters()), when the
 * index's weight_map names a vision or audio tower, whose bytes only the
 * headers give (the projector, hr_hub_answers_add_projector()), and when
 * the index's total_size gave the count and config.json's derived count is
 * another, or total_size is one no dtype explains for the API's count (the
 * headers then win, hr_hub_answers_sum_headers()).
 *
 * Returns: %TRUE when the weight files are safetensors and a count is
 *   missing or packed, or the index names tower tensors.
 */
gboolean
hr_hub_answers_wants_headers (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;

  if (r->weight_files->len == 0 ||
      !g_str_has_suffix (((HrHubFile *) g_ptr_array_index (r->weight_files, 0))->path, ".safetensors"))
    return FALSE;
  if (r->parameters == 0 || a->api_packed || a->index_tower_tensors > 0)
    return TRUE;
  /* The count came from the index's total_size alone and config.json's
   * derived count does not confirm it to the parameter, or total_size is
   * no size for the API's count (under 0.05 or over 8 bytes a parameter,
   * as no dtype stores them): the headers say what the shards hold. */
  if (a->has_index_total && !a->api_parameters)
    return !r->has_derived || r->derived.total != r->parameters;
  return a->has_index_total &&
         ((double) a->index_total < 0.05 * (double) r->parameters || (double) a->index_total > 8.0 * (double) r->parameters);
}

/**
 * hr_hub_answers_gguf_shard_paths:
 * @a: the answers, with the chosen GGUF file's header read
 *
 * The later shards of the chosen GGUF file when it is part 1 of a split
 * (llama.cpp's `split.count`, names as gguf-split writes them,
 * hr_gguf_split_shard_paths()), those the model info lists.
 *
 * Returns: (transfer full) (nullable): a %NULL-terminated list of paths,
 *   or %NULL when the file is not split or lists no further shard.
 */
char **
hr_hub_answers_gguf_shard_paths (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) all = NULL;
  guint32 count = 0, index = 0;
  gboolean any = FALSE;

  if (r->gguf == NULL || r->gguf_chosen == NULL ||
      !hr_gguf_file_get_split (r->gguf, &index, &count) || count < 2 || index != 0)
    return NULL;
  all = hr_gguf_split_shard_paths (r->gguf_chosen, count);
  for (guint i = 1; all != NULL && all[i] != NULL; i++)
    if (hr_hub_answers_has_sibling (a, all[i]))
      {
        g_strv_builder_add (builder, all[i]);
        any = TRUE;
      }
  return any ? g_strv_builder_end (builder) : NULL;
}

/**
 * hr_hub_answers_sum_headers: (skip)
 * @a: the answers, after hr_hub_answers_assemble()
 * @sum: every shard's safetensors header, merged (hr_safetensors_header_merge())
 * @n_files: how many shards @sum covers
 *
 * The shards' figures into the result: the parameter count from the
 * unpacked shapes (hr_safetensors_header_parameters() at config.json's
 * quantization bits, 4 when unknown), with a note when the Hub API counted
 * packed containers instead; the tensor bytes, the headers' sum winning
 * over the index's total_size (hr_safetensors_reconcile(), a note when they
 * disagree); without an index, tying settled by the headers' lm_head and
 * the derived count made again.
 */
void
hr_hub_answers_sum_headers (HrHubAnswers        *a,
                            HrSafetensorsHeader *sum,
                            guint                n_files)
{
  HrHubLookup *r = a->result;
  guint bits = r->config != NULL ? r->config->quant_bits : 0;
  guint64 parameters = hr_safetensors_header_parameters (sum, bits);
  g_autofree char *shards = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "the header of %u shard",
                                                          "the headers of %u shards", n_files), n_files);
  char *note = NULL;

  if (a->api_parameters && sum->packed_elements > 0 && r->parameters != parameters)
    {
      g_autofree char *api = hr_format_count (r->parameters);
      g_autofree char *unpacked = hr_format_count (parameters);
      g_autofree char *packed = hr_format_count (sum->packed_elements);

      g_ptr_array_add (r->notes,
                       g_strdup_printf (_("the Hub API counts %s parameters, each packed container as one; "
                                          "unpacking the %s packed elements in %s gives %s; using %s"),
                                        api, packed, shards, unpacked, unpacked));
    }
  r->parameters = parameters;
  r->n_tensors = sum->n_tensors;
  r->tensor_bytes = hr_safetensors_reconcile (a->has_index_total ? a->index_total : 0, sum->data_bytes,
                                              _("model.safetensors.index.json total_size"), shards,
                                              _("bytes"), &note);
  if (note != NULL)
    g_ptr_array_add (r->notes, note);
  if (r->config != NULL && a->index == NULL)
    {
      hr_hf_config_settle_tied (r->config, sum->has_lm_head);
      r->has_derived = hr_hf_config_count_parameters (r->config, &r->derived, NULL);
    }
}

/**
 * hr_hub_answers_add_gguf_shards: (skip)
 * @a: the answers, with the chosen GGUF file's header and its later parts read
 * @error: return location for a #GError
 *
 * Adds the later parts of the chosen split to its first
 * (hr_gguf_file_add_shard()), so the parameters, tensor bytes and file size
 * cover the whole quantization; when `split.count` names more parts than
 * were read, a note says what the figures cover.
 *
 * Returns: %FALSE with %HR_CORE_ERROR_INVALID_DATA when a part does not
 *   belong to the split or repeats a tensor.
 */
gboolean
hr_hub_answers_add_gguf_shards (HrHubAnswers  *a,
                                GError       **error)
{
  HrHubLookup *r = a->result;
  guint32 count = 0;

  r->gguf_parts_read = 1;
  for (guint i = 0; a->gguf_shards != NULL && i < a->gguf_shards->len; i++)
    {
      g_autoptr(GError) local = NULL;

      if (!hr_gguf_file_add_shard (r->gguf, g_ptr_array_index (a->gguf_shards, i), &local))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("The GGUF shards of %s do not add up: %s"), r->gguf_chosen, local->message);
          return FALSE;
        }
      r->gguf_parts_read++;
    }
  if (hr_gguf_file_get_split (r->gguf, NULL, &count) && count > r->gguf_parts_read)
    g_ptr_array_add (r->notes,
                     g_strdup_printf (_("%s is part 1 of %u, and only %u of them are in the repository: "
                                        "the size and parameters cover those"),
                                      r->gguf_chosen, count, r->gguf_parts_read));
  return TRUE;
}

static gint
compare_path (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * hr_hub_answers_choose_gguf:
 * @a: the answers, after the model info
 *
 * The GGUF file whose header the lookup reads: among the siblings ending in
 * ".gguf" (a split model by its first part; no mmproj file,
 * hr_mmproj_path_is_projector()), the first in path order whose
 * quantization label is Q4_K_M, else the first in path order (the tree's
 * sizes are not known yet).
 *
 * Returns: (transfer full) (nullable): its path, or %NULL when the
 *   repository has no GGUF file.
 */
char *
hr_hub_answers_choose_gguf (HrHubAnswers *a)
{
  g_autoptr(GPtrArray) ggufs = g_ptr_array_new ();

  for (guint i = 0; a->siblings != NULL && i < a->siblings->len; i++)
    {
      const char *path = g_ptr_array_index (a->siblings, i);
      guint part, parts;

      if (g_str_has_suffix (path, ".gguf") && !hr_mmproj_path_is_projector (path) &&
          (!hr_hf_gguf_split_part (path, &part, &parts) || part == 1))
        g_ptr_array_add (ggufs, (gpointer) path);
    }
  if (ggufs->len == 0)
    return NULL;
  g_ptr_array_sort (ggufs, compare_path);
  for (guint i = 0; i < ggufs->len; i++)
    {
      g_autofree char *label = hr_hf_gguf_quant_label (g_ptr_array_index (ggufs, i));

      if (g_strcmp0 (label, "Q4_K_M") == 0)
        return g_strdup (g_ptr_array_index (ggufs, i));
    }
  return g_strdup (g_ptr_array_index (ggufs, 0));
}

/**
 * hr_hub_answers_note_unknown_dtypes: (skip)
 * @a: the answers, with the per-dtype counts settled
 *
 * Names every dtype of the per-dtype counts that Headroom has no element
 * size for (hr_safetensors_dtype_bits() is 0) in the result's
 * unknown_dtypes, so such a tensor is never taken for the config's
 * precision without a word: its bytes are the headers'
 * data_offsets, which tile the data but cannot be checked against the
 * shape.
 */
void
hr_hub_answers_note_unknown_dtypes (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  g_autoptr(GString) text = NULL;

  for (guint i = 0; i < r->parameters_by_dtype->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (r->parameters_by_dtype, i);
      g_autofree char *safe = NULL;
      g_autofree char *elements = NULL;
      g_autofree char *bytes = NULL;

      if (hr_safetensors_dtype_bits (d->dtype) != 0)
        continue;
      safe = hr_json_safe_text (d->dtype, -1, HR_JSON_SAFE_SHORT);
      elements = hr_format_count (d->parameters);
      if (text == NULL)
        text = g_string_new (NULL);
      else
        g_string_append (text, "; ");
      if (d->bytes > 0)
        {
          bytes = hr_format_count (d->bytes);
          g_string_append_printf (text, _("%s (%s elements in %s bytes): an element size Headroom does not know, "
                                          "so those bytes are the headers' data_offsets, unchecked"),
                                  safe, elements, bytes);
        }
      else
        g_string_append_printf (text, _("%s (%s elements): an element size Headroom does not know, "
                                        "so their bytes are not known"),
                                safe, elements);
    }
  g_free (r->unknown_dtypes);
  r->unknown_dtypes = text != NULL ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}
