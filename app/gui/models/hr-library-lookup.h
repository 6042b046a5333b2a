/* hr-library-lookup.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrLibraryLookup: under the Models page's search, "Look up NAME in the
 * Ollama library" when the search text is an Ollama model name that the
 * catalog lacks. The lookup (HrOllamaRegistry: manifest, config blob, GGUF
 * header, no credential) runs as a GTask, cancelled by new text or the
 * widget's end; the model joins the session's looked-up models
 * (hr_session_add_library_model()) as a row with exact figures, until
 * "Add to Catalog" records it with its provenance
 * "ollama:MODEL:TAG@sha256:…". The helpers below size a looked-up model
 * and describe its provenance, for the explain panel and the Board page's
 * pull check.
 */
#pragma once

#include <adwaita.h>

#include "hr-model-spec.h"
#include "hr-ollama-registry.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_LIBRARY_LOOKUP (hr_library_lookup_get_type ())

G_DECLARE_FINAL_TYPE (HrLibraryLookup, hr_library_lookup, HR, LIBRARY_LOOKUP, AdwBin)

/*
 * Properties (G_PARAM_EXPLICIT_NOTIFY):
 *   "session"  HrSession  read/write  where looked-up models go
 *   "busy"     boolean    read        a lookup is under way
 */

GtkWidget   *hr_library_lookup_new          (HrSession       *session,
                                             GtkEditable     *entry);
void         hr_library_lookup_set_session  (HrLibraryLookup *self,
                                             HrSession       *session);
void         hr_library_lookup_look_up      (HrLibraryLookup *self);
void         hr_library_lookup_add_to_catalog (HrLibraryLookup *self);
gboolean     hr_library_lookup_get_busy     (HrLibraryLookup *self);
HrOllamaRegistry *hr_library_lookup_get_registry (HrLibraryLookup *self);
const char  *hr_library_lookup_get_offer    (HrLibraryLookup *self);
const char  *hr_library_lookup_get_message  (HrLibraryLookup *self);

HrModelSpec *hr_library_lookup_spec         (const HrOllamaLibraryModel *model,
                                             GError                    **error);
char        *hr_library_lookup_describe     (const HrModelSpec          *spec);
gboolean     hr_library_lookup_is_library   (const HrModelSpec          *spec);
GtkWidget   *hr_library_lookup_new_badge    (void);

G_END_DECLS
