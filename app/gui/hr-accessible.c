/* hr-accessible.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Accessible names for the parts libadwaita 1.2 builds inside its own
 * widgets and leaves unnamed, which GTK 4.8's AT-SPI backend
 * (gtk/a11y/gtkatspicontext.c) then announces by their type names
 * ("GtkListBox", "GtkListView") or not at all: the lists inside an
 * AdwExpanderRow, the one-item list that shows an AdwComboRow's value,
 * the scrolled window inside an AdwStatusPage. Each is named after the
 * widget around it, so a screen reader says what it belongs to.
 * tests/test-a11y-tree.c walks the window's tree and fails on any
 * reachable element left unnamed.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-accessible.h"

/* Every widget of @type under @root, not below one found, into @found. */
static void
collect (GtkWidget *root,
         GType      type,
         GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
      else
        collect (child, type, found);
    }
}

static char *without_mnemonic (const char *title);
static void  set_label        (GtkWidget  *widget,
                               const char *label);

static void
label_by (GtkWidget *widget,
          GtkWidget *label)
{
  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  -1);
}

static void
on_title_changed (GObject    *object,
                  GParamSpec *pspec,
                  gpointer    user_data)
{
  g_autofree char *title = without_mnemonic (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (object)));

  set_label (GTK_WIDGET (object), title);
}

/**
 * hr_accessible_name_expander_row:
 * @row: an expander row
 *
 * Names @row after its title (libadwaita 1.2 names only the header row
 * inside it), following the title as it changes, and names the lists it
 * holds (its header and its revealed rows, each a #GtkListBox) after
 * @row. The rows added later are inside those lists and named by their
 * own titles. Call it once, after the row's title is set or bound.
 */
void
hr_accessible_name_expander_row (AdwExpanderRow *row)
{
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();

  g_return_if_fail (ADW_IS_EXPANDER_ROW (row));

  if (g_object_get_data (G_OBJECT (row), "hr-accessible-named") != NULL)
    return;
  g_object_set_data (G_OBJECT (row), "hr-accessible-named", GINT_TO_POINTER (TRUE));
  on_title_changed (G_OBJECT (row), NULL, NULL);
  g_signal_connect (row, "notify::title", G_CALLBACK (on_title_changed), NULL);
  collect (GTK_WIDGET (row), GTK_TYPE_LIST_BOX, lists);
  for (guint i = 0; i < lists->len; i++)
    label_by (g_ptr_array_index (lists, i), GTK_WIDGET (row));
}

/* @title without its mnemonic underscores ("_KV cache type"), as the
 * row shows it; "__" is one underscore. */
static char *
without_mnemonic (const char *title)
{
  GString *plain = g_string_new (NULL);

  for (const char *c = title; c != NULL && *c != '\0'; c++)
    {
      if (*c == '_' && c[1] == '_')
        c++;
      else if (*c == '_')
        continue;
      g_string_append_c (plain, *c);
    }
  return g_string_free (plain, FALSE);
}

/* The text @row shows for its selected item: its expression's string,
 * or a #GtkStringObject's, or NULL. */
static char *
selected_text (AdwComboRow *row)
{
  gpointer item = adw_combo_row_get_selected_item (row);
  GtkExpression *expression = adw_combo_row_get_expression (row);
  g_auto(GValue) value = G_VALUE_INIT;

  if (item == NULL)
    return NULL;
  if (expression != NULL && gtk_expression_evaluate (expression, item, &value) &&
      G_VALUE_HOLDS_STRING (&value))
    return g_value_dup_string (&value);
  if (GTK_IS_STRING_OBJECT (item))
    return g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
  return NULL;
}

static void
set_label (GtkWidget  *widget,
           const char *label)
{
  if (label == NULL || label[0] == '\0' ||
      g_strcmp0 (g_object_get_data (G_OBJECT (widget), "hr-accessible-label"), label) == 0)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  g_object_set_data_full (G_OBJECT (widget), "hr-accessible-label", g_strdup (label), g_free);
}

/* Names the list inside @row that shows its value after @row's title,
 * and the list's items (one, in libadwaita 1.2) after the value. */
static void
on_combo_changed (AdwComboRow *row)
{
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();
  g_autofree char *title = without_mnemonic (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  g_autofree char *value = selected_text (row);

  collect (GTK_WIDGET (row), GTK_TYPE_LIST_VIEW, lists);
  for (guint i = 0; i < lists->len; i++)
    {
      GtkWidget *list = g_ptr_array_index (lists, i);

      set_label (list, title);
      for (GtkWidget *item = gtk_widget_get_first_child (list);
           item != NULL;
           item = gtk_widget_get_next_sibling (item))
        if (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (item)) == GTK_ACCESSIBLE_ROLE_LIST_ITEM)
          set_label (item, value);
    }
}

/**
 * hr_accessible_name_combo_row:
 * @row: a combo row
 *
 * Names the #GtkListView that shows @row's value (libadwaita 1.2 leaves
 * it and its list item unnamed) after @row's title, and its item after
 * the value it shows (the selected item's string, through @row's
 * expression where it has one), again whenever the value, the title or
 * the model changes and when @row is mapped (the list makes its items
 * as it is laid out). Call it once.
 */
void
hr_accessible_name_combo_row (AdwComboRow *row)
{
  g_return_if_fail (ADW_IS_COMBO_ROW (row));

  if (g_object_get_data (G_OBJECT (row), "hr-accessible-named") != NULL)
    return;
  g_object_set_data (G_OBJECT (row), "hr-accessible-named", GINT_TO_POINTER (TRUE));
  on_combo_changed (row);
  g_signal_connect (row, "notify::selected", G_CALLBACK (on_combo_changed), NULL);
  g_signal_connect (row, "notify::model", G_CALLBACK (on_combo_changed), NULL);
  g_signal_connect (row, "notify::title", G_CALLBACK (on_combo_changed), NULL);
  g_signal_connect (row, "map", G_CALLBACK (on_combo_changed), NULL);
}

/**
 * hr_accessible_name_group:
 * @group: a preferences group without a title
 * @label: what its rows are, translated
 *
 * Names the #GtkListBox inside @group (libadwaita 1.2 names it after the
 * group's title, and leaves it unnamed where there is none) @label.
 */
void
hr_accessible_name_group (AdwPreferencesGroup *group,
                          const char          *label)
{
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();

  g_return_if_fail (ADW_IS_PREFERENCES_GROUP (group));

  collect (GTK_WIDGET (group), GTK_TYPE_LIST_BOX, lists);
  if (lists->len > 0)
    set_label (g_ptr_array_index (lists, 0), label);
}

static void
on_status_title_changed (AdwStatusPage *page,
                         GParamSpec    *pspec,
                         GtkWidget     *scroller)
{
  const char *title = adw_status_page_get_title (page);
  const char *fallback = g_object_get_data (G_OBJECT (page), "hr-accessible-fallback");

  set_label (scroller, title != NULL && title[0] != '\0' ? title : fallback);
}

/**
 * hr_accessible_name_status_page:
 * @page: a status page
 * @fallback: (nullable): the name while @page has no title, translated
 *
 * Names the #GtkScrolledWindow inside @page (libadwaita 1.2 leaves it
 * unnamed) after @page's title as it changes, or @fallback while there
 * is none. Call it once.
 */
void
hr_accessible_name_status_page (AdwStatusPage *page,
                                const char    *fallback)
{
  g_autoptr(GPtrArray) scrollers = g_ptr_array_new ();

  g_return_if_fail (ADW_IS_STATUS_PAGE (page));

  collect (GTK_WIDGET (page), GTK_TYPE_SCROLLED_WINDOW, scrollers);
  if (scrollers->len == 0)
    return;
  g_object_set_data_full (G_OBJECT (page), "hr-accessible-fallback", g_strdup (fallback), g_free);
  on_status_title_changed (page, NULL, g_ptr_array_index (scrollers, 0));
  g_signal_connect_object (page, "notify::title", G_CALLBACK (on_status_title_changed),
                           g_ptr_array_index (scrollers, 0), 0);
}

/* libadwaita 1.2's password entry row has an icon button that shows or
 * hides the text, named only by its icon's type. */
static void
name_peek_button (GtkWidget *row)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect (row, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    /* Translators: for a screen reader, the button beside a token entry that shows or hides what was typed */
    set_label (g_ptr_array_index (buttons, i), _("Show or hide the text"));
}

/**
 * hr_accessible_name_parts:
 * @root: a widget, such as a page
 *
 * Applies hr_accessible_name_expander_row() and
 * hr_accessible_name_combo_row() to every expander row and combo row at
 * or under @root, and hr_accessible_name_status_page() (with no
 * fallback) to every status page that has a title. Rows already named
 * are left as they are, so it can be called again when rows are added.
 */
void
hr_accessible_name_parts (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (ADW_IS_PASSWORD_ENTRY_ROW (root))
    name_peek_button (root);
  if (ADW_IS_EXPANDER_ROW (root))
    hr_accessible_name_expander_row (ADW_EXPANDER_ROW (root));
  else if (ADW_IS_COMBO_ROW (root))
    hr_accessible_name_combo_row (ADW_COMBO_ROW (root));
  else if (ADW_IS_STATUS_PAGE (root) && g_object_get_data (G_OBJECT (root), "hr-accessible-fallback") == NULL &&
           adw_status_page_get_title (ADW_STATUS_PAGE (root)) != NULL)
    hr_accessible_name_status_page (ADW_STATUS_PAGE (root), adw_status_page_get_title (ADW_STATUS_PAGE (root)));

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    hr_accessible_name_parts (child);
}
