/* hr-priors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-error.h"
#include "hr-json-private.h"
#include "hr-priors.h"

#define PRIORS_VERSION 1
#define MAX_RUNS 10000

struct _HrPriors {
  GPtrArray *runs;                           /* HrPriorRun* */
  double     efficiency[HR_HARDWARE_N_KINDS];
  guint      n_runs[HR_HARDWARE_N_KINDS];
};

static void
prior_run_free (HrPriorRun *run)
{
  g_free (run->hardware);
  g_free (run->model);
  g_free (run->source);
  g_free (run);
}

/**
 * hr_priors_free:
 * @priors: (nullable): priors
 */
void
hr_priors_free (HrPriors *priors)
{
  if (priors == NULL)
    return;
  g_ptr_array_unref (priors->runs);
  g_free (priors);
}

/**
 * hr_prior_run_efficiency:
 * @run: a published run
 *
 * efficiency = decode_tps / (bandwidth / weight_bytes), the measured rate
 * over the ceiling (docs/seed-figures.md "Rates").
 *
 * Returns: the run's efficiency, unrounded.
 */
double
hr_prior_run_efficiency (const HrPriorRun *run)
{
  return run->decode_tps / (run->bandwidth_bytes_per_s / (double) run->weight_bytes);
}

static HrPriorRun *
run_from_object (HrJsonDoc   *doc,
                 const char  *display_name,
                 JsonArray   *array,
                 guint        index,
                 GError     **error)
{
  JsonNode *node = json_array_get_element (array, index);
  JsonObject *object;
  HrPriorRun *run;
  g_autofree char *problem = NULL;
  g_autofree char *kind = NULL;
  double bandwidth_gb_s = 0.0;
  const char *member = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("%s: line %u: run %u: expected an object"),
                   display_name, _hr_json_doc_element_line (doc, array, index), index + 1);
      return NULL;
    }
  object = json_node_get_object (node);
  run = g_new0 (HrPriorRun, 1);

#define READ(expr, name) G_STMT_START { member = name; if (!(expr)) goto fail; } G_STMT_END
  READ (_hr_json_get_string (object, "kind", TRUE, &kind, &problem), "kind");
  if (!hr_hardware_kind_from_string (kind, &run->kind))
    {
      problem = g_strdup (_("field \"kind\" must be \"discrete-nvidia\", \"apple-unified\", \"nvidia-unified\" or \"cpu\""));
      goto fail;
    }
  READ (_hr_json_get_string (object, "hardware", TRUE, &run->hardware, &problem), "hardware");
  READ (_hr_json_get_string (object, "model", TRUE, &run->model, &problem), "model");
  READ (_hr_json_get_u64 (object, "weight_bytes", TRUE, G_GUINT64_CONSTANT (1000000000000000), &run->weight_bytes, &problem), "weight_bytes");
  READ (_hr_json_get_double (object, "bandwidth_gb_s", TRUE, &bandwidth_gb_s, &problem), "bandwidth_gb_s");
  run->bandwidth_bytes_per_s = bandwidth_gb_s * 1e9;
  READ (_hr_json_get_double (object, "decode_tps", TRUE, &run->decode_tps, &problem), "decode_tps");
  READ (_hr_json_get_string (object, "source", TRUE, &run->source, &problem), "source");
#undef READ

  member = "weight_bytes";
  if (run->weight_bytes == 0)
    {
      problem = g_strdup (_("field \"weight_bytes\" must be above 0"));
      goto fail;
    }
  member = "bandwidth_gb_s";
  if (!(bandwidth_gb_s > 0.0) || bandwidth_gb_s > 100000.0)
    {
      problem = g_strdup (_("field \"bandwidth_gb_s\" must be above 0 and at most 100,000 GB/s"));
      goto fail;
    }
  member = "decode_tps";
  if (!(run->decode_tps > 0.0) || !isfinite (run->decode_tps) || hr_prior_run_efficiency (run) > 1.0)
    {
      problem = g_strdup (_("field \"decode_tps\" must be above 0 and at most the ceiling (bandwidth / weight bytes)"));
      goto fail;
    }
  member = "source";
  if (run->source[0] == '\0')
    {
      problem = g_strdup (_("field \"source\" must say where the run was published"));
      goto fail;
    }
  return run;

fail:
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("%s: line %u: run %u: %s"), display_name,
               _hr_json_doc_member_line (doc, object, member) ? _hr_json_doc_member_line (doc, object, member)
                                                               : _hr_json_doc_element_line (doc, array, index),
               index + 1, problem);
  prior_run_free (run);
  return NULL;
}

/**
 * hr_priors_load_data:
 * @data: the JSON text of a priors file (see data/priors.json)
 * @length: its length, or -1 when NUL-terminated
 * @display_name: the file's name for messages
 * @error: return location for a #GError
 *
 * Parses `{"version": 1, "runs": [...]}`; each run has kind
 * ("discrete-nvidia", "apple-unified", "nvidia-unified" or "cpu"), hardware,
 * model, weight_bytes, bandwidth_gb_s, decode_tps and source, all required.
 * A run whose rate passes its ceiling is refused. The efficiency of each
 * kind is the mean of its runs' (hr_prior_run_efficiency()) rounded to two
 * decimals, as hr_rate_fit_efficiency() rounds a board's.
 *
 * Returns: (transfer full): the priors, or %NULL with %HR_CORE_ERROR_PARSE,
 *   %HR_CORE_ERROR_INVALID_DATA (naming the line, the run and the field),
 *   %HR_CORE_ERROR_UNSUPPORTED (another version) or %HR_CORE_ERROR_LIMIT.
 */
HrPriors *
hr_priors_load_data (const char  *data,
                     gssize       length,
                     const char  *display_name,
                     GError     **error)
{
  g_autoptr(HrJsonDoc) doc = _hr_json_doc_parse (data, length, display_name, error);
  g_autoptr(GPtrArray) runs = NULL;
  g_autofree char *problem = NULL;
  double sums[HR_HARDWARE_N_KINDS] = { 0 };
  JsonObject *object;
  JsonNode *node;
  JsonArray *array;
  guint32 version = 0;
  HrPriors *priors;

  if (doc == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (_hr_json_doc_root (doc)))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s: line 1: expected an object with a \"runs\" list"), display_name);
      return NULL;
    }
  object = json_node_get_object (_hr_json_doc_root (doc));
  if (!_hr_json_get_u32 (object, "version", TRUE, 1000, &version, &problem) || version != PRIORS_VERSION)
    {
      g_set_error (error, HR_CORE_ERROR, problem ? HR_CORE_ERROR_INVALID_DATA : HR_CORE_ERROR_UNSUPPORTED,
                   _("%s: line %u: %s"), display_name, _hr_json_doc_member_line (doc, object, "version"),
                   problem ? problem : _("not a version this Headroom reads (it reads version 1)"));
      return NULL;
    }
  node = json_object_get_member (object, "runs");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s: field \"runs\" is missing or not a list"), display_name);
      return NULL;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) > MAX_RUNS)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT, _("%s: more than %d runs"), display_name, MAX_RUNS);
      return NULL;
    }

  runs = g_ptr_array_new_with_free_func ((GDestroyNotify) prior_run_free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      HrPriorRun *run = run_from_object (doc, display_name, array, i, error);

      if (run == NULL)
        return NULL;
      g_ptr_array_add (runs, run);
    }

  priors = g_new0 (HrPriors, 1);
  priors->runs = g_steal_pointer (&runs);
  for (guint i = 0; i < priors->runs->len; i++)
    {
      const HrPriorRun *run = g_ptr_array_index (priors->runs, i);

      sums[run->kind] += hr_prior_run_efficiency (run);
      priors->n_runs[run->kind]++;
    }
  for (guint k = 0; k < HR_HARDWARE_N_KINDS; k++)
    priors->efficiency[k] = priors->n_runs[k] > 0 ? round (sums[k] / priors->n_runs[k] * 100.0) / 100.0 : 0.0;
  return priors;
}

/**
 * hr_priors_load_file:
 * @path: a priors JSON file
 * @error: return location for a #GError
 *
 * Returns: (transfer full): see hr_priors_load_data(); or %NULL with a
 *   #G_FILE_ERROR.
 */
HrPriors *
hr_priors_load_file (const char  *path,
                     GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;
  return hr_priors_load_data (data, length, path, error);
}

/**
 * hr_priors_get_n_runs:
 * @priors: priors
 *
 * Returns: how many published runs the file holds.
 */
guint
hr_priors_get_n_runs (const HrPriors *priors)
{
  return priors->runs->len;
}

/**
 * hr_priors_get_run:
 * @priors: priors
 * @index: below hr_priors_get_n_runs()
 *
 * Returns: (transfer none): the run.
 */
const HrPriorRun *
hr_priors_get_run (const HrPriors *priors,
                   guint           index)
{
  g_return_val_if_fail (index < priors->runs->len, NULL);
  return g_ptr_array_index (priors->runs, index);
}

/**
 * hr_priors_efficiency:
 * @priors: priors
 * @kind: a kind of hardware
 * @out_n_runs: (out) (optional): how many runs the mean is over
 *
 * Returns: the kind's prior efficiency (0.01 steps), or 0 when no run of
 *   that kind is published in the file.
 */
double
hr_priors_efficiency (const HrPriors *priors,
                      HrHardwareKind  kind,
                      guint          *out_n_runs)
{
  if ((guint) kind >= HR_HARDWARE_N_KINDS)
    {
      if (out_n_runs)
        *out_n_runs = 0;
      return 0.0;
    }
  if (out_n_runs)
    *out_n_runs = priors->n_runs[kind];
  return priors->efficiency[kind];
}

/**
 * hr_board_hardware_kind:
 * @board: a board
 *
 * The kind of hardware a board is, for its prior: a "cpu" board is CPU, a
 * "metal" board Apple unified, a unified "cuda" board (Jetson, DGX Spark)
 * NVIDIA unified, any other discrete NVIDIA. The GPU of a discrete board;
 * its host side is %HR_HARDWARE_CPU.
 *
 * Returns: the kind.
 */
HrHardwareKind
hr_board_hardware_kind (const HrBoard *board)
{
  switch (board->backend)
    {
    case HR_BOARD_BACKEND_CPU:   return HR_HARDWARE_CPU;
    case HR_BOARD_BACKEND_METAL: return HR_HARDWARE_APPLE_UNIFIED;
    case HR_BOARD_BACKEND_CUDA:
    default:
      return board->unified ? HR_HARDWARE_NVIDIA_UNIFIED : HR_HARDWARE_DISCRETE_NVIDIA;
    }
}

/**
 * hr_hardware_kind_to_string:
 * @kind: a kind
 *
 * Returns: (transfer none): "discrete-nvidia", "apple-unified",
 *   "nvidia-unified" or "cpu" (the priors.json words).
 */
const char *
hr_hardware_kind_to_string (HrHardwareKind kind)
{
  switch (kind)
    {
    case HR_HARDWARE_APPLE_UNIFIED:  return "apple-unified";
    case HR_HARDWARE_NVIDIA_UNIFIED: return "nvidia-unified";
    case HR_HARDWARE_CPU:            return "cpu";
    case HR_HARDWARE_DISCRETE_NVIDIA:
    default:                         return "discrete-nvidia";
    }
}

/**
 * hr_hardware_kind_from_string:
 * @str: (nullable): a kind's word (case-insensitive)
 * @out_kind: (out): the kind
 *
 * Returns: %TRUE when @str names a kind.
 */
gboolean
hr_hardware_kind_from_string (const char     *str,
                              HrHardwareKind *out_kind)
{
  if (str == NULL)
    return FALSE;
  for (guint k = 0; k < HR_HARDWARE_N_KINDS; k++)
    if (g_ascii_strcasecmp (str, hr_hardware_kind_to_string (k)) == 0)
      {
        *out_kind = k;
        return TRUE;
      }
  return FALSE;
}
