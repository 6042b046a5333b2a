/* fuzz-safetensors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for the safetensors header and index parsers: any
 * bytes must give a header (or index) or an HR_CORE_ERROR, never a crash,
 * a leak or undefined behaviour. The input is tried three ways: as a file
 * start (8-byte length + JSON), as the header JSON alone, and as
 * model.safetensors.index.json. Built with clang only when -Dfuzzing=true;
 * the seeds are corpus-safetensors/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "hr-error.h"
#include "hr-safetensors.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_error (GError *error)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == HR_CORE_ERROR);
  g_assert_nonnull (error->message);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensorsHeader) file = NULL;
  g_autoptr(HrSafetensorsHeader) json = NULL;
  g_autoptr(HrSafetensorsIndex) index = NULL;

  file = hr_safetensors_header_parse (data, size, &error);
  if (file == NULL)
    check_error (error);
  else
    {
      guint64 sum = 0;

      /* The per-dtype totals add up to the header's. */
      for (guint i = 0; i < file->dtypes->len; i++)
        sum += ((HrSafetensorsDtype *) g_ptr_array_index (file->dtypes, i))->parameters;
      g_assert_cmpuint (sum, ==, file->parameters);
      /* Quantization state and packed containers are among the stored elements. */
      g_assert_cmpuint (file->aux_parameters + file->packed_elements, <=, file->parameters);
      hr_safetensors_header_parameters (file, 4);
      hr_safetensors_header_parameters (file, 3);
    }
  g_clear_error (&error);

  json = hr_safetensors_header_parse_json ((const char *) data, size, &error);
  if (json == NULL)
    check_error (error);
  else if (file != NULL)
    {
      /* Merging two headers never overflows silently. */
      if (!hr_safetensors_header_merge (json, file, &error))
        check_error (error);
    }
  g_clear_error (&error);

  index = hr_safetensors_index_parse ((const char *) data, size, &error);
  if (index == NULL)
    check_error (error);
  else
    {
      g_autofree char *note = NULL;

      g_assert_cmpuint (index->shards->len, <=, index->n_tensors);
      hr_safetensors_reconcile (index->total_size, index->n_tensors, "total_size", "tensors", "bytes", &note);
      g_assert_true ((note != NULL) == (index->n_tensors > 0 && index->total_size > 0 &&
                                        index->total_size != index->n_tensors));
    }
  return 0;
}
