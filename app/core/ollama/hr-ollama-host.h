/* hr-ollama-host.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure helpers for talking about an Ollama server the way Ollama's own
 * clients do (docs/ollama.md, "Conventions" and "Known quirks"): host strings
 * as people type them, model names, digests, and the figures `ollama ps`
 * prints (SIZE, PROCESSOR, UNTIL).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "hr-json.h"

G_BEGIN_DECLS

/** HR_OLLAMA_DEFAULT_PORT: the port `ollama serve` listens on by default. */
#define HR_OLLAMA_DEFAULT_PORT 11434
/** HR_OLLAMA_DEFAULT_URL: where a client looks when nothing else is set. */
#define HR_OLLAMA_DEFAULT_URL "http://localhost:11434"

char     *hr_url_hide_password       (const char  *text);
char     *hr_ollama_host_normalize   (const char  *text,
                                      GError     **error);
char     *hr_ollama_host_normalize_full (const char  *text,
                                         char       **out_user,
                                         char       **out_password,
                                         GError     **error);

/* A model name: [host/][namespace/]model[:tag]. */
typedef struct {
  char *host;       /* NULL when not given (the registry, registry.ollama.ai) */
  char *namespace_; /* NULL when not given ("library") */
  char *model;      /* never NULL after a successful parse */
  char *tag;        /* "latest" when not given */
} HrOllamaModelName;

gboolean  hr_ollama_model_name_parse (const char        *text,
                                      HrOllamaModelName *out,
                                      GError           **error);
void      hr_ollama_model_name_clear (HrOllamaModelName *name);
char     *hr_ollama_model_name_to_string (const HrOllamaModelName *name);
gboolean  hr_ollama_model_name_equal (const char        *a,
                                      const char        *b);

char     *hr_ollama_digest_bare      (const char  *digest);
char     *hr_ollama_digest_prefixed  (const char  *digest);
char     *hr_ollama_digest_short     (const char  *digest);

char     *hr_ollama_format_size      (guint64      bytes);
char     *hr_ollama_format_processor (guint64      size,
                                      guint64      size_vram);
char     *hr_ollama_format_until     (GDateTime   *expires_at,
                                      GDateTime   *now);

char     *hr_ollama_variant_name     (const char  *source,
                                      guint32      context,
                                      gint32       num_gpu);

G_END_DECLS
