/* fake-hub.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fake Hugging Face Hub and CDN for tests (see fake-hub.h), moved out of
 * test-hub-client.c so the window's tests can look models up against it too.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "fake-hub.h"
#include "hub-fixtures.h"

/* ------------------------------------------------------------------ */
/* The fake Hub                                                        */


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

FakeFile *
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

FakeRepo *
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

FakeRepo *
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

FakeFile *
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
      end = MIN ((guint64) ranges[0].end, f->size - 1); /* as a real server cuts a range at the end */
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
  if (repo->no_siblings)
    json_array_unref (siblings);
  else
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

  if (fake->rename_from != NULL)
    {
      g_autofree char *needle = g_strdup_printf ("/%s/", fake->rename_from);
      const char *at = strstr (path, needle);

      if (at != NULL)
        {
          g_autofree char *location = g_strdup_printf ("%.*s/%s/%s%s%s", (int) (at - path), path, fake->rename_to,
                                                       at + strlen (needle), query ? "?" : "", query ? query : "");

          fake->redirects_307++;
          soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Location", location);
          respond (fake, msg, SOUP_STATUS_TEMPORARY_REDIRECT, NULL, NULL, 0);
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

FakeHub *
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

void
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
  g_free (fake->rename_from);
  g_free (fake->rename_to);
  g_free (fake->fault_prefix);
  g_free (fake->fault_code);
  g_free (fake->fault_message);
  g_free (fake->fault_header);
  g_free (fake->fault_value);
  g_clear_object (&fake->cancel_on_request);
  g_free (fake);
}


void
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


/* The 12 files of the repository. The seed gives the total (6,183,464,935
 * bytes) and the shard sizes; the small files the fake serves have their
 * fixtures' sizes; tokenizer.json, vocab.json and merges.txt carry sizes of
 * the right order, and README.md takes the remainder so the total is the
 * seed's. */
void
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
