/* test-devices.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A board's device list: a one-GPU board stays what it was, a list keeps
 * the board's own figures the first GPU's, the boards file reads, checks
 * and writes the list.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "hr-board.h"
#include "hr-catalog.h"
#include "hr-device.h"
#include "hr-error.h"
#include "hr-units.h"

#define GIB G_GUINT64_CONSTANT (1073741824)

static HrDevice *
gpu (const char *name,
     guint64     memory,
     double      bandwidth)
{
  HrDevice *device = hr_device_new (name, memory, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_CUDA);

  device->resident_bytes = 1000000000;
  device->reserve_bytes = 500000000;
  device->bandwidth_bytes_per_s = bandwidth;
  return device;
}

static HrBoard *
two_gpu_board (void)
{
  HrBoard *board = hr_board_new ("two", "Two GPUs");
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);

  g_ptr_array_add (devices, gpu ("NVIDIA GeForce RTX 3090", 24 * GIB, 936e9));
  g_ptr_array_add (devices, gpu ("NVIDIA GeForce RTX 3060", 12 * GIB, 360e9));
  hr_board_set_devices (board, devices);
  board->host_pool_bytes = 32 * GIB;
  board->host_resident_bytes = 4000000000;
  board->host_reserve_bytes = 2000000000;
  board->host_bandwidth_bytes_per_s = 51.2e9;
  return board;
}

static void
test_devices_one_gpu (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("rtx-3090", "NVIDIA GeForce RTX 3090");
  g_autoptr(HrBoard) unified = hr_board_new ("spark", "DGX Spark");
  g_autoptr(HrBoard) cpu = hr_board_new ("cpu", "CPU");
  g_autoptr(GPtrArray) devices = NULL;
  const HrDevice *d;

  board->pool_bytes = 24 * GIB;
  board->resident_bytes = 1000000000;
  board->reserve_bytes = 500000000;
  board->bandwidth_bytes_per_s = 936e9;
  g_assert_null (board->devices);
  g_assert_cmpuint (hr_board_n_devices (board), ==, 1);
  g_assert_false (hr_board_is_multi_device (board));
  devices = hr_board_dup_devices (board);
  g_assert_cmpuint (devices->len, ==, 1);
  d = g_ptr_array_index (devices, 0);
  g_assert_cmpstr (d->name, ==, "NVIDIA GeForce RTX 3090");
  g_assert_cmpuint (d->memory_bytes, ==, 24 * GIB);
  g_assert_cmpuint (d->resident_bytes, ==, 1000000000);
  g_assert_cmpuint (d->reserve_bytes, ==, 500000000);
  g_assert_cmpfloat (d->bandwidth_bytes_per_s, ==, 936e9);
  g_assert_cmpint (d->kind, ==, HR_DEVICE_KIND_DISCRETE);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_CUDA);
  g_assert_cmpuint (hr_device_budget_bytes (d), ==, hr_board_budget_bytes (board));
  g_clear_pointer (&devices, g_ptr_array_unref);

  unified->unified = TRUE;
  unified->backend = HR_BOARD_BACKEND_METAL;
  devices = hr_board_dup_devices (unified);
  d = g_ptr_array_index (devices, 0);
  g_assert_cmpint (d->kind, ==, HR_DEVICE_KIND_INTEGRATED);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_METAL);
  g_clear_pointer (&devices, g_ptr_array_unref);

  cpu->backend = HR_BOARD_BACKEND_CPU;
  g_assert_cmpuint (hr_board_n_devices (cpu), ==, 0);
  devices = hr_board_dup_devices (cpu);
  g_assert_cmpuint (devices->len, ==, 0);
}

static void
test_devices_list (void)
{
  g_autoptr(HrBoard) board = two_gpu_board ();
  g_autoptr(GError) error = NULL;

  /* the board's own fields are the first GPU's */
  g_assert_cmpuint (hr_board_n_devices (board), ==, 2);
  g_assert_true (hr_board_is_multi_device (board));
  g_assert_cmpuint (board->pool_bytes, ==, 24 * GIB);
  g_assert_cmpuint (board->resident_bytes, ==, 1000000000);
  g_assert_cmpuint (board->reserve_bytes, ==, 500000000);
  g_assert_cmpfloat (board->bandwidth_bytes_per_s, ==, 936e9);
  g_assert_cmpint (board->backend, ==, HR_BOARD_BACKEND_CUDA);
  g_assert_true (hr_board_validate (board, &error));
  g_assert_no_error (error);
}

/* a deep copy */
static void
test_devices_list_copy (void)
{
  g_autoptr(HrBoard) board = two_gpu_board ();
  g_autoptr(HrBoard) copy = hr_board_copy (board);
  HrDevice *second;

  g_assert_true (copy->devices != board->devices);
  second = g_ptr_array_index (copy->devices, 1);
  g_assert_true (second != g_ptr_array_index (board->devices, 1));
  g_assert_true (hr_device_equal (second, g_ptr_array_index (board->devices, 1)));
  g_free (second->name);
  second->name = g_strdup ("changed");
  g_assert_cmpstr (((HrDevice *) g_ptr_array_index (board->devices, 1))->name, ==, "NVIDIA GeForce RTX 3060");
}

/* two_gpu_board()'s second GPU. */
static HrDevice *
second_device (HrBoard *board)
{
  return g_ptr_array_index (board->devices, 1);
}

static void
break_memory_zero (HrBoard *board)
{
  second_device (board)->memory_bytes = 0;
}

static void
break_memory_too_large (HrBoard *board)
{
  second_device (board)->memory_bytes = G_GUINT64_CONSTANT (2000000000000000);
}

static void
break_nothing_left (HrBoard *board)
{
  second_device (board)->memory_bytes = 12 * GIB;
  second_device (board)->resident_bytes = 12 * GIB;
}

static void
break_no_bandwidth (HrBoard *board)
{
  second_device (board)->bandwidth_bytes_per_s = 0.0;
}

static void
break_bandwidth_too_high (HrBoard *board)
{
  second_device (board)->bandwidth_bytes_per_s = 2e14;
}

static void
break_empty_name (HrBoard *board)
{
  g_free (second_device (board)->name);
  second_device (board)->name = g_strdup ("");
}

static void
break_pool_not_first (HrBoard *board)
{
  board->pool_bytes = 23 * GIB;
}

static void
break_backend_not_first (HrBoard *board)
{
  board->backend = HR_BOARD_BACKEND_METAL;
}

static void
break_unified_two_devices (HrBoard *board)
{
  board->unified = TRUE;
  board->host_pool_bytes = board->host_resident_bytes = board->host_reserve_bytes = 0;
  board->host_bandwidth_bytes_per_s = 0.0;
}

/* without host figures, which a "cpu" board may not have either */
static void
break_cpu_backend (HrBoard *board)
{
  board->backend = HR_BOARD_BACKEND_CPU;
  board->host_pool_bytes = board->host_resident_bytes = board->host_reserve_bytes = 0;
  board->host_bandwidth_bytes_per_s = 0.0;
}

static void
break_no_devices (HrBoard *board)
{
  g_ptr_array_set_size (board->devices, 0);
}

/* One change to two_gpu_board() that hr_board_validate() refuses. */
typedef struct {
  const char *path;
  void      (*change) (HrBoard *board);
  const char *message;
} BrokenList;

static const BrokenList broken_lists[] = {
  { "/devices/list/refuses/memory-zero", break_memory_zero,
    "device 2: field \"memory_bytes\" must be between 1 byte and 1 PB" },
  { "/devices/list/refuses/memory-too-large", break_memory_too_large,
    "device 2: field \"memory_bytes\" must be between 1 byte and 1 PB" },
  { "/devices/list/refuses/nothing-left", break_nothing_left,
    "device 2: \"resident_bytes\" plus \"reserve_bytes\" must be less than \"memory_bytes\": nothing would be left for a model" },
  { "/devices/list/refuses/no-bandwidth", break_no_bandwidth,
    "device 2: field \"bandwidth_gb_s\" is missing: the speed needs the device's memory bandwidth" },
  { "/devices/list/refuses/bandwidth-too-high", break_bandwidth_too_high,
    "device 2: field \"bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s" },
  { "/devices/list/refuses/empty-name", break_empty_name,
    "device 2: field \"name\" is missing or empty" },
  { "/devices/list/refuses/pool-not-first-device", break_pool_not_first,
    "field \"devices\": the first device's memory, resident, reserve and bandwidth must be the board's \"pool_bytes\", \"resident_bytes\", \"reserve_bytes\" and \"bandwidth_gb_s\"" },
  { "/devices/list/refuses/backend-not-first-device", break_backend_not_first,
    "field \"backend\" must be the first device's: \"cuda\" drives it" },
  { "/devices/list/refuses/unified-two-devices", break_unified_two_devices,
    "field \"devices\" lists 2 devices: a unified board has one pool and one device" },
  { "/devices/list/refuses/cpu-backend", break_cpu_backend,
    "field \"devices\" is for a GPU board: a \"cpu\" board has no GPU" },
  { "/devices/list/refuses/no-devices", break_no_devices,
    "field \"devices\" must list between 1 and 16 devices" },
};

static void
test_devices_list_refused (gconstpointer data)
{
  const BrokenList *broken = data;
  g_autoptr(HrBoard) board = two_gpu_board ();
  g_autoptr(GError) error = NULL;

  broken->change (board);
  g_assert_false (hr_board_validate (board, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, broken->message);
}

/* a device without bandwidth is valid where it is not required (an ad-hoc --gpus board) */
static void
test_devices_bandwidth_optional (void)
{
  g_autoptr(HrDevice) unknown = hr_device_new ("GPU", 24 * GIB, HR_DEVICE_KIND_DISCRETE, HR_DEVICE_BACKEND_CUDA);
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_device_validate (unknown, FALSE, &error));
  g_assert_no_error (error);
}

static void
test_devices_words (void)
{
  HrDeviceKind kind = HR_DEVICE_KIND_DISCRETE;
  HrDeviceBackend backend = HR_DEVICE_BACKEND_CUDA;

  g_assert_true (hr_device_kind_from_string ("Integrated", &kind));
  g_assert_cmpint (kind, ==, HR_DEVICE_KIND_INTEGRATED);
  g_assert_false (hr_device_kind_from_string ("external", &kind));
  g_assert_cmpint (kind, ==, HR_DEVICE_KIND_INTEGRATED);
  g_assert_cmpstr (hr_device_kind_to_string (HR_DEVICE_KIND_DISCRETE), ==, "discrete");
  g_assert_true (hr_device_backend_from_string ("ROCm", &backend));
  g_assert_cmpint (backend, ==, HR_DEVICE_BACKEND_ROCM);
  g_assert_true (hr_device_backend_from_string ("vulkan", &backend));
  g_assert_cmpint (backend, ==, HR_DEVICE_BACKEND_VULKAN);
  g_assert_false (hr_device_backend_from_string ("cpu", &backend));
  g_assert_cmpstr (hr_device_backend_to_string (HR_DEVICE_BACKEND_METAL), ==, "metal");
  g_assert_cmpint (hr_board_backend_for_device (HR_DEVICE_BACKEND_ROCM), ==, HR_BOARD_BACKEND_CUDA);
  g_assert_cmpint (hr_board_backend_for_device (HR_DEVICE_BACKEND_METAL), ==, HR_BOARD_BACKEND_METAL);
}

/* A board with two GPUs: the first GPU's figures come from the list; the
 * top-level ones may be left out. */
static const char pair_text[] =
  "{ \"version\": 1, \"boards\": [\n"
  "  { \"id\": \"pair\", \"name\": \"Pair\", \"unified\": false,\n"
  "    \"host_pool_bytes\": 34359738368, \"host_resident_bytes\": 4000000000,\n"
  "    \"host_reserve_bytes\": 2000000000, \"host_bandwidth_gb_s\": 51.2,\n"
  "    \"devices\": [\n"
  "      { \"name\": \"RTX 5090\", \"memory_bytes\": 34190917632, \"resident_bytes\": 1000000000,\n"
  "        \"reserve_bytes\": 500000000, \"bandwidth_gb_s\": 1792, \"kind\": \"discrete\", \"backend\": \"cuda\" },\n"
  "      { \"name\": \"RTX 3090\", \"memory_bytes\": 25769803776, \"bandwidth_gb_s\": 936 } ] } ] }\n";

static void
test_devices_file (void)
{
  g_autoptr(GPtrArray) boards = NULL;
  g_autoptr(GError) error = NULL;
  const HrBoard *b;
  const HrDevice *d;

  boards = hr_boards_load_data (pair_text, -1, "boards.json", &error);
  g_assert_no_error (error);
  b = g_ptr_array_index (boards, 0);
  g_assert_cmpuint (hr_board_n_devices (b), ==, 2);
  g_assert_cmpuint (b->pool_bytes, ==, 34190917632);
  g_assert_cmpuint (b->resident_bytes, ==, 1000000000);
  g_assert_cmpuint (b->reserve_bytes, ==, 500000000);
  g_assert_cmpfloat (b->bandwidth_bytes_per_s, ==, 1792e9);
  d = g_ptr_array_index (b->devices, 1);
  g_assert_cmpstr (d->name, ==, "RTX 3090");
  g_assert_cmpuint (d->memory_bytes, ==, 25769803776);
  g_assert_cmpuint (d->resident_bytes, ==, 0);
  g_assert_cmpfloat (d->bandwidth_bytes_per_s, ==, 936e9);
  g_assert_cmpint (d->kind, ==, HR_DEVICE_KIND_DISCRETE);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_CUDA);
}

/* saved atomically with both the board's figures (older Headroom reads
 * the first GPU) and the list; read back the same */
static void
test_devices_file_saved (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-devices-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "boards.json", NULL);
  g_autofree char *saved = NULL;
  g_autoptr(GPtrArray) boards = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  const HrBoard *b;

  boards = hr_boards_load_data (pair_text, -1, "boards.json", &error);
  g_assert_no_error (error);
  g_assert_true (hr_boards_save_file (boards, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "\"pool_bytes\" : 34190917632"));
  g_assert_nonnull (strstr (saved, "\"devices\" : ["));
  g_assert_nonnull (strstr (saved, "\"kind\" : \"discrete\""));
  again = hr_boards_load_file (path, &error);
  g_assert_no_error (error);
  b = g_ptr_array_index (again, 0);
  g_assert_cmpuint (b->devices->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_true (hr_device_equal (g_ptr_array_index (b->devices, i),
                                    g_ptr_array_index (((HrBoard *) g_ptr_array_index (boards, 0))->devices, i)));
  g_assert_cmpuint (b->host_pool_bytes, ==, 34359738368);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A boards.json whose device list is refused, and the message. */
typedef struct {
  const char *path;
  const char *text;
  const char *message;
} RefusedDevices;

static const RefusedDevices refused_devices[] = {
  { "/devices/file/refuses/no-memory",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"m\", \"name\": \"M\",\n"
    "    \"devices\": [\n"
    "      { \"name\": \"A\", \"memory_bytes\": 1000, \"bandwidth_gb_s\": 10 },\n"
    "      { \"name\": \"B\",\n"
    "        \"memory_bytes\": 0, \"bandwidth_gb_s\": 10 } ] } ] }\n",
    "boards.json: line 6: entry 1 (\"m\"): device 2: field \"memory_bytes\" must be between 1 byte and 1 PB" },
  { "/devices/file/refuses/kind",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"k\", \"name\": \"K\",\n"
    "    \"devices\": [ { \"name\": \"A\", \"memory_bytes\": 1000, \"bandwidth_gb_s\": 10,\n"
    "      \"kind\": \"external\" } ] } ] }\n",
    "boards.json: line 4: entry 1 (\"k\"): device 1: field \"kind\" must be \"discrete\" or \"integrated\"" },
  { "/devices/file/refuses/backend",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"b\", \"name\": \"B\",\n"
    "    \"devices\": [ { \"name\": \"A\", \"memory_bytes\": 1000, \"bandwidth_gb_s\": 10,\n"
    "      \"backend\": \"opencl\" } ] } ] }\n",
    "boards.json: line 4: entry 1 (\"b\"): device 1: field \"backend\" must be \"cuda\", \"rocm\", \"vulkan\" or \"metal\"" },
  { "/devices/file/refuses/pool-disagrees",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"d\", \"name\": \"D\",\n"
    "    \"pool_bytes\": 2000,\n"
    "    \"devices\": [ { \"name\": \"A\", \"memory_bytes\": 1000, \"bandwidth_gb_s\": 10 } ] } ] }\n",
    "boards.json: line 3: entry 1 (\"d\"): field \"pool_bytes\" must be the first device's \"memory_bytes\" (or be left out)" },
  { "/devices/file/refuses/not-an-array",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"n\", \"name\": \"N\",\n"
    "    \"devices\": 2 } ] }\n",
    "boards.json: line 3: entry 1 (\"n\"): field \"devices\" must be an array of devices" },
  { "/devices/file/refuses/empty",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"e\", \"name\": \"E\", \"pool_bytes\": 1000, \"resident_bytes\": 0, \"reserve_bytes\": 0,\n"
    "    \"bandwidth_gb_s\": 10, \"devices\": [] } ] }\n",
    "boards.json: line 3: entry 1 (\"e\"): field \"devices\" must list between 1 and 16 devices" },
  { "/devices/file/refuses/no-bandwidth",
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"w\", \"name\": \"W\",\n"
    "    \"devices\": [ { \"name\": \"A\", \"memory_bytes\": 1000, \"bandwidth_gb_s\": 10 },\n"
    "      { \"name\": \"B\", \"memory_bytes\": 1000 } ] } ] }\n",
    "boards.json: line 4: entry 1 (\"w\"): device 2: field \"bandwidth_gb_s\" is missing: the speed needs the device's memory bandwidth" },
};

static void
test_devices_file_refused (gconstpointer data)
{
  const RefusedDevices *refused = data;
  g_autoptr(GError) error = NULL;

  g_assert_null (hr_boards_load_data (refused->text, -1, "boards.json", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, refused->message);
}

static void
test_devices_sizes (void)
{
  g_autoptr(GError) error = NULL;
  guint64 bytes = 0;

  g_assert_true (hr_parse_size ("24GiB", &bytes, &error));
  g_assert_cmpuint (bytes, ==, 24 * GIB);
  g_assert_true (hr_parse_size (" 23.5 gb ", &bytes, &error));
  g_assert_cmpuint (bytes, ==, 23500000000);
  g_assert_true (hr_parse_size ("8192MiB", &bytes, &error));
  g_assert_cmpuint (bytes, ==, 8 * GIB);
  g_assert_true (hr_parse_size ("1TB", &bytes, &error));
  g_assert_cmpuint (bytes, ==, G_GUINT64_CONSTANT (1000000000000));
  g_assert_no_error (error);

#define REFUSED(text, want) G_STMT_START { \
    g_assert_false (hr_parse_size (text, &bytes, &error)); \
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT); \
    g_assert_cmpstr (error->message, ==, want); \
    g_clear_error (&error); } G_STMT_END

  REFUSED ("24", "\"24\" has no unit: write 24GiB (binary, 1024^3) or 24GB (decimal, 1e9)");
  REFUSED ("24XB", "\"24XB\" has an unknown unit \"XB\": use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB");
  REFUSED ("-4GiB", "\"-4GiB\" is not a size: write a positive number and a unit, as 24GiB or 24GB");
  REFUSED ("0GiB", "\"0GiB\" is not a size: write a positive number and a unit, as 24GiB or 24GB");
  REFUSED ("2000TB", "\"2000TB\" must be between 1 byte and 1 PB");
  REFUSED ("", "a size is missing (write it as 24GiB or 24GB)");
#undef REFUSED
}

static void
test_devices_first_only_text (void)
{
  g_autoptr(HrBoard) board = two_gpu_board ();
  g_autoptr(HrBoard) one = hr_board_new ("one", "One");
  g_autofree char *text = hr_board_first_device_only_text (board);

  g_assert_cmpstr (text, ==, "Sized on its first GPU only (NVIDIA GeForce RTX 3090, 24.0 GiB): this board has 2 GPUs, and Headroom does not place a model across several GPUs yet; the other GPUs' memory and bandwidth are not counted.");
  g_assert_null (hr_board_first_device_only_text (one));
}

/* The built-in boards people own with several GPUs: each GPU's memory and
 * bandwidth off NVIDIA's spec, the first GPU the board's own figures, the
 * host memory an assumption that says so. */
static void
test_devices_presets (void)
{
  static const struct {
    const char *id;
    guint       n;
    guint64     memory[2];   /* the first GPU's and the last one's */
    double      bandwidth[2];
    guint64     host;
  } presets[] = {
    { "2x-rtx-3090",                   2, { 24 * GIB, 24 * GIB }, { 936e9, 936e9 },   32 * GIB },
    { "rtx-3090-rtx-4090",             2, { 24 * GIB, 24 * GIB }, { 936e9, 1008e9 },  32 * GIB },
    { "rtx-5090-rtx-3090",             2, { 32 * GIB, 24 * GIB }, { 1792e9, 936e9 },  32 * GIB },
    { "rtx-4060ti-16gb-rtx-3060-12gb", 2, { 16 * GIB, 12 * GIB }, { 288e9, 360e9 },   32 * GIB },
    { "4x-rtx-3090",                   4, { 24 * GIB, 24 * GIB }, { 936e9, 936e9 },   128 * GIB },
    { "2x-rtx-a6000",                  2, { 48 * GIB, 48 * GIB }, { 768e9, 768e9 },   128 * GIB },
  };
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "boards.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) boards = hr_boards_load_file (path, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      const HrBoard *b = hr_boards_find (boards, presets[i].id);
      const HrDevice *first, *last;

      g_test_message ("%s", presets[i].id);
      g_assert_nonnull (b);
      g_assert_cmpuint (hr_board_n_devices (b), ==, presets[i].n);
      first = g_ptr_array_index (b->devices, 0);
      last = g_ptr_array_index (b->devices, b->devices->len - 1);
      g_assert_cmpuint (first->memory_bytes, ==, presets[i].memory[0]);
      g_assert_cmpuint (last->memory_bytes, ==, presets[i].memory[1]);
      g_assert_cmpfloat (first->bandwidth_bytes_per_s, ==, presets[i].bandwidth[0]);
      g_assert_cmpfloat (last->bandwidth_bytes_per_s, ==, presets[i].bandwidth[1]);
      g_assert_cmpuint (b->pool_bytes, ==, first->memory_bytes);
      g_assert_cmpfloat (b->bandwidth_bytes_per_s, ==, first->bandwidth_bytes_per_s);
      g_assert_cmpuint (first->resident_bytes, ==, 1000000000);
      g_assert_cmpuint (last->resident_bytes, ==, 500000000);
      g_assert_cmpuint (b->host_pool_bytes, ==, presets[i].host);
      g_assert_true (hr_board_has_host (b));
      g_assert_nonnull (strstr (b->source, "host memory is Headroom's assumption of a typical"));
      g_assert_nonnull (strstr (b->source, "are Headroom's assumptions, not measurements"));
      g_assert_nonnull (strstr (b->source, "a model is placed across the GPUs as Ollama 0.30+ chooses them"));
      g_assert_true (hr_board_validate (b, &error));
      g_assert_no_error (error);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/devices/one-gpu", test_devices_one_gpu);
  g_test_add_func ("/devices/list", test_devices_list);
  g_test_add_func ("/devices/list/copy", test_devices_list_copy);
  for (guint i = 0; i < G_N_ELEMENTS (broken_lists); i++)
    g_test_add_data_func (broken_lists[i].path, &broken_lists[i], test_devices_list_refused);
  g_test_add_func ("/devices/bandwidth-optional", test_devices_bandwidth_optional);
  g_test_add_func ("/devices/words", test_devices_words);
  g_test_add_func ("/devices/file", test_devices_file);
  g_test_add_func ("/devices/file/saved", test_devices_file_saved);
  for (guint i = 0; i < G_N_ELEMENTS (refused_devices); i++)
    g_test_add_data_func (refused_devices[i].path, &refused_devices[i], test_devices_file_refused);
  g_test_add_func ("/devices/sizes", test_devices_sizes);
  g_test_add_func ("/devices/first-only-text", test_devices_first_only_text);
  g_test_add_func ("/devices/presets", test_devices_presets);
  return g_test_run ();
}
