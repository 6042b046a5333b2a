/* hr-ollama-manifest.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Ollama registry's pure side: a model name resolved as Ollama names
 * models (ollama/ollama types/model/name.go), the manifest and its config
 * blob read into plain structs, the registry's error body, and how far a
 * GGUF header reaches in the bytes read so far (hr_gguf_header_extent(),
 * hr-gguf-extent.h). No network: HrOllamaRegistry (app/net) fetches, these
 * read, and tests/test-ollama-manifest.c calls them directly.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/** HR_OLLAMA_DEFAULT_HOST: the host of a name without one (name.go's FillDefault). */
#define HR_OLLAMA_DEFAULT_HOST      "registry.ollama.ai"
/** HR_OLLAMA_DEFAULT_NAMESPACE: the namespace of a name without one. */
#define HR_OLLAMA_DEFAULT_NAMESPACE "library"
/** HR_OLLAMA_DEFAULT_TAG: the tag of a name without one. */
#define HR_OLLAMA_DEFAULT_TAG       "latest"
/** HR_OLLAMA_NAME_MAX: longest name and longest part, bytes (name.go's MaxNamePartLen). */
#define HR_OLLAMA_NAME_MAX          128
/** HR_OLLAMA_MANIFEST_MAX_LAYERS: most layers accepted in one manifest. */
#define HR_OLLAMA_MANIFEST_MAX_LAYERS 1024

/** The media types of an Ollama manifest's layers. */
#define HR_OLLAMA_MEDIA_MODEL     "application/vnd.ollama.image.model"
#define HR_OLLAMA_MEDIA_PROJECTOR "application/vnd.ollama.image.projector"
/** HR_OLLAMA_MANIFEST_ACCEPT: what Ollama's own pull asks for (Docker
 * distribution manifest v2), and the OCI manifest for mirrors. */
#define HR_OLLAMA_MANIFEST_ACCEPT \
  "application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.manifest.v1+json"

/**
 * HrOllamaName:
 * @host: "registry.ollama.ai" unless the name gave one
 * @namespace_: "library" unless the name gave one
 * @model: the model ("phi4")
 * @tag: "latest" unless the name gave one
 * @explicit_host: whether the name named its host
 *
 * A model name, with the defaults filled in.
 */
typedef struct {
  char    *host;
  char    *namespace_;
  char    *model;
  char    *tag;
  gboolean explicit_host;
} HrOllamaName;

gboolean hr_ollama_name_parse   (const char         *text,
                                 HrOllamaName       *out,
                                 GError            **error);
void     hr_ollama_name_clear   (HrOllamaName       *name);
char    *hr_ollama_name_display (const HrOllamaName *name);
char    *hr_ollama_name_path    (const HrOllamaName *name);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrOllamaName, hr_ollama_name_clear)

/**
 * HrOllamaLayer:
 * @media_type: "application/vnd.ollama.image.model", ".template", ...
 * @digest: "sha256:" and 64 lowercase hex digits
 * @size: the blob's exact size, bytes
 */
typedef struct {
  char    *media_type;
  char    *digest;
  guint64  size;
} HrOllamaLayer;

/**
 * HrOllamaManifest:
 * @layers: (element-type HrOllamaLayer): the layers, in the manifest's order
 * @config: the config blob (its media type, digest and size)
 * @model: (nullable): the model layer, borrowed from @layers
 * @projector: (nullable): the vision projector layer, borrowed from @layers
 * @total_bytes: every layer's size and the config's, summed
 */
typedef struct {
  GPtrArray     *layers;
  HrOllamaLayer *config;
  HrOllamaLayer *model;
  HrOllamaLayer *projector;
  guint64        total_bytes;
} HrOllamaManifest;

/**
 * HrOllamaConfig:
 * @format: "gguf", or %NULL
 * @family: "phi3", or %NULL
 * @families: (nullable): the families, %NULL-terminated
 * @parameter_size: Ollama's label ("14.7B"), or %NULL
 * @file_type: the quantization ("Q4_K_M"), or %NULL
 */
typedef struct {
  char  *format;
  char  *family;
  char **families;
  char  *parameter_size;
  char  *file_type;
} HrOllamaConfig;

gboolean          hr_ollama_digest_is_valid     (const char        *digest);
HrOllamaManifest *hr_ollama_manifest_parse      (const char        *data,
                                                 gsize              length,
                                                 const char        *name,
                                                 GError           **error);
void              hr_ollama_manifest_free       (HrOllamaManifest  *manifest);
HrOllamaConfig   *hr_ollama_config_parse        (const char        *data,
                                                 gsize              length,
                                                 const char        *name,
                                                 GError           **error);
void              hr_ollama_config_free         (HrOllamaConfig    *config);
char             *hr_ollama_registry_error_code (const char        *data,
                                                 gsize              length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaManifest, hr_ollama_manifest_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaConfig, hr_ollama_config_free)

G_END_DECLS
