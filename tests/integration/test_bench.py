# SPDX-License-Identifier: BSD-2-Clause
"""The `bench` command in QEMU (docs/bench.md). On the small hybrid machine
(one shared boot): every workload runs small with its conservation check
passing, a value above 0 and every thread joined; the seed report's layout;
a key stops a plan cleanly (partial tables, threads reaped, the next plan
runs); bad input is refused with the usage and nothing runs; policies are
listed, defined, refused when a sysctl is unknown, read-only or refuses the
value, and a run's settings are put back; the peer policies run by name.
On the i7-1370P model: four
sysbench threads do more under hmp than under ule, on P-cores."""
import os
import re
import time

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 95

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")
I7 = os.path.join(ROOT, "machines", "i7-1370p.machine")
RUN_LINE = re.compile(r"^bench: run (\d+) of (\d+): (\S+) (\S+), (\d+) [^:]*: ([\d.]+) (.+?); check (ok|FAILED[^:]*): (.*)$",
                      re.M)
ALIVE = re.compile(r"bench: threads alive before (\d+), after (\d+)(?: \(MISMATCH\))?; workload threads not joined (\d+)")


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def setup(ctx):
    m = ctx.machine(machine_file=SMALL)
    m.wait_prompt()
    return m


def runs(out):
    """[(policy, threads, value, check text)] of the result lines, all checks ok."""
    got = []
    for n, total, wl, policy, threads, value, unit, status, text in RUN_LINE.findall(out.replace("\r", "")):
        check(status == "ok", "run %s of %s: check %s: %s" % (n, total, status, text))
        got.append((policy, int(threads), float(value), text))
    return got


def reaped(out):
    m = ALIVE.search(out)
    check(m and m.group(1) == m.group(2) and m.group(3) == "0", "threads not all reaped:\n" + out[-2000:])


def bench(m, line, timeout=120):
    out = m.command(line, timeout=timeout).replace("\r", "")
    check("panic" not in out and "EXCEPTION" not in out, out[-3000:])
    return out


def test_bench_workloads_small(ctx, m):
    plans = {
        "cpu": ("bench cpu --threads 1,2 --runs 1 --time 1", 4),
        "make": ("bench make --threads 2 --runs 1 --jobs 12 --job-ms 20 --link-ms 20", 2),
        "pgbench": ("bench pgbench --threads 2 --runs 1 --time 1", 2),
        "hackbench": ("bench hackbench --threads 2 --runs 1 --fds 4 --loops 10", 2),
        "schbench": ("bench schbench --threads 2 --runs 1 --time 1", 2),
        "frames": ("bench frames --threads 2 --runs 1 --time 2", 2),
    }
    for wl, (line, nruns) in plans.items():
        out = bench(m, line)
        got = runs(out)
        check(len(got) == nruns and all(v > 0 for _, _, v, _ in got),
              "%s: %d runs with values > 0 expected:\n%s" % (wl, nruns, out[-3000:]))
        check([p for p, *_ in got] == ["ule", "hmp"] * (nruns // 2), "%s: policies not alternating: %r" % (wl, got))
        check(re.search(r"^A ule\s+\d+\s+1\s", out, re.M) and re.search(r"^B hmp\s+\d+\s+1\s", out, re.M),
              "%s: no result table:\n%s" % (wl, out[-3000:]))
        check("--- mosaic-bench-csv begin %s.placement schema=placement/1 ---" % wl in out, out[-2000:])
        reaped(out)
    # The latency percentiles of schbench, in order.
    lat = re.findall(r"wakeup latency p50 ([\d.]+) p90 ([\d.]+) p99 ([\d.]+) p99.9 ([\d.]+) us",
                     bench(m, "bench schbench --threads 1 --runs 1 --time 1 --policy hmp"))
    check(lat and all(float(a) <= float(b) for a, b in zip(lat[0], lat[0][1:])), "percentiles %r" % lat)
    # Every event counted once: an event limit is met exactly.
    out = bench(m, "bench cpu --threads 2 --runs 1 --time 0 --events 3000000 --policy ule")
    check("check ok: events 3000000 = sum over 2 threads" in out, out[-2000:])
    # The seed report's layout.
    out = bench(m, "bench sweep cpu --threads 1,2 --runs 2 --time 1")
    for want in ("[Policy] ule", "[Policy] hmp", "Use Cores", "Median Per Core", "Rate(Median)",
                 "Rate(Min-Min)", "[Beyond the report] A = ule; B = hmp", "MWU p B:A",
                 "[Where the work ran]", "from the machine model (work clock): events/s"):
        check(want in out, "sweep: no '%s':\n%s" % (want, out[-4000:]))
    check(len(runs(out)) == 8, out[-3000:])
    reaped(out)
    # The tables again without the CSV blocks (the GRUB entries end with it).
    again = bench(m, "bench show")
    check("[Policy] hmp" in again and "Rate(Median)" in again and "mosaic-bench-csv" not in again, again[-3000:])


def test_bench_key_stops(ctx, m):
    before = m.command("ps")
    m.send("bench cpu --threads 2 --runs 4 --time 3\r")
    m.expect(r"bench: run 2 of 8: cpu hmp", timeout=60)
    time.sleep(1)
    m.send("\x03")
    m.expect(r"\nmosaic> ", timeout=60)
    out = m.output.replace("\r", "")
    out = out[out.rfind("bench cpu --threads 2 --runs 4 --time 3"):]
    for want in ("bench: a key: stopping", "bench: run 2 of 8 stopped before its end: not a sample",
                 "1 of 8 runs completed", "STOPPED before the end"):
        check(want in out, "no '%s':\n%s" % (want, out[-3000:]))
    check(re.search(r"^A ule\s+2\s+1\s", out, re.M) and re.search(r"^B hmp\s+2\s+0\s", out, re.M),
          "partial table expected (ule 1 run, hmp none):\n" + out[-3000:])
    check("bench: run 3 of 8" not in out, out[-3000:])
    reaped(out)
    after = m.command("ps")
    check(len(re.findall(r" cpu ", after)) == 0 and before.count("\n") == after.count("\n"),
          "threads left behind:\n%s\n---\n%s" % (before, after))
    # The next plan runs to its end.
    out = bench(m, "bench cpu --threads 1 --runs 1 --time 1")
    check(len(runs(out)) == 2 and "STOPPED" not in out, out[-2000:])


def test_bench_bad_input(ctx, m):
    cases = [
        ("bench nosuch", "no workload 'nosuch' (cpu, make, pgbench, hackbench, schbench, frames, classmix)"),
        ("bench cpu --policy ule,nosuch", "--policy: no policy 'nosuch'"),
        ("bench cpu --frobnicate 1", "cpu: no option --frobnicate"),
        ("bench cpu --threads 0", "--threads: 0 is outside 1..256"),
        ("bench cpu --threads -3", "--threads: '-3' is not a number (1..256)"),
        ("bench cpu --threads 4,4", "--threads: 4 appears twice"),
        ("bench cpu --runs 0", "--runs: 0 is outside 1..1024"),
        ("bench cpu --runs 99999999999", "--runs: 99999999999 is outside 1..1024"),
        ("bench cpu --time 3601", "--time: 3601 is outside 0..3600"),
        ("bench cpu --time", "--time needs a value"),
        ("bench hackbench --threads 30", "more than 1024"),
        ("bench sweep", "usage: bench"),
        ("bench", "usage: bench"),
    ]
    for line, want in cases:
        out = bench(m, line)
        check(want in out and "usage: bench" in out and "bench: run 1 of" not in out,
              "%s: expected '%s' and the usage, nothing run:\n%s" % (line, want, out))


def test_bench_policies(ctx, m):
    out = bench(m, "bench policies")
    for want in ("ule ", "hmp ", "hmp-no-d", "kern.sched.hmp.steer=0", "hmp-no-upmigrate", "primary-p",
                 "kern.sched.primary=performance"):
        check(want in out, "bench policies: no '%s':\n%s" % (want, out))
    refused = [
        ("bench policy p1 kern.sched.nosuch=1", "no sysctl kern.sched.nosuch"),
        ("bench policy p2 kern.sched.hmp.steer=7", "7 is outside 0..1"),
        ("bench policy p3 kern.sched.policy=fast", "'fast' is not one of ule|hmp"),
        ("bench policy p4 kern.ostype=x", "kern.ostype is read-only"),
        ("bench policy p5 kern.sched.policy", "'kern.sched.policy' is not NAME=VALUE"),
        ("bench policy p6 kern.sched.hmp.steer=0 kern.sched.hmp.steer=1", "kern.sched.hmp.steer is set twice"),
        ("bench policy ule kern.sched.policy=hmp", "ule is built in"),
        ("bench policy bad! kern.sched.policy=hmp", "name 'bad!' is not"),
    ]
    for line, want in refused:
        out = bench(m, line)
        check(want in out and "defined" not in out, "%s: expected '%s':\n%s" % (line, want, out))
    check("no policy 'p2'" in bench(m, "bench cpu --policy p2"), "a refused policy exists")
    check("kern.sched.hmp.steer: 1" in m.command("sysctl kern.sched.hmp.steer"), "a refused value stayed set")
    out = bench(m, "bench policy nosteer kern.sched.policy=hmp kern.sched.hmp.steer=0")
    check("bench: policy nosteer defined: kern.sched.policy=hmp kern.sched.hmp.steer=0" in out, out)
    check("nosteer" in bench(m, "bench policies"), "defined policy not listed")
    m.command("sysctl kern.sched.policy=ule kern.sched.hmp.steer=1")
    out = bench(m, "bench cpu --threads 1 --runs 1 --time 1 --policy nosteer,hmp")
    check(len(runs(out)) == 2 and "bench: policy A = nosteer: kern.sched.policy=hmp kern.sched.hmp.steer=0" in out,
          out[-3000:])
    now = m.command("sysctl kern.sched.policy kern.sched.hmp.steer")
    check("kern.sched.policy: ule" in now and "kern.sched.hmp.steer: 1" in now, "settings leaked: " + now)


def test_bench_peers(ctx, m):
    """The peer placement policies and the example (docs/policies.md) run
    in bench by name, one short run each, alternating, every thread
    joined; kern.sched.policy takes their names and sysinfo reports it."""
    out = bench(m, "bench policies")
    for name in ("mic", "linux", "bpfland", "fastest"):
        check(re.search(r"^%s\s" % name, out, re.M), "bench policies: no %s:\n%s" % (name, out))
    out = bench(m, "bench cpu --threads 2 --runs 1 --time 1 --policy mic,linux,bpfland,fastest")
    got = runs(out)
    check([p for p, *_ in got] == ["mic", "linux", "bpfland", "fastest"] and all(v > 0 for _, _, v, _ in got),
          "one run per peer with a value > 0 expected:\n" + out[-3000:])
    reaped(out)
    out = m.command("sysctl kern.sched.policy=bpfland")
    check(re.search(r"kern\.sched\.policy: \w+ -> bpfland", out), out)
    check(re.search(r"policy:\s+bpfland", m.command("sysinfo")), "sysinfo does not name bpfland")
    m.command("sysctl kern.sched.policy=hmp")
    check("kern.sched.policy: hmp" in m.command("sysctl kern.sched.policy"), "policy not put back")


def test_bench_i7_hmp_beats_ule(ctx):
    m = ctx.machine(machine_file=I7, run="bench cpu --threads 4 --runs 4 --policy ule,hmp --time 2; poweroff")
    check(m.wait_exit(600) == 0, "did not power off:\n" + m.tail(3000))
    out = m.output.replace("\r", "")
    check("panic" not in out and "EXCEPTION" not in out, out[-3000:])
    check(len(runs(out)) == 8, out[-4000:])
    med = {p: float(v) for p, v in re.findall(r"^[AB] (ule|hmp)\s+4\s+4\s+([\d.]+)\s", out, re.M)}
    share = {p: float(v) for p, v in re.findall(r"^(ule|hmp)\s+4\s+4\s+([\d.]+)%", out, re.M)}
    check(len(med) == 2 and len(share) == 2, "no tables:\n" + out[-4000:])
    print("i7-1370p, 4 threads: hmp/ule median %.4f (ule %.2f, hmp %.2f events/s), P-core share ule %.2f%%, "
          "hmp %.2f%%" % (med["hmp"] / med["ule"], med["ule"], med["hmp"], share["ule"], share["hmp"]))
    check(med["hmp"] > med["ule"], "hmp's median %.2f not above ule's %.2f" % (med["hmp"], med["ule"]))
    check(share["hmp"] >= 95.0, "hmp's P-core share %.2f%% below 95%%" % share["hmp"])
    # Energy from the emulated RAPL counters (docs/hfi.md, "Energy"): every
    # run has its line; four threads alone on four P-cores draw base 4 +
    # 4 x 7 + idle P 2 x 0.2 + idle E 8 x 0.1 = 33.2 W of the power model,
    # less while the run starts and joins its threads (a few % of it), and
    # ule, which also uses E-cores, no more.
    lines = re.findall(r"^bench:   energy: ([\d.]+) J over (\d+) ms, ([\d.]+) W average, ([\d.]+) events/J$",
                       out, re.M)
    check(len(lines) == 8, "not one energy line per run:\n" + out[-4000:])
    table = out[out.index("[Energy]"):] if "[Energy]" in out else ""
    watts = {p: float(w) for p, w in re.findall(r"^[AB] (ule|hmp)\s+4\s+4\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s",
                                               table, re.M)}
    check(len(watts) == 2 and 31.5 <= watts["hmp"] <= 33.5 and watts["ule"] <= watts["hmp"] + 0.5,
          "[Energy] watts %r, expected hmp about 33.2 W and ule not above it:\n%s" % (watts, table[:2000]))
    reaped(out)
