/* test-cli-boards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli boards detect` and `boards import`, and --gpus: what the
 * machine's tools say made into a board (a fake nvidia-smi on PATH prints
 * the fixture), the message where no tool is there (this machine has
 * none), a line that cannot be read, and the ad-hoc board's output.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-test-util.h"

static char *
fixture_path (const char *name)
{
  return g_build_filename (g_getenv ("HEADROOM_SOURCE_DIR"), "tests", "fixtures", "hardware", name, NULL);
}

/* Runs headroom-cli with PATH set to @path_dir only (and /bin for the
 * fake tool's shell). */
static void
run_with_path (Run        *r,
               const char *path_dir,
               const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int wait_status;

  g_ptr_array_add (argv, (char *) g_getenv ("HEADROOM_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  envp = g_environ_setenv (envp, "PATH", path_dir, TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  r->status = WEXITSTATUS (wait_status);
}

static void
test_detect_no_tool (void)
{
  g_autofree char *empty = g_dir_make_tmp ("headroom-path-XXXXXX", NULL);
  const char *args[] = { "boards", "detect", NULL };
  g_auto(Run) r = { 0 };

  if (g_file_test ("/sys/class/drm/card0/device/mem_info_vram_total", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("this machine has an amdgpu DRM memory file");
      return;
    }
  run_with_path (&r, empty, args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_cmpstr (r.err, ==, "headroom-cli: no GPU found: not there on this computer: nvidia-smi, amd-smi, rocm-smi, "
                   "/sys/class/drm/card*/device/mem_info_vram_total, vulkaninfo (only /proc/meminfo was read). "
                   "Run this on the machine with the GPUs, or paste the tools' output from it into \"headroom-cli boards import -\"\n");
  g_assert_cmpint (g_rmdir (empty), ==, 0);
}

/* A fake nvidia-smi that prints @body (a shell command) on PATH. */
static char *
fake_named_tool_dir (const char *name,
                     const char *body)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-tools-XXXXXX", NULL);
  g_autofree char *tool = g_build_filename (dir, name, NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n%s\n", body);

  g_assert_true (g_file_set_contents (tool, script, -1, NULL));
  g_assert_cmpint (g_chmod (tool, 0755), ==, 0);
  return g_steal_pointer (&dir);
}

static char *
fake_tool_dir (const char *body)
{
  return fake_named_tool_dir ("nvidia-smi", body);
}

static void
remove_tool_dir (const char *dir)
{
  g_autofree char *tool = g_build_filename (dir, "nvidia-smi", NULL);

  g_assert_cmpint (g_remove (tool), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A PATH folder whose nvidia-smi prints the two-GPU fixture. Returns: (transfer full) */
static char *
nvidia_smi_dir (void)
{
  g_autofree char *fixture = fixture_path ("nvidia-smi-2gpu.txt");
  g_autofree char *body = g_strdup_printf ("[ \"$1\" = --query-gpu=name,memory.total,memory.used ] && [ \"$2\" = --format=csv,noheader,nounits ] || exit 3\n/bin/cat '%s'", fixture);

  return fake_tool_dir (body);
}

/* The user's boards file. Returns: (transfer full) */
static char *
user_boards_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "headroom", "boards.json", NULL);
}

static const char * const nvidia_save[] = { "boards", "detect", "--bandwidth", "936,360", "--host-bandwidth", "51.2", "--save", NULL };

static void
test_detect_nvidia_smi (void)
{
  g_autofree char *dir = nvidia_smi_dir ();
  const char *args[] = { "boards", "detect", NULL };
  g_auto(Run) r = { 0 };

  run_with_path (&r, dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out,
                   "This computer (this-computer)\n"
                   "read:\n"
                   "  nvidia-smi: NVIDIA GeForce RTX 3090, memory.total 24,576 MiB, memory.used 1,234 MiB\n"
                   "  nvidia-smi: NVIDIA GeForce RTX 3060, memory.total 12,288 MiB, memory.used 210 MiB\n"
                   "  /proc/meminfo: MemTotal "));
  g_assert_nonnull (strstr (r.out, "GPU 0: NVIDIA GeForce RTX 3090, 24.0 GiB, 1.2 GiB in use, 0.5 GB reserved, bandwidth 936.0 GB/s (discrete, cuda)\n"));
  g_assert_nonnull (strstr (r.out, "GPU 1: NVIDIA GeForce RTX 3060, 12.0 GiB, 0.2 GiB in use, 0.5 GB reserved, bandwidth not known (discrete, cuda)\n"));
  g_assert_nonnull (strstr (r.out, "  - GPU 1 (NVIDIA GeForce RTX 3060): memory bandwidth not read (no tool prints it): give it in GB/s (--bandwidth), from the GPU's spec sheet\n"));
  g_assert_true (g_str_has_suffix (r.out, "not complete, so not saved: give what is missing (--bandwidth, --host-bandwidth), then --save\n"));
  remove_tool_dir (dir);
}

/* --save refuses a half-made board and writes nothing */
static void
test_detect_nvidia_smi_half_made (void)
{
  g_autofree char *dir = nvidia_smi_dir ();
  g_autofree char *boards_path = user_boards_path ();
  const char *half[] = { "boards", "detect", "--save", NULL };
  g_auto(Run) rh = { 0 };

  run_with_path (&rh, dir, half);
  g_assert_cmpint (rh.status, ==, 1);
  g_assert_nonnull (strstr (rh.err, "headroom-cli: not saved: field \"host_bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s (give what is missing: --bandwidth, --host-bandwidth)\n"));
  g_assert_false (g_file_test (boards_path, G_FILE_TEST_EXISTS));
  remove_tool_dir (dir);
}

/* complete: saved into the user's boards file, with its device list */
static void
test_detect_nvidia_smi_saved (void)
{
  g_autofree char *dir = nvidia_smi_dir ();
  g_autofree char *boards_path = user_boards_path ();
  g_autofree char *line = g_strdup_printf ("saved as \"this-computer\" in %s\n", boards_path);
  g_autofree char *saved = NULL;
  g_auto(Run) rs = { 0 };

  run_with_path (&rs, dir, nvidia_save);
  g_assert_cmpint (rs.status, ==, 0);
  g_assert_true (g_str_has_suffix (rs.out, line));
  g_assert_true (g_file_get_contents (boards_path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "\"name\" : \"NVIDIA GeForce RTX 3060\""));
  g_assert_nonnull (strstr (saved, "\"bandwidth_gb_s\" : 360.0"));
  g_assert_cmpint (g_remove (boards_path), ==, 0);
  remove_tool_dir (dir);
}

/* the same id again: refused, the file as it was; --force replaces it */
static void
test_detect_nvidia_smi_same_id (void)
{
  g_autofree char *dir = nvidia_smi_dir ();
  g_autofree char *boards_path = user_boards_path ();
  const char *forced[] = { "boards", "detect", "--bandwidth", "936,361", "--host-bandwidth", "51.2", "--save", "--force", NULL };
  g_auto(Run) rs = { 0 };
  g_auto(Run) again = { 0 };
  g_auto(Run) rforce = { 0 };
  g_autofree char *saved = NULL, *after = NULL, *replaced = NULL;

  run_with_path (&rs, dir, nvidia_save);
  g_assert_cmpint (rs.status, ==, 0);
  g_assert_true (g_file_get_contents (boards_path, &saved, NULL, NULL));
  run_with_path (&again, dir, nvidia_save);
  g_assert_cmpint (again.status, ==, 1);
  g_assert_nonnull (strstr (again.err, "headroom-cli: not saved: your boards file already has a board \"this-computer\": give another --id, or --force to replace it\n"));
  g_assert_true (g_file_get_contents (boards_path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, saved);
  run_with_path (&rforce, dir, forced);
  g_assert_cmpint (rforce.status, ==, 0);
  g_assert_true (g_file_get_contents (boards_path, &replaced, NULL, NULL));
  g_assert_nonnull (strstr (replaced, "\"bandwidth_gb_s\" : 361.0"));
  g_assert_null (strstr (replaced, "\"bandwidth_gb_s\" : 360.0"));
  g_assert_cmpint (g_remove (boards_path), ==, 0);
  remove_tool_dir (dir);
}

/* a tool that is there but fails: its words, no board */
static void
test_detect_nvidia_smi_fails (void)
{
  g_autofree char *failing = fake_tool_dir ("echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9");
  const char *args[] = { "boards", "detect", NULL };
  g_auto(Run) rf = { 0 };

  run_with_path (&rf, failing, args);
  g_assert_cmpint (rf.status, ==, 1);
  g_assert_cmpstr (rf.out, ==, "");
  g_assert_cmpstr (rf.err, ==, "headroom-cli: nvidia-smi failed: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n");
  remove_tool_dir (failing);
}

static void
test_import (void)
{
  g_autofree char *paste = fixture_path ("remote-paste.txt");
  g_autofree char *bad = g_build_filename (g_get_tmp_dir (), "headroom-bad-paste.txt", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0 };
  g_auto(Run) rb = { 0 };
  JsonObject *o, *board;
  JsonArray *devices;

  run_cli (&r, "boards", "import", paste, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_get_boolean_member (o, "complete"));
  board = json_object_get_object_member (o, "board");
  g_assert_cmpstr (json_object_get_string_member (board, "id"), ==, "this-computer");
  g_assert_cmpint (json_object_get_int_member (board, "host_pool_bytes"), ==, G_GINT64_CONSTANT (65776232) * 1024);
  devices = json_object_get_array_member (board, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (devices, 1), "memory_bytes"), ==, G_GINT64_CONSTANT (12288) * 1048576);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "confirm")), ==, 3);

  g_assert_true (g_file_set_contents (bad, "NVIDIA GeForce RTX 3090, 24576, 1234\nMemTotal: 65776232 kB\nGPU: one big card\n", -1, NULL));
  run_cli (&rb, "boards", "import", bad, NULL);
  g_assert_cmpint (rb.status, ==, 1);
  g_assert_cmpstr (rb.out, ==, "");
  g_assert_true (g_str_has_prefix (rb.err, "headroom-cli: line 3: cannot read \"GPU: one big card\": not the output of nvidia-smi"));
  g_assert_cmpint (g_remove (bad), ==, 0);
}

/* A fake amd-smi on PATH: `static --asic --vram --json` and `metric
 * --mem-usage --json` each print their fixture; the two join by GPU. */
static void
test_detect_amd_smi (void)
{
  g_autofree char *stat = fixture_path ("amd-smi-static.json");
  g_autofree char *body = g_strdup_printf ("case \"$*\" in\n"
                                           "'static --asic --vram --json') /bin/cat '%s' ;;\n"
                                           "'metric --mem-usage --json') echo '{\"gpu_data\": [{\"gpu\": 0, \"mem_usage\": "
                                           "{\"total_vram\": {\"value\": 24560, \"unit\": \"MB\"}, \"used_vram\": {\"value\": 1040, \"unit\": \"MB\"}}}]}' ;;\n"
                                           "*) exit 3 ;;\nesac", stat);
  g_autofree char *dir = fake_named_tool_dir ("amd-smi", body);
  g_autofree char *tool = g_build_filename (dir, "amd-smi", NULL);
  const char *args[] = { "boards", "detect", NULL };
  g_auto(Run) r = { 0 };

  run_with_path (&r, dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "This computer (this-computer)\n"
                                          "read:\n"
                                          "  amd-smi: Radeon RX 7900 XTX, VRAM total 25,753,026,560 bytes, used 1,090,519,040 bytes\n"));
  g_assert_nonnull (strstr (r.out, "GPU 0: Radeon RX 7900 XTX, 24.0 GiB, 1.0 GiB in use, 0.5 GB reserved, bandwidth not known (discrete, rocm)\n"));
  g_assert_cmpint (g_remove (tool), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A Mac's sysctl and system_profiler pasted: a unified Metal board whose
 * pool is not guessed, until --pool gives it. */
static void
test_import_mac (void)
{
  g_autofree char *sysctl = fixture_path ("sysctl-m2max.txt");
  g_autofree char *profiler = fixture_path ("system-profiler-m2max.txt");
  g_autofree char *a = NULL, *b = NULL;
  g_autofree char *paste = g_build_filename (g_get_tmp_dir (), "headroom-mac-paste.txt", NULL);
  g_auto(Run) r = { 0 };
  g_auto(Run) rp = { 0 };
  g_auto(Run) rn = { 0 };

  g_assert_true (g_file_get_contents (sysctl, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (profiler, &b, NULL, NULL));
  {
    g_autofree char *both = g_strconcat ("mac% sysctl hw.memsize iogpu.wired_limit_mb\n", a, "mac% system_profiler SPDisplaysDataType\n", b, NULL);

    g_assert_true (g_file_set_contents (paste, both, -1, NULL));
  }
  run_cli (&r, "boards", "import", paste, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "unified memory: pool 0.0 GiB (not known), 1.0 GB in use, 1.0 GB reserved, bandwidth 400.0 GB/s (metal)\n"));
  g_assert_null (strstr (r.out, "host memory:"));
  g_assert_nonnull (strstr (r.out, "  - pool: Apple M2 Max shares the Mac's 32.0 GiB; how much of it Metal lets the GPU use"));
  g_assert_true (g_str_has_suffix (r.out, "not complete, so not saved: give what is missing (--pool, --bandwidth), then --save\n"));

  run_cli (&rp, "boards", "import", paste, "--pool", "24GiB", NULL);
  g_assert_cmpint (rp.status, ==, 0);
  g_assert_nonnull (strstr (rp.out, "unified memory: pool 24.0 GiB, 1.0 GB in use"));
  g_assert_true (g_str_has_suffix (rp.out, "complete: --save puts it into your boards file\n"));

  /* --pool on a board with GPUs of their own: refused */
  {
    g_autofree char *nv = fixture_path ("remote-paste.txt");

    run_cli (&rn, "boards", "import", nv, "--pool", "24GiB", NULL);
  }
  g_assert_cmpint (rn.status, ==, 2);
  g_assert_nonnull (strstr (rn.err, "--pool is for a unified board (an Apple silicon Mac), and no unified GPU was read"));
  g_assert_cmpint (g_remove (paste), ==, 0);
}

/* qwen2.5:14b fits CUDA0 within 80 %: Ollama gives llama-server that
 * GPU alone, and the split is that GPU's (no first-GPU-only note). */
static void
test_gpus (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "predict", "qwen2.5:14b", "--gpus", "24GiB,12GiB", "--context", "8192", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "\non --gpus 24GiB,12GiB, as Ollama 0.30+ and llama.cpp's fit place it:\n"
                               "  free VRAM 25,769,803,776 bytes less the 1024 MiB fit margin: 24,696,061,952 bytes for the model\n"
                               "  layers: 49/49 on the GPU (the output layer and the last blocks), 0 on the CPU\n"
                               "  Ollama gives llama-server one GPU, CUDA0 (--split-mode none): its estimate 10,610,612,736 bytes (PredictServerVRAM) is within 80 % of that GPU's free memory\n"
                               "    GPU 0 CUDA0: layers 0-48 (49, the output layer last): 10,283,780,608 bytes: weights 8,552,323,584, KV cache 1,610,612,736, compute 120,844,288; free after 15,486,023,168\n"));
  g_assert_null (strstr (r.out, "first GPU only"));
  g_assert_nonnull (strstr (r.out, "  decode: not known: the memory bandwidth of CUDA0 is not known: it holds layers of the model\n"
                               "  rate: not known, speed unknown\n"));
}

/* qwen2.5:32b does not (22,147,483,648 > 80 % of 24 GiB): both GPUs,
 * every layer fits them, so the layers split by free memory, 2:1 (44 and
 * 21 of 65), pipeline parallelism on; CUDA1 is left with less. */
static void
test_gpus_layer_split (void)
{
  g_auto(Run) r32 = { 0 };

  run_cli (&r32, "predict", "qwen2.5:32b", "--gpus", "24GiB,12GiB", "--context", "8192", NULL);
  g_assert_cmpint (r32.status, ==, 0);
  g_assert_cmpstr (r32.err, ==, "");
  g_assert_nonnull (strstr (r32.out, "  Ollama gives llama-server every GPU of the group: its estimate 22,147,483,648 bytes (PredictServerVRAM) is above 80 % of each one's free memory\n"
                                 "  per GPU (llama.cpp's layer split; pipeline parallelism: 4 copies of the graph inputs on each, Headroom's estimate):\n"
                                 "    GPU 0 CUDA0: layers 0-43 (44): 14,898,155,904 bytes: weights 13,134,444,928, KV cache 1,476,395,008, compute 287,315,968; free after 10,871,647,872\n"
                                 "    GPU 1 CUDA1: layers 44-64 (21, the output layer last): 7,376,283,264 bytes: weights 6,417,878,656, KV cache 671,088,640, compute 287,315,968; free after 5,508,618,624\n"
                                 "  VRAM: 22,274,439,168 bytes (22.27 GB): weights 19,552,323,584, KV cache 2,147,483,648, compute 574,631,936\n"
                                 "  host: 556,728,320 bytes (0.56 GB): weights 447,676,416, KV cache 0, compute 109,051,904\n"));
  g_assert_nonnull (strstr (r32.out, "  ollama ps would show: 22 GB, PROCESSOR 100% GPU\n"
                                 "  verdict: fits, 5.51 GB under budget\n"
                                 "  full first: GPU 1 CUDA1, 5,508,618,624 bytes free after the load\n"));
}

static void
test_gpus_layer_split_json (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) rj = { 0 };
  JsonObject *o, *d;
  JsonArray *devices;

  run_cli (&rj, "predict", "qwen2.5:32b", "--gpus", "24GiB,12GiB", "--context", "8192", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, rj.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_has_member (o, "first_device_only"));
  g_assert_cmpstr (json_object_get_string_member (o, "speed"), ==, "unknown");
  g_assert_cmpstr (json_object_get_string_member (o, "binding_device"), ==, "CUDA1");
  g_assert_cmpint (json_object_get_int_member (o, "binding_device_index"), ==, 1);
  g_assert_true (json_object_get_boolean_member (o, "spread"));
  g_assert_cmpstr (json_object_get_string_member (o, "gpu_choice"), ==, "none-fits");
  g_assert_true (json_object_get_boolean_member (o, "pipeline_parallel"));
  devices = json_object_get_array_member (o, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 2);
  d = json_array_get_object_element (devices, 0);
  g_assert_cmpstr (json_object_get_string_member (d, "name"), ==, "CUDA0");
  g_assert_cmpint (json_object_get_int_member (d, "layers"), ==, 44);
  g_assert_cmpint (json_object_get_int_member (d, "weights_bytes"), ==, G_GINT64_CONSTANT (13134444928));
  g_assert_cmpint (json_object_get_int_member (d, "kv_bytes"), ==, G_GINT64_CONSTANT (1476395008));
  g_assert_cmpint (json_object_get_int_member (d, "compute_bytes"), ==, 287315968);
  g_assert_cmpint (json_object_get_int_member (d, "free_bytes"), ==, G_GINT64_CONSTANT (10871647872));
  d = json_array_get_object_element (devices, 1);
  g_assert_cmpint (json_object_get_int_member (d, "layers"), ==, 21);
  g_assert_true (json_object_get_boolean_member (d, "output_layer"));
  g_assert_cmpint (json_object_get_int_member (d, "free_bytes"), ==, G_GINT64_CONSTANT (5508618624));
}

/* Ollama's inputs: main_gpu 1 puts it on CUDA1 alone; */
static void
test_gpus_main_gpu (void)
{
  g_auto(Run) rmain = { 0 };

  run_cli (&rmain, "predict", "qwen2.5:14b", "--gpus", "24GiB,12GiB", "--context", "8192", "--main-gpu", "1", NULL);
  g_assert_cmpint (rmain.status, ==, 0);
  g_assert_nonnull (strstr (rmain.out, "  Ollama gives llama-server one GPU, CUDA1 (--split-mode none): main_gpu names it\n"
                                   "    GPU 1 CUDA1: layers 0-48 (49, the output layer last): 10,283,780,608 bytes: weights 8,552,323,584, KV cache 1,610,612,736, compute 120,844,288; free after 2,601,121,280\n"));
}

/* OLLAMA_SCHED_SPREAD spreads it, split 2:1 by free memory (33 and 16 of
 * 49 layers). */
static void
test_gpus_sched_spread (void)
{
  g_auto(Run) rspread = { 0 };

  run_cli (&rspread, "predict", "qwen2.5:14b", "--gpus", "24GiB,12GiB", "--context", "8192", "--sched-spread", NULL);
  g_assert_cmpint (rspread.status, ==, 0);
  g_assert_nonnull (strstr (rspread.out, "  Ollama gives llama-server every GPU of the group: OLLAMA_SCHED_SPREAD is set\n"));
  g_assert_nonnull (strstr (rspread.out, "    GPU 0 CUDA0: layers 0-32 (33): "));
  g_assert_nonnull (strstr (rspread.out, "    GPU 1 CUDA1: layers 33-48 (16, the output layer last): "));
}

static void
test_gpus_usage_main_gpu (void)
{
  g_auto(Run) rmbad = { 0 };

  run_cli (&rmbad, "predict", "qwen2.5:14b", "--gpus", "24GiB,12GiB", "--main-gpu", "16", NULL);
  g_assert_cmpint (rmbad.status, ==, 2);
  g_assert_cmpstr (rmbad.err, ==, "headroom-cli: --main-gpu must be a whole number from 0 to 15, not \"16\"\n");
}

static void
test_gpus_usage_size (void)
{
  g_auto(Run) rbad = { 0 };

  run_cli (&rbad, "predict", "qwen2.5:14b", "--gpus", "24GiB,lots", NULL);
  g_assert_cmpint (rbad.status, ==, 2);
  g_assert_cmpstr (rbad.err, ==, "headroom-cli: --gpus: \"lots\" is not a size: write a positive number and a unit, as 24GiB or 24GB\n");
}

static void
test_gpus_usage_and_board (void)
{
  g_auto(Run) rboth = { 0 };

  run_cli (&rboth, "predict", "qwen2.5:14b", "--gpus", "24GiB", "--board", "rtx-3090", NULL);
  g_assert_cmpint (rboth.status, ==, 2);
  g_assert_cmpstr (rboth.err, ==, "headroom-cli: --gpus and --board both name the board: give one of them\n");
}

/* The built-in 2 x RTX 3090: llama3.1:70b at 8,192 tokens spreads over
 * both (its estimate is above 80 % of one), fits them whole, so the split
 * is by free memory (41 and 40 of 81 layers) with pipeline parallelism;
 * at 65,536 tokens fit fills the last GPU first and 22 layers stay on the
 * CPU. */
static void
test_two_rtx_3090 (void)
{
  g_auto(Run) r = { 0 };

  run_cli (&r, "predict", "llama3.1:70b", "--board", "2x-rtx-3090", "--context", "8192", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "    GPU 0 NVIDIA GeForce RTX 3090: layers 0-40 (41): 23,112,764,489 bytes: weights 21,418,259,529, KV cache 1,375,731,712, compute 318,773,248; free after 1,657,039,287\n"
                               "    GPU 1 NVIDIA GeForce RTX 3090: layers 41-80 (40, the output layer last): 22,604,999,505 bytes: weights 20,977,603,409, KV cache 1,308,622,848, compute 318,773,248; free after 2,664,804,271\n"));
  g_assert_nonnull (strstr (r.out, "  ollama ps would show: 45 GB, PROCESSOR 100% GPU\n"
                               "  verdict: fits, 1.16 GB under budget\n"
                               "  full first: GPU 0 NVIDIA GeForce RTX 3090, 1,657,039,287 bytes free after the load\n"
                               "  decode: every layer on the GPUs: 43,000,000,000 bytes of weights x (0.505 / 936.0 GB/s (NVIDIA GeForce RTX 3090) + "
                               "0.495 / 936.0 GB/s (NVIDIA GeForce RTX 3090)) per token = 21.8 t/s ceiling, x 0.67 = 14.6 t/s\n"
                               "  rate: 14.6 t/s (prior), speed likely ok\n"));
  g_assert_nonnull (strstr (r.out, "  free VRAM 50,039,607,552 bytes less the 1,024 MiB fit margin on each of the 2 GPUs: 47,892,123,904 bytes for the model\n"));
}

/* llama-server run by hand is placed across every GPU too (no Ollama
 * choice); */
static void
test_two_rtx_3090_llama_server (void)
{
  g_auto(Run) rs = { 0 };

  run_cli (&rs, "predict", "llama3.1:70b", "--board", "2x-rtx-3090", "--context", "8192", "--runtime", "llama-server", NULL);
  g_assert_cmpint (rs.status, ==, 0);
  g_assert_cmpstr (rs.err, ==, "");
  g_assert_nonnull (strstr (rs.out, "\non 2 × NVIDIA GeForce RTX 3090, as llama-server and its fit place it:\n"));
  g_assert_nonnull (strstr (rs.out, "  llama-server uses every GPU of the board, in its order\n"));
}

/* Ollama 0.12 is not, and says so. */
static void
test_two_rtx_3090_ollama_012 (void)
{
  g_auto(Run) r12 = { 0 };

  run_cli (&r12, "predict", "llama3.1:70b", "--board", "2x-rtx-3090", "--context", "8192", "--runtime", "ollama-0.12", NULL);
  g_assert_cmpint (r12.status, ==, 0);
  g_assert_cmpstr (r12.err, ==, "headroom-cli: sized on its first GPU only under --runtime ollama-0.12 (NVIDIA GeForce RTX 3090, 24.0 GiB): "
                                "Headroom places a model across this board's 2 GPUs for the Ollama 0.30+ and llama-server runtimes alone, so the other GPUs' "
                                "memory and bandwidth are not counted here\n");
}

static void
test_two_rtx_3090_partial (void)
{
  g_auto(Run) rl = { 0 };

  run_cli (&rl, "predict", "llama3.1:70b", "--board", "2x-rtx-3090", "--context", "65536", NULL);
  g_assert_cmpint (rl.status, ==, 0);
  g_assert_nonnull (strstr (rl.out, "  layers: 59/81 on the GPU (the output layer and the last blocks), 22 on the CPU\n"));
  g_assert_nonnull (strstr (rl.out, "  per GPU (llama.cpp's layer split):\n"
                                "    GPU 0 NVIDIA GeForce RTX 3090: layers 22-50 (29): 23,328,399,575 bytes: weights 15,149,500,631, KV cache 7,784,628,224, compute 394,270,720; free after 1,441,404,201\n"
                                "    GPU 1 NVIDIA GeForce RTX 3090: layers 51-80 (30, the output layer last): 23,932,536,623 bytes: weights 15,753,637,679, KV cache 7,784,628,224, compute 394,270,720; free after 1,337,267,153\n"));
  g_assert_nonnull (strstr (rl.out, "  ollama ps would show: 65 GB, PROCESSOR 28%/72% CPU/GPU\n"
                                "  verdict: partial 59/81, 11.81 GB of host memory left\n"
                                "  full first: GPU 1 NVIDIA GeForce RTX 3090, 1,337,267,153 bytes free after the load\n"
                                "  decode: t = 15,149,500,631 bytes / (936.0 GB/s x 0.67) on NVIDIA GeForce RTX 3090 (24.2 ms) + "
                                "15,753,637,679 bytes / (936.0 GB/s x 0.67) on NVIDIA GeForce RTX 3090 (25.1 ms) + "
                                "11,492,724,628 bytes / (51.2 GB/s x 0.75) on the CPU (299.3 ms) = 348.6 ms per token: 2.9 t/s\n"));
}

static void
test_two_rtx_3090_json (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) rj = { 0 };
  JsonArray *devices;
  JsonObject *o, *d;

  run_cli (&rj, "predict", "llama3.1:70b", "--board", "2x-rtx-3090", "--context", "8192", "--json", NULL);
  g_assert_cmpint (rj.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, rj.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "binding_device"), ==, "NVIDIA GeForce RTX 3090");
  g_assert_cmpint (json_object_get_int_member (o, "binding_device_index"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "vram_bytes"), ==, G_GINT64_CONSTANT (45717763994));
  devices = json_object_get_array_member (o, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 2);
  d = json_array_get_object_element (devices, 0);
  g_assert_cmpint (json_object_get_int_member (d, "layers"), ==, 41);
  g_assert_cmpint (json_object_get_int_member (d, "weights_bytes"), ==, G_GINT64_CONSTANT (21418259529));
  g_assert_cmpint (json_object_get_int_member (d, "kv_bytes"), ==, G_GINT64_CONSTANT (1375731712));
  g_assert_cmpint (json_object_get_int_member (d, "compute_bytes"), ==, 318773248);
  g_assert_cmpint (json_object_get_int_member (d, "free_bytes"), ==, G_GINT64_CONSTANT (1657039287));
  d = json_array_get_object_element (devices, 1);
  g_assert_cmpint (json_object_get_int_member (d, "layers"), ==, 40);
  g_assert_cmpint (json_object_get_int_member (d, "first_layer"), ==, 41);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cli-boards/detect-no-tool", test_detect_no_tool);
  g_test_add_func ("/cli-boards/detect-nvidia-smi/report", test_detect_nvidia_smi);
  g_test_add_func ("/cli-boards/detect-nvidia-smi/half-made", test_detect_nvidia_smi_half_made);
  g_test_add_func ("/cli-boards/detect-nvidia-smi/saved", test_detect_nvidia_smi_saved);
  g_test_add_func ("/cli-boards/detect-nvidia-smi/same-id", test_detect_nvidia_smi_same_id);
  g_test_add_func ("/cli-boards/detect-nvidia-smi/fails", test_detect_nvidia_smi_fails);
  g_test_add_func ("/cli-boards/import", test_import);
  g_test_add_func ("/cli-boards/detect-amd-smi", test_detect_amd_smi);
  g_test_add_func ("/cli-boards/import-mac", test_import_mac);
  g_test_add_func ("/cli-boards/gpus/one-gpu", test_gpus);
  g_test_add_func ("/cli-boards/gpus/layer-split", test_gpus_layer_split);
  g_test_add_func ("/cli-boards/gpus/layer-split-json", test_gpus_layer_split_json);
  g_test_add_func ("/cli-boards/gpus/main-gpu", test_gpus_main_gpu);
  g_test_add_func ("/cli-boards/gpus/sched-spread", test_gpus_sched_spread);
  g_test_add_func ("/cli-boards/gpus/usage-main-gpu", test_gpus_usage_main_gpu);
  g_test_add_func ("/cli-boards/gpus/usage-size", test_gpus_usage_size);
  g_test_add_func ("/cli-boards/gpus/usage-and-board", test_gpus_usage_and_board);
  g_test_add_func ("/cli-boards/two-rtx-3090/placement", test_two_rtx_3090);
  g_test_add_func ("/cli-boards/two-rtx-3090/llama-server", test_two_rtx_3090_llama_server);
  g_test_add_func ("/cli-boards/two-rtx-3090/ollama-0.12", test_two_rtx_3090_ollama_012);
  g_test_add_func ("/cli-boards/two-rtx-3090/partial", test_two_rtx_3090_partial);
  g_test_add_func ("/cli-boards/two-rtx-3090/json", test_two_rtx_3090_json);
  return g_test_run ();
}
