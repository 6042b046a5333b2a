/* test-precision.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Precisions and the exact ggml block sizes (docs/formats.md "Tensor sizes";
 * docs/seed-figures.md "Units").
 */
#include "config.h"

#include "hr-error.h"
#include "hr-precision.h"

static void
test_precision_bits (void)
{
  static const struct { const char *id; double bits; } cases[] = {
    /* seed week 4 */
    { "fp32", 32 }, { "fp16", 16 }, { "bf16", 16 }, { "int8", 8 }, { "int4", 4 },
    /* seed Running Larger Models, whole-file averages */
    { "q4_K_M", 4.6 }, { "q5_K_M", 5.6 }, { "q8_0", 8.5 }, { "f16", 16.0 },
    /* case-insensitive */
    { "Q4_K_M", 4.6 }, { "BF16", 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const HrPrecision *p = hr_precision_lookup (cases[i].id);
      g_assert_nonnull (p);
      g_assert_cmpfloat (p->bits_per_weight, ==, cases[i].bits);
      g_assert_nonnull (p->source);
    }
  /* every llama.cpp file type label the GGUF parser can produce is known,
   * so a GGUF of any common type can be sized and added to the catalog */
  for (guint32 ft = 0; ft < 40; ft++)
    {
      const char *label = hr_ggml_file_type_label (ft);
      /* F32 is the fp32 precision (the GGUF parser maps it); TQ1_0 and
       * TQ2_0 are ternary types Headroom does not size */
      if (label != NULL && ft != 0 && ft != 36 && ft != 37)
        g_assert_nonnull (hr_precision_lookup (label));
    }
  g_assert_cmpfloat (hr_precision_lookup ("Q3_K_M")->bits_per_weight, ==, 3.4375);
  g_assert_cmpfloat (hr_precision_lookup ("IQ4_XS")->bits_per_weight, ==, 4.25);
  g_assert_true (hr_precision_lookup ("q4_K_M")->whole_file);
  g_assert_false (hr_precision_lookup ("int4")->whole_file);
  g_assert_null (hr_precision_lookup ("int3"));
  g_assert_null (hr_precision_lookup (NULL));
}

static void
test_precision_ggml_blocks (void)
{
  /* weights per block / bytes per block, from the GGUF spec table. */
  static const struct { const char *name; guint32 id, w, b; } cases[] = {
    { "F32", 0, 1, 4 }, { "F16", 1, 1, 2 }, { "BF16", 30, 1, 2 },
    { "Q4_0", 2, 32, 18 }, { "Q4_1", 3, 32, 20 }, { "Q5_0", 6, 32, 22 }, { "Q5_1", 7, 32, 24 },
    { "Q8_0", 8, 32, 34 }, { "Q2_K", 10, 256, 84 }, { "Q3_K", 11, 256, 110 },
    { "Q4_K", 12, 256, 144 }, { "Q5_K", 13, 256, 176 }, { "Q6_K", 14, 256, 210 },
    { "Q8_K", 15, 256, 292 }, { "IQ2_XXS", 16, 256, 66 }, { "IQ2_XS", 17, 256, 74 },
    { "IQ3_XXS", 18, 256, 98 }, { "IQ1_S", 19, 256, 50 }, { "IQ4_NL", 20, 32, 18 },
    { "IQ3_S", 21, 256, 110 }, { "IQ2_S", 22, 256, 82 }, { "IQ4_XS", 23, 256, 136 },
    { "IQ1_M", 29, 256, 56 }, { "MXFP4", 39, 32, 17 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const HrGgmlTypeInfo *info = hr_ggml_type_info (cases[i].id);
      g_assert_nonnull (info);
      g_assert_cmpstr (info->name, ==, cases[i].name);
      g_assert_cmpuint (info->block_weights, ==, cases[i].w);
      g_assert_cmpuint (info->block_bytes, ==, cases[i].b);
      g_assert_true (hr_ggml_type_info_by_name (cases[i].name) == info);
    }
  g_assert_null (hr_ggml_type_info (4));
  g_assert_null (hr_ggml_type_info (5));
  g_assert_null (hr_ggml_type_info (1000));
}

static void
test_precision_tensor_bytes (void)
{
  g_autoptr(GError) error = NULL;
  guint64 elements, bytes;
  /* llama3.2:3b's token embedding, Q6_K: 3072 x 128256 (docs/seed-figures.md: 308.23 MiB). */
  guint64 embd[] = { 3072, 128256 };
  guint64 bad_row[] = { 100, 2 };
  guint64 huge[] = { G_GUINT64_CONSTANT (1) << 40, G_GUINT64_CONSTANT (1) << 40 };

  g_assert_true (hr_ggml_tensor_bytes (HR_GGML_TYPE_Q6_K, embd, 2, &elements, &bytes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (elements, ==, 394002432);
  g_assert_cmpuint (bytes, ==, G_GUINT64_CONSTANT (3072) / 256 * 210 * 128256);
  g_assert_cmpfloat_with_epsilon (bytes / 1048576.0, 308.23, 0.005);

  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_Q4_K, bad_row, 2, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "a Q4_K tensor row of 100 weights is not a whole number of 256-weight blocks");
  g_clear_error (&error);

  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, huge, 2, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW);
  g_clear_error (&error);

  g_assert_false (hr_ggml_tensor_bytes (77, embd, 2, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "unknown ggml tensor type 77");
  g_clear_error (&error);

  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, embd, 5, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
}

static void
test_precision_file_type_labels (void)
{
  g_assert_cmpstr (hr_ggml_file_type_label (15), ==, "Q4_K_M");
  g_assert_cmpstr (hr_ggml_file_type_label (2), ==, "Q4_0");
  g_assert_cmpstr (hr_ggml_file_type_label (32), ==, "BF16");
  g_assert_null (hr_ggml_file_type_label (4));
  g_assert_null (hr_ggml_file_type_label (9999));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/precision/bits", test_precision_bits);
  g_test_add_func ("/precision/ggml-blocks", test_precision_ggml_blocks);
  g_test_add_func ("/precision/tensor-bytes", test_precision_tensor_bytes);
  g_test_add_func ("/precision/file-type-labels", test_precision_file_type_labels);
  return g_test_run ();
}
