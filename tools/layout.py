#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""layout.py: the repository's layout of issue 32, applied to a tree in the
layout before it (kernel/include/, loose files at kernel/'s root, headers
found through a dozen -I folders), or re-applied to a tree already in it
(nothing left to do: the script is idempotent).

It does three things, in order, and changes nothing else:
1. moves files (`git mv`) to the folder of their layer: MOVES below;
2. rewrites every `#include` of a repository header in kernel/, boot/,
   sim/, tests/ and tools/ to name it from its tree's include root:
   `<sched/ule.h>` (kernel/), `<mosaic/boot_info.h>` (include/),
   `<sim/sim.h>`, `<tests/unit/ule_test_util.h>`, `<boot/elf_check.h>`
   (the repository root). Each include is resolved as the old build
   resolved it (the including file's folder for "..." includes, then the
   old -I folders); a C library header stays as it is. userland/ keeps
   its own C library's headers and is not touched;
3. rewrites the moved paths where text names them (docs, comments,
   scripts, tests).

usage: tools/layout.py [--check]
  --check: change nothing; exit 1 and list what would change.

A file this script does not know (a new header in kernel/include/, a new
loose .c file at kernel/'s root) stops it with a message naming the file:
add it to MOVES. Run from anywhere; it works on the repository it is in.
"""
import fnmatch
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Whole folders: every file under the first that matches the pattern goes
# under the second.
DIR_MOVES = [
    ("kernel/arch/x86_64/hfi", "kernel/dev/hfi", "*"),   # a driver, beside the others (Linux: drivers/thermal)
    ("tests/sim", "sim", "wl_test_*.c"),                 # schedsim's own test workloads: part of the product
]

# Single files.
FILE_MOVES = [
    # base services
    ("kernel/console.c", "kernel/kern/console.c"),
    ("kernel/printk.c", "kernel/kern/printk.c"),
    ("kernel/panic.c", "kernel/kern/panic.c"),
    # memory
    ("kernel/fail_nth.c", "kernel/mm/fail_nth.c"),
    # the thread layer, with the kernel side of the scheduler's platform header
    ("kernel/thread.c", "kernel/thread/thread.c"),
    ("kernel/thread_switch.c", "kernel/thread/thread_switch.c"),
    ("kernel/thread_boot.c", "kernel/thread/thread_boot.c"),
    ("kernel/thread_hooks.c", "kernel/thread/thread_hooks.c"),
    ("kernel/sched_sysctl.c", "kernel/thread/sched_sysctl.c"),
    ("kernel/arch/x86_64/sched_plat.c", "kernel/thread/sched_plat.c"),
    # hmp's kernel side: the boot-time providers and the manual override
    ("kernel/hmp_sources.c", "kernel/hmp/hmp_sources.c"),
    ("kernel/hmp_manual.c", "kernel/hmp/hmp_manual.c"),
    # a driver like the HFI's: RAPL energy counters read through the door, sampled by a timer
    ("kernel/arch/x86_64/cpu/rapl.c", "kernel/dev/rapl.c"),
    ("kernel/arch/x86_64/cpu/rapl.h", "kernel/dev/rapl.h"),
    # with their users
    ("kernel/lockup.c", "kernel/shell/lockup.c"),
    ("kernel/work.c", "kernel/bench/work.c"),
    # schedsim's reader of the seed report's tables (also used by tests)
    ("tests/unit/seed_table.c", "sim/seed_table.c"),
    ("tests/unit/seed_table.h", "sim/seed_table.h"),
    # the loader-kernel hand-off, named like the other shared headers
    ("include/boot_info.h", "include/mosaic/boot_info.h"),
]

# kernel/include/NAME.h -> the folder of the layer that implements it.
HEADER_HOMES = {
    "kernel/kern": ["console.h", "panic.h", "printk.h", "version.h"],
    "kernel/lib": ["cmdline.h", "cpu_desc.h", "cpulist.h", "crc32.h", "itd_class.h", "itd_hist.h",
                   "itd_names.h", "parse.h", "ratelimit.h", "strbuf.h", "string.h", "sysctl.h"],
    "kernel/mm": ["fail_nth.h", "mm.h"],
    "kernel/sync": ["mutex.h", "sem.h", "timer.h", "waitq.h"],
    "kernel/thread": ["thread.h"],
    "kernel/hmp": ["hmp_sources.h"],
    "kernel/arch/x86_64": ["power.h", "serial.h", "spinlock.h"],
    "kernel/arch/x86_64/clock": ["time.h"],
    "kernel/arch/x86_64/smp": ["smp.h"],
    "kernel/arch/x86_64/trap": ["backtrace.h"],
    "kernel/dev": ["console_input.h", "fbcon.h", "keyboard.h", "pci.h"],
    "kernel/dev/usb": ["usb.h", "usb_storage.h"],
    "kernel/user": ["user.h"],
    "kernel/bench": ["work.h"],
    "kernel/shell": ["lineedit.h", "lockup.h", "shell.h", "shell_words.h", "sysinfo.h"],
}

# The -I folders of the old build, in an order that resolves every old
# include as the old build did (no repository header name is in two of them).
OLD_INC = ["include", "kernel/include", "kernel/emul", "kernel/emul/machine_desc", "kernel/arch/x86_64",
           "kernel/arch/x86_64/intr", "kernel/arch/x86_64/clock", "kernel/arch/x86_64/acpi",
           "kernel/arch/x86_64/smp", "kernel/arch/x86_64/cpu", "kernel/arch/x86_64/trap", "kernel/sched",
           "kernel/bench", "kernel/user", "boot", "sim", "tests/unit", "tests/fuzz", "tools/cpuid-replay"]
# The include roots of the new build: a path under kernel/ or include/ is
# named from there, anything else from the repository root.
NEW_ROOTS = ["kernel", "include"]
# C library headers that a repository header of the same name shadowed in
# the old build (kernel/include/string.h and time.h passed the C library's
# through on the host; kernel/sched/sched.h was only ever "sched.h"): as
# <NAME> in a file outside kernel/ they name the C library's; in kernel/,
# or as "NAME", the repository's.
C_LIBRARY_FIRST = {"string.h", "time.h", "sched.h", "stdio.h", "stdlib.h"}
# The trees whose includes are rewritten.
TREES = ("kernel/", "boot/", "sim/", "tests/", "tools/")
SOURCE_EXT = (".c", ".h", ".def")
# Text that may name a moved path (step 3).
TEXT_EXT = (".c", ".h", ".def", ".asm", ".md", ".py", ".sh", ".ld", ".mk", ".machine", ".cfg", ".txt")
TEXT_NAMES = ("Makefile", "tools/gdbinit", ".ci/run")
TEXT_SKIP = ("tools/layout.py", "tests/fuzz/corpus/", "tests/data/", "tests/replay/")

INCLUDE = re.compile(r'^(\s*#\s*include\s*)([<"])([^>"]+)([>"])(.*)$')


def git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args), check=True, capture_output=True,
                          text=True).stdout


def tracked():
    return set(git("ls-files").split("\n")) - {""}


def homes():
    return {name: home for home, names in HEADER_HOMES.items() for name in names}


def new_of(path):
    """Where the file at path in the old layout is in the new one."""
    moves = dict(FILE_MOVES)
    if path in moves:
        return moves[path]
    d, name = os.path.split(path)
    if d == "kernel/include" and name in homes():
        return homes()[name] + "/" + name
    for old_dir, new_dir, pattern in DIR_MOVES:
        if d == old_dir and fnmatch.fnmatch(name, pattern):
            return new_dir + "/" + name
    return path


def old_of(path):
    """Where the file at path in the new layout was in the old one (itself
    for a file that did not move, or a new one)."""
    back = {new: old for old, new in FILE_MOVES}
    if path in back:
        return back[path]
    d, name = os.path.split(path)
    if homes().get(name) == d:
        return "kernel/include/" + name
    for old_dir, new_dir, pattern in DIR_MOVES:
        if d == new_dir and fnmatch.fnmatch(name, pattern):
            return old_dir + "/" + name
    return path


def planned_moves(files):
    """[(old, new)] for the tracked files still at an old place; stops on a
    file it does not know and on a move whose target exists."""
    moves = [(f, new_of(f)) for f in sorted(files) if new_of(f) != f]
    bad = []
    for f in sorted(files):
        d, name = os.path.split(f)
        if d == "kernel/include" and name not in homes():
            bad.append(f + ": a header with no home in HEADER_HOMES")
        elif d == "kernel" and name.endswith(".c") and name != "main.c" and new_of(f) == f:
            bad.append(f + ": a loose file at kernel/'s root with no place in FILE_MOVES")
    for old, new in moves:
        if new in files:
            bad.append("%s: cannot move to %s, which exists" % (old, new))
    if bad:
        sys.exit("layout.py: stopped, nothing changed:\n  " + "\n  ".join(bad))
    return moves


def canonical(path):
    """How an include names the repository file path."""
    for r in NEW_ROOTS:
        if path.startswith(r + "/"):
            return path[len(r) + 1:]
    return path


def resolve(src, quote, name, files, old_to_now):
    """The file (its path now) that an include in src names, or None when
    it is not a repository header (the C library's, cmocka's, GNU-EFI's)."""
    # Already in the new form: <kern/printk.h>, <sim/sim.h>, <mosaic/syscall.h>;
    # or in it before a later move of the file it names.
    if "/" in name and not name.startswith("."):
        for r in NEW_ROOTS + [""]:
            cand = os.path.normpath(os.path.join(r, name))
            if cand in files:
                return cand
            if cand in old_to_now:
                return old_to_now[cand]
    if quote == '"':
        cand = os.path.normpath(os.path.join(os.path.dirname(old_of(src)), name))
        if cand in old_to_now:
            return old_to_now[cand]
    if quote == "<" and not src.startswith("kernel/") and name in C_LIBRARY_FIRST:
        return None   # outside the kernel these were always the C library's
    for d in OLD_INC:
        cand = os.path.normpath(os.path.join(d, name))
        if cand in old_to_now:
            return old_to_now[cand]
    return None


def rewrite_includes(files, check):
    changed = []
    old_to_now = {old_of(f): f for f in files}
    for f in sorted(files):
        if not f.startswith(TREES) or not f.endswith(SOURCE_EXT) or f.startswith(TEXT_SKIP):
            continue
        path = os.path.join(ROOT, f)
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        out = []
        for line in lines:
            m = INCLUDE.match(line)
            if m:
                target = resolve(f, m.group(2), m.group(3), files, old_to_now)
                if target and target != f:   # lib/string.h's <string.h> is the C library's
                    line = "%s<%s>%s" % (m.group(1), canonical(target), m.group(5))
            out.append(line)
        if out != lines:
            changed.append(f)
            if not check:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write("\n".join(out))
    return changed


def path_pairs(files):
    """(old, new) path strings to rewrite in text, longest first: each moved
    file's and each moved folder's."""
    pairs = {old_of(f): f for f in files if old_of(f) != f}
    for old, new in FILE_MOVES:
        pairs[old] = new
    for name, home in homes().items():
        pairs["kernel/include/" + name] = home + "/" + name
    for old_dir, new_dir, pattern in DIR_MOVES:
        if pattern == "*":
            pairs[old_dir] = new_dir
    return sorted(pairs.items(), key=lambda p: -len(p[0]))


def rewrite_text(files, pairs, check):
    changed = []
    pattern = re.compile(r"(?<![\w./-])(%s)(?![\w])" % "|".join(re.escape(o) for o, _ in pairs))
    table = dict(pairs)
    for f in sorted(files):
        if f.startswith(TEXT_SKIP) or not (f.endswith(TEXT_EXT) or f in TEXT_NAMES):
            continue
        path = os.path.join(ROOT, f)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        new = pattern.sub(lambda m: table[m.group(1)], text)
        if new != text:
            changed.append(f)
            if not check:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(new)
    return changed


def main():
    check = "--check" in sys.argv[1:]
    files = tracked()
    moves = planned_moves(files)
    if check and moves:
        print("\n".join("move %s -> %s" % m for m in moves))
        sys.exit(1)
    for old, new in moves:
        os.makedirs(os.path.join(ROOT, os.path.dirname(new)), exist_ok=True)
        git("mv", old, new)
    files = tracked()
    inc = rewrite_includes(files, check)
    txt = rewrite_text(files, path_pairs(files), check)
    if check:
        out_of_layout = ["includes: " + f for f in inc] + ["paths: " + f for f in txt]
        if out_of_layout:
            print("\n".join(out_of_layout))
            sys.exit(1)
        print("layout.py: the tree is in the layout")
        return
    print("layout.py: %d files moved, includes rewritten in %d files, paths named in %d files" %
          (len(moves), len(inc), len(txt)))


if __name__ == "__main__":
    main()
