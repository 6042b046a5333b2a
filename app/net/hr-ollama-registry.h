/* hr-ollama-registry.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaRegistry: a model in the Ollama library, sized exactly before it
 * is pulled. One lookup reads the tag's manifest (every layer's exact
 * bytes), the config blob, and the model blob's GGUF header by HTTP Range
 * (the blob redirects to a storage host), on HrHttp with no credential of
 * any kind. The config and the header are cached by digest under
 * $XDG_CACHE_HOME/headroom/ollama/, so a second lookup of the same tag
 * costs one manifest request.
 */
#pragma once

#include <gio/gio.h>

#include "hr-gguf.h"
#include "hr-ollama-manifest.h"

G_BEGIN_DECLS

/** HR_OLLAMA_REGISTRY_DEFAULT: the registry when HEADROOM_OLLAMA_REGISTRY is not set. */
#define HR_OLLAMA_REGISTRY_DEFAULT "https://registry.ollama.ai"
/** HR_OLLAMA_REGISTRY_HEADER_CAP: most GGUF header bytes read, 64 MiB (the
 * Hub lookup's cap; real headers are a few MB, hr-gguf.h). */
#define HR_OLLAMA_REGISTRY_HEADER_CAP (G_GUINT64_CONSTANT (64) * 1024 * 1024)
/** HR_OLLAMA_REGISTRY_MARGIN: bytes asked for past what a header needs at least, 64 kB. */
#define HR_OLLAMA_REGISTRY_MARGIN (64 * 1024)

/**
 * HrOllamaLibraryModel:
 * @name: the model as Ollama shows it ("phi4:latest")
 * @manifest_url: the manifest's URL
 * @manifest_digest: "sha256:" and the hex SHA-256 of the manifest's bytes
 * @manifest: the layers
 * @config: the config blob's facts
 * @gguf: the model layer's GGUF header (its file size is the layer's)
 * @header_bytes: the header's length, bytes
 * @projector_gguf: (nullable): the vision projector layer's GGUF header,
 *   when the manifest has one (its file size is the layer's)
 * @projector_bytes: the projector's tensor bytes, what Ollama loads of it
 *   beside the weights (the sum of its tensors' sizes, as Ollama's
 *   llm/llama_server.go mmprojMemoryRequirement() reads them from the
 *   header); 0 without a projector
 * @projector_header_bytes: the projector header's length, bytes
 * @bytes_read: body bytes this lookup received over the network
 * @requests: HTTP requests this lookup sent (redirects not counted)
 * @cached: whether the config and the header came from the cache
 */
typedef struct {
  char             *name;
  char             *manifest_url;
  char             *manifest_digest;
  HrOllamaManifest *manifest;
  HrOllamaConfig   *config;
  HrGgufFile       *gguf;
  guint64           header_bytes;
  HrGgufFile       *projector_gguf;
  guint64           projector_bytes;
  guint64           projector_header_bytes;
  guint64           bytes_read;
  guint             requests;
  gboolean          cached;
} HrOllamaLibraryModel;

void hr_ollama_library_model_free (HrOllamaLibraryModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaLibraryModel, hr_ollama_library_model_free)

/**
 * HrOllamaRegistryStep:
 * @HR_OLLAMA_REGISTRY_STEP_MANIFEST: the tag's manifest
 * @HR_OLLAMA_REGISTRY_STEP_CONFIG: the config blob
 * @HR_OLLAMA_REGISTRY_STEP_HEADER: a Range of the model blob's GGUF header
 * @HR_OLLAMA_REGISTRY_STEP_PROJECTOR: a Range of the vision projector
 *   blob's GGUF header
 * @HR_OLLAMA_REGISTRY_STEP_DONE: nothing more: the lookup returns next
 *
 * The request a lookup has under way, for its progress.
 */
typedef enum {
  HR_OLLAMA_REGISTRY_STEP_MANIFEST,
  HR_OLLAMA_REGISTRY_STEP_CONFIG,
  HR_OLLAMA_REGISTRY_STEP_HEADER,
  HR_OLLAMA_REGISTRY_STEP_PROJECTOR,
  HR_OLLAMA_REGISTRY_STEP_DONE,
} HrOllamaRegistryStep;

/** HR_OLLAMA_REGISTRY_PROGRESS_MS: how often progress is reported while a body is read, ms. */
#define HR_OLLAMA_REGISTRY_PROGRESS_MS 100

/**
 * HrOllamaRegistryProgress:
 * @step: the request under way
 * @range: with %HR_OLLAMA_REGISTRY_STEP_HEADER or
 *   %HR_OLLAMA_REGISTRY_STEP_PROJECTOR, which Range request of that
 *   header it is (1 for the first); else 0
 * @bytes_read: body bytes the lookup has received so far, over the
 *   network (never less than the last report's; the last report, with
 *   %HR_OLLAMA_REGISTRY_STEP_DONE, equals the result's @bytes_read)
 * @user_data: the data given with the callback
 *
 * A lookup's progress, called on the thread-default main context the
 * lookup was started from.
 */
typedef void (*HrOllamaRegistryProgress) (HrOllamaRegistryStep step,
                                          guint                range,
                                          guint64              bytes_read,
                                          gpointer             user_data);

#define HR_TYPE_OLLAMA_REGISTRY (hr_ollama_registry_get_type ())
G_DECLARE_FINAL_TYPE (HrOllamaRegistry, hr_ollama_registry, HR, OLLAMA_REGISTRY, GObject)

HrOllamaRegistry     *hr_ollama_registry_new          (const char          *endpoint,
                                                       const char          *cache_dir);
const char           *hr_ollama_registry_get_endpoint (HrOllamaRegistry    *self);
void                  hr_ollama_registry_set_limits   (HrOllamaRegistry    *self,
                                                       guint64              header_cap,
                                                       guint                deadline_ms);
void                  hr_ollama_registry_lookup_async (HrOllamaRegistry    *self,
                                                       const char          *name,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
void                  hr_ollama_registry_lookup_full_async
                                                      (HrOllamaRegistry    *self,
                                                       const char          *name,
                                                       HrOllamaRegistryProgress progress,
                                                       gpointer             progress_data,
                                                       GDestroyNotify       progress_destroy,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
HrOllamaLibraryModel *hr_ollama_registry_lookup_finish (HrOllamaRegistry   *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

G_END_DECLS
