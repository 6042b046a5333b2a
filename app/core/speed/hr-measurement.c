/* hr-measurement.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-json-private.h"
#include "hr-measurement.h"
#include "hr-memory.h"
#include "hr-model-spec.h"
#include "hr-runtime.h"

#define MAX_MEASUREMENT_FILE (16 * 1024 * 1024)
#define MAX_ARCHIVE_FILES    100000

/**
 * hr_measurement_new:
 *
 * Returns: (transfer full): an empty measurement.
 */
HrMeasurement *
hr_measurement_new (void)
{
  HrMeasurement *m = g_new0 (HrMeasurement, 1);

  m->sizes = g_array_new (FALSE, TRUE, sizeof (HrMeasuredSize));
  return m;
}

/**
 * hr_measurement_free:
 * @measurement: (nullable): a measurement
 */
void
hr_measurement_free (HrMeasurement *measurement)
{
  if (measurement == NULL)
    return;
  g_free (measurement->path);
  g_free (measurement->board);
  g_free (measurement->model);
  g_free (measurement->date);
  g_free (measurement->runtime_version);
  g_free (measurement->source);
  g_clear_pointer (&measurement->sizes, g_array_unref);
  g_clear_pointer (&measurement->document, json_node_unref);
  g_free (measurement);
}

/**
 * hr_measurement_from_json:
 * @node: the parsed file
 * @display_name: the file's name, for messages
 * @error: return location for a #GError
 *
 * Reads one run set: board, model and decode_tps.mean are required (the
 * seed's benchmark archive format); date, runtime_version, source,
 * weight_bytes and sizes[] (context_tokens, reported_bytes,
 * reported_vram_bytes, predicted_bytes) are optional. The whole document is
 * kept in @document so nothing is lost when it is written back.
 *
 * Returns: (transfer full): the measurement, or %NULL with
 *   %HR_CORE_ERROR_INVALID_DATA naming the file and the field.
 */
HrMeasurement *
hr_measurement_from_json (JsonNode    *node,
                          const char  *display_name,
                          GError     **error)
{
  g_autoptr(HrMeasurement) m = hr_measurement_new ();
  g_autofree char *problem = NULL;
  JsonObject *object, *decode;
  JsonNode *member;

#define FAIL(...) G_STMT_START { \
    g_autofree char *what = g_strdup_printf (__VA_ARGS__); \
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, "%s: %s", display_name, what); \
    return NULL; } G_STMT_END

  if (!JSON_NODE_HOLDS_OBJECT (node))
    FAIL ("%s", _("expected an object"));
  object = json_node_get_object (node);

  if (!_hr_json_get_string (object, "board", TRUE, &m->board, &problem) ||
      !_hr_json_get_string (object, "model", TRUE, &m->model, &problem) ||
      !_hr_json_get_string (object, "date", FALSE, &m->date, &problem) ||
      !_hr_json_get_string (object, "runtime_version", FALSE, &m->runtime_version, &problem) ||
      !_hr_json_get_string (object, "source", FALSE, &m->source, &problem) ||
      !_hr_json_get_u64 (object, "weight_bytes", FALSE, G_GUINT64_CONSTANT (1000000000000000), &m->weight_bytes, &problem))
    FAIL ("%s", problem);

  if (m->runtime_version != NULL &&
      (strlen (m->runtime_version) > 200 || strpbrk (m->runtime_version, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f") != NULL))
    FAIL ("%s", _("field \"runtime_version\" must be at most 200 bytes of text without control characters"));

  member = json_object_get_member (object, "decode_tps");
  if (member == NULL || !JSON_NODE_HOLDS_OBJECT (member))
    FAIL ("%s", _("field \"decode_tps\" is missing or not an object with a \"mean\""));
  decode = json_node_get_object (member);
  if (!_hr_json_get_double (decode, "mean", TRUE, &m->decode_tps_mean, &problem))
    FAIL ("decode_tps: %s", problem);
  if (!(m->decode_tps_mean > 0.0) || m->decode_tps_mean > 1e6)
    FAIL ("%s", _("field \"decode_tps.mean\" must be a rate above 0 and at most 1,000,000 t/s"));

  member = json_object_get_member (object, "sizes");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *sizes = json_node_get_array (member);

      for (guint i = 0; i < json_array_get_length (sizes); i++)
        {
          JsonNode *element = json_array_get_element (sizes, i);
          HrMeasuredSize size = { 0 };
          JsonObject *s;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            FAIL (_("sizes[%u] is not an object"), i);
          s = json_node_get_object (element);
          if (!_hr_json_get_u32 (s, "context_tokens", TRUE, 64u * 1024u * 1024u, &size.context_tokens, &problem) ||
              !_hr_json_get_u64 (s, "reported_bytes", FALSE, G_GUINT64_CONSTANT (1000000000000000), &size.reported_bytes, &problem) ||
              !_hr_json_get_u64 (s, "reported_vram_bytes", FALSE, G_GUINT64_CONSTANT (1000000000000000), &size.reported_vram_bytes, &problem) ||
              !_hr_json_get_u64 (s, "predicted_bytes", FALSE, G_GUINT64_CONSTANT (1000000000000000), &size.predicted_bytes, &problem))
            FAIL ("sizes[%u]: %s", i, problem);
          /* Never keep a record of numbers that cannot be. */
          if (size.reported_vram_bytes > size.reported_bytes)
            FAIL (_("sizes[%u]: reported_vram_bytes %" PRIu64 " is more than reported_bytes %" PRIu64),
                  i, size.reported_vram_bytes, size.reported_bytes);
          g_array_append_val (m->sizes, size);
        }
    }
  else if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    FAIL ("%s", _("field \"sizes\" must be a list"));
#undef FAIL

  m->document = json_node_copy (node);
  return g_steal_pointer (&m);
}

/**
 * hr_measured_sizes_to_json:
 * @builder: a #JsonBuilder where a value is expected (after a member name,
 *   or in an array)
 * @sizes: (element-type HrMeasuredSize): the sizes of one measurement
 *
 * Adds @sizes as the archive's "sizes" array: one object per context
 * window, with context_tokens (tokens) and reported_bytes,
 * reported_vram_bytes and predicted_bytes (bytes), as `/api/ps` reported
 * them and Headroom predicted them. The
 * archive's documents and `headroom-cli measurements --json` share it.
 */
void
hr_measured_sizes_to_json (JsonBuilder  *builder,
                           const GArray *sizes)
{
  json_builder_begin_array (builder);
  for (guint i = 0; i < sizes->len; i++)
    {
      const HrMeasuredSize *s = &g_array_index (sizes, HrMeasuredSize, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "context_tokens");
      json_builder_add_int_value (builder, s->context_tokens);
      json_builder_set_member_name (builder, "reported_bytes");
      json_builder_add_int_value (builder, (gint64) s->reported_bytes);
      json_builder_set_member_name (builder, "reported_vram_bytes");
      json_builder_add_int_value (builder, (gint64) s->reported_vram_bytes);
      json_builder_set_member_name (builder, "predicted_bytes");
      json_builder_add_int_value (builder, (gint64) s->predicted_bytes);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/**
 * hr_measurement_load_file:
 * @path: a measurement JSON file
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the measurement (with @path set), or %NULL with
 *   %HR_CORE_ERROR_NOT_FOUND, %HR_CORE_ERROR_PARSE, %HR_CORE_ERROR_LIMIT (a
 *   file over 16 MiB) or %HR_CORE_ERROR_INVALID_DATA, naming the file.
 */
HrMeasurement *
hr_measurement_load_file (const char  *path,
                          GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(HrJsonDoc) doc = NULL;
  HrMeasurement *m;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, &local_error))
    {
      g_set_error (error, HR_CORE_ERROR,
                   g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT)
                     ? HR_CORE_ERROR_NOT_FOUND : HR_CORE_ERROR_PARSE,
                   "%s", local_error->message);
      return NULL;
    }
  if (length > MAX_MEASUREMENT_FILE)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("%s: larger than 16 MiB; not a measurement file"), path);
      return NULL;
    }

  doc = _hr_json_doc_parse (data, length, path, error);
  if (doc == NULL)
    return NULL;
  m = hr_measurement_from_json (_hr_json_doc_root (doc), path, error);
  if (m != NULL)
    m->path = g_strdup (path);
  return m;
}

static JsonNode *
build_document (HrMeasurement *m)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "board");
  json_builder_add_string_value (builder, m->board);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, m->model);
  if (m->date != NULL)
    {
      json_builder_set_member_name (builder, "date");
      json_builder_add_string_value (builder, m->date);
    }
  json_builder_set_member_name (builder, "runtime_version");
  if (m->runtime_version != NULL)
    json_builder_add_string_value (builder, m->runtime_version);
  else
    json_builder_add_null_value (builder);
  if (m->source != NULL)
    {
      json_builder_set_member_name (builder, "source");
      json_builder_add_string_value (builder, m->source);
    }
  json_builder_set_member_name (builder, "decode_tps");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mean");
  json_builder_add_double_value (builder, m->decode_tps_mean);
  json_builder_end_object (builder);
  if (m->weight_bytes > 0)
    {
      json_builder_set_member_name (builder, "weight_bytes");
      json_builder_add_int_value (builder, (gint64) m->weight_bytes);
    }
  if (m->sizes->len > 0)
    {
      json_builder_set_member_name (builder, "sizes");
      hr_measured_sizes_to_json (builder, m->sizes);
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static char *
sanitize (const char *text)
{
  char *copy = g_strdup (text ? text : "unknown");

  for (char *p = copy; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '-' && *p != '_')
      *p = '_';
  /* A leading "." would make a hidden file the archive never lists. */
  if (copy[0] == '.')
    copy[0] = '_';
  return copy;
}

/**
 * hr_measurement_save:
 * @measurement: the run set; when @document is set it is written as is
 *   (it must still carry board, model and decode_tps.mean), else a document
 *   is built from the fields
 * @directory: the archive directory (created when missing)
 * @out_path: (out) (optional) (transfer full): the file written
 * @error: return location for a #GError
 *
 * Writes one JSON file per run set, named board-model-date.json (a counter
 * is added rather than overwrite an existing file), atomically: a failure
 * leaves the archive as it was.
 *
 * Returns: %TRUE on success; %HR_CORE_ERROR_INVALID_DATA when the document
 *   would not load back, or a #G_FILE_ERROR naming the file.
 */
gboolean
hr_measurement_save (HrMeasurement  *measurement,
                     const char     *directory,
                     char          **out_path,
                     GError        **error)
{
  g_autoptr(JsonNode) built = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(HrMeasurement) check = NULL;
  g_autofree char *data = NULL;
  g_autofree char *board = sanitize (measurement->board);
  g_autofree char *model = sanitize (measurement->model);
  g_autofree char *date = NULL;
  g_autofree char *path = NULL;
  JsonNode *document = measurement->document;
  gsize length;

  if (document == NULL)
    document = built = build_document (measurement);

  check = hr_measurement_from_json (document, _("the new measurement"), error);
  if (check == NULL)
    return FALSE;

  if (measurement->date != NULL)
    date = sanitize (measurement->date);
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      date = g_date_time_format (now, "%Y%m%dT%H%M%SZ");
    }

  for (guint n = 0; n < 1000; n++)
    {
      g_autofree char *base = n == 0 ? g_strdup_printf ("%s-%s-%s.json", board, model, date)
                                     : g_strdup_printf ("%s-%s-%s-%u.json", board, model, date, n);
      g_free (path);
      path = g_build_filename (directory, base, NULL);
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        break;
    }

  json_generator_set_root (generator, document);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  data = json_generator_to_data (generator, &length);
  if (!hr_file_save_atomic (path, data, length, error))
    return FALSE;

  g_free (measurement->path);
  measurement->path = g_strdup (path);
  if (out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* g_file_set_contents_full()'s temporary name: the target's name, ".", and
 * 6 of [A-Za-z0-9] (g_mkstemp()'s XXXXXX). Targets Headroom writes are
 * "NAME.json" (catalog, boards, measurements) and "sha256-HEX" (the
 * registry cache, hr-ollama-registry.c). */
static gboolean
is_save_temporary (const char *name)
{
  const char *dot = strrchr (name, '.');
  gsize target;

  if (dot == NULL || strlen (dot + 1) != 6)
    return FALSE;
  for (const char *p = dot + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      return FALSE;
  target = (gsize) (dot - name);
  if (target >= 5 && strncmp (dot - 5, ".json", 5) == 0)
    return TRUE;
  if (target != strlen ("sha256-") + 64 || !g_str_has_prefix (name, "sha256-"))
    return FALSE;
  for (const char *p = name + strlen ("sha256-"); p < dot; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

/**
 * hr_file_remove_stale_temporaries:
 * @directory: a folder hr_file_save_atomic() writes into
 *
 * Removes the temporary files a save that was interrupted (kill -9, power
 * loss) left beside its target: `NAME.json.XXXXXX` or (the registry
 * cache) `sha256-HEX.XXXXXX`, untouched for at least
 * a minute (so a save running right now in another process is left alone).
 * The targets themselves are never touched. Call it when the folder is
 * first read.
 *
 * Returns: how many were removed.
 */
guint
hr_file_remove_stale_temporaries (const char *directory)
{
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  const char *name;
  guint removed = 0;

  if (dir == NULL)
    return 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st;

      if (!is_save_temporary (name))
        continue;
      path = g_build_filename (directory, name, NULL);
      if (g_lstat (path, &st) == 0 && S_ISREG (st.st_mode) && now - (gint64) st.st_mtime >= 60 &&
          g_unlink (path) == 0)
        removed++;
    }
  return removed;
}

/**
 * hr_measurement_archive_load:
 * @directory: an archive directory
 * @out_errors: (nullable) (element-type utf8): where a message for each file
 *   that could not be read is appended (the file is skipped, never changed)
 * @error: return location for a #GError
 *
 * Reads every *.json file of @directory in name order, after removing the
 * temporary files interrupted saves left there
 * (hr_file_remove_stale_temporaries()). A missing directory is an empty
 * archive; a file that cannot be read is never rewritten.
 *
 * Returns: (transfer full) (element-type HrMeasurement): the measurements;
 *   %NULL with a #G_FILE_ERROR only when the directory exists but cannot be
 *   listed.
 */
GPtrArray *
hr_measurement_archive_load (const char  *directory,
                             GPtrArray   *out_errors,
                             GError     **error)
{
  g_autoptr(GPtrArray) result = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *name;

  /* What an interrupted save left behind goes first. */
  hr_file_remove_stale_temporaries (directory);
  dir = g_dir_open (directory, 0, &local_error);
  if (dir == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&result);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  while ((name = g_dir_read_name (dir)) != NULL && paths->len < MAX_ARCHIVE_FILES)
    if (g_str_has_suffix (name, ".json") && name[0] != '.')
      g_ptr_array_add (paths, g_build_filename (directory, name, NULL));
  g_ptr_array_sort (paths, compare_paths);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GError) file_error = NULL;
      HrMeasurement *m = hr_measurement_load_file (g_ptr_array_index (paths, i), &file_error);

      if (m != NULL)
        g_ptr_array_add (result, m);
      else if (out_errors != NULL)
        g_ptr_array_add (out_errors, g_strdup (file_error->message));
    }
  return g_steal_pointer (&result);
}

/* For each model on the board, the newest measurement (by date, then by
 * position in the archive). */
static GHashTable *
latest_by_model (GPtrArray  *measurements,
                 const char *board_id)
{
  GHashTable *latest = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < measurements->len; i++)
    {
      HrMeasurement *m = g_ptr_array_index (measurements, i);
      HrMeasurement *seen;

      if (g_strcmp0 (m->board, board_id) != 0)
        continue;
      seen = g_hash_table_lookup (latest, m->model);
      if (seen == NULL || g_strcmp0 (m->date, seen->date) >= 0)
        g_hash_table_insert (latest, m->model, m);
    }
  return latest;
}

/**
 * hr_measurement_archive_server_version:
 * @measurements: (element-type HrMeasurement): the archive
 * @board_id: a board id
 *
 * The Ollama version the board's newest measurement (by its ISO 8601 date)
 * was made with: what "From the board's server version" models.
 *
 * Returns: (transfer none) (nullable): "ollama 0.31.2", or %NULL when no
 *   measurement of the board names a version
 */
const char *
hr_measurement_archive_server_version (GPtrArray  *measurements,
                                       const char *board_id)
{
  const HrMeasurement *newest = NULL;

  if (measurements == NULL || board_id == NULL)
    return NULL;

  for (guint i = 0; i < measurements->len; i++)
    {
      const HrMeasurement *m = g_ptr_array_index (measurements, i);

      if (g_strcmp0 (m->board, board_id) != 0 || m->runtime_version == NULL)
        continue;
      if (newest == NULL || g_strcmp0 (m->date, newest->date) > 0)
        newest = m;
    }
  return newest ? newest->runtime_version : NULL;
}

/**
 * hr_measurement_archive_rates:
 * @measurements: (element-type HrMeasurement): the archive
 * @board_id: a board id
 *
 * Returns: (transfer full): model name -> (double *) decode t/s mean of the
 *   newest measurement of that model on @board_id.
 */
GHashTable *
hr_measurement_archive_rates (GPtrArray  *measurements,
                              const char *board_id)
{
  g_autoptr(GHashTable) latest = latest_by_model (measurements, board_id);
  GHashTable *rates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, latest);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const HrMeasurement *m = value;
      g_hash_table_insert (rates, g_strdup (key), g_memdup2 (&m->decode_tps_mean, sizeof (double)));
    }
  return rates;
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const HrRatePoint *pa = a, *pb = b;
  return pa->weight_bytes < pb->weight_bytes ? -1 : pa->weight_bytes > pb->weight_bytes;
}

/**
 * hr_measurement_archive_points:
 * @measurements: (element-type HrMeasurement): the archive
 * @board_id: a board id
 * @catalog: (nullable) (element-type HrModelSpec): to size models whose
 *   measurement has no weight_bytes
 *
 * The points hr_rate_fit_efficiency() fits: one per model measured on
 * @board_id (the newest), with its weight bytes from the measurement, else
 * from the catalog as pulled: the exact blob bytes where the row has them
 * (hr_runtime_exact_spec()), else its listing. Models without a known size
 * are left out.
 *
 * Returns: (transfer full) (element-type HrRatePoint): the points, sorted by
 *   weight size.
 */
GArray *
hr_measurement_archive_points (GPtrArray  *measurements,
                               const char *board_id,
                               GPtrArray  *catalog)
{
  g_autoptr(GHashTable) latest = latest_by_model (measurements, board_id);
  GArray *points = g_array_new (FALSE, FALSE, sizeof (HrRatePoint));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, latest);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const HrMeasurement *m = value;
      HrRatePoint point = { m->weight_bytes, m->decode_tps_mean };

      if (point.weight_bytes == 0 && catalog != NULL)
        {
          const HrModelSpec *spec = hr_catalog_find (catalog, m->model);
          HrModelSpec scratch;

          /* The blob that was measured: its exact bytes where the
           * catalog has them, not the seed's rounded listing. */
          if (spec != NULL)
            point.weight_bytes = hr_memory_spec_weight_bytes (hr_runtime_exact_spec (spec, &scratch), NULL);
        }
      if (point.weight_bytes > 0)
        g_array_append_val (points, point);
    }
  g_array_sort (points, compare_points);
  return points;
}

/* ------------------------------------------------------------------ */
/* Seeing and removing one record                                      */

/**
 * hr_measurement_dup_id:
 * @measurement: a measurement read from the archive
 *
 * A record's id is its file's name without ".json"
 * ("jetson-orin-nano-super-llama3.2_3b-20260101T120000Z"): stable for as
 * long as the file is there, and what `headroom-cli measurements` prints.
 *
 * Returns: (transfer full) (nullable): the id, or %NULL for a measurement
 *   that was not read from a file
 */
char *
hr_measurement_dup_id (const HrMeasurement *measurement)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (measurement != NULL, NULL);

  if (measurement->path == NULL)
    return NULL;
  base = g_path_get_basename (measurement->path);
  if (g_str_has_suffix (base, ".json"))
    base[strlen (base) - strlen (".json")] = '\0';
  return g_steal_pointer (&base);
}

/**
 * hr_measurement_archive_find:
 * @measurements: (element-type HrMeasurement): the archive
 * @id: a record's id (hr_measurement_dup_id())
 *
 * Looks from the end, so a record of the user's archive (read after the
 * built-in one) wins over a built-in file of the same name.
 *
 * Returns: (transfer none) (nullable): the record, or %NULL
 */
HrMeasurement *
hr_measurement_archive_find (GPtrArray  *measurements,
                             const char *id)
{
  g_return_val_if_fail (measurements != NULL, NULL);

  for (guint i = measurements->len; id != NULL && i > 0; i--)
    {
      HrMeasurement *m = g_ptr_array_index (measurements, i - 1);
      g_autofree char *m_id = hr_measurement_dup_id (m);

      if (g_strcmp0 (m_id, id) == 0)
        return m;
    }
  return NULL;
}

/**
 * hr_measurement_archive_remove:
 * @measurements: (element-type HrMeasurement): the archive as loaded
 * @directory: the archive folder records may be removed from (the user's);
 *   a record read from anywhere else (the built-in data) is never removed
 * @id: the record's id (hr_measurement_dup_id())
 * @out_removed: (out) (optional) (transfer full): the record as it was on
 *   disk, for hr_measurement_restore()
 * @error: return location for a #GError
 *
 * Removes one record's file. Removing a file is atomic: the archive holds
 * the record or does not, never part of it. @measurements is not changed;
 * read the archive again afterwards.
 *
 * Returns: %TRUE when removed; %FALSE with %HR_CORE_ERROR_NOT_FOUND (no
 *   record has @id), %HR_CORE_ERROR_INVALID_ARGUMENT (the record is not in
 *   @directory: built-in data), or a #G_FILE_ERROR naming the file.
 */
gboolean
hr_measurement_archive_remove (GPtrArray      *measurements,
                               const char     *directory,
                               const char     *id,
                               HrMeasurement **out_removed,
                               GError        **error)
{
  HrMeasurement *m;
  g_autoptr(HrMeasurement) copy = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *want = NULL;

  g_return_val_if_fail (measurements != NULL && directory != NULL && id != NULL, FALSE);

  m = hr_measurement_archive_find (measurements, id);
  if (m == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("no measurement has the id \"%s\""), id);
      return FALSE;
    }
  {
    g_autofree char *parent = g_path_get_dirname (m->path);

    dir = g_canonicalize_filename (parent, NULL);
    want = g_canonicalize_filename (directory, NULL);
  }
  if (g_strcmp0 (dir, want) != 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("measurement \"%s\" is part of the built-in data (%s), which is never changed; only your own measurements in %s can be deleted"),
                   id, m->path, directory);
      return FALSE;
    }

  /* What was on disk, to put back on undo. */
  copy = hr_measurement_load_file (m->path, error);
  if (copy == NULL)
    return FALSE;
  if (g_unlink (m->path) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("could not delete %s: %s"), m->path, g_strerror (saved_errno));
      return FALSE;
    }
  if (out_removed != NULL)
    *out_removed = g_steal_pointer (&copy);
  return TRUE;
}

/**
 * hr_measurement_restore:
 * @measurement: a record hr_measurement_archive_remove() gave back
 * @error: return location for a #GError
 *
 * Writes @measurement's document back to the file it was removed from,
 * atomically (hr_file_save_atomic()), so it is in the archive again under
 * the same id.
 *
 * Returns: %TRUE when restored; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT
 *   (no path or document), %G_FILE_ERROR_EXIST (a file of that name is
 *   there again) or the save's #G_FILE_ERROR.
 */
gboolean
hr_measurement_restore (const HrMeasurement  *measurement,
                        GError              **error)
{
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (measurement != NULL, FALSE);

  if (measurement->path == NULL || measurement->document == NULL)
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                           _("this measurement was not read from the archive, so there is nothing to put back"));
      return FALSE;
    }
  if (g_file_test (measurement->path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("%s exists again, so the deleted measurement was not put back over it"),
                   measurement->path);
      return FALSE;
    }
  generator = json_generator_new ();
  json_generator_set_root (generator, measurement->document);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  data = json_generator_to_data (generator, &length);
  return hr_file_save_atomic (measurement->path, data, length, error);
}
