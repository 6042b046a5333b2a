/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The headroom window: binds the text domain and runs HrApplication.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;

  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = hr_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
