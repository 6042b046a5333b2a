/* test-cli-json-locale.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli's machine output is the same in every language
 * (docs/cli.md, "Machine output"): `predict --json`, `check --json` and
 * `matrix --json` under German (LANGUAGE=de with the C.UTF-8 locale the
 * suite runs in, and LC_ALL=de_DE.UTF-8 where that locale is installed)
 * are byte for byte the English output, while the same commands without
 * --json do speak German, so a build whose translations are missing
 * cannot pass by accident. The translations are the build's
 * (HEADROOM_LOCALE_DIR, set by meson test to <build>/po).
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "cli-test-util.h"

/* Runs $HEADROOM_CLI with @argv (NULL-terminated, the program left out)
 * in the environment of the test plus @vars ("NAME=VALUE", NULL-terminated);
 * a value of "" removes the variable. */
static void
run_cli_env (Run               *r,
             const char * const *vars,
             const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  int wait_status;

  envp = g_environ_setenv (envp, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  envp = g_environ_unsetenv (envp, "LANGUAGE");
  envp = g_environ_unsetenv (envp, "LANG");
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  for (guint i = 0; vars[i] != NULL; i++)
    {
      g_auto(GStrv) kv = g_strsplit (vars[i], "=", 2);

      if (kv[1][0] == '\0')
        envp = g_environ_unsetenv (envp, kv[0]);
      else
        envp = g_environ_setenv (envp, kv[0], kv[1], TRUE);
    }

  g_ptr_array_add (args, (char *) g_getenv ("HEADROOM_CLI"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}

static const char * const english[] = { NULL };
static const char * const german_language[] = { "LANGUAGE=de", NULL };
static const char * const german_locale[] = { "LC_ALL=de_DE.UTF-8", NULL };

/* The German environments this machine can give: LANGUAGE=de always,
 * LC_ALL=de_DE.UTF-8 only where that locale is installed. */
static GPtrArray *
german_environments (void)
{
  GPtrArray *envs = g_ptr_array_new ();
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));

  g_ptr_array_add (envs, (gpointer) german_language);
  if (setlocale (LC_ALL, "de_DE.UTF-8") != NULL)
    g_ptr_array_add (envs, (gpointer) german_locale);
  else
    g_test_message ("de_DE.UTF-8 is not installed: only LANGUAGE=de is checked");
  setlocale (LC_ALL, saved);
  return envs;
}

static gboolean
have_translations (void)
{
  if (g_getenv ("HEADROOM_LOCALE_DIR") == NULL)
    {
      g_test_skip ("HEADROOM_LOCALE_DIR is not set");
      return FALSE;
    }
  return TRUE;
}

/* @json_argv's output is the same under English and every German
 * environment; @human_argv's German output holds @german and its English
 * output @english_text. */
static void
check_command (const char * const *json_argv,
               int                  json_status,
               const char * const *human_argv,
               const char          *english_text,
               const char          *german)
{
  g_autoptr(GPtrArray) envs = german_environments ();
  g_auto(Run) en = { 0 };
  g_auto(Run) en_human = { 0 };

  run_cli_env (&en, english, json_argv);
  g_assert_cmpint (en.status, ==, json_status);
  g_assert_true (en.out[0] == '{');
  run_cli_env (&en_human, english, human_argv);
  g_assert_nonnull (strstr (en_human.out, english_text));
  g_assert_null (strstr (en_human.out, german));

  for (guint i = 0; i < envs->len; i++)
    {
      const char * const *vars = g_ptr_array_index (envs, i);
      g_auto(Run) de = { 0 };
      g_auto(Run) de_human = { 0 };

      g_test_message ("%s %s", vars[0], json_argv[0]);
      run_cli_env (&de, vars, json_argv);
      g_assert_cmpint (de.status, ==, json_status);
      g_assert_cmpstr (de.out, ==, en.out);
      g_assert_cmpstr (de.err, ==, en.err);

      run_cli_env (&de_human, vars, human_argv);
      g_assert_nonnull (strstr (de_human.out, german));
      g_assert_null (strstr (de_human.out, english_text));
    }
}

/* predict: the era label, each term's label, formula and note. */
static void
test_predict_json (void)
{
  const char * const json_argv[] = { "predict", "llama3.2:3b", "--context", "16384", "--json", NULL };
  const char * const human_argv[] = { "predict", "llama3.2:3b", "--context", "16384", NULL };
  g_auto(Run) en = { 0 };

  if (!have_translations ())
    return;
  check_command (json_argv, 0, human_argv,
                 "runtime: Ollama 0.30 and newer (llama-server buffers)\n",
                 "Laufzeit: Ollama 0.30 und neuer (llama-server-Puffer)\n");

  /* The English text is in the JSON itself, next to the stable ids. */
  run_cli_env (&en, german_language, json_argv);
  g_assert_nonnull (strstr (en.out, "  \"method\" : \"ollama-0.30\",\n  \"era\" : \"ollama-0.30\",\n"
                                    "  \"era_label\" : \"Ollama 0.30 and newer (llama-server buffers)\",\n"));
  g_assert_nonnull (strstr (en.out, "      \"id\" : \"kv_cache\",\n      \"label\" : \"KV cache\",\n"));
}

/* check: the reasons to refuse a pull, in English, with the verdict id. */
static void
test_check_json (void)
{
  const char * const json_argv[] = { "check", "qwen2.5:14b", "--json", NULL };
  const char * const human_argv[] = { "check", "qwen2.5:14b", NULL };
  g_auto(Run) de = { 0 };

  if (!have_translations ())
    return;
  check_command (json_argv, 1, human_argv, "  refused: qwen2.5:14b is over by 3.71 GB\n",
                 "  abgelehnt: qwen2.5:14b ist um 3.71 GB zu groß\n");

  run_cli_env (&de, german_language, json_argv);
  g_assert_nonnull (strstr (de.out, "  \"reasons\" : [\n    \"qwen2.5:14b is over by 3.71 GB\",\n"
                                    "    \"qwen2.5:14b decodes at 4.1 t/s, under the 10.2 t/s floor\"\n  ],\n"
                                    "  \"verdict\" : \"over\",\n"));
}

/* matrix: each board's learned-overhead text and every cell. */
static void
test_matrix_json (void)
{
  const char * const json_argv[] = { "matrix", "--models", "llama3.2:3b,phi4", "--json", NULL };
  const char * const human_argv[] = { "matrix", "--models", "llama3.2:3b,phi4", NULL };

  if (!have_translations ())
    return;
  check_command (json_argv, 0, human_argv, "\njetson-orin-nano-super: recommended llama3.2:3b; ",
                 "\njetson-orin-nano-super: empfohlen llama3.2:3b; ");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cli-json-locale/predict", test_predict_json);
  g_test_add_func ("/cli-json-locale/check", test_check_json);
  g_test_add_func ("/cli-json-locale/matrix", test_matrix_json);
  return g_test_run ();
}
