/* test-explain-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrExplainPanel on a board with several GPUs: each GPU's formulas, host
 * memory, what the server reports (ollama ps under Ollama, the log lines
 * under llama-server) and the GPU full first, as the panel shows them; and
 * that its template builds the figures' headings and labels them for
 * screen readers. Figures: llama3.1:70b (q4_K_M) at 8,192 tokens on the
 * 2 x RTX 3090 preset (data/boards.json), as `headroom-cli predict
 * llama3.1:70b --board 2x-rtx-3090 --context 8192` places it.
 */

#include "config.h"

#include <string.h>

#include "hr-catalog.h"
#include "hr-explain-panel.h"

typedef struct {
  GPtrArray         *boards;
  GPtrArray         *catalog;
  const HrBoard     *board;
  HrModelRow        *row;
  HrEvaluationInputs scenario;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  const char *board_id = data;
  g_autofree char *boards_path = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  g_autofree char *catalog_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  const HrModelSpec *spec = NULL;

  f->boards = hr_boards_load_file (boards_path, NULL);
  f->catalog = hr_catalog_load_file (catalog_path, NULL);
  g_assert_nonnull (f->boards);
  g_assert_nonnull (f->catalog);
  for (guint i = 0; i < f->boards->len; i++)
    if (g_strcmp0 (((HrBoard *) f->boards->pdata[i])->id, board_id) == 0)
      f->board = f->boards->pdata[i];
  for (guint i = 0; i < f->catalog->len; i++)
    if (g_strcmp0 (((HrModelSpec *) f->catalog->pdata[i])->name, "llama3.1:70b") == 0)
      spec = f->catalog->pdata[i];
  g_assert_nonnull (f->board);
  g_assert_nonnull (spec);
  hr_evaluation_inputs_init (&f->scenario, f->board, NULL);
  f->scenario.context_tokens = 8192;
  f->row = hr_model_row_new (spec);
  hr_model_row_evaluate (f->row, &f->scenario);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->row);
  g_clear_pointer (&f->boards, g_ptr_array_unref);
  g_clear_pointer (&f->catalog, g_ptr_array_unref);
}

static GtkWidget *
panel_for (Fixture      *f,
           HrRuntimeEra  era)
{
  GtkWidget *panel = g_object_ref_sink (hr_explain_panel_new ());
  HrRuntimeInputs runtime;

  hr_runtime_inputs_init (&runtime, NULL, 0);
  runtime.era = era;
  hr_explain_panel_set_runtime (HR_EXPLAIN_PANEL (panel), &runtime, NULL);
  hr_explain_panel_set_row (HR_EXPLAIN_PANEL (panel), f->row, &f->scenario);
  return panel;
}

/* Each GPU: its blocks, layers x average bytes a layer = weights
 * (21,418,259,529 / 41 = 522,396,573 bytes = 0.52 GB), KV cache, compute
 * buffer, and free memory (25,769,803,776 - 1e9 resident = 24.77 GB) less
 * the three (23,112,764,489) = 1,657,039,287 bytes free after. */
static void
test_explain_panel_devices (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *panel = panel_for (f, HR_RUNTIME_ERA_OLLAMA_0_30);
  HrExplainPanel *p = HR_EXPLAIN_PANEL (panel);

  g_assert_cmpstr (hr_explain_panel_get_figure (p, "devices"), ==,
                   "GPU 0, NVIDIA GeForce RTX 3090 (CUDA0): blocks 0–40, 41 layers × 0.52 GB a layer (on average) = "
                   "21.42 GB weights; KV cache 1.38 GB; compute buffer 0.32 GB; 24.77 GB free − 23.11 GB = "
                   "1.66 GB free after\n"
                   "GPU 1, NVIDIA GeForce RTX 3090 (CUDA1): blocks 41–79 and the output layer, 40 layers × 0.52 GB "
                   "a layer (on average) = 20.98 GB weights; KV cache 1.31 GB; compute buffer 0.32 GB; 25.27 GB "
                   "free − 22.6 GB = 2.66 GB free after");
  g_assert_cmpstr (hr_explain_panel_get_figure (p, "host-side"), ==,
                   "0 of 81 layers on the CPU: 0.6 GB weights (the token embedding, 0.6 GB, always stays there) "
                   "+ 0.0 GB KV cache + 0.13 GB compute = 0.74 GB");
  g_assert_cmpstr (hr_explain_panel_get_figure (p, "server-report"), ==,
                   "ollama ps would show SIZE 45 GB, PROCESSOR 100% GPU\n"
                   "in VRAM on GPU 0 NVIDIA GeForce RTX 3090: 23.11 GB\n"
                   "in VRAM on GPU 1 NVIDIA GeForce RTX 3090: 22.6 GB");
  g_assert_cmpstr (hr_explain_panel_get_figure (p, "full-first"), ==,
                   "GPU 0, NVIDIA GeForce RTX 3090, with 1.66 GB free after");
  g_assert_true (g_str_has_suffix (hr_explain_panel_get_figure (p, "split"),
                                   "\nollama ps would show PROCESSOR 100% GPU"));
  g_assert_finalize_object (panel);
}

/* Under llama-server the panel gives the lines it logs (src/llama-model.cpp
 * load_tensors, src/llama-kv-cache.cpp, src/llama-context.cpp) in MiB:
 * 21,418,259,529 / 1,048,576 = 20,426.04 MiB, and no ollama ps. */
static void
test_explain_panel_llama_server (Fixture       *f,
                                 gconstpointer  data)
{
  GtkWidget *panel = panel_for (f, HR_RUNTIME_ERA_LLAMA_SERVER);
  HrExplainPanel *p = HR_EXPLAIN_PANEL (panel);
  const char *report = hr_explain_panel_get_figure (p, "server-report");

  g_assert_true (g_str_has_prefix (report, "llama-server would log: offloaded 81/81 layers to GPU\n"
                                           "CUDA0 model buffer size = 20426.04 MiB\n"
                                           "CUDA0 KV buffer size = 1312.00 MiB\n"
                                           "CUDA0 compute buffer size = 304.01 MiB\n"
                                           "CUDA1 model buffer size = 20005.80 MiB\n"));
  g_assert_true (g_str_has_suffix (report, "\nCPU_Mapped model buffer size = 576.15 MiB"));
  g_assert_null (strstr (report, "ollama ps"));
  g_assert_null (strstr (hr_explain_panel_get_figure (p, "runtime-total"), "ollama ps"));
  g_assert_null (strstr (hr_explain_panel_get_figure (p, "split"), "ollama ps"));
  g_assert_true (g_str_has_suffix (hr_explain_panel_get_figure (p, "split"),
                                   "\nllama-server would log: offloaded 81/81 layers to GPU"));
  g_assert_finalize_object (panel);
}

/* A one-GPU board with host memory has no per-GPU figures: they are empty. */
static void
test_explain_panel_one_gpu (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *panel = panel_for (f, HR_RUNTIME_ERA_OLLAMA_0_30);
  HrExplainPanel *p = HR_EXPLAIN_PANEL (panel);

  g_assert_cmpstr (hr_explain_panel_get_figure (p, "devices"), ==, "");
  g_assert_cmpstr (hr_explain_panel_get_figure (p, "full-first"), ==, "");
  g_assert_cmpstr (hr_explain_panel_get_figure (p, "server-report"), ==, "");
  g_assert_true (g_str_has_prefix (hr_explain_panel_get_figure (p, "split"), "42 of 81 layers on the GPU"));
  g_assert_finalize_object (panel);
}

/* The template: every figure has its heading, and the value is labelled by it. */
static void
test_explain_panel_template (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *panel = panel_for (f, HR_RUNTIME_ERA_OLLAMA_0_30);
  guint headings = 0;
  gboolean saw_each_gpu = FALSE, saw_full_first = FALSE;
  GtkWidget *w = panel;

  /* Walk the panel's widgets in order */
  while (w != NULL)
    {
      GtkWidget *next = gtk_widget_get_first_child (w);

      if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "heading"))
        {
          const char *text = gtk_label_get_text (GTK_LABEL (w));

          headings++;
          saw_each_gpu |= g_str_equal (text, "Each GPU") && gtk_widget_get_visible (w);
          saw_full_first |= g_str_equal (text, "Full first") && gtk_widget_get_visible (w);
        }
      while (next == NULL && w != NULL && w != panel)
        {
          next = gtk_widget_get_next_sibling (w);
          if (next == NULL)
            w = gtk_widget_get_parent (w);
        }
      if (w == panel && next == NULL)
        break;
      w = next;
    }
  /* 24 figures, "Predicted size", "Learned overhead", "Notes", the runtime's
   * heading and one per term kind */
  g_assert_cmpuint (headings, >=, 24 + 4);
  g_assert_true (saw_each_gpu);
  g_assert_true (saw_full_first);
  g_assert_finalize_object (panel);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/explain-panel/devices", Fixture, "2x-rtx-3090", fixture_set_up,
              test_explain_panel_devices, fixture_tear_down);
  g_test_add ("/explain-panel/llama-server", Fixture, "2x-rtx-3090", fixture_set_up,
              test_explain_panel_llama_server, fixture_tear_down);
  g_test_add ("/explain-panel/one-gpu", Fixture, "rtx-3090", fixture_set_up,
              test_explain_panel_one_gpu, fixture_tear_down);
  g_test_add ("/explain-panel/template", Fixture, "2x-rtx-3090", fixture_set_up,
              test_explain_panel_template, fixture_tear_down);

  return g_test_run ();
}
