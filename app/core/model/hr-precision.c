/* hr-precision.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "hr-error.h"
#include "hr-precision.h"
#include "hr-units.h"

#define SEED_WEEK4 "seed: From API to GPU, week 4 model_memory.py BITS_PER_PARAMETER"
#define DOMINANT_BLOCK(block) "ggml " block " (ggml-common.h), the file type's dominant tensor type; a lower bound for the whole file"
#define SEED_CATALOG "seed: Running Larger Models, BITS_PER_WEIGHT (a fitted whole-file average)"

/* Ordered from the most bits to the fewest, as the window's slider shows them. */
static const HrPrecision precisions[] = {
  { "fp32",   "FP32",   32.0, FALSE, SEED_WEEK4 },
  { "fp16",   "FP16",   16.0, FALSE, SEED_WEEK4 },
  { "bf16",   "BF16",   16.0, FALSE, SEED_WEEK4 },
  { "f16",    "F16",    16.0, TRUE,  SEED_CATALOG },
  { "q8_0",   "Q8_0",    8.5, TRUE,  SEED_CATALOG },
  { "int8",   "INT8",    8.0, FALSE, SEED_WEEK4 },
  { "q6_K",   "Q6_K",   6.5625, FALSE, "ggml block_q6_K: 210 bytes per 256 weights (ggml-common.h)" },
  { "q5_K_M", "Q5_K_M",  5.6, TRUE,  SEED_CATALOG },
  { "q4_K_M", "Q4_K_M",  4.6, TRUE,  SEED_CATALOG },
  { "q4_0",   "Q4_0",    4.5, FALSE, "ggml block_q4_0: 18 bytes per 32 weights (ggml-common.h)" },
  { "int4",   "INT4",    4.0, FALSE, SEED_WEEK4 },
  /* The other llama.cpp file types (llama.h llama_ftype), sized by the block
   * of the tensor type that dominates them. Real files keep the embedding,
   * the output and some projections wider, so a whole file runs higher:
   * the file's own size, when known, always wins over these. */
  { "q5_1",   "Q5_1",    6.0,   FALSE, DOMINANT_BLOCK ("block_q5_1: 24 bytes per 32 weights") },
  { "q5_0",   "Q5_0",    5.5,   FALSE, DOMINANT_BLOCK ("block_q5_0: 22 bytes per 32 weights") },
  { "q5_K_S", "Q5_K_S",  5.5,   FALSE, DOMINANT_BLOCK ("block_q5_K: 176 bytes per 256 weights") },
  { "q4_1",   "Q4_1",    5.0,   FALSE, DOMINANT_BLOCK ("block_q4_1: 20 bytes per 32 weights") },
  { "q4_K_S", "Q4_K_S",  4.5,   FALSE, DOMINANT_BLOCK ("block_q4_K: 144 bytes per 256 weights") },
  { "iq4_nl", "IQ4_NL",  4.5,   FALSE, DOMINANT_BLOCK ("block_iq4_nl: 18 bytes per 32 weights") },
  { "iq4_xs", "IQ4_XS",  4.25,  FALSE, DOMINANT_BLOCK ("block_iq4_xs: 136 bytes per 256 weights") },
  { "mxfp4_moe", "MXFP4_MOE", 4.25, FALSE, DOMINANT_BLOCK ("block_mxfp4: 17 bytes per 32 weights") },
  { "q3_K_L", "Q3_K_L",  3.4375, FALSE, DOMINANT_BLOCK ("block_q3_K: 110 bytes per 256 weights") },
  { "q3_K_M", "Q3_K_M",  3.4375, FALSE, DOMINANT_BLOCK ("block_q3_K: 110 bytes per 256 weights") },
  { "q3_K_S", "Q3_K_S",  3.4375, FALSE, DOMINANT_BLOCK ("block_q3_K: 110 bytes per 256 weights") },
  { "iq3_s",  "IQ3_S",   3.4375, FALSE, DOMINANT_BLOCK ("block_iq3_s: 110 bytes per 256 weights") },
  { "iq3_m",  "IQ3_M",   3.4375, FALSE, DOMINANT_BLOCK ("block_iq3_s: 110 bytes per 256 weights") },
  { "iq3_xs", "IQ3_XS",  3.0625, FALSE, DOMINANT_BLOCK ("block_iq3_xxs: 98 bytes per 256 weights") },
  { "iq3_xxs", "IQ3_XXS", 3.0625, FALSE, DOMINANT_BLOCK ("block_iq3_xxs: 98 bytes per 256 weights") },
  { "q2_K",   "Q2_K",    2.625, FALSE, DOMINANT_BLOCK ("block_q2_K: 84 bytes per 256 weights") },
  { "q2_K_S", "Q2_K_S",  2.625, FALSE, DOMINANT_BLOCK ("block_q2_K: 84 bytes per 256 weights") },
  { "iq2_s",  "IQ2_S",   2.5625, FALSE, DOMINANT_BLOCK ("block_iq2_s: 82 bytes per 256 weights") },
  { "iq2_m",  "IQ2_M",   2.5625, FALSE, DOMINANT_BLOCK ("block_iq2_s: 82 bytes per 256 weights") },
  { "iq2_xs", "IQ2_XS",  2.3125, FALSE, DOMINANT_BLOCK ("block_iq2_xs: 74 bytes per 256 weights") },
  { "iq2_xxs", "IQ2_XXS", 2.0625, FALSE, DOMINANT_BLOCK ("block_iq2_xxs: 66 bytes per 256 weights") },
  { "iq1_m",  "IQ1_M",   1.75,  FALSE, DOMINANT_BLOCK ("block_iq1_m: 56 bytes per 256 weights") },
  { "iq1_s",  "IQ1_S",   1.5625, FALSE, DOMINANT_BLOCK ("block_iq1_s: 50 bytes per 256 weights") },
};

/* g_ascii_strcasecmp () == 0, inline: the memory math looks a precision up
 * several times for every row on every slider step. */
static inline gboolean
ascii_case_equal (const char *a,
                  const char *b)
{
  for (;; a++, b++)
    {
      char ca = *a >= 'A' && *a <= 'Z' ? *a + ('a' - 'A') : *a;
      char cb = *b >= 'A' && *b <= 'Z' ? *b + ('a' - 'A') : *b;

      if (ca != cb)
        return FALSE;
      if (ca == '\0')
        return TRUE;
    }
}

/**
 * hr_precision_lookup:
 * @id: a precision id such as "q4_K_M" or "bf16" (case-insensitive)
 *
 * Returns: (nullable) (transfer none): the precision, or %NULL when unknown.
 */
const HrPrecision *
hr_precision_lookup (const char *id)
{
  if (id == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (precisions); i++)
    if (ascii_case_equal (precisions[i].id, id))
      return &precisions[i];
  return NULL;
}

/**
 * hr_precision_list:
 * @n_precisions: (out): the number of entries
 *
 * Returns: (transfer none) (array length=n_precisions): every known
 *   precision: the seed's and the common ones first (most bits to fewest),
 *   then the rest of llama.cpp's file types.
 */
const HrPrecision *
hr_precision_list (guint *n_precisions)
{
  *n_precisions = G_N_ELEMENTS (precisions);
  return precisions;
}

/* Block layouts from the GGUF specification and ggml's type_traits
 * (ggml/src/ggml.c, ggml-common.h): weights per block / bytes per block. */
static const HrGgmlTypeInfo ggml_types[] = {
  { HR_GGML_TYPE_F32,       "F32",       1,   4 },
  { HR_GGML_TYPE_F16,       "F16",       1,   2 },
  { HR_GGML_TYPE_Q4_0,      "Q4_0",     32,  18 },
  { HR_GGML_TYPE_Q4_1,      "Q4_1",     32,  20 },
  { HR_GGML_TYPE_Q5_0,      "Q5_0",     32,  22 },
  { HR_GGML_TYPE_Q5_1,      "Q5_1",     32,  24 },
  { HR_GGML_TYPE_Q8_0,      "Q8_0",     32,  34 },
  { HR_GGML_TYPE_Q8_1,      "Q8_1",     32,  36 },
  { HR_GGML_TYPE_Q2_K,      "Q2_K",    256,  84 },
  { HR_GGML_TYPE_Q3_K,      "Q3_K",    256, 110 },
  { HR_GGML_TYPE_Q4_K,      "Q4_K",    256, 144 },
  { HR_GGML_TYPE_Q5_K,      "Q5_K",    256, 176 },
  { HR_GGML_TYPE_Q6_K,      "Q6_K",    256, 210 },
  { HR_GGML_TYPE_Q8_K,      "Q8_K",    256, 292 },
  { HR_GGML_TYPE_IQ2_XXS,   "IQ2_XXS", 256,  66 },
  { HR_GGML_TYPE_IQ2_XS,    "IQ2_XS",  256,  74 },
  { HR_GGML_TYPE_IQ3_XXS,   "IQ3_XXS", 256,  98 },
  { HR_GGML_TYPE_IQ1_S,     "IQ1_S",   256,  50 },
  { HR_GGML_TYPE_IQ4_NL,    "IQ4_NL",   32,  18 },
  { HR_GGML_TYPE_IQ3_S,     "IQ3_S",   256, 110 },
  { HR_GGML_TYPE_IQ2_S,     "IQ2_S",   256,  82 },
  { HR_GGML_TYPE_IQ4_XS,    "IQ4_XS",  256, 136 },
  { HR_GGML_TYPE_I8,        "I8",        1,   1 },
  { HR_GGML_TYPE_I16,       "I16",       1,   2 },
  { HR_GGML_TYPE_I32,       "I32",       1,   4 },
  { HR_GGML_TYPE_I64,       "I64",       1,   8 },
  { HR_GGML_TYPE_F64,       "F64",       1,   8 },
  { HR_GGML_TYPE_IQ1_M,     "IQ1_M",   256,  56 },
  { HR_GGML_TYPE_BF16,      "BF16",      1,   2 },
  { HR_GGML_TYPE_MXFP4,     "MXFP4",    32,  17 },
};

/**
 * hr_ggml_type_info:
 * @type: a ggml type id (#HrGgmlType)
 *
 * Returns: (nullable) (transfer none): the block layout, or %NULL for a type
 *   this table does not know (removed types 4 and 5, or future ones).
 */
const HrGgmlTypeInfo *
hr_ggml_type_info (guint32 type)
{
  for (guint i = 0; i < G_N_ELEMENTS (ggml_types); i++)
    if (ggml_types[i].type == type)
      return &ggml_types[i];
  return NULL;
}

/**
 * hr_ggml_type_info_by_name:
 * @name: a ggml type name such as "Q4_K" (case-insensitive)
 *
 * Returns: (nullable) (transfer none): the block layout, or %NULL.
 */
const HrGgmlTypeInfo *
hr_ggml_type_info_by_name (const char *name)
{
  if (name == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (ggml_types); i++)
    if (g_ascii_strcasecmp (ggml_types[i].name, name) == 0)
      return &ggml_types[i];
  return NULL;
}

/**
 * hr_ggml_type_list:
 * @n_types: (out): the number of entries
 *
 * Returns: (transfer none) (array length=n_types): every known ggml type.
 */
const HrGgmlTypeInfo *
hr_ggml_type_list (guint *n_types)
{
  *n_types = G_N_ELEMENTS (ggml_types);
  return ggml_types;
}

/**
 * hr_ggml_tensor_bytes:
 * @type: the tensor's ggml type id
 * @dims: (array length=n_dims): the dimensions, ne[0] first as GGUF stores them
 * @n_dims: 1 to 4
 * @out_elements: (out) (optional): the number of weights
 * @out_bytes: (out) (optional): the exact bytes
 * @error: return location for a #GError
 *
 * Computes a tensor's exact size: (ne[0] / weights per block) x bytes per
 * block x ne[1] x ne[2] x ne[3] (GGUF specification, ggml_nbytes()).
 *
 * Returns: %TRUE on success. Errors: %HR_CORE_ERROR_UNSUPPORTED for an
 *   unknown type, %HR_CORE_ERROR_INVALID_DATA for a bad dimension count or a
 *   row that is not a whole number of blocks, %HR_CORE_ERROR_OVERFLOW when a
 *   product does not fit 64 bits.
 */
gboolean
hr_ggml_tensor_bytes (guint32         type,
                      const guint64  *dims,
                      guint           n_dims,
                      guint64        *out_elements,
                      guint64        *out_bytes,
                      GError        **error)
{
  const HrGgmlTypeInfo *info = hr_ggml_type_info (type);
  guint64 elements = 1;
  guint64 bytes;

  if (info == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                   _("unknown ggml tensor type %u"), type);
      return FALSE;
    }

  if (n_dims < 1 || n_dims > 4)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("a tensor has %u dimensions; GGUF allows 1 to 4"), n_dims);
      return FALSE;
    }

  if (dims[0] % info->block_weights != 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("a %s tensor row of %" PRIu64 " weights is not a whole number of %u-weight blocks"),
                   info->name, dims[0], info->block_weights);
      return FALSE;
    }

  if (!hr_mul_u64 (dims[0] / info->block_weights, info->block_bytes, &bytes))
    goto overflow;

  for (guint i = 0; i < n_dims; i++)
    {
      if (!hr_mul_u64 (elements, dims[i], &elements))
        goto overflow;
      if (i > 0 && !hr_mul_u64 (bytes, dims[i], &bytes))
        goto overflow;
    }

  if (out_elements != NULL)
    *out_elements = elements;
  if (out_bytes != NULL)
    *out_bytes = bytes;
  return TRUE;

overflow:
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
               _("a %s tensor's size does not fit in 64 bits"), info->name);
  return FALSE;
}

/**
 * hr_ggml_file_type_label:
 * @file_type: `general.file_type`, llama.cpp's llama_ftype numbering (llama.h)
 *
 * Returns: (nullable) (transfer none): the label, "Q4_K_M" for 15, or %NULL
 *   for a number this table does not know.
 */
const char *
hr_ggml_file_type_label (guint32 file_type)
{
  static const char *labels[] = {
    [0] = "F32", [1] = "F16", [2] = "Q4_0", [3] = "Q4_1",
    [7] = "Q8_0", [8] = "Q5_0", [9] = "Q5_1", [10] = "Q2_K",
    [11] = "Q3_K_S", [12] = "Q3_K_M", [13] = "Q3_K_L", [14] = "Q4_K_S",
    [15] = "Q4_K_M", [16] = "Q5_K_S", [17] = "Q5_K_M", [18] = "Q6_K",
    [19] = "IQ2_XXS", [20] = "IQ2_XS", [21] = "Q2_K_S", [22] = "IQ3_XS",
    [23] = "IQ3_XXS", [24] = "IQ1_S", [25] = "IQ4_NL", [26] = "IQ3_S",
    [27] = "IQ3_M", [28] = "IQ2_S", [29] = "IQ2_M", [30] = "IQ4_XS",
    [31] = "IQ1_M", [32] = "BF16", [36] = "TQ1_0", [37] = "TQ2_0",
    [38] = "MXFP4_MOE",
  };

  if (file_type >= G_N_ELEMENTS (labels))
    return NULL;
  return labels[file_type];
}
