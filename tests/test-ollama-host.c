/* test-ollama-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Host strings, model names, digests and `ollama ps` figures, against
 * docs/ollama.md ("Conventions", "Known quirks",
 * "/api/ps") and docs/seed-figures.md ("What Ollama reported").
 */
#include "config.h"

#include <string.h>

#include <locale.h>

#include "hr-error.h"
#include "hr-ollama-host.h"

static void
assert_host (const char *input,
             const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = hr_ollama_host_normalize (input, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, expected);
}

static void
test_host_rules (void)
{
  /* docs/ollama.md, "Known quirks": the rules Ollama's own clients follow. */
  assert_host ("", "http://127.0.0.1:11434");
  assert_host (NULL, "http://127.0.0.1:11434");
  assert_host ("   ", "http://127.0.0.1:11434");
  assert_host ("1.2.3.4", "http://1.2.3.4:11434");
  assert_host ("10.0.0.5:11434", "http://10.0.0.5:11434");
  assert_host ("https://h", "https://h:443");
  assert_host ("http://h", "http://h:80");
  assert_host ("::1", "http://[::1]:11434");
  assert_host ("[::1]", "http://[::1]:11434");
  assert_host ("[::1]:8080", "http://[::1]:8080");
  assert_host ("h:56789/path/", "http://h:56789/path");
  assert_host ("https://spark.example/ollama//", "https://spark.example:443/ollama");
  assert_host ("board.local", "http://board.local:11434");
  assert_host ("Board.Local:11434", "http://board.local:11434");
  assert_host ("HTTP://10.0.0.5:8000", "http://10.0.0.5:8000");
  /* A listening address as a target means this machine. */
  assert_host ("0.0.0.0", "http://127.0.0.1:11434");
  assert_host ("0.0.0.0:11434", "http://127.0.0.1:11434");
  assert_host ("[::]", "http://[::1]:11434");
  assert_host ("[::]:11434", "http://[::1]:11434");
  /* A port that is not a number gives the default, as Ollama does. */
  assert_host ("h:abc", "http://h:11434");
  assert_host ("https://h:99999", "https://h:443");
  /* envconfig.Host and envconfig.Var as Ollama's client reads
   * OLLAMA_HOST: an empty host is this machine, quotes around the value go,
   * bare ollama.com is its cloud over TLS. */
  assert_host (":11434", "http://127.0.0.1:11434");
  assert_host (":8080", "http://127.0.0.1:8080");
  assert_host ("\"10.0.0.5:11434\"", "http://10.0.0.5:11434");
  assert_host ("  'http://h:1/x'  ", "http://h:1/x");
  assert_host ("ollama.com", "https://ollama.com:443");
  assert_host ("http://ollama.com", "http://ollama.com:80");
  assert_host ("ollama.com:11434", "http://ollama.com:11434");
}

static void
test_host_invalid (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = hr_ollama_host_normalize ("ftp://h", &error);

  g_assert_null (url);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "\"ftp://h\" is not an Ollama address: use http:// or https://, or just host:port");
  g_clear_error (&error);

  url = hr_ollama_host_normalize ("my board:11434", &error);
  g_assert_null (url);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "\"my board\" is not a host name or an IP address");
}

/* Userinfo is a proxy's basic auth, handed out, never printed. */
static void
test_host_userinfo (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *user = NULL, *password = NULL, *url = NULL;

  url = hr_ollama_host_normalize_full ("http://admin:secret@Board.local:11434/ollama/", &user, &password, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, "http://board.local:11434/ollama");
  g_assert_cmpstr (user, ==, "admin");
  g_assert_cmpstr (password, ==, "secret");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&user, g_free);
  g_clear_pointer (&password, g_free);

  url = hr_ollama_host_normalize_full ("me:p%40ss%3Aw@10.0.0.5", &user, &password, &error);
  g_assert_cmpstr (url, ==, "http://10.0.0.5:11434");
  g_assert_cmpstr (user, ==, "me");
  g_assert_cmpstr (password, ==, "p@ss:w");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&user, g_free);
  g_clear_pointer (&password, g_free);

  /* Plain normalize drops it; no userinfo gives no user. */
  url = hr_ollama_host_normalize ("https://admin:secret@h", &error);
  g_assert_cmpstr (url, ==, "https://h:443");
  g_clear_pointer (&url, g_free);
  url = hr_ollama_host_normalize_full ("h", &user, &password, &error);
  g_assert_null (user);
  g_assert_null (password);
  g_clear_pointer (&url, g_free);

  /* A message never shows the password. */
  url = hr_ollama_host_normalize_full ("ftp://admin:secret@h", &user, &password, &error);
  g_assert_null (url);
  g_assert_cmpstr (error->message, ==,
                   "\"ftp://admin:***@h\" is not an Ollama address: use http:// or https://, or just host:port");
  g_clear_error (&error);
  url = hr_ollama_host_normalize_full ("http://admin:secret@my board", &user, &password, &error);
  g_assert_null (url);
  g_assert_null (strstr (error->message, "secret"));
}

static void
assert_name (const char *text,
             const char *host,
             const char *ns,
             const char *model,
             const char *tag)
{
  g_autoptr(GError) error = NULL;
  HrOllamaModelName name;

  g_assert_true (hr_ollama_model_name_parse (text, &name, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (name.host, ==, host);
  g_assert_cmpstr (name.namespace_, ==, ns);
  g_assert_cmpstr (name.model, ==, model);
  g_assert_cmpstr (name.tag, ==, tag);
  hr_ollama_model_name_clear (&name);
}

static void
test_model_names (void)
{
  HrOllamaModelName name;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  assert_name ("llama3.2", NULL, NULL, "llama3.2", "latest");
  assert_name ("llama3.2:3b", NULL, NULL, "llama3.2", "3b");
  assert_name ("library/phi4", NULL, "library", "phi4", "latest");
  /* The tag is after the last ':' only when it comes after the last '/'. */
  assert_name ("hf.co/org/repo:Q4_K_M", "hf.co", "org", "repo", "Q4_K_M");
  assert_name ("host:5000/ns/m", "host:5000", "ns", "m", "latest");
  assert_name ("host:5000/ns/m:v2", "host:5000", "ns", "m", "v2");

  g_assert_true (hr_ollama_model_name_parse ("llama3.2", &name, NULL));
  text = hr_ollama_model_name_to_string (&name);
  g_assert_cmpstr (text, ==, "llama3.2:latest");
  hr_ollama_model_name_clear (&name);
  g_assert_null (name.model);

  g_assert_false (hr_ollama_model_name_parse ("a/b/c/d", &name, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "\"a/b/c/d\" is not a model name: write [host/][namespace/]model[:tag]");
  g_clear_error (&error);
  g_assert_false (hr_ollama_model_name_parse ("llama3.2:", &name, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hr_ollama_model_name_parse ("", &name, &error));
  g_assert_cmpstr (error->message, ==, "the model name is empty");
  g_clear_error (&error);
  g_assert_false (hr_ollama_model_name_parse ("rm -rf", &name, &error));
  g_assert_cmpstr (error->message, ==, "\"rm -rf\" is not a model name: it contains a space");

  g_assert_true (hr_ollama_model_name_equal ("llama3.2", "llama3.2:latest"));
  g_assert_true (hr_ollama_model_name_equal ("Llama3.2", "registry.ollama.ai/library/llama3.2:latest"));
  g_assert_false (hr_ollama_model_name_equal ("llama3.2", "llama3.2:3b"));
  g_assert_false (hr_ollama_model_name_equal ("hf.co/org/repo", "org/repo"));
  g_assert_false (hr_ollama_model_name_equal ("", "x"));
}

static void
test_digests (void)
{
  const char *hex = "dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff";
  g_autofree char *prefixed = g_strconcat ("sha256:", hex, NULL);
  g_autofree char *upper = g_ascii_strup (hex, -1);
  g_autofree char *blob = g_strconcat ("sha256-", hex, NULL);
  g_autofree char *a = hr_ollama_digest_bare (prefixed);
  g_autofree char *b = hr_ollama_digest_bare (hex);
  g_autofree char *c = hr_ollama_digest_bare (upper);
  g_autofree char *d = hr_ollama_digest_bare (blob);
  g_autofree char *e = hr_ollama_digest_prefixed (prefixed);
  g_autofree char *f = hr_ollama_digest_prefixed (hex);
  g_autofree char *g = hr_ollama_digest_short (prefixed);
  g_autofree char *h = hr_ollama_digest_bare ("sha256:1234");
  g_autofree char *i = hr_ollama_digest_bare ("zde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff");

  g_assert_cmpstr (a, ==, hex);
  g_assert_cmpstr (b, ==, hex);
  g_assert_cmpstr (c, ==, hex);
  g_assert_cmpstr (d, ==, hex);
  /* Never prefixed twice. */
  g_assert_cmpstr (e, ==, prefixed);
  g_assert_cmpstr (f, ==, prefixed);
  g_assert_cmpstr (g, ==, "dde5aa3fc5ff");
  g_assert_null (h);
  g_assert_null (i);
  g_assert_null (hr_ollama_digest_bare (NULL));
}

static void
assert_size (guint64     bytes,
             const char *expected)
{
  g_autofree char *text = hr_ollama_format_size (bytes);
  g_assert_cmpstr (text, ==, expected);
}

static void
test_ps_size (void)
{
  /* docs/seed-figures.md, "What Ollama reported": package 9,053,114,464 -> 9.1 GB,
   * 2,019,377,376 -> 2.0 GB. docs/ollama.md "/api/ps": gemma4 at 4096 6,591,830,464. */
  assert_size (9053114464, "9.1 GB");
  assert_size (2019377376, "2.0 GB");
  assert_size (6591830464, "6.6 GB");
  assert_size (2000000000, "2 GB");
  assert_size (9999999999, "10.0 GB");
  assert_size (10999999999, "10 GB");
  assert_size (19700000000, "19 GB");
  assert_size (121000000000, "121 GB");
  assert_size (1500000000000, "1.5 TB");
  assert_size (308230000, "308 MB");
  assert_size (1500, "1.5 KB");
  assert_size (999, "999 B");
  assert_size (0, "0 B");
}

static void
test_ps_processor (void)
{
  char *text;

  text = hr_ollama_format_processor (9700000000, 9700000000);
  g_assert_cmpstr (text, ==, "100% GPU");
  g_free (text);
  text = hr_ollama_format_processor (9700000000, 0);
  g_assert_cmpstr (text, ==, "100% CPU");
  g_free (text);
  /* docs/ollama.md "/api/ps": gemma4 at 4096, 81% GPU. */
  text = hr_ollama_format_processor (6591830464, 5333539264);
  g_assert_cmpstr (text, ==, "19%/81% CPU/GPU");
  g_free (text);
  text = hr_ollama_format_processor (1000, 640);
  g_assert_cmpstr (text, ==, "36%/64% CPU/GPU");
  g_free (text);
  text = hr_ollama_format_processor (1000, 2000);
  g_assert_cmpstr (text, ==, "Unknown");
  g_free (text);
}

static void
test_ps_until (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_utc (2026, 11, 29, 12, 0, 0);
  g_autoptr(GDateTime) four = g_date_time_add_seconds (now, 4 * 60 + 30);
  g_autoptr(GDateTime) one = g_date_time_add_seconds (now, 65);
  g_autoptr(GDateTime) past = g_date_time_add_seconds (now, -1);
  g_autoptr(GDateTime) forever = g_date_time_new_utc (2318, 3, 1, 0, 0, 0);
  char *text;

  text = hr_ollama_format_until (four, now);
  g_assert_cmpstr (text, ==, "4 minutes from now");
  g_free (text);
  text = hr_ollama_format_until (one, now);
  g_assert_cmpstr (text, ==, "About a minute from now");
  g_free (text);
  text = hr_ollama_format_until (past, now);
  g_assert_cmpstr (text, ==, "Stopping...");
  g_free (text);
  text = hr_ollama_format_until (forever, now);
  g_assert_cmpstr (text, ==, "Forever");
  g_free (text);
  text = hr_ollama_format_until (NULL, now);
  g_assert_cmpstr (text, ==, "Never");
  g_free (text);
}

/* A variant's name says what changed, after the tag or as the tag. */
static void
test_variant_name (void)
{
  static const struct { const char *source; guint32 context; gint32 num_gpu; const char *name; } cases[] = {
    { "llama3.1:8b", 24576, -1, "llama3.1:8b-ctx24k" },
    { "llama3.1", 24576, -1, "llama3.1:ctx24k" },
    { "llama3.1:8b", 5000, 20, "llama3.1:8b-ctx5000-gpu20" },
    { "qwen3:8b", 0, 0, "qwen3:8b-gpu0" },
    { "registry.local:5000/team/m", 8192, -1, "registry.local:5000/team/m:ctx8k" },
    { "registry.local:5000/team/m:q4", 131072, -1, "registry.local:5000/team/m:q4-ctx128k" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = hr_ollama_variant_name (cases[i].source, cases[i].context, cases[i].num_gpu);

      g_assert_cmpstr (name, ==, cases[i].name);
    }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/ollama-host/normalize", test_host_rules);
  g_test_add_func ("/ollama-host/invalid", test_host_invalid);
  g_test_add_func ("/ollama-host/userinfo", test_host_userinfo);
  g_test_add_func ("/ollama-host/model-names", test_model_names);
  g_test_add_func ("/ollama-host/digests", test_digests);
  g_test_add_func ("/ollama-host/ps-size", test_ps_size);
  g_test_add_func ("/ollama-host/ps-processor", test_ps_processor);
  g_test_add_func ("/ollama-host/ps-until", test_ps_until);

  g_test_add_func ("/ollama-host/variant-name", test_variant_name);
  return g_test_run ();
}
