/* hr-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "hr-error.h"
#include "hr-json-private.h"

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
          *out_problem = g_strdup_printf (_("field \"%s\" must not be negative"), member);
          return FALSE;
        }
      if ((guint64) v > max)
        {
          *out_problem = g_strdup_printf (_("field \"%s\" is %" G_GINT64_FORMAT ", more than the largest plausible value %" G_GUINT64_FORMAT), member, v, max);
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
          *out_problem = g_strdup_printf (_("field \"%s\" is more than the largest plausible value %" G_GUINT64_FORMAT), member, max);
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
