/* bench-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parse time and peak memory of the GGUF header parser on a header shaped
 * like a real 3B model's (llama3.2:3b: 128,256 vocabulary strings with
 * their token types, 280,147 merges, 255 tensors, a chat template).
 * Aim: under 30 ms, and under 2x the header's size in memory.
 *
 * Memory is measured two ways, both printed:
 *  - peak: growth of VmHWM (/proc/self/status) during one parse, after
 *    resetting the high-water mark with "5" > /proc/self/clear_refs and
 *    returning freed heap to the kernel with malloc_trim(); this counts
 *    every page the parse touched, transient buffers included;
 *  - retained: mallinfo2() uordblks + hblkhd (heap in use) with the parsed
 *    header alive, minus the same figure before parsing.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-gguf.h"
#include "hr-units.h"

#define N_VOCAB  128256
#define N_MERGES 280147
#define N_RUNS   20

static guint64
status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, field);
  if (line == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen (field), NULL, 10);
}

static gboolean
reset_peak (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (f == NULL)
    return FALSE;
  ok = fputs ("5", f) >= 0;
  return fclose (f) == 0 && ok;
}

static gsize
heap_in_use (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return info.uordblks + info.hblkhd;
}

/* A deterministic token of 1 to 12 bytes, GPT-2 style ("Ġ" marks a space). */
static void
make_token (GString *s,
            GRand   *rand)
{
  static const char letters[] = "etaoinshrdlucmfwypvbgkjqxz";
  guint length = g_rand_int_range (rand, 1, 10);

  g_string_truncate (s, 0);
  if (g_rand_boolean (rand))
    g_string_append (s, "\xc4\xa0");
  for (guint i = 0; i < length; i++)
    g_string_append_c (s, letters[g_rand_int_range (rand, 0, 26)]);
}

static GgufWriter *
write_header (void)
{
  GgufWriter *w = gw_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GString) t = g_string_new (NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  GwTensorSpec specs[260];
  guint n = gw_llama32_3b_tensors (specs, names);

  gw_header (w, 3, n, 13);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", "Llama 3.2 3B Instruct");
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "llama.block_count", 28);
  gw_kv_u32 (w, "llama.context_length", 131072);
  gw_kv_u32 (w, "llama.embedding_length", 3072);
  gw_kv_u32 (w, "llama.attention.head_count", 24);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 8);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_array (w, "tokenizer.ggml.tokens", GW_STRING, N_VOCAB);
  for (guint i = 0; i < N_VOCAB; i++)
    {
      if (i >= 128000)
        {
          g_string_printf (s, "<|reserved_special_token_%u|>", i - 128000);
          gw_str (w, s->str);
        }
      else
        {
          make_token (s, rand);
          gw_str (w, s->str);
        }
    }
  gw_kv_array (w, "tokenizer.ggml.token_type", GW_INT32, N_VOCAB);
  for (guint i = 0; i < N_VOCAB; i++)
    gw_u32 (w, i >= 128000 ? 3 : 1);
  gw_kv_array (w, "tokenizer.ggml.merges", GW_STRING, N_MERGES);
  for (guint i = 0; i < N_MERGES; i++)
    {
      make_token (s, rand);
      make_token (t, rand);
      g_string_append_c (s, ' ');
      g_string_append (s, t->str);
      gw_str (w, s->str);
    }
  g_string_truncate (s, 0);
  for (guint i = 0; i < 12; i++)
    g_string_append (s, "{%- if message['role'] == 'system' %}<|start_header_id|>system<|end_header_id|>\n\n"
                        "{{ message['content'] }}<|eot_id|>{%- endif %}");
  gw_kv_str (w, "tokenizer.chat_template", s->str);
  gw_write_tensors (w, specs, n);
  return w;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *header_text = NULL;
  g_autofree char *peak_text = NULL;
  g_autofree char *kept_text = NULL;
  GgufWriter *w;
  guint64 header_bytes;
  guint64 rss_before, hwm_after;
  gsize heap_before, heap_after;
  gboolean peak_reset;
  double times[N_RUNS];
  double facts_ms;
  HrGgufFile *file;
  gint64 start;

  dir = g_dir_make_tmp ("bench-gguf-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "model.gguf", NULL);

  w = write_header ();
  header_bytes = w->len;
  g_file_set_contents (path, (const char *) w->data, w->len, &error);
  g_assert_no_error (error);
  g_byte_array_unref (w);

  /* warm the page cache, so the figure is the parser's, not the disk's */
  file = hr_gguf_file_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_file_get_header_bytes (file), ==, header_bytes);
  hr_gguf_file_unref (file);

  /* memory: one parse with the peak reset just before it */
  malloc_trim (0);
  heap_before = heap_in_use ();
  peak_reset = reset_peak ();
  rss_before = status_kb ("VmRSS:");
  file = hr_gguf_file_load (path, NULL, &error);
  g_assert_no_error (error);
  hwm_after = status_kb ("VmHWM:");
  heap_after = heap_in_use ();
  hr_gguf_file_unref (file);

  /* time */
  for (guint i = 0; i < N_RUNS; i++)
    {
      start = g_get_monotonic_time ();
      file = hr_gguf_file_load (path, NULL, &error);
      times[i] = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
      hr_gguf_file_unref (file);
    }
  qsort (times, N_RUNS, sizeof (double), compare_doubles);

  file = hr_gguf_file_load (path, NULL, &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  {
    HrGgufTokenizer *tok = hr_gguf_file_get_tokenizer (file);
    HrModelSpec *spec = hr_gguf_file_to_model_spec (file, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (tok->vocab_size, ==, N_VOCAB);
    hr_gguf_tokenizer_free (tok);
    hr_model_spec_free (spec);
  }
  facts_ms = (g_get_monotonic_time () - start) / 1000.0;
  hr_gguf_file_unref (file);

  header_text = hr_format_count (header_bytes);
  printf ("bench-gguf: a 3B-shaped header of %s bytes (%s vocabulary strings, %s merges, 255 tensors)\n",
          header_text, "128,256", "280,147");
  printf ("parse time (hr_gguf_file_load, page cache warm, %d runs): median %.2f ms, best %.2f ms, worst %.2f ms "
          "(aim: under 30 ms) %s\n",
          N_RUNS, times[N_RUNS / 2], times[0], times[N_RUNS - 1], times[N_RUNS / 2] < 30.0 ? "ok" : "MISSED");
  if (peak_reset)
    {
      guint64 peak = (hwm_after - MIN (hwm_after, rss_before)) * 1024;

      peak_text = hr_format_count (peak);
      printf ("peak memory while parsing (VmHWM growth after clear_refs): %s bytes = %.2fx the header "
              "(aim: under 2x) %s\n",
              peak_text, (double) peak / header_bytes, peak < 2 * header_bytes ? "ok" : "MISSED");
    }
  else
    printf ("peak memory: /proc/self/clear_refs could not be written, so VmHWM cannot be reset here\n");
  kept_text = hr_format_count (heap_after - MIN (heap_after, heap_before));
  printf ("heap kept by the parsed header (mallinfo2 uordblks + hblkhd): %s bytes = %.2fx the header\n",
          kept_text, (double) (heap_after - MIN (heap_after, heap_before)) / header_bytes);
  printf ("tokenizer facts and model spec from the parsed header: %.2f ms\n", facts_ms);

  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
