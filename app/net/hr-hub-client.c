/* hr-hub-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The client object: the endpoint, the token (given, HF_TOKEN, else the
 * keyring through HrTokenStore), one HrHttp, and what the Hub's error
 * answers mean. The lookup's steps are in hr-hub-lookup.c; its answers are
 * read by app/core/hf/hr-hub-info.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-hub-client-private.h"
#include "hr-net-error.h"

struct _HrHubClient {
  GObject       parent_instance;

  HrHttp       *http;
  HrTokenStore *store;        /* made at the first keyring lookup */
  char         *endpoint;     /* no trailing slash */
  GUri         *endpoint_uri;
  char         *token;        /* NULL = none */
  gboolean      token_set;    /* given at construction (or HF_TOKEN) */
  gboolean      use_keyring;
  gboolean      keyring_done;
  guint         timeout_ms;
};

G_DEFINE_FINAL_TYPE (HrHubClient, hr_hub_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ENDPOINT,
  PROP_TOKEN,
  PROP_USE_KEYRING,
  PROP_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* The client                                                          */

static void
hr_hub_client_finalize (GObject *object)
{
  HrHubClient *self = HR_HUB_CLIENT (object);

  g_clear_object (&self->http);
  g_clear_object (&self->store);
  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->endpoint_uri, g_uri_unref);
  g_clear_pointer (&self->token, g_free);

  G_OBJECT_CLASS (hr_hub_client_parent_class)->finalize (object);
}

static void
hr_hub_client_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  HrHubClient *self = HR_HUB_CLIENT (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_value_set_string (value, self->endpoint);
      break;
    case PROP_USE_KEYRING:
      g_value_set_boolean (value, self->use_keyring);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_ms);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_hub_client_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  HrHubClient *self = HR_HUB_CLIENT (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_free (self->endpoint);
      self->endpoint = g_value_dup_string (value);
      break;
    case PROP_TOKEN:
      if (g_value_get_string (value) != NULL)
        {
          g_free (self->token);
          self->token = g_value_dup_string (value);
          self->token_set = TRUE;
        }
      break;
    case PROP_USE_KEYRING:
      self->use_keyring = g_value_get_boolean (value);
      break;
    case PROP_TIMEOUT:
      self->timeout_ms = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_hub_client_constructed (GObject *object)
{
  HrHubClient *self = HR_HUB_CLIENT (object);
  const char *env;

  G_OBJECT_CLASS (hr_hub_client_parent_class)->constructed (object);

  if (self->endpoint == NULL || self->endpoint[0] == '\0')
    {
      env = g_getenv ("HF_ENDPOINT");
      g_free (self->endpoint);
      self->endpoint = g_strdup (env != NULL && env[0] != '\0' ? env : HR_HUB_DEFAULT_ENDPOINT);
    }
  while (g_str_has_suffix (self->endpoint, "/") && strlen (self->endpoint) > 1)
    self->endpoint[strlen (self->endpoint) - 1] = '\0';
  self->endpoint_uri = g_uri_parse (self->endpoint, SOUP_HTTP_URI_FLAGS, NULL);

  if (!self->token_set)
    {
      env = g_getenv ("HF_TOKEN");
      if (env != NULL && env[0] != '\0')
        {
          self->token = g_strdup (env);
          self->token_set = TRUE;
        }
    }
  if (self->token_set && self->token != NULL && self->token[0] == '\0')
    g_clear_pointer (&self->token, g_free);

  self->http = hr_http_new (HR_HTTP_WORDING_HUB, "headroom/" PACKAGE_VERSION " ", 8);
  if (self->token != NULL)
    hr_http_set_token (self->http, self->token, self->endpoint);
}

static void
hr_hub_client_class_init (HrHubClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_hub_client_finalize;
  object_class->get_property = hr_hub_client_get_property;
  object_class->set_property = hr_hub_client_set_property;
  object_class->constructed = hr_hub_client_constructed;

  /**
   * HrHubClient:endpoint:
   *
   * The Hub's base URL; %NULL or empty = `HF_ENDPOINT`, else
   * https://huggingface.co (docs/hub.md, "Endpoint, token and revision").
   */
  properties[PROP_ENDPOINT] =
    g_param_spec_string ("endpoint", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HrHubClient:token:
   *
   * The access token sent as `Authorization: Bearer` to the Hub's origin
   * only (scheme, host and port of #HrHubClient:endpoint; never after a
   * redirect to a CDN);
   * %NULL = `HF_TOKEN`, else the keyring; "" = send none.
   */
  properties[PROP_TOKEN] =
    g_param_spec_string ("token", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HrHubClient:use-keyring:
   *
   * Whether to look the token up in the keyring (#HrTokenStore, schema
   * %HR_HUB_TOKEN_SCHEMA keyed by the endpoint) when none was given and
   * `HF_TOKEN` is not set.
   */
  properties[PROP_USE_KEYRING] =
    g_param_spec_boolean ("use-keyring", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HrHubClient:timeout:
   *
   * The deadline of each request in milliseconds, from the first byte sent
   * to the last body byte read (redirects included).
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 1, 3600000, HR_HUB_DEFAULT_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hr_hub_client_init (HrHubClient *self)
{
  self->use_keyring = TRUE;
  self->timeout_ms = HR_HUB_DEFAULT_TIMEOUT_MS;
}

/**
 * hr_hub_client_new:
 *
 * A client for the Hub at `HF_ENDPOINT` (else https://huggingface.co) with
 * the token of `HF_TOKEN` (else the keyring, when libsecret is there).
 *
 * Returns: (transfer full): the client.
 */
HrHubClient *
hr_hub_client_new (void)
{
  return g_object_new (HR_TYPE_HUB_CLIENT, NULL);
}

/**
 * hr_hub_client_get_endpoint:
 * @self: a client
 *
 * Returns: (transfer none): the Hub's base URL, without a trailing slash.
 */
const char *
hr_hub_client_get_endpoint (HrHubClient *self)
{
  g_return_val_if_fail (HR_IS_HUB_CLIENT (self), NULL);
  return self->endpoint;
}

/**
 * hr_hub_client_get: (skip)
 * @self: a client
 * @url: the URL
 * @range_start: the first byte of a Range, or -1 for none
 * @range_end: its last byte (inclusive)
 * @cap: body bytes read at most (without a Range)
 * @bytes_counter: (nullable): body bytes received are added to it
 * @cancellable: (nullable): cancels the request
 * @callback: called with the answer; its source is the client's #HrHttp,
 *   finish with hr_http_send_finish()
 * @user_data: data for @callback
 *
 * One GET with the client's deadline (#HrHubClient:timeout, redirects and
 * body included), the token to the Hub's origin only.
 */
void
hr_hub_client_get (HrHubClient         *self,
                   const char          *url,
                   gint64               range_start,
                   gint64               range_end,
                   guint64              cap,
                   guint64             *bytes_counter,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  HrHttpRequest request = {
    .method = "GET",
    .url = url,
    .range_start = range_start,
    .range_end = range_end,
    .cap = cap,
    .deadline_ms = self->timeout_ms,
    .bytes_counter = bytes_counter,
  };

  hr_http_send_async (self->http, &request, cancellable, callback, user_data);
}

/* ------------------------------------------------------------------ */
/* Errors of the Hub (docs/hub.md, "Errors")                          */

/* The Hub's own text: X-Error-Message, else the JSON body's "error". */
static char *
hub_error_text (HrHttpResponse *resp)
{
  const char *header = soup_message_headers_get_one (resp->headers, "X-Error-Message");
  g_autoptr(JsonParser) parser = NULL;
  gsize size;
  const char *data;

  if (header != NULL)
    return g_utf8_make_valid (header, -1);
  data = g_bytes_get_data (resp->body, &size);
  if (size == 0 || size > 65536)
    return NULL;
  parser = json_parser_new_immutable ();
  if (json_parser_load_from_data (parser, data, (gssize) size, NULL))
    {
      JsonNode *root = json_parser_get_root (parser);

      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        {
          const char *text = json_object_get_string_member_with_default (json_node_get_object (root), "error", NULL);

          if (text != NULL)
            return g_strdup (text);
        }
    }
  return NULL;
}

/* A non-2xx answer as an HR_NET_ERROR a person can act on. @what names the
 * file or API asked for; NULL for the model info. */
/**
 * hr_hub_client_status_error: (skip)
 * @self: a client
 * @resp: a non-2xx answer
 * @repo: the repository asked for
 * @revision: the revision asked for
 * @what: (nullable): the file or API asked for; %NULL for the model info
 *
 * Reads the Hub's X-Error-Code (GatedRepo, RepoNotFound, RevisionNotFound,
 * EntryNotFound), X-Error-Message or JSON "error", and the status (docs/hub.md,
 * "Errors").
 *
 * Returns: (transfer full): the error: %HR_NET_ERROR_GATED,
 *   %HR_NET_ERROR_NOT_FOUND, %HR_NET_ERROR_REVISION_NOT_FOUND,
 *   %HR_NET_ERROR_UNAUTHORIZED, %HR_NET_ERROR_RATE_LIMITED (with the wait),
 *   %HR_NET_ERROR_SERVER, %HR_NET_ERROR_BAD_PATH or %HR_NET_ERROR_FAILED.
 */
GError *
hr_hub_client_status_error (HrHubClient    *self,
                            HrHttpResponse *resp,
                            const char     *repo,
                            const char     *revision,
                            const char     *what)
{
  const char *code = soup_message_headers_get_one (resp->headers, "X-Error-Code");
  g_autofree char *text = hub_error_text (resp);
  guint status = resp->status;

  if (code != NULL && strcmp (code, "GatedRepo") == 0 && (status == 401 || status == 403))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_GATED,
                        _("%s is gated: request access on its page, %s/%s, then set a token that has access (HF_TOKEN or the stored token)"),
                        repo, self->endpoint, repo);
  if (code != NULL && strcmp (code, "RepoNotFound") == 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("No repository %s: check the name; if it is private or gated, set a token that can read it"),
                        repo);
  if (code != NULL && strcmp (code, "RevisionNotFound") == 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_REVISION_NOT_FOUND,
                        _("%s has no branch, tag or commit “%s”"), repo, revision);
  if (code != NULL && strcmp (code, "EntryNotFound") == 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("%s is not in %s at %s"), what ? what : "?", repo, revision);
  if (status == 401 && text != NULL && strstr (text, "Invalid credentials") != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                        _("The Hub refused the token (invalid credentials): check HF_TOKEN or the stored token"));
  if (status == 401)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("No repository %s: check the name; if it is private or gated, set a token that can read it"),
                        repo);
  if (status == 403)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                        _("The Hub refused access to %s: check that your token can read it"), repo);
  if (status == 429)
    {
      guint seconds = hr_http_retry_after (resp->headers);

      if (seconds > 0)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "The Hub is rate limiting requests: wait %u second, then try again",
                                         "The Hub is rate limiting requests: wait %u seconds, then try again",
                                         seconds),
                            seconds);
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                          _("The Hub is rate limiting requests: wait a minute, then try again"));
    }
  if (status >= 500)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_SERVER,
                        _("The Hub failed (HTTP %u): try again later"), status);
  if (status == 404)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                        _("The Hub at %s has no %s (HTTP 404): check HF_ENDPOINT"),
                        self->endpoint, what ? what : repo);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                      _("The Hub answered HTTP %u for %s: %s"), status,
                      what ? what : repo, text ? text : _("no reason given"));
}

/* ------------------------------------------------------------------ */
/* The lookup                                                          */

static void
on_keyring (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  HrHubClient *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = hr_token_store_lookup_finish (HR_TOKEN_STORE (source), result, &error);

  /* No keyring, a locked one, a slow one, or no entry: go on without a
   * token (a cancelled lookup stops before its first request). */
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("No Hub token from the keyring: %s", error->message);
  self->keyring_done = TRUE;
  if (token != NULL && self->token == NULL)
    {
      self->token = g_steal_pointer (&token);
      hr_http_set_token (self->http, self->token, self->endpoint);
    }
  hr_hub_lookup_start (task);
}

/**
 * hr_hub_client_lookup_async:
 * @self: a client
 * @repo: "owner/name" (see hr_hf_repo_parse())
 * @revision: (nullable): a branch, tag or commit; %NULL = "main"
 * @cancellable: (nullable): cancels every request of the lookup
 * @callback: called when the lookup is complete
 * @user_data: data for @callback
 *
 * Looks @repo up on the Hub (the steps are at the top of hr-hub-client.c):
 * model info at @revision (percent-encoded whole), then every file pinned
 * to the commit sha it names. Nothing of the weights is read beyond a
 * header range. Each request has the client's deadline (#HrHubClient:timeout)
 * and a body cap.
 */
void
hr_hub_client_lookup_async (HrHubClient         *self,
                            const char          *repo,
                            const char          *revision,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (HR_IS_HUB_CLIENT (self));
  g_return_if_fail (repo != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_hub_client_lookup_async);
  g_task_set_check_cancellable (task, TRUE);

  revision = revision != NULL && revision[0] != '\0' ? revision : "main";
  hr_hub_lookup_attach (task, self, repo, revision, cancellable);

  if (self->endpoint_uri == NULL)
    {
      g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                               _("“%s” is not a valid Hub address: check HF_ENDPOINT"), self->endpoint);
      g_object_unref (task);
      return;
    }
  {
    g_autofree char *r = NULL;
    g_autofree char *v = NULL;
    g_autoptr(GError) error = NULL;

    if (!hr_hf_repo_parse (repo, &r, &v, &error) || v != NULL)
      {
        g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH, "%s",
                                 error ? error->message : _("Give the revision separately, not after “@”"));
        g_object_unref (task);
        return;
      }
  }

  if (self->token == NULL && !self->token_set && self->use_keyring && !self->keyring_done &&
      hr_token_store_is_built ())
    {
      if (self->store == NULL)
        self->store = hr_token_store_new ();
      hr_token_store_lookup_async (self->store, HR_TOKEN_KIND_HUB, self->endpoint,
                                   cancellable, on_keyring, task);
      return;
    }
  hr_hub_lookup_start (task);
}

/**
 * hr_hub_client_lookup_finish:
 * @self: a client
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the answers, or %NULL with @error set:
 *   %G_IO_ERROR_CANCELLED when cancelled (not an error to show);
 *   HR_NET_ERROR with %HR_NET_ERROR_GATED, %HR_NET_ERROR_NOT_FOUND (no such
 *   repository, or private; or a file missing), %HR_NET_ERROR_UNAUTHORIZED
 *   (the token was refused), %HR_NET_ERROR_REVISION_NOT_FOUND,
 *   %HR_NET_ERROR_RATE_LIMITED (with the seconds to wait),
 *   %HR_NET_ERROR_SERVER (5xx), %HR_NET_ERROR_TIMEOUT,
 *   %HR_NET_ERROR_RESOLVE / %HR_NET_ERROR_CONNECTION_REFUSED /
 *   %HR_NET_ERROR_TLS / %HR_NET_ERROR_FAILED ("Could not reach HOST; check
 *   the network or HF_ENDPOINT"), %HR_NET_ERROR_TOO_LARGE (a body over its
 *   cap), %HR_NET_ERROR_INVALID_RESPONSE (JSON or headers that do not parse),
 *   %HR_NET_ERROR_BAD_PATH (a bad endpoint or repository id).
 */
HrHubLookup *
hr_hub_client_lookup_finish (HrHubClient   *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (HR_IS_HUB_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static void
add_u64 (JsonBuilder *b,
         const char  *key,
         guint64      value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, value > G_MAXINT64 ? G_MAXINT64 : (gint64) value);
}

static void
add_str (JsonBuilder *b,
         const char  *key,
         const char  *value)
{
  json_builder_set_member_name (b, key);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_file (JsonBuilder     *b,
          const HrHubFile *f)
{
  json_builder_begin_object (b);
  add_str (b, "path", f->path);
  add_u64 (b, "size", f->size);
  json_builder_end_object (b);
}

/* The config.json figures of hr_hub_lookup_to_json(). */
static void
add_config (JsonBuilder      *b,
            const HrHfConfig *c)
{
  add_u64 (b, "layers", c->layers);
  add_u64 (b, "hidden_size", c->hidden_size);
  add_u64 (b, "intermediate_size", c->intermediate_size);
  add_u64 (b, "heads", c->heads);
  add_u64 (b, "kv_heads", c->kv_heads);
  add_u64 (b, "head_dim", c->head_dim);
  add_u64 (b, "vocab_size", c->vocab_size);
  add_u64 (b, "max_position_embeddings", c->max_position_embeddings);
  add_u64 (b, "sliding_window", c->sliding_window);
  json_builder_set_member_name (b, "tied_embeddings");
  json_builder_add_boolean_value (b, c->tied_embeddings);
  add_str (b, "dtype", c->dtype);
  if (c->experts > 0)
    {
      add_u64 (b, "experts", c->experts);
      add_u64 (b, "experts_per_token", c->experts_per_token);
    }
  if (c->quant_method != NULL)
    add_str (b, "quant_method", c->quant_method);
}

/* The GGUF files of a GGUF repository, and the one read, of
 * hr_hub_lookup_to_json(). */
static void
add_gguf_files (JsonBuilder        *b,
                const HrHubLookup  *lookup)
{
  if (lookup->gguf_files->len == 0)
    return;
  json_builder_set_member_name (b, "gguf_files");
  json_builder_begin_array (b);
  for (guint i = 0; i < lookup->gguf_files->len; i++)
    {
      const HrHubGgufFile *g = g_ptr_array_index (lookup->gguf_files, i);

      json_builder_begin_object (b);
      add_str (b, "path", g->path);
      add_str (b, "label", g->label);
      add_u64 (b, "size", g->size);
      add_u64 (b, "parts", g->parts);
      if (g->problem != NULL)
        add_str (b, "problem", g->problem);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_str (b, "gguf_chosen", lookup->gguf_chosen);
  if (lookup->gguf != NULL)
    {
      add_u64 (b, "gguf_parts_read", lookup->gguf_parts_read);
      if (lookup->spec != NULL)
        {
          add_u64 (b, "gguf_file_bytes", lookup->spec->file_bytes);
          add_u64 (b, "gguf_parameters", lookup->spec->parameters);
        }
    }
}

/* The projector of hr_hub_lookup_to_json(): the mmproj files, the one
 * read and its tensor bytes; a checkpoint's vision / audio tower. */
static void
add_projector (JsonBuilder       *b,
               const HrHubLookup *lookup)
{
  if (lookup->mmproj_files->len > 0)
    {
      json_builder_set_member_name (b, "mmproj_files");
      json_builder_begin_array (b);
      for (guint i = 0; i < lookup->mmproj_files->len; i++)
        {
          const HrHubFile *f = g_ptr_array_index (lookup->mmproj_files, i);

          json_builder_begin_object (b);
          add_str (b, "path", f->path);
          add_u64 (b, "size", f->size);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  if (lookup->mmproj_chosen != NULL)
    {
      add_str (b, "mmproj_chosen", lookup->mmproj_chosen);
      if (lookup->mmproj != NULL)
        add_u64 (b, "mmproj_tensor_bytes", hr_gguf_file_get_tensor_bytes (lookup->mmproj));
    }
  if (lookup->tower_tensors > 0)
    {
      json_builder_set_member_name (b, "tower");
      json_builder_begin_object (b);
      add_u64 (b, "tensors", lookup->tower_tensors);
      add_u64 (b, "parameters", lookup->tower_parameters);
      add_u64 (b, "bytes", lookup->tower_bytes);
      json_builder_end_object (b);
    }
}

/* Adds @name: [the strings of @strings]. */
static void
add_strings (JsonBuilder *b,
             const char  *name,
             GPtrArray   *strings)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (strings, i));
  json_builder_end_array (b);
}

/* The parameter count, per dtype with its source, and the count derived
 * from config.json beside it. */
static void
add_parameters (JsonBuilder       *b,
                const HrHubLookup *lookup)
{
  add_u64 (b, "parameters", lookup->parameters);
  add_str (b, "parameters_source", lookup->parameters_source);
  json_builder_set_member_name (b, "parameters_by_dtype");
  json_builder_begin_object (b);
  for (guint i = 0; i < lookup->parameters_by_dtype->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (lookup->parameters_by_dtype, i);

      add_u64 (b, d->dtype, d->parameters);
    }
  json_builder_end_object (b);
  if (!lookup->has_derived)
    return;
  add_u64 (b, "derived_parameters", lookup->derived.total);
  add_u64 (b, "derived_active_parameters", lookup->derived.active);
  json_builder_set_member_name (b, "derived_relative_difference");
  json_builder_add_double_value (b, lookup->derived_difference);
  if (lookup->derived_comparison != NULL)
    add_str (b, "derived_comparison", lookup->derived_comparison);
}

/* The tokenizer's cap and the BOS and EOS ids (null when not given). */
static void
add_tokens (JsonBuilder       *b,
            const HrHubLookup *lookup)
{
  json_builder_set_member_name (b, "tokenizer_model_max_length");
  if (lookup->has_tokenizer_max_length)
    json_builder_add_int_value (b, (gint64) MIN (lookup->tokenizer_max_length, G_MAXINT64));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "bos_token_id");
  if (lookup->bos_token_id >= 0)
    json_builder_add_int_value (b, lookup->bos_token_id);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "eos_token_ids");
  json_builder_begin_array (b);
  for (guint i = 0; i < lookup->eos_token_ids->len; i++)
    json_builder_add_int_value (b, g_array_index (lookup->eos_token_ids, gint64, i));
  json_builder_end_array (b);
}

/* The repository's files: count, total, weight files and the largest. */
static void
add_files (JsonBuilder       *b,
           const HrHubLookup *lookup)
{
  add_u64 (b, "file_count", lookup->files->len);
  add_u64 (b, "total_bytes", lookup->total_bytes);
  json_builder_set_member_name (b, "weight_files");
  json_builder_begin_array (b);
  for (guint i = 0; i < lookup->weight_files->len; i++)
    add_file (b, g_ptr_array_index (lookup->weight_files, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "largest_file");
  if (lookup->largest != NULL)
    add_file (b, lookup->largest);
  else
    json_builder_add_null_value (b);
}

/* The license (tag, name, file, title), whether it is non-commercial and
 * why, and whether the repository is gated. */
static void
add_license (JsonBuilder       *b,
             const HrHubLookup *lookup)
{
  add_str (b, "license", lookup->license);
  add_str (b, "license_name", lookup->license_name);
  add_str (b, "license_file", lookup->license_file);
  add_str (b, "license_title", lookup->license_title);
  if (lookup->license_unread != NULL)
    add_str (b, "license_unread", lookup->license_unread);
  json_builder_set_member_name (b, "non_commercial");
  json_builder_add_boolean_value (b, lookup->non_commercial);
  add_str (b, "non_commercial_reason", lookup->non_commercial_reason);
  add_str (b, "gated", lookup->gated);
}

/**
 * hr_hub_lookup_to_json:
 * @lookup: a lookup
 *
 * The lookup as JSON, the four answers in the seed's words: repo, sha,
 * architecture, model_type, parameters (and per dtype, with their source),
 * layers, hidden_size, intermediate_size, heads, kv_heads, head_dim, vocab,
 * max_position_embeddings, tokenizer_model_max_length, tied_embeddings,
 * bos/eos ids, kind with base_model and evidence, files, total bytes,
 * weight shards, largest file, license (tag, file, title, non_commercial),
 * GGUF files (each split's problem, the parts read, their bytes and
 * parameters), the derived count with its relative difference and its
 * comparison to the digit, a GGUF-only repository's context_length, and the
 * notes where two figures disagree.
 *
 * Returns: (transfer full): a JSON object node.
 */
JsonNode *
hr_hub_lookup_to_json (const HrHubLookup *lookup)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const HrHfConfig *c = lookup->config;

  json_builder_begin_object (b);
  add_str (b, "repo", lookup->repo);
  add_str (b, "revision", lookup->revision);
  add_str (b, "sha", lookup->sha);
  add_str (b, "architecture", lookup->architecture);
  add_str (b, "model_type", lookup->model_type);
  add_parameters (b, lookup);
  if (c != NULL)
    add_config (b, c);
  else
    add_str (b, "config_problem", lookup->config_problem);
  if (c == NULL && lookup->gguf != NULL && lookup->spec != NULL && lookup->spec->context_length > 0)
    add_u64 (b, "context_length", lookup->spec->context_length);
  add_tokens (b, lookup);
  add_u64 (b, "tensors", lookup->n_tensors);
  add_u64 (b, "tensor_bytes", lookup->tensor_bytes);
  if (lookup->unknown_dtypes != NULL)
    add_str (b, "unknown_dtypes", lookup->unknown_dtypes);
  if (lookup->kind != NULL)
    {
      add_str (b, "kind", hr_hf_kind_to_string (lookup->kind->kind));
      add_str (b, "base_model", lookup->kind->base_model);
      add_strings (b, "kind_evidence", lookup->kind->evidence);
    }
  add_files (b, lookup);
  add_license (b, lookup);
  add_gguf_files (b, lookup);
  add_projector (b, lookup);
  if (lookup->notes->len > 0)
    add_strings (b, "notes", lookup->notes);
  add_u64 (b, "requests", lookup->requests);
  add_u64 (b, "bytes_received", lookup->bytes_received);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
