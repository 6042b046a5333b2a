/* hr-scenario-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScenario's fields, shared by hr-scenario.c (properties, binding,
 * deriving) and hr-scenario-figures.c (what the figures read).
 */
#pragma once

#include "hr-catalog-model-private.h"
#include "hr-precision.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

struct _HrScenario
{
  GObject             parent_instance;

  HrSession          *session;
  HrCatalogModel     *catalog;          /* the rows, evaluated before each "changed" */
  gboolean            catalog_stale;    /* the session's catalog changed: rows anew */

  /* properties */
  char               *board_id;
  char               *precision;
  guint32             context_tokens;
  HrKvCacheType       kv_type;
  guint32             parallel_slots;
  HrScenarioRuntime   runtime;
  gboolean            flash_attention;
  guint32             batch;
  guint32             n_cpu_moe;
  char               *draft_model;      /* llama-server's -md: a catalog name, "" = none */

  /* derived */
  HrBoard            *board;            /* the selected board, as edited; NULL before loading */
  const HrPrecision  *precision_info;   /* NULL: as pulled */
  HrEfficiencyFit     fit;
  GHashTable         *rates;            /* model name -> double*, measured on the board */
  guint               rates_serial;     /* bumped on each refit */
  HrEvaluationInputs  inputs;
  HrRuntimeInputs     runtime_inputs;   /* the template every prediction starts from */
  HrCalibration       calibration;      /* the board's learned overhead under it */
  char               *calibration_text;
  char               *server_version;   /* the board's, from its newest measurement; nullable */
};

G_END_DECLS
