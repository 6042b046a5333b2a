/* hr-ollama-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The steps of a lookup, one after another:
 *  1. GET /v2/NAMESPACE/MODEL/manifests/TAG (Accept: the manifest types);
 *  2. the config blob, GET /v2/NAMESPACE/MODEL/blobs/DIGEST, checked
 *     against its digest (or read from the cache);
 *  3. the model blob's GGUF header by Range, each request asking for the
 *     least the header can still take (hr_gguf_header_extent()) plus
 *     HR_OLLAMA_REGISTRY_MARGIN, until it is whole (or from the cache);
 *  4. the same for the vision projector blob's header, when the manifest
 *     has a projector layer: its tensor bytes are what Ollama loads.
 * The blobs answer 307 to a storage host; HrHttp follows it. No token is
 * ever set on this HrHttp, so no Authorization header goes anywhere.
 * Only a lookup that succeeded writes the cache.
 * Progress (hr_ollama_registry_lookup_full_async()) is reported when each
 * request starts and ends, and every HR_OLLAMA_REGISTRY_PROGRESS_MS while
 * its body is read (HrHttp adds each chunk to the byte counter), all on
 * the task's main context, where every step of the lookup runs.
 * The cache is in hr-ollama-registry-cache.c, the failures in words in
 * hr-ollama-registry-errors.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-extent.h"
#include "hr-http.h"
#include "hr-json.h"
#include "hr-measurement.h"
#include "hr-net-error.h"
#include "hr-ollama-host.h"
#include "hr-ollama-registry-private.h"
#include "hr-units.h"

#define CAP_MANIFEST     (4 * 1024 * 1024)
#define CAP_CONFIG       (1024 * 1024)
#define DEADLINE_MS      30000
#define CONNECT_MS       10000

G_DEFINE_FINAL_TYPE (HrOllamaRegistry, hr_ollama_registry, G_TYPE_OBJECT)

static void
lookup_free (Lookup *lk)
{
  if (lk->ticker != NULL)
    g_source_destroy (lk->ticker);
  g_clear_pointer (&lk->ticker, g_source_unref);
  g_clear_object (&lk->cancellable);
  if (lk->progress_destroy != NULL)
    lk->progress_destroy (lk->progress_data);
  g_clear_object (&lk->registry);
  hr_ollama_name_clear (&lk->name);
  g_free (lk->base);
  g_free (lk->shown);
  g_free (lk->blob_url);
  g_free (lk->failed_url);
  g_clear_pointer (&lk->config, g_bytes_unref);
  g_clear_pointer (&lk->header, g_byte_array_unref);
  g_clear_pointer (&lk->model_header, g_byte_array_unref);
  g_clear_pointer (&lk->projector_header, g_byte_array_unref);
  g_clear_pointer (&lk->model, hr_ollama_library_model_free);
  g_free (lk);
}

/**
 * hr_ollama_library_model_free:
 * @model: (nullable): a lookup's result
 */
void
hr_ollama_library_model_free (HrOllamaLibraryModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->manifest_url);
  g_free (model->manifest_digest);
  g_clear_pointer (&model->manifest, hr_ollama_manifest_free);
  g_clear_pointer (&model->config, hr_ollama_config_free);
  g_clear_pointer (&model->gguf, hr_gguf_file_unref);
  g_clear_pointer (&model->projector_gguf, hr_gguf_file_unref);
  g_free (model);
}

static void
hr_ollama_registry_finalize (GObject *object)
{
  HrOllamaRegistry *self = HR_OLLAMA_REGISTRY (object);

  g_clear_object (&self->http);
  g_free (self->endpoint);
  g_free (self->endpoint_shown);
  g_free (self->cache_dir);
  G_OBJECT_CLASS (hr_ollama_registry_parent_class)->finalize (object);
}

static void
hr_ollama_registry_class_init (HrOllamaRegistryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_ollama_registry_finalize;
}

static void
hr_ollama_registry_init (HrOllamaRegistry *self)
{
  self->header_cap = HR_OLLAMA_REGISTRY_HEADER_CAP;
  self->deadline_ms = DEADLINE_MS;
}

/**
 * hr_ollama_registry_new:
 * @endpoint: (nullable): the registry for names without a host; %NULL or
 *   "" = `HEADROOM_OLLAMA_REGISTRY`, else %HR_OLLAMA_REGISTRY_DEFAULT
 *   (a trailing slash is dropped). A name with a host goes to https://HOST.
 * @cache_dir: (nullable): where to cache; %NULL = $XDG_CACHE_HOME/headroom
 *
 * Returns: (transfer full): a registry client. It never sends a token.
 */
HrOllamaRegistry *
hr_ollama_registry_new (const char *endpoint,
                        const char *cache_dir)
{
  HrOllamaRegistry *self = g_object_new (HR_TYPE_OLLAMA_REGISTRY, NULL);
  g_autofree char *user_agent = g_strdup_printf ("headroom/%s ", PACKAGE_VERSION);
  gsize n;

  if (endpoint == NULL || endpoint[0] == '\0')
    endpoint = g_getenv ("HEADROOM_OLLAMA_REGISTRY");
  if (endpoint == NULL || endpoint[0] == '\0')
    endpoint = HR_OLLAMA_REGISTRY_DEFAULT;
  self->endpoint = g_strdup (endpoint);
  n = strlen (self->endpoint);
  while (n > 0 && self->endpoint[n - 1] == '/')
    self->endpoint[--n] = '\0';
  self->endpoint_shown = hr_url_hide_password (self->endpoint);
  self->cache_dir = cache_dir != NULL ? g_strdup (cache_dir)
                                      : g_build_filename (g_get_user_cache_dir (), "headroom", NULL);
  self->http = hr_http_new (HR_HTTP_WORDING_HUB, user_agent, 4);
  return self;
}

/**
 * hr_ollama_registry_get_endpoint:
 * @self: a registry client
 *
 * Returns: (transfer none): the registry for names without a host, as
 *   shown: the password of a `user:password@` as "***".
 */
const char *
hr_ollama_registry_get_endpoint (HrOllamaRegistry *self)
{
  g_return_val_if_fail (HR_IS_OLLAMA_REGISTRY (self), NULL);
  return self->endpoint_shown;
}

/**
 * hr_ollama_registry_set_limits:
 * @self: a registry client
 * @header_cap: most GGUF header bytes read (> 0; default
 *   %HR_OLLAMA_REGISTRY_HEADER_CAP)
 * @deadline_ms: each request's overall deadline, redirects included, ms
 *   (> 0; default 30,000)
 */
void
hr_ollama_registry_set_limits (HrOllamaRegistry *self,
                               guint64           header_cap,
                               guint             deadline_ms)
{
  g_return_if_fail (HR_IS_OLLAMA_REGISTRY (self));
  g_return_if_fail (header_cap > 0 && deadline_ms > 0);
  self->header_cap = header_cap;
  self->deadline_ms = deadline_ms;
}

static char *
sha256_digest (const guint8 *data,
               gsize         length)
{
  g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, length);

  return g_strconcat ("sha256:", hex, NULL);
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */

static void
progress_report (Lookup *lk)
{
  if (lk->progress == NULL || g_cancellable_is_cancelled (lk->cancellable))
    return;
  lk->reported = lk->model->bytes_read;
  lk->progress (lk->step,
                lk->step == HR_OLLAMA_REGISTRY_STEP_HEADER || lk->step == HR_OLLAMA_REGISTRY_STEP_PROJECTOR ? lk->range : 0,
                lk->model->bytes_read, lk->progress_data);
}

static gboolean
on_tick (gpointer user_data)
{
  Lookup *lk = user_data;

  if (lk->model->bytes_read != lk->reported)
    progress_report (lk);
  return G_SOURCE_CONTINUE;
}

/* A request starts: say which, and report while its body is read. */
static void
progress_start (Lookup               *lk,
                GTask                *task,
                HrOllamaRegistryStep  step)
{
  lk->step = step;
  if (step == HR_OLLAMA_REGISTRY_STEP_HEADER || step == HR_OLLAMA_REGISTRY_STEP_PROJECTOR)
    lk->range++;
  if (lk->progress == NULL)
    return;
  progress_report (lk);
  if (lk->ticker == NULL)
    {
      lk->ticker = g_timeout_source_new (HR_OLLAMA_REGISTRY_PROGRESS_MS);
      g_source_set_callback (lk->ticker, on_tick, lk, NULL);
      g_source_set_static_name (lk->ticker, "[headroom] registry progress");
      g_source_attach (lk->ticker, g_task_get_context (task));
    }
}

/* A request ended (or the lookup is over): no more ticks; the bytes it
 * brought are reported when there are new ones. */
static void
progress_stop (Lookup *lk)
{
  if (lk->ticker != NULL)
    {
      g_source_destroy (lk->ticker);
      g_clear_pointer (&lk->ticker, g_source_unref);
    }
  if (lk->model != NULL && lk->model->bytes_read != lk->reported)
    progress_report (lk);
}

/* ------------------------------------------------------------------ */
/* The steps                                                           */

static void
send (GTask               *task,
      HrOllamaRegistryStep step,
      const char          *url,
      const char          *accept,
      gint64               start,
      gint64               end,
      guint64              cap,
      GAsyncReadyCallback  callback)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHttpRequest request = {
    .method = "GET",
    .url = url,
    .accept = accept,
    .range_start = start,
    .range_end = end,
    .cap = cap,
    .deadline_ms = lk->registry->deadline_ms,
    .connect_ms = CONNECT_MS,
    .bytes_counter = &lk->model->bytes_read,
    .failed_url = &lk->failed_url,
  };

  lk->model->requests++;
  progress_start (lk, task, step);
  hr_http_send_async (lk->registry->http, &request, g_task_get_cancellable (task), callback, task);
}

static char *
blob_url (Lookup     *lk,
          const char *digest)
{
  return g_strdup_printf ("%s/v2/%s/%s/blobs/%s", lk->base, lk->name.namespace_, lk->name.model, digest);
}

static void
finish (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrOllamaLibraryModel *m = lk->model;

  if (!m->cached)
    {
      gsize config_size;
      const guint8 *config = g_bytes_get_data (lk->config, &config_size);

      hr_ollama_registry_cache_write (lk, "blobs", m->manifest->config->digest, config, config_size);
    }
  if (lk->model_header != NULL)
    hr_ollama_registry_cache_write (lk, "headers", m->manifest->model->digest, lk->model_header->data, (gsize) m->header_bytes);
  if (lk->projector_header != NULL)
    hr_ollama_registry_cache_write (lk, "headers", m->manifest->projector->digest, lk->projector_header->data,
                 (gsize) m->projector_header_bytes);
  lk->step = HR_OLLAMA_REGISTRY_STEP_DONE;
  progress_report (lk);
  g_task_return_pointer (task, g_steal_pointer (&lk->model), (GDestroyNotify) hr_ollama_library_model_free);
  g_object_unref (task);
}

/* The header of lk->blob, whole in @data (@end bytes long): parse it. The
 * model's gives the model's facts; the vision projector's its tensor
 * bytes, what Ollama loads of it (llm/llama_server.go,
 * mmprojMemoryRequirement(): the sum of the projector GGUF's tensor
 * sizes, read from its header). */
static gboolean
header_parse (Lookup        *lk,
              const guint8  *data,
              gsize          length,
              guint64        end,
              GError       **error)
{
  HrOllamaLibraryModel *m = lk->model;
  gboolean projector = lk->blob == m->manifest->projector;
  g_autoptr(GError) local = NULL;
  HrGgufFile *gguf = hr_gguf_file_parse_data (data, length, &local);

  if (gguf == NULL)
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                   g_error_matches (local, HR_CORE_ERROR, HR_CORE_ERROR_PARSE)
                   ? (projector ? _("The vision projector layer of %s is not a GGUF file (%s)")
                                : _("The model layer of %s is not a GGUF file (%s)"))
                   : (projector ? _("The GGUF header of the vision projector of %s could not be read: %s")
                                : _("The GGUF header of %s could not be read: %s")),
                   m->name, local->message);
      return FALSE;
    }
  hr_gguf_file_set_file_bytes (gguf, lk->blob->size);
  if (end == 0)
    end = hr_gguf_file_get_header_bytes (gguf);
  if (projector)
    {
      m->projector_gguf = gguf;
      m->projector_bytes = hr_gguf_file_get_tensor_bytes (gguf);
      m->projector_header_bytes = end;
    }
  else
    {
      m->gguf = gguf;
      m->header_bytes = end;
    }
  return TRUE;
}

static void header_start (GTask *task, const HrOllamaLayer *blob);

/* A header is whole and parsed: the projector's next, if there is one. */
static void
header_done (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  const HrOllamaLayer *projector = lk->model->manifest->projector;

  if (lk->blob != projector && projector != NULL)
    header_start (task, projector);
  else
    finish (task);
}

static void on_header (GObject *source, GAsyncResult *result, gpointer user_data);

static HrOllamaRegistryStep
header_step (Lookup *lk)
{
  return lk->blob == lk->model->manifest->projector ? HR_OLLAMA_REGISTRY_STEP_PROJECTOR
                                                    : HR_OLLAMA_REGISTRY_STEP_HEADER;
}

/* Asks for the rest of lk->blob's header, or parses it when it is whole. */
static void
header_next (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrOllamaLibraryModel *m = lk->model;
  guint64 end = 0, need = 0, want, layer = lk->blob->size;
  g_autoptr(GError) error = NULL;

  if (hr_gguf_header_extent (lk->header->data, lk->header->len, &end, &need) || need == 0)
    {
      if (!header_parse (lk, lk->header->data, lk->header->len, end, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
      if (lk->blob == m->manifest->projector)
        lk->projector_header = g_steal_pointer (&lk->header);
      else
        lk->model_header = g_steal_pointer (&lk->header);
      header_done (task);
      return;
    }
  if (need > lk->registry->header_cap || need > layer)
    {
      g_autofree char *cap = hr_format_count (lk->registry->header_cap);
      g_autofree char *at_least = hr_format_count (need);

      g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                               need > layer
                               ? _("The model layer of %s ends inside its GGUF header (the header needs at least %s bytes)")
                               : _("The GGUF header of %s is larger than the %s bytes Headroom reads (it needs at least %s): not read"),
                               m->name, need > layer ? at_least : cap, at_least);
      g_object_unref (task);
      return;
    }
  want = MIN (MIN (need + HR_OLLAMA_REGISTRY_MARGIN, lk->registry->header_cap), layer);
  send (task, header_step (lk), lk->blob_url, NULL, (gint64) lk->header->len, (gint64) want - 1, 0, on_header);
}

static void
on_header (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHttpResponse) resp = hr_http_send_finish (HR_HTTP (source), result, &error);
  gsize size;
  const guint8 *data;

  progress_stop (lk);
  if (resp == NULL || resp->status != 206)
    {
      g_task_return_error (task, resp == NULL
                           ? hr_ollama_registry_transport_error (lk, _("the GGUF header"), error)
                           : resp->status == 200
                           ? g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                          _("The storage host sent the whole model blob of %s instead of the range asked for"),
                                          lk->model->name)
                           : hr_ollama_registry_status_error (lk, lk->blob == lk->model->manifest->projector
                                               ? _("the vision projector blob") : _("the model blob"),
                                           resp, FALSE));
      g_object_unref (task);
      return;
    }
  if (resp->total > 0 && resp->total != lk->blob->size)
    {
      g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                               lk->blob == lk->model->manifest->projector
                               ? _("The vision projector blob of %s holds %" PRIu64 " bytes, not the %" PRIu64 " its manifest lists")
                               : _("The model blob of %s holds %" PRIu64 " bytes, not the %" PRIu64 " its manifest lists"),
                               lk->model->name, resp->total, lk->blob->size);
      g_object_unref (task);
      return;
    }
  g_free (lk->blob_url);
  lk->blob_url = g_strdup (resp->url); /* the storage host's URL: no second redirect */
  data = g_bytes_get_data (resp->body, &size);
  if (size == 0)
    {
      g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                               _("The storage host sent no bytes of the model blob of %s"), lk->model->name);
      g_object_unref (task);
      return;
    }
  g_byte_array_append (lk->header, data, (guint) size);
  header_next (task);
}

/* The header of @blob (the model layer, then the vision projector's) from
 * the cache when it is there and whole, else its first Range. */
static void
header_start (GTask               *task,
              const HrOllamaLayer *blob)
{
  Lookup *lk = g_task_get_task_data (task);
  HrOllamaLibraryModel *m = lk->model;
  g_autoptr(GBytes) cached = hr_ollama_registry_cache_read (lk, "headers", blob->digest);
  guint64 end, need;

  lk->blob = blob;
  if (cached != NULL && m->cached)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (cached, &size);

      if (hr_gguf_header_extent (data, size, &end, &need) && header_parse (lk, data, size, end, NULL))
        {
          header_done (task);
          return;
        }
    }
  m->cached = FALSE;
  g_free (lk->blob_url);
  lk->blob_url = blob_url (lk, blob->digest);
  lk->header = g_byte_array_new ();
  lk->range = 0;
  send (task, header_step (lk), lk->blob_url, NULL, 0,
        (gint64) MIN (MIN ((guint64) HR_OLLAMA_REGISTRY_MARGIN, lk->registry->header_cap), blob->size) - 1,
        0, on_header);
}

static gboolean
config_read (Lookup  *lk,
             GBytes  *bytes,
             GError **error)
{
  HrOllamaLibraryModel *m = lk->model;
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);
  g_autofree char *digest = sha256_digest ((const guint8 *) data, size);

  if (strcmp (digest, m->manifest->config->digest) != 0)
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                   _("The config blob of %s does not match its digest %s"), m->name, m->manifest->config->digest);
      return FALSE;
    }
  m->config = hr_ollama_config_parse (data, size, m->name, error);
  if (m->config == NULL)
    return FALSE;
  lk->config = g_bytes_ref (bytes);
  return TRUE;
}

static void
on_config (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHttpResponse) resp = hr_http_send_finish (HR_HTTP (source), result, &error);

  progress_stop (lk);
  if (resp == NULL)
    error = hr_ollama_registry_transport_error (lk, _("the config blob"), g_steal_pointer (&error));
  else if (resp->status != 200)
    error = hr_ollama_registry_status_error (lk, _("the config blob"), resp, FALSE);
  else
    config_read (lk, resp->body, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  header_start (task, lk->model->manifest->model);
}

static void
config_start (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GBytes) cached = hr_ollama_registry_cache_read (lk, "blobs", lk->model->manifest->config->digest);
  g_autofree char *url = NULL;

  if (cached != NULL && config_read (lk, cached, NULL))
    {
      lk->model->cached = TRUE;
      header_start (task, lk->model->manifest->model);
      return;
    }
  url = blob_url (lk, lk->model->manifest->config->digest);
  send (task, HR_OLLAMA_REGISTRY_STEP_CONFIG, url, NULL, -1, -1, CAP_CONFIG, on_config);
}

static void
on_manifest (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  Lookup *lk = g_task_get_task_data (task);
  HrOllamaLibraryModel *m = lk->model;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHttpResponse) resp = hr_http_send_finish (HR_HTTP (source), result, &error);
  gsize size = 0;
  const char *data = NULL;

  progress_stop (lk);
  if (resp == NULL)
    error = hr_ollama_registry_transport_error (lk, _("the manifest"), g_steal_pointer (&error));
  else if (resp->status != 200)
    error = hr_ollama_registry_status_error (lk, _("the manifest"), resp, TRUE);
  else
    {
      g_autoptr(GError) local = NULL;

      data = g_bytes_get_data (resp->body, &size);
      m->manifest = hr_ollama_manifest_parse (data, size, m->name, &local);
      if (m->manifest == NULL)
        error = g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE, "%s", local->message);
    }
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  m->manifest_digest = sha256_digest ((const guint8 *) data, size);
  config_start (task);
}

/**
 * hr_ollama_registry_lookup_async:
 * @self: a registry client
 * @name: a model name, `[host/][namespace/]model[:tag]`
 *   (hr_ollama_name_parse())
 * @cancellable: (nullable): cancels the lookup
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Looks @name up: its manifest, config blob and model GGUF header (see the
 * file's comment for the steps and the cache), without progress reports.
 */
void
hr_ollama_registry_lookup_async (HrOllamaRegistry    *self,
                                 const char          *name,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  hr_ollama_registry_lookup_full_async (self, name, NULL, NULL, NULL, cancellable, callback, user_data);
}

/**
 * hr_ollama_registry_lookup_full_async:
 * @self: a registry client
 * @name: a model name, `[host/][namespace/]model[:tag]`
 *   (hr_ollama_name_parse())
 * @progress: (nullable) (scope notified): called as the lookup goes: when
 *   each request starts and ends and every %HR_OLLAMA_REGISTRY_PROGRESS_MS
 *   while a body is read, on the thread-default main context of this
 *   call; last with %HR_OLLAMA_REGISTRY_STEP_DONE just before @callback
 *   when the lookup succeeds. Never called once @cancellable is cancelled.
 * @progress_data: data for @progress
 * @progress_destroy: (nullable): frees @progress_data when the lookup is over
 * @cancellable: (nullable): cancels the lookup
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * hr_ollama_registry_lookup_async() with progress: the request under way
 * (manifest, config blob, header Range N) and the body bytes received so
 * far, for a window or a terminal to show while the registry answers.
 */
void
hr_ollama_registry_lookup_full_async (HrOllamaRegistry         *self,
                                      const char               *name,
                                      HrOllamaRegistryProgress  progress,
                                      gpointer                  progress_data,
                                      GDestroyNotify            progress_destroy,
                                      GCancellable             *cancellable,
                                      GAsyncReadyCallback       callback,
                                      gpointer                  user_data)
{
  GTask *task;
  Lookup *lk;
  GError *error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;

  g_return_if_fail (HR_IS_OLLAMA_REGISTRY (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_ollama_registry_lookup_full_async);
  lk = g_new0 (Lookup, 1);
  lk->registry = g_object_ref (self);
  lk->model = g_new0 (HrOllamaLibraryModel, 1);
  lk->progress = progress;
  lk->progress_data = progress_data;
  lk->progress_destroy = progress_destroy;
  lk->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_task_set_task_data (task, lk, (GDestroyNotify) lookup_free);
  /* What a save that was killed left in the cache goes first. */
  if (!self->cache_swept)
    {
      g_autofree char *headers = g_build_filename (self->cache_dir, "ollama", "headers", NULL);
      g_autofree char *blobs = g_build_filename (self->cache_dir, "ollama", "blobs", NULL);

      hr_file_remove_stale_temporaries (headers);
      hr_file_remove_stale_temporaries (blobs);
      self->cache_swept = TRUE;
    }
  if (!hr_ollama_name_parse (name, &lk->name, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  lk->base = lk->name.explicit_host ? g_strconcat ("https://", lk->name.host, NULL) : g_strdup (self->endpoint);
  lk->model->name = hr_ollama_name_display (&lk->name);
  path = hr_ollama_name_path (&lk->name);
  lk->shown = hr_url_hide_password (lk->base);
  lk->model->manifest_url = g_strconcat (lk->shown, path, NULL);
  url = g_strconcat (lk->base, path, NULL);
  send (task, HR_OLLAMA_REGISTRY_STEP_MANIFEST, url, HR_OLLAMA_MANIFEST_ACCEPT, -1, -1, CAP_MANIFEST, on_manifest);
}

/**
 * hr_ollama_registry_lookup_finish:
 * @self: a registry client
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the model, or %NULL with @error:
 *   %HR_CORE_ERROR_INVALID_ARGUMENT (not a model name);
 *   %HR_NET_ERROR_NOT_FOUND ("NAME is not in the Ollama library": the
 *   registry's 404 with an error body); %HR_NET_ERROR_BAD_PATH (a 404
 *   without one); %HR_NET_ERROR_UNAUTHORIZED, %HR_NET_ERROR_RATE_LIMITED,
 *   %HR_NET_ERROR_SERVER, %HR_NET_ERROR_FAILED (other statuses, or the
 *   registry unreachable); %HR_NET_ERROR_INVALID_RESPONSE (a manifest
 *   without a model layer, a config not matching its digest, a model or
 *   vision projector blob that is not GGUF, a redirect loop, a blob of
 *   another size than listed);
 *   %HR_NET_ERROR_TIMEOUT (a host stalled past the deadline);
 *   %HR_NET_ERROR_TOO_LARGE (a header past the cap, or an answer past its
 *   cap); %HR_NET_ERROR_TRUNCATED; %G_IO_ERROR_CANCELLED. Nothing is cached
 *   on an error.
 */
HrOllamaLibraryModel *
hr_ollama_registry_lookup_finish (HrOllamaRegistry  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_ollama_registry_lookup_full_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
