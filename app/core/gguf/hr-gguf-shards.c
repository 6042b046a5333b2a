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
 * cover the whole model (docs/formats.md, "Split GGUF
 * files"). The tensor offsets of @shard are not kept.
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

/**
 * hr_gguf_file_load_model:
 * @path: a GGUF file, or the first shard of a split model
 * @display: (nullable): @path as a person reads it, for messages (%NULL:
 *   @path)
 * @cancellable: (nullable): a #GCancellable
 * @out_split_problem: (out) (optional) (nullable) (transfer full): why the
 *   other shards of a split model could not be summed in (not named like
 *   gguf-split's shards, missing, or not shards of this model), or %NULL
 * @error: return location for a #GError
 *
 * Loads a model's header the way `headroom-cli gguf` and the File page do:
 * a split model's first shard holds the metadata, so the other shards
 * (hr_gguf_split_shard_paths()) are loaded and added
 * (hr_gguf_file_add_shard()) for the tensor figures and the file size to
 * cover the whole model. A missing or unusable shard is no error: the
 * header is returned as the first shard alone, with @out_split_problem
 * saying why.
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set: hr_gguf_file_load()'s errors, or %HR_CORE_ERROR_INVALID_ARGUMENT
 *   for a later shard of a split model (the message names the first
 *   shard to open).
 */
HrGgufFile *
hr_gguf_file_load_model (const char    *path,
                         const char    *display,
                         GCancellable  *cancellable,
                         char         **out_split_problem,
                         GError       **error)
{
  g_autoptr(HrGgufFile) file = NULL;
  g_auto(GStrv) shard_paths = NULL;
  g_autofree char *problem = NULL;
  guint32 split_index = 0, split_count = 0;

  if (out_split_problem != NULL)
    *out_split_problem = NULL;
  if (display == NULL)
    display = path;
  file = hr_gguf_file_load (path, cancellable, error);
  if (file == NULL)
    return NULL;
  if (!hr_gguf_file_get_split (file, &split_index, &split_count))
    return g_steal_pointer (&file);

  if (split_index > 0)
    {
      g_autofree char *suffix = g_strdup_printf ("-%05u-of-%05u.gguf", split_index + 1, split_count);
      g_autofree char *first = NULL;

      if (g_str_has_suffix (display, suffix))
        first = g_strdup_printf ("%.*s-00001-of-%05u.gguf",
                                 (int) (strlen (display) - strlen (suffix)), display, split_count);
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("%s is shard %u of %u of a split model; the model's metadata is in the first shard: open %s"),
                   display, split_index + 1, split_count, first != NULL ? first : _("the first shard"));
      return NULL;
    }

  shard_paths = hr_gguf_split_shard_paths (path, split_count);
  if (shard_paths == NULL)
    problem = g_strdup (_("the file is not named NAME-00001-of-NNNNN.gguf, so its other shards cannot be found"));
  for (guint i = 1; shard_paths != NULL && shard_paths[i] != NULL && problem == NULL; i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(HrGgufFile) shard = hr_gguf_file_load (shard_paths[i], cancellable, &local_error);

      if (shard == NULL || !hr_gguf_file_add_shard (file, shard, &local_error))
        problem = g_strdup (local_error->message);
    }
  if (out_split_problem != NULL)
    *out_split_problem = g_steal_pointer (&problem);
  return g_steal_pointer (&file);
}
