/* hr-ollama-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>

#include "hr-ndjson-reader.h"
#include "hr-net-error.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"

#define READ_CHUNK 65536

struct _HrOllamaClient
{
  GObject      parent_instance;

  SoupSession *session;
  char        *base_url;
  char        *token;
  guint        deadline_ms;
  guint        connect_ms;
  guint        inactivity_ms;
  gsize        max_line_bytes;
  guint64      max_response_bytes;
};

G_DEFINE_FINAL_TYPE (HrOllamaClient, hr_ollama_client, G_TYPE_OBJECT)

typedef enum {
  LIMIT_NONE,
  LIMIT_CONNECT,
  LIMIT_DEADLINE,
} LimitHit;

typedef enum {
  STREAM_NONE,
  STREAM_GENERATE,
  STREAM_CHAT,
  STREAM_PULL,
} StreamKind;

typedef struct _Call Call;

/* What a plain call makes of its answer: returns on @task. @root is NULL
 * for an empty body. */
typedef void (*AnswerFunc) (Call     *call,
                            GTask    *task,
                            JsonNode *root);

struct _Call {
  HrOllamaClient *client;
  SoupMessage    *msg;
  char           *path;          /* "/api/tags" */
  char           *model;         /* the model the call is about, or NULL */
  StreamKind      stream;
  gboolean        has_deadline;
  AnswerFunc      answer;

  GCancellable   *internal;      /* cancelled by the caller, the deadline or the connect timer */
  GCancellable   *caller;
  gulong          caller_handler;
  guint           connect_id;
  guint           deadline_id;
  guint           tick_id;
  LimitHit        hit;
  gint64          started_us;

  GInputStream   *input;
  GByteArray     *body;
  HrNdjsonReader *reader;

  /* generate / chat */
  gboolean        saw_done;
  HrOllamaReply  *reply;
  GString        *text;
  GString        *thinking;
  HrOllamaChunkFunc chunk_func;
  gpointer        chunk_data;

  /* pull */
  HrPullProgress *progress;
  HrOllamaPullFunc pull_func;
  gpointer        pull_data;
};

static void
call_stop_timers (Call *call)
{
  g_clear_handle_id (&call->connect_id, g_source_remove);
  g_clear_handle_id (&call->deadline_id, g_source_remove);
  g_clear_handle_id (&call->tick_id, g_source_remove);
  /* No callback into the caller's code after the call has returned. */
  call->chunk_func = NULL;
  call->pull_func = NULL;
}

static void
call_free (Call *call)
{
  call_stop_timers (call);
  if (call->caller != NULL)
    g_cancellable_disconnect (call->caller, call->caller_handler);
  g_clear_object (&call->caller);
  g_clear_object (&call->internal);
  if (call->msg != NULL)
    g_signal_handlers_disconnect_by_data (call->msg, call);
  g_clear_object (&call->msg);
  g_clear_object (&call->input);
  g_clear_object (&call->reader);
  g_clear_pointer (&call->body, g_byte_array_unref);
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

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (hr_ollama_client_parent_class)->dispose (object);
}

static void
hr_ollama_client_finalize (GObject *object)
{
  HrOllamaClient *self = HR_OLLAMA_CLIENT (object);

  g_free (self->base_url);
  g_free (self->token);

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
  self->session = soup_session_new_with_options ("timeout", 0,
                                                 "idle-timeout", 60,
                                                 "user-agent", "Headroom/" PACKAGE_VERSION,
                                                 NULL);
  self->deadline_ms = HR_OLLAMA_DEADLINE_MS;
  self->connect_ms = HR_OLLAMA_CONNECT_TIMEOUT_MS;
  self->inactivity_ms = HR_OLLAMA_INACTIVITY_MS;
  self->max_line_bytes = HR_OLLAMA_MAX_LINE_BYTES;
  self->max_response_bytes = HR_OLLAMA_MAX_RESPONSE_BYTES;
}

/**
 * hr_ollama_default_host:
 * @setting: (nullable): the user's saved server address
 *
 * Picks the server the way Ollama's own clients do (ollama-api.md,
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
 * normalised by hr_ollama_host_normalize(). Defaults: deadline 30 s for a
 * plain call, 10 s to connect and send, 300 s of silence in a running
 * stream, 4 MiB per line, 64 MiB per answer.
 *
 * Returns: (transfer full): the client, or %NULL with
 *   %HR_CORE_ERROR_INVALID_ARGUMENT when @host is not an address.
 */
HrOllamaClient *
hr_ollama_client_new (const char  *host,
                      GError     **error)
{
  g_autofree char *chosen = host != NULL ? g_strdup (host) : hr_ollama_default_host (NULL);
  g_autofree char *url = hr_ollama_host_normalize (chosen, error);
  HrOllamaClient *self;

  if (url == NULL)
    return NULL;
  self = g_object_new (HR_TYPE_OLLAMA_CLIENT, NULL);
  self->base_url = g_steal_pointer (&url);
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
 * set. The token is never logged.
 */
void
hr_ollama_client_set_token (HrOllamaClient *self,
                            const char     *token)
{
  g_return_if_fail (HR_IS_OLLAMA_CLIENT (self));
  g_clear_pointer (&self->token, g_free);
  if (token != NULL && *token != '\0')
    self->token = g_strdup (token);
}

/**
 * hr_ollama_client_set_timeouts:
 * @self: a client
 * @deadline_ms: the whole of a plain call (version, tags, ps, show,
 *   unload, delete), in ms; 0 for none
 * @connect_ms: time to connect and send the request, in ms; 0 for none
 * @inactivity_ms: silence allowed in a stream once its first byte has
 *   arrived, in ms; 0 for none
 *
 * Streams (generate, chat, pull) and load have no deadline: the first byte
 * of a cold load may take minutes. They are bounded by @connect_ms, then by
 * @inactivity_ms, and by the caller's cancellable.
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
/* Errors a person can act on                                          */

static char *
format_seconds (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf ("%u", ms / 1000);
  return g_strdup_printf ("%.1f", ms / 1000.0);
}

static GError *
error_for_send (Call   *call,
                GError *error)
{
  HrOllamaClient *self = call->client;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *limit = NULL;

      switch (call->hit)
        {
        case LIMIT_CONNECT:
          limit = format_seconds (self->connect_ms);
          return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                              _("could not connect to %s within %s s - is the board on, and on this network?"),
                              self->base_url, limit);
        case LIMIT_DEADLINE:
          limit = format_seconds (self->deadline_ms);
          return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                              _("%s did not answer within %s s - the board may be overloaded, or something other than Ollama is listening there"),
                              self->base_url, limit);
        case LIMIT_NONE:
        default:
          return g_error_copy (error);
        }
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED,
                        _("nothing is listening at %s - is `ollama serve` running, and bound to an address this machine can reach?"),
                        self->base_url);
  if (error->domain == G_RESOLVER_ERROR)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_RESOLVE,
                        _("the host name in %s does not resolve - check its spelling, or use the board's IP address"),
                        self->base_url);
  if (error->domain == G_TLS_ERROR)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TLS,
                        _("the secure connection to %s failed (%s) - check the server's certificate, or use http:// if it does not speak TLS"),
                        self->base_url, error->message);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                        _("could not connect to %s in time - is the board on, and on this network?"),
                        self->base_url);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                        _("cannot reach %s (%s) - is the board on, and on this network?"),
                        self->base_url, error->message);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                      _("talking to %s failed: %s"), self->base_url, error->message);
}

/* A stream that broke off or ended before its last line. */
static GError *
error_truncated (Call *call)
{
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                      _("the answer from %s ended before its last line - the connection dropped or the server stopped; try again"),
                      call->client->base_url);
}

/* Ollama's {"error": "..."} text of an answer body, or NULL. */
static char *
body_error_text (GByteArray *body)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;
  const char *text;

  if (body == NULL || body->len == 0 ||
      !json_parser_load_from_data (parser, (const char *) body->data, body->len, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  text = hr_json_string (json_node_get_object (root), "error");
  return text != NULL ? g_strdup (text) : NULL;
}

/* A short, printable excerpt of a non-JSON body ("404 page not found"). */
static char *
body_excerpt (GByteArray *body)
{
  g_autofree char *text = NULL;
  gsize len;

  if (body == NULL || body->len == 0)
    return g_strdup (_("an empty body"));
  len = MIN (body->len, 120);
  text = g_utf8_make_valid ((const char *) body->data, len);
  g_strstrip (text);
  for (char *p = text; *p != '\0'; p++)
    if ((guchar) *p < 0x20)
      *p = ' ';
  return g_strdup_printf ("\"%s\"", text);
}

static GError *
error_for_status (Call       *call,
                  guint       status,
                  GByteArray *body)
{
  HrOllamaClient *self = call->client;
  g_autofree char *ollama = body_error_text (body);
  g_autofree char *excerpt = NULL;
  const char *reason = soup_message_get_reason_phrase (call->msg);

  if (reason == NULL || *reason == '\0')
    reason = soup_status_get_phrase (status);

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
    case SOUP_STATUS_FORBIDDEN:
      if (self->token == NULL)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                            _("%s answered %u %s: a proxy in front of Ollama wants a token - set the board's token"),
                            self->base_url, status, reason);
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                          _("%s answered %u %s: the proxy in front of Ollama did not accept the token - check the board's token"),
                          self->base_url, status, reason);

    case SOUP_STATUS_NOT_FOUND:
      if (ollama != NULL && call->model != NULL)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                            _("%s - %s is not on the board at %s; pull it first"),
                            ollama, call->model, self->base_url);
      if (ollama != NULL)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                            _("%s answered: %s"), self->base_url, ollama);
      excerpt = body_excerpt (body);
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                          _("%s%s answered 404 with %s, not Ollama's JSON - the address or its path prefix is wrong; use the address `ollama serve` listens on, such as http://10.0.0.5:11434"),
                          self->base_url, call->path, excerpt);

    case SOUP_STATUS_SERVICE_UNAVAILABLE:
    case 429: /* Too Many Requests */
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BUSY,
                          _("Ollama at %s is busy (%s) - try again in a moment"),
                          self->base_url, ollama != NULL ? ollama : reason);

    case SOUP_STATUS_BAD_REQUEST:
      if (ollama != NULL)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                            _("Ollama at %s refused the request: %s"), self->base_url, ollama);
      break;

    default:
      break;
    }

  if (status >= 500 && ollama != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_SERVER,
                        _("Ollama at %s failed: %s"), self->base_url, ollama);
  if (status >= 500)
    {
      excerpt = body_excerpt (body);
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_SERVER,
                          _("%s answered %u %s with %s - the server or a proxy in front of it failed; try again, or read the server's log"),
                          self->base_url, status, reason, excerpt);
    }
  if (ollama != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                        _("%s answered %u %s: %s"), self->base_url, status, reason, ollama);
  excerpt = body_excerpt (body);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                      _("%s answered %u %s with %s"), self->base_url, status, reason, excerpt);
}

static GError *
error_unexpected (Call       *call,
                  const char *what)
{
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                      _("%s sent an unexpected answer to %s: %s - is this address an Ollama server?"),
                      call->client->base_url, call->path, what);
}

/* ------------------------------------------------------------------ */
/* The request pipeline                                                */

static void
return_error (GTask  *task,
              GError *error)
{
  Call *call = g_task_get_task_data (task);

  call_stop_timers (call);
  g_task_return_error (task, error);
}

static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
on_connect_timeout (gpointer user_data)
{
  Call *call = user_data;

  call->connect_id = 0;
  call->hit = LIMIT_CONNECT;
  g_cancellable_cancel (call->internal);
  return G_SOURCE_REMOVE;
}

static gboolean
on_deadline (gpointer user_data)
{
  Call *call = user_data;

  call->deadline_id = 0;
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
  g_clear_handle_id (&call->connect_id, g_source_remove);
}

static void on_sent (GObject *source, GAsyncResult *result, gpointer user_data);

static Call *
call_new (HrOllamaClient *self,
          GTask          *task,
          GCancellable   *cancellable,
          const char     *path,
          const char     *model,
          StreamKind      stream,
          gboolean        has_deadline,
          AnswerFunc      answer)
{
  Call *call = g_new0 (Call, 1);

  call->client = g_object_ref (self);
  call->path = g_strdup (path);
  call->model = g_strdup (model);
  call->stream = stream;
  call->has_deadline = has_deadline;
  call->answer = answer;
  call->internal = g_cancellable_new ();
  if (cancellable != NULL)
    {
      call->caller = g_object_ref (cancellable);
      call->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                    g_object_ref (call->internal), g_object_unref);
    }
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);
  return call;
}

/* Sends @method @path with @body (JSON, nullable); takes @task. */
static void
call_start (GTask      *task,
            const char *method,
            JsonNode   *body)
{
  Call *call = g_task_get_task_data (task);
  HrOllamaClient *self = call->client;
  g_autofree char *url = g_strconcat (self->base_url, call->path, NULL);

  call->msg = soup_message_new (method, url);
  if (call->msg == NULL)
    {
      return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                                       _("%s is not a valid address"), url));
      g_object_unref (task);
      return;
    }

  if (body != NULL)
    {
      g_autofree char *text = json_to_string (body, FALSE);
      gsize len = strlen (text);
      g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&text), len);

      soup_message_set_request_body_from_bytes (call->msg, "application/json", bytes);
    }
  if (self->token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", self->token, NULL);
      soup_message_headers_replace (soup_message_get_request_headers (call->msg),
                                    "Authorization", auth);
    }
  soup_message_headers_replace (soup_message_get_request_headers (call->msg),
                                "Accept", call->stream != STREAM_NONE
                                          ? "application/x-ndjson, application/json"
                                          : "application/json");

  g_signal_connect (call->msg, "wrote-headers", G_CALLBACK (on_wrote_headers), call);
  if (self->connect_ms > 0)
    call->connect_id = g_timeout_add (self->connect_ms, on_connect_timeout, call);
  if (call->has_deadline && self->deadline_ms > 0)
    call->deadline_id = g_timeout_add (self->deadline_ms, on_deadline, call);

  call->started_us = g_get_monotonic_time ();
  soup_session_send_async (self->session, call->msg, G_PRIORITY_DEFAULT,
                           call->internal, on_sent, task);
}

static void read_body_next (GTask *task);

static void
body_done (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  guint status = soup_message_get_status (call->msg);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root = NULL;

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      return_error (task, error_for_status (call, status, call->body));
      return;
    }

  if (call->body->len > 0)
    {
      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, (const char *) call->body->data, call->body->len, &error))
        {
          return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                           _("%s sent an answer that is not JSON (%s) - is this address an Ollama server?"),
                                           call->client->base_url, error->message));
          return;
        }
      root = json_parser_get_root (parser);
    }

  call_stop_timers (call);
  call->answer (call, task, root);
}

static void
on_body_read (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return_error (task, error_for_send (call, error));
      else
        return_error (task, error_truncated (call));
      return;
    }

  size = g_bytes_get_size (bytes);
  if (size == 0)
    {
      body_done (task);
      return;
    }
  if (call->body->len + size > call->client->max_response_bytes)
    {
      g_autofree char *cap = hr_ndjson_format_cap (call->client->max_response_bytes);

      return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                                       _("%s sent more than %s in one answer; Headroom stopped reading"),
                                       call->client->base_url, cap));
      return;
    }
  g_byte_array_append (call->body, g_bytes_get_data (bytes, NULL), size);
  read_body_next (g_steal_pointer (&task));
}

static void
read_body_next (GTask *task)
{
  Call *call = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (call->input, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   call->internal, on_body_read, task);
}

static void on_stream_done (GObject *source, GAsyncResult *result, gpointer user_data);
static gboolean on_reply_line (JsonNode *node, gpointer user_data, GError **error);
static gboolean on_pull_line (JsonNode *node, gpointer user_data, GError **error);
static gboolean on_pull_tick (gpointer user_data);

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
      return_error (task, error_for_send (call, error));
      return;
    }
  g_clear_handle_id (&call->connect_id, g_source_remove);

  status = soup_message_get_status (call->msg);
  if (call->stream == STREAM_NONE || status != SOUP_STATUS_OK)
    {
      call->body = g_byte_array_new ();
      read_body_next (g_steal_pointer (&task));
      return;
    }

  call->reader = hr_ndjson_reader_new (call->input, call->client->base_url,
                                       call->client->max_line_bytes,
                                       call->client->max_response_bytes);
  hr_ndjson_reader_set_inactivity_limit (call->reader, call->client->inactivity_ms);
  if (call->stream == STREAM_PULL)
    call->tick_id = g_timeout_add_seconds (1, on_pull_tick, call);
  hr_ndjson_reader_read_async (call->reader,
                               call->stream == STREAM_PULL ? on_pull_line : on_reply_line,
                               call, call->internal, on_stream_done, g_steal_pointer (&task));
}

/* ------------------------------------------------------------------ */
/* Streams                                                             */

static gint64
timing_field (JsonObject *obj,
              const char *name)
{
  guint64 v;

  if (!hr_json_u64 (obj, name, G_MAXUINT64, &v) || v > G_MAXINT64)
    return -1;
  return (gint64) v;
}

static gboolean
on_reply_line (JsonNode  *node,
               gpointer   user_data,
               GError   **error)
{
  Call *call = user_data;
  JsonObject *obj;
  const char *text;
  const char *content = NULL;
  const char *thinking = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_propagate_error (error, error_unexpected (call, _("a stream line that is not an object")));
      return FALSE;
    }
  obj = json_node_get_object (node);

  text = hr_json_string (obj, "error");
  if (text != NULL)
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_STREAM,
                   _("Ollama stopped with an error: %s"), text);
      return FALSE;
    }

  if (call->stream == STREAM_CHAT)
    {
      JsonObject *message = hr_json_object (obj, "message");
      if (message != NULL)
        {
          content = hr_json_string (message, "content");
          thinking = hr_json_string (message, "thinking");
        }
    }
  else
    {
      content = hr_json_string (obj, "response");
      thinking = hr_json_string (obj, "thinking");
    }

  if ((content != NULL && *content != '\0') || (thinking != NULL && *thinking != '\0'))
    {
      if (call->reply->ttft_ms < 0)
        call->reply->ttft_ms = (g_get_monotonic_time () - call->started_us) / 1000.0;
      if (content != NULL)
        g_string_append (call->text, content);
      if (thinking != NULL)
        g_string_append (call->thinking, thinking);
      if (call->chunk_func != NULL)
        call->chunk_func (content != NULL ? content : "", thinking != NULL ? thinking : "",
                          call->chunk_data);
    }

  if (hr_json_bool (obj, "done", FALSE))
    {
      HrOllamaReply *reply = call->reply;

      call->saw_done = TRUE;
      g_free (reply->done_reason);
      reply->done_reason = g_strdup (hr_json_string (obj, "done_reason"));
      reply->total_duration = timing_field (obj, "total_duration");
      reply->load_duration = timing_field (obj, "load_duration");
      reply->prompt_eval_count = timing_field (obj, "prompt_eval_count");
      reply->prompt_eval_duration = timing_field (obj, "prompt_eval_duration");
      reply->eval_count = timing_field (obj, "eval_count");
      reply->eval_duration = timing_field (obj, "eval_duration");
    }
  return TRUE;
}

static gboolean
on_pull_line (JsonNode  *node,
              gpointer   user_data,
              GError   **error)
{
  Call *call = user_data;
  HrPullLineKind kind;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_propagate_error (error, error_unexpected (call, _("a stream line that is not an object")));
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
  Call *call = user_data;

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
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!hr_ndjson_reader_read_finish (HR_NDJSON_READER (source), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return_error (task, g_steal_pointer (&error));
      else if (error->domain == HR_NET_ERROR)
        return_error (task, g_steal_pointer (&error));
      else
        return_error (task, error_truncated (call));
      return;
    }

  call_stop_timers (call);
  if (call->stream == STREAM_PULL)
    {
      if (!call->progress->success)
        return_error (task, error_truncated (call));
      else
        g_task_return_boolean (task, TRUE);
      return;
    }

  if (!call->saw_done)
    {
      return_error (task, error_truncated (call));
      return;
    }

  call->reply->client_total_ms = (g_get_monotonic_time () - call->started_us) / 1000.0;
  call->reply->text = g_strdup (call->text->str);
  if (call->thinking->len > 0)
    call->reply->thinking = g_strdup (call->thinking->str);
  g_task_return_pointer (task, g_steal_pointer (&call->reply), (GDestroyNotify) hr_ollama_reply_free);
}

/* ------------------------------------------------------------------ */
/* Answers of plain calls                                              */

static void
answer_version (Call     *call,
                GTask    *task,
                JsonNode *root)
{
  const char *version = NULL;

  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    version = hr_json_string (json_node_get_object (root), "version");
  if (version == NULL)
    {
      return_error (task, error_unexpected (call, _("no \"version\"")));
      return;
    }
  g_task_return_pointer (task, g_strdup (version), g_free);
}

static char *
dup_member (JsonObject *obj,
            const char *name)
{
  return obj != NULL ? g_strdup (hr_json_string (obj, name)) : NULL;
}

/* The "models" list of /api/tags or /api/ps; null means none. */
static JsonArray *
models_array (Call     *call,
              GTask    *task,
              JsonNode *root,
              gboolean *ok)
{
  JsonNode *node;

  *ok = FALSE;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      return_error (task, error_unexpected (call, _("not a JSON object")));
      return NULL;
    }
  node = json_object_get_member (json_node_get_object (root), "models");
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *ok = TRUE;
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      return_error (task, error_unexpected (call, _("\"models\" is not a list")));
      return NULL;
    }
  *ok = TRUE;
  return json_node_get_array (node);
}

static void
answer_tags (Call     *call,
             GTask    *task,
             JsonNode *root)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_model_free);
  gboolean ok;
  JsonArray *array = models_array (call, task, root, &ok);

  if (!ok)
    return;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *obj, *details;
      HrOllamaModel *model;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      obj = json_node_get_object (node);
      if (hr_json_string (obj, "name") == NULL)
        continue;
      details = hr_json_object (obj, "details");
      model = g_new0 (HrOllamaModel, 1);
      model->name = dup_member (obj, "name");
      model->model = dup_member (obj, "model");
      model->digest = hr_ollama_digest_bare (hr_json_string (obj, "digest"));
      if (!hr_json_u64 (obj, "size", G_MAXUINT64, &model->size))
        model->size = 0;
      model->modified_at = dup_member (obj, "modified_at");
      model->format = dup_member (details, "format");
      model->family = dup_member (details, "family");
      model->parameter_size = dup_member (details, "parameter_size");
      model->quantization_level = dup_member (details, "quantization_level");
      g_ptr_array_add (models, model);
    }
  g_task_return_pointer (task, g_steal_pointer (&models), (GDestroyNotify) g_ptr_array_unref);
}

static void
answer_ps (Call     *call,
           GTask    *task,
           JsonNode *root)
{
  g_autoptr(GPtrArray) loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_loaded_free);
  gboolean ok;
  JsonArray *array = models_array (call, task, root, &ok);

  if (!ok)
    return;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *obj, *details;
      HrOllamaLoaded *l;
      const char *expires;
      guint64 ctx = 0;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      obj = json_node_get_object (node);
      if (hr_json_string (obj, "name") == NULL)
        continue;
      details = hr_json_object (obj, "details");
      l = g_new0 (HrOllamaLoaded, 1);
      l->name = dup_member (obj, "name");
      l->model = dup_member (obj, "model");
      l->digest = hr_ollama_digest_bare (hr_json_string (obj, "digest"));
      if (!hr_json_u64 (obj, "size", G_MAXUINT64, &l->size))
        l->size = 0;
      if (!hr_json_u64 (obj, "size_vram", G_MAXUINT64, &l->size_vram))
        l->size_vram = 0;
      if (hr_json_u64 (obj, "context_length", G_MAXUINT64, &ctx) && ctx <= G_MAXUINT32)
        l->context_length = (guint32) ctx;
      expires = hr_json_string (obj, "expires_at");
      if (expires != NULL)
        l->expires_at = g_date_time_new_from_iso8601 (expires, NULL);
      l->family = dup_member (details, "family");
      l->parameter_size = dup_member (details, "parameter_size");
      l->quantization_level = dup_member (details, "quantization_level");
      g_ptr_array_add (loaded, l);
    }
  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) g_ptr_array_unref);
}

static void
answer_show (Call     *call,
             GTask    *task,
             JsonNode *root)
{
  g_autoptr(GError) error = NULL;
  HrOllamaShow *show = hr_ollama_show_parse (root, call->model, &error);

  if (show == NULL)
    {
      return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                       "%s", error->message));
      return;
    }
  g_task_return_pointer (task, show, (GDestroyNotify) hr_ollama_show_free);
}

static void
answer_ok (Call     *call,
           GTask    *task,
           JsonNode *root)
{
  g_task_return_boolean (task, TRUE);
}

/* ------------------------------------------------------------------ */
/* Calls                                                               */

static JsonNode *
model_body (const char *model)
{
  JsonObject *obj = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (obj, "model", model);
  json_node_take_object (node, obj);
  return node;
}

static gpointer
propagate_pointer (HrOllamaClient *self,
                   GAsyncResult   *result,
                   gpointer        tag,
                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
propagate_boolean (HrOllamaClient *self,
                   GAsyncResult   *result,
                   gpointer        tag,
                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tag, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hr_ollama_client_version_async:
 * @self: a client
 * @cancellable: (nullable): cancels the call
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * `GET /api/version`, within the deadline.
 */
void
hr_ollama_client_version_async (HrOllamaClient      *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, hr_ollama_client_version_async);
  call_new (self, task, cancellable, "/api/version", NULL, STREAM_NONE, TRUE, answer_version);
  call_start (task, "GET", NULL);
}

/**
 * hr_ollama_client_version_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the server's version ("0.31.2"; a dev build says
 *   "0.0.0"), or %NULL with an %HR_NET_ERROR (see the messages in
 *   ollama-api.md's quirks: refused, resolve, TLS, unauthorized, bad path,
 *   server, busy, invalid response, too large, timeout) or
 *   G_IO_ERROR_CANCELLED.
 */
char *
hr_ollama_client_version_finish (HrOllamaClient  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  return propagate_pointer (self, result, hr_ollama_client_version_async, error);
}

/**
 * hr_ollama_client_tags_async:
 * @self: a client
 * @cancellable: (nullable): cancels the call
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * `GET /api/tags`: the models on the board, within the deadline.
 */
void
hr_ollama_client_tags_async (HrOllamaClient      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, hr_ollama_client_tags_async);
  call_new (self, task, cancellable, "/api/tags", NULL, STREAM_NONE, TRUE, answer_tags);
  call_start (task, "GET", NULL);
}

/**
 * hr_ollama_client_tags_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type HrOllamaModel): the models, in the
 *   server's order (entries without a name are skipped), or %NULL with an
 *   %HR_NET_ERROR or G_IO_ERROR_CANCELLED.
 */
GPtrArray *
hr_ollama_client_tags_finish (HrOllamaClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  return propagate_pointer (self, result, hr_ollama_client_tags_async, error);
}

/**
 * hr_ollama_client_ps_async:
 * @self: a client
 * @cancellable: (nullable): cancels the call
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * `GET /api/ps`: the loaded models, within the deadline.
 */
void
hr_ollama_client_ps_async (HrOllamaClient      *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, hr_ollama_client_ps_async);
  call_new (self, task, cancellable, "/api/ps", NULL, STREAM_NONE, TRUE, answer_ps);
  call_start (task, "GET", NULL);
}

/**
 * hr_ollama_client_ps_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type HrOllamaLoaded): the loaded models
 *   with `size`, `size_vram` and `context_length`, or %NULL with an
 *   %HR_NET_ERROR or G_IO_ERROR_CANCELLED.
 */
GPtrArray *
hr_ollama_client_ps_finish (HrOllamaClient  *self,
                            GAsyncResult    *result,
                            GError         **error)
{
  return propagate_pointer (self, result, hr_ollama_client_ps_async, error);
}

/**
 * hr_ollama_client_show_async:
 * @self: a client
 * @model: a model name
 * @cancellable: (nullable): cancels the call
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * `POST /api/show {"model": MODEL}` (not verbose), within the deadline.
 */
void
hr_ollama_client_show_async (HrOllamaClient      *self,
                             const char          *model,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = model_body (model);

  g_task_set_source_tag (task, hr_ollama_client_show_async);
  call_new (self, task, cancellable, "/api/show", model, STREAM_NONE, TRUE, answer_show);
  call_start (task, "POST", body);
}

/**
 * hr_ollama_client_show_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the model spec and file figures
 *   (hr_ollama_show_parse()), or %NULL with an %HR_NET_ERROR
 *   (%HR_NET_ERROR_NOT_FOUND when the model is not on the board;
 *   %HR_NET_ERROR_INVALID_RESPONSE when the answer does not parse) or
 *   G_IO_ERROR_CANCELLED.
 */
HrOllamaShow *
hr_ollama_client_show_finish (HrOllamaClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  return propagate_pointer (self, result, hr_ollama_client_show_async, error);
}

static void
start_reply (HrOllamaClient      *self,
             gpointer             tag,
             StreamKind           kind,
             const char          *model,
             JsonNode            *body,
             HrOllamaChunkFunc    chunk_func,
             gpointer             chunk_data,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Call *call;

  g_task_set_source_tag (task, tag);
  call = call_new (self, task, cancellable, kind == STREAM_CHAT ? "/api/chat" : "/api/generate",
                   model, kind, FALSE, NULL);
  call->reply = g_new0 (HrOllamaReply, 1);
  call->reply->ttft_ms = -1;
  call->text = g_string_new (NULL);
  call->thinking = g_string_new (NULL);
  call->chunk_func = chunk_func;
  call->chunk_data = chunk_data;
  call_start (task, "POST", body);
}

/**
 * hr_ollama_client_generate_async:
 * @self: a client
 * @model: a model name
 * @prompt: the prompt
 * @options: (nullable): Ollama's `options` object (num_ctx, num_predict,
 *   temperature, seed ...), sent as given
 * @chunk_func: (nullable): called for every chunk that carries text
 * @chunk_data: data for @chunk_func
 * @cancellable: (nullable): cancels the call (closing the connection stops
 *   the server's work)
 * @callback: called with the reply
 * @user_data: data for @callback
 *
 * Streams `POST /api/generate` and times it in the client: TTFT runs from
 * sending the request to the first chunk whose `response` or `thinking` is
 * not empty (there is no TTFT field; seed-facts.md, "Measuring a model").
 * No deadline: bounded by the connect timeout, then the inactivity limit
 * once bytes flow, and @cancellable.
 */
void
hr_ollama_client_generate_async (HrOllamaClient      *self,
                                 const char          *model,
                                 const char          *prompt,
                                 JsonObject          *options,
                                 HrOllamaChunkFunc    chunk_func,
                                 gpointer             chunk_data,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(JsonNode) body = model_body (model);
  JsonObject *obj = json_node_get_object (body);

  json_object_set_string_member (obj, "prompt", prompt);
  json_object_set_boolean_member (obj, "stream", TRUE);
  if (options != NULL)
    json_object_set_object_member (obj, "options", json_object_ref (options));
  start_reply (self, hr_ollama_client_generate_async, STREAM_GENERATE, model, body,
               chunk_func, chunk_data, cancellable, callback, user_data);
}

/**
 * hr_ollama_client_generate_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the reply with the client's TTFT and total and
 *   Ollama's timing fields (ns; -1 when absent), or %NULL with an
 *   %HR_NET_ERROR (%HR_NET_ERROR_STREAM for an error line mid-stream,
 *   %HR_NET_ERROR_TRUNCATED for a stream without its `done` line, and the
 *   others of a plain call) or G_IO_ERROR_CANCELLED.
 */
HrOllamaReply *
hr_ollama_client_generate_finish (HrOllamaClient  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  return propagate_pointer (self, result, hr_ollama_client_generate_async, error);
}

/**
 * hr_ollama_client_chat_async:
 * @self: a client
 * @model: a model name
 * @messages: the whole conversation, `[{"role", "content"}]`: the server
 *   keeps no history, the caller resends it
 * @options: (nullable): Ollama's `options` object
 * @chunk_func: (nullable): called for every chunk that carries text
 * @chunk_data: data for @chunk_func
 * @cancellable: (nullable): cancels the call
 * @callback: called with the reply
 * @user_data: data for @callback
 *
 * Streams `POST /api/chat`; TTFT as for generate, on `message.content` or
 * `message.thinking`.
 */
void
hr_ollama_client_chat_async (HrOllamaClient      *self,
                             const char          *model,
                             JsonArray           *messages,
                             JsonObject          *options,
                             HrOllamaChunkFunc    chunk_func,
                             gpointer             chunk_data,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(JsonNode) body = model_body (model);
  JsonObject *obj = json_node_get_object (body);

  json_object_set_array_member (obj, "messages", json_array_ref (messages));
  json_object_set_boolean_member (obj, "stream", TRUE);
  if (options != NULL)
    json_object_set_object_member (obj, "options", json_object_ref (options));
  start_reply (self, hr_ollama_client_chat_async, STREAM_CHAT, model, body,
               chunk_func, chunk_data, cancellable, callback, user_data);
}

/**
 * hr_ollama_client_chat_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the reply, or %NULL with the errors of
 *   hr_ollama_client_generate_finish().
 */
HrOllamaReply *
hr_ollama_client_chat_finish (HrOllamaClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  return propagate_pointer (self, result, hr_ollama_client_chat_async, error);
}

/**
 * hr_ollama_client_load_async:
 * @self: a client
 * @model: a model name
 * @num_ctx: the context to load it with, tokens; 0 for the server's default
 * @cancellable: (nullable): cancels the call
 * @callback: called when the model is loaded
 * @user_data: data for @callback
 *
 * Loads a model: `POST /api/generate` with no prompt and `"stream": false`
 * (ollama-api.md: an empty prompt loads the model, `done_reason: "load"`).
 * No deadline: a cold load can take minutes.
 */
void
hr_ollama_client_load_async (HrOllamaClient      *self,
                             const char          *model,
                             guint32              num_ctx,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = model_body (model);
  JsonObject *obj = json_node_get_object (body);

  json_object_set_boolean_member (obj, "stream", FALSE);
  if (num_ctx > 0)
    {
      JsonObject *options = json_object_new ();
      json_object_set_int_member (options, "num_ctx", num_ctx);
      json_object_set_object_member (obj, "options", options);
    }
  g_task_set_source_tag (task, hr_ollama_client_load_async);
  call_new (self, task, cancellable, "/api/generate", model, STREAM_NONE, FALSE, answer_ok);
  call_start (task, "POST", body);
}

/**
 * hr_ollama_client_load_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE once loaded, or %FALSE with an %HR_NET_ERROR
 *   (%HR_NET_ERROR_SERVER with Ollama's text for a load that does not fit,
 *   "model requires more system memory ...") or G_IO_ERROR_CANCELLED.
 */
gboolean
hr_ollama_client_load_finish (HrOllamaClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_load_async, error);
}

/**
 * hr_ollama_client_unload_async:
 * @self: a client
 * @model: a model name
 * @cancellable: (nullable): cancels the call
 * @callback: called when the model is unloaded
 * @user_data: data for @callback
 *
 * Unloads a model: `POST /api/generate {"model", "keep_alive": 0,
 * "stream": false}` (`done_reason: "unload"`), within the deadline. /api/ps
 * may still list it for a moment with `expires_at` about now.
 */
void
hr_ollama_client_unload_async (HrOllamaClient      *self,
                               const char          *model,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = model_body (model);
  JsonObject *obj = json_node_get_object (body);

  json_object_set_int_member (obj, "keep_alive", 0);
  json_object_set_boolean_member (obj, "stream", FALSE);
  g_task_set_source_tag (task, hr_ollama_client_unload_async);
  call_new (self, task, cancellable, "/api/generate", model, STREAM_NONE, TRUE, answer_ok);
  call_start (task, "POST", body);
}

/**
 * hr_ollama_client_unload_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE, or %FALSE with an %HR_NET_ERROR (%HR_NET_ERROR_NOT_FOUND
 *   when the model is not on the board) or G_IO_ERROR_CANCELLED.
 */
gboolean
hr_ollama_client_unload_finish (HrOllamaClient  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_unload_async, error);
}

/**
 * hr_ollama_client_pull_async:
 * @self: a client
 * @model: a model name
 * @progress_func: (nullable): called after every line, and once a second
 *   while the stream is quiet (so a stall shows)
 * @progress_data: data for @progress_func
 * @cancellable: (nullable): cancels the pull; the server keeps the partial
 *   files (hr_pull_cancelled_message())
 * @callback: called when the pull has ended
 * @user_data: data for @callback
 *
 * Streams `POST /api/pull {"model", "stream": true}` through an
 * #HrPullProgress. No deadline; the inactivity limit applies.
 */
void
hr_ollama_client_pull_async (HrOllamaClient      *self,
                             const char          *model,
                             HrOllamaPullFunc     progress_func,
                             gpointer             progress_data,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = model_body (model);
  Call *call;

  json_object_set_boolean_member (json_node_get_object (body), "stream", TRUE);
  g_task_set_source_tag (task, hr_ollama_client_pull_async);
  call = call_new (self, task, cancellable, "/api/pull", model, STREAM_PULL, FALSE, NULL);
  call->progress = hr_pull_progress_new ();
  call->pull_func = progress_func;
  call->pull_data = progress_data;
  call_start (task, "POST", body);
}

/**
 * hr_ollama_client_pull_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE after `{"status": "success"}`, or %FALSE with
 *   %HR_NET_ERROR_STREAM (an error line, with Ollama's text and what to do:
 *   hr_pull_error_message()), %HR_NET_ERROR_TRUNCATED (no `success`), the
 *   other %HR_NET_ERROR codes, or G_IO_ERROR_CANCELLED.
 */
gboolean
hr_ollama_client_pull_finish (HrOllamaClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_pull_async, error);
}

/**
 * hr_ollama_client_delete_async:
 * @self: a client
 * @model: a model name
 * @cancellable: (nullable): cancels the call
 * @callback: called when the model is deleted
 * @user_data: data for @callback
 *
 * `DELETE /api/delete {"model"}` (200 with an empty body), within the
 * deadline. Deleting a loaded model does not unload it.
 */
void
hr_ollama_client_delete_async (HrOllamaClient      *self,
                               const char          *model,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = model_body (model);

  g_task_set_source_tag (task, hr_ollama_client_delete_async);
  call_new (self, task, cancellable, "/api/delete", model, STREAM_NONE, TRUE, answer_ok);
  call_start (task, "DELETE", body);
}

/**
 * hr_ollama_client_delete_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE, or %FALSE with an %HR_NET_ERROR (%HR_NET_ERROR_NOT_FOUND
 *   for an unknown model) or G_IO_ERROR_CANCELLED.
 */
gboolean
hr_ollama_client_delete_finish (HrOllamaClient  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_delete_async, error);
}

/* ------------------------------------------------------------------ */
/* Results                                                             */

/**
 * hr_ollama_model_free:
 * @model: (nullable): an /api/tags entry
 */
void
hr_ollama_model_free (HrOllamaModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->model);
  g_free (model->digest);
  g_free (model->modified_at);
  g_free (model->format);
  g_free (model->family);
  g_free (model->parameter_size);
  g_free (model->quantization_level);
  g_free (model);
}

/**
 * hr_ollama_loaded_free:
 * @loaded: (nullable): an /api/ps entry
 */
void
hr_ollama_loaded_free (HrOllamaLoaded *loaded)
{
  if (loaded == NULL)
    return;
  g_free (loaded->name);
  g_free (loaded->model);
  g_free (loaded->digest);
  g_clear_pointer (&loaded->expires_at, g_date_time_unref);
  g_free (loaded->family);
  g_free (loaded->parameter_size);
  g_free (loaded->quantization_level);
  g_free (loaded);
}

/**
 * hr_ollama_reply_free:
 * @reply: (nullable): a reply
 */
void
hr_ollama_reply_free (HrOllamaReply *reply)
{
  if (reply == NULL)
    return;
  g_free (reply->text);
  g_free (reply->thinking);
  g_free (reply->done_reason);
  g_free (reply);
}

/**
 * hr_ollama_rate_tps:
 * @count: tokens (Ollama's `eval_count` or `prompt_eval_count`; -1 = absent)
 * @duration_ns: their duration in ns (`eval_duration`, `prompt_eval_duration`;
 *   -1 = absent)
 *
 * tokens/s = count / (duration / 1e9) (seed-facts.md, "Measuring a
 * model": 89 tokens in 3,817,895,000 ns = 23.3 t/s).
 *
 * Returns: the rate, or -1 ("n/a") when either figure is absent or the
 *   duration is 0: never a division by zero.
 */
double
hr_ollama_rate_tps (gint64 count,
                    gint64 duration_ns)
{
  if (count < 0 || duration_ns <= 0)
    return -1;
  return (double) count / ((double) duration_ns / 1e9);
}

/**
 * hr_ollama_format_ms:
 * @duration_ns: a duration in ns, or -1 when absent
 *
 * Returns: (transfer full): the duration in ms with one decimal
 *   ("5908.4"), or "n/a".
 */
char *
hr_ollama_format_ms (gint64 duration_ns)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (duration_ns < 0)
    return g_strdup (_("n/a"));
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.1f", duration_ns / 1e6));
}

/**
 * hr_ollama_format_tps:
 * @tps: tokens/s, or a negative value when not known
 *
 * Returns: (transfer full): the rate with one decimal ("23.3"), or "n/a".
 */
char *
hr_ollama_format_tps (double tps)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (tps < 0 || !isfinite (tps))
    return g_strdup (_("n/a"));
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.1f", tps));
}
