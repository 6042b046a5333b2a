/* test-llama.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Headroom's runtime prediction (app/core/runtime/hr-runtime.h, CPU backend) against
 * a real llama-server: for each setting it writes a GGUF file with a real
 * model's shapes and zero weights (llama-models.h), starts llama-server on
 * 127.0.0.1 with the flags Ollama 0.30+ passes (llm/llama_server.go:
 * -c num_ctx x slots, -np slots, -b 512 -ub 512, --flash-attn,
 * --cache-type-k/-v, --log-verbosity 4), reads the buffer lines it logs
 * (model, KV, RS, compute, output), stops it by its PID, and compares each with
 * the term Headroom predicts from the spec it reads from the same file:
 * weights, KV and output to the log's resolution (llama.cpp prints MiB with
 * two decimals, and Ollama sizes a model from that same line); the compute
 * buffer within max(1 MiB, 3 %); the total within 1 %.
 *
 * The server comes from build-aux/llama-server (built from the llama.cpp
 * source npm's node-llama-cpp ships); build-aux/test sets
 * HEADROOM_LLAMA_SERVER. HEADROOM_LLAMA_REPORT names a file to write the
 * comparison table to (Markdown).
 *
 * A second table (server_settings) runs llama-server with its own defaults,
 * as someone who starts it by hand: no -np, -b, -ub, --flash-attn or cache
 * type, -c and -np only where the setting gives them, against
 * %HR_RUNTIME_ERA_LLAMA_SERVER (one unified stream for -np auto, the trained
 * context per slot without -c), with the same tolerances.
 *
 * llama-draft-checks.h adds a draft model (-md) and a model's own MTP
 * heads (--spec-type draft-mtp) against the draft terms of
 * app/core/runtime/hr-runtime-draft.c.
 *
 * Two flags Ollama does not pass keep the figures about the model, not the
 * machine: --no-repack (llama.cpp would otherwise copy Q4_0/Q4_K/Q8_0
 * weights into a CPU_REPACK buffer on CPUs with AVX2 or NEON; the copy is
 * reported separately) and --no-warmup (no decode before listening).
 */
#include "config.h"

#include <gio/gio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-offload.h"
#include "hr-runtime.h"
#include "llama-models.h"
#include "llama-models-hybrid.h"
#include "llama-models-attn.h"

#define MIB 1048576.0

typedef struct {
  const char *model;     /* LmModel id */
  guint32     context;   /* num_ctx per slot */
  guint32     slots;
  gboolean    flash;
  const char *kv;        /* f16, q8_0, q4_0 */
} Setting;

/* Every setting the suite runs: contexts, 1, 2 and 4 slots, the three KV
 * types, flash attention on and off, on the five models of llama-models.h
 * and the attention variants of llama-models-attn.h. */
static const Setting settings[] = {
  { "llama3.2-3b", 512, 1, TRUE, "f16" },
  { "llama3.2-3b", 4096, 1, TRUE, "f16" },
  { "llama3.2-3b", 16384, 1, TRUE, "f16" },
  { "llama3.2-3b", 512, 1, FALSE, "f16" },
  { "llama3.2-3b", 4096, 1, FALSE, "f16" },
  { "llama3.2-3b", 16384, 1, FALSE, "f16" },
  { "llama3.2-3b", 4096, 2, TRUE, "f16" },
  { "llama3.2-3b", 4096, 4, TRUE, "f16" },
  { "llama3.2-3b", 4096, 2, FALSE, "f16" },
  { "llama3.2-3b", 4096, 1, TRUE, "q8_0" },
  { "llama3.2-3b", 16384, 1, TRUE, "q4_0" },
  { "qwen2.5-0.5b", 4096, 1, TRUE, "f16" },
  { "qwen2.5-0.5b", 16384, 1, TRUE, "f16" },
  { "qwen2.5-0.5b", 4096, 1, FALSE, "f16" },
  { "qwen2.5-0.5b", 2048, 4, FALSE, "f16" },
  { "qwen2.5-0.5b", 4096, 1, TRUE, "q4_0" },
  { "gemma2-2b", 4096, 1, TRUE, "f16" },
  { "gemma2-2b", 8192, 1, FALSE, "f16" },
  { "gemma2-2b", 8192, 1, TRUE, "q4_0" },
  /* Small contexts without flash attention: the feed-forward block sits
   * above the attention output's hole (91.51 MiB logged). */
  { "gemma2-2b", 2048, 4, FALSE, "f16" },
  { "gemma2-2b", 8192, 2, TRUE, "f16" },
  { "gemma2-2b", 4096, 4, FALSE, "f16" },
  { "gemma3-1b", 512, 1, TRUE, "f16" },
  { "gemma3-1b", 4096, 1, TRUE, "f16" },
  { "gemma3-1b", 16384, 1, FALSE, "f16" },
  { "gemma3-1b", 2048, 4, FALSE, "f16" },
  { "gemma3-1b", 4096, 1, TRUE, "q4_0" },
  { "gemma3-1b", 8192, 4, TRUE, "q8_0" },
  { "qwen3-30b-a3b", 4096, 1, TRUE, "f16" },
  { "qwen3-30b-a3b", 16384, 1, TRUE, "f16" },
  { "qwen3-30b-a3b", 4096, 1, FALSE, "f16" },
  { "qwen3-30b-a3b", 4096, 2, TRUE, "q8_0" },
  /* Recurrent and hybrid models (llama-models-hybrid.h). */
  { "qwen3.5-4b", 2048, 1, TRUE, "f16" },
  { "qwen3.5-4b", 32768, 1, TRUE, "q8_0" },
  /* 4 slots with flash attention: the gathered state sits in a hole, the
   * feed-forward block stays the peak (77.28 MiB logged). */
  { "qwen3.5-4b", 8192, 4, TRUE, "q8_0" },
  { "qwen3.5-4b", 4096, 1, FALSE, "f16" },
  { "mamba2-2.7b", 2048, 1, TRUE, "f16" },
  { "mamba2-2.7b", 8192, 4, FALSE, "f16" },
  { "mamba2-2.7b", 32768, 1, TRUE, "q8_0" },
  { "granite4-h", 2048, 1, TRUE, "f16" },
  { "granite4-h", 16384, 4, TRUE, "q8_0" },
  { "granite4-h", 4096, 1, FALSE, "f16" },
  { "granite4-h", 32768, 1, FALSE, "f16" },
  { "nemotron-h-9b", 2048, 1, TRUE, "f16" },
  { "nemotron-h-9b", 8192, 4, TRUE, "q8_0" },
  { "nemotron-h-9b", 4096, 1, FALSE, "f16" },
  { "nemotron-h-9b", 32768, 1, TRUE, "f16" },
  { "lfm2-1.2b", 2048, 1, TRUE, "f16" },
  { "lfm2-1.2b", 16384, 4, TRUE, "q8_0" },
  { "lfm2-1.2b", 4096, 1, FALSE, "f16" },
  { "lfm2-1.2b", 32768, 1, FALSE, "f16" },
  { "qwen3.5-35b-a3b", 2048, 1, TRUE, "f16" },
  { "qwen3.5-35b-a3b", 8192, 4, TRUE, "q8_0" },
  /* Without flash attention the previous MoE layer's attn_residual and
   * attn_post_norm leave a two-embedding hole (110.01 MiB logged). */
  { "qwen3.5-35b-a3b", 2048, 4, FALSE, "f16" },
  { "falcon-h1-1.5b", 2048, 1, TRUE, "f16" },
  { "falcon-h1-1.5b", 16384, 4, TRUE, "q8_0" },
  { "falcon-h1-1.5b", 4096, 1, FALSE, "f16" },
  { "kimi-linear-48b", 2048, 1, TRUE, "f16" },
  /* Not q8_0: llama.cpp refuses it, "V cache type q8_0 with block size 32
   * does not divide n_embd_head_v=72" (2304 / 32 heads, the MLA has no V). */
  { "kimi-linear-48b", 8192, 4, TRUE, "f16" },
  /* Without flash attention its MLA layers hold q, q_nope_absorbed and
   * Qcur (230.01 MiB logged, hr-runtime-compute-recurrent.c). */
  { "kimi-linear-48b", 2048, 4, FALSE, "f16" },
  /* 4 slots: the gated delta net's output holds every sequence's final
   * state (104.39 MiB logged at 8,192 tokens, hr-runtime-compute-recurrent.c). */
  { "qwen3-next-80b", 8192, 4, TRUE, "f16" },
  { "qwen3-next-80b", 4096, 1, FALSE, "f16" },
  /* The attention variants (llama-models-attn.h), three settings each to
   * keep the suite near six minutes on two cores (llama-server faults every
   * page of a model in, so a setting costs about its file); the benchmark
   * (HEADROOM_LLAMA_GRID=1, meson test --benchmark) runs the grid below.
   * phi3-mini's 8192 is past its trained 4096: Ollama clamps it. */
  { "qwen3-8b", 16384, 1, FALSE, "f16" },
  { "qwen3-8b", 8192, 4, TRUE, "q8_0" },
  { "qwen3-8b", 4096, 1, TRUE, "f16" },
  { "phi3-mini", 8192, 1, FALSE, "f16" },
  { "phi3-mini", 2048, 4, TRUE, "q8_0" },
  { "phi3-mini", 4096, 1, TRUE, "f16" },
  { "ministral3-8b", 4096, 1, TRUE, "f16" },
  { "ministral3-8b", 32768, 1, TRUE, "q8_0" },
  { "ministral3-8b", 16384, 1, FALSE, "f16" },
  { "command-r7b", 16384, 1, FALSE, "f16" },
  { "command-r7b", 8192, 4, TRUE, "q8_0" },
  { "command-r7b", 4096, 1, TRUE, "f16" },
  { "exaone4-32b", 32768, 1, TRUE, "q8_0" },
  { "exaone4-32b", 4096, 4, FALSE, "f16" },
  { "llama4-maverick", 32768, 1, TRUE, "q8_0" },
  { "llama4-maverick", 16384, 1, FALSE, "f16" },
  { "llama4-maverick", 8192, 4, TRUE, "f16" },
  { "gpt-oss-20b", 32768, 1, TRUE, "q8_0" },
  { "gpt-oss-20b", 8192, 4, TRUE, "f16" },
  { "gpt-oss-20b", 8192, 1, FALSE, "f16" },
  /* Without flash attention MLA copies the latent V of every stream's
   * cells (hr-runtime-compute.c mla_v_cont_extra()): 32,768 cells in all
   * (the first layer's peak) and 65,536 (a MoE layer's). */
  { "deepseek-v2-lite", 8192, 4, FALSE, "f16" },
  { "deepseek-v2-lite", 16384, 4, FALSE, "f16" },
  { "deepseek-v2-lite", 8192, 4, TRUE, "q8_0" },
  { "glm4.5-air", 8192, 1, FALSE, "f16" },
  { "glm4.5-air", 32768, 1, TRUE, "q8_0" },
  { "glm4.5-air", 4096, 1, TRUE, "f16" },
  { "glm4.5-air-mtp", 16384, 2, TRUE, "q8_0" },
  { "gemma4-31b", 32768, 1, TRUE, "q8_0" },
  { "gemma4-31b", 8192, 4, FALSE, "f16" },
  { "gemma4-31b", 4096, 1, TRUE, "f16" },
};

/* llama-server run by hand with its own defaults (HR_RUNTIME_ERA_LLAMA_SERVER):
 * no -np, -b, -ub, --flash-attn, --cache-type or --fit flags; -c only where
 * the setting gives a context; -np only where it gives slots. */
typedef struct {
  const char *model;     /* LmModel id */
  guint32     n_ctx;     /* -c, 0 = not given (the trained context per slot) */
  guint32     slots;     /* -np, 0 = not given (auto: 4, unified) */
  guint32     fit_room_mib; /* > 0: --fit-target leaves about this much of the
                             * physical memory to fit into, moved to the middle
                             * of fit's step (fit_target_mib(); 0 = the 1 GiB
                             * default margin) */
  guint32     n_cpu_moe;    /* > 0: --n-cpu-moe N; G_MAXUINT32: --cpu-moe */
} ServerSetting;

static const ServerSetting server_settings[] = {
  { "qwen2.5-0.5b", 0, 0 },
  { "qwen2.5-0.5b", 65536, 0 },
  { "qwen2.5-0.5b", 0, 2 },
  { "gemma3-1b", 0, 0 },
  { "gemma3-1b", 8192, 0 },
  { "llama3.2-3b", 8192, 0 },
  { "llama3.2-3b", 16384, 2 },
  { "llama3.2-3b", 0, 0, 3584 },
  { "gemma3-1b", 0, 2, 1200 },
  /* The experts kept on the CPU by a tensor override: on this CPU-only
   * build every buffer is the host's anyway, so what is checked is which
   * tensors llama-server overrides (its "buffer type overridden" lines)
   * against the experts Headroom moves to host memory
   * (hr_offload_predict()'s cpu_moe_bytes); gpt-oss's expert biases
   * (ffn_*_exps.bias) match the pattern too. */
  { "qwen3-30b-a3b", 4096, 1, 0, 3 },
  { "gpt-oss-20b", 4096, 1, 0, G_MAXUINT32 },
};

/* What llama.cpp's CPU backend takes as the device's memory for --fit:
 * the physical memory (ggml/src/ggml-cpu/ggml-cpu.cpp
 * ggml_backend_cpu_device_get_memory, free = total), in bytes. */
static guint64
physical_bytes (void)
{
  return (guint64) sysconf (_SC_PHYS_PAGES) * (guint64) sysconf (_SC_PAGE_SIZE);
}

/* What --fit measures of Headroom's prediction at @n_ctx tokens: every
 * buffer but the output (src/llama-context.cpp memory_breakdown), in
 * bytes. */
static guint64
fit_used_bytes (const HrModelSpec   *spec,
                const ServerSetting *s,
                guint64              n_ctx)
{
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  hr_runtime_inputs_init (&in, spec, (guint32) n_ctx);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = s->slots;
  in.batch = 0;
  in.ubatch = 0;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  return p.total_bytes - (guint64) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_OUTPUT);
}

/* The --fit-target, in MiB, for a setting with fit_room_mib: about that
 * much of the physical memory left to fit into, moved to the middle of
 * the step of --fit's context it falls in. common/fit.cpp interpolates
 * the context linearly between 4,096 x streams and the trained context x
 * slots and rounds it down to 256 x streams, so one step is a few MiB of
 * buffers: a target at a step's edge would make the test a check of the
 * compute buffer to a fraction of a MiB (test_setting() checks it to
 * max(1 MiB, 3 %)), and of the machine's memory size. In the middle, a
 * compute buffer off by less than half a step lands on llama.cpp's
 * context; the test checks fit's arithmetic, whatever the machine. */
static guint64
fit_target_mib (const ServerSetting *s,
                const HrModelSpec   *spec)
{
  guint64 slots = s->slots > 0 ? s->slots : 4;
  guint64 streams = s->slots > 0 ? s->slots : 1;
  guint64 n_max = (guint64) spec->context_length * slots;
  guint64 n_min = 4096 * streams, align = 256 * streams;
  guint64 used_max = fit_used_bytes (spec, s, n_max);
  guint64 used_min = fit_used_bytes (spec, s, n_min);
  double per_token = (double) (used_max - used_min) / (double) (n_max - n_min);
  double room = (double) s->fit_room_mib * 1048576.0;
  guint64 n = n_min + (guint64) ((room - (double) used_min) / per_token);
  double middle;

  g_assert_cmpfloat (room, >, (double) used_min);
  g_assert_cmpfloat (room, <, (double) used_max);
  /* Half a step must exceed the MiB the target is rounded to. */
  g_assert_cmpfloat (align * per_token, >=, 2.0 * 1048576.0);
  n -= n % align;
  middle = (double) used_min + ((double) (n - n_min) + align / 2.0) * per_token;
  return (guint64) ((double) physical_bytes () - middle) / 1048576;
}

/* The benchmark's grid (HEADROOM_LLAMA_GRID=1): these models at every
 * context, slot count, flash-attention setting and KV type below (a
 * quantized cache only with flash attention, which llama.cpp requires). */
static const char *const grid_models[] = {
  "llama3.2-3b", "qwen2.5-0.5b", "gemma2-2b", "gemma3-1b", "qwen3-30b-a3b",
  "qwen3-8b", "phi3-mini", "ministral3-8b", "command-r7b", "exaone4-32b",
  "llama4-maverick", "gpt-oss-20b", "deepseek-v2-lite", "glm4.5-air", "gemma4-31b",
  "qwen3.5-4b", "qwen3.5-35b-a3b", "qwen3-next-80b", "mamba2-2.7b", "granite4-h",
  "nemotron-h-9b", "lfm2-1.2b", "falcon-h1-1.5b", "kimi-linear-48b",
};
static const guint32 grid_contexts[] = { 2048, 8192, 32768, 65536 };
/* llama.cpp clears the KV buffer it allocates, so a grid setting whose
 * predicted cache passes this is skipped rather than run on a small box. */
#define GRID_KV_LIMIT (6.0 * 1024 * MIB)

/* What llama-server logged, in MiB as printed (-1 = no such line). */
typedef struct {
  double model, kv, compute, output, rs;
  guint  n_model, n_kv, n_compute, n_output, n_rs;
  gboolean listening;
  gboolean refused_v;    /* "quantized V cache requires flash_attn" */
  GString *log;
} Logged;

typedef struct {
  char  *dir;
  char  *server;
  GHashTable *paths;     /* model id -> written GGUF path */
  GHashTable *specs;     /* model id -> HrModelSpec */
  GString *report;
  double worst[6];       /* weights, kv, output, compute, total, RS: worst |error| in % */
  double worst_mib[6];
} Suite;

static Suite suite;

static LmModel *
model_for (const char *id)
{
  static LmModel *(*const builders[]) (void) = {
    lm_llama32_3b, lm_qwen25_05b, lm_gemma2_2b, lm_gemma3_1b, lm_qwen3_30b_a3b,
    lm_qwen35_4b, lm_mamba2_27b, lm_granite4_h, lm_nemotron_h_9b, lm_lfm2_12b,
    lm_qwen35_35b_a3b, lm_falcon_h1, lm_kimi_linear, lm_qwen3next_80b,
    lm_qwen3_8b, lm_phi3_mini, lm_ministral3_8b, lm_command_r7b, lm_exaone4_32b,
    lm_llama4_maverick, lm_gpt_oss_20b, lm_deepseek_v2_lite, lm_glm45_air, lm_glm45_air_mtp, lm_gemma4_31b, lm_qwen35_4b_mtp,
  };

  for (guint i = 0; i < G_N_ELEMENTS (builders); i++)
    {
      LmModel *m = builders[i] ();

      if (g_strcmp0 (m->id, id) == 0)
        return m;
      lm_model_free (m);
    }
  g_assert_not_reached ();
}

/* The file and the spec Headroom reads from it, written once per model. */
static const HrModelSpec *
spec_for (const char  *id,
          const char **out_path)
{
  HrModelSpec *spec = g_hash_table_lookup (suite.specs, id);

  if (spec == NULL)
    {
      g_autoptr(LmModel) m = model_for (id);
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGgufFile) file = NULL;
      char *path = g_strdup_printf ("%s/%s.gguf", suite.dir, id);

      lm_model_write (m, path);
      file = hr_gguf_file_load (path, NULL, &error);
      g_assert_no_error (error);
      spec = hr_gguf_file_to_model_spec (file, m->like, NULL, &error);
      g_assert_no_error (error);
      g_hash_table_insert (suite.paths, g_strdup (id), path);
      g_hash_table_insert (suite.specs, g_strdup (id), spec);
    }
  *out_path = g_hash_table_lookup (suite.paths, id);
  return spec;
}

static guint16
free_port (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, &error);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* "<prefix>: <BACKEND> <what> buffer size = <MiB> MiB" (the line Ollama's
 * llm/llama_server.go bufferSizeRegex reads). */
static void
parse_line (Logged     *logged,
            const char *line)
{
  static const char *const kinds[] = { " model buffer size", " KV buffer size",
                                       " compute buffer size", " output buffer size",
                                       " RS buffer size" };
  double *sums[] = { &logged->model, &logged->kv, &logged->compute, &logged->output, &logged->rs };
  guint *counts[] = { &logged->n_model, &logged->n_kv, &logged->n_compute, &logged->n_output, &logged->n_rs };

  g_string_append_printf (logged->log, "%s\n", line);
  if (strstr (line, "listening on http://") != NULL)
    logged->listening = TRUE;
  if (strstr (line, "quantized V cache requires flash_attn") != NULL)
    logged->refused_v = TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      const char *at = strstr (line, kinds[k]);
      const char *eq;

      if (at == NULL || (eq = strchr (at, '=')) == NULL)
        continue;
      *sums[k] += g_ascii_strtod (eq + 1, NULL);
      (*counts[k])++;
    }
}

typedef struct {
  GSubprocess *server;
  GMainLoop   *loop;
  guint        tries;
  gboolean     done;
} Stop;

static void
stop_waited (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Stop *stop = data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  stop->done = TRUE;
  g_main_loop_quit (stop->loop);
}

static gboolean
stop_again (gpointer data)
{
  Stop *stop = data;

  if (g_subprocess_get_identifier (stop->server) == NULL)
    return G_SOURCE_CONTINUE;
  if (++stop->tries >= 10)
    g_subprocess_force_exit (stop->server);
  else
    g_subprocess_send_signal (stop->server, SIGTERM);
  return G_SOURCE_CONTINUE;
}

static void
stop_server (GSubprocess *server)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  Stop stop = { server, NULL, 0, FALSE };
  GSource *timer;

  g_main_context_push_thread_default (context);
  stop.loop = g_main_loop_new (context, FALSE);
  if (g_subprocess_get_identifier (server) != NULL)
    g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait_async (server, NULL, stop_waited, &stop);
  timer = g_timeout_source_new_seconds (1);
  g_source_set_callback (timer, stop_again, &stop, NULL);
  g_source_attach (timer, context);
  while (!stop.done)
    g_main_loop_run (stop.loop);
  g_source_destroy (timer);
  g_source_unref (timer);
  g_main_loop_unref (stop.loop);
  g_main_context_pop_thread_default (context);
}

static void run_server_with (const Setting     *s,
                             const char        *path,
                             const char *const *extra,
                             Logged            *logged);

static void
run_server (const Setting *s,
            const char    *path,
            Logged        *logged)
{
  run_server_with (s, path, NULL, logged);
}

/* run_server() with @extra (NULL-terminated, nullable) after Ollama's flags. */
static void
run_server_with (const Setting     *s,
                 const char        *path,
                 const char *const *extra,
                 Logged            *logged)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autofree char *ctx = g_strdup_printf ("%u", s->context * s->slots);
  g_autofree char *np = g_strdup_printf ("%u", s->slots);
  char *line;

  memset (logged, 0, sizeof *logged);
  logged->log = g_string_new (NULL);
  {
    const char *const base[] = {
      suite.server, "--model", path, "--host", "127.0.0.1", "--port", port,
      "--no-webui", "-c", ctx, "-np", np, "-b", "512", "-ub", "512",
      "--cache-type-k", s->kv, "--cache-type-v", s->kv,
      "--flash-attn", s->flash ? "on" : "off",
      "--log-verbosity", "4", "--no-log-prefix", "--no-log-timestamps",
      "--no-repack", "--no-warmup", "-t", "2",
    };
    g_autoptr(GPtrArray) argv = g_ptr_array_new ();

    for (guint i = 0; i < G_N_ELEMENTS (base); i++)
      g_ptr_array_add (argv, (gpointer) base[i]);
    for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
      g_ptr_array_add (argv, (gpointer) extra[i]);
    g_ptr_array_add (argv, NULL);
    server = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  }
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error)) != NULL)
    {
      parse_line (logged, line);
      g_free (line);
      if (logged->listening)
        break;
    }
  g_assert_no_error (error);
  /* Done reading: stop it by its PID. SIGTERM asks llama-server to shut
   * down; one that arrives while it is still starting its loops can be
   * lost, so it is sent again every second, and after ten SIGKILL ends it. */
  g_input_stream_close (G_INPUT_STREAM (lines), NULL, NULL);
  stop_server (server);
}

/* llama-server with its defaults: only the model, -c and -np where given,
 * --fit-target @target_mib where not 0, and the flags that keep the
 * figures about the model (as run_server()). */
static void
run_server_defaults (const ServerSetting *s,
                     guint64              target_mib,
                     const char          *path,
                     Logged              *logged)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  char *line;

  memset (logged, 0, sizeof *logged);
  logged->log = g_string_new (NULL);
  g_ptr_array_add (args, g_strdup (suite.server));
  g_ptr_array_add (args, g_strdup ("--model"));
  g_ptr_array_add (args, g_strdup (path));
  g_ptr_array_add (args, g_strdup ("--host"));
  g_ptr_array_add (args, g_strdup ("127.0.0.1"));
  g_ptr_array_add (args, g_strdup ("--port"));
  g_ptr_array_add (args, g_strdup_printf ("%u", free_port ()));
  if (s->n_ctx > 0)
    {
      g_ptr_array_add (args, g_strdup ("-c"));
      g_ptr_array_add (args, g_strdup_printf ("%u", s->n_ctx));
    }
  if (s->slots > 0)
    {
      g_ptr_array_add (args, g_strdup ("-np"));
      g_ptr_array_add (args, g_strdup_printf ("%u", s->slots));
    }
  if (target_mib > 0)
    {
      g_ptr_array_add (args, g_strdup ("--fit-target"));
      g_ptr_array_add (args, g_strdup_printf ("%" G_GUINT64_FORMAT, target_mib));
    }
  if (s->n_cpu_moe == G_MAXUINT32)
    g_ptr_array_add (args, g_strdup ("--cpu-moe"));
  else if (s->n_cpu_moe > 0)
    {
      g_ptr_array_add (args, g_strdup ("--n-cpu-moe"));
      g_ptr_array_add (args, g_strdup_printf ("%u", s->n_cpu_moe));
    }
  for (const char *const *a = (const char *const[]) { "--no-webui", "--log-verbosity", "4", "--no-log-prefix",
                                                     "--no-log-timestamps", "--no-repack", "--no-warmup",
                                                     "-t", "2", NULL };
       *a != NULL; a++)
    g_ptr_array_add (args, g_strdup (*a));
  /* The per-tensor override lines are LLAMA_LOG_DEBUG: --verbose, after
   * --log-verbosity (which would set the level back). --verbose also
   * prints fit's dry-run buffers; -fit off skips that run, which changes
   * nothing here: -c is given and the override stops fit's layer search
   * (common/fit.cpp), and the CPU build has no GPU to place layers on. */
  if (s->n_cpu_moe > 0)
    {
      g_ptr_array_add (args, g_strdup ("--verbose"));
      g_ptr_array_add (args, g_strdup ("-fit"));
      g_ptr_array_add (args, g_strdup ("off"));
    }
  g_ptr_array_add (args, NULL);
  server = g_subprocess_launcher_spawnv (launcher, (const char *const *) args->pdata, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error)) != NULL)
    {
      parse_line (logged, line);
      g_free (line);
      if (logged->listening)
        break;
    }
  g_assert_no_error (error);
  g_input_stream_close (G_INPUT_STREAM (lines), NULL, NULL);
  stop_server (server);
}

/* Compares one term; returns the error in MiB and records the worst. */
static double
compare (guint       slot,
         double      logged_mib,
         guint64     predicted,
         double     *out_percent)
{
  double mib = (double) predicted / MIB;
  double diff = mib - logged_mib;
  double percent = logged_mib > 0 ? 100.0 * diff / logged_mib : (predicted == 0 ? 0 : 100);

  suite.worst[slot] = MAX (suite.worst[slot], ABS (percent));
  suite.worst_mib[slot] = MAX (suite.worst_mib[slot], ABS (diff));
  *out_percent = percent;
  return diff;
}

static void
test_setting (gconstpointer data)
{
  const Setting *s = data;
  const char *path = NULL;
  const HrModelSpec *spec = spec_for (s->model, &path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged logged;
  Setting served;
  HrKvCacheType kv;
  double w_diff, kv_diff, out_diff, c_diff, t_diff, rs_diff;
  double w_pc, kv_pc, out_pc, c_pc, t_pc, rs_pc, total_logged;

  g_assert_true (hr_kv_cache_type_from_string (s->kv, &kv));
  hr_runtime_inputs_init (&in, spec, s->context);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = s->slots;
  in.kv_type = kv;
  in.flash_attention = s->flash ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  if ((double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE) > GRID_KV_LIMIT)
    {
      g_test_skip ("the KV cache would take more than 6 GiB");
      return;
    }

  /* Ollama clamps num_ctx to the model's trained length before it starts
   * llama-server (llm/server.go), and so does Headroom's prediction. */
  served = *s;
  if (spec->context_length > 0 && served.context > spec->context_length)
    served.context = spec->context_length;
  run_server (&served, path, &logged);
  if (!logged.listening)
    g_printerr ("%s", logged.log->str);
  g_assert_true (logged.listening);
  g_assert_cmpuint (logged.n_model, >=, 1);
  /* A purely recurrent model (mamba2) has an RS buffer and no KV one. */
  g_assert_cmpuint (logged.n_kv + logged.n_rs, >=, 1);
  g_assert_cmpuint (logged.n_compute, ==, 1);
  g_assert_cmpuint (logged.n_output, ==, 1);

  w_diff = compare (0, logged.model, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_WEIGHTS), &w_pc);
  kv_diff = compare (1, logged.kv, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), &kv_pc);
  out_diff = compare (2, logged.output, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_OUTPUT), &out_pc);
  c_diff = compare (3, logged.compute, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE), &c_pc);
  rs_diff = compare (5, logged.rs, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE), &rs_pc);
  total_logged = logged.model + logged.kv + logged.output + logged.compute + logged.rs;
  t_diff = compare (4, total_logged, p.total_bytes, &t_pc);

  {
    g_autofree char *row = g_strdup_printf ("| %s | %u | %u | %s | %s | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f (%+.2f, %+.1f %%) | %.2f / %.2f (%+.2f %%) |",
                                            s->model, s->context, s->slots, s->flash ? "on" : "off", s->kv,
                                            logged.model, logged.model + w_diff, logged.kv, logged.kv + kv_diff,
                                            logged.rs, logged.rs + rs_diff,
                                            logged.output, logged.output + out_diff,
                                            logged.compute, logged.compute + c_diff, c_diff, c_pc,
                                            total_logged, total_logged + t_diff, t_pc);

    g_test_message ("%s", row);
    if (suite.report != NULL)
      g_string_append_printf (suite.report, "%s\n", row);
  }
  g_string_free (logged.log, TRUE);

  /* Weights, KV and output: what llama.cpp printed, to its two decimals. */
  g_assert_cmpfloat (ABS (w_diff), <=, 0.0051);
  g_assert_cmpfloat (ABS (kv_diff), <=, 0.0051 * logged.n_kv);
  g_assert_cmpfloat (ABS (out_diff), <=, 0.0051);
  g_assert_cmpfloat (ABS (rs_diff), <=, 0.0051 * MAX (1, logged.n_rs));
  /* Compute: within max(1 MiB, 3 %). Total: within 1 %. */
  g_assert_cmpfloat (ABS (c_diff), <=, MAX (1.0, 0.03 * logged.compute));
  g_assert_cmpfloat (ABS (t_pc), <=, 1.0);
}

/* llama-server's own defaults against HR_RUNTIME_ERA_LLAMA_SERVER: -c
 * unset takes the trained context for each slot (common/fit.cpp), -np
 * auto is 4 slots in one unified stream (tools/server/server.cpp), flash
 * attention auto, batch 2048 / ubatch 512; the same tolerances as
 * test_setting(). */
static void assert_cpu_moe (const ServerSetting *s,
                            const HrModelSpec   *spec,
                            const char          *log);

static void
test_server_defaults (gconstpointer data)
{
  const ServerSetting *s = data;
  const char *path = NULL;
  const HrModelSpec *spec = spec_for (s->model, &path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged logged;
  guint64 target_mib = s->fit_room_mib > 0 ? fit_target_mib (s, spec) : 0;
  double w_diff, kv_diff, out_diff, c_diff, t_diff;
  double w_pc, kv_pc, out_pc, c_pc, t_pc, total_logged;

  hr_runtime_inputs_init (&in, spec, s->n_ctx);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = s->slots;
  in.batch = 0;
  in.ubatch = 0;
  /* --fit fits an unset -c to the physical memory, less its margin. */
  in.free_bytes = physical_bytes ();
  if (s->fit_room_mib > 0)
    in.fit_target_bytes = target_mib * G_GUINT64_CONSTANT (1048576);
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_true (p.flash_attention);
  g_assert_cmpint (p.kv_unified, ==, s->slots == 0);

  run_server_defaults (s, target_mib, path, &logged);
  if (!logged.listening)
    g_printerr ("%s", logged.log->str);
  g_assert_true (logged.listening);
  g_assert_cmpuint (logged.n_model, >=, 1);
  g_assert_cmpuint (logged.n_kv, >=, 1);
  g_assert_cmpuint (logged.n_compute, ==, 1);
  g_assert_cmpuint (logged.n_output, ==, 1);

  w_diff = compare (0, logged.model, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_WEIGHTS), &w_pc);
  kv_diff = compare (1, logged.kv, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), &kv_pc);
  out_diff = compare (2, logged.output, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_OUTPUT), &out_pc);
  c_diff = compare (3, logged.compute, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE), &c_pc);
  total_logged = logged.model + logged.kv + logged.output + logged.compute;
  t_diff = compare (4, total_logged, p.total_bytes, &t_pc);

  if (suite.report != NULL)
    g_string_append_printf (suite.report,
                            "| %s (llama-server defaults%s%s%s) | %u | %u | auto | f16 | %.2f / %.2f | %.2f / %.2f | - | %.2f / %.2f | %.2f / %.2f (%+.2f, %+.1f %%) | %.2f / %.2f (%+.2f %%) |\n",
                            s->model, s->n_ctx > 0 ? ", -c" : "", s->slots > 0 ? ", -np" : "",
                            s->fit_room_mib > 0 ? ", --fit-target" : "",
                            p.context_tokens, p.parallel_slots,
                            logged.model, logged.model + w_diff, logged.kv, logged.kv + kv_diff,
                            logged.output, logged.output + out_diff,
                            logged.compute, logged.compute + c_diff, c_diff, c_pc,
                            total_logged, total_logged + t_diff, t_pc);
  if (s->n_cpu_moe > 0)
    assert_cpu_moe (s, spec, logged.log->str);
  g_string_free (logged.log, TRUE);

  g_assert_cmpfloat (ABS (w_diff), <=, 0.0051 * logged.n_model);
  g_assert_cmpfloat (ABS (kv_diff), <=, 0.0051 * logged.n_kv);
  g_assert_cmpfloat (ABS (out_diff), <=, 0.0051);
  g_assert_cmpfloat (ABS (c_diff), <=, MAX (1.0, 0.03 * logged.compute));
  g_assert_cmpfloat (ABS (t_pc), <=, 1.0);
}

/* The tensors llama-server's log says a --cpu-moe / --n-cpu-moe override
 * moved ("tensor NAME (N MiB TYPE) buffer type overridden to CPU",
 * src/llama-model-loader.cpp, at --log-verbosity 4) against the expert
 * tensors Headroom keeps in host memory for the same input (each name
 * once: fit's dry run logs them before the load does): the same
 * count as the spec's ffn_*_exps tensors of those blocks, each named
 * blk.I.ffn_..._exps with I below N, and their MiB (each line's
 * truncated MiB) within one MiB a tensor of Headroom's cpu_moe_bytes. */
static void
assert_cpu_moe (const ServerSetting *s,
                const HrModelSpec   *spec,
                const char          *log)
{
  g_autoptr(GRegex) re = g_regex_new ("^tensor (blk\\.([0-9]+)\\.ffn_[a-z_]+_exps\\.[a-z]+) \\(([0-9]+) MiB [^)]*\\) buffer type overridden to CPU",
                                      G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(HrBoard) board = hr_board_new ("one-gpu", "One GPU");
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  HrOffloadInputs in;
  guint blocks = MIN (s->n_cpu_moe, spec->layers), overridden = 0, expected = 0;
  guint64 mib = 0;

  g_regex_match (re, log, 0, &match);
  while (g_match_info_matches (match))
    {
      char *name = g_match_info_fetch (match, 1);
      g_autofree char *block = g_match_info_fetch (match, 2);
      g_autofree char *size = g_match_info_fetch (match, 3);

      /* fit's dry run loads the tensors first: each name once */
      if (!g_hash_table_add (seen, name))
        {
          g_match_info_next (match, NULL);
          continue;
        }
      g_assert_cmpuint (g_ascii_strtoull (block, NULL, 10), <, blocks);
      mib += g_ascii_strtoull (size, NULL, 10);
      overridden++;
      g_match_info_next (match, NULL);
    }
  for (guint i = 0; i < spec->tensors->len; i++)
    {
      const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);
      char *end = NULL;

      if (g_str_has_prefix (t->name, "blk.") && g_ascii_strtoull (t->name + 4, &end, 10) < blocks &&
          strstr (t->name, "_exps.") != NULL && strstr (t->name, ".ffn_") != NULL)
        expected++;
    }

  /* A discrete GPU with host memory, as llama-server would place it. */
  board->pool_bytes = G_GUINT64_CONSTANT (25769803776);
  board->host_pool_bytes = G_GUINT64_CONSTANT (68719476736);
  board->host_bandwidth_bytes_per_s = 51.2e9;
  board->bandwidth_bytes_per_s = 936e9;
  hr_offload_inputs_init (&in, board, spec, s->n_ctx);
  in.runtime.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.runtime.parallel_slots = MAX (s->slots, 1);
  in.llama_server = TRUE;
  in.n_cpu_moe = s->n_cpu_moe;
  g_assert_true (hr_offload_predict (&in, split, &error));
  g_assert_no_error (error);
  g_test_message ("%s: %u tensors overridden, %" G_GUINT64_FORMAT " MiB logged, Headroom %u blocks, %" G_GUINT64_FORMAT " bytes (%.2f MiB)",
                  s->model, overridden, mib, split->cpu_moe_layers, split->cpu_moe_bytes, split->cpu_moe_bytes / MIB);
  if (suite.report != NULL)
    g_string_append_printf (suite.report, "| %s (%s%u: experts overridden to the CPU) | %u tensors, %" G_GUINT64_FORMAT " MiB (truncated each) / Headroom %.2f MiB |\n",
                            s->model, s->n_cpu_moe == G_MAXUINT32 ? "--cpu-moe, " : "--n-cpu-moe ", blocks, overridden, mib,
                            split->cpu_moe_bytes / MIB);
  g_assert_cmpuint (overridden, ==, expected);
  g_assert_cmpuint (overridden, >, 0);
  g_assert_cmpuint (split->cpu_moe_layers, ==, blocks);
  g_assert_true (split->fit_skipped);
  g_assert_cmpuint (split->partial_layers, ==, blocks);
  g_assert_cmpuint (split->cpu_moe_bytes / 1048576, >=, mib);
  g_assert_cmpuint (split->cpu_moe_bytes / 1048576, <=, mib + overridden);
}

/* Ollama 0.30+ passes OLLAMA_KV_CACHE_TYPE to both caches whatever the
 * flash-attention setting; llama.cpp refuses a quantized V cache without
 * it, and Headroom says so instead of predicting an f16 cache. */
static void
test_quantized_v_without_flash (void)
{
  static const Setting s = { "qwen2.5-0.5b", 4096, 1, FALSE, "q8_0" };
  const char *path = NULL;
  const HrModelSpec *spec = spec_for (s.model, &path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged logged;

  hr_runtime_inputs_init (&in, spec, s.context);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = 1;
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_OFF;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "flash attention"));

  run_server (&s, path, &logged);
  g_assert_false (logged.listening);
  g_assert_true (logged.refused_v);
  g_string_free (logged.log, TRUE);
}

/* Ollama 0.30+ starts an MTP draft for a GGUF with nextn layers
 * (llm/llama_server.go: --spec-type draft-mtp --spec-draft-n-max 4, its
 * draft_num_predict default), and llama.cpp then keeps 1 + 4 recurrent
 * rows per slot (common/common.h need_n_rs_seq, src/llama-memory-recurrent.cpp
 * n_rows = mem_size x (1 + n_rs_seq)). The target's RS buffer against
 * Headroom's recurrent-state term; the draft context's own buffers are not
 * predicted (and not compared). */
static void
test_mtp_rs_seq (void)
{
  static const Setting s = { "qwen3.5-4b-mtp", 4096, 2, TRUE, "f16" };
  static const char *const mtp[] = { "--spec-type", "draft-mtp", "--spec-draft-n-max", "4", NULL };
  const char *path = NULL;
  const HrModelSpec *spec = spec_for (s.model, &path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged logged;
  double predicted;

  g_assert_cmpuint (spec->nextn_layers, ==, 1);
  hr_runtime_inputs_init (&in, spec, s.context);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = s.slots;
  in.flash_attention = HR_FLASH_ATTENTION_ON;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.rs_seq, ==, 4);
  predicted = hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE) / MIB;

  run_server_with (&s, path, mtp, &logged);
  g_test_message ("RS buffer: llama-server %.2f MiB, Headroom %.2f MiB", logged.rs, predicted);
  g_assert_nonnull (strstr (logged.log->str, "n_rs_seq              = 4"));
  g_assert_cmpuint (logged.n_rs, >=, 1);
  g_assert_cmpfloat (ABS (logged.rs - predicted), <=, 0.0051 * logged.n_rs);
  g_string_free (logged.log, TRUE);
}

/* llama.cpp refuses a quantized cache whose heads are not whole blocks
 * (src/llama-context.cpp llama_init_from_model): Kimi Linear has no
 * value_length, so n_embd_head_v = 2,304 / 32 heads = 72, not a multiple
 * of q8_0's 32. Headroom refuses with llama.cpp's own line. */
static void
test_quantized_head_not_divisible (void)
{
  static const Setting s = { "kimi-linear-48b", 4096, 1, TRUE, "q8_0" };
  static const char line[] = "V cache type q8_0 with block size 32 does not divide n_embd_head_v=72";
  const char *path = NULL;
  const HrModelSpec *spec = spec_for (s.model, &path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged logged;

  hr_runtime_inputs_init (&in, spec, s.context);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = 1;
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_ON;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, line));

  run_server (&s, path, &logged);
  g_assert_false (logged.listening);
  g_assert_nonnull (strstr (logged.log->str, line));
  g_string_free (logged.log, TRUE);
}

static void
write_report (void)
{
  const char *report = g_getenv ("HEADROOM_LLAMA_REPORT");
  g_autoptr(GError) error = NULL;
  static const char *const names[] = { "weights", "KV cache", "output", "compute", "total", "recurrent state" };

  if (suite.report == NULL)
    return;
  g_string_append (suite.report, "\nWorst error per term:\n\n");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_string_append_printf (suite.report, "- %s: %.2f MiB, %.2f %%\n", names[i], suite.worst_mib[i], suite.worst[i]);
  if (report == NULL)
    return;
  g_assert_true (g_file_set_contents (report, suite.report->str, -1, &error));
  g_assert_no_error (error);
}

#include "llama-draft-checks.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  gboolean grid = g_getenv ("HEADROOM_LLAMA_GRID") != NULL;
  g_autofree Setting *grid_settings = NULL;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("HEADROOM_LLAMA_REPORT") != NULL || grid)
    g_test_set_nonfatal_assertions ();
  suite.server = g_strdup (g_getenv ("HEADROOM_LLAMA_SERVER"));
  if (suite.server == NULL || !g_file_test (suite.server, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_printerr ("HEADROOM_LLAMA_SERVER is not set to an executable llama-server: "
                  "run build-aux/test, which builds it (build-aux/llama-server) and sets it\n");
      return 1;
    }
  suite.dir = g_dir_make_tmp ("headroom-llama-XXXXXX", &error);
  g_assert_no_error (error);
  suite.paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  suite.specs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) hr_model_spec_free);
  if (g_getenv ("HEADROOM_LLAMA_REPORT") != NULL || grid)
    suite.report = g_string_new ("| model | num_ctx | slots | flash | KV | weights MiB llama.cpp / Headroom | KV MiB | RS MiB | output MiB | compute MiB (error) | total MiB (error) |\n"
                                 "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");

  /* The grid stands alone: the benchmark runs every setting of it, the
   * test the table above. */
  for (guint i = 0; !grid && i < G_N_ELEMENTS (settings); i++)
    {
      const Setting *s = &settings[i];
      g_autofree char *name = g_strdup_printf ("/llama/%s/ctx%u-np%u-fa%s-%s", s->model, s->context,
                                               s->slots, s->flash ? "on" : "off", s->kv);
      g_test_add_data_func (name, s, test_setting);
    }
  if (!grid)
    {
      g_test_add_func ("/llama/quantized-v-without-flash-attention", test_quantized_v_without_flash);
      g_test_add_func ("/llama/quantized-head-not-divisible", test_quantized_head_not_divisible);
      g_test_add_func ("/llama/mtp-rs-seq", test_mtp_rs_seq);
      for (guint i = 0; i < G_N_ELEMENTS (server_settings); i++)
        {
          const ServerSetting *s = &server_settings[i];
          g_autofree char *name = g_strdup_printf ("/llama/llama-server/%s/c%u-np%u%s%s", s->model, s->n_ctx, s->slots,
                                                   s->fit_room_mib > 0 ? "-fit" : "",
                                                   s->n_cpu_moe == G_MAXUINT32 ? "-cpu-moe" : s->n_cpu_moe > 0 ? "-n-cpu-moe" : "");
          g_test_add_data_func (name, s, test_server_defaults);
        }
      for (guint i = 0; i < G_N_ELEMENTS (draft_settings); i++)
        {
          const DraftSetting *s = &draft_settings[i];
          g_autofree char *name = g_strdup_printf ("/llama/draft/c%u-np%u-fa%s-%s", s->n_ctx, s->slots,
                                                   s->flash ? "on" : "off", s->kv);
          g_test_add_data_func (name, s, test_draft);
        }
      for (guint i = 0; i < G_N_ELEMENTS (draft_settings); i++)
        {
          const DraftSetting *s = &draft_settings[i];
          g_autofree char *name = g_strdup_printf ("/llama/mtp/c%u-np%u-fa%s-%s", s->n_ctx, s->slots,
                                                   s->flash ? "on" : "off", s->kv);
          g_test_add_data_func (name, s, test_mtp);
        }
    }
  else
    {
      static const struct { gboolean flash; const char *kv; } modes[] = {
        { TRUE, "f16" }, { FALSE, "f16" }, { TRUE, "q8_0" },
      };
      guint n = 0;

      grid_settings = g_new0 (Setting, G_N_ELEMENTS (grid_models) * G_N_ELEMENTS (grid_contexts) * 2 * G_N_ELEMENTS (modes));
      for (guint m = 0; m < G_N_ELEMENTS (grid_models); m++)
        for (guint c = 0; c < G_N_ELEMENTS (grid_contexts); c++)
          for (guint32 slots = 1; slots <= 4; slots += 3)
            for (guint k = 0; k < G_N_ELEMENTS (modes); k++)
              {
                Setting *s = &grid_settings[n++];
                g_autofree char *name = NULL;

                if ((guint64) grid_contexts[c] * slots > 65536)
                  {
                    n--;
                    continue;
                  }
                *s = (Setting) { grid_models[m], grid_contexts[c], slots, modes[k].flash, modes[k].kv };
                name = g_strdup_printf ("/llama/grid/%s/ctx%u-np%u-fa%s-%s", s->model, s->context,
                                        s->slots, s->flash ? "on" : "off", s->kv);
                g_test_add_data_func (name, s, test_setting);
              }
    }

  status = g_test_run ();
  write_report ();
  if (grid)
    g_print ("%s", suite.report->str);

  {
    GHashTableIter iter;
    gpointer path;

    g_hash_table_iter_init (&iter, suite.paths);
    while (g_hash_table_iter_next (&iter, NULL, &path))
      g_unlink (path);
  }
  g_rmdir (suite.dir);
  g_hash_table_unref (suite.paths);
  g_hash_table_unref (suite.specs);
  if (suite.report != NULL)
    g_string_free (suite.report, TRUE);
  g_free (suite.dir);
  g_free (suite.server);
  return status;
}
