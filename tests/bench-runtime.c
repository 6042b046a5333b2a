/* bench-runtime.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cost of one runtime prediction (hr_runtime_predict()), which runs on
 * every slider step: nanoseconds per call for a catalog row (no tensor
 * list), for a spec with a 292-tensor list (llama3.1:8b's layout), bytes
 * only (the chart) and with every formula and note (the explain panel), in
 * both eras. A benchmark, not a test.
 */
#include "config.h"

#include <stdio.h>

#include "hr-runtime.h"

#define N_CALLS 200000

static HrModelSpec *
catalog_row (void)
{
  HrModelSpec *spec = hr_model_spec_new ("llama3.1:8b");

  spec->architecture = g_strdup ("llama");
  spec->parameters = 8030261248;
  spec->precision = g_strdup ("q4_K_M");
  spec->file_bytes = 4920753328;
  spec->layers = 32;
  spec->heads = 32;
  spec->kv_heads = 8;
  spec->key_length = spec->value_length = 128;
  spec->embedding_length = 4096;
  spec->context_length = 131072;
  spec->vocab_size = 128256;
  return spec;
}

static void
add (GPtrArray  *t,
     const char *name,
     guint32     type,
     guint64     d0,
     guint64     d1)
{
  guint64 dims[2] = { d0, d1 };

  g_ptr_array_add (t, hr_tensor_info_new (name, type, d1 ? 2 : 1, dims, NULL));
}

static HrModelSpec *
with_tensors (void)
{
  HrModelSpec *spec = catalog_row ();
  GPtrArray *t = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_tensor_info_free);
  char name[64];

  add (t, "token_embd.weight", HR_GGML_TYPE_Q4_K, 4096, 128256);
  add (t, "output.weight", HR_GGML_TYPE_Q6_K, 4096, 128256);
  add (t, "output_norm.weight", HR_GGML_TYPE_F32, 4096, 0);
  add (t, "rope_freqs.weight", HR_GGML_TYPE_F32, 64, 0);
  for (guint i = 0; i < 32; i++)
    {
#define T(s, type, a, b) G_STMT_START { g_snprintf (name, sizeof name, "blk.%u." s, i); add (t, name, type, a, b); } G_STMT_END
      T ("attn_norm.weight", HR_GGML_TYPE_F32, 4096, 0);
      T ("ffn_norm.weight", HR_GGML_TYPE_F32, 4096, 0);
      T ("attn_q.weight", HR_GGML_TYPE_Q4_K, 4096, 4096);
      T ("attn_k.weight", HR_GGML_TYPE_Q4_K, 4096, 1024);
      T ("attn_v.weight", HR_GGML_TYPE_Q6_K, 4096, 1024);
      T ("attn_output.weight", HR_GGML_TYPE_Q4_K, 4096, 4096);
      T ("ffn_gate.weight", HR_GGML_TYPE_Q4_K, 4096, 14336);
      T ("ffn_up.weight", HR_GGML_TYPE_Q4_K, 4096, 14336);
      T ("ffn_down.weight", HR_GGML_TYPE_Q6_K, 14336, 4096);
#undef T
    }
  hr_model_spec_take_tensors (spec, t);
  return spec;
}

static double
bench (const char        *label,
       const HrModelSpec *spec,
       HrRuntimeEra       era,
       gboolean           skip_text)
{
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  guint64 checksum = 0;
  gint64 start, elapsed;
  double ns;

  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = era;
  in.parallel_slots = 1;
  in.skip_text = skip_text;
  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_CALLS; i++)
    {
      in.context_tokens = 512u << (i % 9);
      if (hr_runtime_predict (&in, &p, NULL))
        checksum += p.total_bytes;
    }
  elapsed = g_get_monotonic_time () - start;
  ns = (double) elapsed * 1000.0 / N_CALLS;
  printf ("%-44s %9.0f ns per call (%u calls, checksum %" G_GUINT64_FORMAT ")\n",
          label, ns, N_CALLS, checksum % 1000003);
  return ns;
}

int
main (void)
{
  g_autoptr(HrModelSpec) row = catalog_row ();
  g_autoptr(HrModelSpec) full = with_tensors ();

  printf ("hr_runtime_predict, one model, contexts 512 .. 131072:\n");
  bench ("0.30, catalog row, bytes only", row, HR_RUNTIME_ERA_OLLAMA_0_30, TRUE);
  bench ("0.30, 292 tensors, bytes only", full, HR_RUNTIME_ERA_OLLAMA_0_30, TRUE);
  bench ("0.30, 292 tensors, formulas and notes", full, HR_RUNTIME_ERA_OLLAMA_0_30, FALSE);
  bench ("0.12, catalog row, bytes only", row, HR_RUNTIME_ERA_OLLAMA_0_12, TRUE);
  bench ("0.12, 292 tensors, bytes only", full, HR_RUNTIME_ERA_OLLAMA_0_12, TRUE);
  bench ("0.12, 292 tensors, formulas and notes", full, HR_RUNTIME_ERA_OLLAMA_0_12, FALSE);
  return 0;
}
