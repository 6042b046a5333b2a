/* hr-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-error.h"
#include "hr-json.h"
#include "hr-json-private.h"
#include "hr-units.h"

struct _HrJsonDoc {
  JsonParser *parser;
  GHashTable *member_lines;  /* "%p/name" -> line */
  GHashTable *element_lines; /* "%p#index" -> line */
};

static void
on_object_member (JsonParser *parser,
                  JsonObject *object,
                  const char *member_name,
                  HrJsonDoc  *doc)
{
  g_hash_table_insert (doc->member_lines,
                       g_strdup_printf ("%p/%s", (gpointer) object, member_name),
                       GUINT_TO_POINTER (json_parser_get_current_line (parser)));
}

static void
on_array_element (JsonParser *parser,
                  JsonArray  *array,
                  gint        index,
                  HrJsonDoc  *doc)
{
  g_hash_table_insert (doc->element_lines,
                       g_strdup_printf ("%p#%d", (gpointer) array, index),
                       GUINT_TO_POINTER (json_parser_get_current_line (parser)));
}

/* Parses JSON and remembers the line each member and array element ended
 * on, so a message can say where a bad field is. Errors: HR_CORE_ERROR_PARSE
 * with json-glib's own position ("line:column: ..."), prefixed by the name. */
HrJsonDoc *
_hr_json_doc_parse (const char  *data,
                    gssize       length,
                    const char  *display_name,
                    GError     **error)
{
  g_autoptr(HrJsonDoc) doc = g_new0 (HrJsonDoc, 1);
  g_autoptr(GError) local_error = NULL;

  doc->parser = json_parser_new_immutable ();
  doc->member_lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  doc->element_lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_connect (doc->parser, "object-member", G_CALLBACK (on_object_member), doc);
  g_signal_connect (doc->parser, "array-element", G_CALLBACK (on_array_element), doc);

  if (!json_parser_load_from_data (doc->parser, data, length, &local_error))
    {
      const char *message = local_error->message;
      guint line = 0, column = 0;
      int consumed = 0;

      /* json-glib says "<data>:LINE:COLUMN: Parse error: ..."; say it with
       * the file's own name instead. */
      if (sscanf (message, "<data>:%u:%u: %n", &line, &column, &consumed) == 2 && consumed > 0)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                     _("%s: line %u, column %u: not valid JSON: %s"), display_name, line, column, message + consumed);
      else
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                     _("%s: not valid JSON: %s"), display_name, message);
      return NULL;
    }
  g_signal_handlers_disconnect_by_data (doc->parser, doc);

  if (json_parser_get_root (doc->parser) == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("%s: the file is empty"), display_name);
      return NULL;
    }
  return g_steal_pointer (&doc);
}

void
_hr_json_doc_free (HrJsonDoc *doc)
{
  if (doc == NULL)
    return;
  if (doc->parser != NULL)
    g_signal_handlers_disconnect_by_data (doc->parser, doc);
  g_clear_object (&doc->parser);
  g_clear_pointer (&doc->member_lines, g_hash_table_unref);
  g_clear_pointer (&doc->element_lines, g_hash_table_unref);
  g_free (doc);
}

JsonNode *
_hr_json_doc_root (HrJsonDoc *doc)
{
  return json_parser_get_root (doc->parser);
}

guint
_hr_json_doc_member_line (HrJsonDoc  *doc,
                          JsonObject *object,
                          const char *member)
{
  g_autofree char *key = g_strdup_printf ("%p/%s", (gpointer) object, member);
  return GPOINTER_TO_UINT (g_hash_table_lookup (doc->member_lines, key));
}

guint
_hr_json_doc_element_line (HrJsonDoc  *doc,
                           JsonArray  *array,
                           guint       index)
{
  g_autofree char *key = g_strdup_printf ("%p#%u", (gpointer) array, index);
  return GPOINTER_TO_UINT (g_hash_table_lookup (doc->element_lines, key));
}

static JsonNode *
get_member (JsonObject  *object,
            const char  *member,
            gboolean     required,
            char       **out_problem)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        *out_problem = g_strdup_printf (_("field \"%s\" is missing"), member);
      return NULL;
    }
  return node;
}

/* Reads a whole number; accepts a JSON integer or a double with no
 * fraction (large byte counts may arrive as doubles). FALSE with a problem
 * text when missing-and-required, mistyped, negative, fractional or > max. */
gboolean
_hr_json_get_u64 (JsonObject  *object,
                  const char  *member,
                  gboolean     required,
                  guint64      max,
                  guint64     *out,
                  char       **out_problem)
{
  JsonNode *node = get_member (object, member, required, out_problem);
  GType type;

  if (node == NULL)
    return !required;

  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);
      if (v < 0)
        {
          /* json-glib reads an integer of 2^63 or more as a negative one
           * (2^64 and beyond as -1), so a negative value may be either. */
          g_autofree char *limit = hr_format_count (max);

          *out_problem = g_strdup_printf (_("field \"%s\" is negative or too large: it must be a whole number from 0 to %s"),
                                          member, limit);
          return FALSE;
        }
      if ((guint64) v > max)
        {
          *out_problem = g_strdup_printf (_("field \"%s\" is %" PRId64 ", more than the largest plausible value %" PRIu64), member, v, max);
          return FALSE;
        }
      *out = (guint64) v;
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);
      if (!isfinite (v) || v != floor (v))
        {
          *out_problem = g_strdup_printf (_("field \"%s\" must be a whole number"), member);
          return FALSE;
        }
      if (v < 0)
        {
          *out_problem = g_strdup_printf (_("field \"%s\" must not be negative"), member);
          return FALSE;
        }
      if (v > (double) max)
        {
          *out_problem = g_strdup_printf (_("field \"%s\" is more than the largest plausible value %" PRIu64), member, max);
          return FALSE;
        }
      *out = (guint64) v;
      return TRUE;
    }

  *out_problem = g_strdup_printf (_("field \"%s\" must be a number"), member);
  return FALSE;
}

gboolean
_hr_json_get_u32 (JsonObject  *object,
                  const char  *member,
                  gboolean     required,
                  guint32      max,
                  guint32     *out,
                  char       **out_problem)
{
  guint64 v = *out;

  if (!_hr_json_get_u64 (object, member, required, max, &v, out_problem))
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

gboolean
_hr_json_get_double (JsonObject  *object,
                     const char  *member,
                     gboolean     required,
                     double      *out,
                     char       **out_problem)
{
  JsonNode *node = get_member (object, member, required, out_problem);
  GType type;

  if (node == NULL)
    return !required;

  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);
      if (!isfinite (v))
        {
          *out_problem = g_strdup_printf (_("field \"%s\" must be a finite number"), member);
          return FALSE;
        }
      *out = v;
      return TRUE;
    }

  *out_problem = g_strdup_printf (_("field \"%s\" must be a number"), member);
  return FALSE;
}

gboolean
_hr_json_get_string (JsonObject  *object,
                     const char  *member,
                     gboolean     required,
                     char       **out,
                     char       **out_problem)
{
  JsonNode *node = get_member (object, member, required, out_problem);

  if (node == NULL)
    return !required;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      *out_problem = g_strdup_printf (_("field \"%s\" must be a string"), member);
      return FALSE;
    }
  if (required && json_node_get_string (node)[0] == '\0')
    {
      *out_problem = g_strdup_printf (_("field \"%s\" is empty"), member);
      return FALSE;
    }
  g_free (*out);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

gboolean
_hr_json_get_bool (JsonObject  *object,
                   const char  *member,
                   gboolean    *out,
                   char       **out_problem)
{
  JsonNode *node = get_member (object, member, FALSE, out_problem);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      *out_problem = g_strdup_printf (_("field \"%s\" must be true or false"), member);
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Typed reads of untrusted JSON (hr-json.h)                                */

/**
 * hr_json_member:
 * @object: (nullable): a JSON object
 * @member: a member name
 *
 * Returns: (nullable) (transfer none): the member, or %NULL when @object
 *   is %NULL or the member is absent or `null`.
 */
JsonNode *
hr_json_member (JsonObject *object,
                const char *member)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;
  node = json_object_get_member (object, member);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

/**
 * hr_json_string:
 * @object: (nullable): a JSON object
 * @member: a member name
 *
 * Returns: (nullable) (transfer none): the string, or %NULL when @member is
 *   absent, `null` or not a string.
 */
const char *
hr_json_string (JsonObject *object,
                const char *member)
{
  JsonNode *node = hr_json_member (object, member);

  /* The _with_default getter asserts a value node; for one it gives NULL
   * unless the value is a string. */
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  return json_object_get_string_member_with_default (object, member, NULL);
}

/**
 * hr_json_bool:
 * @object: (nullable): a JSON object
 * @member: a member name
 * @default_value: what an absent or non-boolean member reads as
 *
 * Returns: the boolean, only when @member is `true` or `false` (a number
 *   is not a boolean here, as json-glib's getter would make it).
 */
gboolean
hr_json_bool (JsonObject *object,
              const char *member,
              gboolean    default_value)
{
  JsonNode *node = hr_json_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return default_value;
  return json_node_get_boolean (node);
}

/**
 * hr_json_object:
 * @object: (nullable): a JSON object
 * @member: a member name
 *
 * Returns: (nullable) (transfer none): the member when it is an object.
 */
JsonObject *
hr_json_object (JsonObject *object,
                const char *member)
{
  JsonNode *node = hr_json_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * hr_json_array:
 * @object: (nullable): a JSON object
 * @member: a member name
 *
 * Returns: (nullable) (transfer none): the member when it is an array.
 */
JsonArray *
hr_json_array (JsonObject *object,
               const char *member)
{
  JsonNode *node = hr_json_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/**
 * hr_json_node_u64:
 * @node: (nullable): a JSON node from an untrusted document
 * @max: the largest value accepted
 * @out: (out): the value
 *
 * Reads a count or a byte count. json-glib gives integers as gint64 and
 * large or formatted ones (`6.0e9`, past 2^63) as doubles; both are
 * accepted when whole, not negative, below 2^64 and at most @max. Past
 * 2^53 a double is the nearest one the sender's number rounds to.
 *
 * Returns: %TRUE when @node holds such a number.
 */
gboolean
hr_json_node_u64 (JsonNode *node,
                  guint64   max,
                  guint64  *out)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);

      if (v < 0 || (guint64) v > max)
        return FALSE;
      *out = (guint64) v;
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);

      /* 18446744073709551616.0 is 2^64: at or past it nothing fits. */
      if (!(v >= 0.0 && v < 18446744073709551616.0) || v != floor (v) || (guint64) v > max)
        return FALSE;
      *out = (guint64) v;
      return TRUE;
    }
  return FALSE;
}

/**
 * hr_json_u64:
 * @object: (nullable): a JSON object
 * @member: a member name
 * @max: the largest value accepted
 * @out: (out): the value
 *
 * Returns: %TRUE when @member holds a whole, non-negative number of at
 *   most @max (see hr_json_node_u64()); %FALSE when it is absent or not
 *   such a number.
 */
gboolean
hr_json_u64 (JsonObject *object,
             const char *member,
             guint64     max,
             guint64    *out)
{
  return hr_json_node_u64 (hr_json_member (object, member), max, out);
}

/**
 * hr_json_safe_text:
 * @text: (nullable): text from outside (a server's version, status or error)
 * @length: its bytes, or -1 when NUL-terminated
 * @max_chars: characters kept at most (> 0)
 *
 * Makes text from outside safe to print, show or save: invalid UTF-8 is
 * replaced, control characters (C0, DEL and C1, which carry terminal escape
 * sequences) are written as `\n`, `\t` or `\xNN`, and a text longer than
 * @max_chars characters is cut there with an ellipsis. At most
 * 4 x @max_chars + 8 bytes of @text are read, so a 50 MiB text costs no more
 * than a short one.
 *
 * Returns: (transfer full): the safe text ("" for %NULL).
 */
char *
hr_json_safe_text (const char *text,
                   gssize      length,
                   guint       max_chars)
{
  g_autofree char *valid = NULL;
  GString *out;
  gsize size;
  gsize window = (gsize) max_chars * 4 + 8;
  guint chars = 0;

  if (text == NULL)
    return g_strdup ("");
  size = length < 0 ? strnlen (text, window + 1) : (gsize) length;
  valid = g_utf8_make_valid (text, (gssize) MIN (size, window));
  out = g_string_new (NULL);
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (chars == max_chars)
        {
          g_string_append (out, "\u2026");
          return g_string_free (out, FALSE);
        }
      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_unichar (out, c);
      chars++;
    }
  if (size > window)
    g_string_append (out, "\u2026");
  return g_string_free (out, FALSE);
}

/**
 * hr_json_parse_object:
 * @parser: a parser; the returned object is its root's, valid while it lives
 * @data: (array length=length): the document
 * @length: its bytes
 * @display_name: the file's name for messages ("config.json")
 * @error: return location for a #GError
 *
 * Parses a document that must be one JSON object.
 *
 * Returns: (nullable) (transfer none): the root object, or %NULL with
 *   %HR_CORE_ERROR_PARSE when @data is empty, holds a NUL byte, is not
 *   JSON, or is not an object.
 */
JsonObject *
hr_json_parse_object (JsonParser  *parser,
                      const char  *data,
                      gsize        length,
                      const char  *display_name,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (data == NULL || length == 0 || length > G_MAXSSIZE || memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("%s is empty or not text"), display_name);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("%s is not valid JSON: %s"), display_name, local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("%s is not a JSON object"), display_name);
      return NULL;
    }
  return json_node_get_object (root);
}
