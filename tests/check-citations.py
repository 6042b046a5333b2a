#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# check-citations.py: the sources a reader meets can be followed
# (docs/README.md, "Citing these pages"). In app/, tests/, ui/, data/ and
# po/ it fails on:
#  - a document that is not in the repository (the old reference notes,
#    shared/ paths, the seed texts' file names);
#  - an issue number ("(issue 14)"): there is no tracker to follow;
#  - a docs/<page>.md that does not exist, or a section quoted after it
#    (`docs/ollama.md, "Known quirks"`) that is not a heading of that page.
# Upstream paths (llama.cpp's and Ollama's files, and the upstream docs/
# pages in UPSTREAM_DOCS, such as Ollama's docs/api.md) are not checked.
#
# Usage: check-citations.py SOURCE_ROOT

import os
import re
import sys

ROOTS = ("app", "tests", "ui", "data", "po")
SUFFIXES = (".c", ".h", ".ui", ".json", ".po", ".build", ".in", ".xml", ".css", ".py")
GONE = re.compile(r"(?<![\w/.-])(?:seed-facts|ollama-api|hf-hub|partial-offload|multi-gpu|design|gnome-style)\.md"
                  r"|shared/(?:reference|seeds)/"
                  r"|(?:from-api-to-gpu-weeks-1-4|running-larger-models)\.txt")
BREAK = r"(?:[ \t]+|[ \t]*\n[ \t]*(?:\*(?!/)|#\.?)?[ \t]*)"
ISSUE = re.compile(r"\(issues?" + BREAK + r"\d+|\bissues?" + BREAK + r"\d+(?:'s)?\b", re.IGNORECASE)
PAGE = re.compile(r"(?<![\w/.-])(?<!Ollama )(?<!ggml )(docs/[a-z0-9-]+\.md)")
SECTION = re.compile(r"(docs/[a-z0-9-]+\.md),?" + BREAK + r"?\(?(\\\"|\")((?:(?!\2)[^\n]|\n[ \t]*\*[ \t]*)*?)\2")


# docs/ pages of the upstream projects that comments cite by path.
UPSTREAM_DOCS = {
    "docs/api.md",        # Ollama's HTTP API reference
    "docs/faq.md",        # Ollama
    "docs/modelfile.md",  # Ollama
    "docs/gguf.md",       # ggml's GGUF specification
    "docs/multi-gpu.md",  # llama.cpp
    "docs/build.md",      # llama.cpp
}


def headings(root):
    out = {}
    docs = os.path.join(root, "docs")
    for name in sorted(os.listdir(docs)) if os.path.isdir(docs) else []:
        if name.endswith(".md"):
            with open(os.path.join(docs, name), encoding="utf-8") as f:
                out["docs/" + name] = {re.sub(r"^#+\s*", "", l).strip() for l in f if l.startswith("#")}
    return out


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    heads = headings(root)
    problems = []
    checked = 0
    for top in ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            for name in filenames:
                path = os.path.join(dirpath, name)
                if not name.endswith(SUFFIXES) and name != "meson.build":
                    continue
                if os.path.abspath(path) == os.path.abspath(__file__):
                    continue
                try:
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                except (UnicodeDecodeError, OSError):
                    continue
                rel = os.path.relpath(path, root)

                def line_of(pos):
                    return text.count("\n", 0, pos) + 1
                for m in GONE.finditer(text):
                    problems.append(f"{rel}:{line_of(m.start())}: cites {m.group(0)}, which is not in the repository")
                for m in ISSUE.finditer(text):
                    problems.append(f"{rel}:{line_of(m.start())}: \"{m.group(0)}\": no issue numbers in the sources")
                for m in PAGE.finditer(text):
                    checked += 1
                    if m.group(1) not in heads and m.group(1) not in UPSTREAM_DOCS:
                        problems.append(f"{rel}:{line_of(m.start())}: {m.group(1)} does not exist")
                for m in SECTION.finditer(text):
                    page = m.group(1)
                    section = re.sub(r"\s*\n[ \t]*\*[ \t]*", " ", m.group(3))
                    if page in heads and section not in heads[page]:
                        problems.append(f"{rel}:{line_of(m.start())}: {page} has no section \"{section}\"")
    for p in problems:
        print(p)
    print(f"{checked} citations of docs/ checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
