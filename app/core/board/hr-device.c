/* hr-device.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-device.h"
#include "hr-error.h"
#include "hr-units.h"

G_DEFINE_BOXED_TYPE (HrDevice, hr_device, hr_device_copy, hr_device_free)

#define MAX_BYTES G_GUINT64_CONSTANT (1000000000000000) /* 1 PB, as a board's pool */

/**
 * hr_device_new:
 * @name: what the device is called, "NVIDIA GeForce RTX 3090"
 * @memory_bytes: its memory, bytes
 * @kind: discrete or integrated
 * @backend: the library that drives it
 *
 * Returns: (transfer full): a device with nothing resident or reserved and
 *   its bandwidth not known (0).
 */
HrDevice *
hr_device_new (const char      *name,
               guint64          memory_bytes,
               HrDeviceKind     kind,
               HrDeviceBackend  backend)
{
  HrDevice *device = g_new0 (HrDevice, 1);

  device->name = g_strdup (name);
  device->memory_bytes = memory_bytes;
  device->kind = kind;
  device->backend = backend;
  return device;
}

/**
 * hr_device_copy:
 * @device: a device
 *
 * Returns: (transfer full): a deep copy.
 */
HrDevice *
hr_device_copy (const HrDevice *device)
{
  HrDevice *copy = g_memdup2 (device, sizeof *device);

  copy->name = g_strdup (device->name);
  return copy;
}

/**
 * hr_device_free:
 * @device: (nullable): a device
 */
void
hr_device_free (HrDevice *device)
{
  if (device == NULL)
    return;
  g_free (device->name);
  g_free (device);
}

/**
 * hr_device_equal:
 * @a: a device
 * @b: a device
 *
 * Returns: %TRUE when every field is the same (names compared exactly).
 */
gboolean
hr_device_equal (const HrDevice *a,
                 const HrDevice *b)
{
  return g_strcmp0 (a->name, b->name) == 0 &&
         a->memory_bytes == b->memory_bytes &&
         a->resident_bytes == b->resident_bytes &&
         a->reserve_bytes == b->reserve_bytes &&
         a->bandwidth_bytes_per_s == b->bandwidth_bytes_per_s &&
         a->kind == b->kind &&
         a->backend == b->backend;
}

/**
 * hr_device_validate:
 * @device: a device
 * @bandwidth_required: %TRUE when a bandwidth of 0 ("not known") is an
 *   error (a board saved to the boards file needs one for its speed)
 * @error: return location for a #GError
 *
 * Checks the figures the way hr_board_validate() checks a board's: a name,
 * a memory above zero and under 1 PB, resident + reserve below the memory,
 * a bandwidth in (0, 100 TB/s] (or 0 when not required), and a known kind
 * and backend.
 *
 * Returns: %TRUE when valid; else %HR_CORE_ERROR_INVALID_DATA whose
 *   message names the field ("memory_bytes", "bandwidth_gb_s", ...).
 */
gboolean
hr_device_validate (const HrDevice *device,
                    gboolean        bandwidth_required,
                    GError        **error)
{
#define INVALID(...) G_STMT_START { g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, __VA_ARGS__); return FALSE; } G_STMT_END
  guint64 spoken_for;

  if (device->name == NULL || device->name[0] == '\0')
    INVALID (_("field \"name\" is missing or empty"));
  if (device->memory_bytes == 0 || device->memory_bytes > MAX_BYTES)
    INVALID (_("field \"memory_bytes\" must be between 1 byte and 1 PB"));
  if (!hr_add_u64 (device->resident_bytes, device->reserve_bytes, &spoken_for) ||
      spoken_for >= device->memory_bytes)
    INVALID (_("\"resident_bytes\" plus \"reserve_bytes\" must be less than \"memory_bytes\": nothing would be left for a model"));
  if (device->bandwidth_bytes_per_s == 0.0 && bandwidth_required)
    INVALID (_("field \"bandwidth_gb_s\" is missing: the speed needs the device's memory bandwidth"));
  if (!(device->bandwidth_bytes_per_s >= 0.0) || device->bandwidth_bytes_per_s > 1e14)
    INVALID (_("field \"bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s"));
  if ((guint) device->kind > HR_DEVICE_KIND_INTEGRATED)
    INVALID (_("field \"kind\" must be \"discrete\" or \"integrated\""));
  if ((guint) device->backend > HR_DEVICE_BACKEND_METAL)
    INVALID (_("field \"backend\" must be \"cuda\", \"rocm\", \"vulkan\" or \"metal\""));
  return TRUE;
#undef INVALID
}

/**
 * hr_device_headroom_bytes:
 * @device: a device
 *
 * headroom = memory - resident: what the device reports free before a
 * model loads (what llama.cpp's ggml_backend_dev_memory gives as free).
 *
 * Returns: bytes (0 if resident exceeds the memory).
 */
guint64
hr_device_headroom_bytes (const HrDevice *device)
{
  return device->memory_bytes > device->resident_bytes ? device->memory_bytes - device->resident_bytes : 0;
}

/**
 * hr_device_budget_bytes:
 * @device: a device
 *
 * budget = memory - resident - reserve, as a board's (hr_board_budget_bytes()).
 *
 * Returns: bytes (0 if nothing is left).
 */
guint64
hr_device_budget_bytes (const HrDevice *device)
{
  guint64 headroom = hr_device_headroom_bytes (device);

  return headroom > device->reserve_bytes ? headroom - device->reserve_bytes : 0;
}

/**
 * hr_device_kind_to_string:
 * @kind: a kind
 *
 * Returns: (transfer none): "discrete" or "integrated" (the boards.json words).
 */
const char *
hr_device_kind_to_string (HrDeviceKind kind)
{
  return kind == HR_DEVICE_KIND_INTEGRATED ? "integrated" : "discrete";
}

/**
 * hr_device_kind_from_string:
 * @str: (nullable): "discrete" or "integrated" (case-insensitive)
 * @out_kind: (out): the kind
 *
 * Returns: %TRUE when @str names a kind; %FALSE leaves @out_kind as it was.
 */
gboolean
hr_device_kind_from_string (const char   *str,
                            HrDeviceKind *out_kind)
{
  if (str == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (str, "discrete") == 0)
    *out_kind = HR_DEVICE_KIND_DISCRETE;
  else if (g_ascii_strcasecmp (str, "integrated") == 0)
    *out_kind = HR_DEVICE_KIND_INTEGRATED;
  else
    return FALSE;
  return TRUE;
}

/**
 * hr_device_backend_to_string:
 * @backend: a backend
 *
 * Returns: (transfer none): "cuda", "rocm", "vulkan" or "metal" (the
 *   boards.json words).
 */
const char *
hr_device_backend_to_string (HrDeviceBackend backend)
{
  switch (backend)
    {
    case HR_DEVICE_BACKEND_ROCM:   return "rocm";
    case HR_DEVICE_BACKEND_VULKAN: return "vulkan";
    case HR_DEVICE_BACKEND_METAL:  return "metal";
    case HR_DEVICE_BACKEND_CUDA:
    default:                       return "cuda";
    }
}

/**
 * hr_device_backend_from_string:
 * @str: (nullable): "cuda", "rocm", "vulkan" or "metal" (case-insensitive)
 * @out_backend: (out): the backend
 *
 * Returns: %TRUE when @str names a backend; %FALSE leaves @out_backend as it was.
 */
gboolean
hr_device_backend_from_string (const char      *str,
                               HrDeviceBackend *out_backend)
{
  static const HrDeviceBackend all[] = {
    HR_DEVICE_BACKEND_CUDA, HR_DEVICE_BACKEND_ROCM, HR_DEVICE_BACKEND_VULKAN, HR_DEVICE_BACKEND_METAL,
  };

  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (g_ascii_strcasecmp (str, hr_device_backend_to_string (all[i])) == 0)
      {
        *out_backend = all[i];
        return TRUE;
      }
  return FALSE;
}
