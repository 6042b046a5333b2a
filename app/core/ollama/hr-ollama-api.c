/* hr-ollama-api.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-error.h"
#include "hr-json.h"
#include "hr-ollama-api.h"
#include "hr-json.h"
#include "hr-ollama-host.h"

/**
 * hr_ollama_api_error_text:
 * @data: (array length=size) (nullable): an answer's body
 * @size: its length in bytes
 *
 * Ollama's own error text of an answer: `{"error": "..."}`, made safe
 * (hr_json_safe_text(), at most %HR_JSON_SAFE_LONG characters).
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when the body is
 *   empty, not JSON, not an object or has no string "error".
 */
/* The string @member of an answer body that is a JSON object, made safe. */
static char *
body_string (const char *data,
             gsize       size,
             const char *member,
             gssize      cap)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;
  const char *text;

  if (data == NULL || size == 0 || size > G_MAXSSIZE ||
      !json_parser_load_from_data (parser, data, (gssize) size, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  text = hr_json_string (json_node_get_object (root), member);
  return text != NULL && *text != '\0' ? hr_json_safe_text (text, -1, cap) : NULL;
}

char *
hr_ollama_api_error_text (const char *data,
                          gsize       size)
{
  return body_string (data, size, "error", HR_JSON_SAFE_LONG);
}

/**
 * hr_ollama_api_signin_url:
 * @data: (array length=size) (nullable): a 401 answer's body
 * @size: its length in bytes
 *
 * Where Ollama says to sign in: the `signin_url` of a 401 answer or stream
 * line (api/types.go, AuthorizationError; a cloud model on a server not
 * signed in to ollama.com), made safe (at most %HR_JSON_SAFE_LONG
 * characters).
 *
 * Returns: (transfer full) (nullable): the address, or %NULL when the body
 *   has no non-empty string "signin_url".
 */
char *
hr_ollama_api_signin_url (const char *data,
                          gsize       size)
{
  return body_string (data, size, "signin_url", HR_JSON_SAFE_LONG);
}

/**
 * hr_ollama_api_parse_version:
 * @root: (nullable): the answer of `GET /api/version`; %NULL for an empty body
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the "version" string ("0.31.2"), made safe to
 *   print and save (hr_json_safe_text(), at most %HR_JSON_SAFE_SHORT
 *   characters), or %NULL with
 *   %HR_CORE_ERROR_INVALID_DATA whose message says what was wrong
 *   ("no \"version\"").
 */
char *
hr_ollama_api_parse_version (JsonNode  *root,
                             GError   **error)
{
  const char *version = NULL;

  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    version = hr_json_string (json_node_get_object (root), "version");
  if (version == NULL)
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("no \"version\""));
      return NULL;
    }
  return hr_json_safe_text (version, -1, HR_JSON_SAFE_SHORT);
}

static char *
dup_member (JsonObject *obj,
            const char *name)
{
  return obj != NULL ? g_strdup (hr_json_string (obj, name)) : NULL;
}

/* The "models" list of /api/tags or /api/ps; null or absent means none
 * (*out = NULL). */
static gboolean
models_array (JsonNode   *root,
              JsonArray **out,
              GError    **error)
{
  JsonNode *node;

  *out = NULL;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("not a JSON object"));
      return FALSE;
    }
  node = json_object_get_member (json_node_get_object (root), "models");
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("\"models\" is not a list"));
      return FALSE;
    }
  *out = json_node_get_array (node);
  return TRUE;
}

/* A member's JSON text for a message, made safe and short. */
static char *
member_text (JsonNode *node)
{
  g_autofree char *json = json_to_string (node, FALSE);
  g_autofree char *safe = hr_json_safe_text (json, -1, 40);

  /* json-glib reads an integer of 2^63 or more as a negative one (2^64
   * and beyond as -1), and a number past a double's range as infinity. */
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64 &&
      json_node_get_int (node) < 0)
    return g_strdup_printf (_("%s (negative, or 2^63 or more)"), safe);
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE &&
      !isfinite (json_node_get_double (node)))
    return g_strdup (_("a number too large to read"));
  return g_steal_pointer (&safe);
}

/* The entry @i of @array when it is an object; NULL (skipped) when it is
 * not one; an error when its "name" is there but not text. */
static JsonObject *
named_entry (JsonArray   *array,
             guint        i,
             const char  *endpoint,
             GError     **error)
{
  JsonNode *node = json_array_get_element (array, i);
  JsonNode *name;
  JsonObject *obj;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  obj = json_node_get_object (node);
  if (hr_json_string (obj, "name") != NULL)
    return obj;
  name = json_object_get_member (obj, "name");
  if (name != NULL)
    {
      g_autofree char *text = member_text (name);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("%s lists a model whose \"name\" is %s, not a model name"), endpoint, text);
    }
  return NULL;
}

/* Reads @field of @obj (model @name) as a count of at most @max into
 * @out: absent is 0; present but not a whole number from 0 to @max (null,
 * text, negative, fractional, past @max) is an error naming the field and
 * the value, never a silent 0. */
static gboolean
checked_u64 (JsonObject  *obj,
             const char  *endpoint,
             const char  *name,
             const char  *field,
             guint64      max,
             guint64     *out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (obj, field);
  g_autofree char *text = NULL;
  g_autofree char *safe_name = NULL;

  *out = 0;
  if (node == NULL || hr_json_node_u64 (node, max, out))
    return TRUE;
  text = member_text (node);
  safe_name = hr_json_safe_text (name, -1, HR_JSON_SAFE_SHORT);
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
               _("%s gives %s a \"%s\" of %s, which is impossible; nothing was read from it"),
               endpoint, safe_name, field, text);
  return FALSE;
}

/**
 * hr_ollama_api_parse_tags:
 * @root: (nullable): the answer of `GET /api/tags`
 * @error: return location for a #GError
 *
 * Entries that are not objects or have no "name" are skipped; a missing
 * size is 0 bytes; digests are made bare (hr_ollama_digest_bare()). A
 * number that cannot be (a size that is null, text, negative, fractional
 * or over %HR_OLLAMA_MAX_MODEL_BYTES) or a "name" that is not text fails
 * the whole answer with an error naming the field and the value: it is
 * never read as 0.
 *
 * Returns: (transfer full) (element-type HrOllamaModel): the models in the
 *   answer's order (empty for `"models": null`), or %NULL with
 *   %HR_CORE_ERROR_INVALID_DATA ("not a JSON object", "\"models\" is not a
 *   list"), or %HR_CORE_ERROR_LIMIT for an impossible value ("/api/tags
 *   gives llama3.2 a \"size\" of -5, which is impossible; ...").
 */
GPtrArray *
hr_ollama_api_parse_tags (JsonNode  *root,
                          GError   **error)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_model_free);
  JsonArray *array;

  if (!models_array (root, &array, error))
    return NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonObject *obj = named_entry (array, i, "/api/tags", error);
      JsonObject *details;
      HrOllamaModel *model;
      guint64 size;

      if (obj == NULL)
        {
          if (error != NULL && *error != NULL)
            return NULL;
          continue;
        }
      if (!checked_u64 (obj, "/api/tags", hr_json_string (obj, "name"), "size",
                        HR_OLLAMA_MAX_MODEL_BYTES, &size, error))
        return NULL;
      details = hr_json_object (obj, "details");
      model = g_new0 (HrOllamaModel, 1);
      model->name = dup_member (obj, "name");
      model->model = dup_member (obj, "model");
      model->digest = hr_ollama_digest_bare (hr_json_string (obj, "digest"));
      model->size = size;
      model->modified_at = dup_member (obj, "modified_at");
      model->format = dup_member (details, "format");
      model->family = dup_member (details, "family");
      model->parameter_size = dup_member (details, "parameter_size");
      model->quantization_level = dup_member (details, "quantization_level");
      g_ptr_array_add (models, model);
    }
  return g_steal_pointer (&models);
}

/**
 * hr_ollama_api_parse_ps:
 * @root: (nullable): the answer of `GET /api/ps`
 * @error: return location for a #GError
 *
 * As hr_ollama_api_parse_tags(); sizes are bytes (0 when absent), a
 * context length 0 when absent. A size over %HR_OLLAMA_MAX_MODEL_BYTES, a
 * size_vram over the size, a context length over %HR_OLLAMA_MAX_CONTEXT
 * or an expiry that is not ISO 8601 fails the answer with an error naming
 * the field and the value.
 *
 * Returns: (transfer full) (element-type HrOllamaLoaded): the loaded
 *   models, or %NULL with %HR_CORE_ERROR_INVALID_DATA (the shape) or
 *   %HR_CORE_ERROR_LIMIT (an impossible value).
 */
GPtrArray *
hr_ollama_api_parse_ps (JsonNode  *root,
                        GError   **error)
{
  g_autoptr(GPtrArray) loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_loaded_free);
  JsonArray *array;

  if (!models_array (root, &array, error))
    return NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonObject *obj = named_entry (array, i, "/api/ps", error);
      JsonObject *details;
      HrOllamaLoaded *l;
      JsonNode *expires;
      const char *name;
      guint64 size, size_vram, ctx;
      g_autoptr(GDateTime) expires_at = NULL;

      if (obj == NULL)
        {
          if (error != NULL && *error != NULL)
            return NULL;
          continue;
        }
      name = hr_json_string (obj, "name");
      if (!checked_u64 (obj, "/api/ps", name, "size", HR_OLLAMA_MAX_MODEL_BYTES, &size, error) ||
          !checked_u64 (obj, "/api/ps", name, "size_vram", size, &size_vram, error) ||
          !checked_u64 (obj, "/api/ps", name, "context_length", HR_OLLAMA_MAX_CONTEXT, &ctx, error))
        return NULL;
      expires = json_object_get_member (obj, "expires_at");
      if (expires != NULL)
        {
          const char *iso = hr_json_string (obj, "expires_at");

          expires_at = iso != NULL ? g_date_time_new_from_iso8601 (iso, NULL) : NULL;
          if (expires_at == NULL)
            {
              g_autofree char *text = member_text (expires);
              g_autofree char *safe_name = hr_json_safe_text (name, -1, HR_JSON_SAFE_SHORT);

              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                           _("%s gives %s an \"expires_at\" of %s, which is not a date"),
                           "/api/ps", safe_name, text);
              return NULL;
            }
        }
      details = hr_json_object (obj, "details");
      l = g_new0 (HrOllamaLoaded, 1);
      l->name = dup_member (obj, "name");
      l->model = dup_member (obj, "model");
      l->digest = hr_ollama_digest_bare (hr_json_string (obj, "digest"));
      l->size = size;
      l->size_vram = size_vram;
      l->context_length = (guint32) ctx;
      l->expires_at = g_steal_pointer (&expires_at);
      l->family = dup_member (details, "family");
      l->parameter_size = dup_member (details, "parameter_size");
      l->quantization_level = dup_member (details, "quantization_level");
      g_ptr_array_add (loaded, l);
    }
  return g_steal_pointer (&loaded);
}

/**
 * hr_ollama_api_reply_line:
 * @node: one line of a `POST /api/generate` or `/api/chat` stream
 * @chat: the line is chat's (text in `message`), not generate's
 * @line: (out caller-allocates): the line's text and end mark
 * @error: return location for a #GError
 *
 * Returns: %TRUE with @line filled (only @line's error for an
 *   `{"error": ...}` line; an empty "error" is none, as in Ollama's client); %FALSE with %HR_CORE_ERROR_INVALID_DATA ("a
 *   stream line that is not an object").
 */
gboolean
hr_ollama_api_reply_line (JsonNode           *node,
                          gboolean            chat,
                          HrOllamaReplyLine  *line,
                          GError            **error)
{
  JsonObject *obj;

  *line = (HrOllamaReplyLine) { NULL, NULL, NULL, FALSE };
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                           _("a stream line that is not an object"));
      return FALSE;
    }
  obj = json_node_get_object (node);
  line->error = hr_json_string (obj, "error");
  /* api/client.go stream(): only a non-empty "error" ends a stream. */
  if (line->error != NULL && *line->error == '\0')
    line->error = NULL;
  if (line->error != NULL)
    return TRUE;
  if (chat)
    {
      JsonObject *message = hr_json_object (obj, "message");

      if (message != NULL)
        {
          line->content = hr_json_string (message, "content");
          line->thinking = hr_json_string (message, "thinking");
        }
    }
  else
    {
      line->content = hr_json_string (obj, "response");
      line->thinking = hr_json_string (obj, "thinking");
    }
  line->done = hr_json_bool (obj, "done", FALSE);
  /* Some Ollama-compatible servers end with done_reason and no done
   * field: that is the last line (Ollama's own always says done). */
  if (!json_object_has_member (obj, "done") && hr_json_string (obj, "done_reason") != NULL)
    line->done = TRUE;
  return TRUE;
}

static gint64
timing_field (JsonObject *obj,
              const char *name)
{
  guint64 v;

  if (!hr_json_u64 (obj, name, G_MAXUINT64, &v) || v > G_MAXINT64)
    return -1;
  return (gint64) v;
}

/**
 * hr_ollama_api_reply_done:
 * @object: the stream's final (`"done": true`) line
 * @reply: the reply to fill
 *
 * Sets @reply's done_reason and Ollama's figures: durations in ns, counts
 * in tokens, each -1 when absent (Ollama leaves zeros out) or over 2^63 - 1.
 */
void
hr_ollama_api_reply_done (JsonObject    *object,
                          HrOllamaReply *reply)
{
  g_free (reply->done_reason);
  reply->done_reason = g_strdup (hr_json_string (object, "done_reason"));
  reply->total_duration = timing_field (object, "total_duration");
  reply->load_duration = timing_field (object, "load_duration");
  reply->prompt_eval_count = timing_field (object, "prompt_eval_count");
  reply->prompt_eval_duration = timing_field (object, "prompt_eval_duration");
  reply->eval_count = timing_field (object, "eval_count");
  reply->eval_duration = timing_field (object, "eval_duration");
}

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
 * tokens/s = count / (duration / 1e9) (docs/seed-figures.md,
 * "Measuring a model": 89 tokens in 3,817,895,000 ns = 23.3 t/s).
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
