/* hr-ollama-status.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "hr-ollama-client.h"

G_BEGIN_DECLS

/**
 * HrOllamaStatus:
 * @version: the server's version, "0.31.2" (GET /api/version)
 * @loaded: (element-type HrOllamaLoaded): what it has loaded (GET /api/ps)
 *
 * Where a server stands, as the Servers page and `headroom-cli ollama ps
 * --all` show it.
 */
typedef struct {
  char      *version;
  GPtrArray *loaded;
} HrOllamaStatus;

void            hr_ollama_status_free          (HrOllamaStatus      *status);

void            hr_ollama_client_status_async  (HrOllamaClient      *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
HrOllamaStatus *hr_ollama_client_status_finish (HrOllamaClient      *self,
                                                GAsyncResult        *result,
                                                GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaStatus, hr_ollama_status_free)

G_END_DECLS
