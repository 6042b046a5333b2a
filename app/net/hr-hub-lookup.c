/* hr-hub-lookup.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The steps of HrHubClient's lookup, each as parallel as the protocol
 * allows (the answers are read by app/core/hf/hr-hub-info.c):
 *  1. the model info at the revision, which gives the commit sha everything
 *     else is pinned to (the token was settled before, hr-hub-client.c);
 *  2. in parallel: config.json, generation_config.json,
 *     tokenizer_config.json, the file tree (paged by Link rel="next"),
 *     model.safetensors.index.json, the LICENSE file when the license tag is
 *     not a well-known open one, and for GGUF repos one file's header (for
 *     a split model, the first part's, then every other part's, in parallel)
 *     and the header of the mmproj file llama.cpp's -hf would take with it
 *     (hr_hub_answers_choose_mmproj());
 *  3. only when neither the API's safetensors field nor the index gives the
 *     parameter count, or the API counts packed containers, or the index
 *     names a vision or audio tower: every
 *     safetensors shard's header, in parallel, by Range (bytes=0-100000,
 *     then the rest when the header is larger).
 * Every request goes through HrHttp: its own deadline, a body cap, and the
 * token to the Hub's own origin only.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hub-client-private.h"
#include "hr-net-error.h"

#define MAX_TREE_PAGES       1000
#define CAP_SMALL_JSON       (4 * 1024 * 1024)    /* config, generation_config */
#define CAP_LARGE_JSON       (16 * 1024 * 1024)   /* model info, tokenizer_config, a tree page */
#define CAP_INDEX            (64 * 1024 * 1024)   /* an index can exceed 10 MB (docs/hub.md, "Files") */
#define CAP_LICENSE          (1024 * 1024)
#define GGUF_FIRST_READ      (1024 * 1024)
#define GGUF_MAX_READ        (64 * 1024 * 1024)

typedef enum {
  PART_CONFIG,
  PART_GENERATION,
  PART_TOKENIZER,
  PART_INDEX,
  PART_LICENSE,
  PART_TREE,
  PART_GGUF,
  PART_GGUF_SHARD,
  PART_HEADER,
  PART_MMPROJ,
} PartKind;

typedef struct {
  HrHubClient  *client;
  char         *revision;
  GCancellable *cancellable;   /* cancels every request of the lookup */
  GCancellable *parent;
  gulong        parent_handler;
  guint         pending;
  GError       *error;         /* the first failure */
  HrHubAnswers *a;             /* what came, and the result */
  char         *index_path;
  char         *gguf_path;
  guint64       gguf_size;
  gint64        gguf_read;     /* bytes asked for in the last GGUF read */
  gboolean      headers_phase;
  GPtrArray    *headers_unread; /* char*: "PATH (HTTP 500)" for each shard header not fetched */
  guint         headers_asked;  /* shard headers asked for */
} Lookup;

typedef struct {
  GTask    *task;   /* the lookup's */
  PartKind  kind;
  char     *path;
  char     *url;    /* for tree pages */
  guint     page;
  guint64   file_size;
  gint64    read;   /* PART_GGUF_SHARD, PART_MMPROJ: bytes asked for */
  gboolean  probe;  /* asked for without a siblings list: a 404 is "not there" */
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
lookup_free (Lookup *lk)
{
  if (lk->parent != NULL && lk->parent_handler != 0)
    g_cancellable_disconnect (lk->parent, lk->parent_handler);
  g_clear_object (&lk->parent);
  g_clear_object (&lk->cancellable);
  g_clear_object (&lk->client);
  g_free (lk->revision);
  g_clear_error (&lk->error);
  g_clear_pointer (&lk->a, hr_hub_answers_free);
  g_free (lk->index_path);
  g_clear_pointer (&lk->headers_unread, g_ptr_array_unref);
  g_free (lk->gguf_path);
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
  return g_strconcat (hr_hub_client_get_endpoint (lk->client), tail, NULL);
}

static char *
resolve_url (Lookup     *lk,
             const char *path)
{
  g_autofree char *escaped = g_uri_escape_string (path, "/", FALSE);

  return api_url (lk, "/%s/resolve/%s/%s", lk->a->repo, lk->a->result->sha, escaped);
}

static void lookup_step_done (GTask *task);
static void on_part (GObject *source, GAsyncResult *result, gpointer user_data);
static void start_part (GTask *task, PartKind kind, const char *path, gint64 start, gint64 end, gsize cap);
static void start_gguf_shard (GTask *task, const char *path, gint64 read);
static void start_mmproj (GTask *task, const char *path, gint64 read);

static gboolean
gguf_read_more (Lookup  *lk,
                GError  *parse_error)
{
  return g_error_matches (parse_error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED) &&
         lk->gguf_read < GGUF_MAX_READ &&
         (lk->gguf_size == 0 || (guint64) lk->gguf_read < lk->gguf_size);
}

/* A page of the tree, and the next one when the Link header names it. */
static void
read_tree_part (GTask          *task,
                Part           *part,
                HrHttpResponse *resp)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *next = NULL;

  gsize size;
  const char *data = g_bytes_get_data (resp->body, &size);

  if (!hr_hub_answers_read_tree_page (lk->a, data, size, &error))
    {
      lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE, "%s", error->message));
      return;
    }
  next = hr_http_link_next (soup_message_headers_get_list (resp->headers, "Link"), resp->url);
  if (next != NULL)
    {
      Part *more;

      if (part->page + 1 >= MAX_TREE_PAGES)
        {
          lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                                        _("The file list of %s runs past %u pages: refusing to read further"),
                                        lk->a->repo, MAX_TREE_PAGES));
          return;
        }
      more = g_new0 (Part, 1);
      more->task = g_object_ref (task);
      more->kind = PART_TREE;
      more->path = g_strdup (part->path);
      more->page = part->page + 1;
      lk->pending++;
      hr_hub_client_get (lk->client, next, -1, -1, CAP_LARGE_JSON, &lk->a->result->bytes_received,
                     lk->cancellable, on_part, more);
    }
}

/* The GGUF header, read again twice as far while it is cut short. */
static void
read_gguf_part (GTask          *task,
                Part           *part,
                HrHttpResponse *resp)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
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
      return;
    }
  if (gguf == NULL)
    {
      lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                    _("The GGUF header of %s could not be read: %s"),
                                    lk->gguf_path, error->message));
      return;
    }
  if (lk->gguf_size > 0)
    hr_gguf_file_set_file_bytes (gguf, lk->gguf_size);
  lk->a->result->gguf_header_bytes_read = size;
  lk->a->result->gguf = g_steal_pointer (&gguf);

  /* A split model: every other part of this quantization too. */
  {
    g_auto(GStrv) shards = hr_hub_answers_gguf_shard_paths (lk->a);

    for (guint i = 0; shards != NULL && shards[i] != NULL; i++)
      start_gguf_shard (task, shards[i], GGUF_FIRST_READ);
  }
}

/* A GGUF header asked for by range (a later part of the chosen split, or
 * the projector beside the model): read again twice as far while it is cut
 * short, its size from Content-Range. Returns the header, or NULL when it
 * was asked for again or the lookup failed. */
static HrGgufFile *
read_gguf_header_part (GTask          *task,
                       Part           *part,
                       HrHttpResponse *resp,
                       gsize          *out_size)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  const guint8 *data = g_bytes_get_data (resp->body, out_size);
  g_autoptr(HrGgufFile) gguf = hr_gguf_file_parse_data (data, *out_size, &error);
  gboolean mmproj = part->kind == PART_MMPROJ;

  if (gguf == NULL && g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED) &&
      part->read < GGUF_MAX_READ && *out_size == (gsize) part->read &&
      (resp->total == 0 || (guint64) part->read < resp->total))
    {
      if (mmproj)
        start_mmproj (task, part->path, part->read * 2);
      else
        start_gguf_shard (task, part->path, part->read * 2);
      return NULL;
    }
  if (gguf == NULL)
    {
      lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                    mmproj ? _("The GGUF header of the projector %s could not be read: %s")
                                           : _("The GGUF header of %s could not be read: %s"),
                                    part->path, error->message));
      return NULL;
    }
  if (resp->total > 0)
    hr_gguf_file_set_file_bytes (gguf, resp->total);
  return g_steal_pointer (&gguf);
}

static void
read_gguf_shard_part (GTask          *task,
                      Part           *part,
                      HrHttpResponse *resp)
{
  Lookup *lk = g_task_get_task_data (task);
  gsize size;
  HrGgufFile *gguf = read_gguf_header_part (task, part, resp, &size);

  if (gguf == NULL)
    return;
  if (lk->a->gguf_shards == NULL)
    lk->a->gguf_shards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gguf_file_unref);
  g_ptr_array_add (lk->a->gguf_shards, gguf);
  lk->a->result->gguf_header_bytes_read += size;
}

static void
read_mmproj_part (GTask          *task,
                  Part           *part,
                  HrHttpResponse *resp)
{
  Lookup *lk = g_task_get_task_data (task);
  gsize size;
  HrGgufFile *gguf = read_gguf_header_part (task, part, resp, &size);

  if (gguf == NULL)
    return;
  g_clear_pointer (&lk->a->result->mmproj, hr_gguf_file_unref);
  lk->a->result->mmproj = gguf;
  lk->a->result->mmproj_header_bytes_read = size;
}

/* A safetensors header: its length first, then the rest when it is longer than the probe. */
static void
read_header_part (GTask          *task,
                  Part           *part,
                  HrHttpResponse *resp)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (resp->body, &size);
  g_autoptr(HrSafetensorsHeader) header = NULL;
  guint64 n;

  if (size < 8 && part->url == NULL)
    {
      /* The first read holds the whole file: it cannot hold the 8-byte
       * header length (safetensors' format), let alone the JSON. */
      lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                                    g_dngettext (GETTEXT_PACKAGE,
                                                 "The safetensors file %s is %zu byte, too short to hold a header (8 bytes of length, then the JSON)",
                                                 "The safetensors file %s is %zu bytes, too short to hold a header (8 bytes of length, then the JSON)",
                                                 size),
                                    part->path, size));
      return;
    }
  if (part->url == NULL)
    {
      /* First read (bytes 0-100000). */
      if (!hr_safetensors_header_length (data, size, &n, &error))
        {
          lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                        _("The safetensors header of %s could not be read: %s"),
                                        part->path, error->message));
          return;
        }
      if (resp->total > 0 && n + 8 > resp->total)
        {
          lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                                        _("The safetensors header of %s claims %" PRIu64 " bytes, more than the file holds"),
                                        part->path, n));
          return;
        }
      if (n + 8 > size)
        {
          if (size < HR_SAFETENSORS_PROBE_BYTES)
            {
              lookup_fail (lk, g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                                            _("The safetensors file %s ends inside its header"), part->path));
              return;
            }
          /* The rest of a large header: bytes 8 .. N+7. */
          start_part (task, PART_HEADER, part->path, 8, (gint64) n + 7, 0);
          return;
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
      return;
    }
  g_ptr_array_add (lk->a->headers, g_steal_pointer (&header));
}

/* Whether HTTP @status is a success. */
static gboolean
status_ok (guint status)
{
  return status >= 200 && status < 300;
}

/* Whether @part's answer (@resp, or the failure in @error) is one to
 * read. A shard whose header cannot be fetched is named, the others'
 * figures kept (the note says what they cover); an unreadable license
 * file is noted; a probed file that is not there is passed over; any other
 * failure fails the lookup, taking @error. */
static gboolean
part_answer_usable (Lookup          *lk,
                    Part            *part,
                    HrHttpResponse  *resp,
                    GError         **error)
{
  HrHubLookup *r = lk->a->result;

  if (part->kind == PART_HEADER && lk->error == NULL &&
      ((resp == NULL && !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) ||
       (resp != NULL && !status_ok (resp->status))))
    {
      if (lk->headers_unread == NULL)
        lk->headers_unread = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (lk->headers_unread,
                       resp != NULL ? g_strdup_printf (_("the header of %s could not be read (HTTP %u)"), part->path, resp->status)
                                    : g_strdup_printf (_("the header of %s could not be read (%s)"), part->path, (*error)->message));
      return FALSE;
    }
  if (resp == NULL)
    {
      lookup_fail (lk, g_steal_pointer (error));
      return FALSE;
    }
  if (lk->error != NULL)
    return FALSE;
  if (!status_ok (resp->status) && part->kind == PART_LICENSE)
    {
      /* The license file is a detail: the card's tag still says the
       * license, so the lookup goes on and says the file was unreadable. */
      g_free (r->license_unread);
      r->license_unread = r->license != NULL
        ? g_strdup_printf (_("%s could not be read (HTTP %u); the license shown is the model card's"),
                           part->path, resp->status)
        : g_strdup_printf (_("%s could not be read (HTTP %u), and the model card names no license"),
                           part->path, resp->status);
      return FALSE;
    }
  if ((resp->status == 404 || resp->status == 403) && part->probe)
    return FALSE; /* the file is not in the repository: said where it is needed */
  if (!status_ok (resp->status))
    {
      lookup_fail (lk, hr_hub_client_status_error (lk->client, resp, lk->a->repo, lk->revision, part->path));
      return FALSE;
    }
  return TRUE;
}

/* Keeps or reads @part's body by its kind. */
static void
read_part (GTask          *task,
           Part           *part,
           HrHttpResponse *resp)
{
  Lookup *lk = g_task_get_task_data (task);

  switch (part->kind)
    {
    case PART_CONFIG:
      lk->a->config = g_bytes_ref (resp->body);
      break;
    case PART_GENERATION:
      lk->a->generation = g_bytes_ref (resp->body);
      break;
    case PART_TOKENIZER:
      lk->a->tokenizer = g_bytes_ref (resp->body);
      break;
    case PART_INDEX:
      lk->a->index = g_bytes_ref (resp->body);
      break;
    case PART_LICENSE:
      lk->a->license = g_bytes_ref (resp->body);
      break;
    case PART_TREE:
      read_tree_part (task, part, resp);
      break;
    case PART_GGUF:
      read_gguf_part (task, part, resp);
      break;
    case PART_GGUF_SHARD:
      read_gguf_shard_part (task, part, resp);
      break;
    case PART_HEADER:
      read_header_part (task, part, resp);
      break;
    case PART_MMPROJ:
      read_mmproj_part (task, part, resp);
      break;
    default:
      g_assert_not_reached ();
    }
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
  g_autoptr(HrHttpResponse) resp = hr_http_send_finish (HR_HTTP (source), result, &error);

  lk->a->result->requests++;
  if (part_answer_usable (lk, part, resp, &error))
    read_part (task, part, resp);

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
      url = api_url (lk, "/api/models/%s/tree/%s?recursive=true", lk->a->repo, lk->a->result->sha);
    }
  else
    url = resolve_url (lk, path);
  if (kind == PART_HEADER && start > 0)
    part->url = g_strdup (url);
  lk->pending++;
  hr_hub_client_get (lk->client, url, start, end, cap, &lk->a->result->bytes_received,
                 lk->cancellable, on_part, part);
}

static void
start_gguf_shard (GTask      *task,
                  const char *path,
                  gint64      read)
{
  Lookup *lk = g_task_get_task_data (task);
  Part *part = g_new0 (Part, 1);
  g_autofree char *url = resolve_url (lk, path);

  part->task = g_object_ref (task);
  part->kind = PART_GGUF_SHARD;
  part->path = g_strdup (path);
  part->read = read;
  lk->pending++;
  hr_hub_client_get (lk->client, url, 0, read - 1, 0, &lk->a->result->bytes_received,
                     lk->cancellable, on_part, part);
}

/* A small JSON file, asked for as start_part() does; when the model info
 * had no siblings list, a 404 means it is not there (no failure). */
static void
start_probe (GTask      *task,
             PartKind    kind,
             const char *path,
             gsize       cap)
{
  Lookup *lk = g_task_get_task_data (task);
  Part *part = g_new0 (Part, 1);
  g_autofree char *url = resolve_url (lk, path);

  part->task = g_object_ref (task);
  part->kind = kind;
  part->path = g_strdup (path);
  part->probe = !lk->a->siblings_listed;
  lk->pending++;
  hr_hub_client_get (lk->client, url, -1, -1, cap, &lk->a->result->bytes_received,
                     lk->cancellable, on_part, part);
}

static void
start_mmproj (GTask      *task,
              const char *path,
              gint64      read)
{
  Lookup *lk = g_task_get_task_data (task);
  Part *part = g_new0 (Part, 1);
  g_autofree char *url = resolve_url (lk, path);

  part->task = g_object_ref (task);
  part->kind = PART_MMPROJ;
  part->path = g_strdup (path);
  part->read = read;
  lk->pending++;
  hr_hub_client_get (lk->client, url, 0, read - 1, 0, &lk->a->result->bytes_received,
                     lk->cancellable, on_part, part);
}

static void
start_header_reads (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHubLookup *r = lk->a->result;

  lk->headers_phase = TRUE;
  lk->a->headers = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_safetensors_header_free);
  for (guint i = 0; i < r->weight_files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (r->weight_files, i);

      if (g_str_has_suffix (f->path, ".safetensors"))
        {
          lk->headers_asked++;
          start_part (task, PART_HEADER, f->path, 0, HR_SAFETENSORS_PROBE_BYTES - 1, 0);
        }
    }
}

static void
finish_lookup (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  HrHubLookup *result;

  for (guint i = 0; lk->headers_unread != NULL && i < lk->headers_unread->len; i++)
    {
      guint read = lk->headers_asked - lk->headers_unread->len;

      g_ptr_array_add (lk->a->result->notes,
                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                     "%s: the figures cover the other %u shard only",
                                                     "%s: the figures cover the other %u shards only", read),
                                        (char *) g_ptr_array_index (lk->headers_unread, i), read));
    }
  result = hr_hub_answers_finish (lk->a, &error);

  if (result == NULL)
    g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE, "%s", error->message);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) hr_hub_lookup_free);
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
      hr_hub_answers_group_files (lk->a);
      hr_hub_answers_assemble (lk->a);
      if (hr_hub_answers_wants_headers (lk->a))
        {
          start_header_reads (task);
          if (lk->pending > 0)
            return;
        }
    }
  finish_lookup (task);
}

static void
start_second_step (GTask *task)
{
  Lookup *lk = g_task_get_task_data (task);
  HrHubLookup *r = lk->a->result;
  const char *license;
  g_autofree char *chosen = NULL;

  lk->pending++;   /* held until every part is started */

  /* Without a siblings list, the files the lookup needs are asked for
   * all the same; one that is not there is said missing where needed. */
  if (hr_hub_answers_has_sibling (lk->a, "config.json") || !lk->a->siblings_listed)
    start_probe (task, PART_CONFIG, "config.json", CAP_SMALL_JSON);
  if (hr_hub_answers_has_sibling (lk->a, "generation_config.json") || !lk->a->siblings_listed)
    start_probe (task, PART_GENERATION, "generation_config.json", CAP_SMALL_JSON);
  if (hr_hub_answers_has_sibling (lk->a, "tokenizer_config.json") || !lk->a->siblings_listed)
    start_probe (task, PART_TOKENIZER, "tokenizer_config.json", CAP_LARGE_JSON);
  start_part (task, PART_TREE, "tree", -1, -1, CAP_LARGE_JSON);
  if (hr_hub_answers_has_sibling (lk->a, "model.safetensors.index.json") || !lk->a->siblings_listed)
    {
      lk->index_path = g_strdup ("model.safetensors.index.json");
      start_probe (task, PART_INDEX, lk->index_path, CAP_INDEX);
    }
  if (!hr_hf_license_tag_is_open (r->license) && (license = hr_hub_answers_license_sibling (lk->a)) != NULL)
    {
      lk->a->license_path = g_strdup (license);
      start_part (task, PART_LICENSE, license, -1, -1, CAP_LICENSE);
    }

  /* GGUF: one file's header (hr_hub_answers_choose_gguf() says which). */
  hr_hub_answers_read_gguf_field (lk->a);
  chosen = hr_hub_answers_choose_gguf (lk->a);
  if (chosen != NULL)
    {
      lk->gguf_path = g_strdup (chosen);
      r->gguf_chosen = g_strdup (chosen);
      lk->gguf_read = GGUF_FIRST_READ;
      start_part (task, PART_GGUF, chosen, 0, GGUF_FIRST_READ - 1, 0);
      /* and the projector llama.cpp's -hf would take with it */
      r->mmproj_chosen = hr_hub_answers_choose_mmproj (lk->a, chosen);
      if (r->mmproj_chosen != NULL)
        start_mmproj (task, r->mmproj_chosen, GGUF_FIRST_READ);
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
  g_autoptr(HrHttpResponse) resp = hr_http_send_finish (HR_HTTP (source), result, &error);
  const char *data;
  gsize size;

  lk->a->result->requests++;
  if (resp == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (resp->status < 200 || resp->status >= 300)
    {
      g_task_return_error (task, hr_hub_client_status_error (lk->client, resp, lk->a->repo, lk->revision, NULL));
      return;
    }
  data = g_bytes_get_data (resp->body, &size);
  if (!hr_hub_answers_read_model_info (lk->a, hr_hub_client_get_endpoint (lk->client), data, size, &error))
    {
      g_task_return_new_error (task, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE, "%s", error->message);
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
             lk->a->repo, rev);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  hr_hub_client_get (lk->client, url, -1, -1, CAP_LARGE_JSON, &lk->a->result->bytes_received,
                 lk->cancellable, on_model_info, task);
}

static void
on_parent_cancelled (GCancellable *parent,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

/**
 * hr_hub_lookup_attach: (skip)
 * @task: the lookup's task (hr_hub_client_lookup_async())
 * @client: the client
 * @repo: "owner/name"
 * @revision: the branch, tag or commit
 * @cancellable: (nullable): the caller's; cancels every request
 *
 * Makes the lookup's state @task's data.
 */
void
hr_hub_lookup_attach (GTask        *task,
                      HrHubClient  *client,
                      const char   *repo,
                      const char   *revision,
                      GCancellable *cancellable)
{
  Lookup *lk = g_new0 (Lookup, 1);

  lk->client = g_object_ref (client);
  lk->revision = g_strdup (revision);
  lk->cancellable = g_cancellable_new ();
  lk->a = hr_hub_answers_new (repo, revision);
  g_task_set_task_data (task, lk, (GDestroyNotify) lookup_free);
  if (cancellable != NULL)
    {
      lk->parent = g_object_ref (cancellable);
      lk->parent_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_parent_cancelled),
                                                  g_object_ref (lk->cancellable), g_object_unref);
    }
}

/**
 * hr_hub_lookup_start: (skip)
 * @task: (transfer full): a task given to hr_hub_lookup_attach()
 *
 * Runs the steps; @task returns the #HrHubLookup or the first error.
 */
void
hr_hub_lookup_start (GTask *task)
{
  start_model_info (task);
}
