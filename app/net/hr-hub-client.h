/* hr-hub-client.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHubClient: a Hugging Face Hub lookup that answers the seed's four
 * week-3 questions before anything is downloaded (what architecture and
 * size; base or instruct; how much to download; may I use it), in a few
 * requests and a few kilobytes. Protocol facts: docs/hub.md.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hr-hub-info.h"
#include "hr-token-store.h"

G_BEGIN_DECLS

/** HR_HUB_DEFAULT_ENDPOINT: the Hub when HF_ENDPOINT is not set. */
#define HR_HUB_DEFAULT_ENDPOINT "https://huggingface.co"
/** HR_HUB_TOKEN_SCHEMA: the libsecret schema the Hub token is stored under. */
#define HR_HUB_TOKEN_SCHEMA HR_TOKEN_STORE_HUB_SCHEMA
/** HR_HUB_DEFAULT_TIMEOUT_MS: the deadline of one request, whole body included. */
#define HR_HUB_DEFAULT_TIMEOUT_MS 30000

JsonNode    *hr_hub_lookup_to_json       (const HrHubLookup *lookup);

#define HR_TYPE_HUB_CLIENT (hr_hub_client_get_type ())
G_DECLARE_FINAL_TYPE (HrHubClient, hr_hub_client, HR, HUB_CLIENT, GObject)

HrHubClient *hr_hub_client_new           (void);
const char  *hr_hub_client_get_endpoint  (HrHubClient         *self);
void         hr_hub_client_lookup_async  (HrHubClient         *self,
                                          const char          *repo,
                                          const char          *revision,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
HrHubLookup *hr_hub_client_lookup_finish (HrHubClient         *self,
                                          GAsyncResult        *result,
                                          GError             **error);


G_END_DECLS
