/* hr-measure-predict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a measurement is set against: the two predictions an HrMeasureRun
 * can compare each run's /api/ps size with (hr_measure_run_set_predictor()),
 * the plain weights + KV cache and the runtime model. Pure: they read the
 * spec /api/show gave and call the core.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-memory.h"
#include "hr-runtime.h"

#include "hr-measure.h"

/**
 * hr_measure_predict_footprint:
 * @spec: the model
 * @context: num_ctx in tokens
 * @server_version: (nullable): unused
 * @out_bytes: (out): weights + KV cache in bytes
 * @out_source: (out) (transfer full): the method
 * @user_data: unused
 *
 * The core's footprint with no runtime overhead: weights (the exact tensor
 * bytes from /api/show when known) + an f16 KV cache for one slot at
 * @context (hr_memory_footprint(), docs/seed-figures.md "KV cache").
 *
 * Returns: %TRUE, or %FALSE when @spec lacks layers, KV heads or weights.
 */
gboolean
hr_measure_predict_footprint (const HrModelSpec *spec,
                              guint32            context,
                              const char        *server_version,
                              guint64           *out_bytes,
                              char             **out_source,
                              gpointer           user_data)
{
  HrFootprint footprint;

  if (spec->layers == 0 || spec->kv_heads == 0 || spec->key_length == 0)
    return FALSE;
  hr_memory_footprint (spec, NULL, HR_KV_CACHE_F16, context, 1, 0, &footprint);
  if (footprint.weights == 0 || footprint.total == G_MAXUINT64)
    return FALSE;
  *out_bytes = footprint.total;
  *out_source = g_strdup (_("weights + KV cache (f16, 1 slot), no runtime overhead"));
  return TRUE;
}

/**
 * hr_measure_predict_runtime:
 * @spec: the model
 * @context: num_ctx in tokens
 * @server_version: (nullable): the server's version, which picks the era
 *   of Ollama's sizing the runtime model follows
 * @out_bytes: (out): the predicted /api/ps size in bytes
 * @out_source: (out) (transfer full): the method, naming the era
 * @user_data: unused
 *
 * The runtime model's prediction (hr_runtime_predict(), app/core/runtime/hr-runtime.h:
 * weights on the GPU + KV cache + compute buffer, as the server version
 * sizes them, with that version's default parallel slots, f16 KV, flash
 * attention as the server decides);
 * hr_measure_predict_footprint() when the runtime model has no answer.
 *
 * Returns: %TRUE with a prediction, %FALSE when there is none.
 */
gboolean
hr_measure_predict_runtime (const HrModelSpec *spec,
                            guint32            context,
                            const char        *server_version,
                            guint64           *out_bytes,
                            char             **out_source,
                            gpointer           user_data)
{
  HrRuntimeInputs inputs;
  g_autofree HrRuntimePrediction *prediction = g_new0 (HrRuntimePrediction, 1);
  g_autoptr(GError) error = NULL;

  hr_runtime_inputs_init (&inputs, spec, context);
  inputs.server_version = server_version;
  inputs.skip_text = TRUE;
  if (!hr_runtime_predict (&inputs, prediction, &error) || prediction->total_bytes == 0)
    {
      g_debug ("runtime model: no prediction for %s: %s", spec->name,
               error != NULL ? error->message : "0 bytes");
      return hr_measure_predict_footprint (spec, context, server_version, out_bytes, out_source, user_data);
    }
  *out_bytes = prediction->total_bytes;
  /* TRANSLATORS: %s names the era of Ollama's sizing, e.g. "Ollama 0.30 and newer" */
  *out_source = g_strdup_printf (_("runtime model, %s"), hr_runtime_era_label (prediction->era));
  return TRUE;
}
