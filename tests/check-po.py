#!/usr/bin/env python3
# tests/check-po.py: fails when a translatable string in the sources has no
# translation in a language's catalog (po/LL.po), or only a fuzzy one.
#
# It checks, in this order:
#   1. po/POTFILES.in names only files that exist, and every file under app/
#      and ui/ that marks a string for translation (_(), N_(), C_(),
#      NC_(), g_dngettext(), g_dpgettext2(), translatable="yes") is listed;
#   2. xgettext builds the template from po/POTFILES.in into a temporary
#      folder, with the keywords of po/meson.build (i18n.gettext(preset:
#      'glib'), whose arguments are meson's PRESET_ARGS['glib'] in
#      mesonbuild/modules/i18n.py, copied below);
#   3. every message of the template has a translation in the catalog that
#      is neither empty nor fuzzy (plural forms too), the catalog keeps no
#      obsolete (#~) entries, and `msgcmp` agrees;
#   4. `msgfmt -c` accepts the catalog (format strings match, header valid).
# Each msgid that is missing, untranslated or fuzzy is printed.
#
# Usage: check-po.py --source-root DIR --xgettext PATH --msgcmp PATH
#                    --msgfmt PATH [--language de]
#
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import os
import re
import subprocess
import sys
import tempfile

# meson's i18n.gettext(preset: 'glib'); keep in step with po/meson.build.
XGETTEXT_ARGS = [
    '--from-code=UTF-8',
    '--add-comments',
    '--keyword=_',
    '--keyword=N_',
    '--keyword=C_:1c,2',
    '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2',
    '--keyword=g_dngettext:2,3',
    '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format',
    '--flag=C_:2:pass-c-format',
    '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format',
    '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format',
    '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format',
    '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format',
    '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format',
    '--flag=g_printerr:1:c-format',
    '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format',
    '--flag=g_sprintf:2:c-format',
    '--flag=g_snprintf:3:c-format',
]

# What marks a string for translation in a C source or a GtkBuilder file.
MARKED = re.compile(r'(?<![A-Za-z0-9_])(?:N?C?_\s*\(\s*"|(?:g_dngettext|g_dpgettext2|g_dcgettext)\s*\()'
                    r'|translatable="yes"')
SCANNED_DIRS = ('app', 'ui')
SCANNED_SUFFIXES = ('.c', '.h', '.ui')

ESCAPES = {'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'f': '\f',
           'v': '\v', '\\': '\\', '"': '"', "'": "'", '?': '?'}


def unquote(text, where):
    """The value of one PO string literal, "..." with C escapes."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f'{where}: expected a quoted string, found {text!r}')
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        c = body[i]
        if c != '\\':
            out.append(c)
            i += 1
            continue
        n = body[i + 1] if i + 1 < len(body) else ''
        if n in ESCAPES:
            out.append(ESCAPES[n])
            i += 2
        elif n in '01234567' and n:
            digits = re.match(r'[0-7]{1,3}', body[i + 1:]).group(0)
            out.append(chr(int(digits, 8)))
            i += 1 + len(digits)
        elif n == 'x':
            digits = re.match(r'[0-9A-Fa-f]+', body[i + 2:]).group(0)
            out.append(chr(int(digits, 16)))
            i += 2 + len(digits)
        else:
            raise ValueError(f'{where}: unknown escape \\{n}')
    return ''.join(out)


class Entry:
    def __init__(self):
        self.msgctxt = None
        self.msgid = None
        self.msgid_plural = None
        self.msgstr = {}
        self.fuzzy = False
        self.obsolete = False

    def key(self):
        return (self.msgctxt, self.msgid)


def parse_po(path):
    """The entries of a PO or POT file, the header included (msgid "")."""
    entries, entry, field = [], Entry(), None

    def finish():
        nonlocal entry, field
        if entry.msgid is not None:
            entries.append(entry)
        entry, field = Entry(), None

    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            where = f'{path}:{number}'
            line = line.rstrip('\n')
            obsolete = line.startswith('#~')
            if obsolete:
                line = line[2:].lstrip()
                if line.startswith('|'):
                    continue
            if not line.strip():
                finish()
                continue
            if line.startswith('#'):
                if entry.msgid is not None and field is not None:
                    finish()
                if line.startswith('#,') and 'fuzzy' in [t.strip() for t in line[2:].split(',')]:
                    entry.fuzzy = True
                continue
            entry.obsolete = entry.obsolete or obsolete
            m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
            if m:
                keyword, index, value = m.group(1), m.group(2), unquote(m.group(3), where)
                if keyword == 'msgctxt' or (keyword == 'msgid' and field not in (None, 'msgctxt')):
                    if entry.msgid is not None:
                        finish()
                        entry.obsolete = obsolete
                if keyword.startswith('msgstr'):
                    field = ('msgstr', int(index) if index is not None else 0)
                    entry.msgstr[field[1]] = value
                else:
                    field = keyword
                    setattr(entry, keyword, value)
            elif line.startswith('"') and field is not None:
                value = unquote(line, where)
                if isinstance(field, tuple):
                    entry.msgstr[field[1]] += value
                else:
                    setattr(entry, field, getattr(entry, field) + value)
            else:
                raise ValueError(f'{where}: cannot read {line!r}')
    finish()
    return entries


def check_potfiles(root, potfiles):
    """Problems with po/POTFILES.in: listed files that are gone, and files
    with marked strings that it does not list."""
    problems, listed = [], set()
    with open(potfiles, encoding='utf-8') as f:
        for line in f:
            name = line.split('#', 1)[0].strip()
            if not name:
                continue
            listed.add(name)
            if not os.path.isfile(os.path.join(root, name)):
                problems.append(f'po/POTFILES.in lists {name}, which does not exist')
    for top in SCANNED_DIRS:
        for folder, _dirs, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SCANNED_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root).replace(os.sep, '/')
                with open(path, encoding='utf-8', errors='replace') as f:
                    if MARKED.search(f.read()) and relative not in listed:
                        problems.append(f'{relative} has translatable strings but po/POTFILES.in does not list it')
    return problems


def quote(text):
    """text as a PO string literal."""
    for plain, escaped in (('\\', '\\\\'), ('"', '\\"'), ('\n', '\\n'), ('\t', '\\t'), ('\r', '\\r')):
        text = text.replace(plain, escaped)
    return '"' + text + '"'


def show(entry):
    context = '' if entry.msgctxt is None else f'msgctxt {quote(entry.msgctxt)} '
    return f'{context}msgid {quote(entry.msgid)}'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--source-root', required=True)
    parser.add_argument('--xgettext', required=True)
    parser.add_argument('--msgcmp', required=True)
    parser.add_argument('--msgfmt', required=True)
    parser.add_argument('--language', default='de')
    options = parser.parse_args()

    root = os.path.abspath(options.source_root)
    potfiles = os.path.join(root, 'po', 'POTFILES.in')
    catalog = os.path.join(root, 'po', options.language + '.po')
    problems = check_potfiles(root, potfiles)

    with tempfile.TemporaryDirectory(prefix='check-po-') as tmp:
        pot = os.path.join(tmp, 'headroom.pot')
        xgettext = subprocess.run([options.xgettext, '--package-name=headroom', '-f', potfiles,
                                   '-D', root, '-k_', '-o', pot] + XGETTEXT_ARGS,
                                  capture_output=True, text=True)
        if xgettext.returncode != 0 or not os.path.isfile(pot):
            print(xgettext.stderr, end='', file=sys.stderr)
            print('xgettext could not build the template from po/POTFILES.in', file=sys.stderr)
            return 1

        template = [e for e in parse_po(pot) if e.msgid != '']
        translations = {e.key(): e for e in parse_po(catalog) if not e.obsolete}
        obsolete = [e for e in parse_po(catalog) if e.obsolete]
        missing, untranslated, fuzzy = [], [], []
        for e in template:
            t = translations.get(e.key())
            if t is None:
                missing.append(e)
            elif t.fuzzy:
                fuzzy.append(e)
            elif not t.msgstr or any(s == '' for s in t.msgstr.values()) \
                    or (e.msgid_plural is not None and len(t.msgstr) < 2):
                untranslated.append(e)
        for label, group in (('not in', missing), ('untranslated in', untranslated), ('fuzzy in', fuzzy)):
            for e in group:
                problems.append(f'{label} po/{options.language}.po: {show(e)}')
        for e in obsolete:
            problems.append(f'obsolete (#~) entry in po/{options.language}.po: {show(e)}')

        # msgcmp counts fuzzy and untranslated entries as missing.
        msgcmp = subprocess.run([options.msgcmp, '-N', catalog, pot], capture_output=True, text=True)
        if msgcmp.returncode != 0:
            problems.append('msgcmp: ' + (msgcmp.stderr.strip() or 'failed'))

    msgfmt = subprocess.run([options.msgfmt, '-c', '--statistics', '-o', os.devnull, catalog],
                            capture_output=True, text=True)
    print(msgfmt.stderr.strip())
    if msgfmt.returncode != 0:
        problems.append('msgfmt -c rejects po/' + options.language + '.po')

    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f'{len(problems)} problem(s); update po/POTFILES.in, then run '
              f'`meson compile -C _build headroom-update-po` and translate what is new', file=sys.stderr)
        return 1
    print(f'po/{options.language}.po translates all {len(template)} messages of the sources')
    return 0


if __name__ == '__main__':
    sys.exit(main())
