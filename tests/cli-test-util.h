/* cli-test-util.h: running headroom-cli from a test, shared by the CLI tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/wait.h>

/* One run of headroom-cli: what it printed and its exit status. */
typedef struct {
  char *out;
  char *err;
  int   status;
} Run;

static inline void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs $HEADROOM_CLI with the arguments (NULL-terminated), in the test's
 * own isolated data directory. */
static G_GNUC_UNUSED void
run_cli (Run *r, ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = NULL;
  const char *arg;
  va_list ap;
  int wait_status;

  g_ptr_array_add (args, (char *) g_getenv ("HEADROOM_CLI"));
  va_start (ap, r);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  if (g_test_verbose ())
    g_printerr ("%s", r->err);
  r->status = WEXITSTATUS (wait_status);
}
