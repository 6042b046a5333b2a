/* test-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Units: GB is decimal, GiB binary, both always labelled
 * (docs/seed-figures.md, "Units" and W1-W5).
 */
#include "config.h"

#include <math.h>

#include "hr-units.h"

static void
test_units_gb_gib (void)
{
  g_autofree char *w1_gb = hr_format_bytes (35000000000, HR_UNIT_GB, 2);
  g_autofree char *w1_gib = hr_format_bytes (35000000000, HR_UNIT_GIB, 2);
  g_autofree char *w3 = hr_format_gb_gib (6171877376, 2);
  g_autofree char *w5 = hr_format_gb_gib (1606374944, 2);

  /* docs/seed-figures.md W1, W3, W5 */
  g_assert_cmpstr (w1_gb, ==, "35.00 GB");
  g_assert_cmpstr (w1_gib, ==, "32.60 GiB");
  g_assert_cmpstr (w3, ==, "6.17 GB (5.75 GiB)");
  g_assert_cmpstr (w5, ==, "1.61 GB (1.50 GiB)");
  g_assert_cmpfloat (hr_bytes_to_gb (HR_BYTES_PER_GB), ==, 1.0);
  g_assert_cmpfloat (hr_bytes_to_gib (HR_BYTES_PER_GIB), ==, 1.0);
}

static void
test_units_from (void)
{
  g_assert_cmpuint (hr_bytes_from_gb (8.0), ==, 8000000000);
  g_assert_cmpuint (hr_bytes_from_gb (1.9), ==, 1900000000);
  g_assert_cmpuint (hr_bytes_from_gib (121), ==, G_GUINT64_CONSTANT (129922760704));
  g_assert_cmpuint (hr_bytes_from_gb (-1.0), ==, 0);
  g_assert_cmpuint (hr_bytes_from_gb (NAN), ==, 0);
  g_assert_cmpuint (hr_bytes_from_gb (1e300), ==, G_MAXUINT64);
}

static void
test_units_count (void)
{
  g_autofree char *a = hr_format_count (3085938688);
  g_autofree char *b = hr_format_count (0);
  g_autofree char *c = hr_format_count (999);
  g_autofree char *d = hr_format_count (1000);
  g_autofree char *e = hr_format_count (G_MAXUINT64);

  g_assert_cmpstr (a, ==, "3,085,938,688");
  g_assert_cmpstr (b, ==, "0");
  g_assert_cmpstr (c, ==, "999");
  g_assert_cmpstr (d, ==, "1,000");
  g_assert_cmpstr (e, ==, "18,446,744,073,709,551,615");
}

static void
test_units_decimal_locale_independent (void)
{
  g_autofree char *a = hr_format_decimal (2.47, 2);
  g_autofree char *b = hr_format_decimal (22.95 * 0 + 63.75 * 0.36, 1);
  g_autofree char *c = hr_format_decimal (102.0, 0);

  g_assert_cmpstr (a, ==, "2.47");
  /* The seed prints 63.75 x 0.36 as 22.9: the double is just under .95. */
  g_assert_cmpstr (b, ==, "22.9");
  g_assert_cmpstr (c, ==, "102");
}

static void
test_units_overflow (void)
{
  guint64 out;

  g_assert_true (hr_mul_u64 (G_GUINT64_CONSTANT (4294967296), 4294967295, &out));
  g_assert_cmpuint (out, ==, G_GUINT64_CONSTANT (18446744069414584320));
  g_assert_false (hr_mul_u64 (G_GUINT64_CONSTANT (4294967296), 4294967296, &out));
  g_assert_cmpuint (out, ==, G_MAXUINT64);
  g_assert_false (hr_add_u64 (G_MAXUINT64, 1, &out));
  g_assert_true (hr_add_u64 (1, 2, &out));
  g_assert_cmpuint (out, ==, 3);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/gb-gib", test_units_gb_gib);
  g_test_add_func ("/units/from", test_units_from);
  g_test_add_func ("/units/count", test_units_count);
  g_test_add_func ("/units/decimal", test_units_decimal_locale_independent);
  g_test_add_func ("/units/overflow", test_units_overflow);
  return g_test_run ();
}
