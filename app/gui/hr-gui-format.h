/* hr-gui-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How the window words its figures: sizes in GB or GiB (the "units"
 * preference), counts and rates (hr-gui-format.c), and verdicts with their
 * margin, rate sources and speeds (hr-gui-evaluation-text.c). The numbers
 * themselves come from app/core; these files only print them.
 */
#pragma once

#include <adwaita.h>

#include "hr-board.h"
#include "hr-evaluate.h"
#include "hr-memory.h"
#include "hr-rates.h"
#include "hr-units.h"

G_BEGIN_DECLS

/**
 * HR_GUI_ONCE:
 * @translated: a call that translates a literal string (the `_` macro)
 *
 * @translated looked up the first time this line runs and kept: glibc's
 * gettext() searches the text domain's catalogs for the locale on every
 * call (about a microsecond), and a slider step formats hundreds of sizes
 * and verdicts. The catalog does not change while the app runs. For the
 * main thread's formatting (the table's cells, the explain panel) only.
 * The literal stays in the call to the `_` macro, so xgettext still
 * finds it.
 */
#define HR_GUI_ONCE(translated) \
  (__extension__ ({ static const char *hr_gui_once_; \
                    if (G_UNLIKELY (hr_gui_once_ == NULL)) \
                      hr_gui_once_ = (translated); \
                    hr_gui_once_; }))

char       *hr_gui_format_size          (guint64       bytes,
                                         HrUnit        unit);
char       *hr_gui_format_size_both     (guint64       bytes);
char       *hr_gui_format_size_both_fixed (guint64     bytes);
char       *hr_gui_format_size_fixed    (guint64       bytes,
                                         HrUnit        unit);
char        *hr_gui_format_size_both_units (guint64 bytes,
                                           HrUnit  unit);
char       *hr_gui_format_decimal       (double        value,
                                         int           decimals);
char       *hr_gui_format_count         (guint64       count);
char       *hr_gui_format_plain         (double        value);
char       *hr_gui_format_parameters    (guint64       parameters);
char       *hr_gui_format_bits          (double        bits);
char       *hr_gui_format_verdict       (HrVerdict     verdict,
                                         guint64       margin_bytes,
                                         HrUnit        unit);
char       *hr_gui_format_partial_pill (const HrEvaluation *e);
char       *hr_gui_format_verdict_sentence (HrVerdict  verdict,
                                         guint64       margin_bytes,
                                         HrUnit        unit);
char       *hr_gui_format_devices_split (const HrEvaluation *e);
char       *hr_gui_format_evaluation_verdict  (const HrEvaluation *e,
                                               HrUnit              unit);
char       *hr_gui_format_evaluation_sentence (const HrEvaluation *e,
                                               HrUnit              unit);
char       *hr_gui_format_evaluation_tps      (const HrEvaluation *e);
const char *hr_gui_format_evaluation_source  (const HrEvaluation *e);
gboolean    hr_gui_evaluation_has_rate        (const HrEvaluation *e);
const char *hr_gui_verdict_label        (HrVerdict     verdict);
const char *hr_gui_verdict_css_class    (HrVerdict     verdict);
const char *hr_gui_rate_source_label    (HrRateSource  source);
const char *hr_gui_speed_label          (HrSpeed       speed);
const char *hr_gui_kv_cache_type_label  (HrKvCacheType type);
char       *hr_gui_format_context       (guint32       tokens);
char       *hr_gui_kv_fallback_note     (HrKvCacheType asked,
                                         HrKvCacheType used);
char       *hr_gui_format_tps           (double        tps);
char       *hr_gui_format_ollama_tps    (double        tps);
char       *hr_gui_format_ollama_ms     (gint64        duration_ns);
char       *hr_gui_format_ollama_size   (guint64       bytes);
const char *hr_gui_unit_label           (HrUnit        unit);

G_END_DECLS
