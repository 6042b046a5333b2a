/* test-hub-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHubClient against a fake Hugging Face Hub inside the test: a SoupServer
 * on 127.0.0.1 (port 0) that speaks shared/reference/hf-hub.md (model info
 * with expand/blobs, the tree paged by Link rel="next", resolve with a 302 to
 * a second in-process server acting as the CDN with X-Linked-Size, Range and
 * 206, and X-Error-Code errors). The Qwen2.5-3B-Instruct lookup must
 * reproduce every figure of seed-facts.md ("A Hugging Face lookup") while the
 * fake counts the bytes it serves.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-hub-client.h"
#include "hr-memory.h"
#include "hr-net-error.h"
#include "hub-fixtures.h"

/* ------------------------------------------------------------------ */
/* The fake Hub                                                        */

typedef struct {
  char    *path;
  guint64  size;     /* the file's real size */
  gboolean lfs;      /* served by the CDN after a 302 */
  GBytes  *head;     /* the first bytes; the rest of the file is zeros */
  gboolean weight;   /* a weight file: reads past the head are recorded */
} FakeFile;

typedef struct {
  char       *id;
  char       *sha;
  char      **revisions;   /* names besides the sha that resolve to it */
  GPtrArray  *files;       /* FakeFile* */
  char       *info;        /* the model info's other fields, a JSON object */
  gboolean    gated;
} FakeRepo;

typedef struct {
  SoupServer *hub;
  SoupServer *cdn;
  char       *hub_url;
  char       *cdn_url;
  GPtrArray  *repos;
  char       *valid_token;
  guint       page_size;
  guint64     bytes_served;
  guint       requests;
  GPtrArray  *log;             /* "hub GET /path?query [bytes=a-b]" */
  guint64     weight_range_end_max;
  gboolean    weight_body_requested;
  guint       cdn_requests;
  guint       cdn_authorization;  /* CDN requests that carried Authorization */
  char       *hub_authorization;  /* the last Authorization the Hub saw */
  gboolean    ignore_range;
  /* A fault: requests whose path starts with fault_prefix get it. */
  char       *fault_prefix;
  guint       fault_status;
  char       *fault_code;
  char       *fault_message;
  char       *fault_header;
  char       *fault_value;
  gboolean    fault_stall;
  GPtrArray  *stalled;         /* SoupServerMessage* */
  GCancellable *cancel_on_request; /* cancelled when fault_prefix is requested */
} FakeHub;

static void
fake_file_free (FakeFile *f)
{
  g_free (f->path);
  g_clear_pointer (&f->head, g_bytes_unref);
  g_free (f);
}

static void
fake_repo_free (FakeRepo *r)
{
  g_free (r->id);
  g_free (r->sha);
  g_strfreev (r->revisions);
  g_ptr_array_unref (r->files);
  g_free (r->info);
  g_free (r);
}

static FakeFile *
repo_add_file (FakeRepo   *repo,
               const char *path,
               guint64     size,
               gboolean    lfs,
               GBytes     *head,
               gboolean    weight)
{
  FakeFile *f = g_new0 (FakeFile, 1);

  f->path = g_strdup (path);
  f->size = size;
  f->lfs = lfs;
  f->head = head != NULL ? g_bytes_ref (head) : NULL;
  f->weight = weight;
  g_ptr_array_add (repo->files, f);
  return f;
}

static FakeRepo *
fake_add_repo (FakeHub    *fake,
               const char *id,
               const char *sha,
               const char *info)
{
  FakeRepo *r = g_new0 (FakeRepo, 1);
  const char *revs[] = { "main", "refs/pr/1", NULL };

  r->id = g_strdup (id);
  r->sha = g_strdup (sha);
  r->revisions = g_strdupv ((char **) revs);
  r->files = g_ptr_array_new_with_free_func ((GDestroyNotify) fake_file_free);
  r->info = g_strdup (info);
  g_ptr_array_add (fake->repos, r);
  return r;
}

static FakeRepo *
fake_find_repo (FakeHub    *fake,
                const char *id)
{
  for (guint i = 0; i < fake->repos->len; i++)
    {
      FakeRepo *r = g_ptr_array_index (fake->repos, i);

      if (strcmp (r->id, id) == 0)
        return r;
    }
  return NULL;
}

static FakeFile *
repo_find_file (FakeRepo   *repo,
                const char *path)
{
  for (guint i = 0; i < repo->files->len; i++)
    {
      FakeFile *f = g_ptr_array_index (repo->files, i);

      if (strcmp (f->path, path) == 0)
        return f;
    }
  return NULL;
}

static gboolean
repo_knows_revision (FakeRepo   *repo,
                     const char *rev)
{
  return strcmp (rev, repo->sha) == 0 || g_strv_contains ((const char * const *) repo->revisions, rev);
}

static void
respond (FakeHub           *fake,
         SoupServerMessage *msg,
         guint              status,
         const char        *content_type,
         const void        *body,
         gsize              length)
{
  soup_server_message_set_status (msg, status, NULL);
  if (body != NULL)
    {
      soup_server_message_set_response (msg, content_type, SOUP_MEMORY_COPY, body, length);
      fake->bytes_served += length;
    }
}

static void
respond_error (FakeHub           *fake,
               SoupServerMessage *msg,
               guint              status,
               const char        *code,
               const char        *message)
{
  SoupMessageHeaders *h = soup_server_message_get_response_headers (msg);
  g_autofree char *body = g_strdup_printf ("{\"error\":\"%s\"}", message);

  if (code != NULL)
    soup_message_headers_replace (h, "X-Error-Code", code);
  soup_message_headers_replace (h, "X-Error-Message", message);
  respond (fake, msg, status, "application/json", body, strlen (body));
}

/* Bytes [start, end] of a file: its head, then zeros. */
static GBytes *
file_slice (FakeFile *f,
            guint64   start,
            guint64   end)
{
  gsize head_len = f->head != NULL ? g_bytes_get_size (f->head) : 0;
  guint64 len = end - start + 1;
  guint8 *buf;

  g_assert_cmpuint (len, <=, 64 * 1024 * 1024);
  buf = g_malloc0 (len);
  if (start < head_len)
    memcpy (buf, (const guint8 *) g_bytes_get_data (f->head, NULL) + start, MIN (len, head_len - start));
  return g_bytes_new_take (buf, len);
}

/* Serves a file, honouring a single Range unless told to ignore it. */
static void
serve_file (FakeHub           *fake,
            SoupServerMessage *msg,
            FakeFile          *f)
{
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  SoupRange *ranges = NULL;
  int n_ranges = 0;
  guint64 start = 0, end;
  g_autoptr(GBytes) body = NULL;

  if (f->size == 0)
    {
      respond (fake, msg, SOUP_STATUS_OK, "application/octet-stream", "", 0);
      return;
    }
  end = f->size - 1;
  if (fake->ignore_range)
    soup_message_headers_remove (req, "Range");
  if (soup_message_headers_get_ranges (req, f->size, &ranges, &n_ranges))
    {
      g_assert_cmpint (n_ranges, ==, 1);
      start = ranges[0].start;
      end = ranges[0].end;
      soup_message_headers_free_ranges (req, ranges);
      if (f->weight)
        fake->weight_range_end_max = MAX (fake->weight_range_end_max, end);
      body = file_slice (f, start, end);
      soup_message_headers_set_content_range (resp, start, end, f->size);
      respond (fake, msg, SOUP_STATUS_PARTIAL_CONTENT, "application/octet-stream",
               g_bytes_get_data (body, NULL), g_bytes_get_size (body));
      return;
    }
  if (f->weight)
    {
      fake->weight_body_requested = TRUE;
      if (f->size > 16 * 1024 * 1024)
        {
          respond_error (fake, msg, 500, NULL, "the fake does not serve whole weight files");
          return;
        }
    }
  body = file_slice (f, 0, end);
  respond (fake, msg, SOUP_STATUS_OK, "application/octet-stream",
           g_bytes_get_data (body, NULL), g_bytes_get_size (body));
}

static void
on_stalled_finished (SoupServerMessage *msg,
                     FakeHub           *fake)
{
  g_ptr_array_remove (fake->stalled, msg);
}

/* Splits "a=1&b=2&b=3". */
static GPtrArray *
query_values (const char *query,
              const char *key)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) parts = g_strsplit (query ? query : "", "&", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *eq = strchr (parts[i], '=');

      if (eq != NULL && (gsize) (eq - parts[i]) == strlen (key) && strncmp (parts[i], key, eq - parts[i]) == 0)
        g_ptr_array_add (out, g_uri_unescape_string (eq + 1, NULL));
    }
  return out;
}

static const char * const known_expand[] = {
  "author", "baseModels", "cardData", "config", "createdAt", "disabled", "downloads", "gated",
  "gguf", "lastModified", "library_name", "likes", "model-index", "pipeline_tag", "private",
  "safetensors", "sha", "siblings", "spaces", "tags", "transformersInfo", "usedStorage", NULL,
};

static void
serve_model_info (FakeHub           *fake,
                  SoupServerMessage *msg,
                  FakeRepo          *repo,
                  const char        *query)
{
  g_autoptr(GPtrArray) expand = query_values (query, "expand");
  g_autoptr(GPtrArray) blobs = query_values (query, "blobs");
  gboolean with_blobs = blobs->len > 0 && strcmp (g_ptr_array_index (blobs, 0), "true") == 0;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  JsonObject *obj;
  JsonArray *siblings;
  gsize length;

  if (with_blobs && expand->len > 0)
    {
      respond_error (fake, msg, 400, NULL, "blobs cannot be combined with expand");
      return;
    }
  for (guint i = 0; i < expand->len; i++)
    if (!g_strv_contains (known_expand, g_ptr_array_index (expand, i)))
      {
        g_autofree char *m = g_strdup_printf ("unknown expand value %s", (char *) g_ptr_array_index (expand, i));

        respond_error (fake, msg, 400, NULL, m);
        return;
      }

  g_assert_true (json_parser_load_from_data (parser, repo->info, -1, NULL));
  root = json_node_copy (json_parser_get_root (parser));
  obj = json_node_get_object (root);
  json_object_set_string_member (obj, "_id", "65f0c0ffee");
  json_object_set_string_member (obj, "id", repo->id);
  json_object_set_string_member (obj, "sha", repo->sha);
  json_object_set_boolean_member (obj, "private", FALSE);
  if (!json_object_has_member (obj, "gated"))
    json_object_set_boolean_member (obj, "gated", FALSE);
  siblings = json_array_new ();
  for (guint i = 0; i < repo->files->len; i++)
    {
      FakeFile *f = g_ptr_array_index (repo->files, i);
      JsonObject *s = json_object_new ();

      json_object_set_string_member (s, "rfilename", f->path);
      if (with_blobs)
        json_object_set_int_member (s, "size", (gint64) f->size);
      json_array_add_object_element (siblings, s);
    }
  json_object_set_array_member (obj, "siblings", siblings);

  if (expand->len > 0)
    {
      g_autoptr(GList) members = json_object_get_members (obj);

      for (GList *l = members; l != NULL; l = l->next)
        {
          const char *key = l->data;
          gboolean keep = strcmp (key, "_id") == 0 || strcmp (key, "id") == 0;

          for (guint i = 0; i < expand->len && !keep; i++)
            keep = strcmp (key, g_ptr_array_index (expand, i)) == 0;
          if (!keep)
            json_object_remove_member (obj, key);
        }
    }
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, &length);
  respond (fake, msg, SOUP_STATUS_OK, "application/json", text, length);
}

static void
serve_tree (FakeHub           *fake,
            SoupServerMessage *msg,
            FakeRepo          *repo,
            const char        *encoded_rev,
            const char        *query)
{
  g_autoptr(GPtrArray) cursor = query_values (query, "cursor");
  g_autoptr(GPtrArray) recursive = query_values (query, "recursive");
  guint64 first = 0;
  GString *json = g_string_new ("[");
  guint last;

  g_assert_cmpuint (recursive->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (recursive, 0), ==, "true");
  if (cursor->len > 0)
    g_assert_true (g_ascii_string_to_unsigned (g_ptr_array_index (cursor, 0), 10, 0, 100000, &first, NULL));
  last = MIN (repo->files->len, (guint) first + fake->page_size);
  for (guint i = (guint) first; i < last; i++)
    {
      FakeFile *f = g_ptr_array_index (repo->files, i);

      g_string_append_printf (json, "%s{\"type\":\"file\",\"oid\":\"%040x\",\"size\":%" G_GUINT64_FORMAT ",\"path\":\"%s\"",
                              i > first ? "," : "", i + 1, f->size, f->path);
      if (f->lfs)
        g_string_append_printf (json, ",\"lfs\":{\"oid\":\"%064x\",\"size\":%" G_GUINT64_FORMAT ",\"pointerSize\":135}",
                                i + 1, f->size);
      g_string_append (json, "}");
    }
  g_string_append (json, "]");
  if (last < repo->files->len)
    {
      g_autofree char *link = g_strdup_printf ("<%s/api/models/%s/tree/%s?recursive=true&cursor=%u>; rel=\"next\"",
                                               fake->hub_url, repo->id, encoded_rev, last);

      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Link", link);
    }
  respond (fake, msg, SOUP_STATUS_OK, "application/json", json->str, json->len);
  g_string_free (json, TRUE);
}

static void
hub_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path_unused,
             GHashTable        *query_unused,
             gpointer           user_data)
{
  FakeHub *fake = user_data;
  GUri *uri = soup_server_message_get_uri (msg);
  const char *path = g_uri_get_path (uri);
  const char *query = g_uri_get_query (uri);
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  const char *auth = soup_message_headers_get_one (req, "Authorization");
  const char *range = soup_message_headers_get_one (req, "Range");
  g_auto(GStrv) parts = NULL;
  g_autofree char *valid = fake->valid_token ? g_strdup_printf ("Bearer %s", fake->valid_token) : NULL;
  FakeRepo *repo;
  g_autofree char *id = NULL;

  fake->requests++;
  g_ptr_array_add (fake->log, g_strdup_printf ("hub %s %s%s%s%s%s", soup_server_message_get_method (msg), path,
                                               query ? "?" : "", query ? query : "",
                                               range ? " " : "", range ? range : ""));
  g_free (fake->hub_authorization);
  fake->hub_authorization = g_strdup (auth);

  if (fake->fault_prefix != NULL && g_str_has_prefix (path, fake->fault_prefix))
    {
      if (fake->cancel_on_request != NULL)
        g_cancellable_cancel (fake->cancel_on_request);
      if (fake->fault_stall)
        {
          soup_server_message_pause (msg);
          g_ptr_array_add (fake->stalled, g_object_ref (msg));
          g_signal_connect (msg, "finished", G_CALLBACK (on_stalled_finished), fake);
          return;
        }
      if (fake->fault_status != 0)
        {
          if (fake->fault_header != NULL)
            soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                          fake->fault_header, fake->fault_value);
          respond_error (fake, msg, fake->fault_status, fake->fault_code, fake->fault_message);
          return;
        }
    }

  if (auth != NULL && (valid == NULL || strcmp (auth, valid) != 0))
    {
      respond_error (fake, msg, 401, NULL, "Invalid credentials in Authorization header");
      return;
    }

  parts = g_strsplit (path + 1, "/", 6);
  if (g_strv_length (parts) >= 5 && strcmp (parts[0], "api") == 0 && strcmp (parts[1], "models") == 0)
    {
      /* /api/models/ORG/NAME/{revision,tree}/REV */
      g_autofree char *rev = NULL;

      id = g_strdup_printf ("%s/%s", parts[2], parts[3]);
      repo = fake_find_repo (fake, id);
      if (repo == NULL)
        {
          respond_error (fake, msg, 401, "RepoNotFound", "Repository not found");
          return;
        }
      /* SoupServer hands the path over decoded (%2F becomes '/'), so the
       * revision is the rest of the path. */
      if (g_strv_length (parts) != 6 ||
          (strcmp (parts[4], "revision") != 0 && strcmp (parts[4], "tree") != 0))
        {
          respond_error (fake, msg, 404, NULL, "Sorry, we can't find the page you are looking for.");
          return;
        }
      rev = g_uri_unescape_string (parts[5], NULL);
      if (rev == NULL || !repo_knows_revision (repo, rev))
        {
          g_autofree char *m = g_strdup_printf ("Invalid rev id: %s", rev ? rev : parts[5]);

          respond_error (fake, msg, 404, "RevisionNotFound", m);
          return;
        }
      if (strcmp (parts[4], "revision") == 0)
        serve_model_info (fake, msg, repo, query);
      else
        serve_tree (fake, msg, repo, parts[5], query);
      return;
    }

  if (g_strv_length (parts) >= 5 && strcmp (parts[2], "resolve") == 0)
    {
      /* /ORG/NAME/resolve/REV/PATH */
      g_autofree char *rev = g_uri_unescape_string (parts[3], NULL);
      g_autofree char *file_path = NULL;
      FakeFile *f;

      id = g_strdup_printf ("%s/%s", parts[0], parts[1]);
      repo = fake_find_repo (fake, id);
      if (repo == NULL)
        {
          respond_error (fake, msg, 401, "RepoNotFound", "Repository not found");
          return;
        }
      if (rev == NULL || !repo_knows_revision (repo, rev))
        {
          respond_error (fake, msg, 404, "RevisionNotFound", "Invalid rev id");
          return;
        }
      if (repo->gated && auth == NULL)
        {
          respond_error (fake, msg, 401, "GatedRepo", "Access to model is restricted. You must have access to it and be authenticated to access it. Please log in.");
          return;
        }
      file_path = g_uri_unescape_string (path + strlen (parts[0]) + strlen (parts[1]) + strlen (parts[2]) + strlen (parts[3]) + 5, NULL);
      f = file_path ? repo_find_file (repo, file_path) : NULL;
      if (f == NULL)
        {
          respond_error (fake, msg, 404, "EntryNotFound", "Entry not found");
          return;
        }
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "X-Repo-Commit", repo->sha);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "ETag", "\"fixture\"");
      if (f->lfs)
        {
          SoupMessageHeaders *h = soup_server_message_get_response_headers (msg);
          g_autofree char *escaped = g_uri_escape_string (f->path, "/", FALSE);
          g_autofree char *location = g_strdup_printf ("%s/repos/%s/%s?X-Amz-Signature=fixture", fake->cdn_url, repo->sha, escaped);
          g_autofree char *size = g_strdup_printf ("%" G_GUINT64_FORMAT, f->size);

          soup_message_headers_replace (h, "Location", location);
          soup_message_headers_replace (h, "X-Linked-Size", size);
          soup_message_headers_replace (h, "X-Linked-Etag", "\"0123456789abcdef\"");
          respond (fake, msg, SOUP_STATUS_FOUND, NULL, NULL, 0);
          return;
        }
      serve_file (fake, msg, f);
      return;
    }

  respond_error (fake, msg, 404, NULL, "Sorry, we can't find the page you are looking for.");
}

static void
cdn_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path_unused,
             GHashTable        *query_unused,
             gpointer           user_data)
{
  FakeHub *fake = user_data;
  GUri *uri = soup_server_message_get_uri (msg);
  const char *path = g_uri_get_path (uri);
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  const char *range = soup_message_headers_get_one (req, "Range");
  g_auto(GStrv) parts = g_strsplit (path + 1, "/", 3);

  fake->requests++;
  fake->cdn_requests++;
  g_ptr_array_add (fake->log, g_strdup_printf ("cdn GET %s%s%s", path, range ? " " : "", range ? range : ""));
  if (soup_message_headers_get_one (req, "Authorization") != NULL)
    fake->cdn_authorization++;

  if (g_strv_length (parts) == 3 && strcmp (parts[0], "repos") == 0)
    {
      g_autofree char *file_path = g_uri_unescape_string (parts[2], NULL);

      for (guint i = 0; i < fake->repos->len; i++)
        {
          FakeRepo *repo = g_ptr_array_index (fake->repos, i);
          FakeFile *f;

          if (strcmp (repo->sha, parts[1]) == 0 && file_path != NULL &&
              (f = repo_find_file (repo, file_path)) != NULL)
            {
              serve_file (fake, msg, f);
              return;
            }
        }
    }
  respond (fake, msg, 404, "text/plain", "NoSuchKey", 9);
}

static char *
server_url (SoupServer *server)
{
  GSList *uris = soup_server_get_uris (server);
  char *url;

  g_assert_nonnull (uris);
  url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return url;
}

static FakeHub *
fake_hub_new (void)
{
  FakeHub *fake = g_new0 (FakeHub, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GError) error = NULL;

  fake->repos = g_ptr_array_new_with_free_func ((GDestroyNotify) fake_repo_free);
  fake->log = g_ptr_array_new_with_free_func (g_free);
  fake->stalled = g_ptr_array_new_with_free_func (g_object_unref);
  fake->page_size = 5;

  fake->hub = soup_server_new (NULL, NULL);
  soup_server_add_handler (fake->hub, NULL, hub_handler, fake, NULL);
  g_assert_true (soup_server_listen (fake->hub, address, 0, &error));
  g_assert_no_error (error);
  fake->hub_url = server_url (fake->hub);

  fake->cdn = soup_server_new (NULL, NULL);
  soup_server_add_handler (fake->cdn, NULL, cdn_handler, fake, NULL);
  g_assert_true (soup_server_listen (fake->cdn, address, 0, &error));
  g_assert_no_error (error);
  fake->cdn_url = server_url (fake->cdn);
  return fake;
}

static void
fake_hub_free (FakeHub *fake)
{
  for (guint i = 0; i < fake->stalled->len; i++)
    {
      SoupServerMessage *msg = g_ptr_array_index (fake->stalled, i);

      g_signal_handlers_disconnect_by_func (msg, on_stalled_finished, fake);
      soup_server_message_set_status (msg, 503, NULL);
      soup_server_message_unpause (msg);
    }
  g_ptr_array_set_size (fake->stalled, 0);
  soup_server_disconnect (fake->hub);
  soup_server_disconnect (fake->cdn);
  g_clear_object (&fake->hub);
  g_clear_object (&fake->cdn);
  /* Let the servers' sources run down. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_free (fake->hub_url);
  g_free (fake->cdn_url);
  g_ptr_array_unref (fake->repos);
  g_ptr_array_unref (fake->log);
  g_ptr_array_unref (fake->stalled);
  g_free (fake->valid_token);
  g_free (fake->hub_authorization);
  g_free (fake->fault_prefix);
  g_free (fake->fault_code);
  g_free (fake->fault_message);
  g_free (fake->fault_header);
  g_free (fake->fault_value);
  g_clear_object (&fake->cancel_on_request);
  g_free (fake);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakeHub, fake_hub_free)

static void
fake_fault (FakeHub    *fake,
            const char *prefix,
            guint       status,
            const char *code,
            const char *message)
{
  g_free (fake->fault_prefix);
  fake->fault_prefix = g_strdup (prefix);
  fake->fault_status = status;
  g_free (fake->fault_code);
  fake->fault_code = g_strdup (code);
  g_free (fake->fault_message);
  fake->fault_message = g_strdup (message);
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

#define QWEN_INFO \
  "{\"author\":\"Qwen\",\"lastModified\":\"2024-09-25T12:33:05.000Z\",\"downloads\":1000," \
  "\"likes\":100,\"pipeline_tag\":\"text-generation\",\"library_name\":\"transformers\"," \
  "\"tags\":[\"transformers\",\"safetensors\",\"qwen2\",\"text-generation\",\"chat\",\"conversational\"," \
  "\"en\",\"base_model:Qwen/Qwen2.5-3B\",\"base_model:finetune:Qwen/Qwen2.5-3B\",\"license:other\"," \
  "\"text-generation-inference\",\"endpoints_compatible\",\"region:us\"]," \
  "\"cardData\":{\"license\":\"other\",\"license_name\":\"qwen-research\"," \
  "\"license_link\":\"https://huggingface.co/Qwen/Qwen2.5-3B-Instruct/blob/main/LICENSE\"," \
  "\"language\":[\"en\"],\"pipeline_tag\":\"text-generation\",\"base_model\":\"Qwen/Qwen2.5-3B\"," \
  "\"tags\":[\"chat\"],\"library_name\":\"transformers\"}," \
  "\"config\":{\"architectures\":[\"Qwen2ForCausalLM\"],\"model_type\":\"qwen2\"," \
  "\"tokenizer_config\":{\"bos_token\":null,\"eos_token\":\"<|im_end|>\",\"pad_token\":\"<|endoftext|>\"}}" \
  "%s}"

#define QWEN_SAFETENSORS ",\"safetensors\":{\"parameters\":{\"BF16\":3085938688},\"total\":3085938688}"

typedef enum {
  QWEN_FULL,
  QWEN_NO_API_FIELD,   /* no safetensors field: the index gives the count */
  QWEN_NO_INDEX,       /* neither: the shard headers give it */
} QwenVariant;

/* The 12 files of the repository. The seed gives the total (6,183,464,935
 * bytes) and the shard sizes; the small files the fake serves have their
 * fixtures' sizes; tokenizer.json, vocab.json and merges.txt carry sizes of
 * the right order, and README.md takes the remainder so the total is the
 * seed's. */
static void
add_qwen (FakeHub    *fake,
          const char *id,
          QwenVariant variant)
{
  g_autofree char *info = g_strdup_printf (QWEN_INFO, variant == QWEN_FULL ? QWEN_SAFETENSORS : "");
  FakeRepo *repo = fake_add_repo (fake, id, QWEN_SHA, info);
  g_autoptr(GBytes) license = hub_fixture ("qwen2.5-3b-instruct/LICENSE");
  g_autoptr(GBytes) config = hub_fixture ("qwen2.5-3b-instruct/config.json");
  g_autoptr(GBytes) generation = hub_fixture ("qwen2.5-3b-instruct/generation_config.json");
  g_autoptr(GBytes) tokenizer = hub_fixture ("qwen2.5-3b-instruct/tokenizer_config.json");
  g_autofree char *index_text = qwen_index_json ();
  g_autoptr(GBytes) index = g_bytes_new (index_text, strlen (index_text));
  g_autoptr(GBytes) shard1 = qwen_shard_head (1, NULL);
  g_autoptr(GBytes) shard2 = qwen_shard_head (2, NULL);
  g_autoptr(GBytes) gitattributes = g_bytes_new_static ("*.safetensors filter=lfs diff=lfs merge=lfs -text\n", 51);
  guint64 small, readme;
  const guint64 tokenizer_json = 7031645, vocab = 2776833, merges = 1671853;

  small = 51 + g_bytes_get_size (license) + g_bytes_get_size (config) + g_bytes_get_size (generation) +
          g_bytes_get_size (tokenizer) + (variant == QWEN_NO_INDEX ? 0 : g_bytes_get_size (index));
  readme = QWEN_FILES_BYTES - QWEN_SHARD1_BYTES - QWEN_SHARD2_BYTES - small - tokenizer_json - vocab - merges;

  repo_add_file (repo, ".gitattributes", 51, FALSE, gitattributes, FALSE);
  repo_add_file (repo, "LICENSE", g_bytes_get_size (license), FALSE, license, FALSE);
  repo_add_file (repo, "README.md", readme, FALSE, NULL, FALSE);
  repo_add_file (repo, "config.json", g_bytes_get_size (config), FALSE, config, FALSE);
  repo_add_file (repo, "generation_config.json", g_bytes_get_size (generation), FALSE, generation, FALSE);
  repo_add_file (repo, "merges.txt", merges, FALSE, NULL, FALSE);
  repo_add_file (repo, QWEN_SHARD1, QWEN_SHARD1_BYTES, TRUE, shard1, TRUE);
  repo_add_file (repo, QWEN_SHARD2, QWEN_SHARD2_BYTES, TRUE, shard2, TRUE);
  if (variant != QWEN_NO_INDEX)
    repo_add_file (repo, "model.safetensors.index.json", g_bytes_get_size (index), FALSE, index, FALSE);
  repo_add_file (repo, "tokenizer.json", tokenizer_json, TRUE, NULL, FALSE);
  repo_add_file (repo, "tokenizer_config.json", g_bytes_get_size (tokenizer), FALSE, tokenizer, FALSE);
  repo_add_file (repo, "vocab.json", vocab, FALSE, NULL, FALSE);
}

/* ------------------------------------------------------------------ */
/* Running a lookup                                                    */

typedef struct {
  gboolean     done;
  HrHubLookup *lookup;
  GError      *error;
} Wait;

static void
on_lookup (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Wait *w = user_data;

  w->lookup = hr_hub_client_lookup_finish (HR_HUB_CLIENT (source), result, &w->error);
  w->done = TRUE;
}

static HrHubLookup *
run_lookup (HrHubClient  *client,
            const char   *repo,
            const char   *revision,
            GCancellable *cancellable,
            GError      **error)
{
  Wait w = { FALSE, NULL, NULL };

  hr_hub_client_lookup_async (client, repo, revision, cancellable, on_lookup, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  if (w.error != NULL)
    g_propagate_error (error, w.error);
  return w.lookup;
}

static HrHubClient *
client_for (FakeHub    *fake,
            const char *token)
{
  return g_object_new (HR_TYPE_HUB_CLIENT,
                       "endpoint", fake->hub_url,
                       "token", token != NULL ? token : "",
                       "use-keyring", FALSE,
                       NULL);
}

static guint
log_count (FakeHub    *fake,
           const char *needle)
{
  guint n = 0;

  for (guint i = 0; i < fake->log->len; i++)
    if (strstr (g_ptr_array_index (fake->log, i), needle) != NULL)
      n++;
  return n;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void
assert_qwen_figures (HrHubLookup *l)
{
  const HrSafetensorsDtype *bf16;
  const HrHubFile *f;

  /* 1. Architecture and size (seed-facts.md, "A Hugging Face lookup"). */
  g_assert_cmpstr (l->repo, ==, QWEN_REPO);
  g_assert_cmpstr (l->sha, ==, QWEN_SHA);
  g_assert_cmpstr (l->architecture, ==, "Qwen2ForCausalLM");
  g_assert_cmpstr (l->model_type, ==, "qwen2");
  g_assert_cmpuint (l->parameters, ==, 3085938688);
  g_assert_cmpuint (l->parameters_by_dtype->len, ==, 1);
  bf16 = g_ptr_array_index (l->parameters_by_dtype, 0);
  g_assert_cmpstr (bf16->dtype, ==, "BF16");
  g_assert_cmpuint (bf16->parameters, ==, 3085938688);
  g_assert_nonnull (l->config);
  g_assert_cmpuint (l->config->layers, ==, 36);
  g_assert_cmpuint (l->config->hidden_size, ==, 2048);
  g_assert_cmpuint (l->config->intermediate_size, ==, 11008);
  g_assert_cmpuint (l->config->heads, ==, 16);
  g_assert_cmpuint (l->config->kv_heads, ==, 2);
  g_assert_cmpuint (l->config->vocab_size, ==, 151936);
  g_assert_cmpuint (l->config->max_position_embeddings, ==, 32768);
  g_assert_true (l->has_tokenizer_max_length);
  g_assert_cmpuint (l->tokenizer_max_length, ==, 131072);
  g_assert_true (l->config->tied_embeddings);
  g_assert_cmpint (l->bos_token_id, ==, 151643);
  g_assert_cmpuint (l->eos_token_ids->len, ==, 2);
  g_assert_cmpint (g_array_index (l->eos_token_ids, gint64, 0), ==, 151645);
  g_assert_cmpint (g_array_index (l->eos_token_ids, gint64, 1), ==, 151643);
  g_assert_true (l->has_derived);
  g_assert_cmpuint (l->derived.total, ==, 3085938688);
  g_assert_cmpfloat (l->derived_difference, ==, 0.0);
  g_assert_cmpuint (l->n_tensors, ==, 434);
  g_assert_cmpuint (l->tensor_bytes, ==, 6171877376);

  /* 2. Base or instruct. */
  g_assert_nonnull (l->kind);
  g_assert_cmpint (l->kind->kind, ==, HR_HF_KIND_INSTRUCT);
  g_assert_cmpstr (l->kind->base_model, ==, "Qwen/Qwen2.5-3B");

  /* 3. Download. */
  g_assert_cmpuint (l->files->len, ==, 12);
  g_assert_cmpuint (l->total_bytes, ==, 6183464935);
  g_assert_cmpuint (l->weight_files->len, ==, 2);
  f = g_ptr_array_index (l->weight_files, 0);
  g_assert_cmpstr (f->path, ==, QWEN_SHARD1);
  g_assert_cmpuint (f->size, ==, 3968658944);
  f = g_ptr_array_index (l->weight_files, 1);
  g_assert_cmpstr (f->path, ==, QWEN_SHARD2);
  g_assert_cmpuint (f->size, ==, 2203268048);
  g_assert_cmpstr (l->largest->path, ==, QWEN_SHARD1);

  /* 4. License: the badge is a label; the file is the contract. */
  g_assert_cmpstr (l->license, ==, "other");
  g_assert_cmpstr (l->license_name, ==, "qwen-research");
  g_assert_cmpstr (l->license_file, ==, "LICENSE");
  g_assert_cmpstr (l->license_title, ==, "Qwen RESEARCH LICENSE AGREEMENT");
  g_assert_true (l->non_commercial);
  g_assert_cmpstr (l->non_commercial_reason, ==, "LICENSE says “non commercial”");

  /* The model spec, pinned to the commit. */
  g_assert_nonnull (l->spec);
  g_assert_cmpstr (l->spec->name, ==, QWEN_REPO);
  g_assert_cmpstr (l->spec->origin, ==, "hf:Qwen/Qwen2.5-3B-Instruct@aa8e72537993ba99e69dfaafa59ed015b17504d1");
  g_assert_cmpuint (l->spec->parameters, ==, 3085938688);
  g_assert_cmpstr (l->spec->precision, ==, "bf16");
  g_assert_cmpuint (l->spec->file_bytes, ==, 6171877376);
  g_assert_cmpuint (l->spec->layers, ==, 36);
  g_assert_cmpuint (l->spec->kv_heads, ==, 2);
  g_assert_cmpuint (l->spec->key_length, ==, 128);
  g_assert_cmpuint (l->spec->context_length, ==, 32768);
  g_assert_true (hr_model_spec_validate (l->spec, NULL));
  /* W3: 3,085,938,688 x 16 bits / 8 = 6,171,877,376 bytes = total_size. */
  g_assert_cmpuint (hr_memory_weight_bytes (l->spec->parameters, 16.0), ==, l->tensor_bytes);
  g_assert_cmpstr (hr_hub_lookup_weight_precision (l), ==, "bf16");
}

static void
test_qwen_lookup (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *obj;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  fake->valid_token = g_strdup ("hf_fixture_token");
  client = client_for (fake, "hf_fixture_token");

  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (lookup);
  assert_qwen_figures (lookup);
  g_assert_cmpstr (lookup->revision, ==, "main");
  g_assert_cmpstr (lookup->parameters_source, ==, "the Hub API (safetensors field)");

  /* A few kilobytes: under 100 kB served, no weight byte at all. */
  g_test_message ("served %" G_GUINT64_FORMAT " bytes in %u requests", fake->bytes_served, fake->requests);
  g_assert_cmpuint (fake->bytes_served, <, 100000);
  g_assert_cmpuint (lookup->bytes_received, ==, fake->bytes_served);
  g_assert_false (fake->weight_body_requested);
  g_assert_cmpuint (fake->weight_range_end_max, ==, 0);
  g_assert_cmpuint (log_count (fake, ".safetensors "), ==, 0);
  g_assert_cmpuint (fake->cdn_requests, ==, 0);
  /* Model info at main; everything else pinned to the sha. */
  g_assert_cmpuint (log_count (fake, "/revision/main?expand=sha&"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/resolve/main/"), ==, 0);
  g_assert_cmpuint (log_count (fake, "/resolve/" QWEN_SHA "/config.json"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/resolve/" QWEN_SHA "/LICENSE"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/resolve/" QWEN_SHA "/tokenizer.json"), ==, 0);
  /* 12 files at 5 a page: 3 pages by Link rel="next". */
  g_assert_cmpuint (log_count (fake, "/tree/" QWEN_SHA "?recursive=true"), ==, 3);
  g_assert_cmpuint (lookup->requests, ==, fake->requests);
  /* The token went to the Hub. */
  g_assert_cmpstr (fake->hub_authorization, ==, "Bearer hf_fixture_token");

  json = hr_hub_lookup_to_json (lookup);
  obj = json_node_get_object (json);
  g_assert_cmpint (json_object_get_int_member (obj, "parameters"), ==, 3085938688);
  g_assert_cmpint (json_object_get_int_member (obj, "total_bytes"), ==, 6183464935);
  g_assert_cmpint (json_object_get_int_member (obj, "file_count"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (obj, "tokenizer_model_max_length"), ==, 131072);
  g_assert_cmpstr (json_object_get_string_member (obj, "license_title"), ==, "Qwen RESEARCH LICENSE AGREEMENT");
  g_assert_true (json_object_get_boolean_member (obj, "non_commercial"));
  g_assert_cmpstr (json_object_get_string_member (obj, "kind"), ==, "instruct");
}

static void
test_revision_encoded (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  client = client_for (fake, NULL);
  lookup = run_lookup (client, QWEN_REPO, "refs/pr/1", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lookup->revision, ==, "refs/pr/1");
  g_assert_cmpstr (lookup->sha, ==, QWEN_SHA);
  g_assert_cmpuint (log_count (fake, "/revision/refs/pr/1?"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/tree/" QWEN_SHA "?"), ==, 3);
  /* No token: none sent. */
  g_assert_null (fake->hub_authorization);
}

/* SoupServer decodes the path before a handler sees it, so the request
 * line itself is read here, from a plain socket. */
static gboolean
on_raw_request (GThreadedSocketService *service,
                GSocketConnection      *connection,
                GObject                *source,
                gpointer                user_data)
{
  char **line = user_data;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr(GDataInputStream) data = g_data_input_stream_new (in);
  const char *reply = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  char *first;

  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (data), FALSE);
  first = g_data_input_stream_read_line (data, NULL, NULL, NULL);
  g_atomic_pointer_set (line, first);
  g_output_stream_write_all (out, reply, strlen (reply), NULL, NULL, NULL);
  return TRUE;
}

static void
test_revision_request_line (void)
{
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autofree char *endpoint = NULL;
  char *line = NULL;

  g_assert_true (g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error));
  g_signal_connect (service, "run", G_CALLBACK (on_raw_request), &line);
  g_socket_service_start (service);
  endpoint = g_strdup_printf ("http://127.0.0.1:%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  client = g_object_new (HR_TYPE_HUB_CLIENT, "endpoint", endpoint, "token", "", "use-keyring", FALSE, NULL);

  lookup = run_lookup (client, QWEN_REPO, "refs/pr/1", NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH);
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  /* The revision is percent-encoded whole: refs/pr/1 -> refs%2Fpr%2F1. */
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "GET /api/models/Qwen/Qwen2.5-3B-Instruct/revision/refs%2Fpr%2F1?expand=sha&"));
  g_free (line);
}

static void
test_index_fallback (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_NO_API_FIELD);
  client = client_for (fake, NULL);
  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  /* W4: total_size / 2 bytes per BF16 value. */
  g_assert_cmpuint (lookup->parameters, ==, 3085938688);
  g_assert_cmpstr (lookup->parameters_source, ==, "model.safetensors.index.json total_size / 2 bytes (bfloat16)");
  g_assert_cmpuint (lookup->n_tensors, ==, 434);
  g_assert_cmpuint (lookup->spec->parameters, ==, 3085938688);
  g_assert_cmpuint (fake->cdn_requests, ==, 0);
  g_assert_false (fake->weight_body_requested);
  g_assert_cmpuint (fake->bytes_served, <, 100000);
}

static void
test_header_fallback (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_NO_INDEX);
  fake->valid_token = g_strdup ("hf_fixture_token");
  client = client_for (fake, "hf_fixture_token");
  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->parameters, ==, 3085938688);
  g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors headers of 2 files");
  g_assert_cmpuint (lookup->n_tensors, ==, 434);
  g_assert_cmpuint (lookup->tensor_bytes, ==, 6171877376);
  g_assert_cmpuint (lookup->files->len, ==, 11);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, 6171877376);

  /* One Range read per shard, through the CDN, never past the header probe. */
  g_assert_cmpuint (log_count (fake, "hub GET /" QWEN_REPO "/resolve/" QWEN_SHA "/" QWEN_SHARD1 " bytes=0-100000"), ==, 1);
  g_assert_cmpuint (log_count (fake, "hub GET /" QWEN_REPO "/resolve/" QWEN_SHA "/" QWEN_SHARD2 " bytes=0-100000"), ==, 1);
  g_assert_cmpuint (log_count (fake, "cdn GET /repos/" QWEN_SHA "/" QWEN_SHARD1 " bytes=0-100000"), ==, 1);
  g_assert_cmpuint (fake->cdn_requests, ==, 2);
  g_assert_cmpuint (fake->weight_range_end_max, ==, 100000);
  g_assert_false (fake->weight_body_requested);
  /* The token went to the Hub and never to the redirect target. */
  g_assert_cmpstr (fake->hub_authorization, ==, "Bearer hf_fixture_token");
  g_assert_cmpuint (fake->cdn_authorization, ==, 0);
}

/* A small model whose header is over 100 kB: two Range reads. */
static GBytes *
big_header_file (guint n_tensors,
                 guint64 *out_params)
{
  GString *json = g_string_new ("{\"__metadata__\":{\"format\":\"pt\"}");
  GByteArray *out = g_byte_array_new ();
  guint64 n;
  guint8 len[8];

  for (guint i = 0; i < n_tensors; i++)
    g_string_append_printf (json, ",\"model.layers.%u.padding_for_a_long_name.weight\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[%u,%u]}",
                            i, i * 16, i * 16 + 16);
  g_string_append (json, "}");
  n = json->len;
  for (guint i = 0; i < 8; i++)
    len[i] = (guint8) (n >> (8 * i));
  g_byte_array_append (out, len, 8);
  g_byte_array_append (out, (const guint8 *) json->str, json->len);
  g_string_free (json, TRUE);
  *out_params = 4ull * n_tensors;
  return g_byte_array_free_to_bytes (out);
}

static void
run_big_header (gboolean ignore_range)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  guint64 params = 0;
  g_autoptr(GBytes) head = big_header_file (1500, &params);
  const char *config = "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":64,"
                       "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"intermediate_size\":128,\"vocab_size\":100,"
                       "\"torch_dtype\":\"float32\"}";
  g_autoptr(GBytes) config_bytes = g_bytes_new_static (config, strlen (config));
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-llama", "1111111111111111111111111111111111111111",
                                  "{\"tags\":[\"license:apache-2.0\"],\"cardData\":{\"license\":\"apache-2.0\"}}");
  guint64 size = g_bytes_get_size (head) + 1500 * 16;

  g_assert_cmpuint (g_bytes_get_size (head), >, 100001);
  fake->ignore_range = ignore_range;
  repo_add_file (repo, "config.json", strlen (config), FALSE, config_bytes, FALSE);
  repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);

  lookup = run_lookup (client, "test-org/tiny-llama", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->parameters, ==, params);
  g_assert_cmpuint (lookup->n_tensors, ==, 1500);
  g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors header of 1 file");
  g_assert_cmpstr (lookup->license, ==, "apache-2.0");
  g_assert_null (lookup->license_title);
  g_assert_false (lookup->non_commercial);
  g_assert_cmpint (lookup->kind->kind, ==, HR_HF_KIND_BASE);
  if (!ignore_range)
    {
      g_autofree char *second = g_strdup_printf ("cdn GET /repos/1111111111111111111111111111111111111111/model.safetensors bytes=8-%" G_GSIZE_FORMAT,
                                                 g_bytes_get_size (head) - 1);

      g_assert_cmpuint (log_count (fake, "model.safetensors bytes=0-100000"), ==, 2);
      g_assert_cmpuint (log_count (fake, second), ==, 1);
      g_assert_false (fake->weight_body_requested);
    }
}

static void
test_big_header (void)
{
  run_big_header (FALSE);
}

static void
test_ignored_range (void)
{
  /* A server that ignores Range sends the whole file: the client reads what
   * it asked for and stops. */
  run_big_header (TRUE);
}

/* A GGUF repository: the gguf field, several quantizations (one split),
 * and the header of the Q4_K_M file read by Range for exact figures. */
static GBytes *
gguf_head (guint64 *out_file_size,
           guint64 *out_tensor_bytes)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GwTensorSpec specs[300];
  guint n = gw_llama32_3b_tensors (specs, names);
  GgufWriter *w = gw_new ();
  guint64 data_offset, tensor_end = 0;
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < 128256; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("tok%u", i));

  gw_header (w, 3, n, 13);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", "Llama 3.2 3B Instruct");
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "llama.block_count", 28);
  gw_kv_u32 (w, "llama.context_length", 131072);
  gw_kv_u32 (w, "llama.embedding_length", 3072);
  gw_kv_u32 (w, "llama.feed_forward_length", 8192);
  gw_kv_u32 (w, "llama.attention.head_count", 24);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 8);
  gw_kv_u32 (w, "llama.rope.dimension_count", 128);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_str_array (w, "tokenizer.ggml.tokens", (const char * const *) tokens->pdata, tokens->len);
  gw_kv_u32 (w, "tokenizer.ggml.bos_token_id", 128000);
  gw_write_tensors (w, specs, n);
  data_offset = gw_align (w->len, 32);
  for (guint i = 0; i < n; i++)
    tensor_end = gw_align (tensor_end, 32) + gw_spec_bytes (&specs[i]);
  *out_tensor_bytes = 0;
  for (guint i = 0; i < n; i++)
    *out_tensor_bytes += gw_spec_bytes (&specs[i]);
  *out_file_size = data_offset + tensor_end;
  return g_byte_array_free_to_bytes (w);
}

static void
test_gguf_repo (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  guint64 file_size = 0, tensor_bytes = 0;
  g_autoptr(GBytes) head = gguf_head (&file_size, &tensor_bytes);
  FakeRepo *repo = fake_add_repo (fake, "test-org/Llama-3.2-3B-Instruct-GGUF", "2222222222222222222222222222222222222222",
                                  "{\"tags\":[\"gguf\",\"base_model:meta-llama/Llama-3.2-3B-Instruct\",\"license:llama3.2\"],"
                                  "\"cardData\":{\"license\":\"llama3.2\",\"base_model\":[\"meta-llama/Llama-3.2-3B-Instruct\"]},"
                                  "\"config\":{},\"gguf\":{\"total\":3212749888,\"architecture\":\"llama\","
                                  "\"context_length\":131072,\"totalFileSize\":2019377376}}");
  const HrHubGgufFile *g;
  guint64 params;

  repo_add_file (repo, "README.md", 9000, FALSE, NULL, FALSE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-Q4_K_M.gguf", file_size, TRUE, head, TRUE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-Q8_0.gguf", 3421899136, TRUE, NULL, TRUE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-f16-00001-of-00002.gguf", 4000000000, TRUE, NULL, TRUE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-f16-00002-of-00002.gguf", 2433323456, TRUE, NULL, TRUE);

  lookup = run_lookup (client, "test-org/Llama-3.2-3B-Instruct-GGUF", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->gguf_files->len, ==, 3);
  g = g_ptr_array_index (lookup->gguf_files, 0);
  g_assert_cmpstr (g->path, ==, "Llama-3.2-3B-Instruct-Q4_K_M.gguf");
  g_assert_cmpstr (g->label, ==, "Q4_K_M");
  g_assert_cmpuint (g->size, ==, file_size);
  g = g_ptr_array_index (lookup->gguf_files, 1);
  g_assert_cmpstr (g->label, ==, "Q8_0");
  g = g_ptr_array_index (lookup->gguf_files, 2);
  g_assert_cmpstr (g->path, ==, "Llama-3.2-3B-Instruct-f16-00001-of-00002.gguf");
  g_assert_cmpstr (g->label, ==, "F16");
  g_assert_cmpuint (g->parts, ==, 2);
  g_assert_cmpuint (g->size, ==, 6433323456);

  g_assert_cmpstr (lookup->gguf_chosen, ==, "Llama-3.2-3B-Instruct-Q4_K_M.gguf");
  g_assert_nonnull (lookup->gguf);
  g_assert_cmpuint (lookup->parameters, ==, 3212749888);
  g_assert_cmpstr (lookup->parameters_source, ==, "the Hub API (gguf field)");
  g_assert_cmpstr (lookup->architecture, ==, "llama");
  g_assert_cmpint (lookup->kind->kind, ==, HR_HF_KIND_INSTRUCT);
  g_assert_cmpstr (lookup->kind->base_model, ==, "meta-llama/Llama-3.2-3B-Instruct");
  g_assert_cmpstr (lookup->license, ==, "llama3.2");

  /* Exact figures from the header: W6's tensor list (Q4_K x168, Q6_K x29,
   * F32 x58) and its bits per weight. */
  g_assert_nonnull (lookup->spec);
  params = lookup->spec->parameters;
  g_assert_cmpuint (params, ==, hr_gguf_file_get_parameters (lookup->gguf));
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (lookup->gguf), ==, tensor_bytes);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (lookup->gguf, GW_Q4_K, NULL), ==, 168);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (lookup->gguf, GW_Q6_K, NULL), ==, 29);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (lookup->gguf, GW_F32, NULL), ==, 58);
  g_assert_cmpuint (lookup->spec->layers, ==, 28);
  g_assert_cmpuint (lookup->spec->kv_heads, ==, 8);
  g_assert_cmpuint (lookup->spec->key_length, ==, 128);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, file_size);
  g_assert_cmpfloat_with_epsilon (hr_memory_effective_bits (lookup->spec->file_bytes, params),
                                  (double) file_size * 8.0 / (double) params, 1e-12);
  g_test_message ("GGUF header read in %" G_GUINT64_FORMAT " bytes; %.4f bits per weight",
                  lookup->gguf_header_bytes_read, hr_memory_effective_bits (file_size, params));
  /* The header, not the tensor data: reads stop at the header. */
  g_assert_false (fake->weight_body_requested);
  g_assert_cmpuint (fake->weight_range_end_max, <, g_bytes_get_size (head) * 2);
  g_assert_cmpuint (log_count (fake, "Q8_0.gguf"), ==, 0);
}

typedef struct {
  const char *name;
  const char *fault_prefix;   /* NULL: no fault */
  guint       status;
  const char *code;
  const char *message;
  const char *header;
  const char *value;
  const char *repo;
  const char *revision;
  const char *token;
  gint        expected_code;
  const char *expected_message; /* %s = endpoint */
} ErrorCase;

static void
test_errors (void)
{
  static const ErrorCase cases[] = {
    { "gated", NULL, 0, NULL, NULL, NULL, NULL, "test-org/gated-model", NULL, NULL,
      HR_NET_ERROR_GATED,
      "test-org/gated-model is gated: request access on its page, %s/test-org/gated-model, then set a token that has access (HF_TOKEN or the stored token)" },
    { "gated-403", "/test-org/gated-model/resolve/", 403, "GatedRepo", "Access to model is restricted and you are not in the authorized list.",
      NULL, NULL, "test-org/gated-model", NULL, "hf_fixture_token",
      HR_NET_ERROR_GATED,
      "test-org/gated-model is gated: request access on its page, %s/test-org/gated-model, then set a token that has access (HF_TOKEN or the stored token)" },
    { "not-found", NULL, 0, NULL, NULL, NULL, NULL, "test-org/no-such-model", NULL, NULL,
      HR_NET_ERROR_NOT_FOUND,
      "No repository test-org/no-such-model: check the name; if it is private or gated, set a token that can read it" },
    { "401-no-code", "/api/models/", 401, NULL, "Unauthorized", NULL, NULL, QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_NOT_FOUND,
      "No repository Qwen/Qwen2.5-3B-Instruct: check the name; if it is private or gated, set a token that can read it" },
    { "bad-token", NULL, 0, NULL, NULL, NULL, NULL, QWEN_REPO, NULL, "hf_wrong",
      HR_NET_ERROR_UNAUTHORIZED,
      "The Hub refused the token (invalid credentials): check HF_TOKEN or the stored token" },
    { "revision", NULL, 0, NULL, NULL, NULL, NULL, QWEN_REPO, "v9.9", NULL,
      HR_NET_ERROR_REVISION_NOT_FOUND,
      "Qwen/Qwen2.5-3B-Instruct has no branch, tag or commit “v9.9”" },
    { "entry", "/Qwen/Qwen2.5-3B-Instruct/resolve/" QWEN_SHA "/config.json", 404, "EntryNotFound", "Entry not found",
      NULL, NULL, QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_NOT_FOUND, "config.json is not in Qwen/Qwen2.5-3B-Instruct at main" },
    { "retry-after", "/api/models/", 429, NULL, "rate limited", "Retry-After", "17", QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait 17 seconds, then try again" },
    { "ratelimit-header", "/api/models/", 429, NULL, "rate limited", "RateLimit", "\"api\";r=0;t=55", QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait 55 seconds, then try again" },
    { "ratelimit-one", "/api/models/", 429, NULL, "rate limited", "Retry-After", "1", QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait 1 second, then try again" },
    { "ratelimit-unknown", "/api/models/", 429, NULL, "rate limited", NULL, NULL, QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait a minute, then try again" },
    { "server", "/api/models/", 500, NULL, "Internal Error", NULL, NULL, QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_SERVER, "The Hub failed (HTTP 500): try again later" },
    { "server-tree", "/api/models/Qwen/Qwen2.5-3B-Instruct/tree/", 503, NULL, "Service Unavailable", NULL, NULL, QWEN_REPO, NULL, NULL,
      HR_NET_ERROR_SERVER, "The Hub failed (HTTP 503): try again later" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const ErrorCase *c = &cases[i];
      g_autoptr(FakeHub) fake = fake_hub_new ();
      g_autoptr(HrHubClient) client = client_for (fake, c->token);
      g_autoptr(HrHubLookup) lookup = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = NULL;
      FakeRepo *gated;

      g_test_message ("error case %s", c->name);
      add_qwen (fake, QWEN_REPO, QWEN_FULL);
      gated = fake_add_repo (fake, "test-org/gated-model", "3333333333333333333333333333333333333333",
                             "{\"gated\":\"manual\",\"tags\":[\"license:llama3.1\"]}");
      gated->gated = TRUE;
      {
        g_autoptr(GBytes) empty = g_bytes_new_static ("{}", 2);

        repo_add_file (gated, "config.json", 2, FALSE, empty, FALSE);
      }
      fake->valid_token = g_strdup ("hf_fixture_token");
      if (c->fault_prefix != NULL)
        {
          fake_fault (fake, c->fault_prefix, c->status, c->code, c->message);
          fake->fault_header = g_strdup (c->header);
          fake->fault_value = g_strdup (c->value);
        }

      lookup = run_lookup (client, c->repo, c->revision, NULL, &error);
      g_assert_null (lookup);
      g_assert_error (error, HR_NET_ERROR, c->expected_code);
      expected = g_strdup_printf (c->expected_message, fake->hub_url);
      g_assert_cmpstr (error->message, ==, expected);
      g_assert_cmpuint (fake->cdn_authorization, ==, 0);
    }
}

static void
test_offline (void)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *expected = NULL;
  guint16 port;

  /* A port that was free a moment ago: nothing listens there now. */
  g_assert_true (g_socket_listener_add_address (listener, address, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error));
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_listener_close (listener);

  endpoint = g_strdup_printf ("http://127.0.0.1:%u", port);
  /* The endpoint comes from HF_ENDPOINT, the token from HF_TOKEN. */
  g_setenv ("HF_ENDPOINT", endpoint, TRUE);
  g_setenv ("HF_TOKEN", "hf_env_token", TRUE);
  client = g_object_new (HR_TYPE_HUB_CLIENT, "use-keyring", FALSE, NULL);
  g_unsetenv ("HF_ENDPOINT");
  g_unsetenv ("HF_TOKEN");
  g_assert_cmpstr (hr_hub_client_get_endpoint (client), ==, endpoint);

  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED);
  expected = g_strdup_printf ("Could not reach 127.0.0.1:%u — check the network or HF_ENDPOINT", port);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_default_endpoint (void)
{
  g_autoptr(HrHubClient) client = NULL;

  g_unsetenv ("HF_ENDPOINT");
  client = g_object_new (HR_TYPE_HUB_CLIENT, "use-keyring", FALSE, "token", "", NULL);
  g_assert_cmpstr (hr_hub_client_get_endpoint (client), ==, "https://huggingface.co");
}

static void
test_deadline (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  gint64 start;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  fake_fault (fake, "/api/models/Qwen/Qwen2.5-3B-Instruct/tree/", 0, NULL, NULL);
  fake->fault_stall = TRUE;
  client = g_object_new (HR_TYPE_HUB_CLIENT, "endpoint", fake->hub_url, "token", "",
                         "use-keyring", FALSE, "timeout", 300, NULL);
  start = g_get_monotonic_time ();
  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  expected = g_strdup_printf ("%s did not answer within 1 second: check the network or HF_ENDPOINT, then try again",
                              fake->hub_url + strlen ("http://"));
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_cancel (void)
{
  for (guint when = 0; when < 3; when++)
    {
      g_autoptr(FakeHub) fake = fake_hub_new ();
      g_autoptr(HrHubClient) client = client_for (fake, NULL);
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(HrHubLookup) lookup = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *user_dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);

      add_qwen (fake, QWEN_REPO, QWEN_NO_INDEX);
      if (when == 0)
        g_cancellable_cancel (cancellable);           /* before anything is sent */
      else
        {
          /* in the middle: when the tree (1) or a shard header (2) is asked for */
          fake_fault (fake, when == 1 ? "/api/models/Qwen/Qwen2.5-3B-Instruct/tree/"
                                      : "/Qwen/Qwen2.5-3B-Instruct/resolve/" QWEN_SHA "/model-0000",
                      0, NULL, NULL);
          fake->fault_stall = TRUE;
          fake->cancel_on_request = g_object_ref (cancellable);
        }
      lookup = run_lookup (client, QWEN_REPO, NULL, cancellable, &error);
      g_assert_null (lookup);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      /* Nothing half-added: the lookup writes nothing. */
      g_assert_false (g_file_test (user_dir, G_FILE_TEST_EXISTS));
    }
}

static void
test_bad_repo_id (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  lookup = run_lookup (client, "../etc/passwd", NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH);
  g_assert_cmpstr (error->message, ==, "“../etc/passwd” is not a repository id: write owner/name, for example Qwen/Qwen2.5-3B-Instruct");
  g_assert_cmpuint (fake->requests, ==, 0);
}

/* headroom-cli hub against the fake: the week-3 answers as text and JSON. */
typedef struct {
  gboolean done;
  char    *out;
  char    *err;
  int      status;
} CliRun;

static void
on_cli_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  CliRun *run = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &run->out, &run->err, &error));
  g_assert_no_error (error);
  run->status = g_subprocess_get_exit_status (G_SUBPROCESS (source));
  run->done = TRUE;
}

static void
run_cli (FakeHub            *fake,
         const char * const *args,
         CliRun             *run)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("HEADROOM_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (launcher, "HF_ENDPOINT", fake->hub_url, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_subprocess_launcher_unsetenv (launcher, "HF_TOKEN");
  /* No session bus: the keyring lookup fails fast and the CLI goes on. */
  g_subprocess_launcher_unsetenv (launcher, "DBUS_SESSION_BUS_ADDRESS");
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  *run = (CliRun) { FALSE, NULL, NULL, -1 };
  g_subprocess_communicate_utf8_async (proc, NULL, NULL, on_cli_done, run);
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_cli (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  const char * const text_args[] = { "hub", QWEN_REPO, NULL };
  const char * const json_args[] = { "hub", QWEN_REPO "@main", "--json", NULL };
  const char * const bad_args[] = { "hub", "not-a-repo", NULL };
  const char * const missing_args[] = { "hub", "test-org/missing", NULL };
  static const char * const expected_lines[] = {
    "repository          Qwen/Qwen2.5-3B-Instruct",
    "revision            main (commit aa8e72537993ba99e69dfaafa59ed015b17504d1)",
    "architecture        Qwen2ForCausalLM (model_type qwen2)",
    "parameters          3,085,938,688 (BF16 3,085,938,688), from the Hub API (safetensors field)",
    "config check        3,085,938,688 derived from config.json, 0.00 % apart",
    "layers              36",
    "hidden size         2,048",
    "intermediate size   11,008",
    "attention heads     16",
    "key/value heads     2",
    "head dim            128 (hidden / heads)",
    "vocab               151,936",
    "native context      32,768 tokens (max_position_embeddings)",
    "tied embeddings     yes",
    "tokenizer cap       131,072 tokens (model_max_length; not the native limit)",
    "BOS                 151643",
    "EOS                 151645 and 151643",
    "kind                instruct",
    "base model          Qwen/Qwen2.5-3B",
    "files               12 files, 6,183,464,935 bytes, 6.18 GB (5.76 GiB)",
    "weight shards       model-00001-of-00002.safetensors, 3,968,658,944 bytes",
    "                    model-00002-of-00002.safetensors, 2,203,268,048 bytes",
    "tensors             434, 6,171,877,376 bytes of tensor data",
    "license             other (qwen-research)",
    "LICENSE             “Qwen RESEARCH LICENSE AGREEMENT”",
    "commercial use      restricted: LICENSE says “non commercial”",
    "                    The badge is a label; the file is the contract.",
    "weights (bf16)      6,171,877,376 bytes: 6.17 GB (decimal, / 1e9), 5.75 GiB (binary, / 1024^3)",
    NULL,
  };
  CliRun run;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *obj, *memory;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);

  run_cli (fake, text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  for (guint i = 0; expected_lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strconcat (expected_lines[i], "\n", NULL);

      if (strstr (run.out, line) == NULL)
        g_error ("missing line: %s", expected_lines[i]);
    }
  /* 6.17 GB + 0.15 GB against the seed board's 6.1 GB of headroom. */
  g_assert_nonnull (strstr (run.out, "\nmemory              Jetson Orin Nano Super at 4,096 tokens: weights 6.17 GB + KV cache 0.15 GB = 6.32 GB; over by 0.22 GB\n"));
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  obj = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (obj, "parameters"), ==, 3085938688);
  g_assert_cmpstr (json_object_get_string_member (obj, "sha"), ==, QWEN_SHA);
  g_assert_cmpstr (json_object_get_string_member (obj, "weight_precision"), ==, "bf16");
  g_assert_cmpint (json_object_get_int_member (obj, "weight_bytes"), ==, 6171877376);
  memory = json_object_get_object_member (obj, "memory");
  g_assert_nonnull (memory);
  g_assert_cmpint (json_object_get_int_member (memory, "context_tokens"), ==, 4096);
  /* KV cache at f16: 2 x 36 layers x 2 KV heads x 128 x 2 bytes x 4,096 tokens. */
  g_assert_cmpint (json_object_get_int_member (memory, "kv_cache_bytes"), ==, 150994944);
  g_assert_cmpint (json_object_get_int_member (memory, "weights_bytes"), ==, 6171877376);
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, bad_args, &run);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.err, ==, "headroom-cli: “not-a-repo” is not a repository id: write owner/name, for example Qwen/Qwen2.5-3B-Instruct\n");
  g_free (run.out);
  g_free (run.err);

  run_cli (fake, missing_args, &run);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_suffix (run.err, "headroom-cli: No repository test-org/missing: check the name; if it is private or gated, set a token that can read it\n"));
  g_free (run.out);
  g_free (run.err);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HF_ENDPOINT");

  g_test_add_func ("/hub/qwen", test_qwen_lookup);
  g_test_add_func ("/hub/revision-encoded", test_revision_encoded);
  g_test_add_func ("/hub/revision-request-line", test_revision_request_line);
  g_test_add_func ("/hub/index-fallback", test_index_fallback);
  g_test_add_func ("/hub/header-fallback", test_header_fallback);
  g_test_add_func ("/hub/big-header", test_big_header);
  g_test_add_func ("/hub/ignored-range", test_ignored_range);
  g_test_add_func ("/hub/gguf", test_gguf_repo);
  g_test_add_func ("/hub/errors", test_errors);
  g_test_add_func ("/hub/offline", test_offline);
  g_test_add_func ("/hub/default-endpoint", test_default_endpoint);
  g_test_add_func ("/hub/deadline", test_deadline);
  g_test_add_func ("/hub/cancel", test_cancel);
  g_test_add_func ("/hub/bad-repo-id", test_bad_repo_id);
  g_test_add_func ("/hub/cli", test_cli);

  return g_test_run ();
}
