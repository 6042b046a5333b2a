/* hr-measure-archive.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasureRun's archive document: what was measured, in the shape
 * data/measurements/ keeps (hr-measurement.h), and saving it.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-measure-private.h"
#include "hr-measurement.h"
#include "hr-net-error.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

/* ------------------------------------------------------------------ */
/* The archive document                                                */

static void
set_ns_ms (JsonObject *obj,
           const char *name,
           gint64      ns)
{
  if (ns < 0)
    json_object_set_null_member (obj, name);
  else
    json_object_set_double_member (obj, name, round (ns / 1e5) / 10.0);
}

static void
set_count (JsonObject *obj,
           const char *name,
           gint64      count)
{
  if (count < 0)
    json_object_set_null_member (obj, name);
  else
    json_object_set_int_member (obj, name, count);
}

static void
set_rate (JsonObject *obj,
          const char *name,
          double      tps)
{
  if (tps < 0)
    json_object_set_null_member (obj, name);
  else
    json_object_set_double_member (obj, name, round (tps * 100) / 100.0);
}

/* Sets the document's board, model, digest, date, runtime_version,
 * server, source, failed, weight_bytes and tensor_bytes on @root. */
static void
set_identity (HrMeasureRun *self,
              JsonObject   *root)
{
  g_autofree char *runtime = g_strdup_printf ("ollama %s", self->server_version != NULL ? self->server_version : "unknown");

  json_object_set_string_member (root, "board", self->board_id);
  json_object_set_string_member (root, "model", self->model);
  if (self->digest != NULL)
    json_object_set_string_member (root, "digest", self->digest);
  if (self->date != NULL)
    json_object_set_string_member (root, "date", self->date);
  json_object_set_string_member (root, "runtime_version", runtime);
  json_object_set_string_member (root, "server", hr_ollama_client_get_base_url (self->client));
  json_object_set_string_member (root, "source", "headroom measure: client TTFT, Ollama's timing fields, /api/ps");
  if (self->failure != NULL) /* a set cut short: its completed runs            */
    json_object_set_string_member (root, "failed", self->failure);
  if (self->package_bytes > 0)
    json_object_set_int_member (root, "weight_bytes", (gint64) self->package_bytes);
  if (self->show != NULL && self->show->weight_bytes > 0)
    json_object_set_int_member (root, "tensor_bytes", (gint64) self->show->weight_bytes);
}

/* The "options" object: the contexts, runs per context and what every
 * request sends. */
static JsonObject *
options_to_json (HrMeasureRun *self)
{
  JsonObject *options = json_object_new ();
  JsonArray *contexts = json_array_new ();

  for (guint i = 0; i < self->contexts->len; i++)
    json_array_add_int_element (contexts, g_array_index (self->contexts, guint32, i));
  json_object_set_array_member (options, "contexts", contexts);
  json_object_set_int_member (options, "runs_per_context", self->runs);
  json_object_set_int_member (options, "temperature", 0);
  json_object_set_int_member (options, "seed", HR_MEASURE_SEED);
  json_object_set_int_member (options, "num_predict", self->num_predict);
  json_object_set_string_member (options, "prompt", self->prompt);
  return options;
}

/* One run's entry of "runs": ms with one decimal, null for "n/a". */
static JsonObject *
result_to_json (const HrMeasureResult *r)
{
  JsonObject *run = json_object_new ();

  json_object_set_int_member (run, "context", r->context);
  json_object_set_int_member (run, "run", r->run);
  json_object_set_boolean_member (run, "cold", r->cold);
  if (r->ttft_ms < 0)
    json_object_set_null_member (run, "ttft_ms");
  else
    json_object_set_double_member (run, "ttft_ms", round (r->ttft_ms * 10) / 10.0);
  json_object_set_double_member (run, "client_total_ms", round (r->client_total_ms * 10) / 10.0);
  set_ns_ms (run, "total_ms", r->total_duration);
  set_ns_ms (run, "load_ms", r->load_duration);
  set_count (run, "prompt_tokens", r->prompt_eval_count);
  set_ns_ms (run, "prompt_eval_ms", r->prompt_eval_duration);
  set_rate (run, "prefill_tps", r->prefill_tps);
  set_count (run, "output_tokens", r->eval_count);
  set_ns_ms (run, "eval_ms", r->eval_duration);
  set_rate (run, "decode_tps", r->decode_tps);
  if (r->done_reason != NULL)
    json_object_set_string_member (run, "done_reason", r->done_reason);
  if (r->failed != NULL) /* broke off mid-stream: output_tokens are the chunks received */
    json_object_set_string_member (run, "failed", r->failed);
  return run;
}

/* One context's entry of "ps": what /api/ps listed beside the prediction. */
static JsonObject *
ps_to_json (const HrMeasurePs *p)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "context", p->context);
  json_object_set_boolean_member (o, "listed", p->listed);
  if (p->listed)
    {
      g_autofree char *size_text = hr_ollama_format_size (p->size);
      g_autofree char *processor = hr_ollama_format_processor (p->size, p->size_vram);

      json_object_set_int_member (o, "size", (gint64) p->size);
      json_object_set_int_member (o, "size_vram", (gint64) p->size_vram);
      json_object_set_string_member (o, "size_text", size_text);
      json_object_set_string_member (o, "processor", processor);
      json_object_set_int_member (o, "context_length", p->context_length);
    }
  if (p->predicted > 0)
    {
      json_object_set_int_member (o, "predicted_bytes", (gint64) p->predicted);
      json_object_set_string_member (o, "prediction_source", p->prediction_source);
      if (p->listed)
        {
          json_object_set_int_member (o, "difference_bytes", p->difference);
          json_object_set_double_member (o, "difference_gb", round (p->difference / 1e7) / 100.0);
          json_object_set_double_member (o, "difference_percent", round (p->difference_percent * 10) / 10.0);
        }
    }
  return o;
}

/* A listed context's entry of "sizes", the figures the core reads. */
static JsonObject *
size_to_json (const HrMeasurePs *p)
{
  JsonObject *s = json_object_new ();

  json_object_set_int_member (s, "context_tokens", p->context);
  json_object_set_int_member (s, "reported_bytes", (gint64) p->size);
  json_object_set_int_member (s, "reported_vram_bytes", (gint64) p->size_vram);
  if (p->predicted > 0)
    json_object_set_int_member (s, "predicted_bytes", (gint64) p->predicted);
  return s;
}

/* The "decode_tps" object: the mean, and the min, max and n of the runs
 * that have a rate. */
static JsonObject *
decode_to_json (HrMeasureRun *self)
{
  JsonObject *decode = json_object_new ();
  double min = -1, max = -1;
  guint n = 0;

  for (guint i = 0; i < self->results->len; i++)
    {
      double tps = g_array_index (self->results, HrMeasureResult, i).decode_tps;

      if (tps < 0)
        continue;
      min = n == 0 ? tps : MIN (min, tps);
      max = n == 0 ? tps : MAX (max, tps);
      n++;
    }
  json_object_set_double_member (decode, "mean", round (self->decode_mean * 100) / 100.0);
  if (n > 0)
    {
      json_object_set_double_member (decode, "min", round (min * 100) / 100.0);
      json_object_set_double_member (decode, "max", round (max * 100) / 100.0);
    }
  json_object_set_int_member (decode, "n", n);
  return decode;
}

/**
 * hr_measure_run_to_json:
 * @self: a run set that has finished
 *
 * The archive document: board, model, digest, date, runtime_version
 * ("ollama 0.31.2"), server, source, weight_bytes (the package size from
 * /api/tags, as the seed's catalog uses), options, every run (ms with one
 * decimal, null for "n/a"), the /api/ps figures beside the prediction, the
 * sizes the core reads, and decode_tps (mean, min, max, n) (docs/seed-figures.md,
 * "Rates": the archive's board, model, decode_tps.mean).
 *
 * Returns: (transfer full): the document.
 */
JsonNode *
hr_measure_run_to_json (HrMeasureRun *self)
{
  JsonObject *root = json_object_new ();
  JsonArray *runs = json_array_new ();
  JsonArray *ps = json_array_new ();
  JsonArray *sizes = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  set_identity (self, root);
  json_object_set_object_member (root, "options", options_to_json (self));

  for (guint i = 0; i < self->results->len; i++)
    json_array_add_object_element (runs, result_to_json (&g_array_index (self->results, HrMeasureResult, i)));
  json_object_set_array_member (root, "runs", runs);

  for (guint i = 0; i < self->ps->len; i++)
    {
      const HrMeasurePs *p = &g_array_index (self->ps, HrMeasurePs, i);

      if (p->listed)
        json_array_add_object_element (sizes, size_to_json (p));
      json_array_add_object_element (ps, ps_to_json (p));
    }
  json_object_set_array_member (root, "ps", ps);
  json_object_set_array_member (root, "sizes", sizes);
  json_object_set_object_member (root, "decode_tps", decode_to_json (self));

  json_node_take_object (node, root);
  return node;
}

/**
 * hr_measure_run_save: (skip)
 * @self: a run whose every step is done
 * @error: return location for a #GError
 *
 * Writes the run's archive document (hr_measure_run_to_json()) to its
 * archive directory as a measurement (hr_measurement_save()) and keeps the
 * path.
 *
 * Returns: %FALSE with %HR_NET_ERROR_INVALID_RESPONSE when no run reported
 *   a decode rate (nothing is saved), or hr_measurement_save()'s error.
 */
gboolean
hr_measure_run_save (HrMeasureRun  *self,
                     GError       **error)
{
  g_autoptr(HrMeasurement) measurement = hr_measurement_new ();
  g_autofree char *path = NULL;

  if (self->decode_mean <= 0)
    {
      g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                   _("no run of %s reported a decode rate (eval_count and eval_duration), so nothing was saved"),
                   self->model);
      return FALSE;
    }

  measurement->board = g_strdup (self->board_id);
  measurement->model = g_strdup (self->model);
  measurement->date = g_strdup (self->date);
  measurement->document = hr_measure_run_to_json (self);
  if (!hr_measurement_save (measurement, self->archive_dir, &path, error))
    return FALSE;
  g_free (self->saved_path);
  self->saved_path = g_steal_pointer (&path);
  return TRUE;
}
