# SPDX-License-Identifier: BSD-2-Clause
"""The benchmark entries of build/mosaic.iso's GRUB menu (iso/grub.cfg),
booted as a USB stick on the small hybrid machine: the quick benchmark
entry, chosen with the arrow keys on the serial console, runs its plan from
the kernel command line's run= script (stopped here by a key after its
first run) and then `bench show`; the suite's script (the same with HFI
on and off) is taken from grub.cfg as GRUB and the kernel would split it,
and the kernel accepts its plan as it stands (typed, stopped as soon as
its first run starts). tests/integration/test_nuc.py boots the suite
entries themselves to their first run."""
import os
import re
import shlex

from qemu import ROOT, TestFailure

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def entries():
    """[(id, [commands of run=])] of the menu entries in menu order, [] for
    an entry without a run= script."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    got = []
    for ident, body in re.findall(r'menuentry "[^"]*" --id (\S+) \{(.*?)\n\}', cfg, re.S):
        line = re.search(r"chainloader \S+ (.*)", body)
        words = shlex.split(line.group(1)) if line else []   # GRUB removes one level of quotes
        runs = [w[len('run="'):-1] for w in words if w.startswith('run="') and w.endswith('"')]
        got.append((ident, [c.strip() for c in runs[0].split(";")] if runs else []))
    return got


def plan(cmds):
    """The bench sweep command of a run= script, which must end with `bench show`."""
    sweeps = [c for c in cmds if c.startswith("bench sweep ")]
    check(len(sweeps) == 1 and cmds[-1] == "bench show", "script: %r" % cmds)
    return sweeps[0]


def test_grub_bench_entries(ctx):
    menu = entries()
    ids = [i for i, _ in menu]
    check(ids == ["shell", "bench", "bench-hfi-off", "bench-quick", "shell-ule", "safe"], "entries: %r" % menu)
    scripts = dict(menu)
    check(scripts["shell"] == [] and scripts["safe"] == [], "entries: %r" % menu)
    check(scripts["shell-ule"] == [], "entries: %r" % menu)
    full, quick = plan(scripts["bench"]), plan(scripts["bench-quick"])
    check(full == "bench sweep cpu --threads 4,6,8,10,12,16,20 --runs 12 --policy ule,hmp --save", full)
    check(plan(scripts["bench-hfi-off"]) == full, "HFI off: %r" % scripts["bench-hfi-off"])
    m = ctx.machine(iso=os.path.join(ctx.build, "mosaic.iso"), esp=None, machine_file=SMALL)
    m.expect(r"Mosaic shell", timeout=180)
    m.send("\x1b[B\x1b[B\x1b[B\r")    # the fourth entry: the quick benchmark
    m.expect(re.escape("mosaic> " + quick), timeout=240)
    m.expect(r"bench: run 2 of 16: cpu hmp, 4 threads", timeout=120)
    m.send("x")
    # --save: the boot stick (this test's copy of the image) is the only volume.
    m.expect(r"save: \d+ files, \d+ bytes, in MOSAIC/\S+ on da0p\d+", timeout=120)
    m.expect(r"mosaic> bench show", timeout=120)
    m.expect(r"\[Policy\] ule", timeout=60)
    m.wait_prompt(timeout=60)
    out = m.output.replace("\r", "")
    check("bench: run 1 of 16: cpu ule, 4 threads: " in out and "1 of 16 runs completed" in out, out[-3000:])
    # The long entry's plan, exactly as the menu gives it.
    m.send(full + "\r")
    m.expect(r"bench: run 1 of 168: cpu ule, 4 threads, sample 1 of 12", timeout=60)
    m.send("x")
    m.wait_prompt(timeout=120)
    out = m.output.replace("\r", "")
    check("panic" not in out and "EXCEPTION" not in out, out[-3000:])
