/* hr-measure-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasureRun's state, shared by the object (hr-measure.c), its protocol
 * (hr-measure-protocol.c) and its archive document (hr-measure-archive.c).
 * Not for the GUI.
 */
#pragma once

#include "hr-measure.h"

G_BEGIN_DECLS

struct _HrMeasureRun
{
  GObject         parent_instance;

  HrOllamaClient *client;
  char           *model;
  char           *board_id;
  char           *prompt;
  char           *archive_dir;
  GArray         *contexts;       /* guint32 */
  guint           runs;
  guint32         num_predict;
  HrMeasurePredictFunc predict;
  gpointer        predict_data;
  GDestroyNotify  predict_destroy;

  /* One measurement at a time. */
  GTask          *task;           /* borrowed while running */
  char           *server_version;
  char           *digest;
  guint64         package_bytes;
  gboolean        was_loaded;
  guint32         was_context;
  gboolean        touched;        /* the board's state has been changed */
  HrOllamaShow   *show;
  GArray         *results;        /* HrMeasureResult */
  GArray         *ps;             /* HrMeasurePs */
  guint           ctx_index;
  guint           run_index;
  double          decode_mean;
  char           *date;
  char           *saved_path;
  GError         *pending;        /* the error to return once the board is restored */
  char           *failure;        /* "failed after N of M runs: ...", for a set cut short, or NULL */
  GSource        *wait_timer;     /* reports a run's wait for its first byte */
  gint64          wait_started;   /* monotonic µs when that run was sent */
  char           *wait_run;       /* "run 1 of 3 at num_ctx 2048 (cold)" */
  double          run_ttft_ms;    /* the run's first chunk, client ms (-1 = none yet) */
  gint64          run_chunks;     /* text chunks the run received */
};

/* Registered in hr-measure.c, emitted by hr-measure-protocol.c. */
enum {
  SIGNAL_STATUS,
  SIGNAL_RUN_DONE,
  SIGNAL_PS_DONE,
  SIGNAL_WAITING,
  N_SIGNALS
};

extern guint hr_measure_run_signals[N_SIGNALS];

gboolean hr_measure_run_save (HrMeasureRun  *self,
                              GError       **error);

G_END_DECLS
