/* hr-cli.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared pieces of headroom-cli: each subcommand is
 *   int hr_cli_cmd_NAME (int argc, char **argv)   (argv[0] is the subcommand)
 * returning 0 (ok / allowed), 1 (refused or failed, a file that cannot be
 * read included) or 2 (usage).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "hr-board.h"
#include "hr-evaluate.h"
#include "hr-offload.h"
#include "hr-priors.h"
#include "hr-rates.h"

G_BEGIN_DECLS

#define HR_CLI_EXIT_OK      0
#define HR_CLI_EXIT_FAILED  1
#define HR_CLI_EXIT_USAGE   2

/* Everything a subcommand reads from disk: the merged catalog and boards,
 * the measurement archive, the chosen board and its efficiency fit. */
typedef struct {
  GPtrArray       *catalog;       /* HrModelSpec* */
  GPtrArray       *boards;        /* HrBoard* */
  GPtrArray       *measurements;  /* HrMeasurement* */
  const HrBoard   *board;         /* borrowed from boards */
  HrEfficiencyFit  fit;
  GHashTable      *rates;         /* model name -> double* decode t/s, for board */
  GPtrArray       *warnings;      /* char*: files skipped and why */
  HrPriors        *priors;        /* data/priors.json; NULL when it cannot be read */
  HrModelSpec     *draft;         /* --draft's model (hr-cli-draft.c), owned; NULL = none */
  guint32          mtp_layers;    /* --mtp: the model file's nextn layers (hr-cli-draft.c); 0 = none */
} HrCliContext;

GPtrArray *hr_cli_saved_servers          (void);
char      *hr_cli_saved_board_for_server (const char *url);

gboolean hr_cli_context_load  (HrCliContext *ctx,
                               const char   *board_name,
                               const char   *catalog_path,
                               const char   *measurements_dir,
                               GError      **error);
void     hr_cli_context_clear (HrCliContext *ctx);
void     hr_cli_context_use_board (HrCliContext *ctx,
                                   HrBoard      *board);
double   hr_cli_context_measured_tps (HrCliContext *ctx,
                                      const char   *model);

void     hr_cli_context_scenario (HrCliContext          *ctx,
                                  const HrBoard         *board,
                                  const HrEfficiencyFit *fit,
                                  HrEvaluationInputs    *out);
double   hr_cli_context_prior  (HrCliContext *ctx,
                                HrHardwareKind kind,
                                guint        *out_n_runs);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrCliContext, hr_cli_context_clear)

int      hr_cli_usage_error   (const char   *format,
                               ...) G_GNUC_PRINTF (1, 2);
int      hr_cli_fail          (GError       *error);
void     hr_cli_print_json    (JsonNode     *node);
double   hr_cli_json_rate     (double        tps);
gboolean hr_cli_parse_u32     (const char   *option,
                               const char   *text,
                               guint32       min,
                               guint32       max,
                               guint32      *out);
gboolean hr_cli_check_readable (const char  *path,
                                GError     **error);
gboolean hr_cli_check_folder   (const char  *path,
                                GError     **error);
const char *hr_cli_suggest_model (GPtrArray  *catalog,
                                  const char *name);
int      hr_cli_unknown_model (GPtrArray    *catalog,
                               const char   *name);
gboolean hr_cli_select_models (GPtrArray    *catalog,
                               const char   *models_text,
                               GPtrArray    *rows);
gboolean hr_cli_select_boards (GPtrArray    *boards,
                               const char   *boards_text,
                               GPtrArray    *out);
void     hr_cli_set_unknown_board (GError    **error,
                                   GPtrArray  *boards,
                                   const char *name);
int      hr_cli_name_width    (GPtrArray    *specs,
                               int           min_width);
gboolean hr_cli_parse_options (const char   *command,
                               const char   *parameter_string,
                               GOptionEntry *entries,
                               int          *argc,
                               char       ***argv);

/* hr-cli-split.c: the GPU/host split as the table commands print it. */
char    *hr_cli_split_layers_text (const HrEvaluation *e);
char    *hr_cli_verdict_text      (const HrEvaluation *e);
void     hr_cli_add_split_json    (JsonBuilder        *b,
                                   const HrEvaluation *e);
void     hr_cli_print_prior_note  (HrCliContext       *ctx,
                                   const HrBoard      *board,
                                   const HrEvaluation *evaluations,
                                   guint               n);

/* hr-cli-offload.c: predict's split and fit finders. */
void     hr_cli_offload_set_placement (gboolean sched_spread,
                                       gint32   main_gpu);
/* hr-cli-placement.c: the placement inputs people set. */
void     hr_cli_offload_set_inputs (guint32      n_cpu_moe,
                                    HrSplitMode  split_mode,
                                    guint        n_tensor_split,
                                    const float *tensor_split);
void     hr_cli_placement_apply    (HrOffloadInputs *out);
gint32   hr_cli_offload_get_main_gpu (void);
guint64  hr_cli_placement_fit_free (const HrBoard         *board,
                                    const HrRuntimeInputs *in);
void     hr_cli_placement_add_json (JsonObject      *o,
                                    const HrOffload *split,
                                    gboolean         llama_server);
void     hr_cli_placement_print    (const HrOffload *split,
                                    gboolean         llama_server);
gboolean hr_cli_predict_split   (HrCliContext          *ctx,
                                 const HrRuntimeInputs *runtime,
                                 gint32                 num_gpu,
                                 JsonObject            *json,
                                 GError               **error);
gboolean hr_cli_predict_finders (HrCliContext          *ctx,
                                 const HrRuntimeInputs *runtime,
                                 gint32                 num_gpu,
                                 gboolean               max_context,
                                 gboolean               best_precision,
                                 gboolean               json,
                                 GError               **error);
const HrPrecision *hr_cli_lower_precision_fits (HrCliContext          *ctx,
                                                const HrRuntimeInputs *runtime);

/* hr-cli-boards.c: boards detect / import and the --gpus board. */
HrBoard *hr_cli_gpus_board     (const char   *gpus_text,
                                GError      **error);
int hr_cli_cmd_boards    (int argc, char **argv);

int hr_cli_cmd_weights   (int argc, char **argv);
int hr_cli_cmd_catalog   (int argc, char **argv);
int hr_cli_cmd_fit       (int argc, char **argv);
int hr_cli_cmd_dashboard (int argc, char **argv);
int hr_cli_cmd_check     (int argc, char **argv);
int hr_cli_cmd_predict   (int argc, char **argv);
int hr_cli_cmd_matrix    (int argc, char **argv);
int hr_cli_cmd_gguf      (int argc, char **argv);
int hr_cli_cmd_hub       (int argc, char **argv);
int hr_cli_cmd_ollama    (int argc, char **argv);
int hr_cli_cmd_ollama_variant (int argc, char **argv);
int hr_cli_ollama_ps_all (gboolean json);
int hr_cli_cmd_library   (int argc, char **argv);
int hr_cli_cmd_measurements (int argc, char **argv);

HrModelSpec *hr_cli_library_spec (const char  *name,
                                  GError     **error);

/**
 * HrCliPredictSource:
 * @usage: the usage line printed when MODEL is missing
 * @resolve: MODEL -> a spec (transfer full); %NULL after printing why,
 *   with the exit status in its last argument
 * @print_text: prints what comes before the prediction's text
 * @wrap_json: takes predict's JSON object, returns the document to print
 * @data: for the three
 *
 * Where `hr_cli_predict_run()` gets its model from when not the catalog.
 */
typedef struct {
  const char  *usage;
  HrModelSpec *(*resolve)    (const char *model, gpointer data, int *out_status);
  void         (*print_text) (gpointer data);
  JsonNode    *(*wrap_json)  (JsonNode *predict, gpointer data);
  gpointer     data;
} HrCliPredictSource;

int hr_cli_predict_run (const char               *command,
                        int                       argc,
                        char                    **argv,
                        const HrCliPredictSource *source);

G_END_DECLS
