/* hr-gguf-shards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split models (llama.cpp's gguf-split): the shards' names, summing the
 * later shards into the first, and loading a whole split model.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-private.h"
#include "hr-precision.h"
#include "hr-units.h"

/**
 * hr_gguf_split_shard_paths:
 * @path: the first shard of a split model, `NAME-00001-of-00003.gguf`
 * @count: the number of shards (`split.count`)
 *
 * Names every shard the way llama.cpp's gguf-split does
 * (`PREFIX-%05d-of-%05d.gguf`, examples/gguf-split), from the first.
 *
 * Returns: (transfer full) (nullable): @count paths, the first being
 *   @path, or %NULL when @path is not named like a first shard of @count.
 */
char **
hr_gguf_split_shard_paths (const char *path,
                           guint32     count)
{
  g_autofree char *suffix = NULL;
  g_autofree char *prefix = NULL;
  GPtrArray *paths;

  if (count < 2 || count > 99999)
    return NULL;
  suffix = g_strdup_printf ("-00001-of-%05u.gguf", count);
  if (!g_str_has_suffix (path, suffix))
    return NULL;
  prefix = g_strndup (path, strlen (path) - strlen (suffix));
  paths = g_ptr_array_new ();
  for (guint32 i = 1; i <= count; i++)
    g_ptr_array_add (paths, g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, i, count));
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

/**
 * hr_gguf_file_add_shard:
 * @file: the first shard of a split model (it holds the metadata)
 * @shard: another shard of the same model
 * @error: return location for a #GError
 *
 * Adds @shard's tensors to @file's list and its size to @file's, so the
 * parameter count, the tensor bytes, the counts per type and the file size
 * cover the whole model (hf-hub.md, GGUF quirks: split files "must be
 * summed"). The tensor offsets of @shard are not kept.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_DATA when @shard is
 *   not a shard of a model with @file's shard count or repeats a tensor
 *   name, %HR_CORE_ERROR_LIMIT past %HR_GGUF_MAX_TENSOR_COUNT tensors in
 *   all, %HR_CORE_ERROR_OVERFLOW when a sum does not fit 64 bits.
 */
gboolean
hr_gguf_file_add_shard (HrGgufFile        *file,
                        const HrGgufFile  *shard,
                        GError           **error)
{
  guint32 count = 0, shard_count = 0, shard_index = 0;
  guint64 parameters = file->parameters, bytes = file->tensor_bytes, file_bytes = file->file_bytes;

  if (!hr_gguf_file_get_split (file, NULL, &count) ||
      !hr_gguf_file_get_split (shard, &shard_index, &shard_count) ||
      shard_count != count || shard_index == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the file is not a later shard of this %u-shard model (its split.no and split.count do not match)"),
                   count);
      return FALSE;
    }
  if ((guint64) file->tensors->len + shard->tensors->len > HR_GGUF_MAX_TENSOR_COUNT)
    {
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_TENSOR_COUNT);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the shards hold more than %s tensors in all"), max);
      return FALSE;
    }
  if (!hr_add_u64 (parameters, shard->parameters, &parameters) ||
      !hr_add_u64 (bytes, shard->tensor_bytes, &bytes) ||
      !hr_add_u64 (file_bytes, shard->file_bytes, &file_bytes))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("the shards' sizes add up past 64 bits"));
      return FALSE;
    }

  if (file->tensor_names == NULL)
    {
      file->tensor_names = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < file->tensors->len; i++)
        g_hash_table_add (file->tensor_names, ((HrTensorInfo *) g_ptr_array_index (file->tensors, i))->name);
    }
  for (guint i = 0; i < shard->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (shard->tensors, i);

      if (g_hash_table_contains (file->tensor_names, info->name))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("the tensor “%s” is in two shards"), info->name);
          return FALSE;
        }
    }
  for (guint i = 0; i < shard->tensors->len; i++)
    {
      HrTensorInfo *copy = hr_tensor_info_copy (g_ptr_array_index (shard->tensors, i));
      guint64 none = G_MAXUINT64;

      g_ptr_array_add (file->tensors, copy);
      g_array_append_val (file->offsets, none);
      g_hash_table_add (file->tensor_names, copy->name);
    }
  file->parameters = parameters;
  file->tensor_bytes = bytes;
  file->file_bytes = file_bytes;
  file->n_shards++;
  return TRUE;
}

/**
 * hr_gguf_file_get_n_shards:
 * @file: a parsed header
 *
 * Returns: 1, plus one for each shard added with hr_gguf_file_add_shard().
 */
guint
hr_gguf_file_get_n_shards (const HrGgufFile *file)
{
  return file->n_shards;
}
