/* test-ollama-api.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * app/core/ollama/hr-ollama-api.c without a server: Ollama's answers (shapes from
 * docs/ollama.md) in, exact fields out.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-json.h"
#include "hr-ollama-api.h"

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_error_text (void)
{
  const char *body = "{\"error\":\"model 'x' not found\"}";
  g_autofree char *text = hr_ollama_api_error_text (body, strlen (body));

  g_assert_cmpstr (text, ==, "model 'x' not found");
  g_assert_null (hr_ollama_api_error_text ("404 page not found", 18));
  g_assert_null (hr_ollama_api_error_text ("{\"error\":42}", 12));
  g_assert_null (hr_ollama_api_error_text ("[\"error\"]", 9));
  g_assert_null (hr_ollama_api_error_text (NULL, 0));
  g_assert_null (hr_ollama_api_error_text ("", 0));
  /* An empty error is no error, as Ollama's client reads it. */
  g_assert_null (hr_ollama_api_error_text ("{\"error\":\"\"}", strlen ("{\"error\":\"\"}")));
}

/* A 401's signin_url (api/types.go, AuthorizationError). */
static void
test_signin_url (void)
{
  const char *body = "{\"error\":\"unauthorized\",\"signin_url\":\"https://ollama.com/connect?name=b\\u001b[2J\"}";
  g_autofree char *url = hr_ollama_api_signin_url (body, strlen (body));

  /* Made safe like every text from outside. */
  g_assert_cmpstr (url, ==, "https://ollama.com/connect?name=b\\x1b[2J");
  g_assert_null (hr_ollama_api_signin_url ("{\"error\":\"unauthorized\"}", strlen ("{\"error\":\"unauthorized\"}")));
  g_assert_null (hr_ollama_api_signin_url ("{\"signin_url\":\"\"}", strlen ("{\"signin_url\":\"\"}")));
  g_assert_null (hr_ollama_api_signin_url ("{\"signin_url\":7}", strlen ("{\"signin_url\":7}")));
}

static void
test_version (void)
{
  g_autoptr(JsonNode) ok = parse ("{\"version\":\"0.31.2\"}");
  g_autoptr(JsonNode) wrong = parse ("{\"version\":31}");
  g_autoptr(GError) error = NULL;
  g_autofree char *version = hr_ollama_api_parse_version (ok, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (version, ==, "0.31.2");
  g_assert_null (hr_ollama_api_parse_version (wrong, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "no \"version\"");
  g_clear_error (&error);
  g_assert_null (hr_ollama_api_parse_version (NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
}

static void
test_tags (void)
{
  g_autoptr(JsonNode) root = parse (
    "{\"models\":[{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\","
    "\"modified_at\":\"2025-01-01T00:00:00Z\",\"size\":2019393189,"
    "\"digest\":\"a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72\","
    "\"details\":{\"format\":\"gguf\",\"family\":\"llama\",\"parameter_size\":\"3.2B\","
    "\"quantization_level\":\"Q4_K_M\"}},"
    "{\"model\":\"no-name\"}, 7, {\"name\":\"tiny\"}]}");
  g_autoptr(JsonNode) none = parse ("{\"models\":null}");
  g_autoptr(JsonNode) bad = parse ("{\"models\":{}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = hr_ollama_api_parse_tags (root, &error);
  g_autoptr(GPtrArray) empty = NULL;
  const HrOllamaModel *m;

  g_assert_no_error (error);
  g_assert_cmpuint (models->len, ==, 2);
  m = g_ptr_array_index (models, 0);
  g_assert_cmpstr (m->name, ==, "llama3.2:latest");
  g_assert_cmpuint (m->size, ==, G_GUINT64_CONSTANT (2019393189));
  g_assert_cmpstr (m->digest, ==, "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72");
  g_assert_cmpstr (m->format, ==, "gguf");
  g_assert_cmpstr (m->family, ==, "llama");
  g_assert_cmpstr (m->parameter_size, ==, "3.2B");
  g_assert_cmpstr (m->quantization_level, ==, "Q4_K_M");
  g_assert_cmpstr (m->modified_at, ==, "2025-01-01T00:00:00Z");
  m = g_ptr_array_index (models, 1);
  g_assert_cmpstr (m->name, ==, "tiny");
  g_assert_cmpuint (m->size, ==, 0);
  g_assert_null (m->family);

  empty = hr_ollama_api_parse_tags (none, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (empty->len, ==, 0);
  g_assert_null (hr_ollama_api_parse_tags (bad, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "\"models\" is not a list");
}

static void
test_ps (void)
{
  g_autoptr(JsonNode) root = parse (
    "{\"models\":[{\"name\":\"qwen2.5:3b\",\"model\":\"qwen2.5:3b\",\"size\":3260000000,"
    "\"size_vram\":2900000000,\"context_length\":8192,"
    "\"digest\":\"sha256:357c53fb659c5076de1d65ccb0b397446227b71a42be9d1603d46168015c9e4b\","
    "\"expires_at\":\"2025-06-01T12:05:00Z\","
    "\"details\":{\"family\":\"qwen2\",\"parameter_size\":\"3.1B\",\"quantization_level\":\"Q4_K_M\"}},"
    "{\"name\":\"odd\"}]}");
  g_autoptr(JsonNode) array = parse ("[]");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = hr_ollama_api_parse_ps (root, &error);
  const HrOllamaLoaded *l;

  g_assert_no_error (error);
  g_assert_cmpuint (loaded->len, ==, 2);
  l = g_ptr_array_index (loaded, 0);
  g_assert_cmpstr (l->name, ==, "qwen2.5:3b");
  g_assert_cmpuint (l->size, ==, G_GUINT64_CONSTANT (3260000000));
  g_assert_cmpuint (l->size_vram, ==, G_GUINT64_CONSTANT (2900000000));
  g_assert_cmpuint (l->context_length, ==, 8192);
  g_assert_cmpstr (l->digest, ==, "357c53fb659c5076de1d65ccb0b397446227b71a42be9d1603d46168015c9e4b");
  g_assert_nonnull (l->expires_at);
  g_assert_cmpint (g_date_time_to_unix (l->expires_at), ==, G_GINT64_CONSTANT (1748779500));
  g_assert_cmpstr (l->quantization_level, ==, "Q4_K_M");
  l = g_ptr_array_index (loaded, 1);
  g_assert_cmpuint (l->context_length, ==, 0);
  g_assert_null (l->expires_at);

  g_assert_null (hr_ollama_api_parse_ps (array, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "not a JSON object");
}

/* Every impossible number fails the answer with the field and
 * the value, never a silent 0. */
static void
test_impossible (void)
{
  static const struct { const char *entry; const char *message; } ps[] = {
    /* json-glib 1.6 reads 2^64 - 1 and 2^70 as the gint64 -1, 2^63 as
     * -2^63: the message shows what it read and that it may be too large. */
    { "\"size\":18446744073709551615", "/api/ps gives m a \"size\" of -1 (negative, or 2^63 or more), which is impossible; nothing was read from it" },
    { "\"size\":1180591620717411303424", "/api/ps gives m a \"size\" of -1 (negative, or 2^63 or more), which is impossible; nothing was read from it" },
    { "\"size\":9223372036854775808", "/api/ps gives m a \"size\" of -9223372036854775808 (negative, or 2^63 or more), which is impossible; nothing was read from it" },
    { "\"size\":-5", "/api/ps gives m a \"size\" of -5 (negative, or 2^63 or more), which is impossible; nothing was read from it" },
    { "\"size\":1e999", "/api/ps gives m a \"size\" of a number too large to read, which is impossible; nothing was read from it" },
    { "\"size\":\"big\"", "/api/ps gives m a \"size\" of \"big\", which is impossible; nothing was read from it" },
    { "\"size\":null", "/api/ps gives m a \"size\" of null, which is impossible; nothing was read from it" },
    { "\"size\":10,\"size_vram\":11", "/api/ps gives m a \"size_vram\" of 11, which is impossible; nothing was read from it" },
    { "\"context_length\":1099511627776", "/api/ps gives m a \"context_length\" of 1099511627776, which is impossible; nothing was read from it" },
    { "\"expires_at\":\"soon\"", "/api/ps gives m an \"expires_at\" of \"soon\", which is not a date" },
    { "\"expires_at\":7", "/api/ps gives m an \"expires_at\" of 7, which is not a date" },
  };
  static const char *tags[] = {
    "\"size\":-5", "\"size\":\"big\"", "\"size\":9223372036854775808", "\"size\":null", "\"size\":1.5",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"models\":[{\"name\":\"m\",%s}]}", ps[i].entry);
      g_autoptr(JsonNode) root = parse (text);
      g_autoptr(GError) error = NULL;

      g_assert_null (hr_ollama_api_parse_ps (root, &error));
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT);
      g_assert_cmpstr (error->message, ==, ps[i].message);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"models\":[{\"name\":\"m\",%s}]}", tags[i]);
      g_autoptr(JsonNode) root = parse (text);
      g_autoptr(GError) error = NULL;

      g_assert_null (hr_ollama_api_parse_tags (root, &error));
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT);
      g_assert_nonnull (strstr (error->message, "/api/tags gives m a \"size\" of "));
    }

  {
    g_autoptr(JsonNode) root = parse ("{\"models\":[{\"name\":42,\"size\":1}]}");
    g_autoptr(GError) error = NULL;

    g_assert_null (hr_ollama_api_parse_tags (root, &error));
    g_assert_cmpstr (error->message, ==, "/api/tags lists a model whose \"name\" is 42, not a model name");
  }
}

/* Text from outside: control characters escaped, length capped. */
static void
test_safe_text (void)
{
  g_autofree char *escaped = hr_json_safe_text ("pulling \033[2J\033]0;x\007 done\n", -1, 80);
  g_autofree char *big = g_malloc (50 * 1024 * 1024 + 1);
  g_autofree char *capped = NULL;

  g_assert_cmpstr (escaped, ==, "pulling \\x1b[2J\\x1b]0;x\\x07 done\\n");
  memset (big, '9', 50 * 1024 * 1024);
  big[50 * 1024 * 1024] = '\0';
  capped = hr_json_safe_text (big, -1, 80);
  g_assert_cmpuint (g_utf8_strlen (capped, -1), ==, 81);
  g_assert_true (g_str_has_suffix (capped, "\u2026"));
}

/* @json read as a stream line without an error; @line points into the
 * node. Returns: (transfer full): the node, to keep while @line is read */
static JsonNode *
read_line (const char        *json,
           gboolean           chat,
           HrOllamaReplyLine *line)
{
  JsonNode *node = parse (json);
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_ollama_api_reply_line (node, chat, line, &error));
  g_assert_no_error (error);
  return node;
}

#define GEN_LINE "{\"response\":\"Hel\",\"thinking\":\"hm\",\"done\":false}"
#define DONE_LINE "{\"response\":\"\",\"done\":true,\"done_reason\":\"stop\",\"total_duration\":5908400000," \
                  "\"load_duration\":12000000,\"prompt_eval_count\":26,\"prompt_eval_duration\":130000000," \
                  "\"eval_count\":89,\"eval_duration\":3817895000}"

static void
test_reply_lines (void)
{
  HrOllamaReplyLine line;

  g_autoptr(JsonNode) node = read_line (GEN_LINE, FALSE, &line);
  g_assert_cmpstr (line.content, ==, "Hel");
  g_assert_cmpstr (line.thinking, ==, "hm");
  g_assert_false (line.done);
  g_assert_null (line.error);
}

/* Chat's text is in message; generate's "response" is not read there. */
static void
test_reply_lines_chat (void)
{
  HrOllamaReplyLine line;

  g_autoptr(JsonNode) node = read_line ("{\"message\":{\"role\":\"assistant\",\"content\":\"lo\"},\"done\":false}", TRUE, &line);
  g_assert_cmpstr (line.content, ==, "lo");
  g_assert_null (line.thinking);
  g_autoptr(JsonNode) as_chat = read_line (GEN_LINE, TRUE, &line);
  g_assert_null (line.content);
}

/* A final line with done_reason and no done field (some Ollama-compatible
 * servers) is the last line; done:false stays not. */
static void
test_reply_lines_done_reason (void)
{
  HrOllamaReplyLine line;

  g_autoptr(JsonNode) node = read_line ("{\"response\":\"\",\"done_reason\":\"stop\",\"eval_count\":3}", FALSE, &line);
  g_assert_true (line.done);
  g_autoptr(JsonNode) not_done = read_line ("{\"response\":\"\",\"done\":false,\"done_reason\":\"stop\"}", FALSE, &line);
  g_assert_false (line.done);
}

static void
test_reply_lines_error (void)
{
  HrOllamaReplyLine line;

  g_autoptr(JsonNode) node = read_line ("{\"error\":\"out of memory\"}", FALSE, &line);
  g_assert_cmpstr (line.error, ==, "out of memory");
  /* An empty "error" is none, as api/client.go reads a stream. */
  g_autoptr(JsonNode) empty = read_line ("{\"error\":\"\",\"response\":\"a\",\"done\":false}", FALSE, &line);
  g_assert_null (line.error);
  g_assert_cmpstr (line.content, ==, "a");
}

static void
test_reply_lines_not_object (void)
{
  g_autoptr(JsonNode) arr = parse ("[1]");
  g_autoptr(GError) error = NULL;
  HrOllamaReplyLine line;

  g_assert_false (hr_ollama_api_reply_line (arr, FALSE, &line, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "a stream line that is not an object");
}

static void
test_reply_lines_done (void)
{
  g_autoptr(JsonNode) done = parse (DONE_LINE);
  g_autoptr(HrOllamaReply) reply = g_new0 (HrOllamaReply, 1);
  HrOllamaReplyLine line;

  g_autoptr(JsonNode) node = read_line (DONE_LINE, FALSE, &line);
  g_assert_true (line.done);
  hr_ollama_api_reply_done (json_node_get_object (done), reply);
  g_assert_cmpstr (reply->done_reason, ==, "stop");
  g_assert_cmpint (reply->total_duration, ==, G_GINT64_CONSTANT (5908400000));
  g_assert_cmpint (reply->load_duration, ==, 12000000);
  g_assert_cmpint (reply->prompt_eval_count, ==, 26);
  g_assert_cmpint (reply->prompt_eval_duration, ==, 130000000);
  g_assert_cmpint (reply->eval_count, ==, 89);
  g_assert_cmpint (reply->eval_duration, ==, G_GINT64_CONSTANT (3817895000));
}

/* Absent figures are -1, not 0. */
static void
test_reply_lines_absent_figures (void)
{
  g_autoptr(JsonNode) done = parse (DONE_LINE);
  g_autoptr(JsonNode) gen = parse (GEN_LINE);
  g_autoptr(HrOllamaReply) reply = g_new0 (HrOllamaReply, 1);

  hr_ollama_api_reply_done (json_node_get_object (done), reply);
  hr_ollama_api_reply_done (json_node_get_object (gen), reply);
  g_assert_null (reply->done_reason);
  g_assert_cmpint (reply->eval_count, ==, -1);
  g_assert_cmpint (reply->total_duration, ==, -1);
}

static void
test_rates (void)
{
  g_autofree char *tps = hr_ollama_format_tps (hr_ollama_rate_tps (89, G_GINT64_CONSTANT (3817895000)));
  g_autofree char *ms = hr_ollama_format_ms (G_GINT64_CONSTANT (5908400000));
  g_autofree char *na = hr_ollama_format_tps (hr_ollama_rate_tps (89, 0));

  /* docs/seed-figures.md, "Measuring a model": 89 tokens in 3,817,895,000 ns. */
  g_assert_cmpstr (tps, ==, "23.3");
  g_assert_cmpstr (ms, ==, "5908.4");
  g_assert_cmpstr (na, ==, "n/a");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ollama-api/error-text", test_error_text);
  g_test_add_func ("/ollama-api/signin-url", test_signin_url);
  g_test_add_func ("/ollama-api/version", test_version);
  g_test_add_func ("/ollama-api/tags", test_tags);
  g_test_add_func ("/ollama-api/ps", test_ps);
  g_test_add_func ("/ollama-api/impossible", test_impossible);
  g_test_add_func ("/ollama-api/safe-text", test_safe_text);
  g_test_add_func ("/ollama-api/reply-lines/generate", test_reply_lines);
  g_test_add_func ("/ollama-api/reply-lines/chat", test_reply_lines_chat);
  g_test_add_func ("/ollama-api/reply-lines/done-reason", test_reply_lines_done_reason);
  g_test_add_func ("/ollama-api/reply-lines/error", test_reply_lines_error);
  g_test_add_func ("/ollama-api/reply-lines/not-object", test_reply_lines_not_object);
  g_test_add_func ("/ollama-api/reply-lines/done", test_reply_lines_done);
  g_test_add_func ("/ollama-api/reply-lines/absent-figures", test_reply_lines_absent_figures);
  g_test_add_func ("/ollama-api/rates", test_rates);

  return g_test_run ();
}
