/* hr-cli-weights.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli weights`: the seed's calculator of the bytes a parameter
 * count takes at a precision (docs/seed-figures.md "Weights").
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "hr-cli.h"
#include "hr-memory.h"
#include "hr-precision.h"
#include "hr-units.h"

static char *
fmt (double value,
     int    decimals)
{
  return hr_format_decimal (value, decimals);
}

/* --precision's entry in @out; the exit code (a usage error listing the
 * known ids when there is none). */
static int
lookup_precision (const char         *precision_id,
                  const HrPrecision **out)
{
  guint n;
  const HrPrecision *list;
  g_autoptr(GString) ids = NULL;

  *out = hr_precision_lookup (precision_id);
  if (*out != NULL)
    return HR_CLI_EXIT_OK;
  list = hr_precision_list (&n);
  ids = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (ids, "%s%s", i ? ", " : "", list[i].id);
  return hr_cli_usage_error (_("unknown precision \"%s\"; choose one of: %s"), precision_id, ids->str);
}

/* The parameter count from --count N or --parameters BILLIONS into
 * @count; the exit code. */
static int
parse_parameter_count (const char *parameters_text,
                       const char *count_text,
                       guint64    *count)
{
  char *end = NULL;
  double billions;

  if (count_text != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!g_ascii_string_to_unsigned (count_text, 10, 1, G_GUINT64_CONSTANT (100000000000000), count, &error))
        return hr_cli_usage_error (_("--count must be a whole number of parameters from 1 to 100,000,000,000,000, not \"%s\""), count_text);
      return HR_CLI_EXIT_OK;
    }
  billions = g_ascii_strtod (parameters_text, &end);
  if (end == parameters_text || *end != '\0' || !isfinite (billions) || billions <= 0.0 || billions > 100000.0)
    return hr_cli_usage_error (_("--parameters must be a positive number of billions up to 100,000, not \"%s\""), parameters_text);
  *count = (guint64) llround (billions * 1e9);
  if (*count == 0)
    return hr_cli_usage_error (_("--parameters %s is less than one parameter"), parameters_text);
  return HR_CLI_EXIT_OK;
}

/* weights --json: the count, the precision and the bytes they take. */
static void
print_weights_json (guint64            count,
                    const HrPrecision *precision,
                    guint64            bytes)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "parameter_count");
  json_builder_add_int_value (b, (gint64) count);
  json_builder_set_member_name (b, "precision");
  json_builder_add_string_value (b, precision->id);
  json_builder_set_member_name (b, "bits_per_parameter");
  json_builder_add_double_value (b, precision->bits_per_weight);
  json_builder_set_member_name (b, "weight_bytes");
  json_builder_add_int_value (b, (gint64) bytes);
  json_builder_set_member_name (b, "weight_gb");
  json_builder_add_double_value (b, hr_bytes_to_gb (bytes));
  json_builder_set_member_name (b, "weight_gib");
  json_builder_add_double_value (b, hr_bytes_to_gib (bytes));
  json_builder_set_member_name (b, "formula");
  json_builder_add_string_value (b, "parameter_count * bits_per_parameter / 8");
  json_builder_set_member_name (b, "source");
  json_builder_add_string_value (b, precision->source);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

/* weights as text: the seed's field names, one a line. */
static void
print_weights_text (guint64            count,
                    const HrPrecision *precision,
                    guint64            bytes)
{
  g_autofree char *count_fmt = hr_format_count (count);
  g_autofree char *bytes_fmt = hr_format_count (bytes);
  g_autofree char *gb = fmt (hr_bytes_to_gb (bytes), 2);
  g_autofree char *gib = fmt (hr_bytes_to_gib (bytes), 2);
  g_autofree char *bits = g_strdup_printf ("%g", precision->bits_per_weight);

  /* The seed's labels are field names, kept as they are in every language. */
  printf ("parameter_count    %s\n", count_fmt);
  printf ("precision          %s\n", precision->id);
  printf ("bits_per_parameter %s\n", bits);
  printf ("weight_bytes       %s\n", bytes_fmt);
  printf ("weight_gb          %s GB %s\n", gb, _("(decimal, / 1e9)"));
  printf ("weight_gib         %s GiB %s\n", gib, _("(binary, / 1024^3)"));
}

/**
 * hr_cli_cmd_weights:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli weights (--parameters BILLIONS | --count N) --precision P`:
 * the seed's week-4 calculator (docs/seed-figures.md "Weights").
 *
 * Returns: 0, or 2 for bad arguments.
 */
int
hr_cli_cmd_weights (int    argc,
                    char **argv)
{
  g_autofree char *parameters_text = NULL;
  g_autofree char *count_text = NULL;
  g_autofree char *precision_id = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "parameters", 0, 0, G_OPTION_ARG_STRING, &parameters_text, N_("Parameter count in billions, e.g. 70 or 3.2"), N_("BILLIONS") },
    { "count", 0, 0, G_OPTION_ARG_STRING, &count_text, N_("Exact parameter count, e.g. 3085938688"), N_("N") },
    { "precision", 0, 0, G_OPTION_ARG_STRING, &precision_id, N_("fp32, fp16, bf16, int8, int4, or a GGUF type such as q4_K_M"), N_("P") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON instead of text"), NULL },
    { NULL }
  };
  const HrPrecision *precision;
  guint64 count = 0, bytes;
  int rc;

  if (!hr_cli_parse_options ("weights", NULL, entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc > 1)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[1]);

  if ((parameters_text == NULL) == (count_text == NULL))
    return hr_cli_usage_error ("%s", _("give exactly one of --parameters BILLIONS or --count N"));
  if (precision_id == NULL)
    return hr_cli_usage_error ("%s", _("--precision is required (fp32, fp16, bf16, int8, int4, q4_K_M, ...)"));
  if ((rc = lookup_precision (precision_id, &precision)) != HR_CLI_EXIT_OK ||
      (rc = parse_parameter_count (parameters_text, count_text, &count)) != HR_CLI_EXIT_OK)
    return rc;

  bytes = hr_memory_weight_bytes (count, precision->bits_per_weight);
  if (json)
    print_weights_json (count, precision, bytes);
  else
    print_weights_text (count, precision, bytes);
  return HR_CLI_EXIT_OK;
}
