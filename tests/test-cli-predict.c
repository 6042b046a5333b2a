/* test-cli-predict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli predict and matrix (app/cli/hr-cli-predict.c), run as a
 * child process ($HEADROOM_CLI) on a fixture catalog and measurement
 * archive written into the test's isolated data directory; every line of
 * the output is asserted.
 *
 * The fixture: llama3.2:3b with its real tensor bytes as the file size
 * (2,011,539,712, the GPU model buffer llama-server logs) and phi4 with its
 * real blob size; one measurement on the seed's Jetson taking the `ollama
 * ps` figures the seed printed for the DGX Spark (2.6 GB at 4096 and 4.1 GB
 * at 16384, docs/seed-figures.md) as reported bytes, with a made-up decode rate of
 * 60 t/s: a fixture, not a measurement.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli-test-util.h"

static const char catalog_json[] =
  "{\"version\": 1, \"models\": ["
  " {\"name\": \"llama3.2:3b\", \"architecture\": \"llama\", \"parameters\": 3212749888, \"precision\": \"q4_K_M\","
  "  \"file_bytes\": 2011539712, \"layers\": 28, \"heads\": 24, \"kv_heads\": 8, \"head_dim\": 128,"
  "  \"embedding_length\": 3072, \"context_length\": 131072, \"vocab_size\": 128256, \"tied_embeddings\": true},"
  " {\"name\": \"phi4\", \"architecture\": \"phi3\", \"parameters\": 14659507200, \"precision\": \"q4_K_M\","
  "  \"file_bytes\": 9053114464, \"layers\": 40, \"heads\": 40, \"kv_heads\": 10, \"head_dim\": 128,"
  "  \"embedding_length\": 5120, \"context_length\": 16384, \"vocab_size\": 100352, \"tied_embeddings\": false}"
  "]}";

static const char measurement_json[] =
  "{\"board\": \"jetson-orin-nano-super\", \"model\": \"llama3.2:3b\", \"date\": \"2026-11-29\","
  " \"runtime_version\": \"ollama 0.31.2\", \"decode_tps\": {\"mean\": 60.0}, \"weight_bytes\": 2011539712,"
  " \"source\": \"test fixture\", \"sizes\": ["
  "  {\"context_tokens\": 4096, \"reported_bytes\": 2600000000, \"reported_vram_bytes\": 2600000000, \"predicted_bytes\": 0},"
  "  {\"context_tokens\": 16384, \"reported_bytes\": 4100000000, \"reported_vram_bytes\": 4100000000, \"predicted_bytes\": 0}]}";


static char *catalog_path;
static char *measurements_dir;

/* Writes the fixtures into this test's isolated data directory. */
static void
write_fixtures (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "fixtures", NULL);
  g_autofree char *m = NULL;

  g_clear_pointer (&catalog_path, g_free);
  g_clear_pointer (&measurements_dir, g_free);
  measurements_dir = g_build_filename (dir, "measurements", NULL);
  g_assert_cmpint (g_mkdir_with_parents (measurements_dir, 0700), ==, 0);
  catalog_path = g_build_filename (dir, "catalog.json", NULL);
  g_assert_true (g_file_set_contents (catalog_path, catalog_json, -1, &error));
  m = g_build_filename (measurements_dir, "jetson-llama3.2-3b.json", NULL);
  g_assert_true (g_file_set_contents (m, measurement_json, -1, &error));
  g_assert_no_error (error);
}

/* Runs headroom-cli with the fixture catalog and archive appended. */
static void
run_cli_with_fixtures (Run *r, ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = NULL;
  const char *arg;
  va_list ap;
  int wait_status;

  write_fixtures ();
  g_ptr_array_add (args, (char *) g_getenv ("HEADROOM_CLI"));
  va_start (ap, r);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, (char *) "--catalog");
  g_ptr_array_add (args, catalog_path);
  g_ptr_array_add (args, (char *) "--measurements");
  g_ptr_array_add (args, measurements_dir);
  g_ptr_array_add (args, NULL);

  envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  if (g_test_verbose ())
    g_printerr ("%s", r->err);
  r->status = WEXITSTATUS (wait_status);
}

/* The 0.30 era at 16384 tokens: the principled 3.9975 GB plus the overhead
 * learned from the two fixture points is the reported 4.1 GB. */
static void
test_predict (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "predict", "llama3.2:3b", "--context", "16384", "--server-version", "0.31.2", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
                   "llama3.2:3b at 16,384 tokens: 1 slot, f16 KV cache, flash attention on, ubatch 512\n"
                   "runtime: Ollama 0.30 and newer (llama-server buffers)\n"
                   "\n"
                   "Weights on the GPU: 2,011,539,712 bytes (2.01 GB)\n"
                   "  every tensor = 2,011,539,712 bytes (tied embeddings: the output is token_embd's GPU copy)\n"
                   "  note: The model has no output tensor, so llama.cpp loads token_embd a second time as the output on the GPU; the input copy (226,551,398 bytes) stays in host memory and is not in the ollama ps size. Without a tensor list the file size stands for every tensor (it also holds the GGUF header, a few MB).\n"
                   "  source: docs/runtimes.md \"Ollama 0.30 and newer\"; llama.cpp src/llama-model.cpp load_tensors (the input token_embd stays in host memory; a tied output is loaded as a GPU copy); Ollama llm/llama_server.go (size = the GPU buffers when every layer is offloaded)\n"
                   "\n"
                   "KV cache: 1,879,048,192 bytes (1.88 GB)\n"
                   "  28 layers x 8 KV heads x (128 + 128) x 16,384 cells x 2 bytes = 1,879,048,192 bytes\n"
                   "  note: Cells = pad256(num_ctx x slots) = pad256(16,384 x 1) = 16,384: llama.cpp pads the cache to a multiple of 256.\n"
                   "  source: llama.cpp src/llama-kv-cache.cpp (per layer: cells x KV heads x (key + value length) x element size; the context padded to 256 cells) and src/llama-kv-cache-iswa.cpp (sliding-window layers: pad256(min(context, window x slots + ubatch))); element sizes from ggml: f16 2, q8_0 34/32, q4_0 18/32\n"
                   "\n"
                   "Compute buffer: 106,960,896 bytes (0.11 GB)\n"
                   "  ubatch x 4 x (3 x n_ff + embedding) + cells x ubatch x (4 + 2) = 512 x 4 x (3 x 8,193 + 3,072) + 16,384 x 512 x 6 = 106,960,896 bytes\n"
                   "  note: With flash attention the feed-forward intermediates (gate, up and their product, f32) and the attention mask (f32 and an f16 copy) are the peak; llama-server reserves one output per slot, so no vocab x ubatch logits. n_ff inferred from the parameter count (no tensor list).\n"
                   "  source: Headroom's estimate of llama.cpp src/llama-context.cpp graph_reserve (the worst-case graph, ubatch tokens against the full KV cache, allocated by ggml-alloc with reuse: the peak of tensors alive at once), after docs/memory-model.md \"Compute buffer\"; checked against docs/seed-figures.md's 66 / 228 MiB (llama3.2:3b, 4096), 112 / 300 MiB (Llama-3.1-8B, 4096) and 137 / 353 MiB (phi-4, 4096), flash attention on / off\n"
                   "\n"
                   "Learned overhead: 102,451,200 bytes (0.10 GB)\n"
                   "  a + b x num_ctx = 31,831,040 + 4310.312 x 16,384 = 102,451,200 bytes\n"
                   "  note: learned from 2 measurements on this board, residual now 0.00 GB\n"
                   "  source: Headroom app/core/speed/hr-calibration.c: least-squares fit of reported - predicted (/api/ps size less the runtime model's total) = a + b x num_ctx over this board's measurements at this server version, outliers beyond 3 x 1.4826 x MAD of a Theil-Sen line set aside\n"
                   "\n"
                   "total: 4,100,000,000 bytes = 4.10 GB = 3.82 GiB\n"
                   "ollama ps would show: 4.1 GB\n"
                   "also in host memory: 226,551,398 bytes (0.23 GB), not in the ollama ps size\n"
                   "on Jetson Orin Nano Super (budget 5.1 GB, unified: host memory counts): 4.33 GB, fits, 0.77 GB under budget\n"
                   "notes:\n"
                   "  - Flash attention auto: Ollama starts llama-server with --flash-attn auto, which turns it on where the GPU backend supports it (CUDA and Metal do).\n"
                   "  - No tensor list: token_embd estimated as vocab x embedding x bits / 8 = 128,256 x 3,072 x 4.60 / 8 = 226,551,398 bytes, at the precision's average bits per weight.\n"
                   "  - Prompt cache: Ollama passes no --cache-ram, so llama-server's default of 8,192 MiB holds: as slots take new prompts, the previous prompt's state (KV cells, recurrent state) is copied to host memory, dropping the oldest past the limit. Not allocated at load nor in the ollama ps size, so not in this total: up to 8,589,934,592 bytes of host memory.\n");
}

/* The old estimator, from a file size only: every term of llm/memory.go. */
/* The built-in catalog carries llama3.2:3b's exact blob
 * (2,019,377,376 bytes) and parameter count (3,212,749,888) from the seed
 * (docs/seed-figures.md W6), so the prediction on the DGX Spark says the 2.6 GB
 * the seed's `ollama ps` said at 4,096 tokens. At 16,384 tokens it says
 * 4.0 GB, not the seed's 4.1: weights 2,019,377,376 + KV 1,879,048,192
 * (1,792 MiB, llama.cpp's figure to the byte) + CUDA compute 106,960,896
 * (102 MiB) = 4,005,386,464 bytes, which `ollama ps` prints as 4.0 GB; the
 * seed's 4.1 GB means at least 4.05 GB, some 45 MB more than the buffers
 * modelled (the DGX Spark's graph at that context; docs/seed-figures.md lists
 * 88.0 MiB of compute for a newer graph, so it is not the compute
 * buffer's model alone). A measurement of the board closes it: with the
 * fixture archive's 4.1 GB the learned overhead makes it 4.1 (test_predict).
 * The seed's method keeps the seed's rounded 2.0 GB listing its tables
 * print. */
static void
test_exact_catalog_sizes (void)
{
  static const struct { const char *context, *lines[4]; } cases[] = {
    { "4096", { "Weights on the GPU: 2,019,377,376 bytes (2.02 GB)\n",
                "\ntotal: 2,558,351,584 bytes = 2.56 GB = 2.38 GiB\n",
                "\nollama ps would show: 2.6 GB\n", NULL } },
    { "16384", { "Weights on the GPU: 2,019,377,376 bytes (2.02 GB)\n",
                 "\ntotal: 4,005,386,464 bytes = 4.01 GB = 3.73 GiB\n",
                 "\nollama ps would show: 4.0 GB\n", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };

      run_cli (&r, "predict", "llama3.2:3b", "--board", "dgx-spark", "--context", cases[i].context, NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.err, ==, "");
      for (guint l = 0; cases[i].lines[l] != NULL; l++)
        if (strstr (r.out, cases[i].lines[l]) == NULL)
          g_error ("missing at %s tokens: %s\nin:\n%s", cases[i].context, cases[i].lines[l], r.out);
    }

  {
    g_auto(Run) r = { 0 };

    run_cli (&r, "predict", "llama3.2:3b", "--board", "dgx-spark", "--context", "4096", "--runtime", "seed", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "\nWeights: 2,000,000,000 bytes (2.00 GB)\n  the file as pulled: 2,000,000,000 bytes\n"));
    g_assert_nonnull (strstr (r.out, "\nruntime: the seed's weights + KV cache (teaching mode, not a server's figure)\n"));
  }
}

static void
test_predict_old_estimator (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "predict", "phi4", "--context", "4096", "--runtime", "ollama-0.12", "--parallel", "1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "phi4 at 4,096 tokens: 1 slot, f16 KV cache, flash attention off, ubatch 512\n"
                   "runtime: Ollama up to 0.12 (the old estimator)\n"
                   "\n"
                   "Per-GPU reserve: 479,199,232 bytes (0.48 GB)\n"
                   "  457 MiB = 479,199,232 bytes (CUDA or ROCm)\n"
                   "  note: Set aside on every GPU the model uses for the CUDA context and other structures; OLLAMA_GPU_OVERHEAD is only checked against free memory, not added.\n"
                   "  source: Ollama ml/device.go MinimumMemory (0.12; discover/gpu.go cudaMinimumMemory, rocmMinimumMemory and metalMinimumMemory before): 457 MiB per CUDA or ROCm GPU, 512 MiB on Metal\n"
                   "\n"
                   "Extra layer (buffer): 232,527,567 bytes (0.23 GB)\n"
                   "  blk.0 + its KV = 211,556,047 + 20,971,520 = 232,527,567 bytes\n"
                   "  source: Ollama llm/memory.go estimateGPULayers: \"add one layer worth of memory as a buffer\" (blk.0 and its KV)\n"
                   "\n"
                   "Repeating layers: 8,462,241,888 bytes (8.46 GB)\n"
                   "  40 repeating layers (blk.0 .. blk.39) = 8,462,241,888 bytes\n"
                   "  note: Without a tensor list: the weights less the embedding estimates.\n"
                   "  source: Ollama llm/memory.go estimateGPULayers: the sum of the blk.N tensor groups (fs/ggml GroupLayers)\n"
                   "\n"
                   "Output layer: 295,436,288 bytes (0.30 GB)\n"
                   "  output_norm + output = 0 + 295,436,288 = 295,436,288 bytes\n"
                   "  source: Ollama llm/memory.go estimateGPULayers: output_norm + output, or token_embd when the model has no output tensor\n"
                   "\n"
                   "KV cache: 838,860,800 bytes (0.84 GB)\n"
                   "  40 layers x 10 KV heads x (128 + 128) x 4,096 x 1 slot x 2 bytes = 838,860,800 bytes\n"
                   "  source: Ollama fs/ggml/ggml.go GraphSize: per layer num_ctx x slots x (key + value length) x KV heads x bytes per element (kvCacheBytesPerElement: f16 2, q8_0 1, q4_0 0.5)\n"
                   "\n"
                   "Compute graph: 559,240,533 bytes (0.56 GB)\n"
                   "  GQA x KV / 6 = (40 / 10) x 838,860,800 / 6 = 559,240,533 bytes\n"
                   "  note: batch = min(num_ctx, num_batch) = 512; context = num_ctx x slots = 4,096. No formula for this architecture: the default.\n"
                   "  source: Ollama fs/ggml/ggml.go GraphSize, the full-offload graph of the architecture (llm/memory.go: GQA x KV / 6 when the architecture has no formula)\n"
                   "\n"
                   "Learned overhead: 0 bytes (0.00 GB)\n"
                   "  0 bytes (no size measured yet)\n"
                   "  note: no memory size measured on this board yet: the overhead is the model's estimate\n"
                   "  source: Headroom app/core/speed/hr-calibration.c: least-squares fit of reported - predicted (/api/ps size less the runtime model's total) = a + b x num_ctx over this board's measurements at this server version, outliers beyond 3 x 1.4826 x MAD of a Theil-Sen line set aside\n"
                   "\n"
                   "total: 10,867,506,308 bytes = 10.87 GB = 10.12 GiB\n"
                   "ollama ps would show: 10 GB\n"
                   "on Jetson Orin Nano Super (budget 5.1 GB): over by 4.77 GB\n"
                   "notes:\n"
                   "  - Flash attention off: Ollama 0.12 turns it on only when OLLAMA_FLASH_ATTENTION is set or for gemma3, gpt-oss and qwen3.\n"
                   "  - No tensor list: token_embd estimated as vocab x embedding x bits / 8 = 100,352 x 5,120 x 4.60 / 8 = 295,436,288 bytes, at the precision's average bits per weight.\n");
}

/* llama-server run by hand (--runtime llama-server): without --context its
 * -c is unset, so --fit gives each of the 4 automatic slots phi4's trained
 * 16,384 tokens in one unified stream of 65,536 cells (no clamp), which the
 * DGX Spark holds; llama3.2:3b's 4 x 131,072 do not fit the RTX 3090, and
 * --fit shrinks them; with --parallel 2 the cache is two streams of -c / 2. */
/* `headroom-cli predict phi4 --runtime llama-server --board dgx-spark`. */
static const char phi4_llama_server_report[] =
  "phi4 at 65,536 tokens: 4 slots, f16 KV cache, flash attention on, ubatch 512\n"
  "runtime: llama-server with its own defaults (llama.cpp)\n"
  "\n"
  "Weights on the GPU: 8,757,678,176 bytes (8.76 GB)\n"
  "  every tensor - token_embd = 9,053,114,464 - 295,436,288 = 8,757,678,176 bytes\n"
  "  note: llama.cpp keeps the input embedding (token_embd, 295,436,288 bytes) in host memory; the model has its own output tensor, so token_embd is not on the GPU and not in the ollama ps size. Without a tensor list the file size stands for every tensor (it also holds the GGUF header, a few MB).\n"
  "  source: docs/runtimes.md \"Ollama 0.30 and newer\"; llama.cpp src/llama-model.cpp load_tensors (the input token_embd stays in host memory; a tied output is loaded as a GPU copy); Ollama llm/llama_server.go (size = the GPU buffers when every layer is offloaded)\n"
  "\n"
  "KV cache: 13,421,772,800 bytes (13.42 GB)\n"
  "  40 layers x 10 KV heads x (128 + 128) x 65,536 cells x 2 bytes = 13,421,772,800 bytes\n"
  "  note: llama-server's -np auto: 4 slots share one unified stream of pad256(n_ctx) = pad256(65,536) = 65,536 cells.\n"
  "  source: llama.cpp tools/server/server.cpp (-np auto: 4 slots, kv_unified true), src/llama-context.cpp (kv_unified: n_ctx_seq = n_ctx = pad256(-c)), src/llama-kv-cache.cpp (n_stream 1 when unified) and src/llama-kv-cache-iswa.cpp (a unified sliding-window stream: pad256(min(n_ctx, window x slots + ubatch)))\n"
  "\n"
  "Compute buffer: 321,918,976 bytes (0.32 GB)\n"
  "  ubatch x 4 x (3 x n_ff + embedding) + cells x ubatch x (4 + 2) = 512 x 4 x (3 x 17,921 + 5,120) + 65,536 x 512 x 6 = 321,918,976 bytes\n"
  "  note: With flash attention the feed-forward intermediates (gate, up and their product, f32) and the attention mask (f32 and an f16 copy) are the peak; llama-server reserves one output per slot, so no vocab x ubatch logits. n_ff inferred from the parameter count (no tensor list).\n"
  "  source: Headroom's estimate of llama.cpp src/llama-context.cpp graph_reserve (the worst-case graph, ubatch tokens against the full KV cache, allocated by ggml-alloc with reuse: the peak of tensors alive at once), after docs/memory-model.md \"Compute buffer\"; checked against docs/seed-figures.md's 66 / 228 MiB (llama3.2:3b, 4096), 112 / 300 MiB (Llama-3.1-8B, 4096) and 137 / 353 MiB (phi-4, 4096), flash attention on / off\n"
  "\n"
  "Learned overhead: 0 bytes (0.00 GB)\n"
  "  0 bytes (no size measured yet)\n"
  "  note: no memory size measured on this board yet: the overhead is the model's estimate\n"
  "  source: Headroom app/core/speed/hr-calibration.c: least-squares fit of reported - predicted (/api/ps size less the runtime model's total) = a + b x num_ctx over this board's measurements at this server version, outliers beyond 3 x 1.4826 x MAD of a Theil-Sen line set aside\n"
  "\n"
  "total: 22,501,369,952 bytes = 22.50 GB = 20.96 GiB\n"
  "ollama ps would show: 22 GB\n"
  "also in host memory: 295,436,288 bytes (0.30 GB), not in the ollama ps size\n"
  "on NVIDIA DGX Spark (GB10) (budget 113.9 GB, unified: host memory counts): 22.80 GB, fits, 91.13 GB under budget\n"
  "notes:\n"
  "  - No -c: llama-server's --fit (on by default) sizes the cache for every slot at the trained context, n_ctx = n_ctx_train x slots = 16,384 x 4 = 65,536 (common/fit.cpp), and shrinks it where that would leave less than its margin free (--fit-target, 1 GiB), to no less than 4,096 per stream (--fit-ctx).\n"
  "  - One request may use at most 16,384 tokens, the trained context (tools/server/server-context.cpp n_ctx_slot() caps each slot at it, and llama-server warns), but the cache of 65,536 cells per stream is allocated whole: no clamp.\n"
  "  - Flash attention auto: llama-server's --flash-attn defaults to auto (common/common.h), which turns it on where the backend runs the flash-attention op for the model's layers (src/llama-context.cpp resolve_fused_ops; the CPU, CUDA and Metal backends do).\n"
  "  - No tensor list: token_embd estimated as vocab x embedding x bits / 8 = 100,352 x 5,120 x 4.60 / 8 = 295,436,288 bytes, at the precision's average bits per weight.\n"
  "  - Prompt cache (--cache-ram 8,192 MiB): as slots take new prompts, llama-server copies the previous prompt's state (KV cells, recurrent state) to host memory, dropping the oldest past the limit. Not allocated at load, so not in this total: up to 8,589,934,592 bytes of host memory. --cache-ram 0 turns it off.\n";

static void
test_predict_llama_server (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "predict", "phi4", "--runtime", "llama-server", "--board", "dgx-spark", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, phi4_llama_server_report);
}

/* --fit shrinks the context to what leaves its margin free. */
static void
test_predict_llama_server_fit_shrinks (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "predict", "llama3.2:3b", "--runtime", "llama-server", "--board", "rtx-3090", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "llama3.2:3b at 183,552 tokens: 4 slots, f16 KV cache, flash attention on, ubatch 512\n"));
  g_assert_nonnull (strstr (r.out, "\n  - --fit: 524,288 tokens would take 63,808,323,840 bytes, leaving less than 1,024 MiB of the 24,769,803,776 bytes free, so llama-server shrinks the context between 4,096 (2,550,513,920 bytes) and 524,288 to 183,552 (common/fit.cpp: linearly, rounded down to 256).\n"));
}

/* -c and -np: one stream per slot, no --fit note. */
static void
test_predict_llama_server_slots (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "predict", "phi4", "--runtime", "llama-server", "--context", "32768", "--parallel", "2",
                         "--backend", "cpu", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "phi4 at 32,768 tokens: 2 slots, f16 KV cache, flash attention on, ubatch 512\n"
                                   "runtime: llama-server with its own defaults (llama.cpp)\n"));
  g_assert_nonnull (strstr (r.out, "\nKV cache: 6,710,886,400 bytes (6.71 GB)\n"
                                   "  40 layers x 10 KV heads x (128 + 128) x 32,768 cells x 2 bytes = 6,710,886,400 bytes\n"
                                   "  note: With -np 2 llama-server's cache is not unified: each slot has its own stream of pad256(pad256(32,768) / 2) = 16,384 cells, 32,768 in all.\n"));
  g_assert_null (strstr (r.out, "No -c"));
}

static void
test_predict_json (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;
  JsonArray *terms;

  /* Ollama 0.30+ passes the KV type to the V cache too, and llama-server
   * refuses a quantized V cache without flash attention: no prediction. */
  run_cli_with_fixtures (&r, "predict", "llama3.2:3b", "--context", "4096", "--kv-type", "q8_0", "--flash-attention", "off", "--json", NULL);
  g_assert_cmpint (r.status, !=, 0);
  g_assert_nonnull (strstr (r.err, "quantized V cache requires flash_attn to be enabled"));
  run_clear (&r);
  memset (&r, 0, sizeof r);

  run_cli_with_fixtures (&r, "predict", "llama3.2:3b", "--context", "4096", "--flash-attention", "off", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, "llama3.2:3b");
  g_assert_cmpstr (json_object_get_string_member (o, "era"), ==, "ollama-0.30");
  g_assert_cmpstr (json_object_get_string_member (o, "kv_cache_type"), ==, "f16");
  g_assert_false (json_object_get_boolean_member (o, "flash_attention"));
  terms = json_object_get_array_member (o, "terms");
  g_assert_cmpuint (json_array_get_length (terms), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (terms, 1), "bytes"), ==, 469762048);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (terms, 3), "id"), ==, "learned");
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "fits");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (o, "notes"), 0), ==,
                   "Server version unknown: modelled as Ollama 0.30 and newer.");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "notes")), ==, 3);
  /* llama-server's prompt cache: an upper bound in host memory, not in the total. */
  g_assert_cmpint (json_object_get_int_member (o, "prompt_cache_limit_bytes"), ==, G_GINT64_CONSTANT (8589934592));
}

static void
test_matrix (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "matrix", "--boards", "jetson-orin-nano-super,rtx-3090", "--context", "16384", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "context 16,384 tokens, as pulled, f16 KV cache, 1 slot\n"
                   "footprint: Ollama 0.30 and newer (llama-server buffers) + learned overhead; unified boards add what stays in host memory\n"
                   "cell: verdict (partial: layers on the GPU), margin in GB, decode t/s (m measured, e estimate, x extrapolated, p prior)\n"
                   "model        jetson-orin-nano-super  rtx-3090\n"
                   "llama3.2:3b  fits 0.77 60.0m         fits 20.27 311.8p\n"
                   "phi4         over 6.58 13.3x         fits 11.99 69.3p\n"
                   "jetson-orin-nano-super: recommended llama3.2:3b; learned from 2 measurements on this board, residual now 0.00 GB\n"
                   "rtx-3090: recommended phi4; no memory size measured on this board yet: the overhead is the model's estimate\n");
}

static void
test_matrix_csv (void)
{
  g_auto(Run) r = { 0 };

  run_cli_with_fixtures (&r, "matrix", "--boards", "jetson-orin-nano-super,rtx-3090", "--context", "16384", "--csv", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "model,board,verdict,margin_gb,footprint_gb,tps,source,speed,recommended\n"
                   "llama3.2:3b,jetson-orin-nano-super,fits,0.77,4.33,60.0,measured,ok,yes\n"
                   "llama3.2:3b,rtx-3090,fits,20.27,4.26,311.8,prior,likely ok,no\n"
                   "phi4,jetson-orin-nano-super,over,6.58,12.68,13.3,extrapolated,unknown,no\n"
                   "phi4,rtx-3090,fits,11.99,12.62,69.3,prior,likely ok,yes\n");
}

static void
test_matrix_json (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) alias = { 0 };
  JsonObject *o, *board, *cell;

  run_cli_with_fixtures (&r, "matrix", "--boards", "jetson-orin-nano-super", "--models", "llama3.2:3b", "--runtime", "seed", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* "none", matrix's older word for the seed's method, gives the same. */
  run_cli_with_fixtures (&alias, "matrix", "--boards", "jetson-orin-nano-super", "--models", "llama3.2:3b", "--runtime", "none", "--json", NULL);
  g_assert_cmpint (alias.status, ==, 0);
  g_assert_cmpstr (alias.out, ==, r.out);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "runtime"), ==, "seed");
  board = json_array_get_object_element (json_object_get_array_member (o, "boards"), 0);
  g_assert_cmpstr (json_object_get_string_member (board, "recommended"), ==, "llama3.2:3b");
  cell = json_array_get_object_element (json_object_get_array_member (board, "cells"), 0);
  /* The seed's footprint: weights (the file) + KV cache at 4096. */
  g_assert_cmpint (json_object_get_int_member (cell, "footprint_bytes"), ==, G_GINT64_CONSTANT (2011539712) + 469762048);
  g_assert_true (json_node_is_null (json_object_get_member (cell, "predicted_bytes")));
  g_assert_cmpstr (json_object_get_string_member (cell, "source"), ==, "measured");
}

static void
test_bad_arguments (void)
{
  static const struct {
    const char *args[6];
    const char *err;
  } cases[] = {
    { { "predict", NULL }, "headroom-cli: give the model to predict, e.g. \"headroom-cli predict llama3.2:3b --context 4096\"\n" },
    { { "predict", "nope:1b", NULL }, "headroom-cli: \"nope:1b\" is not in the catalog; run \"headroom-cli catalog\" to see the names\n" },
    { { "predict", "phi4", "--runtime", "ollama-0.20", NULL }, "headroom-cli: --runtime must be ollama-0.30, ollama-0.12, llama-server, auto or seed, not \"ollama-0.20\"\n" },
    { { "predict", "phi4", "--backend", "vulkan", NULL }, "headroom-cli: --backend must be cpu, cuda or metal, not \"vulkan\"\n" },
    { { "gguf", "x.gguf", "--flash-attention", "maybe", NULL }, "headroom-cli: --flash-attention must be on, off or auto, not \"maybe\"\n" },
    { { "hub", "a/b", "--kv-type", "q2", NULL }, "headroom-cli: --kv-type must be f16, q8_0 or q4_0, not \"q2\"\n" },
    { { "predict", "phi4", "--flash-attention", "maybe", NULL }, "headroom-cli: --flash-attention must be on, off or auto, not \"maybe\"\n" },
    { { "predict", "phi4", "--server-version", "latest", NULL }, "headroom-cli: --server-version must look like 0.31.2, not \"latest\"\n" },
    { { "matrix", "--json", "--csv", NULL }, "headroom-cli: give at most one of --json and --csv\n" },
    { { "matrix", "--boards", "abacus", NULL }, "headroom-cli: unknown board \"abacus\"; the boards are: jetson-orin-nano-super, dgx-spark, rtx-3060-12gb, "
                                                "rtx-3090, rtx-4090, mac-m3-pro-18gb, mac-m4-pro-24gb, mac-m2-max-32gb, mac-m4-max-64gb, 2x-rtx-3090, rtx-3090-rtx-4090, rtx-5090-rtx-3090, "
                                "rtx-4060ti-16gb-rtx-3060-12gb, 4x-rtx-3090, 2x-rtx-a6000\n" },
    { { "matrix", "--runtime", "vllm", NULL }, "headroom-cli: --runtime must be ollama-0.30, ollama-0.12, llama-server, auto or seed, not \"vllm\"\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };

      run_cli_with_fixtures (&r, cases[i].args[0], cases[i].args[1], cases[i].args[2], cases[i].args[3], cases[i].args[4], cases[i].args[5]);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_cmpstr (r.err, ==, cases[i].err);
    }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/predict", test_predict);
  g_test_add_func ("/cli/predict-old-estimator", test_predict_old_estimator);
  g_test_add_func ("/cli/predict-llama-server/defaults", test_predict_llama_server);
  g_test_add_func ("/cli/predict-llama-server/fit-shrinks", test_predict_llama_server_fit_shrinks);
  g_test_add_func ("/cli/predict-llama-server/slots", test_predict_llama_server_slots);
  g_test_add_func ("/cli/predict-exact-catalog-sizes", test_exact_catalog_sizes);
  g_test_add_func ("/cli/predict-json", test_predict_json);
  g_test_add_func ("/cli/matrix", test_matrix);
  g_test_add_func ("/cli/matrix-csv", test_matrix_csv);
  g_test_add_func ("/cli/matrix-json", test_matrix_json);
  g_test_add_func ("/cli/bad-arguments", test_bad_arguments);

  status = g_test_run ();
  g_free (catalog_path);
  g_free (measurements_dir);
  return status;
}
