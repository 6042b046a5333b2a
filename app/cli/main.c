/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli: the same core as the window, for a headless box.
 * HEADROOM_LOCALE_DIR, when set, is where the translations are (an
 * uninstalled build's po/ directory); else the installed LOCALEDIR.
 * Machine output (--json, --csv) is the same in every language: see
 * machine_output_requested() and docs/cli.md, "Machine output".
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
  const char *usage;  /* one line per form of the command, "\n" between */
} HrCliCommand;

/* Every option each command's --help lists is in its lines here (or in
 * SIZING, or --json in the first line); tests/test-cli.c checks that. */
static const HrCliCommand commands[] = {
  { "weights",   hr_cli_cmd_weights,   N_("(--parameters BILLIONS | --count N) --precision P") },
  { "catalog",   hr_cli_cmd_catalog,   N_("[--catalog FILE] [--models A,B,...]") },
  { "fit",       hr_cli_cmd_fit,       N_("[--board NAME] [--context N] [--kv-type f16|q8_0|q4_0] [--parallel N] [--catalog FILE] [--models A,B,...]") },
  { "dashboard", hr_cli_cmd_dashboard, N_("[--board NAME] [--measurements DIR] [--context N] [--kv-type T] [--parallel N] [--catalog FILE] [--models A,B,...]") },
  { "check",     hr_cli_cmd_check,     N_("MODEL [--board NAME] [--measurements DIR] [--context N] [--kv-type T] [--parallel N] [--catalog FILE]") },
  { "predict",   hr_cli_cmd_predict,   N_("(MODEL | FILE.gguf) [SIZING] [--precision P] [--num-gpu N] [--main-gpu N] [--sched-spread] [--max-context] [--best-precision]") },
  { "matrix",    hr_cli_cmd_matrix,    N_("[--context N] [--precision P] [--kv-type T] [--parallel N] [--flash-attention on|off|auto] [--runtime ollama-0.30|ollama-0.12|llama-server|auto|seed] [--server-version V] [--boards A,B,...] [--models A,B,...] [--catalog FILE] [--measurements DIR] [--json|--csv]") },
  { "gguf",      hr_cli_cmd_gguf,      N_("(FILE [--mmproj FILE] | --ollama-models DIR MODEL[:TAG] [--verify]) [SIZING]") },
  { "hub",       hr_cli_cmd_hub,       N_("REPO[@REVISION] [--revision R] [SIZING]") },
  { "library",   hr_cli_cmd_library,   N_("MODEL[:TAG] [SIZING] [--precision P] [--num-gpu N] [--main-gpu N] [--sched-spread] [--max-context] [--best-precision]") },
  { "ollama",    hr_cli_cmd_ollama,    N_("[--host URL] [--timeout SECONDS] version|list|ps|show MODEL|unload MODEL|delete MODEL\n"
                                        "[--host URL] [--timeout SECONDS] measure MODEL [--board NAME] [--measurements DIR] [--contexts 2048,4096] [--runs 3] [--num-predict 96]\n"
                                        "[--host URL] [--timeout SECONDS] pull MODEL [--board NAME] [--measurements DIR] [--force] [--size GB]\n"
                                        "ps --all [--json]\n"
                                        "[--host URL] create-variant MODEL [--context N|--max-context] [--num-gpu L] [--name NEW] [--force] [--dry-run] [SIZING]\n"
                                        "[--host URL] copy SOURCE DESTINATION [--force]\n"
                                        "[--host URL] load MODEL [--keep-alive DURATION]") },
  { "measurements", hr_cli_cmd_measurements, N_("[--board NAME] [--measurements DIR] [--json]\n"
                                                "delete ID [--measurements DIR]") },
  { "boards",    hr_cli_cmd_boards,    N_("detect [--id ID] [--name NAME] [--bandwidth A,B,...] [--host-bandwidth GB/S] [--pool SIZE] [--save [--force]] [--json]\n"
                                        "import (FILE | -) [--id ID] [--name NAME] [--bandwidth A,B,...] [--host-bandwidth GB/S] [--pool SIZE] [--save [--force]] [--json]") },
};

/* TRUE when the command's arguments ask for machine output: --json or
 * --csv before a "--" (after which everything is an operand). Such output
 * carries stable ids and English text whatever the user's language, so a
 * script can rely on it; errors written alongside it are English too. */
static gboolean
machine_output_requested (int    argc,
                          char **argv)
{
  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--json") == 0 || strcmp (argv[i], "--csv") == 0)
        return TRUE;
    }
  return FALSE;
}

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: headroom-cli COMMAND [OPTIONS] [--json]"));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(GStrv) lines = g_strsplit (_(commands[i].usage), "\n", -1);

      for (guint k = 0; lines[k] != NULL; k++)
        fprintf (stream, "  headroom-cli %s %s\n", commands[i].name, lines[k]);
    }
  /* Translators: SIZING stands for these options in the lines above; keep the option names */
  fprintf (stream, "\n  %s\n", _("SIZING: [--runtime ollama-0.30|ollama-0.12|llama-server|auto|seed] [--server-version V] [--context N] "
                                  "[--parallel N] [--kv-type f16|q8_0|q4_0] [--flash-attention on|off|auto] [--batch N] "
                                  "[--backend cpu|cuda|metal] [--board NAME | --gpus SIZE[,SIZE...]] [--cpu-moe | --n-cpu-moe N] "
                                  "[--tensor-split A,B,...] [--split-mode layer|row|none] [--catalog FILE] [--measurements DIR] "
                                  "[--draft MODEL|FILE.gguf | --mtp]"));
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
  /* Machine output in English: gettext returns every msgid untranslated
   * when LC_MESSAGES is "C", and then ignores LANGUAGE (GNU gettext,
   * "The LANGUAGE variable"; glibc intl/dcigettext.c guess_category_value). */
  if (machine_output_requested (argc, argv))
    setlocale (LC_MESSAGES, "C");

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
