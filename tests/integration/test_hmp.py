# SPDX-License-Identifier: BSD-2-Clause
"""hmp in QEMU: on a plain PC every CPU is equal (1024, weight 256); on an
emulated hybrid machine the machine description gives capacities and the
HFI driver the scores, the manual sysctls override them and `auto` removes the
override; bad values are refused and change nothing (docs/hfi.md)."""
import os
import re

from qemu import ROOT, TestFailure

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")
SMP = os.path.join(ROOT, "machines", "smp.machine")
ROW = re.compile(r"^\s*(\d+) (\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(yes|no|never)\s+(\d+)\s+(\S+)$",
                 re.M)


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def hmp_rows(text):
    """{cpu: (type, capacity, weight, perf, ee, avoid, from, smt)} of one `hmp` output."""
    return {int(g[0]): (g[1], int(g[2]), int(g[3]), int(g[4]), int(g[5]), g[8], g[10], int(g[6]))
            for g in ROW.findall(text.replace("\r", ""))}


def test_hmp_homogeneous_all_equal(ctx):
    m = ctx.machine(machine_file=SMP)
    m.wait_prompt()
    out = m.command("hmp")
    rows = hmp_rows(out)
    check(sorted(rows) == [0, 1, 2, 3], out)
    for cpu, (typ, cap, weight, perf, ee, avoid, frm, smt) in rows.items():
        check((cap, weight, perf, ee, avoid, smt) == (1024, 256, 1020, 1020, "no", 400), out)
    check(re.search(r"machine\s+inactive\s+no machine description", out), out)
    check(re.search(r"core type\s+inactive\s+not hybrid", out), out)


def test_hmp_machine_and_manual(ctx):
    m = ctx.machine(machine_file=SMALL)
    m.wait_prompt()
    rows = hmp_rows(m.command("hmp"))
    # small-hybrid: P speed 1.0, E 0.54 -> 1024 / 553, weights 138 / 256
    check([rows[c][1:3] for c in range(4)] == [(1024, 138), (1024, 138), (553, 256), (553, 256)],
          "capacities/weights: %r" % rows)
    check(rows[0][3:5] == (1020, 320) and rows[2][3:5] == (560, 800), "initial scores: %r" % rows)
    # capacity from the description, scores from its HFI table through the driver;
    # the SMT share of the P cores from its smt-throughput (1.39: 0.39 x 1024)
    check([r[6] for c, r in sorted(rows.items())] == ["mach/hfi/hfi/mach"] * 2 + ["mach/hfi/hfi/eq"] * 2,
          "providers: %r" % rows)
    check([rows[c][7] for c in range(4)] == [399, 399, 400, 400], "SMT shares: %r" % rows)
    out = m.command("sysctl kern.hmp.cpu.3.capacity=300 kern.hmp.cpu.3.perf=0")
    check("kern.hmp.cpu.3.capacity: auto -> 300" in out, out)
    out = m.command("hmp")
    rows = hmp_rows(out)
    check(rows[3][1:4] == (300, 256, 0) and rows[3][5] == "yes" and rows[3][6] == "man/man/hfi/eq", out)
    check(rows[0][2] == 75 and rows[2][2] == 139, "weights after the override: " + out)
    check(re.search(r"manual\s+active\s+overrides on 1 CPU", out), out)
    for bad, msg in (("kern.hmp.cpu.2.perf=1021", "kern.hmp.cpu.2.perf: 1021 is outside 0..1020"),
                     ("kern.hmp.cpu.2.capacity=0", "kern.hmp.cpu.2.capacity: 0 is outside 1..1024"),
                     ("kern.hmp.cpu.2.capacity=10", "kern.hmp.cpu.2.capacity: 10 leaves a CPU more than 16 "
                      "times slower than the fastest, beyond what hmp's weights can tell apart; at least 64"),
                     ("kern.hmp.cpu.2.eff=x", "kern.hmp.cpu.2.eff: 'x' is not a number"),
                     ("kern.hmp.cpu.4.perf=5", "unknown oid 'kern.hmp.cpu.4.perf'")):
        out = m.command("sysctl " + bad)
        check(msg in out, "%s: %s" % (bad, out))
    out = m.command("sysctl kern.hmp.cpu.3.capacity=auto kern.hmp.cpu.3.perf=auto")
    rows = hmp_rows(m.command("hmp"))
    check(rows[3][1:6] == (553, 256, 560, 800, "no") and rows[2][1:4] == (553, 256, 560), "%r" % rows)
