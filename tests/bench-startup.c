/* bench-startup.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How long the Headroom window takes to show, against a bare
 * AdwApplicationWindow (bench-startup-bare.c) started in the same run:
 * under GSK_RENDERER=gl and then cairo, the two programs are started in
 * turn (one unmeasured start of each first, then RUNS of each,
 * alternating), each with bench-startup-hook.so preloaded, which prints the
 * end of the first painted frame (GdkFrameClock::after-paint) and of the
 * first frame drawn with the window's pages built (HrWindow builds them
 * after its first frame; the bare window has none, the two are one), and
 * quits. Measured per start: the time from just before the fork to each
 * frame (both g_get_monotonic_time(), CLOCK_MONOTONIC), the peak resident
 * set at the first frame (the hook reads VmHWM) and over the whole start
 * (wait4()'s ru_maxrss, KiB), and the CPU time of the whole start
 * (ru_utime + ru_stime: steadier than the wall clock on a loaded machine).
 * Prints the medians, and the window's over the bare window's. Aim: the
 * first frame's time and RSS ratios at most 1.3 under each
 * renderer; the pages-built figures say what the deferral leaves for later. Needs a display: run it with
 * `bash build-aux/test --benchmark bench-startup` (Xvfb, D-Bus session).
 *
 * Arguments: the headroom executable, the bare program, the hook module,
 * then optionally `--peer PROGRAM` (default none): a GTK 4 program to
 * compare with, such as /usr/bin/gnome-text-editor, started in the same
 * alternation with the same hook. With a peer it also prints the ratio of
 * Headroom's painted Models page (the first frame with the pages built)
 * to the peer's first frame, under each renderer (the aim: at most 1).
 * BENCH_STARTUP_RUNS overrides the number of starts of each (default 9).
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#define DEFAULT_RUNS 9
#define DEADLINE_MS  60000  /* one start that takes longer is a failure */

typedef struct {
  double ms;            /* fork to the end of the first painted frame */
  double rss_mib;       /* peak resident set at that frame */
  double full_ms;       /* fork to the end of the first frame with the pages built */
  double full_rss_mib;  /* peak resident set of the whole start (wait4()) */
  double cpu_ms;        /* user + system time of the whole start, all threads */
} Start;

typedef struct {
  gint64  us;       /* g_get_monotonic_time() */
  guint64 rss_kib;  /* VmHWM then */
} Frame;

static char **
child_env (const char *renderer,
           const char *hook,
           const char *home)
{
  char **env = g_get_environ ();
  g_autofree char *config = g_build_filename (home, "config", NULL);
  g_autofree char *data = g_build_filename (home, "data", NULL);
  g_autofree char *cache = g_build_filename (home, "cache", NULL);

  env = g_environ_setenv (env, "GSK_RENDERER", renderer, TRUE);
  /* The test environment turns GL off for the cairo runs of the suite. */
  env = g_environ_unsetenv (env, "GDK_DEBUG");
  env = g_environ_setenv (env, "LD_PRELOAD", hook, TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", data, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache, TRUE);
  return env;
}

static gboolean
parse_frame (const char *out,
             const char *what,
             Frame      *frame)
{
  g_autofree char *key = g_strdup_printf ("bench-startup %s ", what);
  const char *line = strstr (out, key);
  char *end = NULL;

  if (line == NULL)
    return FALSE;
  frame->us = g_ascii_strtoll (line + strlen (key), &end, 10);
  frame->rss_kib = g_ascii_strtoull (end, NULL, 10);
  return frame->us > 0;
}

/* Reads the child's stdout until it closes, looking for the hook's lines. */
static gboolean
read_frames (int    fd,
             Frame *first,
             Frame *full)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + (gint64) DEADLINE_MS * 1000;

  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      char buf[4096];
      ssize_t n;

      if (left <= 0)
        return FALSE;
      if (poll (&p, 1, (int) left) <= 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      n = read (fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      g_string_append_len (out, buf, n);
    }
  return parse_frame (out->str, "first-frame", first) && parse_frame (out->str, "full-frame", full);
}

static gboolean
start_once (const char  *program,
            char       **env,
            Start       *out,
            GError     **error)
{
  char *argv[] = { (char *) program, NULL };
  struct rusage usage;
  GPid pid;
  int out_fd = -1;
  int status = 0;
  gint64 started;
  Frame first = { 0 }, full = { 0 };
  gboolean painted;

  started = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes (NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                 &pid, NULL, &out_fd, NULL, error))
    return FALSE;
  painted = read_frames (out_fd, &first, &full);
  close (out_fd);
  if (!painted)
    kill (pid, SIGKILL);
  while (wait4 (pid, &status, 0, &usage) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (pid);

  if (!painted)
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                   "%s printed no first or full frame within %d s (is there a display?)", program, DEADLINE_MS / 1000);
      return FALSE;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                   "%s did not exit cleanly after its first frame (wait status %d)", program, status);
      return FALSE;
    }
  out->ms = (double) (first.us - started) / 1000.0;
  out->rss_mib = (double) first.rss_kib / 1024.0;
  out->full_ms = (double) (full.us - started) / 1000.0;
  out->full_rss_mib = (double) usage.ru_maxrss / 1024.0;
  out->cpu_ms = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
                + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  if (values->len % 2 == 1)
    return g_array_index (values, double, values->len / 2);
  return (g_array_index (values, double, values->len / 2 - 1) + g_array_index (values, double, values->len / 2)) / 2.0;
}

enum { FIRST_MS, FIRST_RSS, FULL_MS, FULL_RSS, CPU_MS, N_FIGURES };

static gboolean
bench_renderer (const char  *renderer,
                const char  *window,
                const char  *bare,
                const char  *peer,
                const char  *hook,
                const char  *home,
                guint        runs,
                GError     **error)
{
  g_auto(GStrv) env = child_env (renderer, hook, home);
  /* The peer is someone else's program: G_DEBUG=fatal-criticals (the test
   * environment's) would end it at its own first critical warning. */
  g_auto(GStrv) peer_env = g_environ_unsetenv (g_strdupv (env), "G_DEBUG");
  char **envs[3] = { env, env, peer_env };
  const char *programs[3] = { window, bare, peer };
  guint n_programs = peer != NULL ? 3 : 2;
  GArray *figures[3][N_FIGURES];
  double m[3][N_FIGURES];
  gboolean ok = TRUE;
  Start s;

  for (guint p = 0; p < n_programs; p++)
    for (guint f = 0; f < N_FIGURES; f++)
      figures[p][f] = g_array_new (FALSE, FALSE, sizeof (double));

  /* One start of each to warm the page cache, the fonts and the shaders. */
  for (guint p = 0; p < n_programs && ok; p++)
    ok = start_once (programs[p], envs[p], &s, error);

  for (guint i = 0; i < runs && ok; i++)
    for (guint p = 0; p < n_programs && ok; p++)
      {
        ok = start_once (programs[p], envs[p], &s, error);
        g_array_append_val (figures[p][FIRST_MS], s.ms);
        g_array_append_val (figures[p][FIRST_RSS], s.rss_mib);
        g_array_append_val (figures[p][FULL_MS], s.full_ms);
        g_array_append_val (figures[p][FULL_RSS], s.full_rss_mib);
        g_array_append_val (figures[p][CPU_MS], s.cpu_ms);
      }

  for (guint p = 0; p < n_programs; p++)
    for (guint f = 0; f < N_FIGURES; f++)
      {
        m[p][f] = ok ? median (figures[p][f]) : 0;
        g_array_unref (figures[p][f]);
      }
  if (!ok)
    return FALSE;
  g_print ("GSK_RENDERER=%s, %u starts each, alternating:\n", renderer, runs);
  for (guint p = 0; p < n_programs; p++)
    g_print ("  %-26s %7.1f ms to the first frame, peak RSS %6.1f MiB then; "
             "%7.1f ms to the pages built, peak RSS %6.1f MiB; CPU %7.1f ms\n",
             p == 0 ? "headroom window:" : p == 1 ? "bare AdwApplicationWindow:" : "peer:",
             m[p][FIRST_MS], m[p][FIRST_RSS], m[p][FULL_MS], m[p][FULL_RSS], m[p][CPU_MS]);
  g_print ("  ratio (window / bare), first frame: time %.2f, RSS %.2f (aim: at most 1.3 each)\n",
           m[0][FIRST_MS] / m[1][FIRST_MS], m[0][FIRST_RSS] / m[1][FIRST_RSS]);
  g_print ("  ratio (window / bare), pages built: time %.2f, RSS %.2f; CPU %.2f\n",
           m[0][FULL_MS] / m[1][FULL_MS], m[0][FULL_RSS] / m[1][FULL_RSS], m[0][CPU_MS] / m[1][CPU_MS]);
  if (peer != NULL)
    {
      g_print ("  peer: %s\n", peer);
      g_print ("  ratio (window / peer), first frame: time %.2f, RSS %.2f; CPU %.2f\n",
               m[0][FIRST_MS] / m[2][FIRST_MS], m[0][FIRST_RSS] / m[2][FIRST_RSS], m[0][CPU_MS] / m[2][CPU_MS]);
      g_print ("  ratio of Headroom's painted Models page to the peer's first frame: %.2f (aim: at most 1)\n",
               m[0][FULL_MS] / m[2][FIRST_MS]);
    }
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  static const char * const renderers[] = { "gl", "cairo" };
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;
  const char *runs_env = g_getenv ("BENCH_STARTUP_RUNS");
  guint64 runs = DEFAULT_RUNS;
  const char *peer = NULL;

  if (argc == 6 && strcmp (argv[4], "--peer") == 0)
    peer = argv[5];
  else if (argc != 4)
    {
      g_printerr ("usage: %s HEADROOM BARE-PROGRAM HOOK-MODULE [--peer PROGRAM]\n", argv[0]);
      return 2;
    }
  if (peer != NULL && !g_file_test (peer, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_printerr ("bench-startup: the peer %s is not an executable program\n", peer);
      return 2;
    }
  if (runs_env != NULL && (!g_ascii_string_to_unsigned (runs_env, 10, 1, 100, &runs, &error)))
    {
      g_printerr ("BENCH_STARTUP_RUNS: %s (give 1 to 100)\n", error->message);
      return 2;
    }
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_printerr ("bench-startup needs a display: run it with bash build-aux/test --benchmark bench-startup\n");
      return 77;
    }

  home = g_dir_make_tmp ("bench-startup-XXXXXX", &error);
  if (home == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (guint r = 0; r < G_N_ELEMENTS (renderers); r++)
    if (!bench_renderer (renderers[r], argv[1], argv[2], peer, argv[3], home, (guint) runs, &error))
      {
        g_printerr ("bench-startup: %s\n", error->message);
        return 1;
      }
  return 0;
}
