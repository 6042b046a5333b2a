/* hr-scenario-sliders.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-precision.h"
#include "hr-scenario-sliders.h"

/* The precision slider's marks, in bits order; NULL (mark 0) is each
 * model's own files, the scenario's "as-pulled" (hr-precision.c ids). */
static const char * const precision_ids[] = {
  NULL, "int4", "q4_K_M", "q5_K_M", "q6_K", "q8_0", "fp16", "fp32",
};

#define CONTEXT_MIN_LOG2 9   /* 512 tokens */
#define CONTEXT_MAX_LOG2 17  /* 131,072 tokens */

/* The marks this build's precision table knows, mark 0 first. */
static const HrPrecision * const *
slider_precisions (guint *n_out)
{
  static const HrPrecision *precisions[G_N_ELEMENTS (precision_ids)];
  static guint n;
  static gsize done;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (precision_ids); i++)
        {
          const HrPrecision *precision = precision_ids[i] ? hr_precision_lookup (precision_ids[i]) : NULL;

          if (precision_ids[i] == NULL || precision != NULL)
            precisions[n++] = precision;
        }
      g_once_init_leave (&done, 1);
    }
  *n_out = n;
  return precisions;
}

/**
 * hr_scenario_sliders_setup:
 * @precision_scale: the precision slider: marks 0 ... n - 1
 * @first_label: mark 0's label ("as pulled", "as published")
 * @context_scale: the context slider: log2 of the tokens, 9 ... 17
 *   (512 ... 131,072, the "default-context" key's range), marked at 512,
 *   2K, 4K, 8K, 16K, 32K and 128K
 *
 * Gives both sliders their range and marks.
 */
void
hr_scenario_sliders_setup (GtkScale   *precision_scale,
                           const char *first_label,
                           GtkScale   *context_scale)
{
  static const struct { int log2; const char *label; } marks[] = {
    { 9, "512" }, { 11, "2K" }, { 12, "4K" }, { 13, "8K" }, { 14, "16K" }, { 15, "32K" }, { 17, "128K" },
  };
  guint n;
  const HrPrecision * const *precisions = slider_precisions (&n);

  g_return_if_fail (GTK_IS_SCALE (precision_scale));
  g_return_if_fail (GTK_IS_SCALE (context_scale));

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *markup = NULL;
      const char *label;

      if (precisions[i] == NULL)
        label = first_label;
      else if (g_strcmp0 (precisions[i]->id, "fp16") == 0)
        label = _("FP16/BF16");
      else
        label = precisions[i]->label;
      markup = g_markup_printf_escaped ("<small>%s</small>", label);
      gtk_scale_add_mark (precision_scale, i, i % 2 == 0 ? GTK_POS_BOTTOM : GTK_POS_TOP, markup);
    }
  gtk_range_set_range (GTK_RANGE (precision_scale), 0, MAX (1, n - 1));

  gtk_range_set_range (GTK_RANGE (context_scale), CONTEXT_MIN_LOG2, CONTEXT_MAX_LOG2);
  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      g_autofree char *markup = g_markup_printf_escaped ("<small>%s</small>", marks[i].label);

      gtk_scale_add_mark (context_scale, marks[i].log2, GTK_POS_BOTTOM, markup);
    }
}

static gboolean
precision_to_index (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  const char *id = g_value_get_string (from);
  guint n, index = 0;
  const HrPrecision * const *precisions = slider_precisions (&n);

  for (guint i = 0; i < n; i++)
    if (precisions[i] != NULL && g_ascii_strcasecmp (precisions[i]->id, id) == 0)
      index = i;
  g_value_set_double (to, index);
  return TRUE;
}

static gboolean
index_to_precision (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  guint n, index = (guint) g_value_get_double (from);
  const HrPrecision * const *precisions = slider_precisions (&n);

  if (index >= n || precisions[index] == NULL)
    g_value_set_string (to, "as-pulled");
  else
    g_value_set_string (to, precisions[index]->id);
  return TRUE;
}

/* The nearest power of two the slider has. */
static gboolean
context_to_log2 (GBinding     *binding,
                 const GValue *from,
                 GValue       *to,
                 gpointer      user_data)
{
  guint context = g_value_get_uint (from);
  int log2 = CONTEXT_MIN_LOG2;

  while (log2 < CONTEXT_MAX_LOG2 && ((guint) 1 << log2) * 3 / 2 < context)
    log2++;
  g_value_set_double (to, log2);
  return TRUE;
}

static gboolean
log2_to_context (GBinding     *binding,
                 const GValue *from,
                 GValue       *to,
                 gpointer      user_data)
{
  int log2 = (int) g_value_get_double (from);

  g_value_set_uint (to, (guint) 1 << CLAMP (log2, CONTEXT_MIN_LOG2, CONTEXT_MAX_LOG2));
  return TRUE;
}

/**
 * hr_scenario_sliders_bind:
 * @scenario: the shared scenario
 * @precision_scale: a slider set up by hr_scenario_sliders_setup()
 * @context_scale: likewise
 *
 * Binds the sliders' adjustments to @scenario's "precision" (mark 0 is
 * "as-pulled", then the ids in bits order) and "context-tokens" (2^value
 * tokens; a context between two marks shows at the nearer one), both ways
 * and in sync from the start (G_BINDING_BIDIRECTIONAL |
 * G_BINDING_SYNC_CREATE). The bindings last as long as both ends.
 */
void
hr_scenario_sliders_bind (HrScenario *scenario,
                          GtkScale   *precision_scale,
                          GtkScale   *context_scale)
{
  GBindingFlags flags = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;

  g_return_if_fail (HR_IS_SCENARIO (scenario));
  g_return_if_fail (GTK_IS_SCALE (precision_scale));
  g_return_if_fail (GTK_IS_SCALE (context_scale));

  g_object_bind_property_full (scenario, "precision",
                               gtk_range_get_adjustment (GTK_RANGE (precision_scale)), "value",
                               flags, precision_to_index, index_to_precision, NULL, NULL);
  g_object_bind_property_full (scenario, "context-tokens",
                               gtk_range_get_adjustment (GTK_RANGE (context_scale)), "value",
                               flags, context_to_log2, log2_to_context, NULL, NULL);
}
