/* hr-device-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-accessible.h"
#include "hr-device-list.h"
#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-units.h"

struct _HrDeviceList
{
  GtkBox               parent_instance;

  AdwPreferencesGroup *group;
  GtkButton           *add_button;
  GPtrArray           *rows;     /* AdwExpanderRow*, one a device, in the group */
  GPtrArray           *devices;  /* (element-type HrDevice): what the rows show */
  gboolean             unified;  /* a unified board has one device */
  gboolean             updating;
};

G_DEFINE_FINAL_TYPE (HrDeviceList, hr_device_list, GTK_TYPE_BOX)

enum { DEVICES_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The combo rows' items, in the enums' order. */
static const char *kind_items[] = { N_("Discrete"), N_("Integrated"), NULL };
static const char *backend_items[] = { N_("CUDA"), N_("ROCm"), N_("Vulkan"), N_("Metal"), NULL };

static void rebuild (HrDeviceList *self);

static char *
device_subtitle (const HrDevice *d)
{
  g_autofree char *memory = hr_format_bytes (d->memory_bytes, HR_UNIT_GB, 1);
  g_autofree char *bandwidth = d->bandwidth_bytes_per_s > 0.0 ? hr_format_decimal (d->bandwidth_bytes_per_s / 1e9, 0) : NULL;
  const char *kind = _(kind_items[d->kind == HR_DEVICE_KIND_INTEGRATED ? 1 : 0]);
  const char *backend = _(backend_items[MIN ((guint) d->backend, 3u)]);

  if (bandwidth == NULL)
    /* Translators: a GPU's memory, its kind and its backend; its bandwidth is not known */
    return g_strdup_printf (_("%s, bandwidth not known, %s, %s"), memory, kind, backend);
  /* Translators: a GPU's memory, its bandwidth in GB/s, its kind and its backend */
  return g_strdup_printf (_("%s, %s GB/s, %s, %s"), memory, bandwidth, kind, backend);
}

static void
emit_changed (HrDeviceList *self,
              GtkWidget    *field)
{
  if (self->updating)
    return;
  g_signal_emit (self, signals[DEVICES_CHANGED], 0, field);
}

static guint
row_index (HrDeviceList *self,
           GtkWidget    *widget)
{
  GtkWidget *row = gtk_widget_get_ancestor (widget, ADW_TYPE_EXPANDER_ROW);
  guint index = 0;

  /* a nested AdwActionRow is no expander; the expander is further up */
  if (row != NULL && g_ptr_array_find (self->rows, row, &index))
    return index;
  return G_MAXUINT;
}

static void
refresh_row (HrDeviceList *self,
             guint         index)
{
  const HrDevice *d = g_ptr_array_index (self->devices, index);
  AdwExpanderRow *row = g_ptr_array_index (self->rows, index);
  g_autofree char *title = g_strdup_printf (_("GPU %u: %s"), index, d->name);
  g_autofree char *subtitle = device_subtitle (d);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_expander_row_set_subtitle (row, subtitle);
}

static void
on_name_changed (GtkEditable  *entry,
                 HrDeviceList *self)
{
  guint i = row_index (self, GTK_WIDGET (entry));
  HrDevice *d;

  if (self->updating || i == G_MAXUINT)
    return;
  d = g_ptr_array_index (self->devices, i);
  g_free (d->name);
  d->name = g_strdup (gtk_editable_get_text (entry));
  refresh_row (self, i);
  emit_changed (self, GTK_WIDGET (entry));
}

static void
on_spin_changed (GtkSpinButton *spin,
                 HrDeviceList  *self)
{
  guint i = row_index (self, GTK_WIDGET (spin));
  HrDevice *d;
  double value = gtk_spin_button_get_value (spin);

  if (self->updating || i == G_MAXUINT)
    return;
  d = g_ptr_array_index (self->devices, i);
  if (g_object_get_data (G_OBJECT (spin), "hr-field") == GINT_TO_POINTER (1))
    d->memory_bytes = hr_bytes_from_gb (value);
  else
    d->bandwidth_bytes_per_s = value * 1e9;
  refresh_row (self, i);
  emit_changed (self, GTK_WIDGET (spin));
}

static void
on_combo_selected (AdwComboRow  *combo,
                   GParamSpec   *pspec,
                   HrDeviceList *self)
{
  guint i = row_index (self, GTK_WIDGET (combo));
  guint selected = adw_combo_row_get_selected (combo);
  HrDevice *d;

  if (self->updating || i == G_MAXUINT || selected == GTK_INVALID_LIST_POSITION)
    return;
  d = g_ptr_array_index (self->devices, i);
  if (g_object_get_data (G_OBJECT (combo), "hr-field") == GINT_TO_POINTER (3))
    d->kind = (HrDeviceKind) selected;
  else
    d->backend = (HrDeviceBackend) selected;
  refresh_row (self, i);
  emit_changed (self, GTK_WIDGET (combo));
}

static void
on_remove_clicked (GtkButton    *button,
                   HrDeviceList *self)
{
  guint i = row_index (self, GTK_WIDGET (button));

  if (i == G_MAXUINT || self->devices->len <= 1)
    return;
  g_ptr_array_remove_index (self->devices, i);
  rebuild (self);
  emit_changed (self, GTK_WIDGET (self->add_button));
}

static void
on_add_clicked (GtkButton    *button,
                HrDeviceList *self)
{
  const HrDevice *last;
  HrDevice *added;

  if (self->devices->len == 0 || self->devices->len >= HR_DEVICE_MAX || self->unified)
    return;
  /* A copy of the last GPU, renamed: the common case is a second card like the first. */
  last = g_ptr_array_index (self->devices, self->devices->len - 1);
  added = hr_device_copy (last);
  g_free (added->name);
  added->name = g_strdup_printf (_("GPU %u"), self->devices->len); /* its index: numbered from 0, as nvidia-smi and the pool chart do */
  g_ptr_array_add (self->devices, added);
  rebuild (self);
  adw_expander_row_set_expanded (g_ptr_array_index (self->rows, self->rows->len - 1), TRUE);
  emit_changed (self, GTK_WIDGET (button));
}

static GtkWidget *
spin_row (const char *title,
          const char *subtitle,
          double      lower,
          double      upper,
          double      value,
          guint       digits,
          gint        field,
          HrDeviceList *self)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, digits > 0 ? 0.1 : 1.0);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  g_object_set_data (G_OBJECT (spin), "hr-field", GINT_TO_POINTER (field));
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_spin_changed), self);
  hr_gui_label_spin_by_row (GTK_SPIN_BUTTON (spin));
  return row;
}

static GtkWidget *
combo_row (const char  *title,
           const char **items,
           guint        selected,
           gint         field,
           HrDeviceList *self)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);

  for (guint i = 0; items[i] != NULL; i++)
    gtk_string_list_append (model, _(items[i]));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  g_object_set_data (G_OBJECT (row), "hr-field", GINT_TO_POINTER (field));
  g_signal_connect (row, "notify::selected", G_CALLBACK (on_combo_selected), self);
  return row;
}

static void
rebuild (HrDeviceList *self)
{
  self->updating = TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);

  for (guint i = 0; i < self->devices->len; i++)
    {
      const HrDevice *d = g_ptr_array_index (self->devices, i);
      GtkWidget *row = adw_expander_row_new ();
      GtkWidget *name = adw_entry_row_new ();
      GtkWidget *remove_row = gtk_list_box_row_new ();
      GtkWidget *remove = gtk_button_new_with_mnemonic (_("_Remove GPU"));

      g_ptr_array_add (self->rows, row);
      adw_preferences_group_add (self->group, row);
      refresh_row (self, i);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (name), _("Name"));
      gtk_editable_set_text (GTK_EDITABLE (name), d->name != NULL ? d->name : "");
      g_signal_connect (name, "changed", G_CALLBACK (on_name_changed), self);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), name);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row),
                                spin_row (_("_Memory (GB)"), _("The GPU's own memory (VRAM)"),
                                          0.1, 100000, hr_bytes_to_gb (d->memory_bytes), 2, 1, self));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row),
                                spin_row (_("Band_width (GB/s)"), _("Peak memory bandwidth, from the spec sheet"),
                                          0, 100000, d->bandwidth_bytes_per_s / 1e9, 1, 2, self));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), combo_row (_("_Kind"), kind_items, (guint) d->kind, 3, self));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), combo_row (_("Back_end"), backend_items, (guint) d->backend, 4, self));

      gtk_widget_set_halign (remove, GTK_ALIGN_END);
      gtk_widget_set_margin_top (remove, 6);
      gtk_widget_set_margin_bottom (remove, 6);
      gtk_widget_set_margin_end (remove, 12);
      gtk_widget_add_css_class (remove, "destructive-action");
      gtk_widget_set_sensitive (remove, self->devices->len > 1);
      gtk_widget_set_tooltip_text (remove, self->devices->len > 1 ? NULL : _("A board keeps at least one GPU"));
      g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_clicked), self);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (remove_row), FALSE);
      gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (remove_row), FALSE);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (remove_row), remove);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (remove_row),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, remove, NULL,
                                      -1);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), remove_row);
      hr_accessible_name_parts (row);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button),
                            !self->unified && self->devices->len > 0 && self->devices->len < HR_DEVICE_MAX);
  hr_gui_rows_bound_subtitles (GTK_WIDGET (self), 16);
  self->updating = FALSE;
}

/**
 * hr_device_list_set_board:
 * @self: a #HrDeviceList
 * @board: the board whose GPUs to show (hr_board_dup_devices()); a "cpu"
 *   board has none and hides the list
 *
 * Shows @board's devices, replacing any edit in progress.
 */
void
hr_device_list_set_board (HrDeviceList  *self,
                          const HrBoard *board)
{
  g_return_if_fail (HR_IS_DEVICE_LIST (self));

  g_clear_pointer (&self->devices, g_ptr_array_unref);
  self->devices = hr_board_dup_devices (board);
  self->unified = board->unified;
  gtk_widget_set_visible (GTK_WIDGET (self), self->devices->len > 0);
  rebuild (self);
}

static void
remove_error_class (GtkWidget *widget)
{
  gtk_widget_remove_css_class (widget, "error");
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    remove_error_class (child);
}

/**
 * hr_device_list_clear_errors:
 * @self: a #HrDeviceList
 *
 * Takes the error mark off every field (the board validates again).
 */
void
hr_device_list_clear_errors (HrDeviceList *self)
{
  g_return_if_fail (HR_IS_DEVICE_LIST (self));

  remove_error_class (GTK_WIDGET (self->group));
}

/**
 * hr_device_list_get_devices:
 * @self: a #HrDeviceList
 *
 * Returns: (transfer full) (element-type HrDevice): a copy of the devices
 *   as edited
 */
GPtrArray *
hr_device_list_get_devices (HrDeviceList *self)
{
  GPtrArray *copy;

  g_return_val_if_fail (HR_IS_DEVICE_LIST (self), NULL);

  copy = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  for (guint i = 0; self->devices != NULL && i < self->devices->len; i++)
    g_ptr_array_add (copy, hr_device_copy (g_ptr_array_index (self->devices, i)));
  return copy;
}

static void
hr_device_list_finalize (GObject *object)
{
  HrDeviceList *self = HR_DEVICE_LIST (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->devices, g_ptr_array_unref);
  G_OBJECT_CLASS (hr_device_list_parent_class)->finalize (object);
}

static void
hr_device_list_class_init (HrDeviceListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_device_list_finalize;

  /**
   * HrDeviceList::devices-changed:
   * @self: the list
   * @field: the widget that changed (it shows an error when the board
   *   does not validate)
   *
   * A device was edited, added or removed: hr_device_list_get_devices()
   * has the new list.
   */
  signals[DEVICES_CHANGED] = g_signal_new ("devices-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, GTK_TYPE_WIDGET);
}

static void
hr_device_list_init (HrDeviceList *self)
{
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add GPU"));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->rows = g_ptr_array_new ();
  self->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_device_free);
  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->group, _("GPUs"));
  adw_preferences_group_set_description (self->group,
                                         _("In the order llama.cpp numbers them (CUDA0 first); the first GPU's figures are the board's pool, resident, reserve and bandwidth"));
  self->add_button = GTK_BUTTON (add);
  gtk_widget_set_valign (add, GTK_ALIGN_CENTER);
  g_signal_connect (add, "clicked", G_CALLBACK (on_add_clicked), self);
  adw_preferences_group_set_header_suffix (self->group, add);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->group));
}

/**
 * hr_device_list_new:
 *
 * Returns: (transfer floating): an empty list; hr_device_list_set_board() fills it
 */
GtkWidget *
hr_device_list_new (void)
{
  return g_object_new (HR_TYPE_DEVICE_LIST, NULL);
}
