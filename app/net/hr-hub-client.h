/* hr-hub-client.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHubClient: a Hugging Face Hub lookup that answers the seed's four
 * week-3 questions before anything is downloaded (what architecture and
 * size; base or instruct; how much to download; may I use it), in a few
 * requests and a few kilobytes. Protocol facts: shared/reference/hf-hub.md.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hr-gguf.h"
#include "hr-hf-config.h"
#include "hr-model-spec.h"
#include "hr-safetensors.h"

G_BEGIN_DECLS

/** HR_HUB_DEFAULT_ENDPOINT: the Hub when HF_ENDPOINT is not set. */
#define HR_HUB_DEFAULT_ENDPOINT "https://huggingface.co"
/** HR_HUB_TOKEN_SCHEMA: the libsecret schema the Hub token is stored under. */
#define HR_HUB_TOKEN_SCHEMA "io.github.headroom.Headroom.HubToken"
/** HR_HUB_DEFAULT_TIMEOUT_MS: the deadline of one request, whole body included. */
#define HR_HUB_DEFAULT_TIMEOUT_MS 30000

/* One file of the repository tree. */
typedef struct {
  char    *path;  /* "model-00001-of-00002.safetensors" */
  guint64  size;  /* bytes (the real size, LFS files too) */
  gboolean lfs;
} HrHubFile;

/* One quantization of a GGUF repository (split parts summed). */
typedef struct {
  char    *path;  /* the file, or the first part of a split model */
  char    *label; /* "Q4_K_M", or NULL when the name has none */
  guint64  size;  /* bytes over all parts */
  guint    parts; /* 1, or the split count */
} HrHubGgufFile;

typedef struct {
  char        *repo;            /* "Qwen/Qwen2.5-3B-Instruct" (as the Hub spells it) */
  char        *revision;        /* as asked ("main") */
  char        *sha;             /* the commit everything was read at */
  char        *page_url;        /* endpoint/repo */
  char        *gated;           /* NULL (not gated), "auto" or "manual" */
  char       **tags;            /* the Hub's tags, or NULL */
  char        *pipeline_tag;
  char        *library_name;

  /* 1. Architecture and size */
  char        *architecture;    /* "Qwen2ForCausalLM" */
  char        *model_type;      /* "qwen2" */
  HrHfConfig  *config;          /* config.json, or NULL */
  char        *config_problem;  /* why config.json gave nothing, or NULL */
  guint64      parameters;      /* stored parameters (0 = unknown) */
  char        *parameters_source;
  GPtrArray   *parameters_by_dtype; /* HrSafetensorsDtype*, sorted by dtype */
  gboolean     has_derived;
  HrHfParameterCount derived;   /* from config.json */
  double       derived_difference; /* |derived - stored| / stored */
  guint        n_tensors;       /* 0 = unknown */
  guint64      tensor_bytes;    /* tensor data bytes (index total_size or headers) */
  gboolean     has_tokenizer_max_length;
  guint64      tokenizer_max_length;
  gint64       bos_token_id;    /* -1 = unknown */
  GArray      *eos_token_ids;   /* gint64 */

  /* 2. Base or instruct */
  HrHfKindEvidence *kind;

  /* 3. Download */
  GPtrArray   *files;           /* HrHubFile*, in tree order */
  guint64      total_bytes;     /* all files */
  GPtrArray   *weight_files;    /* HrHubFile*: the safetensors shards (else .bin/.pt) */
  guint64      weight_file_bytes;
  const HrHubFile *largest;     /* borrowed from files */

  /* 4. License */
  char        *license;         /* the tag: "other", "apache-2.0"; NULL = none */
  char        *license_name;    /* cardData license_name, or NULL */
  char        *license_file;    /* the LICENSE file read, or NULL */
  char        *license_title;   /* its title, or NULL */
  gboolean     non_commercial;  /* the tag or the file restricts commercial use */
  char        *non_commercial_reason; /* the phrase or tag that says so */

  /* GGUF repositories */
  GPtrArray   *gguf_files;      /* HrHubGgufFile*, or empty */
  char        *gguf_chosen;     /* the file whose header was read */
  HrGgufFile  *gguf;            /* its header, or NULL */
  guint64      gguf_header_bytes_read;

  HrModelSpec *spec;            /* origin "hf:owner/name@sha", or NULL */
  guint        requests;        /* HTTP requests made */
  guint64      bytes_received;  /* body bytes received */
} HrHubLookup;

void         hr_hub_lookup_free          (HrHubLookup *lookup);
JsonNode    *hr_hub_lookup_to_json       (const HrHubLookup *lookup);
const char  *hr_hub_lookup_weight_precision (const HrHubLookup *lookup);

#define HR_TYPE_HUB_CLIENT (hr_hub_client_get_type ())
G_DECLARE_FINAL_TYPE (HrHubClient, hr_hub_client, HR, HUB_CLIENT, GObject)

HrHubClient *hr_hub_client_new           (void);
const char  *hr_hub_client_get_endpoint  (HrHubClient         *self);
void         hr_hub_client_lookup_async  (HrHubClient         *self,
                                          const char          *repo,
                                          const char          *revision,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
HrHubLookup *hr_hub_client_lookup_finish (HrHubClient         *self,
                                          GAsyncResult        *result,
                                          GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHubLookup, hr_hub_lookup_free)

G_END_DECLS
