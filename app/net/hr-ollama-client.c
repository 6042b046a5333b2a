/* hr-ollama-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The client object and its pipeline: a call is sent through HrHttp (with
 * the deadline of a plain call, or only the connect limit for streams and
 * load), a plain answer's status and JSON become its result
 * (hr-ollama-calls.c), a stream's lines are read by HrNdjsonReader and
 * mapped by hr-ollama-api.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-http.h"
#include "hr-json.h"
#include "hr-net-error.h"
#include "hr-ollama-client-private.h"
#include "hr-ollama-host.h"

struct _HrOllamaClient
{
  GObject      parent_instance;

  HrHttp      *http;
  char        *base_url;
  guint        deadline_ms;
  guint        connect_ms;
  guint        inactivity_ms;
  guint        load_ms;
  gsize        max_line_bytes;
  guint64      max_response_bytes;
};

G_DEFINE_FINAL_TYPE (HrOllamaClient, hr_ollama_client, G_TYPE_OBJECT)

static void
call_stop_timers (HrOllamaCall *call)
{
  g_clear_handle_id (&call->tick_id, g_source_remove);
  /* No callback into the caller's code after the call has returned. */
  call->chunk_func = NULL;
  call->pull_func = NULL;
}

static void
call_free (HrOllamaCall *call)
{
  call_stop_timers (call);
  g_clear_object (&call->cancellable);
  g_clear_object (&call->reader);
  g_clear_pointer (&call->response, hr_http_response_free);
  g_clear_pointer (&call->reply, hr_ollama_reply_free);
  if (call->text != NULL)
    g_string_free (call->text, TRUE);
  if (call->thinking != NULL)
    g_string_free (call->thinking, TRUE);
  g_clear_pointer (&call->progress, hr_pull_progress_free);
  g_free (call->path);
  g_free (call->model);
  g_clear_object (&call->client);
  g_free (call);
}

/* ------------------------------------------------------------------ */
/* The client object                                                   */

static void
hr_ollama_client_dispose (GObject *object)
{
  HrOllamaClient *self = HR_OLLAMA_CLIENT (object);

  if (self->http != NULL)
    hr_http_abort (self->http);
  g_clear_object (&self->http);

  G_OBJECT_CLASS (hr_ollama_client_parent_class)->dispose (object);
}

static void
hr_ollama_client_finalize (GObject *object)
{
  HrOllamaClient *self = HR_OLLAMA_CLIENT (object);

  g_free (self->base_url);

  G_OBJECT_CLASS (hr_ollama_client_parent_class)->finalize (object);
}

static void
hr_ollama_client_class_init (HrOllamaClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_ollama_client_dispose;
  object_class->finalize = hr_ollama_client_finalize;
}

static void
hr_ollama_client_init (HrOllamaClient *self)
{
  /* No session timeout: libsoup's is an inactivity timeout on every read,
   * which would cut a cold load short. Calls keep their own deadlines. */
  self->http = hr_http_new (HR_HTTP_WORDING_OLLAMA, "Headroom/" PACKAGE_VERSION, 2);
  self->deadline_ms = HR_OLLAMA_DEADLINE_MS;
  self->connect_ms = HR_OLLAMA_CONNECT_TIMEOUT_MS;
  self->inactivity_ms = HR_OLLAMA_INACTIVITY_MS;
  self->load_ms = HR_OLLAMA_LOAD_WAIT_MS;
  self->max_line_bytes = HR_OLLAMA_MAX_LINE_BYTES;
  self->max_response_bytes = HR_OLLAMA_MAX_RESPONSE_BYTES;
}

/**
 * hr_ollama_default_host:
 * @setting: (nullable): the user's saved server address
 *
 * Picks the server the way Ollama's own clients do (docs/ollama.md,
 * "Conventions"): `OLLAMA_HOST` when set and not empty, else @setting when
 * not empty, else http://localhost:11434.
 *
 * Returns: (transfer full): the host string, not yet normalised.
 */
char *
hr_ollama_default_host (const char *setting)
{
  const char *env = g_getenv ("OLLAMA_HOST");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  if (setting != NULL && *setting != '\0')
    return g_strdup (setting);
  return g_strdup (HR_OLLAMA_DEFAULT_URL);
}

/**
 * hr_ollama_client_new:
 * @host: (nullable): the server as a person wrote it ("10.0.0.5:11434",
 *   "https://spark.example/ollama"); %NULL for hr_ollama_default_host()
 * @error: return location for a #GError
 *
 * Creates a client for one board with one #SoupSession. The host is
 * normalised by hr_ollama_host_normalize(); its userinfo
 * (`http://admin:secret@h:11434`) becomes HTTP basic auth to that origin
 * only, and the base URL (in every message) leaves it out. Defaults:
 * deadline 30 s for a plain call, 10 s to connect and send, 60 s without
 * progress in a stream, 600 s for a model's load, 8,000,000 bytes per line (Ollama's own client's), 64 MiB
 * per answer.
 *
 * Returns: (transfer full): the client, or %NULL with
 *   %HR_CORE_ERROR_INVALID_ARGUMENT when @host is not an address.
 */
HrOllamaClient *
hr_ollama_client_new (const char  *host,
                      GError     **error)
{
  g_autofree char *chosen = host != NULL ? g_strdup (host) : hr_ollama_default_host (NULL);
  g_autofree char *user = NULL;
  g_autofree char *password = NULL;
  g_autofree char *url = hr_ollama_host_normalize_full (chosen, &user, &password, error);
  HrOllamaClient *self;

  if (url == NULL)
    return NULL;
  self = g_object_new (HR_TYPE_OLLAMA_CLIENT, NULL);
  self->base_url = g_steal_pointer (&url);
  hr_http_set_label (self->http, self->base_url);
  /* A proxy's basic auth, from the URL's userinfo: to this origin only. */
  hr_http_set_basic_auth (self->http, user, password, self->base_url);
  if (password != NULL)
    memset (password, 0, strlen (password));
  return self;
}

/**
 * hr_ollama_client_get_base_url:
 * @self: a client
 *
 * Returns: (transfer none): the normalised base URL, "http://10.0.0.5:11434".
 */
const char *
hr_ollama_client_get_base_url (HrOllamaClient *self)
{
  g_return_val_if_fail (HR_IS_OLLAMA_CLIENT (self), NULL);
  return self->base_url;
}

/**
 * hr_ollama_client_set_token:
 * @self: a client
 * @token: (nullable): a bearer token for a reverse proxy in front of
 *   Ollama, or %NULL / "" for none
 *
 * Ollama has no authentication of its own; a proxy may want
 * `Authorization: Bearer TOKEN`. The header is sent only when a token is
 * set, and only to the board's own origin (scheme, host and port): never
 * after a redirect to another one. The token is never logged.
 */
void
hr_ollama_client_set_token (HrOllamaClient *self,
                            const char     *token)
{
  g_return_if_fail (HR_IS_OLLAMA_CLIENT (self));
  hr_http_set_token (self->http, token, self->base_url);
}

/**
 * hr_ollama_client_set_timeouts:
 * @self: a client
 * @deadline_ms: the whole of a plain call (version, tags, ps, show,
 *   unload, delete), in ms; 0 for none
 * @connect_ms: time to connect and send the request, in ms; 0 for none
 * @inactivity_ms: the longest a stream may go without progress (a line
 *   that says something new: repeated identical lines, blank lines and
 *   bytes that end no line do not count), and a pull's wait for its answer
 *   and its first line, in ms; 0 for none
 *
 * Streams have no overall deadline. A pull is bounded by @connect_ms, then
 * @inactivity_ms to its first line and between lines of progress;
 * generate and chat wait up to the load wait
 * (hr_ollama_client_set_load_wait()) for their first line, then
 * @inactivity_ms; every call by the caller's cancellable.
 */
void
hr_ollama_client_set_timeouts (HrOllamaClient *self,
                               guint           deadline_ms,
                               guint           connect_ms,
                               guint           inactivity_ms)
{
  g_return_if_fail (HR_IS_OLLAMA_CLIENT (self));
  self->deadline_ms = deadline_ms;
  self->connect_ms = connect_ms;
  self->inactivity_ms = inactivity_ms;
}

/**
 * hr_ollama_client_set_load_wait:
 * @self: a client
 * @load_ms: how long generate and chat (and load, which has no deadline)
 *   wait for the answer and its first line, in ms; 0 for no limit.
 *   %HR_OLLAMA_LOAD_WAIT_MS (10 minutes) by default: a cold load of a large
 *   model can take minutes before the first token.
 */
void
hr_ollama_client_set_load_wait (HrOllamaClient *self,
                                guint           load_ms)
{
  g_return_if_fail (HR_IS_OLLAMA_CLIENT (self));
  self->load_ms = load_ms;
}

/**
 * hr_ollama_client_get_load_wait:
 * @self: a client
 *
 * Returns: the wait set by hr_ollama_client_set_load_wait(), in ms.
 */
guint
hr_ollama_client_get_load_wait (HrOllamaClient *self)
{
  g_return_val_if_fail (HR_IS_OLLAMA_CLIENT (self), 0);
  return self->load_ms;
}

/**
 * hr_ollama_client_set_caps:
 * @self: a client
 * @max_line_bytes: the longest stream line accepted, bytes (> 0)
 * @max_response_bytes: the largest answer or stream accepted, bytes (> 0)
 */
void
hr_ollama_client_set_caps (HrOllamaClient *self,
                           gsize           max_line_bytes,
                           guint64         max_response_bytes)
{
  g_return_if_fail (HR_IS_OLLAMA_CLIENT (self));
  g_return_if_fail (max_line_bytes > 0 && max_response_bytes > 0);
  self->max_line_bytes = max_line_bytes;
  self->max_response_bytes = max_response_bytes;
}

/* ------------------------------------------------------------------ */
/* Errors of an answer                                                  */

/* A stream that broke off or ended before its last line. */
static GError *
error_truncated (HrOllamaCall *call)
{
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                      _("the answer from %s ended before its last line: the connection dropped or the server stopped; try again"),
                      call->client->base_url);
}

/* A non-2xx answer, read once for the messages below: its body, Ollama's
 * {"error"} text in it (%NULL when it sent none) and its reason phrase
 * made safe to show. */
typedef struct {
  HrOllamaCall   *call;
  HrHttpResponse *resp;
  const char     *data;
  gsize           size;
  char           *ollama;
  char           *reason;
} StatusAnswer;

/* 401 or 403: not signed in to ollama.com, or a proxy's token missing or
 * refused. */
static GError *
error_unauthorized (const StatusAnswer *a)
{
  HrOllamaClient *self = a->call->client;
  guint status = a->resp->status;
  /* Ollama itself: a cloud model on a server not signed in to
   * ollama.com (api/client.go, AuthorizationError's signin_url). */
  g_autofree char *signin = status == SOUP_STATUS_UNAUTHORIZED
    ? hr_ollama_api_signin_url (a->data, a->size) : NULL;

  if (signin != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                        _("%s answered %u %s: Ollama there is not signed in to ollama.com; sign in at %s (or run \"ollama signin\" on that machine)"),
                        self->base_url, status, a->reason, signin);
  if (!hr_http_has_token (self->http))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                        _("%s answered %u %s: a proxy in front of Ollama wants a token; set the board's token"),
                        self->base_url, status, a->reason);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                      _("%s answered %u %s: the proxy in front of Ollama did not accept the token; check the board's token"),
                      self->base_url, status, a->reason);
}

/* 404: Ollama's "not found" of a model (nothing to delete, or pull it
 * first), or a wrong address that is not Ollama's. */
static GError *
error_not_found (const StatusAnswer *a)
{
  HrOllamaCall *call = a->call;
  HrOllamaClient *self = call->client;
  g_autofree char *excerpt = NULL;

  if (a->ollama != NULL && call->model != NULL && g_strcmp0 (call->path, "/api/delete") == 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("%s: %s is not on the board at %s, so there is nothing to delete"),
                        a->ollama, call->model, self->base_url);
  if (a->ollama != NULL && call->model != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("%s: %s is not on the board at %s; pull it first"),
                        a->ollama, call->model, self->base_url);
  if (a->ollama != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("%s answered: %s"), self->base_url, a->ollama);
  excerpt = hr_http_body_excerpt (a->resp->body);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                      _("%s%s answered 404 with %s, not Ollama's JSON: the address or its path prefix is wrong; use the address `ollama serve` listens on, such as http://10.0.0.5:11434"),
                      self->base_url, call->path, excerpt);
}

/* 503 or 429: busy, with the wait its Retry-After asks for. */
static GError *
error_busy (const StatusAnswer *a)
{
  HrOllamaClient *self = a->call->client;
  guint wait = hr_http_retry_after (a->resp->headers);

  if (wait > 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BUSY,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "Ollama at %s is busy (%s); it asks to try again in %u second",
                                     "Ollama at %s is busy (%s); it asks to try again in %u seconds",
                                     wait),
                        self->base_url, a->ollama != NULL ? a->ollama : a->reason, wait);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BUSY,
                      _("Ollama at %s is busy (%s); try again in a moment"),
                      self->base_url, a->ollama != NULL ? a->ollama : a->reason);
}

/* Any other status: a server failure (5xx) or a refusal, with Ollama's
 * text or an excerpt of the body. */
static GError *
error_other (const StatusAnswer *a)
{
  HrOllamaClient *self = a->call->client;
  guint status = a->resp->status;
  g_autofree char *excerpt = NULL;

  if (status >= 500 && a->ollama != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_SERVER,
                        _("Ollama at %s failed: %s"), self->base_url, a->ollama);
  excerpt = hr_http_body_excerpt (a->resp->body);
  if (status >= 500)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_SERVER,
                        _("%s answered %u %s with %s: the server or a proxy in front of it failed; try again, or read the server's log"),
                        self->base_url, status, a->reason, excerpt);
  if (a->ollama != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                        _("%s answered %u %s: %s"), self->base_url, status, a->reason, a->ollama);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                      _("%s answered %u %s with %s"), self->base_url, status, a->reason, excerpt);
}

/* A non-2xx answer: Ollama's own {"error"} text where it sent one. */
static GError *
error_for_status (HrOllamaCall   *call,
                  HrHttpResponse *resp)
{
  StatusAnswer a = { call, resp, NULL, 0, NULL, NULL };
  GError *error = NULL;

  a.data = resp->body != NULL ? g_bytes_get_data (resp->body, &a.size) : NULL;
  a.ollama = hr_ollama_api_error_text (a.data, a.size);
  a.reason = hr_json_safe_text (resp->reason, -1, HR_JSON_SAFE_SHORT);
  switch (resp->status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
    case SOUP_STATUS_FORBIDDEN:
      error = error_unauthorized (&a);
      break;
    case SOUP_STATUS_NOT_FOUND:
      error = error_not_found (&a);
      break;
    case SOUP_STATUS_SERVICE_UNAVAILABLE:
    case 429: /* Too Many Requests */
      error = error_busy (&a);
      break;
    case SOUP_STATUS_BAD_REQUEST:
      if (a.ollama != NULL)
        error = g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                             _("Ollama at %s refused the request: %s"), call->client->base_url, a.ollama);
      break;
    default:
      break;
    }
  if (error == NULL)
    error = error_other (&a);
  g_free (a.ollama);
  g_free (a.reason);
  return error;
}

/**
 * hr_ollama_call_error_unexpected: (skip)
 * @call: a call
 * @what: what was wrong with the answer ("no \"version\"")
 *
 * Returns: (transfer full): %HR_NET_ERROR_INVALID_RESPONSE naming the
 *   server and the path.
 */
GError *
hr_ollama_call_error_unexpected (HrOllamaCall *call,
                                 const char   *what)
{
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                      _("%s sent an unexpected answer to %s: %s; is this address an Ollama server?"),
                      call->client->base_url, call->path, what);
}

/* ------------------------------------------------------------------ */
/* The request pipeline                                                */

/**
 * hr_ollama_call_return_error: (skip)
 * @task: a call's task
 * @error: (transfer full): the error
 *
 * Stops the call's timers and callbacks, then returns @error on @task.
 */
void
hr_ollama_call_return_error (GTask  *task,
                             GError *error)
{
  HrOllamaCall *call = g_task_get_task_data (task);

  call_stop_timers (call);
  g_task_return_error (task, error);
}

/**
 * hr_ollama_call_new: (skip)
 * @self: a client
 * @task: the call's task; the call becomes its task data
 * @cancellable: (nullable): the caller's
 * @path: the API path ("/api/tags")
 * @model: (nullable): the model the call is about (named in errors)
 * @stream: whether and how the answer streams
 * @has_deadline: whether the client's deadline bounds the call
 * @answer: (nullable): what a plain call makes of its JSON answer
 *
 * Returns: (transfer none): the call, owned by @task.
 */
HrOllamaCall *
hr_ollama_call_new (HrOllamaClient     *self,
                    GTask              *task,
                    GCancellable       *cancellable,
                    const char         *path,
                    const char         *model,
                    HrOllamaStream      stream,
                    gboolean            has_deadline,
                    HrOllamaAnswerFunc  answer)
{
  HrOllamaCall *call = g_new0 (HrOllamaCall, 1);

  call->client = g_object_ref (self);
  call->path = g_strdup (path);
  call->model = g_strdup (model);
  call->stream = stream;
  call->has_deadline = has_deadline;
  call->answer = answer;
  call->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);
  return call;
}

static void
answer_done (GTask *task)
{
  HrOllamaCall *call = g_task_get_task_data (task);
  HrHttpResponse *resp = call->response;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root = NULL;
  const char *data;
  gsize size;

  if (!SOUP_STATUS_IS_SUCCESSFUL (resp->status))
    {
      hr_ollama_call_return_error (task, error_for_status (call, resp));
      return;
    }

  data = g_bytes_get_data (resp->body, &size);
  if (size > 0)
    {
      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, data, (gssize) size, &error))
        {
          hr_ollama_call_return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                                          _("%s sent an answer that is not JSON (%s); is this address an Ollama server?"),
                                                          call->client->base_url, error->message));
          return;
        }
      root = json_parser_get_root (parser);
    }

  call_stop_timers (call);
  call->answer (call, task, root);
}

static void on_stream_done (GObject *source, GAsyncResult *result, gpointer user_data);
static guint call_wait_ms (HrOllamaCall *call);
static gboolean on_reply_line (JsonNode *node, gpointer user_data, GError **error);
static gboolean on_pull_line (JsonNode *node, gpointer user_data, GError **error);
static gboolean on_pull_tick (gpointer user_data);

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrOllamaCall *call = g_task_get_task_data (task);
  GError *error = NULL;

  call->response = hr_http_send_finish (HR_HTTP (source), result, &error);
  if (call->response == NULL)
    {
      guint wait_ms = call_wait_ms (call);
      gint64 waited_ms = (g_get_monotonic_time () - call->started_us) / 1000;

      /* Generate, chat or load ran out of the load wait (not the connect
       * limit): say what was waited for. */
      if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT) && !call->has_deadline &&
          call->stream != HR_OLLAMA_STREAM_PULL && wait_ms > 0 && waited_ms >= wait_ms)
        {
          g_autofree char *limit = g_strdup_printf ("%u", (wait_ms + 999) / 1000);

          g_clear_error (&error);
          error = g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                               _("%s did not begin to answer within %s s: %s may still be loading (a large model can take minutes); allow a longer wait, or check `ollama ps`"),
                               call->client->base_url, limit, call->model != NULL ? call->model : _("the model"));
        }
      hr_ollama_call_return_error (task, error);
      return;
    }
  if (call->response->stream == NULL)
    {
      answer_done (task);
      return;
    }

  call->reader = hr_ndjson_reader_new (call->response->stream, call->client->base_url,
                                       call->client->max_line_bytes,
                                       call->client->max_response_bytes);
  hr_ndjson_reader_set_inactivity_limit (call->reader, call->client->inactivity_ms);
  hr_ndjson_reader_set_first_line_limit (call->reader,
                                         call->stream == HR_OLLAMA_STREAM_PULL
                                         ? call->client->inactivity_ms : call->client->load_ms);
  if (call->stream == HR_OLLAMA_STREAM_PULL)
    call->tick_id = g_timeout_add_seconds (1, on_pull_tick, call);
  hr_ndjson_reader_read_async (call->reader,
                               call->stream == HR_OLLAMA_STREAM_PULL ? on_pull_line : on_reply_line,
                               call, call->response->cancellable, on_stream_done,
                               g_steal_pointer (&task));
}

/* The HTTP deadline of @call: a plain call's whole; for a stream or a load
 * (no deadline of its own) the wait for the answer to begin: the load wait
 * for generate, chat and load, the inactivity limit for a pull. */
static guint
call_wait_ms (HrOllamaCall *call)
{
  if (call->has_deadline)
    return call->client->deadline_ms;
  if (call->stream == HR_OLLAMA_STREAM_PULL)
    return call->client->inactivity_ms;
  return call->client->load_ms;
}

/**
 * hr_ollama_call_start: (skip)
 * @task: (transfer full): a call's task
 * @method: "GET", "POST" or "DELETE"
 * @body: (nullable): the JSON request body
 *
 * Sends the call to the client's base URL + its path. A stream's 200 body
 * is read line by line; any other answer whole, up to the response cap.
 */
void
hr_ollama_call_start (GTask      *task,
                      const char *method,
                      JsonNode   *body)
{
  HrOllamaCall *call = g_task_get_task_data (task);
  HrOllamaClient *self = call->client;
  g_autofree char *url = g_strconcat (self->base_url, call->path, NULL);
  g_autoptr(GBytes) bytes = NULL;
  HrHttpRequest request = {
    .method = method,
    .url = url,
    .accept = call->stream != HR_OLLAMA_STREAM_NONE
              ? "application/x-ndjson, application/json"
              : "application/json",
    .range_start = -1,
    .range_end = -1,
    .cap = self->max_response_bytes,
    .deadline_ms = call_wait_ms (call),
    .connect_ms = self->connect_ms,
    .stream = call->stream != HR_OLLAMA_STREAM_NONE,
  };

  if (body != NULL)
    {
      g_autofree char *text = json_to_string (body, FALSE);
      gsize len = strlen (text);

      bytes = g_bytes_new_take (g_steal_pointer (&text), len);
      request.body = bytes;
      request.content_type = "application/json";
    }
  call->started_us = g_get_monotonic_time ();
  hr_http_send_async (self->http, &request, call->cancellable, on_sent, task);
}

/* ------------------------------------------------------------------ */
/* Streams                                                             */

static gboolean
on_reply_line (JsonNode  *node,
               gpointer   user_data,
               GError   **error)
{
  HrOllamaCall *call = user_data;
  g_autoptr(GError) local = NULL;
  HrOllamaReplyLine line;

  if (!hr_ollama_api_reply_line (node, call->stream == HR_OLLAMA_STREAM_CHAT, &line, &local))
    {
      g_propagate_error (error, hr_ollama_call_error_unexpected (call, local->message));
      return FALSE;
    }
  if (line.error != NULL)
    {
      g_autofree char *safe = hr_json_safe_text (line.error, -1, HR_JSON_SAFE_LONG);

      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_STREAM,
                   _("Ollama stopped with an error: %s"), safe);
      return FALSE;
    }

  if ((line.content != NULL && *line.content != '\0') ||
      (line.thinking != NULL && *line.thinking != '\0'))
    {
      if (call->reply->ttft_ms < 0)
        call->reply->ttft_ms = (g_get_monotonic_time () - call->started_us) / 1000.0;
      if (line.content != NULL)
        g_string_append (call->text, line.content);
      if (line.thinking != NULL)
        g_string_append (call->thinking, line.thinking);
      if (call->chunk_func != NULL)
        call->chunk_func (line.content != NULL ? line.content : "",
                          line.thinking != NULL ? line.thinking : "",
                          call->chunk_data);
    }

  if (line.done)
    {
      call->saw_done = TRUE;
      hr_ollama_api_reply_done (json_node_get_object (node), call->reply);
    }
  return TRUE;
}

static gboolean
on_pull_line (JsonNode  *node,
              gpointer   user_data,
              GError   **error)
{
  HrOllamaCall *call = user_data;
  HrPullLineKind kind;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_propagate_error (error, hr_ollama_call_error_unexpected (call, _("a stream line that is not an object")));
      return FALSE;
    }

  kind = hr_pull_progress_feed (call->progress, json_node_get_object (node), g_get_monotonic_time ());
  if (kind == HR_PULL_LINE_ERROR)
    {
      g_autofree char *message = hr_pull_error_message (call->model, call->progress->error);

      g_set_error_literal (error, HR_NET_ERROR, HR_NET_ERROR_STREAM, message);
      return FALSE;
    }
  if (call->pull_func != NULL)
    call->pull_func (call->progress, call->pull_data);
  return TRUE;
}

static gboolean
on_pull_tick (gpointer user_data)
{
  HrOllamaCall *call = user_data;

  if (call->pull_func != NULL)
    call->pull_func (call->progress, call->pull_data);
  return G_SOURCE_CONTINUE;
}

static void
on_stream_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrOllamaCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!hr_ndjson_reader_read_finish (HR_NDJSON_READER (source), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || error->domain == HR_NET_ERROR)
        hr_ollama_call_return_error (task, g_steal_pointer (&error));
      else
        hr_ollama_call_return_error (task, error_truncated (call));
      return;
    }

  call_stop_timers (call);
  if (call->stream == HR_OLLAMA_STREAM_PULL)
    {
      if (!call->progress->success)
        hr_ollama_call_return_error (task, error_truncated (call));
      else
        g_task_return_boolean (task, TRUE);
      return;
    }

  if (!call->saw_done)
    {
      hr_ollama_call_return_error (task, error_truncated (call));
      return;
    }

  call->reply->client_total_ms = (g_get_monotonic_time () - call->started_us) / 1000.0;
  call->reply->text = g_strdup (call->text->str);
  if (call->thinking->len > 0)
    call->reply->thinking = g_strdup (call->thinking->str);
  g_task_return_pointer (task, g_steal_pointer (&call->reply), (GDestroyNotify) hr_ollama_reply_free);
}
