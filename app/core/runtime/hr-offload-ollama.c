/* hr-offload-ollama.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which GPUs of a board with several Ollama 0.30+ gives llama-server
 * (server/sched.go selectLlamaServerPlacement), and the estimate its
 * one-GPU test uses (llm/llama_server.go PredictServerVRAM); read from
 * Ollama's source and written again here. The placement on the chosen
 * GPUs is hr-offload-devices.c's. Pure: no I/O.
 */
#include "config.h"

#include "hr-offload-private.h"

/* Ollama's one-GPU test: the estimate within 80 % of the GPU's available
 * memory (server/sched.go bestSingleGPUFit: predictedVRAM > available*80/100). */
#define SINGLE_GPU_PERCENT 80u

/* server/sched.go availableMemoryForGPU: an integrated GPU's free memory,
 * capped by the system's free memory (the board's host headroom). */
static guint64
available_for (const HrBoard  *board,
               const HrDevice *dev)
{
  guint64 free = hr_device_headroom_bytes (dev);
  guint64 sys = hr_board_has_host (board) ? hr_board_host_headroom_bytes (board) : 0;

  if (dev->kind == HR_DEVICE_KIND_INTEGRATED && sys > 0 && sys < free)
    return sys;
  return free;
}

/* server/sched.go betterPlacementGPU. */
static gboolean
better_gpu (const HrDevice *a,
            guint64         a_avail,
            const HrDevice *b,
            guint64         b_avail)
{
  if ((a->kind == HR_DEVICE_KIND_INTEGRATED) != (b->kind == HR_DEVICE_KIND_INTEGRATED))
    return a->kind != HR_DEVICE_KIND_INTEGRATED;
  return a_avail > b_avail;
}

/* hr-offload-private.h. llm/llama_server.go PredictServerVRAM: the model
 * file's size (the spec's file bytes at its own precision, else the
 * prediction's weights and host bytes) + 2 x
 * block_count x head_count_kv (its least) x (embedding / head_count) x
 * context x 2 bytes, the context num_ctx (at most the trained one) x the
 * parallel slots (server/sched.go effectiveLlamaServerContext). */
guint64
hr_offload_predict_server_vram (const HrOffloadInputs     *inputs,
                                const HrRuntimePrediction *prediction)
{
  const HrModelSpec *spec = inputs->runtime.spec;
  const HrRuntimeInputs *rt = &inputs->runtime;
  gboolean same = rt->precision == NULL ||
                  (spec->precision != NULL && g_ascii_strcasecmp (rt->precision->id, spec->precision) == 0);
  guint64 file = spec->exact_file_bytes > 0 ? spec->exact_file_bytes : spec->file_bytes;
  guint64 kv_heads = spec->kv_heads, heads = spec->heads > 0 ? spec->heads : 1;
  guint64 ctx = rt->context_tokens;

  if (!same || file == 0)
    file = (guint64) MAX (hr_runtime_prediction_term_bytes (prediction, HR_RUNTIME_TERM_WEIGHTS), 0) +
           prediction->host_bytes;
  if (spec->layer_kv_heads != NULL && spec->layer_kv_heads->len > 0)
    {
      kv_heads = G_MAXUINT32;
      for (guint i = 0; i < spec->layer_kv_heads->len; i++)
        kv_heads = MIN (kv_heads, (guint64) g_array_index (spec->layer_kv_heads, guint32, i));
    }
  kv_heads = kv_heads > 0 ? kv_heads : 1;
  if (spec->context_length > 0 && ctx > spec->context_length)
    ctx = spec->context_length;
  ctx *= MAX (rt->parallel_slots, 1u);
  return file + 2 * (guint64) spec->layers * kv_heads * (spec->embedding_length / heads) * ctx * 2;
}

/* ml.ByLibrary: the backends of the first @n GPUs, each once, in the
 * order their first GPU comes; returns how many. */
static guint
group_backends (GPtrArray       *devs,
                guint            n,
                HrDeviceBackend  groups[HR_DEVICE_MAX])
{
  guint n_groups = 0;

  for (guint i = 0; i < n; i++)
    {
      const HrDevice *dev = g_ptr_array_index (devs, i);
      guint g = 0;

      while (g < n_groups && groups[g] != dev->backend)
        g++;
      if (g == n_groups)
        groups[n_groups++] = dev->backend;
    }
  return n_groups;
}

/* bestExplicitMainGPU: main_gpu as an index within each group, the best
 * of those GPUs (betterPlacementGPU); -1 when no group has that many. */
static gint
pick_main_gpu (const HrOffloadInputs *inputs,
               const HrDeviceBackend *groups,
               guint                  n_groups,
               guint                  n)
{
  GPtrArray *devs = inputs->board->devices;
  guint64 pick_avail = 0;
  gint pick = -1;

  for (guint g = 0; g < n_groups; g++)
    {
      guint seen = 0;

      for (guint i = 0; i < n; i++)
        {
          const HrDevice *dev = g_ptr_array_index (devs, i);
          guint64 avail;

          if (dev->backend != groups[g] || seen++ != inputs->main_gpu)
            continue;
          avail = available_for (inputs->board, dev);
          if (pick < 0 || better_gpu (dev, avail, g_ptr_array_index (devs, pick), pick_avail))
            {
              pick = (gint) i;
              pick_avail = avail;
            }
        }
    }
  return pick;
}

/* bestSingleGPUFit: the best GPU whose available memory holds @predicted
 * within SINGLE_GPU_PERCENT; -1 when none does. */
static gint
pick_single_fit (const HrOffloadInputs *inputs,
                 guint64                predicted,
                 guint                  n)
{
  GPtrArray *devs = inputs->board->devices;
  guint64 pick_avail = 0;
  gint pick = -1;

  for (guint i = 0; i < n; i++)
    {
      const HrDevice *dev = g_ptr_array_index (devs, i);
      guint64 avail = available_for (inputs->board, dev);

      if (predicted > avail * SINGLE_GPU_PERCENT / 100)
        continue;
      if (pick < 0 || better_gpu (dev, avail, g_ptr_array_index (devs, pick), pick_avail))
        {
          pick = (gint) i;
          pick_avail = avail;
        }
    }
  return pick;
}

/* bestGPUGroupByAvailableMemory (availableMemoryForLoad: the discrete
 * GPUs' free memory and the integrated ones' capped by the system's): a
 * group with a discrete GPU first, then the most memory. */
static guint
best_group (const HrBoard         *board,
            const HrDeviceBackend *groups,
            guint                  n_groups,
            guint                  n)
{
  guint64 sys = hr_board_has_host (board) ? hr_board_host_headroom_bytes (board) : 0;
  guint64 best_avail = 0;
  gboolean best_discrete = FALSE;
  guint best = 0;

  for (guint g = 0; g < n_groups; g++)
    {
      guint64 avail = 0, shared = 0;
      gboolean discrete = FALSE;

      for (guint i = 0; i < n; i++)
        {
          const HrDevice *dev = g_ptr_array_index (board->devices, i);

          if (dev->backend != groups[g])
            continue;
          if (dev->kind == HR_DEVICE_KIND_INTEGRATED)
            shared += hr_device_headroom_bytes (dev);
          else
            {
              avail += hr_device_headroom_bytes (dev);
              discrete = TRUE;
            }
        }
      avail += sys > 0 && shared > 0 && sys < shared ? sys : shared;
      if (g == 0 || (discrete != best_discrete ? discrete : avail > best_avail))
        {
          best = g;
          best_avail = avail;
          best_discrete = discrete;
        }
    }
  return best;
}

/* hr-offload-private.h. server/sched.go selectLlamaServerPlacement: the
 * GPUs Ollama passes on, in the board's order, their indices in @ids;
 * returns how many; @out_spread: every GPU of a group; @out_choice: why. */
guint
hr_offload_select_gpus (const HrOffloadInputs *inputs,
                        guint64                predicted,
                        guint                  ids[HR_DEVICE_MAX],
                        gboolean              *out_spread,
                        HrOffloadChoice       *out_choice)
{
  GPtrArray *devs = inputs->board->devices;
  HrDeviceBackend groups[HR_DEVICE_MAX];
  guint n = MIN (devs->len, HR_DEVICE_MAX), n_groups, group, count = 0;
  gint pick = -1;

  *out_spread = FALSE;
  *out_choice = HR_OFFLOAD_CHOICE_ALL;
  if (inputs->num_gpu == 0)
    {
      for (guint i = 0; i < n; i++)
        ids[i] = i;
      return n;
    }
  n_groups = group_backends (devs, n, groups);

  if (inputs->main_gpu_set)
    pick = pick_main_gpu (inputs, groups, n_groups, n);
  else if (!inputs->sched_spread && predicted > 0)
    pick = pick_single_fit (inputs, predicted, n);
  if (pick >= 0)
    {
      *out_choice = inputs->main_gpu_set ? HR_OFFLOAD_CHOICE_MAIN_GPU : HR_OFFLOAD_CHOICE_FITS_ONE;
      ids[0] = (guint) pick;
      return 1;
    }
  *out_choice = inputs->main_gpu_set ? HR_OFFLOAD_CHOICE_MAIN_OUTSIDE :
                inputs->sched_spread ? HR_OFFLOAD_CHOICE_SPREAD : HR_OFFLOAD_CHOICE_NONE_FITS;

  group = best_group (inputs->board, groups, n_groups, n);
  for (guint i = 0; i < n; i++)
    if (((const HrDevice *) g_ptr_array_index (devs, i))->backend == groups[group])
      ids[count++] = i;
  *out_spread = TRUE;
  return count;
}
