/* hr-preferences-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board.h"
#include "hr-gui-enums.h"
#include "hr-gui-format.h"
#include "hr-preferences-window.h"

#define CONTEXT_MIN_LOG2 9
#define CONTEXT_STEPS    9   /* 512 .. 131,072 tokens */

struct _HrPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  AdwComboRow          *units_row;
  AdwComboRow          *board_row;
  AdwComboRow          *context_row;

  GSettings            *settings;
};

G_DEFINE_FINAL_TYPE (HrPreferencesWindow, hr_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* units: the enum's nick <-> the row's position */
static gboolean
units_get (GValue   *value,
           GVariant *variant,
           gpointer  user_data)
{
  g_autoptr(GEnumClass) units = g_type_class_ref (HR_TYPE_UNIT);
  GEnumValue *unit = g_enum_get_value_by_nick (units, g_variant_get_string (variant, NULL));

  /* The row lists the units in HrUnit's order. */
  g_value_set_uint (value, unit != NULL ? (guint) unit->value : HR_UNIT_GB);
  return TRUE;
}

static GVariant *
units_set (const GValue       *value,
           const GVariantType *expected_type,
           gpointer            user_data)
{
  g_autoptr(GEnumClass) units = g_type_class_ref (HR_TYPE_UNIT);
  GEnumValue *unit = g_enum_get_value (units, (int) g_value_get_uint (value));

  return g_variant_new_string (unit != NULL ? unit->value_nick : "gb");
}

/* default-board: a board id <-> the row's position in the board list */
static gboolean
board_get (GValue   *value,
           GVariant *variant,
           gpointer  user_data)
{
  const char * const *ids = user_data;
  const char *id = g_variant_get_string (variant, NULL);

  for (guint i = 0; ids[i] != NULL; i++)
    if (g_str_equal (ids[i], id))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
board_set (const GValue       *value,
           const GVariantType *expected_type,
           gpointer            user_data)
{
  const char * const *ids = user_data;
  guint index = g_value_get_uint (value);

  if (index >= g_strv_length ((char **) ids))
    return NULL;
  return g_variant_new_string (ids[index]);
}

/* default-context: tokens <-> log2 steps from 512 */
static gboolean
context_get (GValue   *value,
             GVariant *variant,
             gpointer  user_data)
{
  guint tokens = g_variant_get_uint32 (variant);
  guint step = 0;

  while (step + 1 < CONTEXT_STEPS && ((guint) 1 << (CONTEXT_MIN_LOG2 + step)) * 3 / 2 < tokens)
    step++;
  g_value_set_uint (value, step);
  return TRUE;
}

static GVariant *
context_set (const GValue       *value,
             const GVariantType *expected_type,
             gpointer            user_data)
{
  guint step = MIN (g_value_get_uint (value), CONTEXT_STEPS - 1);

  return g_variant_new_uint32 ((guint32) 1 << (CONTEXT_MIN_LOG2 + step));
}

static void
hr_preferences_window_dispose (GObject *object)
{
  HrPreferencesWindow *self = (HrPreferencesWindow *)object;

  if (self->settings != NULL)
    {
      g_settings_unbind (self->units_row, "selected");
      g_settings_unbind (self->board_row, "selected");
      g_settings_unbind (self->context_row, "selected");
    }
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_preferences_window_parent_class)->dispose (object);
}

static void
hr_preferences_window_class_init (HrPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, units_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, board_row);
  gtk_widget_class_bind_template_child (widget_class, HrPreferencesWindow, context_row);
}

static void
hr_preferences_window_init (HrPreferencesWindow *self)
{
  g_autoptr(GtkStringList) contexts = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint step = 0; step < CONTEXT_STEPS; step++)
    {
      g_autofree char *text = hr_gui_format_context ((guint32) 1 << (CONTEXT_MIN_LOG2 + step));

      gtk_string_list_append (contexts, text);
    }
  adw_combo_row_set_model (self->context_row, G_LIST_MODEL (contexts));
}

/**
 * hr_preferences_window_new:
 * @parent: (nullable): the window to be transient for
 * @settings: the application's settings (hr_application_get_settings())
 * @boards: (element-type HrBoard): the boards the default board is chosen from
 *
 * Returns: (transfer floating): a new #HrPreferencesWindow; its rows write
 *   the "units", "default-board" and "default-context" keys as they change
 */
GtkWidget *
hr_preferences_window_new (GtkWindow *parent,
                           GSettings *settings,
                           GPtrArray *boards)
{
  HrPreferencesWindow *self;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (HR_TYPE_PREFERENCES_WINDOW, "transient-for", parent, NULL);
  self->settings = g_object_ref (settings);
  g_settings_bind_with_mapping (self->settings, "units", self->units_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, units_get, units_set, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "default-context", self->context_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, context_get, context_set, NULL, NULL);

  for (guint i = 0; boards != NULL && i < boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (boards, i);

      gtk_string_list_append (names, board->name);
      g_strv_builder_add (builder, board->id);
    }
  adw_combo_row_set_model (self->board_row, G_LIST_MODEL (names));
  g_settings_bind_with_mapping (self->settings, "default-board", self->board_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, board_get, board_set,
                                g_strv_builder_end (builder), (GDestroyNotify) g_strfreev);

  return GTK_WIDGET (self);
}
