/* hr-hub-client-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Between HrHubClient (hr-hub-client.c) and its lookup's steps
 * (hr-hub-lookup.c). Not for the GUI.
 */
#pragma once

#include "hr-http.h"
#include "hr-hub-client.h"

G_BEGIN_DECLS

void    hr_hub_client_get          (HrHubClient         *self,
                                    const char          *url,
                                    gint64               range_start,
                                    gint64               range_end,
                                    guint64              cap,
                                    guint64             *bytes_counter,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
GError *hr_hub_client_status_error (HrHubClient         *self,
                                    HrHttpResponse      *resp,
                                    const char          *repo,
                                    const char          *revision,
                                    const char          *what);

void    hr_hub_lookup_attach       (GTask               *task,
                                    HrHubClient         *client,
                                    const char          *repo,
                                    const char          *revision,
                                    GCancellable        *cancellable);
void    hr_hub_lookup_start        (GTask               *task);

G_END_DECLS
