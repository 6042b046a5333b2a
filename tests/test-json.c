/* test-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one set of JSON getters (hr-json.h): wrong types read as absent,
 * never a critical (the tests run with fatal criticals), counts may arrive
 * as doubles.
 */
#include "config.h"

#include <locale.h>

#include "hr-error.h"
#include "hr-json.h"

static void
test_json_reads (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *obj;
  guint64 v = 0;

  g_assert_true (json_parser_load_from_data (parser,
    "{\"a\": 5, \"b\": 6.0e9, \"big\": 1.8e19, \"huge\": 1.9e19, \"c\": -1, \"d\": 1.5, \"e\": \"x\", \"f\": {\"g\": 1}, \"h\": [1], \"t\": true, \"n\": null}",
    -1, NULL));
  obj = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (hr_json_u64 (obj, "a", G_MAXUINT64, &v));
  g_assert_cmpuint (v, ==, 5);
  /* Large byte counts may arrive as doubles. */
  g_assert_true (hr_json_u64 (obj, "b", G_MAXUINT64, &v));
  g_assert_cmpuint (v, ==, 6000000000);
  /* past 2^53 and past 2^63: still a byte count, below 2^64 */
  g_assert_true (hr_json_u64 (obj, "big", G_MAXUINT64, &v));
  g_assert_cmpuint (v, ==, G_GUINT64_CONSTANT (18000000000000000000));
  g_assert_false (hr_json_u64 (obj, "huge", G_MAXUINT64, &v));
  /* the caller's cap, for integers and doubles alike */
  g_assert_false (hr_json_u64 (obj, "a", 4, &v));
  g_assert_false (hr_json_u64 (obj, "b", 5999999999, &v));
  g_assert_false (hr_json_u64 (obj, "c", G_MAXUINT64, &v));
  g_assert_false (hr_json_u64 (obj, "d", G_MAXUINT64, &v));
  g_assert_false (hr_json_u64 (obj, "e", G_MAXUINT64, &v));
  g_assert_false (hr_json_u64 (obj, "f", G_MAXUINT64, &v));
  g_assert_false (hr_json_u64 (obj, "missing", G_MAXUINT64, &v));
  g_assert_cmpstr (hr_json_string (obj, "e"), ==, "x");
  /* A member of the wrong type is as absent, never a critical. */
  g_assert_null (hr_json_string (obj, "f"));
  g_assert_null (hr_json_string (obj, "n"));
  g_assert_nonnull (hr_json_object (obj, "f"));
  g_assert_null (hr_json_object (obj, "h"));
  g_assert_nonnull (hr_json_array (obj, "h"));
  g_assert_null (hr_json_array (obj, "f"));
  g_assert_true (hr_json_bool (obj, "t", FALSE));
  g_assert_false (hr_json_bool (obj, "f", FALSE));
  g_assert_false (hr_json_bool (obj, "a", FALSE));
  g_assert_true (hr_json_bool (obj, "missing", TRUE));
  g_assert_true (hr_json_bool (obj, "n", TRUE));
  g_assert_null (hr_json_member (obj, "n"));
  g_assert_null (hr_json_member (NULL, "a"));
  g_assert_null (hr_json_string (NULL, "e"));
}

static void
test_parse_object (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_null (hr_json_parse_object (parser, "", 0, "config.json", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "config.json is empty or not text");
  g_clear_error (&error);
  g_assert_null (hr_json_parse_object (parser, "[1]", 3, "config.json", &error));
  g_assert_cmpstr (error->message, ==, "config.json is not a JSON object");
  g_clear_error (&error);
  g_assert_null (hr_json_parse_object (parser, "{", 1, "config.json", &error));
  g_assert_true (g_str_has_prefix (error->message, "config.json is not valid JSON: "));
  g_clear_error (&error);
  g_assert_nonnull (hr_json_parse_object (parser, "{\"a\": 1}", 8, "config.json", &error));
  g_assert_no_error (error);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/json/reads", test_json_reads);
  g_test_add_func ("/json/parse-object", test_parse_object);

  return g_test_run ();
}
