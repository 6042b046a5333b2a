/* hr-formula-devices.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formulas of a model placed across several GPUs (hr-offload-devices.c):
 * each GPU's layers x bytes a layer = weights, its KV cache, its compute
 * buffer and what is free after; host memory; what the server reports; and
 * the GPU that is full first. For the explain panel and the pool chart.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-runtime.h"
#include "hr-units.h"

/**
 * hr_formula_predict_split:
 * @spec: the model
 * @scenario: the scenario the row was evaluated under
 *
 * The split hr_evaluate() made for the row (its evaluate_split()), with the
 * same inputs, so the figures are the row's: hr_offload_predict() after
 * hr_offload_inputs_init(), the scenario's precision, KV cache type, slots
 * and num_gpu.
 *
 * Returns: (transfer full) (nullable): the split (free with g_free()), or
 *   %NULL on a board without host memory or when the model cannot be placed
 */
HrOffload *
hr_formula_predict_split (const HrModelSpec        *spec,
                          const HrEvaluationInputs *scenario)
{
  HrOffloadInputs in;
  g_autofree HrOffload *split = NULL;

  g_return_val_if_fail (spec != NULL && scenario != NULL && scenario->board != NULL, NULL);

  if (!hr_board_has_host (scenario->board))
    return NULL;
  hr_offload_inputs_init (&in, scenario->board, spec, scenario->context_tokens);
  in.runtime.precision = scenario->precision;
  in.runtime.kv_type = scenario->kv_type;
  in.runtime.parallel_slots = MAX (scenario->parallel_slots, 1);
  if (scenario->num_gpu_set)
    in.num_gpu = (gint32) MIN (scenario->num_gpu, (guint32) G_MAXINT32);
  split = g_new0 (HrOffload, 1);
  if (!hr_offload_predict (&in, split, NULL))
    return NULL;
  return g_steal_pointer (&split);
}

/* llama.cpp's name of a board's device, what its log lines start with:
 * the backend's prefix and the device's index among that backend's
 * (ggml-cuda.cpp names CUDA devices "CUDA0", ...; ROCm builds "ROCm0",
 * Vulkan "Vulkan0", Metal "MTL0"). */
static char *
llama_name (const HrBoard *board,
            guint          board_index)
{
  const HrDevice *device;
  const char *prefix;
  guint n = 0;

  if (board->devices == NULL || board_index >= board->devices->len)
    return g_strdup ("CUDA0");
  device = g_ptr_array_index (board->devices, board_index);
  for (guint i = 0; i < board_index; i++)
    if (((const HrDevice *) g_ptr_array_index (board->devices, i))->backend == device->backend)
      n++;
  switch (device->backend)
    {
    case HR_DEVICE_BACKEND_ROCM:   prefix = "ROCm"; break;
    case HR_DEVICE_BACKEND_VULKAN: prefix = "Vulkan"; break;
    case HR_DEVICE_BACKEND_METAL:  prefix = "MTL"; break;
    case HR_DEVICE_BACKEND_CUDA:
    default:                       prefix = "CUDA"; break;
    }
  return g_strdup_printf ("%s%u", prefix, n);
}

static char *
signed_size (gint64 bytes)
{
  g_autofree char *size = hr_gui_format_size ((guint64) ABS (bytes), HR_UNIT_GB);

  return bytes < 0 ? g_strdup_printf ("−%s", size) : g_steal_pointer (&size);
}

/**
 * hr_formula_device:
 * @split: a split on a board with several GPUs (n_devices > 0)
 * @board: the board it was placed on (for llama.cpp's device names)
 * @i: a device of it, below @split->n_devices
 *
 * One GPU's buffers, as llama.cpp allocates them on it: its layers (a
 * run of blocks, llama.cpp's fit fills the GPUs from the last; the output
 * layer sits on the last, common/fit.cpp common_params_fit_impl) times the
 * bytes of a layer on average = its weights (llama-model.cpp load_tensors),
 * its layers' KV cache (llama-kv-cache.cpp), its compute buffer
 * (llama-context.cpp, sched_reserve), and its free memory less all three.
 *
 * Returns: (transfer full): "GPU 0, NVIDIA GeForce RTX 3090 (CUDA0): blocks
 *   0–40, 41 layers × 0.49 GB a layer = 19.95 GB weights; KV cache 1.28 GB;
 *   compute buffer 0.30 GB; 23.42 GB free − 21.53 GB = 1.89 GB free after"
 */
char *
hr_formula_device (const HrOffload *split,
                   const HrBoard   *board,
                   guint            i)
{
  const HrOffloadDevice *d;
  g_autofree char *llama = NULL;
  g_autofree char *weights = NULL, *per_layer = NULL, *kv = NULL, *compute = NULL;
  g_autofree char *free_before = NULL, *total = NULL, *after = NULL, *layers = NULL;
  g_autofree char *partial = NULL;

  g_return_val_if_fail (split != NULL && i < split->n_devices, NULL);

  d = &split->devices[i];
  llama = llama_name (board, d->board_index);
  weights = hr_gui_format_size (d->side.weights, HR_UNIT_GB);
  kv = hr_gui_format_size (d->side.kv_cache, HR_UNIT_GB);
  compute = hr_gui_format_size (d->side.compute, HR_UNIT_GB);
  free_before = hr_gui_format_size (d->free_bytes, HR_UNIT_GB);
  total = hr_gui_format_size (d->side.total, HR_UNIT_GB);
  after = signed_size (d->free_after_bytes);

  if (d->layers == 0)
    /* Translators: a GPU that holds no layer: its index, name and llama.cpp's name ("CUDA0"), its
       compute buffer, free memory and free after */
    return g_strdup_printf (_("GPU %1$u, %2$s (%3$s): no layers; compute buffer %4$s; %5$s free − %6$s = %7$s free after"),
                            d->board_index, d->name, llama, compute, free_before, total, after);

  per_layer = hr_gui_format_size (d->side.weights / d->layers, HR_UNIT_GB);
  if (d->output_layer && d->layers > 1)
    /* Translators: the blocks a GPU holds and the output layer, "blocks 41–79 and the output layer" */
    layers = g_strdup_printf (_("blocks %1$u–%2$u and the output layer"), d->first_layer,
                              d->first_layer + d->layers - 2);
  else if (d->output_layer)
    layers = g_strdup (_("the output layer"));
  else
    /* Translators: the blocks a GPU holds, "blocks 0–40" */
    layers = g_strdup_printf (_("blocks %1$u–%2$u"), d->first_layer, d->first_layer + d->layers - 1);
  if (d->partial_layers > 0)
    /* Translators: of a GPU's blocks, how many keep their expert tensors in host memory */
    partial = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, " (%u of them with its experts in host memory)",
                                            " (%u of them with their experts in host memory)", d->partial_layers),
                               d->partial_layers);
  /* Translators: one GPU's buffers: index, name, llama.cpp's name ("CUDA0"), its blocks, its layers,
     bytes a layer on average, weights, expert note (may be empty), KV cache, compute buffer, free
     memory, the three together, free after */
  return g_strdup_printf (_("GPU %1$u, %2$s (%3$s): %4$s, %5$u layers × %6$s a layer (on average) = %7$s weights%8$s; "
                            "KV cache %9$s; compute buffer %10$s; %11$s free − %12$s = %13$s free after"),
                          d->board_index, d->name, llama, layers, d->layers, per_layer, weights,
                          partial != NULL ? partial : "", kv, compute, free_before, total, after);
}

/**
 * hr_formula_devices:
 * @split: (nullable): a split (hr_formula_predict_split())
 * @board: the board it was placed on
 *
 * Returns: (transfer full) (nullable): hr_formula_device() for each GPU the
 *   model was given, one a line; %NULL when @split is not across GPUs
 */
char *
hr_formula_devices (const HrOffload *split,
                    const HrBoard   *board)
{
  g_autoptr(GString) text = NULL;

  if (split == NULL || split->n_devices == 0)
    return NULL;
  text = g_string_new (NULL);
  for (guint i = 0; i < split->n_devices; i++)
    {
      g_autofree char *line = hr_formula_device (split, board, i);

      g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "", line);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * hr_formula_host_side:
 * @split: (nullable): a split across GPUs
 *
 * Returns: (transfer full) (nullable): host memory's part of the split: the
 *   layers left to the CPU, its weights (the token embedding, which llama.cpp
 *   always keeps there, among them), KV cache and compute buffer; %NULL
 *   when @split is not across GPUs
 */
char *
hr_formula_host_side (const HrOffload *split)
{
  g_autofree char *weights = NULL, *embd = NULL, *kv = NULL, *compute = NULL, *total = NULL;
  guint32 cpu_layers;

  if (split == NULL || split->n_devices == 0)
    return NULL;
  weights = hr_gui_format_size (split->host.weights, HR_UNIT_GB);
  embd = hr_gui_format_size (split->token_embd_bytes, HR_UNIT_GB);
  kv = hr_gui_format_size (split->host.kv_cache, HR_UNIT_GB);
  compute = hr_gui_format_size (split->host.compute, HR_UNIT_GB);
  total = hr_gui_format_size (split->host.total, HR_UNIT_GB);
  cpu_layers = split->total_layers > split->gpu_layers ? split->total_layers - split->gpu_layers : 0;
  /* Translators: host memory's part: layers on the CPU of the total, weights, the token embedding
     among them, KV cache, compute buffer, the sum */
  return g_strdup_printf (_("%1$u of %2$u layers on the CPU: %3$s weights (the token embedding, %4$s, "
                            "always stays there) + %5$s KV cache + %6$s compute = %7$s"),
                          cpu_layers, split->total_layers, weights, embd, kv, compute, total);
}

/**
 * hr_formula_server_report:
 * @split: (nullable): a split across GPUs
 * @board: the board it was placed on
 * @era: the runtime the window sizes for
 *
 * What the server says about the load. Under Ollama (0.30+ or 0.12),
 * `ollama ps`'s SIZE and PROCESSOR (server/routes.go PsHandler) and the
 * VRAM on each GPU (the runner's VRAMByGPU); under llama-server, the lines
 * it logs: "offloaded N/M layers to GPU" (src/llama-model.cpp
 * load_tensors), each device's model buffer, "KV buffer"
 * (src/llama-kv-cache.cpp) and "compute buffer" (src/llama-context.cpp)
 * sizes in MiB, and the CPU_Mapped model buffer of the host's weights.
 *
 * Returns: (transfer full) (nullable): the text, %NULL when @split is not
 *   across GPUs
 */
char *
hr_formula_server_report (const HrOffload *split,
                          const HrBoard   *board,
                          HrRuntimeEra     era)
{
  g_autoptr(GString) text = NULL;

  if (split == NULL || split->n_devices == 0)
    return NULL;
  text = g_string_new (NULL);
  if (era == HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      /* Translators: the first line of what llama-server logs; %u/%u is kept as llama.cpp prints it */
      g_string_append_printf (text, _("llama-server would log: offloaded %u/%u layers to GPU"),
                              split->gpu_layers, split->total_layers);
      for (guint i = 0; i < split->n_devices; i++)
        {
          const HrOffloadDevice *d = &split->devices[i];
          g_autofree char *name = llama_name (board, d->board_index);

          g_string_append_printf (text, "\n%s model buffer size = %.2f MiB", name, d->side.weights / 1048576.0);
          g_string_append_printf (text, "\n%s KV buffer size = %.2f MiB", name, d->side.kv_cache / 1048576.0);
          g_string_append_printf (text, "\n%s compute buffer size = %.2f MiB", name, d->side.compute / 1048576.0);
        }
      g_string_append_printf (text, "\nCPU_Mapped model buffer size = %.2f MiB", split->host.weights / 1048576.0);
      return g_string_free (g_steal_pointer (&text), FALSE);
    }
  {
    g_autofree char *size = hr_runtime_format_ps_size (split->size_bytes);

    /* Translators: `ollama ps`'s SIZE and PROCESSOR columns, as it prints them */
    g_string_append_printf (text, _("ollama ps would show SIZE %1$s, PROCESSOR %2$s"), size, split->processor);
  }
  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *d = &split->devices[i];
      g_autofree char *vram = hr_gui_format_size (d->side.total, HR_UNIT_GB);

      /* Translators: the VRAM Ollama reports on one GPU (its VRAMByGPU): index, name, size */
      g_string_append_printf (text, "\n");
      g_string_append_printf (text, _("in VRAM on GPU %1$u %2$s: %3$s"), d->board_index, d->name, vram);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * hr_formula_full_first:
 * @split: (nullable): a split across GPUs
 *
 * The GPU with the least memory free after the load (split->binding_device):
 * the one a longer context or a larger precision fills first.
 *
 * Returns: (transfer full) (nullable): "GPU 1, NVIDIA GeForce RTX 3090,
 *   with 1.54 GB free after", or %NULL when @split is not across two GPUs
 *   or more
 */
char *
hr_formula_full_first (const HrOffload *split)
{
  const HrOffloadDevice *d;
  g_autofree char *after = NULL;

  if (split == NULL || split->n_devices < 2 || split->binding_device < 0 ||
      (guint) split->binding_device >= split->n_devices)
    return NULL;
  d = &split->devices[split->binding_device];
  if (d->free_after_bytes < 0)
    {
      g_autofree char *over = hr_gui_format_size ((guint64) -d->free_after_bytes, HR_UNIT_GB);

      /* Translators: the GPU that is full first, over: index, name, how far over */
      return g_strdup_printf (_("GPU %1$u, %2$s: over by %3$s"), d->board_index, d->name, over);
    }
  after = signed_size (d->free_after_bytes);
  /* Translators: the GPU that is full first: index, name, what is free on it after the load */
  return g_strdup_printf (_("GPU %1$u, %2$s, with %3$s free after"), d->board_index, d->name, after);
}
