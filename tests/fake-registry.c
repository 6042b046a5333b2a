/* fake-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "fake-registry.h"

typedef struct {
  GBytes  *head;
  guint64  size;
} FakeBlob;

static void
fake_blob_free (FakeBlob *blob)
{
  g_bytes_unref (blob->head);
  g_free (blob);
}

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *type,
         const void        *data,
         gsize              length)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, type, SOUP_MEMORY_COPY, data, length);
}

static void
note_auth (FakeRegistry      *fake,
           SoupServerMessage *msg)
{
  if (soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Authorization") != NULL)
    fake->authorization_seen++;
}

static void
registry_handler (SoupServer        *server,
                  SoupServerMessage *msg,
                  const char        *path,
                  GHashTable        *query,
                  gpointer           user_data)
{
  FakeRegistry *fake = user_data;
  const char *json;
  const char *blobs;
  static const char unknown[] =
    "{\"errors\":[{\"code\":\"MANIFEST_UNKNOWN\",\"message\":\"manifest unknown\",\"detail\":{}}]}";

  fake->registry_requests++;
  note_auth (fake, msg);
  if (strstr (path, "/manifests/") != NULL)
    {
      g_free (fake->last_accept);
      fake->last_accept = g_strdup (soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Accept"));
      json = g_hash_table_lookup (fake->manifests, path);
      if (fake->manifest_status != 0)
        {
          if (fake->retry_after != NULL)
            soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", fake->retry_after);
          respond (msg, fake->manifest_status, "application/json", "{}", 2);
        }
      else if (json == NULL)
        respond (msg, 404, "application/json", unknown, strlen (unknown));
      else
        respond (msg, 200, "application/vnd.docker.distribution.manifest.v2+json", json, strlen (json));
      return;
    }
  blobs = strstr (path, "/blobs/");
  if (blobs != NULL && g_hash_table_contains (fake->blobs, blobs + strlen ("/blobs/")))
    {
      g_autofree char *location = fake->blob_location != NULL ? g_strdup (fake->blob_location)
                                  : fake->redirect_loop
                                  ? g_strconcat (fake->registry_url, path, NULL)
                                  : g_strconcat (fake->storage_url, "/blob/", blobs + strlen ("/blobs/"),
                                                 "?X-Amz-Signature=fake", NULL);

      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Location", location);
      respond (msg, 307, "text/plain", "", 0);
      return;
    }
  respond (msg, 404, "text/plain", "404 page not found", 18);
}

static void
storage_handler (SoupServer        *server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  FakeRegistry *fake = user_data;
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  const char *range = soup_message_headers_get_one (req, "Range");
  FakeBlob *blob = g_str_has_prefix (path, "/blob/")
                   ? g_hash_table_lookup (fake->blobs, path + strlen ("/blob/")) : NULL;
  SoupRange *ranges = NULL;
  int n_ranges = 0;
  g_autofree guint8 *body = NULL;
  gsize head_size, length;
  const guint8 *head;

  fake->storage_requests++;
  note_auth (fake, msg);
  g_ptr_array_add (fake->ranges, g_strdup (range != NULL ? range : "(none)"));
  if (fake->storage_stall && range != NULL)
    {
      soup_server_message_pause (msg);
      g_ptr_array_add (fake->stalled, g_object_ref (msg));
      return;
    }
  if (fake->storage_status != 0)
    {
      if (fake->retry_after != NULL)
        soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", fake->retry_after);
      respond (msg, fake->storage_status, "application/xml", "<Error><Code>AccessDenied</Code></Error>", 40);
      return;
    }
  if (blob == NULL)
    {
      respond (msg, 404, "application/xml", "<Error><Code>NoSuchKey</Code></Error>", 37);
      return;
    }
  if (!soup_message_headers_get_ranges (req, (goffset) blob->size, &ranges, &n_ranges))
    {
      /* A whole blob: only the small ones (the config) are served so. */
      g_assert_cmpuint (g_bytes_get_size (blob->head), ==, blob->size);
      fake->storage_bytes_sent += blob->size;
      respond (msg, 200, "application/octet-stream", g_bytes_get_data (blob->head, NULL), (gsize) blob->size);
      return;
    }
  g_assert_cmpint (n_ranges, ==, 1);
  length = (gsize) (ranges[0].end - ranges[0].start + 1);
  g_assert_cmpuint (length, <=, 256 * 1024 * 1024);
  body = g_malloc0 (length);
  head = g_bytes_get_data (blob->head, &head_size);
  if ((guint64) ranges[0].start < head_size)
    memcpy (body, head + ranges[0].start, MIN (length, head_size - (gsize) ranges[0].start));
  soup_message_headers_set_content_range (soup_server_message_get_response_headers (msg),
                                          ranges[0].start, ranges[0].end, (goffset) blob->size);
  soup_message_headers_free_ranges (req, ranges);
  fake->storage_bytes_sent += length;
  respond (msg, 206, "application/octet-stream", body, length);
}

static char *
server_url (SoupServer *server)
{
  GSList *uris = soup_server_get_uris (server);
  char *url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));

  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return url;
}

static SoupServer *
server_start (SoupServerCallback callback,
              FakeRegistry      *fake)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GError) error = NULL;
  SoupServer *server = soup_server_new (NULL, NULL);

  soup_server_add_handler (server, NULL, callback, fake, NULL);
  g_assert_true (soup_server_listen (server, address, 0, &error));
  g_assert_no_error (error);
  return server;
}

FakeRegistry *
fake_registry_new (void)
{
  FakeRegistry *fake = g_new0 (FakeRegistry, 1);

  fake->manifests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fake->blobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) fake_blob_free);
  fake->stalled = g_ptr_array_new_with_free_func (g_object_unref);
  fake->ranges = g_ptr_array_new_with_free_func (g_free);
  fake->registry = server_start (registry_handler, fake);
  fake->storage = server_start (storage_handler, fake);
  fake->registry_url = server_url (fake->registry);
  fake->storage_url = server_url (fake->storage);
  return fake;
}

void
fake_registry_free (FakeRegistry *fake)
{
  for (guint i = 0; i < fake->stalled->len; i++)
    soup_server_message_unpause (g_ptr_array_index (fake->stalled, i));
  soup_server_disconnect (fake->registry);
  soup_server_disconnect (fake->storage);
  g_clear_object (&fake->registry);
  g_clear_object (&fake->storage);
  g_ptr_array_unref (fake->stalled);
  g_ptr_array_unref (fake->ranges);
  g_hash_table_unref (fake->manifests);
  g_hash_table_unref (fake->blobs);
  g_free (fake->registry_url);
  g_free (fake->storage_url);
  g_free (fake->last_accept);
  g_free (fake->blob_location);
  g_free (fake->retry_after);
  g_free (fake);
}

/* @path: "/v2/library/phi4/manifests/latest". */
void
fake_registry_add_manifest (FakeRegistry *fake,
                            const char   *path,
                            const char   *json)
{
  g_hash_table_replace (fake->manifests, g_strdup (path), g_strdup (json));
}

/* A blob of @size bytes whose first bytes are @head (the rest zeros). */
void
fake_registry_add_blob (FakeRegistry *fake,
                        const char   *digest,
                        GBytes       *head,
                        guint64       size)
{
  FakeBlob *blob = g_new0 (FakeBlob, 1);

  blob->head = g_bytes_ref (head);
  blob->size = size;
  g_hash_table_replace (fake->blobs, g_strdup (digest), blob);
}

/* A config blob; returns its digest, its size in @out_size. */
char *
fake_registry_add_config (FakeRegistry *fake,
                          const char   *json,
                          guint64      *out_size)
{
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, json, -1);
  char *digest = g_strconcat ("sha256:", hex, NULL);
  g_autoptr(GBytes) bytes = g_bytes_new (json, strlen (json));

  fake_registry_add_blob (fake, digest, bytes, strlen (json));
  *out_size = strlen (json);
  return digest;
}

void
fake_registry_reset_counts (FakeRegistry *fake)
{
  fake->registry_requests = 0;
  fake->storage_requests = 0;
  fake->authorization_seen = 0;
  fake->storage_bytes_sent = 0;
  g_ptr_array_set_size (fake->ranges, 0);
}
