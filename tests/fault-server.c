/* fault-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "fault-server.h"

#define DIGEST "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72"

typedef struct {
  FaultMode  mode;
  guint      status;
  char      *text;
  guint      healthy_first; /* requests answered healthily before the fault */
} Fault;

/* One paused message being fed by a timer. */
typedef struct {
  FaultServer       *server;
  SoupServerMessage *msg;
  FaultMode          mode;
  char              *text;
  guint              timer;
  gulong             finished_id;
} Feed;

struct _FaultServer {
  SoupServer *server;
  char       *url;
  GHashTable *faults;  /* path -> Fault */
  GHashTable *hits;    /* path -> count */
  GPtrArray  *feeds;   /* Feed, while their messages run */
  GPtrArray  *stalled; /* SoupServerMessage paused for good */
  char       *authorization;
  guint       drip_ms;
};

static void
fault_free (Fault *fault)
{
  g_free (fault->text);
  g_free (fault);
}

static void
feed_stop (Feed *feed)
{
  g_clear_handle_id (&feed->timer, g_source_remove);
  if (feed->finished_id != 0)
    g_signal_handler_disconnect (feed->msg, feed->finished_id);
  feed->finished_id = 0;
}

static void
feed_free (Feed *feed)
{
  feed_stop (feed);
  g_clear_object (&feed->msg);
  g_free (feed->text);
  g_free (feed);
}

static void
on_feed_finished (SoupServerMessage *msg,
                  Feed              *feed)
{
  feed_stop (feed);
  g_ptr_array_remove (feed->server->feeds, feed);
}

static gboolean
on_feed_tick (gpointer user_data)
{
  Feed *feed = user_data;
  SoupMessageBody *body = soup_server_message_get_response_body (feed->msg);

  if (feed->mode == FAULT_DRIP)
    soup_message_body_append (body, SOUP_MEMORY_STATIC, " ", 1);
  else
    {
      g_autofree char *line = g_strconcat (feed->text, "\n", NULL);

      soup_message_body_append (body, SOUP_MEMORY_COPY, line, strlen (line));
    }
  soup_server_message_unpause (feed->msg);
  return G_SOURCE_CONTINUE;
}

static void
start_stream (FaultServer       *self,
              SoupServerMessage *msg,
              const char        *first)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, "application/x-ndjson", NULL);
  if (first != NULL)
    soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_COPY,
                              first, strlen (first));
}

static void
start_feed (FaultServer       *self,
            SoupServerMessage *msg,
            FaultMode          mode,
            const char        *text)
{
  Feed *feed = g_new0 (Feed, 1);

  feed->server = self;
  feed->msg = g_object_ref (msg);
  feed->mode = mode;
  feed->text = g_strdup (text != NULL ? text : "");
  feed->finished_id = g_signal_connect (msg, "finished", G_CALLBACK (on_feed_finished), feed);
  g_ptr_array_add (self->feeds, feed);
  if (mode == FAULT_DRIP)
    {
      /* A line begins and never ends: each byte is progress to a timer
       * that counts bytes, none to one that counts new lines. */
      start_stream (self, msg, "{\"status\":\"pulling manifest\"}\n{\"status\":\"pulling");
    }
  else
    start_stream (self, msg, NULL);
  feed->timer = g_timeout_add (self->drip_ms, on_feed_tick, feed);
  soup_server_message_pause (msg);
}

static void
healthy (SoupServerMessage *msg,
         const char        *path)
{
  const char *body = NULL;

  if (g_str_equal (path, "/api/version"))
    body = "{\"version\":\"0.31.2\"}";
  else if (g_str_equal (path, "/api/tags"))
    body = "{\"models\":[{\"name\":\"m:latest\",\"model\":\"m:latest\",\"size\":1000000,"
           "\"digest\":\"" DIGEST "\",\"details\":{\"format\":\"gguf\",\"family\":\"llama\"}}]}";
  else if (g_str_equal (path, "/api/ps"))
    body = "{\"models\":[]}";
  else if (g_str_equal (path, "/api/generate"))
    /* One answer for the unload and a run alike: a run's timings (96
     * tokens in 4 s, 24 t/s; Ollama's durations are nanoseconds). */
    body = "{\"model\":\"m:latest\",\"response\":\"\",\"done\":true,\"done_reason\":\"stop\","
           "\"total_duration\":4500000000,\"load_duration\":100000000,\"prompt_eval_count\":20,"
           "\"prompt_eval_duration\":400000000,\"eval_count\":96,\"eval_duration\":4000000000}";
  else if (g_str_equal (path, "/api/show"))
    body = "{\"details\":{\"format\":\"gguf\",\"family\":\"llama\"},"
           "\"model_info\":{\"general.architecture\":\"llama\"}}";
  else if (g_str_equal (path, "/"))
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, "Ollama is running", 17);
      return;
    }
  if (body == NULL)
    {
      static const char missing[] = "{\"error\":\"model 'm' not found\"}";

      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        missing, strlen (missing));
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
}

static void
on_request (SoupServer        *server,
            SoupServerMessage *msg,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  FaultServer *self = user_data;
  Fault *fault = g_hash_table_lookup (self->faults, path);
  const char *auth = soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Authorization");
  guint hits = GPOINTER_TO_UINT (g_hash_table_lookup (self->hits, path));

  g_hash_table_insert (self->hits, g_strdup (path), GUINT_TO_POINTER (hits + 1));
  g_free (self->authorization);
  self->authorization = g_strdup (auth);
  if (fault != NULL && fault->healthy_first > 0)
    {
      fault->healthy_first--;
      healthy (msg, path);
      return;
    }
  if (fault == NULL || fault->mode == FAULT_NONE)
    {
      healthy (msg, path);
      return;
    }
  switch (fault->mode)
    {
    case FAULT_STALL_HEADERS:
      g_ptr_array_add (self->stalled, g_object_ref (msg));
      soup_server_message_pause (msg);
      break;
    case FAULT_STALL_BODY:
      /* Not paused: the headers go out, then the chunked body waits. */
      start_stream (self, msg, NULL);
      g_ptr_array_add (self->stalled, g_object_ref (msg));
      break;
    case FAULT_DRIP:
    case FAULT_REPEAT:
      start_feed (self, msg, fault->mode, fault->text);
      break;
    case FAULT_CUT_LINE:
      {
        g_autofree char *body = g_strdup_printf ("{\"status\":\"pulling manifest\"}\n%.*s",
                                                 (int) (strlen (fault->text) / 2), fault->text);

        start_stream (self, msg, body);
        soup_message_body_complete (soup_server_message_get_response_body (msg));
      }
      break;
    case FAULT_BODY:
      soup_server_message_set_status (msg, fault->status, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY,
                                        fault->text, strlen (fault->text));
      break;
    case FAULT_RETRY_AFTER:
      soup_server_message_set_status (msg, 429, NULL);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", fault->text);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                        "{\"error\":\"too many requests\"}", strlen ("{\"error\":\"too many requests\"}"));
      break;
    case FAULT_REDIRECT:
      soup_server_message_set_redirect (msg, fault->status, fault->text);
      break;
    case FAULT_NONE:
    default:
      g_assert_not_reached ();
    }
}

/**
 * fault_server_new:
 *
 * Returns: (transfer full): a server listening on 127.0.0.1, port 0, with
 *   no faults set and a drip of 100 ms.
 */
FaultServer *
fault_server_new (void)
{
  FaultServer *self = g_new0 (FaultServer, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;

  self->server = soup_server_new (NULL, NULL);
  self->faults = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) fault_free);
  self->hits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) feed_free);
  self->stalled = g_ptr_array_new_with_free_func (g_object_unref);
  self->drip_ms = 100;
  soup_server_add_handler (self->server, NULL, on_request, self, NULL);
  soup_server_listen (self->server, address, 0, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (self->server);
  g_assert_nonnull (uris);
  self->url = g_uri_to_string_partial (uris->data, G_URI_HIDE_NONE);
  if (g_str_has_suffix (self->url, "/"))
    self->url[strlen (self->url) - 1] = '\0';
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return self;
}

/**
 * fault_server_spin_until_idle:
 * @self: a server
 *
 * Runs the main loop until every fed stream has finished (the client gave
 * up on it and its connection closed), at most 5 s.
 */
void
fault_server_spin_until_idle (FaultServer *self)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (self->feeds->len > 0 && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

void
fault_server_free (FaultServer *self)
{
  for (guint i = 0; i < self->feeds->len; i++)
    feed_stop (g_ptr_array_index (self->feeds, i));
  soup_server_disconnect (self->server);
  g_ptr_array_unref (self->feeds);
  g_ptr_array_unref (self->stalled);
  g_clear_object (&self->server);
  g_hash_table_unref (self->faults);
  g_hash_table_unref (self->hits);
  g_free (self->authorization);
  g_free (self->url);
  g_free (self);
}

/** fault_server_get_url: Returns: "http://127.0.0.1:PORT", no slash. */
const char *
fault_server_get_url (FaultServer *self)
{
  return self->url;
}

/**
 * fault_server_set:
 * @self: a server
 * @path: the path ("/api/pull")
 * @mode: the fault; %FAULT_NONE for the healthy answer
 * @status: the status of %FAULT_BODY and %FAULT_REDIRECT
 * @text: (nullable): the body, line, Retry-After or Location
 */
void
fault_server_set (FaultServer *self,
                  const char  *path,
                  FaultMode    mode,
                  guint        status,
                  const char  *text)
{
  Fault *fault = g_new0 (Fault, 1);

  fault->mode = mode;
  fault->status = status;
  fault->text = g_strdup (text != NULL ? text : "");
  g_hash_table_replace (self->faults, g_strdup (path), fault);
}

/**
 * fault_server_set_healthy_first:
 * @self: a server
 * @path: a path whose fault is set
 * @count: how many requests to @path are answered healthily before the
 *   fault (generate's unload before the cold run, say)
 */
void
fault_server_set_healthy_first (FaultServer *self,
                                const char  *path,
                                guint        count)
{
  Fault *fault = g_hash_table_lookup (self->faults, path);

  g_assert_nonnull (fault);
  fault->healthy_first = count;
}

/** fault_server_set_drip_ms: the interval of %FAULT_DRIP and %FAULT_REPEAT. */
void
fault_server_set_drip_ms (FaultServer *self,
                          guint        ms)
{
  self->drip_ms = ms;
}

/** fault_server_hits: Returns: requests @path has had. */
guint
fault_server_hits (FaultServer *self,
                   const char  *path)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->hits, path));
}

/** fault_server_last_authorization: Returns: (nullable): the last Authorization header. */
const char *
fault_server_last_authorization (FaultServer *self)
{
  return self->authorization;
}
