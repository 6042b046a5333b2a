/* hr-json.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one set of typed reads of untrusted JSON, for app/core, app/net and
 * app/cli: a member of the wrong type reads as absent and never raises a
 * critical (json-glib's own getters, `*_with_default` included, raise one
 * for a member that is an object or an array), and counts may arrive as
 * doubles. The readers that report problems with line numbers, for the
 * files Headroom keeps, are in hr-json-private.h.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/** HR_JSON_SAFE_SHORT: characters kept of a short text from outside (a version, a status). */
#define HR_JSON_SAFE_SHORT 80
/** HR_JSON_SAFE_LONG: characters kept of a longer one (an error text). */
#define HR_JSON_SAFE_LONG  400

JsonNode   *hr_json_member       (JsonObject  *object,
                                  const char  *member);
const char *hr_json_string       (JsonObject  *object,
                                  const char  *member);
gboolean    hr_json_bool         (JsonObject  *object,
                                  const char  *member,
                                  gboolean     default_value);
JsonObject *hr_json_object       (JsonObject  *object,
                                  const char  *member);
JsonArray  *hr_json_array        (JsonObject  *object,
                                  const char  *member);
gboolean    hr_json_node_u64     (JsonNode    *node,
                                  guint64      max,
                                  guint64     *out);
gboolean    hr_json_u64          (JsonObject  *object,
                                  const char  *member,
                                  guint64      max,
                                  guint64     *out);
char       *hr_json_safe_text    (const char  *text,
                                  gssize       length,
                                  guint        max_chars);
JsonObject *hr_json_parse_object (JsonParser  *parser,
                                  const char  *data,
                                  gsize        length,
                                  const char  *display_name,
                                  GError     **error);

G_END_DECLS
