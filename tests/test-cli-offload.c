/* test-cli-offload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli on a discrete GPU with host memory: the RTX 3060
 * 12 GB board of data/boards.json has no measurement, so its rates are the
 * discrete-NVIDIA prior (data/priors.json, 0.67; the CPU's 0.75), and a
 * model that does not fit its VRAM is split as llama.cpp's fit places it
 * (app/core/runtime/hr-offload.c). The figures are the core's; these tests pin how
 * fit, dashboard, check, predict and matrix print them, and check the fit
 * finders by predicting at the answer and one step past it.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli-test-util.h"

#define BOARD "rtx-3060-12gb"
#define NOTE "note: the rates on rtx-3060-12gb are a prior, not a measurement: efficiency 0.67 for discrete-nvidia hardware, the mean of 3 published runs (data/priors.json).\n" \
             "      Measure one model on it (headroom-cli ollama measure MODEL) and its rates become its own.\n"


static JsonObject *
parse (JsonParser *parser,
       const Run  *r)
{
  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r->out, -1, NULL));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_fit (void)
{
  g_auto(Run) r = { 0 };

  /* qwen2.5:14b at 32,768 tokens: 34 of its 49 layers (48 blocks + output)
   * fit the 10,811,160,064 bytes left of 11.88 GB free VRAM after the
   * 1024 MiB margin; the rest is in host memory. */
  run_cli (&r, "fit", "--board", BOARD, "--models", "qwen2.5:0.5b,qwen2.5:14b", "--context", "32768", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "budget 11.4 GB: a 12.9 GB pool, 1.0 GB resident, 0.5 GB held back\n"
                   "host memory 34.4 GB, 4.0 GB resident: 30.4 GB free for the layers that do not fit the GPU\n"
                   "model           weights kv@32768   total  layers    VRAM    host  processor        verdict\n"
                   "qwen2.5:0.5b        0.4     0.40    1.08   25/25    0.94    0.15  100% GPU         fits, 10.45 GB under budget\n"
                   "qwen2.5:14b         9.0     6.44   15.91   34/49   10.65    5.27  33%/67% CPU/GPU  partial 34/49, 25.09 GB of host memory left\n");
}

static void
test_fit_json (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o, *m14, *m05;

  run_cli (&r, "fit", "--board", BOARD, "--models", "qwen2.5:0.5b,qwen2.5:14b", "--context", "32768", "--json", NULL);
  o = parse (parser, &r);
  m05 = json_array_get_object_element (json_object_get_array_member (o, "models"), 0);
  m14 = json_array_get_object_element (json_object_get_array_member (o, "models"), 1);
  g_assert_cmpstr (json_object_get_string_member (m14, "verdict"), ==, "partial");
  g_assert_cmpint (json_object_get_int_member (m14, "gpu_layers"), ==, 34);
  g_assert_cmpint (json_object_get_int_member (m14, "total_layers"), ==, 49);
  g_assert_cmpint (json_object_get_int_member (m14, "vram_bytes"), ==, G_GINT64_CONSTANT (10645148128));
  g_assert_cmpint (json_object_get_int_member (m14, "host_bytes"), ==, G_GINT64_CONSTANT (5267580960));
  g_assert_cmpint (json_object_get_int_member (m14, "total_bytes"), ==, G_GINT64_CONSTANT (10645148128) + G_GINT64_CONSTANT (5267580960));
  g_assert_cmpstr (json_object_get_string_member (m14, "processor"), ==, "33%/67% CPU/GPU");
  g_assert_cmpstr (json_object_get_string_member (m14, "source"), ==, "prior");
  g_assert_cmpstr (json_object_get_string_member (m14, "speed"), ==, "likely ok");
  g_assert_cmpstr (json_object_get_string_member (m05, "processor"), ==, "100% GPU");
  g_assert_cmpint (json_object_get_int_member (m05, "gpu_layers"), ==, 25);
  g_assert_cmpstr (json_object_get_string_member (m05, "source"), ==, "prior");
}

static void
test_dashboard (void)
{
  g_auto(Run) r = { 0 };

  /* 0.5b: 360 GB/s / its 0.4 GB file = 900.0 t/s ceiling, x 0.67 = 603.0.
   * 14b: t = 6,019,621,344 / (360e9 x 0.67) + 2,532,702,240 / (51.2e9 x
   * 0.75) = 25.0 + 66.0 ms = 11.0 t/s, above the 10.2 t/s floor. */
  run_cli (&r, "dashboard", "--board", BOARD, "--models", "qwen2.5:0.5b,qwen2.5:14b", "--context", "32768", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "======================================================================\n"
                   "  Model budget 11.4 GB   floor 10.2 t/s   peak 360 GB/s\n"
                   "======================================================================\n"
                   "  model          total GB  memory   layers  processor         ceiling    t/s  source        speed\n"
                   "  qwen2.5:0.5b       1.08  fits      25/25  100% GPU            900.0  603.0  prior         likely ok\n"
                   "  qwen2.5:14b       15.91  partial   34/49  33%/67% CPU/GPU      15.1   11.0  prior         likely ok\n"
                   "----------------------------------------------------------------------\n"
                   "  recommended: qwen2.5:0.5b\n"
                   "======================================================================\n"
                   NOTE);
}

static void
test_check (void)
{
  g_auto(Run) r05 = { 0 };
  g_auto(Run) r14 = { 0 };
  g_auto(Run) r32 = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  /* No measurement on the board: allowed on the prior, said once. */
  run_cli (&r05, "check", "qwen2.5:0.5b", "--board", BOARD, NULL);
  g_assert_cmpint (r05.status, ==, 0);
  g_assert_cmpstr (r05.out, ==,
                   "  allowed: qwen2.5:0.5b fits, 10.89 GB under budget, and decodes at 603.0 t/s (prior)\n"
                   NOTE);

  run_cli (&r14, "check", "qwen2.5:14b", "--board", BOARD, "--context", "32768", NULL);
  g_assert_cmpint (r14.status, ==, 0);
  g_assert_cmpstr (r14.out, ==,
                   "  allowed: qwen2.5:14b partial 34/49, 25.09 GB of host memory left, and decodes at 11.0 t/s (prior)\n"
                   "  split: 34/49 layers on the GPU, 10.65 GB VRAM + 5.27 GB host memory (33%/67% CPU/GPU)\n"
                   NOTE);

  /* Under the floor on the prior: refused for that, and the note once. */
  run_cli (&r32, "check", "qwen2.5:32b", "--board", BOARD, NULL);
  g_assert_cmpint (r32.status, ==, 1);
  g_assert_cmpstr (r32.out, ==,
                   "  refused: qwen2.5:32b would decode at about 3.4 t/s (predicted from the published efficiency of its kind of board, not measured), under the 10.2 t/s floor\n"
                   "  split: 33/65 layers on the GPU, 10.73 GB VRAM + 10.75 GB host memory (50%/50% CPU/GPU)\n"
                   NOTE);

  run_cli (&rj, "check", "qwen2.5:14b", "--board", BOARD, "--context", "32768", "--json", NULL);
  o = parse (parser, &rj);
  g_assert_true (json_object_get_boolean_member (o, "allowed"));
  g_assert_cmpstr (json_object_get_string_member (o, "source"), ==, "prior");
  g_assert_cmpint (json_object_get_int_member (o, "gpu_layers"), ==, 34);
  g_assert_cmpint (json_object_get_int_member (o, "total_layers"), ==, 49);
  g_assert_cmpstr (json_object_get_string_member (o, "processor"), ==, "33%/67% CPU/GPU");
}

static void
test_predict (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rn = { 0 };
  g_auto(Run) rw = { 0 };
  const char *split;

  run_cli (&r, "predict", "qwen2.5:14b", "--board", BOARD, "--context", "32768", NULL);
  g_assert_cmpint (r.status, ==, 0);
  split = strstr (r.out, "\non NVIDIA GeForce RTX 3060 12 GB, as Ollama 0.30+ and llama.cpp's fit place it:\n");
  g_assert_nonnull (split);
  g_assert_true (g_str_has_prefix (split,
                   "\non NVIDIA GeForce RTX 3060 12 GB, as Ollama 0.30+ and llama.cpp's fit place it:\n"
                   "  free VRAM 11,884,901,888 bytes less the 1024 MiB fit margin: 10,811,160,064 bytes for the model\n"
                   "  layers: 34/49 on the GPU (the output layer and the last blocks), 15 on the CPU\n"
                   "  VRAM: 10,645,148,128 bytes (10.65 GB): weights 6,019,621,344, KV cache 4,429,185,024, compute 196,341,760\n"
                   "  host: 5,267,580,960 bytes (5.27 GB): weights 2,980,378,656, KV cache 2,013,265,920, compute 273,936,384\n"
                   "  (host weights include the token embedding, 447,676,416 bytes, always in host memory)\n"
                   "  ollama ps would show: 15 GB, PROCESSOR 33%/67% CPU/GPU\n"
                   "  verdict: partial 34/49, 25.09 GB of host memory left\n"
                   "  decode: t = 6,019,621,344 bytes / (360.0 GB/s x 0.67) on the GPU + 2,532,702,240 bytes / (51.2 GB/s x 0.75) on the CPU = 25.0 ms + 66.0 ms = 90.9 ms per token: 11.0 t/s\n"
                   "  rate: 11.0 t/s (prior), speed likely ok\n"));
  /* The one-pool verdict ("over") is not printed on a board that splits. */
  g_assert_null (strstr (r.out, "(budget 11.4 GB)"));

  /* At 4,096 tokens every layer fits: the dashboard's rate, 360 / 9.0 x 0.67. */
  run_cli (&rw, "predict", "qwen2.5:14b", "--board", BOARD, NULL);
  g_assert_cmpint (rw.status, ==, 0);
  g_assert_nonnull (strstr (rw.out,
                            "  ollama ps would show: 9.5 GB, PROCESSOR 100% GPU\n"
                            "  verdict: fits, 1.92 GB under budget\n"
                            "  decode: every layer on the GPU: 360.0 GB/s / 9,000,000,000 bytes of weights = 40.0 t/s ceiling, x 0.67 = 26.8 t/s\n"
                            "  rate: 26.8 t/s (prior), speed likely ok\n"));

  /* num_gpu 20: -ngl 20, no fit. */
  run_cli (&rn, "predict", "qwen2.5:14b", "--board", BOARD, "--context", "32768", "--num-gpu", "20", NULL);
  g_assert_cmpint (rn.status, ==, 0);
  g_assert_nonnull (strstr (rn.out, "  num_gpu 20: 20 of 49 layers on the GPU, as -ngl puts them (no fit)\n"));
  g_assert_nonnull (strstr (rn.out, "  ollama ps would show: 15 GB, PROCESSOR 60%/40% CPU/GPU\n"));
  g_assert_nonnull (strstr (rn.out, "  rate: 7.0 t/s (prior), speed likely slow\n"));
}

static void
test_predict_json (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  run_cli (&r, "predict", "qwen2.5:14b", "--board", BOARD, "--context", "32768", "--json", NULL);
  o = parse (parser, &r);
  g_assert_cmpint (json_object_get_int_member (o, "gpu_layers"), ==, 34);
  g_assert_cmpint (json_object_get_int_member (o, "total_layers"), ==, 49);
  g_assert_cmpint (json_object_get_int_member (o, "vram_bytes"), ==, G_GINT64_CONSTANT (10645148128));
  g_assert_cmpint (json_object_get_int_member (o, "host_bytes"), ==, G_GINT64_CONSTANT (5267580960));
  g_assert_cmpstr (json_object_get_string_member (o, "processor"), ==, "33%/67% CPU/GPU");
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "partial");
  g_assert_cmpstr (json_object_get_string_member (o, "source"), ==, "prior");
  g_assert_cmpstr (json_object_get_string_member (o, "speed"), ==, "likely ok");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "tps"), 11.0, 0.05);
}

/* predict --json at a context (and precision): the verdict and rate. */
static void
predict_at (const char *model,
            const char *context,
            const char *precision,
            char      **out_verdict,
            double     *out_tps)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  if (precision != NULL)
    run_cli (&r, "predict", model, "--board", BOARD, "--context", context, "--precision", precision, "--json", NULL);
  else
    run_cli (&r, "predict", model, "--board", BOARD, "--context", context, "--json", NULL);
  o = parse (parser, &r);
  *out_verdict = g_strdup (json_object_get_string_member (o, "verdict"));
  *out_tps = json_object_get_double_member (o, "tps");
}

/* The old scheduler's automatic slots on the board (Ollama 0.5.7 tries 4,
 * then 1, against the free VRAM: 12.88 GB less 1.0 GB resident): llama3.2:3b
 * with 4 slots fits at 12,288 tokens (10.94 GB), not at 16,384, where the
 * server falls back to 1 slot and loads less (5.37 GB = the 4 x 4,096 KV
 * tokens of the first). The runtime sizes the catalog's exact blob
 * (2,019,377,376 bytes) and parameter count (3,212,749,888), not the
 * seed's rounded 2.0 GB and 3.2B listing. */
static void
test_predict_old_scheduler_slots (void)
{
  static const struct { const char *context; gint64 slots, total; const char *note; } cases[] = {
    { "12288", 4, G_GINT64_CONSTANT (10942827547), "Automatic parallel slots: 4 fit the free memory (server/sched.go tries 4, then 1)." },
    { "16384", 1, G_GINT64_CONSTANT (5372791835), "Automatic parallel slots: 4 did not fit the free memory, so 1 (server/sched.go)." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o;
      JsonArray *notes;

      run_cli (&r, "predict", "llama3.2:3b", "--runtime", "ollama-0.12", "--server-version", "0.5.7",
               "--board", BOARD, "--context", cases[i].context, "--json", NULL);
      o = parse (parser, &r);
      g_assert_cmpint (json_object_get_int_member (o, "parallel_slots"), ==, cases[i].slots);
      g_assert_cmpint (json_object_get_int_member (o, "total_bytes"), ==, cases[i].total);
      notes = json_object_get_array_member (o, "notes");
      g_assert_cmpstr (json_array_get_string_element (notes, json_array_get_length (notes) - 1), ==, cases[i].note);
    }
}

static void
test_max_context (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *v1 = NULL, *v2 = NULL, *v3 = NULL, *v4 = NULL;
  double t1, t2, t3, t4;
  JsonObject *o, *gpu, *partial;

  run_cli (&r, "predict", "gemma3:12b", "--board", BOARD, "--max-context", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "largest context all on the GPU (fits): 30,464 tokens\n"
                   "  49/49 layers on the GPU, 10.80 GB VRAM + 0.65 GB host, 100% GPU; fits, 0.58 GB under budget; 29.8 t/s (prior, likely ok)\n"
                   "largest context with partial offload, at or above the 10.2 t/s floor: 115,968 tokens\n"
                   "  31/49 layers on the GPU, 10.81 GB VRAM + 7.15 GB host, 40%/60% CPU/GPU; partial 31/49, 23.21 GB of host memory left; 10.5 t/s (prior, likely ok)\n");

  run_cli (&rj, "predict", "gemma3:12b", "--board", BOARD, "--max-context", "--json", NULL);
  o = json_object_get_object_member (parse (parser, &rj), "max_context");
  gpu = json_object_get_object_member (o, "gpu");
  partial = json_object_get_object_member (o, "partial");
  g_assert_cmpint (json_object_get_int_member (gpu, "context_tokens"), ==, 30464);
  g_assert_cmpint (json_object_get_int_member (partial, "context_tokens"), ==, 115968);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (partial, "at"), "gpu_layers"), ==, 31);

  /* At the answer and one 256-token step past it, predicted on their own. */
  predict_at ("gemma3:12b", "30464", NULL, &v1, &t1);
  predict_at ("gemma3:12b", "30720", NULL, &v2, &t2);
  g_assert_cmpstr (v1, ==, "fits");
  g_assert_cmpstr (v2, !=, "fits");
  predict_at ("gemma3:12b", "115968", NULL, &v3, &t3);
  predict_at ("gemma3:12b", "116224", NULL, &v4, &t4);
  g_assert_cmpstr (v3, ==, "partial");
  g_assert_cmpfloat (t3, >=, 27.0 / 2.65);
  g_assert_cmpfloat (t4, <, 27.0 / 2.65);
}

/* A unified board has one pool: the prediction at each answer says what
 * the model takes of it, the GPU's buffers and what stays in host memory
 * together, not a VRAM + host split (the discrete board's, above). */
static void
test_max_context_unified (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "predict", "llama3.1:8b", "--board", "dgx-spark", "--max-context", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "largest context all on the GPU (fits): 131,072 tokens\n"
                   "  33/33 layers on the GPU, 22.60 GB of the unified pool, 100% GPU; fits, 91.32 GB under budget; 43.5 t/s (estimate, ok)\n"
                   "largest context that still runs (fits or tight), at or above the 10.2 t/s floor: 131,072 tokens\n"
                   "  33/33 layers on the GPU, 22.60 GB of the unified pool, 100% GPU; fits, 91.32 GB under budget; 43.5 t/s (estimate, ok)\n");
}

/* The member names of @o, in order, comma-separated. */
static char *
member_names (JsonObject *o)
{
  g_autoptr(GString) names = g_string_new (NULL);
  GList *members = json_object_get_members (o);

  for (GList *l = members; l != NULL; l = l->next)
    g_string_append_printf (names, "%s%s", names->len > 0 ? "," : "", (const char *) l->data);
  g_list_free (members);
  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* One pool has no partial offload: on a unified board the finders' second
 * answer is what still runs (fits or tight), and says so; a discrete
 * board keeps "with partial offload" (test_best_precision()). The JSON
 * keys are the same on both. */
static void
test_finders_unified_labels (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rc = { 0 };
  g_auto(Run) rj = { 0 };
  g_auto(Run) rd = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) dparser = json_parser_new ();
  JsonObject *u, *d;
  g_autofree char *uk = NULL, *dk = NULL, *uat = NULL, *dat = NULL;

  run_cli (&r, "predict", "qwen2.5:14b", "--board", "jetson-orin-nano-super", "--best-precision", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "best precision all on the GPU (fits) at 4,096 tokens: iq2_xxs (2.0625 bits per weight)\n"
                   "  49/49 layers on the GPU, 4.73 GB of the unified pool, 100% GPU; fits, 0.37 GB under budget; 9.6 t/s (estimate, slow)\n"
                   "best precision that still runs (fits or tight) at 4,096 tokens: q2_K (2.625 bits per weight)\n"
                   "  49/49 layers on the GPU, 5.77 GB of the unified pool, 100% GPU; tight, 0.33 GB left above the OS; 7.6 t/s (estimate, slow)\n");

  run_cli (&rc, "predict", "qwen2.5:14b", "--board", "jetson-orin-nano-super", "--max-context", NULL);
  g_assert_cmpint (rc.status, ==, 0);
  g_assert_cmpstr (rc.out, ==,
                   "largest context all on the GPU: qwen2.5:14b does not fit Jetson Orin Nano Super's GPU even at 256 tokens\n"
                   "largest context that still runs (fits or tight): qwen2.5:14b does not run on Jetson Orin Nano Super above its floor even at 256 tokens\n");

  run_cli (&rj, "predict", "qwen2.5:14b", "--board", "jetson-orin-nano-super", "--best-precision", "--json", NULL);
  run_cli (&rd, "predict", "gemma3:12b", "--board", BOARD, "--best-precision", "--json", NULL);
  u = json_object_get_object_member (parse (parser, &rj), "best_precision");
  d = json_object_get_object_member (parse (dparser, &rd), "best_precision");
  uk = member_names (u);
  dk = member_names (d);
  g_assert_cmpstr (uk, ==, "gpu,partial");
  g_assert_cmpstr (dk, ==, uk);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (u, "partial"), "precision"), ==, "q2_K");
  uat = member_names (json_object_get_object_member (json_object_get_object_member (u, "partial"), "at"));
  dat = member_names (json_object_get_object_member (json_object_get_object_member (d, "partial"), "at"));
  g_assert_cmpstr (uat, ==, "gpu_layers,total_layers,vram_bytes,host_bytes,pool_bytes,processor,ps_size_bytes,"
                            "verdict,margin_bytes,tps,source,speed,decode");
  g_assert_cmpstr (dat, ==, "gpu_layers,total_layers,vram_bytes,host_bytes,processor,ps_size_bytes,"
                            "verdict,margin_bytes,tps,source,speed,decode");
}

/* predict --json on @board at @context (and @precision): the verdict, the
 * margin and what the model takes of the pool. */
static void
predict_pool (const char *model,
              const char *board,
              guint32     context,
              const char *precision,
              char      **out_verdict,
              gint64     *out_margin,
              gint64     *out_pool)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *tokens = g_strdup_printf ("%u", context);
  JsonObject *o;

  if (precision != NULL)
    run_cli (&r, "predict", model, "--board", board, "--context", tokens, "--precision", precision, "--json", NULL);
  else
    run_cli (&r, "predict", model, "--board", board, "--context", tokens, "--json", NULL);
  o = parse (parser, &r);
  *out_verdict = g_strdup (json_object_get_string_member (o, "verdict"));
  *out_margin = json_object_get_int_member (o, "margin_bytes");
  *out_pool = json_object_get_int_member (o, "pool_footprint_bytes");
}

/* A finder's "at" object against predict at its answer: the same verdict,
 * margin and pool figure. */
static void
assert_same_as_predict (JsonObject *at,
                        const char *model,
                        const char *board,
                        guint32     context,
                        const char *precision)
{
  g_autofree char *verdict = NULL;
  gint64 margin, pool;

  predict_pool (model, board, context, precision, &verdict, &margin, &pool);
  g_assert_cmpstr (json_object_get_string_member (at, "verdict"), ==, verdict);
  g_assert_cmpint (json_object_get_int_member (at, "margin_bytes"), ==, margin);
  g_assert_cmpint (json_object_get_int_member (at, "pool_bytes"), ==, pool);
}

/* On unified boards the finders judge what predict judges at their answer:
 * the runtime total and what stays in host memory, against the budget. At
 * --max-context's answer predict gives the same verdict and figure, one
 * step (256 tokens) further it no longer fits (or runs); at
 * --best-precision's answer predict gives the same. (The finders once
 * judged the GPU's buffers alone: llama3.2:3b "fit" the Jetson at 25,600
 * tokens, "0.01 GB under budget", where predict at 25,600 said tight.) */
static void
test_finders_unified_agree (void)
{
  static const struct { const char *model, *board; } cases[] = {
    { "llama3.2:3b", "jetson-orin-nano-super" },
    { "qwen3:4b", "jetson-orin-nano-super" },
    { "phi4-mini", "jetson-orin-nano-super" },
    { "llama3.1:8b", "mac-m3-pro-18gb" },
    { "gemma3:27b", "mac-m2-max-32gb" },
  }; /* none of them runs at its model's whole context there, so a next step exists */

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };
      g_auto(Run) rp = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonParser) pparser = json_parser_new ();
      JsonObject *o;

      run_cli (&r, "predict", cases[i].model, "--board", cases[i].board, "--max-context", "--json", NULL);
      o = json_object_get_object_member (parse (parser, &r), "max_context");
      for (guint k = 0; k < 2; k++)
        {
          JsonObject *answer = json_object_get_object_member (o, k == 0 ? "gpu" : "partial");
          guint32 context = (guint32) json_object_get_int_member (answer, "context_tokens");
          g_autofree char *verdict = NULL;
          gint64 margin, pool;

          assert_same_as_predict (json_object_get_object_member (answer, "at"), cases[i].model, cases[i].board, context, NULL);
          predict_pool (cases[i].model, cases[i].board, context + 256, NULL, &verdict, &margin, &pool);
          if (k == 0)
            g_assert_cmpstr (verdict, !=, "fits");
          else
            g_assert_cmpstr (verdict, ==, "over");
        }

      run_cli (&rp, "predict", cases[i].model, "--board", cases[i].board, "--best-precision", "--context", "8192", "--json", NULL);
      o = json_object_get_object_member (parse (pparser, &rp), "best_precision");
      for (guint k = 0; k < 2; k++)
        {
          JsonObject *answer = json_object_get_object_member (o, k == 0 ? "gpu" : "partial");

          assert_same_as_predict (json_object_get_object_member (answer, "at"), cases[i].model, cases[i].board, 8192,
                                  json_object_get_string_member (answer, "precision"));
        }
    }
}

/* A Jetson archive with two measured sizes of llama3.2:3b at Ollama 0.31.2:
 * the board's learned overhead, which predict adds to the runtime total. */
static const char learned_json[] =
  "{\"board\": \"jetson-orin-nano-super\", \"model\": \"llama3.2:3b\", \"date\": \"2026-11-29\","
  " \"runtime_version\": \"ollama 0.31.2\", \"decode_tps\": {\"mean\": 18.0}, \"weight_bytes\": 2019377376,"
  " \"source\": \"test fixture\", \"sizes\": ["
  "  {\"context_tokens\": 4096, \"reported_bytes\": 2600000000, \"reported_vram_bytes\": 2600000000, \"predicted_bytes\": 0},"
  "  {\"context_tokens\": 16384, \"reported_bytes\": 4100000000, \"reported_vram_bytes\": 4100000000, \"predicted_bytes\": 0}]}";

/* predict --json with the learned archive at @context: its learned term,
 * verdict, margin and pool figure. */
static void
predict_learned (const char *dir,
                 guint32     context,
                 gint64     *out_learned,
                 char      **out_verdict,
                 gint64     *out_margin,
                 gint64     *out_pool)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *tokens = g_strdup_printf ("%u", context);
  JsonArray *terms;
  JsonObject *o;

  run_cli (&r, "predict", "llama3.2:3b", "--board", "jetson-orin-nano-super", "--server-version", "0.31.2",
           "--measurements", dir, "--context", tokens, "--json", NULL);
  o = parse (parser, &r);
  terms = json_object_get_array_member (o, "terms");
  *out_learned = 0;
  for (guint i = 0; i < json_array_get_length (terms); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (terms, i), "id"), "learned"))
      *out_learned = json_object_get_int_member (json_array_get_object_element (terms, i), "bytes");
  *out_verdict = g_strdup (json_object_get_string_member (o, "verdict"));
  *out_margin = json_object_get_int_member (o, "margin_bytes");
  *out_pool = json_object_get_int_member (o, "pool_footprint_bytes");
}

/* With a learned overhead on a unified board, --max-context judges the
 * pool figure predict judges, learned overhead included: predict at the
 * answer agrees, one step further it no longer fits. */
static void
test_finders_unified_learned (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "learned", NULL);
  g_autofree char *file = g_build_filename (dir, "jetson-llama3.2-3b.json", NULL);
  g_autofree char *verdict = NULL, *next = NULL;
  gint64 learned, margin, pool;
  JsonObject *gpu, *at;
  guint32 context;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, learned_json, -1, &error));
  run_cli (&r, "predict", "llama3.2:3b", "--board", "jetson-orin-nano-super", "--server-version", "0.31.2",
           "--measurements", dir, "--max-context", "--json", NULL);
  gpu = json_object_get_object_member (json_object_get_object_member (parse (parser, &r), "max_context"), "gpu");
  at = json_object_get_object_member (gpu, "at");
  context = (guint32) json_object_get_int_member (gpu, "context_tokens");
  predict_learned (dir, context, &learned, &verdict, &margin, &pool);
  g_assert_cmpint (learned, >, 0);
  g_assert_cmpstr (json_object_get_string_member (at, "verdict"), ==, verdict);
  g_assert_cmpstr (verdict, ==, "fits");
  g_assert_cmpint (json_object_get_int_member (at, "margin_bytes"), ==, margin);
  g_assert_cmpint (json_object_get_int_member (at, "pool_bytes"), ==, pool);
  predict_learned (dir, context + 256, &learned, &next, &margin, &pool);
  g_assert_cmpstr (next, !=, "fits");
  g_unlink (file);
  g_rmdir (dir);
}

static void
test_best_precision (void)
{
  g_auto(Run) r = { 0 };
  g_autofree char *v1 = NULL, *v2 = NULL;
  double t1, t2;

  run_cli (&r, "predict", "gemma3:12b", "--board", BOARD, "--best-precision", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out,
                   "best precision all on the GPU (fits) at 4,096 tokens: q5_1 (6 bits per weight)\n"
                   "  49/49 layers on the GPU, 10.03 GB VRAM + 0.77 GB host, 100% GPU; fits, 1.35 GB under budget; 26.4 t/s (prior, likely ok)\n"
                   "best precision with partial offload at 4,096 tokens: fp16 (16 bits per weight)\n"));

  /* Only a GGUF file type a runtime can load: phi4 at 32,768 tokens once
   * got the seed's generic "int4", which no Ollama model is. */
  {
    g_auto(Run) r4 = { 0 };

    run_cli (&r4, "predict", "phi4", "--board", BOARD, "--context", "32768", "--best-precision", NULL);
    g_assert_cmpint (r4.status, ==, 0);
    g_assert_true (g_str_has_prefix (r4.out,
                     "best precision all on the GPU (fits) at 32,768 tokens: q3_K_L (3.4375 bits per weight)\n"
                     "  41/41 layers on the GPU, 9.60 GB VRAM + 0.26 GB host, 100% GPU; fits, 1.78 GB under budget; 38.3 t/s (prior, likely ok)\n"));
  }

  /* q5_1 (6 bits) fits; the next precision up, q6_K (6.5625), does not. */
  predict_at ("gemma3:12b", "4096", "q5_1", &v1, &t1);
  predict_at ("gemma3:12b", "4096", "q6_K", &v2, &t2);
  g_assert_cmpstr (v1, ==, "fits");
  g_assert_cmpstr (v2, !=, "fits");
}

/* On a board that splits, a long name widens the name column too. */
static void
test_fit_long_names (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "fit", "--board", BOARD, "--models", "mistral-nemo:12b,llama3.2:3b", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_suffix (r.out,
                   "model              weights  kv@4096   total  layers    VRAM    host  processor        verdict\n"
                   "mistral-nemo:12b       7.1     0.67    7.90   41/41    7.50    0.40  100% GPU         fits, 3.88 GB under budget\n"
                   "llama3.2:3b            2.0     0.47    2.80   29/29    2.56    0.24  100% GPU         fits, 8.83 GB under budget\n"));
}

static void
test_matrix (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *board, *cell;

  run_cli (&r, "matrix", "--boards", BOARD, "--models", "qwen2.5:0.5b,qwen2.5:14b", "--context", "32768", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "qwen2.5:14b   partial 34/49 25.09 11.0p\n"));

  run_cli (&rj, "matrix", "--boards", BOARD, "--models", "qwen2.5:14b", "--context", "32768", "--json", NULL);
  board = json_array_get_object_element (json_object_get_array_member (parse (parser, &rj), "boards"), 0);
  cell = json_array_get_object_element (json_object_get_array_member (board, "cells"), 0);
  g_assert_cmpstr (json_object_get_string_member (cell, "verdict"), ==, "partial");
  g_assert_cmpint (json_object_get_int_member (cell, "gpu_layers"), ==, 34);
  g_assert_cmpint (json_object_get_int_member (cell, "total_layers"), ==, 49);
  g_assert_cmpint (json_object_get_int_member (cell, "host_bytes"), ==, G_GINT64_CONSTANT (5267580960));
  g_assert_cmpstr (json_object_get_string_member (cell, "processor"), ==, "33%/67% CPU/GPU");
  g_assert_cmpstr (json_object_get_string_member (cell, "source"), ==, "prior");
}

static void
test_bad_num_gpu (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) ru = { 0 };

  run_cli (&r, "predict", "qwen2.5:14b", "--board", BOARD, "--num-gpu", "-1", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "headroom-cli: --num-gpu must be a whole number from 0 to 4097, not \"-1\"\n");

  run_cli (&ru, "predict", "qwen2.5:14b", "--num-gpu", "20", NULL);
  g_assert_cmpint (ru.status, ==, 2);
  g_assert_cmpstr (ru.out, ==, "");
  g_assert_cmpstr (ru.err, ==, "headroom-cli: --num-gpu places layers on a discrete GPU with host memory; jetson-orin-nano-super keeps every layer in its one pool\n");
}

static void
test_measured_board (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-rtx-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "rtx-3060-12gb-llama3.1-8b.json", NULL);
  g_auto(Run) r = { 0 };

  /* One measurement on the board: its fit (52.0 / (360 / 4.9) = 0.71) times
   * the GPU, the measured row stays measured, and only a split's CPU side
   * is a prior, which the note says instead. The total weighs the
   * catalog's exact 4,920,738,944-byte blob. */
  g_assert_true (g_file_set_contents (file,
                                      "{\"board\": \"rtx-3060-12gb\", \"model\": \"llama3.1:8b\", \"date\": null, "
                                      "\"runtime_version\": null, \"decode_tps\": {\"mean\": 52.0}, "
                                      "\"weight_bytes\": 4900000000, \"source\": \"test\"}", -1, NULL));
  run_cli (&r, "dashboard", "--board", BOARD, "--measurements", dir, "--models", "llama3.1:8b,qwen2.5:14b", "--context", "32768", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "  llama3.1:8b        9.49  fits      33/33  100% GPU             73.5   52.0  measured      ok\n"));
  g_assert_nonnull (strstr (r.out, "  qwen2.5:14b       15.91  partial   34/49  33%/67% CPU/GPU      15.1   11.2  prior         likely ok\n"));
  g_assert_true (g_str_has_suffix (r.out, "note: a partial model's rate on rtx-3060-12gb times its CPU layers with a prior: efficiency 0.75 for cpu hardware, the mean of 2 published runs (data/priors.json).\n"));
  g_assert_null (strstr (r.out, "are a prior, not a measurement"));
  g_unlink (file);
  g_rmdir (dir);
}

/* One rule for a mixture of experts' decode everywhere: a token reads the
 * dense weights and the experts it routes to (8 of qwen3:30b-a3b's 128),
 * wherever they are. All on the GPU it is rated faster than with the
 * experts of 10 layers in host memory (it once read every expert there:
 * 33 t/s against the split's 114). "partial 49/49" says the experts are
 * what is in host memory; an over row has no speed verdict. */
static void
test_moe_rates (void)
{
  g_auto(Run) whole = { 0 };
  g_auto(Run) split = { 0 };
  g_auto(Run) over = { 0 };
  g_auto(Run) main_gpu = { 0 };
  g_auto(Run) main_gpu2 = { 0 };
  g_auto(Run) no_bw = { 0 };

  run_cli (&whole, "predict", "qwen3:30b-a3b", "--board", "rtx-3090", NULL);
  g_assert_cmpint (whole.status, ==, 0);
  g_assert_nonnull (strstr (whole.out,
                   "  verdict: fits, 4.99 GB under budget\n"
                   "  decode: every layer on the GPU: 936.0 GB/s / 2,059,707,483 bytes read per token (the dense weights and 8 of 128 experts) = 454.4 t/s ceiling, x 0.67 = 304.5 t/s\n"
                   "  rate: 304.5 t/s (prior), speed likely ok\n"));

  run_cli (&split, "predict", "qwen3:30b-a3b", "--board", "rtx-3090", "--n-cpu-moe", "10", NULL);
  g_assert_cmpint (split.status, ==, 0);
  g_assert_nonnull (strstr (split.out,
                   "  verdict: partial 49/49, the experts of 10 layers in host memory, 26.35 GB of host memory left\n"
                   "  decode: t = 1,645,505,846 bytes / (936.0 GB/s x 0.67) on the GPU + 235,281,840 bytes / (51.2 GB/s x 0.75) on the CPU = 2.6 ms + 6.1 ms = 8.8 ms per token: 114.3 t/s\n"
                   "  rate: 114.3 t/s (prior), speed likely ok\n"));

  run_cli (&over, "predict", "qwen3:30b-a3b", "--board", BOARD, "--n-cpu-moe", "10", NULL);
  g_assert_cmpint (over.status, ==, 0);
  g_assert_nonnull (strstr (over.out,
                   "  verdict: over by 3.63 GB\n"
                   "  decode: every layer on the GPU: 360.0 GB/s / 2,059,707,483 bytes read per token (the dense weights and 8 of 128 experts) = 70.6 t/s ceiling, x 0.73 = 51.3 t/s\n"
                   "  rate: 51.3 t/s (prior) if it loaded with every layer on the GPU; no speed verdict: it does not load\n"));

  /* --main-gpu past the board's GPUs: a usage error */
  run_cli (&main_gpu, "predict", "llama3.1:8b", "--board", BOARD, "--main-gpu", "1", NULL);
  g_assert_cmpint (main_gpu.status, ==, 2);
  g_assert_cmpstr (main_gpu.err, ==, "headroom-cli: --main-gpu 1 is out of range: rtx-3060-12gb has 1 GPU (index 0)\n");
  run_cli (&main_gpu2, "predict", "llama3.1:8b", "--board", "2x-rtx-3090", "--main-gpu", "2", NULL);
  g_assert_cmpint (main_gpu2.status, ==, 2);
  g_assert_cmpstr (main_gpu2.err, ==, "headroom-cli: --main-gpu 2 is out of range: 2x-rtx-3090 has 2 GPUs (0 to 1)\n");

  /* --gpus gives no bandwidth: no rate, not "0.0 t/s" */
  run_cli (&no_bw, "predict", "llama3.1:8b", "--gpus", "12GiB", "--best-precision", NULL);
  g_assert_cmpint (no_bw.status, ==, 0);
  g_assert_true (g_str_has_prefix (no_bw.out,
                   "best precision all on the GPU (fits) at 4,096 tokens: q8_0 (8.5 bits per weight)\n"
                   "  33/33 layers on the GPU, 8.62 GB VRAM + 0.57 GB host, 100% GPU; fits, 4.26 GB under budget; no rate (a memory bandwidth is not known)\n"));
  g_assert_null (strstr (no_bw.out, "0.0 t/s"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli-offload/fit", test_fit);
  g_test_add_func ("/cli-offload/fit-json", test_fit_json);
  g_test_add_func ("/cli-offload/dashboard", test_dashboard);
  g_test_add_func ("/cli-offload/measured-board", test_measured_board);
  g_test_add_func ("/cli-offload/check", test_check);
  g_test_add_func ("/cli-offload/predict", test_predict);
  g_test_add_func ("/cli-offload/predict-json", test_predict_json);
  g_test_add_func ("/cli-offload/predict-old-scheduler-slots", test_predict_old_scheduler_slots);
  g_test_add_func ("/cli-offload/max-context", test_max_context);
  g_test_add_func ("/cli-offload/max-context-unified", test_max_context_unified);
  g_test_add_func ("/cli-offload/finders-unified-labels", test_finders_unified_labels);
  g_test_add_func ("/cli-offload/finders-unified-agree", test_finders_unified_agree);
  g_test_add_func ("/cli-offload/finders-unified-learned", test_finders_unified_learned);
  g_test_add_func ("/cli-offload/best-precision", test_best_precision);
  g_test_add_func ("/cli-offload/moe-rates", test_moe_rates);
  g_test_add_func ("/cli-offload/fit-long-names", test_fit_long_names);
  g_test_add_func ("/cli-offload/matrix", test_matrix);
  g_test_add_func ("/cli-offload/bad-num-gpu", test_bad_num_gpu);

  return g_test_run ();
}
