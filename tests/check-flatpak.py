#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the Flatpak manifest with flatpak-builder --show-manifest (which
parses it as flatpak-builder will), then what the sandbox must allow:

- a GNOME runtime that Flathub still builds against: org.gnome.Platform 50
  or newer (GNOME 50, March 2026; each GNOME runtime is maintained for
  about a year after its release);
- the network (the Hub, the Ollama library, remote Ollama servers);
- the keyring for the Hub token (libsecret uses the Secret portal inside
  the sandbox, and org.freedesktop.secrets where no portal backend runs);
- read-only access to the folders Ollama keeps its models in, which the
  File page reads (~/.ollama/models, /usr/share/ollama/.ollama/models).

Usage: check-flatpak.py FLATPAK_BUILDER MANIFEST
"""
import json
import os
import subprocess
import sys
import tempfile

MIN_GNOME_RUNTIME = 50
NEEDED = [
    "--share=network",
    "--talk-name=org.freedesktop.secrets",
    "--filesystem=~/.ollama/models:ro",
    "--filesystem=/usr/share/ollama/.ollama/models:ro",
]


def main():
    builder, manifest = sys.argv[1], sys.argv[2]
    # Run in a scratch folder: flatpak-builder leaves its .flatpak-builder
    # state folder in the current one.
    with tempfile.TemporaryDirectory() as scratch:
        shown = subprocess.run([builder, "--show-manifest", os.path.abspath(manifest)],
                               capture_output=True, text=True, cwd=scratch)
    if shown.returncode != 0:
        print(f"flatpak-builder cannot read {manifest}: {shown.stderr.strip()}")
        return 1
    m = json.loads(shown.stdout)
    problems = []
    if m.get("runtime") != "org.gnome.Platform" or m.get("sdk") != "org.gnome.Sdk":
        problems.append(f"runtime {m.get('runtime')} / sdk {m.get('sdk')}: expected org.gnome.Platform / org.gnome.Sdk")
    version = str(m.get("runtime-version", ""))
    if not version.isdigit() or int(version) < MIN_GNOME_RUNTIME:
        problems.append(f"runtime-version {version!r}: GNOME runtimes before {MIN_GNOME_RUNTIME} are end-of-life")
    args = m.get("finish-args", [])
    for arg in NEEDED:
        if arg not in args:
            problems.append(f"finish-args lacks {arg}")
    if any(a in ("--filesystem=home", "--filesystem=host") for a in args):
        problems.append("finish-args grant the whole home or host file system")
    for p in problems:
        print(p)
    if not problems:
        print(f"{manifest}: org.gnome.Platform {version}, {len(args)} finish-args, all that the app needs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
