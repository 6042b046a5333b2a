/* hr-runtime-seed.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed's own method as a runtime "era" (%HR_RUNTIME_ERA_SEED): weights
 * + KV cache, nothing else, the arithmetic of the seed's tables
 * (docs/seed-figures.md "Weights", "KV cache"; hr_memory_footprint()). It is no
 * server's figure: it is kept as a named teaching mode, in the same shape
 * as the runtime prediction so every command prints it the same way.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-runtime-private.h"

#define SRC_SEED_WEIGHTS \
  "docs/runtimes.md \"The seed's plain math\": the file's exact size when known, else parameters x bits per weight / 8 " \
  "(hr_memory_spec_weight_bytes)"
#define SRC_SEED_KV \
  "docs/runtimes.md \"The seed's plain math\": 2 x layers x KV heads x head dim x element bytes x num_ctx x slots " \
  "(per layer KV heads x (key + value length) when they differ; hr_memory_kv_cache_bytes)"

/**
 * rt_predict_seed: (skip)
 * @ctx: the prediction under way (era, context and slots resolved)
 *
 * The seed's two terms: weights (at the inputs' precision, or the file as
 * pulled) and the KV cache at the requested type, context and slots. No
 * compute buffer, no reserve, no padding, no sliding window: every layer
 * holds the whole context, as the seed's tables count it.
 */
void
rt_predict_seed (Ctx *ctx)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  guint64 weights = hr_memory_spec_weight_bytes (spec, ctx->in->precision);
  guint64 per_token = hr_memory_kv_bytes_per_token (spec, out->kv_type);
  guint64 kv = hr_memory_kv_cache_bytes (spec, out->kv_type, out->context_tokens, out->parallel_slots);
  HrRuntimeTerm *term;

  if (weights == G_MAXUINT64 || kv == G_MAXUINT64)
    ctx->overflow = TRUE;
  out->flash_attention = FALSE;
  out->kv_cells = (guint32) MIN (rt_mul (ctx, out->context_tokens, out->parallel_slots), G_MAXUINT32);

  term = rt_add_term (ctx, HR_RUNTIME_TERM_WEIGHTS, (gint64) MIN (weights, (guint64) G_MAXINT64), SRC_SEED_WEIGHTS);
  if (ctx->text)
    {
      term->label = _("Weights");
      if (ctx->in->precision == NULL && spec->file_bytes > 0)
        g_snprintf (term->formula, sizeof term->formula, _("the file as pulled: %s bytes"),
                    rt_count (&ctx->counts, weights));
      else
        g_snprintf (term->formula, sizeof term->formula, _("%s parameters x %s bits / 8 = %s bytes"),
                    rt_count (&ctx->counts, spec->parameters),
                    ctx->in->precision != NULL ? ctx->in->precision->id : (spec->precision ? spec->precision : "?"),
                    rt_count (&ctx->counts, weights));
    }

  term = rt_add_term (ctx, HR_RUNTIME_TERM_KV_CACHE, (gint64) MIN (kv, (guint64) G_MAXINT64), SRC_SEED_KV);
  if (ctx->text)
    {
      g_snprintf (term->formula, sizeof term->formula,
                  g_dngettext (GETTEXT_PACKAGE, "%s bytes per token (%s) x %s tokens x %u slot = %s bytes",
                               "%s bytes per token (%s) x %s tokens x %u slots = %s bytes", out->parallel_slots),
                  rt_count (&ctx->counts, per_token), hr_kv_cache_type_to_string (out->kv_type),
                  rt_count (&ctx->counts, out->context_tokens), out->parallel_slots,
                  rt_count (&ctx->counts, kv));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("Every layer holds the whole context: no padding, no sliding window, no compute buffer (the seed's tables)."));
    }
  rt_note (ctx, "%s", _("The seed's method (weights + KV cache), kept for teaching: a server also allocates a compute buffer, pads the cache and gives sliding-window layers fewer cells; the runtime prediction says what it will load."));
}
