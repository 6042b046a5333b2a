/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli: the same core as the window, for a headless box.
 * HEADROOM_LOCALE_DIR, when set, is where the translations are (an
 * uninstalled build's po/ directory); else the installed LOCALEDIR.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "hr-cli.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *usage;
} HrCliCommand;

static const HrCliCommand commands[] = {
  { "weights",   hr_cli_cmd_weights,   N_("(--parameters BILLIONS | --count N) --precision P") },
  { "catalog",   hr_cli_cmd_catalog,   N_("[--catalog FILE]") },
  { "fit",       hr_cli_cmd_fit,       N_("[--board NAME] [--context N] [--kv-type f16|q8_0|q4_0] [--parallel N]") },
  { "dashboard", hr_cli_cmd_dashboard, N_("[--board NAME] [--measurements DIR]") },
  { "check",     hr_cli_cmd_check,     N_("MODEL [--board NAME]") },
  { "predict",   hr_cli_cmd_predict,   N_("(MODEL | FILE.gguf) [--runtime ollama-0.30|ollama-0.12|auto|seed] [--context N] [--parallel N] [--kv-type T] [--flash-attention on|off|auto] [--batch N] [--backend cpu|cuda|metal] [--num-gpu N] [--board NAME] [--max-context] [--best-precision]") },
  { "matrix",    hr_cli_cmd_matrix,    N_("[--context N] [--boards A,B] [--json|--csv]") },
  { "gguf",      hr_cli_cmd_gguf,      N_("(FILE | --ollama-models DIR MODEL[:TAG] [--verify]) [predict's sizing options] [--board NAME]") },
  { "hub",       hr_cli_cmd_hub,       N_("REPO[@REVISION] [--revision R] [predict's sizing options] [--board NAME]") },
  { "library",   hr_cli_cmd_library,   N_("MODEL[:TAG] [predict's options] [--board NAME] [--json]") },
  { "ollama",    hr_cli_cmd_ollama,    N_("[--host URL] version|list|ps|show MODEL|measure MODEL [--board NAME] [--contexts 2048,4096] [--runs 3] [--num-predict 96]|pull MODEL [--force]|unload MODEL|delete MODEL") },
  { "measurements", hr_cli_cmd_measurements, N_("[--board NAME] [--json] | delete ID") },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: headroom-cli COMMAND [OPTIONS] [--json]"));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  headroom-cli %s %s\n", commands[i].name, _(commands[i].usage));
  fprintf (stream, "\n%s\n", _("Run \"headroom-cli COMMAND --help\" for the options of one command."));
}

int
main (int   argc,
      char *argv[])
{
  const char *locale_dir = g_getenv ("HEADROOM_LOCALE_DIR");

  setlocale (LC_ALL, "");
  /* Figures keep a '.' decimal point in every language, as the seed's tables
   * and every JSON consumer expect. */
  setlocale (LC_NUMERIC, "C");
  /* HEADROOM_LOCALE_DIR: the translations of an uninstalled build
   * (<build>/po), as the window reads them (app/gui/main.c). */
  bindtextdomain (GETTEXT_PACKAGE, locale_dir != NULL && locale_dir[0] != '\0' ? locale_dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      print_usage (stderr);
      return HR_CLI_EXIT_USAGE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return HR_CLI_EXIT_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("headroom-cli %s\n", PACKAGE_VERSION);
      return HR_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  return hr_cli_usage_error (_("unknown command \"%s\"; run \"headroom-cli --help\" for the list"), argv[1]);
}
