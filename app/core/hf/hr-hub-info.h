/* hr-hub-info.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a Hugging Face Hub lookup found (HrHubLookup), and the pure mapping
 * of the Hub's answers into it: the model info, the file tree's pages and
 config.json and its siblings, the safetensors index and
 * headers (docs/hub.md, docs/formats.md). No network: HrHubClient fetches, these read, and
 * tests/test-hub-info.c and the fuzz harness call them directly.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "hr-gguf.h"
#include "hr-hf-config.h"
#include "hr-model-spec.h"
#include "hr-safetensors.h"

G_BEGIN_DECLS

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
  char    *problem; /* a split's missing parts (hr_hf_gguf_group_files()), or NULL */
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

  /* What the lookup says beside the figures. */
  GPtrArray   *notes;           /* char*: two figures that disagree, and which was used */
  char        *derived_comparison; /* the derived count against the stored one, to the digit */
  guint        gguf_parts_read; /* GGUF headers read for the chosen quantization (its shards) */
  char        *license_unread;  /* why the LICENSE file could not be read (its HTTP status), or NULL */
  char        *unknown_dtypes;  /* the dtypes without a known element size, said, or NULL */
  /* For projectors (hr-mmproj.h). */
  GPtrArray   *mmproj_files;    /* HrHubFile*: the repository's mmproj GGUFs, not in gguf_files */
  char        *mmproj_chosen;   /* the one whose header was read (llama.cpp -hf's pick), or NULL */
  HrGgufFile  *mmproj;          /* its header, or NULL */
  guint64      mmproj_header_bytes_read;
  guint        tower_tensors;   /* safetensors headers: vision / audio tower tensors */
  guint64      tower_parameters;
  guint64      tower_bytes;     /* their data bytes, at the checkpoint's dtype */
} HrHubLookup;

void         hr_hub_lookup_free          (HrHubLookup *lookup);
const char  *hr_hub_lookup_weight_precision (const HrHubLookup *lookup);


/**
 * HrHubAnswers:
 * @result: the lookup being built (owned; taken by hr_hub_answers_finish())
 * @repo: the repository as asked, then as the Hub spells it
 * @info: (nullable): the model info's JSON
 * @siblings: (element-type utf8): the model info's file paths
 * @siblings_listed: the model info had a siblings list (mirrors and the
 *   `expand` forms of the API may leave it out)
 * @api_parameters: the API's safetensors field gave the parameter count
 * @config: (nullable): config.json's bytes
 * @generation: (nullable): generation_config.json's
 * @tokenizer: (nullable): tokenizer_config.json's
 * @index: (nullable): model.safetensors.index.json's
 * @license: (nullable): the LICENSE file's
 * @license_path: (nullable): which file @license is
 * @headers: (element-type HrSafetensorsHeader) (nullable): the shards' headers read
 * @api_dtype_sum: the API's per-dtype `parameters` map summed, 0 when absent
 * @api_packed: that map counts packed containers (I32, U32 or U8 entries)
 * @gguf_shards: (element-type HrGgufFile) (nullable): the later shards of the
 *   chosen GGUF split, as read
 * @has_index_total: the index gave a total_size
 * @index_total: that total_size, bytes
 *
 * The raw answers of one lookup, as they arrive.
 */
typedef struct {
  HrHubLookup *result;
  char        *repo;
  JsonNode    *info;
  GPtrArray   *siblings;
  gboolean     siblings_listed;
  gboolean     api_parameters;
  GBytes      *config;
  GBytes      *generation;
  GBytes      *tokenizer;
  GBytes      *index;
  GBytes      *license;
  char        *license_path;
  GPtrArray   *headers;
  guint64      api_dtype_sum;   /* the API's per-dtype parameters summed (0 = none) */
  gboolean     api_packed;      /* that map holds packed containers (I32, U32, U8) */
  GPtrArray   *gguf_shards;     /* HrGgufFile*: the chosen split's later shards, read */
  gboolean     has_index_total; /* the index gave total_size */
  guint64      index_total;     /* its total_size, bytes */
  guint        index_tower_tensors; /* the index's weight_map names this many tower tensors */
} HrHubAnswers;

HrHubAnswers *hr_hub_answers_new             (const char    *repo,
                                              const char    *revision);
void          hr_hub_answers_free            (HrHubAnswers  *a);
gboolean      hr_hub_answers_read_model_info (HrHubAnswers  *a,
                                              const char    *endpoint,
                                              const char    *data,
                                              gsize          size,
                                              GError       **error);
gboolean      hr_hub_answers_has_sibling     (HrHubAnswers  *a,
                                              const char    *path);
const char   *hr_hub_answers_license_sibling (HrHubAnswers  *a);
char         *hr_hub_answers_choose_gguf     (HrHubAnswers  *a);
char         *hr_hub_answers_choose_mmproj   (HrHubAnswers  *a,
                                              const char    *model_path);
void          hr_hub_answers_read_gguf_field (HrHubAnswers  *a);
gboolean      hr_hub_answers_read_tree_page  (HrHubAnswers  *a,
                                              const char    *data,
                                              gsize          size,
                                              GError       **error);
void          hr_hub_answers_group_files     (HrHubAnswers  *a);
void          hr_hub_answers_assemble        (HrHubAnswers  *a);
gboolean      hr_hub_answers_wants_headers   (HrHubAnswers  *a);
char        **hr_hub_answers_gguf_shard_paths (HrHubAnswers  *a);
HrHubLookup  *hr_hub_answers_finish          (HrHubAnswers  *a,
                                              GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHubLookup, hr_hub_lookup_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHubAnswers, hr_hub_answers_free)

G_END_DECLS
