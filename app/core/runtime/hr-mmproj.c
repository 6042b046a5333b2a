/* hr-mmproj.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Vision and audio projectors (see hr-mmproj.h). Every rule here is Ollama's
 * llm/llama_server.go (@fb30760), read for the facts:
 *  - mmprojMemoryRequirement: a projector inside the model's own GGUF
 *    (projector path == model path) counts the tensors named "v.", "mm."
 *    and "a." (fs/ggml/ggml.go Tensors.Items: a prefix match); a separate
 *    mmproj GGUF counts all its tensors; no tensor is an error.
 *  - NewLlamaServer: the projector is the model's own file only for the
 *    architectures its compatClipArches lists, and only with "v." tensors.
 *  - shouldDisableMMProjOffload: --no-mmproj-offload for num_gpu 0, for
 *    0 < num_gpu < block_count + 1, and for any selected GPU whose memory
 *    (free, or total when free is 0 or above total) is below the projector
 *    + 1 GiB.
 *  - mmprojFitTargetMiB / extraEnvsForStart: with the projector offloaded,
 *    LLAMA_ARG_FIT_TARGET = ceil((projector + 1 GiB) / MiB), which takes
 *    the place of llama.cpp's 1024 MiB default (common/arg.cpp --fit-target);
 *    a value the user set in Ollama's environment is kept, unpadded.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config.h"
#include "hr-mmproj.h"

#define MIB (G_GUINT64_CONSTANT (1024) * 1024)

/**
 * hr_mmproj_path_is_projector:
 * @path: a file path in a repository ("mmproj-F16.gguf", "sub/mmproj-model-f16.gguf")
 *
 * Whether @path is a multimodal projector GGUF: a ".gguf" path that
 * contains "mmproj", the test llama.cpp's -hf uses to find one
 * (common/download.cpp find_best_sibling with the keyword "mmproj") and
 * to keep it out of the model files (common/download.cpp, the
 * filename.find("mmproj") check). GGUF repositories on the Hub name them
 * so: ggml-org's "mmproj-<model>-f16.gguf", unsloth's "mmproj-F16.gguf".
 *
 * Returns: %TRUE for a projector file.
 */
gboolean
hr_mmproj_path_is_projector (const char *path)
{
  return path != NULL && g_str_has_suffix (path, ".gguf") && strstr (path, "mmproj") != NULL;
}

/* llama.cpp common/download.cpp extract_quant_bits: the first number in
 * the file's quantization tag ("Q4_K_M" 4, "F16" 16, "BF16" 16), 0 = none. */
static int
quant_bits (const char *path)
{
  g_autofree char *label = hr_hf_gguf_quant_label (path);
  const char *digit;

  if (label == NULL || (digit = strpbrk (label, "0123456789")) == NULL)
    return 0;
  return atoi (digit);
}

/* The directories of @path, split ("a/b/c.gguf" -> "a", "b"). */
static char **
dirs_of (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  guint n = g_strv_length (parts);

  g_free (parts[n - 1]);
  parts[n - 1] = NULL;
  return g_steal_pointer (&parts);
}

static int
compare_path (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * hr_mmproj_choose_sibling:
 * @paths: (array length=n_paths): the files beside the model ('/'-separated,
 *   relative to one root: a repository's siblings, a folder's names)
 * @n_paths: their number
 * @model_path: the model's GGUF, relative to the same root
 *
 * The projector llama.cpp's -hf takes with @model_path
 * (common/download.cpp find_best_sibling, keyword "mmproj"): among @paths
 * that are projectors (hr_mmproj_path_is_projector()) and whose directory
 * holds the model's (is it, or one above it), the deepest; then the one
 * whose quantization bits are closest to the model's (the first number of
 * the tag: Q4_K_M 4, F16 16); the first in path order on a tie.
 *
 * Returns: (transfer full) (nullable): its path, or %NULL when there is none.
 */
char *
hr_mmproj_choose_sibling (const char * const *paths,
                          guint               n_paths,
                          const char         *model_path)
{
  g_autoptr(GPtrArray) candidates = g_ptr_array_new ();
  g_auto(GStrv) model_dirs = dirs_of (model_path);
  int model_bits = quant_bits (model_path);
  const char *best = NULL;
  guint best_depth = 0;
  int best_diff = 0;

  for (guint i = 0; i < n_paths; i++)
    if (hr_mmproj_path_is_projector (paths[i]) && strcmp (paths[i], model_path) != 0)
      g_ptr_array_add (candidates, (gpointer) paths[i]);
  g_ptr_array_sort (candidates, compare_path);
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *path = g_ptr_array_index (candidates, i);
      g_auto(GStrv) dirs = dirs_of (path);
      guint depth = g_strv_length (dirs);
      gboolean inside = depth <= g_strv_length (model_dirs);
      int diff;

      for (guint d = 0; inside && d < depth; d++)
        inside = strcmp (dirs[d], model_dirs[d]) == 0;
      if (!inside)
        continue;
      diff = abs (quant_bits (path) - model_bits);
      if (best == NULL || depth > best_depth || (depth == best_depth && diff < best_diff))
        {
          best = path;
          best_depth = depth;
          best_diff = diff;
        }
    }
  return g_strdup (best);
}

/**
 * hr_mmproj_tensor_is_inline:
 * @name: a GGUF tensor name
 *
 * Whether @name is a projector tensor inside a model GGUF: it starts with
 * "v.", "mm." or "a." (Ollama llm/llama_server.go mmprojMemoryRequirement,
 * the prefixes it sums; llama.cpp tools/mtmd/clip.cpp load_tensors reads
 * "v" for vision and "a" for audio).
 *
 * Returns: %TRUE for a projector tensor.
 */
gboolean
hr_mmproj_tensor_is_inline (const char *name)
{
  return name != NULL && (g_str_has_prefix (name, "v.") || g_str_has_prefix (name, "mm.") ||
                          g_str_has_prefix (name, "a."));
}

/**
 * hr_mmproj_arch_has_inline:
 * @architecture: (nullable): general.architecture
 *
 * Whether Ollama points --mmproj at the model's own GGUF for this
 * architecture when it has "v." tensors: the compatClipArches list of
 * Ollama llm/llama_server.go NewLlamaServer (the architectures its
 * llama/compat layer has a clip handler for).
 *
 * Returns: %TRUE when the architecture is on that list.
 */
gboolean
hr_mmproj_arch_has_inline (const char *architecture)
{
  static const char *const arches[] = {
    "gemma3", "gemma4", "qwen35", "qwen35moe", "qwen25vl", "qwen3vl", "qwen3vlmoe",
    "mistral3", "deepseekocr", "glmocr", "llama4", "nemotron_h_omni",
  };

  if (architecture == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (arches); i++)
    if (strcmp (architecture, arches[i]) == 0)
      return TRUE;
  return FALSE;
}

/**
 * hr_mmproj_inline_bytes:
 * @file: a model GGUF's header
 * @out_tensors: (out) (optional): how many tensors were summed
 *
 * The bytes of the projector inside a model GGUF: its "v.", "mm." and "a."
 * tensors' sizes summed, as Ollama llm/llama_server.go
 * mmprojMemoryRequirement does when the projector path is the model's.
 *
 * Returns: bytes; 0 when the file has no such tensor.
 */
guint64
hr_mmproj_inline_bytes (const HrGgufFile *file,
                        guint            *out_tensors)
{
  guint64 bytes = 0;
  guint n = 0;

  for (guint i = 0; i < hr_gguf_file_get_n_tensors (file); i++)
    {
      const HrTensorInfo *t = hr_gguf_file_get_tensor (file, i);

      if (!hr_mmproj_tensor_is_inline (t->name))
        continue;
      bytes += t->bytes;
      n++;
    }
  if (out_tensors != NULL)
    *out_tensors = n;
  return bytes;
}

/**
 * hr_mmproj_file_bytes:
 * @file: a projector GGUF's header (an mmproj file or Ollama's projector layer)
 * @error: return location for a #GError
 *
 * The bytes Ollama counts for a separate projector file: every tensor's
 * size summed (Ollama llm/llama_server.go mmprojMemoryRequirement), what
 * llama.cpp tools/mtmd/clip.cpp load_tensors allocates in one weights
 * buffer (ggml_backend_alloc_ctx_tensors_from_buft).
 *
 * Returns: bytes, or 0 with %HR_CORE_ERROR_INVALID_DATA when the file has
 *   no tensor (Ollama's "no projector tensors found").
 */
guint64
hr_mmproj_file_bytes (const HrGgufFile *file,
                      GError          **error)
{
  guint64 bytes = hr_gguf_file_get_tensor_bytes (file);

  if (bytes == 0)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("the projector file has no tensors (Ollama refuses it: “no projector tensors found”)"));
  return bytes;
}

/**
 * hr_mmproj_take_inline:
 * @spec: a spec read from a model GGUF (its tensor list set)
 *
 * For an architecture Ollama gives its own file as --mmproj
 * (hr_mmproj_arch_has_inline()) and that has "v." tensors: moves the
 * projector tensors ("v.", "mm.", "a.") out of the spec's tensor list into
 * spec->projector_bytes, so the weights term counts the text model only
 * and the projector is its own term, as llama-server loads them: the text
 * model by llama.cpp, the projector by tools/mtmd/clip.cpp. Does nothing
 * for other specs, or when projector_bytes is already set (a separate
 * projector file wins, as Ollama passes only projectors[0]).
 *
 * Returns: the bytes moved, 0 when none.
 */
guint64
hr_mmproj_take_inline (HrModelSpec *spec)
{
  g_autoptr(GPtrArray) kept = NULL;
  guint64 bytes = 0;
  gboolean vision = FALSE;

  if (spec == NULL || spec->tensors == NULL || spec->projector_bytes > 0 ||
      !hr_mmproj_arch_has_inline (spec->architecture))
    return 0;
  for (guint i = 0; i < spec->tensors->len && !vision; i++)
    vision = g_str_has_prefix (((const HrTensorInfo *) g_ptr_array_index (spec->tensors, i))->name, "v.");
  if (!vision)
    return 0;
  kept = g_ptr_array_new_full (spec->tensors->len, (GDestroyNotify) hr_tensor_info_free);
  for (guint i = 0; i < spec->tensors->len; i++)
    {
      const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);

      if (hr_mmproj_tensor_is_inline (t->name))
        bytes += t->bytes;
      else
        g_ptr_array_add (kept, hr_tensor_info_copy (t));
    }
  hr_model_spec_take_tensors (spec, g_steal_pointer (&kept));
  spec->projector_bytes = bytes;
  g_free (spec->projector_source);
  spec->projector_source = g_strdup ("the model's own GGUF: its v., mm. and a. tensors "
                                     "(Ollama llm/llama_server.go mmprojMemoryRequirement, inline projector)");
  return bytes;
}

/**
 * hr_mmproj_safetensors_is_tower:
 * @name: a safetensors tensor name
 *
 * Whether @name belongs to a vision or audio tower or its projector in a
 * Hugging Face checkpoint: after an optional "model." it starts with
 * "vision_tower.", "visual.", "vision_model.", "multi_modal_projector.",
 * "mm_projector." or "audio_tower." (the module names of transformers'
 * LlavaForConditionalGeneration, Qwen2VL/Qwen2.5-VL/Qwen3-VL, Mllama and
 * Idefics3, Gemma3ForConditionalGeneration and Qwen2-Audio). llama.cpp's
 * convert_hf_to_gguf.py writes these to the mmproj file.
 *
 * Returns: %TRUE for a tower tensor.
 */
gboolean
hr_mmproj_safetensors_is_tower (const char *name)
{
  static const char *const prefixes[] = {
    "vision_tower.", "visual.", "vision_model.", "multi_modal_projector.", "mm_projector.", "audio_tower.",
  };

  if (name == NULL)
    return FALSE;
  if (g_str_has_prefix (name, "model."))
    name += strlen ("model.");
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/**
 * hr_mmproj_offload_decision:
 * @num_gpu: Ollama's num_gpu: -1 automatic, 0 CPU only, N layers
 * @model_layers: block_count + 1 (Ollama's modelLayers)
 * @gpu_free: (array length=n_gpus) (nullable): each selected GPU's free memory, bytes
 * @gpu_total: (array length=n_gpus) (nullable): each one's total memory, bytes
 * @n_gpus: the selected GPUs
 * @projector_bytes: mmprojMemoryRequirement's bytes
 *
 * Whether Ollama passes --no-mmproj-offload, and why: Ollama
 * llm/llama_server.go shouldDisableMMProjOffload, in its order: num_gpu 0
 * ("cpu-only"); 0 < num_gpu < @model_layers ("partial-text-offload"); any
 * GPU whose memory is below @projector_bytes + 1 GiB ("limited-vram"),
 * the memory being the free memory, or the total when free is 0 or larger
 * than a known total; a GPU whose memory is 0 is skipped. (Ollama also
 * forces it after an out-of-memory start, retryWithMMProjCPUOffload; a
 * prediction never sees that.)
 *
 * Returns: the decision; %HR_MMPROJ_OFFLOAD_ON when the projector goes on
 *   the GPU, and for @projector_bytes 0.
 */
HrMmprojOffload
hr_mmproj_offload_decision (gint32          num_gpu,
                            guint32         model_layers,
                            const guint64  *gpu_free,
                            const guint64  *gpu_total,
                            guint           n_gpus,
                            guint64         projector_bytes)
{
  guint64 required = projector_bytes + HR_MMPROJ_OFFLOAD_HEADROOM_BYTES;

  if (projector_bytes == 0)
    return HR_MMPROJ_OFFLOAD_ON;
  if (num_gpu == 0)
    return HR_MMPROJ_OFFLOAD_CPU_ONLY;
  if (num_gpu > 0 && model_layers > 0 && (guint32) num_gpu < model_layers)
    return HR_MMPROJ_OFFLOAD_PARTIAL_TEXT;
  for (guint i = 0; i < n_gpus; i++)
    {
      guint64 free_ = gpu_free != NULL ? gpu_free[i] : 0;
      guint64 total = gpu_total != NULL ? gpu_total[i] : 0;
      guint64 memory = free_;

      if (memory == 0 || (total > 0 && total < memory))
        memory = total;
      if (memory > 0 && memory < required)
        return HR_MMPROJ_OFFLOAD_LIMITED_VRAM;
    }
  return HR_MMPROJ_OFFLOAD_ON;
}

/**
 * hr_mmproj_offload_on_board:
 * @board: the board
 * @num_gpu: Ollama's num_gpu (-1 automatic)
 * @spec: the model (its layers and projector_bytes)
 *
 * hr_mmproj_offload_decision() for @board's one GPU: its free memory
 * (hr_board_headroom_bytes(), the pool less what is resident) and its
 * pool as the total; block_count + 1 layers. A board without a GPU
 * (%HR_BOARD_BACKEND_CPU) is num_gpu 0, "cpu-only".
 *
 * Returns: the decision.
 */
HrMmprojOffload
hr_mmproj_offload_on_board (const HrBoard     *board,
                            gint32             num_gpu,
                            const HrModelSpec *spec)
{
  guint64 free_ = hr_board_headroom_bytes (board), total = board->pool_bytes;
  gboolean gpu = board->backend != HR_BOARD_BACKEND_CPU;

  return hr_mmproj_offload_decision (gpu ? num_gpu : 0, spec->layers + 1, &free_, &total,
                                     gpu ? 1 : 0, spec->projector_bytes);
}

/**
 * hr_mmproj_offload_reason:
 * @decision: a decision
 *
 * Returns: (transfer none): Ollama's reason as it logs it
 *   ("disabling multimodal projector offload", reason=...): "cpu-only",
 *   "partial-text-offload", "limited-vram"; "" for %HR_MMPROJ_OFFLOAD_ON.
 */
const char *
hr_mmproj_offload_reason (HrMmprojOffload decision)
{
  switch (decision)
    {
    case HR_MMPROJ_OFFLOAD_CPU_ONLY:     return "cpu-only";
    case HR_MMPROJ_OFFLOAD_PARTIAL_TEXT: return "partial-text-offload";
    case HR_MMPROJ_OFFLOAD_LIMITED_VRAM: return "limited-vram";
    case HR_MMPROJ_OFFLOAD_ON:
    default:                             return "";
    }
}

/**
 * hr_mmproj_fit_target_mib:
 * @projector_bytes: mmprojMemoryRequirement's bytes
 *
 * Ollama llm/llama_server.go mmprojFitTargetMiB: ceil((projector + 1 GiB)
 * / MiB), the LLAMA_ARG_FIT_TARGET it gives llama-server when the
 * projector is offloaded.
 *
 * Returns: MiB; 0 for @projector_bytes 0 (no padding).
 */
guint64
hr_mmproj_fit_target_mib (guint64 projector_bytes)
{
  if (projector_bytes == 0)
    return 0;
  return (projector_bytes + HR_MMPROJ_OFFLOAD_HEADROOM_BYTES + MIB - 1) / MIB;
}

/**
 * hr_mmproj_fit_margin_bytes:
 * @projector_bytes: mmprojMemoryRequirement's bytes (0 = no projector)
 * @decision: hr_mmproj_offload_decision()'s
 * @margin_bytes: the fit margin without a projector (llama.cpp's default
 *   1024 MiB, or the user's)
 * @margin_from_user: %TRUE when the user set LLAMA_ARG_FIT_TARGET in
 *   Ollama's environment
 *
 * The margin llama.cpp's fit (common/fit.cpp) leaves free on each device
 * once Ollama has padded it for the projector (llm/llama_server.go
 * extraEnvsForStart): hr_mmproj_fit_target_mib() MiB, in place of the
 * default, when the projector is offloaded; @margin_bytes unchanged
 * when it is not, when there is none, or when the user set the target
 * ("Preserve an inherited user override").
 *
 * Returns: bytes.
 */
guint64
hr_mmproj_fit_margin_bytes (guint64         projector_bytes,
                            HrMmprojOffload decision,
                            guint64         margin_bytes,
                            gboolean        margin_from_user)
{
  if (projector_bytes == 0 || decision != HR_MMPROJ_OFFLOAD_ON || margin_from_user)
    return margin_bytes;
  return hr_mmproj_fit_target_mib (projector_bytes) * MIB;
}
