/* hr-model-spec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-model-spec.h"
#include "hr-precision.h"
#include "hr-units.h"

G_DEFINE_BOXED_TYPE (HrModelSpec, hr_model_spec, hr_model_spec_copy, hr_model_spec_free)

static const char *field_names[HR_SPEC_N_FIELDS] = {
  [HR_SPEC_FIELD_PARAMETERS] = "parameters",
  [HR_SPEC_FIELD_PRECISION] = "precision",
  [HR_SPEC_FIELD_FILE_BYTES] = "file_bytes",
  [HR_SPEC_FIELD_LAYERS] = "layers",
  [HR_SPEC_FIELD_HEADS] = "heads",
  [HR_SPEC_FIELD_KV_HEADS] = "kv_heads",
  [HR_SPEC_FIELD_KEY_LENGTH] = "key_length",
  [HR_SPEC_FIELD_VALUE_LENGTH] = "value_length",
  [HR_SPEC_FIELD_EMBEDDING_LENGTH] = "embedding_length",
  [HR_SPEC_FIELD_CONTEXT_LENGTH] = "context_length",
  [HR_SPEC_FIELD_SLIDING_WINDOW] = "sliding_window",
};

/**
 * hr_spec_field_name:
 * @field: a field
 *
 * Returns: (transfer none): the field's name as the catalog's JSON spells it
 *   ("kv_heads").
 */
const char *
hr_spec_field_name (HrSpecField field)
{
  g_return_val_if_fail (field < HR_SPEC_N_FIELDS, NULL);
  return field_names[field];
}

/**
 * hr_model_spec_new:
 * @name: (nullable): the model's name, e.g. "llama3.2:3b"
 *
 * Returns: (transfer full): a spec with every figure unknown (0).
 */
HrModelSpec *
hr_model_spec_new (const char *name)
{
  HrModelSpec *spec = g_new0 (HrModelSpec, 1);

  spec->name = g_strdup (name);
  return spec;
}

/**
 * hr_tensor_info_new:
 * @name: the tensor's name
 * @type: its ggml type id
 * @n_dims: 1 to 4
 * @dims: (array length=n_dims): the dimensions, ne[0] first
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tensor with its exact element
 *   count and bytes, or %NULL with the error of hr_ggml_tensor_bytes().
 */
HrTensorInfo *
hr_tensor_info_new (const char     *name,
                    guint32         type,
                    guint32         n_dims,
                    const guint64  *dims,
                    GError        **error)
{
  g_autoptr(HrTensorInfo) info = g_new0 (HrTensorInfo, 1);

  if (!hr_ggml_tensor_bytes (type, dims, n_dims, &info->elements, &info->bytes, error))
    return NULL;

  info->name = g_strdup (name);
  info->type = type;
  info->n_dims = n_dims;
  memcpy (info->dims, dims, n_dims * sizeof (guint64));
  return g_steal_pointer (&info);
}

/**
 * hr_tensor_info_copy:
 * @info: a tensor
 *
 * Returns: (transfer full): a deep copy.
 */
HrTensorInfo *
hr_tensor_info_copy (const HrTensorInfo *info)
{
  HrTensorInfo *copy = g_memdup2 (info, sizeof *info);

  copy->name = g_strdup (info->name);
  return copy;
}

/**
 * hr_tensor_info_free:
 * @info: (nullable): a tensor
 */
void
hr_tensor_info_free (HrTensorInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info);
}

static GArray *
copy_array (GArray *array)
{
  GArray *copy;

  if (array == NULL)
    return NULL;
  copy = g_array_sized_new (FALSE, FALSE, g_array_get_element_size (array), array->len);
  g_array_append_vals (copy, array->data, array->len);
  return copy;
}

/**
 * hr_model_spec_copy:
 * @spec: a spec
 *
 * Returns: (transfer full): a deep copy, tensors and provenance included.
 */
HrModelSpec *
hr_model_spec_copy (const HrModelSpec *spec)
{
  HrModelSpec *copy = g_memdup2 (spec, sizeof *spec);

  copy->name = g_strdup (spec->name);
  copy->architecture = g_strdup (spec->architecture);
  copy->precision = g_strdup (spec->precision);
  copy->origin = g_strdup (spec->origin);
  copy->layer_kv_heads = copy_array (spec->layer_kv_heads);
  copy->layer_sliding = copy_array (spec->layer_sliding);
  copy->layer_recurrent = copy_array (spec->layer_recurrent);
  copy->recurrent_source = g_strdup (spec->recurrent_source);
  copy->tensors = NULL;
  if (spec->tensors != NULL)
    {
      copy->tensors = g_ptr_array_new_full (spec->tensors->len, (GDestroyNotify) hr_tensor_info_free);
      for (guint i = 0; i < spec->tensors->len; i++)
        g_ptr_array_add (copy->tensors, hr_tensor_info_copy (g_ptr_array_index (spec->tensors, i)));
    }
  for (guint i = 0; i < HR_SPEC_N_FIELDS; i++)
    copy->sources[i] = g_strdup (spec->sources[i]);
  copy->exact_file_bytes_source = g_strdup (spec->exact_file_bytes_source);
  copy->exact_parameters_source = g_strdup (spec->exact_parameters_source);
  copy->projector_source = g_strdup (spec->projector_source);
  return copy;
}

/**
 * hr_model_spec_free:
 * @spec: (nullable): a spec
 */
void
hr_model_spec_free (HrModelSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->name);
  g_free (spec->architecture);
  g_free (spec->precision);
  g_free (spec->origin);
  g_clear_pointer (&spec->layer_kv_heads, g_array_unref);
  g_clear_pointer (&spec->layer_sliding, g_array_unref);
  g_clear_pointer (&spec->layer_recurrent, g_array_unref);
  g_free (spec->recurrent_source);
  g_clear_pointer (&spec->tensors, g_ptr_array_unref);
  for (guint i = 0; i < HR_SPEC_N_FIELDS; i++)
    g_free (spec->sources[i]);
  g_free (spec->exact_file_bytes_source);
  g_free (spec->exact_parameters_source);
  g_free (spec->projector_source);
  g_free (spec);
}

/**
 * hr_model_spec_set_source:
 * @spec: a spec
 * @field: which figure
 * @source: (nullable): where it came from, e.g. "GGUF llama.block_count"
 */
void
hr_model_spec_set_source (HrModelSpec *spec,
                          HrSpecField  field,
                          const char  *source)
{
  g_return_if_fail (field < HR_SPEC_N_FIELDS);
  if (g_strcmp0 (spec->sources[field], source) == 0)
    return;
  g_free (spec->sources[field]);
  spec->sources[field] = g_strdup (source);
}

/**
 * hr_model_spec_get_source:
 * @spec: a spec
 * @field: which figure
 *
 * Returns: (nullable) (transfer none): where the figure came from.
 */
const char *
hr_model_spec_get_source (const HrModelSpec *spec,
                          HrSpecField        field)
{
  g_return_val_if_fail (field < HR_SPEC_N_FIELDS, NULL);
  return spec->sources[field];
}

/**
 * hr_model_spec_take_tensors:
 * @spec: a spec
 * @tensors: (transfer full) (nullable): a #GPtrArray of #HrTensorInfo
 *
 * Replaces the tensor list.
 */
void
hr_model_spec_take_tensors (HrModelSpec *spec,
                            GPtrArray   *tensors)
{
  g_clear_pointer (&spec->tensors, g_ptr_array_unref);
  spec->tensors = tensors;
}

/**
 * hr_model_spec_tensor_bytes:
 * @spec: a spec
 *
 * Returns: the exact bytes of every tensor in the list, 0 when there is no
 *   list, G_MAXUINT64 if the sum overflows.
 */
guint64
hr_model_spec_tensor_bytes (const HrModelSpec *spec)
{
  guint64 total = 0;

  if (spec->tensors == NULL)
    return 0;
  for (guint i = 0; i < spec->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (spec->tensors, i);
      if (!hr_add_u64 (total, info->bytes, &total))
        return G_MAXUINT64;
    }
  return total;
}

/**
 * hr_model_spec_layer_kv_heads:
 * @spec: a spec
 * @layer: a layer index, 0 .. layers - 1
 *
 * Returns: the KV heads of @layer: the per-layer figure when the model has
 *   one (0 = a layer without attention), else the uniform @spec->kv_heads.
 */
guint32
hr_model_spec_layer_kv_heads (const HrModelSpec *spec,
                              guint              layer)
{
  if (spec->layer_kv_heads != NULL && layer < spec->layer_kv_heads->len)
    return g_array_index (spec->layer_kv_heads, guint32, layer);
  return spec->kv_heads;
}

/**
 * hr_model_spec_layer_is_sliding:
 * @spec: a spec
 * @layer: a layer index
 *
 * Returns: %TRUE when @layer attends over a sliding window rather than the
 *   whole context. Without a per-layer list, every layer of a model with a
 *   sliding window is taken as sliding.
 */
gboolean
hr_model_spec_layer_is_sliding (const HrModelSpec *spec,
                                guint              layer)
{
  if (spec->sliding_window == 0)
    return FALSE;
  if (spec->layer_sliding != NULL)
    return layer < spec->layer_sliding->len && g_array_index (spec->layer_sliding, guint8, layer) != 0;
  return TRUE;
}

/**
 * hr_model_spec_layer_is_recurrent:
 * @spec: a spec
 * @layer: a layer index
 *
 * Whether llama.cpp keeps a recurrent state (a conv / token-shift row of
 * @spec->recurrent_r values and a state row of @spec->recurrent_s values,
 * f32, per slot) for @layer: hparams.is_recr () and the hybrid memory's
 * filter_recr (src/llama-model.cpp create_memory).
 *
 * Returns: %TRUE for such a layer; %FALSE without @spec->layer_recurrent.
 */
gboolean
hr_model_spec_layer_is_recurrent (const HrModelSpec *spec,
                                  guint              layer)
{
  return spec->layer_recurrent != NULL && layer < spec->layer_recurrent->len &&
         g_array_index (spec->layer_recurrent, guint8, layer) != 0;
}

/**
 * hr_model_spec_recurrent_layers:
 * @spec: a spec
 *
 * Returns: how many of @spec's layers keep a recurrent state
 *   (hr_model_spec_layer_is_recurrent()); 0 for a pure attention model.
 */
guint
hr_model_spec_recurrent_layers (const HrModelSpec *spec)
{
  guint n = 0;

  for (guint i = 0; spec->layer_recurrent != NULL && i < spec->layer_recurrent->len && i < spec->layers; i++)
    n += g_array_index (spec->layer_recurrent, guint8, i) != 0;
  return n;
}

/**
 * hr_model_spec_recurrent_only:
 * @spec: a spec
 *
 * Whether @spec is a purely recurrent model as llama.cpp runs it
 * (src/llama-arch.cpp llm_arch_is_recurrent: a llama_memory_recurrent,
 * no KV cache): every layer keeps a recurrent state of a known size and
 * none has KV heads.
 *
 * Returns: %TRUE for such a model.
 */
gboolean
hr_model_spec_recurrent_only (const HrModelSpec *spec)
{
  return spec->layers > 0 && hr_model_spec_recurrent_layers (spec) == spec->layers &&
         spec->kv_heads == 0 && (spec->recurrent_r > 0 || spec->recurrent_s > 0);
}

/**
 * hr_model_spec_kv_elements_per_token:
 * @spec: a spec
 *
 * The KV cache elements one token takes over all layers: per layer, KV
 * heads x (key length + value length); for multi-head latent attention
 * (@spec->kv_latent: DeepSeek-V2/V3, Kimi K2) one latent of key_length
 * (kv_lora_rank + qk_rope_head_dim) elements, since llama.cpp allocates no
 * V cache for MLA (src/llama-kv-cache.cpp: `has_v = !is_mla`; the values
 * are a view of the latent) and caches one KV head
 * (src/llama-model.cpp, LLM_ARCH_DEEPSEEK2: n_head_kv 1, n_embd_head_k =
 * kv_lora_rank + n_rot). Layers with 0 KV heads (recurrent) count 0.
 *
 * Returns: elements per token (multiply by the cache type's bytes per
 *   element), saturating at G_MAXUINT64.
 */
guint64
hr_model_spec_kv_elements_per_token (const HrModelSpec *spec)
{
  guint64 dims, total = 0;

  g_return_val_if_fail (spec != NULL, 0);

  dims = spec->kv_latent ? (guint64) spec->key_length
                         : (guint64) spec->key_length + spec->value_length;
  if (spec->layer_kv_heads == NULL)
    {
      /* Every layer alike: one product (a catalog row on every slider step). */
      if (!g_uint64_checked_mul (&total, (guint64) spec->kv_heads * dims, spec->layers))
        return G_MAXUINT64;
      return total;
    }
  for (guint i = 0; i < spec->layers; i++)
    {
      guint64 layer = (guint64) hr_model_spec_layer_kv_heads (spec, i) * dims;

      if (!hr_add_u64 (total, layer, &total))
        return G_MAXUINT64;
    }
  return total;
}

/* Sanity caps: far past any model that exists, close enough to catch a typo
 * or a corrupt file before it turns into a multi-terabyte figure. */
#define MAX_PARAMETERS G_GUINT64_CONSTANT (100000000000000) /* 1e14 */
#define MAX_HEADS      65536
#define MAX_HEAD_DIM   65536
#define MAX_CONTEXT    (64u * 1024u * 1024u)

/**
 * hr_model_spec_validate:
 * @spec: a spec
 * @error: return location for a #GError
 *
 * Checks that the figures the memory math needs are present and plausible:
 * a name, a parameter count in 1 .. 1e14, a known precision, 1 .. 4096
 * layers, 1 .. 65536 KV heads, head dims in 1 .. 65536, KV heads not above
 * the attention heads (none of these for a purely recurrent model,
 * hr_model_spec_recurrent_only()), a context limit under 64 Mi tokens.
 *
 * Returns: %TRUE when valid; else %HR_CORE_ERROR_INVALID_DATA naming the field.
 */
gboolean
hr_model_spec_validate (const HrModelSpec *spec,
                        GError           **error)
{
#define INVALID(...) G_STMT_START { g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, __VA_ARGS__); return FALSE; } G_STMT_END
  if (spec->name == NULL || spec->name[0] == '\0')
    INVALID (_("field \"name\" is missing or empty"));
  if (spec->parameters == 0 || spec->parameters > MAX_PARAMETERS)
    INVALID (_("field \"parameters\" must be between 1 and 100,000,000,000,000"));
  if (hr_precision_lookup (spec->precision) == NULL)
    INVALID (_("field \"precision\": \"%s\" is not a precision Headroom knows"),
             spec->precision ? spec->precision : "");
  if (spec->layers == 0 || spec->layers > HR_MODEL_SPEC_MAX_LAYERS)
    INVALID (_("field \"layers\" must be between 1 and %d"), HR_MODEL_SPEC_MAX_LAYERS);
  /* A purely recurrent model (every layer keeps a state, none a KV
   * cache: llama.cpp llm_arch_is_recurrent) has no KV heads nor head dims. */
  if (!hr_model_spec_recurrent_only (spec))
    {
    if (spec->kv_heads == 0 || spec->kv_heads > MAX_HEADS)
      INVALID (_("field \"kv_heads\" must be between 1 and %d"), MAX_HEADS);
    if (spec->heads != 0 && spec->kv_heads > spec->heads)
      INVALID (_("field \"kv_heads\" (%u) is larger than \"heads\" (%u)"), spec->kv_heads, spec->heads);
    if (spec->key_length == 0 || spec->key_length > MAX_HEAD_DIM)
      INVALID (_("field \"key_length\" must be between 1 and %d"), MAX_HEAD_DIM);
    if (spec->value_length == 0 || spec->value_length > MAX_HEAD_DIM)
      INVALID (_("field \"value_length\" must be between 1 and %d"), MAX_HEAD_DIM);
    }
  if (spec->context_length > MAX_CONTEXT)
    INVALID (_("field \"context_length\" must be at most %u tokens"), MAX_CONTEXT);
  if (spec->sliding_window > MAX_CONTEXT)
    INVALID (_("field \"sliding_window\" must be at most %u tokens"), MAX_CONTEXT);
  return TRUE;
#undef INVALID
}
