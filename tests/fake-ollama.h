/* fake-ollama.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A fake Ollama server for tests: a SoupServer on 127.0.0.1, port 0, that
 * speaks Ollama's HTTP API as docs/ollama.md describes
 * it, awkward parts included: NDJSON streams with controlled delays, timing
 * fields in ns with zeros left out, pull streams with several layers, a
 * layer already present and `completed` going backwards, error lines
 * mid-stream, dropped connections, 404 bodies in JSON and in plain text,
 * 500 and 503 bodies, a line over any sane cap, a request it never
 * answers, and a reverse proxy that wants a bearer token.
 * It runs on the thread-default main context of the thread that creates it.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _FakeOllama FakeOllama;

typedef enum {
  FAKE_FAULT_NONE,
  FAKE_FAULT_404_JSON,     /* 404 {"error": "model 'NAME' not found"} */
  FAKE_FAULT_404_TEXT,     /* 404 text/plain "404 page not found" */
  FAKE_FAULT_500,          /* 500 {"error": TEXT} */
  FAKE_FAULT_503,          /* 503 {"error": "server busy, please try again.  maximum pending requests exceeded"} */
  FAKE_FAULT_INVALID_JSON, /* 200 with a body (or stream line) that is not JSON */
  FAKE_FAULT_LONG_LINE,    /* a stream whose second line is TEXT-given bytes long (default 65536) */
  FAKE_FAULT_NEVER_ANSWER, /* accepts the request and never answers */
  FAKE_FAULT_ERROR_LINE,   /* 200, some lines, then {"error": TEXT} */
  FAKE_FAULT_DROP,         /* 200, some lines, then the connection is shut */
  FAKE_FAULT_NO_DONE,      /* 200, some lines, then a clean end without the last line */
} FakeFault;

typedef struct {
  const char *digest;   /* "sha256:<64 hex>" */
  guint64     size;     /* bytes */
  gboolean    present;  /* already on the board: one line with completed == total */
} FakeLayer;

FakeOllama *fake_ollama_new            (void);
FakeOllama *fake_ollama_new_tls        (void);
void        fake_ollama_free           (FakeOllama  *fake);
const char *fake_ollama_get_url        (FakeOllama  *fake);
char       *fake_ollama_refused_url    (void);

void        fake_ollama_set_version    (FakeOllama  *fake,
                                        const char  *version);
void        fake_ollama_set_token      (FakeOllama  *fake,
                                        const char  *token);
void        fake_ollama_set_fault      (FakeOllama  *fake,
                                        const char  *path,
                                        FakeFault    fault,
                                        const char  *text);

void        fake_ollama_add_model      (FakeOllama  *fake,
                                        const char  *name,
                                        const char  *digest,
                                        guint64      size,
                                        const char  *show_json);
void        fake_ollama_add_llama32    (FakeOllama  *fake);
void        fake_ollama_set_loaded_size (FakeOllama *fake,
                                         const char *name,
                                         guint64     base_bytes,
                                         guint64     bytes_per_token,
                                         guint64     cpu_bytes);
gboolean    fake_ollama_is_loaded      (FakeOllama  *fake,
                                        const char  *name);
void        fake_ollama_load           (FakeOllama  *fake,
                                        const char  *name,
                                        guint32      num_ctx);

void        fake_ollama_set_stream_timing (FakeOllama *fake,
                                           guint       first_token_ms,
                                           guint       token_interval_ms,
                                           guint       load_ms,
                                           gboolean    leading_empty_chunk);
void        fake_ollama_set_final_timing  (FakeOllama *fake,
                                           gint64      load_duration,
                                           gint64      prompt_eval_count,
                                           gint64      prompt_eval_duration,
                                           gint64      eval_count,
                                           gint64      eval_duration);
void        fake_ollama_set_reply      (FakeOllama  *fake,
                                        const char * const *tokens);

void        fake_ollama_add_registry_model (FakeOllama      *fake,
                                            const char      *name,
                                            const FakeLayer *layers,
                                            guint            n_layers);
void        fake_ollama_set_pull_steps (FakeOllama  *fake,
                                        guint        steps_per_layer,
                                        guint        interval_ms,
                                        gboolean     go_backwards);

guint       fake_ollama_count          (FakeOllama  *fake,
                                        const char  *path);
JsonNode   *fake_ollama_last_body      (FakeOllama  *fake,
                                        const char  *path);
const char *fake_ollama_last_authorization (FakeOllama *fake);
guint       fake_ollama_active_streams (FakeOllama  *fake);

G_END_DECLS
