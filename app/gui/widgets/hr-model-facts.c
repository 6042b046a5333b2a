/* hr-model-facts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-gui-format.h"
#include "hr-json.h"
#include "hr-model-facts.h"

#define VALUE_KEY "hr-fact-value"
/* A long value wraps at no fewer characters than this: a sha256 digest in
 * two lines of 32, and a row that fits a 360 px window. */
#define VALUE_MIN_CHARS 32

/**
 * hr_model_facts_group_new:
 * @title: the card's heading, e.g. "1. Architecture and size"
 * @description: (nullable): a line under the heading
 *
 * Returns: (transfer floating): an empty #AdwPreferencesGroup: the card
 */
GtkWidget *
hr_model_facts_group_new (const char *title,
                          const char *description)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
  return group;
}

/* A figure stays on one line; a long value (a digest, a title) wraps, but
 * never narrower than VALUE_MIN_CHARS. */
static void
fit_value (GtkLabel   *label,
           const char *value)
{
  if (g_utf8_strlen (value, -1) > VALUE_MIN_CHARS)
    {
      gtk_label_set_wrap (label, TRUE);
      gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
      gtk_label_set_width_chars (label, VALUE_MIN_CHARS);
      gtk_label_set_max_width_chars (label, 40);
      /* A digest broken across lines must not gain a hyphen it lacks. */
      if (gtk_label_get_attributes (label) == NULL)
        {
          PangoAttrList *attributes = pango_attr_list_new ();

          pango_attr_list_insert (attributes, pango_attr_insert_hyphens_new (FALSE));
          gtk_label_set_attributes (label, attributes);
          pango_attr_list_unref (attributes);
        }
    }
}

/**
 * hr_model_facts_add:
 * @group: a card from hr_model_facts_group_new()
 * @title: what the fact is ("Parameters")
 * @value: (nullable): the figure, shown at the row's end, selectable
 * @subtitle: (nullable): where the figure comes from, or what it means
 *
 * Appends one fact. A screen reader reads the row as "@title: @value",
 * then @subtitle.
 *
 * Returns: (transfer none): the #AdwActionRow
 */
GtkWidget *
hr_model_facts_add (GtkWidget  *group,
                    const char *title,
                    const char *value,
                    const char *subtitle)
{
  GtkWidget *row;

  g_return_val_if_fail (ADW_IS_PREFERENCES_GROUP (group), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  row = adw_action_row_new ();
  /* Facts are plain text (token strings hold "<|im_end|>"): no markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL && *subtitle != '\0')
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);

  if (value != NULL)
    {
      /* A value may be the file's or the server's own text: its control
       * characters are shown escaped, as the command line prints them. */
      g_autofree char *shown = hr_json_safe_text (value, -1, 65536);
      GtkWidget *label = gtk_label_new (shown);
      g_autofree char *accessible = g_strdup_printf (_("%1$s: %2$s"), title, shown);

      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
      fit_value (GTK_LABEL (label), shown);
      gtk_widget_add_css_class (label, "numeric");
      gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
      g_object_set_data (G_OBJECT (row), VALUE_KEY, label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                      -1);
    }

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return row;
}

/**
 * hr_model_facts_add_warning:
 * @group: a card
 * @title: the warning's heading ("Commercial use")
 * @text: what it means, in full
 *
 * Appends a fact drawn as a warning: a warning icon and the "warning"
 * style class, @text as the subtitle so it wraps.
 *
 * Returns: (transfer none): the #AdwActionRow
 */
GtkWidget *
hr_model_facts_add_warning (GtkWidget  *group,
                            const char *title,
                            const char *text)
{
  GtkWidget *row = hr_model_facts_add (group, title, NULL, text);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

  gtk_widget_add_css_class (icon, "warning");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Warning"),
                                  -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_widget_add_css_class (row, "hr-warning-row");
  return row;
}

/**
 * hr_model_facts_find_row:
 * @root: a widget holding cards
 * @title: a fact's title
 *
 * Returns: (transfer none) (nullable): the first fact row under @root
 *   titled @title, depth first
 */
GtkWidget *
hr_model_facts_find_row (GtkWidget  *root,
                         const char *title)
{
  g_return_val_if_fail (GTK_IS_WIDGET (root), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  if (ADW_IS_ACTION_ROW (root) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (root)), title) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = hr_model_facts_find_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/**
 * hr_model_facts_get_value:
 * @root: a widget holding cards
 * @title: a fact's title
 *
 * Returns: (transfer none) (nullable): the value text of the fact titled
 *   @title, or %NULL when there is no such fact or it has no value
 */
const char *
hr_model_facts_get_value (GtkWidget  *root,
                          const char *title)
{
  GtkWidget *row = hr_model_facts_find_row (root, title);
  GtkLabel *label = row != NULL ? g_object_get_data (G_OBJECT (row), VALUE_KEY) : NULL;

  return label != NULL ? gtk_label_get_text (label) : NULL;
}

/**
 * hr_model_facts_get_subtitle:
 * @root: a widget holding cards
 * @title: a fact's title
 *
 * Returns: (transfer none) (nullable): the subtitle of the fact titled
 *   @title, or %NULL
 */
const char *
hr_model_facts_get_subtitle (GtkWidget  *root,
                             const char *title)
{
  GtkWidget *row = hr_model_facts_find_row (root, title);

  return row != NULL ? adw_action_row_get_subtitle (ADW_ACTION_ROW (row)) : NULL;
}

/**
 * hr_model_facts_set_value:
 * @row: a fact row from hr_model_facts_add() made with a value
 * @value: the new value text
 *
 * Changes a fact's value (a digest that was being computed, say) and what a
 * screen reader reads for the row; a long value wraps, as in
 * hr_model_facts_add().
 */
void
hr_model_facts_set_value (GtkWidget  *row,
                          const char *value)
{
  GtkLabel *label;
  g_autofree char *accessible = NULL;
  g_autofree char *shown = NULL;

  g_return_if_fail (ADW_IS_ACTION_ROW (row));
  g_return_if_fail (value != NULL);

  label = g_object_get_data (G_OBJECT (row), VALUE_KEY);
  g_return_if_fail (label != NULL);
  shown = hr_json_safe_text (value, -1, 65536);
  gtk_label_set_text (label, shown);
  fit_value (label, shown);
  accessible = g_strdup_printf (_("%1$s: %2$s"), adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), shown);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
}

/**
 * hr_model_facts_add_layer_kinds:
 * @group: a card from hr_model_facts_group_new()
 * @spec: the model
 *
 * For a hybrid or recurrent model (@spec->layer_recurrent set), adds two
 * facts: "Attention layers" (how many layers have a KV cache, from
 * #HrModelSpec.layer_kv_heads) and "Recurrent layers" (how many keep a
 * recurrent state, with its size per layer and slot: n_embd_r + n_embd_s
 * values, f32, as llama.cpp allocates it in src/llama-memory-recurrent.cpp;
 * the subtitle says how it was worked out when the spec records it). Adds
 * nothing for a model with attention in every layer.
 */
void
hr_model_facts_add_layer_kinds (GtkWidget         *group,
                                const HrModelSpec *spec)
{
  guint n_attention = 0, n_recurrent;
  g_autofree char *value = NULL;
  g_autofree char *r = NULL;
  g_autofree char *s = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *subtitle = NULL;

  g_return_if_fail (ADW_IS_PREFERENCES_GROUP (group));
  if (spec->layer_recurrent == NULL)
    return;
  n_recurrent = hr_model_spec_recurrent_layers (spec);
  for (guint i = 0; i < spec->layers; i++)
    n_attention += hr_model_spec_layer_kv_heads (spec, i) > 0;

  /* Translators: "8 of 32", layers that have a KV cache */
  value = g_strdup_printf (_("%u of %u"), n_attention, spec->layers);
  hr_model_facts_add (group, _("Attention layers"), value,
                      _("only these layers keep a KV cache that grows with the context"));
  g_clear_pointer (&value, g_free);

  r = hr_gui_format_count (spec->recurrent_r);
  s = hr_gui_format_count (spec->recurrent_s);
  bytes = hr_gui_format_size_both_fixed (((guint64) spec->recurrent_r + spec->recurrent_s) * 4 * n_recurrent);
  value = g_strdup_printf (_("%u of %u"), n_recurrent, spec->layers);
  /* Translators: the recurrent state per slot: "n_embd_r 12,288 + n_embd_s
   * 524,288 values a layer, f32: 50.0 MB (47.7 MiB) per slot" */
  subtitle = g_strdup_printf (_("state n_embd_r %s + n_embd_s %s values a layer, f32: %s per slot, whatever the context%s%s"),
                              r, s, bytes, spec->recurrent_source != NULL ? " · " : "",
                              spec->recurrent_source != NULL ? spec->recurrent_source : "");
  hr_model_facts_add (group, _("Recurrent layers"), value, subtitle);
}

/**
 * hr_model_facts_clear:
 * @box: the box the cards were appended to
 *
 * Removes every card from @box.
 */
void
hr_model_facts_clear (GtkBox *box)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_BOX (box));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}
