/* fake-registry.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fake Ollama registry and its storage host, two SoupServers on
 * 127.0.0.1 (port 0) in the test process. The registry answers
 * GET /v2/NS/MODEL/manifests/TAG with the manifests added (404 with an OCI
 * error body otherwise) and GET /v2/NS/MODEL/blobs/DIGEST with a 307 to
 * the storage host, which honours Range over a blob's head (the rest of
 * the blob reads as zeros, up to its full size) and records what it got.
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct {
  SoupServer *registry;
  SoupServer *storage;
  char       *registry_url;
  char       *storage_url;
  GHashTable *manifests;         /* "/v2/NS/MODEL/manifests/TAG" -> char* JSON */
  GHashTable *blobs;             /* "sha256:..." -> FakeBlob* */
  GPtrArray  *stalled;           /* SoupServerMessage*, paused forever */
  guint       registry_requests;
  guint       storage_requests;
  guint       authorization_seen; /* requests to either that carried Authorization */
  guint64     storage_bytes_sent;  /* body bytes the storage host sent */
  char       *last_accept;       /* the last manifest request's Accept */
  GPtrArray  *ranges;            /* char*: the storage host's Range headers, in order */
  /* Faults */
  gboolean    redirect_loop;     /* blobs redirect to themselves */
  gboolean    storage_stall;     /* the storage host never answers a Range request */
  guint       storage_status;    /* the storage host answers this status (0 = serves the blob) */
  char       *blob_location;     /* blobs redirect here instead of the storage host */
  guint       manifest_status;   /* manifests answer this status with "{}" (0 = as added) */
  char       *retry_after;       /* sent as Retry-After with manifest_status or storage_status */
} FakeRegistry;

FakeRegistry *fake_registry_new            (void);
void          fake_registry_free           (FakeRegistry *fake);
void          fake_registry_add_manifest   (FakeRegistry *fake,
                                            const char   *path,
                                            const char   *json);
void          fake_registry_add_blob       (FakeRegistry *fake,
                                            const char   *digest,
                                            GBytes       *head,
                                            guint64       size);
char         *fake_registry_add_config     (FakeRegistry *fake,
                                            const char   *json,
                                            guint64      *out_size);
void          fake_registry_reset_counts   (FakeRegistry *fake);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakeRegistry, fake_registry_free)

G_END_DECLS
