/* hr-ollama-client.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaClient: one board's Ollama server over its HTTP API
 * (docs/ollama.md). Every call is asynchronous with its own GCancellable; a
 * plain call has a deadline, a stream an inactivity limit (and no limit
 * before its first byte: a cold load can take minutes); lines and answers
 * have size caps. Failures are HR_NET_ERROR errors whose message a person
 * can act on; cancelling is G_IO_ERROR_CANCELLED.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hr-ollama-api.h"
#include "hr-ollama-show.h"
#include "hr-pull-progress.h"

G_BEGIN_DECLS

/** HR_OLLAMA_DEADLINE_MS: default deadline of a plain call. */
#define HR_OLLAMA_DEADLINE_MS          30000
/** HR_OLLAMA_CONNECT_TIMEOUT_MS: default time allowed to connect and send a request. */
#define HR_OLLAMA_CONNECT_TIMEOUT_MS   10000
/** HR_OLLAMA_INACTIVITY_MS: default time a stream may go without progress
 * (a line that says something new) once it has started, and a pull's wait
 * for its answer to begin. */
#define HR_OLLAMA_INACTIVITY_MS        60000
/** HR_OLLAMA_LOAD_WAIT_MS: default wait for generate's or chat's first
 * line: a cold load of a large model can take minutes (docs/ollama.md,
 * "Known quirks"). */
#define HR_OLLAMA_LOAD_WAIT_MS         600000
/** HR_OLLAMA_MAX_LINE_BYTES: default cap on one stream line (a generate
 * stream's last line may carry a `context` array of token ids): Ollama's
 * own client's, 8 MB (api/client.go, maxBufferSize = 8 * format.MegaByte). */
#define HR_OLLAMA_MAX_LINE_BYTES       8000000
/** HR_OLLAMA_MAX_RESPONSE_BYTES: default cap on one answer or stream. */
#define HR_OLLAMA_MAX_RESPONSE_BYTES   (64 * 1024 * 1024)


/**
 * HrOllamaChunkFunc:
 * @content: the chunk's text (`response`, or `message.content` for chat); may be ""
 * @thinking: the chunk's `thinking` text; may be ""
 * @user_data: the data given with the function
 *
 * Called for every chunk of a streamed reply that carries text.
 */
typedef void (*HrOllamaChunkFunc) (const char *content,
                                   const char *thinking,
                                   gpointer    user_data);

/**
 * HrOllamaPullFunc:
 * @progress: the pull's progress so far (transfer none)
 * @user_data: the data given with the function
 *
 * Called after every line of a pull stream, and once a second while it is
 * quiet, so a stall can be shown.
 */
typedef void (*HrOllamaPullFunc) (const HrPullProgress *progress,
                                  gpointer              user_data);

#define HR_TYPE_OLLAMA_CLIENT (hr_ollama_client_get_type ())

G_DECLARE_FINAL_TYPE (HrOllamaClient, hr_ollama_client, HR, OLLAMA_CLIENT, GObject)

char           *hr_ollama_default_host         (const char      *setting);
HrOllamaClient *hr_ollama_client_new           (const char      *host,
                                                GError         **error);
const char     *hr_ollama_client_get_base_url  (HrOllamaClient  *self);
void            hr_ollama_client_set_token     (HrOllamaClient  *self,
                                                const char      *token);
void            hr_ollama_client_set_timeouts  (HrOllamaClient  *self,
                                                guint            deadline_ms,
                                                guint            connect_ms,
                                                guint            inactivity_ms);
void            hr_ollama_client_set_load_wait (HrOllamaClient *self,
                                                guint           load_ms);
guint           hr_ollama_client_get_load_wait (HrOllamaClient *self);
void            hr_ollama_client_set_caps      (HrOllamaClient  *self,
                                                gsize            max_line_bytes,
                                                guint64          max_response_bytes);

void            hr_ollama_client_version_async  (HrOllamaClient      *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
char           *hr_ollama_client_version_finish (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_tags_async     (HrOllamaClient      *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
GPtrArray      *hr_ollama_client_tags_finish    (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_ps_async       (HrOllamaClient      *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
GPtrArray      *hr_ollama_client_ps_finish      (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_show_async     (HrOllamaClient      *self,
                                                 const char          *model,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
HrOllamaShow   *hr_ollama_client_show_finish    (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_generate_async  (HrOllamaClient      *self,
                                                  const char          *model,
                                                  const char          *prompt,
                                                  JsonObject          *options,
                                                  HrOllamaChunkFunc    chunk_func,
                                                  gpointer             chunk_data,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
HrOllamaReply  *hr_ollama_client_generate_finish (HrOllamaClient      *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

void            hr_ollama_client_chat_async      (HrOllamaClient      *self,
                                                  const char          *model,
                                                  JsonArray           *messages,
                                                  JsonObject          *options,
                                                  HrOllamaChunkFunc    chunk_func,
                                                  gpointer             chunk_data,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
HrOllamaReply  *hr_ollama_client_chat_finish     (HrOllamaClient      *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

void            hr_ollama_client_load_async     (HrOllamaClient      *self,
                                                 const char          *model,
                                                 guint32              num_ctx,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_load_finish    (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_unload_async   (HrOllamaClient      *self,
                                                 const char          *model,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_unload_finish  (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_pull_async     (HrOllamaClient      *self,
                                                 const char          *model,
                                                 HrOllamaPullFunc     progress_func,
                                                 gpointer             progress_data,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_pull_finish    (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_delete_async   (HrOllamaClient      *self,
                                                 const char          *model,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_delete_finish  (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);


void            hr_ollama_client_create_async   (HrOllamaClient      *self,
                                                 const char          *model,
                                                 const char          *from,
                                                 JsonObject          *parameters,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_create_finish  (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);
JsonNode       *hr_ollama_create_request        (const char          *model,
                                                 const char          *from,
                                                 JsonObject          *parameters);

void            hr_ollama_client_copy_async     (HrOllamaClient      *self,
                                                 const char          *source,
                                                 const char          *destination,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_copy_finish    (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

void            hr_ollama_client_preload_async  (HrOllamaClient      *self,
                                                 const char          *model,
                                                 const char          *keep_alive,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        hr_ollama_client_preload_finish (HrOllamaClient      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
