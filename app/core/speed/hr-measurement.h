/* hr-measurement.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measurement archive: one JSON file per run set. The fields the
 * dashboard needs are board, model, date, runtime version and
 * decode_tps.mean (the seed's benchmark archive format); per-run figures,
 * /api/ps sizes and predictions are carried when present and kept verbatim.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "hr-rates.h"

G_BEGIN_DECLS

typedef struct {
  guint32 context_tokens;    /* num_ctx of these runs */
  guint64 reported_bytes;    /* /api/ps size (0 = not read) */
  guint64 reported_vram_bytes;
  guint64 predicted_bytes;   /* Headroom's prediction (0 = none) */
} HrMeasuredSize;

typedef struct _HrMeasurement HrMeasurement;

struct _HrMeasurement {
  char      *path;            /* file it was read from, or NULL */
  char      *board;           /* board id */
  char      *model;           /* model name as the catalog has it */
  char      *date;            /* ISO 8601 */
  char      *runtime_version; /* "ollama 0.31.2" or NULL */
  char      *source;          /* who measured it / where it came from */
  double     decode_tps_mean;
  guint64    weight_bytes;    /* size of the weights measured (0 = unknown) */
  GArray    *sizes;           /* HrMeasuredSize, may be empty */
  JsonNode  *document;        /* the whole JSON as read, for round-tripping */
};

HrMeasurement *hr_measurement_new        (void);
void           hr_measurement_free       (HrMeasurement *measurement);
HrMeasurement *hr_measurement_load_file  (const char    *path,
                                          GError       **error);
HrMeasurement *hr_measurement_from_json  (JsonNode      *node,
                                          const char    *display_name,
                                          GError       **error);
void           hr_measured_sizes_to_json (JsonBuilder   *builder,
                                          const GArray  *sizes);
gboolean       hr_measurement_save       (HrMeasurement *measurement,
                                          const char    *directory,
                                          char         **out_path,
                                          GError       **error);
guint          hr_file_remove_stale_temporaries (const char *directory);
GPtrArray     *hr_measurement_archive_load (const char  *directory,
                                            GPtrArray   *out_errors,
                                            GError     **error);
const char    *hr_measurement_archive_server_version (GPtrArray  *measurements,
                                                      const char *board_id);
GHashTable    *hr_measurement_archive_rates (GPtrArray  *measurements,
                                             const char *board_id);
GArray        *hr_measurement_archive_points (GPtrArray  *measurements,
                                              const char *board_id,
                                              GPtrArray  *catalog);
char          *hr_measurement_dup_id     (const HrMeasurement *measurement);
HrMeasurement *hr_measurement_archive_find (GPtrArray  *measurements,
                                            const char *id);
gboolean       hr_measurement_archive_remove (GPtrArray      *measurements,
                                              const char     *directory,
                                              const char     *id,
                                              HrMeasurement **out_removed,
                                              GError        **error);
gboolean       hr_measurement_restore    (const HrMeasurement *measurement,
                                          GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrMeasurement, hr_measurement_free)

G_END_DECLS
