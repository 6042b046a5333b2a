/* hr-ollama-api.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama's JSON answers as structs, without any network: /api/version,
 * /api/tags, /api/ps, the {"error": ...} body, and the lines of a
 * generate or chat stream (docs/ollama.md). HrOllamaClient feeds these; the
 * fuzz harness and tests/test-ollama-api.c call them directly. /api/show is
 * hr-ollama-show.h's.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/** HR_OLLAMA_MAX_MODEL_BYTES: the largest model size believed, 2^50 bytes
 * (1 PiB: a thousand times the largest model any board can hold); a size
 * past it is an error, never a number to save. */
#define HR_OLLAMA_MAX_MODEL_BYTES (G_GUINT64_CONSTANT (1) << 50)
/** HR_OLLAMA_MAX_CONTEXT: the largest context length believed, 2^31 - 1
 * tokens (models ship at most 10^7). */
#define HR_OLLAMA_MAX_CONTEXT ((guint64) G_MAXINT32)

/* A model on the board (/api/tags). */
typedef struct {
  char    *name;               /* "llama3.2:latest" */
  char    *model;
  char    *digest;             /* bare 64 hex */
  guint64  size;               /* the whole package, bytes */
  char    *modified_at;        /* ISO 8601 as sent */
  char    *format;             /* "gguf" */
  char    *family;
  char    *parameter_size;     /* "3.2B" */
  char    *quantization_level; /* "Q4_K_M" */
} HrOllamaModel;

/* A loaded model (/api/ps). */
typedef struct {
  char      *name;
  char      *model;
  char      *digest;           /* bare 64 hex */
  guint64    size;             /* bytes of the loaded model */
  guint64    size_vram;        /* bytes of it on the GPU */
  guint32    context_length;   /* num_ctx it was loaded with (0 = not reported) */
  GDateTime *expires_at;       /* NULL when absent or unreadable */
  char      *family;
  char      *parameter_size;
  char      *quantization_level;
} HrOllamaLoaded;

/* What a streamed generate or chat answered, timed by the client. Timing
 * fields are Ollama's nanoseconds; -1 means the field was not in the final
 * line (Ollama leaves zeros out). */
typedef struct {
  char    *text;               /* the reply */
  char    *thinking;           /* a thinking model's thoughts, or NULL */
  char    *done_reason;        /* "stop", "length", "load", "unload" */
  double   ttft_ms;            /* client: request sent to first non-empty chunk (-1 = none) */
  double   client_total_ms;    /* client: request sent to the end of the stream */
  gint64   total_duration;
  gint64   load_duration;
  gint64   prompt_eval_count;
  gint64   prompt_eval_duration;
  gint64   eval_count;
  gint64   eval_duration;
} HrOllamaReply;

/**
 * HrOllamaReplyLine:
 * @content: the line's text (`response`, or chat's `message.content`); may be %NULL
 * @thinking: a thinking model's text (`thinking`, or `message.thinking`); may be %NULL
 * @error: Ollama's text of an `{"error": ...}` line, else %NULL
 * @done: the line says `"done": true`
 *
 * One line of a generate or chat stream; the strings are borrowed from the
 * line's JSON.
 */
typedef struct {
  const char *content;
  const char *thinking;
  const char *error;
  gboolean    done;
} HrOllamaReplyLine;

char       *hr_ollama_api_error_text   (const char      *data,
                                        gsize            size);
char       *hr_ollama_api_signin_url   (const char      *data,
                                        gsize            size);
char       *hr_ollama_api_parse_version (JsonNode       *root,
                                         GError        **error);
GPtrArray  *hr_ollama_api_parse_tags   (JsonNode        *root,
                                        GError         **error);
GPtrArray  *hr_ollama_api_parse_ps     (JsonNode        *root,
                                        GError         **error);
gboolean    hr_ollama_api_reply_line   (JsonNode        *node,
                                        gboolean         chat,
                                        HrOllamaReplyLine *line,
                                        GError         **error);
void        hr_ollama_api_reply_done   (JsonObject      *object,
                                        HrOllamaReply   *reply);

void            hr_ollama_model_free   (HrOllamaModel  *model);
void            hr_ollama_loaded_free  (HrOllamaLoaded *loaded);
void            hr_ollama_reply_free   (HrOllamaReply  *reply);
double          hr_ollama_rate_tps     (gint64          count,
                                        gint64          duration_ns);
char           *hr_ollama_format_ms    (gint64          duration_ns);
char           *hr_ollama_format_tps   (double          tps);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaModel, hr_ollama_model_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaLoaded, hr_ollama_loaded_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaReply, hr_ollama_reply_free)

G_END_DECLS
