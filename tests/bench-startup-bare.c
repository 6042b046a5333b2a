/* bench-startup-bare.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The yardstick of bench-startup: an AdwApplication that presents one
 * empty AdwApplicationWindow at the size the Headroom window opens at
 * (the schema's window-width x window-height, 1100 x 720), and nothing
 * else. bench-startup-hook.c prints its first painted frame and quits it.
 */

#include "config.h"

#include <adwaita.h>

static void
on_activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.headroom.BenchStartupBare",
                                                       G_APPLICATION_NON_UNIQUE);

  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
