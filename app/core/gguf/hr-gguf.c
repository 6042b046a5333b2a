/* hr-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF header parser. The byte layout is the GGUF specification's
 * (docs/formats.md, "GGUF"):
 *
 *   u32 magic "GGUF", u32 version, u64 tensor_count, u64 metadata_kv_count,
 *   metadata_kv_count x (string key, u32 value type, value),
 *   tensor_count x (string name, u32 n_dims, u64 dims[n_dims], u32 ggml type,
 *                   u64 offset),
 *   padding to general.alignment, tensor data.
 *
 * Strings are u64 length + bytes (no NUL); arrays are u32 element type +
 * u64 count + elements. Everything is little-endian.
 *
 * Arrays are kept as the raw bytes the file holds, plus, for arrays whose
 * elements vary in size (strings, nested arrays), the offset of every
 * HR_GGUF_INDEX_STRIDE-th element. A 128,256-entry vocabulary thus costs
 * its own bytes plus 64 kB of index, and any token is a short walk away.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-parser-private.h"
#include "hr-precision.h"
#include "hr-units.h"

G_DEFINE_BOXED_TYPE (HrGgufFile, hr_gguf_file, hr_gguf_file_ref, hr_gguf_file_unref)


/* ------------------------------------------------------------------------ */
/* The file                                                                 */

/**
 * hr_gguf_file_ref:
 * @file: a parsed header
 *
 * Returns: (transfer full): @file, with one more reference.
 */
HrGgufFile *
hr_gguf_file_ref (HrGgufFile *file)
{
  g_atomic_ref_count_inc (&file->ref_count);
  return file;
}

/**
 * hr_gguf_file_unref:
 * @file: (nullable): a parsed header
 *
 * Drops a reference; frees the header with the last one.
 */
void
hr_gguf_file_unref (HrGgufFile *file)
{
  if (file == NULL || !g_atomic_ref_count_dec (&file->ref_count))
    return;
  g_clear_pointer (&file->keys, g_ptr_array_unref);
  g_clear_pointer (&file->values, g_ptr_array_unref);
  g_clear_pointer (&file->key_index, g_hash_table_unref);
  g_clear_pointer (&file->tensors, g_ptr_array_unref);
  g_clear_pointer (&file->offsets, g_array_unref);
  g_clear_pointer (&file->tensor_names, g_hash_table_unref);
  g_free (file);
}

/**
 * hr_gguf_file_new:
 *
 * Returns: (transfer full): an empty header (version 0, the default
 *   alignment, one shard), for the parser to fill.
 */
HrGgufFile *
hr_gguf_file_new (void)
{
  HrGgufFile *file = g_new0 (HrGgufFile, 1);

  g_atomic_ref_count_init (&file->ref_count);
  file->alignment = HR_GGUF_DEFAULT_ALIGNMENT;
  file->keys = g_ptr_array_new_with_free_func (g_free);
  file->values = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gguf_value_free);
  file->key_index = g_hash_table_new (g_str_hash, g_str_equal);
  file->tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_tensor_info_free);
  file->offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  file->n_shards = 1;
  return file;
}

/* "PK\x03\x04": printable ASCII as is, anything else as \xNN. */
static char *
escape_magic (const guint8 *bytes,
              gsize         n)
{
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < n; i++)
    {
      if (bytes[i] >= 0x20 && bytes[i] < 0x7f && bytes[i] != '\'' && bytes[i] != '\\')
        g_string_append_c (out, (char) bytes[i]);
      else
        g_string_append_printf (out, "\\x%02X", bytes[i]);
    }
  return g_string_free (out, FALSE);
}

/* The first four bytes into @magic; a shorter file is not a GGUF file. */
static gboolean
read_magic (Parser   *p,
            guint8    magic[4],
            GError  **error)
{
  gsize have = 0;

  while (have < 4)
    {
      GError *local_error = NULL;

      if (p->pos < p->len)
        {
          magic[have++] = p->buf[p->pos++];
          continue;
        }
      if (!hr_gguf_parser_refill (p, &local_error))
        {
          if (local_error != NULL)
            {
              g_propagate_error (error, local_error);
              return FALSE;
            }
          if (have == 0)
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
                         _("not a GGUF file: it is empty"));
          else
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
                         g_dngettext (GETTEXT_PACKAGE,
                                      "not a GGUF file: it is only %u byte long",
                                      "not a GGUF file: it is only %u bytes long",
                                      (gulong) have),
                         (guint) have);
          return FALSE;
        }
    }
  return TRUE;
}

/* Checks @magic is "GGUF"; names a big-endian file ("FUGG", reading its
 * version for the message) and shows any other magic escaped. */
static gboolean
check_magic (Parser        *p,
             const guint8   magic[4],
             GError       **error)
{
  g_autofree char *shown = NULL;

  /* A magic written as the number 0x46554747 on a big-endian machine
   * reads "FUGG"; the version after it is big-endian too. */
  if (memcmp (magic, "FUGG", 4) == 0)
    {
      guint32 version_be = 0;

      p->stage = STAGE_COUNTS;
      if (!hr_gguf_read_u32 (p, &version_be, error))
        return FALSE;
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                   _("this GGUF file is big-endian (its magic reads 'FUGG' and its version %u byte-swapped), "
                     "as llama.cpp writes them for s390x: a little-endian llama.cpp will not load it, and "
                     "Headroom reads little-endian GGUF files only"),
                   GUINT32_SWAP_LE_BE (version_be));
      return FALSE;
    }
  if (memcmp (magic, HR_GGUF_MAGIC, 4) == 0)
    return TRUE;
  shown = escape_magic (magic, 4);
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
               _("not a GGUF file: the first four bytes are '%s', expected 'GGUF'"),
               shown);
  return FALSE;
}

/* Refuses a GGUF @version other than 2 or 3: version 1, a byte-swapped
 * (big-endian) one, or one from the future. */
static gboolean
check_version (guint32   version,
               GError  **error)
{
  guint32 swapped = GUINT32_SWAP_LE_BE (version);

  if (version == 2 || version == 3)
    return TRUE;
  if (version == 1)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                 _("GGUF version 1 is not supported (it stored counts in 32 bits); "
                   "convert the file again with a current llama.cpp"));
  else if (swapped >= 1 && swapped <= 3)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                 _("this GGUF file is big-endian (its version reads as %u, which is %u byte-swapped), "
                   "as llama.cpp writes them for s390x: a little-endian llama.cpp will not load it, and "
                   "Headroom reads little-endian GGUF files only"),
                 version, swapped);
  else
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                 _("GGUF version %u is not supported; Headroom reads versions 2 and 3"),
                 version);
  return FALSE;
}

/* Refuses a tensor or metadata count past Headroom's limits. */
static gboolean
check_counts (guint64   n_tensors,
              guint64   n_kv,
              GError  **error)
{
  if (n_tensors > HR_GGUF_MAX_TENSOR_COUNT)
    {
      g_autofree char *n = hr_format_count (n_tensors);
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_TENSOR_COUNT);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the GGUF header claims %s tensors; the limit is %s"), n, max);
      return FALSE;
    }
  if (n_kv > HR_GGUF_MAX_KV_COUNT)
    {
      g_autofree char *n = hr_format_count (n_kv);
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_KV_COUNT);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the GGUF header claims %s metadata entries; the limit is %s"), n, max);
      return FALSE;
    }
  return TRUE;
}

/* The magic, version, tensor count and metadata count. */
static gboolean
parse_preamble (Parser      *p,
                HrGgufFile  *file,
                guint64     *out_n_tensors,
                guint64     *out_n_kv,
                GError     **error)
{
  guint8 magic[4];
  guint32 version;

  p->stage = STAGE_MAGIC;
  if (!read_magic (p, magic, error) || !check_magic (p, magic, error))
    return FALSE;

  p->stage = STAGE_COUNTS;
  if (!hr_gguf_read_u32 (p, &version, error) || !check_version (version, error))
    return FALSE;
  file->version = version;

  return hr_gguf_read_u64 (p, out_n_tensors, error) &&
         hr_gguf_read_u64 (p, out_n_kv, error) &&
         check_counts (*out_n_tensors, *out_n_kv, error);
}

static gboolean
parse_metadata (Parser      *p,
                HrGgufFile  *file,
                guint64      n_kv,
                GError     **error)
{
  p->n_entries = n_kv;
  for (guint64 i = 0; i < n_kv; i++)
    {
      g_autofree char *key = NULL;
      HrGgufValue *value;
      gsize key_length;
      guint32 type;

      p->stage = STAGE_KEY;
      p->entry = i;
      p->key = NULL;
      key = hr_gguf_read_string (p, HR_GGUF_MAX_STRING_LENGTH, &key_length, error);
      if (key == NULL)
        return FALSE;
      if (key_length == 0 || !g_utf8_validate_len (key, key_length, NULL))
        {
          g_autofree char *n = hr_format_count (i + 1);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("metadata entry %s has an empty key or one that is not UTF-8 text"), n);
          return FALSE;
        }
      if (g_hash_table_contains (file->key_index, key))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("the metadata key “%s” appears twice"), key);
          return FALSE;
        }

      p->stage = STAGE_VALUE;
      p->key = key;
      if (!hr_gguf_read_u32 (p, &type, error) ||
          !hr_gguf_check_value_type (p, type, error))
        return FALSE;
      value = hr_gguf_read_value (p, type, error);
      if (value == NULL)
        return FALSE;

      g_ptr_array_add (file->values, value);
      g_hash_table_insert (file->key_index, key, GUINT_TO_POINTER (file->keys->len + 1));
      g_ptr_array_add (file->keys, g_steal_pointer (&key));
      p->key = NULL;
    }
  return TRUE;
}

/* Tensor @i's name, which must be UTF-8 text. */
static char *
read_tensor_name (Parser   *p,
                  guint64   i,
                  GError  **error)
{
  g_autofree char *name = NULL;
  gsize name_length;

  name = hr_gguf_read_string (p, HR_GGUF_MAX_TENSOR_NAME, &name_length, error);
  if (name == NULL)
    return NULL;
  if (!g_utf8_validate_len (name, name_length, NULL))
    {
      g_autofree char *n = hr_format_count (i + 1);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the name of tensor %s is not UTF-8 text"), n);
      return NULL;
    }
  return g_steal_pointer (&name);
}

/* Tensor @name's dimension count and dimensions, and their product in
 * *@out_elements (at most 2^63 - 1). */
static gboolean
read_dims (Parser      *p,
           const char  *name,
           guint32     *out_n_dims,
           guint64      dims[HR_GGUF_MAX_DIMS],
           guint64     *out_elements,
           GError     **error)
{
  guint64 elements = 1;
  guint32 n_dims;

  if (!hr_gguf_read_u32 (p, &n_dims, error))
    return FALSE;
  if (n_dims > HR_GGUF_MAX_DIMS)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("tensor “%s” has %u dimensions; GGUF allows at most %d"),
                   name, n_dims, HR_GGUF_MAX_DIMS);
      return FALSE;
    }
  if (n_dims == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("tensor “%s” has no dimensions"), name);
      return FALSE;
    }
  for (guint32 d = 0; d < n_dims; d++)
    {
      if (!hr_gguf_read_u64 (p, &dims[d], error))
        return FALSE;
      if (dims[d] > G_MAXINT64 || !hr_mul_u64 (elements, dims[d], &elements) || elements > G_MAXINT64)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                       _("tensor “%s” has dimensions whose product does not fit in 63 bits; "
                         "the header is corrupt"),
                       name);
          return FALSE;
        }
    }
  *out_n_dims = n_dims;
  *out_elements = elements;
  return TRUE;
}

/* The tensor's info: a known ggml type's (hr_tensor_info_new() checks the
 * shape against its blocks), or, for a type this version does not know,
 * the element count alone (its bytes come from the layout,
 * hr_gguf_file_size_unknown_tensors()). */
static HrTensorInfo *
new_tensor_info (HrGgufFile     *file,
                 const char     *name,
                 guint32         type,
                 guint32         n_dims,
                 const guint64  *dims,
                 guint64         elements,
                 GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  HrTensorInfo *info;

  if (hr_ggml_type_info (type) == NULL)
    {
      info = g_new0 (HrTensorInfo, 1);
      info->name = g_strdup (name);
      info->type = type;
      info->n_dims = n_dims;
      memcpy (info->dims, dims, n_dims * sizeof (guint64));
      info->elements = elements;
      file->n_unknown_types++;
      return info;
    }
  info = hr_tensor_info_new (name, type, n_dims, dims, &local_error);
  if (info == NULL)
    g_set_error (error, HR_CORE_ERROR, local_error->code,
                 _("tensor “%s”: %s"), name, local_error->message);
  return info;
}

/* One tensor entry (name, dimensions, type, offset) into @file; @names
 * holds the names so far, which must not repeat. */
static gboolean
parse_tensor (Parser      *p,
              HrGgufFile  *file,
              guint64      i,
              GHashTable  *names,
              GError     **error)
{
  g_autofree char *name = NULL;
  HrTensorInfo *info;
  guint64 dims[HR_GGUF_MAX_DIMS] = { 0 };
  guint64 elements, offset;
  guint32 n_dims, type;

  p->entry = i;
  p->key = NULL;
  name = read_tensor_name (p, i, error);
  if (name == NULL)
    return FALSE;
  p->key = name;

  if (!read_dims (p, name, &n_dims, dims, &elements, error) ||
      !hr_gguf_read_u32 (p, &type, error) ||
      !hr_gguf_read_u64 (p, &offset, error))
    return FALSE;
  info = new_tensor_info (file, name, type, n_dims, dims, elements, error);
  if (info == NULL)
    return FALSE;
  g_ptr_array_add (file->tensors, info);
  g_array_append_val (file->offsets, offset);

  if (!g_hash_table_add (names, info->name))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the tensor name “%s” appears twice"), name);
      return FALSE;
    }
  return TRUE;
}

/* The tensor infos after the metadata. */
static gboolean
parse_tensors (Parser      *p,
               HrGgufFile  *file,
               guint64      n_tensors,
               GError     **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  p->n_entries = n_tensors;
  p->stage = STAGE_TENSOR;
  for (guint64 i = 0; i < n_tensors; i++)
    if (!parse_tensor (p, file, i, names, error))
      return FALSE;
  p->key = NULL;
  return TRUE;
}

/* Alignment, data offset, and the tensor sums; checks the tensor offsets. */
static gboolean
finish_layout (HrGgufFile  *file,
               GError     **error)
{
  const HrGgufValue *value = hr_gguf_file_lookup (file, "general.alignment");
  guint64 padded;

  if (value != NULL)
    {
      guint64 alignment;

      if (!hr_gguf_value_get_uint64 (value, &alignment) ||
          value->type == HR_GGUF_TYPE_BOOL ||
          alignment == 0 || (alignment & (alignment - 1)) != 0 ||
          alignment > G_MAXUINT32)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("general.alignment must be a power of two that fits 32 bits; this file's is not"));
          return FALSE;
        }
      file->alignment = alignment;
    }

  if (!hr_add_u64 (file->header_bytes, file->alignment - 1, &padded))
    goto overflow;
  file->data_offset = padded / file->alignment * file->alignment;

  for (guint i = 0; i < file->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (file->tensors, i);
      guint64 offset = g_array_index (file->offsets, guint64, i);
      guint64 end;

      if (offset % file->alignment != 0)
        {
          g_autofree char *at = hr_format_count (offset);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("tensor “%s” starts at data offset %s, which is not a multiple of the alignment (%u bytes)"),
                       info->name, at, (guint) file->alignment);
          return FALSE;
        }
      if (!hr_add_u64 (offset, info->bytes, &end) ||
          !hr_add_u64 (end, file->data_offset, &end) ||
          !hr_add_u64 (file->tensor_bytes, info->bytes, &file->tensor_bytes) ||
          !hr_add_u64 (file->parameters, info->elements, &file->parameters))
        goto overflow;
      file->tensor_data_end = MAX (file->tensor_data_end, end);
    }
  file->known_tensor_bytes = file->tensor_bytes;
  hr_gguf_file_size_unknown_tensors (file);
  return TRUE;

overflow:
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
               _("the tensor offsets and sizes add up past 64 bits; the header is corrupt"));
  return FALSE;
}

HrGgufFile *
parse (Parser  *p,
       GError **error)
{
  g_autoptr(HrGgufFile) file = hr_gguf_file_new ();
  guint64 n_tensors = 0, n_kv = 0;

  if (!parse_preamble (p, file, &n_tensors, &n_kv, error) ||
      !parse_metadata (p, file, n_kv, error) ||
      !parse_tensors (p, file, n_tensors, error))
    return NULL;

  file->header_bytes = hr_gguf_parser_offset (p);
  if (!finish_layout (file, error))
    return NULL;
  return g_steal_pointer (&file);
}

/**
 * hr_gguf_file_parse_stream:
 * @stream: a stream positioned at the first byte of a GGUF file
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads a GGUF header from @stream, in 64 kB reads, and stops at the end
 * of the tensor list: the tensor data is never read (at most 64 kB past
 * the header may be consumed from @stream). The file size is unknown to
 * this call; set it with hr_gguf_file_set_file_bytes(). A tensor of a
 * ggml type this version does not know does not reject the file: it is
 * kept, sized from the next tensor's offset (or the file's end), or counted
 * as of unknown size (hr_gguf_file_get_unknown_tensors()).
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set: %HR_CORE_ERROR_PARSE (wrong magic), %HR_CORE_ERROR_UNSUPPORTED
 *   (version 1, a big-endian file, another version, an undefined value
 *   type), %HR_CORE_ERROR_TRUNCATED (the
 *   input ends inside the header), %HR_CORE_ERROR_LIMIT (a count, length,
 *   nesting depth, dimension count or the header size past the
 *   HR_GGUF_MAX_* caps), %HR_CORE_ERROR_OVERFLOW (dimensions or offsets
 *   whose products or sums overflow), %HR_CORE_ERROR_INVALID_DATA
 *   (duplicate or non-UTF-8 keys and names, a bad alignment, a misaligned
 *   tensor, a row that is not a whole number of blocks), or a #GIOError
 *   from @stream (%G_IO_ERROR_CANCELLED when cancelled).
 */
HrGgufFile *
hr_gguf_file_parse_stream (GInputStream  *stream,
                           GCancellable  *cancellable,
                           GError       **error)
{
  Parser p = { 0 };
  HrGgufFile *file;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p.stream = stream;
  p.cancellable = cancellable;
  file = parse (&p, error);
  g_free (p.owned);
  return file;
}

/**
 * hr_gguf_file_parse_data:
 * @data: (array length=length): the first @length bytes of a GGUF file
 * @length: bytes in @data; a prefix of the file is enough when it holds
 *   the whole header (a Range request's answer, say)
 * @error: return location for a #GError
 *
 * Parses a GGUF header held in memory. @data is not kept.
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set, as for hr_gguf_file_parse_stream() (%HR_CORE_ERROR_TRUNCATED when
 *   @data ends inside the header: fetch more bytes and try again).
 */
HrGgufFile *
hr_gguf_file_parse_data (const guint8  *data,
                         gsize          length,
                         GError       **error)
{
  Parser p = { 0 };

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p.buf = data;
  p.len = length;
  return parse (&p, error);
}

/**
 * hr_gguf_file_load:
 * @path: a GGUF file on disk (an Ollama blob, a llama.cpp download)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads only the header of the file at @path (a 9 GB model costs a few
 * megabytes of reading) and records the file's size.
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set: a #GIOError when the file cannot be opened or read, else as for
 *   hr_gguf_file_parse_stream(); a message names @path.
 */
HrGgufFile *
hr_gguf_file_load (const char    *path,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GFile) gfile = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  HrGgufFile *file;

  stream = g_file_read (gfile, cancellable, error);
  if (stream == NULL)
    return NULL;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                         cancellable, error);
  if (info == NULL)
    return NULL;

  file = hr_gguf_file_parse_stream (G_INPUT_STREAM (stream), cancellable, &local_error);
  if (file == NULL)
    {
      g_autofree char *display = g_filename_display_name (path);

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, local_error->domain, local_error->code,
                     "%s: %s", display, local_error->message);
      return NULL;
    }
  file->file_bytes = (guint64) g_file_info_get_size (info);
  hr_gguf_file_size_unknown_tensors (file);
  return file;
}
