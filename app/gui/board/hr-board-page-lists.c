/* hr-board-page-lists.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Board page's two lists, as its HrBoardConnection gives them: the
 * models the server has (name, size, precision, when it was modified,
 * with their buttons) on ::models-changed, and the ones it has loaded on
 * ::loaded-changed, each rebuilt only when its names changed. The page
 * that connects them is in hr-board-page.c.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-format.h"
#include "hr-board-page-private.h"
#include "hr-gui-format.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

static char *
format_modified (const char *iso)
{
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (iso == NULL || *iso == '\0')
    return g_strdup (_("unknown"));
  when = g_date_time_new_from_iso8601 (iso, NULL);
  if (when == NULL)
    return g_strdup (iso);
  local = g_date_time_to_local (when);
  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static GtkWidget *
empty_row (const char *title,
                 const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *t = g_markup_escape_text (title, -1);
  g_autofree char *s = g_markup_escape_text (subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), s);
  gtk_widget_add_css_class (row, "dim-label");
  return row;
}

static char *
model_subtitle (const HrOllamaModel *model)
{
  g_autofree char *size = hr_gui_format_ollama_size (model->size);
  g_autofree char *modified = format_modified (model->modified_at);
  g_autofree char *parameters = hr_board_format_parameter_size (model->parameter_size);

  /* Translators: a model on the board: size, parameters, quantization, family, when it was modified */
  return g_strdup_printf (_("%1$s · %2$s parameters · %3$s · %4$s · modified %5$s"),
                          size,
                          parameters,
                          model->quantization_level ? model->quantization_level : _("unknown"),
                          model->family ? model->family : _("unknown"),
                          modified);
}

static char *
loaded_subtitle (const HrOllamaLoaded *loaded)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *size = hr_gui_format_ollama_size (loaded->size);
  g_autofree char *vram = hr_gui_format_ollama_size (loaded->size_vram);
  g_autofree char *processor = hr_ollama_format_processor (loaded->size, loaded->size_vram);
  g_autofree char *until = hr_ollama_format_until (loaded->expires_at, now);
  g_autofree char *context = NULL;

  if (loaded->context_length > 0)
    context = hr_gui_format_count (loaded->context_length);
  else
    context = g_strdup (_("not reported"));

  /* Translators: a loaded model: its size, the part on the GPU, the CPU/GPU split
   * as `ollama ps` prints it, num_ctx, and when it unloads */
  return g_strdup_printf (_("%1$s, %2$s on the GPU (%3$s) · context %4$s tokens · until: %5$s"),
                          size, vram, processor, context, until);
}

static void
set_row_text (AdwActionRow *row,
              const char   *title,
              const char   *subtitle)
{
  g_autofree char *t = g_markup_escape_text (title, -1);
  g_autofree char *s = g_markup_escape_text (subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
  adw_action_row_set_subtitle (row, s);
}

static GtkWidget *
action_button (const char *label,
               const char *action,
               const char *model,
               const char *accessible)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (model));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  return button;
}

static GtkWidget *
model_row_new (const HrOllamaModel *model,
               const char          *url)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *subtitle = model_subtitle (model);
  g_autofree char *measure_a11y = g_strdup_printf (_("Measure %s"), model->name);
  g_autofree char *more_a11y = g_strdup_printf (_("More actions for %s"), model->name);
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) add = g_menu_item_new (_("_Add to Catalog"), NULL);
  g_autoptr(GMenuItem) unload = g_menu_item_new (_("_Unload"), NULL);
  g_autoptr(GMenuItem) delete = g_menu_item_new (_("_Delete…"), NULL);
  g_autoptr(GMenuItem) copy = g_menu_item_new (_("_Copy…"), NULL);
  g_autoptr(GMenuItem) variant = g_menu_item_new (_("New _Variant…"), NULL);
  g_autoptr(GMenuItem) load = g_menu_item_new (_("_Load Now"), NULL);
  GtkWidget *more;

  set_row_text (ADW_ACTION_ROW (row), model->name, subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             action_button (_("_Measure…"), "board.measure", model->name, measure_a11y));

  g_menu_item_set_action_and_target_value (add, "board.add-to-catalog", g_variant_new_string (model->name));
  g_menu_item_set_action_and_target_value (unload, "board.unload", g_variant_new_string (model->name));
  g_menu_item_set_action_and_target_value (delete, "board.delete", g_variant_new_string (model->name));
  g_menu_item_set_action_and_target_value (copy, "board.copy", g_variant_new_string (model->name));
  g_menu_item_set_action_and_target_value (variant, "win.create-variant", g_variant_new ("(ss)", url != NULL ? url : "", model->name));
  g_menu_item_set_action_and_target_value (load, "win.load-model", g_variant_new ("(ss)", url != NULL ? url : "", model->name));
  g_menu_append_item (menu, add);
  g_menu_append_item (menu, load);
  g_menu_append_item (menu, unload);
  g_menu_append_item (menu, variant);
  g_menu_append_item (menu, copy);
  g_menu_append_item (menu, delete);

  more = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (more), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (more), G_MENU_MODEL (menu));
  gtk_widget_set_valign (more, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (more, more_a11y);
  gtk_widget_add_css_class (more, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (more),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, more_a11y,
                                  -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), more);
  return row;
}

static GtkWidget *
loaded_row_new (const HrOllamaLoaded *loaded)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *subtitle = loaded_subtitle (loaded);
  g_autofree char *a11y = g_strdup_printf (_("Unload %s"), loaded->name);

  set_row_text (ADW_ACTION_ROW (row), loaded->name, subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             action_button (_("_Unload"), "board.unload", loaded->name, a11y));
  return row;
}

static char *
names_key (GPtrArray *items,
           gsize      name_offset)
{
  GString *key = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      const char *name = G_STRUCT_MEMBER (const char *, g_ptr_array_index (items, i), name_offset);
      g_string_append (key, name ? name : "");
      g_string_append_c (key, '\n');
    }
  return g_string_free (key, FALSE);
}


void
_hr_board_page_on_models_changed (HrBoardPage *self)
{
  GPtrArray *models = hr_board_connection_get_models (self->connection);
  g_autofree char *key = names_key (models, G_STRUCT_OFFSET (HrOllamaModel, name));

  if (g_strcmp0 (key, self->models_key) == 0 && models->len > 0)
    {
      /* Same models: update the rows in place, so focus and open menus stay. */
      GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->models_list));

      for (guint i = 0; i < models->len && child != NULL; i++)
        {
          const HrOllamaModel *model = g_ptr_array_index (models, i);
          g_autofree char *subtitle = model_subtitle (model);

          set_row_text (ADW_ACTION_ROW (child), model->name, subtitle);
          child = gtk_widget_get_next_sibling (child);
        }
      return;
    }

  g_free (self->models_key);
  self->models_key = g_steal_pointer (&key);
  clear_list (self->models_list);
  if (models->len == 0)
    gtk_list_box_append (self->models_list,
                         empty_row (_("No models on this board"),
                                    _("Pull one below; `ollama pull` on the board works too.")));
  for (guint i = 0; i < models->len; i++)
    gtk_list_box_append (self->models_list, model_row_new (g_ptr_array_index (models, i),
                                                           hr_board_connection_get_url (self->connection)));
}

void
_hr_board_page_on_loaded_changed (HrBoardPage *self)
{
  GPtrArray *loaded = hr_board_connection_get_loaded (self->connection);
  g_autofree char *key = names_key (loaded, G_STRUCT_OFFSET (HrOllamaLoaded, name));

  if (g_strcmp0 (key, self->loaded_key) == 0 && loaded->len > 0)
    {
      GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->loaded_list));

      for (guint i = 0; i < loaded->len && child != NULL; i++)
        {
          const HrOllamaLoaded *one = g_ptr_array_index (loaded, i);
          g_autofree char *subtitle = loaded_subtitle (one);

          set_row_text (ADW_ACTION_ROW (child), one->name, subtitle);
          child = gtk_widget_get_next_sibling (child);
        }
      return;
    }

  g_free (self->loaded_key);
  self->loaded_key = g_steal_pointer (&key);
  clear_list (self->loaded_list);
  if (loaded->len == 0)
    gtk_list_box_append (self->loaded_list,
                         empty_row (_("Nothing is loaded"),
                                    _("A model loads when it is first asked for, or when it is measured.")));
  for (guint i = 0; i < loaded->len; i++)
    gtk_list_box_append (self->loaded_list, loaded_row_new (g_ptr_array_index (loaded, i)));
}

