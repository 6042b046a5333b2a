/* hr-gguf-keys-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the key mapper (hr-gguf-keys.c) reads keys with
 * (hr-gguf-keys-read.c). Not installed; include only from
 * app/core/gguf/hr-gguf-keys*.c.
 */
#pragma once

#include "hr-gguf-keys.h"

G_BEGIN_DECLS

/* The value of the full @key; *@out zeroed first (HR_GGUF_KEY_ABSENT). */
void        hr_gguf_keys_lookup        (const HrGgufKeys *keys,
                                        const char       *key,
                                        HrGgufKeyValue   *out);
/* `{arch}.@suffix` as a count of 32 bits (hr_gguf_keys_get_u32()). */
gboolean    hr_gguf_keys_get_arch_u32  (const HrGgufKeys *keys,
                                        const char       *suffix,
                                        guint32          *out_value,
                                        gboolean         *out_found,
                                        GError          **error);
/* `{arch}.@suffix` as a scalar or one whole number per layer (@layers of
 * them): *@out_max, and *@out_layers (guint32 per layer) for an array;
 * *@out_hidden when /api/show withheld it. %FALSE with
 * HR_CORE_ERROR_INVALID_DATA for an array of another length or element. */
gboolean    hr_gguf_keys_get_per_layer (const HrGgufKeys *keys,
                                        const char       *suffix,
                                        guint32           layers,
                                        guint32          *out_max,
                                        GArray          **out_layers,
                                        gboolean         *out_found,
                                        gboolean         *out_hidden,
                                        GError          **error);
/* "GGUF " or "Ollama /api/show model_info ", by where @keys came from. */
const char *hr_gguf_keys_source_prefix (const HrGgufKeys *keys);
/* Records `PREFIX{arch}.@suffix` as the source of @field in @spec. */
void        hr_gguf_keys_set_source    (const HrGgufKeys *keys,
                                        HrModelSpec      *spec,
                                        HrSpecField       field,
                                        const char       *suffix);

G_END_DECLS
