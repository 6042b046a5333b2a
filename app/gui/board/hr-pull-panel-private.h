/* hr-pull-panel-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-pull-panel.c and hr-pull-check.c share: the panel's instance
 * structure and the check before a pull. Internal to HrPullPanel.
 */
#pragma once

#include "hr-pull-panel.h"

G_BEGIN_DECLS

struct _HrPullPanel
{
  AdwBin             parent_instance;

  /* template */
  AdwEntryRow       *pull_row;
  GtkSpinButton     *size_spin;
  GtkLabel          *check_label;
  GtkRevealer       *pull_revealer;
  GtkProgressBar    *pull_bar;
  GtkLabel          *pull_status_label;
  GtkLabel          *pull_layer_label;
  GtkLabel          *pull_note_label;

  HrBoardConnection *connection;
  HrSession         *session;
  HrScenario        *scenario;
  GCancellable      *pull_cancellable;
  GCancellable      *lookup_cancellable; /* the Ollama library lookup before the check */
  char              *pull_model;
  char              *check_text;
  char              *pull_note;
  double             pull_fraction;
  gboolean           pulling;
  gboolean           can_pull;
  gboolean           disposed;
};

G_GNUC_INTERNAL
const HrModelSpec *find_spec      (HrPullPanel        *self,
                                   const char         *name);
G_GNUC_INTERNAL
GPtrArray         *refuse         (char              **out_numbers,
                                   char               *reason);
G_GNUC_INTERNAL
GPtrArray         *check_pull     (HrPullPanel        *self,
                                   const char         *model,
                                   const HrModelSpec  *library,
                                   char              **out_numbers);
G_GNUC_INTERNAL
gboolean           add_to_catalog (HrPullPanel        *self,
                                   const HrModelSpec  *spec,
                                   GError            **error);

G_END_DECLS
