/* hr-board-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Board page and its panels say about models, in one place.
 */
#pragma once

#include <glib.h>

#include "hr-model-spec.h"
#include "hr-ollama-api.h"

G_BEGIN_DECLS

char *hr_board_format_added  (const HrModelSpec *spec);
char *hr_board_format_frees  (GPtrArray         *models,
                              const char        *name);
char *hr_board_format_parameter_size (const char *parameter_size);

G_END_DECLS
