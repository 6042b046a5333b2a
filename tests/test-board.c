/* test-board.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Budget and verdicts on the seed board (docs/seed-figures.md "Budget and verdicts").
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "hr-board.h"
#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-units.h"

static HrBoard *
seed_board (void)
{
  HrBoard *board = hr_board_new ("jetson-orin-nano-super", "Jetson Orin Nano Super");

  board->pool_bytes = 8000000000;
  board->resident_bytes = 1900000000;
  board->reserve_bytes = 1000000000;
  board->bandwidth_bytes_per_s = 102e9;
  board->unified = TRUE;
  return board;
}

static void
test_board_budget (void)
{
  g_autoptr(HrBoard) board = seed_board ();

  g_assert_cmpuint (hr_board_headroom_bytes (board), ==, 6100000000);
  g_assert_cmpuint (hr_board_budget_bytes (board), ==, 5100000000);
  g_assert_cmpfloat_with_epsilon (hr_board_floor_tps (board), 10.188679, 1e-6);
}

static void
test_board_verdicts (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  /* footprint = disk + KV at 4,096 (seed's table) */
  static const struct { guint64 footprint; HrVerdict verdict; guint64 margin; } rows[] = {
    { G_GUINT64_CONSTANT (400000000) + 47185920,   HR_VERDICT_FITS,  5100000000 - 447185920 },   /* qwen2.5:0.5b 4.65 */
    { G_GUINT64_CONSTANT (1600000000) + 436207616, HR_VERDICT_FITS,  5100000000 - 2036207616 },  /* gemma2:2b 3.06 */
    { G_GUINT64_CONSTANT (2000000000) + 469762048, HR_VERDICT_FITS,  5100000000 - 2469762048 },  /* llama3.2:3b 2.63 */
    { 4900000000 + 536870912, HR_VERDICT_TIGHT, 6100000000 - 5436870912 },  /* llama3.1:8b 0.66 */
    { 9000000000 + 805306368, HR_VERDICT_OVER,  9805306368 - 6100000000 },  /* qwen2.5:14b 3.71 */
  };
  static const char *margins[] = { "4.65 GB", "3.06 GB", "2.63 GB", "0.66 GB", "3.71 GB" };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      guint64 margin;
      g_autofree char *text = NULL;

      g_assert_cmpint (hr_board_verdict (board, rows[i].footprint, &margin), ==, rows[i].verdict);
      g_assert_cmpuint (margin, ==, rows[i].margin);
      text = hr_format_bytes (margin, HR_UNIT_GB, 2);
      g_assert_cmpstr (text, ==, margins[i]);
    }

  /* the edges: exactly the budget fits, exactly the headroom is tight */
  g_assert_cmpint (hr_board_verdict (board, 5100000000, NULL), ==, HR_VERDICT_FITS);
  g_assert_cmpint (hr_board_verdict (board, 5100000001, NULL), ==, HR_VERDICT_TIGHT);
  g_assert_cmpint (hr_board_verdict (board, 6100000000, NULL), ==, HR_VERDICT_TIGHT);
  g_assert_cmpint (hr_board_verdict (board, 6100000001, NULL), ==, HR_VERDICT_OVER);
  g_assert_cmpstr (hr_verdict_to_string (HR_VERDICT_TIGHT), ==, "tight");
}

static void
test_board_validate (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_board_validate (board, &error));
  g_assert_no_error (error);

  board->resident_bytes = 7500000000;
  g_assert_false (hr_board_validate (board, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "\"resident_bytes\" plus \"reserve_bytes\" must be less than \"pool_bytes\": nothing would be left for a model");
  g_clear_error (&error);
  board->resident_bytes = 1900000000;

  board->bandwidth_bytes_per_s = 0;
  g_assert_false (hr_board_validate (board, &error));
  g_assert_cmpstr (error->message, ==, "field \"bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s");
  g_clear_error (&error);
  board->bandwidth_bytes_per_s = 102e9;

  board->prefill_allowance_ms = 3000;
  g_assert_false (hr_board_validate (board, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* a resident share above the pool never underflows the budget */
  board->resident_bytes = 9000000000;
  g_assert_cmpuint (hr_board_headroom_bytes (board), ==, 0);
  g_assert_cmpuint (hr_board_budget_bytes (board), ==, 0);
}

/* A discrete board with its host memory: the built-in RTX 3060's figures. */
static HrBoard *
rtx_board (void)
{
  HrBoard *board = hr_board_new ("rtx-3060-12gb", "NVIDIA GeForce RTX 3060 12 GB");

  board->pool_bytes = 12884901888;
  board->resident_bytes = 1000000000;
  board->reserve_bytes = 500000000;
  board->bandwidth_bytes_per_s = 360e9;
  board->unified = FALSE;
  board->backend = HR_BOARD_BACKEND_CUDA;
  board->host_pool_bytes = 34359738368;
  board->host_resident_bytes = 4000000000;
  board->host_reserve_bytes = 2000000000;
  board->host_bandwidth_bytes_per_s = 51.2e9;
  return board;
}

static void
test_board_host (void)
{
  g_autoptr(HrBoard) board = rtx_board ();
  g_autoptr(HrBoard) seed = seed_board ();
  g_autoptr(GError) error = NULL;
  HrBoardBackend backend = HR_BOARD_BACKEND_CPU;

  g_assert_true (hr_board_validate (board, &error));
  g_assert_true (hr_board_has_host (board));
  g_assert_false (hr_board_has_host (seed));
  g_assert_cmpuint (hr_board_host_headroom_bytes (board), ==, 30359738368);
  g_assert_cmpuint (hr_board_host_budget_bytes (board), ==, 28359738368);
  g_assert_cmpuint (hr_board_host_headroom_bytes (seed), ==, 0);
  g_assert_cmpstr (hr_verdict_to_string (HR_VERDICT_PARTIAL), ==, "partial");
  g_assert_cmpstr (hr_board_backend_to_string (HR_BOARD_BACKEND_METAL), ==, "metal");
  g_assert_true (hr_board_backend_from_string ("CUDA", &backend));
  g_assert_cmpint (backend, ==, HR_BOARD_BACKEND_CUDA);
  g_assert_false (hr_board_backend_from_string ("vulkan", &backend));
  g_assert_cmpint (backend, ==, HR_BOARD_BACKEND_CUDA);

#define REFUSED(msg) G_STMT_START { \
    g_assert_false (hr_board_validate (board, &error)); \
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA); \
    g_assert_cmpstr (error->message, ==, msg); \
    g_clear_error (&error); } G_STMT_END

  board->host_pool_bytes = G_GUINT64_CONSTANT (2000000000000000);
  REFUSED ("field \"host_pool_bytes\" must be between 1 byte and 1 PB");
  board->host_pool_bytes = 5000000000;
  REFUSED ("\"host_resident_bytes\" plus \"host_reserve_bytes\" must be less than \"host_pool_bytes\": nothing would be left for layers in host memory");
  board->host_pool_bytes = 34359738368;
  board->host_bandwidth_bytes_per_s = 2e14;
  REFUSED ("field \"host_bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s");
  board->host_bandwidth_bytes_per_s = 0.0;
  REFUSED ("field \"host_bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s");
  board->host_bandwidth_bytes_per_s = 51.2e9;
  board->unified = TRUE;
  REFUSED ("field \"host_pool_bytes\" is for a discrete GPU: a unified board has one pool, \"pool_bytes\"");
  board->unified = FALSE;
  board->backend = HR_BOARD_BACKEND_CPU;
  REFUSED ("field \"host_pool_bytes\" is for a GPU board: on a \"cpu\" board the pool is the host memory");
  board->backend = HR_BOARD_BACKEND_CUDA;
  board->host_pool_bytes = 0;
  REFUSED ("field \"host_pool_bytes\" is missing: the other host figures need the host memory's size");
  board->host_resident_bytes = board->host_reserve_bytes = 0;
  board->host_bandwidth_bytes_per_s = 0.0;
  g_assert_true (hr_board_validate (board, &error));
  g_assert_false (hr_board_has_host (board));
  board->backend = (HrBoardBackend) 7;
  REFUSED ("field \"backend\" must be \"cuda\", \"metal\" or \"cpu\"");
#undef REFUSED
}

/* a boards.json written before the host fields: cuda, no host memory */
static void
test_board_host_json (void)
{
  const char *old =
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"old\", \"name\": \"Old\", \"pool_bytes\": 12000000000,\n"
    "    \"resident_bytes\": 1, \"reserve_bytes\": 1, \"bandwidth_gb_s\": 360,\n"
    "    \"unified\": false } ] }\n";
  g_autoptr(GPtrArray) boards = NULL;
  g_autoptr(GError) error = NULL;
  const HrBoard *b;

  boards = hr_boards_load_data (old, -1, "boards.json", &error);
  g_assert_no_error (error);
  b = g_ptr_array_index (boards, 0);
  g_assert_cmpint (b->backend, ==, HR_BOARD_BACKEND_CUDA);
  g_assert_cmpuint (b->host_pool_bytes, ==, 0);
  g_assert_cmpfloat (b->host_bandwidth_bytes_per_s, ==, 0.0);
}

static void
test_board_host_json_refused (void)
{
  const char *bad_backend =
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"b\", \"name\": \"B\", \"pool_bytes\": 1000, \"resident_bytes\": 1,\n"
    "    \"reserve_bytes\": 1, \"bandwidth_gb_s\": 10,\n"
    "    \"backend\": \"vulkan\" } ] }\n";
  const char *bad_host =
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"h\", \"name\": \"H\", \"pool_bytes\": 1000, \"resident_bytes\": 1,\n"
    "    \"reserve_bytes\": 1, \"bandwidth_gb_s\": 10, \"unified\": false,\n"
    "    \"host_pool_bytes\": 1000, \"host_resident_bytes\": 900,\n"
    "    \"host_reserve_bytes\": 200, \"host_bandwidth_gb_s\": 51.2 } ] }\n";
  g_autoptr(GError) error = NULL;

  g_assert_null (hr_boards_load_data (bad_backend, -1, "boards.json", &error));
  g_assert_cmpstr (error->message, ==, "boards.json: line 4: entry 1 (\"b\"): field \"backend\" must be \"cuda\", \"metal\" or \"cpu\"");
  g_clear_error (&error);
  g_assert_null (hr_boards_load_data (bad_host, -1, "boards.json", &error));
  g_assert_cmpstr (error->message, ==, "boards.json: line 4: entry 1 (\"h\"): \"host_resident_bytes\" plus \"host_reserve_bytes\" must be less than \"host_pool_bytes\": nothing would be left for layers in host memory");
}

/* The built-in boards (HEADROOM_DATA_DIR/boards.json). Returns: (transfer full) */
static GPtrArray *
builtin_boards (void)
{
  g_autofree char *builtin_path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "boards.json", NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *boards = hr_boards_load_file (builtin_path, &error);

  g_assert_no_error (error);
  return boards;
}

/* the built-in boards: the seed's Jetson unchanged, the RTX cards with a
 * typical desktop's host memory, each kind its backend */
static void
test_board_host_builtin (void)
{
  g_autoptr(GPtrArray) boards = builtin_boards ();
  const HrBoard *b = hr_boards_find (boards, "jetson-orin-nano-super");

  g_assert_cmpuint (b->pool_bytes, ==, 8000000000);
  g_assert_cmpuint (b->resident_bytes, ==, 1900000000);
  g_assert_cmpuint (b->reserve_bytes, ==, 1000000000);
  g_assert_cmpfloat (b->bandwidth_bytes_per_s, ==, 102e9);
  g_assert_cmpuint (hr_board_budget_bytes (b), ==, 5100000000);
  g_assert_true (b->unified);
  g_assert_false (hr_board_has_host (b));
  g_assert_cmpint (hr_boards_find (boards, "mac-m4-pro-24gb")->backend, ==, HR_BOARD_BACKEND_METAL);
  for (guint i = 0; i < boards->len; i++)
    {
      b = g_ptr_array_index (boards, i);
      g_assert_true (hr_board_has_host (b) == !b->unified);
      /* the workstations with several GPUs are checked in test-devices */
      if (!b->unified && (!hr_board_is_multi_device (b) || b->host_pool_bytes == 34359738368))
        {
          g_assert_nonnull (strstr (b->source, "host memory is Headroom's assumption of a typical desktop"));
          g_assert_cmpuint (b->host_pool_bytes, ==, 34359738368);
        }
    }
  g_assert_cmpfloat (hr_boards_find (boards, "rtx-3060-12gb")->host_bandwidth_bytes_per_s, ==, 51.2e9);
  g_assert_cmpfloat (hr_boards_find (boards, "rtx-4090")->host_bandwidth_bytes_per_s, ==, 89.6e9);
}

/* saved and read back, the new fields survive */
static void
test_board_host_saved (void)
{
  g_autoptr(GPtrArray) boards = builtin_boards ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-host-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "boards.json", NULL);
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  const HrBoard *b;

  g_assert_true (hr_boards_save_file (boards, path, &error));
  g_assert_no_error (error);
  again = hr_boards_load_file (path, &error);
  g_assert_no_error (error);
  b = hr_boards_find (again, "rtx-3060-12gb");
  g_assert_cmpuint (b->host_pool_bytes, ==, 34359738368);
  g_assert_cmpuint (b->host_resident_bytes, ==, 4000000000);
  g_assert_cmpuint (b->host_reserve_bytes, ==, 2000000000);
  g_assert_cmpfloat (b->host_bandwidth_bytes_per_s, ==, 51.2e9);
  g_assert_cmpint (hr_boards_find (again, "mac-m2-max-32gb")->backend, ==, HR_BOARD_BACKEND_METAL);
  g_assert_cmpuint (hr_boards_find (again, "dgx-spark")->host_pool_bytes, ==, 0);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/board/budget", test_board_budget);
  g_test_add_func ("/board/verdicts", test_board_verdicts);
  g_test_add_func ("/board/validate", test_board_validate);
  g_test_add_func ("/board/host", test_board_host);
  g_test_add_func ("/board/host-json/old-file", test_board_host_json);
  g_test_add_func ("/board/host-json/refused", test_board_host_json_refused);
  g_test_add_func ("/board/host-json/builtin", test_board_host_builtin);
  g_test_add_func ("/board/host-json/saved", test_board_host_saved);
  return g_test_run ();
}
