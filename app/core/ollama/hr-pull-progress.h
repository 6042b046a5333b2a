/* hr-pull-progress.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The progress of one `POST /api/pull` stream as a person wants to see it
 * (docs/ollama.md, "/api/pull"): one overall bar over every layer, the
 * current layer, the transfer rate, the time left, the status text, a
 * stall, and for an error line what to do about it. Pure: the caller feeds
 * the stream's lines and the monotonic time.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/** HR_PULL_STALL_SECONDS: no progress for this long is a stall. */
#define HR_PULL_STALL_SECONDS 30
/** HR_PULL_RATE_WINDOW_SECONDS: the transfer rate is averaged over this window. */
#define HR_PULL_RATE_WINDOW_SECONDS 5

typedef struct {
  char    *digest;        /* "sha256:<64 hex>" */
  guint64  total;         /* bytes of the layer (0 = not known yet) */
  guint64  completed;     /* the most bytes ever reported done (never goes back) */
  guint64  reported;      /* the last `completed` the server sent (may go back) */
  gboolean present;       /* arrived complete in its first line: already on the board */
} HrPullLayer;

typedef enum {
  HR_PULL_LINE_STATUS,   /* a status without a layer: "pulling manifest", "verifying sha256 digest" */
  HR_PULL_LINE_LAYER,    /* progress of one layer */
  HR_PULL_LINE_SUCCESS,  /* {"status": "success"}: the pull is done */
  HR_PULL_LINE_ERROR,    /* {"error": ...}: the pull failed; see ->error */
} HrPullLineKind;

typedef enum {
  HR_PULL_ERROR_UNKNOWN_MODEL, /* no such model or tag in the registry */
  HR_PULL_ERROR_NO_SPACE,      /* the board's disk is full */
  HR_PULL_ERROR_NETWORK,       /* the board could not reach the registry */
  HR_PULL_ERROR_CORRUPT,       /* digest mismatch */
  HR_PULL_ERROR_UNAUTHORIZED,  /* the registry refused access */
  HR_PULL_ERROR_OTHER,
} HrPullErrorKind;

typedef struct _HrPullProgress HrPullProgress;

struct _HrPullProgress {
  GPtrArray *layers;          /* HrPullLayer*, in the order they arrived */
  int        current;         /* index of the layer the last line was about, or -1 */
  char      *status;          /* the last status text */
  char      *error;           /* the error line's text, or NULL */
  gboolean   success;         /* "success" arrived */
  guint64    completed;       /* sum of the layers' completed (the bar) */
  guint64    total;           /* sum of the layers' known totals */
  guint64    transferred;     /* bytes downloaded by this pull (layers already present excluded) */
  double     rate;            /* bytes per second over the last window (0 = unknown) */
  gint64     started_us;      /* monotonic time of the first line */
  gint64     last_progress_us;/* monotonic time bytes last moved */
  GArray    *samples;         /* private: (time, transferred) pairs for the rate */
  gboolean   on_layer;        /* the last line was about a layer */
};

HrPullProgress *hr_pull_progress_new          (void);
void            hr_pull_progress_free         (HrPullProgress *progress);
HrPullLineKind  hr_pull_progress_feed         (HrPullProgress *progress,
                                               JsonObject     *line,
                                               gint64          now_us);
double          hr_pull_progress_fraction     (const HrPullProgress *progress);
gboolean        hr_pull_progress_stalled      (const HrPullProgress *progress,
                                               gint64          now_us);
double          hr_pull_progress_seconds_left (const HrPullProgress *progress);
const HrPullLayer *hr_pull_progress_current_layer (const HrPullProgress *progress);
char           *hr_pull_progress_describe     (const HrPullProgress *progress,
                                               gint64          now_us);

HrPullErrorKind hr_pull_error_classify        (const char     *ollama_text);
char           *hr_pull_error_message         (const char     *model,
                                               const char     *ollama_text);
char           *hr_pull_cancelled_message     (const char     *model);
char           *hr_format_duration_left       (double          seconds);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrPullProgress, hr_pull_progress_free)

G_END_DECLS
