/* hr-ollama-calls.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaClient's calls, one per endpoint of docs/ollama.md, and what each
 * makes of its answer (the JSON mapping is hr-ollama-api.c's and
 * hr-ollama-show.c's). The pipeline is in hr-ollama-client.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-net-error.h"
#include "hr-ollama-client-private.h"

/* ------------------------------------------------------------------ */
/* Answers of plain calls                                              */

/* A mapping's complaint about the answer's shape, as the call's error. */
static void
return_unexpected (HrOllamaCall *call,
                   GTask        *task,
                   GError       *error)
{
  /* An impossible number is the server's fault, not a sign that
   * something other than Ollama answered: said as it is. */
  if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT))
    hr_ollama_call_return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                                    _("%s answered with a number that cannot be: %s"),
                                                    hr_ollama_client_get_base_url (call->client),
                                                    error->message));
  else
    hr_ollama_call_return_error (task, hr_ollama_call_error_unexpected (call, error->message));
  g_error_free (error);
}

static void
answer_version (HrOllamaCall *call,
                GTask        *task,
                JsonNode     *root)
{
  GError *error = NULL;
  char *version = hr_ollama_api_parse_version (root, &error);

  if (version == NULL)
    return_unexpected (call, task, error);
  else
    g_task_return_pointer (task, version, g_free);
}

static void
answer_tags (HrOllamaCall *call,
             GTask        *task,
             JsonNode     *root)
{
  GError *error = NULL;
  GPtrArray *models = hr_ollama_api_parse_tags (root, &error);

  if (models == NULL)
    return_unexpected (call, task, error);
  else
    g_task_return_pointer (task, models, (GDestroyNotify) g_ptr_array_unref);
}

static void
answer_ps (HrOllamaCall *call,
           GTask        *task,
           JsonNode     *root)
{
  GError *error = NULL;
  GPtrArray *loaded = hr_ollama_api_parse_ps (root, &error);

  if (loaded == NULL)
    return_unexpected (call, task, error);
  else
    g_task_return_pointer (task, loaded, (GDestroyNotify) g_ptr_array_unref);
}

static void
answer_show (HrOllamaCall *call,
             GTask        *task,
             JsonNode     *root)
{
  g_autoptr(GError) error = NULL;
  HrOllamaShow *show = hr_ollama_show_parse (root, call->model, &error);

  if (show == NULL)
    {
      hr_ollama_call_return_error (task, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                                      "%s", error->message));
      return;
    }
  g_task_return_pointer (task, show, (GDestroyNotify) hr_ollama_show_free);
}

static void
answer_ok (HrOllamaCall *call,
           GTask        *task,
           JsonNode     *root)
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
  hr_ollama_call_new (self, task, cancellable, "/api/version", NULL, HR_OLLAMA_STREAM_NONE, TRUE, answer_version);
  hr_ollama_call_start (task, "GET", NULL);
}

/**
 * hr_ollama_client_version_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the server's version ("0.31.2"; a dev build says
 *   "0.0.0"), or %NULL with an %HR_NET_ERROR (see the messages in
 *   docs/ollama.md's "Known quirks": refused, resolve, TLS, unauthorized, bad path,
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
  hr_ollama_call_new (self, task, cancellable, "/api/tags", NULL, HR_OLLAMA_STREAM_NONE, TRUE, answer_tags);
  hr_ollama_call_start (task, "GET", NULL);
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
  hr_ollama_call_new (self, task, cancellable, "/api/ps", NULL, HR_OLLAMA_STREAM_NONE, TRUE, answer_ps);
  hr_ollama_call_start (task, "GET", NULL);
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
  hr_ollama_call_new (self, task, cancellable, "/api/show", model, HR_OLLAMA_STREAM_NONE, TRUE, answer_show);
  hr_ollama_call_start (task, "POST", body);
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
             HrOllamaStream       kind,
             const char          *model,
             JsonNode            *body,
             HrOllamaChunkFunc    chunk_func,
             gpointer             chunk_data,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  HrOllamaCall *call;

  g_task_set_source_tag (task, tag);
  call = hr_ollama_call_new (self, task, cancellable, kind == HR_OLLAMA_STREAM_CHAT ? "/api/chat" : "/api/generate",
                   model, kind, FALSE, NULL);
  call->reply = g_new0 (HrOllamaReply, 1);
  call->reply->ttft_ms = -1;
  call->text = g_string_new (NULL);
  call->thinking = g_string_new (NULL);
  call->chunk_func = chunk_func;
  call->chunk_data = chunk_data;
  hr_ollama_call_start (task, "POST", body);
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
 * not empty (there is no TTFT field; docs/seed-figures.md, "Measuring a model").
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
  start_reply (self, hr_ollama_client_generate_async, HR_OLLAMA_STREAM_GENERATE, model, body,
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
  start_reply (self, hr_ollama_client_chat_async, HR_OLLAMA_STREAM_CHAT, model, body,
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
 * (docs/ollama.md, "/api/generate and /api/chat": an empty prompt
 * loads the model, `done_reason: "load"`).
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
  hr_ollama_call_new (self, task, cancellable, "/api/generate", model, HR_OLLAMA_STREAM_NONE, FALSE, answer_ok);
  hr_ollama_call_start (task, "POST", body);
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
  hr_ollama_call_new (self, task, cancellable, "/api/generate", model, HR_OLLAMA_STREAM_NONE, TRUE, answer_ok);
  hr_ollama_call_start (task, "POST", body);
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
  HrOllamaCall *call;

  json_object_set_boolean_member (json_node_get_object (body), "stream", TRUE);
  g_task_set_source_tag (task, hr_ollama_client_pull_async);
  call = hr_ollama_call_new (self, task, cancellable, "/api/pull", model, HR_OLLAMA_STREAM_PULL, FALSE, NULL);
  call->progress = hr_pull_progress_new ();
  call->pull_func = progress_func;
  call->pull_data = progress_data;
  hr_ollama_call_start (task, "POST", body);
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
  hr_ollama_call_new (self, task, cancellable, "/api/delete", model, HR_OLLAMA_STREAM_NONE, TRUE, answer_ok);
  hr_ollama_call_start (task, "DELETE", body);
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
/* Variants: create, copy, preload                                     */

/**
 * hr_ollama_client_create_async:
 * @self: a client
 * @model: the new model's name ("llama3.1:8b-ctx24k")
 * @from: the model it is made from, on the same server
 * @parameters: (nullable): the parameters it carries, as Ollama's
 *   Modelfile PARAMETER lines name them ({"num_ctx": 24576, "num_gpu": 20})
 * @cancellable: (nullable): cancels the call
 * @callback: called when the model is created
 * @user_data: data for @callback
 *
 * `POST /api/create {"model", "from", "parameters", "stream": false}`
 * (Ollama's docs/api.md "Create a Model", the JSON form from Ollama
 * 0.5.5; older servers wanted a Modelfile text and answer this with an
 * error), within the deadline: a model made from a pulled one only writes
 * a new manifest. hr_ollama_create_request() builds the same body.
 */
void
hr_ollama_client_create_async (HrOllamaClient      *self,
                               const char          *model,
                               const char          *from,
                               JsonObject          *parameters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = hr_ollama_create_request (model, from, parameters);

  g_task_set_source_tag (task, hr_ollama_client_create_async);
  hr_ollama_call_new (self, task, cancellable, "/api/create", from, HR_OLLAMA_STREAM_NONE, TRUE, answer_ok);
  hr_ollama_call_start (task, "POST", body);
}

/**
 * hr_ollama_client_create_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE, or %FALSE with an %HR_NET_ERROR (%HR_NET_ERROR_NOT_FOUND
 *   when @from is not on the server; %HR_NET_ERROR_FAILED with Ollama's
 *   text, such as "invalid model name", for a name it refuses) or
 *   G_IO_ERROR_CANCELLED.
 */
gboolean
hr_ollama_client_create_finish (HrOllamaClient  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_create_async, error);
}

/**
 * hr_ollama_create_request:
 * @model: the new model's name
 * @from: the model it is made from
 * @parameters: (nullable): its parameters (copied)
 *
 * The body hr_ollama_client_create_async() sends, for a dialog or a
 * command that shows the exact request.
 *
 * Returns: (transfer full): {"model", "from", "parameters" (when given),
 *   "stream": false}.
 */
JsonNode *
hr_ollama_create_request (const char *model,
                          const char *from,
                          JsonObject *parameters)
{
  JsonNode *body = model_body (model);
  JsonObject *obj = json_node_get_object (body);

  json_object_set_string_member (obj, "from", from);
  if (parameters != NULL)
    {
      g_autoptr(JsonNode) copy = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (copy, parameters);
      json_object_set_member (obj, "parameters", json_node_copy (copy));
    }
  json_object_set_boolean_member (obj, "stream", FALSE);
  return body;
}

/**
 * hr_ollama_client_copy_async:
 * @self: a client
 * @source: the model to copy
 * @destination: the copy's name
 * @cancellable: (nullable): cancels the call
 * @callback: called when the copy is made
 * @user_data: data for @callback
 *
 * `POST /api/copy {"source", "destination"}` (200 with an empty body;
 * Ollama's docs/api.md "Copy a Model"), within the deadline. An existing
 * @destination is replaced by Ollama: callers check first.
 */
void
hr_ollama_client_copy_async (HrOllamaClient      *self,
                             const char          *source,
                             const char          *destination,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  JsonObject *obj = json_object_new ();

  json_object_set_string_member (obj, "source", source);
  json_object_set_string_member (obj, "destination", destination);
  json_node_take_object (body, obj);
  g_task_set_source_tag (task, hr_ollama_client_copy_async);
  hr_ollama_call_new (self, task, cancellable, "/api/copy", source, HR_OLLAMA_STREAM_NONE, TRUE, answer_ok);
  hr_ollama_call_start (task, "POST", body);
}

/**
 * hr_ollama_client_copy_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE, or %FALSE with an %HR_NET_ERROR (%HR_NET_ERROR_NOT_FOUND
 *   for an unknown source) or G_IO_ERROR_CANCELLED.
 */
gboolean
hr_ollama_client_copy_finish (HrOllamaClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_copy_async, error);
}

/**
 * hr_ollama_client_preload_async:
 * @self: a client
 * @model: a model name
 * @keep_alive: (nullable): how long it stays loaded, as Ollama reads
 *   keep_alive: a duration ("30m", "2h") or seconds ("3600"; "-1" keeps it
 *   loaded until unloaded); %NULL for the server's default (5 minutes, or
 *   OLLAMA_KEEP_ALIVE)
 * @cancellable: (nullable): cancels the call
 * @callback: called when the model is loaded
 * @user_data: data for @callback
 *
 * Loads a model with its own parameters (a variant's num_ctx and num_gpu
 * apply): `POST /api/generate {"model", "keep_alive", "stream": false}`
 * with no prompt (Ollama's docs/api.md "Load a model"). No deadline: a
 * cold load can take minutes.
 */
void
hr_ollama_client_preload_async (HrOllamaClient      *self,
                                const char          *model,
                                const char          *keep_alive,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonNode) body = model_body (model);
  JsonObject *obj = json_node_get_object (body);
  gint64 seconds;

  if (keep_alive != NULL && g_ascii_string_to_signed (keep_alive, 10, -1, G_MAXINT32, &seconds, NULL))
    json_object_set_int_member (obj, "keep_alive", seconds);
  else if (keep_alive != NULL)
    json_object_set_string_member (obj, "keep_alive", keep_alive);
  json_object_set_boolean_member (obj, "stream", FALSE);
  g_task_set_source_tag (task, hr_ollama_client_preload_async);
  hr_ollama_call_new (self, task, cancellable, "/api/generate", model, HR_OLLAMA_STREAM_NONE, FALSE, answer_ok);
  hr_ollama_call_start (task, "POST", body);
}

/**
 * hr_ollama_client_preload_finish:
 * @self: a client
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE once loaded, or %FALSE as hr_ollama_client_load_finish().
 */
gboolean
hr_ollama_client_preload_finish (HrOllamaClient  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  return propagate_boolean (self, result, hr_ollama_client_preload_async, error);
}
