/* fake-hub.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fake Hugging Face Hub inside the test process: a SoupServer on
 * 127.0.0.1 (port 0) that speaks docs/hub.md (model info
 * with expand/blobs, the tree paged by Link rel="next", resolve with a 302
 * to a second in-process server acting as the CDN with X-Linked-Size, Range
 * and 206, and X-Error-Code errors), counting the bytes it serves; and the
 * Qwen/Qwen2.5-3B-Instruct repository of docs/seed-figures.md ("A Hugging Face
 * lookup") to put on it. Runs on the thread-default main context.
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

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
  gboolean    no_siblings;  /* the model info leaves the siblings list out */
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
  char       *rename_from;     /* a renamed repo: 307 to rename_to, relative */
  char       *rename_to;
  guint       redirects_307;
} FakeHub;

typedef enum {
  QWEN_FULL,
  QWEN_NO_API_FIELD,   /* no safetensors field: the index gives the count */
  QWEN_NO_INDEX,       /* neither: the shard headers give it */
} QwenVariant;

FakeHub  *fake_hub_new    (void);
void      fake_hub_free   (FakeHub    *fake);
FakeRepo *fake_add_repo   (FakeHub    *fake,
                           const char *id,
                           const char *sha,
                           const char *info);
FakeRepo *fake_find_repo  (FakeHub    *fake,
                           const char *id);
FakeFile *repo_add_file   (FakeRepo   *repo,
                           const char *path,
                           guint64     size,
                           gboolean    lfs,
                           GBytes     *head,
                           gboolean    weight);
FakeFile *repo_find_file  (FakeRepo   *repo,
                           const char *path);
void      fake_fault      (FakeHub    *fake,
                           const char *prefix,
                           guint       status,
                           const char *code,
                           const char *message);
void      add_qwen        (FakeHub    *fake,
                           const char *id,
                           QwenVariant variant);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakeHub, fake_hub_free)

G_END_DECLS
