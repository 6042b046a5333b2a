/* hr-explain-runtime.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The explain panel's runtime section: the runtime model's prediction for
 * the selected row (hr_runtime_predict()), every term with its formula,
 * source and note, the total, what sits in host memory, the runtime's
 * notes and the learned overhead. Its labels are made once and refilled on
 * every slider step.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-explain-panel-private.h"
#include "hr-formula.h"
#include "hr-gui-format.h"

/* Forgets the texts get_figure() gives for the runtime section. */
void
_hr_explain_panel_clear_runtime_texts (HrExplainPanel *self)
{
  g_clear_pointer (&self->runtime_era, g_free);
  g_clear_pointer (&self->runtime_total, g_free);
  g_clear_pointer (&self->runtime_terms, g_free);
  g_clear_pointer (&self->runtime_learned, g_free);
}

/* The runtime model's prediction for the selected row, every term with
 * its formula, source and note, then its notes and the learned overhead. */
/* The section's labels are made once and refilled: the panel is refreshed
 * on every slider step. A label keeps its text when it has not changed. */
static void
show_text (GtkWidget  *label,
           const char *text)
{
  gboolean visible = text != NULL && text[0] != '\0';

  if (visible && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_visible (label, visible);
}

/* The runtime section's repeated labels, one set per term kind and note the
 * runtime can give (HR_RUNTIME_N_TERM_KINDS, HR_RUNTIME_MAX_NOTES), into the
 * template's boxes; the rest of the section is in the template. */
void
_hr_explain_panel_build_runtime_box (HrExplainPanel *self)
{
  for (guint i = 0; i < HR_RUNTIME_N_TERM_KINDS; i++)
    {
      self->rt_title[i] = _hr_explain_panel_make_label ("", "heading", TRUE);
      gtk_widget_set_margin_top (self->rt_title[i], 8);
      self->rt_formula[i] = _hr_explain_panel_make_label ("", "explain-formula", TRUE);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (self->rt_formula[i]),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->rt_title[i], NULL,
                                      -1);
      self->rt_note[i] = _hr_explain_panel_make_label ("", "dim-label", TRUE);
      self->rt_source[i] = _hr_explain_panel_make_label ("", "caption", TRUE);
      gtk_box_append (GTK_BOX (self->rt_terms_box), self->rt_title[i]);
      gtk_box_append (GTK_BOX (self->rt_terms_box), self->rt_formula[i]);
      gtk_box_append (GTK_BOX (self->rt_terms_box), self->rt_note[i]);
      gtk_box_append (GTK_BOX (self->rt_terms_box), self->rt_source[i]);
    }
  for (guint i = 0; i < HR_RUNTIME_MAX_NOTES; i++)
    {
      self->rt_notes[i] = _hr_explain_panel_make_label ("", "dim-label", TRUE);
      gtk_box_append (GTK_BOX (self->rt_notes_box), self->rt_notes[i]);
    }
}

/* The runtime model's inputs for the selected row under the scenario. */
static void
runtime_inputs (HrExplainPanel  *self,
                HrRuntimeInputs *in)
{
  *in = self->runtime;
  in->spec = hr_model_row_get_spec (self->row);
  in->precision = self->scenario.precision;
  in->context_tokens = self->scenario.context_tokens;
  /* llama-server's slots are its own (-np auto), whatever the setting. */
  in->parallel_slots = in->era == HR_RUNTIME_ERA_LLAMA_SERVER ? 0 : self->scenario.parallel_slots;
  in->kv_type = self->scenario.kv_type;
  in->skip_text = FALSE;
}

/* The runtime section's heading: the era, or (@error set) why the runtime
 * model cannot size this model. */
static void
show_runtime_heading (HrExplainPanel            *self,
                      const HrRuntimePrediction *p,
                      const GError              *error)
{
  g_autofree char *heading = NULL;
  g_autofree char *text = NULL;

  if (error != NULL)
    {
      text = g_strdup_printf (_("The runtime model cannot size this model: %s"), error->message);
      self->runtime_era = g_strdup (text);
      show_text (self->rt_heading, _("Runtime"));
      show_text (self->rt_error, text);
      return;
    }
  /* Translators: the explain panel's heading for the runtime model, "Runtime: Ollama 0.30 and newer (llama-server)" */
  heading = g_strdup_printf (_("Runtime: %s"), p->era_label);
  self->runtime_era = g_strdup (p->era_label);
  show_text (self->rt_heading, heading);
  show_text (self->rt_error, NULL);
}

/* Each term's title, formula, note and source (the rows past @p's terms
 * hidden); the titles, one a line, kept in runtime_terms when @ok. */
static void
show_runtime_terms (HrExplainPanel            *self,
                    const HrRuntimePrediction *p,
                    gboolean                   ok)
{
  g_autoptr(GString) terms = g_string_new (NULL);

  for (guint i = 0; i < HR_RUNTIME_N_TERM_KINDS; i++)
    {
      const HrRuntimeTerm *t = i < p->n_terms ? &p->terms[i] : NULL;
      g_autofree char *count = NULL;
      g_autofree char *size = NULL;
      g_autofree char *title = NULL;
      g_autofree char *source = NULL;

      if (t != NULL)
        {
          count = hr_gui_format_count ((guint64) ABS (t->bytes));
          size = hr_gui_format_size_both ((guint64) ABS (t->bytes));
          /* Translators: a runtime term: its name, its exact bytes (signed) and its size */
          title = g_strdup_printf (_("%1$s: %2$s%3$s bytes = %4$s"), t->label,
                                   t->bytes < 0 ? "-" : "", count, size);
          g_string_append_printf (terms, "%s%s", terms->len > 0 ? "\n" : "", title);
          if (t->source != NULL && t->source[0] != '\0')
            /* Translators: where a runtime term's rule comes from */
            source = g_strdup_printf (_("Source: %s"), t->source);
        }
      show_text (self->rt_title[i], title);
      show_text (self->rt_formula[i], t ? t->formula : NULL);
      show_text (self->rt_note[i], t ? t->note : NULL);
      show_text (self->rt_source[i], source);
    }
  if (ok)
    self->runtime_terms = g_string_free (g_steal_pointer (&terms), FALSE);
}

/* The total in exact bytes and size, and (not for llama-server) as
 * `ollama ps` rounds it; hidden when the prediction failed. */
static void
show_runtime_total (HrExplainPanel            *self,
                    const HrRuntimePrediction *p,
                    HrRuntimeEra               era,
                    gboolean                   ok)
{
  if (ok)
    {
      g_autofree char *total_count = hr_gui_format_count (p->total_bytes);
      g_autofree char *total_size = hr_gui_format_size_both (p->total_bytes);
      g_autofree char *ps = hr_runtime_format_ps_size (p->total_bytes);

      if (era == HR_RUNTIME_ERA_LLAMA_SERVER)
        /* llama-server has no `ollama ps`: its buffers are in its log (the per-GPU figures above) */
        self->runtime_total = g_strdup_printf (_("%1$s bytes = %2$s"), total_count, total_size);
      else
        /* Translators: the runtime model's total: exact bytes, size, and as `ollama ps` rounds it */
        self->runtime_total = g_strdup_printf (_("%1$s bytes = %2$s; ollama ps would show %3$s"),
                                               total_count, total_size, ps);
    }
  gtk_widget_set_visible (self->rt_total_heading, ok);
  show_text (self->rt_total, self->runtime_total);
}

/* On a unified board, what stays in host memory and why the footprint
 * counts it. */
static void
show_runtime_host (HrExplainPanel            *self,
                   const HrRuntimePrediction *p,
                   gboolean                   ok)
{
  g_autofree char *host_text = NULL;

  if (ok && self->board != NULL && self->board->unified && p->host_bytes > 0)
    {
      g_autofree char *host = hr_gui_format_size_both (p->host_bytes);

      host_text = g_strdup_printf (_("Also %s stays in host memory (the token embedding), "
                                     "outside the ollama ps size; on this unified board it "
                                     "is the same memory, so the footprint counts it."), host);
    }
  show_text (self->rt_host, host_text);
}

/* The runtime model's prediction for the selected row, every term with
 * its formula, source and note, then its notes and the learned overhead. */
void
_hr_explain_panel_refresh_runtime (HrExplainPanel *self)
{
  HrRuntimeInputs in;
  HrRuntimePrediction *p;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  _hr_explain_panel_clear_runtime_texts (self);
  gtk_widget_set_visible (self->runtime_box, self->has_runtime && self->row != NULL);
  if (!self->has_runtime || self->row == NULL)
    return;

  runtime_inputs (self, &in);
  /* Some 18 KB of text: on the heap, not the stack, and made once (a
   * calloc that large consolidated the allocator's free small chunks on
   * every slider step). hr_runtime_predict() writes each term and note
   * it adds whole. */
  if (self->prediction == NULL)
    self->prediction = g_new0 (HrRuntimePrediction, 1);
  p = self->prediction;
  ok = hr_runtime_predict (&in, p, &error);
  if (ok)
    hr_calibration_apply (&self->calibration, p);
  else
    {
      p->n_terms = 0;
      p->n_notes = 0;
    }
  show_runtime_heading (self, p, error);
  show_runtime_terms (self, p, ok);
  show_runtime_total (self, p, in.era, ok);
  show_runtime_host (self, p, ok);
  for (guint i = 0; i < HR_RUNTIME_MAX_NOTES; i++)
    show_text (self->rt_notes[i], i < p->n_notes ? p->notes[i] : NULL);

  self->runtime_learned = hr_calibration_describe (&self->calibration);
  gtk_widget_set_visible (self->rt_learned_heading, TRUE);
  show_text (self->rt_learned, self->runtime_learned);
}
