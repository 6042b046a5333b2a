/* hub-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Hub tests share (hub-test-util.h).
 */

#include "config.h"

#include <string.h>

#include "hub-test-util.h"

/* ------------------------------------------------------------------ */
/* Running a lookup                                                    */

static void
on_lookup (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Wait *w = user_data;

  w->lookup = hr_hub_client_lookup_finish (HR_HUB_CLIENT (source), result, &w->error);
  w->done = TRUE;
}

HrHubLookup *
run_lookup (HrHubClient  *client,
            const char   *repo,
            const char   *revision,
            GCancellable *cancellable,
            GError      **error)
{
  Wait w = { FALSE, NULL, NULL };

  hr_hub_client_lookup_async (client, repo, revision, cancellable, on_lookup, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  if (w.error != NULL)
    g_propagate_error (error, w.error);
  return w.lookup;
}

HrHubClient *
client_for (FakeHub    *fake,
            const char *token)
{
  return g_object_new (HR_TYPE_HUB_CLIENT,
                       "endpoint", fake->hub_url,
                       "token", token != NULL ? token : "",
                       "use-keyring", FALSE,
                       NULL);
}

/* How many of the fake's logged requests contain @needle. */
guint
log_count (FakeHub    *fake,
           const char *needle)
{
  guint n = 0;

  for (guint i = 0; i < fake->log->len; i++)
    if (strstr (g_ptr_array_index (fake->log, i), needle) != NULL)
      n++;
  return n;
}

static void
on_cli_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  CliRun *run = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &run->out, &run->err, &error));
  g_assert_no_error (error);
  run->status = g_subprocess_get_exit_status (G_SUBPROCESS (source));
  run->done = TRUE;
}

void
run_cli (FakeHub            *fake,
         const char * const *args,
         CliRun             *run)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("HEADROOM_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (launcher, "HF_ENDPOINT", fake->hub_url, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_subprocess_launcher_unsetenv (launcher, "HF_TOKEN");
  /* No session bus: the keyring lookup fails fast and the CLI goes on. */
  g_subprocess_launcher_unsetenv (launcher, "DBUS_SESSION_BUS_ADDRESS");
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  *run = (CliRun) { FALSE, NULL, NULL, -1 };
  g_subprocess_communicate_utf8_async (proc, NULL, NULL, on_cli_done, run);
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
}

