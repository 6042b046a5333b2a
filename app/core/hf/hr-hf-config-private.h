/* hr-hf-config-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Hugging Face config readers share: token ids read from
 * config.json (hr-hf-config.c) and generation_config.json
 * (hr-hf-files.c), and the rules of hr-hf-config-rules.c (where the
 * language model's sub-config is, what quantization_config says). Not
 * installed.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "hr-hf-config.h"

G_BEGIN_DECLS

/* The objects a key is looked up in, the deepest sub-config first and the
 * top level last. */
typedef struct {
  JsonObject *chain[HR_HF_MAX_NEST_DEPTH + 1];
  guint       n;
} HrHfScope;

void    _hr_hf_read_token_ids (JsonNode *node,
                               GArray   *into);
gint64  _hr_hf_read_token_id  (JsonNode *node);

char   *_hr_hf_find_language_config (JsonObject  *top,
                                     HrHfScope   *scope);
void    _hr_hf_read_quantization    (const HrHfScope *scope,
                                     HrHfConfig      *config);

const char *_hr_hf_family_gguf_arch (const HrHfConfig *config);
gboolean    _hr_hf_family_default   (const HrHfConfig *config,
                                     const char       *key,
                                     guint32          *out_value,
                                     char            **out_note);
gboolean    _hr_hf_read_hybrid      (const HrHfScope  *scope,
                                     HrHfConfig       *config,
                                     GError          **error);
char       *_hr_hf_family_note      (const HrHfConfig *config,
                                     const char       *key,
                                     guint32           value);
gboolean    _hr_hf_read_gemma4      (const HrHfScope  *scope,
                                     HrHfConfig       *config,
                                     GError          **error);
gboolean    _hr_hf_read_nextn       (const HrHfScope  *scope,
                                     HrHfConfig       *config,
                                     GError          **error);

G_END_DECLS
