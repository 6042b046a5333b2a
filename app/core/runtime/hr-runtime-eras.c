/* hr-runtime-eras.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Server versions and the eras of the runtime model (hr-runtime.h): which
 * Ollama sizes a model how, and the old scheduler's automatic slots.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime-private.h"
#include "hr-units.h"
#include "hr-ollama-host.h"

/* ---------------------------------------------------------------- versions */

/* hr_runtime_parse_version() without its memo. */
static gboolean
parse_version (const char *version,
               guint      *out_major,
               guint      *out_minor,
               guint      *out_patch)
{
  guint64 parts[3] = { 0, 0, 0 };
  const char *p;
  guint n = 0;

  if (version == NULL)
    return FALSE;
  p = version;
  while (*p != '\0' && !g_ascii_isdigit (*p))
    p++;
  while (n < 3 && g_ascii_isdigit (*p))
    {
      char *end = NULL;

      parts[n] = g_ascii_strtoull (p, &end, 10);
      if (end == p || parts[n] > G_MAXUINT16)
        return FALSE;
      n++;
      p = end;
      if (*p != '.')
        break;
      p++;
    }
  if (n < 2)
    return FALSE;
  if (out_major)
    *out_major = parts[0];
  if (out_minor)
    *out_minor = parts[1];
  if (out_patch)
    *out_patch = parts[2];
  return TRUE;
}

/**
 * hr_runtime_parse_version:
 * @version: (nullable): "0.31.2", "v0.12.10", "ollama 0.31.2" or
 *   "0.31.2-rc1" (what /api/version and the measurement archive hold)
 * @out_major: (out) (optional): major
 * @out_minor: (out) (optional): minor
 * @out_patch: (out) (optional): patch, 0 when absent
 *
 * The last version read on the calling thread is kept: on a slider step
 * every row's prediction reads the same server version, twice (its era and
 * its slots), and comparing it costs less than parsing it again.
 *
 * Returns: %TRUE when a MAJOR.MINOR[.PATCH] version was found.
 */
gboolean
hr_runtime_parse_version (const char *version,
                          guint      *out_major,
                          guint      *out_minor,
                          guint      *out_patch)
{
  /* The last short version parsed on this thread, and what it gave. */
  static _Thread_local struct {
    char     text[32];
    gboolean ok;
    guint    major, minor, patch;
  } last;

  if (version == NULL)
    return FALSE;
  /* Starts as "", which parses to FALSE: the memo's first state is true. */
  if (strcmp (last.text, version) != 0)
    {
      if (strlen (version) >= sizeof last.text)
        return parse_version (version, out_major, out_minor, out_patch);
      last.ok = parse_version (version, &last.major, &last.minor, &last.patch);
      strcpy (last.text, version);
    }
  if (!last.ok)
    return FALSE;
  if (out_major)
    *out_major = last.major;
  if (out_minor)
    *out_minor = last.minor;
  if (out_patch)
    *out_patch = last.patch;
  return TRUE;
}

guint
rt_version_key (guint major,
             guint minor,
             guint patch)
{
  return major * 1000000u + minor * 1000u + MIN (patch, 999u);
}

/**
 * hr_runtime_era_for_version:
 * @version: (nullable): the server's /api/version
 *
 * Which era sizes a loaded model on that server (docs/runtimes.md,
 * "Choosing the era from a version"): up to 0.12.10 Ollama's estimate; from 0.30
 * llama-server's buffers. Versions in between sized what the runner
 * allocated (weights + KV + compute graph), which the 0.30 model describes
 * best; a dev build ("0.0.0"), an unknown or unreadable version also gets
 * the newest era.
 *
 * Returns: %HR_RUNTIME_ERA_OLLAMA_0_12 or %HR_RUNTIME_ERA_OLLAMA_0_30.
 */
HrRuntimeEra
hr_runtime_era_for_version (const char *version)
{
  guint major, minor, patch;

  if (!hr_runtime_parse_version (version, &major, &minor, &patch))
    return HR_RUNTIME_ERA_OLLAMA_0_30;
  if (major == 0 && minor == 0 && patch == 0)
    return HR_RUNTIME_ERA_OLLAMA_0_30;
  if (rt_version_key (major, minor, patch) <= rt_version_key (0, 12, 10))
    return HR_RUNTIME_ERA_OLLAMA_0_12;
  return HR_RUNTIME_ERA_OLLAMA_0_30;
}

/**
 * hr_runtime_era_to_string:
 * @era: an era
 *
 * Returns: "ollama-0.30", "ollama-0.12", "llama-server", "seed" or "auto"
 *   (the CLI's --runtime words).
 */
const char *
hr_runtime_era_to_string (HrRuntimeEra era)
{
  switch (era)
    {
    case HR_RUNTIME_ERA_OLLAMA_0_30: return "ollama-0.30";
    case HR_RUNTIME_ERA_OLLAMA_0_12: return "ollama-0.12";
    case HR_RUNTIME_ERA_LLAMA_SERVER: return "llama-server";
    case HR_RUNTIME_ERA_SEED: return "seed";
    case HR_RUNTIME_ERA_AUTO:
    default: return "auto";
    }
}

/**
 * hr_runtime_era_from_string:
 * @str: "ollama-0.30", "ollama-0.12", "llama-server", "seed" or "auto"
 *   (case-insensitive)
 * @out_era: (out): the era
 *
 * Returns: %TRUE when @str names an era.
 */
gboolean
hr_runtime_era_from_string (const char   *str,
                            HrRuntimeEra *out_era)
{
  static const HrRuntimeEra eras[] = { HR_RUNTIME_ERA_AUTO, HR_RUNTIME_ERA_OLLAMA_0_30, HR_RUNTIME_ERA_OLLAMA_0_12,
                                       HR_RUNTIME_ERA_LLAMA_SERVER, HR_RUNTIME_ERA_SEED };

  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (eras); i++)
    if (g_ascii_strcasecmp (str, hr_runtime_era_to_string (eras[i])) == 0)
      {
        *out_era = eras[i];
        return TRUE;
      }
  return FALSE;
}

/**
 * hr_runtime_era_label:
 * @era: an era
 *
 * Returns: (transfer none): the era as a person reads it, translated.
 */
const char *
hr_runtime_era_label (HrRuntimeEra era)
{
  switch (era)
    {
    case HR_RUNTIME_ERA_OLLAMA_0_30: return _("Ollama 0.30 and newer (llama-server buffers)");
    case HR_RUNTIME_ERA_OLLAMA_0_12: return _("Ollama up to 0.12 (the old estimator)");
    case HR_RUNTIME_ERA_LLAMA_SERVER: return _("llama-server with its own defaults (llama.cpp)");
    case HR_RUNTIME_ERA_SEED: return _("the seed's weights + KV cache (teaching mode, not a server's figure)");
    case HR_RUNTIME_ERA_AUTO:
    default: return _("chosen from the server version");
    }
}

/**
 * hr_runtime_auto_parallel_tries:
 * @version: (nullable): the server version
 * @out_tries: (out caller-allocates) (array fixed-size=2): the slot counts
 *   the old scheduler tries, largest first
 *
 * Ollama's automatic parallel slots (server/sched.go defaultParallel, when
 * OLLAMA_NUM_PARALLEL is unset): 0.2 to 0.6 try 4 then 1, 0.7 to 0.9 try 2
 * then 1, before 0.2 and from 0.10 one slot. An unknown version is taken as
 * 0.12 (one slot).
 *
 * Returns: how many entries of @out_tries are set (1 or 2).
 */
guint
hr_runtime_auto_parallel_tries (const char *version,
                                guint32     out_tries[2])
{
  guint major, minor, patch;
  guint key;

  out_tries[0] = 1;
  out_tries[1] = 1;
  if (!hr_runtime_parse_version (version, &major, &minor, &patch))
    return 1;
  key = rt_version_key (major, minor, patch);
  if (key >= rt_version_key (0, 2, 0) && key < rt_version_key (0, 7, 0))
    out_tries[0] = 4;
  else if (key >= rt_version_key (0, 7, 0) && key < rt_version_key (0, 10, 0))
    out_tries[0] = 2;
  else
    return 1;
  return 2;
}

/**
 * hr_runtime_format_ps_size:
 * @bytes: a loaded size
 *
 * The size as `ollama ps` prints SIZE (hr_ollama_format_size(): decimal GB,
 * one decimal under 10, the integer part from 10 up).
 *
 * Returns: (transfer full): "2.6 GB".
 */
char *
hr_runtime_format_ps_size (guint64 bytes)
{
  return hr_ollama_format_size (bytes);
}

/**
 * hr_runtime_backend_to_string:
 * @backend: a backend
 *
 * Returns: "cuda", "metal" or "cpu" (the CLI's --backend words).
 */
const char *
hr_runtime_backend_to_string (HrRuntimeBackend backend)
{
  switch (backend)
    {
    case HR_RUNTIME_BACKEND_METAL: return "metal";
    case HR_RUNTIME_BACKEND_CPU: return "cpu";
    case HR_RUNTIME_BACKEND_CUDA:
    default: return "cuda";
    }
}

/**
 * hr_runtime_backend_from_string:
 * @str: "cuda", "metal" or "cpu" (case-insensitive; "rocm" is taken as
 *   "cuda", whose figures the old estimator shares)
 * @out_backend: (out): the backend
 *
 * Returns: %TRUE when @str names a backend.
 */
gboolean
hr_runtime_backend_from_string (const char       *str,
                                HrRuntimeBackend *out_backend)
{
  static const HrRuntimeBackend backends[] = { HR_RUNTIME_BACKEND_CUDA, HR_RUNTIME_BACKEND_METAL, HR_RUNTIME_BACKEND_CPU };

  if (str == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (str, "rocm") == 0)
    {
      *out_backend = HR_RUNTIME_BACKEND_CUDA;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    if (g_ascii_strcasecmp (str, hr_runtime_backend_to_string (backends[i])) == 0)
      {
        *out_backend = backends[i];
        return TRUE;
      }
  return FALSE;
}
