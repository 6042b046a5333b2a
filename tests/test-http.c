/* test-http.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHttp against two SoupServers on 127.0.0.1 inside the test (two ports:
 * two origins): the token goes to its own origin only, redirects (303 turns
 * a POST into a GET), the deadline, the body cap, a Range the server
 * ignores, and refused connections, in each client's words.
 */
#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "hr-http.h"
#include "hr-net-error.h"

typedef struct {
  SoupServer        *server;
  char              *base;          /* "http://127.0.0.1:PORT" */
  char              *other_base;    /* the second server's */
  char              *authorization; /* the last one seen, or NULL */
  char              *method;        /* the last request's method */
  gsize              body_length;   /* the last request's body */
  guint              requests;
  GPtrArray         *paused;        /* SoupServerMessage*, never answered */
} Server;

static void
server_free (Server *s)
{
  for (guint i = 0; i < s->paused->len; i++)
    {
      SoupServerMessage *msg = g_ptr_array_index (s->paused, i);

      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_unpause (msg);
    }
  for (guint i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_ptr_array_unref (s->paused);
  soup_server_disconnect (s->server);
  g_clear_object (&s->server);
  g_free (s->base);
  g_free (s->other_base);
  g_free (s->authorization);
  g_free (s->method);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Server, server_free)

static void
handle (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  Server *s = user_data;
  SoupMessageHeaders *in = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *out = soup_server_message_get_response_headers (msg);
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  const char *text = "0123456789";

  s->requests++;
  g_free (s->authorization);
  s->authorization = g_strdup (soup_message_headers_get_one (in, "Authorization"));
  g_free (s->method);
  s->method = g_strdup (soup_server_message_get_method (msg));
  s->body_length = body != NULL ? (gsize) body->length : 0;

  if (strcmp (path, "/here") == 0)
    {
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, text, strlen (text));
    }
  else if (strcmp (path, "/whole") == 0)
    {
      /* Chunked, so SoupServer does not answer the Range itself: this one
       * ignores Range, as some servers do. */
      soup_server_message_set_status (msg, 200, NULL);
      soup_message_headers_set_encoding (out, SOUP_ENCODING_CHUNKED);
      soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_STATIC,
                                text, strlen (text));
      soup_message_body_complete (soup_server_message_get_response_body (msg));
    }
  else if (strcmp (path, "/same") == 0)
    {
      soup_server_message_set_status (msg, 302, NULL);
      soup_message_headers_replace (out, "Location", "/here");
    }
  else if (strcmp (path, "/away") == 0)
    {
      g_autofree char *to = g_strconcat (s->other_base, "/here", NULL);

      soup_server_message_set_status (msg, 307, NULL);
      soup_message_headers_replace (out, "Location", to);
    }
  else if (strcmp (path, "/see-other") == 0)
    {
      soup_server_message_set_status (msg, 303, NULL);
      soup_message_headers_replace (out, "Location", "/here");
    }
  else if (strcmp (path, "/loop") == 0)
    {
      soup_server_message_set_status (msg, 302, NULL);
      soup_message_headers_replace (out, "Location", "/loop");
    }
  else if (strcmp (path, "/silent") == 0)
    {
      g_ptr_array_add (s->paused, g_object_ref (msg));
      soup_server_message_pause (msg);
    }
  else
    soup_server_message_set_status (msg, 404, NULL);
}

static Server *
server_new (void)
{
  Server *s = g_new0 (Server, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  s->paused = g_ptr_array_new_with_free_func (g_object_unref);
  s->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (s->server, NULL, handle, s, NULL);
  g_assert_true (soup_server_listen_local (s->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (s->server);
  s->base = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return s;
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Sends @request and waits; returns the response or NULL with @error. */
static HrHttpResponse *
send (HrHttp              *http,
      const HrHttpRequest *request,
      GError             **error)
{
  GAsyncResult *result = NULL;
  HrHttpResponse *resp;

  hr_http_send_async (http, request, NULL, on_sent, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  resp = hr_http_send_finish (http, result, error);
  g_object_unref (result);
  return resp;
}

static HrHttpRequest
get (const char *url)
{
  HrHttpRequest r = {
    .method = "GET",
    .url = url,
    .range_start = -1,
    .range_end = -1,
    .cap = 1024,
    .deadline_ms = 5000,
  };
  return r;
}

static const char *
body_text (HrHttpResponse *resp)
{
  static char buf[64];
  gsize size;
  const char *data = g_bytes_get_data (resp->body, &size);

  g_assert_cmpuint (size, <, sizeof buf);
  memcpy (buf, data, size);
  buf[size] = '\0';
  return buf;
}

static void
test_token_scope (void)
{
  g_autoptr(Server) a = server_new ();
  g_autoptr(Server) b = server_new ();
  g_autoptr(HrHttp) http = hr_http_new (HR_HTTP_WORDING_HUB, "headroom-test ", 8);
  g_autofree char *same = NULL;
  g_autofree char *away = NULL;
  g_autoptr(HrHttpResponse) r1 = NULL;
  g_autoptr(HrHttpResponse) r2 = NULL;
  g_autoptr(GError) error = NULL;
  HrHttpRequest req;

  a->other_base = g_strdup (b->base);
  hr_http_set_token (http, "s3cret", a->base);
  g_assert_true (hr_http_has_token (http));

  /* A redirect within the origin keeps the token. */
  same = g_strconcat (a->base, "/same", NULL);
  req = get (same);
  r1 = send (http, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r1->status, ==, 200);
  g_assert_cmpstr (body_text (r1), ==, "0123456789");
  g_assert_cmpuint (a->requests, ==, 2);
  g_assert_cmpstr (a->authorization, ==, "Bearer s3cret");
  g_assert_true (g_str_has_suffix (r1->url, "/here"));

  /* To another origin (another port): none. */
  away = g_strconcat (a->base, "/away", NULL);
  req = get (away);
  r2 = send (http, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r2->status, ==, 200);
  g_assert_cmpstr (a->authorization, ==, "Bearer s3cret");
  g_assert_cmpuint (b->requests, ==, 1);
  g_assert_null (b->authorization);
  g_assert_true (g_str_has_prefix (r2->url, b->base));

  /* No token, no header. */
  hr_http_set_token (http, "", NULL);
  g_assert_false (hr_http_has_token (http));
  g_clear_pointer (&r1, hr_http_response_free);
  req = get (same);
  r1 = send (http, &req, &error);
  g_assert_no_error (error);
  g_assert_null (a->authorization);
}

static void
test_see_other (void)
{
  g_autoptr(Server) a = server_new ();
  g_autoptr(HrHttp) http = hr_http_new (HR_HTTP_WORDING_OLLAMA, "Headroom-test", 2);
  g_autofree char *url = g_strconcat (a->base, "/see-other", NULL);
  g_autoptr(GBytes) body = g_bytes_new_static ("{\"model\":\"x\"}", 13);
  g_autoptr(HrHttpResponse) resp = NULL;
  g_autoptr(GError) error = NULL;
  HrHttpRequest req = get (url);

  req.method = "POST";
  req.body = body;
  req.content_type = "application/json";
  resp = send (http, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (resp->status, ==, 200);
  /* RFC 9110 15.4.4: the 303's target is fetched with GET, without the body. */
  g_assert_cmpstr (a->method, ==, "GET");
  g_assert_cmpuint (a->body_length, ==, 0);
}

static void
test_redirect_loop (void)
{
  g_autoptr(Server) a = server_new ();
  g_autoptr(HrHttp) http = hr_http_new (HR_HTTP_WORDING_HUB, "headroom-test ", 8);
  g_autofree char *url = g_strconcat (a->base, "/loop", NULL);
  g_autofree char *message = NULL;
  g_autoptr(GError) error = NULL;
  HrHttpRequest req = get (url);

  g_assert_null (send (http, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE);
  message = g_strdup_printf ("%s redirected too often or without a valid Location: check HF_ENDPOINT",
                             a->base + strlen ("http://"));
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpuint (a->requests, ==, HR_HTTP_MAX_REDIRECTS + 1);
}

static void
test_deadline (void)
{
  g_autoptr(Server) a = server_new ();
  g_autoptr(HrHttp) hub = hr_http_new (HR_HTTP_WORDING_HUB, "headroom-test ", 8);
  g_autoptr(HrHttp) ollama = hr_http_new (HR_HTTP_WORDING_OLLAMA, "Headroom-test", 2);
  g_autofree char *url = g_strconcat (a->base, "/silent", NULL);
  g_autofree char *hub_message = NULL;
  g_autofree char *ollama_message = NULL;
  g_autoptr(GError) error = NULL;
  HrHttpRequest req = get (url);
  gint64 start = g_get_monotonic_time ();

  req.deadline_ms = 200;
  g_assert_null (send (hub, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  hub_message = g_strdup_printf ("%s did not answer within 1 second: check the network or HF_ENDPOINT, then try again",
                                 a->base + strlen ("http://"));
  g_assert_cmpstr (error->message, ==, hub_message);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* Ollama's words name the base URL and the limit to a tenth. */
  hr_http_set_label (ollama, a->base);
  req.deadline_ms = 300;
  g_assert_null (send (ollama, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  ollama_message = g_strdup_printf ("%s did not answer within 0.3 s: the board may be overloaded, or something other than Ollama is listening there",
                                    a->base);
  g_assert_cmpstr (error->message, ==, ollama_message);
}

static void
test_cap_and_range (void)
{
  g_autoptr(Server) a = server_new ();
  g_autoptr(HrHttp) http = hr_http_new (HR_HTTP_WORDING_HUB, "headroom-test ", 8);
  g_autofree char *url = g_strconcat (a->base, "/whole", NULL);
  g_autoptr(HrHttpResponse) resp = NULL;
  g_autoptr(GError) error = NULL;
  HrHttpRequest req = get (url);
  guint64 received = 0;

  req.cap = 4;
  g_assert_null (send (http, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE);
  g_assert_cmpstr (error->message, ==, "The Hub sent more than 4 bytes for /whole: refusing to read further");
  g_clear_error (&error);

  /* The server ignores Range: the bytes asked for are cut out here. */
  req.cap = 0;
  req.range_start = 2;
  req.range_end = 5;
  req.bytes_counter = &received;
  resp = send (http, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (resp->status, ==, 206);
  g_assert_cmpstr (body_text (resp), ==, "2345");
  g_assert_cmpuint (received, >=, 6);
}

static void
test_refused (void)
{
  g_autoptr(Server) a = server_new ();
  g_autoptr(HrHttp) ollama = hr_http_new (HR_HTTP_WORDING_OLLAMA, "Headroom-test", 2);
  g_autoptr(HrHttp) hub = hr_http_new (HR_HTTP_WORDING_HUB, "headroom-test ", 8);
  g_autofree char *base = g_strdup (a->base);
  g_autofree char *url = g_strconcat (base, "/here", NULL);
  g_autofree char *message = NULL;
  g_autoptr(GError) error = NULL;
  HrHttpRequest req = get (url);

  /* Nothing listens once the server is gone. */
  g_clear_pointer (&a, server_free);
  hr_http_set_label (ollama, base);
  g_assert_null (send (ollama, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED);
  message = g_strdup_printf ("nothing is listening at %s; is `ollama serve` running, and bound to an address this machine can reach?",
                             base);
  g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);
  g_clear_pointer (&message, g_free);

  g_assert_null (send (hub, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED);
  message = g_strdup_printf ("Could not reach %s; check the network or HF_ENDPOINT", base + strlen ("http://"));
  g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);

  req.url = "ftp://127.0.0.1/x";
  g_assert_null (send (hub, &req, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH);
}

static void
test_helpers (void)
{
  g_autoptr(GUri) a = g_uri_parse ("https://HF.example/api", G_URI_FLAGS_NONE, NULL);
  g_autoptr(GUri) b = g_uri_parse ("https://hf.example/x", G_URI_FLAGS_NONE, NULL);
  g_autoptr(GUri) c = g_uri_parse ("https://hf.example:8443/x", G_URI_FLAGS_NONE, NULL);
  g_autoptr(GUri) d = g_uri_parse ("http://hf.example/x", G_URI_FLAGS_NONE, NULL);
  g_autoptr(SoupMessageHeaders) h = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  g_autoptr(GBytes) odd = g_bytes_new_static (" 404 page\nnot found ", 20);
  g_autofree char *label = hr_http_host_label (c);
  g_autofree char *excerpt = hr_http_body_excerpt (odd);
  g_autofree char *empty = hr_http_body_excerpt (NULL);

  g_assert_true (hr_http_same_origin (a, b));
  g_assert_false (hr_http_same_origin (a, c));
  g_assert_false (hr_http_same_origin (a, d));
  g_assert_false (hr_http_same_origin (a, NULL));
  g_assert_cmpstr (label, ==, "hf.example:8443");
  g_assert_cmpstr (excerpt, ==, "\"404 page not found\"");
  g_assert_cmpstr (empty, ==, "an empty body");

  g_assert_cmpuint (hr_http_retry_after (h), ==, 0);
  soup_message_headers_replace (h, "RateLimit", "\"api\";r=0;t=42");
  g_assert_cmpuint (hr_http_retry_after (h), ==, 42);
  soup_message_headers_replace (h, "Retry-After", "7");
  g_assert_cmpuint (hr_http_retry_after (h), ==, 7);
  soup_message_headers_replace (h, "Retry-After", "99999999");
  g_assert_cmpuint (hr_http_retry_after (h), ==, 42);
}

static void
test_link_next (void)
{
  g_autofree char *abs = hr_http_link_next ("<https://hub.example/api/models/a/b/tree/main?cursor=xyz>; rel=\"next\"",
                                           "https://hub.example/api/models/a/b/tree/main");
  g_autofree char *rel = hr_http_link_next ("<https://x/first>; rel=\"prev\", </api/t?cursor=2>; rel=\"next\"",
                                           "http://127.0.0.1:4242/api/t");

  g_assert_cmpstr (abs, ==, "https://hub.example/api/models/a/b/tree/main?cursor=xyz");
  g_assert_cmpstr (rel, ==, "http://127.0.0.1:4242/api/t?cursor=2");
  g_assert_null (hr_http_link_next ("<https://x/first>; rel=\"prev\"", "https://x/"));
  g_assert_null (hr_http_link_next (NULL, "https://x/"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/http/token-scope", test_token_scope);
  g_test_add_func ("/http/see-other", test_see_other);
  g_test_add_func ("/http/redirect-loop", test_redirect_loop);
  g_test_add_func ("/http/deadline", test_deadline);
  g_test_add_func ("/http/cap-and-range", test_cap_and_range);
  g_test_add_func ("/http/refused", test_refused);
  g_test_add_func ("/http/helpers", test_helpers);
  g_test_add_func ("/http/link-next", test_link_next);

  return g_test_run ();
}
