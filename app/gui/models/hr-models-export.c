/* hr-models-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Models page's exports: the memory chart as PNG or SVG, the table (or
 * the Boards view's matrix) as CSV, each titled with the scenario's inputs.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-export.h"
#include "hr-models-page-private.h"
#define EXPORT_WIDTH 960

static GskRenderer *
window_renderer (HrModelsPage *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));

  if (native != NULL && gtk_widget_get_realized (GTK_WIDGET (native)))
    return gtk_native_get_renderer (native);
  return NULL;
}

/* The memory chart EXPORT_WIDTH wide, headed by the inputs (@title_out,
 * hr_models_page_describe_inputs()), and its height in pixels. */
static GskRenderNode *
render_chart (HrModelsPage  *self,
              char         **title_out,
              int           *height_out)
{
  HrMemoryChart *chart = hr_models_page_get_memory_chart (self);

  *title_out = hr_models_page_describe_inputs (self);
  *height_out = hr_memory_chart_get_export_height (chart, EXPORT_WIDTH, *title_out);
  return hr_memory_chart_render (chart, EXPORT_WIDTH, *height_out, *title_out);
}

/**
 * hr_models_page_export_png:
 * @self: a #HrModelsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the memory chart as a PNG, 960 pixels wide, with the inputs as its
 * heading and in its Title text chunk and the chart's description in its
 * Description chunk.
 *
 * Returns: %TRUE on success; errors as hr_export_png()
 */
gboolean
hr_models_page_export_png (HrModelsPage  *self,
                           const char    *path,
                           GError       **error)
{
  g_autofree char *title = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  int height;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);

  node = render_chart (self, &title, &height);

  return hr_export_png (node, window_renderer (self), EXPORT_WIDTH, height, path, title,
                        hr_memory_chart_get_description (hr_models_page_get_memory_chart (self)), error);
}

/**
 * hr_models_page_export_svg:
 * @self: a #HrModelsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the memory chart as SVG with the inputs as its heading and its
 * &lt;title&gt;, and the chart's description as its &lt;desc&gt;.
 *
 * Returns: %TRUE on success; errors as hr_export_svg()
 */
gboolean
hr_models_page_export_svg (HrModelsPage  *self,
                           const char    *path,
                           GError       **error)
{
  g_autofree char *title = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  int height;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);

  node = render_chart (self, &title, &height);

  return hr_export_svg (node, EXPORT_WIDTH, height, path, title,
                        hr_memory_chart_get_description (hr_models_page_get_memory_chart (self)), error);
}

/**
 * hr_models_page_export_csv:
 * @self: a #HrModelsPage
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Writes the table as CSV (RFC 4180, UTF-8): a first line "# " and the
 * inputs, a header of the column titles, then one line per row in the
 * table's order (searched and sorted) with the text each cell shows,
 * followed by the exact bytes (weights, KV cache, total, margin) and whether
 * the row is recommended or past its context limit. While the Boards view
 * shows, writes its matrix instead (hr_boards_view_to_csv(): one line per
 * model and board, the inputs, runtime included, in the "# " line).
 *
 * Returns: %TRUE on success; a #G_FILE_ERROR from hr_file_save_atomic()
 */
gboolean
hr_models_page_export_csv (HrModelsPage  *self,
                           const char    *path,
                           GError       **error)
{
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autofree char *title = NULL;
  GListModel *model;
  guint n;

  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), FALSE);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (hr_models_page_get_view_stack (self)), "boards") == 0)
    {
      g_autofree char *boards_csv = hr_boards_view_to_csv (hr_models_page_get_boards_view (self));

      return hr_file_save_atomic (path, boards_csv, strlen (boards_csv), error);
    }

  title = hr_models_page_describe_inputs (self);
  g_string_append (csv, "# ");
  g_string_append (csv, title);
  g_string_append (csv, "\r\n");

  for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
    {
      hr_export_csv_field (csv, hr_models_page_column_title (c));
      g_string_append_c (csv, ',');
    }
  hr_export_csv_field (csv, _("Weights (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("KV cache (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Total (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Margin (bytes)"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Recommended"));
  g_string_append_c (csv, ',');
  hr_export_csv_field (csv, _("Past context limit"));
  g_string_append (csv, "\r\n");

  model = hr_models_page_get_rows (self);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (model, i);
      const HrEvaluation *e = hr_model_row_get_evaluation (row);
      char number[32];

      for (int c = 0; c < HR_MODELS_N_COLUMNS; c++)
        {
          g_autofree char *text = hr_models_page_cell_text (self, row, c);

          hr_export_csv_field (csv, text);
          g_string_append_c (csv, ',');
        }
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->footprint.weights);
      g_string_append_printf (csv, "%s,", number);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->footprint.kv_cache);
      g_string_append_printf (csv, "%s,", number);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->footprint.total);
      g_string_append_printf (csv, "%s,", number);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, e->margin_bytes);
      g_string_append_printf (csv, "%s,", number);
      g_string_append (csv, hr_model_row_get_recommended (row) ? "yes," : "no,");
      g_string_append (csv, e->past_context_limit ? "yes" : "no");
      g_string_append (csv, "\r\n");
    }

  return hr_file_save_atomic (path, csv->str, csv->len, error);
}
