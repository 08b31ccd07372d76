# SPDX-License-Identifier: BSD-2-Clause
"""AMD's heterogeneous parts under QEMU (machines/strix-point.machine,
machines/phoenix-2.machine; docs/amd.md): each boots with every CPU online
to the shell, `cpus` gives the classic (P) and dense (E) cores with SMT and
their L3, `topo` follows the CCXs, and `bench` runs a workload under ule and
hmp. The Strix Point model's tree must be the one the replay of the real
part's CPUID dump builds (tests/replay/, the `tree: mosaic` part), so the
description and the dump agree. One boot per model."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 120

SCRIPT = "cpus; topo; bench cpu --threads 4 --runs 1 --time 1; poweroff"
RUN_LINE = re.compile(r"^bench: run \d+ of \d+: cpu (\S+), (\d+) [^:]*: ([\d.]+) .+?; check ok: ", re.M)


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def replay_tree(dump):
    """The `level` lines of the Mosaic tree in tests/replay/DUMP.expected."""
    with open(os.path.join(ROOT, "tests", "replay", dump + ".expected")) as f:
        text = f.read()
    part = text[text.index("tree: mosaic"):]
    part = part[:part.index("topology:")]
    return [l for l in part.splitlines() if l.lstrip().startswith("level ")]


def boot(ctx, name, ncpu, model):
    """Boots the preset with SCRIPT; returns (cpus table, topo, bench) output."""
    m = ctx.machine(machine_file=os.path.join(ROOT, "machines", name + ".machine"), run=SCRIPT)
    m.expect(r"smp: %d of %d CPUs online" % (ncpu, ncpu), timeout=240)
    m.expect(r"topology source: machine file " + re.escape(model))
    m.expect(r"mosaic> cpus")
    start = m.pos
    m.expect(r"mosaic> topo")
    cpus = m.output[start:m.pos].replace("\r", "")
    start = m.pos
    m.expect(r"mosaic> bench")
    topo = m.output[start:m.pos].replace("\r", "")
    start = m.pos
    m.expect(r"mosaic> poweroff", timeout=240)
    bench = m.output[start:m.pos].replace("\r", "")
    check(m.wait_exit() == 0, "did not power off")
    return cpus, topo, bench


def cpu_rows(cpus):
    """{cpu: (type, core, l3)} from the `cpus` table."""
    rows = {}
    for line in cpus.splitlines():
        f = line.split()
        if len(f) >= 11 and f[0].isdigit():
            rows[int(f[0])] = (f[2], int(f[4]), f[8])
    return rows


def check_bench(bench):
    got = RUN_LINE.findall(bench)
    check([p for p, *_ in got] == ["ule", "hmp"] and all(float(v) > 0 for *_, v in got),
          "one ule and one hmp run with events expected:\n" + bench[-3000:])
    check("panic" not in bench and "EXCEPTION" not in bench, bench[-3000:])


def test_strix_point(ctx):
    cpus, topo, bench = boot(ctx, "strix-point", 24, "Ryzen AI 9 HX 370 (Strix Point)")
    rows = cpu_rows(cpus)
    check(sorted(rows) == list(range(24)), cpus)
    for c, (ctype, core, l3) in rows.items():
        check((ctype, core, l3) == ("P" if c < 8 else "E", c // 2, "0" if c < 8 else "1"),
              "cpu %d: %r\n%s" % (c, rows[c], cpus))
    for line in replay_tree("RyzenAI9-HX370_StrixPoint_B20F40_CPUID"):
        check(line + "\n" in topo, "topo lacks the replay's %r:\n%s" % (line, topo))
    check_bench(bench)


def test_phoenix_2(ctx):
    cpus, topo, bench = boot(ctx, "phoenix-2", 12, "Ryzen Z1 (Phoenix 2)")
    rows = cpu_rows(cpus)
    check(sorted(rows) == list(range(12)), cpus)
    for c, (ctype, core, l3) in rows.items():
        check((ctype, core, l3) == ("P" if c < 4 else "E", c // 2, "0"), "cpu %d: %r\n%s" % (c, rows[c], cpus))
    want = ["level 1: share L3, cpus 0-11 (12): 2 P-core SMT groups, 4 E-core SMT groups"] + \
        ["  level 2: share L2, cpus %d-%d (2), SMT: %s-core SMT group" % (c, c + 1, "P" if c < 4 else "E")
         for c in range(0, 12, 2)]
    for line in want:
        check(line + "\n" in topo, "topo lacks %r:\n%s" % (line, topo))
    check_bench(bench)
