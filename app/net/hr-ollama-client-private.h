/* hr-ollama-client-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One call of HrOllamaClient, shared by its pipeline (hr-ollama-client.c)
 * and its calls (hr-ollama-calls.c). Not installed, not for the GUI.
 */
#pragma once

#include "hr-http.h"
#include "hr-ndjson-reader.h"
#include "hr-ollama-client.h"

G_BEGIN_DECLS

typedef enum {
  HR_OLLAMA_STREAM_NONE,
  HR_OLLAMA_STREAM_GENERATE,
  HR_OLLAMA_STREAM_CHAT,
  HR_OLLAMA_STREAM_PULL,
} HrOllamaStream;

typedef struct _HrOllamaCall HrOllamaCall;

/* What a plain call makes of its answer: returns on @task. @root is NULL
 * for an empty body. */
typedef void (*HrOllamaAnswerFunc) (HrOllamaCall *call,
                                    GTask        *task,
                                    JsonNode     *root);

struct _HrOllamaCall {
  HrOllamaClient    *client;
  char              *path;          /* "/api/tags" */
  char              *model;         /* the model the call is about, or NULL */
  HrOllamaStream     stream;
  gboolean           has_deadline;
  HrOllamaAnswerFunc answer;

  GCancellable      *cancellable;   /* the caller's, or NULL */
  guint              tick_id;
  gint64             started_us;
  HrHttpResponse    *response;
  HrNdjsonReader    *reader;

  /* generate / chat */
  gboolean           saw_done;
  HrOllamaReply     *reply;
  GString           *text;
  GString           *thinking;
  HrOllamaChunkFunc  chunk_func;
  gpointer           chunk_data;

  /* pull */
  HrPullProgress    *progress;
  HrOllamaPullFunc   pull_func;
  gpointer           pull_data;
};

HrOllamaCall *hr_ollama_call_new              (HrOllamaClient     *self,
                                               GTask              *task,
                                               GCancellable       *cancellable,
                                               const char         *path,
                                               const char         *model,
                                               HrOllamaStream      stream,
                                               gboolean            has_deadline,
                                               HrOllamaAnswerFunc  answer);
void          hr_ollama_call_start            (GTask              *task,
                                               const char         *method,
                                               JsonNode           *body);
void          hr_ollama_call_return_error     (GTask              *task,
                                               GError             *error);
GError       *hr_ollama_call_error_unexpected (HrOllamaCall       *call,
                                               const char         *what);

G_END_DECLS
