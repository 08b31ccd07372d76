"""The benchmark entries of build/mosaic.iso's GRUB menu (iso/grub.cfg),
booted as a USB stick on the small hybrid machine: the quick sweep entry,
chosen with the arrow keys on the serial console, runs its plan from the
kernel command line's run= script (stopped here by a key after its first
run) and then `bench show`; the long entry's script is taken from
grub.cfg as GRUB and the kernel would split it, and the kernel accepts
its plan as it stands (typed, stopped as soon as its first run starts)."""
import os
import re
import shlex

from qemu import ROOT, TestFailure

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def entries():
    """[(title, [commands of run=])] of the menu entries with a run= script."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    got = []
    for title, body in re.findall(r'menuentry "([^"]*)" \{(.*?)\n\}', cfg, re.S):
        line = re.search(r"chainloader \S+ (.*)", body)
        if not line:
            continue
        words = shlex.split(line.group(1))   # GRUB removes one level of quotes
        runs = [w[len('run="'):-1] for w in words if w.startswith('run="') and w.endswith('"')]
        if runs:
            got.append((title, [c.strip() for c in runs[0].split(";")]))
    return got


def test_grub_bench_entries(ctx):
    menu = entries()
    check(len(menu) == 2 and all(cmds[-1] == "bench show" for _, cmds in menu), "entries: %r" % menu)
    full, quick = menu[0][1][0], menu[1][1][0]
    check(full == "bench sweep cpu --threads 4,6,8,10,12,16,20 --runs 12 --policy ule,hmp", full)
    m = ctx.machine(iso=os.path.join(ctx.build, "mosaic.iso"), esp=None, machine_file=SMALL)
    m.expect(r"Mosaic shell", timeout=180)
    m.send("\x1b[B\x1b[B\r")          # the third entry: the quick sweep
    m.expect(re.escape("mosaic> " + quick), timeout=240)
    m.expect(r"bench: run 2 of 16: cpu hmp, 4 threads", timeout=120)
    m.send("x")
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
