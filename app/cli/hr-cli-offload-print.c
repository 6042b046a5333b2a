/* hr-cli-offload-print.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A split's text and JSON for `headroom-cli predict` on a board that
 * splits: its verdict, the VRAM and host sides term by term, the GPUs'
 * table and "devices" members, the fit's target, where the projector
 * went, the layers on each side and the decode arithmetic with its rate.
 * What is split, and the fit finders, are in hr-cli-offload.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "hr-cli-offload-private.h"
#include "hr-error.h"
#include "hr-units.h"

char *
hr_cli_offload_split_verdict_text (const HrOffload *split)
{
  HrEvaluation e = { 0 };

  e.verdict = split->verdict;
  e.margin_bytes = split->margin_bytes;
  e.split = TRUE;
  e.gpu_layers = split->gpu_layers;
  e.total_layers = split->total_layers;
  e.expert_host_layers = split->partial_layers;
  return hr_cli_verdict_text (&e);
}

static void
print_side (const char          *label,
            const HrOffloadSide *side)
{
  g_autofree char *total = hr_format_count (side->total);
  g_autofree char *total_gb = hr_cli_offload_gb (side->total);
  g_autofree char *w = hr_format_count (side->weights);
  g_autofree char *kv = hr_format_count (side->kv_cache);
  g_autofree char *c = hr_format_count (side->compute);

  printf (_("  %s %s bytes (%s GB): weights %s, KV cache %s, compute %s\n"), label, total, total_gb, w, kv, c);
}

/* The JSON word for Ollama's choice of GPUs. */
static const char *
choice_name (HrOffloadChoice choice)
{
  switch (choice)
    {
    case HR_OFFLOAD_CHOICE_FITS_ONE:     return "fits-one";
    case HR_OFFLOAD_CHOICE_MAIN_GPU:     return "main-gpu";
    case HR_OFFLOAD_CHOICE_SPREAD:       return "sched-spread";
    case HR_OFFLOAD_CHOICE_NONE_FITS:    return "none-fits";
    case HR_OFFLOAD_CHOICE_MAIN_OUTSIDE: return "main-gpu-outside";
    case HR_OFFLOAD_CHOICE_LLAMA_SERVER: return "llama-server";
    case HR_OFFLOAD_CHOICE_SPLIT_NONE:   return "split-mode-none";
    case HR_OFFLOAD_CHOICE_ALL:
    default:                             return "all";
    }
}

/* Bytes with a sign: "1,024" or "-1,024". */
static char *
signed_count (gint64 bytes)
{
  g_autofree char *abs = hr_format_count (bytes >= 0 ? (guint64) bytes : (guint64) -(bytes + 1) + 1);

  return bytes >= 0 ? g_steal_pointer (&abs) : g_strdup_printf ("-%s", abs);
}

/* A board with several GPUs: "devices" (one object per GPU Ollama gave
 * llama-server: name, layers, first_layer, weights_bytes, kv_bytes,
 * compute_bytes, total_bytes, free_bytes = its free memory after the load,
 * negative when over), "binding_device" (the name of the one with the
 * least free after, null when none holds layers) and its
 * "binding_device_index" in the board's list, "spread",
 * "gpu_choice" (why those GPUs: "fits-one", "main-gpu", "sched-spread",
 * "none-fits", "main-gpu-outside", "all"), "pipeline_parallel" and
 * "ollama_predicted_bytes". */
static void
add_device_members (JsonObject      *o,
                    const HrOffload *split)
{
  JsonArray *devices = json_array_new ();

  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *d = &split->devices[i];
      JsonObject *e = json_object_new ();

      json_object_set_string_member (e, "name", d->name);
      json_object_set_int_member (e, "index", d->board_index);
      json_object_set_int_member (e, "layers", d->layers);
      json_object_set_int_member (e, "first_layer", d->first_layer);
      json_object_set_int_member (e, "partial_layers", d->partial_layers);
      json_object_set_boolean_member (e, "output_layer", d->output_layer);
      json_object_set_int_member (e, "weights_bytes", (gint64) MIN (d->side.weights, (guint64) G_MAXINT64));
      json_object_set_int_member (e, "kv_bytes", (gint64) MIN (d->side.kv_cache, (guint64) G_MAXINT64));
      json_object_set_int_member (e, "compute_bytes", (gint64) MIN (d->side.compute, (guint64) G_MAXINT64));
      json_object_set_int_member (e, "total_bytes", (gint64) MIN (d->side.total, (guint64) G_MAXINT64));
      json_object_set_int_member (e, "free_bytes", d->free_after_bytes);
      json_array_add_object_element (devices, e);
    }
  json_object_set_array_member (o, "devices", devices);
  if (split->binding_device >= 0)
    {
      json_object_set_string_member (o, "binding_device", split->devices[split->binding_device].name);
      json_object_set_int_member (o, "binding_device_index", split->devices[split->binding_device].board_index);
    }
  else
    {
      json_object_set_null_member (o, "binding_device");
      json_object_set_null_member (o, "binding_device_index");
    }
  json_object_set_boolean_member (o, "spread", split->spread);
  json_object_set_string_member (o, "gpu_choice", choice_name (split->choice));
  json_object_set_boolean_member (o, "pipeline_parallel", split->pipeline_parallel);
  json_object_set_int_member (o, "ollama_predicted_bytes", (gint64) MIN (split->ollama_predicted_bytes, (guint64) G_MAXINT64));
}

/* The devices' table under predict's split (several GPUs). */
static void
print_devices (const HrOffload *split)
{
  g_autofree char *est = hr_format_count (split->ollama_predicted_bytes);

  /* Ollama server/sched.go selectLlamaServerPlacement */
  switch (split->choice)
    {
    case HR_OFFLOAD_CHOICE_FITS_ONE:
      printf (_("  Ollama gives llama-server one GPU, %s (--split-mode none): its estimate %s bytes (PredictServerVRAM) is within 80 %% of that GPU's free memory\n"),
              split->devices[0].name, est);
      break;
    case HR_OFFLOAD_CHOICE_MAIN_GPU:
      printf (_("  Ollama gives llama-server one GPU, %s (--split-mode none): main_gpu names it\n"), split->devices[0].name);
      break;
    case HR_OFFLOAD_CHOICE_SPREAD:
      printf ("%s\n", _("  Ollama gives llama-server every GPU of the group: OLLAMA_SCHED_SPREAD is set"));
      break;
    case HR_OFFLOAD_CHOICE_NONE_FITS:
      printf (_("  Ollama gives llama-server every GPU of the group: its estimate %s bytes (PredictServerVRAM) is above 80 %% of each one's free memory\n"),
              est);
      break;
    case HR_OFFLOAD_CHOICE_MAIN_OUTSIDE:
      printf ("%s\n", _("  Ollama gives llama-server every GPU of the group: main_gpu names none of them, and is passed through"));
      break;
    case HR_OFFLOAD_CHOICE_LLAMA_SERVER:
      printf ("%s\n", _("  llama-server uses every GPU of the board, in its order"));
      break;
    case HR_OFFLOAD_CHOICE_SPLIT_NONE:
      /* Translators: a GPU's name */
      printf (_("  llama-server uses one GPU, %s (--split-mode none, --main-gpu)\n"), split->devices[0].name);
      break;
    case HR_OFFLOAD_CHOICE_ALL:
    default:
      printf ("%s\n", _("  Ollama gives llama-server every GPU: num_gpu 0 keeps every layer on the CPU"));
      break;
    }
  if (split->n_devices > 1)
    printf (split->pipeline_parallel ?
            _("  per GPU (llama.cpp's layer split; pipeline parallelism: 4 copies of the graph inputs on each, Headroom's estimate):\n") :
            _("  per GPU (llama.cpp's layer split):\n"));
  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *d = &split->devices[i];
      g_autofree char *w = hr_format_count (d->side.weights);
      g_autofree char *kv = hr_format_count (d->side.kv_cache);
      g_autofree char *c = hr_format_count (d->side.compute);
      g_autofree char *t = hr_format_count (d->side.total);
      g_autofree char *f = signed_count (d->free_after_bytes);
      g_autofree char *range = NULL;

      if (d->layers == 0)
        range = g_strdup (_("no layers"));
      else
        /* Translators: the first and last layer's index, the count; the output layer is index n_layer */
        range = g_strdup_printf (d->output_layer ? _("layers %u-%u (%u, the output layer last)") : _("layers %u-%u (%u)"),
                                 d->first_layer, d->first_layer + d->layers - 1, d->layers);
      /* Translators: GPU index, its name, its layers, bytes */
      printf (_("    GPU %u %s: %s: %s bytes: weights %s, KV cache %s, compute %s; free after %s\n"),
              d->board_index, d->name, range, t, w, kv, c, f);
      if (d->partial_layers > 0)
        printf (_("      %u of its blocks keep their expert tensors in host memory\n"), d->partial_layers);
    }
}

void
hr_cli_offload_add_split_members (JsonObject      *o,
                                  const HrOffload *split,
                                  double           tps,
                                  HrRateSource     source,
                                  HrSpeed          speed,
                                  const char      *text)
{
  json_object_set_int_member (o, "gpu_layers", split->gpu_layers);
  json_object_set_int_member (o, "total_layers", split->total_layers);
  json_object_set_int_member (o, "vram_bytes", (gint64) MIN (split->vram.total, (guint64) G_MAXINT64));
  json_object_set_int_member (o, "host_bytes", (gint64) MIN (split->host.total, (guint64) G_MAXINT64));
  if (split->pool_bytes > 0)
    json_object_set_int_member (o, "pool_bytes", (gint64) MIN (split->pool_bytes, (guint64) G_MAXINT64));
  json_object_set_string_member (o, "processor", split->processor);
  json_object_set_int_member (o, "ps_size_bytes", (gint64) MIN (split->size_bytes, (guint64) G_MAXINT64));
  json_object_set_string_member (o, "verdict", hr_verdict_to_string (split->verdict));
  json_object_set_int_member (o, "margin_bytes", (gint64) MIN (split->margin_bytes, (guint64) G_MAXINT64));
  json_object_set_double_member (o, "tps", hr_cli_json_rate (tps));
  json_object_set_string_member (o, "source", hr_rate_source_to_string (source));
  json_object_set_string_member (o, "speed", hr_speed_to_string (speed));
  if (split->n_devices > 0)
    add_device_members (o, split);
  hr_cli_placement_add_json (o, split, split->prediction.era == HR_RUNTIME_ERA_LLAMA_SERVER);
  if (text != NULL)
    json_object_set_string_member (o, "decode", text);
  else
    json_object_set_null_member (o, "decode");
  /* A projector (hr-mmproj.h): where it went and the margin fit kept. */
  if (split->projector_vram_bytes > 0 || split->projector_host_bytes > 0)
    {
      json_object_set_int_member (o, "fit_margin_bytes", (gint64) split->fit_margin_used_bytes);
      json_object_set_int_member (o, "projector_vram_bytes", (gint64) split->projector_vram_bytes);
      json_object_set_int_member (o, "projector_host_bytes", (gint64) split->projector_host_bytes);
      if (split->mmproj_offload != HR_MMPROJ_OFFLOAD_ON)
        json_object_set_string_member (o, "no_mmproj_offload", hr_mmproj_offload_reason (split->mmproj_offload));
    }
}

/* What the fit had to place the model in: free VRAM less the fit margin
 * (a projector's or each GPU's), or the layers num_gpu put there. */
void
hr_cli_offload_print_fit_target (const HrOffload *split,
                                 gint32           num_gpu)
{
  g_autofree char *free_vram = hr_format_count (split->free_vram_bytes);
  g_autofree char *target = split->target_bytes > 0 ? hr_format_count ((guint64) split->target_bytes) : g_strdup ("0");
  g_autofree char *mib = hr_format_count (split->fit_margin_used_bytes / (1024 * 1024));

  if (split->user_layers)
    printf (_("  num_gpu %d: %u of %u layers on the GPU, as -ngl puts them (no fit)\n"),
            num_gpu, split->gpu_layers, split->total_layers);
  else if (split->fit_margin_used_bytes != HR_OFFLOAD_FIT_MARGIN_BYTES && split->projector_vram_bytes > 0)
    /* Ollama llm/llama_server.go mmprojFitTargetMiB, extraEnvsForStart */
    printf (_("  free VRAM %s bytes less the %s MiB fit margin (projector + 1 GiB, LLAMA_ARG_FIT_TARGET): %s bytes for the model\n"),
            free_vram, mib, target);
  else if (split->n_devices > 1)
    /* Translators: bytes, the margin in MiB, the GPUs, bytes */
    printf (_("  free VRAM %s bytes less the %s MiB fit margin on each of the %u GPUs: %s bytes for the model\n"),
            free_vram, mib, split->n_devices, target);
  else
    printf (_("  free VRAM %s bytes less the 1024 MiB fit margin: %s bytes for the model\n"), free_vram, target);
}

/* Where the projector went, outside both sides of the split. */
void
hr_cli_offload_print_projector (const HrOffload *split)
{
  g_autofree char *pj = NULL;

  if (split->projector_vram_bytes == 0 && split->projector_host_bytes == 0)
    return;
  pj = hr_format_count (split->projector_vram_bytes + split->projector_host_bytes);
  if (split->projector_vram_bytes > 0)
    printf (_("  projector: %s bytes on the GPU after the fit, in neither side below (ollama ps leaves its weights out)\n"), pj);
  else
    printf (_("  projector: %s bytes in host memory (--no-mmproj-offload, %s), in neither side below\n"), pj,
            hr_mmproj_offload_reason (split->mmproj_offload));
}

/* The layers on each side, the GPUs, both sides' bytes, the ollama ps
 * line, the verdict and the GPU that fills first. */
void
hr_cli_offload_print_placement_figures (const HrOffload *split)
{
  g_autofree char *embd = hr_format_count (split->token_embd_bytes);
  g_autofree char *ps = hr_runtime_format_ps_size (split->size_bytes);
  g_autofree char *verdict = hr_cli_offload_split_verdict_text (split);

  printf (_("  layers: %u/%u on the GPU (the output layer and the last blocks), %u on the CPU\n"),
          split->gpu_layers, split->total_layers, split->total_layers - split->gpu_layers);
  if (split->partial_layers > 0)
    printf (_("  %u of the GPU's blocks keep tensors in host memory (%s: the expert tensors first)\n"),
            split->partial_layers, hr_layer_fraction_to_string (split->overflow));
  if (split->n_devices > 0)
    print_devices (split);
  print_side (_("VRAM:"), &split->vram);
  print_side (_("host:"), &split->host);
  printf (_("  (host weights include the token embedding, %s bytes, always in host memory)\n"), embd);
  printf (_("  ollama ps would show: %s, PROCESSOR %s\n"), ps, split->processor);
  printf (_("  verdict: %s\n"), verdict);
  if (split->n_devices > 1 && split->binding_device >= 0)
    {
      const HrOffloadDevice *d = &split->devices[split->binding_device];
      g_autofree char *f = signed_count (d->free_after_bytes);

      /* Translators: GPU index, its name, bytes */
      printf (_("  full first: GPU %u %s, %s bytes free after the load\n"), d->board_index, d->name, f);
    }
}

/* The decode arithmetic (@text) and the rate with its source and speed;
 * a model that does not load gets no speed verdict. */
void
hr_cli_offload_print_split_rate (const HrBoard   *board,
                                 const HrOffload *split,
                                 double           tps,
                                 HrRateSource     source,
                                 HrSpeed          speed,
                                 const char      *text)
{
  g_autofree char *tps_text = hr_format_decimal (tps, 1);

  if (text != NULL)
    printf (_("  decode: %s\n"), text);
  if (split->verdict == HR_VERDICT_OVER && tps > 0.0)
    printf (_("  rate: %s t/s (%s) if it loaded with every layer on the GPU; no speed verdict: it does not load\n"),
            tps_text, hr_rate_source_to_string (source));
  else if (split->verdict == HR_VERDICT_OVER)
    printf ("%s\n", _("  rate: not known; no speed verdict: it does not load"));
  else if (split->n_devices > 0 ? tps > 0.0 : board->bandwidth_bytes_per_s > 0.0)
    printf (_("  rate: %s t/s (%s), speed %s\n"), tps_text, hr_rate_source_to_string (source), hr_speed_to_string (speed));
  else
    printf (_("  rate: not known, speed %s\n"), hr_speed_to_string (speed));
}
