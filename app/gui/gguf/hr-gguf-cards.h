/* hr-gguf-cards.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The four fact cards of the File page (hr-gguf-cards.c).
 */
#pragma once

#include <adwaita.h>

#include "hr-gguf.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

GtkWidget *hr_gguf_cards_file      (HrGgufFile        *file,
                                    const char        *blob_digest,
                                    GtkWidget        **digest_row,
                                    GtkProgressBar   **hash_bar);
GtkWidget *hr_gguf_cards_model     (HrGgufFile        *file,
                                    const HrModelSpec *spec);
GtkWidget *hr_gguf_cards_tokenizer (HrGgufFile        *file);
GtkWidget *hr_gguf_cards_tensors   (HrGgufFile        *file,
                                    const HrModelSpec *spec,
                                    const char        *split_problem);

GtkWidget *hr_gguf_cards_projector (const HrModelSpec *spec,
                                    const char        *file,
                                    guint              n_tensors);

G_END_DECLS
