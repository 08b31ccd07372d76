# SPDX-License-Identifier: BSD-2-Clause
"""Thread Director (docs/hfi.md, "Thread Director"): on a small hybrid
machine with an emulated Thread Director (tests/data/itd-small-hybrid.machine,
one boot), a thread doing vector work is read as class 1 at its switches
and adopted as vector, a scalar one as scalar (`ps -c`); `hfi` counts the
reads per class, the device's answers and the HRESETs; vector code runs at
its class speed. Machines without Thread Director say "not present" in
test_hfi.py's boots."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host.
EXPECTED_S = 60

ITD_MACHINE = os.path.join(ROOT, "tests", "data", "itd-small-hybrid.machine")
AGREE = 4   # ITD_HIST_AGREE (kernel/lib/itd_hist.h)

# ps -c: ID NAME CODE ITD SCALAR VECTOR VNNI SPIN OTHER INVALID CHANGES
PS_C_ROW = re.compile(r"^\s*(\d+) (cpu/\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)"
                      r"\s+(\d+)\s+(\d+)$", re.M)


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def test_itd_classes(ctx):
    m = ctx.machine(machine_file=ITD_MACHINE)
    m.expect(r"emul-itd: Thread Director on: 4 classes, HRESET \(CPUID.07H.01H:EAX\[22\], "
             r"leaf 0x20\), a class is valid after 1000 us in it", timeout=180)
    m.expect(r"itd: on: 4 classes, 4 CPUs, HRESET at each switch, emulated", timeout=60)
    m.wait_prompt()
    out = m.command("spawn 1 cpu cpus=2 ms=6000 class=vector")
    check("spawn: started 1 cpu threads for 6000 ms, class vector" in out, out)
    m.command("spawn 1 cpu cpus=3 ms=6000")
    m.command("sleep 4000", timeout=60)
    out = m.command("ps -c").replace("\r", "")
    rows = {g.group(3): g for g in PS_C_ROW.finditer(out)}
    check(set(rows) == {"vector", "scalar"}, "no vector and scalar spawn threads in ps -c:\n" + out)
    v, s = rows["vector"], rows["scalar"]
    check(v.group(4) == "vector", "the vector thread is not classified vector:\n" + out)
    check(int(v.group(6)) >= AGREE and int(v.group(11)) == 1,
          "the vector thread: fewer than %d vector reads or not one adoption:\n%s" % (AGREE, out))
    check(s.group(4) == "scalar" and int(s.group(5)) >= AGREE and int(s.group(6)) == 0 and
          int(s.group(11)) == 0, "the scalar thread is not scalar throughout:\n" + out)
    out = m.command("hfi").replace("\r", "")
    m_valid = re.search(r"^  valid reads per class: scalar (\d+), vector (\d+), vnni (\d+), "
                        r"spin (\d+)$", out, re.M)
    check(m_valid and int(m_valid.group(2)) >= AGREE, "hfi: no vector reads counted:\n" + out)
    m_dev = re.search(r"^  valid answers per class: scalar (\d+), vector (\d+), vnni 0, spin 0$",
                      out, re.M)
    check(m_dev and int(m_dev.group(2)) >= int(m_valid.group(2)),
          "the device answered fewer vector reads than the driver counted:\n" + out)
    hres = re.search(r"invalid reads \d+, beyond the classes 0, faults 0, HRESETs (\d+)", out)
    check(hres and int(hres.group(1)) > 0, "no HRESETs, or faults:\n" + out)
    check(re.search(r"HRESETs (\d+) \(ignored 0\), faults 0", out), out)
    check("emulated Thread Director: 4 classes, 4 CPUs enabled" in out, out)
    # Both spawn threads end at 6 s: the vector one on its E-core did
    # vector work at 0.54 x 0.71 = 0.383 of a lone P thread.
    end = m.expect(r"spawn:   cpu/0 thread \d+ ended on cpu 2: run \d+ ms, work \d+ ms, "
                   r"speed ([\d.]+)", timeout=60)
    speed = float(end.group(1))
    check(abs(speed - 0.383) <= 0.01, "vector work on the E-core at speed %.3f, not 0.383" % speed)
    m.expect(r"spawn:   cpu/0 thread \d+ ended on cpu 3", timeout=60)
    swap_scenario(m)


# The description's speeds (tests/data/itd-small-hybrid.machine): scalar
# work runs at 1.0 on the P-core and 0.54 on an E-core, vector work at
# 0.98 and 0.54 x 0.71 = 0.383; two busy threads of the P-core share its
# smt-throughput of 1.39, 0.695 each.
SMT_SHARE = 1.39 / 2
SCALAR_P, SCALAR_E = 1.0 * SMT_SHARE, 0.54
VECTOR_P, VECTOR_E = 0.98 * SMT_SHARE, 0.54 * 0.71
RUN_MS = 10000
# The fillers outlast the pair by more than the guest time the shell takes
# to start the pair (two commands typed over serial: longer on a loaded
# host), so no CPU is idle before the pair ends.
FILL_MS = RUN_MS + 3000
P_CPUS, E_CPUS = (0, 1), (2, 3)


def job_end(m, out, ms, cls):
    """(speed, cpu it ended on) of the one-thread spawn job of ms and class
    cls (None: scalar), from its end report in out or still to come."""
    rx = (r"spawn: 1 cpu threads done after %d ms%s: run \d+ ms, work \d+ ms, speed ([\d.]+)\r?\n"
          r"spawn:   cpu/0 thread \d+ ended on cpu (\d+)" % (ms, ", class " + cls if cls else ""))
    g = re.search(rx, out) or m.expect(rx, timeout=60)
    return float(g.group(1)), int(g.group(2))


def swap_scenario(m):
    """hmp with Thread Director classes (kern.sched.hmp.itd, docs/hmp.md):
    every CPU busy. A scalar thread holds the P-core's CPU 0 and a thread
    doing vector work the E-core CPU 2, each held there for its first
    300 ms (spawn free=), then free to go anywhere; two pinned scalar
    threads keep CPUs 1 (CPU 0's SMT sibling) and 3 busy for longer than
    the pair runs, so no CPU is ever idle: no idle steal, no up-migration
    to an idle CPU, only the class swap can move the pair. Vector code
    gains more on the P-core (class 1 perf 250 there against 100 on E,
    class 0 255 against 140), so with itd=1 the balancer swaps the two once
    the vector thread is classified: about 0.4 s to classify (four reads at
    slice ends), then at most 1.5 s to the next balancer pass
    (kern.sched.balance_interval 100 ticks, jittered to 50..150). The shell
    sleeps through the whole run, so nothing of its own moves the threads;
    where they ran comes from each thread's speed (work done over run time)
    in the end report, and where they ended. With itd=1 the vector thread
    ran at least half its time on the P-core, the scalar one at least half
    on an E-core, and they ended swapped; with itd=0 hmp makes no class
    swap and the vector thread stays on its E-core."""
    m.command("sysctl kern.sched.policy=hmp")
    seen = {}
    for itd in (0, 1):
        m.command("sysctl kern.sched.hmp.itd=%d" % itd)
        m.command("sched stats reset")
        m.command("spawn 1 cpu cpus=1 ms=%d" % FILL_MS)
        m.command("spawn 1 cpu cpus=3 ms=%d" % FILL_MS)
        m.command("spawn 1 cpu cpus=0 free=300 ms=%d" % RUN_MS)
        m.command("spawn 1 cpu cpus=2 free=300 ms=%d class=vector" % RUN_MS)
        out = m.command("sleep %d" % (FILL_MS + 500), timeout=120).replace("\r", "")
        scalar, vector = job_end(m, out, RUN_MS, None), job_end(m, out, RUN_MS, "vector")
        stats = m.command("sched stats", timeout=60).replace("\r", "")
        g = re.search(r"itd_swaps\s+(\d+)", stats)
        check(g, "sched stats has no itd_swaps:\n" + stats)
        vector_on_p = (vector[0] - VECTOR_E) / (VECTOR_P - VECTOR_E)
        scalar_on_e = (SCALAR_P - scalar[0]) / (SCALAR_P - SCALAR_E)
        seen[itd] = (scalar, vector, int(g.group(1)), vector_on_p, scalar_on_e, stats)
    summary = "; ".join("itd=%d: scalar speed %.3f (%.0f%% on E), ended on cpu %d; vector speed "
                        "%.3f (%.0f%% on P), ended on cpu %d; %d swaps" %
                        (i, sc[0], 100 * se, sc[1], ve[0], 100 * vp, ve[1], sw)
                        for i, (sc, ve, sw, vp, se, _) in sorted(seen.items()))
    print(summary)
    scalar, vector, swaps, vector_on_p, scalar_on_e, stats = seen[0]
    check(swaps == 0 and vector_on_p <= 0.25 and vector[1] in E_CPUS,
          "itd=0: a class swap, or the vector thread left its E-core (%s):\n%s" % (summary, stats))
    scalar, vector, swaps, vector_on_p, scalar_on_e, stats = seen[1]
    check(swaps >= 2 and vector_on_p >= 0.5 and scalar_on_e >= 0.5 and vector[1] in P_CPUS and
          scalar[1] in E_CPUS,
          "itd=1: the vector thread should move to the P-core and the scalar one to an E-core "
          "(%s):\n%s" % (summary, stats))
