/* hr-cli-ollama.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the `headroom-cli ollama` commands share: their options, and a wait
 * on the main loop for one async answer that Ctrl-C can cancel.
 */
#pragma once

#include <gio/gio.h>

#include "hr-ollama-client.h"

G_BEGIN_DECLS

/* `ollama`'s options, as hr_cli_cmd_ollama() parses them. */
typedef struct {
  char     *host;
  gboolean  json;
  gboolean  all;
  gboolean  force;
  char     *contexts_text;
  char     *runs_text;
  char     *num_predict_text;
  char     *board;
  char     *measurements;
  char     *size_text;
  char     *timeout_text;
} OllamaOptions;

void hr_cli_ollama_options_clear (OllamaOptions *o);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (OllamaOptions, hr_cli_ollama_options_clear)

/* Runs the main loop until an async call has answered. */
typedef struct {
  GMainLoop    *loop;
  GAsyncResult *result;
} HrCliWaiter;

void          hr_cli_waiter_init      (HrCliWaiter  *w);
void          hr_cli_waiter_clear     (HrCliWaiter  *w);
void          hr_cli_waiter_on_answer (GObject      *source,
                                       GAsyncResult *result,
                                       gpointer      user_data);
GAsyncResult *hr_cli_waiter_wait      (HrCliWaiter  *w);
gboolean      hr_cli_on_sigint        (gpointer      cancellable);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrCliWaiter, hr_cli_waiter_clear)

int hr_cli_ollama_measure (HrOllamaClient *client,
                           OllamaOptions  *o,
                           const char     *model);

G_END_DECLS
