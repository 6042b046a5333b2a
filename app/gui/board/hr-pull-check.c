/* hr-pull-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pull panel's check before a pull, against the catalog and the shared
 * scenario: the catalog's model of a name, the pull check's reasons to
 * refuse and the numbers they were checked against, and adding a model the
 * library sized to the catalog. The panel itself is hr-pull-panel.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-evaluate.h"
#include "hr-board-format.h"
#include "hr-error.h"
#include "hr-gui-format.h"
#include "models/hr-library-lookup.h"
#include "hr-net-error.h"
#include "hr-ollama-host.h"
#include "hr-pull-panel-private.h"
#include "hr-window-private.h"
#include "hr-pull-progress.h"
#include "hr-units.h"

/* The catalog's model of that name, with or without the ":latest" tag. */
const HrModelSpec *
find_spec (HrPullPanel *self,
           const char  *name)
{
  const HrModelSpec *spec;

  if (self->session == NULL || name == NULL)
    return NULL;
  spec = hr_session_find_model (self->session, name);
  if (spec == NULL && g_str_has_suffix (name, ":latest"))
    {
      g_autofree char *bare = g_strndup (name, strlen (name) - strlen (":latest"));
      spec = hr_session_find_model (self->session, bare);
    }
  else if (spec == NULL && strrchr (name, ':') == NULL)
    {
      g_autofree char *tagged = g_strconcat (name, ":latest", NULL);
      spec = hr_session_find_model (self->session, tagged);
    }
  return spec;
}

GPtrArray *
refuse (char      **out_numbers,
        char       *reason)
{
  GPtrArray *reasons = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (reasons, reason);
  *out_numbers = NULL;
  return reasons;
}

/* The pull check (hr_pull_check(), docs/seed-figures.md
 * "Checking a pull") under the shared scenario, with its numbers: of the catalog's
 * model, else of @library (sized from the Ollama library), else of the
 * size typed. Returns the reasons to refuse; *out_numbers says what they
 * were checked against. */
GPtrArray *
check_pull (HrPullPanel       *self,
            const char        *model,
            const HrModelSpec *library,
            char             **out_numbers)
{
  const HrBoard *board = self->scenario != NULL ? hr_scenario_get_board (self->scenario) : NULL;
  const HrModelSpec *spec = find_spec (self, model) != NULL ? find_spec (self, model) : library;
  g_autoptr(HrModelSpec) own = NULL;
  HrEvaluationInputs inputs;
  HrEvaluation evaluation;
  GPtrArray *reasons;
  g_autofree char *total = NULL;
  g_autofree char *budget = NULL;
  g_autofree char *headroom = NULL;
  g_autofree char *tps = NULL;
  g_autofree char *floor_tps = NULL;
  double size_gb;

  if (board == NULL)
    return refuse (out_numbers, g_strdup (_("there is no board on the Models page to check the pull against")));
  hr_scenario_get_evaluation_inputs (self->scenario, &inputs);

  if (spec != NULL)
    {
      hr_scenario_evaluate (self->scenario, spec, &evaluation);
    }
  else
    {
      size_gb = gtk_spin_button_get_value (self->size_spin);
      if (size_gb <= 0.0)
        return refuse (out_numbers,
                       g_strdup_printf (_("%s is not in the catalog: give its download size in GB so the pull check can work"),
                                        model));
      own = hr_model_spec_new (model);
      own->file_bytes = (guint64) (size_gb * 1e9 + 0.5);
      hr_model_spec_set_source (own, HR_SPEC_FIELD_FILE_BYTES, "the download size given on the Board page");
      hr_evaluate (&inputs, own, 0.0, 0, &evaluation);
      spec = own;
    }

  reasons = hr_pull_check (spec, &evaluation, inputs.floor_tps);

  total = hr_gui_format_size (evaluation.footprint.total, HR_UNIT_GB);
  budget = hr_gui_format_size (hr_board_budget_bytes (board), HR_UNIT_GB);
  headroom = hr_gui_format_size (hr_board_headroom_bytes (board), HR_UNIT_GB);
  tps = hr_gui_format_decimal (evaluation.tps, 1);
  floor_tps = hr_gui_format_decimal (inputs.floor_tps, 1);
  /* Translators: the pull check's figures: model, its memory at num_ctx, the board's name,
   * budget and headroom, its decode rate, the rate's source, and the board's floor */
  if (evaluation.split && evaluation.host_bytes > 0 &&
      (evaluation.verdict == HR_VERDICT_PARTIAL || evaluation.verdict == HR_VERDICT_OVER))
    {
      /* Split between the GPU and host memory: the two figures the
       * explain panel and the pool chart show (each rounded on its own,
       * so no sum of them is printed beside them). */
      g_autofree char *vram = hr_gui_format_size (evaluation.vram_bytes, HR_UNIT_GB);
      g_autofree char *host = hr_gui_format_size (evaluation.host_bytes, HR_UNIT_GB);

      /* Translators: the pull check's figures for a model split between the GPU and host
       * memory: model, the board, on the GPU, in host memory, the GPU's budget and
       * headroom, its decode rate, the rate's source, and the board's floor */
      *out_numbers = g_strdup_printf (_("On %1$s, %2$s needs %3$s on the GPU and %4$s in host memory; the GPU's budget is %5$s and headroom %6$s; it decodes at %7$s t/s (%8$s) against a floor of %9$s t/s."),
                                      board->name, spec->name, vram, host, budget, headroom, tps,
                                      hr_gui_rate_source_label (evaluation.source), floor_tps);
    }
  else
    *out_numbers = g_strdup_printf (_("%1$s needs %2$s on %3$s, whose budget is %4$s and headroom %5$s; it decodes at %6$s t/s (%7$s) against a floor of %8$s t/s."),
                                    spec->name, total, board->name, budget, headroom, tps,
                                    hr_gui_rate_source_label (evaluation.source), floor_tps);
  /* A board without measurements: the rate is its kind's prior, said once
   * with what to do, as `headroom-cli check` says it (hr-cli-split.c). */
  if (evaluation.source == HR_RATE_SOURCE_PRIOR && inputs.fit.n_points == 0)
    {
      g_autofree char *eff = hr_gui_format_decimal (inputs.prior_efficiency, 2);
      g_autofree char *numbers = g_steal_pointer (out_numbers);

      /* Translators: the first %s is the pull check's figures, the second the
       * board's name, the third the efficiency, the fourth a hardware kind
       * ("discrete-nvidia") */
      *out_numbers = g_strdup_printf (_("%s\nThe rates on %s are predicted, not measured: efficiency %s, the mean of published runs on %s hardware (data/priors.json). Measure one model on it (Measure, under Models on the Board) and its rates rest on its own measurements."),
                                      numbers, board->name, eff,
                                      hr_hardware_kind_to_string (hr_board_hardware_kind (board)));
    }
  return reasons;
}

gboolean
add_to_catalog (HrPullPanel        *self,
                const HrModelSpec  *spec,
                GError            **error)
{
  if (self->session == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there is no catalog to add it to"));
      return FALSE;
    }
  return hr_session_add_model (self->session, spec, error);
}
