/* hr-explain-panel-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrExplainPanel's instance, shared by its two files: the panel and its
 * figures (hr-explain-panel.c), and its runtime section, the terms the
 * runtime model sizes the selected row with (hr-explain-runtime.c).
 */
#pragma once

#include "hr-calibration.h"
#include "hr-explain-panel.h"
#include "hr-runtime.h"

G_BEGIN_DECLS

typedef enum {
  FIG_LIBRARY,
  FIG_WEIGHTS,
  FIG_BITS,
  FIG_KV_PER_TOKEN,
  FIG_KV_CACHE,
  FIG_OVERHEAD,
  FIG_TOTAL,
  FIG_HEADROOM,
  FIG_BUDGET,
  FIG_VERDICT,
  FIG_SPLIT,
  FIG_DEVICES,
  FIG_HOST_SIDE,
  FIG_SERVER_REPORT,
  FIG_FULL_FIRST,
  FIG_CONTEXT,
  FIG_CEILING,
  FIG_RATE,
  FIG_SPLIT_RATE,
  FIG_FLOOR,
  FIG_SPEED,
  FIG_MAX_CONTEXT_GPU,
  FIG_MAX_CONTEXT_PARTIAL,
  FIG_BEST_PRECISION,
  N_FIGS
} Figure;

/* The fit finders whose answer is a context: a button sets the slider to it. */
#define IS_CONTEXT_FINDER(f) ((f) == FIG_MAX_CONTEXT_GPU || (f) == FIG_MAX_CONTEXT_PARTIAL)

struct _HrExplainPanel
{
  AdwBin      parent_instance;

  GtkWidget  *title;
  GtkWidget  *rename_button; /* for a model the user added */
  GtkWidget  *variant_button; /* win.create-variant for the row */
  GtkWidget  *subtitle;
  GtkWidget  *empty;
  GtkWidget  *figures_box;
  GtkWidget  *headings[N_FIGS];
  GtkWidget  *values[N_FIGS];
  GtkWidget  *use_context[N_FIGS];  /* the context finders' buttons, else NULL */
  guint32     found_context[N_FIGS]; /* their answers, 0 = none */

  HrModelRow *row;
  HrScenario *followed;  /* "changed" refreshes the panel */
  HrBoard    *board;     /* owned copy */
  HrEvaluationInputs  scenario;  /* .board points at self->board */

  /* The runtime model, when one is selected */
  GtkWidget  *runtime_box;
  GtkWidget  *rt_heading;
  GtkWidget  *rt_error;
  GtkWidget  *rt_terms_box;  /* the term labels below, made in code */
  GtkWidget  *rt_notes_box;
  GtkWidget  *rt_title[HR_RUNTIME_N_TERM_KINDS];
  GtkWidget  *rt_formula[HR_RUNTIME_N_TERM_KINDS];
  GtkWidget  *rt_note[HR_RUNTIME_N_TERM_KINDS];
  GtkWidget  *rt_source[HR_RUNTIME_N_TERM_KINDS];
  GtkWidget  *rt_total_heading;
  GtkWidget  *rt_total;
  GtkWidget  *rt_host;
  GtkWidget  *rt_notes[HR_RUNTIME_MAX_NOTES];
  GtkWidget  *rt_learned_heading;
  GtkWidget  *rt_learned;
  gboolean    has_runtime;
  HrRuntimeInputs runtime;         /* .server_version points at runtime_version */
  char       *runtime_version;
  HrCalibration calibration;
  char       *runtime_era;         /* the texts the panel shows, for get_figure() */
  char       *runtime_total;
  char       *runtime_terms;
  char       *runtime_learned;
  HrRuntimePrediction *prediction; /* the selected row's, with its texts (some 18 KB): made
                                    * once, written anew on each refresh */
};

GtkWidget *_hr_explain_panel_make_label          (const char     *text,
                                                  const char     *css_class,
                                                  gboolean        selectable);
void       _hr_explain_panel_clear_runtime_texts (HrExplainPanel *self);
void       _hr_explain_panel_build_runtime_box   (HrExplainPanel *self);
void       _hr_explain_panel_refresh_runtime     (HrExplainPanel *self);

G_END_DECLS
