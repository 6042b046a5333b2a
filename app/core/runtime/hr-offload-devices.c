/* hr-offload-devices.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The placement on a board with several GPUs (hr-offload.h), read from the
 * sources and written again here:
 *
 * 1. Which GPUs Ollama gives llama-server (hr-offload-ollama.c; Ollama server/sched.go
 *    selectLlamaServerPlacement): with num_gpu 0 all of them (nothing is
 *    offloaded); with the user's main_gpu that index within the best
 *    library group (bestExplicitMainGPU); else, unless OLLAMA_SCHED_SPREAD
 *    is set, the one GPU whose available memory holds the estimate
 *    (llm/llama_server.go PredictServerVRAM) within 80 %
 *    (bestSingleGPUFit: discrete before integrated, then the most
 *    available, betterPlacementGPU); else every GPU of the best group
 *    (bestGPUGroupByAvailableMemory: a group with a discrete GPU, then the
 *    most available memory). One GPU chosen: the one-GPU split
 *    (hr-offload.c) on that device, with --split-mode none.
 * 2. On several: llama.cpp's fit (common/fit.cpp common_params_fit_impl):
 *    - the default layout (every layer, split by free memory as
 *      src/llama-model.cpp load_tensors does) stays when every device keeps
 *      its margin ("no changes needed");
 *    - else devices are filled from the last to the first, each with the
 *      largest run of the layers still unplaced whose memory fits its free
 *      memory less the margin (a MoE with every ffn_*_exps tensor in host
 *      memory: "dense-only" layers);
 *    - a MoE whose dense parts all fit (global_surplus_cpu_moe > 0) then
 *      turns dense-only layers into whole ones front to back, device 0
 *      first, each device then trying one more layer in part, the rest of
 *      it on the next device (or the CPU after the last) (step 4).
 * 3. A user's num_gpu: no fit; load_tensors' proportional split of the
 *    last num_gpu layers by free memory (by the user's -ts when given).
 * 4. The user's -ts, or a tensor override (--cpu-moe, --n-cpu-moe: the
 *    expert tensors of the first N blocks in host memory, the rest of
 *    each block on its GPU), on several GPUs: fit stops, -ngl stays -1,
 *    so every layer is placed by load_tensors' proportional split (by
 *    -ts, else by free memory); no pipeline parallelism with an override
 *    (src/llama-context.cpp: !model.has_tensor_overrides()).
 * 5. llama-server run by hand (inputs->llama_server): every discrete GPU,
 *    no Ollama choice; -sm none the --main-gpu alone (src/llama.cpp).
 *
 * Each device holds its layers' weights and KV (and recurrent state); the
 * last device with layers the output layer; each device with layers its
 * own compute buffer. Pure: no I/O.
 *
 * What is an estimate or left out here:
 *  - the compute buffer of each device is the runtime's one-GPU figure
 *    (hr-runtime-compute.c), and with pipeline parallelism 3 more copies
 *    of the graph inputs, figured as the host's input term (f32 hidden
 *    state and mask); llama.cpp's real per-device graph is not laid out;
 *  - fit's context step does not run (Ollama sets -c), nor do
 *    --split-mode tensor or a draft model (--split-mode row is refused:
 *    hr_offload_check_placement());
 *  - Ollama's available memory is the device's free memory (memory -
 *    resident); its OLLAMA_GPU_OVERHEAD is not an input.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-offload-private.h"
#include "hr-units.h"

/* GGML_SCHED_MAX_COPIES (ggml/src/ggml-backend.cpp): the copies of every
 * input the scheduler keeps when pipeline parallelism is on
 * (ggml_backend_sched_new: n_copies = parallel ? GGML_SCHED_MAX_COPIES : 1). */
#define N_COPIES 4u


typedef struct {
  guint           nd;
  const HrDevice *dev[HR_DEVICE_MAX];
  guint           index[HR_DEVICE_MAX];  /* in the board's list */
  guint64         free[HR_DEVICE_MAX];   /* memory - resident */
  gint64          target[HR_DEVICE_MAX]; /* free - margin */
} Devs;

typedef struct {
  guint32 n_layer[HR_DEVICE_MAX]; /* layers on the device, the output layer counted */
  guint32 n_part[HR_DEVICE_MAX];  /* of them, the last ones with their experts on the CPU */
  /* fit's step 4 last try: the device's first partial layer keeps this
   * fraction (not just its dense part), the rest of it on the next device
   * (to_next) or the CPU; unset: LAYER_FRACTION_MOE to the CPU. */
  gboolean        has_overflow[HR_DEVICE_MAX];
  HrLayerFraction overflow[HR_DEVICE_MAX];
  gboolean        to_next[HR_DEVICE_MAX];
} Layout;

/* The fraction of the @j-th layer of device @i (set_ngl_tensor_split_tbo:
 * the first n_full whole, the first partial one its overflow_type, the
 * others LAYER_FRACTION_MOE). */
static HrLayerFraction
layer_fraction (const Layout *l,
                guint         i,
                guint32       j)
{
  guint32 full = l->n_layer[i] - l->n_part[i];

  if (j < full)
    return FRACTION_FULL;
  if (j == full && l->has_overflow[i])
    return l->overflow[i];
  return HR_LAYER_FRACTION_MOE;
}

/* Whether the rest of device @i's @j-th layer goes to the next device. */
static gboolean
layer_to_next (const Devs   *d,
               const Layout *l,
               guint         i,
               guint32       j)
{
  return l->has_overflow[i] && l->to_next[i] && i + 1 < d->nd && j == l->n_layer[i] - l->n_part[i];
}

/* ---------------------------------------------------------- memory */

static guint32
layout_ngl (const Devs   *d,
            const Layout *l)
{
  guint32 ngl = 0;

  for (guint i = 0; i < d->nd; i++)
    ngl += l->n_layer[i];
  return ngl;
}

static gboolean
layout_partial (const Devs   *d,
                const Layout *l)
{
  for (guint i = 0; i < d->nd; i++)
    if (l->n_part[i] > 0)
      return TRUE;
  return FALSE;
}

/* llama.cpp src/llama-context.cpp (the llama_context constructor):
 * pipeline parallelism is on when the model has several devices, every
 * layer is offloaded (n_gpu_layers > n_layer), the split is by layer, the
 * KV is offloaded and no tensor override is set (fit's partial MoE layers
 * are overrides). */
static gboolean
layout_pipeline (const Model  *m,
                 const Devs   *d,
                 const Layout *l)
{
  return d->nd > 1 && layout_ngl (d, l) == m->n + 1 && !layout_partial (d, l) && !m->overrides;
}

/* A device's compute buffer: the runtime's one-GPU figure, plus, with
 * pipeline parallelism, N_COPIES - 1 more copies of the graph's inputs the
 * device takes from another backend (ggml/src/ggml-backend.cpp
 * ggml_backend_sched_split_graph: each split input is duplicated n_copies
 * times and flagged input and output, so ggml-alloc does not reuse it).
 * Headroom's estimate of those inputs is the host's input figure
 * (m->inputs: ubatch x 4 x (embedding + cells), the f32 hidden state and
 * mask), the one copy of them the runtime's figure already counts. */
static guint64
device_compute (const Model *m,
                gboolean     pipeline)
{
  return m->compute + (pipeline ? (N_COPIES - 1) * m->inputs : 0);
}

/* Each device's bytes for a layout (common/fit.cpp get_memory_for_layers):
 * the layers in device order from il0 = n_layer + 1 - n_gpu_layers, each
 * device's whole layers first and its dense-only ones after (fit's
 * set_ngl_tensor_split_tbo), index n_layer the output layer. */
static void
layout_memory (const Model  *m,
               const Devs   *d,
               const Layout *l,
               guint64       mem[HR_DEVICE_MAX])
{
  guint32 ngl = layout_ngl (d, l);
  guint il = m->n + 1 - ngl;
  gboolean pipeline = layout_pipeline (m, d, l);

  for (guint i = 0; i < d->nd; i++)
    mem[i] = 0;
  for (guint i = 0; i < d->nd; i++)
    {
      for (guint32 j = 0; j < l->n_layer[i]; j++, il++)
        {
          const Layer *x;
          guint64 gpu;

          if (il == m->n)
            {
              mem[i] += m->output;
              continue;
            }
          x = &m->layers[il];
          gpu = on_gpu (x, user_fraction (m, il, layer_fraction (l, i, j)));
          mem[i] += gpu + x->kv;
          if (layer_to_next (d, l, i, j))
            mem[i + 1] += x->total - gpu;
        }
      if (l->n_layer[i] > 0)
        mem[i] += device_compute (m, pipeline);
    }
}

static gboolean
device_fits (const Model  *m,
             const Devs   *d,
             const Layout *l,
             guint         i)
{
  guint64 mem[HR_DEVICE_MAX];

  layout_memory (m, d, l, mem);
  return d->target[i] >= 0 && mem[i] <= (guint64) d->target[i];
}

/* src/llama-model.cpp load_tensors: splits[i] = the user's -ts value
 * (@user, nullable) or each device's free memory, summed and normalised
 * (float, as there); i_gpu_start = max(n_layer + 1 - ngl, 0),
 * act_gpu_layers = min(ngl, n_layer + 1); layer il >= i_gpu_start goes to
 * device upper_bound(splits, (il - i_gpu_start) / act_gpu_layers). */
static void
layout_proportional (const Model *m,
                     const Devs  *d,
                     guint32      ngl,
                     const float *user,
                     Layout      *l)
{
  float splits[HR_DEVICE_MAX];
  float sum = 0.0f;
  gint start = MAX ((gint) m->n + 1 - (gint) ngl, 0);
  gint act = (gint) MIN (ngl, m->n + 1);

  memset (l, 0, sizeof *l);
  for (guint i = 0; i < d->nd; i++)
    {
      sum += user != NULL ? user[i] : (float) d->free[i];
      splits[i] = sum;
    }
  for (guint i = 0; i < d->nd; i++)
    splits[i] = sum > 0.0f ? splits[i] / sum : (float) (i + 1) / (float) d->nd;
  for (gint il = start; il < start + act; il++)
    {
      float x = (float) (il - start) / (float) act;
      guint dev = 0;

      while (dev < d->nd && !(splits[dev] > x))
        dev++;
      l->n_layer[MIN (dev, d->nd - 1)]++;
    }
}

/* Largest k in [lo, hi] with OK (k), given OK (lo) (bisection; fit's false
 * position finds the same count while memory grows with each layer). */
#define LARGEST(lo, hi, OK) \
  G_STMT_START { guint32 a_ = (lo), b_ = (hi); \
    while (a_ < b_) { guint32 k = a_ + (b_ - a_ + 1) / 2; if (OK) a_ = k; else b_ = k - 1; } \
    (lo) = a_; } G_STMT_END

static void
set_dense_fill (const Model *m,
                const Devs  *d,
                Layout      *l,
                guint        i,
                guint32      k)
{
  l->n_layer[i] = k;
  l->n_part[i] = !m->moe ? 0 : i < d->nd - 1 ? k : k > 0 ? k - 1 : 0;
}

static gboolean
dense_fill_fits (const Model *m,
                 const Devs  *d,
                 Layout       l,
                 guint        i,
                 guint32      k)
{
  set_dense_fill (m, d, &l, i, k);
  return device_fits (m, d, &l, i);
}

/* common/fit.cpp step 4's conversion of @step dense-only layers into whole
 * layers on device @id, taken from *start on (ngl_per_device_test there). */
static void
convert (Layout *l,
         guint   nd,
         guint   id,
         guint  *start,
         guint32 step)
{
  guint32 done = 0;

  for (; *start < nd; (*start)++)
    {
      guint32 c = MIN (step - done, l->n_part[*start]);

      l->n_layer[*start] -= c;
      l->n_part[*start] -= c;
      l->n_layer[id] += c;
      done += c;
      if (l->n_part[*start] > 0)
        break;
    }
}

static gboolean
convert_fits (const Model *m,
              const Devs  *d,
              Layout       l,
              guint        id,
              guint        start,
              guint32      step)
{
  convert (&l, d->nd, id, &start, step);
  return device_fits (m, d, &l, id);
}

static gboolean
both_fit (const Model  *m,
          const Devs   *d,
          const Layout *l,
          guint         id)
{
  guint64 mem[HR_DEVICE_MAX];

  layout_memory (m, d, l, mem);
  return (gint64) mem[id] < d->target[id] && (id + 1 == d->nd || (gint64) mem[id + 1] < d->target[id + 1]);
}

/* Step 4's last try for device @id: one more layer from *start, partly
 * (LAYER_FRACTION_UP, then _GATE; else _ATTN), what it does not keep on
 * the next device (the CPU for the last), when both stay under their
 * targets ("try to fit at least part of one more layer"). */
static void
one_more (const Model *m,
          const Devs  *d,
          Layout      *l,
          guint        id,
          guint       *start)
{
  Layout test = *l;
  guint st = *start;

  if (!(l->n_layer[st] > (id < d->nd - 1 ? 0u : 1u)) || l->n_part[st] == 0)
    return;
  test.n_layer[st]--;
  test.n_part[st]--;
  test.n_layer[id]++;
  test.n_part[id]++;
  if (test.n_part[st] == 0)
    st++;
  test.has_overflow[id] = TRUE;
  test.to_next[id] = id + 1 < d->nd;
  test.overflow[id] = HR_LAYER_FRACTION_UP;
  if (both_fit (m, d, &test, id))
    {
      *l = test;
      *start = st;
      test.overflow[id] = HR_LAYER_FRACTION_GATE;
      if (both_fit (m, d, &test, id))
        *l = test;
      return;
    }
  test.overflow[id] = HR_LAYER_FRACTION_ATTN;
  if (both_fit (m, d, &test, id))
    {
      *l = test;
      *start = st;
    }
}

/* common/fit.cpp common_params_fit_impl, several devices (see the top). */
static void
fit_devices (const Model *m,
             const Devs  *d,
             guint64      margin,
             Layout      *l)
{
  guint64 mem[HR_DEVICE_MAX];
  gboolean changes = FALSE;
  gint64 surplus = 0;
  guint start;

  /* Step 1: the default layout, every layer split by free memory. */
  layout_proportional (m, d, m->n + 1, NULL, l);
  layout_memory (m, d, l, mem);
  for (guint i = 0; i < d->nd; i++)
    if ((gint64) d->free[i] - (gint64) mem[i] < (gint64) margin)
      changes = TRUE;
  if (!changes)
    return;

  /* dmds_cpu_moe: the default layout with every expert tensor in host memory. */
  if (m->moe)
    {
      Layout cpu_moe = *l;

      for (guint i = 0; i < d->nd; i++)
        cpu_moe.n_part[i] = cpu_moe.n_layer[i];
      layout_memory (m, d, &cpu_moe, mem);
      for (guint i = 0; i < d->nd; i++)
        surplus += (gint64) d->free[i] - (gint64) mem[i] - (gint64) margin;
    }

  /* Step 3: from the last device to the first, the largest run that fits. */
  memset (l, 0, sizeof *l);
  for (gint i = (gint) d->nd - 1; i >= 0; i--)
    {
      guint32 unassigned = m->n + 1, best = 0;

      for (guint j = (guint) i + 1; j < d->nd; j++)
        unassigned -= l->n_layer[j];
      LARGEST (best, unassigned, dense_fill_fits (m, d, *l, (guint) i, k));
      set_dense_fill (m, d, l, (guint) i, best);
    }
  if (!m->moe || surplus <= 0)
    return;

  /* Step 4: dense-only layers become whole ones, device 0 first. */
  start = d->nd;
  for (gint i = (gint) d->nd - 1; i >= 0 && l->n_layer[i] > 0; i--)
    start = (guint) i;
  for (guint id = 0; id <= start && start < d->nd; id++)
    {
      guint32 most = 0, step = 0;

      for (guint j = start; j < d->nd; j++)
        most += l->n_part[j];
      LARGEST (step, most, convert_fits (m, d, *l, id, start, k));
      convert (l, d->nd, id, &start, step);
      if (start < d->nd)
        one_more (m, d, l, id, &start);
    }
}

/* ---------------------------------------------------------- result */

static void
sum_side (HrOffloadSide *side)
{
  side->total = side->weights + side->kv_cache + side->compute;
}

static void
describe_device (HrOffloadDevice *o,
                 const HrDevice  *dev,
                 guint            board_index)
{
  g_strlcpy (o->name, dev->name != NULL ? dev->name : "", sizeof o->name);
  o->board_index = board_index;
  o->free_bytes = hr_device_headroom_bytes (dev);
  o->bandwidth_bytes_per_s = dev->bandwidth_bytes_per_s;
}

/* The host's share before the GPUs' layers: the token embeddings, the
 * output layer when no layer is offloaded, and the first @il0 layers. */
static void
place_host_layers (const Model *m,
                   guint32      ngl,
                   guint        il0,
                   HrOffload   *out)
{
  double idle = 1.0 - m->active;

  out->host.weights = m->token_embd;
  if (ngl == 0)
    {
      guint64 output = m->tied ? (m->output > m->token_embd ? m->output - m->token_embd : 0) : m->output;

      out->host.weights += output;
      out->host_read_bytes += m->tied ? m->output : output;
    }
  for (guint i = 0; i < il0 && i < m->n; i++)
    {
      const Layer *x = &m->layers[i];

      out->host.weights += x->total;
      out->host.kv_cache += x->kv;
      out->host_read_bytes += x->total - (guint64) (experts_of (x) * idle);
    }
}

/* Device @i's layers from *@il on (advanced past them): what of each is
 * on the device, what overflows to the next device or the host, the
 * output layer, the partial layers and the compute buffer. */
static void
place_device_layers (const Model  *m,
                     const Devs   *d,
                     const Layout *l,
                     guint         i,
                     gboolean      pipeline,
                     guint        *il,
                     HrOffload    *out)
{
  HrOffloadDevice *o = &out->devices[i];
  double idle = 1.0 - m->active;

  o->first_layer = *il;
  for (guint32 j = 0; j < l->n_layer[i]; j++, (*il)++)
    {
      const Layer *x;
      HrLayerFraction f;
      guint64 gpu, gpu_x, rest, rest_read;

      if (*il == m->n)
        {
          o->output_layer = TRUE;
          o->side.weights += m->output;
          o->read_bytes += m->output;
          continue;
        }
      x = &m->layers[*il];
      f = user_fraction (m, *il, layer_fraction (l, i, j));
      gpu = on_gpu (x, f);
      gpu_x = experts_on_gpu (x, f);
      o->side.weights += gpu;
      o->side.kv_cache += x->kv;
      o->read_bytes += gpu - (guint64) (gpu_x * idle);
      rest = x->total - gpu;
      rest_read = rest - (guint64) ((experts_of (x) - gpu_x) * idle);
      if (layer_to_next (d, l, i, j))
        {
          /* the overflowing tensors in the next device's buffer */
          out->devices[i + 1].side.weights += rest;
          out->devices[i + 1].read_bytes += rest_read;
        }
      else
        {
          out->host.weights += rest;
          out->host_read_bytes += rest_read;
        }
      if (counts_partial (m, *il, f))
        o->partial_layers++;
    }
  if (o->layers > 0)
    o->side.compute = device_compute (m, pipeline);
}

/* Each device's total and what is left free on it, summed into the VRAM
 * side and the GPUs' reads; returns the partial layers over all devices. */
static guint
sum_devices (const Devs *d,
             HrOffload  *out)
{
  guint partial = 0;

  for (guint i = 0; i < d->nd; i++)
    {
      HrOffloadDevice *o = &out->devices[i];

      sum_side (&o->side);
      o->target_bytes = d->target[i];
      o->free_after_bytes = (gint64) MIN (o->free_bytes, (guint64) G_MAXINT64) -
                            (gint64) MIN (o->side.total, (guint64) G_MAXINT64);
      out->vram.weights += o->side.weights;
      out->vram.kv_cache += o->side.kv_cache;
      out->vram.compute += o->side.compute;
      out->gpu_read_bytes += o->read_bytes;
      partial += o->partial_layers;
    }
  return partial;
}

/* Every device's and the host's bytes and reads for layout @l (the
 * several-device form of hr-offload.c's place()). */
static void
place_devices (const Model  *m,
               const Devs   *d,
               const Layout *l,
               HrOffload    *out)
{
  guint32 ngl = layout_ngl (d, l);
  guint il = m->n + 1 - ngl;
  gboolean pipeline = layout_pipeline (m, d, l);
  gboolean whole;
  guint partial;

  out->vram = (HrOffloadSide) { 0 };
  out->host = (HrOffloadSide) { 0 };
  out->gpu_read_bytes = 0;
  out->host_read_bytes = 0;
  out->pipeline_parallel = pipeline;
  place_host_layers (m, ngl, il, out);
  for (guint i = 0; i < d->nd; i++)
    {
      HrOffloadDevice *o = &out->devices[i];

      describe_device (o, d->dev[i], d->index[i]);
      o->side = (HrOffloadSide) { 0 };
      o->layers = l->n_layer[i];
      o->partial_layers = 0;
      o->output_layer = FALSE;
      o->read_bytes = 0;
    }
  for (guint i = 0; i < d->nd; i++)
    place_device_layers (m, d, l, i, pipeline, &il, out);
  partial = sum_devices (d, out);

  whole = ngl == m->n + 1 && !layout_partial (d, l) && partial == 0;
  /* The host's inputs: held N_COPIES times under pipeline parallelism
   * (input-flagged tensors on their own backend, ggml_backend_sched_split_graph). */
  out->host.compute = whole ? m->inputs * (pipeline ? N_COPIES : 1) : m->inputs + m->compute;
  sum_side (&out->vram);
  sum_side (&out->host);
  out->n_devices = d->nd;
  out->gpu_layers = ngl;
  out->partial_layers = partial;
  out->overflow = HR_LAYER_FRACTION_MOE;
  for (guint i = 0; i < d->nd; i++)
    if (l->has_overflow[i] && l->n_part[i] > 0)
      {
        out->overflow = l->overflow[i]; /* the first device's with one */
        break;
      }
  out->size_bytes = whole ? out->vram.total : out->vram.total + out->host.total;
  hr_offload_format_processor (out->vram.total, out->size_bytes, out->processor);
}

/* The device with the least free memory after the load, among those with
 * layers (the first such on a tie): the one a longer context fills first. */
static void
find_binding (HrOffload *out)
{
  out->binding_device = -1;
  for (guint i = 0; i < out->n_devices; i++)
    {
      const HrOffloadDevice *o = &out->devices[i];

      if (o->layers == 0)
        continue;
      if (out->binding_device < 0 || o->free_after_bytes < out->devices[out->binding_device].free_after_bytes)
        out->binding_device = (gint) i;
    }
}

/* The verdict on several devices: over when a device's buffers pass its
 * free memory (margin the largest excess); with every layer on the GPUs
 * fits when each device is within its budget (free - reserve) and tight
 * otherwise (margin the least room left); else the host's, as one GPU's
 * split is judged (hr_offload_judge()). */
static void
judge_devices (const HrBoard *board,
               const Devs    *d,
               HrOffload     *out)
{
  gboolean whole = out->gpu_layers == out->total_layers && out->partial_layers == 0;
  guint64 excess = 0, room = G_MAXUINT64, tight_room = G_MAXUINT64;
  gboolean over = FALSE, tight = FALSE;

  for (guint i = 0; i < out->n_devices; i++)
    {
      const HrOffloadDevice *o = &out->devices[i];
      guint64 budget = hr_device_budget_bytes (d->dev[i]);

      if (o->side.total > o->free_bytes)
        {
          over = TRUE;
          excess = MAX (excess, o->side.total - o->free_bytes);
          continue;
        }
      tight_room = MIN (tight_room, o->free_bytes - o->side.total);
      if (o->side.total > budget)
        tight = TRUE;
      else
        room = MIN (room, budget - o->side.total);
    }
  if (over)
    {
      out->verdict = HR_VERDICT_OVER;
      out->margin_bytes = excess;
    }
  else if (whole)
    {
      out->verdict = tight ? HR_VERDICT_TIGHT : HR_VERDICT_FITS;
      out->margin_bytes = tight ? tight_room : room;
    }
  else
    {
      guint64 host_room = hr_board_host_headroom_bytes (board);

      if (hr_board_has_host (board) && out->host.total <= host_room)
        {
          out->verdict = HR_VERDICT_PARTIAL;
          out->margin_bytes = host_room - out->host.total;
        }
      else
        {
          out->verdict = HR_VERDICT_OVER;
          out->margin_bytes = hr_board_has_host (board) ? out->host.total - host_room : out->host.total;
        }
    }
}

/* One GPU chosen: the one-GPU split on a board that is that device (its
 * memory, bandwidth and backend) with the host memory kept. */
static gboolean
predict_one (const HrOffloadInputs *inputs,
             guint                  index,
             guint64                predicted,
             HrOffloadChoice        choice,
             HrOffload             *out,
             GError               **error)
{
  const HrDevice *dev = g_ptr_array_index (inputs->board->devices, index);
  g_autoptr (HrBoard) one = hr_board_copy (inputs->board);
  HrOffloadInputs in = *inputs;
  HrOffloadDevice *o = &out->devices[0];

  /* One device: -ts has nothing to split (fit checks it only for nd > 1). */
  in.n_tensor_split = 0;
  g_clear_pointer (&one->devices, g_ptr_array_unref);
  one->pool_bytes = dev->memory_bytes;
  one->resident_bytes = dev->resident_bytes;
  one->reserve_bytes = dev->reserve_bytes;
  one->bandwidth_bytes_per_s = dev->bandwidth_bytes_per_s;
  one->backend = hr_board_backend_for_device (dev->backend);
  in.board = one;
  if (!hr_offload_predict (&in, out, error))
    return FALSE;
  describe_device (o, dev, index);
  o->layers = out->gpu_layers;
  o->first_layer = out->total_layers - out->gpu_layers;
  o->partial_layers = out->partial_layers;
  o->output_layer = out->gpu_layers > 0;
  o->side = out->vram;
  o->target_bytes = out->target_bytes;
  o->free_after_bytes = (gint64) MIN (o->free_bytes, (guint64) G_MAXINT64) -
                        (gint64) MIN (o->side.total, (guint64) G_MAXINT64);
  o->read_bytes = out->gpu_read_bytes;
  out->n_devices = 1;
  out->ollama_predicted_bytes = predicted;
  out->spread = FALSE;
  out->choice = choice;
  find_binding (out);
  return TRUE;
}

/* A one-device board that is the chosen device with the least free memory:
 * the projector's offload test (Ollama llm/llama_server.go
 * shouldDisableMMProjOffload: any selected GPU under projector + 1 GiB). */
static HrBoard *
projector_board (const HrBoard *board,
                 const Devs    *d)
{
  HrBoard *one = hr_board_copy (board);
  guint least = 0;

  for (guint i = 1; i < d->nd; i++)
    if (d->free[i] < d->free[least])
      least = i;
  g_clear_pointer (&one->devices, g_ptr_array_unref);
  one->pool_bytes = d->dev[least]->memory_bytes;
  one->resident_bytes = d->dev[least]->resident_bytes;
  one->reserve_bytes = d->dev[least]->reserve_bytes;
  return one;
}

/* llama-server run by hand (src/llama.cpp llama_model_load's device
 * list): every discrete GPU in the board's order, the integrated ones only
 * when there is none; with -sm none the --main-gpu-th of them alone. */
static gboolean
llama_server_gpus (const HrOffloadInputs *inputs,
                   guint                  ids[HR_DEVICE_MAX],
                   guint                 *out_n,
                   HrOffloadChoice       *out_choice,
                   GError               **error)
{
  GPtrArray *devs = inputs->board->devices;
  guint n = MIN (devs->len, HR_DEVICE_MAX), count = 0;

  for (guint i = 0; i < n; i++)
    if (((const HrDevice *) g_ptr_array_index (devs, i))->kind != HR_DEVICE_KIND_INTEGRATED)
      ids[count++] = i;
  if (count == 0)
    for (guint i = 0; i < n; i++)
      ids[count++] = i;
  *out_choice = HR_OFFLOAD_CHOICE_LLAMA_SERVER;
  if (inputs->split_mode == HR_SPLIT_MODE_NONE)
    {
      guint main = inputs->main_gpu_set ? inputs->main_gpu : 0;

      if (main >= count)
        {
          /* src/llama.cpp: "invalid value for main_gpu" */
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("--main-gpu %u names no GPU: llama-server sees %u on this board (0 to %u)"), main, count, count - 1);
          return FALSE;
        }
      ids[0] = ids[main];
      count = 1;
      *out_choice = HR_OFFLOAD_CHOICE_SPLIT_NONE;
    }
  *out_n = count;
  return TRUE;
}

/**
 * hr_offload_predict_devices:
 * @inputs: the inputs, on a board with several GPUs
 * @out: (out caller-allocates): the split
 * @error: return location for a #GError
 *
 * hr_offload_predict() on a board with several GPUs (see the top of this
 * file, hr-offload-private.h). The sides are the sums over the devices;
 * free_vram_bytes and target_bytes the chosen devices' sums.
 *
 * Returns: %TRUE on success, or hr_offload_predict()'s errors.
 */
gboolean
hr_offload_predict_devices (const HrOffloadInputs *inputs,
                            HrOffload             *out,
                            GError               **error)
{
  const HrBoard *board = inputs->board;
  guint ids[HR_DEVICE_MAX];
  g_autoptr (HrBoard) pboard = NULL;
  Devs d = { 0 };
  Layout l;
  Model m;
  float user[HR_DEVICE_MAX] = { 0 };
  guint64 predicted, margin;
  gboolean spread;
  HrOffloadChoice choice;

  /* A first pass for Ollama's estimate (the file and the model's shape). */
  if (!hr_offload_begin (inputs, board, out, &m, error))
    return FALSE;
  g_free (m.layers);
  if (inputs->llama_server)
    {
      predicted = 0;
      if (!llama_server_gpus (inputs, ids, &d.nd, &choice, error))
        return FALSE;
      spread = d.nd > 1;
      if (d.nd == 1)
        return predict_one (inputs, ids[0], predicted, choice, out, error);
    }
  else
    {
      predicted = inputs->num_gpu == 0 ? 0 : hr_offload_predict_server_vram (inputs, &out->prediction);
      d.nd = hr_offload_select_gpus (inputs, predicted, ids, &spread, &choice);
      if (d.nd == 1 && inputs->num_gpu != 0)
        return predict_one (inputs, ids[0], predicted, choice, out, error);
    }

  for (guint i = 0; i < d.nd; i++)
    {
      d.dev[i] = g_ptr_array_index (board->devices, ids[i]);
      d.index[i] = ids[i];
      d.free[i] = hr_device_headroom_bytes (d.dev[i]);
    }
  pboard = projector_board (board, &d);
  if (!hr_offload_begin (inputs, pboard, out, &m, error))
    return FALSE;
  margin = out->fit_margin_used_bytes;
  out->free_vram_bytes = 0;
  out->target_bytes = 0;
  for (guint i = 0; i < d.nd; i++)
    {
      d.target[i] = (gint64) MIN (d.free[i], (guint64) G_MAXINT64) - (gint64) MIN (margin, (guint64) G_MAXINT64);
      out->free_vram_bytes += d.free[i];
      out->target_bytes += d.target[i];
    }

  /* -ts (its shares in llama-server's device order, the chosen GPUs') and any tensor override
   * stop fit's layer search (common/fit.cpp common_params_fit_impl:
   * "tensor_split already set by user" / "tensor_buft_overrides already
   * set by user, abort"), leaving -ngl at -1: every layer. */
  if (inputs->n_tensor_split > 0)
    for (guint i = 0; i < d.nd; i++)
      user[i] = inputs->tensor_split[i];
  out->user_split = inputs->n_tensor_split > 0;
  if (inputs->num_gpu >= 0)
    layout_proportional (&m, &d, (guint32) inputs->num_gpu, out->user_split ? user : NULL, &l);
  else if (out->user_split || m.overrides)
    {
      layout_proportional (&m, &d, m.n + 1, out->user_split ? user : NULL, &l);
      out->fit_skipped = TRUE;
    }
  else
    fit_devices (&m, &d, margin, &l);
  place_devices (&m, &d, &l, out);
  g_free (m.layers);
  out->spread = spread;
  out->choice = choice;
  out->ollama_predicted_bytes = predicted;
  judge_devices (board, &d, out);
  find_binding (out);
  return TRUE;
}

/* ---------------------------------------------------------- speed */

/**
 * hr_offload_decode_tps_devices:
 * @split: a split on a board with several GPUs (n_devices > 0)
 * @board: the board
 * @gpu_efficiency: the GPUs' efficiency, in (0, 1]
 * @host_efficiency: the CPU's, in (0, 1]
 * @out_tps: (out): tokens per second
 * @out_text: (out) (optional) (transfer full): the arithmetic
 * @error: return location for a #GError
 *
 * hr_offload_decode_tps() over several devices: layer split runs the
 * devices one after the other for a token, each reading its weights at its
 * own bandwidth, then the host part:
 *   t = sum over devices of read_d / (bandwidth_d x eff_gpu)
 *       + host_read / (bandwidth_host x eff_host)
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT
 *   when an efficiency is outside (0, 1], a device that reads weights has
 *   no known bandwidth (its name in the message), the host bandwidth the
 *   split needs is not known, or nothing is read.
 */
gboolean
hr_offload_decode_tps_devices (const HrOffload *split,
                               const HrBoard   *board,
                               double           gpu_efficiency,
                               double           host_efficiency,
                               double          *out_tps,
                               char           **out_text,
                               GError         **error)
{
  double bw_host = board->host_bandwidth_bytes_per_s, t = 0.0;
  g_autoptr (GString) text = g_string_new ("t = ");
  gboolean first = TRUE;

  *out_tps = 0.0;
  if (out_text)
    *out_text = NULL;
  if (!hr_offload_check_decode (split, gpu_efficiency, host_efficiency, error))
    return FALSE;
  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *o = &split->devices[i];

      if (o->read_bytes > 0 && !(o->bandwidth_bytes_per_s > 0.0))
        {
          /* Translators: %s a GPU's name */
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("the memory bandwidth of %s is not known: it holds layers of the model"), o->name);
          return FALSE;
        }
    }
  if (split->host_read_bytes > 0 && !(bw_host > 0.0))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("the board's host memory bandwidth is not known (\"host_bandwidth_gb_s\"): part of the model runs on the CPU"));
      return FALSE;
    }
  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *o = &split->devices[i];
      double ti;
      g_autofree char *rb = NULL, *bw = NULL, *e = NULL, *ms = NULL;

      if (o->read_bytes == 0)
        continue;
      ti = (double) o->read_bytes / (o->bandwidth_bytes_per_s * gpu_efficiency);
      t += ti;
      rb = hr_format_count (o->read_bytes);
      bw = hr_format_decimal (o->bandwidth_bytes_per_s / 1e9, 1);
      e = hr_format_decimal (gpu_efficiency, 2);
      ms = hr_format_decimal (ti * 1000.0, 1);
      /* Translators: bytes, GB/s, efficiency, a GPU's name, milliseconds */
      g_string_append_printf (text, _("%s%s bytes / (%s GB/s x %s) on %s (%s ms)"), first ? "" : " + ", rb, bw, e, o->name, ms);
      first = FALSE;
    }
  if (split->host_read_bytes > 0)
    {
      double th = (double) split->host_read_bytes / (bw_host * host_efficiency);
      g_autofree char *rb = hr_format_count (split->host_read_bytes);
      g_autofree char *bw = hr_format_decimal (bw_host / 1e9, 1);
      g_autofree char *e = hr_format_decimal (host_efficiency, 2);
      g_autofree char *ms = hr_format_decimal (th * 1000.0, 1);

      t += th;
      /* Translators: bytes, GB/s, efficiency, milliseconds */
      g_string_append_printf (text, _("%s%s bytes / (%s GB/s x %s) on the CPU (%s ms)"), first ? "" : " + ", rb, bw, e, ms);
    }
  *out_tps = 1.0 / t;
  if (out_text)
    {
      g_autofree char *tt = hr_format_decimal (t * 1000.0, 1);
      g_autofree char *tps = hr_format_decimal (*out_tps, 1);

      g_string_append_printf (text, _(" = %s ms per token: %s t/s"), tt, tps);
      *out_text = g_string_free (g_steal_pointer (&text), FALSE);
    }
  return TRUE;
}
