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
  gettext desktop-file-utils appstream
  xvfb xauth dbus-daemon glib-networking
  clang libclang-rt-14-dev
  imagemagick adwaita-icon-theme
  cmake g++ git
)
# npm installs node-llama-cpp, whose llama.cpp source build-aux/llama-server
# builds for the 'llama' test suite. A Node.js from elsewhere (NodeSource)
# brings its own npm, so the Debian package is asked for only when there is
# no npm command.

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
