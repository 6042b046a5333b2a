/* hr-cli-predict.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `headroom-cli predict` (hr-cli-predict.c) and `matrix`
 * (hr-cli-matrix.c) share: their options and how they turn into runtime
 * inputs, the loaded context and each board's learned overhead.
 */
#pragma once

#include <glib.h>

#include "hr-calibration.h"
#include "hr-cli.h"
#include "hr-offload.h"
#include "hr-runtime.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Options shared by predict and matrix. */
typedef struct {
  char    *board;
  char    *gpus_text;
  char    *boards;
  char    *catalog;
  char    *measurements;
  char    *context_text;
  char    *parallel_text;
  char    *kv_type_text;
  char    *flash_text;
  char    *runtime_text;
  char    *version;
  char    *batch_text;
  char    *backend_text;
  char    *precision_text;
  char    *models_text;
  char    *num_gpu_text;
  char    *n_cpu_moe_text;
  char    *tensor_split_text;
  char    *split_mode_text;
  gboolean cpu_moe;
  gboolean json;
  gboolean csv;
  gboolean max_context;
  gboolean best_precision;

  guint32  context;
  guint32  parallel;
  guint32  batch;
  HrKvCacheType kv_type;
  HrFlashAttention flash;
  HrRuntimeEra era;
  gboolean no_runtime;
  HrRuntimeBackend backend;
  const HrPrecision *precision;
  /* The placement inputs (llama-server's flags; hr-offload.h): */
  guint32  n_cpu_moe;        /* HR_OFFLOAD_CPU_MOE_ALL for --cpu-moe, 0 = none */
  guint    n_tensor_split;
  float    tensor_split[HR_DEVICE_MAX];
  HrSplitMode split_mode;
} HrCliPredictOptions;

void     hr_cli_predict_options_clear   (HrCliPredictOptions   *o);
gboolean hr_cli_predict_resolve_placement (HrCliPredictOptions *o,
                                           HrRuntimeEra         era);
gboolean hr_cli_predict_placement_given (const HrCliPredictOptions *o);
gboolean hr_cli_sizing_split            (HrCliContext              *ctx,
                                         const HrCliPredictOptions *o,
                                         const HrRuntimeInputs     *in,
                                         const HrRuntimePrediction *p,
                                         JsonObject                *json,
                                         GError                   **error);
gboolean hr_cli_predict_shows_split     (const HrCliPredictOptions *o,
                                         const HrBoard             *board,
                                         HrRuntimeEra               era);
gboolean hr_cli_predict_options_resolve (HrCliPredictOptions   *o,
                                         const char            *default_runtime);
void     hr_cli_predict_inputs          (HrRuntimeInputs       *in,
                                         const HrCliPredictOptions *o,
                                         const HrModelSpec     *spec);
gboolean hr_cli_predict_load_context    (HrCliContext          *ctx,
                                         const HrCliPredictOptions *o,
                                         int                   *out_status);
void     hr_cli_board_calibration       (HrCliContext          *ctx,
                                         const HrBoard         *board,
                                         const char            *version,
                                         const HrRuntimeInputs *template_inputs,
                                         HrCalibration         *out);
guint64  hr_cli_pool_footprint          (const HrBoard             *board,
                                         const HrRuntimePrediction *p);
gboolean hr_cli_predict_spec            (HrCliContext              *ctx,
                                         const HrCliPredictOptions *o,
                                         const HrModelSpec         *spec,
                                         HrRuntimeInputs           *out_inputs,
                                         HrRuntimePrediction       *out,
                                         GError                   **error);
JsonNode *hr_cli_prediction_json        (HrCliContext              *ctx,
                                         const HrModelSpec         *spec,
                                         const HrRuntimePrediction *p);
void     hr_cli_print_memory            (HrCliContext              *ctx,
                                         const HrRuntimePrediction *p);
void     hr_cli_print_projector         (HrCliContext              *ctx,
                                         const HrModelSpec         *spec,
                                         gint32                     num_gpu);
JsonNode *hr_cli_projector_json         (HrCliContext              *ctx,
                                         const HrModelSpec         *spec,
                                         const char                *file);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrCliPredictOptions, hr_cli_predict_options_clear)

#define OPT_CONTEXT  { "context", 0, 0, G_OPTION_ARG_STRING, &o.context_text, N_("Context window (num_ctx) in tokens (default 4096); with --runtime llama-server its -c, the whole KV cache the slots share or divide (default: the model's trained context for each slot)"), N_("N") }
#define OPT_PARALLEL { "parallel", 0, 0, G_OPTION_ARG_STRING, &o.parallel_text, N_("Parallel slots, 1 to 64 (default: the server's, 1 from Ollama 0.10; llama-server: 4 sharing one unified cache)"), N_("N") }
#define OPT_KV_TYPE  { "kv-type", 0, 0, G_OPTION_ARG_STRING, &o.kv_type_text, N_("KV cache type: f16, q8_0 or q4_0 (default f16)"), N_("TYPE") }
#define OPT_FLASH    { "flash-attention", 0, 0, G_OPTION_ARG_STRING, &o.flash_text, N_("Flash attention: on, off or auto (default auto: as the server decides)"), N_("on|off|auto") }
#define OPT_BATCH    { "batch", 0, 0, G_OPTION_ARG_STRING, &o.batch_text, N_("Batch and micro-batch size (default 512, Ollama's num_batch); with --runtime llama-server its -b (default 2048, micro-batch 512)"), N_("N") }
#define OPT_VERSION  { "server-version", 0, 0, G_OPTION_ARG_STRING, &o.version, N_("The Ollama server's version, e.g. 0.31.2 (picks the era and filters the measurements learned from)"), N_("V") }
#define OPT_BACKEND  { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend_text, N_("Backend: cuda, metal or cpu (a server without a GPU: every buffer in host memory; default cuda)"), N_("cpu|cuda|metal") }
#define OPT_RUNTIME  { "runtime", 0, 0, G_OPTION_ARG_STRING, &o.runtime_text, N_("Which method sizes the model: ollama-0.30, ollama-0.12, llama-server (llama.cpp's server run by hand, its own defaults), auto (default: from --server-version, else the newest) or seed (the seed's weights + KV cache, for teaching)"), N_("ERA") }
#define OPT_BOARD    { "board", 0, 0, G_OPTION_ARG_STRING, &o.board, N_("Board to predict on, whose measurements the overhead is learned from (default: the seed's Jetson Orin Nano Super)"), N_("NAME") }

#define OPT_GPUS     { "gpus", 0, 0, G_OPTION_ARG_STRING, &o.gpus_text, N_("An ad-hoc board of discrete CUDA GPUs with these memories, in device order (24GiB,12GiB); their bandwidth is not known, host memory is this computer's"), N_("SIZE[,SIZE...]") }

#define OPT_CPU_MOE  { "cpu-moe", 0, 0, G_OPTION_ARG_NONE, &o.cpu_moe, N_("Keep every MoE block's expert tensors (ffn_*_exps) in host memory, as llama-server's --cpu-moe (Ollama: LLAMA_ARG_CPU_MOE=1 in its environment); fit no longer places the layers"), NULL }
#define OPT_N_CPU_MOE { "n-cpu-moe", 0, 0, G_OPTION_ARG_STRING, &o.n_cpu_moe_text, N_("Keep the expert tensors of the first N blocks in host memory, as llama-server's --n-cpu-moe N (Ollama: LLAMA_ARG_N_CPU_MOE=N)"), N_("N") }
#define OPT_TENSOR_SPLIT { "tensor-split", 0, 0, G_OPTION_ARG_STRING, &o.tensor_split_text, N_("With --runtime llama-server: each GPU's share of the layers, in device order (3,1), as its -ts; fit no longer places the layers"), N_("A,B,...") }
#define OPT_SPLIT_MODE { "split-mode", 0, 0, G_OPTION_ARG_STRING, &o.split_mode_text, N_("With --runtime llama-server: layer (default), none (one GPU, --main-gpu) or row, as its -sm"), N_("layer|row|none") }

#define OPT_PRECISION { "precision", 0, 0, G_OPTION_ARG_STRING, &o.precision_text, N_("Sketch the weights at this precision instead of the file as pulled"), N_("P") }
#define OPT_CATALOG  { "catalog", 0, 0, G_OPTION_ARG_FILENAME, &o.catalog, N_("Catalog file to use instead of the built-in and your own"), N_("FILE") }
#define OPT_MEASURE  { "measurements", 0, 0, G_OPTION_ARG_FILENAME, &o.measurements, N_("Measurement archive to use instead of the built-in and your own"), N_("DIR") }
#define OPT_JSON     { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print JSON instead of text"), NULL }

/* The options every command that sizes a model takes (predict, gguf, hub,
 * library), in one place so they read and parse the same: the entries
 * fill an HrCliPredictOptions named `o`, hr_cli_predict_options_resolve()
 * checks them. */
#define HR_CLI_SIZING_OPTIONS \
  OPT_CONTEXT, OPT_RUNTIME, OPT_VERSION, OPT_PARALLEL, OPT_KV_TYPE, OPT_FLASH, OPT_BATCH, OPT_BACKEND, OPT_BOARD, OPT_GPUS, \
  OPT_CPU_MOE, OPT_N_CPU_MOE, OPT_TENSOR_SPLIT, OPT_SPLIT_MODE, OPT_CATALOG, OPT_MEASURE

G_END_DECLS
