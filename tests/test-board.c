/* test-board.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Budget and verdicts on the seed board (seed-facts.md "Budget and verdicts").
 */
#include "config.h"

#include "hr-board.h"
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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/board/budget", test_board_budget);
  g_test_add_func ("/board/verdicts", test_board_verdicts);
  g_test_add_func ("/board/validate", test_board_validate);
  return g_test_run ();
}
