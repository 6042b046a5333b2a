/* test-cli-placement.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The placement inputs people set, through headroom-cli: --cpu-moe and
 * --n-cpu-moe (llama-server's tensor overrides, which Ollama 0.30+ passes
 * on from its environment), --tensor-split and --split-mode under
 * --runtime llama-server, their text, their JSON and their refusals, on
 * the built-in 2 x RTX 3090 board and qwen3:30b-a3b (48 MoE blocks).
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-test-util.h"
#include "llama/llama-models.h"

#define BOARD "2x-rtx-3090"
#define MODEL "qwen3:30b-a3b"

/* --n-cpu-moe 10 under Ollama: its one-GPU test still passes (the file's
 * estimate), so one GPU, every layer on it (fit stops for the override),
 * and blocks 0-9 keep their experts in host memory. */
static void
test_n_cpu_moe_ollama (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "predict", MODEL, "--board", BOARD, "--context", "8192", "--n-cpu-moe", "10", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out,
    "  experts of layers 0-9 kept in host memory by --n-cpu-moe 10: 3,764,509,440 bytes (ffn_*_exps); the rest of each layer stays on its GPU\n"
    "  (Ollama passes LLAMA_ARG_CPU_MOE / LLAMA_ARG_N_CPU_MOE from its environment on to llama-server)\n"
    "  fit does not place the layers (a tensor override set by the user): every layer on the GPUs, whether it fits or not\n"));
  g_assert_nonnull (strstr (r.out,
    "    GPU 1 NVIDIA GeForce RTX 3090: layers 0-48 (49, the output layer last): 15,928,985,958 bytes: weights 15,056,570,726, KV cache 805,306,368, compute 67,108,864; free after 9,340,817,818\n"
    "      10 of its blocks keep their expert tensors in host memory\n"));
  g_assert_nonnull (strstr (r.out, "  host: 4,031,509,658 bytes (4.03 GB): weights 3,943,429,274, KV cache 0, compute 88,080,384\n"));
  g_assert_nonnull (strstr (r.out, "  ollama ps would show: 19 GB, PROCESSOR 20%/80% CPU/GPU\n"));
  /* the host reads the active 8 of 128 experts of those 10 blocks */
  g_assert_nonnull (strstr (r.out, "  decode: t = 1,645,505,846 bytes / (936.0 GB/s x 0.67) on NVIDIA GeForce RTX 3090 (2.6 ms) + "
                                   "235,281,840 bytes / (51.2 GB/s x 0.75) on the CPU (6.1 ms) = 8.8 ms per token: 114.3 t/s\n"));
}

/* --cpu-moe under llama-server: every GPU, layers by free memory (25 and
 * 24), every block's experts in host memory; its JSON. */
static void
test_cpu_moe_llama_server (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o, *p, *d0;

  run_cli (&r, "predict", MODEL, "--board", BOARD, "--context", "8192", "--runtime", "llama-server", "--cpu-moe", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "\non 2 × NVIDIA GeForce RTX 3090, as llama-server and its fit place it:\n"
                                   "  experts of layers 0-47 kept in host memory by --cpu-moe: 18,069,645,312 bytes (ffn_*_exps); the rest of each layer stays on its GPU\n"
                                   "  fit does not place the layers (a tensor override set by the user): every layer on the GPUs, whether it fits or not\n"));
  g_assert_nonnull (strstr (r.out, "  llama-server uses every GPU of the board, in its order\n"
                                   "  per GPU (llama.cpp's layer split):\n"
                                   "    GPU 0 NVIDIA GeForce RTX 3090: layers 0-24 (25): 784,724,176 bytes: weights 298,184,912, KV cache 419,430,400, compute 67,108,864; free after 23,985,079,600\n"
                                   "      25 of its blocks keep their expert tensors in host memory\n"
                                   "    GPU 1 NVIDIA GeForce RTX 3090: layers 25-48 (24, the output layer last): 906,234,774 bytes: weights 453,249,942, KV cache 385,875,968, compute 67,108,864; free after 24,363,569,002\n"
                                   "      23 of its blocks keep their expert tensors in host memory\n"));
  g_assert_nonnull (strstr (r.out, "  host: 18,336,645,530 bytes (18.34 GB): weights 18,248,565,146, KV cache 0, compute 88,080,384\n"));
  g_assert_null (strstr (r.out, "first GPU only"));

  run_cli (&rj, "predict", MODEL, "--board", BOARD, "--context", "8192", "--runtime", "llama-server", "--cpu-moe", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, rj.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  p = json_object_get_object_member (o, "placement");
  g_assert_cmpstr (json_object_get_string_member (p, "n_cpu_moe"), ==, "all");
  g_assert_cmpint (json_object_get_int_member (p, "cpu_moe_layers"), ==, 48);
  g_assert_cmpint (json_object_get_int_member (p, "cpu_moe_bytes"), ==, 18069645312);
  g_assert_true (json_object_get_null_member (p, "tensor_split"));
  g_assert_cmpstr (json_object_get_string_member (p, "split_mode"), ==, "layer");
  g_assert_true (json_object_get_boolean_member (p, "fit_skipped"));
  g_assert_cmpstr (json_object_get_string_member (o, "gpu_choice"), ==, "llama-server");
  g_assert_false (json_object_get_boolean_member (o, "pipeline_parallel"));
  d0 = json_array_get_object_element (json_object_get_array_member (o, "devices"), 0);
  g_assert_cmpint (json_object_get_int_member (d0, "layers"), ==, 25);
  g_assert_cmpint (json_object_get_int_member (d0, "partial_layers"), ==, 25);
  g_assert_cmpint (json_object_get_int_member (d0, "weights_bytes"), ==, 298184912);
  g_assert_cmpint (json_object_get_int_member (d0, "kv_bytes"), ==, 419430400);
  g_assert_cmpint (json_object_get_int_member (d0, "free_bytes"), ==, 23985079600);
}

/* -ts 3,1: 0.75 of the 49 layers is 36.75, so layers 0-36 on GPU 0;
 * pipeline parallelism is on (every layer offloaded, no override).
 * -sm none --main-gpu 1: that GPU alone, fit on it. */
static void
test_tensor_split (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) rn = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;
  JsonArray *ts;

  run_cli (&r, "predict", MODEL, "--board", BOARD, "--context", "8192", "--runtime", "llama-server", "--tensor-split", "3,1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "  --tensor-split 3,1: the layers split in those shares (src/llama-model.cpp load_tensors), not by free memory\n"
                                   "  fit does not place the layers (-ts set by the user): every layer on the GPUs, whether it fits or not\n"));
  g_assert_nonnull (strstr (r.out, "    GPU 0 NVIDIA GeForce RTX 3090: layers 0-36 (37): 15,120,779,008 bytes: weights 14,369,998,592, KV cache 620,756,992, compute 130,023,424; free after 9,649,024,768\n"
                                   "    GPU 1 NVIDIA GeForce RTX 3090: layers 37-48 (12, the output layer last): 4,765,654,374 bytes: weights 4,451,081,574, KV cache 184,549,376, compute 130,023,424; free after 20,504,149,402\n"));
  g_assert_nonnull (strstr (r.out, "  verdict: fits, 9.15 GB under budget\n"));

  run_cli (&rj, "predict", MODEL, "--board", BOARD, "--context", "8192", "--runtime", "llama-server", "--tensor-split", "3/1", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, rj.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  ts = json_object_get_array_member (json_object_get_object_member (o, "placement"), "tensor_split");
  g_assert_cmpuint (json_array_get_length (ts), ==, 2);
  g_assert_cmpfloat (json_array_get_double_element (ts, 0), ==, 3.0);
  g_assert_true (json_object_get_boolean_member (o, "pipeline_parallel"));
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (o, "devices"), 0), "layers"), ==, 37);

  run_cli (&rn, "predict", MODEL, "--board", BOARD, "--context", "8192", "--runtime", "llama-server", "--split-mode", "none", "--main-gpu", "1", NULL);
  g_assert_cmpint (rn.status, ==, 0);
  g_assert_nonnull (strstr (rn.out, "  llama-server uses one GPU, NVIDIA GeForce RTX 3090 (--split-mode none, --main-gpu)\n"
                                    "    GPU 1 NVIDIA GeForce RTX 3090: layers 0-48 (49, the output layer last):"));
}

static void
assert_usage (const char *message,
              ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_auto(Run) r = { 0 };
  const char *arg;
  va_list ap;

  va_start (ap, message);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  while (args->len < 10)
    g_ptr_array_add (args, NULL);
  run_cli (&r, "predict", MODEL, args->pdata[0], args->pdata[1], args->pdata[2], args->pdata[3],
           args->pdata[4], args->pdata[5], args->pdata[6], args->pdata[7], NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_cmpstr (r.err, ==, message);
}

static void
test_refused (void)
{
  assert_usage ("headroom-cli: --cpu-moe and --n-cpu-moe both say which experts stay in host memory: give one of them\n",
                "--board", BOARD, "--cpu-moe", "--n-cpu-moe", "2", NULL);
  assert_usage ("headroom-cli: --n-cpu-moe keeps experts in host memory through llama-server's tensor overrides, which the ollama-0.12 runtime has none of: "
                "use --runtime llama-server (or ollama-0.30, which passes LLAMA_ARG_CPU_MOE / LLAMA_ARG_N_CPU_MOE on to it)\n",
                "--board", BOARD, "--runtime", "ollama-0.12", "--n-cpu-moe", "4", NULL);
  assert_usage ("headroom-cli: --tensor-split and --split-mode are llama-server's options: Ollama sets the split itself; use --runtime llama-server\n",
                "--board", BOARD, "--tensor-split", "1,1", NULL);
  assert_usage ("headroom-cli: --tensor-split gives 3 shares, but 2 × NVIDIA GeForce RTX 3090 has 2 GPUs: give one share per GPU, in their order\n",
                "--board", BOARD, "--runtime", "llama-server", "--tensor-split", "1,1,1", NULL);
  assert_usage ("headroom-cli: --tensor-split share 2 is negative or not a number: each GPU's share is 0 or more\n",
                "--board", BOARD, "--runtime", "llama-server", "--tensor-split", "1,-1", NULL);
  assert_usage ("headroom-cli: --tensor-split is all zero: give at least one GPU a share above 0\n",
                "--board", BOARD, "--runtime", "llama-server", "--tensor-split", "0,0", NULL);
  assert_usage ("headroom-cli: --tensor-split takes numbers such as 3,1, not \"a,1\"\n",
                "--board", BOARD, "--runtime", "llama-server", "--tensor-split", "a,1", NULL);
  assert_usage ("headroom-cli: --split-mode row needs a split buffer type, which llama.cpp's CUDA, ROCm, Vulkan and Metal backends no longer have: "
                "llama-server stops with \"device CUDA0 does not support split buffers\" (src/llama-model.cpp make_gpu_buft_list); use --split-mode layer\n",
                "--board", BOARD, "--runtime", "llama-server", "--split-mode", "row", NULL);
  assert_usage ("headroom-cli: --split-mode must be layer, row or none, not \"tensor\"\n",
                "--board", BOARD, "--runtime", "llama-server", "--split-mode", "tensor", NULL);
  assert_usage ("headroom-cli: --cpu-moe, --n-cpu-moe, --tensor-split and --split-mode place a model on GPUs with host memory; "
                "jetson-orin-nano-super keeps every layer in its one pool\n",
                "--cpu-moe", NULL);
}


/* `gguf FILE` with a placement input prints the split under its memory
 * (and in its JSON "prediction"); without one it prints none, as before. The
 * file: qwen3-30b-a3b's real shapes (tests/llama/llama-models.h, sparse),
 * so the expert bytes are its tensor list's. */
static void
test_gguf (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-placement-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "qwen3-30b-a3b.gguf", NULL);
  g_autoptr(LmModel) m = lm_qwen3_30b_a3b ();
  g_auto(Run) r = { 0 };
  g_auto(Run) rn = { 0 };
  g_auto(Run) rj = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o, *p;

  lm_model_write (m, path);
  run_cli (&r, "gguf", path, "--board", BOARD, "--context", "8192", "--runtime", "llama-server", "--n-cpu-moe", "4", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\non 2 × NVIDIA GeForce RTX 3090, as llama-server and its fit place it:\n"
                                   "  experts of layers 0-3 kept in host memory by --n-cpu-moe 4: 1,566,572,544 bytes (ffn_*_exps); the rest of each layer stays on its GPU\n"));
  g_assert_nonnull (strstr (r.out, "      4 of its blocks keep their expert tensors in host memory\n"));

  run_cli (&rn, "gguf", path, "--board", BOARD, "--context", "8192", NULL);
  g_assert_cmpint (rn.status, ==, 0);
  g_assert_null (strstr (rn.out, "experts of layers"));
  g_assert_null (strstr (rn.out, "llama.cpp's fit place it"));

  run_cli (&rj, "gguf", path, "--board", BOARD, "--context", "8192", "--cpu-moe", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, rj.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  p = json_object_get_object_member (json_object_get_object_member (o, "prediction"), "placement");
  g_assert_cmpstr (json_object_get_string_member (p, "n_cpu_moe"), ==, "all");
  g_assert_cmpint (json_object_get_int_member (p, "cpu_moe_layers"), ==, 48);
  g_assert_true (json_object_get_null_member (p, "split_mode"));

  g_unlink (path);
  g_rmdir (dir);
}


/* llama-server by hand without -c on two GPUs: --fit fits the context to
 * both (common/fit.cpp step 2): 2 x 25,019,803,776 free less one more
 * 1 GiB margin and 3 x (42,395,862,938 / 80 blocks) / 2 of waste is
 * 48,170,943,299 bytes, which 13,568 tokens fit; each GPU then keeps
 * about its margin free. */
static void
test_llama_server_fit_context (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "predict", "llama3.1:70b", "--board", BOARD, "--runtime", "llama-server", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_true (g_str_has_prefix (r.out, "llama3.1:70b at 13,568 tokens: 4 slots, f16 KV cache, flash attention on, ubatch 512\n"));
  g_assert_nonnull (strstr (r.out, "of the 48,170,943,299 bytes free, so llama-server shrinks the context between 4,096 (43,943,567,258 bytes) and 524,288 to 13,568"));
  g_assert_nonnull (strstr (r.out, "    GPU 0 NVIDIA GeForce RTX 3090: layers 0-39 (40): 23,487,162,540 bytes: weights 20,895,862,956, KV cache 2,222,981,120, compute 368,318,464; free after 1,282,641,236\n"
                                   "    GPU 1 NVIDIA GeForce RTX 3090: layers 40-80 (41, the output layer last): 24,091,299,566 bytes: weights 21,499,999,982, KV cache 2,222,981,120, compute 368,318,464; free after 1,178,504,210\n"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-placement/n-cpu-moe-ollama", test_n_cpu_moe_ollama);
  g_test_add_func ("/cli-placement/cpu-moe-llama-server", test_cpu_moe_llama_server);
  g_test_add_func ("/cli-placement/tensor-split", test_tensor_split);
  g_test_add_func ("/cli-placement/refused", test_refused);
  g_test_add_func ("/cli-placement/gguf", test_gguf);
  g_test_add_func ("/cli-placement/llama-server-fit-context", test_llama_server_fit_context);
  return g_test_run ();
}
