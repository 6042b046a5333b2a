/* hr-offload-fit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On top of the GPU/host split (hr-offload.c): the older scheduler's
 * automatic parallel slots, and the fit finders (the largest context, the
 * best precision). Pure: no I/O.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-offload.h"

/* ------------------------------------------------------ older scheduler */

/**
 * hr_offload_auto_parallel_slots:
 * @board: the board
 * @inputs: the model and the server's settings (parallel_slots is ignored)
 * @out_slots: (out): the slots the server would choose
 * @error: return location for a #GError
 *
 * The parallel slots Ollama picks when OLLAMA_NUM_PARALLEL is unset: up to
 * 0.12 the scheduler tries 4 (2 from 0.7) and falls back to 1 when the model
 * with that many slots does not fit the GPU's free memory (server/sched.go
 * pickBestFullFitByLibrary with llm.PredictServerFit; from 0.10 one slot).
 * The free memory is the board's VRAM less its resident bytes (on a unified
 * board its pool's); the sizes are the runtime's (hr_runtime_predict() with
 * free_bytes set, which models the same try-and-fall-back). Because a
 * 4-slot size can pass the free memory at a short context and not at a
 * longer one, the loaded size falls as the context grows past that point.
 *
 * Returns: %TRUE on success, or hr_runtime_predict()'s errors.
 */
gboolean
hr_offload_auto_parallel_slots (const HrBoard         *board,
                                const HrRuntimeInputs *inputs,
                                guint32               *out_slots,
                                GError               **error)
{
  HrRuntimeInputs in = *inputs;
  HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  gboolean ok;

  in.parallel_slots = 0;
  in.skip_text = TRUE;
  in.free_bytes = MAX (hr_board_headroom_bytes (board), 1);
  ok = hr_runtime_predict (&in, p, error);
  *out_slots = ok ? p->parallel_slots : 0;
  g_free (p);
  return ok;
}

/* --------------------------------------------------------- fit finders */

typedef struct {
  gboolean allow_partial;
  double   gpu_efficiency, host_efficiency, floor_tps;
} Want;

static gboolean
acceptable (const HrOffloadInputs *inputs,
            const Want            *want,
            HrOffload             *scratch,
            GError               **error)
{
  double tps;

  if (!hr_offload_predict (inputs, scratch, error))
    return FALSE;
  if (!want->allow_partial)
    return scratch->verdict == HR_VERDICT_FITS;
  if (scratch->verdict == HR_VERDICT_OVER)
    return FALSE;
  if (want->floor_tps <= 0.0)
    return TRUE;
  return hr_offload_decode_tps (scratch, inputs->board, want->gpu_efficiency, want->host_efficiency,
                                &tps, NULL, NULL) && tps >= want->floor_tps;
}

/* Which GPUs Ollama gave llama-server for a prediction: why, how many and
 * the first of them (on a board with one GPU or a unified pool always the
 * same). */
typedef struct {
  HrOffloadChoice choice;
  guint           n;
  guint           first;
} Placement;

static void
placement_of (const HrOffload *split,
              Placement       *out)
{
  out->choice = split->choice;
  out->n = split->n_devices;
  out->first = split->n_devices > 0 ? split->devices[0].board_index : 0;
}

static gboolean
placement_equal (const Placement *a,
                 const Placement *b)
{
  return a->choice == b->choice && a->n == b->n && a->first == b->first;
}

/* The placement at @steps x HR_OFFLOAD_CONTEXT_STEP tokens. */
static gboolean
placement_at (HrOffloadInputs *in,
              guint            steps,
              HrOffload       *scratch,
              Placement       *out,
              GError         **error)
{
  in->runtime.context_tokens = steps * HR_OFFLOAD_CONTEXT_STEP;
  if (!hr_offload_predict (in, scratch, error))
    return FALSE;
  placement_of (scratch, out);
  return TRUE;
}

/* The last step of the run of steps from @seg_lo up to @hi that keep
 * @seg_lo's placement, bisecting on the placement (on a board with one
 * GPU, @several %FALSE, the run is every step). */
static gboolean
run_end (HrOffloadInputs  *in,
         HrOffload        *scratch,
         gboolean          several,
         guint             seg_lo,
         guint             hi,
         guint            *out_seg_hi,
         GError          **error)
{
  Placement first, here;
  guint lo = seg_lo, top = hi;

  if (!placement_at (in, seg_lo, scratch, &first, error))
    return FALSE;
  if (!several)
    {
      *out_seg_hi = hi;
      return TRUE;
    }
  while (lo < top)
    {
      guint mid = lo + (top - lo + 1) / 2;

      if (!placement_at (in, mid, scratch, &here, error))
        return FALSE;
      if (placement_equal (&here, &first))
        lo = mid;
      else
        top = mid - 1;
    }
  *out_seg_hi = lo;
  return TRUE;
}

/* Within one placement's run [@seg_lo, @seg_hi] memory grows and speed
 * falls with the context: when @seg_lo is accepted, bisects for the last
 * accepted step and stores it in *@out_best (else leaves it). */
static gboolean
longest_in_run (HrOffloadInputs  *in,
                const Want       *want,
                HrOffload        *scratch,
                guint             seg_lo,
                guint             seg_hi,
                guint            *out_best,
                GError          **error)
{
  GError *local = NULL;
  guint lo = seg_lo, top = seg_hi;

  in->runtime.context_tokens = seg_lo * HR_OFFLOAD_CONTEXT_STEP;
  if (!acceptable (in, want, scratch, &local))
    {
      if (local == NULL)
        return TRUE;
      g_propagate_error (error, local);
      return FALSE;
    }
  while (lo < top)
    {
      guint mid = lo + (top - lo + 1) / 2;

      in->runtime.context_tokens = mid * HR_OFFLOAD_CONTEXT_STEP;
      if (acceptable (in, want, scratch, &local))
        lo = mid;
      else if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      else
        top = mid - 1;
    }
  *out_best = lo;
  return TRUE;
}

/**
 * hr_offload_max_context:
 * @inputs: the board, the model and settings; the context is ignored
 * @allow_partial: %FALSE: every layer on the GPU with the verdict fits;
 *   %TRUE: the model runs (fits, tight or partial) at or above the board's
 *   floor (hr_board_floor_tps()) at the given efficiencies
 * @gpu_efficiency: for @allow_partial: the GPU's efficiency
 * @host_efficiency: for @allow_partial: the CPU's efficiency
 * @out_context: (out): the largest context window, tokens
 * @error: return location for a #GError
 *
 * The largest num_ctx, in steps of %HR_OFFLOAD_CONTEXT_STEP tokens up to the
 * model's context limit (the limit itself when it is accepted; 1,048,576
 * tokens when the limit is unknown), that is still accepted. The verdict is
 * hr_offload_predict()'s at each candidate, so on a unified board it is
 * judged on the pool figure (hr_offload_pool_bytes()) a prediction at that
 * one context is judged on: at the answer a prediction gives the same
 * verdict, one step past it one that is not accepted.
 *
 * On one set of GPUs memory grows and speed falls with the context, so the
 * search bisects. On a board with several GPUs the set changes with the
 * context: Ollama puts the model on one GPU while its estimate
 * (llm/llama_server.go PredictServerVRAM, which grows with the context)
 * fits 80 % of that GPU, and on every GPU of a group past that (server/sched.go
 * selectLlamaServerPlacement, bestSingleGPUFit), so a context too large for
 * one GPU can fit on all of them. The estimate only grows, so a GPU that
 * stops passing never passes again and each placement holds one run of
 * contexts: the search finds each run's end (bisecting on the placement),
 * bisects within each run for the largest accepted context, and answers the
 * largest of them.
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_NOT_FOUND when no
 *   context of %HR_OFFLOAD_CONTEXT_STEP tokens or more is accepted, or
 *   hr_offload_predict()'s and hr_offload_decode_tps()'s errors.
 */
gboolean
hr_offload_max_context (const HrOffloadInputs *inputs,
                        gboolean               allow_partial,
                        double                 gpu_efficiency,
                        double                 host_efficiency,
                        guint32               *out_context,
                        GError               **error)
{
  HrOffloadInputs in = *inputs;
  HrOffload *scratch = g_new0 (HrOffload, 1);
  Want want = { allow_partial, gpu_efficiency, host_efficiency, 0.0 };
  const HrModelSpec *spec = inputs->runtime.spec;
  guint32 limit = spec != NULL && spec->context_length > 0 ? spec->context_length : 1048576;
  guint hi = limit / HR_OFFLOAD_CONTEXT_STEP, seg_hi, best = 0;
  gboolean several = inputs->board != NULL && hr_board_n_devices (inputs->board) > 1;
  GError *local = NULL;
  gboolean ok = FALSE;

  *out_context = 0;
  if (allow_partial && inputs->board != NULL)
    want.floor_tps = hr_board_floor_tps (inputs->board);
  in.runtime.skip_text = TRUE;

  in.runtime.context_tokens = limit;
  if (acceptable (&in, &want, scratch, &local))
    {
      *out_context = limit;
      ok = TRUE;
      goto out;
    }
  if (local != NULL)
    goto out;

  /* Each run of contexts with one placement, from the shortest up. */
  for (guint seg_lo = 1; seg_lo <= hi; seg_lo = seg_hi + 1)
    if (!run_end (&in, scratch, several, seg_lo, hi, &seg_hi, &local) ||
        !longest_in_run (&in, &want, scratch, seg_lo, seg_hi, &best, &local))
      goto out;
  if (best == 0)
    {
      g_set_error (&local, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   allow_partial ? _("%s does not run on %s above its floor even at %u tokens")
                                 : _("%s does not fit %s's GPU even at %u tokens"),
                   spec->name, inputs->board->name, HR_OFFLOAD_CONTEXT_STEP);
      goto out;
    }
  *out_context = best * HR_OFFLOAD_CONTEXT_STEP;
  ok = TRUE;

out:
  g_free (scratch);
  if (local != NULL)
    g_propagate_error (error, local);
  return ok;
}

/* Whether Ollama or llama-server can run a model at @p: a GGUF file type
 * (llama.cpp include/llama.h llama_ftype, Ollama fs/ggml/type.go
 * FileType; "fp16" is Ollama's tag word for F16). The seed's generic INT8
 * and INT4 are no such type. */
static gboolean
is_file_type (const HrPrecision *p)
{
  return g_ascii_strcasecmp (p->id, "int8") != 0 && g_ascii_strcasecmp (p->id, "int4") != 0;
}

/**
 * hr_offload_best_precision:
 * @inputs: the board, the model and settings at the context to check
 * @allow_partial: %FALSE: every layer on the GPU with the verdict fits;
 *   %TRUE: fits, tight or partial (it runs, whatever its speed)
 * @error: return location for a #GError
 *
 * The precision with the most bits per weight (hr_precision_list(), the
 * first on a tie) at which the model is still accepted at the inputs'
 * context, among the GGUF file types the runtime loads (not the seed's
 * generic INT8 and INT4: is_file_type()), by hr_offload_predict()'s verdict (on a unified board the pool
 * figure, as for hr_offload_max_context()). inputs->runtime.precision is
 * ignored.
 *
 * Returns: (transfer none) (nullable): the precision, or %NULL with
 *   %HR_CORE_ERROR_NOT_FOUND when none is accepted, or with
 *   hr_offload_predict()'s errors.
 */
const HrPrecision *
hr_offload_best_precision (const HrOffloadInputs *inputs,
                           gboolean               allow_partial,
                           GError               **error)
{
  HrOffloadInputs in = *inputs;
  HrOffload *scratch = g_new0 (HrOffload, 1);
  Want want = { allow_partial, 0.0, 0.0, 0.0 };
  const HrPrecision *list, *best = NULL;
  GError *local = NULL;
  guint n;

  list = hr_precision_list (&n);
  in.runtime.skip_text = TRUE;
  for (guint i = 0; i < n; i++)
    {
      if (!is_file_type (&list[i]) || (best != NULL && list[i].bits_per_weight <= best->bits_per_weight))
        continue;
      in.runtime.precision = &list[i];
      if (acceptable (&in, &want, scratch, &local))
        best = &list[i];
      else if (local != NULL)
        {
          g_free (scratch);
          g_propagate_error (error, local);
          return NULL;
        }
    }
  g_free (scratch);
  if (best == NULL)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                 allow_partial ? _("%s does not run on %s at %u tokens at any precision")
                               : _("%s does not fit %s's GPU at %u tokens at any precision"),
                 inputs->runtime.spec->name, inputs->board->name, inputs->runtime.context_tokens);
  return best;
}
