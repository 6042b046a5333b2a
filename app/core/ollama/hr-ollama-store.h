/* hr-ollama-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Following a model through Ollama's models directory on disk, the way the
 * seed's week-2 author did (From API to GPU, "Can llama.cpp
 * reuse this Ollama model?"):
 *
 *   DIR/manifests/<host>/<namespace>/<model>/<tag>   (JSON, the package index)
 *     -> the layer whose mediaType ends in "image.model"
 *     -> DIR/blobs/<digest with ':' turned into '-'>  (the GGUF file)
 *
 * The host defaults to registry.ollama.ai, the namespace to library and the
 * tag to latest.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/** HR_OLLAMA_DEFAULT_REGISTRY: the host of names given without one. */
#define HR_OLLAMA_DEFAULT_REGISTRY  "registry.ollama.ai"
/** HR_OLLAMA_DEFAULT_NAMESPACE: the namespace of names given without one. */
#define HR_OLLAMA_DEFAULT_NAMESPACE "library"
/** HR_OLLAMA_MAX_MANIFEST_BYTES: manifests larger than this are refused. */
#define HR_OLLAMA_MAX_MANIFEST_BYTES (1024 * 1024)

typedef struct {
  char    *name;          /* "llama3.2:3b", as `ollama list` shows it */
  char    *manifest_path; /* absolute path of the manifest */
  char    *manifest_file; /* relative to the models directory */
  char    *media_type;    /* "application/vnd.ollama.image.model" */
  char    *digest;        /* "sha256:<64 hex>" */
  guint64  size;          /* the layer's size in the manifest, bytes */
  char    *blob_path;     /* absolute path of the blob */
  char    *blob_file;     /* relative: "blobs/sha256-<64 hex>" */
  guint64  blob_bytes;    /* the blob's size on disk */
  /* The manifest's vision projector layer
   * (application/vnd.ollama.image.projector), or NULL / 0 without one. */
  char    *projector_digest; /* "sha256:<64 hex>" */
  guint64  projector_size;   /* its size in the manifest (= on disk), bytes */
  char    *projector_path;   /* absolute path of its blob */
  char    *projector_file;   /* relative: "blobs/sha256-<64 hex>" */
} HrOllamaBlob;

/**
 * HrOllamaVerifyProgress:
 * @done: bytes hashed so far
 * @total: bytes to hash
 * @user_data: the data given to hr_ollama_blob_verify()
 *
 * Called after every chunk while a blob is hashed.
 */
typedef void (*HrOllamaVerifyProgress) (guint64  done,
                                        guint64  total,
                                        gpointer user_data);

HrOllamaBlob *hr_ollama_store_find_model (const char            *models_dir,
                                          const char            *model,
                                          GError               **error);
gboolean      hr_ollama_blob_verify      (const HrOllamaBlob    *blob,
                                          HrOllamaVerifyProgress progress,
                                          gpointer               user_data,
                                          GCancellable          *cancellable,
                                          GError               **error);
void          hr_ollama_blob_free        (HrOllamaBlob          *blob);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaBlob, hr_ollama_blob_free)

G_END_DECLS
