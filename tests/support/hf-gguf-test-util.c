/* hf-gguf-test-util.c: a model's config.json side and GGUF side, side by
 * side (hf-gguf-test-util.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "hf-gguf-test-util.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "hr-error.h"

HrHfConfig *
load_config (const char *name)
{
  const char *src = g_getenv ("HEADROOM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : ".", "tests", "fixtures", "configs", name, NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;
  HrHfConfig *config;

  g_assert_true (g_file_get_contents (path, &data, &size, &error));
  config = hr_hf_config_parse (data, size, &error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

HrModelSpec *
hub_spec (const char *fixture)
{
  g_autoptr(HrHfConfig) config = load_config (fixture);
  g_autoptr(GError) error = NULL;
  HrModelSpec *spec = hr_hf_config_to_model_spec (config, fixture, NULL, &error);

  g_assert_no_error (error);
  return spec;
}

void
header_init (Header     *h,
             const char *arch)
{
  h->kv = gw_new ();
  h->n = 1;
  h->arch = arch;
  h->tensors = gw_new ();
  h->n_tensors = 0;
  gw_kv_str (h->kv, "general.architecture", arch);
}

void
put_u32 (Header     *h,
         const char *suffix,
         guint32     v)
{
  g_autofree char *key = g_strconcat (h->arch, ".", suffix, NULL);

  gw_kv_u32 (h->kv, key, v);
  h->n++;
}

void
put_u32_array (Header        *h,
               const char    *suffix,
               const guint32 *v,
               guint          n)
{
  g_autofree char *key = g_strconcat (h->arch, ".", suffix, NULL);

  gw_kv_u32_array (h->kv, key, v, n);
  h->n++;
}

void
put_bool_array (Header       *h,
                const char   *suffix,
                const guint8 *v,
                guint         n)
{
  g_autofree char *key = g_strconcat (h->arch, ".", suffix, NULL);

  gw_kv_array (h->kv, key, GW_BOOL, n);
  for (guint i = 0; i < n; i++)
    gw_u8 (h->kv, v[i]);
  h->n++;
}

/* One tensor's info (the data is never read). */
void
put_tensor (Header        *h,
            const char    *name,
            guint32        n_dims,
            const guint64 *dims)
{
  gw_tensor (h->tensors, name, n_dims, dims, GW_F32, 0);
  h->n_tensors++;
}

/* The common keys of TextModel.set_gguf_parameters (conversion/base.py). */
void
put_text_model (Header     *h,
                guint32     layers,
                guint32     ctx,
                guint32     embd,
                guint32     ff,
                guint32     heads,
                guint32     kv_heads,
                guint32     vocab)
{
  put_u32 (h, "block_count", layers);
  put_u32 (h, "context_length", ctx);
  put_u32 (h, "embedding_length", embd);
  put_u32 (h, "feed_forward_length", ff);
  put_u32 (h, "attention.head_count", heads);
  if (kv_heads > 0)
    put_u32 (h, "attention.head_count_kv", kv_heads);
  put_u32 (h, "vocab_size", vocab);
}

/* Writes the header to a file and maps it; NULL with @error when the
 * mapper refuses it. */
HrModelSpec *
gguf_spec (Header  *h,
           GError **error)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(GgufWriter) kv = h->kv;
  g_autoptr(GgufWriter) tensors = h->tensors;
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *path = NULL;
  int fd;

  gw_header (w, 3, h->n_tensors, h->n);
  gw_bytes (w, kv->data, kv->len);
  gw_bytes (w, tensors->data, tensors->len);
  fd = g_file_open_tmp ("hr-hf-gguf-XXXXXX.gguf", &path, &local);
  g_assert_no_error (local);
  close (fd);
  g_assert_true (g_file_set_contents (path, (const char *) w->data, w->len, &local));
  g_assert_no_error (local);
  file = hr_gguf_file_load (path, NULL, &local);
  g_unlink (path);
  g_assert_no_error (local);
  return hr_gguf_file_to_model_spec (file, NULL, NULL, error);
}

/* Every spec field both paths fill, layer by layer. */
void
assert_same_spec (const HrModelSpec *hub,
                  const HrModelSpec *gguf)
{
  g_assert_cmpstr (hub->architecture, ==, gguf->architecture);
  g_assert_cmpuint (hub->layers, ==, gguf->layers);
  g_assert_cmpuint (hub->heads, ==, gguf->heads);
  g_assert_cmpuint (hub->kv_heads, ==, gguf->kv_heads);
  g_assert_cmpuint (hub->key_length, ==, gguf->key_length);
  g_assert_cmpuint (hub->value_length, ==, gguf->value_length);
  g_assert_cmpuint (hub->key_length_swa, ==, gguf->key_length_swa);
  g_assert_cmpuint (hub->value_length_swa, ==, gguf->value_length_swa);
  g_assert_cmpuint (hub->embedding_length, ==, gguf->embedding_length);
  g_assert_cmpuint (hub->context_length, ==, gguf->context_length);
  g_assert_cmpuint (hub->sliding_window, ==, gguf->sliding_window);
  g_assert_cmpuint (hub->vocab_size, ==, gguf->vocab_size);
  g_assert_cmpuint (hub->expert_count, ==, gguf->expert_count);
  g_assert_cmpuint (hub->expert_used_count, ==, gguf->expert_used_count);
  g_assert_cmpint (hub->kv_latent, ==, gguf->kv_latent);
  g_assert_cmpuint (hub->recurrent_r, ==, gguf->recurrent_r);
  g_assert_cmpuint (hub->recurrent_s, ==, gguf->recurrent_s);
  g_assert_cmpuint (hub->nextn_layers, ==, gguf->nextn_layers);
  for (guint i = 0; i < hub->layers; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, hr_model_spec_layer_kv_heads (gguf, i));
      /* Without a per-layer list on the GGUF side (gpt-oss: no
       * sliding_window_pattern key) the runtime applies llama.cpp's
       * per-architecture pattern; assert_same_prediction() checks that. */
      if (gguf->layer_sliding != NULL)
        g_assert_cmpint (hr_model_spec_layer_is_sliding (hub, i), ==, hr_model_spec_layer_is_sliding (gguf, i));
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, hr_model_spec_layer_is_recurrent (gguf, i));
    }
}

void
predict (const HrModelSpec   *spec,
         guint32              ctx,
         HrRuntimePrediction *out)
{
  HrRuntimeInputs in;
  g_autoptr(GError) error = NULL;

  hr_runtime_inputs_init (&in, spec, ctx);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.kv_type = HR_KV_CACHE_F16;
  in.parallel_slots = 1;
  in.skip_text = TRUE;
  g_assert_true (hr_runtime_predict (&in, out, &error));
  g_assert_no_error (error);
}

/* Both specs with the same weights file, then the terms that follow from
 * the architecture. */
void
assert_same_prediction (HrModelSpec *hub,
                        HrModelSpec *gguf,
                        guint32      ctx)
{
  static const HrRuntimeTermKind kinds[] = {
    HR_RUNTIME_TERM_KV_CACHE, HR_RUNTIME_TERM_RECURRENT_STATE, HR_RUNTIME_TERM_OUTPUT, HR_RUNTIME_TERM_COMPUTE,
  };
  HrRuntimePrediction a, b;

  hub->parameters = gguf->parameters = G_GUINT64_CONSTANT (1000000000);
  hub->file_bytes = gguf->file_bytes = G_GUINT64_CONSTANT (2000000000);
  g_free (hub->precision);
  g_free (gguf->precision);
  hub->precision = g_strdup ("bf16");
  gguf->precision = g_strdup ("bf16");
  gguf->tied_embeddings = hub->tied_embeddings;
  predict (hub, ctx, &a);
  predict (gguf, ctx, &b);
  g_assert_cmpuint (a.kv_cells, ==, b.kv_cells);
  g_assert_cmpuint (a.kv_cells_sliding, ==, b.kv_cells_sliding);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_assert_cmpint (hr_runtime_prediction_term_bytes (&a, kinds[i]), ==,
                     hr_runtime_prediction_term_bytes (&b, kinds[i]));
}

guint
count_layers (const HrModelSpec *spec,
              gboolean         (*is) (const HrModelSpec *, guint))
{
  guint n = 0;

  for (guint i = 0; i < spec->layers; i++)
    n += is (spec, i) ? 1 : 0;
  return n;
}

HrModelSpec *
inline_spec (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHfConfig) config = hr_hf_config_parse (json, strlen (json), &error);
  HrModelSpec *spec;

  g_assert_no_error (error);
  spec = hr_hf_config_to_model_spec (config, "inline", NULL, &error);
  g_assert_no_error (error);
  return spec;
}

/* A hybrid family's GGUF side: compared when the mapper fills the
 * recurrent layers, marked incomplete while it refuses the architecture or
 * leaves them out (the GGUF mapping of hybrids is another branch's). */
void
compare_hybrid (HrModelSpec *hub,
                Header      *h,
                guint32      ctx)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) gguf = gguf_spec (h, &error);

  if (gguf == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("the GGUF mapper refuses %s: %s", h->arch, error->message);

      g_test_incomplete (msg);
      return;
    }
  if (gguf->layer_recurrent == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("the GGUF mapper leaves %s's recurrent layers out", h->arch);

      g_test_incomplete (msg);
      return;
    }
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, ctx);
}

