#!/usr/bin/python3
"""The arch layer's one upward door (kernel/arch/x86_64/arch_hooks.h, whose
comment states the rule): no file under kernel/arch/x86_64/ includes a
header of a layer above arch (the thread layer, the scheduler, processes,
the shell, devices, the emulated platform) except arch_hooks.h itself.
Every #include is resolved as the kernel's build resolves it (the file's
own folder for "..." includes, then the -I folders of KCFLAGS), and must
land on a C header, an arch header, one of the kernel services the rule
lists, or the scheduler's platform header that arch implements. A
failure names FILE:LINE and the header."""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hosttest  # noqa: E402

ARCH = os.path.join("kernel", "arch", "x86_64")
HOOKS = os.path.join(ARCH, "arch_hooks.h")
# The kernel services of kernel/include/ every layer may use (arch_hooks.h).
SERVICES = {"printk.h", "console.h", "panic.h", "backtrace.h", "spinlock.h", "string.h", "mm.h",
            "sysctl.h", "cmdline.h", "smp.h", "time.h", "power.h", "serial.h", "cpu_desc.h",
            "waitq.h", "timer.h"}
C_HEADERS = {"stdint.h", "stddef.h", "stdarg.h", "stdbool.h", "limits.h"}
# Implemented by arch, so arch may include it.
IMPLEMENTED = {os.path.join("kernel", "sched", "sched_plat.h")}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def include_dirs(root):
    """KCFLAGS' -I folders in order: include/, kernel/include, the emulated
    platform's, then kernel/arch/x86_64 and each of its rooms."""
    dirs = ["include", os.path.join("kernel", "include"), os.path.join("kernel", "emul"),
            os.path.join("kernel", "emul", "machine_desc"), ARCH]
    adir = os.path.join(root, ARCH)
    dirs += sorted(os.path.join(ARCH, d) for d in os.listdir(adir) if os.path.isdir(os.path.join(adir, d)))
    return dirs


def resolve(root, src, quote, name, dirs):
    """The repository path the include lands on, or None (a system header)."""
    cands = ([os.path.join(os.path.dirname(src), name)] if quote == '"' else []) + \
            [os.path.join(d, name) for d in dirs]
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def allowed(path, name):
    if path is None:
        return name in C_HEADERS
    if path.startswith(ARCH + os.sep):
        return True
    if path in IMPLEMENTED:
        return True
    return os.path.dirname(path) == os.path.join("kernel", "include") and os.path.basename(path) in SERVICES


def violations(root):
    """'FILE:LINE: <header> (landing on PATH)' for every include that breaks the rule."""
    dirs = include_dirs(root)
    out = []
    for dirpath, _, files in os.walk(os.path.join(root, ARCH)):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            src = os.path.relpath(os.path.join(dirpath, f), root)
            if src == HOOKS:
                continue
            with open(os.path.join(root, src)) as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    path = resolve(root, src, m.group(1), m.group(2), dirs)
                    if not allowed(path, m.group(2)):
                        out.append("%s:%d: %s (landing on %s): a layer above arch, reached only "
                                   "through arch_hooks.h" % (src, n, m.group(2), path or "no repository file"))
    return out


def test_arch_reaches_up_only_through_arch_hooks(ctx):
    bad = violations(ctx.root)
    assert not bad, "\n".join(bad)


def copy_tree(ctx):
    """The folders the check reads, copied into ctx.tmp."""
    for d in ["include", os.path.join("kernel", "include"), os.path.join("kernel", "emul"),
              os.path.join("kernel", "sched"), ARCH]:
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
    time_c = os.path.join(ARCH, "clock", "time.c")
    hfi_c = os.path.join(ARCH, "hfi", "hfi_kernel.c")
    lapic_h = os.path.join(ARCH, "intr", "lapic.h")
    plant(root, time_c, "#include <thread.h>")
    plant(root, hfi_c, '#include "../../../sched/ule.h"')
    plant(root, lapic_h, "#include <emul_hfi.h>")
    bad = violations(root)
    assert len(bad) == 3, bad
    assert bad_for(bad, time_c + ":1: thread.h")
    assert bad_for(bad, hfi_c + ":1: ../../../sched/ule.h")
    assert bad_for(bad, lapic_h + ":1: emul_hfi.h")


def bad_for(bad, prefix):
    return any(b.startswith(prefix) for b in bad)


hosttest.main(globals())
