/* hr-ollama-registry-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-ollama-registry.c (the lookup's steps), -cache.c and -errors.c
 * share: the registry's fields and one lookup's state. Not installed;
 * include only from app/net/hr-ollama-registry*.c.
 */
#pragma once

#include "hr-http.h"
#include "hr-ollama-host.h"
#include "hr-ollama-registry.h"

G_BEGIN_DECLS

struct _HrOllamaRegistry {
  GObject  parent_instance;
  HrHttp  *http;
  char    *endpoint;
  char    *endpoint_shown; /* the password of a user:password@ as "***" */
  char    *cache_dir;
  gboolean cache_swept;   /* stale temporaries removed (first lookup) */
  guint64  header_cap;
  guint    deadline_ms;
};

typedef struct {
  HrOllamaRegistry     *registry;
  HrOllamaName          name;
  char                 *base;       /* https://HOST, or the endpoint */
  char                 *shown;      /* base for messages: no password */
  char                 *blob_url;   /* the model blob's storage URL, once known */
  GBytes               *config;     /* the config blob's bytes, for the cache */
  const HrOllamaLayer  *blob;       /* the layer whose header is read */
  GByteArray           *header;     /* what has been read of its header */
  GByteArray           *model_header;     /* the model's header, read: for the cache */
  GByteArray           *projector_header; /* the projector's, read: for the cache */
  HrOllamaLibraryModel *model;
  HrOllamaRegistryProgress progress;
  gpointer              progress_data;
  GDestroyNotify        progress_destroy;
  GSource              *ticker;     /* reports progress while a body is read */
  HrOllamaRegistryStep  step;       /* the request under way */
  guint                 range;      /* header Range requests sent */
  guint64               reported;   /* bytes in the last report */
  GCancellable         *cancellable; /* no report once it is cancelled */
  char                 *failed_url;  /* where the last request failed, after redirects */
} Lookup;

/* hr-ollama-registry-cache.c: KIND "blobs" or "headers"; @digest
 * "sha256:HEX". Read returns (transfer full) the file's bytes, %NULL when
 * it is not cached; a write that fails is logged and forgotten. */
GBytes *hr_ollama_registry_cache_read      (Lookup         *lk,
                                            const char     *kind,
                                            const char     *digest);
void    hr_ollama_registry_cache_write     (Lookup         *lk,
                                            const char     *kind,
                                            const char     *digest,
                                            const guint8   *data,
                                            gsize           length);

/* hr-ollama-registry-errors.c: @what names the step ("the manifest");
 * each returns (transfer full) one HR_NET_ERROR. */
GError *hr_ollama_registry_transport_error (Lookup         *lk,
                                            const char     *what,
                                            GError         *error);
GError *hr_ollama_registry_status_error    (Lookup         *lk,
                                            const char     *what,
                                            HrHttpResponse *resp,
                                            gboolean        manifest);

G_END_DECLS
