/* hub-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Hub tests share (test-hub-client.c, test-hub-rules.c,
 * test-hub-mmproj.c, test-cli-paths.c): a lookup run to its end on the
 * thread-default main context, a client for the fake Hub, and
 * `headroom-cli hub` run against it (HEADROOM_CLI, no token, no keyring).
 * In the test-support library (tests/support/hub-test-util.c).
 */
#pragma once

#include <gio/gio.h>

#include "fake-hub.h"
#include "hr-hub-client.h"

G_BEGIN_DECLS

/* A lookup's end, as run_lookup() waits for it. */
typedef struct {
  gboolean     done;     /* the lookup finished */
  HrHubLookup *lookup;   /* (nullable): what it found */
  GError      *error;    /* (nullable): why it failed */
} Wait;

/* headroom-cli against the fake Hub: its output, its status. */
typedef struct {
  gboolean done;     /* the CLI exited and its output was read */
  char    *out;      /* its standard output, UTF-8; the caller frees it */
  char    *err;      /* its standard error, UTF-8; the caller frees it */
  int      status;   /* its exit status */
} CliRun;

/* Looks up @repo at @revision with @client (hr_hub_client_lookup_async())
 * and iterates the thread-default main context until it ends.
 *
 * Returns: (transfer full) (nullable): the lookup, or NULL with @error set
 * as hr_hub_client_lookup_finish() set it. */
HrHubLookup *run_lookup (HrHubClient         *client,
                         const char          *repo,
                         const char          *revision,
                         GCancellable        *cancellable,
                         GError             **error);

/* Returns: (transfer full): a client of @fake's Hub endpoint with @token
 * (NULL: none), never reading the keyring. */
HrHubClient *client_for (FakeHub             *fake,
                         const char          *token);

/* Returns: how many of @fake's logged requests contain @needle. */
guint        log_count  (FakeHub             *fake,
                         const char          *needle);

/* Runs HEADROOM_CLI with @args (NULL-terminated, without the program)
 * against @fake's Hub (HF_ENDPOINT), this run's XDG_DATA_HOME, no
 * HF_TOKEN and no session bus (so the keyring lookup fails fast), and
 * waits on the thread-default main context for it to exit, filling @run. */
void         run_cli    (FakeHub             *fake,
                         const char * const  *args,
                         CliRun              *run);

G_END_DECLS
