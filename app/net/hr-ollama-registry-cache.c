/* hr-ollama-registry-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaRegistry's cache: one file per digest under
 * CACHE_DIR/ollama/KIND/sha256-HEX (KIND "blobs" for config blobs,
 * "headers" for the GGUF headers read of a blob), written whole or not at
 * all. The lookup that reads and writes it is in hr-ollama-registry.c.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "hr-ollama-registry-private.h"

static char *
cache_path (Lookup     *lk,
            const char *kind,
            const char *digest)
{
  g_autofree char *file = g_strconcat ("sha256-", digest + strlen ("sha256:"), NULL);

  return g_build_filename (lk->registry->cache_dir, "ollama", kind, file, NULL);
}

GBytes *
hr_ollama_registry_cache_read (Lookup     *lk,
                               const char *kind,
                               const char *digest)
{
  g_autofree char *path = cache_path (lk, kind, digest);
  char *data = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &data, &length, NULL))
    return NULL;
  return g_bytes_new_take (data, length);
}

/* g_file_set_contents() writes a temporary file and renames it over. A
 * cache that cannot be written costs the next lookup its requests only. */
void
hr_ollama_registry_cache_write (Lookup       *lk,
                                const char   *kind,
                                const char   *digest,
                                const guint8 *data,
                                gsize         length)
{
  g_autofree char *path = cache_path (lk, kind, digest);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents (path, (const char *) data, (gssize) length, &error))
    g_debug ("not cached: %s: %s", path, error != NULL ? error->message : g_strerror (errno));
}
