/* test-calibration.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The learned residual (app/core/speed/hr-calibration.c): it recovers a known
 * constant and slope, survives one measurement, none, and outliers, and
 * closes the seed's 16384-token gap once the board has measured it.
 */
#include "config.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-measurement.h"
#include "hr-units.h"

static const guint32 contexts[] = { 2048, 4096, 8192, 16384, 32768 };

/* residual = 150 MiB + 12.5 bytes per token, exactly. */
#define A 157286400.0
#define B 12.5

static HrResidualPoint
pt (guint32 context,
    double  residual)
{
  return (HrResidualPoint) { context, (gint64) residual };
}

static void
test_recovers_constant_and_slope (void)
{
  g_autoptr(GError) error = NULL;
  HrResidualPoint points[G_N_ELEMENTS (contexts)];
  HrCalibration cal;
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (contexts); i++)
    points[i] = pt (contexts[i], A + B * contexts[i]);
  g_assert_true (hr_calibration_fit (points, G_N_ELEMENTS (points), &cal, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_LINEAR);
  g_assert_cmpfloat_with_epsilon (cal.constant_bytes, A, 1e-3);
  g_assert_cmpfloat_with_epsilon (cal.bytes_per_token, B, 1e-9);
  g_assert_cmpuint (cal.n_points, ==, 5);
  g_assert_cmpuint (cal.n_used, ==, 5);
  g_assert_cmpuint (cal.n_outliers, ==, 0);
  g_assert_cmpfloat (cal.residual_rms_bytes, <, 1.0);
  /* 157,286,400 + 12.5 x 65,536 = 158,105,600. */
  g_assert_cmpint (hr_calibration_overhead_bytes (&cal, 65536), ==, 158105600);
  text = hr_calibration_describe (&cal);
  g_assert_cmpstr (text, ==, "learned from 5 measurements on this board, residual now 0.00 GB");
}

static void
test_noise (void)
{
  HrResidualPoint points[4] = {
    pt (2048, A + B * 2048 + 10e6),
    pt (4096, A + B * 4096 - 10e6),
    pt (8192, A + B * 8192 - 10e6),
    pt (16384, A + B * 16384 + 10e6),
  };
  HrCalibration cal;
  g_autofree char *text = NULL;

  g_assert_true (hr_calibration_fit (points, 4, &cal, NULL));
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_LINEAR);
  g_assert_cmpuint (cal.n_outliers, ==, 0);
  /* Within the noise of the true line. */
  g_assert_cmpfloat (fabs (cal.constant_bytes - A), <, 20e6);
  g_assert_cmpfloat (cal.residual_rms_bytes, >, 5e6);
  g_assert_cmpfloat (cal.residual_rms_bytes, <, 10.0001e6);
  text = hr_calibration_describe (&cal);
  g_assert_cmpstr (text, ==, "learned from 4 measurements on this board, residual now 0.01 GB");
}

static void
test_one_measurement (void)
{
  HrResidualPoint point = pt (4096, 49492224);
  HrCalibration cal;
  g_autofree char *text = NULL;

  g_assert_true (hr_calibration_fit (&point, 1, &cal, NULL));
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_CONSTANT);
  g_assert_cmpfloat (cal.constant_bytes, ==, 49492224.0);
  g_assert_cmpfloat (cal.bytes_per_token, ==, 0.0);
  /* A constant: the same at every context. */
  g_assert_cmpint (hr_calibration_overhead_bytes (&cal, 65536), ==, 49492224);
  text = hr_calibration_describe (&cal);
  g_assert_cmpstr (text, ==, "learned from 1 measurement on this board, residual now 0.00 GB");
}

static void
test_one_context (void)
{
  HrResidualPoint points[3] = { pt (8192, 100e6), pt (8192, 110e6), pt (8192, 120e6) };
  HrCalibration cal;

  /* Three runs at one context cannot give a slope: their mean. */
  g_assert_true (hr_calibration_fit (points, 3, &cal, NULL));
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_CONSTANT);
  g_assert_cmpfloat_with_epsilon (cal.constant_bytes, 110e6, 1e-3);
  g_assert_cmpfloat (cal.bytes_per_token, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (cal.residual_rms_bytes, sqrt (200e12 / 3.0), 1e-3);
}

static void
test_zero_measurements (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  HrCalibration cal;
  HrRuntimePrediction p = { 0 };
  const HrRuntimeTerm *term;

  g_assert_true (hr_calibration_fit (NULL, 0, &cal, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_NONE);
  g_assert_cmpint (hr_calibration_overhead_bytes (&cal, 4096), ==, 0);
  text = hr_calibration_describe (&cal);
  g_assert_cmpstr (text, ==, "no memory size measured on this board yet: the overhead is the model's estimate");

  /* Applied, the term is there, 0 bytes, saying so. */
  p.total_bytes = 1000;
  p.context_tokens = 4096;
  hr_calibration_apply (&cal, &p);
  term = hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_LEARNED);
  g_assert_nonnull (term);
  g_assert_cmpint (term->bytes, ==, 0);
  g_assert_cmpstr (term->label, ==, "Learned overhead");
  g_assert_cmpstr (term->note, ==, "no memory size measured on this board yet: the overhead is the model's estimate");
  g_assert_cmpstr (term->formula, ==, "0 bytes (no size measured yet)");
  g_assert_cmpuint (p.total_bytes, ==, 1000);

  /* Points promised but missing. */
  g_assert_false (hr_calibration_fit (NULL, 2, &cal, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "2 measured sizes were promised but none given");
}

static void
test_outliers (void)
{
  HrResidualPoint points[G_N_ELEMENTS (contexts) + 1];
  HrCalibration cal;
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (contexts); i++)
    points[i] = pt (contexts[i], A + B * contexts[i]);
  /* A run where another model was still loaded: 2 GB too much. */
  points[G_N_ELEMENTS (contexts)] = pt (8192, A + B * 8192 + 2e9);

  g_assert_true (hr_calibration_fit (points, G_N_ELEMENTS (points), &cal, NULL));
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_LINEAR);
  g_assert_cmpuint (cal.n_points, ==, 6);
  g_assert_cmpuint (cal.n_outliers, ==, 1);
  g_assert_cmpuint (cal.n_used, ==, 5);
  g_assert_cmpfloat_with_epsilon (cal.constant_bytes, A, 1e-3);
  g_assert_cmpfloat_with_epsilon (cal.bytes_per_token, B, 1e-9);
  text = hr_calibration_describe (&cal);
  g_assert_cmpstr (text, ==, "learned from 5 measurements on this board, residual now 0.00 GB; 1 set aside as an outlier");

  /* Differences within the 0.05 GB floor are never outliers. */
  points[G_N_ELEMENTS (contexts)] = pt (8192, A + B * 8192 + 40e6);
  g_assert_true (hr_calibration_fit (points, G_N_ELEMENTS (points), &cal, NULL));
  g_assert_cmpuint (cal.n_outliers, ==, 0);

  /* Two points: nothing can be called an outlier. */
  points[1] = pt (4096, 5e9);
  g_assert_true (hr_calibration_fit (points, 2, &cal, NULL));
  g_assert_cmpuint (cal.n_outliers, ==, 0);
  g_assert_cmpuint (cal.n_used, ==, 2);
}

/* A tied llama-architecture spec without a tensor list, like the catalog's
 * llama3.2:3b row but with the real blob's tensor bytes standing in as the
 * file size. */
static HrModelSpec *
llama32_row (void)
{
  HrModelSpec *spec = hr_model_spec_new ("llama3.2:3b");

  spec->architecture = g_strdup ("llama");
  spec->parameters = 3212749888;
  spec->precision = g_strdup ("q4_K_M");
  spec->file_bytes = 2011539712;
  spec->layers = 28;
  spec->heads = 24;
  spec->kv_heads = 8;
  spec->key_length = 128;
  spec->value_length = 128;
  spec->embedding_length = 3072;
  spec->feed_forward_length = 8192;
  spec->context_length = 131072;
  spec->vocab_size = 128256;
  spec->tied_embeddings = TRUE;
  return spec;
}

static HrMeasurement *
measurement (const char *board,
             const char *version,
             const char *model,
             guint32     context,
             guint64     reported,
             guint64     predicted)
{
  HrMeasurement *m = hr_measurement_new ();
  HrMeasuredSize size = { context, reported, reported, predicted };

  m->board = g_strdup (board);
  m->runtime_version = g_strdup (version);
  m->model = g_strdup (model);
  g_array_append_val (m->sizes, size);
  return m;
}

/* The catalog (llama3.2:3b) and the measurement archive the seed-gap cases read. */
typedef struct {
  GPtrArray *catalog;
  GPtrArray *archive;
} SeedGap;

static void
seed_gap_set_up (SeedGap       *f,
                 gconstpointer  data)
{
  f->catalog = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  f->archive = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);
  g_ptr_array_add (f->catalog, llama32_row ());
  /* The seed's DGX Spark points, taking the CLI's rounded figures (2.6 and
   * 4.1 GB) as the reported bytes: the archive keeps the exact /api/ps size,
   * the seed only its printed form. The stored predictions (1) are stale:
   * the fit predicts again. */
  g_ptr_array_add (f->archive, measurement ("dgx-spark", "ollama 0.31.2", "llama3.2:3b", 4096, 2600000000, 1));
  g_ptr_array_add (f->archive, measurement ("dgx-spark", "ollama 0.31.2", "llama3.2:3b", 16384, 4100000000, 1));
  /* Another board, another version, a model the catalog lacks (its stored
   * prediction is used), one without a reported size. */
  g_ptr_array_add (f->archive, measurement ("rtx-3090", "ollama 0.31.2", "llama3.2:3b", 4096, 2700000000, 1));
  g_ptr_array_add (f->archive, measurement ("dgx-spark", "ollama 0.30.1", "llama3.2:3b", 4096, 2900000000, 1));
  g_ptr_array_add (f->archive, measurement ("dgx-spark", "0.31.2", "mystery:7b", 4096, 5000000000, 4900000000));
  g_ptr_array_add (f->archive, measurement ("dgx-spark", "0.31.2", "llama3.2:3b", 8192, 0, 3000000000));
}

static void
seed_gap_tear_down (SeedGap       *f,
                    gconstpointer  data)
{
  g_ptr_array_unref (f->archive);
  g_ptr_array_unref (f->catalog);
}

/* The 0.31.2 points on dgx-spark; the llama3.2:3b pair fitted when @cal is
 * given. Returns: (transfer full) */
static GArray *
seed_gap_points (SeedGap       *f,
                 HrCalibration *cal)
{
  GArray *points = hr_calibration_points_from_archive (f->archive, "dgx-spark", "0.31.2", f->catalog, NULL);
  g_autoptr(GError) error = NULL;

  if (cal != NULL)
    {
      g_assert_true (hr_calibration_fit ((HrResidualPoint *) (gpointer) points->data, 2, cal, &error));
      g_assert_no_error (error);
    }
  return points;
}

static void
test_closes_the_seed_gap (SeedGap       *f,
                          gconstpointer  data)
{
  g_autoptr(GArray) points = seed_gap_points (f, NULL);
  HrResidualPoint *pts = (HrResidualPoint *) (gpointer) points->data;
  g_autoptr(GError) error = NULL;
  HrCalibration cal;

  g_assert_cmpuint (points->len, ==, 3);
  /* 2,600,000,000 - 2,550,507,776 and 4,100,000,000 - 3,997,542,656. */
  g_assert_cmpuint (pts[0].context_tokens, ==, 4096);
  g_assert_cmpint (pts[0].residual_bytes, ==, 49492224);
  g_assert_cmpint (pts[1].residual_bytes, ==, 102457344);
  g_assert_cmpint (pts[2].residual_bytes, ==, 100000000);
  /* The llama3.2:3b pair alone: a line through both. */
  g_assert_true (hr_calibration_fit (pts, 2, &cal, &error));
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_LINEAR);
  g_assert_cmpfloat_with_epsilon (cal.bytes_per_token, (102457344.0 - 49492224.0) / 12288.0, 1e-9);
}

/* The principled 3.9975 GB ("4.0 GB") plus the learned overhead is the
 * reported 4.1 GB. */
static void
test_seed_gap_applied (SeedGap       *f,
                       gconstpointer  data)
{
  HrCalibration cal;
  g_autoptr(GArray) points = seed_gap_points (f, &cal);
  g_autoptr(GError) error = NULL;
  g_autofree char *ps = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  const HrRuntimeTerm *term;

  hr_runtime_inputs_init (&in, g_ptr_array_index (f->catalog, 0), 16384);
  in.server_version = "0.31.2";
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.total_bytes, ==, 3997542656);
  hr_calibration_apply (&cal, &p);
  g_assert_cmpuint (p.total_bytes, ==, 4100000000);
  ps = hr_runtime_format_ps_size (p.total_bytes);
  g_assert_cmpstr (ps, ==, "4.1 GB");
  term = hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_LEARNED);
  g_assert_cmpint (term->bytes, ==, 102457344);
  g_assert_cmpstr (term->note, ==, "learned from 2 measurements on this board, residual now 0.00 GB");
  g_assert_cmpstr (term->formula, ==, "a + b x num_ctx = 31,837,184 + 4310.312 x 16,384 = 102,457,344 bytes");
  g_assert_nonnull (strstr (term->source, "least-squares"));
  /* Applying twice adds nothing. */
  hr_calibration_apply (&cal, &p);
  g_assert_cmpuint (p.total_bytes, ==, 4100000000);
}

/* Every version: the 0.30.1 point joins. */
static void
test_seed_gap_every_version (SeedGap       *f,
                             gconstpointer  data)
{
  g_autoptr(GArray) points = hr_calibration_points_from_archive (f->archive, "dgx-spark", NULL, f->catalog, NULL);

  g_assert_cmpuint (points->len, ==, 4);
}

/* Predicting for the 0.12 estimator learns nothing from 0.30+ servers. */
static void
test_seed_gap_old_era (SeedGap       *f,
                       gconstpointer  data)
{
  g_autoptr(GArray) points = NULL;
  HrRuntimeInputs old_era;

  hr_runtime_inputs_init (&old_era, NULL, 4096);
  old_era.era = HR_RUNTIME_ERA_OLLAMA_0_12;
  points = hr_calibration_points_from_archive (f->archive, "dgx-spark", NULL, f->catalog, &old_era);
  g_assert_cmpuint (points->len, ==, 0);
}

/* A clear archive learns nothing. */
static void
test_seed_gap_clear_archive (SeedGap       *f,
                             gconstpointer  data)
{
  g_autoptr(GArray) points = NULL;
  HrCalibration cal;

  g_ptr_array_set_size (f->archive, 0);
  points = hr_calibration_points_from_archive (f->archive, "dgx-spark", "0.31.2", f->catalog, NULL);
  g_assert_cmpuint (points->len, ==, 0);
  g_assert_true (hr_calibration_fit ((HrResidualPoint *) (gpointer) points->data, points->len, &cal, NULL));
  g_assert_cmpint (cal.kind, ==, HR_CALIBRATION_NONE);
}

/* The overhead learned from the seed's DGX Spark point
 * (llama3.2:3b at 4,096 tokens, `ollama ps` 2.6 GB; From API to GPU
 * week 4) with the built-in catalog's row. The prediction weighs the exact
 * blob (2,019,377,376 bytes, docs/seed-figures.md W6), so the residual is what
 * the runtime really added; with only the rounded 2.0 GB listing the
 * 19,377,376 bytes of weights it leaves out would be learned as overhead. */
static void
test_learns_from_exact_bytes (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (path, &error);
  g_autoptr(GPtrArray) rounded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_autoptr(GPtrArray) archive = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);
  g_autoptr(GArray) exact_points = NULL;
  g_autoptr(GArray) rounded_points = NULL;
  HrModelSpec *listing;
  gint64 exact_residual, rounded_residual;

  g_assert_no_error (error);
  listing = hr_model_spec_copy (hr_catalog_find (catalog, "llama3.2:3b"));
  g_assert_cmpuint (listing->exact_file_bytes, ==, G_GUINT64_CONSTANT (2019377376));
  listing->exact_file_bytes = 0;
  g_ptr_array_add (rounded, listing);
  g_ptr_array_add (archive, measurement ("dgx-spark", "ollama 0.31.2", "llama3.2:3b", 4096, 2600000000, 1));

  exact_points = hr_calibration_points_from_archive (archive, "dgx-spark", "0.31.2", catalog, NULL);
  rounded_points = hr_calibration_points_from_archive (archive, "dgx-spark", "0.31.2", rounded, NULL);
  g_assert_cmpuint (exact_points->len, ==, 1);
  g_assert_cmpuint (rounded_points->len, ==, 1);
  exact_residual = g_array_index (exact_points, HrResidualPoint, 0).residual_bytes;
  rounded_residual = g_array_index (rounded_points, HrResidualPoint, 0).residual_bytes;
  /* 2,600,000,000 - (2,019,377,376 weights + 469,762,048 KV + 69,212,160 compute) */
  g_assert_cmpint (exact_residual, ==, 41648416);
  g_assert_cmpint (rounded_residual - exact_residual, ==, 19377376);
}

static void
test_negative_residual (void)
{
  HrResidualPoint point = pt (4096, -3000);
  HrCalibration cal;
  HrRuntimePrediction p = { 0 };

  /* The model overshoots: the learned term is negative, the total never
   * goes under 0. */
  g_assert_true (hr_calibration_fit (&point, 1, &cal, NULL));
  p.context_tokens = 4096;
  p.total_bytes = 10000;
  hr_calibration_apply (&cal, &p);
  g_assert_cmpuint (p.total_bytes, ==, 7000);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_LEARNED), ==, -3000);
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_LEARNED)->formula, ==, "a = -3,000 bytes");
  p.n_terms = 0;
  p.total_bytes = 1000;
  hr_calibration_apply (&cal, &p);
  g_assert_cmpuint (p.total_bytes, ==, 0);
}

static void
test_same_version (void)
{
  g_assert_true (hr_calibration_same_version ("ollama 0.31.2", "0.31.2"));
  g_assert_true (hr_calibration_same_version (NULL, NULL));
  g_assert_false (hr_calibration_same_version ("0.31.2", NULL));
  g_assert_false (hr_calibration_same_version ("0.31.2", "0.31.3"));
  g_assert_true (hr_calibration_same_version ("dev", "dev"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/calibration/recovers", test_recovers_constant_and_slope);
  g_test_add_func ("/calibration/noise", test_noise);
  g_test_add_func ("/calibration/one-measurement", test_one_measurement);
  g_test_add_func ("/calibration/one-context", test_one_context);
  g_test_add_func ("/calibration/zero-measurements", test_zero_measurements);
  g_test_add_func ("/calibration/outliers", test_outliers);
  g_test_add ("/calibration/closes-the-seed-gap/points", SeedGap, NULL, seed_gap_set_up, test_closes_the_seed_gap, seed_gap_tear_down);
  g_test_add ("/calibration/closes-the-seed-gap/applied", SeedGap, NULL, seed_gap_set_up, test_seed_gap_applied, seed_gap_tear_down);
  g_test_add ("/calibration/closes-the-seed-gap/every-version", SeedGap, NULL, seed_gap_set_up, test_seed_gap_every_version, seed_gap_tear_down);
  g_test_add ("/calibration/closes-the-seed-gap/old-era", SeedGap, NULL, seed_gap_set_up, test_seed_gap_old_era, seed_gap_tear_down);
  g_test_add ("/calibration/closes-the-seed-gap/clear-archive", SeedGap, NULL, seed_gap_set_up, test_seed_gap_clear_archive, seed_gap_tear_down);
  g_test_add_func ("/calibration/exact-bytes", test_learns_from_exact_bytes);
  g_test_add_func ("/calibration/negative-residual", test_negative_residual);
  g_test_add_func ("/calibration/same-version", test_same_version);

  return g_test_run ();
}
