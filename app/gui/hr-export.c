/* hr-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <cairo.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-export.h"

/**
 * hr_export_png:
 * @node: what to draw, from hr_memory_chart_render()
 * @renderer: (nullable): a realized renderer (the window's); %NULL renders
 *   with a cairo renderer of its own
 * @width: pixels
 * @height: pixels
 * @path: the file to write (replaced atomically)
 * @title: the PNG's Title text chunk (the inputs)
 * @description: (nullable): the PNG's Description text chunk
 * @error: return location for a #GError
 *
 * Renders @node to a texture and saves it as PNG with the inputs in its
 * tEXt chunks.
 *
 * Returns: %TRUE on success; a #G_FILE_ERROR (from hr_file_save_atomic())
 *   or a #GDK_PIXBUF_ERROR otherwise
 */
gboolean
hr_export_png (GskRenderNode *node,
               GskRenderer   *renderer,
               int            width,
               int            height,
               const char    *path,
               const char    *title,
               const char    *description,
               GError       **error)
{
  g_autoptr(GskRenderer) own_renderer = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autofree char *buffer = NULL;
  gsize length = 0;
  graphene_rect_t viewport;

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (renderer == NULL)
    {
      own_renderer = gsk_cairo_renderer_new ();
      if (!gsk_renderer_realize (own_renderer, NULL, error))
        return FALSE;
      renderer = own_renderer;
    }

  graphene_rect_init (&viewport, 0, 0, width, height);
  texture = gsk_renderer_render_texture (renderer, node, &viewport);

  if (own_renderer != NULL)
    gsk_renderer_unrealize (own_renderer);

  pixbuf = gdk_pixbuf_get_from_texture (texture);
  if (!gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &length, "png", error,
                                  "tEXt::Title", title ? title : "",
                                  "tEXt::Description", description ? description : "",
                                  "tEXt::Software", "Headroom " PACKAGE_VERSION,
                                  NULL))
    return FALSE;

  return hr_file_save_atomic (path, buffer, length, error);
}

static cairo_status_t
append_to_string (void                *closure,
                  const unsigned char *data,
                  unsigned int         length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

/**
 * hr_export_svg:
 * @node: what to draw, from hr_memory_chart_render()
 * @width: pixels
 * @height: pixels
 * @path: the file to write (replaced atomically)
 * @title: the SVG's &lt;title&gt; (the inputs)
 * @description: (nullable): the SVG's &lt;desc&gt;
 * @error: return location for a #GError
 *
 * Draws @node on a cairo SVG surface (the same geometry as on screen) and
 * puts @title and @description into the document.
 *
 * Returns: %TRUE on success; a #G_IO_ERROR_FAILED naming cairo's status, or
 *   a #G_FILE_ERROR from hr_file_save_atomic()
 */
gboolean
hr_export_svg (GskRenderNode *node,
               int            width,
               int            height,
               const char    *path,
               const char    *title,
               const char    *description,
               GError       **error)
{
  g_autoptr(GString) svg = g_string_new (NULL);
  g_autofree char *title_xml = NULL;
  g_autofree char *desc_xml = NULL;
  g_autofree char *insert = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  const char *root;
  const char *root_end;

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  surface = cairo_svg_surface_create_for_stream (append_to_string, svg, width, height);
  /* Pixels, as on screen (cairo's default unit is the point). */
  cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not draw the chart as SVG for %s: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }

  root = strstr (svg->str, "<svg");
  root_end = root ? strchr (root, '>') : NULL;
  if (root_end == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not draw the chart as SVG for %s: cairo wrote no svg element"), path);
      return FALSE;
    }

  title_xml = g_markup_escape_text (title ? title : "", -1);
  desc_xml = g_markup_escape_text (description ? description : "", -1);
  insert = g_strdup_printf ("\n<title>%s</title>\n<desc>%s</desc>", title_xml, desc_xml);
  g_string_insert (svg, root_end - svg->str + 1, insert);

  return hr_file_save_atomic (path, svg->str, svg->len, error);
}

/**
 * hr_export_csv_field:
 * @line: the line being built
 * @value: (nullable): one field
 *
 * Appends @value as one CSV field (RFC 4180): quoted, with quotes doubled,
 * when it holds a comma, a quote or a line break.
 */
void
hr_export_csv_field (GString    *line,
                     const char *value)
{
  if (value == NULL)
    value = "";

  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (line, value);
      return;
    }

  g_string_append_c (line, '"');
  for (const char *p = value; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *p);
    }
  g_string_append_c (line, '"');
}
