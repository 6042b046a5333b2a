/* hr-gguf-tensors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A parsed GGUF header's accessors: version, layout, metadata lookups, the
 * tensor list and its sums per ggml type, and the split-model keys.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-private.h"
#include "hr-precision.h"
#include "hr-units.h"

/**
 * hr_gguf_file_get_version:
 * @file: a parsed header
 *
 * Returns: the GGUF version, 2 or 3.
 */
guint32
hr_gguf_file_get_version (const HrGgufFile *file)
{
  return file->version;
}

/**
 * hr_gguf_file_get_alignment:
 * @file: a parsed header
 *
 * Returns: the tensor data alignment in bytes: `general.alignment`, or 32
 *   when absent (GGUF spec).
 */
guint64
hr_gguf_file_get_alignment (const HrGgufFile *file)
{
  return file->alignment;
}

/**
 * hr_gguf_file_get_header_bytes:
 * @file: a parsed header
 *
 * Returns: the bytes from the magic to the end of the tensor list.
 */
guint64
hr_gguf_file_get_header_bytes (const HrGgufFile *file)
{
  return file->header_bytes;
}

/**
 * hr_gguf_file_get_data_offset:
 * @file: a parsed header
 *
 * Returns: the file offset of the tensor data: the header size rounded up
 *   to the alignment. Tensor offsets count from here.
 */
guint64
hr_gguf_file_get_data_offset (const HrGgufFile *file)
{
  return file->data_offset;
}

/**
 * hr_gguf_file_get_file_bytes:
 * @file: a parsed header
 *
 * Returns: the size of the whole file in bytes, or 0 when unknown (parsed
 *   from a stream or from memory and not set).
 */
guint64
hr_gguf_file_get_file_bytes (const HrGgufFile *file)
{
  return file->file_bytes;
}

/**
 * hr_gguf_file_set_file_bytes:
 * @file: a parsed header
 * @file_bytes: the size of the whole file in bytes (a Content-Range total,
 *   a manifest's layer size)
 *
 * Records the file's size for the effective bits per parameter.
 */
void
hr_gguf_file_set_file_bytes (HrGgufFile *file,
                             guint64     file_bytes)
{
  file->file_bytes = file_bytes;
  hr_gguf_file_size_unknown_tensors (file);
}

/**
 * hr_gguf_file_get_n_metadata:
 * @file: a parsed header
 *
 * Returns: the number of metadata key/values.
 */
guint
hr_gguf_file_get_n_metadata (const HrGgufFile *file)
{
  return file->keys->len;
}

/**
 * hr_gguf_file_get_metadata:
 * @file: a parsed header
 * @index: 0-based, in file order
 * @out_key: (out) (optional) (transfer none): the key
 *
 * Returns: (transfer none): the value of metadata entry @index.
 */
const HrGgufValue *
hr_gguf_file_get_metadata (const HrGgufFile  *file,
                           guint              index,
                           const char       **out_key)
{
  g_return_val_if_fail (index < file->keys->len, NULL);

  if (out_key != NULL)
    *out_key = g_ptr_array_index (file->keys, index);
  return g_ptr_array_index (file->values, index);
}

/**
 * hr_gguf_file_lookup:
 * @file: a parsed header
 * @key: a metadata key ("llama.block_count")
 *
 * Returns: (nullable) (transfer none): the value, or %NULL when absent.
 */
const HrGgufValue *
hr_gguf_file_lookup (const HrGgufFile *file,
                     const char       *key)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (file->key_index, key));

  if (index == 0)
    return NULL;
  return g_ptr_array_index (file->values, index - 1);
}

/**
 * hr_gguf_file_get_string:
 * @file: a parsed header
 * @key: a metadata key
 *
 * Returns: (nullable) (transfer none): the STRING value of @key, or %NULL
 *   when absent or of another type.
 */
const char *
hr_gguf_file_get_string (const HrGgufFile *file,
                         const char       *key)
{
  const HrGgufValue *value = hr_gguf_file_lookup (file, key);

  return value != NULL ? hr_gguf_value_get_string (value, NULL) : NULL;
}

/**
 * hr_gguf_file_get_uint:
 * @file: a parsed header
 * @key: a metadata key
 * @out_value: (out): the value
 *
 * Returns: %TRUE when @key holds a non-negative integer of any width.
 */
gboolean
hr_gguf_file_get_uint (const HrGgufFile *file,
                       const char       *key,
                       guint64          *out_value)
{
  const HrGgufValue *value = hr_gguf_file_lookup (file, key);

  return value != NULL && value->type != HR_GGUF_TYPE_BOOL &&
         hr_gguf_value_get_uint64 (value, out_value);
}

/**
 * hr_gguf_file_get_n_tensors:
 * @file: a parsed header
 *
 * Returns: the number of tensors in this file.
 */
guint
hr_gguf_file_get_n_tensors (const HrGgufFile *file)
{
  return file->tensors->len;
}

/**
 * hr_gguf_file_get_tensor:
 * @file: a parsed header
 * @index: 0-based, in file order
 *
 * Returns: (transfer none): the tensor's name, type, shape, element count
 *   and exact bytes (hr_ggml_tensor_bytes()).
 */
const HrTensorInfo *
hr_gguf_file_get_tensor (const HrGgufFile *file,
                         guint             index)
{
  g_return_val_if_fail (index < file->tensors->len, NULL);
  return g_ptr_array_index (file->tensors, index);
}

/**
 * hr_gguf_file_get_tensor_offset:
 * @file: a parsed header
 * @index: 0-based, in file order
 *
 * Returns: the tensor's offset in bytes from the start of the tensor data
 *   (hr_gguf_file_get_data_offset()); G_MAXUINT64 for a tensor added from
 *   another shard (hr_gguf_file_add_shard()).
 */
guint64
hr_gguf_file_get_tensor_offset (const HrGgufFile *file,
                                guint             index)
{
  g_return_val_if_fail (index < file->offsets->len, 0);
  return g_array_index (file->offsets, guint64, index);
}

/**
 * hr_gguf_file_get_tensor_bytes:
 * @file: a parsed header
 *
 * Returns: the exact bytes of all tensors, summed from their ggml block
 *   sizes (padding between tensors not included).
 */
guint64
hr_gguf_file_get_tensor_bytes (const HrGgufFile *file)
{
  return file->tensor_bytes;
}

/**
 * hr_gguf_file_get_tensor_data_end:
 * @file: a parsed header
 *
 * Returns: the file offset where the last tensor's data ends; a file
 *   shorter than this is incomplete (or a header-only copy).
 */
guint64
hr_gguf_file_get_tensor_data_end (const HrGgufFile *file)
{
  return file->tensor_data_end;
}

/**
 * hr_gguf_file_get_parameters:
 * @file: a parsed header
 *
 * There is no parameter-count key in the GGUF spec: the count is the sum of
 * every tensor's elements (docs/formats.md, "Tensor sizes"). For a split file it
 * covers this shard only.
 *
 * Returns: the parameter count.
 */
guint64
hr_gguf_file_get_parameters (const HrGgufFile *file)
{
  return file->parameters;
}

/**
 * hr_gguf_file_count_tensors_of_type:
 * @file: a parsed header
 * @ggml_type: a ggml type id (#HrGgmlType)
 * @out_bytes: (out) (optional): the exact bytes of those tensors
 *
 * Returns: how many tensors are stored as @ggml_type.
 */
guint
hr_gguf_file_count_tensors_of_type (const HrGgufFile *file,
                                    guint32           ggml_type,
                                    guint64          *out_bytes)
{
  guint count = 0;
  guint64 bytes = 0;

  for (guint i = 0; i < file->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (file->tensors, i);

      if (info->type == ggml_type)
        {
          count++;
          bytes += info->bytes; /* cannot overflow: the total did not */
        }
    }
  if (out_bytes != NULL)
    *out_bytes = bytes;
  return count;
}

/**
 * hr_gguf_file_get_split:
 * @file: a parsed header
 * @out_index: (out) (optional): this shard, 0-based (`split.no`)
 * @out_count: (out) (optional): the number of shards (`split.count`)
 *
 * Split files (`NAME-00001-of-00003.gguf`, from llama.cpp's gguf-split)
 * carry the metadata in the first shard and tensors in every shard; their
 * tensor figures must be summed across shards.
 *
 * Returns: %TRUE when the file is one shard of a split model with more than
 *   one shard.
 */
gboolean
hr_gguf_file_get_split (const HrGgufFile *file,
                        guint32          *out_index,
                        guint32          *out_count)
{
  guint64 count = 0, index = 0;

  if (!hr_gguf_file_get_uint (file, "split.count", &count) || count <= 1)
    return FALSE;
  hr_gguf_file_get_uint (file, "split.no", &index);
  if (out_index != NULL)
    *out_index = (guint32) MIN (index, G_MAXUINT32);
  if (out_count != NULL)
    *out_count = (guint32) MIN (count, G_MAXUINT32);
  return TRUE;
}

static gint
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/**
 * hr_gguf_file_size_unknown_tensors:
 * @file: a parsed file
 *
 * Sizes the tensors whose ggml type this version does not know from the
 * layout: up to the next tensor's offset (padding to the alignment
 * included, so at most alignment - 1 bytes over), or for the last tensor up
 * to the end of the file when its size is known; otherwise the tensor is
 * counted in n_unsized with 0 bytes. tensor_bytes and tensor_data_end are
 * brought up to date. Idempotent: called after parsing and whenever the
 * file size becomes known.
 */
void
hr_gguf_file_size_unknown_tensors (HrGgufFile *file)
{
  guint64 total = file->known_tensor_bytes;
  g_autoptr(GArray) sorted = NULL;

  if (file->n_unknown_types == 0)
    return;
  sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint64), file->offsets->len);
  g_array_append_vals (sorted, file->offsets->data, file->offsets->len);
  g_array_sort (sorted, compare_u64);
  file->n_unsized = 0;
  for (guint i = 0; i < file->tensors->len; i++)
    {
      HrTensorInfo *info = g_ptr_array_index (file->tensors, i);
      guint64 offset = g_array_index (file->offsets, guint64, i);
      guint64 next = G_MAXUINT64;

      if (hr_ggml_type_info (info->type) != NULL)
        continue;
      {
        /* The first offset above this one (binary search). */
        guint lo = 0, hi = sorted->len;

        while (lo < hi)
          {
            guint mid = lo + (hi - lo) / 2;

            if (g_array_index (sorted, guint64, mid) <= offset)
              lo = mid + 1;
            else
              hi = mid;
          }
        if (lo < sorted->len)
          next = g_array_index (sorted, guint64, lo);
      }
      if (next == G_MAXUINT64 && file->file_bytes > file->data_offset &&
          file->file_bytes - file->data_offset > offset)
        next = file->file_bytes - file->data_offset;
      if (next == G_MAXUINT64)
        {
          info->bytes = 0;
          file->n_unsized++;
          continue;
        }
      info->bytes = next - offset;
      total = total + info->bytes < total ? G_MAXUINT64 : total + info->bytes;
      file->tensor_data_end = MAX (file->tensor_data_end, file->data_offset + next);
    }
  file->tensor_bytes = total;
}

/**
 * hr_gguf_file_get_unknown_tensors:
 * @file: a parsed file
 * @out_unsized: (out) (optional): how many of them have no known size
 *
 * Tensors whose ggml type this version does not know are kept (their
 * element count is in the parameter count) and sized from the layout
 * (hr_gguf_file_size_unknown_tensors()); the rest of the file is read as
 * usual.
 *
 * Returns: how many tensors have an unknown ggml type.
 */
guint
hr_gguf_file_get_unknown_tensors (const HrGgufFile *file,
                                  guint            *out_unsized)
{
  g_return_val_if_fail (file != NULL, 0);

  if (out_unsized != NULL)
    *out_unsized = file->n_unsized;
  return file->n_unknown_types;
}
