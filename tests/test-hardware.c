/* test-hardware.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hardware read, not typed: the parsers of nvidia-smi, rocm-smi,
 * amd-smi, the DRM sysfs files, vulkaninfo --summary, /proc/meminfo and
 * macOS's sysctl and system_profiler on fixture
 * outputs (tests/fixtures/hardware), malformed lines refused with the line,
 * and the board made from a reading.
 */
#include "config.h"

#include <string.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-hardware.h"

#define MIB G_GUINT64_CONSTANT (1048576)

static char *
fixture (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_SOURCE_DIR"), "tests", "fixtures", "hardware", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_hardware_nvidia_smi (void)
{
  g_autofree char *text = fixture ("nvidia-smi-2gpu.txt");
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(HrHardwareReading) untouched = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;
  const HrDevice *d;

  g_assert_true (hr_hardware_parse_nvidia_smi (text, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->devices->len, ==, 2);
  d = g_ptr_array_index (reading->devices, 0);
  g_assert_cmpstr (d->name, ==, "NVIDIA GeForce RTX 3090");
  g_assert_cmpuint (d->memory_bytes, ==, 24576 * MIB);
  g_assert_cmpuint (d->resident_bytes, ==, 1234 * MIB);
  g_assert_cmpfloat (d->bandwidth_bytes_per_s, ==, 0.0);
  g_assert_cmpint (d->kind, ==, HR_DEVICE_KIND_DISCRETE);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_CUDA);
  d = g_ptr_array_index (reading->devices, 1);
  g_assert_cmpstr (d->name, ==, "NVIDIA GeForce RTX 3060");
  g_assert_cmpuint (d->memory_bytes, ==, 12288 * MIB);
  g_assert_cmpstr (g_ptr_array_index (reading->read, 0), ==, "nvidia-smi: NVIDIA GeForce RTX 3090, memory.total 24,576 MiB, memory.used 1,234 MiB");

  /* with the header and units, as without noheader,nounits */
  g_assert_true (hr_hardware_parse_nvidia_smi ("name, memory.total [MiB], memory.used [MiB]\nNVIDIA RTX A6000, 49140 MiB, 5 MiB\n", untouched, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (((HrDevice *) g_ptr_array_index (untouched->devices, 0))->memory_bytes, ==, 49140 * MIB);
  g_ptr_array_set_size (untouched->devices, 0);

#define REFUSED(text, code, want) G_STMT_START { \
    g_assert_false (hr_hardware_parse_nvidia_smi (text, untouched, &error)); \
    g_assert_error (error, HR_CORE_ERROR, code); \
    g_assert_cmpstr (error->message, ==, want); \
    g_assert_cmpuint (untouched->devices->len, ==, 0); \
    g_clear_error (&error); } G_STMT_END

  /* one bad line: nothing is added, not even the good line before it */
  REFUSED ("NVIDIA GeForce RTX 3090, 24576, 1234\nNVIDIA GeForce RTX 3060, twelve, 210\n", HR_CORE_ERROR_PARSE,
           "nvidia-smi: cannot read \"NVIDIA GeForce RTX 3060, twelve, 210\": memory.total and memory.used must be whole MiB as \"nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits\" prints them");
  REFUSED ("NVIDIA GeForce RTX 3090 24576 1234\n", HR_CORE_ERROR_PARSE,
           "nvidia-smi: cannot read \"NVIDIA GeForce RTX 3090 24576 1234\": expected \"NAME, TOTAL, USED\" (MiB) as \"nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits\" prints it");
  REFUSED ("NVIDIA GB10, [N/A], [N/A]\n", HR_CORE_ERROR_PARSE,
           "nvidia-smi: \"NVIDIA GB10\" reports no memory.total ([N/A]): its GPU uses the system's memory (unified, as the DGX Spark's GB10); Headroom does not guess how much of it the GPU may take: confirm the pool (free -b) and use a unified board");
  REFUSED ("\n\n", HR_CORE_ERROR_NOT_FOUND, "nvidia-smi listed no GPU");
  /* more in use than there is: a paste from two readings, not a GPU */
  REFUSED ("NVIDIA GeForce RTX 3060, 12288, 12289\n", HR_CORE_ERROR_PARSE,
           "nvidia-smi: NVIDIA GeForce RTX 3060 uses 12,289 MiB of 12,288 MiB: memory.used cannot be more than memory.total");
#undef REFUSED
}

static void
test_hardware_amd (void)
{
  g_autofree char *text = fixture ("rocm-smi.txt");
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(HrHardwareReading) drm = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;
  const HrDevice *d;

  g_assert_true (hr_hardware_parse_rocm_smi (text, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->devices->len, ==, 1);
  d = g_ptr_array_index (reading->devices, 0);
  g_assert_cmpstr (d->name, ==, "Radeon RX 7900 XTX");
  g_assert_cmpuint (d->memory_bytes, ==, 25753026560);
  g_assert_cmpuint (d->resident_bytes, ==, 1090519040);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_ROCM);
  g_assert_cmpstr (g_ptr_array_index (reading->confirm, 0), ==,
                   "Radeon RX 7900 XTX: is it a discrete GPU? On an APU the VRAM figure is only the BIOS carve-out and the GPU can also use system memory: confirm its memory");

  g_assert_true (hr_hardware_parse_rocm_smi ("device,VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,17163091968,10645504\n", drm, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (((HrDevice *) g_ptr_array_index (drm->devices, 0))->name, ==, "ROCm0");
  g_ptr_array_set_size (drm->devices, 0);

  g_assert_false (hr_hardware_parse_rocm_smi ("GPU[0]\t\t: VRAM Total Memory (B): lots\n", drm, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "rocm-smi: cannot read \"GPU[0]  : VRAM Total Memory (B): lots\": the memory must be whole bytes");
  g_clear_error (&error);

  g_assert_true (hr_hardware_parse_drm ("/sys/class/drm/card1/device/mem_info_vram_total:17163091968\n"
                                        "/sys/class/drm/card1/device/mem_info_vram_used:10645504\n"
                                        "/sys/class/drm/card1/device/mem_info_gtt_total:33554432000\n", drm, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (drm->devices->len, ==, 1);
  d = g_ptr_array_index (drm->devices, 0);
  g_assert_cmpstr (d->name, ==, "card1");
  g_assert_cmpuint (d->memory_bytes, ==, 17163091968);
  g_assert_cmpuint (d->resident_bytes, ==, 10645504);

  g_assert_false (hr_hardware_parse_drm ("/sys/class/drm/card0/device/vendor:0x1002\n", drm, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "DRM sysfs: cannot read \"/sys/class/drm/card0/device/vendor:0x1002\": expected \"/sys/class/drm/cardN/device/mem_info_vram_total:BYTES\" as \"grep . /sys/class/drm/card*/device/mem_info_vram_*\" prints it");
}

static void
test_hardware_meminfo_vulkan (void)
{
  g_autofree char *meminfo = fixture ("meminfo.txt");
  g_autofree char *vulkan = fixture ("vulkaninfo-summary.txt");
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrBoard) board = NULL;

  g_assert_true (hr_hardware_parse_meminfo (meminfo, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->host_total_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);
  g_assert_cmpuint (reading->host_available_bytes, ==, G_GUINT64_CONSTANT (60000000) * 1024);

  g_assert_false (hr_hardware_parse_meminfo ("MemTotal: lots\n", reading, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "/proc/meminfo: cannot read \"MemTotal: lots\": expected \"Key:  N kB\"");
  g_clear_error (&error);
  g_assert_false (hr_hardware_parse_meminfo ("MemFree: 12 kB\n", reading, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_true (hr_hardware_parse_vulkaninfo (vulkan, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->vulkan_names->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (reading->vulkan_names, 0), ==, "NVIDIA GeForce RTX 3090 (discrete)");
  g_assert_cmpstr (g_ptr_array_index (reading->vulkan_names, 1), ==, "Intel(R) UHD Graphics 770 (ADL-S GT1) (integrated)");

  /* vulkaninfo alone gives no memory: no board, and the message says what was read */
  board = hr_hardware_make_board (reading, "this-computer", "This computer", NULL, NULL, 0, 0.0, &error);
  g_assert_null (board);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "vulkaninfo names NVIDIA GeForce RTX 3090 (discrete), Intel(R) UHD Graphics 770 (ADL-S GT1) (integrated) but gives no memory size, and no other tool gave one: run nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits or rocm-smi --showproductname --showmeminfo vram, or type the board in the board editor");
}

/* rocm-smi, vulkaninfo --summary and /proc/meminfo pasted one after the
 * other: each part goes to its parser. */
static void
test_hardware_paste_mixed (void)
{
  g_autofree char *rocm = fixture ("rocm-smi.txt");
  g_autofree char *vulkan = fixture ("vulkaninfo-summary.txt");
  g_autofree char *meminfo = fixture ("meminfo.txt");
  g_autofree char *paste = g_strconcat ("$ rocm-smi --showproductname --showmeminfo vram\n", rocm,
                                        "$ vulkaninfo --summary\n", vulkan,
                                        "$ cat /proc/meminfo\n", meminfo, NULL);
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_hardware_parse_paste (paste, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->devices->len, ==, 1);
  g_assert_cmpstr (((HrDevice *) g_ptr_array_index (reading->devices, 0))->name, ==, "Radeon RX 7900 XTX");
  g_assert_cmpuint (reading->vulkan_names->len, ==, 2);
  g_assert_cmpuint (reading->host_total_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);

  board = hr_hardware_make_board (reading, "this-computer", "This computer", NULL, NULL, 0, 0.0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (((HrDevice *) g_ptr_array_index (board->devices, 0))->backend, ==, HR_DEVICE_BACKEND_ROCM);
  g_assert_cmpint (board->backend, ==, HR_BOARD_BACKEND_CUDA);
  g_assert_cmpfloat (board->bandwidth_bytes_per_s, ==, 0.0);
}

/* The prompts of common shells before each command are skipped, not read
 * as a line of output (Debian's user@box:~$, Fedora's [user@box ~]$,
 * zsh's box%); a line of output that merely ends in $ is not a prompt. */
static void
test_hardware_paste_prompts (void)
{
  static const char *const prompts[] = {
    "user@box:~$ ", "[user@box ~]$ ", "box% ", "root@box:/# ", "$ ",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prompts); i++)
    {
      g_autofree char *paste = g_strconcat (prompts[i], "nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits\n"
                                            "NVIDIA GeForce RTX 3090, 24576, 1234\n",
                                            prompts[i], "cat /proc/meminfo\n"
                                            "MemTotal:       65776232 kB\n"
                                            "MemAvailable:   60000000 kB\n", NULL);
      g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
      g_autoptr(GError) error = NULL;

      g_assert_true (hr_hardware_parse_paste (paste, reading, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (reading->devices->len, ==, 1);
      g_assert_cmpuint (reading->host_total_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);
    }
  /* A name with a terminal escape in it is read as text, never raw. */
  {
    g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
    g_autoptr(GError) error = NULL;

    g_assert_true (hr_hardware_parse_nvidia_smi ("NVIDIA \x1b[31mRTX\x1b[0m 3090, 24576, 1234\n", reading, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (((HrDevice *) g_ptr_array_index (reading->devices, 0))->name, ==, "NVIDIA \\x1b[31mRTX\\x1b[0m 3090");
  }
  {
    g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
    g_autoptr(GError) error = NULL;

    g_assert_false (hr_hardware_parse_paste ("costs 5$ and more\n", reading, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_nonnull (strstr (error->message, "line 1"));
  }
}

/* amd-smi, as text and as JSON. The text fixtures take the shape of
 * ROCm/amdsmi's amdsmi_cli/README.md (its MI300A `amd-smi static` sample:
 * MARKET_NAME, VRAM SIZE 64289 MB) and, for `metric --mem-usage`, the keys
 * in the order amdsmi_cli/amdsmi_commands.py writes them (the figures are
 * the fixture's own); the JSON is the {"gpu_data": [...]} form later
 * amd-smi releases print. amd-smi's MB are MiB. */
/* static's names joined with metric's memory by GPU index */
static void
test_hardware_amd_smi (void)
{
  g_autofree char *stat = fixture ("amd-smi-static.txt");
  g_autofree char *metric = fixture ("amd-smi-metric-mem.txt");
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;
  const char *both[] = { stat, metric, NULL };
  const HrDevice *d;

  g_assert_true (hr_hardware_parse_amd_smi (both, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->devices->len, ==, 2);
  d = g_ptr_array_index (reading->devices, 0);
  g_assert_cmpstr (d->name, ==, "MI300A");
  g_assert_cmpuint (d->memory_bytes, ==, 65520 * MIB);
  g_assert_cmpuint (d->resident_bytes, ==, 283 * MIB);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_ROCM);
  g_assert_cmpint (d->kind, ==, HR_DEVICE_KIND_DISCRETE);
  d = g_ptr_array_index (reading->devices, 1);
  g_assert_cmpuint (d->resident_bytes, ==, 12 * MIB);
  g_assert_cmpstr (g_ptr_array_index (reading->read, 0), ==, "amd-smi: MI300A, VRAM total 68,702,699,520 bytes, used 296,747,008 bytes");
  /* the MI300A is an APU: what it reads as VRAM is for the user to confirm */
  g_assert_cmpstr (g_ptr_array_index (reading->confirm, 0), ==,
                   "MI300A: is it a discrete GPU? On an APU the VRAM figure is only the BIOS carve-out and the GPU can also use system memory: confirm its memory");
}

/* The one GPU amd-smi's @text describes. Returns: (transfer full) */
static HrHardwareReading *
amd_smi_alone (const char *text)
{
  const char *only[] = { text, NULL };
  g_autoptr(GError) error = NULL;
  HrHardwareReading *alone = hr_hardware_reading_new ();

  g_assert_true (hr_hardware_parse_amd_smi (only, alone, &error));
  g_assert_no_error (error);
  return alone;
}

/* static alone: its SIZE, nothing used */
static void
test_hardware_amd_smi_static_alone (void)
{
  g_autofree char *stat = fixture ("amd-smi-static.txt");
  g_autoptr(HrHardwareReading) alone = amd_smi_alone (stat);
  const HrDevice *d = g_ptr_array_index (alone->devices, 0);

  g_assert_cmpuint (d->memory_bytes, ==, 64289 * MIB);
  g_assert_cmpuint (d->resident_bytes, ==, 0);
}

static void
test_hardware_amd_smi_json (void)
{
  g_autofree char *json = fixture ("amd-smi-static.json");
  g_autoptr(HrHardwareReading) alone = amd_smi_alone (json);
  const HrDevice *d;

  g_assert_cmpuint (alone->devices->len, ==, 1);
  d = g_ptr_array_index (alone->devices, 0);
  g_assert_cmpstr (d->name, ==, "Radeon RX 7900 XTX");
  g_assert_cmpuint (d->memory_bytes, ==, 24560 * MIB);
}

/* amd-smi 24.x's bare list, with metric's figures */
static void
test_hardware_amd_smi_bare_list (void)
{
  g_autoptr(HrHardwareReading) alone = amd_smi_alone ("[{\"gpu\": 1, \"mem_usage\": {\"total_vram\": {\"value\": 16368, \"unit\": \"MB\"}, "
                                                      "\"used_vram\": {\"value\": 10, \"unit\": \"MB\"}}}]");
  const HrDevice *d = g_ptr_array_index (alone->devices, 0);

  g_assert_cmpstr (d->name, ==, "AMD GPU 1");
  g_assert_cmpuint (d->memory_bytes, ==, 16368 * MIB);
  g_assert_cmpuint (d->resident_bytes, ==, 10 * MIB);
}

/* amd-smi output that cannot be read: the line, and no GPU read. */
typedef struct {
  const char *path;
  const char *text;
  gint        code;
  const char *message;
} AmdSmiRefused;

static const AmdSmiRefused amd_smi_refused[] = {
  { "/hardware/amd-smi/refuses/size-not-a-number", "GPU: 0\n    VRAM:\n        SIZE: lots MB\n", HR_CORE_ERROR_PARSE,
    "amd-smi: cannot read \"SIZE: lots MB\": the memory must be whole MB as amd-smi prints it" },
  { "/hardware/amd-smi/refuses/no-colon", "GPU: 0\n    VRAM:\n        SIZE 64289 MB\n", HR_CORE_ERROR_PARSE,
    "amd-smi: cannot read \"SIZE 64289 MB\": expected \"KEY: VALUE\" lines as \"amd-smi static --asic --vram; amd-smi metric --mem-usage\" print them" },
  { "/hardware/amd-smi/refuses/no-gpu-line", "    VRAM:\n        SIZE: 64289 MB\n", HR_CORE_ERROR_PARSE,
    "amd-smi: cannot read \"VRAM:\": expected a \"GPU: N\" line first, as \"amd-smi static --asic --vram; amd-smi metric --mem-usage\" print it" },
  { "/hardware/amd-smi/refuses/json-not-mb", "[{\"gpu\": 0, \"vram\": {\"size\": {\"value\": 24, \"unit\": \"GB\"}}}]", HR_CORE_ERROR_PARSE,
    "amd-smi: cannot read its JSON: \"vram\": \"size\" is not whole MB (as \"amd-smi static --asic --vram; amd-smi metric --mem-usage\" print it with --json)" },
  { "/hardware/amd-smi/refuses/no-vram-total", "GPU: 0\n    ASIC:\n        MARKET_NAME: MI300A\n", HR_CORE_ERROR_PARSE,
    "amd-smi: GPU 0 has no VRAM total: nothing to size it with" },
  { "/hardware/amd-smi/refuses/no-gpu", "{\"gpu_data\": []}", HR_CORE_ERROR_NOT_FOUND,
    "amd-smi listed no GPU memory" },
};

static void
test_hardware_amd_smi_refused (gconstpointer data)
{
  const AmdSmiRefused *c = data;
  const char *one[] = { c->text, NULL };
  g_autoptr(HrHardwareReading) untouched = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hr_hardware_parse_amd_smi (one, untouched, &error));
  g_assert_error (error, HR_CORE_ERROR, c->code);
  g_assert_cmpstr (error->message, ==, c->message);
  g_assert_cmpuint (untouched->devices->len, ==, 0);
}

/* macOS: sysctl's memory and an Apple silicon GPU make a unified Metal
 * board whose pool is not guessed. The system_profiler fixtures take the
 * shape of public captures (an Apple M3 Max's -json output; the text
 * report's "Chipset Model", "Total Number of Cores", "VRAM (Total)" and
 * "VRAM (Dynamic, Max)" lines of Apple silicon and Intel Macs). */
/* The built-in boards (HEADROOM_DATA_DIR/boards.json). Returns: (transfer full) */
static GPtrArray *
builtin_boards (void)
{
  g_autofree char *builtin = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "boards.json", NULL);

  return hr_boards_load_file (builtin, NULL);
}

/* An M2 Max with 32 GB: its sysctl and, with @profiler, its system_profiler. */
static HrHardwareReading *
m2max_reading (gboolean profiler)
{
  g_autofree char *sysctl = fixture ("sysctl-m2max.txt");
  g_autofree char *text = fixture ("system-profiler-m2max.txt");
  g_autoptr(GError) error = NULL;
  HrHardwareReading *reading = hr_hardware_reading_new ();

  g_assert_true (hr_hardware_parse_sysctl (sysctl, reading, &error));
  g_assert_no_error (error);
  if (profiler)
    {
      g_assert_true (hr_hardware_parse_system_profiler (text, reading, &error));
      g_assert_no_error (error);
    }
  return reading;
}

static void
test_hardware_macos_sysctl (void)
{
  g_autoptr(HrHardwareReading) reading = m2max_reading (FALSE);

  g_assert_cmpuint (reading->host_total_bytes, ==, G_GUINT64_CONSTANT (34359738368));
  g_assert_cmpuint (reading->wired_limit_bytes, ==, 0);
  g_assert_true (reading->host_from_sysctl);
  g_assert_cmpstr (g_ptr_array_index (reading->read, 0), ==, "sysctl: hw.memsize 34,359,738,368 bytes");
  g_assert_cmpstr (g_ptr_array_index (reading->read, 1), ==, "sysctl: iogpu.wired_limit_mb 0 (macOS's default limit, which no tool prints)");
}

static void
test_hardware_macos_system_profiler (void)
{
  g_autoptr(HrHardwareReading) reading = m2max_reading (TRUE);

  g_assert_cmpstr (reading->unified_name, ==, "Apple M2 Max");
  g_assert_cmpuint (reading->unified_cores, ==, 38);
  g_assert_cmpuint (reading->devices->len, ==, 0);
  g_assert_cmpstr (g_ptr_array_index (reading->read, 2), ==, "system_profiler: Apple M2 Max (Apple silicon, 38 GPU cores): it shares the Mac's memory");
}

/* the unified board: pool 0, not guessed, and said; bandwidth from the
 * built-in "Apple M2 Max, 32 GB"; it does not validate until the pool
 * is given */
static void
test_hardware_macos_pool_not_guessed (void)
{
  g_autoptr(HrHardwareReading) reading = m2max_reading (TRUE);
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrBoard) board = hr_hardware_make_board (reading, "this-computer", "This computer", known, NULL, 0, 0.0, &error);

  g_assert_no_error (error);
  g_assert_true (board->unified);
  g_assert_cmpint (board->backend, ==, HR_BOARD_BACKEND_METAL);
  g_assert_cmpuint (board->pool_bytes, ==, 0);
  g_assert_cmpuint (board->resident_bytes, ==, 1000000000);
  g_assert_cmpuint (board->reserve_bytes, ==, 1000000000);
  g_assert_cmpfloat (board->bandwidth_bytes_per_s, ==, 400e9);
  g_assert_cmpuint (hr_board_n_devices (board), <=, 1);
  g_assert_nonnull (strstr (board->source, "bandwidth 400 GB/s from the built-in board \"mac-m2-max-32gb\""));
  g_assert_cmpstr (g_ptr_array_index (reading->confirm, 1), ==,
                   "pool: Apple M2 Max shares the Mac's 32.0 GiB; how much of it Metal lets the GPU use (recommendedMaxWorkingSetSize) neither sysctl nor system_profiler prints, and Headroom does not guess it: give it (--pool SIZE), or set iogpu.wired_limit_mb and read again");
  g_assert_false (hr_board_validate (board, NULL));
}

/* the share the user confirmed */
static void
test_hardware_macos_pool_confirmed (void)
{
  g_autoptr(HrHardwareReading) reading = m2max_reading (TRUE);
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrBoard) board = NULL;

  reading->unified_pool_bytes = G_GUINT64_CONSTANT (24) << 30;
  board = hr_hardware_make_board (reading, "this-computer", "This computer", known, NULL, 0, 0.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (board->pool_bytes, ==, G_GUINT64_CONSTANT (24) << 30);
  g_assert_true (hr_board_validate (board, &error));
  g_assert_no_error (error);
}

static void
test_hardware_macos_pool_past_memory (void)
{
  g_autoptr(HrHardwareReading) reading = m2max_reading (TRUE);
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(GError) error = NULL;

  reading->unified_pool_bytes = G_GUINT64_CONSTANT (33) << 30;
  g_assert_null (hr_hardware_make_board (reading, "x", "X", known, NULL, 0, 0.0, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "the GPU's share given (33.0 GiB) is more than the Mac's memory (32.0 GiB, hw.memsize)");
}

/* -json, and a wired limit the user set on the Mac: that is the pool */
static void
test_hardware_macos_wired_limit (void)
{
  g_autofree char *json = fixture ("system-profiler-m3max.json");
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(HrHardwareReading) m3 = hr_hardware_reading_new ();
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GError) error = NULL;
  const double bw[] = { 400.0 };

  g_assert_true (hr_hardware_parse_sysctl ("hw.memsize: 137438953472\niogpu.wired_limit_mb: 114688\n", m3, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (m3->wired_limit_bytes, ==, 114688 * MIB);
  g_assert_true (hr_hardware_parse_system_profiler (json, m3, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (m3->unified_name, ==, "Apple M3 Max");
  g_assert_cmpuint (m3->unified_cores, ==, 40);
  board = hr_hardware_make_board (m3, "this-computer", "This computer", known, bw, 1, 0.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (board->pool_bytes, ==, 114688 * MIB);
  g_assert_cmpfloat (board->bandwidth_bytes_per_s, ==, 400e9);
  g_assert_true (hr_board_validate (board, &error));
  g_assert_no_error (error);
}

/* an Intel Mac: the Radeon with its own VRAM is a Metal device, the
 * iGPU's shared maximum is named and not counted; `sysctl -n` */
static void
test_hardware_macos_intel_radeon (void)
{
  g_autofree char *intel = fixture ("system-profiler-intel-radeon.txt");
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(HrHardwareReading) mac = hr_hardware_reading_new ();
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(GError) error = NULL;
  const HrDevice *d;

  g_assert_true (hr_hardware_parse_sysctl ("17179869184\n", mac, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mac->host_total_bytes, ==, G_GUINT64_CONSTANT (17179869184));
  g_assert_true (hr_hardware_parse_system_profiler (intel, mac, &error));
  g_assert_no_error (error);
  g_assert_null (mac->unified_name);
  g_assert_cmpuint (mac->devices->len, ==, 1);
  d = g_ptr_array_index (mac->devices, 0);
  g_assert_cmpstr (d->name, ==, "AMD Radeon Pro 5500M");
  g_assert_cmpuint (d->memory_bytes, ==, G_GUINT64_CONSTANT (8) << 30);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_METAL);
  g_assert_cmpint (d->kind, ==, HR_DEVICE_KIND_DISCRETE);
  g_assert_cmpstr (g_ptr_array_index (mac->read, 1), ==,
                   "system_profiler: Intel UHD Graphics 630, up to 1,536 MiB of system memory (integrated: not counted as a GPU)");
  g_assert_cmpstr (g_ptr_array_index (mac->read, 2), ==, "system_profiler: AMD Radeon Pro 5500M, VRAM 8,192 MiB");
  board = hr_hardware_make_board (mac, "this-computer", "This computer", known, NULL, 0, 0.0, &error);
  g_assert_no_error (error);
  g_assert_false (board->unified);
  g_assert_cmpuint (board->host_pool_bytes, ==, G_GUINT64_CONSTANT (17179869184));
  g_assert_cmpuint (board->host_resident_bytes, ==, 0);
}

/* A Mac tool's output that cannot be read: the line, and nothing read. */
typedef struct {
  const char *path;
  gboolean  (*parse) (const char *, HrHardwareReading *, GError **);
  const char *text;
  gint        code;
  const char *message;
} MacBadOutput;

static const MacBadOutput mac_bad_outputs[] = {
  { "/hardware/macos/refuses/sysctl-not-a-number", hr_hardware_parse_sysctl, "hw.memsize: lots\n",
    HR_CORE_ERROR_PARSE, "sysctl: cannot read \"hw.memsize: lots\": hw.memsize must be a whole number" },
  { "/hardware/macos/refuses/sysctl-no-colon", hr_hardware_parse_sysctl, "hw.memsize 17179869184\n",
    HR_CORE_ERROR_PARSE, "sysctl: cannot read \"hw.memsize 17179869184\": expected \"hw.memsize: BYTES\" as \"sysctl hw.memsize iogpu.wired_limit_mb\" prints it" },
  { "/hardware/macos/refuses/sysctl-no-memsize", hr_hardware_parse_sysctl, "sysctl: unknown oid 'iogpu.wired_limit_mb'\n",
    HR_CORE_ERROR_NOT_FOUND, "sysctl: no hw.memsize line" },
  { "/hardware/macos/refuses/profiler-no-colon", hr_hardware_parse_system_profiler, "Graphics/Displays:\n  Chipset Model Apple M2\n",
    HR_CORE_ERROR_PARSE, "system_profiler: cannot read \"Chipset Model Apple M2\": expected \"Key: value\" lines as \"system_profiler SPDisplaysDataType\" prints them" },
  { "/hardware/macos/refuses/profiler-vram-words", hr_hardware_parse_system_profiler, "Chipset Model: Radeon\nVRAM (Total): eight GB\n",
    HR_CORE_ERROR_PARSE, "system_profiler: cannot read \"VRAM (Total): eight GB\": expected \"N GB\" or \"N MB\"" },
  { "/hardware/macos/refuses/profiler-no-gpu", hr_hardware_parse_system_profiler,
    "{\"SPDisplaysDataType\": [{\"sppci_model\": \"Intel Iris\", \"spdisplays_vram_shared\": \"1536 MB\"}]}",
    HR_CORE_ERROR_NOT_FOUND, "system_profiler listed no Apple silicon GPU and no GPU with its own VRAM" },
};

static void
test_hardware_macos_refuses (gconstpointer data)
{
  const MacBadOutput *bad = data;
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (bad->parse (bad->text, reading, &error));
  g_assert_error (error, HR_CORE_ERROR, bad->code);
  g_assert_cmpstr (error->message, ==, bad->message);
  g_assert_null (reading->unified_name);
  g_assert_cmpuint (reading->devices->len, ==, 0);
  g_assert_cmpuint (reading->host_total_bytes, ==, 0);
}

/* A Mac's and an AMD box's outputs pasted: sysctl, system_profiler (text
 * and -json) and amd-smi (text and --json) are told apart by their shape. */
/* @paste read without an error. Returns: (transfer full) */
static HrHardwareReading *
paste_reading (const char *paste)
{
  g_autoptr(GError) error = NULL;
  HrHardwareReading *r = hr_hardware_reading_new ();

  g_assert_true (hr_hardware_parse_paste (paste, r, &error));
  g_assert_no_error (error);
  return r;
}

static void
test_hardware_paste_macos_amd (void)
{
  g_autofree char *sysctl = fixture ("sysctl-m2max.txt");
  g_autofree char *text = fixture ("system-profiler-m2max.txt");
  g_autofree char *mac_paste = g_strconcat ("mac% sysctl hw.memsize iogpu.wired_limit_mb\n", sysctl,
                                            "mac% system_profiler SPDisplaysDataType\n", text, NULL);
  g_autoptr(HrHardwareReading) r = paste_reading (mac_paste);

  g_assert_cmpstr (r->unified_name, ==, "Apple M2 Max");
  g_assert_cmpuint (r->unified_cores, ==, 38);
  g_assert_cmpuint (r->host_total_bytes, ==, G_GUINT64_CONSTANT (34359738368));
}

static void
test_hardware_paste_macos_json (void)
{
  g_autofree char *json = fixture ("system-profiler-m3max.json");
  g_autofree char *json_paste = g_strconcat ("mac% sysctl hw.memsize\n", "hw.memsize: 137438953472\n",
                                             "mac% system_profiler SPDisplaysDataType -json\n", json, NULL);
  g_autoptr(HrHardwareReading) r = paste_reading (json_paste);

  g_assert_cmpstr (r->unified_name, ==, "Apple M3 Max");
  g_assert_cmpuint (r->host_total_bytes, ==, G_GUINT64_CONSTANT (137438953472));
}

static void
test_hardware_paste_amd_smi (void)
{
  g_autofree char *stat = fixture ("amd-smi-static.txt");
  g_autofree char *metric = fixture ("amd-smi-metric-mem.txt");
  g_autofree char *meminfo = fixture ("meminfo.txt");
  g_autofree char *amd_paste = g_strconcat ("$ amd-smi static --asic --vram\n", stat,
                                            "$ amd-smi metric --mem-usage\n", metric,
                                            "$ cat /proc/meminfo\n", meminfo, NULL);
  g_autoptr(HrHardwareReading) r = paste_reading (amd_paste);

  g_assert_cmpuint (r->devices->len, ==, 2);
  g_assert_cmpstr (((HrDevice *) g_ptr_array_index (r->devices, 0))->name, ==, "MI300A");
  g_assert_cmpuint (((HrDevice *) g_ptr_array_index (r->devices, 0))->memory_bytes, ==, 65520 * MIB);
  /* "NODE: 0"-like amd-smi lines did not go to /proc/meminfo's part */
  g_assert_cmpuint (r->host_total_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);
}

static void
test_hardware_paste_amd_smi_json (void)
{
  g_autofree char *amd_json = fixture ("amd-smi-static.json");
  g_autofree char *meminfo = fixture ("meminfo.txt");
  g_autofree char *amd_json_paste = g_strconcat ("$ amd-smi static --asic --vram --json\n", amd_json,
                                                 "$ cat /proc/meminfo\n", meminfo, NULL);
  g_autoptr(HrHardwareReading) r = paste_reading (amd_json_paste);

  g_assert_cmpuint (r->devices->len, ==, 1);
  g_assert_cmpuint (((HrDevice *) g_ptr_array_index (r->devices, 0))->memory_bytes, ==, 24560 * MIB);
}

static void
test_hardware_paste_json_cut (void)
{
  g_autofree char *cut = g_strconcat ("$ amd-smi static --json\n", "{\n    \"gpu_data\": [\n", NULL);
  g_autoptr(HrHardwareReading) r = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hr_hardware_parse_paste (cut, r, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "line 2: the JSON from there on is cut off: its brackets do not close");
  g_assert_cmpuint (r->devices->len, ==, 0);
}

/* remote-paste.txt (two NVIDIA GPUs and /proc/meminfo), read. Returns: (transfer full) */
static HrHardwareReading *
remote_paste_reading (void)
{
  g_autofree char *paste = fixture ("remote-paste.txt");

  return paste_reading (paste);
}

static void
test_hardware_paste_board (void)
{
  g_autoptr(HrHardwareReading) reading = remote_paste_reading ();

  g_assert_cmpuint (reading->devices->len, ==, 2);
  g_assert_cmpuint (reading->host_total_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);
}

/* the 3090's bandwidth is the built-in board's; the 3060 ("NVIDIA
 * GeForce RTX 3060", not "... 12 GB") and the host memory's are not read */
static void
test_hardware_paste_board_incomplete (void)
{
  g_autoptr(HrHardwareReading) reading = remote_paste_reading ();
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrBoard) board = NULL;
  const HrDevice *d;

  g_assert_nonnull (known);
  board = hr_hardware_make_board (reading, "this-computer", "This computer", known, NULL, 0, 0.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_board_n_devices (board), ==, 2);
  g_assert_cmpuint (board->pool_bytes, ==, 24576 * MIB);
  g_assert_cmpuint (board->resident_bytes, ==, 1234 * MIB);
  g_assert_cmpuint (board->reserve_bytes, ==, 500000000);
  g_assert_cmpfloat (board->bandwidth_bytes_per_s, ==, 936e9);
  d = g_ptr_array_index (board->devices, 1);
  g_assert_cmpfloat (d->bandwidth_bytes_per_s, ==, 0.0);
  g_assert_cmpuint (board->host_pool_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);
  g_assert_cmpuint (board->host_resident_bytes, ==, (G_GUINT64_CONSTANT (65776232) - 60000000) * 1024);
  g_assert_nonnull (strstr (board->source, "NVIDIA GeForce RTX 3090: bandwidth 936 GB/s from the built-in board \"rtx-3090\""));
  g_assert_cmpstr (g_ptr_array_index (reading->confirm, 0), ==,
                   "GPU 1 (NVIDIA GeForce RTX 3060): memory bandwidth not read (no tool prints it): give it in GB/s (--bandwidth), from the GPU's spec sheet");
  /* not complete: it does not validate, so it is not saved */
  g_assert_false (hr_board_validate (board, &error));
  g_assert_cmpstr (error->message, ==, "field \"host_bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s");
}

static void
test_hardware_paste_board_complete (void)
{
  g_autoptr(HrHardwareReading) reading = remote_paste_reading ();
  g_autoptr(GPtrArray) known = builtin_boards ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrBoard) complete = NULL;
  const double bandwidths[] = { 0.0, 360.0 };

  complete = hr_hardware_make_board (reading, "this-computer", "This computer", known, bandwidths, 2, 51.2, &error);
  g_assert_no_error (error);
  g_assert_true (hr_board_validate (complete, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (((HrDevice *) g_ptr_array_index (complete->devices, 1))->bandwidth_bytes_per_s, ==, 360e9);
}

static void
test_hardware_paste_board_bandwidth_count (void)
{
  g_autoptr(HrHardwareReading) reading = remote_paste_reading ();
  g_autoptr(GError) error = NULL;
  const double bandwidths[] = { 0.0, 360.0 };

  g_assert_null (hr_hardware_make_board (reading, "x", "X", NULL, bandwidths, 1, 0.0, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "1 bandwidths given for 2 GPUs: give one per GPU, in the order read (0 = not known)");
}

/* a line no tool printed: the line number, and nothing read */
static void
test_hardware_paste_refuses_line (void)
{
  g_autoptr(HrHardwareReading) bad = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hr_hardware_parse_paste ("NVIDIA GeForce RTX 3090, 24576, 1234\nTotal: 24 GB of VRAM\n", bad, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "line 2: cannot read \"Total: 24 GB of VRAM\": not the output of nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits, "));
  g_assert_cmpuint (bad->devices->len, ==, 0);
}

/* GPUs without host memory: no board */
static void
test_hardware_paste_no_host (void)
{
  g_autoptr(HrHardwareReading) bad = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_hardware_parse_paste ("NVIDIA GeForce RTX 3090, 24576, 1234\n", bad, &error));
  g_assert_null (hr_hardware_make_board (bad, "x", "X", NULL, NULL, 0, 0.0, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "no host memory was read (cat /proc/meminfo: MemTotal)");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hardware/nvidia-smi", test_hardware_nvidia_smi);
  g_test_add_func ("/hardware/amd", test_hardware_amd);
  g_test_add_func ("/hardware/meminfo-vulkan", test_hardware_meminfo_vulkan);
  g_test_add_func ("/hardware/paste-board/reading", test_hardware_paste_board);
  g_test_add_func ("/hardware/paste-board/incomplete", test_hardware_paste_board_incomplete);
  g_test_add_func ("/hardware/paste-board/complete", test_hardware_paste_board_complete);
  g_test_add_func ("/hardware/paste-board/bandwidth-count", test_hardware_paste_board_bandwidth_count);
  g_test_add_func ("/hardware/paste-board/refuses-line", test_hardware_paste_refuses_line);
  g_test_add_func ("/hardware/paste-board/no-host", test_hardware_paste_no_host);
  g_test_add_func ("/hardware/paste-mixed", test_hardware_paste_mixed);
  g_test_add_func ("/hardware/paste-prompts", test_hardware_paste_prompts);
  g_test_add_func ("/hardware/amd-smi/static-and-metric", test_hardware_amd_smi);
  g_test_add_func ("/hardware/amd-smi/static-alone", test_hardware_amd_smi_static_alone);
  g_test_add_func ("/hardware/amd-smi/json", test_hardware_amd_smi_json);
  g_test_add_func ("/hardware/amd-smi/bare-list", test_hardware_amd_smi_bare_list);
  for (guint i = 0; i < G_N_ELEMENTS (amd_smi_refused); i++)
    g_test_add_data_func (amd_smi_refused[i].path, &amd_smi_refused[i], test_hardware_amd_smi_refused);
  g_test_add_func ("/hardware/macos/sysctl", test_hardware_macos_sysctl);
  g_test_add_func ("/hardware/macos/system-profiler", test_hardware_macos_system_profiler);
  g_test_add_func ("/hardware/macos/pool-not-guessed", test_hardware_macos_pool_not_guessed);
  g_test_add_func ("/hardware/macos/pool-confirmed", test_hardware_macos_pool_confirmed);
  g_test_add_func ("/hardware/macos/pool-past-memory", test_hardware_macos_pool_past_memory);
  g_test_add_func ("/hardware/macos/wired-limit", test_hardware_macos_wired_limit);
  g_test_add_func ("/hardware/macos/intel-radeon", test_hardware_macos_intel_radeon);
  for (guint i = 0; i < G_N_ELEMENTS (mac_bad_outputs); i++)
    g_test_add_data_func (mac_bad_outputs[i].path, &mac_bad_outputs[i], test_hardware_macos_refuses);
  g_test_add_func ("/hardware/paste-macos-amd/macos", test_hardware_paste_macos_amd);
  g_test_add_func ("/hardware/paste-macos-amd/macos-json", test_hardware_paste_macos_json);
  g_test_add_func ("/hardware/paste-macos-amd/amd-smi", test_hardware_paste_amd_smi);
  g_test_add_func ("/hardware/paste-macos-amd/amd-smi-json", test_hardware_paste_amd_smi_json);
  g_test_add_func ("/hardware/paste-macos-amd/json-cut", test_hardware_paste_json_cut);
  return g_test_run ();
}
