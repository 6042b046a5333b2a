/* hr-http.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One request: build the message (token only to its origin, Range, Accept,
 * body), start the connect and deadline timers, send; follow a redirect by
 * hand (RFC 9110 15.4: 303, and 301/302 after anything but GET or HEAD,
 * become a GET without body; 307/308 keep method and body); then read the
 * body up to the cap, or hand a stream's body over unread. The failures
 * are worded in hr-http-errors.c.
 */
#include "config.h"

#include <string.h>

#include "hr-http-private.h"

#define READ_CHUNK 65536

G_DEFINE_FINAL_TYPE (HrHttp, hr_http, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ */
/* The object                                                          */

static void
hr_http_dispose (GObject *object)
{
  HrHttp *self = HR_HTTP (object);

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (hr_http_parent_class)->dispose (object);
}

static void
hr_http_finalize (GObject *object)
{
  HrHttp *self = HR_HTTP (object);

  g_free (self->label);
  g_free (self->token);
  g_free (self->basic);
  g_clear_pointer (&self->origin, g_uri_unref);

  G_OBJECT_CLASS (hr_http_parent_class)->finalize (object);
}

static void
hr_http_class_init (HrHttpClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_http_dispose;
  object_class->finalize = hr_http_finalize;
}

static void
hr_http_init (HrHttp *self)
{
}

/**
 * hr_http_new:
 * @wording: how transport failures are worded
 * @user_agent: the User-Agent; one ending in a space gets libsoup's appended
 * @max_conns_per_host: parallel connections to one host (> 0)
 *
 * A layer with one #SoupSession: no session timeout (a cold Ollama load may
 * be silent for minutes; every request keeps its own limits), idle
 * connections closed after 60 s.
 *
 * Returns: (transfer full): the layer.
 */
HrHttp *
hr_http_new (HrHttpWording  wording,
             const char    *user_agent,
             guint          max_conns_per_host)
{
  HrHttp *self = g_object_new (HR_TYPE_HTTP, NULL);

  g_return_val_if_fail (max_conns_per_host > 0, self);
  self->wording = wording;
  self->session = g_object_new (SOUP_TYPE_SESSION,
                                "timeout", 0,
                                "idle-timeout", 60,
                                "user-agent", user_agent,
                                "max-conns-per-host", (int) max_conns_per_host,
                                NULL);
  return self;
}

/**
 * hr_http_set_label:
 * @self: a layer
 * @label: (nullable): the service as %HR_HTTP_WORDING_OLLAMA messages name
 *   it (the base URL); %NULL = the request's host
 */
void
hr_http_set_label (HrHttp     *self,
                   const char *label)
{
  g_return_if_fail (HR_IS_HTTP (self));
  g_free (self->label);
  self->label = g_strdup (label);
}

/**
 * hr_http_set_token:
 * @self: a layer
 * @token: (nullable): a bearer token; %NULL or "" for none
 * @origin: (nullable): the URL whose scheme, host and port the token
 *   belongs to; required with a token
 *
 * From now on `Authorization: Bearer TOKEN` goes with every request to
 * @origin, and with none to another origin (a redirect's target included).
 * The token is never logged.
 */
void
hr_http_set_token (HrHttp     *self,
                   const char *token,
                   const char *origin)
{
  g_return_if_fail (HR_IS_HTTP (self));
  g_clear_pointer (&self->token, g_free);
  if (token == NULL || token[0] == '\0')
    return;
  g_return_if_fail (origin != NULL);
  self->token = g_strdup (token);
  g_clear_pointer (&self->origin, g_uri_unref);
  self->origin = g_uri_parse (origin, SOUP_HTTP_URI_FLAGS, NULL);
}

/**
 * hr_http_set_basic_auth:
 * @self: a layer
 * @user: (nullable): the user; %NULL for none
 * @password: (nullable): the password ("" when %NULL)
 * @origin: (nullable): the URL whose scheme, host and port they belong
 *   to; required with a user
 *
 * HTTP basic auth (RFC 7617) for a reverse proxy: `Authorization: Basic
 * base64(user:password)` goes with every request to @origin when no bearer
 * token is set, and never to another origin. The password is never logged
 * or put in a message.
 */
void
hr_http_set_basic_auth (HrHttp     *self,
                        const char *user,
                        const char *password,
                        const char *origin)
{
  g_return_if_fail (HR_IS_HTTP (self));
  g_clear_pointer (&self->basic, g_free);
  if (user == NULL)
    return;
  g_return_if_fail (origin != NULL);
  {
    g_autofree char *pair = g_strconcat (user, ":", password != NULL ? password : "", NULL);
    g_autofree char *encoded = g_base64_encode ((const guchar *) pair, strlen (pair));

    self->basic = g_strconcat ("Basic ", encoded, NULL);
    memset (pair, 0, strlen (pair));
  }
  if (self->origin == NULL)
    self->origin = g_uri_parse (origin, SOUP_HTTP_URI_FLAGS, NULL);
}

/**
 * hr_http_has_token:
 * @self: a layer
 *
 * Returns: whether a token is set.
 */
gboolean
hr_http_has_token (HrHttp *self)
{
  g_return_val_if_fail (HR_IS_HTTP (self), FALSE);
  return self->token != NULL;
}

/**
 * hr_http_abort:
 * @self: a layer
 *
 * Cancels every request in flight and closes the connections.
 */
void
hr_http_abort (HrHttp *self)
{
  g_return_if_fail (HR_IS_HTTP (self));
  soup_session_abort (self->session);
}

/**
 * hr_http_response_free:
 * @response: (nullable): a response from hr_http_send_finish()
 *
 * Frees @response; dropping an unread stream drops its connection.
 */
void
hr_http_response_free (HrHttpResponse *response)
{
  if (response == NULL)
    return;
  g_free (response->reason);
  g_clear_pointer (&response->headers, soup_message_headers_unref);
  g_clear_pointer (&response->body, g_bytes_unref);
  if (response->caller != NULL)
    g_cancellable_disconnect (response->caller, response->caller_handler);
  g_clear_object (&response->caller);
  g_clear_object (&response->cancellable);
  g_clear_object (&response->stream);
  g_clear_object (&response->message);
  g_free (response->url);
  g_free (response);
}

/* ------------------------------------------------------------------ */
/* The request                                                          */

static void
clear_timer (GSource **timer)
{
  if (*timer != NULL)
    {
      g_source_destroy (*timer);
      g_clear_pointer (timer, g_source_unref);
    }
}

static void
call_stop_timers (Call *call)
{
  clear_timer (&call->connect_timer);
  clear_timer (&call->deadline_timer);
}

static void
call_free (Call *call)
{
  call_stop_timers (call);
  if (call->caller != NULL && call->caller_handler != 0)
    g_cancellable_disconnect (call->caller, call->caller_handler);
  g_clear_object (&call->caller);
  g_clear_object (&call->internal);
  if (call->msg != NULL)
    g_signal_handlers_disconnect_by_data (call->msg, call);
  g_clear_object (&call->msg);
  if (call->input != NULL)
    g_input_stream_close (call->input, NULL, NULL);
  g_clear_object (&call->input);
  g_clear_pointer (&call->received, g_byte_array_unref);
  g_clear_pointer (&call->body, g_bytes_unref);
  g_free (call->method);
  g_free (call->url);
  g_free (call->content_type);
  g_free (call->accept);
  g_clear_object (&call->http);
  g_free (call);
}

static void
return_error (GTask  *task,
              GError *error)
{
  Call *call = g_task_get_task_data (task);

  call_stop_timers (call);
  if (call->failed_url != NULL)
    {
      g_free (*call->failed_url);
      *call->failed_url = g_strdup (call->url);
    }
  g_task_return_error (task, error);
}

static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

/* A timer on the thread-default context, where libsoup calls back too. */
static GSource *
add_timer (guint        ms,
           GSourceFunc  func,
           Call        *call)
{
  GSource *source = g_timeout_source_new (ms);

  g_source_set_callback (source, func, call, NULL);
  g_source_attach (source, g_main_context_get_thread_default ());
  return source;
}

static gboolean
on_connect_timeout (gpointer user_data)
{
  Call *call = user_data;

  g_clear_pointer (&call->connect_timer, g_source_unref);
  call->hit = LIMIT_CONNECT;
  g_cancellable_cancel (call->internal);
  return G_SOURCE_REMOVE;
}

static gboolean
on_deadline (gpointer user_data)
{
  Call *call = user_data;

  g_clear_pointer (&call->deadline_timer, g_source_unref);
  call->hit = LIMIT_DEADLINE;
  g_cancellable_cancel (call->internal);
  return G_SOURCE_REMOVE;
}

static void
on_wrote_headers (SoupMessage *msg,
                  gpointer     user_data)
{
  Call *call = user_data;

  /* Connected, and the request is on its way. */
  clear_timer (&call->connect_timer);
}

static void
return_response (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  HrHttpResponse *resp = g_new0 (HrHttpResponse, 1);
  SoupMessageHeaders *headers = soup_message_get_response_headers (call->msg);
  const char *reason = soup_message_get_reason_phrase (call->msg);
  goffset start = 0, end = 0, total = 0;
  const char *linked;

  call_stop_timers (call);
  resp->status = soup_message_get_status (call->msg);
  if (reason == NULL || *reason == '\0')
    reason = soup_status_get_phrase (resp->status);
  resp->reason = g_strdup (reason);
  resp->headers = soup_message_headers_ref (headers);
  resp->message = g_object_ref (call->msg);
  resp->url = g_strdup (call->url);

  if (call->received == NULL)
    {
      /* The caller's cancellable keeps cancelling the message's while the
       * stream is read: the link moves to the response. */
      resp->stream = g_steal_pointer (&call->input);
      resp->cancellable = g_steal_pointer (&call->internal);
      resp->caller = g_steal_pointer (&call->caller);
      resp->caller_handler = call->caller_handler;
      call->caller_handler = 0;
    }
  else
    {
      if (call->ignored_range)
        {
          /* The server sent the whole file: keep the bytes asked for. */
          gsize skip = MIN ((gsize) call->range_start, call->received->len);

          g_byte_array_remove_range (call->received, 0, skip);
          resp->status = SOUP_STATUS_PARTIAL_CONTENT;
        }
      resp->body = g_byte_array_free_to_bytes (g_steal_pointer (&call->received));
    }

  if (soup_message_headers_get_content_range (headers, &start, &end, &total) && total > 0)
    resp->total = (guint64) total;
  else if ((linked = soup_message_headers_get_one (headers, "X-Linked-Size")) != NULL)
    g_ascii_string_to_unsigned (linked, 10, 0, G_MAXUINT64, &resp->total, NULL);

  g_task_return_pointer (task, resp, (GDestroyNotify) hr_http_response_free);
}

static void read_next (GTask *task);

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) chunk = NULL;
  gsize size;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (chunk == NULL)
    {
      return_error (task, hr_http_error_for_transport (call, error, TRUE));
      return;
    }
  size = g_bytes_get_size (chunk);
  if (size == 0)
    {
      return_response (task);
      return;
    }
  if (call->bytes_counter != NULL)
    *call->bytes_counter += size;
  if (call->received->len + size > call->cap)
    {
      if (!call->ignored_range)
        {
          return_error (task, hr_http_error_too_large (call));
          return;
        }
      /* Enough of a file the server would not cut: stop reading here. */
      size = (gsize) (call->cap - call->received->len);
    }
  g_byte_array_append (call->received, g_bytes_get_data (chunk, NULL), size);
  if (call->ignored_range && call->received->len == call->cap)
    {
      return_response (task);
      return;
    }
  read_next (g_steal_pointer (&task));
}

static void
read_next (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  guint64 left = call->cap - call->received->len + 1;

  g_input_stream_read_bytes_async (call->input, (gsize) MIN (READ_CHUNK, left), G_PRIORITY_DEFAULT,
                                   call->internal, on_read, task);
}

static void send_message (GTask *task);

/* A 3xx with a Location: on to it, as RFC 9110 15.4 says. */
static void
follow_redirect (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  guint status = soup_message_get_status (call->msg);
  const char *location = soup_message_headers_get_one (soup_message_get_response_headers (call->msg), "Location");
  g_autofree char *next = NULL;

  g_input_stream_close (call->input, NULL, NULL);
  g_clear_object (&call->input);
  if (location != NULL)
    next = g_uri_resolve_relative (call->url, location, SOUP_HTTP_URI_FLAGS, NULL);
  if (next == NULL || ++call->redirects > HR_HTTP_MAX_REDIRECTS)
    {
      return_error (task, hr_http_error_redirects (call));
      g_object_unref (task);
      return;
    }
  if (strcmp (call->method, "GET") != 0 && strcmp (call->method, "HEAD") != 0)
    {
      g_autoptr(GUri) from = g_uri_parse (call->url, SOUP_HTTP_URI_FLAGS, NULL);
      g_autoptr(GUri) to = g_uri_parse (next, SOUP_HTTP_URI_FLAGS, NULL);

      if (from == NULL || to == NULL || !hr_http_same_origin (from, to))
        {
          return_error (task, hr_http_error_cross_origin (call, to, status));
          g_object_unref (task);
          return;
        }
    }
  if (status == SOUP_STATUS_SEE_OTHER ||
      ((status == SOUP_STATUS_MOVED_PERMANENTLY || status == SOUP_STATUS_FOUND) &&
       strcmp (call->method, "GET") != 0 && strcmp (call->method, "HEAD") != 0))
    {
      g_free (call->method);
      call->method = g_strdup ("GET");
      g_clear_pointer (&call->body, g_bytes_unref);
    }
  g_free (call->url);
  call->url = g_steal_pointer (&next);
  g_signal_handlers_disconnect_by_data (call->msg, call);
  g_clear_object (&call->msg);
  send_message (task);
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  guint status;

  call->input = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (call->input == NULL)
    {
      return_error (task, hr_http_error_for_transport (call, error, FALSE));
      return;
    }
  clear_timer (&call->connect_timer);

  status = soup_message_get_status (call->msg);
  if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308)
    {
      follow_redirect (g_steal_pointer (&task));
      return;
    }
  if (call->stream && SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      return_response (task);
      return;
    }
  call->received = g_byte_array_new ();
  if (call->range_start >= 0 && status == SOUP_STATUS_OK)
    {
      /* The server ignored Range: read only up to the end asked for. */
      call->ignored_range = TRUE;
      call->cap = (guint64) call->range_end + 1;
    }
  read_next (g_steal_pointer (&task));
}

/* Sends the call's current method and URL; takes @task. */
static void
send_message (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  HrHttp *self = call->http;
  g_autoptr(GUri) uri = g_uri_parse (call->url, SOUP_HTTP_URI_FLAGS, NULL);
  SoupMessageHeaders *headers;

  if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                      g_strcmp0 (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      return_error (task, hr_http_error_bad_url (call));
      g_object_unref (task);
      return;
    }
  call->msg = soup_message_new_from_uri (call->method, uri);
  soup_message_add_flags (call->msg, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (call->msg);
  if (self->token != NULL && hr_http_same_origin (self->origin, uri))
    {
      g_autofree char *bearer = g_strconcat ("Bearer ", self->token, NULL);

      soup_message_headers_replace (headers, "Authorization", bearer);
    }
  else if (self->token == NULL && self->basic != NULL && hr_http_same_origin (self->origin, uri))
    soup_message_headers_replace (headers, "Authorization", self->basic);
  if (call->range_start >= 0)
    soup_message_headers_set_range (headers, call->range_start, call->range_end);
  if (call->accept != NULL)
    soup_message_headers_replace (headers, "Accept", call->accept);
  if (call->body != NULL)
    soup_message_set_request_body_from_bytes (call->msg, call->content_type, call->body);
  g_signal_connect (call->msg, "wrote-headers", G_CALLBACK (on_wrote_headers), call);

  soup_session_send_async (self->session, call->msg, G_PRIORITY_DEFAULT,
                           call->internal, on_sent, task);
}

/**
 * hr_http_send_async:
 * @self: a layer
 * @request: what to send (copied)
 * @cancellable: (nullable): cancels the request
 * @callback: called with the response
 * @user_data: data for @callback
 *
 * Sends @request, follows up to %HR_HTTP_MAX_REDIRECTS redirects, and reads
 * the body (see #HrHttpRequest for the limits).
 */
void
hr_http_send_async (HrHttp              *self,
                    const HrHttpRequest *request,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  GTask *task;
  Call *call;

  g_return_if_fail (HR_IS_HTTP (self));
  g_return_if_fail (request != NULL && request->method != NULL && request->url != NULL);
  g_return_if_fail (request->range_start < 0 || request->range_end >= request->range_start);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_http_send_async);
  call = g_new0 (Call, 1);
  call->http = g_object_ref (self);
  call->method = g_strdup (request->method);
  call->url = g_strdup (request->url);
  call->body = request->body != NULL ? g_bytes_ref (request->body) : NULL;
  call->content_type = g_strdup (request->content_type);
  call->accept = g_strdup (request->accept);
  call->range_start = request->range_start;
  call->range_end = request->range_end;
  call->cap = request->range_start >= 0
              ? (guint64) (request->range_end - request->range_start + 1)
              : request->cap;
  call->deadline_ms = request->deadline_ms;
  call->connect_ms = request->connect_ms;
  call->stream = request->stream;
  call->bytes_counter = request->bytes_counter;
  call->failed_url = request->failed_url;
  call->internal = g_cancellable_new ();
  if (cancellable != NULL)
    {
      call->caller = g_object_ref (cancellable);
      call->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                    g_object_ref (call->internal), g_object_unref);
    }
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);

  if (call->connect_ms > 0)
    call->connect_timer = add_timer (call->connect_ms, on_connect_timeout, call);
  if (call->deadline_ms > 0)
    call->deadline_timer = add_timer (call->deadline_ms, on_deadline, call);
  send_message (task);
}

/**
 * hr_http_send_finish:
 * @self: a layer
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the response, whatever its status; or %NULL
 *   with @error: %G_IO_ERROR_CANCELLED when the caller cancelled; else
 *   %HR_NET_ERROR: %HR_NET_ERROR_TIMEOUT (a limit passed),
 *   %HR_NET_ERROR_CONNECTION_REFUSED, %HR_NET_ERROR_RESOLVE,
 *   %HR_NET_ERROR_TLS, %HR_NET_ERROR_TOO_LARGE (the body passed the cap),
 *   %HR_NET_ERROR_TRUNCATED (a body broke off),
 *   %HR_NET_ERROR_INVALID_RESPONSE (too many redirects, or one without a
 *   Location), %HR_NET_ERROR_BAD_PATH or %HR_NET_ERROR_FAILED (not an
 *   http(s) URL; any other failure), worded as the layer's #HrHttpWording.
 */
HrHttpResponse *
hr_http_send_finish (HrHttp        *self,
                     GAsyncResult  *result,
                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_http_send_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
