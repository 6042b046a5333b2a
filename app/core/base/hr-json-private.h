/* hr-json-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading typed members out of untrusted JSON, with line numbers for the
 * messages. Private to app/core.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _HrJsonDoc HrJsonDoc;

HrJsonDoc *_hr_json_doc_parse      (const char  *data,
                                    gssize       length,
                                    const char  *display_name,
                                    GError     **error);
void       _hr_json_doc_free       (HrJsonDoc   *doc);
JsonNode  *_hr_json_doc_root       (HrJsonDoc   *doc);
guint      _hr_json_doc_member_line (HrJsonDoc  *doc,
                                     JsonObject *object,
                                     const char *member);
guint      _hr_json_doc_element_line (HrJsonDoc  *doc,
                                      JsonArray  *array,
                                      guint       index);

gboolean   _hr_json_get_u64        (JsonObject  *object,
                                    const char  *member,
                                    gboolean     required,
                                    guint64      max,
                                    guint64     *out,
                                    char       **out_problem);
gboolean   _hr_json_get_u32        (JsonObject  *object,
                                    const char  *member,
                                    gboolean     required,
                                    guint32      max,
                                    guint32     *out,
                                    char       **out_problem);
gboolean   _hr_json_get_double     (JsonObject  *object,
                                    const char  *member,
                                    gboolean     required,
                                    double      *out,
                                    char       **out_problem);
gboolean   _hr_json_get_string     (JsonObject  *object,
                                    const char  *member,
                                    gboolean     required,
                                    char       **out,
                                    char       **out_problem);
gboolean   _hr_json_get_bool       (JsonObject  *object,
                                    const char  *member,
                                    gboolean    *out,
                                    char       **out_problem);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrJsonDoc, _hr_json_doc_free)

G_END_DECLS
