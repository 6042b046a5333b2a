/* cli-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Running headroom-cli from a test, shared by the CLI tests: one run's
 * output and exit status, from a plain run (run_cli()) or from a run while
 * the test's own main loop keeps serving a fake server (run_cli_serving()).
 * In the test-support library (tests/support/).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One run of headroom-cli: what it printed (UTF-8, owned) and its exit
 * status (0 = success). */
typedef struct {
  char *out;
  char *err;
  int   status;
} Run;

/* Frees @r's output (not @r itself); for g_auto(Run). */
void run_clear       (Run                *r);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs $HEADROOM_CLI with the arguments that follow @r (const char *,
 * NULL-terminated), synchronously, with XDG_DATA_HOME set to the test's
 * isolated data directory; fills @r. Fails the test when the CLI cannot be
 * started or does not exit normally; the CLI's stderr is echoed under
 * `--verbose`. */
void run_cli         (Run                *r,
                      ...) G_GNUC_NULL_TERMINATED;

/* run_cli() with the arguments in @argv (NULL-terminated, the command
 * first), for a table of command lines. */
void run_cli_argv    (Run                *r,
                      const char * const *argv);

/* Runs $HEADROOM_CLI with @argv (NULL-terminated, the command first)
 * while this process's main loop keeps serving (a fake server in the
 * test), with XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME set to the
 * test's isolated directories and HEADROOM_OLLAMA_REGISTRY to a loopback
 * port where nothing listens (so no run reaches the real registry); with
 * @gsettings_backend ("keyfile") the CLI reads the settings a test wrote
 * there instead of the tests' memory backend (NULL keeps the
 * environment's). Fills @r; fails the test when the CLI cannot be started
 * or does not exit normally. */
void run_cli_serving (Run                *r,
                      const char         *gsettings_backend,
                      const char * const *argv);

G_END_DECLS
