# SPDX-License-Identifier: BSD-2-Clause
"""The work clock under QEMU (docs/hfi.md, "The work clock and the speed
model"): on an emulated machine a thread gets less work done per second of
CPU time on an E-core than on a P-core, and two busy SMT siblings share
their core, whatever host CPU the vCPUs got. The figures asserted are the
modelled ones (E 0.54, a busy SMT pair 1.39 = 0.695 each), read from what
`ps` and spawn's end report print: work done, run time, and SPEED = work /
run time. One boot per machine; each checks several things."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 115

I7 = os.path.join(ROOT, "machines", "i7-1370p.machine")      # 20 CPUs: 0-11 P (pairs), 12-19 E
SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")

TOL = 0.05
# ps: ID NAME STATE CPU LAST PRI NICE KIND SCORE %CPU TIME(ms) WORK(ms) SPEED MIGR
# LAST is -1 for a thread that has not been switched out yet (it may have
# just started when ps runs).
PS_ROW = re.compile(r"^\s*(\d+) (\S+)\s+(\S+)\s+(\S+)\s+(-?\d+)\s+\d+\s+-?\d+\s+\S+\s+\d+\s+[\d.]+\s+"
                    r"(\d+)\s+(\d+|-)\s+(\d+\.\d{3}|-)\s+\d+$", re.M)


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def boot(ctx, script, machine_file, timeout=300):
    """Boot, run script then power off; return what was printed after the
    scheduler started."""
    m = ctx.machine(machine_file=machine_file, run=script + "; poweroff")
    m.expect(r"sched: ULE on (\d+) CPUs", timeout=180)
    check(m.wait_exit(timeout) == 0, "did not power off; output ends:\n" + m.tail())
    out = m.output.replace("\r", "")
    check("panic" not in out and "EXCEPTION" not in out, m.tail(3000))
    return out[out.index("sched: ULE"):]


def cpu_threads(ps):
    """{last CPU: [(run ms, work ms, speed), ...]} of the cpu/N threads in one ps."""
    rows = {}
    for g in PS_ROW.finditer(ps):
        if g.group(2).startswith("cpu/"):
            check(g.group(7) != "-" and g.group(8) != "-", "no work clock in:\n" + ps)
            rows.setdefault(int(g.group(5)), []).append(
                (int(g.group(6)), int(g.group(7)), float(g.group(8))))
    return rows


def near(value, want, what, context):
    check(abs(value - want) <= TOL, "%s: %.3f, want %.3f +- %.2f\n%s" % (what, value, want, TOL, context))


# One thread's line of spawn's end report.
SPAWN_ROW = re.compile(r"^spawn:   cpu/(\d+) thread \d+ ended on cpu (\d+): run (\d+) ms, "
                       r"work (\d+) ms, speed (\d+\.\d{3})$", re.M)


def spawn_reports(out, pins):
    """The end reports of the `spawn N cpu pin=...` runs in out, in order:
    per report, (run ms, work ms, speed) of each thread by its place in
    pins, which must be the CPU it ended on. The threads of one spawn start
    together and end at one guest time."""
    reports = []
    for block in re.split(r"^spawn: \d+ cpu threads done after", out, flags=re.M)[1:]:
        rows = {}
        for g in SPAWN_ROW.finditer(block):
            slot, cpu = int(g.group(1)), int(g.group(2))
            check(slot < len(pins) and cpu == pins[slot] and slot not in rows,
                  "thread %d ended on cpu %d, pinned to %r:\n%s" % (slot, cpu, pins, block))
            rows[slot] = (int(g.group(3)), int(g.group(4)), float(g.group(5)))
        check(len(rows) == len(pins), "end report without all %d threads:\n%s" % (len(pins), block))
        reports.append(rows)
    return reports


def check_rates(rows, want_e, want_pair):
    """One spawn of PINS_I7: a lone P thread (slot 0), an E-core (1), the
    two SMT siblings of one core (2, 3) and two threads sharing a P CPU
    (4, 5): the SPEED of each (work per ms of its run time). The two that
    take turns on one CPU (preempted in the middle of work()) each keep
    their CPU's speed and together do one CPU's worth in the time they
    ran. Work is compared per ms run, never in total: the kernel's own
    threads (console, shell) take a share of a pinned thread's CPU that
    grows with the host's load (on a loaded CI host the lone thread ran
    2777 ms of 3000), while what a ms of run time does is the work
    clock's, whatever the host."""
    context = "%r" % rows
    near(rows[0][2], 1.0, "speed of the lone P thread", context)
    near(rows[1][2], want_e, "speed on the E-core", context)
    for slot in (2, 3):
        near(rows[slot][2], want_pair, "speed on busy SMT sibling (thread %d)" % slot, context)
    for slot in (4, 5):
        near(rows[slot][2], 1.0, "speed of thread %d sharing a CPU" % slot, context)
    near((rows[4][1] + rows[5][1]) / (rows[4][0] + rows[5][0]), 1.0,
         "work per ms of the two sharing a CPU", context)


def spawn_pinned(pins, ms):
    """One `spawn` of one thread per entry of pins, started together, and a
    sleep of the shell until a second after they end."""
    return "spawn %d cpu pin=%s ms=%d; sleep %d" % (len(pins), ",".join(map(str, pins)), ms, ms + 1000)


# i7-1370P: a lone P thread (cpu 2), an E-core (cpu 12), both threads of
# P-core 2 (cpus 4, 5) and two threads taking turns on cpu 10.
PINS_I7 = (2, 12, 4, 5, 10, 10)


def test_workclock_i7_rates(ctx):
    """i7-1370P, PINS_I7 busy for 3 s: E does 0.54 of the P thread's work,
    each sibling 0.695, the two on cpu 10 1.0 each and one CPU's worth
    together. With kern.emul.workclock=0 every speed is 1. Switching the
    power budget on is refused: the i7-1370P description has no power
    line."""
    load = spawn_pinned(PINS_I7, 3000)
    out = boot(ctx, load + "; sysctl kern.emul.workclock=0; " + load +
               "; sysctl kern.emul.power=1 kern.emul.workclock=1 kern.emul", I7, timeout=600)
    check("workclock: on: threads advance at their CPU's modelled speed" in out, out[:2000])
    check(re.search(r"work: calibrated on cpu 0 \(core type P, the fastest here\): \d+ iterations "
                    r"per ms .*work\(W\) follows the emulated machine's work clock", out), out[:2000])
    reports = spawn_reports(out, PINS_I7)
    check(len(reports) == 2, "two end reports expected:\n" + out[-4000:])
    check(out.index("spawn: 6 cpu threads done") < out.index("kern.emul.workclock: 1 -> 0") <
          out.rindex("spawn: 6 cpu threads done"), "a run overlapped the switch:\n" + out[-3000:])
    check_rates(reports[0], 0.54, 0.695)
    check_rates(reports[1], 1.0, 1.0)
    check("sysctl: kern.emul.power: the machine description has no power budget (budget= on its 'power' line)"
          in out, out[-2000:])
    check("kern.emul.workclock: 0 -> 1" in out and "kern.emul.power: 0" in out, out[-2000:])


POWER = """# small-hybrid with a power budget (test only): 8 W; P 6 W, E 2 W, a
# second P thread 1 W. P + one E fit; P + both E (10 W) run at
# cbrt(8/10) = 0.928 of their speed. Metered besides: the package 2 W,
# an idle P-core 0.5 W, an idle E-core 0.25 W.
power budget=8 P=6 E=2 smt=1 idle-P=0.5 idle-E=0.25 base=2
"""


def rapl_watts(out):
    """The average watts of each `rapl MS` in out, in order."""
    return [float(w) for w in re.findall(r"^rapl: over [\d.]+ s: package [\d.]+ J(?:, cores \(PP0\) [\d.]+ J)?, average ([\d.]+) W$", out, re.M)]


def test_workclock_power_budget(ctx):
    """A description with a `power` line: the budget slows every core once
    the busy cores ask for more than it; kern.emul.power=0 lifts it. The
    emulated RAPL counters meter the model's power (docs/hfi.md, "Energy"):
    idle, base 2 + idle cores 0.5 + 2 x 0.25 = 3 W; the three cores busy
    under the budget, base 2 + (6 + 2 + 2) x 0.928^3 = 10 W (the budget
    counts the busy cores: 8 W); with the budget off, 2 + 10 = 12 W. The
    shell's own short runs add a little. The speeds come from runs with the
    shell asleep (it runs on the P-core's sibling), the watts from runs
    beside `rapl`."""
    with open(SMALL) as f:
        text = f.read()
    path = os.path.join(ctx.log_dir, "small-power.machine")
    with open(path, "w") as f:
        f.write(text + POWER)
    pins = (0, 2, 3)
    metered = "spawn 3 cpu pin=%s ms=4000; rapl 1000; sleep 4000" % ",".join(map(str, pins))
    out = boot(ctx, "rapl 1000; " + spawn_pinned(pins, 2500) + "; " + metered + "; sysctl kern.emul.power=0; " +
               spawn_pinned(pins, 2500) + "; " + metered, path)
    check("rapl: 1 package, units: energy 2^-14 J, power 2^-3 W, time 2^-10 s; emulated from the machine "
          "description's power model" in out, out[:3000])
    watts = rapl_watts(out)
    check(len(watts) == 3 and 3.0 <= watts[0] <= 3.3 and 9.85 <= watts[1] <= 10.3 and 11.9 <= watts[2] <= 12.3,
          "rapl's average watts %r, expected about 3, 10 and 12:\n%s" % (watts, out[-5000:]))
    check("workclock: on: threads advance at their CPU's modelled speed, under the power budget"
          in out, out[:2000])
    reports = spawn_reports(out, pins)
    check(len(reports) == 4, "four end reports expected:\n" + out[-4000:])
    budget, free = reports[0], reports[2]
    near(budget[0][2], 0.928, "P thread under the budget", "%r" % budget)
    near(budget[1][2], 0.501, "E thread under the budget", "%r" % budget)
    near(free[0][2], 1.0, "P thread, budget off", "%r" % free)
    near(free[2][2], 0.54, "E thread, budget off", "%r" % free)


def test_workclock_inactive_without_description(ctx):
    """QEMU without a machine description (real hardware alike): no work
    clock; work() runs its calibrated loop; ps shows '-'; the sysctls
    refuse."""
    m = ctx.machine(smp=2, run="spawn 1 cpu ms=300; sleep 600; spawn 1 cpu ms=3000; ps; "
                    "sysctl kern.emul.workclock=0; rapl; rapl 100; rdmsr 0x606; rdmsr 0x1b; poweroff")
    check(m.wait_exit(120) == 0, "did not power off; output ends:\n" + m.tail())
    out = m.output.replace("\r", "")
    check("workclock: on" not in out, out[:3000])
    check(re.search(r"work: calibrated on cpu 0 \(core type none, the fastest here\): \d+ iterations "
                    r"per ms .*work\(W\) runs W ns worth of them", out), out[:3000])
    check(re.search(r"spawn: 1 cpu threads done after 300 ms: run \d+ ms\n", out), out[-3000:])
    ps = out[out.index("mosaic> ps"):]
    rows = [g for g in PS_ROW.finditer(ps) if g.group(2) == "cpu/0"]
    check(len(rows) == 1 and rows[0].group(7) == "-" and rows[0].group(8) == "-", ps)
    check("sysctl: kern.emul.workclock: no emulated machine (CPUID)" in out, out[-2000:])
    # No RAPL under plain QEMU (the real-hardware path): the driver's guarded
    # read of MSR_RAPL_POWER_UNIT gets 0 (TCG raises no #GP for MSRs it does
    # not know: it reads them as 0), which it refuses; rdmsr reads through
    # the same door (the APIC base MSR reads the xAPIC at 0xfee00000).
    absent = "rapl: not present: MSR_RAPL_POWER_UNIT (0x606) reads 0x0, no energy unit"
    check(out.count(absent) == 3, "rapl should be absent at boot and in both commands:\n" + out[-2000:])
    check(re.search(r"rdmsr: MSR 0x606 on cpu \d+ = 0x0000000000000000\n", out) and
          re.search(r"rdmsr: MSR 0x1b on cpu \d+ = 0x00000000fee00[0-9a-f]{3}\n", out), out[-2000:])


def test_workclock_hfi_throttle(ctx):
    """After `hfi throttle` of a P-core row the thread on it does work at
    the modelled throttled speed (perf 255 -> 127: 127/255 = 0.498 of a P
    thread), measured between two `ps` over the same interval; `hfi
    restore` brings it back to 1.0."""
    script = ("spawn 1 cpu cpus=0 ms=9000; sleep 1500; ps; hfi throttle 0 perf=127; sleep 2000; ps; "
              "hfi restore; sleep 2000; ps")
    out = boot(ctx, script, SMALL, timeout=600)
    frames = [p.split("mosaic> ")[0] for p in out.split("mosaic> ps")[1:]]
    check(len(frames) == 3, "three ps outputs expected:\n" + out[-4000:])
    samples = []
    for ps in frames:
        rows = cpu_threads(ps)
        check(list(rows) == [0] and len(rows[0]) == 1, "one thread on cpu 0:\n" + ps)
        samples.append(rows[0][0])
    (r0, w0, _), (r1, w1, _), (r2, w2, _) = samples
    near((w1 - w0) / (r1 - r0), 127 / 255, "work rate while throttled", out[-4000:])
    near((w2 - w1) / (r2 - r1), 1.0, "work rate after hfi restore", out[-4000:])
