/* hr-hub-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lookup runs in three steps, each as parallel as the protocol allows:
 *  1. the token (HF_TOKEN, else the keyring), then the model info at the
 *     revision, which gives the commit sha everything else is pinned to;
 *  2. in parallel: config.json, generation_config.json,
 *     tokenizer_config.json, the file tree (paged by Link rel="next"),
 *     model.safetensors.index.json, the LICENSE file when the license tag is
 *     not a well-known open one, and for GGUF repos one file's header;
 *  3. only when neither the API's safetensors field nor the index gives the
 *     parameter count: every safetensors shard's header, in parallel, by
 *     Range (bytes=0-100000, then the rest when the header is larger).
 * Redirects are followed by hand so the token goes to the Hub's own host
 * only. Every request has its own deadline (soup's timeout is inactivity
 * only) and a cap on the body it will read.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <string.h>
#ifdef HAVE_LIBSECRET
#include <libsecret/secret.h>
#endif

#include "hr-error.h"
#include "hr-hub-client.h"
#include "hr-net-error.h"
#include "hr-units.h"

#define MAX_REDIRECTS        10
#define MAX_TREE_PAGES       1000
#define CAP_SMALL_JSON       (4 * 1024 * 1024)    /* config, generation_config */
#define CAP_LARGE_JSON       (16 * 1024 * 1024)   /* model info, tokenizer_config, a tree page */
#define CAP_INDEX            (64 * 1024 * 1024)   /* an index can exceed 10 MB (hf-hub.md) */
#define CAP_LICENSE          (1024 * 1024)
#define GGUF_FIRST_READ      (1024 * 1024)
#define GGUF_MAX_READ        (64 * 1024 * 1024)
/* The keyring may need D-Bus activation; never wait longer than this. */
#define KEYRING_TIMEOUT_MS   5000

struct _HrHubClient {
  GObject      parent_instance;

  SoupSession *session;
  char        *endpoint;     /* no trailing slash */
  GUri        *endpoint_uri;
  char        *token;        /* NULL = none */
  gboolean     token_set;    /* given at construction (or HF_TOKEN) */
  gboolean     use_keyring;
  gboolean     keyring_done;
  guint        timeout_ms;
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
/* Result structs                                                      */

static void
hub_file_free (HrHubFile *file)
{
  g_free (file->path);
  g_free (file);
}

static HrHubFile *
hub_file_copy (const HrHubFile *file)
{
  HrHubFile *copy = g_new0 (HrHubFile, 1);

  copy->path = g_strdup (file->path);
  copy->size = file->size;
  copy->lfs = file->lfs;
  return copy;
}

static void
gguf_entry_free (HrHubGgufFile *file)
{
  g_free (file->path);
  g_free (file->label);
  g_free (file);
}

static void
dtype_free (HrSafetensorsDtype *d)
{
  g_free (d->dtype);
  g_free (d);
}

/**
 * hr_hub_lookup_free:
 * @lookup: (nullable): a lookup from hr_hub_client_lookup_finish()
 *
 * Frees @lookup and everything it holds.
 */
void
hr_hub_lookup_free (HrHubLookup *lookup)
{
  if (lookup == NULL)
    return;
  g_free (lookup->repo);
  g_free (lookup->revision);
  g_free (lookup->sha);
  g_free (lookup->page_url);
  g_free (lookup->gated);
  g_strfreev (lookup->tags);
  g_free (lookup->pipeline_tag);
  g_free (lookup->library_name);
  g_free (lookup->architecture);
  g_free (lookup->model_type);
  g_clear_pointer (&lookup->config, hr_hf_config_free);
  g_free (lookup->config_problem);
  g_free (lookup->parameters_source);
  g_clear_pointer (&lookup->parameters_by_dtype, g_ptr_array_unref);
  g_clear_pointer (&lookup->eos_token_ids, g_array_unref);
  g_clear_pointer (&lookup->kind, hr_hf_kind_evidence_free);
  g_clear_pointer (&lookup->files, g_ptr_array_unref);
  g_clear_pointer (&lookup->weight_files, g_ptr_array_unref);
  g_free (lookup->license);
  g_free (lookup->license_name);
  g_free (lookup->license_file);
  g_free (lookup->license_title);
  g_free (lookup->non_commercial_reason);
  g_clear_pointer (&lookup->gguf_files, g_ptr_array_unref);
  g_free (lookup->gguf_chosen);
  g_clear_pointer (&lookup->gguf, hr_gguf_file_unref);
  g_clear_pointer (&lookup->spec, hr_model_spec_free);
  g_free (lookup);
}

static HrHubLookup *
hub_lookup_new (void)
{
  HrHubLookup *lookup = g_new0 (HrHubLookup, 1);

  lookup->parameters_by_dtype = g_ptr_array_new_with_free_func ((GDestroyNotify) dtype_free);
  lookup->eos_token_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  lookup->files = g_ptr_array_new_with_free_func ((GDestroyNotify) hub_file_free);
  lookup->weight_files = g_ptr_array_new_with_free_func ((GDestroyNotify) hub_file_free);
  lookup->gguf_files = g_ptr_array_new_with_free_func ((GDestroyNotify) gguf_entry_free);
  lookup->bos_token_id = -1;
  return lookup;
}

/**
 * hr_hub_lookup_weight_precision:
 * @lookup: a lookup
 *
 * The precision the repository stores its weights at: the HrPrecision id of
 * the dtype holding the most parameters ("bf16" for Qwen2.5-3B-Instruct),
 * else config.json's dtype or quantization, else the GGUF file's type.
 *
 * Returns: (nullable): an HrPrecision id, or %NULL when unknown.
 */
const char *
hr_hub_lookup_weight_precision (const HrHubLookup *lookup)
{
  const HrSafetensorsDtype *best = NULL;

  g_return_val_if_fail (lookup != NULL, NULL);

  if (lookup->spec != NULL && lookup->spec->precision != NULL)
    return lookup->spec->precision;
  for (guint i = 0; i < lookup->parameters_by_dtype->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (lookup->parameters_by_dtype, i);

      if (best == NULL || d->parameters > best->parameters)
        best = d;
    }
  if (best != NULL && hr_hf_dtype_to_precision (best->dtype) != NULL)
    return hr_hf_dtype_to_precision (best->dtype);
  if (lookup->config != NULL)
    return hr_hf_config_precision (lookup->config);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* The client                                                          */

static void
hr_hub_client_finalize (GObject *object)
{
  HrHubClient *self = HR_HUB_CLIENT (object);

  g_clear_object (&self->session);
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

  self->session = g_object_new (SOUP_TYPE_SESSION,
                                "user-agent", "headroom/" PACKAGE_VERSION " ",
                                "max-conns-per-host", 8,
                                NULL);
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
   * https://huggingface.co (hf-hub.md, "Endpoint, auth, revision").
   */
  properties[PROP_ENDPOINT] =
    g_param_spec_string ("endpoint", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HrHubClient:token:
   *
   * The access token sent as `Authorization: Bearer` to the Hub's host only;
   * %NULL = `HF_TOKEN`, else the keyring; "" = send none.
   */
  properties[PROP_TOKEN] =
    g_param_spec_string ("token", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HrHubClient:use-keyring:
   *
   * Whether to look the token up in the keyring (libsecret schema
   * %HR_HUB_TOKEN_SCHEMA) when none was given and `HF_TOKEN` is not set.
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

/* The host part of a URI for messages: "huggingface.co" or "127.0.0.1:4242". */
static char *
uri_host_label (GUri *uri)
{
  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return g_strdup ("?");
  if (g_uri_get_port (uri) > 0)
    return g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
  return g_strdup (g_uri_get_host (uri));
}

/* Same scheme, host and port as the endpoint: the token may go there. */
static gboolean
is_hub_host (HrHubClient *self,
             GUri        *uri)
{
  GUri *hub = self->endpoint_uri;

  if (hub == NULL || uri == NULL)
    return FALSE;
  return g_ascii_strcasecmp (g_uri_get_scheme (hub), g_uri_get_scheme (uri)) == 0 &&
         g_uri_get_host (hub) != NULL && g_uri_get_host (uri) != NULL &&
         g_ascii_strcasecmp (g_uri_get_host (hub), g_uri_get_host (uri)) == 0 &&
         g_uri_get_port (hub) == g_uri_get_port (uri);
}

/* ------------------------------------------------------------------ */
/* One GET: manual redirects, a deadline, a body cap, optional Range    */

typedef struct {
  guint               status;
  SoupMessageHeaders *headers;
  GBytes             *body;
  char               *url;      /* the final URL */
  guint64             total;    /* the file's size from Content-Range / X-Linked-Size, 0 = unknown */
} HubResponse;

static void
hub_response_free (HubResponse *resp)
{
  g_clear_pointer (&resp->headers, soup_message_headers_unref);
  g_clear_pointer (&resp->body, g_bytes_unref);
  g_free (resp->url);
  g_free (resp);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HubResponse, hub_response_free)

typedef struct {
  HrHubClient   *client;
  char          *url;
  gint64         range_start;  /* -1 = no Range */
  gint64         range_end;    /* inclusive */
  gsize          cap;          /* body bytes read at most */
  guint          redirects;
  SoupMessage   *msg;
  GInputStream  *stream;
  GByteArray    *body;
  GCancellable  *cancellable;  /* ours, cancelled by the caller's or the deadline */
  GCancellable  *parent;
  gulong         parent_handler;
  GSource       *deadline;
  gboolean       timed_out;
  gboolean       ignored_range; /* a 200 to a Range request */
  guint64       *bytes_counter;
} Request;

static void
request_free (Request *req)
{
  if (req->deadline != NULL)
    {
      g_source_destroy (req->deadline);
      g_source_unref (req->deadline);
    }
  if (req->parent != NULL && req->parent_handler != 0)
    g_cancellable_disconnect (req->parent, req->parent_handler);
  g_clear_object (&req->parent);
  g_clear_object (&req->cancellable);
  g_clear_object (&req->stream);
  g_clear_object (&req->msg);
  g_clear_pointer (&req->body, g_byte_array_unref);
  g_free (req->url);
  g_clear_object (&req->client);
  g_free (req);
}

static void request_start (GTask *task);

static void
on_parent_cancelled (GCancellable *parent,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
on_deadline (gpointer user_data)
{
  Request *req = user_data;

  req->timed_out = TRUE;
  g_cancellable_cancel (req->cancellable);
  return G_SOURCE_REMOVE;
}

static void
request_return_error (GTask  *task,
                      GError *error)
{
  Request *req = g_task_get_task_data (task);

  if (req->stream != NULL)
    g_input_stream_close (req->stream, NULL, NULL);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && req->timed_out &&
      (req->parent == NULL || !g_cancellable_is_cancelled (req->parent)))
    {
      g_autoptr(GUri) uri = g_uri_parse (req->url, SOUP_HTTP_URI_FLAGS, NULL);
      g_autofree char *host = uri_host_label (uri);

      g_error_free (error);
      guint seconds = (req->client->timeout_ms + 999) / 1000;

      g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "%s did not answer within %u second: check the network or HF_ENDPOINT, then try again",
                                            "%s did not answer within %u seconds: check the network or HF_ENDPOINT, then try again",
                                            seconds),
                               host, seconds);
      return;
    }
  g_task_return_error (task, error);
}

/* A transport failure in words a person can act on. */
static GError *
transport_error (const char *url,
                 GError     *error)
{
  g_autoptr(GUri) uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  g_autofree char *host = uri_host_label (uri);
  HrNetError code = HR_NET_ERROR_FAILED;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);
  if (error->domain == G_RESOLVER_ERROR)
    code = HR_NET_ERROR_RESOLVE;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    code = HR_NET_ERROR_CONNECTION_REFUSED;
  else if (error->domain == G_TLS_ERROR)
    code = HR_NET_ERROR_TLS;
  g_debug ("%s: %s", url, error->message);
  return g_error_new (HR_NET_ERROR, code,
                      _("Could not reach %s — check the network or HF_ENDPOINT"), host);
}

static void
request_finish_ok (GTask *task)
{
  Request *req = g_task_get_task_data (task);
  HubResponse *resp = g_new0 (HubResponse, 1);
  SoupMessageHeaders *headers = soup_message_get_response_headers (req->msg);
  goffset start = 0, end = 0, total = 0;
  const char *linked;

  if (req->stream != NULL)
    g_input_stream_close (req->stream, NULL, NULL);

  resp->status = soup_message_get_status (req->msg);
  resp->headers = soup_message_headers_ref (headers);
  resp->url = g_strdup (req->url);

  if (req->ignored_range && req->range_start > 0)
    {
      /* The server sent the whole file: keep the bytes asked for. */
      gsize skip = MIN ((gsize) req->range_start, req->body->len);

      g_byte_array_remove_range (req->body, 0, skip);
      resp->status = SOUP_STATUS_PARTIAL_CONTENT;
    }
  else if (req->ignored_range)
    resp->status = SOUP_STATUS_PARTIAL_CONTENT;
  resp->body = g_byte_array_free_to_bytes (g_steal_pointer (&req->body));

  if (soup_message_headers_get_content_range (headers, &start, &end, &total) && total > 0)
    resp->total = (guint64) total;
  else if ((linked = soup_message_headers_get_one (headers, "X-Linked-Size")) != NULL)
    g_ascii_string_to_unsigned (linked, 10, 0, G_MAXUINT64, &resp->total, NULL);

  g_task_return_pointer (task, resp, (GDestroyNotify) hub_response_free);
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *req = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) chunk = NULL;
  gsize size;

  chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (chunk == NULL)
    {
      request_return_error (task, transport_error (req->url, error));
      return;
    }
  size = g_bytes_get_size (chunk);
  if (size == 0)
    {
      request_finish_ok (task);
      return;
    }
  if (req->bytes_counter != NULL)
    *req->bytes_counter += size;
  if (req->body->len + size > req->cap)
    {
      if (req->ignored_range)
        {
          /* Enough of a file the server would not cut: abort it here. */
          g_byte_array_append (req->body, g_bytes_get_data (chunk, NULL), req->cap - req->body->len);
          request_finish_ok (task);
          return;
        }
      else
        {
          g_autoptr(GUri) uri = g_uri_parse (req->url, SOUP_HTTP_URI_FLAGS, NULL);

          request_return_error (task,
                                g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                                             _("The Hub sent more than %" G_GSIZE_FORMAT " bytes for %s: refusing to read further"),
                                             req->cap, uri ? g_uri_get_path (uri) : req->url));
          return;
        }
    }
  g_byte_array_append (req->body, g_bytes_get_data (chunk, NULL), size);
  if (req->body->len == req->cap && req->ignored_range)
    {
      request_finish_ok (task);
      return;
    }
  g_input_stream_read_bytes_async (req->stream, MIN (65536, req->cap - req->body->len + 1),
                                   G_PRIORITY_DEFAULT, req->cancellable, on_read,
                                   g_steal_pointer (&task));
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *req = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  guint status;

  req->stream = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (req->stream == NULL)
    {
      request_return_error (task, transport_error (req->url, error));
      return;
    }

  status = soup_message_get_status (req->msg);
  if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308)
    {
      const char *location = soup_message_headers_get_one (soup_message_get_response_headers (req->msg), "Location");
      g_autofree char *next = NULL;

      g_input_stream_close (req->stream, NULL, NULL);
      g_clear_object (&req->stream);
      if (location != NULL)
        next = g_uri_resolve_relative (req->url, location, SOUP_HTTP_URI_FLAGS, NULL);
      if (next == NULL || ++req->redirects > MAX_REDIRECTS)
        {
          g_autoptr(GUri) uri = g_uri_parse (req->url, SOUP_HTTP_URI_FLAGS, NULL);
          g_autofree char *host = uri_host_label (uri);

          request_return_error (task,
                                g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                             _("%s redirected too often or without a valid Location: check HF_ENDPOINT"),
                                             host));
          return;
        }
      g_free (req->url);
      req->url = g_steal_pointer (&next);
      g_clear_object (&req->msg);
      request_start (g_steal_pointer (&task));
      return;
    }

  req->body = g_byte_array_new ();
  if (req->range_start >= 0 && status == SOUP_STATUS_OK)
    {
      /* The server ignored Range: read only up to the end asked for. */
      req->ignored_range = TRUE;
      req->cap = (gsize) req->range_end + 1;
    }
  g_input_stream_read_bytes_async (req->stream, MIN (65536, req->cap + 1), G_PRIORITY_DEFAULT,
                                   req->cancellable, on_read, g_steal_pointer (&task));
}

static void
request_start (GTask *task)
{
  Request *req = g_task_get_task_data (task);
  g_autoptr(GUri) uri = g_uri_parse (req->url, SOUP_HTTP_URI_FLAGS, NULL);
  SoupMessageHeaders *headers;

  if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                      g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      request_return_error (task,
                            g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                                         _("“%s” is not an http or https address: check HF_ENDPOINT"),
                                         req->url));
      g_object_unref (task);
      return;
    }
  req->msg = soup_message_new_from_uri (SOUP_METHOD_GET, uri);
  soup_message_add_flags (req->msg, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (req->msg);
  if (req->client->token != NULL && is_hub_host (req->client, uri))
    {
      g_autofree char *bearer = g_strdup_printf ("Bearer %s", req->client->token);

      soup_message_headers_replace (headers, "Authorization", bearer);
    }
  if (req->range_start >= 0)
    soup_message_headers_set_range (headers, req->range_start, req->range_end);

  soup_session_send_async (req->client->session, req->msg, G_PRIORITY_DEFAULT,
                           req->cancellable, on_sent, task);
}

static void
hub_get_async (HrHubClient         *self,
               const char          *url,
               gint64               range_start,
               gint64               range_end,
               gsize                cap,
               guint64             *bytes_counter,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Request *req = g_new0 (Request, 1);

  g_task_set_source_tag (task, hub_get_async);
  req->client = g_object_ref (self);
  req->url = g_strdup (url);
  req->range_start = range_start;
  req->range_end = range_end;
  req->cap = range_start >= 0 ? (gsize) (range_end - range_start + 1) : cap;
  req->bytes_counter = bytes_counter;
  req->cancellable = g_cancellable_new ();
  g_task_set_task_data (task, req, (GDestroyNotify) request_free);

  if (cancellable != NULL)
    {
      req->parent = g_object_ref (cancellable);
      req->parent_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_parent_cancelled),
                                                   g_object_ref (req->cancellable), g_object_unref);
    }
  req->deadline = g_timeout_source_new (self->timeout_ms);
  g_source_set_callback (req->deadline, on_deadline, req, NULL);
  g_source_attach (req->deadline, g_main_context_get_thread_default ());

  request_start (task);
}

static HubResponse *
hub_get_finish (HrHubClient   *self,
                GAsyncResult  *result,
                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Errors of the Hub (hf-hub.md, "Errors")                              */

static guint
retry_after_seconds (SoupMessageHeaders *headers)
{
  const char *value = soup_message_headers_get_one (headers, "Retry-After");
  guint64 seconds;

  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 0, 86400, &seconds, NULL))
    return (guint) seconds;
  value = soup_message_headers_get_one (headers, "RateLimit");
  if (value != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (value, ";", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          const char *p = g_strstrip (parts[i]);

          if (g_str_has_prefix (p, "t=") &&
              g_ascii_string_to_unsigned (p + 2, 10, 0, 86400, &seconds, NULL))
            return (guint) seconds;
        }
    }
  return 0;
}

/* The Hub's own text: X-Error-Message, else the JSON body's "error". */
static char *
hub_error_text (HubResponse *resp)
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
static GError *
hub_status_error (HrHubClient *self,
                  HubResponse *resp,
                  const char  *repo,
                  const char  *revision,
                  const char  *what)
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
      guint seconds = retry_after_seconds (resp->headers);

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

typedef enum {
  PART_CONFIG,
  PART_GENERATION,
  PART_TOKENIZER,
  PART_INDEX,
  PART_LICENSE,
  PART_TREE,
  PART_GGUF,
  PART_HEADER,
} PartKind;

typedef struct {
  HrHubClient  *client;
  char         *repo;
  char         *revision;
  GCancellable *cancellable;   /* cancels every request of the lookup */
  GCancellable *parent;
  gulong        parent_handler;
  guint         pending;
  GError       *error;         /* the first failure */
  HrHubLookup  *result;

  JsonNode     *info;          /* model info */
  GBytes       *config;
  GBytes       *generation;
  GBytes       *tokenizer;
  GBytes       *index;
  GBytes       *license;
  char         *license_path;
  char         *index_path;
  char         *gguf_path;
  guint64       gguf_size;
  gint64        gguf_read;     /* bytes asked for in the last GGUF read */
  GPtrArray    *siblings;      /* char* paths from the model info */
  GPtrArray    *headers;       /* HrSafetensorsHeader* */
  gboolean      api_parameters;
  gboolean      headers_phase;
  GCancellable *keyring_cancellable;
  gulong        keyring_handler;
  GSource      *keyring_timer;
} Lookup;

typedef struct {
  GTask    *task;   /* the lookup's */
  PartKind  kind;
  char     *path;
  char     *url;    /* for tree pages */
  guint     page;
  guint64   file_size;
} Part;

static void
part_free (Part *part)
{
  g_clear_object (&part->task);
  g_free (part->path);
  g_free (part->url);
  g_free (part);
}

static void
keyring_stop (Lookup *lk)
{
  if (lk->keyring_timer != NULL)
    {
      g_source_destroy (lk->keyring_timer);
      g_clear_pointer (&lk->keyring_timer, g_source_unref);
    }
  if (lk->keyring_handler != 0)
    {
      g_cancellable_disconnect (lk->cancellable, lk->keyring_handler);
      lk->keyring_handler = 0;
    }
}

static void
lookup_free (Lookup *lk)
{
  keyring_stop (lk);
  g_clear_object (&lk->keyring_cancellable);
  if (lk->parent != NULL && lk->parent_handler != 0)
    g_cancellable_disconnect (lk->parent, lk->parent_handler);
  g_clear_object (&lk->parent);
  g_clear_object (&lk->cancellable);
  g_clear_object (&lk->client);
  g_free (lk->repo);
  g_free (lk->revision);
  g_clear_error (&lk->error);
  g_clear_pointer (&lk->result, hr_hub_lookup_free);
  g_clear_pointer (&lk->info, json_node_unref);
  g_clear_pointer (&lk->config, g_bytes_unref);
  g_clear_pointer (&lk->generation, g_bytes_unref);
  g_clear_pointer (&lk->tokenizer, g_bytes_unref);
  g_clear_pointer (&lk->index, g_bytes_unref);
  g_clear_pointer (&lk->license, g_bytes_unref);
  g_free (lk->license_path);
  g_free (lk->index_path);
  g_free (lk->gguf_path);
  g_clear_pointer (&lk->siblings, g_ptr_array_unref);
  g_clear_pointer (&lk->headers, g_ptr_array_unref);
  g_free (lk);
}

/* The first error wins; the rest of the lookup's requests are cancelled. */
static void
lookup_fail (Lookup *lk,
             GError *error)
{
  if (lk->error == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      lk->error = error;
      g_cancellable_cancel (lk->cancellable);
    }
  else if (lk->error == NULL && lk->parent != NULL && g_cancellable_is_cancelled (lk->parent))
    lk->error = error;
  else
    g_error_free (error);
}

static char *
api_url (Lookup     *lk,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static char *
api_url (Lookup     *lk,
         const char *format,
         ...)
{
  va_list args;
  g_autofree char *tail = NULL;

  va_start (args, format);
  tail = g_strdup_vprintf (format, args);
  va_end (args);
  return g_strconcat (lk->client->endpoint, tail, NULL);
}

static char *
resolve_url (Lookup     *lk,
             const char *path)
{
  g_autofree char *escaped = g_uri_escape_string (path, "/", FALSE);

  return api_url (lk, "/%s/resolve/%s/%s", lk->repo, lk->result->sha, escaped);
}

static void lookup_step_done (GTask *task);
static void start_part (GTask *task, PartKind kind, const char *path, gint64 start, gint64 end, gsize cap);

static const char *
json_string (JsonObject *obj,
             const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

static JsonObject *
json_object_member (JsonObject *obj,
                    const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);
  return NULL;
}

static gboolean
json_u64 (JsonNode *node,
          guint64  *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64 && json_node_get_int (node) >= 0)
    {
      *out = (guint64) json_node_get_int (node);
      return TRUE;
    }
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);

      if (v >= 0.0 && v < 18446744073709551616.0 && v == (double) (guint64) v)
        {
          *out = (guint64) v;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
has_sibling (Lookup     *lk,
             const char *path)
{
  for (guint i = 0; i < lk->siblings->len; i++)
    if (strcmp (g_ptr_array_index (lk->siblings, i), path) == 0)
      return TRUE;
  return FALSE;
}

/* A top-level LICENSE, LICENSE.txt, LICENSE.md, LICENCE ... */
static const char *
find_license_sibling (Lookup *lk)
{
  for (guint i = 0; i < lk->siblings->len; i++)
    {
      const char *path = g_ptr_array_index (lk->siblings, i);
      g_autofree char *upper = g_ascii_strup (path, -1);

      if (strchr (path, '/') == NULL &&
          (g_str_has_prefix (upper, "LICENSE") || g_str_has_prefix (upper, "LICENCE")))
        return path;
    }
  return NULL;
}

/* Reads the model info: sha, tags, card data, the API's safetensors and gguf
 * fields, siblings. Returns FALSE with an error when it is not usable. */
static gboolean
read_model_info (Lookup     *lk,
                 GBytes     *body,
                 GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  HrHubLookup *r = lk->result;
  JsonObject *obj, *card, *st, *config;
  JsonNode *node;
  gsize size;
  const char *data = g_bytes_get_data (body, &size);
  const char *sha;

  if (size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                   _("The Hub's model information for %s is not a JSON object: check HF_ENDPOINT"), lk->repo);
      return FALSE;
    }
  lk->info = json_node_ref (json_parser_get_root (parser));
  obj = json_node_get_object (lk->info);

  sha = json_string (obj, "sha");
  if (sha == NULL || strlen (sha) != 40 || strspn (sha, "0123456789abcdef") != 40)
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                   _("The Hub's model information for %s has no commit sha: check HF_ENDPOINT"), lk->repo);
      return FALSE;
    }
  r->sha = g_strdup (sha);
  if (json_string (obj, "id") != NULL)
    {
      g_autofree char *id = NULL;
      g_autofree char *id_rev = NULL;

      /* The Hub spells the name (a renamed repo answers with its new id). */
      if (hr_hf_repo_parse (json_string (obj, "id"), &id, &id_rev, NULL) && id_rev == NULL)
        {
          g_free (r->repo);
          r->repo = g_steal_pointer (&id);
          /* A renamed repo: later requests go straight to the new name. */
          g_free (lk->repo);
          lk->repo = g_strdup (r->repo);
        }
    }
  r->page_url = g_strdup_printf ("%s/%s", lk->client->endpoint, r->repo);
  node = json_object_get_member (obj, "gated");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    r->gated = g_strdup (json_node_get_string (node));
  r->pipeline_tag = g_strdup (json_string (obj, "pipeline_tag"));
  r->library_name = g_strdup (json_string (obj, "library_name"));

  node = json_object_get_member (obj, "tags");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *tags = json_node_get_array (node);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (tags); i++)
        {
          JsonNode *t = json_array_get_element (tags, i);

          if (JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_STRING)
            {
              const char *tag = json_node_get_string (t);

              g_strv_builder_add (builder, tag);
              if (r->license == NULL && g_str_has_prefix (tag, "license:"))
                r->license = g_strdup (tag + strlen ("license:"));
            }
        }
      r->tags = g_strv_builder_end (builder);
    }

  card = json_object_member (obj, "cardData");
  if (card != NULL)
    {
      node = json_object_get_member (card, "license");
      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_free (r->license);
          r->license = g_strdup (json_node_get_string (node));
        }
      r->license_name = g_strdup (json_string (card, "license_name"));
    }

  config = json_object_member (obj, "config");
  if (config != NULL)
    {
      JsonNode *archs = json_object_get_member (config, "architectures");

      r->model_type = g_strdup (json_string (config, "model_type"));
      if (archs != NULL && JSON_NODE_HOLDS_ARRAY (archs) &&
          json_array_get_length (json_node_get_array (archs)) > 0)
        {
          JsonNode *first = json_array_get_element (json_node_get_array (archs), 0);

          if (JSON_NODE_HOLDS_VALUE (first) && json_node_get_value_type (first) == G_TYPE_STRING)
            r->architecture = g_strdup (json_node_get_string (first));
        }
    }

  st = json_object_member (obj, "safetensors");
  if (st != NULL)
    {
      JsonObject *params = json_object_member (st, "parameters");
      guint64 total = 0;

      if (params != NULL)
        {
          g_autoptr(GList) dtypes = json_object_get_members (params);

          for (GList *l = dtypes; l != NULL; l = l->next)
            {
              guint64 count;

              if (json_u64 (json_object_get_member (params, l->data), &count))
                {
                  HrSafetensorsDtype *d = g_new0 (HrSafetensorsDtype, 1);
                  guint bits = hr_safetensors_dtype_bits (l->data);

                  d->dtype = g_strdup (l->data);
                  d->parameters = count;
                  if (bits % 8 == 0 && bits > 0)
                    hr_mul_u64 (count, bits / 8, &d->bytes);
                  g_ptr_array_add (r->parameters_by_dtype, d);
                }
            }
        }
      if (json_u64 (json_object_get_member (st, "total"), &total) && total > 0)
        {
          r->parameters = total;
          r->parameters_source = g_strdup (_("the Hub API (safetensors field)"));
          lk->api_parameters = TRUE;
        }
    }

  node = json_object_get_member (obj, "siblings");
  lk->siblings = g_ptr_array_new_with_free_func (g_free);
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *siblings = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (siblings); i++)
        {
          JsonNode *s = json_array_get_element (siblings, i);
          const char *name = JSON_NODE_HOLDS_OBJECT (s) ? json_string (json_node_get_object (s), "rfilename") : NULL;

          if (name != NULL && strstr (name, "..") == NULL && name[0] != '/')
            g_ptr_array_add (lk->siblings, g_strdup (name));
        }
    }
  return TRUE;
}

static gint
compare_gguf_entry (gconstpointer a,
                    gconstpointer b)
{
  const HrHubGgufFile *fa = *(HrHubGgufFile * const *) a;
  const HrHubGgufFile *fb = *(HrHubGgufFile * const *) b;

  return strcmp (fa->path, fb->path);
}

/* The tree gives the sizes; GGUF files are grouped and labelled here. */
static void
read_tree_files (Lookup *lk)
{
  HrHubLookup *r = lk->result;
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean have_safetensors = FALSE;

  r->total_bytes = 0;
  r->largest = NULL;
  for (guint i = 0; i < r->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (r->files, i);

      hr_add_u64 (r->total_bytes, f->size, &r->total_bytes);
      if (r->largest == NULL || f->size > r->largest->size)
        r->largest = f;
      if (g_str_has_suffix (f->path, ".safetensors"))
        have_safetensors = TRUE;
    }
  for (guint i = 0; i < r->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (r->files, i);
      gboolean weight = have_safetensors ? g_str_has_suffix (f->path, ".safetensors")
                                         : (g_str_has_suffix (f->path, ".bin") || g_str_has_suffix (f->path, ".pt") ||
                                            g_str_has_suffix (f->path, ".pth"));

      if (weight)
        {
          g_ptr_array_add (r->weight_files, hub_file_copy (f));
          hr_add_u64 (r->weight_file_bytes, f->size, &r->weight_file_bytes);
        }
      if (g_str_has_suffix (f->path, ".gguf"))
        {
          guint part = 1, parts = 1;
          g_autofree char *key = NULL;
          HrHubGgufFile *entry;

          if (hr_hf_gguf_split_part (f->path, &part, &parts))
            key = g_strndup (f->path, strlen (f->path) - 20);
          else
            key = g_strdup (f->path);
          entry = g_hash_table_lookup (groups, key);
          if (entry == NULL)
            {
              entry = g_new0 (HrHubGgufFile, 1);
              entry->label = hr_hf_gguf_quant_label (f->path);
              entry->parts = parts;
              g_ptr_array_add (r->gguf_files, entry);
              g_hash_table_insert (groups, g_steal_pointer (&key), entry);
            }
          if (part == 1)
            {
              g_free (entry->path);
              entry->path = g_strdup (f->path);
            }
          hr_add_u64 (entry->size, f->size, &entry->size);
        }
    }
  for (guint i = 0; i < r->gguf_files->len; i++)
    {
      HrHubGgufFile *entry = g_ptr_array_index (r->gguf_files, i);

      if (entry->path == NULL)
        entry->path = g_strdup ("?");
    }
  g_ptr_array_sort (r->gguf_files, compare_gguf_entry);
}

static gboolean
read_tree_page (Lookup      *lk,
                HubResponse *resp,
                GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  gsize size;
  const char *data = g_bytes_get_data (resp->body, &size);
  JsonArray *entries;

  if (size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, NULL) ||
      json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                   _("The Hub's file list for %s is not a JSON array: check HF_ENDPOINT"), lk->repo);
      return FALSE;
    }
  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *e = json_array_get_element (entries, i);
      JsonObject *o;
      const char *type, *path;
      HrHubFile *file;
      guint64 size_value = 0;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        continue;
      o = json_node_get_object (e);
      type = json_string (o, "type");
      path = json_string (o, "path");
      if (type == NULL || strcmp (type, "file") != 0 || path == NULL)
        continue;
      if (!json_u64 (json_object_get_member (o, "size"), &size_value))
        {
          JsonObject *lfs = json_object_member (o, "lfs");

          if (lfs == NULL || !json_u64 (json_object_get_member (lfs, "size"), &size_value))
            {
              g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                           _("The Hub's file list for %s gives no size for %s"), lk->repo, path);
              return FALSE;
            }
        }
      file = g_new0 (HrHubFile, 1);
      file->path = g_strdup (path);
      file->size = size_value;
      file->lfs = json_object_member (o, "lfs") != NULL;
      g_ptr_array_add (lk->result->files, file);
    }
  return TRUE;
}

/* Link: <https://...>; rel="next" */
static char *
link_next (HubResponse *resp)
{
  const char *link = soup_message_headers_get_list (resp->headers, "Link");
  g_auto(GStrv) parts = NULL;

  if (link == NULL)
    return NULL;
  parts = g_strsplit (link, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *p = g_strstrip (parts[i]);
      const char *lt = strchr (p, '<');
      const char *gt = lt ? strchr (lt, '>') : NULL;

      if (lt != NULL && gt != NULL && strstr (gt, "rel=\"next\"") != NULL)
        {
          g_autofree char *target = g_strndup (lt + 1, gt - lt - 1);

          return g_uri_resolve_relative (resp->url, target, SOUP_HTTP_URI_FLAGS, NULL);
        }
    }
  return NULL;
}

static gboolean
gguf_read_more (Lookup  *lk,
                GError  *parse_error)
{
  return g_error_matches (parse_error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED) &&
         lk->gguf_read < GGUF_MAX_READ &&
         (lk->gguf_size == 0 || (guint64) lk->gguf_read < lk->gguf_size);
}

static void
on_part (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Part *part = user_data;
  GTask *task = part->task;
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(HubResponse) resp = hub_get_finish (HR_HUB_CLIENT (source), result, &error);

  lk->result->requests++;
  if (resp == NULL)
    {
      lookup_fail (lk, g_steal_pointer (&error));
      goto done;
    }
  if (lk->error != NULL)
    goto done;
  if (resp->status < 200 || resp->status >= 300)
    {
      lookup_fail (lk, hub_status_error (lk->client, resp, lk->repo, lk->revision, part->path));
      goto done;
    }

  switch (part->kind)
    {
    case PART_CONFIG:
      lk->config = g_bytes_ref (resp->body);
      break;
    case PART_GENERATION:
      lk->generation = g_bytes_ref (resp->body);
      break;
    case PART_TOKENIZER:
      lk->tokenizer = g_bytes_ref (resp->body);
      break;
    case PART_INDEX:
      lk->index = g_bytes_ref (resp->body);
      break;
    case PART_LICENSE:
      lk->license = g_bytes_ref (resp->body);
      break;
    case PART_TREE:
      {
        g_autofree char *next = NULL;

        if (!read_tree_page (lk, resp, &error))
          {
            lookup_fail (lk, g_steal_pointer (&error));
            break;
          }
        next = link_next (resp);
        if (next != NULL)
          {
            Part *more;

            if (part->page + 1 >= MAX_TREE_PAGES)
              {
                lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                                              _("The file list of %s runs past %u pages: refusing to read further"),
                                              lk->repo, MAX_TREE_PAGES));
                break;
              }
            more = g_new0 (Part, 1);
            more->task = g_object_ref (task);
            more->kind = PART_TREE;
            more->path = g_strdup (part->path);
            more->page = part->page + 1;
            lk->pending++;
            hub_get_async (lk->client, next, -1, -1, CAP_LARGE_JSON, &lk->result->bytes_received,
                           lk->cancellable, on_part, more);
          }
      }
      break;
    case PART_GGUF:
      {
        gsize size;
        const guint8 *data = g_bytes_get_data (resp->body, &size);
        g_autoptr(HrGgufFile) gguf = NULL;

        if (resp->total > 0)
          lk->gguf_size = resp->total;
        gguf = hr_gguf_file_parse_data (data, size, &error);
        if (gguf == NULL && gguf_read_more (lk, error) && size == (gsize) lk->gguf_read)
          {
            lk->gguf_read *= 2;
            start_part (task, PART_GGUF, lk->gguf_path, 0, lk->gguf_read - 1, 0);
            break;
          }
        if (gguf == NULL)
          {
            lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                          _("The GGUF header of %s could not be read: %s"),
                                          lk->gguf_path, error->message));
            break;
          }
        if (lk->gguf_size > 0)
          hr_gguf_file_set_file_bytes (gguf, lk->gguf_size);
        lk->result->gguf_header_bytes_read = size;
        lk->result->gguf = g_steal_pointer (&gguf);
      }
      break;
    case PART_HEADER:
      {
        gsize size;
        const guint8 *data = g_bytes_get_data (resp->body, &size);
        g_autoptr(HrSafetensorsHeader) header = NULL;
        guint64 n;

        if (size >= 8 && part->url == NULL)
          {
            /* First read (bytes 0-100000). */
            if (!hr_safetensors_header_length (data, size, &n, &error))
              {
                lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                              _("The safetensors header of %s could not be read: %s"),
                                              part->path, error->message));
                break;
              }
            if (resp->total > 0 && n + 8 > resp->total)
              {
                lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                              _("The safetensors header of %s claims %" G_GUINT64_FORMAT " bytes, more than the file holds"),
                                              part->path, n));
                break;
              }
            if (n + 8 > size)
              {
                if (size < HR_SAFETENSORS_PROBE_BYTES)
                  {
                    lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                                                  _("The safetensors file %s ends inside its header"), part->path));
                    break;
                  }
                /* The rest of a large header: bytes 8 .. N+7. */
                start_part (task, PART_HEADER, part->path, 8, (gint64) n + 7, 0);
                break;
              }
            header = hr_safetensors_header_parse (data, size, &error);
          }
        else
          header = hr_safetensors_header_parse_json ((const char *) data, size, &error);

        if (header == NULL)
          {
            lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                          _("The safetensors header of %s could not be read: %s"),
                                          part->path, error ? error->message : "?"));
            break;
          }
        g_ptr_array_add (lk->headers, g_steal_pointer (&header));
      }
      break;
    default:
      g_assert_not_reached ();
    }

done:
  lk->pending--;
  if (lk->pending == 0)
    lookup_step_done (task);
  part_free (part);
}

/* Starts one request of the lookup. For PART_HEADER, start/end select the
 * Range; a second-read part is marked by a non-NULL url. */
static void
start_part (GTask      *task,
            PartKind    kind,
            const char *path,
            gint64      start,
            gint64      end,
            gsize       cap)
{
  Lookup *lk = g_task_get_task_data (task);
  Part *part = g_new0 (Part, 1);
  g_autofree char *url = NULL;

  part->task = g_object_ref (task);
  part->kind = kind;
  part->path = g_strdup (path);
  if (kind == PART_TREE)
    {
      url = api_url (lk, "/api/models/%s/tree/%s?recursive=true", lk->repo, lk->result->sha);
    }
  else
    url = resolve_url (lk, path);
  if (kind == PART_HEADER && start > 0)
    part->url = g_strdup (url);
  lk->pending++;
  hub_get_async (lk->client, url, start, end, cap, &lk->result->bytes_received,
                 lk->cancellable, on_part, part);
}

/* After the second step: parse what came, and read headers if needed. */
static void
assemble (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHubLookup *r = lk->result;
  g_autoptr(HrHfTokenizerConfig) tokenizer = NULL;
  g_autoptr(HrHfGenerationConfig) generation = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *card;
  const char *card_base = NULL;

  if (lk->config != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (lk->config, &size);

      r->config = hr_hf_config_parse (data, size, &error);
      if (r->config == NULL)
        {
          r->config_problem = g_strdup (error->message);
          g_clear_error (&error);
        }
      else
        {
          if (r->config->architecture != NULL)
            {
              g_free (r->architecture);
              r->architecture = g_strdup (r->config->architecture);
            }
          if (r->config->model_type != NULL)
            {
              g_free (r->model_type);
              r->model_type = g_strdup (r->config->model_type);
            }
          r->has_derived = hr_hf_config_count_parameters (r->config, &r->derived, NULL);
          if (r->config->bos_token_id >= 0)
            r->bos_token_id = r->config->bos_token_id;
          g_array_append_vals (r->eos_token_ids, r->config->eos_token_ids->data, r->config->eos_token_ids->len);
        }
    }
  else
    r->config_problem = g_strdup (_("the repository has no config.json"));

  if (lk->tokenizer != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (lk->tokenizer, &size);

      tokenizer = hr_hf_tokenizer_config_parse (data, size, NULL);
      if (tokenizer != NULL && tokenizer->has_model_max_length)
        {
          r->has_tokenizer_max_length = TRUE;
          r->tokenizer_max_length = tokenizer->model_max_length;
        }
    }
  if (lk->generation != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (lk->generation, &size);

      generation = hr_hf_generation_config_parse (data, size, NULL);
      if (generation != NULL)
        {
          /* generation_config.json is what a runtime stops on: it wins. */
          if (generation->bos_token_id >= 0)
            r->bos_token_id = generation->bos_token_id;
          if (generation->eos_token_ids->len > 0)
            {
              g_array_set_size (r->eos_token_ids, 0);
              g_array_append_vals (r->eos_token_ids, generation->eos_token_ids->data,
                                   generation->eos_token_ids->len);
            }
        }
    }

  card = lk->info != NULL ? json_object_member (json_node_get_object (lk->info), "cardData") : NULL;
  if (card != NULL)
    {
      JsonNode *base = json_object_get_member (card, "base_model");

      if (base != NULL && JSON_NODE_HOLDS_VALUE (base) && json_node_get_value_type (base) == G_TYPE_STRING)
        card_base = json_node_get_string (base);
      else if (base != NULL && JSON_NODE_HOLDS_ARRAY (base) &&
               json_array_get_length (json_node_get_array (base)) > 0)
        {
          JsonNode *first = json_array_get_element (json_node_get_array (base), 0);

          if (JSON_NODE_HOLDS_VALUE (first) && json_node_get_value_type (first) == G_TYPE_STRING)
            card_base = json_node_get_string (first);
        }
    }
  r->kind = hr_hf_kind_evidence (r->repo, (const char * const *) r->tags, card_base, tokenizer, generation);

  /* License: the tag, and the file when the tag is not a known open one. */
  if (hr_hf_license_tag_non_commercial (r->license))
    {
      r->non_commercial = TRUE;
      r->non_commercial_reason = g_strdup_printf (_("the license tag %s is non-commercial"), r->license);
    }
  if (lk->license != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (lk->license, &size);
      g_autoptr(HrHfLicenseFile) file = hr_hf_license_file_read (data, size);

      r->license_file = g_strdup (lk->license_path);
      r->license_title = g_strdup (file->title);
      if (file->non_commercial && !r->non_commercial)
        {
          r->non_commercial = TRUE;
          r->non_commercial_reason = g_strdup_printf (_("%s says “%s”"), lk->license_path, file->phrase);
        }
    }

  /* Index: tensor count and, without the API's figure, the parameters. */
  if (lk->index != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (lk->index, &size);
      g_autoptr(HrSafetensorsIndex) index = hr_safetensors_index_parse (data, size, NULL);

      if (index != NULL)
        {
          r->n_tensors = index->n_tensors;
          if (index->has_total_size)
            r->tensor_bytes = index->total_size;
          if (!lk->api_parameters && index->has_total_size && r->config != NULL)
            {
              const char *precision = hr_hf_config_precision (r->config);
              const char *dtype = r->config->dtype;
              guint bytes_per = 0;

              if (g_strcmp0 (precision, "bf16") == 0 || g_strcmp0 (precision, "fp16") == 0)
                bytes_per = 2;
              else if (g_strcmp0 (precision, "fp32") == 0)
                bytes_per = 4;
              if (bytes_per > 0 && r->config->quant_method == NULL &&
                  index->total_size % bytes_per == 0)
                {
                  HrSafetensorsDtype *d = g_new0 (HrSafetensorsDtype, 1);

                  r->parameters = index->total_size / bytes_per;
                  r->parameters_source = g_strdup_printf (_("model.safetensors.index.json total_size / %u bytes (%s)"),
                                                          bytes_per, dtype ? dtype : precision);
                  d->dtype = g_strdup (bytes_per == 4 ? "F32" : g_strcmp0 (precision, "bf16") == 0 ? "BF16" : "F16");
                  d->parameters = r->parameters;
                  d->bytes = index->total_size;
                  g_ptr_array_add (r->parameters_by_dtype, d);
                }
            }
        }
    }
}

static void
finish_lookup (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHubLookup *r = lk->result;
  g_autoptr(GError) error = NULL;
  g_autofree char *origin = g_strdup_printf ("hf:%s@%s", r->repo, r->sha);

  if (lk->headers != NULL && lk->headers->len > 0)
    {
      guint n_files = lk->headers->len;
      g_autoptr(HrSafetensorsHeader) sum = g_ptr_array_steal_index (lk->headers, 0);

      for (guint i = 0; i < lk->headers->len; i++)
        {
          HrSafetensorsHeader *h = g_ptr_array_index (lk->headers, i);

          if (!hr_safetensors_header_merge (sum, h, &error))
            {
              g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                       "%s", error->message);
              return;
            }
        }
      r->parameters = sum->parameters;
      r->n_tensors = sum->n_tensors;
      r->tensor_bytes = sum->data_bytes;
      g_ptr_array_set_size (r->parameters_by_dtype, 0);
      g_ptr_array_extend_and_steal (r->parameters_by_dtype, g_steal_pointer (&sum->dtypes));
      g_clear_pointer (&r->parameters_source, g_free);
      r->parameters_source = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "the safetensors header of %u file",
                                                           "the safetensors headers of %u files",
                                                           n_files),
                                              n_files);
    }

  /* The model spec: from the config, or from the GGUF header. */
  if (r->gguf != NULL)
    {
      r->spec = hr_gguf_file_to_model_spec (r->gguf, r->repo, origin, NULL);
      if (r->parameters == 0 && r->spec != NULL)
        {
          r->parameters = r->spec->parameters;
          r->parameters_source = g_strdup_printf (_("the GGUF header of %s"), r->gguf_chosen);
        }
      if (r->architecture == NULL && r->spec != NULL)
        r->architecture = g_strdup (r->spec->architecture);
    }
  else if (r->config != NULL)
    {
      const char *precision;

      r->spec = hr_hf_config_to_model_spec (r->config, r->repo, origin, NULL);
      precision = hr_hub_lookup_weight_precision (r);
      if (precision != NULL && r->spec->precision == NULL)
        r->spec->precision = g_strdup (precision);
    }

  if (r->spec != NULL && r->gguf == NULL)
    {
      if (r->parameters > 0)
        {
          r->spec->parameters = r->parameters;
          hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_PARAMETERS, r->parameters_source);
        }
      else if (r->has_derived)
        {
          r->spec->parameters = r->derived.total;
          hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_PARAMETERS, _("derived from config.json"));
        }
      if (r->tensor_bytes > 0)
        {
          r->spec->file_bytes = r->tensor_bytes;
          hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_FILE_BYTES,
                                    _("tensor data bytes (safetensors index or headers)"));
        }
      else if (r->weight_file_bytes > 0)
        {
          r->spec->file_bytes = r->weight_file_bytes;
          hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_FILE_BYTES, _("the weight files' sizes"));
        }
    }

  if (r->parameters == 0 && r->has_derived)
    {
      r->parameters = r->derived.total;
      r->parameters_source = g_strdup (_("derived from config.json (no stored count)"));
    }
  if (r->has_derived && r->parameters > 0)
    r->derived_difference = hr_hf_parameters_relative_difference (r->derived.total, r->parameters);

  g_task_return_pointer (task, g_steal_pointer (&lk->result), (GDestroyNotify) hr_hub_lookup_free);
}

static void
start_header_reads (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHubLookup *r = lk->result;

  lk->headers_phase = TRUE;
  lk->headers = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_safetensors_header_free);
  for (guint i = 0; i < r->weight_files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (r->weight_files, i);

      if (g_str_has_suffix (f->path, ".safetensors"))
        start_part (task, PART_HEADER, f->path, 0, HR_SAFETENSORS_PROBE_BYTES - 1, 0);
    }
}

static void
lookup_step_done (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);

  if (lk->error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&lk->error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  if (!lk->headers_phase)
    {
      read_tree_files (lk);
      assemble (task);
      if (lk->result->parameters == 0 && lk->result->weight_files->len > 0 &&
          g_str_has_suffix (((HrHubFile *) g_ptr_array_index (lk->result->weight_files, 0))->path, ".safetensors"))
        {
          start_header_reads (task);
          if (lk->pending > 0)
            return;
        }
    }
  finish_lookup (task);
}

static gint
compare_path (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
start_second_step (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHubLookup *r = lk->result;
  const char *license;
  g_autoptr(GPtrArray) ggufs = g_ptr_array_new ();
  JsonObject *gguf_api;

  lk->pending++;   /* held until every part is started */

  if (has_sibling (lk, "config.json"))
    start_part (task, PART_CONFIG, "config.json", -1, -1, CAP_SMALL_JSON);
  if (has_sibling (lk, "generation_config.json"))
    start_part (task, PART_GENERATION, "generation_config.json", -1, -1, CAP_SMALL_JSON);
  if (has_sibling (lk, "tokenizer_config.json"))
    start_part (task, PART_TOKENIZER, "tokenizer_config.json", -1, -1, CAP_LARGE_JSON);
  start_part (task, PART_TREE, "tree", -1, -1, CAP_LARGE_JSON);
  if (has_sibling (lk, "model.safetensors.index.json"))
    {
      lk->index_path = g_strdup ("model.safetensors.index.json");
      start_part (task, PART_INDEX, lk->index_path, -1, -1, CAP_INDEX);
    }
  if (!hr_hf_license_tag_is_open (r->license) && (license = find_license_sibling (lk)) != NULL)
    {
      lk->license_path = g_strdup (license);
      start_part (task, PART_LICENSE, license, -1, -1, CAP_LICENSE);
    }

  /* GGUF: read one file's header, preferring Q4_K_M, else the smallest
   * name in order (the tree's sizes are not known yet). */
  for (guint i = 0; i < lk->siblings->len; i++)
    {
      const char *path = g_ptr_array_index (lk->siblings, i);
      guint part, parts;

      if (g_str_has_suffix (path, ".gguf") &&
          (!hr_hf_gguf_split_part (path, &part, &parts) || part == 1))
        g_ptr_array_add (ggufs, (gpointer) path);
    }
  gguf_api = lk->info ? json_object_member (json_node_get_object (lk->info), "gguf") : NULL;
  if (gguf_api != NULL && !lk->api_parameters)
    {
      guint64 total;

      if (json_u64 (json_object_get_member (gguf_api, "total"), &total) && total > 0)
        {
          r->parameters = total;
          r->parameters_source = g_strdup (_("the Hub API (gguf field)"));
        }
      if (r->architecture == NULL && json_string (gguf_api, "architecture") != NULL)
        r->architecture = g_strdup (json_string (gguf_api, "architecture"));
    }
  if (ggufs->len > 0)
    {
      const char *chosen = NULL;

      g_ptr_array_sort (ggufs, compare_path);
      for (guint i = 0; i < ggufs->len && chosen == NULL; i++)
        {
          g_autofree char *label = hr_hf_gguf_quant_label (g_ptr_array_index (ggufs, i));

          if (g_strcmp0 (label, "Q4_K_M") == 0)
            chosen = g_ptr_array_index (ggufs, i);
        }
      if (chosen == NULL)
        chosen = g_ptr_array_index (ggufs, 0);
      lk->gguf_path = g_strdup (chosen);
      r->gguf_chosen = g_strdup (chosen);
      lk->gguf_read = GGUF_FIRST_READ;
      start_part (task, PART_GGUF, chosen, 0, GGUF_FIRST_READ - 1, 0);
    }

  lk->pending--;
  if (lk->pending == 0)
    lookup_step_done (task);
}

static void
on_model_info (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(HubResponse) resp = hub_get_finish (HR_HUB_CLIENT (source), result, &error);

  lk->result->requests++;
  if (resp == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (resp->status < 200 || resp->status >= 300)
    {
      g_task_return_error (task, hub_status_error (lk->client, resp, lk->repo, lk->revision, NULL));
      return;
    }
  if (!read_model_info (lk, resp->body, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  start_second_step (task);
}

static void
start_model_info (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autofree char *rev = g_uri_escape_string (lk->revision, NULL, FALSE);
  g_autofree char *url =
    api_url (lk, "/api/models/%s/revision/%s?expand=sha&expand=private&expand=gated&expand=tags"
                 "&expand=cardData&expand=config&expand=safetensors&expand=gguf&expand=siblings"
                 "&expand=pipeline_tag&expand=library_name&expand=lastModified",
             lk->repo, rev);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  hub_get_async (lk->client, url, -1, -1, CAP_LARGE_JSON, &lk->result->bytes_received,
                 lk->cancellable, on_model_info, task);
}

#ifdef HAVE_LIBSECRET
static const SecretSchema *
token_schema (void)
{
  static const SecretSchema schema = {
    HR_HUB_TOKEN_SCHEMA, SECRET_SCHEMA_NONE,
    {
      { "endpoint", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };
  return &schema;
}

static gboolean
on_keyring_timeout (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_REMOVE;
}

static void
on_keyring (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *token = secret_password_lookup_finish (result, &error);

  /* No keyring, a locked one, a slow one, or no entry: go on without a
   * token (a cancelled lookup stops in start_model_info()). */
  keyring_stop (lk);
  lk->client->keyring_done = TRUE;
  if (token != NULL && token[0] != '\0' && lk->client->token == NULL)
    lk->client->token = g_strdup (token);
  secret_password_free (token);
  start_model_info (task);
}
#endif

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
  Lookup *lk;

  g_return_if_fail (HR_IS_HUB_CLIENT (self));
  g_return_if_fail (repo != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_hub_client_lookup_async);
  g_task_set_check_cancellable (task, TRUE);

  lk = g_new0 (Lookup, 1);
  lk->client = g_object_ref (self);
  lk->repo = g_strdup (repo);
  lk->revision = g_strdup (revision != NULL && revision[0] != '\0' ? revision : "main");
  lk->cancellable = g_cancellable_new ();
  lk->result = hub_lookup_new ();
  lk->result->repo = g_strdup (repo);
  lk->result->revision = g_strdup (lk->revision);
  g_task_set_task_data (task, lk, (GDestroyNotify) lookup_free);
  if (cancellable != NULL)
    {
      lk->parent = g_object_ref (cancellable);
      lk->parent_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_parent_cancelled),
                                                  g_object_ref (lk->cancellable), g_object_unref);
    }

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

#ifdef HAVE_LIBSECRET
  if (self->token == NULL && !self->token_set && self->use_keyring && !self->keyring_done)
    {
      g_autofree char *endpoint = g_strdup (self->endpoint);

      lk->keyring_cancellable = g_cancellable_new ();
      lk->keyring_handler = g_cancellable_connect (lk->cancellable, G_CALLBACK (on_parent_cancelled),
                                                   g_object_ref (lk->keyring_cancellable), g_object_unref);
      lk->keyring_timer = g_timeout_source_new (KEYRING_TIMEOUT_MS);
      g_source_set_callback (lk->keyring_timer, on_keyring_timeout, lk->keyring_cancellable, NULL);
      g_source_attach (lk->keyring_timer, g_main_context_get_thread_default ());
      secret_password_lookup (token_schema (), lk->keyring_cancellable, on_keyring, task,
                              "endpoint", endpoint, NULL);
      return;
    }
#endif
  start_model_info (task);
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
 *   %HR_NET_ERROR_TLS / %HR_NET_ERROR_FAILED ("Could not reach HOST — check
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
 * GGUF files, and the derived count with its relative difference.
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
  if (lookup->has_derived)
    {
      add_u64 (b, "derived_parameters", lookup->derived.total);
      add_u64 (b, "derived_active_parameters", lookup->derived.active);
      json_builder_set_member_name (b, "derived_relative_difference");
      json_builder_add_double_value (b, lookup->derived_difference);
    }
  if (c != NULL)
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
  else
    add_str (b, "config_problem", lookup->config_problem);
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
  add_u64 (b, "tensors", lookup->n_tensors);
  add_u64 (b, "tensor_bytes", lookup->tensor_bytes);

  if (lookup->kind != NULL)
    {
      add_str (b, "kind", hr_hf_kind_to_string (lookup->kind->kind));
      add_str (b, "base_model", lookup->kind->base_model);
      json_builder_set_member_name (b, "kind_evidence");
      json_builder_begin_array (b);
      for (guint i = 0; i < lookup->kind->evidence->len; i++)
        json_builder_add_string_value (b, g_ptr_array_index (lookup->kind->evidence, i));
      json_builder_end_array (b);
    }

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

  add_str (b, "license", lookup->license);
  add_str (b, "license_name", lookup->license_name);
  add_str (b, "license_file", lookup->license_file);
  add_str (b, "license_title", lookup->license_title);
  json_builder_set_member_name (b, "non_commercial");
  json_builder_add_boolean_value (b, lookup->non_commercial);
  add_str (b, "non_commercial_reason", lookup->non_commercial_reason);
  add_str (b, "gated", lookup->gated);

  if (lookup->gguf_files->len > 0)
    {
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
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      add_str (b, "gguf_chosen", lookup->gguf_chosen);
    }
  add_u64 (b, "requests", lookup->requests);
  add_u64 (b, "bytes_received", lookup->bytes_received);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
