/* bench-startup-hook.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loaded with LD_PRELOAD into each program bench-startup starts (the real
 * `headroom` and bench-startup-bare), so both are timed the same way and
 * neither carries benchmark code: when the first GtkWindow maps, its frame
 * clock's first "after-paint" (the end of the first frame that was drawn)
 * prints "bench-startup first-frame <g_get_monotonic_time() in µs>" on
 * stdout and the application quits.
 */

#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

static gboolean seen;

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

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  printf ("bench-startup first-frame %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, data);
  g_idle_add_full (G_PRIORITY_HIGH, quit_now, NULL, NULL);
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
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  return FALSE;  /* one window is enough: remove the hook */
}

__attribute__((constructor)) static void
bench_startup_hook_init (void)
{
  g_type_class_ref (GTK_TYPE_WIDGET);
  g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0, on_map, NULL, NULL);
}
