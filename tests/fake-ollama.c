/* fake-ollama.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "fake-ollama.h"

/* A self-signed certificate for tests only (CN fake-ollama.test, made with
 * `openssl req -x509 -newkey ec`): no client trusts it. */
static const char fake_tls_pem[] =
  "-----BEGIN CERTIFICATE-----\n"
  "MIIBjTCCATOgAwIBAgIUMMQsYi7doXk+oz4TMmwu7L+oKuEwCgYIKoZIzj0EAwIw\n"
  "GzEZMBcGA1UEAwwQZmFrZS1vbGxhbWEudGVzdDAgFw0yNjExMjkxMjUwNTlaGA8y\n"
  "MTI2MTEwNTEyNTA1OVowGzEZMBcGA1UEAwwQZmFrZS1vbGxhbWEudGVzdDBZMBMG\n"
  "ByqGSM49AgEGCCqGSM49AwEHA0IABGQLQWUhlKEoE7LuS/i3Y83w6sRG3Gn71bEd\n"
  "jUpphcK4g68oGQugvpWgWt55IWR+AMf/0LxWC3jKC2pCVVImWFKjUzBRMB0GA1Ud\n"
  "DgQWBBSMcVA4MtVDDPbwJStqyvazelwhfzAfBgNVHSMEGDAWgBSMcVA4MtVDDPbw\n"
  "JStqyvazelwhfzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCICB+\n"
  "Tmgg2i9SiE0oEjMr4Fq+QLr5YuUE33B6yLgfQwGUAiEA7mT6cZ7ujdi3iSVO2n0/\n"
  "yuQFgLRDJvWK4xmMfOS2bFk=\n"
  "-----END CERTIFICATE-----\n"
  "-----BEGIN PRIVATE KEY-----\n"
  "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgBSQafXW3U3PGcLAe\n"
  "REDMkZ6nuR8zp1RzHKnU8OsmWzShRANCAARkC0FlIZShKBOy7kv4t2PN8OrERtxp\n"
  "+9WxHY1KaYXCuIOvKBkLoL6VoFreeSFkfgDH/9C8Vgt4ygtqQlVSJlhS\n"
  "-----END PRIVATE KEY-----\n";

#define LLAMA32_DIGEST "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72"

typedef struct {
  char     *name;
  char     *digest;
  guint64   size;
  char     *show_json;
  gboolean  loaded;
  guint32   num_ctx;
  guint64   base_bytes;      /* loaded size = base + per_token x num_ctx */
  guint64   bytes_per_token;
  guint64   cpu_bytes;       /* of the loaded size, this much stays on the CPU */
  guint32   default_num_ctx; /* a created variant's num_ctx parameter; 0: Ollama's 4096 */
} FakeModel;

typedef struct {
  char      *name;
  GArray    *layers;         /* FakeLayer, digests owned */
} RegistryModel;

typedef struct {
  FakeFault  fault;
  char      *text;
} Fault;

typedef enum {
  STEP_LINE,
  STEP_COMPLETE,
  STEP_DROP,
} StepKind;

typedef struct {
  StepKind  kind;
  guint     delay_ms;        /* after the previous step */
  char     *line;            /* with its newline */
} Step;

typedef struct {
  FakeOllama        *fake;
  SoupServerMessage *msg;
  GQueue             steps;
  guint              timer_id;
  gulong             finished_id;
  char              *on_success_model; /* a pull that adds a model when it completes */
} Stream;

struct _FakeOllama {
  SoupServer *server;
  char       *url;
  char       *version;
  char       *token;
  char       *last_authorization;
  GHashTable *faults;        /* path -> Fault* */
  GPtrArray  *models;        /* FakeModel* */
  GPtrArray  *registry;      /* RegistryModel* */
  GHashTable *counts;        /* path -> GUINT_TO_POINTER (count) */
  GHashTable *bodies;        /* path -> JsonNode* */
  GPtrArray  *streams;       /* Stream*, running */
  GPtrArray  *hung;          /* SoupServerMessage*, never answered */

  guint       first_token_ms;
  guint       token_interval_ms;
  guint       load_ms;
  gboolean    leading_empty_chunk;
  gint64      load_duration;
  gint64      prompt_eval_count;
  gint64      prompt_eval_duration;
  gint64      eval_count;
  gint64      eval_duration;
  GStrv       reply;

  guint       pull_steps;
  guint       pull_interval_ms;
  gboolean    pull_backwards;
};

static void
fault_free (Fault *fault)
{
  g_free (fault->text);
  g_free (fault);
}

static void
model_free (FakeModel *model)
{
  g_free (model->name);
  g_free (model->digest);
  g_free (model->show_json);
  g_free (model);
}

static void
registry_model_free (RegistryModel *model)
{
  for (guint i = 0; i < model->layers->len; i++)
    g_free ((char *) g_array_index (model->layers, FakeLayer, i).digest);
  g_array_unref (model->layers);
  g_free (model->name);
  g_free (model);
}

static void
step_free (Step *step)
{
  g_free (step->line);
  g_free (step);
}

static void
stream_free (Stream *stream)
{
  g_clear_handle_id (&stream->timer_id, g_source_remove);
  if (stream->finished_id != 0)
    g_signal_handler_disconnect (stream->msg, stream->finished_id);
  g_queue_clear_full (&stream->steps, (GDestroyNotify) step_free);
  g_clear_object (&stream->msg);
  g_free (stream->on_success_model);
  g_free (stream);
}

static gboolean
names_match (const char *a,
             const char *b)
{
  g_autofree char *fa = strchr (a, ':') ? g_strdup (a) : g_strconcat (a, ":latest", NULL);
  g_autofree char *fb = strchr (b, ':') ? g_strdup (b) : g_strconcat (b, ":latest", NULL);

  return g_ascii_strcasecmp (fa, fb) == 0;
}

static FakeModel *
find_model (FakeOllama *fake,
            const char *name)
{
  for (guint i = 0; name != NULL && i < fake->models->len; i++)
    {
      FakeModel *model = g_ptr_array_index (fake->models, i);
      if (names_match (model->name, name))
        return model;
    }
  return NULL;
}

static char *
now_iso (GTimeSpan ahead)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) then = g_date_time_add (now, ahead);

  return g_date_time_format_iso8601 (then);
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *content_type,
         const char        *body)
{
  soup_server_message_set_status (msg, status, NULL);
  if (body != NULL)
    soup_server_message_set_response (msg, content_type, SOUP_MEMORY_COPY, body, strlen (body));
}

static void
respond_error (SoupServerMessage *msg,
               guint              status,
               const char        *text)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *body = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_add_string_value (b, text);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  body = json_to_string (node, FALSE);
  respond (msg, status, "application/json; charset=utf-8", body);
}

static void
respond_json (SoupServerMessage *msg,
              JsonNode          *node)
{
  g_autofree char *body = json_to_string (node, FALSE);

  respond (msg, SOUP_STATUS_OK, "application/json; charset=utf-8", body);
}

/* ------------------------------------------------------------------ */
/* Streams                                                             */

static gboolean stream_step (gpointer user_data);

static void
stream_schedule (Stream *stream)
{
  Step *step = g_queue_peek_head (&stream->steps);

  if (step == NULL)
    return;
  stream->timer_id = g_timeout_add (step->delay_ms, stream_step, stream);
}

static void
stream_end (Stream *stream)
{
  g_ptr_array_remove (stream->fake->streams, stream);
}

static void
on_stream_finished (SoupServerMessage *msg,
                    gpointer           user_data)
{
  Stream *stream = user_data;

  /* Done or the client went away: stop writing to this message. */
  g_signal_handler_disconnect (msg, stream->finished_id);
  stream->finished_id = 0;
  stream_end (stream);
}

static gboolean
stream_step (gpointer user_data)
{
  Stream *stream = user_data;
  Step *step = g_queue_pop_head (&stream->steps);
  SoupMessageBody *body = soup_server_message_get_response_body (stream->msg);

  stream->timer_id = 0;
  switch (step->kind)
    {
    case STEP_LINE:
      soup_message_body_append (body, SOUP_MEMORY_COPY, step->line, strlen (step->line));
      soup_server_message_unpause (stream->msg);
      step_free (step);
      stream_schedule (stream);
      break;

    case STEP_COMPLETE:
      step_free (step);
      if (stream->on_success_model != NULL)
        {
          FakeOllama *fake = stream->fake;
          if (find_model (fake, stream->on_success_model) == NULL)
            fake_ollama_add_model (fake, stream->on_success_model, LLAMA32_DIGEST, 2019393189, NULL);
        }
      soup_message_body_complete (body);
      soup_server_message_unpause (stream->msg);
      break;

    case STEP_DROP:
      {
        GSocket *socket = soup_server_message_get_socket (stream->msg);

        step_free (step);
        if (socket != NULL)
          g_socket_shutdown (socket, TRUE, TRUE, NULL);
        /* The server then fails writing the end and finishes the message. */
        soup_message_body_complete (body);
        soup_server_message_unpause (stream->msg);
      }
      break;
    }
  return G_SOURCE_REMOVE;
}

static void
add_step (Stream     *stream,
          StepKind    kind,
          guint       delay_ms,
          const char *line)
{
  Step *step = g_new0 (Step, 1);

  step->kind = kind;
  step->delay_ms = delay_ms;
  if (line != NULL)
    step->line = g_strconcat (line, "\n", NULL);
  g_queue_push_tail (&stream->steps, step);
}

static void
add_json_step (Stream     *stream,
               guint       delay_ms,
               JsonNode   *node)
{
  g_autofree char *line = json_to_string (node, FALSE);

  add_step (stream, STEP_LINE, delay_ms, line);
  json_node_unref (node);
}

static Stream *
stream_new (FakeOllama        *fake,
            SoupServerMessage *msg)
{
  Stream *stream = g_new0 (Stream, 1);

  stream->fake = fake;
  stream->msg = g_object_ref (msg);
  g_queue_init (&stream->steps);
  return stream;
}

static void
stream_start (Stream *stream)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (stream->msg);

  soup_server_message_set_status (stream->msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "application/x-ndjson", NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_server_message_pause (stream->msg);
  stream->finished_id = g_signal_connect (stream->msg, "finished", G_CALLBACK (on_stream_finished), stream);
  g_ptr_array_add (stream->fake->streams, stream);
  stream_schedule (stream);
}

/* Applies a stream fault to a stream whose first few lines are queued:
 * keeps two lines, then the fault. */
static gboolean
stream_apply_fault (Stream *stream,
                    Fault  *fault)
{
  if (fault == NULL)
    return FALSE;

  switch (fault->fault)
    {
    case FAKE_FAULT_ERROR_LINE:
    case FAKE_FAULT_DROP:
    case FAKE_FAULT_NO_DONE:
    case FAKE_FAULT_LONG_LINE:
    case FAKE_FAULT_INVALID_JSON:
      while (g_queue_get_length (&stream->steps) > 2)
        step_free (g_queue_pop_tail (&stream->steps));
      break;
    default:
      return FALSE;
    }

  switch (fault->fault)
    {
    case FAKE_FAULT_ERROR_LINE:
      {
        g_autoptr(JsonBuilder) b = json_builder_new ();
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "error");
        json_builder_add_string_value (b, fault->text != NULL ? fault->text : "an error");
        json_builder_end_object (b);
        add_json_step (stream, 5, json_builder_get_root (b));
        add_step (stream, STEP_COMPLETE, 1, NULL);
      }
      break;
    case FAKE_FAULT_DROP:
      add_step (stream, STEP_DROP, 5, NULL);
      break;
    case FAKE_FAULT_NO_DONE:
      add_step (stream, STEP_COMPLETE, 5, NULL);
      break;
    case FAKE_FAULT_LONG_LINE:
      {
        guint64 len = 65536;
        g_autofree char *filler = NULL;
        g_autofree char *line = NULL;

        if (fault->text != NULL)
          len = g_ascii_strtoull (fault->text, NULL, 10);
        filler = g_strnfill (len, 'x');
        line = g_strdup_printf ("{\"response\":\"%s\",\"done\":false}", filler);
        add_step (stream, STEP_LINE, 5, line);
        add_step (stream, STEP_COMPLETE, 5, NULL);
      }
      break;
    case FAKE_FAULT_INVALID_JSON:
      add_step (stream, STEP_LINE, 5, "<html>this is not JSON</html>");
      add_step (stream, STEP_COMPLETE, 5, NULL);
      break;
    default:
      break;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Endpoints                                                           */

static JsonNode *
model_details (JsonBuilder *b)
{
  json_builder_set_member_name (b, "details");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "parent_model");
  json_builder_add_string_value (b, "");
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, "gguf");
  json_builder_set_member_name (b, "family");
  json_builder_add_string_value (b, "llama");
  json_builder_set_member_name (b, "families");
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, "parameter_size");
  json_builder_add_string_value (b, "3.2B");
  json_builder_set_member_name (b, "quantization_level");
  json_builder_add_string_value (b, "Q4_K_M");
  json_builder_end_object (b);
  return NULL;
}

static guint64
loaded_size (const FakeModel *model)
{
  return model->base_bytes + model->bytes_per_token * model->num_ctx;
}

static void
handle_tags (FakeOllama        *fake,
             SoupServerMessage *msg)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "models");
  json_builder_begin_array (b);
  for (guint i = 0; i < fake->models->len; i++)
    {
      FakeModel *model = g_ptr_array_index (fake->models, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, model->name);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, model->name);
      json_builder_set_member_name (b, "modified_at");
      json_builder_add_string_value (b, "2026-11-20T09:14:03.506437812Z");
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) model->size);
      json_builder_set_member_name (b, "digest");
      json_builder_add_string_value (b, model->digest);
      model_details (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  respond_json (msg, root);
}

static void
handle_ps (FakeOllama        *fake,
           SoupServerMessage *msg)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "models");
  json_builder_begin_array (b);
  for (guint i = 0; i < fake->models->len; i++)
    {
      FakeModel *model = g_ptr_array_index (fake->models, i);
      g_autofree char *expires = now_iso (4 * G_TIME_SPAN_MINUTE + 30 * G_TIME_SPAN_SECOND);
      guint64 size;

      if (!model->loaded)
        continue;
      size = loaded_size (model);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, model->name);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, model->name);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) size);
      json_builder_set_member_name (b, "digest");
      json_builder_add_string_value (b, model->digest);
      model_details (b);
      json_builder_set_member_name (b, "expires_at");
      json_builder_add_string_value (b, expires);
      json_builder_set_member_name (b, "size_vram");
      json_builder_add_int_value (b, (gint64) (size - MIN (size, model->cpu_bytes)));
      json_builder_set_member_name (b, "context_length");
      json_builder_add_int_value (b, model->num_ctx);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  respond_json (msg, root);
}

static JsonNode *
reply_line (const char *model,
            const char *response,
            gboolean    chat)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *created = now_iso (0);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, model);
  json_builder_set_member_name (b, "created_at");
  json_builder_add_string_value (b, created);
  if (chat)
    {
      json_builder_set_member_name (b, "message");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "role");
      json_builder_add_string_value (b, "assistant");
      json_builder_set_member_name (b, "content");
      json_builder_add_string_value (b, response);
      json_builder_end_object (b);
    }
  else
    {
      json_builder_set_member_name (b, "response");
      json_builder_add_string_value (b, response);
    }
  json_builder_set_member_name (b, "done");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The last line: timing fields in ns, each left out when 0, as Ollama does. */
static JsonNode *
final_line (FakeOllama *fake,
            const char *model,
            const char *done_reason,
            gboolean    chat,
            gboolean    cold,
            gint64      tokens)
{
  JsonNode *node = reply_line (model, "", chat);
  JsonObject *obj = json_node_get_object (node);
  gint64 load = cold ? fake->load_duration : 0;
  gint64 eval_count = fake->eval_count >= 0 ? fake->eval_count : tokens;
  gint64 total = load + MAX (fake->prompt_eval_duration, 0) + MAX (fake->eval_duration, 0);

  json_object_set_boolean_member (obj, "done", TRUE);
  json_object_set_string_member (obj, "done_reason", done_reason);
#define SET_NONZERO(name, value) if ((value) > 0) json_object_set_int_member (obj, name, value)
  SET_NONZERO ("total_duration", total);
  SET_NONZERO ("load_duration", load);
  SET_NONZERO ("prompt_eval_count", fake->prompt_eval_count);
  SET_NONZERO ("prompt_eval_duration", fake->prompt_eval_duration);
  SET_NONZERO ("eval_count", eval_count);
  SET_NONZERO ("eval_duration", fake->eval_duration);
#undef SET_NONZERO
  return node;
}

static void
handle_generate (FakeOllama        *fake,
                 SoupServerMessage *msg,
                 JsonObject        *req,
                 Fault             *fault,
                 gboolean           chat)
{
  const char *name = json_object_get_string_member_with_default (req, "model", "");
  const char *prompt = json_object_get_string_member_with_default (req, "prompt", "");
  gboolean streaming = json_object_get_boolean_member_with_default (req, "stream", TRUE);
  JsonNode *keep_alive = json_object_get_member (req, "keep_alive");
  JsonObject *options = json_object_has_member (req, "options") ? json_object_get_object_member (req, "options") : NULL;
  FakeModel *model = find_model (fake, name);
  guint32 fallback_ctx = model != NULL && model->default_num_ctx > 0 ? model->default_num_ctx : 4096;
  guint32 num_ctx = options != NULL ? (guint32) json_object_get_int_member_with_default (options, "num_ctx", fallback_ctx) : fallback_ctx;
  gint64 num_predict = options != NULL ? json_object_get_int_member_with_default (options, "num_predict", -1) : -1;
  gboolean cold;
  Stream *stream;
  gint64 tokens = 0;
  guint delay;

  if (model == NULL)
    {
      g_autofree char *text = g_strdup_printf ("model '%s' not found", name);
      respond_error (msg, SOUP_STATUS_NOT_FOUND, text);
      return;
    }

  if (chat)
    prompt = "chat";

  if (*prompt == '\0')
    {
      gboolean unload = keep_alive != NULL && JSON_NODE_HOLDS_VALUE (keep_alive) &&
                        json_node_get_value_type (keep_alive) == G_TYPE_INT64 &&
                        json_node_get_int (keep_alive) == 0;
      g_autoptr(JsonNode) line = NULL;

      cold = !model->loaded;
      if (unload)
        model->loaded = FALSE;
      else
        {
          model->loaded = TRUE;
          model->num_ctx = num_ctx;
        }
      line = final_line (fake, model->name, unload ? "unload" : "load", FALSE, FALSE, 0);
      json_object_remove_member (json_node_get_object (line), "eval_count");
      json_object_remove_member (json_node_get_object (line), "eval_duration");
      json_object_remove_member (json_node_get_object (line), "prompt_eval_count");
      json_object_remove_member (json_node_get_object (line), "prompt_eval_duration");
      json_object_remove_member (json_node_get_object (line), "total_duration");
      if (!unload && !cold)
        json_object_remove_member (json_node_get_object (line), "load_duration");
      if (!streaming)
        {
          respond_json (msg, line);
          return;
        }
      stream = stream_new (fake, msg);
      add_json_step (stream, unload || !cold ? 0 : fake->load_ms, json_node_ref (line));
      add_step (stream, STEP_COMPLETE, 0, NULL);
      stream_start (stream);
      return;
    }

  cold = !model->loaded || model->num_ctx != num_ctx;
  model->loaded = TRUE;
  model->num_ctx = num_ctx;

  stream = stream_new (fake, msg);
  delay = (cold ? fake->load_ms : 0) + fake->first_token_ms;
  if (fake->leading_empty_chunk)
    {
      add_json_step (stream, cold ? fake->load_ms : 0, reply_line (model->name, "", chat));
      delay = fake->first_token_ms;
    }
  for (guint i = 0; fake->reply[i] != NULL && (num_predict < 0 || tokens < num_predict); i++, tokens++)
    {
      add_json_step (stream, delay, reply_line (model->name, fake->reply[i], chat));
      delay = fake->token_interval_ms;
    }
  add_json_step (stream, delay,
                 final_line (fake, model->name, num_predict >= 0 && tokens >= num_predict ? "length" : "stop",
                             chat, cold, tokens));
  add_step (stream, STEP_COMPLETE, 0, NULL);
  stream_apply_fault (stream, fault);
  stream_start (stream);
}

static JsonNode *
pull_line (const char *status,
           const char *digest,
           guint64     total,
           guint64     completed)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, status);
  if (digest != NULL)
    {
      json_builder_set_member_name (b, "digest");
      json_builder_add_string_value (b, digest);
      if (total > 0)
        {
          json_builder_set_member_name (b, "total");
          json_builder_add_int_value (b, (gint64) total);
        }
      if (completed > 0)
        {
          json_builder_set_member_name (b, "completed");
          json_builder_add_int_value (b, (gint64) completed);
        }
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
handle_pull (FakeOllama        *fake,
             SoupServerMessage *msg,
             JsonObject        *req,
             Fault             *fault)
{
  const char *name = json_object_get_string_member_with_default (req, "model", "");
  RegistryModel *model = NULL;
  Stream *stream = stream_new (fake, msg);
  guint interval = fake->pull_interval_ms;

  for (guint i = 0; i < fake->registry->len; i++)
    {
      RegistryModel *m = g_ptr_array_index (fake->registry, i);
      if (names_match (m->name, name))
        model = m;
    }

  add_json_step (stream, 0, pull_line ("pulling manifest", NULL, 0, 0));
  if (model == NULL)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, "pull model manifest: file does not exist");
      json_builder_end_object (b);
      add_json_step (stream, interval, json_builder_get_root (b));
      add_step (stream, STEP_COMPLETE, 0, NULL);
      stream_start (stream);
      return;
    }

  for (guint l = 0; l < model->layers->len; l++)
    {
      const FakeLayer *layer = &g_array_index (model->layers, FakeLayer, l);
      g_autofree char *status = g_strdup_printf ("pulling %.12s", layer->digest + 7);

      if (layer->present)
        {
          add_json_step (stream, interval, pull_line (status, layer->digest, layer->size, layer->size));
          continue;
        }
      /* total absent at first, completed absent while 0 */
      add_json_step (stream, interval, pull_line (status, layer->digest, 0, 0));
      for (guint s = 1; s <= fake->pull_steps; s++)
        {
          guint64 done = layer->size * s / fake->pull_steps;

          add_json_step (stream, interval, pull_line (status, layer->digest, layer->size, done));
          if (fake->pull_backwards && l == 0 && s == fake->pull_steps / 2)
            {
              /* a stalled part restarts: completed goes back */
              add_json_step (stream, interval, pull_line (status, layer->digest, layer->size, done / 2));
              add_json_step (stream, interval, pull_line (status, layer->digest, layer->size, done * 3 / 4));
            }
        }
    }
  add_json_step (stream, interval, pull_line ("verifying sha256 digest", NULL, 0, 0));
  add_json_step (stream, interval, pull_line ("writing manifest", NULL, 0, 0));
  add_json_step (stream, interval, pull_line ("success", NULL, 0, 0));
  add_step (stream, STEP_COMPLETE, 0, NULL);

  if (fault != NULL && (fault->fault == FAKE_FAULT_ERROR_LINE || fault->fault == FAKE_FAULT_DROP ||
                        fault->fault == FAKE_FAULT_NO_DONE))
    {
      /* Fail halfway through the first layer to be downloaded. */
      guint keep = 3 + fake->pull_steps / 2;
      while (g_queue_get_length (&stream->steps) > keep)
        step_free (g_queue_pop_tail (&stream->steps));
      if (fault->fault == FAKE_FAULT_ERROR_LINE)
        {
          g_autoptr(JsonBuilder) b = json_builder_new ();
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, fault->text != NULL ? fault->text : "max retries exceeded: EOF");
          json_builder_end_object (b);
          add_json_step (stream, interval, json_builder_get_root (b));
          add_step (stream, STEP_COMPLETE, 0, NULL);
        }
      else if (fault->fault == FAKE_FAULT_DROP)
        add_step (stream, STEP_DROP, interval, NULL);
      else
        add_step (stream, STEP_COMPLETE, interval, NULL);
    }
  else
    stream->on_success_model = g_strdup (model->name);

  stream_start (stream);
}

static void
handle_show (FakeOllama        *fake,
             SoupServerMessage *msg,
             JsonObject        *req)
{
  const char *name = json_object_get_string_member_with_default (req, "model", "");
  FakeModel *model = find_model (fake, name);

  if (model == NULL || model->show_json == NULL)
    {
      g_autofree char *text = g_strdup_printf ("model '%s' not found", name);
      respond_error (msg, SOUP_STATUS_NOT_FOUND, text);
      return;
    }
  respond (msg, SOUP_STATUS_OK, "application/json; charset=utf-8", model->show_json);
}

static void
handle_delete (FakeOllama        *fake,
               SoupServerMessage *msg,
               JsonObject        *req)
{
  const char *name = json_object_get_string_member_with_default (req, "model", "");
  FakeModel *model = find_model (fake, name);

  if (model == NULL)
    {
      g_autofree char *text = g_strdup_printf ("model '%s' not found", name);
      respond_error (msg, SOUP_STATUS_NOT_FOUND, text);
      return;
    }
  g_ptr_array_remove (fake->models, model);
  respond (msg, SOUP_STATUS_OK, NULL, NULL);
}

/* A copy of @from under @name, as /api/create and /api/copy leave it. */
static FakeModel *
copy_model (FakeOllama      *fake,
            const FakeModel *from,
            const char      *name)
{
  FakeModel *model = g_new0 (FakeModel, 1);

  *model = *from;
  model->name = g_strdup (name);
  model->digest = g_strdup (from->digest);
  model->show_json = g_strdup (from->show_json);
  model->loaded = FALSE;
  g_ptr_array_add (fake->models, model);
  return model;
}

/* Ollama's model names (types/model/name.go IsValid): no spaces, no
 * characters outside letters, digits, '_', '-', '.', ':' and '/'. */
static gboolean
valid_name (const char *name)
{
  if (name == NULL || *name == '\0')
    return FALSE;
  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && strchr ("_-.:/", *c) == NULL)
      return FALSE;
  return TRUE;
}

/* POST /api/create {"model", "from", "parameters", "stream"} (Ollama
 * 0.5.5 and newer, docs/api.md "Create a Model"): a new model from an
 * existing one, with its parameters; "stream": false answers one
 * {"status": "success"}, else status lines end with it. */
static void
handle_create (FakeOllama        *fake,
               SoupServerMessage *msg,
               JsonObject        *req)
{
  const char *name = json_object_get_string_member_with_default (req, "model", "");
  const char *from_name = json_object_get_string_member_with_default (req, "from", NULL);
  gboolean streaming = json_object_get_boolean_member_with_default (req, "stream", TRUE);
  JsonObject *parameters = json_object_has_member (req, "parameters") ? json_object_get_object_member (req, "parameters") : NULL;
  FakeModel *from, *model;

  if (!valid_name (name))
    {
      respond_error (msg, SOUP_STATUS_BAD_REQUEST, "invalid model name");
      return;
    }
  if (from_name == NULL)
    {
      respond_error (msg, SOUP_STATUS_BAD_REQUEST, "neither 'from' or 'files' was specified");
      return;
    }
  from = find_model (fake, from_name);
  if (from == NULL)
    {
      g_autofree char *text = g_strdup_printf ("model '%s' not found", from_name);
      respond_error (msg, SOUP_STATUS_NOT_FOUND, text);
      return;
    }
  model = find_model (fake, name);
  if (model != NULL && model != from)
    g_ptr_array_remove (fake->models, model);
  model = copy_model (fake, from, name);
  if (parameters != NULL && json_object_has_member (parameters, "num_ctx"))
    model->default_num_ctx = (guint32) json_object_get_int_member (parameters, "num_ctx");
  if (streaming)
    respond (msg, SOUP_STATUS_OK, "application/x-ndjson",
             "{\"status\":\"using existing layer sha256:" LLAMA32_DIGEST "\"}\n"
             "{\"status\":\"writing manifest\"}\n{\"status\":\"success\"}\n");
  else
    respond (msg, SOUP_STATUS_OK, "application/json; charset=utf-8", "{\"status\":\"success\"}");
}

/* POST /api/copy {"source", "destination"}: 200 with an empty body, 404
 * for an unknown source. */
static void
handle_copy (FakeOllama        *fake,
             SoupServerMessage *msg,
             JsonObject        *req)
{
  const char *source = json_object_get_string_member_with_default (req, "source", "");
  const char *destination = json_object_get_string_member_with_default (req, "destination", "");
  FakeModel *from = find_model (fake, source);
  FakeModel *old;

  if (from == NULL)
    {
      g_autofree char *text = g_strdup_printf ("model '%s' not found", source);
      respond_error (msg, SOUP_STATUS_NOT_FOUND, text);
      return;
    }
  if (!valid_name (destination))
    {
      respond_error (msg, SOUP_STATUS_BAD_REQUEST, "invalid destination name");
      return;
    }
  old = find_model (fake, destination);
  if (old != NULL && old != from)
    g_ptr_array_remove (fake->models, old);
  if (old != from)
    copy_model (fake, from, destination);
  respond (msg, SOUP_STATUS_OK, NULL, NULL);
}

static void
server_callback (SoupServer        *server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  FakeOllama *fake = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  SoupMessageBody *request = soup_server_message_get_request_body (msg);
  const char *auth = soup_message_headers_get_one (headers, "Authorization");
  const char *method = soup_server_message_get_method (msg);
  Fault *fault = g_hash_table_lookup (fake->faults, path);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *req = NULL;
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (fake->counts, path));

  g_hash_table_insert (fake->counts, g_strdup (path), GUINT_TO_POINTER (count + 1));
  g_free (fake->last_authorization);
  fake->last_authorization = g_strdup (auth);

  if (request->length > 0 &&
      json_parser_load_from_data (parser, request->data, request->length, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      req = json_node_get_object (json_parser_get_root (parser));
      g_hash_table_insert (fake->bodies, g_strdup (path), json_node_copy (json_parser_get_root (parser)));
    }

  if (fake->token != NULL)
    {
      g_autofree char *expected = g_strconcat ("Bearer ", fake->token, NULL);

      if (g_strcmp0 (auth, expected) != 0)
        {
          respond (msg, SOUP_STATUS_UNAUTHORIZED, "text/html",
                   "<html><head><title>401 Authorization Required</title></head>"
                   "<body><center><h1>401 Authorization Required</h1></center></body></html>");
          return;
        }
    }

  if (fault != NULL)
    {
      switch (fault->fault)
        {
        case FAKE_FAULT_404_JSON:
          {
            g_autofree char *text = g_strdup_printf ("model '%s' not found",
                                                     req != NULL ? json_object_get_string_member_with_default (req, "model", "") : "");
            respond_error (msg, SOUP_STATUS_NOT_FOUND, text);
          }
          return;
        case FAKE_FAULT_404_TEXT:
          respond (msg, SOUP_STATUS_NOT_FOUND, "text/plain", "404 page not found");
          return;
        case FAKE_FAULT_500:
          respond_error (msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, fault->text != NULL ? fault->text : "an error");
          return;
        case FAKE_FAULT_503:
          respond_error (msg, SOUP_STATUS_SERVICE_UNAVAILABLE,
                         "server busy, please try again.  maximum pending requests exceeded");
          return;
        case FAKE_FAULT_NEVER_ANSWER:
          soup_server_message_pause (msg);
          g_ptr_array_add (fake->hung, g_object_ref (msg));
          return;
        case FAKE_FAULT_INVALID_JSON:
          if (!g_str_equal (path, "/api/generate") && !g_str_equal (path, "/api/chat") &&
              !g_str_equal (path, "/api/pull"))
            {
              respond (msg, SOUP_STATUS_OK, "application/json", "{\"version\": \"0.31.2\"");
              return;
            }
          break;
        default:
          break;
        }
    }

  if (g_str_equal (path, "/"))
    respond (msg, SOUP_STATUS_OK, "text/plain; charset=utf-8", "Ollama is running");
  else if (g_str_equal (path, "/api/version") && g_str_equal (method, "GET"))
    {
      g_autofree char *body = g_strdup_printf ("{\"version\":\"%s\"}", fake->version);
      respond (msg, SOUP_STATUS_OK, "application/json; charset=utf-8", body);
    }
  else if (g_str_equal (path, "/api/tags") && g_str_equal (method, "GET"))
    handle_tags (fake, msg);
  else if (g_str_equal (path, "/api/ps") && g_str_equal (method, "GET"))
    handle_ps (fake, msg);
  else if (req == NULL && (g_str_equal (path, "/api/show") || g_str_equal (path, "/api/generate") ||
                           g_str_equal (path, "/api/chat") || g_str_equal (path, "/api/pull") ||
                           g_str_equal (path, "/api/delete") || g_str_equal (path, "/api/create") ||
                           g_str_equal (path, "/api/copy")))
    respond_error (msg, SOUP_STATUS_BAD_REQUEST, "missing request body");
  else if (g_str_equal (path, "/api/show") && g_str_equal (method, "POST"))
    handle_show (fake, msg, req);
  else if (g_str_equal (path, "/api/generate") && g_str_equal (method, "POST"))
    handle_generate (fake, msg, req, fault, FALSE);
  else if (g_str_equal (path, "/api/chat") && g_str_equal (method, "POST"))
    handle_generate (fake, msg, req, fault, TRUE);
  else if (g_str_equal (path, "/api/pull") && g_str_equal (method, "POST"))
    handle_pull (fake, msg, req, fault);
  else if (g_str_equal (path, "/api/delete") && g_str_equal (method, "DELETE"))
    handle_delete (fake, msg, req);
  else if (g_str_equal (path, "/api/create") && g_str_equal (method, "POST"))
    handle_create (fake, msg, req);
  else if (g_str_equal (path, "/api/copy") && g_str_equal (method, "POST"))
    handle_copy (fake, msg, req);
  else
    respond (msg, SOUP_STATUS_NOT_FOUND, "text/plain", "404 page not found");
}

/* ------------------------------------------------------------------ */
/* Public                                                              */

/**
 * fake_ollama_new:
 *
 * Starts a fake Ollama 0.31.2 on 127.0.0.1 with a free port, with no
 * models, replies of five tokens, no delays and no faults.
 *
 * Returns: (transfer full): the fake.
 */
static FakeOllama *fake_ollama_new_full (gboolean tls);

FakeOllama *
fake_ollama_new (void)
{
  return fake_ollama_new_full (FALSE);
}

/**
 * fake_ollama_new_tls:
 *
 * Like fake_ollama_new(), speaking HTTPS with a self-signed certificate no
 * client trusts, for the TLS failure.
 *
 * Returns: (transfer full): the fake; its URL starts with https://.
 */
FakeOllama *
fake_ollama_new_tls (void)
{
  return fake_ollama_new_full (TRUE);
}

static FakeOllama *
fake_ollama_new_full (gboolean tls)
{
  static const char * const reply[] = { "Kubernetes", " schedules", " pods", " onto", " nodes.", NULL };
  FakeOllama *fake = g_new0 (FakeOllama, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;

  fake->server = soup_server_new ("server-header", "fake-ollama", NULL);
  if (tls)
    {
      g_autoptr(GTlsCertificate) certificate = g_tls_certificate_new_from_pem (fake_tls_pem, -1, &error);

      if (certificate == NULL)
        g_error ("fake-ollama: cannot load its certificate: %s", error->message);
      soup_server_set_tls_certificate (fake->server, certificate);
    }
  soup_server_add_handler (fake->server, NULL, server_callback, fake, NULL);
  if (!soup_server_listen (fake->server, address, tls ? SOUP_SERVER_LISTEN_HTTPS : 0, &error))
    g_error ("fake-ollama: cannot listen on 127.0.0.1: %s", error->message);
  uris = soup_server_get_uris (fake->server);
  {
    GUri *uri = uris->data;
    fake->url = g_strdup_printf ("%s://127.0.0.1:%d", tls ? "https" : "http", g_uri_get_port (uri));
  }
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  fake->version = g_strdup ("0.31.2");
  fake->faults = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) fault_free);
  fake->models = g_ptr_array_new_with_free_func ((GDestroyNotify) model_free);
  fake->registry = g_ptr_array_new_with_free_func ((GDestroyNotify) registry_model_free);
  fake->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fake->bodies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_node_unref);
  fake->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);
  fake->hung = g_ptr_array_new_with_free_func (g_object_unref);
  fake->reply = g_strdupv ((char **) reply);
  fake->eval_count = -1;
  fake->pull_steps = 4;
  fake->pull_interval_ms = 2;
  return fake;
}

/**
 * fake_ollama_free:
 * @fake: a fake
 *
 * Stops every stream's timers, then the server.
 */
void
fake_ollama_free (FakeOllama *fake)
{
  g_ptr_array_set_size (fake->streams, 0);
  for (guint i = 0; i < fake->hung->len; i++)
    {
      SoupServerMessage *msg = g_ptr_array_index (fake->hung, i);
      soup_server_message_set_status (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, NULL);
      soup_server_message_unpause (msg);
    }
  soup_server_disconnect (fake->server);
  g_ptr_array_unref (fake->hung);
  g_ptr_array_unref (fake->streams);
  g_clear_object (&fake->server);
  g_hash_table_unref (fake->faults);
  g_ptr_array_unref (fake->models);
  g_ptr_array_unref (fake->registry);
  g_hash_table_unref (fake->counts);
  g_hash_table_unref (fake->bodies);
  g_strfreev (fake->reply);
  g_free (fake->url);
  g_free (fake->version);
  g_free (fake->token);
  g_free (fake->last_authorization);
  g_free (fake);
}

/**
 * fake_ollama_get_url:
 * @fake: a fake
 *
 * Returns: (transfer none): "http://127.0.0.1:PORT".
 */
const char *
fake_ollama_get_url (FakeOllama *fake)
{
  return fake->url;
}

/**
 * fake_ollama_refused_url:
 *
 * Binds a port on 127.0.0.1, closes it, and returns its URL: nothing
 * listens there, so a connection is refused.
 *
 * Returns: (transfer full): "http://127.0.0.1:PORT".
 */
char *
fake_ollama_refused_url (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  guint16 port;

  g_assert_true (g_socket_bind (socket, address, FALSE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);
  return g_strdup_printf ("http://127.0.0.1:%u", port);
}

/**
 * fake_ollama_set_version:
 * @fake: a fake
 * @version: what /api/version answers
 */
void
fake_ollama_set_version (FakeOllama *fake,
                         const char *version)
{
  g_free (fake->version);
  fake->version = g_strdup (version);
}

/**
 * fake_ollama_set_token:
 * @fake: a fake
 * @token: (nullable): act as a proxy wanting `Authorization: Bearer TOKEN`
 *   (401 with an HTML body otherwise); %NULL for none
 */
void
fake_ollama_set_token (FakeOllama *fake,
                       const char *token)
{
  g_free (fake->token);
  fake->token = g_strdup (token);
}

/**
 * fake_ollama_set_fault:
 * @fake: a fake
 * @path: "/api/tags", "/api/generate" ...
 * @fault: what goes wrong there from now on (%FAKE_FAULT_NONE clears it)
 * @text: (nullable): the error text for 500 and error lines, or the length
 *   of the long line
 */
void
fake_ollama_set_fault (FakeOllama *fake,
                       const char *path,
                       FakeFault   fault,
                       const char *text)
{
  Fault *f;

  if (fault == FAKE_FAULT_NONE)
    {
      g_hash_table_remove (fake->faults, path);
      return;
    }
  f = g_new0 (Fault, 1);
  f->fault = fault;
  f->text = g_strdup (text);
  g_hash_table_insert (fake->faults, g_strdup (path), f);
}

/**
 * fake_ollama_add_model:
 * @fake: a fake
 * @name: "llama3.2:3b"
 * @digest: bare 64 hex
 * @size: the package's bytes
 * @show_json: (nullable): the /api/show answer
 */
void
fake_ollama_add_model (FakeOllama *fake,
                       const char *name,
                       const char *digest,
                       guint64     size,
                       const char *show_json)
{
  FakeModel *model = g_new0 (FakeModel, 1);

  model->name = g_strdup (name);
  model->digest = g_strdup (digest);
  model->size = size;
  model->show_json = g_strdup (show_json);
  model->base_bytes = size;
  model->bytes_per_token = 0;
  g_ptr_array_add (fake->models, model);
}

static void
add_tensor (JsonBuilder *b,
            const char  *name,
            const char  *type,
            guint64      d0,
            guint64      d1)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, type);
  json_builder_set_member_name (b, "shape");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, (gint64) d0);
  if (d1 > 0)
    json_builder_add_int_value (b, (gint64) d1);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/**
 * fake_ollama_add_llama32:
 * @fake: a fake
 *
 * Adds "llama3.2:3b" (digest a80c4f17acd5..., package 2,019,393,189 bytes)
 * with an /api/show answer shaped like the real one: llama, 3,212,749,888
 * parameters, file type 15 (Q4_K_M), 28 blocks, 24 heads, 8 KV heads,
 * embedding 3072, context 131072, a tied Q6_K token_embd and Q4_K / Q6_K /
 * F32 layer tensors. Loaded it takes 2,019,377,376 bytes + 114,688 per
 * token of num_ctx + 100,000,000, all on the GPU.
 */
void
fake_ollama_add_llama32 (FakeOllama *fake)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "license");
  json_builder_add_string_value (b, "LLAMA 3.2 COMMUNITY LICENSE AGREEMENT");
  json_builder_set_member_name (b, "parameters");
  json_builder_add_string_value (b, "stop                           \"<|eot_id|>\"");
  json_builder_set_member_name (b, "template");
  json_builder_add_string_value (b, "{{ .Prompt }}");
  model_details (b);
  json_builder_set_member_name (b, "model_info");
  json_builder_begin_object (b);
#define INT(k, v) json_builder_set_member_name (b, k); json_builder_add_int_value (b, v)
  json_builder_set_member_name (b, "general.architecture");
  json_builder_add_string_value (b, "llama");
  INT ("general.file_type", 15);
  INT ("general.parameter_count", 3212749888);
  INT ("general.quantization_version", 2);
  INT ("llama.attention.head_count", 24);
  INT ("llama.attention.head_count_kv", 8);
  INT ("llama.attention.key_length", 128);
  INT ("llama.attention.value_length", 128);
  json_builder_set_member_name (b, "llama.attention.layer_norm_rms_epsilon");
  json_builder_add_double_value (b, 0.00001);
  INT ("llama.block_count", 28);
  INT ("llama.context_length", 131072);
  INT ("llama.embedding_length", 3072);
  INT ("llama.feed_forward_length", 8192);
  INT ("llama.vocab_size", 128256);
  json_builder_set_member_name (b, "tokenizer.ggml.tokens");
  json_builder_add_null_value (b);
#undef INT
  json_builder_end_object (b);
  json_builder_set_member_name (b, "tensors");
  json_builder_begin_array (b);
  add_tensor (b, "token_embd.weight", "Q6_K", 3072, 128256);
  for (guint i = 0; i < 28; i++)
    {
      char name[64];
#define T(suffix, type, d0, d1) g_snprintf (name, sizeof name, "blk.%u.%s", i, suffix); add_tensor (b, name, type, d0, d1)
      T ("attn_norm.weight", "F32", 3072, 0);
      T ("attn_q.weight", "Q4_K", 3072, 3072);
      T ("attn_k.weight", "Q4_K", 3072, 1024);
      T ("attn_v.weight", "Q6_K", 3072, 1024);
      T ("attn_output.weight", "Q4_K", 3072, 3072);
      T ("ffn_norm.weight", "F32", 3072, 0);
      T ("ffn_gate.weight", "Q4_K", 3072, 8192);
      T ("ffn_up.weight", "Q4_K", 3072, 8192);
      T ("ffn_down.weight", "Q6_K", 8192, 3072);
#undef T
    }
  add_tensor (b, "output_norm.weight", "F32", 3072, 0);
  add_tensor (b, "rope_freqs.weight", "F32", 64, 0);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "capabilities");
  json_builder_begin_array (b);
  json_builder_add_string_value (b, "completion");
  json_builder_add_string_value (b, "tools");
  json_builder_end_array (b);
  json_builder_set_member_name (b, "modified_at");
  json_builder_add_string_value (b, "2026-11-20T09:14:03.506437812Z");
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json = json_to_string (root, FALSE);
  fake_ollama_add_model (fake, "llama3.2:3b", LLAMA32_DIGEST, 2019393189, json);
  fake_ollama_set_loaded_size (fake, "llama3.2:3b", 2019377376 + 100000000, 114688, 0);
}

/**
 * fake_ollama_set_loaded_size:
 * @fake: a fake
 * @name: a model added before
 * @base_bytes: loaded size at num_ctx 0
 * @bytes_per_token: added per token of num_ctx
 * @cpu_bytes: of the loaded size, bytes left on the CPU (size_vram = size - this)
 */
void
fake_ollama_set_loaded_size (FakeOllama *fake,
                             const char *name,
                             guint64     base_bytes,
                             guint64     bytes_per_token,
                             guint64     cpu_bytes)
{
  FakeModel *model = find_model (fake, name);

  g_assert_nonnull (model);
  model->base_bytes = base_bytes;
  model->bytes_per_token = bytes_per_token;
  model->cpu_bytes = cpu_bytes;
}

/**
 * fake_ollama_is_loaded:
 * @fake: a fake
 * @name: a model name
 *
 * Returns: whether /api/ps would list it.
 */
gboolean
fake_ollama_is_loaded (FakeOllama *fake,
                       const char *name)
{
  FakeModel *model = find_model (fake, name);

  return model != NULL && model->loaded;
}

/**
 * fake_ollama_load:
 * @fake: a fake
 * @name: a model added before
 * @num_ctx: its context
 *
 * Marks the model loaded, as if someone had used it.
 */
void
fake_ollama_load (FakeOllama *fake,
                  const char *name,
                  guint32     num_ctx)
{
  FakeModel *model = find_model (fake, name);

  g_assert_nonnull (model);
  model->loaded = TRUE;
  model->num_ctx = num_ctx;
}

/**
 * fake_ollama_set_stream_timing:
 * @fake: a fake
 * @first_token_ms: from the request to the first token, warm
 * @token_interval_ms: between tokens
 * @load_ms: added before the first token when the model is cold
 * @leading_empty_chunk: send a chunk with an empty `response` first
 */
void
fake_ollama_set_stream_timing (FakeOllama *fake,
                               guint       first_token_ms,
                               guint       token_interval_ms,
                               guint       load_ms,
                               gboolean    leading_empty_chunk)
{
  fake->first_token_ms = first_token_ms;
  fake->token_interval_ms = token_interval_ms;
  fake->load_ms = load_ms;
  fake->leading_empty_chunk = leading_empty_chunk;
}

/**
 * fake_ollama_set_final_timing:
 * @fake: a fake
 * @load_duration: ns, reported on cold runs only; 0 leaves it out
 * @prompt_eval_count: 0 leaves it out
 * @prompt_eval_duration: ns; 0 leaves it out
 * @eval_count: -1 = the tokens sent; 0 leaves it out
 * @eval_duration: ns; 0 leaves it out
 */
void
fake_ollama_set_final_timing (FakeOllama *fake,
                              gint64      load_duration,
                              gint64      prompt_eval_count,
                              gint64      prompt_eval_duration,
                              gint64      eval_count,
                              gint64      eval_duration)
{
  fake->load_duration = load_duration;
  fake->prompt_eval_count = prompt_eval_count;
  fake->prompt_eval_duration = prompt_eval_duration;
  fake->eval_count = eval_count;
  fake->eval_duration = eval_duration;
}

/**
 * fake_ollama_set_reply:
 * @fake: a fake
 * @tokens: (array zero-terminated=1): the reply's chunks
 */
void
fake_ollama_set_reply (FakeOllama         *fake,
                       const char * const *tokens)
{
  g_strfreev (fake->reply);
  fake->reply = g_strdupv ((char **) tokens);
}

/**
 * fake_ollama_add_registry_model:
 * @fake: a fake
 * @name: a model /api/pull can fetch
 * @layers: (array length=n_layers): its layers, in the order they stream
 * @n_layers: how many
 */
void
fake_ollama_add_registry_model (FakeOllama      *fake,
                                const char      *name,
                                const FakeLayer *layers,
                                guint            n_layers)
{
  RegistryModel *model = g_new0 (RegistryModel, 1);

  model->name = g_strdup (name);
  model->layers = g_array_new (FALSE, FALSE, sizeof (FakeLayer));
  for (guint i = 0; i < n_layers; i++)
    {
      FakeLayer layer = layers[i];
      layer.digest = g_strdup (layers[i].digest);
      g_array_append_val (model->layers, layer);
    }
  g_ptr_array_add (fake->registry, model);
}

/**
 * fake_ollama_set_pull_steps:
 * @fake: a fake
 * @steps_per_layer: progress lines per layer after its first
 * @interval_ms: between lines
 * @go_backwards: halfway through the first layer, `completed` drops to half
 *   and climbs again
 */
void
fake_ollama_set_pull_steps (FakeOllama *fake,
                            guint       steps_per_layer,
                            guint       interval_ms,
                            gboolean    go_backwards)
{
  fake->pull_steps = MAX (steps_per_layer, 1);
  fake->pull_interval_ms = interval_ms;
  fake->pull_backwards = go_backwards;
}

/**
 * fake_ollama_count:
 * @fake: a fake
 * @path: "/api/generate" ...
 *
 * Returns: requests received for @path.
 */
guint
fake_ollama_count (FakeOllama *fake,
                   const char *path)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (fake->counts, path));
}

/**
 * fake_ollama_last_body:
 * @fake: a fake
 * @path: "/api/generate" ...
 *
 * Returns: (transfer none) (nullable): the last JSON body sent to @path.
 */
JsonNode *
fake_ollama_last_body (FakeOllama *fake,
                       const char *path)
{
  return g_hash_table_lookup (fake->bodies, path);
}

/**
 * fake_ollama_last_authorization:
 * @fake: a fake
 *
 * Returns: (transfer none) (nullable): the last request's Authorization
 *   header, %NULL when it had none.
 */
const char *
fake_ollama_last_authorization (FakeOllama *fake)
{
  return fake->last_authorization;
}

/**
 * fake_ollama_active_streams:
 * @fake: a fake
 *
 * Returns: streams still running (their timers armed); 0 once every
 *   stream's message has finished, including those a client cancelled.
 */
guint
fake_ollama_active_streams (FakeOllama *fake)
{
  return fake->streams->len;
}
