/* test-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli with the seed's inputs prints the seed's tables line for line
 * (docs/seed-figures.md), refuses the way the seed refuses, and
 * says what is wrong with bad arguments in one line, exiting 2.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>
#include <utime.h>

#include "cli-test-util.h"
#include "gguf-writer.h"

#define SEED_MODELS "qwen2.5:0.5b,gemma2:2b,llama3.2:3b,llama3.1:8b,qwen2.5:14b"


static void
test_cli_weights (void)
{
  g_auto(Run) w1 = { 0 };
  g_auto(Run) w3 = { 0 };

  run_cli (&w1, "weights", "--parameters", "70", "--precision", "int4", NULL);
  g_assert_cmpint (w1.status, ==, 0);
  g_assert_cmpstr (w1.out, ==,
                   "parameter_count    70,000,000,000\n"
                   "precision          int4\n"
                   "bits_per_parameter 4\n"
                   "weight_bytes       35,000,000,000\n"
                   "weight_gb          35.00 GB (decimal, / 1e9)\n"
                   "weight_gib         32.60 GiB (binary, / 1024^3)\n");

  run_cli (&w3, "weights", "--count", "3085938688", "--precision", "bf16", NULL);
  g_assert_cmpint (w3.status, ==, 0);
  g_assert_cmpstr (w3.out, ==,
                   "parameter_count    3,085,938,688\n"
                   "precision          bf16\n"
                   "bits_per_parameter 16\n"
                   "weight_bytes       6,171,877,376\n"
                   "weight_gb          6.17 GB (decimal, / 1e9)\n"
                   "weight_gib         5.75 GiB (binary, / 1024^3)\n");
}

static void
test_cli_weights_json (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  run_cli (&r, "weights", "--count", "3212749888", "--precision", "int4", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  /* W5 */
  g_assert_cmpint (json_object_get_int_member (o, "weight_bytes"), ==, 1606374944);
  g_assert_cmpint (json_object_get_int_member (o, "parameter_count"), ==, 3212749888);
}

static void
test_cli_catalog (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "catalog", "--models", SEED_MODELS, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "model           params    quant  predicted   pulled\n"
                   "qwen2.5:0.5b      0.5B   q4_K_M       0.3G     0.4G\n"
                   "gemma2:2b         2.6B   q4_K_M       1.5G     1.6G\n"
                   "llama3.2:3b       3.2B   q4_K_M       1.8G     2.0G\n"
                   "llama3.1:8b       8.0B   q4_K_M       4.6G     4.9G\n"
                   "qwen2.5:14b      14.8B   q4_K_M       8.5G     9.0G\n");
}

static void
test_cli_fit (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) r16 = { 0 };

  run_cli (&r, "fit", "--models", SEED_MODELS, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "budget 5.1 GB: an 8.0 GB pool, 1.9 GB resident, 1.0 GB held back\n"
                   "model           weights  kv@4096   total   verdict\n"
                   "qwen2.5:0.5b        0.4     0.05    0.45   fits, 4.65 GB under budget\n"
                   "gemma2:2b           1.6     0.44    2.04   fits, 3.06 GB under budget\n"
                   "llama3.2:3b         2.0     0.47    2.47   fits, 2.63 GB under budget\n"
                   "llama3.1:8b         4.9     0.54    5.44   tight, 0.66 GB left above the OS\n"
                   "qwen2.5:14b         9.0     0.81    9.81   over by 3.71 GB\n");

  /* 16,384 tokens: llama3.2:3b's cache is 1.88 GB */
  run_cli (&r16, "fit", "--models", "llama3.2:3b", "--context", "16384", NULL);
  g_assert_cmpint (r16.status, ==, 0);
  g_assert_nonnull (strstr (r16.out, "llama3.2:3b         2.0     1.88    3.88   fits, 1.22 GB under budget\n"));
}

/* An absurd context is in --context's range (1 to 67,108,864, as for
 * predict and matrix): a clean table with every row over, its columns
 * widened to the longest figure, never run together. */
static void
test_cli_fit_absurd_context (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "fit", "--models", SEED_MODELS, "--context", "10000000", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
                   "budget 5.1 GB: an 8.0 GB pool, 1.9 GB resident, 1.0 GB held back\n"
                   "model           weights kv@10000000   total   verdict\n"
                   "qwen2.5:0.5b        0.4      122.88  123.28   over by 117.18 GB (past the model's context limit)\n"
                   "gemma2:2b           1.6     1064.96 1066.56   over by 1060.46 GB (past the model's context limit)\n"
                   "llama3.2:3b         2.0     1146.88 1148.88   over by 1142.78 GB (past the model's context limit)\n"
                   "llama3.1:8b         4.9     1310.72 1315.62   over by 1309.52 GB (past the model's context limit)\n"
                   "qwen2.5:14b         9.0     1966.08 1975.08   over by 1968.98 GB (past the model's context limit)\n");
}

static void
test_cli_dashboard (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "dashboard", "--models", SEED_MODELS, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
                   "======================================================================\n"
                   "  Model budget 5.1 GB   floor 10.2 t/s   peak 102 GB/s\n"
                   "======================================================================\n"
                   "  model          total GB  memory   ceiling    t/s  source        speed\n"
                   "  qwen2.5:0.5b       0.45  fits       255.0   91.8  extrapolated  unknown\n"
                   "  gemma2:2b          2.04  fits        63.8   22.9  estimate      ok\n"
                   "  llama3.2:3b        2.47  fits        51.0   18.4  measured      ok\n"
                   "  llama3.1:8b        5.44  tight       20.8    7.4  measured      slow\n"
                   "  qwen2.5:14b        9.81  over        11.3    4.1  estimate      slow\n"
                   "----------------------------------------------------------------------\n"
                   "  recommended: llama3.2:3b\n"
                   "======================================================================\n");
}

/* Names longer than the seed's 14-character column (mistral-nemo:12b,
 * deepseek-r1:1.5b) widen it to the longest name shown and one space, so
 * every row stays in line; the seed's names keep the seed's width (above). */
static void
test_cli_long_names (void)
{
  g_auto(Run) rf = { 0 };
  g_auto(Run) rd = { 0 };
  g_auto(Run) rc = { 0 };

  run_cli (&rf, "fit", "--models", "mistral-nemo:12b,deepseek-r1:1.5b,llama3.2:3b", NULL);
  g_assert_cmpint (rf.status, ==, 0);
  g_assert_cmpstr (rf.out, ==,
                   "budget 5.1 GB: an 8.0 GB pool, 1.9 GB resident, 1.0 GB held back\n"
                   "model              weights  kv@4096   total   verdict\n"
                   "mistral-nemo:12b       7.1     0.67    7.77   over by 1.67 GB\n"
                   "deepseek-r1:1.5b       1.1     0.12    1.23   fits, 3.87 GB under budget\n"
                   "llama3.2:3b            2.0     0.47    2.47   fits, 2.63 GB under budget\n");

  run_cli (&rd, "dashboard", "--models", "mistral-nemo:12b,deepseek-r1:1.5b,llama3.2:3b", NULL);
  g_assert_cmpint (rd.status, ==, 0);
  g_assert_cmpstr (rd.out, ==,
                   "======================================================================\n"
                   "  Model budget 5.1 GB   floor 10.2 t/s   peak 102 GB/s\n"
                   "======================================================================\n"
                   "  model             total GB  memory   ceiling    t/s  source        speed\n"
                   "  mistral-nemo:12b      7.77  over        14.4    5.2  estimate      slow\n"
                   "  deepseek-r1:1.5b      1.23  fits        91.3   32.9  estimate      ok\n"
                   "  llama3.2:3b           2.47  fits        51.0   18.4  measured      ok\n"
                   "----------------------------------------------------------------------\n"
                   "  recommended: llama3.2:3b\n"
                   "======================================================================\n");

  run_cli (&rc, "catalog", "--models", "mistral-nemo:12b,llama3.2:3b", NULL);
  g_assert_cmpint (rc.status, ==, 0);
  g_assert_cmpstr (rc.out, ==,
                   "model              params    quant  predicted   pulled\n"
                   "mistral-nemo:12b    12.2B     q4_0       6.9G     7.1G\n"
                   "llama3.2:3b          3.2B   q4_K_M       1.8G     2.0G\n");

  /* A precision longer than the quant column widens it by what it needs. */
  g_clear_pointer (&rc.out, g_free);
  g_clear_pointer (&rc.err, g_free);
  run_cli (&rc, "catalog", "--models", "gpt-oss:20b,llama3.2:3b", NULL);
  g_assert_cmpint (rc.status, ==, 0);
  g_assert_cmpstr (rc.out, ==,
                   "model           params     quant  predicted   pulled\n"
                   "gpt-oss:20b      20.9B mxfp4_moe      11.1G    14.0G\n"
                   "llama3.2:3b       3.2B    q4_K_M       1.8G     2.0G\n");
}

static void
test_cli_dashboard_empty_archive (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-empty-XXXXXX", NULL);
  g_auto(Run) r = { 0 };

  /* No measurement: every rate is the prior for NVIDIA unified boards
   * (data/priors.json: the mean of 18.4 / (102 / 2.0), 7.4 / (102 / 4.9) and
   * 23.4667 / (273 / 9.053114464) is 0.50; 51.0 x 0.50 = 25.5), said once. */
  run_cli (&r, "dashboard", "--models", SEED_MODELS, "--measurements", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "  llama3.2:3b        2.47  fits        51.0   25.5  prior         likely ok\n"));
  g_assert_nonnull (strstr (r.out, "  qwen2.5:14b        9.81  over        11.3    5.7  prior         likely slow\n"));
  g_assert_nonnull (strstr (r.out, "  recommended: llama3.2:3b\n"));
  g_assert_nonnull (strstr (r.out, "note: the rates on jetson-orin-nano-super are a prior, not a measurement: efficiency 0.50 for nvidia-unified hardware, the mean of 3 published runs (data/priors.json).\n"));
  g_assert_null (strstr (strstr (r.out, "note: the rates") + 1, "note: the rates"));
  g_rmdir (dir);
}

/* A `headroom-cli check` line and all it prints, with its exit status. */
typedef struct {
  const char *path;
  const char *argv[8];
  int         status;
  const char *out;
} CheckCase;

static const CheckCase check_cases[] = {
  /* Over the budget, and q2_K (predict --best-precision's answer with
   * partial offload) is not: the hint names the command that finds it. */
  { "/cli/check/over-with-hint", { "check", "qwen2.5:14b", NULL }, 1,
    "  refused: qwen2.5:14b is over by 3.71 GB\n"
    "  refused: qwen2.5:14b decodes at 4.1 t/s, under the 10.2 t/s floor\n"
    "  hint: at q2_K (2.625 bits per weight) it is not over; try \"headroom-cli predict qwen2.5:14b "
    "--board jetson-orin-nano-super --best-precision\" to pick the highest precision that fits\n" },
  { "/cli/check/allowed", { "check", "llama3.2:3b", "--board", "jetson-orin-nano-super", NULL }, 0,
    "  allowed: llama3.2:3b fits, 2.63 GB under budget, and decodes at 18.4 t/s (measured)\n" },
  { "/cli/check/no-rate", { "check", "qwen2.5:0.5b", NULL }, 1,
    "  refused: qwen2.5:0.5b has no rate this board has measured\n" },
  /* No precision brings a 70B model into 5.1 GB: no hint. */
  { "/cli/check/over-without-hint", { "check", "llama3.1:70b", NULL }, 1,
    "  refused: llama3.1:70b is over by 38.24 GB\n"
    "  refused: llama3.1:70b has no rate this board has measured\n" },
};

static void
test_cli_check (gconstpointer data)
{
  const CheckCase *c = data;
  g_auto(Run) r = { 0 };

  run_cli_argv (&r, c->argv);
  g_assert_cmpint (r.status, ==, c->status);
  g_assert_cmpstr (r.out, ==, c->out);
}

/* The hint carries check's scenario into predict's command line. */
static void
test_cli_check_hint_scenario (void)
{
  g_auto(Run) r8 = { 0 };

  run_cli (&r8, "check", "llama3.1:8b", "--context", "32768", "--kv-type", "q8_0", NULL);
  g_assert_cmpint (r8.status, ==, 1);
  g_assert_true (g_str_has_suffix (r8.out,
                   "  hint: at q3_K_L (3.4375 bits per weight) it is not over; try \"headroom-cli predict llama3.1:8b "
                   "--board jetson-orin-nano-super --context 32768 --kv-type q8_0 --best-precision\" to pick the highest "
                   "precision that fits\n"));
}

static void
test_cli_check_json_unknown (void)
{
  g_auto(Run) rj = { 0 };

  run_cli (&rj, "check", "no-such-model:7b", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 1);
  g_assert_nonnull (strstr (rj.out, "\"allowed\" : false"));
  g_assert_nonnull (strstr (rj.out, "\\\"no-such-model:7b\\\" is not on the menu: it is not in the catalog"));
  g_assert_nonnull (strstr (rj.out, "\"suggestion\" : null"));
}

/* Rates in JSON to 2 decimals, written short: 11.33 and 4.08 t/s, not
 * 4.0800000000000001. */
static void
test_cli_check_json_rates (void)
{
  g_auto(Run) rt = { 0 };
  g_auto(Run) rd = { 0 };

  run_cli (&rt, "check", "qwen2.5:14b", "--json", NULL);
  g_assert_cmpint (rt.status, ==, 1);
  g_assert_nonnull (strstr (rt.out, "\n  \"tps\" : 4.08,\n"));
  run_cli (&rd, "dashboard", "--models", "qwen2.5:14b", "--json", NULL);
  g_assert_cmpint (rd.status, ==, 0);
  g_assert_nonnull (strstr (rd.out, "\n  \"floor_tps\" : 10.19,\n  \"bandwidth_gb_s\" : 102.0,\n"));
  g_assert_nonnull (strstr (rd.out, "\n      \"ceiling_tps\" : 11.33,\n      \"tps\" : 4.08,\n"));
}

/* A name not on the menu is a reason to refuse, as the seed's pull check
 * has it (exit 1, README), with a hint: the nearest catalog name when one
 * is close (case-insensitive, or within two edits), and where the names
 * are listed. */
static void
test_cli_check_unknown_name (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rn = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  run_cli (&r, "check", "qwen2.5-14b", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
                   "  refused: \"qwen2.5-14b\" is not on the menu: it is not in the catalog\n"
                   "  hint: did you mean qwen2.5:14b? \"headroom-cli catalog\" lists the names\n");

  run_cli (&rn, "check", "nothing-like-it:1b", NULL);
  g_assert_cmpint (rn.status, ==, 1);
  g_assert_cmpstr (rn.out, ==,
                   "  refused: \"nothing-like-it:1b\" is not on the menu: it is not in the catalog\n"
                   "  hint: \"headroom-cli catalog\" lists the names\n");

  run_cli (&rj, "check", "Llama3.2:3B", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 1);
  g_assert_true (json_parser_load_from_data (parser, rj.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_get_boolean_member (o, "allowed"));
  g_assert_cmpstr (json_object_get_string_member (o, "suggestion"), ==, "llama3.2:3b");
}

static void
test_cli_bad_arguments (void)
{
  static const struct { const char *args[6]; const char *err; } cases[] = {
    { { "weights", "--parameters", "7", "--precision", "int3" }, "headroom-cli: unknown precision \"int3\"; choose one of: fp32, fp16, bf16, f16, q8_0, int8, q6_K, q5_K_M, q4_K_M, q4_0, int4, q5_1, q5_0, q5_K_S, q4_1, q4_K_S, iq4_nl, iq4_xs, mxfp4_moe, q3_K_L, q3_K_M, q3_K_S, iq3_s, iq3_m, iq3_xs, iq3_xxs, q2_K, q2_K_S, iq2_s, iq2_m, iq2_xs, iq2_xxs, iq1_m, iq1_s\n" },
    { { "weights", "--count", "-5", "--precision", "int4" }, "headroom-cli: --count must be a whole number of parameters from 1 to 100,000,000,000,000, not \"-5\"\n" },
    { { "weights", "--count", "many", "--precision", "int4" }, "headroom-cli: --count must be a whole number of parameters from 1 to 100,000,000,000,000, not \"many\"\n" },
    { { "weights", "--parameters", "abc", "--precision", "int4" }, "headroom-cli: --parameters must be a positive number of billions up to 100,000, not \"abc\"\n" },
    { { "weights", "--precision", "int4" }, "headroom-cli: give exactly one of --parameters BILLIONS or --count N\n" },
    { { "fit", "--context", "0" }, "headroom-cli: --context must be a whole number from 1 to 67108864, not \"0\"\n" },
    { { "fit", "--board", "raspberry-pi" }, NULL },
    { { "fit", "--kv-type", "f32" }, "headroom-cli: --kv-type must be f16, q8_0 or q4_0, not \"f32\"\n" },
    { { "fit", "--parallel", "0" }, "headroom-cli: --parallel must be a whole number from 1 to 64, not \"0\"\n" },
    { { "check" }, "headroom-cli: check takes one model name, e.g. headroom-cli check llama3.2:3b\n" },
    /* A name not in the catalog: the nearest one when it is close. */
    { { "predict", "lama3.2:3b" }, "headroom-cli: \"lama3.2:3b\" is not in the catalog (did you mean llama3.2:3b?); run \"headroom-cli catalog\" to see the names\n" },
    { { "predict", "QWEN2.5:14B" }, "headroom-cli: \"QWEN2.5:14B\" is not in the catalog (did you mean qwen2.5:14b?); run \"headroom-cli catalog\" to see the names\n" },
    { { "predict", "zzz:1b" }, "headroom-cli: \"zzz:1b\" is not in the catalog; run \"headroom-cli catalog\" to see the names\n" },
    { { "dashboard", "--models", "llama3.2:3b,qwen2.5-14b" }, "headroom-cli: \"qwen2.5-14b\" is not in the catalog (did you mean qwen2.5:14b?); run \"headroom-cli catalog\" to see the names\n" },
    /* An empty --models list or name is a usage error, not an empty table. */
    { { "fit", "--models", "" }, "headroom-cli: --models needs at least one name, comma-separated\n" },
    { { "catalog", "--models", " , " }, "headroom-cli: --models needs at least one name, comma-separated\n" },
    { { "fit", "--models", "llama3.2:3b,,gemma2:2b" }, "headroom-cli: --models has an empty name in \"llama3.2:3b,,gemma2:2b\" (two commas, or one at an end)\n" },
    { { "dashboard", "--models", "llama3.2:3b," }, "headroom-cli: --models has an empty name in \"llama3.2:3b,\" (two commas, or one at an end)\n" },
    { { "matrix", "--models", "" }, "headroom-cli: --models needs at least one name, comma-separated\n" },
    { { "matrix", "--boards", "dgx-spark,,rtx-3090" }, "headroom-cli: --boards has an empty name in \"dgx-spark,,rtx-3090\" (two commas, or one at an end)\n" },
    { { "matrix", "--boards", "dgx-spark,nosuch" }, "headroom-cli: unknown board \"nosuch\"; the boards are: jetson-orin-nano-super, dgx-spark, rtx-3060-12gb, "
                                                    "rtx-3090, rtx-4090, mac-m3-pro-18gb, mac-m4-pro-24gb, mac-m2-max-32gb, mac-m4-max-64gb, 2x-rtx-3090, rtx-3090-rtx-4090, rtx-5090-rtx-3090, "
                                "rtx-4060ti-16gb-rtx-3060-12gb, 4x-rtx-3090, 2x-rtx-a6000\n" },
    { { "frobnicate" }, "headroom-cli: unknown command \"frobnicate\"; run \"headroom-cli --help\" for the list\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };

      run_cli (&r, cases[i].args[0], cases[i].args[1], cases[i].args[2], cases[i].args[3], cases[i].args[4], NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_cmpstr (r.out, ==, "");
      if (cases[i].err != NULL)
        g_assert_cmpstr (r.err, ==, cases[i].err);
      else
        g_assert_true (g_str_has_prefix (r.err, "headroom-cli: unknown board \"raspberry-pi\"; the boards are: jetson-orin-nano-super, dgx-spark"));
      /* one line */
      g_assert_true (g_str_has_suffix (r.err, "\n"));
      g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
    }
}

/* A file that cannot be opened is said in words, with the system's reason,
 * and exits 1 as every file that cannot be read does. */
static void
test_cli_unreadable_files (void)
{
  g_autofree char *missing = g_build_filename (g_get_user_data_dir (), "no-such-model.gguf", NULL);
  g_autofree char *catalog = g_build_filename (g_get_user_data_dir (), "no-such-catalog.json", NULL);
  g_autofree char *folder = g_dir_make_tmp ("headroom-folder-XXXXXX", NULL);
  g_autofree char *expected = NULL;
  g_auto(Run) rg = { 0 };
  g_auto(Run) rd = { 0 };
  g_auto(Run) rp = { 0 };
  g_auto(Run) rc = { 0 };

  run_cli (&rg, "gguf", missing, NULL);
  g_assert_cmpint (rg.status, ==, 1);
  g_assert_cmpstr (rg.out, ==, "");
  expected = g_strdup_printf ("headroom-cli: cannot open %s: %s; check the path, or find a model Ollama pulled with "
                              "--ollama-models DIR MODEL[:TAG]\n", missing, g_strerror (ENOENT));
  g_assert_cmpstr (rg.err, ==, expected);
  g_clear_pointer (&expected, g_free);

  run_cli (&rd, "gguf", folder, NULL);
  g_assert_cmpint (rd.status, ==, 1);
  expected = g_strdup_printf ("headroom-cli: cannot open %s: it is a folder, not a file\n", folder);
  g_assert_cmpstr (rd.err, ==, expected);
  g_clear_pointer (&expected, g_free);
  g_rmdir (folder);

  /* predict takes FILE.gguf too: a missing one is not "not in the catalog". */
  run_cli (&rp, "predict", missing, NULL);
  g_assert_cmpint (rp.status, ==, 1);
  expected = g_strdup_printf ("headroom-cli: cannot open %s: %s\n", missing, g_strerror (ENOENT));
  g_assert_cmpstr (rp.err, ==, expected);
  g_clear_pointer (&expected, g_free);

  run_cli (&rc, "fit", "--catalog", catalog, NULL);
  g_assert_cmpint (rc.status, ==, 1);
  g_assert_cmpstr (rc.out, ==, "");
  expected = g_strdup_printf ("headroom-cli: cannot open %s: %s\n", catalog, g_strerror (ENOENT));
  g_assert_cmpstr (rc.err, ==, expected);
}

static void
test_cli_malformed_user_catalog (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);
  g_autofree char *path = g_build_filename (dir, "catalog.json", NULL);
  g_autofree char *after = NULL;
  const char *broken = "{ \"version\": 1, \"models\": [ { \"name\": \"mine\" ";
  g_auto(Run) r = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, broken, -1, NULL));

  /* The command still runs on the built-in catalog, says why it skipped
   * the user's file, and leaves the file alone. */
  {
    const char *env_xdg = g_get_user_data_dir ();
    g_auto(GStrv) envp = g_get_environ ();
    const char *argv[] = { g_getenv ("HEADROOM_CLI"), "fit", "--models", "llama3.2:3b", NULL };
    int wait_status;

    envp = g_environ_setenv (envp, "XDG_DATA_HOME", env_xdg, TRUE);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                                 &r.out, &r.err, &wait_status, NULL));
    g_assert_cmpint (WEXITSTATUS (wait_status), ==, 0);
  }
  g_assert_true (g_str_has_prefix (r.err, "headroom-cli: skipped your catalog (it is left as it is): "));
  g_assert_nonnull (strstr (r.err, path));
  g_assert_nonnull (strstr (r.err, "not valid JSON"));
  g_assert_nonnull (strstr (r.out, "llama3.2:3b         2.0     0.47    2.47   fits, 2.63 GB under budget\n"));
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, broken);
}

static void
test_cli_missing_builtin_data (void)
{
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "HEADROOM_DATA_DIR", "/nonexistent/headroom-data", TRUE);
  const char *argv[] = { g_getenv ("HEADROOM_CLI"), "fit", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int wait_status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &wait_status, NULL));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, "headroom-cli: Headroom's built-in data is missing (reinstall it, or set HEADROOM_DATA_DIR to the data/ folder of its source tree): "));
  g_assert_nonnull (strstr (err, "/nonexistent/headroom-data/catalog.json"));
}

/* What an interrupted save left beside the user's catalog.json
 * (catalog.json.XXXXXX, untouched for a minute) is removed on the next
 * start; the catalog itself, broken here, is never rewritten. */
static void
test_cli_stale_temporaries (void)
{
  g_auto(Run) r = { 0 };
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);
  g_autofree char *catalog = g_build_filename (dir, "catalog.json", NULL);
  g_autofree char *left = g_build_filename (dir, "catalog.json.Qx81aB", NULL);
  g_autofree char *contents = NULL;
  struct utimbuf old = { 1000000000, 1000000000 };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (catalog, "{\"version\": 1, \"models\": [", -1, NULL));
  g_assert_true (g_file_set_contents (left, "{\"version\": 1, \"mod", -1, NULL));
  g_assert_cmpint (g_utime (left, &old), ==, 0);

  run_cli (&r, "catalog", "--models", "llama3.2:3b", NULL);
  g_assert_false (g_file_test (left, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (catalog, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{\"version\": 1, \"models\": [");
  g_assert_cmpint (g_unlink (catalog), ==, 0);
}

/* A GGUF's general.architecture with an escape sequence is
 * printed escaped, on the architecture line and in the "not sized" note. */
static void
test_cli_gguf_architecture_escaped (void)
{
  g_auto(Run) r = { 0 };
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "escape.gguf", NULL);
  GgufWriter *w = gw_new ();
  g_autoptr(GBytes) bytes = NULL;

  gw_header (w, 3, 0, 1);
  gw_kv_str (w, "general.architecture", "evil\033[2J\033]0;owned\007");
  bytes = g_byte_array_free_to_bytes (w);
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));

  run_cli (&r, "gguf", path, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_null (strchr (r.out, '\033'));
  g_assert_null (strchr (r.err, '\033'));
  g_assert_null (strchr (r.out, '\007'));
  g_assert_nonnull (strstr (r.out, "architecture        evil\\x1b[2J\\x1b]0;owned\\x07\n"));
}

/* The "--name" options in @text (each followed by something that is not
 * part of a name) added to @into. */
static void
collect_options (GHashTable *into,
                 const char *text)
{
  g_autoptr(GRegex) re = g_regex_new ("(?<![A-Za-z0-9-])--([a-z][a-z-]*[a-z])", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  g_regex_match (re, text, 0, &match);
  while (g_match_info_matches (match))
    {
      g_hash_table_add (into, g_match_info_fetch (match, 1));
      g_match_info_next (match, NULL);
    }
}

/* The top-level --help keeps up with the commands: every option a
 * command's own --help lists is in that command's lines of the summary,
 * in SIZING where a line says [SIZING], or --json in the Usage line.
 * (It once lacked ollama --timeout and --size, predict --server-version,
 * catalog --models and measurements delete's --measurements.) */
/* The commands whose --help the summary must cover. */
static const char *help_commands[] = { "weights", "catalog", "fit", "dashboard", "check", "predict", "matrix",
                                       "gguf", "hub", "library", "ollama", "measurements", "boards" };

/* `headroom-cli --help`, in lines; @sizing set to its "  SIZING: " line.
 * Returns: (transfer full) */
static GStrv
top_help_lines (const char **sizing)
{
  g_auto(Run) top = { 0 };
  GStrv lines;

  run_cli (&top, "--help", NULL);
  g_assert_cmpint (top.status, ==, 0);
  g_assert_true (g_str_has_prefix (top.out, "Usage: headroom-cli COMMAND [OPTIONS] [--json]\n"));
  lines = g_strsplit (top.out, "\n", -1);
  *sizing = NULL;
  for (guint k = 0; lines[k] != NULL; k++)
    if (g_str_has_prefix (lines[k], "  SIZING: "))
      *sizing = lines[k];
  g_assert_nonnull (*sizing);
  return lines;
}

/* The options `headroom-cli NAME --help` lists, --help and --help-all left out.
 * Returns: (transfer full) */
static GHashTable *
listed_options (const char *name)
{
  g_auto(Run) help = { 0 };
  GHashTable *listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) help_lines = NULL;

  run_cli (&help, name, "--help", NULL);
  g_assert_cmpint (help.status, ==, 0);
  help_lines = g_strsplit (help.out, "\n", -1);
  for (guint k = 0; help_lines[k] != NULL; k++)
    if (g_regex_match_simple ("^\\s+--[a-z]", help_lines[k], 0, 0))
      {
        g_auto(GStrv) words = g_strsplit_set (g_strstrip (help_lines[k]), " =", 2);
        collect_options (listed, words[0]);
      }
  g_hash_table_remove (listed, "help");
  g_hash_table_remove (listed, "help-all");
  g_assert_cmpuint (g_hash_table_size (listed), >, 0);
  return listed;
}

/* Every option a command's --help lists is in the top-level summary. */
static void
test_cli_help_lists_options (gconstpointer data)
{
  const char *name = data;
  const char *sizing;
  g_auto(GStrv) lines = top_help_lines (&sizing);
  g_autoptr(GHashTable) listed = listed_options (name);
  g_autoptr(GHashTable) summary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *prefix = g_strdup_printf ("  headroom-cli %s ", name);
  GHashTableIter iter;
  gpointer option;
  guint n_lines = 0;

  g_hash_table_add (summary, g_strdup ("json"));
  for (guint k = 0; lines[k] != NULL; k++)
    if (g_str_has_prefix (lines[k], prefix))
      {
        n_lines++;
        collect_options (summary, lines[k]);
        if (strstr (lines[k], "[SIZING]") != NULL)
          collect_options (summary, sizing);
      }
  g_assert_cmpuint (n_lines, >, 0);
  g_hash_table_iter_init (&iter, listed);
  while (g_hash_table_iter_next (&iter, &option, NULL))
    {
      g_test_message ("%s --%s", name, (const char *) option);
      g_assert_true (g_hash_table_contains (summary, option));
    }
}

/* Every command in the summary is checked by the cases above. */
static void
test_cli_help_every_command (void)
{
  const char *sizing;
  g_auto(GStrv) lines = top_help_lines (&sizing);
  guint n = 0;

  for (guint k = 0; lines[k] != NULL; k++)
    if (g_str_has_prefix (lines[k], "  headroom-cli "))
      {
        g_autofree char *name = g_strndup (lines[k] + 15, strcspn (lines[k] + 15, " "));
        gboolean known = FALSE;

        for (guint i = 0; i < G_N_ELEMENTS (help_commands); i++)
          known |= g_str_equal (name, help_commands[i]);
        g_assert_true (known);
        n++;
      }
  g_assert_cmpuint (n, >=, G_N_ELEMENTS (help_commands));
}

/* headroom-cli reads the translations where HEADROOM_LOCALE_DIR points (meson
 * test sets it to the build's po/), as the window does: an uninstalled
 * build speaks German with LANGUAGE=de. */
static void
test_cli_german (void)
{
  g_auto(GStrv) envp = g_get_environ ();
  const char *argv[] = { g_getenv ("HEADROOM_CLI"), "--help", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int wait_status;

  if (g_getenv ("HEADROOM_LOCALE_DIR") == NULL)
    {
      g_test_skip ("HEADROOM_LOCALE_DIR is not set");
      return;
    }
  envp = g_environ_setenv (envp, "LANGUAGE", "de", TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &wait_status, NULL));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_str_has_prefix (out, "Aufruf: headroom-cli BEFEHL [OPTIONEN] [--json]\n\nBefehle:\n"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cli/weights", test_cli_weights);
  g_test_add_func ("/cli/weights-json", test_cli_weights_json);
  g_test_add_func ("/cli/catalog", test_cli_catalog);
  g_test_add_func ("/cli/fit", test_cli_fit);
  g_test_add_func ("/cli/fit-absurd-context", test_cli_fit_absurd_context);
  g_test_add_func ("/cli/dashboard", test_cli_dashboard);
  g_test_add_func ("/cli/long-names", test_cli_long_names);
  g_test_add_func ("/cli/dashboard-empty-archive", test_cli_dashboard_empty_archive);
  for (guint i = 0; i < G_N_ELEMENTS (check_cases); i++)
    g_test_add_data_func (check_cases[i].path, &check_cases[i], test_cli_check);
  g_test_add_func ("/cli/check/hint-scenario", test_cli_check_hint_scenario);
  g_test_add_func ("/cli/check/json-unknown", test_cli_check_json_unknown);
  g_test_add_func ("/cli/check/json-rates", test_cli_check_json_rates);
  g_test_add_func ("/cli/check-unknown-name", test_cli_check_unknown_name);
  for (guint i = 0; i < G_N_ELEMENTS (help_commands); i++)
    {
      g_autofree char *path = g_strconcat ("/cli/help-lists-options/", help_commands[i], NULL);

      g_test_add_data_func (path, help_commands[i], test_cli_help_lists_options);
    }
  g_test_add_func ("/cli/help-lists-options/every-command", test_cli_help_every_command);
  g_test_add_func ("/cli/bad-arguments", test_cli_bad_arguments);
  g_test_add_func ("/cli/unreadable-files", test_cli_unreadable_files);
  g_test_add_func ("/cli/malformed-user-catalog", test_cli_malformed_user_catalog);
  g_test_add_func ("/cli/missing-builtin-data", test_cli_missing_builtin_data);
  g_test_add_func ("/cli/gguf-architecture-escaped", test_cli_gguf_architecture_escaped);
  g_test_add_func ("/cli/stale-temporaries", test_cli_stale_temporaries);
  g_test_add_func ("/cli/german", test_cli_german);
  return g_test_run ();
}
