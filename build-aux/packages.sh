# build-aux/packages.sh: the Debian 12 packages Headroom needs to build, run
# and test, and a check that installs the missing ones (sourced by
# build-aux/run and build-aux/test).
#
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash

HEADROOM_PACKAGES=(
  meson ninja-build pkg-config gcc
  libglib2.0-dev libglib2.0-bin libjson-glib-dev json-glib-tools
  libgtk-4-dev libadwaita-1-dev libsoup-3.0-dev libsecret-1-dev
  gettext desktop-file-utils appstream flatpak-builder
  xvfb xauth dbus-daemon glib-networking
  at-spi2-core libatspi2.0-dev
  clang libclang-rt-14-dev
  imagemagick adwaita-icon-theme
  cmake g++ git
)
# npm installs node-llama-cpp, whose llama.cpp source build-aux/llama-server
# builds for the 'llama' test suite. A Node.js from elsewhere (NodeSource)
# brings its own npm, so the Debian package is asked for only when there is
# no npm command.

# headroom_ensure_test_locale: the German tests (test-models-page) check the
# German separators ("10,2 t/s") only where the de_DE.UTF-8 locale exists. As
# root on Debian, installs `locales` when missing and generates de_DE.UTF-8
# (localedef, and uncommented in /etc/locale.gen so locale-gen keeps it),
# saying so; otherwise, or when that fails, says the checks are skipped and
# goes on: never a reason to stop the build. Called by build-aux/test.
headroom_ensure_test_locale () {
  local status

  if locale -a 2>/dev/null | grep -qiE '^de_DE\.utf-?8$'; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v dpkg-query >/dev/null 2>&1; then
    echo "The de_DE.UTF-8 locale is not installed: the tests skip their German separator checks" \
         "(as root on Debian, build-aux/test generates it; or run: sudo localedef -i de_DE -f UTF-8 de_DE.UTF-8)" >&2
    return 0
  fi
  status=$(dpkg-query -W -f='${db:Status-Status}' locales 2>/dev/null || true)
  if [ "$status" != "installed" ]; then
    echo "Installing the locales package, for the de_DE.UTF-8 locale the German tests use"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y locales; }; then
      echo "Could not install the locales package: the tests skip their German separator checks" >&2
      return 0
    fi
  fi
  echo "Generating the de_DE.UTF-8 locale for the German tests: localedef -i de_DE -f UTF-8 de_DE.UTF-8"
  if [ -f /etc/locale.gen ]; then
    sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)$/\1/' /etc/locale.gen || true
  fi
  if ! localedef -i de_DE -f UTF-8 de_DE.UTF-8; then
    echo "Could not generate de_DE.UTF-8: the tests skip their German separator checks" >&2
  fi
  return 0
}

# headroom_ensure_packages: installs what is missing with apt-get when run as
# root; otherwise prints the exact command to run and exits 1.
headroom_ensure_packages () {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "Not a Debian system (no dpkg-query): make sure these are installed: ${HEADROOM_PACKAGES[*]}" >&2
    return 0
  fi

  local missing=() pkg status
  for pkg in "${HEADROOM_PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    if [ "$status" != "installed" ]; then
      missing+=("$pkg")
    fi
  done
  if ! command -v npm >/dev/null 2>&1; then
    missing+=(npm)
  fi

  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi

  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing missing packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y "${missing[@]}"
  else
    echo "Headroom needs packages that are not installed. Run:" >&2
    echo "  sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
}
