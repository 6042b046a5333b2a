/* test-ollama-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaClient against the fake Ollama (tests/fake-ollama.c), which
 * speaks docs/ollama.md: answers, streams with injected
 * delays, and every failure a person must be able to act on.
 */
#include "config.h"

#include <locale.h>

#include "fake-ollama.h"
#include "hr-net-error.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"

typedef struct {
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  g_assert_null (wait->result);
  wait->result = g_object_ref (result);
}

static GAsyncResult *
wait_for (Wait *wait)
{
  while (wait->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return wait->result;
}

static gboolean
on_quit_timeout (gpointer user_data)
{
  gboolean *done = user_data;

  *done = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for @ms milliseconds. */
static void
spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, on_quit_timeout, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
spin_until_streams_end (FakeOllama *fake)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (fake_ollama_active_streams (fake) > 0 && g_get_monotonic_time () < end)
    spin (5);
  g_assert_cmpuint (fake_ollama_active_streams (fake), ==, 0);
}

static HrOllamaClient *
client_for (const char *url)
{
  g_autoptr(GError) error = NULL;
  HrOllamaClient *client = hr_ollama_client_new (url, &error);

  g_assert_no_error (error);
  return client;
}

static GError *
version_error (HrOllamaClient *client)
{
  Wait wait = { NULL };
  GError *error = NULL;
  g_autofree char *version = NULL;

  hr_ollama_client_version_async (client, NULL, on_done, &wait);
  version = hr_ollama_client_version_finish (client, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (version);
  return error;
}

/* A fake Ollama with llama3.2:3b loaded at 4,096 tokens, and a client for
 * its bare host:port. */
typedef struct {
  FakeOllama     *fake;
  HrOllamaClient *client;
} LoadedServer;

static void
loaded_server_set_up (LoadedServer  *f,
                      gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (f->fake);
  fake_ollama_load (f->fake, "llama3.2:3b", 4096);
  f->client = client_for (fake_ollama_get_url (f->fake) + strlen ("http://"));
}

static void
loaded_server_tear_down (LoadedServer  *f,
                         gconstpointer  data)
{
  g_clear_object (&f->client);
  fake_ollama_free (f->fake);
}

static void
test_version_tags_ps_show (LoadedServer  *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;
  Wait wait = { NULL };

  /* A bare host:port is normalised. */
  g_assert_cmpstr (hr_ollama_client_get_base_url (f->client), ==, fake_ollama_get_url (f->fake));
  hr_ollama_client_version_async (f->client, NULL, on_done, &wait);
  version = hr_ollama_client_version_finish (f->client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (version, ==, "0.31.2");
  g_clear_object (&wait.result);
  /* No token set: no Authorization header. */
  g_assert_null (fake_ollama_last_authorization (f->fake));
}

static void
test_tags (LoadedServer  *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = NULL;
  HrOllamaModel *model;
  Wait wait = { NULL };

  hr_ollama_client_tags_async (f->client, NULL, on_done, &wait);
  models = hr_ollama_client_tags_finish (f->client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_cmpuint (models->len, ==, 1);
  model = g_ptr_array_index (models, 0);
  g_assert_cmpstr (model->name, ==, "llama3.2:3b");
  g_assert_cmpstr (model->digest, ==, "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72");
  g_assert_cmpuint (model->size, ==, 2019393189);
  g_assert_cmpstr (model->family, ==, "llama");
  g_assert_cmpstr (model->parameter_size, ==, "3.2B");
  g_assert_cmpstr (model->quantization_level, ==, "Q4_K_M");
  g_assert_cmpstr (model->format, ==, "gguf");
}

static void
test_ps (LoadedServer  *f,
         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autofree char *size = NULL;
  g_autofree char *processor = NULL;
  HrOllamaLoaded *l;
  Wait wait = { NULL };

  hr_ollama_client_ps_async (f->client, NULL, on_done, &wait);
  loaded = hr_ollama_client_ps_finish (f->client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_cmpuint (loaded->len, ==, 1);
  l = g_ptr_array_index (loaded, 0);
  /* 2,019,377,376 + 100,000,000 + 114,688 x 4096 */
  g_assert_cmpuint (l->size, ==, 2589139424);
  g_assert_cmpuint (l->size_vram, ==, 2589139424);
  g_assert_cmpuint (l->context_length, ==, 4096);
  g_assert_nonnull (l->expires_at);
  size = hr_ollama_format_size (l->size);
  processor = hr_ollama_format_processor (l->size, l->size_vram);
  /* docs/seed-figures.md, "What Ollama reported": llama3.2:3b at 4096, 2.6 GB, 100% GPU */
  g_assert_cmpstr (size, ==, "2.6 GB");
  g_assert_cmpstr (processor, ==, "100% GPU");
}

static void
test_show (LoadedServer  *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = NULL;
  Wait wait = { NULL };

  hr_ollama_client_show_async (f->client, "llama3.2:3b", NULL, on_done, &wait);
  show = hr_ollama_client_show_finish (f->client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_cmpuint (show->spec->layers, ==, 28);
  g_assert_cmpuint (show->spec->kv_heads, ==, 8);
  g_assert_cmpuint (show->spec->parameters, ==, 3212749888);
  g_assert_cmpuint (show->n_tensors, ==, 255);
  /* token_embd 323,205,120 + 28 layers x 63,946,752 + 12,288 + 256 */
  g_assert_cmpuint (show->weight_bytes, ==, 2113726720);
  g_assert_true (show->tied_embeddings);
  g_assert_cmpstr (show->quantization, ==, "Q4_K_M");
}

typedef struct {
  guint   chunks;
  GString *seen;
} Chunks;

static void
on_chunk (const char *content,
          const char *thinking,
          gpointer    user_data)
{
  Chunks *chunks = user_data;

  chunks->chunks++;
  g_string_append (chunks->seen, content);
}

/* One generate on a fake whose first non-empty chunk comes 150 ms after
 * the request and the next ones 250 ms apart (an empty chunk first), with
 * docs/seed-figures.md's "Measuring a model" figures: 89 tokens in
 * 3,817,895,000 ns. */
typedef struct {
  FakeOllama     *fake;
  HrOllamaClient *client;
  HrOllamaReply  *reply;
  Chunks          chunks;
} Generated;

static void
generated_set_up (Generated     *f,
                  gconstpointer  data)
{
  g_autoptr(JsonObject) options = json_object_new ();
  g_autoptr(GError) error = NULL;
  Wait wait = { NULL };

  f->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (f->fake);
  fake_ollama_load (f->fake, "llama3.2:3b", 2048);
  fake_ollama_set_stream_timing (f->fake, 150, 250, 0, TRUE);
  fake_ollama_set_final_timing (f->fake, 0, 18, 62570000, 89, 3817895000);
  f->client = client_for (fake_ollama_get_url (f->fake));
  f->chunks.seen = g_string_new (NULL);
  json_object_set_int_member (options, "num_ctx", 2048);
  json_object_set_int_member (options, "temperature", 0);
  hr_ollama_client_generate_async (f->client, "llama3.2:3b", "Explain Kubernetes scheduling in three sentences.",
                                   options, on_chunk, &f->chunks, NULL, on_done, &wait);
  f->reply = hr_ollama_client_generate_finish (f->client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
}

static void
generated_tear_down (Generated     *f,
                     gconstpointer  data)
{
  g_string_free (f->chunks.seen, TRUE);
  g_clear_pointer (&f->reply, hr_ollama_reply_free);
  spin_until_streams_end (f->fake);
  g_clear_object (&f->client);
  fake_ollama_free (f->fake);
}

/* TTFT is client-observed: never before the injected delay, and before
 * the second token (250 ms later, a margin no loaded machine eats), so it
 * is the first token's time and not the empty chunk's or the reply's. */
static void
test_generate_ttft (Generated     *f,
                    gconstpointer  data)
{
  g_test_message ("client TTFT %.2f ms for a first token injected at 150 ms", f->reply->ttft_ms);
  g_assert_cmpfloat (f->reply->ttft_ms, >=, 150.0);
  g_assert_cmpfloat (f->reply->ttft_ms, <, 150.0 + 250.0);
  g_assert_cmpfloat (f->reply->client_total_ms, >=, f->reply->ttft_ms + 4 * 250);
}

static void
test_generate_text (Generated     *f,
                    gconstpointer  data)
{
  g_assert_cmpstr (f->reply->text, ==, "Kubernetes schedules pods onto nodes.");
  g_assert_cmpstr (f->chunks.seen->str, ==, "Kubernetes schedules pods onto nodes.");
  g_assert_cmpuint (f->chunks.chunks, ==, 5);
  g_assert_null (f->reply->thinking);
  g_assert_cmpstr (f->reply->done_reason, ==, "stop");
}

static void
test_generate_durations (Generated     *f,
                         gconstpointer  data)
{
  HrOllamaReply *reply = f->reply;
  g_autofree char *load = NULL;
  g_autofree char *tps = NULL;
  g_autofree char *prefill = NULL;

  /* Warm: Ollama leaves a zero load_duration out; it reads as n/a. */
  g_assert_cmpint (reply->load_duration, ==, -1);
  load = hr_ollama_format_ms (reply->load_duration);
  g_assert_cmpstr (load, ==, "n/a");
  g_assert_cmpint (reply->eval_count, ==, 89);
  g_assert_cmpint (reply->eval_duration, ==, 3817895000);
  g_assert_cmpint (reply->prompt_eval_count, ==, 18);
  g_assert_cmpint (reply->total_duration, ==, 62570000 + 3817895000);
  tps = hr_ollama_format_tps (hr_ollama_rate_tps (reply->eval_count, reply->eval_duration));
  g_assert_cmpstr (tps, ==, "23.3");
  prefill = hr_ollama_format_tps (hr_ollama_rate_tps (reply->prompt_eval_count, reply->prompt_eval_duration));
  g_assert_cmpstr (prefill, ==, "287.7");
}

static void
test_generate_request (Generated     *f,
                       gconstpointer  data)
{
  JsonObject *sent = json_node_get_object (fake_ollama_last_body (f->fake, "/api/generate"));

  g_assert_true (json_object_get_boolean_member (sent, "stream"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (sent, "options"), "num_ctx"), ==, 2048);
}

static void
test_rates_never_divide_by_zero (void)
{
  g_autofree char *a = hr_ollama_format_tps (hr_ollama_rate_tps (89, 0));
  g_autofree char *b = hr_ollama_format_tps (hr_ollama_rate_tps (-1, 100));
  g_autofree char *c = hr_ollama_format_tps (hr_ollama_rate_tps (96, -1));
  g_autofree char *d = hr_ollama_format_ms (5908400000);

  g_assert_cmpstr (a, ==, "n/a");
  g_assert_cmpstr (b, ==, "n/a");
  g_assert_cmpstr (c, ==, "n/a");
  g_assert_cmpstr (d, ==, "5908.4");
  g_assert_cmpfloat_with_epsilon (hr_ollama_rate_tps (89, 3817895000), 23.311274930295358, 1e-9);
}

static void
test_chat (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaReply) reply = NULL;
  g_autoptr(JsonArray) messages = json_array_new ();
  JsonObject *message = json_object_new ();
  Chunks chunks = { 0, g_string_new (NULL) };
  Wait wait = { NULL };
  JsonObject *sent;

  fake_ollama_add_llama32 (fake);
  client = client_for (fake_ollama_get_url (fake));
  json_object_set_string_member (message, "role", "user");
  json_object_set_string_member (message, "content", "Hello");
  json_array_add_object_element (messages, message);

  hr_ollama_client_chat_async (client, "llama3.2:3b", messages, NULL, on_chunk, &chunks, NULL, on_done, &wait);
  reply = hr_ollama_client_chat_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_cmpstr (reply->text, ==, "Kubernetes schedules pods onto nodes.");
  g_assert_cmpuint (chunks.chunks, ==, 5);
  g_assert_cmpfloat (reply->ttft_ms, >=, 0);
  sent = json_node_get_object (fake_ollama_last_body (fake, "/api/chat"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (sent, "messages")), ==, 1);

  g_string_free (chunks.seen, TRUE);
  spin_until_streams_end (fake);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

static void
test_connection_refused (void)
{
  g_autofree char *url = fake_ollama_refused_url ();
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autoptr(GError) error = version_error (client);
  g_autofree char *expected =
    g_strdup_printf ("nothing is listening at %s; is `ollama serve` running, and bound to an address this machine can reach?", url);

  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_resolve_and_tls (void)
{
  FakeOllama *fake = fake_ollama_new_tls ();
  const char *https = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) tls = client_for (https);
  /* .invalid never resolves (RFC 6761). */
  g_autoptr(HrOllamaClient) dns = client_for ("board.invalid");
  g_autofree char *expected = NULL;
  GError *error = NULL;

  error = version_error (dns);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_RESOLVE);
  g_assert_cmpstr (error->message, ==,
                   "the host name in http://board.invalid:11434 does not resolve; check its spelling, or use the board's IP address");
  g_clear_error (&error);

  /* A certificate nobody vouches for. */
  error = version_error (tls);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TLS);
  expected = g_strdup_printf ("the secure connection to %s failed (", https);
  g_assert_true (g_str_has_prefix (error->message, expected));
  g_assert_true (g_str_has_suffix (error->message, "); check the server's certificate, or use http:// if it does not speak TLS"));
  g_clear_error (&error);

  g_clear_object (&tls);
  fake_ollama_free (fake);
}

/* 404 with Ollama's JSON: the model is missing, pull it. */
static void
test_status_errors (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  GError *error = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(HrOllamaShow) show = NULL;
  Wait wait = { NULL };

  hr_ollama_client_show_async (client, "nosuch", NULL, on_done, &wait);
  show = hr_ollama_client_show_finish (client, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (show);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND);
  expected = g_strdup_printf ("model 'nosuch' not found: nosuch is not on the board at %s; pull it first", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

/* 404 in plain text: the path prefix is wrong. */
static void
test_status_errors_wrong_prefix (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autofree char *prefixed = g_strconcat (url, "/ollama/", NULL);
  g_autoptr(HrOllamaClient) wrong_prefix = client_for (prefixed);
  g_autofree char *expected = NULL;
  GError *error = version_error (wrong_prefix);

  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH);
  expected = g_strdup_printf ("%s/ollama/api/version answered 404 with \"404 page not found\", not Ollama's JSON:"
                              " the address or its path prefix is wrong; use the address `ollama serve` listens on,"
                              " such as http://10.0.0.5:11434", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_clear_object (&wrong_prefix);
  fake_ollama_free (fake);
}

/* A fault of /api/version and the error the client makes of it; its
 * message a format of the server's URL. */
typedef struct {
  const char *path;
  FakeFault   fault;
  const char *fault_text;
  gint        code;
  const char *message;
  const char *suffix;   /* non-NULL: the message only begins with @message, and ends so */
} VersionFault;

static const VersionFault version_faults[] = {
  /* 500 with Ollama's own message. */
  { "/ollama-client/status-errors/server-500", FAKE_FAULT_500,
    "model requires more system memory (5.5 GiB) than is available (3.4 GiB)", HR_NET_ERROR_SERVER,
    "Ollama at %s failed: model requires more system memory (5.5 GiB) than is available (3.4 GiB)", NULL },
  /* 503 busy. */
  { "/ollama-client/status-errors/busy-503", FAKE_FAULT_503, NULL, HR_NET_ERROR_BUSY,
    "Ollama at %s is busy (server busy, please try again.  maximum pending requests exceeded)"
    "; try again in a moment", NULL },
  /* Invalid JSON. */
  { "/ollama-client/status-errors/not-json", FAKE_FAULT_INVALID_JSON, NULL, HR_NET_ERROR_INVALID_RESPONSE,
    "%s sent an answer that is not JSON (", "); is this address an Ollama server?" },
};

static void
test_status_errors_version_fault (gconstpointer data)
{
  const VersionFault *c = data;
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autofree char *expected = g_strdup_printf (c->message, url);
  GError *error = NULL;

  fake_ollama_set_fault (fake, "/api/version", c->fault, c->fault_text);
  error = version_error (client);
  g_assert_error (error, HR_NET_ERROR, c->code);
  if (c->suffix != NULL)
    {
      g_assert_true (g_str_has_prefix (error->message, expected));
      g_assert_true (g_str_has_suffix (error->message, c->suffix));
    }
  else
    g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

/* An answer over the cap. */
static void
test_status_errors_over_cap (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autofree char *expected = NULL;
  GError *error = NULL;

  fake_ollama_set_version (fake, "0.31.2-with-a-very-long-build-suffix-that-goes-on-and-on-and-on-and-on-and-on-and-on");
  hr_ollama_client_set_caps (client, 1024, 64);
  error = version_error (client);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE);
  expected = g_strdup_printf ("%s sent more than 64 bytes in one answer; Headroom stopped reading", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

static void
test_token (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autofree char *expected = NULL;
  g_autofree char *version = NULL;
  GError *error = NULL;
  Wait wait = { NULL };

  fake_ollama_set_token (fake, "s3cret");

  error = version_error (client);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED);
  expected = g_strdup_printf ("%s answered 401 Unauthorized: a proxy in front of Ollama wants a token; set the board's token", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_null (fake_ollama_last_authorization (fake));
  g_clear_error (&error);
  g_clear_pointer (&expected, g_free);

  hr_ollama_client_set_token (client, "wrong");
  error = version_error (client);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED);
  expected = g_strdup_printf ("%s answered 401 Unauthorized: the proxy in front of Ollama did not accept the token; check the board's token", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  hr_ollama_client_set_token (client, "s3cret");
  hr_ollama_client_version_async (client, NULL, on_done, &wait);
  version = hr_ollama_client_version_finish (client, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpstr (version, ==, "0.31.2");
  g_assert_cmpstr (fake_ollama_last_authorization (fake), ==, "Bearer s3cret");

  g_clear_object (&client);
  fake_ollama_free (fake);
}

static GError *
generate_error (HrOllamaClient *client,
                Chunks         *chunks)
{
  Wait wait = { NULL };
  GError *error = NULL;
  g_autoptr(HrOllamaReply) reply = NULL;

  hr_ollama_client_generate_async (client, "llama3.2:3b", "hi", NULL,
                                   chunks != NULL ? on_chunk : NULL, chunks, NULL, on_done, &wait);
  reply = hr_ollama_client_generate_finish (client, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (reply);
  return error;
}

/* A fault of /api/generate and the error the client makes of it; its
 * message a format of the server's URL (NULL: not compared). */
typedef struct {
  const char *path;
  FakeFault   fault;
  const char *fault_text;
  gsize       line_cap;   /* 0: the client's default caps */
  gint        code;
  const char *message;
  gboolean    prefix;     /* the message begins so */
} StreamFault;

#define STREAM_TRUNCATED "the answer from %s ended before its last line: the connection dropped" \
                         " or the server stopped; try again"

static const StreamFault stream_faults[] = {
  /* An error line mid-stream (status 200). */
  { "/ollama-client/stream-errors/error-line", FAKE_FAULT_ERROR_LINE, "llama runner process has terminated: signal: killed",
    0, HR_NET_ERROR_STREAM, "Ollama stopped with an error: llama runner process has terminated: signal: killed", FALSE },
  /* A stream that ends cleanly without done. */
  { "/ollama-client/stream-errors/no-done", FAKE_FAULT_NO_DONE, NULL,
    0, HR_NET_ERROR_TRUNCATED, STREAM_TRUNCATED, FALSE },
  /* A dropped connection. */
  { "/ollama-client/stream-errors/dropped", FAKE_FAULT_DROP, NULL,
    0, HR_NET_ERROR_TRUNCATED, STREAM_TRUNCATED, FALSE },
  /* A line that is not JSON. */
  { "/ollama-client/stream-errors/not-json", FAKE_FAULT_INVALID_JSON, NULL,
    0, HR_NET_ERROR_INVALID_RESPONSE, "%s sent a line that is not JSON (", TRUE },
  /* A line over the cap. */
  { "/ollama-client/stream-errors/line-over-cap", FAKE_FAULT_LONG_LINE, "4096",
    1024, HR_NET_ERROR_TOO_LARGE, "%s sent a line longer than 1 KiB: that is not an Ollama stream; check the address", FALSE },
  /* By default a line as long as Ollama's own client takes (8,000,000
   * bytes, api/client.go) is read: a 5,000,000-byte one is, and the stream
   * then ends without its last line; 8,100,000 is too long. */
  { "/ollama-client/stream-errors/long-line-read", FAKE_FAULT_LONG_LINE, "5000000",
    HR_OLLAMA_MAX_LINE_BYTES, HR_NET_ERROR_TRUNCATED, STREAM_TRUNCATED, FALSE },
  { "/ollama-client/stream-errors/line-past-ollama", FAKE_FAULT_LONG_LINE, "8100000",
    HR_OLLAMA_MAX_LINE_BYTES, HR_NET_ERROR_TOO_LARGE,
    "%s sent a line longer than 8000000 bytes: that is not an Ollama stream; check the address", FALSE },
  /* 500 before the stream starts: Ollama's text. */
  { "/ollama-client/stream-errors/server-500", FAKE_FAULT_500,
    "model requires more system memory (5.5 GiB) than is available (3.4 GiB)",
    0, HR_NET_ERROR_SERVER, NULL, FALSE },
  /* 404 JSON: the model is missing. */
  { "/ollama-client/stream-errors/model-missing", FAKE_FAULT_404_JSON, NULL,
    0, HR_NET_ERROR_NOT_FOUND, "model 'llama3.2:3b' not found: llama3.2:3b is not on the board at %s; pull it first", FALSE },
};

static void
test_stream_errors (gconstpointer data)
{
  const StreamFault *c = data;
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autofree char *expected = NULL;
  GError *error = NULL;

  fake_ollama_add_llama32 (fake);
  fake_ollama_set_fault (fake, "/api/generate", c->fault, c->fault_text);
  if (c->line_cap > 0)
    hr_ollama_client_set_caps (client, c->line_cap, HR_OLLAMA_MAX_RESPONSE_BYTES);
  error = generate_error (client, NULL);
  g_assert_error (error, HR_NET_ERROR, c->code);
  if (c->message != NULL)
    {
      expected = g_strdup_printf (c->message, url);
      if (c->prefix)
        g_assert_true (g_str_has_prefix (error->message, expected));
      else
        g_assert_cmpstr (error->message, ==, expected);
    }
  g_clear_error (&error);
  spin_until_streams_end (fake);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

static void
test_deadline_and_inactivity (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autofree char *expected = NULL;
  GError *error = NULL;
  gint64 start;
  double elapsed_ms;

  fake_ollama_add_llama32 (fake);

  /* A server that accepts and never answers: the deadline. */
  fake_ollama_set_fault (fake, "/api/version", FAKE_FAULT_NEVER_ANSWER, NULL);
  hr_ollama_client_set_timeouts (client, 200, 1000, 100);
  start = g_get_monotonic_time ();
  error = version_error (client);
  elapsed_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  expected = g_strdup_printf ("%s did not answer within 0.2 s: the board may be overloaded, or something other than"
                              " Ollama is listening there", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpfloat (elapsed_ms, >=, 200);
  g_assert_cmpfloat (elapsed_ms, <, 2000);
  g_clear_error (&error);
  g_clear_pointer (&expected, g_free);

  /* A stream has no deadline, but silence once it flows is limited:
   * tokens 400 ms apart against a 100 ms inactivity limit. A cold start
   * slower than the deadline is fine: no limit before the first byte. */
  fake_ollama_set_stream_timing (fake, 300, 400, 0, FALSE);
  error = generate_error (client, NULL);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  expected = g_strdup_printf ("%s sent nothing new for 0.1 s: the board may be overloaded or the connection lost; try again", url);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  spin_until_streams_end (fake);
  g_clear_object (&client);
  fake_ollama_free (fake);
}

typedef struct {
  GCancellable *cancellable;
  guint         chunks;
  guint         cancel_after;
} CancelChunks;

static void
on_chunk_cancel (const char *content,
                 const char *thinking,
                 gpointer    user_data)
{
  CancelChunks *c = user_data;

  c->chunks++;
  if (c->chunks == c->cancel_after)
    g_cancellable_cancel (c->cancellable);
}

static void
test_cancel (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = client_for (fake_ollama_get_url (fake));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaReply) reply = NULL;
  CancelChunks c = { cancellable, 0, 2 };
  Wait wait = { NULL };

  fake_ollama_add_llama32 (fake);
  fake_ollama_set_stream_timing (fake, 0, 30, 0, FALSE);

  hr_ollama_client_generate_async (client, "llama3.2:3b", "hi", NULL, on_chunk_cancel, &c,
                                   cancellable, on_done, &wait);
  reply = hr_ollama_client_generate_finish (client, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_null (reply);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (c.chunks, ==, 2);

  /* Nothing runs after the call has returned, and the server's stream
   * stops writing once it sees the connection gone. */
  spin (200);
  g_assert_cmpuint (c.chunks, ==, 2);
  spin_until_streams_end (fake);

  /* Cancelled before it starts. */
  g_clear_error (&error);
  hr_ollama_client_tags_async (client, cancellable, on_done, &wait);
  g_assert_null (hr_ollama_client_tags_finish (client, wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_clear_object (&client);
  fake_ollama_free (fake);
}

static void
test_load_unload_delete (void)
{
  FakeOllama *fake = fake_ollama_new ();
  const char *url = fake_ollama_get_url (fake);
  g_autoptr(HrOllamaClient) client = client_for (url);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  Wait wait = { NULL };
  JsonObject *sent;

  fake_ollama_add_llama32 (fake);

  hr_ollama_client_load_async (client, "llama3.2:3b", 8192, NULL, on_done, &wait);
  g_assert_true (hr_ollama_client_load_finish (client, wait_for (&wait), &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_true (fake_ollama_is_loaded (fake, "llama3.2:3b"));
  sent = json_node_get_object (fake_ollama_last_body (fake, "/api/generate"));
  g_assert_false (json_object_get_boolean_member (sent, "stream"));
  g_assert_false (json_object_has_member (sent, "prompt"));

  hr_ollama_client_unload_async (client, "llama3.2:3b", NULL, on_done, &wait);
  g_assert_true (hr_ollama_client_unload_finish (client, wait_for (&wait), &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_false (fake_ollama_is_loaded (fake, "llama3.2:3b"));
  sent = json_node_get_object (fake_ollama_last_body (fake, "/api/generate"));
  /* keep_alive as the JSON number 0 unloads. */
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (sent, "keep_alive")), ==, G_TYPE_INT64);
  g_assert_cmpint (json_object_get_int_member (sent, "keep_alive"), ==, 0);

  hr_ollama_client_delete_async (client, "llama3.2:3b", NULL, on_done, &wait);
  g_assert_true (hr_ollama_client_delete_finish (client, wait_for (&wait), &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);

  hr_ollama_client_delete_async (client, "llama3.2:3b", NULL, on_done, &wait);
  g_assert_false (hr_ollama_client_delete_finish (client, wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND);
  /* Deleting a missing model does not advise pulling it. */
  expected = g_strdup_printf ("model 'llama3.2:3b' not found: llama3.2:3b is not on the board at %s, so there is nothing to delete", url);
  g_assert_cmpstr (error->message, ==, expected);

  g_clear_object (&client);
  fake_ollama_free (fake);
}

typedef struct {
  guint   calls;
  guint64 last_completed;
  double  last_fraction;
  gboolean went_back;
  guint   max_layers;
} PullSeen;

static void
on_pull (const HrPullProgress *progress,
         gpointer              user_data)
{
  PullSeen *seen = user_data;
  double fraction = hr_pull_progress_fraction (progress);

  seen->calls++;
  if (progress->completed < seen->last_completed)
    seen->went_back = TRUE;
  seen->last_completed = progress->completed;
  seen->last_fraction = fraction;
  seen->max_layers = MAX (seen->max_layers, progress->layers->len);
}

static const FakeLayer phi_layers[] = {
  { "sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20", 9053114464, FALSE },
  { "sha256:32695b892af87ef8f6c8c1c2b2a2c7d4b3f1ee6fd5e4ed93e8dd2ed8a8f1c3c1", 275, TRUE },
  { "sha256:fa8235e5b48faca34e3ca98cf4f694ef08bd216d28b58071a1f85b1d50cb814d", 1084, FALSE },
};

static gboolean
pull (HrOllamaClient *client,
      const char     *model,
      PullSeen       *seen,
      GError        **error)
{
  Wait wait = { NULL };
  gboolean ok;

  hr_ollama_client_pull_async (client, model, on_pull, seen, NULL, on_done, &wait);
  ok = hr_ollama_client_pull_finish (client, wait_for (&wait), error);
  g_clear_object (&wait.result);
  return ok;
}

/* A fake Ollama that can pull phi4 in 8 steps, `completed` going back once. */
typedef struct {
  FakeOllama     *fake;
  HrOllamaClient *client;
} PullServer;

static void
pull_server_set_up (PullServer    *f,
                    gconstpointer  data)
{
  f->fake = fake_ollama_new ();
  f->client = client_for (fake_ollama_get_url (f->fake));
  fake_ollama_add_registry_model (f->fake, "phi4", phi_layers, G_N_ELEMENTS (phi_layers));
  fake_ollama_set_pull_steps (f->fake, 8, 1, TRUE);
}

static void
pull_server_tear_down (PullServer    *f,
                       gconstpointer  data)
{
  spin_until_streams_end (f->fake);
  g_clear_object (&f->client);
  fake_ollama_free (f->fake);
}

static void
test_pull (PullServer    *f,
           gconstpointer  data)
{
  g_autoptr(GPtrArray) models = NULL;
  GError *error = NULL;
  PullSeen seen = { 0 };
  Wait wait = { NULL };

  g_assert_true (pull (f->client, "phi4", &seen, &error));
  g_assert_no_error (error);
  /* Every line reached the callback; the bar never went back even when
   * `completed` did, and ended full. */
  g_assert_cmpuint (seen.calls, >=, 1 + 1 + 8 + 2 + 1 + 1 + 8 + 3);
  g_assert_false (seen.went_back);
  g_assert_cmpfloat (seen.last_fraction, ==, 1.0);
  g_assert_cmpuint (seen.last_completed, ==, 9053114464 + 275 + 1084);
  g_assert_cmpuint (seen.max_layers, ==, 3);
  /* The model is on the board now. */
  hr_ollama_client_tags_async (f->client, NULL, on_done, &wait);
  models = hr_ollama_client_tags_finish (f->client, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_cmpuint (models->len, ==, 1);
  g_assert_cmpstr (((HrOllamaModel *) g_ptr_array_index (models, 0))->name, ==, "phi4");
}

/* A pull that fails: the fake's fault of /api/pull (FAKE_FAULT_NONE: none),
 * the model, the error and its message (NULL: not compared; "%s" the URL). */
typedef struct {
  const char *path;
  FakeFault   fault;
  const char *fault_text;
  const char *model;
  gint        code;
  const char *message;
} PullFailure;

static const PullFailure pull_failures[] = {
  /* An unknown model: Ollama's text and what to do. */
  { "/ollama-client/pull/unknown-model", FAKE_FAULT_NONE, NULL, "nosuch:99b", HR_NET_ERROR_STREAM,
    "Ollama could not pull nosuch:99b: pull model manifest: file does not exist; check the model name and its tag" },
  /* An error line halfway. */
  { "/ollama-client/pull/error-line", FAKE_FAULT_ERROR_LINE,
    "write /usr/share/ollama/.ollama/models/blobs/sha256-fd7b-partial: no space left on device", "phi4", HR_NET_ERROR_STREAM,
    "Ollama could not pull phi4: write /usr/share/ollama/.ollama/models/blobs/sha256-fd7b-partial: no space left on device; "
    "free space on the board (delete models it does not need), then pull again" },
  /* A dropped connection, and a stream without success. */
  { "/ollama-client/pull/dropped", FAKE_FAULT_DROP, NULL, "phi4", HR_NET_ERROR_TRUNCATED, STREAM_TRUNCATED },
  { "/ollama-client/pull/no-success", FAKE_FAULT_NO_DONE, NULL, "phi4", HR_NET_ERROR_TRUNCATED, NULL },
};

static void
test_pull_failure (PullServer    *f,
                   gconstpointer  data)
{
  const PullFailure *c = data;
  GError *error = NULL;
  PullSeen seen = { 0 };

  if (c->fault != FAKE_FAULT_NONE)
    fake_ollama_set_fault (f->fake, "/api/pull", c->fault, c->fault_text);
  g_assert_false (pull (f->client, c->model, &seen, &error));
  g_assert_error (error, HR_NET_ERROR, c->code);
  if (c->message != NULL)
    {
      g_autofree char *expected = g_strdup_printf (c->message, fake_ollama_get_url (f->fake));

      g_assert_cmpstr (error->message, ==, expected);
    }
  g_clear_error (&error);
}

static void
on_pull_cancel (const HrPullProgress *progress,
                gpointer              user_data)
{
  CancelChunks *c = user_data;

  c->chunks++;
  if (c->chunks == c->cancel_after)
    g_cancellable_cancel (c->cancellable);
}

static void
test_pull_cancel (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = client_for (fake_ollama_get_url (fake));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CancelChunks c = { cancellable, 0, 3 };
  Wait wait = { NULL };

  fake_ollama_add_registry_model (fake, "phi4", phi_layers, G_N_ELEMENTS (phi_layers));
  fake_ollama_set_pull_steps (fake, 20, 20, FALSE);

  hr_ollama_client_pull_async (client, "phi4", on_pull_cancel, &c, cancellable, on_done, &wait);
  g_assert_false (hr_ollama_client_pull_finish (client, wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (c.chunks, ==, 3);
  /* No progress callback after the call returned, not even the stall tick. */
  spin (1300);
  g_assert_cmpuint (c.chunks, ==, 3);
  spin_until_streams_end (fake);

  g_clear_object (&client);
  fake_ollama_free (fake);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("OLLAMA_HOST");

  g_test_add ("/ollama-client/version-tags-ps-show/version", LoadedServer, NULL, loaded_server_set_up, test_version_tags_ps_show, loaded_server_tear_down);
  g_test_add ("/ollama-client/version-tags-ps-show/tags", LoadedServer, NULL, loaded_server_set_up, test_tags, loaded_server_tear_down);
  g_test_add ("/ollama-client/version-tags-ps-show/ps", LoadedServer, NULL, loaded_server_set_up, test_ps, loaded_server_tear_down);
  g_test_add ("/ollama-client/version-tags-ps-show/show", LoadedServer, NULL, loaded_server_set_up, test_show, loaded_server_tear_down);
  g_test_add ("/ollama-client/generate/ttft", Generated, NULL, generated_set_up, test_generate_ttft, generated_tear_down);
  g_test_add ("/ollama-client/generate/text", Generated, NULL, generated_set_up, test_generate_text, generated_tear_down);
  g_test_add ("/ollama-client/generate/durations", Generated, NULL, generated_set_up, test_generate_durations, generated_tear_down);
  g_test_add ("/ollama-client/generate/request", Generated, NULL, generated_set_up, test_generate_request, generated_tear_down);
  g_test_add_func ("/ollama-client/rates", test_rates_never_divide_by_zero);
  g_test_add_func ("/ollama-client/chat", test_chat);
  g_test_add_func ("/ollama-client/connection-refused", test_connection_refused);
  g_test_add_func ("/ollama-client/resolve-and-tls", test_resolve_and_tls);
  g_test_add_func ("/ollama-client/status-errors/model-missing", test_status_errors);
  g_test_add_func ("/ollama-client/status-errors/wrong-prefix", test_status_errors_wrong_prefix);
  for (guint i = 0; i < G_N_ELEMENTS (version_faults); i++)
    g_test_add_data_func (version_faults[i].path, &version_faults[i], test_status_errors_version_fault);
  g_test_add_func ("/ollama-client/status-errors/over-cap", test_status_errors_over_cap);
  g_test_add_func ("/ollama-client/token", test_token);
  for (guint i = 0; i < G_N_ELEMENTS (stream_faults); i++)
    g_test_add_data_func (stream_faults[i].path, &stream_faults[i], test_stream_errors);
  g_test_add_func ("/ollama-client/deadline-and-inactivity", test_deadline_and_inactivity);
  g_test_add_func ("/ollama-client/cancel", test_cancel);
  g_test_add_func ("/ollama-client/load-unload-delete", test_load_unload_delete);
  g_test_add ("/ollama-client/pull/completes", PullServer, NULL, pull_server_set_up, test_pull, pull_server_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (pull_failures); i++)
    g_test_add (pull_failures[i].path, PullServer, &pull_failures[i], pull_server_set_up, test_pull_failure, pull_server_tear_down);
  g_test_add_func ("/ollama-client/pull-cancel", test_pull_cancel);

  return g_test_run ();
}
