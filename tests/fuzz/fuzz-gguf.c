/* fuzz-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for the GGUF header parser: any bytes must give a
 * header or an HR_CORE_ERROR, never a crash, a leak or a huge allocation.
 * A parsed header is walked the way the CLI and the window use it (model
 * spec, tokenizer facts, every metadata value and array element access).
 * Built with clang only when -Dfuzzing=true; the seeds are corpus-gguf/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "hr-error.h"
#include "hr-gguf.h"

static void
walk_value (const HrGgufValue *value,
            guint              depth)
{
  guint64 length = hr_gguf_value_get_array_length (value);
  guint64 u;
  gint64 i;
  double d;
  gboolean b;
  gsize n;

  hr_gguf_value_get_uint64 (value, &u);
  hr_gguf_value_get_int64 (value, &i);
  hr_gguf_value_get_double (value, &d);
  hr_gguf_value_get_boolean (value, &b);
  hr_gguf_value_get_string (value, &n);

  if (length == 0)
    return;
  /* first, last, and one past the end */
  for (guint64 k = 0; k < 3; k++)
    {
      guint64 index = k == 0 ? 0 : k == 1 ? length - 1 : length;
      HrGgufValue *element;

      hr_gguf_value_get_array_uint64 (value, index, &u);
      hr_gguf_value_get_array_int64 (value, index, &i);
      hr_gguf_value_get_array_double (value, index, &d);
      hr_gguf_value_get_array_string (value, index, &n);
      element = hr_gguf_value_dup_array_element (value, index);
      if (element != NULL && depth < 8)
        walk_value (element, depth + 1);
      hr_gguf_value_free (element);
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  HrGgufFile *file = hr_gguf_file_parse_data (data, size, &error);
  HrGgufTokenizer *tok;
  HrModelSpec *spec;

  if (file == NULL)
    {
      g_assert (error != NULL && error->domain == HR_CORE_ERROR);
      g_error_free (error);
      return 0;
    }

  for (guint k = 0; k < hr_gguf_file_get_n_metadata (file); k++)
    walk_value (hr_gguf_file_get_metadata (file, k, NULL), 0);

  hr_gguf_file_set_file_bytes (file, size);
  {
    guint unsized = 0;

    /* Tensors of unknown ggml types are kept, never more unsized than unknown. */
    g_assert_cmpuint (unsized, <=, hr_gguf_file_get_unknown_tensors (file, &unsized));
  }
  tok = hr_gguf_file_get_tokenizer (file);
  hr_gguf_tokenizer_free (tok);

  spec = hr_gguf_file_to_model_spec (file, NULL, "fuzz", &error);
  if (spec == NULL)
    {
      g_assert (error != NULL && error->domain == HR_CORE_ERROR);
      g_clear_error (&error);
    }
  else
    hr_model_spec_kv_elements_per_token (spec);
  hr_model_spec_free (spec);
  hr_gguf_file_get_split (file, NULL, NULL);
  hr_gguf_file_unref (file);
  return 0;
}
