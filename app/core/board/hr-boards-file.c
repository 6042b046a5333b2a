/* hr-boards-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * boards.json: reading, saving and merging the boards, through the entry
 * loader the catalog uses (hr-catalog-private.h).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-board.h"
#include "hr-catalog.h"
#include "hr-catalog-private.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-units.h"

#define MAX_U32_FIELD   G_GUINT64_CONSTANT (4294967295)
#define MAX_BYTES       G_GUINT64_CONSTANT (1000000000000000) /* 1 PB */

/* ---------------------------------------------------------------------- */
/* Boards                                                                 */

/* One element of a board's "devices": name and memory_bytes required;
 * resident_bytes, reserve_bytes (0), bandwidth_gb_s (required when
 * @bandwidth_required), kind ("discrete") and backend ("cuda") optional. */
static HrDevice *
device_from_object (HrJsonDoc   *doc,
                    const char  *display_name,
                    JsonArray   *boards,
                    guint        board_index,
                    const char  *board_id,
                    JsonArray   *devices,
                    guint        index,
                    GError     **error)
{
  JsonNode *element = json_array_get_element (devices, index);
  JsonObject *object;
  g_autoptr(HrDevice) device = hr_device_new (NULL, 0, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_CUDA);
  g_autofree char *problem = NULL;
  g_autofree char *kind = NULL;
  g_autofree char *backend = NULL;
  double bandwidth_gb_s = 0.0;

#define DEVICE_FAIL(obj, member) \
  G_STMT_START { \
    g_autofree char *where_text = g_strdup_printf (_("device %u: %s"), index + 1, problem); \
    JsonObject *where_obj = (obj); \
    const char *where_member = (member); \
    if (where_obj != NULL && where_member != NULL && !json_object_has_member (where_obj, where_member)) \
      where_obj = NULL; \
    if (where_obj == NULL) \
      { \
        guint line = _hr_json_doc_element_line (doc, devices, index); \
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("%s: line %u: entry %u (\"%s\"): %s"), \
                     display_name, line, board_index + 1, board_id, where_text); \
      } \
    else \
      _hr_catalog_set_entry_error (error, doc, display_name, boards, board_index, where_obj, where_member, board_id, where_text); \
    return NULL; \
  } G_STMT_END
#define DEVICE_READ(expr, member) G_STMT_START { if (!(expr)) DEVICE_FAIL (object, member); } G_STMT_END

  if (!JSON_NODE_HOLDS_OBJECT (element))
    {
      problem = g_strdup (_("expected an object"));
      DEVICE_FAIL (NULL, NULL);
    }
  object = json_node_get_object (element);

  DEVICE_READ (_hr_json_get_string (object, "name", TRUE, &device->name, &problem), "name");
  DEVICE_READ (_hr_json_get_u64 (object, "memory_bytes", TRUE, G_MAXUINT64, &device->memory_bytes, &problem), "memory_bytes");
  DEVICE_READ (_hr_json_get_u64 (object, "resident_bytes", FALSE, G_MAXUINT64, &device->resident_bytes, &problem), "resident_bytes");
  DEVICE_READ (_hr_json_get_u64 (object, "reserve_bytes", FALSE, G_MAXUINT64, &device->reserve_bytes, &problem), "reserve_bytes");
  DEVICE_READ (_hr_json_get_double (object, "bandwidth_gb_s", FALSE, &bandwidth_gb_s, &problem), "bandwidth_gb_s");
  device->bandwidth_bytes_per_s = bandwidth_gb_s * 1e9;
  DEVICE_READ (_hr_json_get_string (object, "kind", FALSE, &kind, &problem), "kind");
  if (kind != NULL && !hr_device_kind_from_string (kind, &device->kind))
    {
      problem = g_strdup (_("field \"kind\" must be \"discrete\" or \"integrated\""));
      DEVICE_FAIL (object, "kind");
    }
  DEVICE_READ (_hr_json_get_string (object, "backend", FALSE, &backend, &problem), "backend");
  if (backend != NULL && !hr_device_backend_from_string (backend, &device->backend))
    {
      problem = g_strdup (_("field \"backend\" must be \"cuda\", \"rocm\", \"vulkan\" or \"metal\""));
      DEVICE_FAIL (object, "backend");
    }

  {
    g_autoptr(GError) invalid = NULL;

    if (!hr_device_validate (device, TRUE, &invalid))
      {
        g_autofree char *field = _hr_catalog_field_of_problem (invalid->message);

        problem = g_strdup (invalid->message);
        DEVICE_FAIL (object, field);
      }
  }
#undef DEVICE_READ
#undef DEVICE_FAIL
  return g_steal_pointer (&device);
}

/* A board's "devices" array into a list (NULL when the member is absent).
 * When the board object also gives pool_bytes, resident_bytes,
 * reserve_bytes, bandwidth_gb_s or backend, each must be the first
 * device's: the file says one thing once. */
static gboolean
devices_from_board (HrJsonDoc   *doc,
                    const char  *display_name,
                    JsonArray   *boards,
                    guint        board_index,
                    JsonObject  *object,
                    const char  *board_id,
                    GPtrArray  **out_devices,
                    GError     **error)
{
  JsonNode *node = json_object_get_member (object, "devices");
  JsonArray *array;
  g_autoptr(GPtrArray) devices = NULL;

  *out_devices = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _hr_catalog_set_entry_error (error, doc, display_name, boards, board_index, object, "devices", board_id,
                                   _("field \"devices\" must be an array of devices"));
      return FALSE;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) == 0 || json_array_get_length (array) > HR_DEVICE_MAX)
    {
      g_autofree char *problem = g_strdup_printf (_("field \"devices\" must list between 1 and %u devices"), HR_DEVICE_MAX);

      _hr_catalog_set_entry_error (error, doc, display_name, boards, board_index, object, "devices", board_id, problem);
      return FALSE;
    }
  devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      HrDevice *device = device_from_object (doc, display_name, boards, board_index, board_id, array, i, error);

      if (device == NULL)
        return FALSE;
      g_ptr_array_add (devices, device);
    }
  *out_devices = g_steal_pointer (&devices);
  return TRUE;
}

/* Notes which member a read failed on; returns FALSE. */
static gboolean
fail_at (const char **out_field,
         const char  *member)
{
  *out_field = member;
  return FALSE;
}

/* The board's first GPU figures: pool, resident, reserve and bandwidth.
 * With a device list (@first) they may be left out, and where given must
 * be the first device's (older Headroom reads them here:
 * hr_boards_save_file() writes both). */
static gboolean
read_gpu_figures (JsonObject      *object,
                  HrBoard         *board,
                  const HrDevice  *first,
                  const char     **out_field,
                  char           **out_problem)
{
  static const char *members[] = { "pool_bytes", "resident_bytes", "reserve_bytes", "bandwidth_gb_s" };
  static const char *device_members[] = { "memory_bytes", "resident_bytes", "reserve_bytes", "bandwidth_gb_s" };
  double bandwidth_gb_s = 0.0;

  if (!_hr_json_get_u64 (object, "pool_bytes", first == NULL, G_MAXUINT64, &board->pool_bytes, out_problem))
    return fail_at (out_field, "pool_bytes");
  if (!_hr_json_get_u64 (object, "resident_bytes", first == NULL, G_MAXUINT64, &board->resident_bytes, out_problem))
    return fail_at (out_field, "resident_bytes");
  if (!_hr_json_get_u64 (object, "reserve_bytes", first == NULL, G_MAXUINT64, &board->reserve_bytes, out_problem))
    return fail_at (out_field, "reserve_bytes");
  if (!_hr_json_get_double (object, "bandwidth_gb_s", first == NULL, &bandwidth_gb_s, out_problem))
    return fail_at (out_field, "bandwidth_gb_s");
  board->bandwidth_bytes_per_s = bandwidth_gb_s * 1e9;
  if (first == NULL)
    return TRUE;

  {
    const gboolean same[] = {
      board->pool_bytes == first->memory_bytes, board->resident_bytes == first->resident_bytes,
      board->reserve_bytes == first->reserve_bytes, board->bandwidth_bytes_per_s == first->bandwidth_bytes_per_s,
    };

    for (guint i = 0; i < G_N_ELEMENTS (members); i++)
      if (json_object_has_member (object, members[i]) && !same[i])
        {
          *out_problem = g_strdup_printf (_("field \"%s\" must be the first device's \"%s\" (or be left out)"),
                                          members[i], device_members[i]);
          return fail_at (out_field, members[i]);
        }
  }
  return TRUE;
}

/* "unified", "source" and "backend": one Headroom knows and, with a device
 * list (@first), the one that drives the first device. */
static gboolean
read_backend (JsonObject      *object,
              HrBoard         *board,
              const HrDevice  *first,
              const char     **out_field,
              char           **out_problem)
{
  g_autofree char *backend = NULL;

  if (!_hr_json_get_bool (object, "unified", &board->unified, out_problem))
    return fail_at (out_field, "unified");
  if (!_hr_json_get_string (object, "source", FALSE, &board->source, out_problem))
    return fail_at (out_field, "source");
  if (!_hr_json_get_string (object, "backend", FALSE, &backend, out_problem))
    return fail_at (out_field, "backend");
  if (backend != NULL && !hr_board_backend_from_string (backend, &board->backend))
    {
      *out_problem = g_strdup (_("field \"backend\" must be \"cuda\", \"metal\" or \"cpu\""));
      return fail_at (out_field, "backend");
    }
  if (first != NULL && backend != NULL && board->backend != hr_board_backend_for_device (first->backend))
    {
      *out_problem = g_strdup_printf (_("field \"backend\" must be the first device's: \"%s\" drives it"),
                                      hr_board_backend_to_string (hr_board_backend_for_device (first->backend)));
      return fail_at (out_field, "backend");
    }
  return TRUE;
}

/* The host's memory and bandwidth, for a model split between a GPU and
 * the host. */
static gboolean
read_host_figures (JsonObject   *object,
                   HrBoard      *board,
                   const char  **out_field,
                   char        **out_problem)
{
  double host_bandwidth_gb_s = 0.0;

  if (!_hr_json_get_u64 (object, "host_pool_bytes", FALSE, G_MAXUINT64, &board->host_pool_bytes, out_problem))
    return fail_at (out_field, "host_pool_bytes");
  if (!_hr_json_get_u64 (object, "host_resident_bytes", FALSE, G_MAXUINT64, &board->host_resident_bytes, out_problem))
    return fail_at (out_field, "host_resident_bytes");
  if (!_hr_json_get_u64 (object, "host_reserve_bytes", FALSE, G_MAXUINT64, &board->host_reserve_bytes, out_problem))
    return fail_at (out_field, "host_reserve_bytes");
  if (!_hr_json_get_double (object, "host_bandwidth_gb_s", FALSE, &host_bandwidth_gb_s, out_problem))
    return fail_at (out_field, "host_bandwidth_gb_s");
  board->host_bandwidth_bytes_per_s = host_bandwidth_gb_s * 1e9;
  return TRUE;
}

/* "turn_budget" ({reply_tokens, stage_ceiling_ms, prefill_allowance_ms}),
 * absent or null for none; on a problem *@out_where is the object it is in. */
static gboolean
read_turn_budget (JsonObject   *object,
                  HrBoard      *board,
                  JsonObject  **out_where,
                  const char  **out_field,
                  char        **out_problem)
{
  JsonNode *turn = json_object_get_member (object, "turn_budget");
  JsonObject *t;

  if (turn == NULL || JSON_NODE_HOLDS_NULL (turn))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (turn))
    {
      *out_problem = g_strdup (_("field \"turn_budget\" must be an object"));
      return fail_at (out_field, "turn_budget");
    }
  t = json_node_get_object (turn);
  *out_where = t;
  if (!_hr_json_get_u32 (t, "reply_tokens", FALSE, 1000000, &board->reply_tokens, out_problem))
    return fail_at (out_field, "reply_tokens");
  if (!_hr_json_get_u32 (t, "stage_ceiling_ms", FALSE, 86400000, &board->stage_ceiling_ms, out_problem))
    return fail_at (out_field, "stage_ceiling_ms");
  if (!_hr_json_get_u32 (t, "prefill_allowance_ms", FALSE, 86400000, &board->prefill_allowance_ms, out_problem))
    return fail_at (out_field, "prefill_allowance_ms");
  *out_where = object;
  return TRUE;
}

/* hr_board_validate()'s verdict on @board, the problem put at the member
 * it names (in "turn_budget" when the field is one of its). */
static gboolean
check_board (HrJsonDoc   *doc,
             const char  *display_name,
             JsonArray   *array,
             guint        index,
             JsonObject  *object,
             HrBoard     *board,
             GError     **error)
{
  g_autoptr(GError) invalid = NULL;
  g_autofree char *field = NULL;
  JsonNode *turn = json_object_get_member (object, "turn_budget");
  JsonObject *where = object;

  if (hr_board_validate (board, &invalid))
    return TRUE;
  field = _hr_catalog_field_of_problem (invalid->message);
  if (turn != NULL && JSON_NODE_HOLDS_OBJECT (turn) && field != NULL &&
      json_object_has_member (json_node_get_object (turn), field))
    where = json_node_get_object (turn);
  _hr_catalog_set_entry_error (error, doc, display_name, array, index, where, field, board->id, invalid->message);
  return FALSE;
}

/* One entry of boards.json: id, name, devices, the first GPU's figures,
 * backend, host figures and turn budget, then hr_board_validate(). */
static HrBoard *
board_from_object (HrJsonDoc   *doc,
                   const char  *display_name,
                   JsonArray   *array,
                   guint        index,
                   GError     **error)
{
  JsonNode *element = json_array_get_element (array, index);
  JsonObject *object, *where;
  g_autoptr(HrBoard) board = hr_board_new (NULL, NULL);
  g_autofree char *problem = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  const HrDevice *first;
  const char *field = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (element))
    {
      _hr_catalog_set_entry_error (error, doc, display_name, array, index, NULL, NULL, NULL, _("expected an object"));
      return NULL;
    }
  object = where = json_node_get_object (element);

  if (!_hr_json_get_string (object, "id", TRUE, &board->id, &problem))
    {
      field = "id";
      goto bad_field;
    }
  if (!_hr_json_get_string (object, "name", TRUE, &board->name, &problem))
    {
      field = "name";
      goto bad_field;
    }
  if (!devices_from_board (doc, display_name, array, index, object, board->id, &devices, error))
    return NULL;
  first = devices != NULL ? g_ptr_array_index (devices, 0) : NULL;

  if (!read_gpu_figures (object, board, first, &field, &problem) ||
      !read_backend (object, board, first, &field, &problem))
    goto bad_field;
  if (first != NULL)
    hr_board_set_devices (board, g_steal_pointer (&devices));
  if (!read_host_figures (object, board, &field, &problem) ||
      !read_turn_budget (object, board, &where, &field, &problem))
    goto bad_field;
  if (!check_board (doc, display_name, array, index, object, board, error))
    return NULL;
  return g_steal_pointer (&board);

bad_field:
  _hr_catalog_set_entry_error (error, doc, display_name, array, index, where, field, board->id, problem);
  return NULL;
}

static gpointer
board_entry (HrJsonDoc   *doc,
             const char  *display_name,
             JsonArray   *array,
             guint        index,
             GError     **error)
{
  return board_from_object (doc, display_name, array, index, error);
}

static const char *
board_key (gconstpointer entry)
{
  return ((const HrBoard *) entry)->id;
}

static const HrCatalogEntryKind board_entries = {
  "boards", "id", N_("the id \"%s\" appears twice"),
  board_entry, board_key, (GDestroyNotify) hr_board_free,
};

/**
 * hr_boards_load_data:
 * @data: the JSON text of a boards file (see data/boards.json)
 * @length: bytes, or -1 when NUL-terminated
 * @display_name: the file's name, for messages
 * @error: return location for a #GError
 *
 * Parses `{"version": 1, "boards": [...]}`: id, name, pool_bytes,
 * resident_bytes, reserve_bytes (bytes) and bandwidth_gb_s (decimal GB/s)
 * required; unified, turn_budget and source optional; backend ("cuda",
 * the default, "metal" or "cpu") and a discrete board's host memory
 * (host_pool_bytes, host_resident_bytes, host_reserve_bytes,
 * host_bandwidth_gb_s; 0 = not known) optional. A board with several
 * GPUs lists them in "devices" (llama.cpp's device order), each
 * `{"name", "memory_bytes", "resident_bytes", "reserve_bytes",
 * "bandwidth_gb_s", "kind": "discrete"|"integrated",
 * "backend": "cuda"|"rocm"|"vulkan"|"metal"}` (name, memory_bytes and
 * bandwidth_gb_s required); pool_bytes, resident_bytes, reserve_bytes and
 * bandwidth_gb_s may then be left out, and when given must be the first
 * device's. Each board is validated (hr_board_validate()); ids must be unique.
 *
 * Returns: (transfer full) (element-type HrBoard): the boards, or %NULL with
 *   an %HR_CORE_ERROR naming the file, the line, the entry and the field.
 */
GPtrArray *
hr_boards_load_data (const char  *data,
                     gssize       length,
                     const char  *display_name,
                     GError     **error)
{
  return _hr_catalog_load_entries (data, length, display_name, &board_entries, error);
}

/**
 * hr_boards_load_file:
 * @path: a boards JSON file
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type HrBoard): see hr_boards_load_data();
 *   %HR_CORE_ERROR_NOT_FOUND when the file does not exist.
 */
GPtrArray *
hr_boards_load_file (const char  *path,
                     GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!_hr_catalog_load_file_contents (path, &data, &length, error))
    return NULL;
  return hr_boards_load_data (data, length, path, error);
}

static void
add_devices (JsonBuilder *builder,
             GPtrArray   *devices)
{
  json_builder_set_member_name (builder, "devices");
  json_builder_begin_array (builder);
  for (guint i = 0; i < devices->len; i++)
    {
      const HrDevice *device = g_ptr_array_index (devices, i);

      json_builder_begin_object (builder);
      _hr_catalog_add_string (builder, "name", device->name);
      _hr_catalog_add_u64 (builder, "memory_bytes", device->memory_bytes, TRUE);
      _hr_catalog_add_u64 (builder, "resident_bytes", device->resident_bytes, TRUE);
      _hr_catalog_add_u64 (builder, "reserve_bytes", device->reserve_bytes, TRUE);
      json_builder_set_member_name (builder, "bandwidth_gb_s");
      json_builder_add_double_value (builder, device->bandwidth_bytes_per_s / 1e9);
      _hr_catalog_add_string (builder, "kind", hr_device_kind_to_string (device->kind));
      _hr_catalog_add_string (builder, "backend", hr_device_backend_to_string (device->backend));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* One board as boards.json holds it. */
static void
add_board (JsonBuilder   *builder,
           const HrBoard *board)
{
  json_builder_begin_object (builder);
  _hr_catalog_add_string (builder, "id", board->id);
  _hr_catalog_add_string (builder, "name", board->name);
  _hr_catalog_add_u64 (builder, "pool_bytes", board->pool_bytes, TRUE);
  _hr_catalog_add_u64 (builder, "resident_bytes", board->resident_bytes, TRUE);
  _hr_catalog_add_u64 (builder, "reserve_bytes", board->reserve_bytes, TRUE);
  json_builder_set_member_name (builder, "bandwidth_gb_s");
  json_builder_add_double_value (builder, board->bandwidth_bytes_per_s / 1e9);
  json_builder_set_member_name (builder, "unified");
  json_builder_add_boolean_value (builder, board->unified);
  json_builder_set_member_name (builder, "turn_budget");
  json_builder_begin_object (builder);
  _hr_catalog_add_u64 (builder, "reply_tokens", board->reply_tokens, TRUE);
  _hr_catalog_add_u64 (builder, "stage_ceiling_ms", board->stage_ceiling_ms, TRUE);
  _hr_catalog_add_u64 (builder, "prefill_allowance_ms", board->prefill_allowance_ms, TRUE);
  json_builder_end_object (builder);
  _hr_catalog_add_string (builder, "source", board->source);
  _hr_catalog_add_string (builder, "backend", hr_board_backend_to_string (board->backend));
  if (board->host_pool_bytes > 0)
    {
      _hr_catalog_add_u64 (builder, "host_pool_bytes", board->host_pool_bytes, TRUE);
      _hr_catalog_add_u64 (builder, "host_resident_bytes", board->host_resident_bytes, TRUE);
      _hr_catalog_add_u64 (builder, "host_reserve_bytes", board->host_reserve_bytes, TRUE);
      json_builder_set_member_name (builder, "host_bandwidth_gb_s");
      json_builder_add_double_value (builder, board->host_bandwidth_bytes_per_s / 1e9);
    }
  if (board->devices != NULL)
    add_devices (builder, board->devices);
  json_builder_end_object (builder);
}

/**
 * hr_board_to_json:
 * @board: a board
 *
 * Returns: (transfer full): the board as one element of boards.json's
 *   "boards" array (hr_boards_save_file() writes the same), not validated.
 */
JsonNode *
hr_board_to_json (const HrBoard *board)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  add_board (builder, board);
  return json_builder_get_root (builder);
}

/**
 * hr_boards_save_file:
 * @boards: (element-type HrBoard): the boards
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Validates every board and saves atomically; on any failure the file on
 * disk is untouched.
 *
 * Returns: %TRUE on success; %HR_CORE_ERROR_INVALID_DATA or a #G_FILE_ERROR.
 */
gboolean
hr_boards_save_file (GPtrArray   *boards,
                     const char  *path,
                     GError     **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *data = NULL;
  gsize length;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, HR_CATALOG_FILE_VERSION);
  json_builder_set_member_name (builder, "boards");
  json_builder_begin_array (builder);
  for (guint i = 0; i < boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (boards, i);
      g_autoptr(GError) invalid = NULL;

      if (!hr_board_validate (board, &invalid))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("not saving %s: board \"%s\": %s"), path,
                       board->id ? board->id : "", invalid->message);
          return FALSE;
        }

      add_board (builder, board);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  data = json_generator_to_data (generator, &length);
  return hr_file_save_atomic (path, data, length, error);
}

/**
 * hr_boards_merge:
 * @into: (element-type HrBoard): the built-in boards, changed in place
 * @overrides: (element-type HrBoard): the user's boards
 *
 * The user's copies win by id; new boards are appended.
 */
void
hr_boards_merge (GPtrArray *into,
                 GPtrArray *overrides)
{
  _hr_catalog_merge_by_key (into, overrides, G_STRUCT_OFFSET (HrBoard, id),
                (GBoxedCopyFunc) hr_board_copy, (GDestroyNotify) hr_board_free);
}

/**
 * hr_boards_find:
 * @boards: (element-type HrBoard): the boards
 * @id_or_name: an id ("jetson-orin-nano-super") or a name (case-insensitive)
 *
 * Returns: (nullable) (transfer none): the board, or %NULL.
 */
HrBoard *
hr_boards_find (GPtrArray  *boards,
                const char *id_or_name)
{
  if (id_or_name == NULL)
    return NULL;
  for (guint i = 0; i < boards->len; i++)
    {
      HrBoard *board = g_ptr_array_index (boards, i);
      if (g_strcmp0 (board->id, id_or_name) == 0)
        return board;
    }
  for (guint i = 0; i < boards->len; i++)
    {
      HrBoard *board = g_ptr_array_index (boards, i);
      if (board->name != NULL && g_ascii_strcasecmp (board->name, id_or_name) == 0)
        return board;
    }
  return NULL;
}
