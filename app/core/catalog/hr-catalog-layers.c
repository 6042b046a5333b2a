/* hr-catalog-layers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-layer schedule of a catalog entry: which layers attend over the
 * whole context, which over a sliding window, which keep a recurrent state
 * instead (hybrid models: Gated DeltaNet, Mamba2, short convolutions) and
 * which have neither. The catalog gives it compactly ("layer_types",
 * "full_attention_interval", "sliding_window_pattern") or as the spec's own
 * arrays ("layer_kv_heads", "layer_sliding", "layer_recurrent"); either way
 * it ends up in HrModelSpec's layer_kv_heads, layer_sliding and
 * layer_recurrent, which the memory math reads.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-catalog-private.h"

#define MAX_U32_FIELD G_MAXUINT32

/* One value of "layer_types". */
typedef enum {
  LAYER_ATTENTION,  /* full attention: a KV cache over the whole context */
  LAYER_SLIDING,    /* attention over the sliding window */
  LAYER_RECURRENT,  /* recurrent state, no KV cache */
  LAYER_NONE,       /* neither (nemotron-h's MLP-only layers) */
} LayerType;

static const char *const layer_type_names[] = { "attention", "sliding", "recurrent", "none" };

static gboolean
layer_type_from_name (const char *name,
                      LayerType  *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (layer_type_names); i++)
    if (g_strcmp0 (name, layer_type_names[i]) == 0)
      {
        *out = (LayerType) i;
        return TRUE;
      }
  return FALSE;
}

/* The "layer_types" list: one known name per layer. */
static gboolean
read_layer_types (JsonObject  *object,
                  guint32      layers,
                  GArray     **out_types,
                  char       **out_problem)
{
  JsonNode *node = json_object_get_member (object, "layer_types");
  JsonArray *array;
  g_autoptr(GArray) types = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      *out_problem = g_strdup (_("field \"layer_types\" must be a list of \"attention\", \"sliding\", \"recurrent\" or \"none\", one per layer"));
      return FALSE;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) != layers)
    {
      *out_problem = g_strdup_printf (_("field \"layer_types\" has %u values for %u layers"),
                                      json_array_get_length (array), layers);
      return FALSE;
    }
  types = g_array_sized_new (FALSE, FALSE, sizeof (LayerType), layers);
  for (guint i = 0; i < layers; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *name = NULL;
      LayerType type;

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        name = json_node_get_string (element);
      if (name == NULL || !layer_type_from_name (name, &type))
        {
          *out_problem = g_strdup_printf (_("field \"layer_types\": value %u is not \"attention\", \"sliding\", \"recurrent\" or \"none\""), i + 1);
          return FALSE;
        }
      g_array_append_val (types, type);
    }
  *out_types = g_steal_pointer (&types);
  return TRUE;
}

static GArray *
new_array (gsize element_size,
           guint len)
{
  return g_array_set_size (g_array_sized_new (FALSE, TRUE, element_size, len), len);
}

static gboolean
has_member (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && !JSON_NODE_HOLDS_NULL (node);
}

#define PROBLEM(member, ...) \
  G_STMT_START { *out_field = (member); *out_problem = g_strdup_printf (__VA_ARGS__); return FALSE; } G_STMT_END

/* The compact schedule members of an entry, as read. */
typedef struct {
  GArray  *types;     /* LayerType per layer from "layer_types", or NULL */
  guint32  interval;  /* "full_attention_interval", 0 when absent */
  guint32  pattern;   /* "sliding_window_pattern", 0 when absent */
} LayerSchedule;

/* Reads the recurrent-state members and the compact schedule, each checked
 * on its own. */
static gboolean
read_schedule (JsonObject     *object,
               HrModelSpec    *spec,
               LayerSchedule  *schedule,
               const char    **out_field,
               char          **out_problem)
{
  if (!_hr_catalog_read_u32_array (object, "layer_recurrent", 1, &spec->layer_recurrent, sizeof (guint8), out_problem))
    {
      *out_field = "layer_recurrent";
      return FALSE;
    }
  if (!_hr_json_get_u32 (object, "recurrent_r", FALSE, MAX_U32_FIELD, &spec->recurrent_r, out_problem))
    {
      *out_field = "recurrent_r";
      return FALSE;
    }
  if (!_hr_json_get_u32 (object, "recurrent_s", FALSE, MAX_U32_FIELD, &spec->recurrent_s, out_problem))
    {
      *out_field = "recurrent_s";
      return FALSE;
    }
  if (!_hr_json_get_u32 (object, "full_attention_interval", FALSE, MAX_U32_FIELD, &schedule->interval, out_problem))
    {
      *out_field = "full_attention_interval";
      return FALSE;
    }
  if (!_hr_json_get_u32 (object, "sliding_window_pattern", FALSE, MAX_U32_FIELD, &schedule->pattern, out_problem))
    {
      *out_field = "sliding_window_pattern";
      return FALSE;
    }
  if (!read_layer_types (object, spec->layers, &schedule->types, out_problem))
    {
      *out_field = "layer_types";
      return FALSE;
    }
  return TRUE;
}

/* One way to give each thing: a compact schedule and an explicit array
 * for the same layers are refused, and the interval and pattern must fit
 * the layers. */
static gboolean
check_schedule (JsonObject          *object,
                const HrModelSpec   *spec,
                const LayerSchedule *schedule,
                const char         **out_field,
                char               **out_problem)
{
  GArray *types = schedule->types;
  guint32 interval = schedule->interval, pattern = schedule->pattern;

  if (types != NULL && interval > 0)
    PROBLEM ("full_attention_interval", "%s", _("fields \"layer_types\" and \"full_attention_interval\" both give the layer schedule: give one"));
  if ((types != NULL || interval > 0) &&
      (has_member (object, "layer_kv_heads") || has_member (object, "layer_recurrent")))
    PROBLEM (types != NULL ? "layer_types" : "full_attention_interval",
             _("field \"%s\" cannot be combined with \"layer_kv_heads\" or \"layer_recurrent\": give the schedule or the arrays"),
             types != NULL ? "layer_types" : "full_attention_interval");
  if (types != NULL && has_member (object, "layer_sliding"))
    PROBLEM ("layer_types", "%s", _("field \"layer_types\" cannot be combined with \"layer_sliding\""));
  if (pattern > 0 && (types != NULL || has_member (object, "layer_sliding")))
    PROBLEM ("sliding_window_pattern", "%s", _("field \"sliding_window_pattern\" cannot be combined with \"layer_types\" or \"layer_sliding\""));
  if (has_member (object, "full_attention_interval") && (interval < 2 || interval > spec->layers))
    PROBLEM ("full_attention_interval", _("field \"full_attention_interval\" must be between 2 and the %u layers"), spec->layers);
  if (has_member (object, "sliding_window_pattern") && (pattern < 2 || pattern > spec->layers))
    PROBLEM ("sliding_window_pattern", _("field \"sliding_window_pattern\" must be between 2 and the %u layers"), spec->layers);
  if (pattern > 0 && spec->sliding_window == 0)
    PROBLEM ("sliding_window_pattern", "%s", _("field \"sliding_window_pattern\" needs a \"sliding_window\""));
  return TRUE;
}

/* "layer_types" into layer_kv_heads (kv_heads for the attending layers),
 * and layer_sliding / layer_recurrent where any layer is such. */
static gboolean
apply_layer_types (HrModelSpec  *spec,
                   GArray       *types,
                   const char  **out_field,
                   char        **out_problem)
{
  gboolean any_sliding = FALSE, any_recurrent = FALSE;

  spec->layer_kv_heads = new_array (sizeof (guint32), spec->layers);
  for (guint i = 0; i < spec->layers; i++)
    {
      LayerType type = g_array_index (types, LayerType, i);

      g_array_index (spec->layer_kv_heads, guint32, i) =
        (type == LAYER_ATTENTION || type == LAYER_SLIDING) ? spec->kv_heads : 0;
      any_sliding |= type == LAYER_SLIDING;
      any_recurrent |= type == LAYER_RECURRENT;
    }
  if (any_sliding && spec->sliding_window == 0)
    PROBLEM ("layer_types", "%s", _("field \"layer_types\" has sliding layers but no \"sliding_window\""));
  if (any_sliding)
    {
      g_clear_pointer (&spec->layer_sliding, g_array_unref);
      spec->layer_sliding = new_array (sizeof (guint8), spec->layers);
    }
  if (any_recurrent)
    spec->layer_recurrent = new_array (sizeof (guint8), spec->layers);
  for (guint i = 0; i < spec->layers; i++)
    {
      LayerType type = g_array_index (types, LayerType, i);

      if (any_sliding)
        g_array_index (spec->layer_sliding, guint8, i) = type == LAYER_SLIDING;
      if (any_recurrent)
        g_array_index (spec->layer_recurrent, guint8, i) = type == LAYER_RECURRENT;
    }
  return TRUE;
}

/* "full_attention_interval" N: every Nth layer attends, the rest keep a
 * recurrent state. */
static void
apply_interval (HrModelSpec *spec,
                guint32      interval)
{
  spec->layer_kv_heads = new_array (sizeof (guint32), spec->layers);
  spec->layer_recurrent = new_array (sizeof (guint8), spec->layers);
  for (guint i = 0; i < spec->layers; i++)
    {
      gboolean attends = (i + 1) % interval == 0;

      g_array_index (spec->layer_recurrent, guint8, i) = !attends;
      g_array_index (spec->layer_kv_heads, guint32, i) = attends ? spec->kv_heads : 0;
    }
}

/* "sliding_window_pattern" N: every Nth layer attends over the whole
 * context, the rest over the window. */
static void
apply_pattern (HrModelSpec *spec,
               guint32      pattern)
{
  spec->layer_sliding = new_array (sizeof (guint8), spec->layers);
  for (guint i = 0; i < spec->layers; i++)
    g_array_index (spec->layer_sliding, guint8, i) = (i + 1) % pattern != 0;
}

/* The arrays' lengths, then the recurrent sizes against the recurrent
 * layers: both given where there are such layers, none where there are
 * none. */
static gboolean
check_recurrent (JsonObject          *object,
                 const HrModelSpec   *spec,
                 const LayerSchedule *schedule,
                 const char         **out_field,
                 char               **out_problem)
{
  guint recurrent = 0;

  if (spec->layer_recurrent != NULL && spec->layer_recurrent->len != spec->layers)
    PROBLEM ("layer_recurrent", _("field \"layer_recurrent\" has %u values for %u layers"),
             spec->layer_recurrent->len, spec->layers);
  if (spec->layer_sliding != NULL && spec->layer_sliding->len != spec->layers)
    PROBLEM ("layer_sliding", _("field \"layer_sliding\" has %u values for %u layers"),
             spec->layer_sliding->len, spec->layers);

  for (guint i = 0; spec->layer_recurrent != NULL && i < spec->layer_recurrent->len; i++)
    recurrent += g_array_index (spec->layer_recurrent, guint8, i) != 0;
  if (recurrent > 0 && spec->recurrent_r == 0 && spec->recurrent_s == 0)
    PROBLEM (schedule->types != NULL ? "layer_types" : schedule->interval > 0 ? "full_attention_interval" : "layer_recurrent",
             _("fields \"recurrent_r\" and \"recurrent_s\" are missing: %u layers keep a recurrent state"), recurrent);
  /* Both, so that a 0 is said, not assumed (LFM2's short convolution has
   * no n_embd_s; a Mamba layer has both). */
  if (recurrent > 0 && json_object_has_member (object, "recurrent_r") != json_object_has_member (object, "recurrent_s"))
    {
      const char *missing = json_object_has_member (object, "recurrent_r") ? "recurrent_s" : "recurrent_r";

      PROBLEM (missing, _("field \"%s\" is missing: %u layers keep a recurrent state; give both recurrent_r and recurrent_s (0 where the architecture has no such state)"),
               missing, recurrent);
    }
  if (recurrent == 0 && (spec->recurrent_r > 0 || spec->recurrent_s > 0))
    PROBLEM (spec->recurrent_r > 0 ? "recurrent_r" : "recurrent_s", "%s",
             _("fields \"recurrent_r\" and \"recurrent_s\" need recurrent layers (\"layer_types\", \"full_attention_interval\" or \"layer_recurrent\")"));
  return TRUE;
}

/**
 * _hr_catalog_read_layers:
 * @object: one catalog entry
 * @spec: the entry as read so far: layers, kv_heads, sliding_window and
 *   the explicit layer_kv_heads / layer_sliding arrays already set
 * @out_field: (out): on failure, the member the problem is about (static)
 * @out_problem: (out): on failure, the translated problem
 *
 * Reads the entry's per-layer schedule and recurrent-state sizes into
 * @spec: "layer_recurrent" (0/1 per layer), "recurrent_r" and
 * "recurrent_s" (llama.cpp's n_embd_r () and n_embd_s (),
 * src/llama-hparams.cpp: values per recurrent layer and slot, f32), and one
 * of the compact schedules:
 *
 *  - "layer_types": "attention", "sliding", "recurrent" or "none" per
 *    layer; sets layer_kv_heads (kv_heads, or 0 for recurrent and none),
 *    layer_sliding and layer_recurrent;
 *  - "full_attention_interval" N: layer i keeps a recurrent state unless
 *    (i + 1) % N == 0, which attends (llama.cpp src/models/qwen35.cpp
 *    load_hparams, the GGUF key `{arch}.full_attention_interval`, 4 by
 *    default there); sets layer_kv_heads and layer_recurrent;
 *  - "sliding_window_pattern" N: layer i attends over the sliding window
 *    unless (i + 1) % N == 0 (Gemma 3's and gpt-oss's interleaving, as
 *    llama.cpp's hparams.set_swa_pattern () lays it out); sets layer_sliding.
 *
 * A compact schedule and an explicit array for the same layers cannot both
 * be given. Recurrent layers need recurrent_r or recurrent_s; the sizes
 * without a recurrent layer are refused.
 *
 * Returns: %TRUE when the members are absent or valid.
 */
gboolean
_hr_catalog_read_layers (JsonObject   *object,
                         HrModelSpec  *spec,
                         const char  **out_field,
                         char        **out_problem)
{
  LayerSchedule schedule = { NULL, 0, 0 };
  gboolean ok;

  ok = read_schedule (object, spec, &schedule, out_field, out_problem) &&
       check_schedule (object, spec, &schedule, out_field, out_problem) &&
       (schedule.types == NULL || apply_layer_types (spec, schedule.types, out_field, out_problem));
  if (ok && schedule.interval > 0)
    apply_interval (spec, schedule.interval);
  if (ok && schedule.pattern > 0)
    apply_pattern (spec, schedule.pattern);
  ok = ok && check_recurrent (object, spec, &schedule, out_field, out_problem);

  g_clear_pointer (&schedule.types, g_array_unref);
  return ok;
}
#undef PROBLEM
