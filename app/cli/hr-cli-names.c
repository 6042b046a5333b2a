/* hr-cli-names.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Models and boards by name, for every command: the width of a table's
 * name column, the closest catalog name to a mistyped one (edit
 * distance), the usage error for an unknown model or board, and the
 * --models and --boards lists read into the entries they name.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-error.h"

/**
 * hr_cli_name_width:
 * @specs: (element-type HrModelSpec): the models a table prints, one a row
 * @min_width: the column's width before any name is longer (14, the
 *   seed's tables')
 *
 * The width of a table's model-name column: @min_width, or the longest
 * name in @specs plus one space, so that a long name ("mistral-nemo:12b")
 * keeps its row in line and apart from the next column. Names are counted
 * in bytes, as printf's "%-*s" pads them.
 *
 * Returns: the width in characters, at least @min_width.
 */
int
hr_cli_name_width (GPtrArray *specs,
                   int        min_width)
{
  int width = min_width;

  for (guint i = 0; i < specs->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (specs, i);

      width = MAX (width, (int) MIN (strlen (spec->name), 1000) + 1);
    }
  return width;
}

/* Levenshtein distance between two strings of characters, or @limit + 1
 * once it is past @limit (the rows are cut short there). */
static guint
edit_distance (const gunichar *a,
               glong           na,
               const gunichar *b,
               glong           nb,
               guint           limit)
{
  g_autofree guint *prev = NULL, *cur = NULL;
  guint result;

  if ((guint) ABS (na - nb) > limit)
    return limit + 1;
  prev = g_new (guint, nb + 1);
  cur = g_new (guint, nb + 1);
  for (glong j = 0; j <= nb; j++)
    prev[j] = (guint) j;
  for (glong i = 1; i <= na; i++)
    {
      guint row_min;

      cur[0] = (guint) i;
      row_min = cur[0];
      for (glong j = 1; j <= nb; j++)
        {
          guint cost = a[i - 1] == b[j - 1] ? 0 : 1;

          cur[j] = MIN (MIN (prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
          row_min = MIN (row_min, cur[j]);
        }
      if (row_min > limit)
        return limit + 1;
      memcpy (prev, cur, (gsize) (nb + 1) * sizeof (guint));
    }
  result = prev[nb];
  return MIN (result, limit + 1);
}

/**
 * hr_cli_suggest_model:
 * @catalog: (element-type HrModelSpec): the catalog
 * @name: a model name that is not in it
 *
 * The catalog name @name most likely meant: one that differs only in case
 * ("Llama3.2:3B"), else the nearest within two edits (Levenshtein distance
 * on the case-folded names: "lama3.2:3b", "qwen2.5-14b"), the first in
 * catalog order on a tie.
 *
 * Returns: (transfer none) (nullable): that name, or %NULL when none is
 *   that close.
 */
const char *
hr_cli_suggest_model (GPtrArray  *catalog,
                      const char *name)
{
  g_autofree char *folded = NULL;
  g_autofree gunichar *chars = NULL;
  const char *best = NULL;
  guint best_distance = 3;
  glong n = 0;

  if (!g_utf8_validate (name, -1, NULL) || strlen (name) > 256)
    return NULL;
  folded = g_utf8_casefold (name, -1);
  chars = g_utf8_to_ucs4_fast (folded, -1, &n);
  for (guint i = 0; i < catalog->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (catalog, i);
      g_autofree char *other = NULL;
      g_autofree gunichar *other_chars = NULL;
      glong m = 0;
      guint d;

      if (!g_utf8_validate (spec->name, -1, NULL))
        continue;
      other = g_utf8_casefold (spec->name, -1);
      if (g_str_equal (folded, other))
        return spec->name;
      other_chars = g_utf8_to_ucs4_fast (other, -1, &m);
      d = edit_distance (chars, n, other_chars, m, 2);
      if (d < best_distance)
        {
          best_distance = d;
          best = spec->name;
        }
    }
  return best;
}

/**
 * hr_cli_unknown_model:
 * @catalog: (element-type HrModelSpec): the catalog
 * @name: a model name that is not in it
 *
 * The usage error for a model name the catalog does not have: the name,
 * the nearest catalog name when one is close (hr_cli_suggest_model()) and
 * how to list them all.
 *
 * Returns: %HR_CLI_EXIT_USAGE (2).
 */
int
hr_cli_unknown_model (GPtrArray  *catalog,
                      const char *name)
{
  const char *suggestion = hr_cli_suggest_model (catalog, name);

  if (suggestion != NULL)
    /* Translators: the name typed, then the catalog's name nearest to it */
    return hr_cli_usage_error (_("\"%s\" is not in the catalog (did you mean %s?); run \"headroom-cli catalog\" to see the names"),
                               name, suggestion);
  return hr_cli_usage_error (_("\"%s\" is not in the catalog; run \"headroom-cli catalog\" to see the names"), name);
}

/* Splits a comma-separated --models or --boards list, each name stripped;
 * NULL after a usage error when it is empty or has an empty name. */
static GStrv
split_list (const char *option,
            const char *text)
{
  g_auto(GStrv) names = g_strsplit (text, ",", -1);
  guint empty = 0, n = 0;

  for (; names[n] != NULL; n++)
    if (*g_strstrip (names[n]) == '\0')
      empty++;
  if (empty == n)
    {
      /* Translators: %s is the option, --models or --boards */
      hr_cli_usage_error (_("%s needs at least one name, comma-separated"), option);
      return NULL;
    }
  if (empty > 0)
    {
      /* Translators: the option (--models or --boards), then what was given */
      hr_cli_usage_error (_("%s has an empty name in \"%s\" (two commas, or one at an end)"), option, text);
      return NULL;
    }
  return g_steal_pointer (&names);
}

/**
 * hr_cli_select_models:
 * @catalog: (element-type HrModelSpec): the catalog
 * @models_text: (nullable): --models, comma-separated names; %NULL for all
 * @rows: (element-type HrModelSpec): where the rows go, borrowed from
 *   @catalog: the whole catalog, or the names in their order
 *
 * The models a table prints. An empty list, an empty name ("a,,b") or a
 * name not in the catalog (hr_cli_unknown_model()) is a usage error,
 * printed.
 *
 * Returns: %TRUE; %FALSE after printing the usage error.
 */
gboolean
hr_cli_select_models (GPtrArray  *catalog,
                      const char *models_text,
                      GPtrArray  *rows)
{
  g_auto(GStrv) names = NULL;

  if (models_text == NULL)
    {
      for (guint i = 0; i < catalog->len; i++)
        g_ptr_array_add (rows, g_ptr_array_index (catalog, i));
      return TRUE;
    }
  names = split_list ("--models", models_text);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; names[i] != NULL; i++)
    {
      HrModelSpec *spec = hr_catalog_find (catalog, names[i]);

      if (spec == NULL)
        {
          hr_cli_unknown_model (catalog, names[i]);
          return FALSE;
        }
      g_ptr_array_add (rows, spec);
    }
  return TRUE;
}

/**
 * hr_cli_set_unknown_board:
 * @error: return location for a #GError
 * @boards: (element-type HrBoard): the boards
 * @name: the name that matched none
 *
 * Sets %HR_CORE_ERROR_NOT_FOUND: "unknown board "X"; the boards are: a, b, c".
 */
void
hr_cli_set_unknown_board (GError    **error,
                          GPtrArray  *boards,
                          const char *name)
{
  g_autoptr(GString) ids = g_string_new (NULL);

  for (guint i = 0; i < boards->len; i++)
    g_string_append_printf (ids, "%s%s", i ? ", " : "", ((HrBoard *) g_ptr_array_index (boards, i))->id);
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
               _("unknown board \"%s\"; the boards are: %s"), name, ids->str);
}

/**
 * hr_cli_select_boards:
 * @boards: (element-type HrBoard): the boards
 * @boards_text: (nullable): --boards, comma-separated ids or names; %NULL
 *   for all
 * @out: (element-type HrBoard): where the boards go, borrowed from @boards
 *
 * The boards a table prints, as hr_cli_select_models() picks models: an
 * empty list or name is a usage error, and so is an unknown board, which
 * lists the boards' ids as `--board` does.
 *
 * Returns: %TRUE; %FALSE after printing the usage error.
 */
gboolean
hr_cli_select_boards (GPtrArray  *boards,
                      const char *boards_text,
                      GPtrArray  *out)
{
  g_auto(GStrv) names = NULL;

  if (boards_text == NULL)
    {
      for (guint i = 0; i < boards->len; i++)
        g_ptr_array_add (out, g_ptr_array_index (boards, i));
      return TRUE;
    }
  names = split_list ("--boards", boards_text);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; names[i] != NULL; i++)
    {
      HrBoard *board = hr_boards_find (boards, names[i]);

      if (board == NULL)
        {
          g_autoptr(GError) error = NULL;

          hr_cli_set_unknown_board (&error, boards, names[i]);
          hr_cli_usage_error ("%s", error->message);
          return FALSE;
        }
      g_ptr_array_add (out, board);
    }
  return TRUE;
}
