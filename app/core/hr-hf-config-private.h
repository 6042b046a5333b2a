/* hr-hf-config-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Hugging Face config readers share: token ids read from
 * config.json (hr-hf-config.c) and generation_config.json
 * (hr-hf-files.c). Not installed.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "hr-hf-config.h"

G_BEGIN_DECLS

void    _hr_hf_read_token_ids (JsonNode *node,
                               GArray   *into);
gint64  _hr_hf_read_token_id  (JsonNode *node);

G_END_DECLS
