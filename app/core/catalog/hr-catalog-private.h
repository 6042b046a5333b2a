/* hr-catalog-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the catalog file (hr-catalog.c) and the boards file (hr-boards-file.c)
 * share: one entry loader for `{"version": 1, "<member>": [...]}` files,
 * the merge of the user's entries over the built-in ones, and the
 * messages that name the file, line, entry and field.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "hr-json-private.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

/* The one version of catalog.json and boards.json this Headroom reads. */
#define HR_CATALOG_FILE_VERSION 1

/* One kind of entry: its top-level array, its unique key and how to read one. */
typedef struct {
  const char *member;     /* the top-level array */
  const char *key_field;  /* the field that must be unique */
  const char *twice;      /* the message for a repeated key, untranslated */
  gpointer  (*from_object) (HrJsonDoc   *doc,
                            const char  *display_name,
                            JsonArray   *array,
                            guint        index,
                            GError     **error);
  const char *(*key_of) (gconstpointer entry);
  GDestroyNotify free_entry;
} HrCatalogEntryKind;

GPtrArray *_hr_catalog_load_entries        (const char                *data,
                                            gssize                     length,
                                            const char                *display_name,
                                            const HrCatalogEntryKind  *kind,
                                            GError                   **error);
gboolean   _hr_catalog_load_file_contents  (const char                *path,
                                            char                     **out_data,
                                            gsize                     *out_length,
                                            GError                   **error);
void       _hr_catalog_merge_by_key        (GPtrArray                 *into,
                                            GPtrArray                 *overrides,
                                            glong                      key_offset,
                                            GBoxedCopyFunc             copy,
                                            GDestroyNotify             free_entry);
void       _hr_catalog_set_entry_error     (GError                   **error,
                                            HrJsonDoc                 *doc,
                                            const char                *display_name,
                                            JsonArray                 *array,
                                            guint                      index,
                                            JsonObject                *object,
                                            const char                *field,
                                            const char                *name,
                                            const char                *problem);
char      *_hr_catalog_field_of_problem    (const char                *problem);
void       _hr_catalog_add_u64             (JsonBuilder               *builder,
                                            const char                *member,
                                            guint64                    value,
                                            gboolean                   always);
void       _hr_catalog_add_string          (JsonBuilder               *builder,
                                            const char                *member,
                                            const char                *value);
gboolean   _hr_catalog_read_u32_array      (JsonObject                *object,
                                            const char                *member,
                                            guint32                    max,
                                            GArray                   **out,
                                            gsize                      element_size,
                                            char                     **out_problem);
gboolean   _hr_catalog_read_layers         (JsonObject                *object,
                                            HrModelSpec               *spec,
                                            const char               **out_field,
                                            char                     **out_problem);

G_END_DECLS
