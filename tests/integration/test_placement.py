# SPDX-License-Identifier: BSD-2-Clause
"""Hybrid placement in QEMU (docs/hmp.md), with the work clock on. On the
i7-1370P model: four CPU-bound threads under kern.sched.policy=hmp run on
four distinct P cores; throttling two of those cores (HFI perf 0) moves
their threads away within 100 ms of guest time and `hfi restore` lets them
come back; with kern.sched.hmp.metric=ee two light threads run on E-cores;
switching the policy back and forth under load keeps every run-queue
invariant. On the Core Ultra 7 155H model the LP-E cores get no thread
while P or E cores are idle. Placement is read from `ps -w` (shares of
each thread's run time by core type)."""
import os
import re

import pytest

from qemu import ROOT, TestFailure

# Asserts where threads ran within guest-time windows: runs with no other
# QEMU beside it (tests/integration/conftest.py).
pytestmark = pytest.mark.exclusive

I7 = os.path.join(ROOT, "machines", "i7-1370p.machine")
MTL = os.path.join(ROOT, "machines", "core-ultra-7-155h.machine")
WHERE = re.compile(r"^\s*(\d+) (\S+)\s+(-?\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
                   re.M)


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def where(frame, prefix):
    """{name: (last cpu, ms, P%, E%, LP-E%, other%, SMT%)} of threads named prefix* in one ps -w."""
    return {g[1]: (int(g[2]), int(g[3])) + tuple(float(x) for x in g[4:])
            for g in WHERE.findall(frame.replace("\r", "")) if g[1].startswith(prefix)}


def frames(out, cmd):
    return [p.split("mosaic> ")[0] for p in out.split("mosaic> " + cmd)[1:]]


def boot(ctx, machine, script, timeout=600):
    m = ctx.machine(machine_file=machine, run=script + "; poweroff")
    m.expect(r"sched: ULE on (\d+) CPUs", timeout=180)
    check(m.wait_exit(timeout) == 0, "did not power off; output ends:\n" + m.tail())
    out = m.output.replace("\r", "")
    check("panic" not in out and "EXCEPTION" not in out, m.tail(3000))
    return out


# A thread an interactive one preempts on its P core (the shell running
# `ps`) may be stolen by an idle E-core for a moment; an idle P CPU pulls it
# back at its next upmigration scan (kern.sched.hmp.upmigrate_scan, 4
# ticks). So a placement snapshot that fails is taken again after 50 ms of
# guest time, at most SNAPSHOTS times: a placement that is wrong for good
# fails every one of them.
SNAPSHOTS = 3


def settled(m, cmd, ok):
    """The output of cmd (a ps) once ok(output) holds, else the last of SNAPSHOTS tries, 50 ms apart."""
    for i in range(SNAPSHOTS):
        out = m.command(cmd, timeout=60)
        if ok(out) or i == SNAPSHOTS - 1:
            return out
        m.command("sleep 50", timeout=60)


def alone_on_p(cpus):
    """1 if the four threads of {name: cpu} sit on four distinct P cores of the i7 (CPUs 0-11)."""
    return len(cpus) == 4 and all(c < 12 for c in cpus.values()) and len({c // 2 for c in cpus.values()}) == 4


def running(frame):
    """{name: cpu} of the cpu/N threads running in one plain `ps`."""
    return {n: int(c) for n, c in re.findall(r"^\s*\d+ (cpu/\d+)\s+run\s+(\d+)", frame.replace("\r", ""),
                                             re.M)}


def placed(frame):
    """{name: cpu} of the cpu/N threads in one plain `ps`: where each runs,
    or for one that is ready (queued, e.g. behind the shell running this
    `ps`, which an interactive thread may preempt it for) the CPU it last
    ran on."""
    out = running(frame)
    for n, last in re.findall(r"^\s*\d+ (cpu/\d+)\s+ready\s+-\s+(\d+)", frame.replace("\r", ""), re.M):
        out[n] = int(last)
    return out


def test_placement_i7(ctx):
    m = ctx.machine(machine_file=I7)
    m.wait_prompt()
    m.command("sysctl kern.sched.policy=hmp kern.sched.debug=1")
    m.command("spawn 4 cpu ms=12000")
    m.command("sleep 3000", timeout=120)
    out = settled(m, "ps -w", lambda f: alone_on_p({n: v[0] for n, v in where(f, "cpu/").items()}))
    first = where(out, "cpu/")
    check(len(first) == 4, "four cpu threads expected:\n" + out)
    for name, (last, ms, p, e, lpe, other, smt) in first.items():
        check(p >= 95.0 and smt <= 5.0,
              "%s not on a P core alone: P %.2f%% SMT %.2f%%\n%s" % (name, p, smt, out))
    check(alone_on_p({n: v[0] for n, v in first.items()}),
          "threads not on four distinct P cores within %d snapshots:\n%s" % (SNAPSHOTS, out))
    cores = {v[0] // 2 for v in first.values()}
    # Throttle (HFI perf 0) the P cores of two of them: they must leave within 100 ms.
    victims = sorted(cores)[:2]
    cpus = ",".join("%d,%d" % (2 * c, 2 * c + 1) for c in victims)
    m.command("hfi throttle %s perf=0" % cpus)
    m.command("sleep 100", timeout=60)
    now = placed(m.command("ps", timeout=60))
    check(len(now) == 4 and all(c // 2 not in victims for c in now.values()),
          "threads still on throttled cores %r 100 ms later: %r" % (victims, now))
    m.command("sleep 1000", timeout=120)
    m.command("hfi restore")
    m.command("sleep 1500", timeout=120)
    back = placed(settled(m, "ps", lambda f: alone_on_p(placed(f))))
    check(alone_on_p(back), "threads not back on four P cores after hfi restore: %r" % back)
    m.command("sleep 6000", timeout=300)   # the four end
    m.command("sysctl kern.sched.hmp.metric=ee")
    m.command("spawn 2 sleep ms=3000")
    m.command("sleep 2500", timeout=120)
    light = where(m.command("ps -w", timeout=60), "sleep/")
    check(len(light) == 2 and all(v[3] >= 90.0 for v in light.values()),
          "light threads not on E-cores with metric=ee: %r" % light)
    m.command("sleep 1000", timeout=120)
    m.command("sysctl kern.sched.hmp.metric=perf")
    # Policy switches under load, invariants checked after every queue change.
    m.command("spawn 8 cpu ms=4000")
    for p in ("ule", "hmp") * 8:
        m.command("sysctl kern.sched.policy=" + p)
    out = m.command("schedtest storm 200 1000", timeout=300)
    check(re.search(r"storm: created .*; ok\r?$", out, re.M) and "panic" not in m.output, out)
    m.command("sleep 3000", timeout=120)
    check("panic" not in m.output and "EXCEPTION" not in m.output, m.tail(3000))


def test_placement_155h_lpe_unused(ctx):
    """hmp on the Core Ultra 7 155H: twelve CPU-bound threads never touch the
    LP-E cores, which `sched stats` counts as no LP-E pick; then
    kern.sched.primary: its values read back, bad ones refused by name, and
    under primary=efficiency two threads run on E-cores (CPUs 2-9). Last,
    energy from the emulated RAPL counters (docs/hfi.md, "Energy"): a bench
    run of six threads has its joules and events/J, its watts between six
    busy P threads paired on three cores (47 W) and alone on six (77.9 W);
    six threads pinned one per P-core draw base 5 + 6 x 12 + idle E 8 x 0.1
    + idle LP-E 2 x 0.05 = 77.9 W of the machine's power model, measured
    from 300 ms after they start (one `spawn pin=`, so they start together;
    a loaded host may hold a vCPU for tens of ms before its new thread
    first runs there)."""
    out = boot(ctx, MTL, "sysctl kern.sched.policy=hmp; sched stats reset; spawn 12 cpu ms=6000; sleep 4000; "
               "ps -w; sched stats; sleep 3000; "
               "sysctl kern.sched.primary=0-1,10; sysctl kern.sched.primary; "
               "sysctl kern.sched.primary=22; sysctl kern.sched.primary=fast; sysctl kern.sched.primary; "
               "sysctl kern.sched.primary=efficiency; sysctl kern.sched.primary; "
               "spawn 2 cpu ms=3000; sleep 1500; ps -w; sysctl kern.sched.primary=all; sleep 1700; "
               "bench cpu --threads 6 --runs 1 --policy hmp --time 1; "
               "spawn 6 cpu pin=0,10,12,14,16,18 ms=4000; sleep 300; rapl 1000")
    threads = where(frames(out, "ps -w")[0], "cpu/")
    check(len(threads) == 12, "twelve cpu threads expected:\n" + out[-5000:])
    for name, (last, ms, p, e, lpe, other, smt) in threads.items():
        check(lpe == 0.0 and last < 20, "%s ran on LP-E cores (%.2f%%, last cpu %d):\n%s" %
              (name, lpe, last, out[-5000:]))
    stats = dict(re.findall(r"^  (\w+)\s+(\d+)", frames(out, "sched stats\n")[0], re.M))
    check(stats.get("pick_lpe") == "0" and stats.get("pick_untyped") == "0", "LP-E or untyped picks:\n" + out[-5000:])
    check(int(stats["pick_p"]) + int(stats["pick_e"]) >= 12, "fewer picks than threads:\n" + out[-5000:])
    reads = [f.strip().splitlines()[0] for f in frames(out, "sysctl kern.sched.primary\n")]
    check(reads[:3] == ["kern.sched.primary: 0-1,10"] * 2 + ["kern.sched.primary: efficiency"],
          "primary read back %r:\n%s" % (reads, out[-5000:]))
    for bad, why in (("22", "22 is outside 0..21"), ("fast", "'fast' is not a number (0..21)")):
        msg = ("sysctl: kern.sched.primary: '%s' is not all, performance, efficiency or a CPU list (cpus: %s)"
               % (bad, why))
        check(msg in frames(out, "sysctl kern.sched.primary=" + bad)[0], "no %r in:\n%s" % (msg, out[-5000:]))
    late = where(frames(out, "ps -w")[1], "cpu/")
    check(len(late) == 2, "two cpu threads expected:\n" + out[-3000:])
    for name, (last, ms, p, e, lpe, other, smt) in late.items():
        check(2 <= last <= 9 and e > 90.0, "%s not on E-cores under primary=efficiency (last cpu %d, "
              "E %.2f%%):\n%s" % (name, last, e, out[-3000:]))
    energy = re.search(r"^bench:   energy: ([\d.]+) J over (\d+) ms, ([\d.]+) W average, ([\d.]+) events/J$", out, re.M)
    check(energy and 47.0 <= float(energy.group(3)) <= 78.5,
          "bench's energy line on the 155H model: expected 47 to 77.9 W:\n" + out[-4000:])
    pinned = re.search(r"^rapl: over [\d.]+ s: package [\d.]+ J, cores \(PP0\) [\d.]+ J, average ([\d.]+) W$",
                       out, re.M)
    check(pinned and 77.9 <= float(pinned.group(1)) <= 78.6,
          "six P-cores busy: expected 77.9 W (and a little for the shell):\n" + out[-3000:])
    check(re.search(r"^\[Energy\] medians of the runs", out, re.M), "no [Energy] table:\n" + out[-4000:])
