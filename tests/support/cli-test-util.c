/* cli-test-util.c: running headroom-cli from a test (cli-test-util.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cli-test-util.h"

#include <stdarg.h>
#include <sys/wait.h>

void
run_clear (Run *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

void
run_cli (Run *r, ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *arg;
  va_list ap;

  va_start (ap, r);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_cli_argv (r, (const char * const *) args->pdata);
}

void
run_cli_argv (Run                *r,
              const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = NULL;
  int wait_status;

  g_ptr_array_add (args, (char *) g_getenv ("HEADROOM_CLI"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
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

static void
run_cli_serving_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

void
run_cli_serving (Run                *r,
                 const char         *gsettings_backend,
                 const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;

  g_ptr_array_add (args, (char *) g_getenv ("HEADROOM_CLI"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  /* The Ollama library a pull check looks a model up in: a loopback port
   * where nothing listens, so no test reaches the real registry. */
  g_subprocess_launcher_setenv (launcher, "HEADROOM_OLLAMA_REGISTRY", "http://127.0.0.1:9", TRUE);
  if (gsettings_backend != NULL)
    g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", gsettings_backend, TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, run_cli_serving_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_subprocess_communicate_utf8_finish (process, result, &r->out, &r->err, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_true (g_subprocess_get_if_exited (process));
  r->status = g_subprocess_get_exit_status (process);
  if (g_test_verbose ())
    g_printerr ("%s", r->err);
}
