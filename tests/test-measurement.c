/* test-measurement.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measurement archive: the seed's two Jetson measurements feed the
 * efficiency fit (docs/seed-figures.md: 0.36 over (2.0, 4.9) GB), bad files are
 * skipped with a message and left alone, saves are atomic.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <utime.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-measurement.h"
#include "hr-rates.h"

static void
test_measurement_seed_archive (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "measurements", NULL);
  g_autofree char *catalog_path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) archive = hr_measurement_archive_load (dir, errors, &error);
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (catalog_path, NULL);
  g_autoptr(GHashTable) rates = NULL;
  g_autoptr(GArray) points = NULL;
  HrEfficiencyFit fit;

  g_assert_no_error (error);
  g_assert_cmpuint (errors->len, ==, 0);
  /* the seed's two Jetson runs and its week-2 phi4 run on the DGX Spark */
  g_assert_cmpuint (archive->len, ==, 3);

  rates = hr_measurement_archive_rates (archive, "jetson-orin-nano-super");
  g_assert_cmpuint (g_hash_table_size (rates), ==, 2);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (rates, "llama3.2:3b"), ==, 18.4);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (rates, "llama3.1:8b"), ==, 7.4);

  points = hr_measurement_archive_points (archive, "jetson-orin-nano-super", catalog);
  g_assert_cmpuint (points->len, ==, 2);
  g_assert_true (hr_rate_fit_efficiency ((HrRatePoint *) (gpointer) points->data, points->len, 102e9, &fit, &error));
  /* the seed's constants come out of the data */
  g_assert_cmpfloat (fit.efficiency, ==, 0.36);
  g_assert_cmpuint (fit.band_low_bytes, ==, 2000000000);
  g_assert_cmpuint (fit.band_high_bytes, ==, 4900000000);

  /* the DGX Spark has its own: phi4 at 23.4 to 23.5 t/s on Ollama 0.31.2 */
  g_hash_table_unref (g_steal_pointer (&rates));
  rates = hr_measurement_archive_rates (archive, "dgx-spark");
  g_assert_cmpuint (g_hash_table_size (rates), ==, 1);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (rates, "phi4"), ==, 23.4667);
  g_hash_table_unref (g_steal_pointer (&rates));
  rates = hr_measurement_archive_rates (archive, "rtx-4090");
  g_assert_cmpuint (g_hash_table_size (rates), ==, 0);
}

/* A measurement that did not record its weight bytes is sized
 * by the catalog as pulled: the exact blob where the row has one
 * (llama3.2:3b, 2,019,377,376 bytes, docs/seed-figures.md W6), the listing
 * (qwen2.5:14b, 9.0 GB) where it has none. */
static void
test_measurement_points_exact_bytes (void)
{
  g_autofree char *catalog_path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (catalog_path, NULL);
  g_autoptr(GPtrArray) archive = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);
  g_autoptr(GArray) points = NULL;
  static const struct { const char *model; double tps; } runs[] = {
    { "llama3.2:3b", 41.0 }, { "qwen2.5:14b", 9.5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      HrMeasurement *m = hr_measurement_new ();

      m->board = g_strdup ("dgx-spark");
      m->model = g_strdup (runs[i].model);
      m->decode_tps_mean = runs[i].tps;
      g_ptr_array_add (archive, m);
    }
  points = hr_measurement_archive_points (archive, "dgx-spark", catalog);
  g_assert_cmpuint (points->len, ==, 2);
  g_assert_cmpuint (g_array_index (points, HrRatePoint, 0).weight_bytes, ==, G_GUINT64_CONSTANT (2019377376));
  g_assert_cmpfloat (g_array_index (points, HrRatePoint, 0).decode_tps, ==, 41.0);
  g_assert_cmpuint (g_array_index (points, HrRatePoint, 1).weight_bytes, ==, G_GUINT64_CONSTANT (9000000000));
}

static void
test_measurement_bad_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-archive-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "a.json", NULL);
  g_autofree char *cut = g_build_filename (dir, "b.json", NULL);
  g_autofree char *absurd = g_build_filename (dir, "c.json", NULL);
  g_autofree char *nomean = g_build_filename (dir, "d.json", NULL);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) archive = NULL;
  g_autofree char *cut_after = NULL;
  const char *cut_text = "{\"board\": \"b\", \"model\": \"m\", \"decode_tps\": {\"me";

  g_assert_true (g_file_set_contents (good, "{\"board\": \"b\", \"model\": \"m\", \"date\": \"2026-11-01\", \"decode_tps\": {\"mean\": 12.5}}", -1, NULL));
  g_assert_true (g_file_set_contents (cut, cut_text, -1, NULL));
  g_assert_true (g_file_set_contents (absurd, "{\"board\": \"b\", \"model\": \"m\", \"decode_tps\": {\"mean\": -4}}", -1, NULL));
  g_assert_true (g_file_set_contents (nomean, "{\"board\": \"b\", \"model\": \"m\", \"decode_tps\": 3}", -1, NULL));

  archive = hr_measurement_archive_load (dir, errors, NULL);
  g_assert_cmpuint (archive->len, ==, 1);
  g_assert_cmpuint (errors->len, ==, 3);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (errors, 0), cut));
  g_assert_nonnull (strstr (g_ptr_array_index (errors, 0), "not valid JSON"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (errors, 1), "field \"decode_tps.mean\" must be a rate above 0 and at most 1,000,000 t/s"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (errors, 2), "field \"decode_tps\" is missing or not an object with a \"mean\""));

  /* nothing was rewritten */
  g_assert_true (g_file_get_contents (cut, &cut_after, NULL, NULL));
  g_assert_cmpstr (cut_after, ==, cut_text);

  g_remove (good); g_remove (cut); g_remove (absurd); g_remove (nomean);
  g_rmdir (dir);
}

/* An archive folder of its own. */
typedef struct {
  char *dir;
} Archive;

static void
archive_set_up (Archive       *f,
                gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("headroom-archive-XXXXXX", NULL);
}

static void
archive_tear_down (Archive       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

/* phi4 on dgx-spark, one size. Returns: (transfer full) */
static HrMeasurement *
phi4_measurement (void)
{
  HrMeasurement *m = hr_measurement_new ();
  HrMeasuredSize size = { 4096, 2600000000, 2600000000, 2550000000 };

  m->board = g_strdup ("dgx-spark");
  m->model = g_strdup ("phi4:latest");
  m->date = g_strdup ("2026-11-29T12:00:00Z");
  m->runtime_version = g_strdup ("ollama 0.31.2");
  m->decode_tps_mean = 23.45;
  m->weight_bytes = 9053114464;
  g_array_append_val (m->sizes, size);
  return m;
}

static void
test_measurement_save_round_trip (Archive       *f,
                                  gconstpointer  data)
{
  g_autoptr(HrMeasurement) m = phi4_measurement ();
  g_autoptr(HrMeasurement) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_assert_true (hr_measurement_save (m, f->dir, &path, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, "dgx-spark-phi4_latest-2026-11-29T12_00_00Z.json"));
  again = hr_measurement_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->model, ==, "phi4:latest");
  g_assert_cmpfloat (again->decode_tps_mean, ==, 23.45);
  g_assert_cmpuint (again->weight_bytes, ==, 9053114464);
  g_assert_cmpuint (again->sizes->len, ==, 1);
  g_assert_cmpuint (g_array_index (again->sizes, HrMeasuredSize, 0).reported_bytes, ==, 2600000000);
  g_assert_cmpuint (g_array_index (again->sizes, HrMeasuredSize, 0).predicted_bytes, ==, 2550000000);
}

/* a second save never overwrites the first */
static void
test_measurement_save_twice (Archive       *f,
                             gconstpointer  data)
{
  g_autoptr(HrMeasurement) m = phi4_measurement ();
  g_autoptr(HrMeasurement) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL, *path2 = NULL;

  g_assert_true (hr_measurement_save (m, f->dir, &path, &error));
  g_assert_no_error (error);
  again = hr_measurement_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_true (hr_measurement_save (again, f->dir, &path2, &error));
  g_assert_cmpstr (path, !=, path2);
}

/* @bad refused with HR_CORE_ERROR_INVALID_DATA (a message containing
 * @message, when given), and nothing written. */
static void
assert_not_saved (Archive       *f,
                  HrMeasurement *bad,
                  const char    *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) archive = NULL;

  g_assert_false (hr_measurement_save (bad, f->dir, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  if (message != NULL)
    g_assert_nonnull (strstr (error->message, message));
  archive = hr_measurement_archive_load (f->dir, NULL, NULL);
  g_assert_cmpuint (archive->len, ==, 0);
}

/* A measurement of "x" on dgx-spark at @tps. Returns: (transfer full) */
static HrMeasurement *
x_measurement (double tps)
{
  HrMeasurement *bad = hr_measurement_new ();

  bad->board = g_strdup ("dgx-spark");
  bad->model = g_strdup ("x");
  bad->decode_tps_mean = tps;
  return bad;
}

/* a document that would not load back is refused before anything is written */
static void
test_measurement_save_refuses_no_rate (Archive       *f,
                                       gconstpointer  data)
{
  g_autoptr(HrMeasurement) bad = x_measurement (0);

  assert_not_saved (f, bad, NULL);
}

/* Impossible numbers and raw server text are never saved. */
static void
test_measurement_save_refuses_impossible (Archive       *f,
                                          gconstpointer  data)
{
  g_autoptr(HrMeasurement) bad = x_measurement (10);
  HrMeasuredSize impossible = { 4096, 100, 200, 0 };

  g_array_append_val (bad->sizes, impossible);
  assert_not_saved (f, bad, "reported_vram_bytes 200 is more than reported_bytes 100");
}

static void
test_measurement_save_refuses_control_text (Archive       *f,
                                            gconstpointer  data)
{
  g_autoptr(HrMeasurement) bad = x_measurement (10);

  bad->runtime_version = g_strdup ("ollama 0.1\033[2J");
  assert_not_saved (f, bad, NULL);
}

static void
test_measurement_save_refuses_long_text (Archive       *f,
                                         gconstpointer  data)
{
  g_autoptr(HrMeasurement) bad = x_measurement (10);

  bad->runtime_version = g_strnfill (100000, '7');
  assert_not_saved (f, bad, NULL);
}

/* Whatever the board id, the file a save writes is one the
 * archive lists: a leading "." (".", "../x") never makes a hidden file. */
static void
test_measurement_save_listed (void)
{
  static const char *boards[] = { ".", "../../decoy/evil", ".hidden" };
  g_autofree char *dir = g_dir_make_tmp ("headroom-listed-XXXXXX", NULL);
  g_autoptr(GPtrArray) archive = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (boards); i++)
    {
      g_autoptr(HrMeasurement) m = hr_measurement_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *path = NULL;
      g_autofree char *base = NULL;

      m->board = g_strdup (boards[i]);
      m->model = g_strdup ("phi4:latest");
      m->date = g_strdup ("2026-11-29T12:00:00Z");
      m->decode_tps_mean = 20;
      g_assert_true (hr_measurement_save (m, dir, &path, &error));
      g_assert_no_error (error);
      base = g_path_get_basename (path);
      g_assert_cmpint (base[0], !=, '.');
      g_assert_true (g_str_has_prefix (path, dir));
    }
  archive = hr_measurement_archive_load (dir, NULL, NULL);
  g_assert_cmpuint (archive->len, ==, 3);
  g_assert_cmpstr (((HrMeasurement *) g_ptr_array_index (archive, 0))->board, ==, ".");
}

/* A temporary file an interrupted save left is removed when the
 * archive is next read; a fresh one (a save under way) and a broken
 * measurement file are left as they are. */
static void
test_measurement_stale_temporaries (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "stale", NULL);
  g_autofree char *old = g_build_filename (dir, "b-m-1.json.Ab3dE9", NULL);
  g_autofree char *fresh = g_build_filename (dir, "b-m-2.json.Zz0011", NULL);
  g_autofree char *broken = g_build_filename (dir, "b-m-3.json", NULL);
  g_autofree char *other = g_build_filename (dir, "notes.txt.Ab3dE9", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) archive = NULL;
  struct utimbuf times = { 1000000000, 1000000000 };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (old, "{\"board\":", -1, NULL));
  g_assert_true (g_file_set_contents (fresh, "{\"board\":", -1, NULL));
  g_assert_true (g_file_set_contents (broken, "{\"board\":", -1, NULL));
  g_assert_true (g_file_set_contents (other, "x", -1, NULL));
  g_assert_cmpint (g_utime (old, &times), ==, 0);
  g_assert_cmpint (g_utime (other, &times), ==, 0);
  g_assert_cmpint (g_utime (broken, &times), ==, 0);

  archive = hr_measurement_archive_load (dir, errors, NULL);
  g_assert_cmpuint (archive->len, ==, 0);
  g_assert_cmpuint (errors->len, ==, 1);
  g_assert_false (g_file_test (old, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (broken, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"board\":");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/measurement/seed-archive", test_measurement_seed_archive);
  g_test_add_func ("/measurement/points-exact-bytes", test_measurement_points_exact_bytes);
  g_test_add_func ("/measurement/bad-files", test_measurement_bad_files);
  g_test_add ("/measurement/save/round-trip", Archive, NULL, archive_set_up, test_measurement_save_round_trip, archive_tear_down);
  g_test_add ("/measurement/save/twice", Archive, NULL, archive_set_up, test_measurement_save_twice, archive_tear_down);
  g_test_add ("/measurement/save/refuses-no-rate", Archive, NULL, archive_set_up, test_measurement_save_refuses_no_rate, archive_tear_down);
  g_test_add ("/measurement/save/refuses-impossible", Archive, NULL, archive_set_up, test_measurement_save_refuses_impossible, archive_tear_down);
  g_test_add ("/measurement/save/refuses-control-text", Archive, NULL, archive_set_up, test_measurement_save_refuses_control_text, archive_tear_down);
  g_test_add ("/measurement/save/refuses-long-text", Archive, NULL, archive_set_up, test_measurement_save_refuses_long_text, archive_tear_down);
  g_test_add_func ("/measurement/save-listed", test_measurement_save_listed);
  g_test_add_func ("/measurement/stale-temporaries", test_measurement_stale_temporaries);
  return g_test_run ();
}
