/* test-pool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pool's bands (app/core/board/hr-pool.c) on the seed's unified Jetson and on
 * a discrete card.
 */
#include "config.h"

#include <glib.h>

#include "hr-pool.h"

static void
test_unified (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("jetson-orin-nano-super", "Jetson Orin Nano Super");
  HrPoolLayout layout;

  /* docs/seed-figures.md: pool 8.0 GB, resident 1.9 GB, reserve 1.0 GB, budget 5.1 GB. */
  board->pool_bytes = 8000000000;
  board->resident_bytes = 1900000000;
  board->reserve_bytes = 1000000000;
  board->unified = TRUE;
  hr_pool_layout (board, &layout);

  g_assert_true (layout.unified);
  g_assert_cmpuint (layout.n_bands, ==, 3);
  g_assert_cmpstr (layout.bands[0].id, ==, "resident");
  g_assert_cmpstr (layout.bands[0].label, ==, "OS and desktop (resident)");
  g_assert_cmpuint (layout.bands[0].start_bytes, ==, 0);
  g_assert_cmpuint (layout.bands[0].bytes, ==, 1900000000);
  g_assert_cmpstr (layout.bands[0].note, ==, "1.9 GB of the shared memory is held by the OS, the desktop and the app's own stack before any model loads.");
  g_assert_cmpstr (layout.bands[1].id, ==, "reserve");
  g_assert_cmpuint (layout.bands[1].start_bytes, ==, 1900000000);
  g_assert_cmpuint (layout.bands[1].bytes, ==, 1000000000);
  g_assert_cmpstr (layout.bands[2].id, ==, "budget");
  g_assert_cmpuint (layout.bands[2].start_bytes, ==, 2900000000);
  g_assert_cmpuint (layout.bands[2].bytes, ==, 5100000000);
  g_assert_cmpstr (layout.bands[2].note, ==, "5.1 GB of the 8.0 GB pool is the model's budget.");
  g_assert_cmpstr (layout.note, ==, "Unified memory: the CPU and the GPU share one pool, so the OS and desktop use the model's memory. nvidia-smi reports no memory figure on these boards; the pool comes from the board profile (free -h shows it).");
}

static void
test_discrete (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("rtx-3090", "NVIDIA GeForce RTX 3090");
  HrPoolLayout layout;

  board->pool_bytes = 25769803776;
  board->resident_bytes = 1000000000;
  board->reserve_bytes = 500000000;
  hr_pool_layout (board, &layout);
  g_assert_false (layout.unified);
  g_assert_cmpstr (layout.bands[0].label, ==, "Desktop and CUDA context (resident)");
  g_assert_cmpuint (layout.bands[2].bytes, ==, 24269803776);
  g_assert_cmpstr (layout.note, ==, "");

  /* Figures past the pool are cut at the pool. */
  board->resident_bytes = 30000000000;
  hr_pool_layout (board, &layout);
  g_assert_cmpuint (layout.bands[0].bytes, ==, 25769803776);
  g_assert_cmpuint (layout.bands[1].bytes, ==, 0);
  g_assert_cmpuint (layout.bands[2].bytes, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/pool/unified", test_unified);
  g_test_add_func ("/pool/discrete", test_discrete);

  return g_test_run ();
}
