/* hr-http.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHttp: the one HTTP layer under HrOllamaClient and HrHubClient. One
 * #SoupSession; each request gets an overall deadline and a connect limit of
 * its own (libsoup's "timeout" is only an inactivity limit on every read),
 * a cap on the body it reads, redirects followed here (so the bearer token
 * goes to its own origin only, never to the host a redirect points at),
 * optional Range, and transport failures mapped to %HR_NET_ERROR errors in
 * words a person can act on. Answers with a status other than 2xx come back
 * as responses: what a status means is the service's (its error bodies
 * differ), so each client maps those itself.
 */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/** HR_HTTP_MAX_REDIRECTS: redirects followed for one request at most. */
#define HR_HTTP_MAX_REDIRECTS 10

/**
 * HrHttpWording:
 * @HR_HTTP_WORDING_OLLAMA: messages name the server by its base URL and
 *   speak of the board and `ollama serve` (deadlines as "2.5 s")
 * @HR_HTTP_WORDING_HUB: messages name the host ("huggingface.co") and point
 *   at HF_ENDPOINT (deadlines in whole seconds, rounded up)
 *
 * How transport failures are worded: the one place the two clients' errors
 * differ in text. The codes are the same for both.
 */
typedef enum {
  HR_HTTP_WORDING_OLLAMA,
  HR_HTTP_WORDING_HUB,
} HrHttpWording;

/**
 * HrHttpRequest:
 * @method: "GET", "POST", "DELETE"
 * @url: the absolute http or https URL
 * @body: (nullable): the request body
 * @content_type: (nullable): @body's type ("application/json")
 * @accept: (nullable): the Accept header
 * @range_start: first byte of a Range request, or -1 for none
 * @range_end: last byte (inclusive) of the Range
 * @cap: body bytes read at most; a larger body fails with
 *   %HR_NET_ERROR_TOO_LARGE (a Range request ignored by the server is cut to
 *   the range instead)
 * @deadline_ms: from the first byte sent to the last body byte read,
 *   redirects included, in ms; 0 for none
 * @connect_ms: until the request headers are written, in ms; 0 for none
 * @stream: a 2xx answer's body is left unread, as the response's @stream
 *   (its deadline stops there; the caller bounds the reading)
 * @bytes_counter: (nullable): body bytes received are added to it
 * @failed_url: (out) (optional) (nullable): where a request that fails
 *   stores the URL it failed at, after redirects (a storage host's, a
 *   `file://` a redirect named); the caller frees it
 *
 * One request. hr_http_send_async() copies what it needs.
 */
typedef struct {
  const char *method;
  const char *url;
  GBytes     *body;
  const char *content_type;
  const char *accept;
  gint64      range_start;
  gint64      range_end;
  guint64     cap;
  guint       deadline_ms;
  guint       connect_ms;
  gboolean    stream;
  guint64    *bytes_counter;
  char      **failed_url;
} HrHttpRequest;

/**
 * HrHttpResponse:
 * @status: the HTTP status; 206 when a Range request's answer was cut here
 * @reason: the reason phrase (the server's, else the standard one)
 * @headers: the response headers
 * @body: (nullable): the body read (%NULL when @stream is set)
 * @stream: (nullable): the unread body of a 2xx answer to a @stream request
 * @message: the last message sent (it stays alive while @stream is read)
 * @url: the final URL, after redirects
 * @total: the whole file's size from Content-Range or X-Linked-Size,
 *   bytes; 0 = unknown
 * @cancellable: (nullable): with @stream, the cancellable the message was
 *   sent with: still cancelled by the caller's while @stream is read, so
 *   cancelling aborts the message and its connection, not only the read
 * @caller: (nullable): the caller's cancellable, held for that link
 * @caller_handler: the link's handler on @caller
 */
typedef struct {
  guint               status;
  char               *reason;
  SoupMessageHeaders *headers;
  GBytes             *body;
  GInputStream       *stream;
  SoupMessage        *message;
  char               *url;
  guint64             total;
  GCancellable       *cancellable;
  GCancellable       *caller;
  gulong              caller_handler;
} HrHttpResponse;

void hr_http_response_free (HrHttpResponse *response);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHttpResponse, hr_http_response_free)

#define HR_TYPE_HTTP (hr_http_get_type ())
G_DECLARE_FINAL_TYPE (HrHttp, hr_http, HR, HTTP, GObject)

HrHttp         *hr_http_new           (HrHttpWording        wording,
                                       const char          *user_agent,
                                       guint                max_conns_per_host);
void            hr_http_set_label     (HrHttp              *self,
                                       const char          *label);
void            hr_http_set_token     (HrHttp              *self,
                                       const char          *token,
                                       const char          *origin);
void            hr_http_set_basic_auth (HrHttp             *self,
                                       const char          *user,
                                       const char          *password,
                                       const char          *origin);
gboolean        hr_http_has_token     (HrHttp              *self);
void            hr_http_abort         (HrHttp              *self);
void            hr_http_send_async    (HrHttp              *self,
                                       const HrHttpRequest *request,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
HrHttpResponse *hr_http_send_finish   (HrHttp              *self,
                                       GAsyncResult        *result,
                                       GError             **error);

gboolean        hr_http_same_origin   (GUri                *a,
                                       GUri                *b);
char           *hr_http_host_label    (GUri                *uri);
char           *hr_http_body_excerpt  (GBytes              *body);
guint           hr_http_retry_after   (SoupMessageHeaders  *headers);
char           *hr_http_link_next     (const char          *link,
                                       const char          *base_url);

G_END_DECLS
