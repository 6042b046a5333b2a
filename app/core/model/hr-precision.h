/* hr-precision.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Precisions: how many bits each weight takes. Two kinds live here:
 *  - HrPrecision: a named precision with a bits-per-weight figure used to
 *    sketch weight memory from a parameter count (fp32 32 ... int4 4, and the
 *    seed's whole-file GGUF averages q4_K_M 4.6, q5_K_M 5.6, q8_0 8.5, f16 16.0).
 *  - HrGgmlTypeInfo: the exact block layout of a ggml tensor type (weights per
 *    block, bytes per block), from ggml's type_traits table (ggml/src/ggml.c)
 *    and the GGUF spec, so a tensor list gives exact bytes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *id;              /* "q4_K_M", "bf16", ... (lookup is case-insensitive) */
  const char *label;           /* what the UI shows: "Q4_K_M", "BF16" */
  double      bits_per_weight; /* average bits per weight */
  gboolean    whole_file;      /* TRUE: a fitted whole-file average, not exact */
  const char *source;          /* where bits_per_weight comes from */
} HrPrecision;

const HrPrecision *hr_precision_lookup (const char *id);
const HrPrecision *hr_precision_list   (guint      *n_precisions);

/* ggml tensor type ids, as in ggml.h / the GGUF spec. */
typedef enum {
  HR_GGML_TYPE_F32     = 0,
  HR_GGML_TYPE_F16     = 1,
  HR_GGML_TYPE_Q4_0    = 2,
  HR_GGML_TYPE_Q4_1    = 3,
  HR_GGML_TYPE_Q5_0    = 6,
  HR_GGML_TYPE_Q5_1    = 7,
  HR_GGML_TYPE_Q8_0    = 8,
  HR_GGML_TYPE_Q8_1    = 9,
  HR_GGML_TYPE_Q2_K    = 10,
  HR_GGML_TYPE_Q3_K    = 11,
  HR_GGML_TYPE_Q4_K    = 12,
  HR_GGML_TYPE_Q5_K    = 13,
  HR_GGML_TYPE_Q6_K    = 14,
  HR_GGML_TYPE_Q8_K    = 15,
  HR_GGML_TYPE_IQ2_XXS = 16,
  HR_GGML_TYPE_IQ2_XS  = 17,
  HR_GGML_TYPE_IQ3_XXS = 18,
  HR_GGML_TYPE_IQ1_S   = 19,
  HR_GGML_TYPE_IQ4_NL  = 20,
  HR_GGML_TYPE_IQ3_S   = 21,
  HR_GGML_TYPE_IQ2_S   = 22,
  HR_GGML_TYPE_IQ4_XS  = 23,
  HR_GGML_TYPE_I8      = 24,
  HR_GGML_TYPE_I16     = 25,
  HR_GGML_TYPE_I32     = 26,
  HR_GGML_TYPE_I64     = 27,
  HR_GGML_TYPE_F64     = 28,
  HR_GGML_TYPE_IQ1_M   = 29,
  HR_GGML_TYPE_BF16    = 30,
  HR_GGML_TYPE_MXFP4   = 39,
} HrGgmlType;

typedef struct {
  guint32     type;          /* HrGgmlType */
  const char *name;          /* "Q4_K" */
  guint32     block_weights; /* weights per block */
  guint32     block_bytes;   /* bytes per block */
} HrGgmlTypeInfo;

const HrGgmlTypeInfo *hr_ggml_type_info        (guint32        type);
const HrGgmlTypeInfo *hr_ggml_type_info_by_name (const char   *name);
const HrGgmlTypeInfo *hr_ggml_type_list        (guint         *n_types);
gboolean              hr_ggml_tensor_bytes     (guint32        type,
                                                const guint64 *dims,
                                                guint          n_dims,
                                                guint64       *out_elements,
                                                guint64       *out_bytes,
                                                GError       **error);
const char           *hr_ggml_file_type_label  (guint32        file_type);

G_END_DECLS
