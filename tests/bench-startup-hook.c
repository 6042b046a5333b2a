/* bench-startup-hook.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loaded with LD_PRELOAD into each program bench-startup starts (the real
 * `headroom` and bench-startup-bare), so both are timed the same way and
 * neither carries benchmark code: when the first GtkWindow maps, its frame
 * clock's first "after-paint" (the end of the first frame that was drawn)
 * prints "bench-startup first-frame <g_get_monotonic_time() in µs> <peak
 * RSS so far, KiB>" on stdout. A window that builds its pages after its first frame (one with
 * a "pages-built" property, HrWindow) then prints "bench-startup
 * full-frame <µs> <KiB>" at the end of the first frame drawn once they are built;
 * any other window prints it at once, with the first. Then the
 * application quits.
 */

#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gboolean seen;
static GtkWidget *window;

static gboolean
quit_now (gpointer data)
{
  GApplication *app = g_application_get_default ();

  if (app != NULL)
    g_application_quit (app);
  else
    exit (0);
  return G_SOURCE_REMOVE;
}

/* The peak resident set so far (/proc/self/status VmHWM, KiB), or 0. */
static guint64
peak_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmHWM:");
  return line != NULL ? g_ascii_strtoull (line + strlen ("VmHWM:"), NULL, 10) : 0;
}

static void
print_frame (const char *what)
{
  printf ("bench-startup %s %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
          what, g_get_monotonic_time (), peak_rss_kib ());
  fflush (stdout);
}

static gboolean
pages_built (void)
{
  gboolean built = TRUE;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (window), "pages-built") != NULL)
    g_object_get (window, "pages-built", &built, NULL);
  return built;
}

/* The end of the first frame drawn with the pages in place. */
static void
on_full_after_paint (GdkFrameClock *clock,
                     gpointer       data)
{
  if (!pages_built ())
    return;
  print_frame ("full-frame");
  g_signal_handlers_disconnect_by_func (clock, on_full_after_paint, data);
  g_idle_add_full (G_PRIORITY_HIGH, quit_now, NULL, NULL);
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  print_frame ("first-frame");
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, data);
  if (pages_built ())
    {
      print_frame ("full-frame");
      g_idle_add_full (G_PRIORITY_HIGH, quit_now, NULL, NULL);
      return;
    }
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_full_after_paint), NULL);
}

static gboolean
on_map (GSignalInvocationHint *hint,
        guint                  n_values,
        const GValue          *values,
        gpointer               data)
{
  GObject *instance = g_value_get_object (&values[0]);
  GdkFrameClock *clock;

  if (seen || !GTK_IS_WINDOW (instance))
    return TRUE;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (instance));
  if (clock == NULL)
    return TRUE;
  seen = TRUE;
  window = GTK_WIDGET (instance);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  return FALSE;  /* one window is enough: remove the hook */
}

__attribute__((constructor)) static void
bench_startup_hook_init (void)
{
  g_type_class_ref (GTK_TYPE_WIDGET);
  g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0, on_map, NULL, NULL);
}
