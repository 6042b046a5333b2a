/* test-hardware.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hardware read, not typed: the parsers of nvidia-smi, rocm-smi, the
 * DRM sysfs files, vulkaninfo --summary and /proc/meminfo on fixture
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

static void
test_hardware_paste_board (void)
{
  g_autofree char *paste = fixture ("remote-paste.txt");
  g_autofree char *builtin = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "boards.json", NULL);
  g_autoptr(GPtrArray) known = hr_boards_load_file (builtin, NULL);
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(HrHardwareReading) bad = hr_hardware_reading_new ();
  g_autoptr(HrBoard) board = NULL;
  g_autoptr(HrBoard) complete = NULL;
  g_autoptr(GError) error = NULL;
  const double bandwidths[] = { 0.0, 360.0 };
  const HrDevice *d;

  g_assert_nonnull (known);
  g_assert_true (hr_hardware_parse_paste (paste, reading, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (reading->devices->len, ==, 2);
  g_assert_cmpuint (reading->host_total_bytes, ==, G_GUINT64_CONSTANT (65776232) * 1024);

  /* the 3090's bandwidth is the built-in board's; the 3060 ("NVIDIA
   * GeForce RTX 3060", not "... 12 GB") and the host memory's are not read */
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
                   "GPU 2 (NVIDIA GeForce RTX 3060): memory bandwidth not read (no tool prints it): give it in GB/s (--bandwidth), from the GPU's spec sheet");
  /* not complete: it does not validate, so it is not saved */
  g_assert_false (hr_board_validate (board, &error));
  g_assert_cmpstr (error->message, ==, "field \"host_bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s");
  g_clear_error (&error);

  complete = hr_hardware_make_board (reading, "this-computer", "This computer", known, bandwidths, 2, 51.2, &error);
  g_assert_no_error (error);
  g_assert_true (hr_board_validate (complete, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (((HrDevice *) g_ptr_array_index (complete->devices, 1))->bandwidth_bytes_per_s, ==, 360e9);

  g_assert_null (hr_hardware_make_board (reading, "x", "X", NULL, bandwidths, 1, 0.0, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "1 bandwidths given for 2 GPUs: give one per GPU, in the order read (0 = not known)");
  g_clear_error (&error);

  /* a line no tool printed: the line number, and nothing read */
  g_assert_false (hr_hardware_parse_paste ("NVIDIA GeForce RTX 3090, 24576, 1234\nTotal: 24 GB of VRAM\n", bad, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "line 2: cannot read \"Total: 24 GB of VRAM\": not the output of nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits, "));
  g_assert_cmpuint (bad->devices->len, ==, 0);
  g_clear_error (&error);

  /* GPUs without host memory: no board */
  g_assert_true (hr_hardware_parse_paste ("NVIDIA GeForce RTX 3090, 24576, 1234\n", bad, &error));
  g_assert_null (hr_hardware_make_board (bad, "x", "X", NULL, NULL, 0, 0.0, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "no host memory was read (cat /proc/meminfo: MemTotal)");
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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hardware/nvidia-smi", test_hardware_nvidia_smi);
  g_test_add_func ("/hardware/amd", test_hardware_amd);
  g_test_add_func ("/hardware/meminfo-vulkan", test_hardware_meminfo_vulkan);
  g_test_add_func ("/hardware/paste-board", test_hardware_paste_board);
  g_test_add_func ("/hardware/paste-mixed", test_hardware_paste_mixed);
  g_test_add_func ("/hardware/paste-prompts", test_hardware_paste_prompts);
  return g_test_run ();
}
