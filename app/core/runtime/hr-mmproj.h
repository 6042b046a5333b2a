/* hr-mmproj.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Vision and audio projectors (mmproj): how many bytes Ollama counts for
 * one and what it does with them when it starts llama-server, read from
 * Ollama llm/llama_server.go (mmprojMemoryRequirement,
 * shouldDisableMMProjOffload, mmprojFitTargetMiB, extraEnvsForStart) and
 * llama.cpp tools/mtmd/clip.cpp (what the projector loads and logs).
 * Pure: no I/O.
 */
#pragma once

#include <glib.h>

#include "hr-board.h"
#include "hr-gguf.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

/** HR_MMPROJ_OFFLOAD_HEADROOM_BYTES: 1 GiB, Ollama's mmprojOffloadHeadroom
 * (llm/llama_server.go: "leaves 1 GiB for backend buffers beyond projector
 * weights"). */
#define HR_MMPROJ_OFFLOAD_HEADROOM_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* Why Ollama passes --no-mmproj-offload, in shouldDisableMMProjOffload()'s
 * order; HR_MMPROJ_OFFLOAD_ON when it does not. */
typedef enum {
  HR_MMPROJ_OFFLOAD_ON,           /* the projector goes on the GPU */
  HR_MMPROJ_OFFLOAD_CPU_ONLY,     /* num_gpu 0: "cpu-only" */
  HR_MMPROJ_OFFLOAD_PARTIAL_TEXT, /* 0 < num_gpu < block_count + 1: "partial-text-offload" */
  HR_MMPROJ_OFFLOAD_LIMITED_VRAM, /* a GPU with less than projector + 1 GiB: "limited-vram" */
} HrMmprojOffload;

gboolean        hr_mmproj_path_is_projector  (const char       *path);
char           *hr_mmproj_choose_sibling     (const char * const *paths,
                                              guint             n_paths,
                                              const char       *model_path);
gboolean        hr_mmproj_tensor_is_inline   (const char       *name);
gboolean        hr_mmproj_arch_has_inline    (const char       *architecture);
guint64         hr_mmproj_inline_bytes       (const HrGgufFile *file,
                                              guint            *out_tensors);
guint64         hr_mmproj_file_bytes         (const HrGgufFile *file,
                                              GError          **error);
guint64         hr_mmproj_take_inline        (HrModelSpec      *spec);
gboolean        hr_mmproj_safetensors_is_tower (const char     *name);
HrMmprojOffload hr_mmproj_offload_decision   (gint32            num_gpu,
                                              guint32           model_layers,
                                              const guint64    *gpu_free,
                                              const guint64    *gpu_total,
                                              guint             n_gpus,
                                              guint64           projector_bytes);
const char     *hr_mmproj_offload_reason     (HrMmprojOffload   decision);
HrMmprojOffload hr_mmproj_offload_on_board   (const HrBoard    *board,
                                              gint32            num_gpu,
                                              const HrModelSpec *spec);
guint64         hr_mmproj_fit_target_mib     (guint64           projector_bytes);
guint64         hr_mmproj_fit_margin_bytes   (guint64           projector_bytes,
                                              HrMmprojOffload   decision,
                                              guint64           margin_bytes,
                                              gboolean          margin_from_user);

G_END_DECLS
