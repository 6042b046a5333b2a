/* hr-board.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-board.h"
#include "hr-error.h"
#include "hr-rates.h"
#include "hr-units.h"

G_DEFINE_BOXED_TYPE (HrBoard, hr_board, hr_board_copy, hr_board_free)

/* The seed's turn budget (Running Larger Models, model_rates.py):
 * 27-token replies, a 3,000 ms language stage, 350 ms kept for prefill. */
#define SEED_REPLY_TOKENS          27
#define SEED_STAGE_CEILING_MS      3000
#define SEED_PREFILL_ALLOWANCE_MS  350

/**
 * hr_board_new:
 * @id: a stable id, "jetson-orin-nano-super"
 * @name: what people call it
 *
 * Returns: (transfer full): a board with no memory figures and the seed's
 *   turn budget (27 reply tokens, 3,000 ms stage, 350 ms prefill allowance).
 */
HrBoard *
hr_board_new (const char *id,
              const char *name)
{
  HrBoard *board = g_new0 (HrBoard, 1);

  board->id = g_strdup (id);
  board->name = g_strdup (name);
  board->reply_tokens = SEED_REPLY_TOKENS;
  board->stage_ceiling_ms = SEED_STAGE_CEILING_MS;
  board->prefill_allowance_ms = SEED_PREFILL_ALLOWANCE_MS;
  return board;
}

/**
 * hr_board_copy:
 * @board: a board
 *
 * Returns: (transfer full): a deep copy.
 */
HrBoard *
hr_board_copy (const HrBoard *board)
{
  HrBoard *copy = g_memdup2 (board, sizeof *board);

  copy->id = g_strdup (board->id);
  copy->name = g_strdup (board->name);
  copy->source = g_strdup (board->source);
  copy->devices = NULL;
  if (board->devices != NULL)
    {
      copy->devices = g_ptr_array_new_full (board->devices->len, (GDestroyNotify) hr_device_free);
      for (guint i = 0; i < board->devices->len; i++)
        g_ptr_array_add (copy->devices, hr_device_copy (g_ptr_array_index (board->devices, i)));
    }
  return copy;
}

/**
 * hr_board_free:
 * @board: (nullable): a board
 */
void
hr_board_free (HrBoard *board)
{
  if (board == NULL)
    return;
  g_free (board->id);
  g_free (board->name);
  g_free (board->source);
  g_clear_pointer (&board->devices, g_ptr_array_unref);
  g_free (board);
}

static gboolean
validate_devices (const HrBoard *board,
                  GError       **error)
{
#define INVALID(...) G_STMT_START { g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, __VA_ARGS__); return FALSE; } G_STMT_END
  const HrDevice *first;

  if (board->devices == NULL)
    return TRUE;
  if (board->devices->len == 0 || board->devices->len > HR_DEVICE_MAX)
    INVALID (_("field \"devices\" must list between 1 and %u devices"), HR_DEVICE_MAX);
  if (board->backend == HR_BOARD_BACKEND_CPU)
    INVALID (_("field \"devices\" is for a GPU board: a \"cpu\" board has no GPU"));
  if (board->unified && board->devices->len > 1)
    INVALID (_("field \"devices\" lists %u devices: a unified board has one pool and one device"), board->devices->len);
  for (guint i = 0; i < board->devices->len; i++)
    {
      g_autoptr(GError) invalid = NULL;

      if (!hr_device_validate (g_ptr_array_index (board->devices, i), TRUE, &invalid))
        INVALID (_("device %u: %s"), i + 1, invalid->message);
    }
  first = g_ptr_array_index (board->devices, 0);
  if (first->memory_bytes != board->pool_bytes || first->resident_bytes != board->resident_bytes ||
      first->reserve_bytes != board->reserve_bytes || first->bandwidth_bytes_per_s != board->bandwidth_bytes_per_s)
    INVALID (_("field \"devices\": the first device's memory, resident, reserve and bandwidth must be the board's \"pool_bytes\", \"resident_bytes\", \"reserve_bytes\" and \"bandwidth_gb_s\""));
  if (hr_board_backend_for_device (first->backend) != board->backend)
    INVALID (_("field \"backend\" must be the first device's: \"%s\" drives it"),
             hr_board_backend_to_string (hr_board_backend_for_device (first->backend)));
  return TRUE;
#undef INVALID
}

/**
 * hr_board_validate:
 * @board: a board
 * @error: return location for a #GError
 *
 * Checks the figures make a budget: an id that can be part of a file name
 * (no leading ".", no "/", "\\" or control character) and a name, a pool above zero and
 * under 1 PB, resident + reserve below the pool, a bandwidth in
 * (0, 100 TB/s], and a stage ceiling longer than the prefill allowance.
 * Host memory (discrete boards only): either none (host_pool_bytes 0 and
 * every other host figure 0) or a host pool under 1 PB, host resident +
 * host reserve below it and a host bandwidth in (0, 100 TB/s]; a unified or
 * "cpu" board has no host figures (its one pool is the memory).
 * Devices (when the board lists them): 1 to %HR_DEVICE_MAX of them, on a
 * GPU board, one at most on a unified board, each valid
 * (hr_device_validate(), bandwidth required), the first one's figures the
 * board's own (hr_board_set_devices()).
 *
 * Returns: %TRUE when valid; else %HR_CORE_ERROR_INVALID_DATA naming the
 *   field; a device's problem reads "device N: " and the device's message.
 */
gboolean
hr_board_validate (const HrBoard *board,
                   GError       **error)
{
#define INVALID(...) G_STMT_START { g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, __VA_ARGS__); return FALSE; } G_STMT_END
  guint64 spoken_for;

  if (board->id == NULL || board->id[0] == '\0')
    INVALID (_("field \"id\" is missing or empty"));
  /* The id names each measurement's file (hr_measurement_save()); a
   * leading "." would hide it from the archive's listing. */
  if (board->id[0] == '.' || strpbrk (board->id, "/\\") != NULL ||
      strpbrk (board->id, "\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017"
               "\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177") != NULL)
    INVALID (_("field \"id\" is part of each measurement's file name: it may not start with \".\" nor hold \"/\", \"\\\" or control characters"));
  if (board->name == NULL || board->name[0] == '\0')
    INVALID (_("field \"name\" is missing or empty"));
  /* Names are printed and shown as they are: no terminal escapes. */
  if (strpbrk (board->name, "\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017"
               "\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177") != NULL)
    INVALID (_("field \"name\" holds a control character (a terminal escape, a tab or a line break)"));
  if (board->pool_bytes == 0 || board->pool_bytes > G_GUINT64_CONSTANT (1000000000000000))
    INVALID (_("field \"pool_bytes\" must be between 1 byte and 1 PB"));
  if (!hr_add_u64 (board->resident_bytes, board->reserve_bytes, &spoken_for) ||
      spoken_for >= board->pool_bytes)
    INVALID (_("\"resident_bytes\" plus \"reserve_bytes\" must be less than \"pool_bytes\": nothing would be left for a model"));
  if (!(board->bandwidth_bytes_per_s > 0.0) || board->bandwidth_bytes_per_s > 1e14)
    INVALID (_("field \"bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s"));
  if (board->reply_tokens == 0 || board->reply_tokens > 1000000)
    INVALID (_("field \"reply_tokens\" must be between 1 and 1,000,000"));
  if (board->stage_ceiling_ms <= board->prefill_allowance_ms)
    INVALID (_("\"stage_ceiling_ms\" must be longer than \"prefill_allowance_ms\": no time would be left to decode"));
  if ((guint) board->backend > HR_BOARD_BACKEND_CPU)
    INVALID (_("field \"backend\" must be \"cuda\", \"metal\" or \"cpu\""));
  if (board->host_pool_bytes == 0)
    {
      if (board->host_resident_bytes > 0 || board->host_reserve_bytes > 0 || board->host_bandwidth_bytes_per_s != 0.0)
        INVALID (_("field \"host_pool_bytes\" is missing: the other host figures need the host memory's size"));
      return validate_devices (board, error);
    }
  if (board->unified)
    INVALID (_("field \"host_pool_bytes\" is for a discrete GPU: a unified board has one pool, \"pool_bytes\""));
  if (board->backend == HR_BOARD_BACKEND_CPU)
    INVALID (_("field \"host_pool_bytes\" is for a GPU board: on a \"cpu\" board the pool is the host memory"));
  if (board->host_pool_bytes > G_GUINT64_CONSTANT (1000000000000000))
    INVALID (_("field \"host_pool_bytes\" must be between 1 byte and 1 PB"));
  if (!hr_add_u64 (board->host_resident_bytes, board->host_reserve_bytes, &spoken_for) ||
      spoken_for >= board->host_pool_bytes)
    INVALID (_("\"host_resident_bytes\" plus \"host_reserve_bytes\" must be less than \"host_pool_bytes\": nothing would be left for layers in host memory"));
  if (!(board->host_bandwidth_bytes_per_s > 0.0) || board->host_bandwidth_bytes_per_s > 1e14)
    INVALID (_("field \"host_bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s"));
  return validate_devices (board, error);
#undef INVALID
}

/**
 * hr_board_headroom_bytes:
 * @board: a board
 *
 * headroom = pool - resident (docs/seed-figures.md: 8.0 - 1.9 = 6.1 GB).
 *
 * Returns: bytes (0 if resident exceeds the pool).
 */
guint64
hr_board_headroom_bytes (const HrBoard *board)
{
  return board->pool_bytes > board->resident_bytes ? board->pool_bytes - board->resident_bytes : 0;
}

/**
 * hr_board_budget_bytes:
 * @board: a board
 *
 * budget = pool - resident - reserve (docs/seed-figures.md: 6.1 - 1.0 = 5.1 GB).
 *
 * Returns: bytes (0 if nothing is left).
 */
guint64
hr_board_budget_bytes (const HrBoard *board)
{
  guint64 headroom = hr_board_headroom_bytes (board);

  return headroom > board->reserve_bytes ? headroom - board->reserve_bytes : 0;
}

/**
 * hr_board_floor_tps:
 * @board: a board
 *
 * The decode rate a reply must reach to fit the board's turn budget; see
 * hr_rate_floor_tps().
 *
 * Returns: tokens per second.
 */
double
hr_board_floor_tps (const HrBoard *board)
{
  return hr_rate_floor_tps (board->reply_tokens, board->stage_ceiling_ms, board->prefill_allowance_ms);
}

/**
 * hr_board_verdict:
 * @board: a board
 * @footprint_bytes: the model's footprint
 * @out_margin_bytes: (out) (optional): the margin, always >= 0: budget -
 *   footprint when it fits, headroom - footprint when tight, footprint -
 *   headroom when over
 *
 * The seed's verdict (docs/seed-figures.md "Budget and verdicts"): fits if the
 * footprint is within the budget, tight if within the headroom, else over.
 *
 * Returns: the verdict.
 */
HrVerdict
hr_board_verdict (const HrBoard *board,
                  guint64        footprint_bytes,
                  guint64       *out_margin_bytes)
{
  guint64 budget = hr_board_budget_bytes (board);
  guint64 headroom = hr_board_headroom_bytes (board);
  HrVerdict verdict;
  guint64 margin;

  if (footprint_bytes <= budget)
    {
      verdict = HR_VERDICT_FITS;
      margin = budget - footprint_bytes;
    }
  else if (footprint_bytes <= headroom)
    {
      verdict = HR_VERDICT_TIGHT;
      margin = headroom - footprint_bytes;
    }
  else
    {
      verdict = HR_VERDICT_OVER;
      margin = footprint_bytes - headroom;
    }

  if (out_margin_bytes != NULL)
    *out_margin_bytes = margin;
  return verdict;
}

/**
 * hr_verdict_to_string:
 * @verdict: a verdict
 *
 * Returns: (transfer none): "fits", "tight", "partial" or "over"
 *   (untranslated: the seed's words and docs/memory-model.md's, used in tables, JSON
 *   and CSV).
 */
const char *
hr_verdict_to_string (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:  return "fits";
    case HR_VERDICT_TIGHT: return "tight";
    case HR_VERDICT_PARTIAL: return "partial";
    case HR_VERDICT_OVER:
    default:               return "over";
    }
}

/**
 * hr_board_has_host:
 * @board: a board
 *
 * Returns: %TRUE when the board is a discrete-GPU board whose host memory
 *   is known (host_pool_bytes above 0): layers can then be placed there.
 */
gboolean
hr_board_has_host (const HrBoard *board)
{
  return !board->unified && board->backend != HR_BOARD_BACKEND_CPU && board->host_pool_bytes > 0;
}

/**
 * hr_board_host_headroom_bytes:
 * @board: a board
 *
 * host headroom = host pool - host resident, the system RAM free before a
 * model loads (what llama.cpp's CPU device reports as free).
 *
 * Returns: bytes (0 when the host memory is not known).
 */
guint64
hr_board_host_headroom_bytes (const HrBoard *board)
{
  return board->host_pool_bytes > board->host_resident_bytes ?
         board->host_pool_bytes - board->host_resident_bytes : 0;
}

/**
 * hr_board_host_budget_bytes:
 * @board: a board
 *
 * host budget = host pool - host resident - host reserve.
 *
 * Returns: bytes (0 when nothing is left or the host memory is not known).
 */
guint64
hr_board_host_budget_bytes (const HrBoard *board)
{
  guint64 headroom = hr_board_host_headroom_bytes (board);

  return headroom > board->host_reserve_bytes ? headroom - board->host_reserve_bytes : 0;
}

/**
 * hr_board_backend_to_string:
 * @backend: a backend
 *
 * Returns: (transfer none): "cuda", "metal" or "cpu" (the boards.json words).
 */
const char *
hr_board_backend_to_string (HrBoardBackend backend)
{
  switch (backend)
    {
    case HR_BOARD_BACKEND_METAL: return "metal";
    case HR_BOARD_BACKEND_CPU:   return "cpu";
    case HR_BOARD_BACKEND_CUDA:
    default:                     return "cuda";
    }
}

/**
 * hr_board_backend_from_string:
 * @str: (nullable): "cuda", "metal" or "cpu" (case-insensitive)
 * @out_backend: (out): the backend
 *
 * Returns: %TRUE when @str names a backend; %FALSE leaves @out_backend as it was.
 */
gboolean
hr_board_backend_from_string (const char     *str,
                              HrBoardBackend *out_backend)
{
  static const HrBoardBackend all[] = { HR_BOARD_BACKEND_CUDA, HR_BOARD_BACKEND_METAL, HR_BOARD_BACKEND_CPU };

  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (g_ascii_strcasecmp (str, hr_board_backend_to_string (all[i])) == 0)
      {
        *out_backend = all[i];
        return TRUE;
      }
  return FALSE;
}

/**
 * hr_board_backend_for_device:
 * @backend: a device's backend
 *
 * The board backend whose compute-buffer model (hr-runtime-compute.c)
 * covers the device: "metal" for Metal, else "cuda" (llama.cpp's GPU
 * backends, CUDA, HIP and Vulkan, share the GPU model there).
 *
 * Returns: the board backend.
 */
HrBoardBackend
hr_board_backend_for_device (HrDeviceBackend backend)
{
  return backend == HR_DEVICE_BACKEND_METAL ? HR_BOARD_BACKEND_METAL : HR_BOARD_BACKEND_CUDA;
}

/**
 * hr_board_n_devices:
 * @board: a board
 *
 * Returns: the GPUs the board has: the length of its device list, else 1
 *   for a GPU board (its fields describe the one GPU, or the unified pool)
 *   and 0 for a "cpu" board.
 */
guint
hr_board_n_devices (const HrBoard *board)
{
  if (board->devices != NULL)
    return board->devices->len;
  return board->backend == HR_BOARD_BACKEND_CPU ? 0 : 1;
}

/**
 * hr_board_is_multi_device:
 * @board: a board
 *
 * Returns: %TRUE when the board has more than one GPU.
 */
gboolean
hr_board_is_multi_device (const HrBoard *board)
{
  return hr_board_n_devices (board) > 1;
}

/**
 * hr_board_dup_devices:
 * @board: a board
 *
 * Every GPU of the board as one list, for code that places a model across
 * them. A board without a device list gives one device made of its own
 * fields: named as the board, its pool, resident, reserve and bandwidth,
 * integrated when the board is unified, else discrete, and "metal" or
 * "cuda" after the board's backend. A "cpu" board gives an empty list.
 *
 * Returns: (transfer full) (element-type HrDevice): the devices, copies.
 */
GPtrArray *
hr_board_dup_devices (const HrBoard *board)
{
  GPtrArray *devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  HrDevice *device;

  if (board->devices != NULL)
    {
      for (guint i = 0; i < board->devices->len; i++)
        g_ptr_array_add (devices, hr_device_copy (g_ptr_array_index (board->devices, i)));
      return devices;
    }
  if (board->backend == HR_BOARD_BACKEND_CPU)
    return devices;
  device = hr_device_new (board->name, board->pool_bytes,
                          board->unified ? HR_DEVICE_KIND_INTEGRATED : HR_DEVICE_KIND_DISCRETE,
                          board->backend == HR_BOARD_BACKEND_METAL ? HR_DEVICE_BACKEND_METAL : HR_DEVICE_BACKEND_CUDA);
  device->resident_bytes = board->resident_bytes;
  device->reserve_bytes = board->reserve_bytes;
  device->bandwidth_bytes_per_s = board->bandwidth_bytes_per_s;
  g_ptr_array_add (devices, device);
  return devices;
}

/**
 * hr_board_set_devices:
 * @board: a board
 * @devices: (nullable) (transfer full) (element-type HrDevice): the
 *   devices, in llama.cpp's order; %NULL drops the list
 *
 * Sets the board's devices and copies the first one's memory, resident,
 * reserve and bandwidth into pool_bytes, resident_bytes, reserve_bytes and
 * bandwidth_bytes_per_s, and its backend (hr_board_backend_for_device())
 * into backend, so that they keep meaning the first GPU. An empty list is
 * kept as it is (hr_board_validate() refuses it). Nothing else changes.
 */
void
hr_board_set_devices (HrBoard   *board,
                      GPtrArray *devices)
{
  g_clear_pointer (&board->devices, g_ptr_array_unref);
  board->devices = devices;
  if (devices != NULL && devices->len > 0)
    {
      const HrDevice *first = g_ptr_array_index (devices, 0);

      board->pool_bytes = first->memory_bytes;
      board->resident_bytes = first->resident_bytes;
      board->reserve_bytes = first->reserve_bytes;
      board->bandwidth_bytes_per_s = first->bandwidth_bytes_per_s;
      board->backend = hr_board_backend_for_device (first->backend);
    }
}

/**
 * hr_board_first_device_only_text:
 * @board: a board
 *
 * What the sizing of a board with several GPUs must say until Headroom
 * places a model across them: every figure (fit, verdict, speed) is the
 * first GPU's alone, as the board's own pool_bytes and bandwidth are.
 *
 * Returns: (transfer full) (nullable): the sentence, or %NULL when the
 *   board has one GPU or none.
 */
char *
hr_board_first_device_only_text (const HrBoard *board)
{
  const HrDevice *first;
  g_autofree char *memory = NULL;

  if (!hr_board_is_multi_device (board))
    return NULL;
  first = g_ptr_array_index (board->devices, 0);
  memory = hr_format_bytes (first->memory_bytes, HR_UNIT_GIB, 1);
  /* Translators: %s a GPU's name, %s its memory ("24.0 GiB"), %u how many GPUs the board has */
  return g_strdup_printf (_("Sized on its first GPU only (%s, %s): this board has %u GPUs, and Headroom does not place a model across several GPUs yet; the other GPUs' memory and bandwidth are not counted."),
                          first->name, memory, board->devices->len);
}
