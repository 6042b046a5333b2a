/* hr-safetensors-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-safetensors.c (reading a header) asks of hr-safetensors-count.c
 * (its sums). Not installed; include only from app/core/hf/hr-safetensors*.c.
 */
#pragma once

#include "hr-safetensors.h"

G_BEGIN_DECLS

/* Adds one checked tensor (@elements of @dtype in @span_bytes) to
 * @header's sums: the output projection, the vision tower, quantization
 * state, packed containers, its dtype. %FALSE with HR_CORE_ERROR_OVERFLOW
 * when a sum does not fit 64 bits. */
gboolean hr_safetensors_count_tensor   (HrSafetensorsHeader  *header,
                                        const char           *name,
                                        const char           *dtype,
                                        guint64               elements,
                                        guint64               span_bytes,
                                        GError              **error);

/* Orders HrSafetensorsDtype pointers by dtype name (g_ptr_array_sort()). */
gint     hr_safetensors_compare_dtype  (gconstpointer         a,
                                        gconstpointer         b);

G_END_DECLS
