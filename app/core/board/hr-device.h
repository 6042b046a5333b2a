/* hr-device.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One device of a board: a GPU (discrete or integrated) with its own
 * memory, what is already spoken for on it, its memory bandwidth and the
 * library that drives it. A board (hr-board.h) holds a list of them plus
 * host memory; a one-GPU board keeps describing its GPU with its own
 * pool_bytes / resident_bytes / reserve_bytes / bandwidth_bytes_per_s /
 * backend fields, as before, and needs no list.
 *
 * The device order is the order llama.cpp enumerates them in (CUDA0,
 * CUDA1, ...; src/llama.cpp llama_model_load_from_file_impl keeps the
 * order of -dev or of the registry), which is the order its fit fills
 * from the last to the first (common/fit.cpp common_params_fit_impl).
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* llama.cpp counts at most this many devices: GGML_CUDA_MAX_DEVICES
 * (ggml/include/ggml-cuda.h) is 16. */
#define HR_DEVICE_MAX 16u

/* Discrete GPUs have their own memory; integrated ones share the system's.
 * Ollama's scheduler prefers a discrete GPU over an integrated one
 * (server/sched.go betterPlacementGPU). */
typedef enum {
  HR_DEVICE_KIND_DISCRETE,
  HR_DEVICE_KIND_INTEGRATED,
} HrDeviceKind;

/* The library a device runs under: Ollama groups GPUs by it (ml.ByLibrary)
 * and spreads a model only within one group. */
typedef enum {
  HR_DEVICE_BACKEND_CUDA,   /* NVIDIA: llama.cpp CUDA0, CUDA1, ... */
  HR_DEVICE_BACKEND_ROCM,   /* AMD under ROCm/HIP: llama.cpp ROCm0, ... */
  HR_DEVICE_BACKEND_VULKAN, /* any GPU under Vulkan: llama.cpp Vulkan0, ... */
  HR_DEVICE_BACKEND_METAL,  /* Apple: MTL0 */
} HrDeviceBackend;

typedef struct _HrDevice HrDevice;

struct _HrDevice {
  char           *name;                  /* "NVIDIA GeForce RTX 3090" */
  guint64         memory_bytes;          /* the device's memory (VRAM), bytes */
  guint64         resident_bytes;        /* held by the desktop and other programs */
  guint64         reserve_bytes;         /* held back for bursts */
  double          bandwidth_bytes_per_s; /* peak memory bandwidth; 0 = not known */
  HrDeviceKind    kind;
  HrDeviceBackend backend;
};

#define HR_TYPE_DEVICE (hr_device_get_type ())

GType       hr_device_get_type       (void) G_GNUC_CONST;
HrDevice   *hr_device_new            (const char       *name,
                                      guint64           memory_bytes,
                                      HrDeviceKind      kind,
                                      HrDeviceBackend   backend);
HrDevice   *hr_device_copy           (const HrDevice   *device);
void        hr_device_free           (HrDevice         *device);
gboolean    hr_device_equal          (const HrDevice   *a,
                                      const HrDevice   *b);
gboolean    hr_device_validate       (const HrDevice   *device,
                                      gboolean          bandwidth_required,
                                      GError          **error);
guint64     hr_device_headroom_bytes (const HrDevice   *device);
guint64     hr_device_budget_bytes   (const HrDevice   *device);
const char *hr_device_kind_to_string      (HrDeviceKind     kind);
gboolean    hr_device_kind_from_string    (const char      *str,
                                           HrDeviceKind    *out_kind);
const char *hr_device_backend_to_string   (HrDeviceBackend  backend);
gboolean    hr_device_backend_from_string (const char      *str,
                                           HrDeviceBackend *out_backend);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrDevice, hr_device_free)

G_END_DECLS
