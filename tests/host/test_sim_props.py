# SPDX-License-Identifier: BSD-2-Clause
"""schedsim's property run on generated machines (docs/sim.md, "Property
run"): `schedsim --properties N --seed 1` must pass for every workload
(hmp >= 0.99 x ULE for cpu and 0.98 x for make, pgbench, hackbench,
schbench and frames, cpu >= 0.97 x the oracle where it is an upper bound,
no CPU idle next to an overloaded one for longer than the balancer's
longest gap, ule blind to hmp's inputs); its report of a failing machine
reproduces; the instrument has teeth (P3 and P4 see what they should, a
perf-0 event slows its CPUs) and its noise floor is inside the thresholds
(the control run); and the generator (sim/sim_gen.c, `schedsim --gen
SEED`): the same seed gives the same text, every seed parses, and each
shape feature occurs among the first few hundred seeds."""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ROOT = ROOT
# The property run of `make test` (docs/sim.md, "Property run"): every
# workload on machines 1..MACHINES, and the cheap ones (cpu with P2 and
# P3, make, frames) on machines 1..CHEAP_MACHINES; together about a minute
# of one core of the development host.
MACHINES = 4
CHEAP_MACHINES = 50
SEEDS = range(1, 301)   # the generator's tests
WORKLOADS = ["cpu", "make", "pgbench", "hackbench", "schbench", "frames"]


def schedsim(ctx, *args, binary="schedsim"):
    """(exit status, stdout, stderr) of a schedsim binary of ctx.build run from the root."""
    exe = os.path.join(ctx.build, binary)
    p = subprocess.run([exe] + [str(a) for a in args], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    return p.returncode, p.stdout, p.stderr


_runs = {}


def property_runs(ctx):
    """The property runs of `make test` (run once, shared by the tests):
    [(command, (exit status, stdout, stderr))]."""
    if "main" not in _runs:
        cmds = [("--properties", MACHINES, "--seed", 1),
                ("--properties", CHEAP_MACHINES, "--seed", 1, "--workload", "cpu,make,frames")]
        _runs["main"] = [(c, schedsim(ctx, *c)) for c in cmds]
    return _runs["main"]


# ULE without idle stealing or balancing on machines 1..20 (cpu only): CPUs
# left idle next to two threads, so P3 fails on many machines.
P3_FAILING = ("--properties", 20, "--seed", 1, "--workload", "cpu", "--sysctl", "kern.sched.steal_idle=0",
              "--sysctl", "kern.sched.balance=0")


def p3_failing_run(ctx):
    """(exit status, stdout, stderr) of P3_FAILING (run once, shared)."""
    if "p3" not in _runs:
        _runs["p3"] = schedsim(ctx, *P3_FAILING)
    return _runs["p3"]


def failing_blocks(out):
    """[(seed, block text, machine text)] of the failing machines in a report."""
    got = []
    for m in re.finditer(r"^FAIL machine (\d+) .*?^--- machine seed \1 ---\n(.*?)^--- end ---\n", out, re.M | re.S):
        got.append((int(m.group(1)), m.group(0), m.group(2)))
    return got


def section(block, workload):
    """The lines of a failing machine's block about one workload."""
    return [l for l in block.splitlines() if l.startswith("  %s " % workload) or l.startswith("  %s: " % workload)]


def summary(out):
    """The summary lines of a report: {property number: line}."""
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"^P([1-4]): .*$", out, re.M)}


def wl_summary(out):
    """P1's line per workload: {workload: line}."""
    return {m.group(1): m.group(0) for m in re.finditer(r"^P1 ([a-z]+): .*$", out, re.M)}


def test_property_run(ctx):
    failures = []
    for cmd, (rc, out, err) in property_runs(ctx):
        lines = summary(out)
        assert sorted(lines) == [1, 2, 3, 4], (cmd, out[-3000:])
        assert re.search(r"^runs without a sample: \d+$", out, re.M), out[-3000:]
        assert err.startswith("schedsim: properties: %d machines" % cmd[1]), err
        if rc != 0:
            head = "\n".join([lines[p] for p in sorted(lines)] + sorted(wl_summary(out).values()))
            blocks = failing_blocks(out)
            shown = "".join(b for _s, b, _t in blocks[:4])
            failures.append("schedsim %s failed on %d machines:\n%s\n\n%s%s"
                            % (" ".join(map(str, cmd)), len(blocks), head, shown,
                               "(%d more failing machines: run the command)" % (len(blocks) - 4)
                               if len(blocks) > 4 else ""))
            continue
        for p in (1, 2, 3, 4):
            assert re.search(r"failed 0 points on 0 machines", lines[p]), lines[p]
    if failures:
        raise AssertionError("\n\n".join(failures))
    rc, out, _err = property_runs(ctx)[0][1]
    assert sorted(wl_summary(out)) == sorted(WORKLOADS), out[-3000:]


def test_failing_machine_reproduces(ctx):
    """A failing machine's block: its machine text is `--gen SEED`'s; a
    workload's `reproduce its checks` command prints the same lines for
    that workload, and its `reproduce the runs` sweep the same medians.
    Without failures in the property runs, from ULE without idle stealing
    or balancing (CPUs left idle next to two threads: P3)."""
    blocks = [b for _c, (rc, out, _e) in property_runs(ctx) for b in failing_blocks(out)]
    if not blocks:
        rc, out, _err = p3_failing_run(ctx)
        blocks = failing_blocks(out)
        assert rc == 1 and blocks, out[-3000:]
    whole = [b for b in blocks if "(the first 16 of" not in b[1] and "more lines left out" not in b[1]]
    seed, block, text = (whole or blocks)[0]
    rc, gen, _ = schedsim(ctx, "--gen", seed)
    assert rc == 0 and gen == text, (seed, gen, text)
    workload = re.search(r"^  ([a-z]+): reproduce its checks", block, re.M).group(1)
    lines = section(block, workload)
    cmd = re.search(r"^  %s: reproduce its checks: schedsim (.*)$" % workload, block, re.M).group(1).split()
    rc, again, _ = schedsim(ctx, *cmd)
    assert rc == 1, (cmd, again[-2000:])
    again_lines = section(failing_blocks(again)[0][1], workload)
    if whole:
        assert again_lines == lines, (cmd, again_lines, lines)
    else:   # only the first 16 failing counts again: their lines
        assert set(again_lines) - set(lines) <= {l for l in again_lines if ": reproduce" in l}, (again_lines, lines)
    runs = re.search(r"^  %s: reproduce the runs: +schedsim --gen \d+ > (\S+); schedsim (.*)$" % workload,
                     block, re.M)
    path = os.path.join(ctx.tmp, runs.group(1))
    with open(path, "w") as f:
        f.write(gen)
    args = [path if a == runs.group(1) else a for a in runs.group(2).split()]
    if "--trace" in args:
        args[args.index("--trace") + 1] = os.path.join(ctx.tmp, "trace.csv")
    rc, sweep, err = schedsim(ctx, *args)
    assert rc == 0, (args, err[-2000:])
    medians = {}
    table = sweep.split("[schedsim] median of")[1]
    counts = [int(x) for x in re.search(r"^Use Cores +(.*)$", table, re.M).group(1).split()]
    for pol in ("ule", "hmp", "oracle"):
        m = re.search(r"^%s +(.*)$" % pol, table, re.M)
        if m:
            medians[pol] = dict(zip(counts, m.group(1).split()))
    compared = 0
    for line in lines:
        m = re.match(r"^  [a-z]+ P1 at (\d+) [^:]*: hmp (\S+) .* ule (\S+) ", line) or \
            re.match(r"^  [a-z]+ P2 at (\d+) [^:]*: hmp (\S+) < 0\.97 x (oracle) (\S+)", line)
        if m and int(m.group(1)) in counts:
            t = int(m.group(1))
            other = "oracle" if " P2 " in line else "ule"
            assert medians["hmp"][t] == m.group(2) and medians[other][t] == m.group(m.lastindex), (line, medians)
            compared += 1
    assert compared or not any(re.match(r"^  [a-z]+ P[12] ", l) for l in lines), block


def test_same_command_same_output(ctx):
    """Deterministic, and counting the scheduler's work changes nothing
    (build/sim-nocost/schedsim prints the same)."""
    for wl in ("cpu", "make"):
        a = schedsim(ctx, "--properties", 4, "--seed", 40, "--workload", wl)
        b = schedsim(ctx, "--properties", 4, "--seed", 40, "--workload", wl)
        c = schedsim(ctx, "--properties", 4, "--seed", 40, "--workload", wl, binary="sim-nocost/schedsim")
        assert a[:2] == b[:2] == c[:2]
        assert "P4: checked" in a[1] and "P1 %s: checked" % wl in a[1]


def test_procs_same_report(ctx):
    """--procs N checks machines in N processes: the report is the same
    bytes as one process's (each failing machine's block in machine order,
    the summary's counts, lowest ratios and percentiles), and so is the
    exit status; the stderr line counts the same runs and events."""
    rc, out, err = p3_failing_run(ctx)
    rc3, out3, err3 = schedsim(ctx, *P3_FAILING, "--procs", 3)
    assert len(failing_blocks(out)) >= 3, out[-2000:]
    assert (rc3, out3) == (rc, out), (rc3, err3[-2000:], out3[-3000:])
    counts = re.compile(r"^schedsim: properties: .* events")
    assert counts.match(err3).group(0) == counts.match(err).group(0), (err, err3)
    rc, _out, err = schedsim(ctx, "--machine", "small-hybrid", "--workload", "cpu", "--procs", 2)
    assert rc == 2 and "--procs: only with --properties" in err, err


def test_p3_sees_idle_cpus(ctx):
    """ULE without idle stealing and balancing leaves CPUs idle next to
    two threads; P3 reports it for ule, with the CPUs and the length."""
    rc, out, _ = p3_failing_run(ctx)
    assert rc == 1, out[-2000:]
    m = re.search(r"^  cpu P3 ule at \d+ threads?, run \d: cpu (\d+) idle while cpu (\d+) had (\d+) threads for "
                  r"(\d+\.\d+) s from (\d+\.\d+) s \(limit 1\.500000 s\)$", out, re.M)
    assert m and m.group(1) != m.group(2) and int(m.group(3)) >= 2 and float(m.group(4)) > 1.5, out[-3000:]
    assert re.search(r"^P3: .* ule [1-9]\d* points", out, re.M), summary(out)


def test_p4_scramble_reaches_hmp_not_ule(ctx):
    """--hmp-scramble (P4's change of every hmp input) changes what hmp
    does and nothing of ule (same samples, same placements)."""
    base = ["--machine", "i7-1370p", "--workload", "cpu", "--time", "1", "--threads", "4,8", "--runs", "1"]
    rc, hmp, _ = schedsim(ctx, *base, "--policy", "hmp")
    rc2, hmp2, _ = schedsim(ctx, *base, "--policy", "hmp", "--hmp-scramble", 7)
    assert rc == rc2 == 0
    row = re.compile(r"^hmp +\d.*$", re.M)
    assert row.findall(hmp) != row.findall(hmp2)
    ta, tb = os.path.join(ctx.tmp, "a.csv"), os.path.join(ctx.tmp, "b.csv")
    schedsim(ctx, *base, "--policy", "ule", "--trace", ta)
    schedsim(ctx, *base, "--policy", "ule", "--hmp-scramble", 7, "--trace", tb)
    with open(ta) as a, open(tb) as b:
        assert a.read() == b.read()


def generated(ctx):
    """{seed: text} of `--gen SEED` for SEEDS (each parsed and checked by
    the kernel's parser inside schedsim: exit status 0)."""
    if "gen" not in _runs:
        texts = {}
        for s in SEEDS:
            rc, out, err = schedsim(ctx, "--gen", s)
            assert rc == 0, (s, err)
            texts[s] = out
        _runs["gen"] = texts
    return _runs["gen"]


def test_gen_same_seed_same_text(ctx):
    texts = generated(ctx)
    for s in (1, 17, 299):
        assert schedsim(ctx, "--gen", s)[1] == texts[s]
    assert len(set(texts.values())) == len(texts)
    assert texts[1].startswith("# schedsim --gen 1 ")


def parse(text):
    """The generated description's shape: CPUs, speeds, rows, events, power."""
    d = {"cpus": [], "hfi": {}, "speed": {}, "smt": None, "power": None, "events": []}
    for line in text.splitlines():
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "cpu":
            a = dict(x.split("=") for x in w[2:])
            d["cpus"].append((int(w[1]), a["type"], int(a["core"]), int(a.get("thread", "0")), int(a["module"]),
                              a["llc"], a["row"], int(a.get("package", "0"))))
        elif w[0] == "hfi":
            a = dict(x.split("=") for x in w[2:])
            d["hfi"][int(w[1])] = (int(a["perf"]), int(a["ee"]))
        elif w[0] == "event":
            a = dict(x.split("=") for x in w[2:])
            d["events"].append((int(w[1]), int(a["row"]), int(a["perf"]), int(a["ee"])))
        elif w[0] == "speed":
            d["speed"][w[1]] = float(w[2])
        elif w[0] == "smt-throughput":
            d["smt"] = float(w[2])
        elif w[0] == "power":
            d["power"] = {k: float(v) for k, v in (x.split("=") for x in w[1:])}
        elif w[0] == "hfi-rows":
            d["rows"] = int(w[1])
    return d


def test_gen_ranges(ctx):
    """Every machine within the documented ranges."""
    for s, text in generated(ctx).items():
        d = parse(text)
        cpus = d["cpus"]
        assert 2 <= len(cpus) <= 36 and [c[0] for c in cpus] == list(range(len(cpus))), s
        packages = sorted({c[7] for c in cpus})
        assert packages in ([0], [0, 1]), s
        per_pkg = [[c for c in cpus if c[7] == k] for k in packages]
        assert len(packages) == 1 or len(per_pkg[0]) == len(per_pkg[1]) <= 16, s
        for k, pc in zip(packages, per_pkg):
            cores = {}
            for c in pc:
                cores.setdefault(c[2], []).append(c)
            p = [x for x in cores.values() if x[0][1] == "P"]
            e_modules = {c[4] for c in pc if c[1] == "E"}
            lp = [c for c in pc if c[1] == "LP-E"]
            assert 1 <= len(p) <= 8 and len(e_modules) <= 4 and len(lp) <= 4, s
            assert all(len([c for c in pc if c[4] == m]) <= 4 for m in e_modules), s
            assert all(c[5] == "none" for c in lp) and all(c[5] == str(k) for c in pc if c[1] != "LP-E"), s
            assert len({c[4] for c in lp}) <= 1, s
            assert len({len(x) for x in p}) == 1 and len(p[0]) in (1, 2), s
        assert d["speed"]["P"] == 1.0, s
        if "E" in d["speed"]:
            assert 0.3 <= d["speed"]["E"] <= 0.8 or 0.85 <= d["speed"]["E"] <= 0.95, s
        if "LP-E" in d["speed"]:
            assert 0.2 <= d["speed"]["LP-E"] <= 0.6, s
            assert "E" not in d["speed"] or d["speed"]["LP-E"] <= d["speed"]["E"] - 0.02, s
        if any(c[3] == 1 for c in cpus):
            assert 1.05 <= d["smt"] <= 1.6, s
        if d["rows"]:
            assert sorted(d["hfi"]) == list(range(d["rows"])), s
        for ms, row, perf, ee in d["events"]:   # perf 0 thrown by an event before the workload starts
            assert ms == 500 and perf == 0 and d["hfi"][row][0] > 0 and ee in (0, d["hfi"][row][1]), s


def test_gen_features(ctx):
    """Each shape feature occurs among the first few hundred seeds."""
    seen = set()
    for s, text in generated(ctx).items():
        d = parse(text)
        cpus, hfi = d["cpus"], d["hfi"]
        types = [c[1] for c in cpus]
        smt = any(c[3] == 1 for c in cpus)
        seen.add("smt" if smt else "no smt")
        seen.add("E" if "E" in types else "no E")
        seen.add("LP-E" if "LP-E" in types else "no LP-E")
        seen.add("LP-E %d" % (types.count("LP-E") // len({c[7] for c in cpus})))
        seen.add("packages %d" % len({c[7] for c in cpus}))
        if d["speed"].get("E", 0) >= 0.85:
            seen.add("E almost as fast as P")
        seen.add("P-cores %d" % len({c[2] for c in cpus if c[1] == "P" and c[7] == 0}))
        modules = {}
        for c in cpus:
            if c[1] == "E" and c[7] == 0:
                modules[c[4]] = modules.get(c[4], 0) + 1
        seen.add("E modules %d" % len(modules))
        if len(set(modules.values())) > 1:
            seen.add("E modules of different sizes")
        order = {"P": 0, "E": 1, "LP-E": 2}
        if types != sorted(types, key=order.get):
            seen.add("interleaved numbering")
        if "E" in types and types[0] == "P" and types.index("E") < len(types) - 1 - types[::-1].index("P"):
            seen.add("E-cores between P-cores")
        cores = [c[2] for c in cpus]
        if smt and any(cores.count(k) == 2 and abs(cores.index(k) - (len(cores) - 1 - cores[::-1].index(k))) > 1
                       for k in set(cores)):
            seen.add("SMT siblings apart")
        if types[0] != "P":
            seen.add("CPU 0 not a P-core")
        for _ms, row, _perf, ee in d["events"]:
            seen.add("perf 0 by an event, ee 0" if ee == 0 else "perf 0 by an event, ee > 0")
        if not d["rows"]:
            seen.add("no HFI")
        else:
            rows = [c[6] for c in cpus]
            seen.add("a row per CPU" if len(set(rows)) == len(rows) else "shared rows")
            perf = [v[0] for v in hfi.values()]
            if all(x == 0 for x in perf):
                seen.add("every perf 0 and ee 0" if all(v[1] == 0 for v in hfi.values()) else "every perf 0")
            else:
                if any(v[0] == 0 and v[1] > 0 for v in hfi.values()):
                    seen.add("perf 0, ee > 0 from boot")
                lp_rows = {int(c[6]) for c in cpus if c[1] == "LP-E"}
                if lp_rows and all(hfi[r] == (0, 0) for r in lp_rows):
                    seen.add("LP-E rows perf 0 ee 0 from boot")
                if len(perf) != len(set(perf)):
                    seen.add("ties")
                p_perf = {hfi[int(c[6])][0] for c in cpus if c[1] == "P"}
                if len(p_perf - {0}) > 1:
                    seen.add("favoured P-cores")
                if max(perf) < 200:
                    seen.add("perf scaled below 200")
                fast = {hfi[int(c[6])][0] for c in cpus if c[1] == "P"} - {0}
                slow = {hfi[int(c[6])][0] for c in cpus if c[1] != "P"} - {0}
                if fast and slow and max(slow) >= min(fast):
                    seen.add("perf against the speeds")
        if d["power"]:
            pw = d["power"]
            pkg = [c for c in cpus if c[7] == 0]
            n_p = len({c[2] for c in pkg if c[1] == "P"})
            demand = n_p * (pw["P"] + (pw.get("smt", 0) if smt else 0)) + \
                [c[1] for c in pkg].count("E") * pw.get("E", 0) + [c[1] for c in pkg].count("LP-E") * pw.get("LP-E", 0)
            seen.add("power budget binds" if pw["budget"] < demand - 0.01 else "power budget never binds")
    want = {"smt", "no smt", "E", "no E", "LP-E", "no LP-E", "E modules of different sizes",
            "interleaved numbering", "E-cores between P-cores", "SMT siblings apart", "CPU 0 not a P-core",
            "no HFI", "a row per CPU", "shared rows", "every perf 0", "every perf 0 and ee 0",
            "perf 0 by an event, ee 0", "perf 0 by an event, ee > 0", "LP-E rows perf 0 ee 0 from boot",
            "ties", "favoured P-cores", "perf scaled below 200", "perf against the speeds",
            "power budget binds", "power budget never binds", "packages 1", "packages 2", "E almost as fast as P"}
    want |= {"P-cores %d" % n for n in range(1, 9)} | {"E modules %d" % n for n in range(0, 5)}
    want |= {"LP-E %d" % n for n in range(0, 5)}
    assert want <= seen, sorted(want - seen)
    assert "perf 0, ee > 0 from boot" not in seen   # perf 0 from boot only as a real part reports it


def test_perf0_event_slows_its_cpus(ctx):
    """A generated row dropped to perf 0 by an event runs its CPUs at the
    work clock's throttle floor (1/8): ule's cpu at one thread per CPU
    (every CPU busy, whatever it decides) does that much less than on the
    same machine without the event; and such a machine is checked by P1."""
    texts = generated(ctx)
    seed = next(s for s, t in texts.items() if "\nevent " in t and "power" not in t and " x " not in t.split("\n")[2])
    d = parse(texts[seed])
    row = d["events"][0][1]
    throttled = [c for c in d["cpus"] if c[6] == str(row)]
    with_event = os.path.join(ctx.tmp, "with.machine")
    without = os.path.join(ctx.tmp, "without.machine")
    with open(with_event, "w") as f:
        f.write(texts[seed])
    with open(without, "w") as f:
        f.write("".join(l + "\n" for l in texts[seed].splitlines() if not l.startswith("event ")))
    n = len(d["cpus"])
    got = {}
    for name, path in (("with", with_event), ("without", without)):
        rc, out, err = schedsim(ctx, "--machine", path, "--workload", "cpu", "--time", 2, "--threads", n, "--runs", 1,
                                "--policy", "ule")
        assert rc == 0, err
        got[name] = float(re.search(r"^ule +(\S+)$", out.split("[schedsim] median of")[1], re.M).group(1))

    def rate(c):   # what one thread adds on CPU c with every CPU busy (docs/machines.md)
        speed = d["speed"][c[1]]
        siblings = [x for x in d["cpus"] if x[2] == c[2]]
        return speed if len(siblings) == 1 else d["smt"] / 2
    lost = sum(rate(c) for c in throttled) * 7 / 8
    total = sum(rate(c) for c in d["cpus"])
    assert abs(got["with"] / got["without"] - (total - lost) / total) < 0.01, (seed, got, total, lost)
    rc, out, _ = schedsim(ctx, "--properties", 1, "--seed", seed, "--workload", "cpu", "--threads", 1)
    assert re.search(r"^P1: checked 1 points on 1 machines", out, re.M), out[-2000:]


def test_one_core_type_hmp_is_ule(ctx):
    """On generated machines of P-cores only and without HFI, hmp has
    nothing to decide by: its samples are ule's for every workload (the
    two meet the same seeds; what differs between them is decisions)."""
    texts = generated(ctx)
    seeds = [s for s, t in texts.items() if "hfi-rows 0" in t and "type=E" not in t and "type=LP-E" not in t][:2]
    assert len(seeds) == 2
    opts = {"pgbench": ["--time", 1], "schbench": ["--time", 1], "frames": ["--time", 2], "cpu": ["--time", 1],
            "hackbench": ["--loops", 50], "make": ["--jobs", 30]}
    for s in seeds:
        path = os.path.join(ctx.tmp, "gen-%d.machine" % s)
        with open(path, "w") as f:
            f.write(texts[s])
        n = len(parse(texts[s])["cpus"])
        for wl in WORKLOADS:
            counts = "1,2" if wl == "hackbench" else "1,%d" % (n + 1)
            rc, out, err = schedsim(ctx, "--machine", path, "--workload", wl, *opts[wl], "--threads", counts,
                                    "--runs", 1, "--policy", "ule,hmp")
            assert rc == 0, err
            table = out.split("[schedsim] median of")[1]
            ule = re.search(r"^ule +(.*)$", table, re.M).group(1).split()
            hmp = re.search(r"^hmp +(.*)$", table, re.M).group(1).split()
            assert ule == hmp, (s, wl, ule, hmp)


def test_control_noise_floor(ctx):
    """ule against itself under other seeds on machines of one core type
    (where placement cannot matter): every workload's medians within its
    P1 threshold — the run-to-run noise the plan's lengths and runs leave
    (docs/sim.md, "The runs")."""
    texts = generated(ctx)
    seeds = [s for s, t in texts.items() if "type=E" not in t and "type=LP-E" not in t and "\nevent " not in t][:3]
    for s in seeds:
        rc, out, err = schedsim(ctx, "--properties", 1, "--seed", s, "--control", "ule")
        assert rc == 0, (s, out[-3000:])
        assert sorted(wl_summary(out)) == sorted(WORKLOADS), out[-2000:]


def test_gen_machine_file_runs(ctx):
    """A generated machine saved to a file is read by --machine FILE and
    runs; --gen refuses nothing and takes no other option."""
    for s in (3, 11, 42):
        path = os.path.join(ctx.tmp, "gen-%d.machine" % s)
        with open(path, "w") as f:
            f.write(generated(ctx)[s])
        rc, out, err = schedsim(ctx, "--machine", path, "--workload", "cpu", "--time", "1", "--threads", "2",
                                "--runs", "1", "--policy", "ule,hmp")
        assert rc == 0 and "machine gen %d:" % s in out, err
    rc, _, err = schedsim(ctx, "--gen", "x")
    assert rc == 2 and "--gen" in err
    for args, msg in ((["--properties", 1, "--machine", "i7-1370p"], "--properties"),
                      (["--properties", 1, "--workload", "classmix"], "one of cpu, make"),
                      (["--properties", 1, "--time", 3], "needs --workload"),
                      (["--properties", 1, "--control", "oracle"], "--control: a placement policy"),
                      (["--properties", 1, "--control", "nosuch"], "policy 'nosuch'"),
                      (["--properties", 1, "--policy", "ule,hmp"], "policy 'ule,hmp'"),
                      (["--properties", 1, "--policy", "random"], "one placement policy"),
                      (["--machine", "i7-1370p", "--workload", "cpu", "--control", "ule"], "only with --properties")):
        rc, _, err = schedsim(ctx, *args)
        assert rc == 2 and msg in err, (args, err)
