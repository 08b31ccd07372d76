#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""spdx.py: the licence line at the top of every source file.

Mosaic is under the BSD 2-Clause licence (LICENSE). Every tracked source
file says so in its first lines, in the comment syntax of its language:

  C, headers, X-macro tables, linker scripts   /* SPDX-License-Identifier: BSD-2-Clause */
  NASM                                         ; SPDX-License-Identifier: BSD-2-Clause
  Python, shell, Makefiles, gdb and GRUB scripts  # SPDX-License-Identifier: BSD-2-Clause
                                               (after a #! line)

Documentation (*.md), data (machine descriptions, CSV, tables, logs, CPUID
dumps, fuzz corpora, expected outputs) and configuration read by programs
(userland/etc/, the sanitizer ignore list, .gitignore) carry no line: they
are not code, and some are read byte for byte.

usage: tools/spdx.py [--check]
  adds the line where it is missing (idempotent);
  --check: changes nothing, lists the files without it, exit 1 if any.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ID = "SPDX-License-Identifier: BSD-2-Clause"
C_STYLE = "/* %s */" % ID
STYLES = {
    ".c": C_STYLE, ".h": C_STYLE, ".def": C_STYLE, ".ld": C_STYLE,
    ".asm": "; " + ID,
    ".py": "# " + ID, ".sh": "# " + ID, ".mk": "# " + ID,
}
NAMES = {"Makefile": "# " + ID, "gdbinit": "# " + ID, "grub.cfg": "# " + ID, "run": "# " + ID}
# Tracked files under these are data or expected outputs, not code.
DATA = ("tests/fuzz/corpus/", "tests/data/", "tests/replay/")


def style(path):
    """The licence line for path, or None for a file that carries none."""
    if path.startswith(DATA):
        return None
    name = os.path.basename(path)
    if name in NAMES and (name != "run" or path == ".ci/run"):
        return NAMES[name]
    return STYLES.get(os.path.splitext(name)[1])


def has_line(lines):
    return any(ID in line for line in lines[:3])


def with_line(text, line):
    """text with line added at its top, after a #! line."""
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        return first + "\n" + line + "\n" + rest
    return line + "\n" + text


def main():
    check = "--check" in sys.argv[1:]
    files = subprocess.run(["git", "-C", ROOT, "ls-files"], check=True, capture_output=True,
                           text=True).stdout.split("\n")
    missing = []
    for f in sorted(files):
        line = style(f) if f else None
        path = os.path.join(ROOT, f)
        if not line or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if has_line(text.split("\n")):
            continue
        missing.append(f)
        if not check:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(with_line(text, line))
    if check:
        if missing:
            print("no licence line (tools/spdx.py adds it):\n  " + "\n  ".join(missing))
            sys.exit(1)
        print("spdx.py: every source file has its licence line")
        return
    print("spdx.py: the licence line added to %d files" % len(missing))


if __name__ == "__main__":
    main()
