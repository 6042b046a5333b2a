/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The headroom window: binds the text domain and runs HrApplication.
 * HEADROOM_LOCALE_DIR, when set, is where the translations are (an
 * uninstalled build's po/ directory); else the installed LOCALEDIR.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  const char *locale_dir = g_getenv ("HEADROOM_LOCALE_DIR");

  /* HEADROOM_LOCALE_DIR: the translations of an uninstalled build
   * (<build>/po), as HEADROOM_DATA_DIR is its data. */
  bindtextdomain (GETTEXT_PACKAGE, locale_dir != NULL && locale_dir[0] != '\0' ? locale_dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = hr_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
