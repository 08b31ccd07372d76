# SPDX-License-Identifier: BSD-2-Clause
"""The include graph keeps the layers (docs/architecture.md, "Layers" and
"Boundaries"). Three rules, each failure naming FILE:LINE:

1. Every #include of a repository header names it from its tree's include
   root, in <...>: <sched/ule.h> for kernel/, <mosaic/syscall.h> for
   include/, <sim/sim.h> or <tests/unit/...> from the repository root. No
   header sits at the top of an include root, so none can shadow a C
   library header (<string.h> is always the C library's).
2. The base services (kernel/arch/, kernel/kern/, kernel/lib/, kernel/mm/)
   include only base headers, and only arch files include
   arch/x86_64/arch_hooks.h, the one declared door upward (the thread
   layer's tick, IPI and interrupt exit, processes' traps, the console's
   input device). The thread layer (kernel/thread/, kernel/sync/) includes
   only base, the scheduler and its own headers.
3. The scheduler (kernel/sched/) stays portable: it includes only its own
   headers, the C headers and two plain records of kernel/lib/
   (cpu_desc.h, itd_class.h).

A few includes cross a rule on purpose; EXCEPTIONS lists each with why."""
import os
import re
import shutil


# The -I roots of the build, in order (mk/kernel.mk, mk/host.mk).
ROOTS = ["kernel", "include", ""]
# The trees whose includes follow rule 1 (userland/ has its own C library's).
TREES = ["kernel", "include", "boot", "sim", "tests", "tools"]
SOURCES = (".c", ".h", ".def")
BASE = {"arch", "kern", "lib", "mm"}
THREAD = {"thread", "sync"}
HOOKS = "kernel/arch/x86_64/arch_hooks.h"
SCHED_MAY = {"kernel/lib/cpu_desc.h", "kernel/lib/itd_class.h"}
EXCEPTIONS = {
    ("kernel/lib/cpulist.h", "kernel/sched/topo_cpuset.h"):
        "the CPU set type cpulist parses into: plain data with inline bit operations",
    ("kernel/thread/thread.h", "kernel/emul/emul_workclock_model.h"):
        "the work clock every thread carries (struct wc_clock): plain data and a portable init",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder(path):
    """The layer folder of a kernel file: arch, kern, sched, thread, ...
    (main.c: 'main'); None outside kernel/."""
    parts = path.split("/")
    if parts[0] != "kernel":
        return None
    return parts[1] if len(parts) > 2 else "main"


def resolve(root, src, quote, name):
    """(repository path, how) the include lands on, or (None, None) for a
    header outside the repository. how: 'relative' or the root's name."""
    if quote == '"':
        cand = os.path.normpath(os.path.join(os.path.dirname(src), name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand, "relative"
    for r in ROOTS:
        cand = os.path.normpath(os.path.join(r, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand, r or "."
    return None, None


def canonical(path):
    for r in ROOTS[:-1]:
        if path.startswith(r + "/"):
            return path[len(r) + 1:]
    return path


def layer_violation(src, target):
    """Why src may not include target (both repository paths), or None."""
    if (src, target) in EXCEPTIONS:
        return None
    have, want = folder(src), folder(target)
    if have is None or want is None:
        return None
    if target == HOOKS:
        if have in BASE and have != "arch":
            return "arch_hooks.h is arch's door upward; a base service calls nothing above base"
        return None
    if have in BASE and want not in BASE:
        return "a base service (arch, kern, lib, mm) includes a header of a layer above base"
    if have == "sched" and want != "sched" and target not in SCHED_MAY:
        return "the scheduler is portable: only kernel/sched/, the C headers, lib/cpu_desc.h, lib/itd_class.h"
    if have in THREAD and want not in BASE | THREAD | {"sched"}:
        return "the thread layer (thread, sync) includes a header of a layer above it"
    return None


def sources(root):
    for tree in TREES:
        for dirpath, _, files in os.walk(os.path.join(root, tree)):
            for f in sorted(files):
                if f.endswith(SOURCES):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def violations(root):
    """'FILE:LINE: <header>: why' for every include that breaks a rule, and
    'FILE: why' for a header that could shadow a C library header."""
    out = []
    for r in ROOTS:
        d = os.path.join(root, r)
        for f in sorted(os.listdir(d)):
            if f.endswith((".h", ".def")) and os.path.isfile(os.path.join(d, f)):
                out.append("%s: a header at the top of the include root %s/ (it could shadow the C "
                           "library's; put it in its layer's folder)" % (os.path.join(r, f), r or "."))
    for src in sources(root):
        with open(os.path.join(root, src), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                quote, name = m.group(1), m.group(2)
                target, how = resolve(root, src, quote, name)
                if target is None:
                    continue
                where = "%s:%d: %s%s%s" % (src, n, quote, name, '"' if quote == '"' else ">")
                if quote == '"' or name != canonical(target):
                    out.append("%s: write <%s> (from the root of its tree)" % (where, canonical(target)))
                why = layer_violation(src, target)
                if why:
                    out.append("%s: %s" % (where, why))
    return out


def test_the_includes_keep_the_layers(ctx):
    bad = violations(ctx.root)
    assert not bad, "\n".join(bad)


def copy_tree(ctx):
    """The trees the check reads, copied into ctx.tmp."""
    for d in ["kernel", "include", "sim"]:
        shutil.copytree(os.path.join(ctx.root, d), os.path.join(ctx.tmp, d))
    return ctx.tmp


def plant(root, rel, line):
    path = os.path.join(root, rel)
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(line + "\n" + text)


def test_the_check_names_what_it_finds(ctx):
    root = copy_tree(ctx)
    assert violations(root) == []
    planted = [
        ("kernel/kern/printk.c", "#include <thread/thread.h>", "a base service"),
        ("kernel/mm/heap.c", "#include <sync/waitq.h>", "a base service"),
        ("kernel/arch/x86_64/clock/time.c", "#include <dev/fbcon.h>", "a base service"),
        ("kernel/lib/format.c", "#include <arch/x86_64/arch_hooks.h>", "arch's door upward"),
        ("kernel/arch/x86_64/clock/tick.c", '#include "../../../sched/ule.h"', "write <sched/ule.h>"),
        ("kernel/sched/ule_add.c", "#include <arch/x86_64/smp/smp.h>", "the scheduler is portable"),
        ("kernel/thread/thread.c", "#include <user/user.h>", "the thread layer"),
        ("sim/sim_main.c", "#include <kernel/sched/ule.h>", "write <sched/ule.h>"),
        ("kernel/dev/ps2kbd.c", "#include <printk.h>", None),   # no such header: the compiler says so
    ]
    for rel, line, _ in planted:
        plant(root, rel, line)
    bad = violations(root)
    for rel, line, why in planted:
        name = re.search(r'[<"].*[>"]', line).group(0)
        hits = [b for b in bad if b.startswith("%s:1: %s" % (rel, name))]
        if why is None:
            assert not hits, hits
        else:
            assert any(why in b for b in hits), (rel, line, bad)
    # the quoted upward include breaks two rules, every other one once
    assert len(bad) == 9, "\n".join(bad)
    # A header at the top of an include root: reported, and it would take
    # over the C library's string.h in lib/string.h (reported too).
    open(os.path.join(root, "kernel", "string.h"), "w").close()
    more = [b for b in violations(root) if b not in bad]
    assert len(more) == 2, more
    assert more[0].startswith("kernel/string.h: a header at the top of the include root kernel/"), more
    assert more[1].startswith("kernel/lib/string.h:"), more
