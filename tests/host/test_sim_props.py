#!/usr/bin/python3
"""schedsim's property run on generated machines (docs/sim.md, "Property
run"): `schedsim --properties N --seed 1` must pass (hmp >= 0.99 x ULE,
>= 0.97 x the oracle where it is an upper bound, no CPU idle next to an
overloaded one for longer than the balancer's longest gap, ule blind to
hmp's inputs); its report of a failing machine reproduces; the instrument
has teeth (P3 and P4 see what they should); and the generator
(sim/sim_gen.c, `schedsim --gen SEED`): the same seed gives the same text,
every seed parses, and each shape feature occurs among the first few
hundred seeds."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hosttest  # noqa: E402

ROOT = hosttest.ROOT
# Machines of the property run in `make test`: about 25 s of one core of
# the development host (docs/sim.md, "Property run").
MACHINES = 250
SEEDS = range(1, 301)   # the generator's tests


def schedsim(ctx, *args, binary="schedsim"):
    """(exit status, stdout, stderr) of a schedsim binary of ctx.build run from the root."""
    exe = os.path.join(ctx.build, binary)
    p = subprocess.run([exe] + [str(a) for a in args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


_runs = {}


def property_run(ctx):
    """The property run of `make test` (run once, shared by the tests)."""
    if "main" not in _runs:
        _runs["main"] = schedsim(ctx, "--properties", MACHINES, "--seed", 1)
    return _runs["main"]


def failing_blocks(out):
    """[(seed, block text, machine text)] of the failing machines in a report."""
    got = []
    for m in re.finditer(r"^FAIL machine (\d+) .*?^--- machine seed \1 ---\n(.*?)^--- end ---\n", out, re.M | re.S):
        got.append((int(m.group(1)), m.group(0), m.group(2)))
    return got


def summary(out):
    """The summary lines of a report: {property number: line}."""
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"^P([1-4]): .*$", out, re.M)}


def test_property_run(ctx):
    rc, out, err = property_run(ctx)
    lines = summary(out)
    assert sorted(lines) == [1, 2, 3, 4], out[-3000:]
    assert re.search(r"^runs without a sample: \d+$", out, re.M), out[-3000:]
    if rc != 0:
        head = "\n".join(lines[p] for p in sorted(lines))
        blocks = failing_blocks(out)
        shown = "".join(b for _s, b, _t in blocks[:4])
        raise AssertionError("schedsim --properties %d --seed 1 failed on %d machines:\n%s\n\n%s%s"
                             % (MACHINES, len(blocks), head, shown,
                                "(%d more failing machines: run the command)" % (len(blocks) - 4)
                                if len(blocks) > 4 else ""))
    for p in (1, 2, 3, 4):
        assert re.search(r"failed 0 points on 0 machines", lines[p]), lines[p]
    assert err.startswith("schedsim: properties: %d machines" % MACHINES), err


def test_failing_machine_reproduces(ctx):
    """A failing machine's block: its machine text is `--gen SEED`'s,
    `--properties 1 --seed SEED --threads ...` prints the same block, and
    the sweep it gives prints the same medians. Without failures in the
    property run, from the first of ULE without idle stealing or balancing
    (CPUs left idle next to two threads: P3)."""
    rc, out, _err = property_run(ctx)
    blocks = failing_blocks(out)
    if not blocks:
        rc, out, _err = schedsim(ctx, "--properties", 20, "--seed", 1, "--sysctl", "kern.sched.steal_idle=0",
                                 "--sysctl", "kern.sched.balance=0")
        blocks = failing_blocks(out)
        assert rc == 1 and blocks, out[-3000:]
    whole = [b for b in blocks if "(the first 16 of" not in b[1]]
    seed, block, text = (whole or blocks)[0]
    rc, gen, _ = schedsim(ctx, "--gen", seed)
    assert rc == 0 and gen == text, (seed, gen, text)
    cmd = re.search(r"^  reproduce its checks: schedsim (.*)$", block, re.M).group(1).split()
    rc, again, _ = schedsim(ctx, *cmd)
    assert rc == 1, (cmd, again[-2000:])
    again_block = failing_blocks(again)[0][1]
    if whole:
        assert again_block == block, (cmd, again[-3000:], block)
    else:   # only the first 16 failing counts again: their lines
        assert set(again_block.splitlines()) - set(block.splitlines()) <= {
            l for l in again_block.splitlines() if l.startswith("  reproduce")}, (again_block, block)
    runs = re.search(r"^  reproduce the runs: +schedsim --gen \d+ > (\S+); schedsim (.*)$", block, re.M)
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
    for m in re.finditer(r"^  P[12] at (\d+) threads?: hmp (\S+) < 0\.9[79] x (ule|oracle) (\S+)", block, re.M):
        t = int(m.group(1))
        if t in counts:
            assert medians["hmp"][t] == m.group(2) and medians[m.group(3)][t] == m.group(4), (m.group(0), medians)
            compared += 1
    assert compared or not re.search(r"^  P[12] ", block, re.M), block


def test_same_command_same_output(ctx):
    """Deterministic, and counting the scheduler's work changes nothing
    (build/sim-nocost/schedsim prints the same)."""
    a = schedsim(ctx, "--properties", 6, "--seed", 40)
    b = schedsim(ctx, "--properties", 6, "--seed", 40)
    c = schedsim(ctx, "--properties", 6, "--seed", 40, binary="sim-nocost/schedsim")
    assert a[:2] == b[:2] == c[:2]
    assert "P4: checked" in a[1]


def test_p3_sees_idle_cpus(ctx):
    """ULE without idle stealing and balancing leaves CPUs idle next to
    two threads; P3 reports it for ule, with the CPUs and the length."""
    rc, out, _ = schedsim(ctx, "--properties", 20, "--seed", 1, "--sysctl", "kern.sched.steal_idle=0",
                          "--sysctl", "kern.sched.balance=0")
    assert rc == 1, out[-2000:]
    m = re.search(r"^  P3 ule at \d+ threads?, run 1: cpu (\d+) idle while cpu (\d+) had (\d+) threads for "
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
    """The generated description's shape: CPUs, speeds, rows, power."""
    d = {"cpus": [], "hfi": {}, "speed": {}, "smt": None, "power": None}
    for line in text.splitlines():
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "cpu":
            a = dict(x.split("=") for x in w[2:])
            d["cpus"].append((int(w[1]), a["type"], int(a["core"]), int(a.get("thread", "0")), int(a["module"]),
                              a["llc"], a["row"]))
        elif w[0] == "hfi":
            a = dict(x.split("=") for x in w[2:])
            d["hfi"][int(w[1])] = (int(a["perf"]), int(a["ee"]))
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
        assert len(cpus) >= 2 and [c[0] for c in cpus] == list(range(len(cpus))), s
        cores = {}
        for c in cpus:
            cores.setdefault(c[2], []).append(c)
        p = [k for k in cores.values() if k[0][1] == "P"]
        e_modules = {c[4] for c in cpus if c[1] == "E"}
        lp = [c for c in cpus if c[1] == "LP-E"]
        assert 1 <= len(p) <= 8 and len(e_modules) <= 4 and len(lp) <= 2, s
        assert all(len([c for c in cpus if c[4] == m]) <= 4 for m in e_modules), s
        assert all(c[5] == "none" for c in lp) and all(c[5] == "0" for c in cpus if c[1] != "LP-E"), s
        assert len({c[4] for c in lp}) <= 1, s
        assert len({len(k) for k in p}) == 1 and len(p[0]) in (1, 2), s
        assert d["speed"]["P"] == 1.0, s
        if e_modules:
            assert 0.3 <= d["speed"]["E"] <= 0.8, s
        if lp:
            assert 0.2 <= d["speed"]["LP-E"] <= 0.6, s
            assert not e_modules or d["speed"]["LP-E"] <= d["speed"]["E"] - 0.02, s
        if len(p[0]) == 2:
            assert 1.05 <= d["smt"] <= 1.6, s
        if d["rows"]:
            assert sorted(d["hfi"]) == list(range(d["rows"])), s


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
        seen.add("P-cores %d" % len({c[2] for c in cpus if c[1] == "P"}))
        modules = {}
        for c in cpus:
            if c[1] == "E":
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
                    seen.add("perf 0, ee > 0")
                if any(v == (0, 0) for v in hfi.values()):
                    seen.add("perf 0, ee 0")
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
            n_p = len({c[2] for c in cpus if c[1] == "P"})
            demand = n_p * (pw["P"] + pw.get("smt", 0)) + types.count("E") * pw.get("E", 0) + \
                types.count("LP-E") * pw.get("LP-E", 0)
            seen.add("power budget binds" if pw["budget"] < demand else "power budget never binds")
    want = {"smt", "no smt", "E", "no E", "LP-E", "no LP-E", "E modules of different sizes",
            "interleaved numbering", "E-cores between P-cores", "SMT siblings apart", "CPU 0 not a P-core",
            "no HFI", "a row per CPU", "shared rows", "every perf 0", "every perf 0 and ee 0", "perf 0, ee > 0",
            "perf 0, ee 0", "ties", "favoured P-cores", "perf scaled below 200", "perf against the speeds",
            "power budget binds", "power budget never binds"}
    want |= {"P-cores %d" % n for n in range(1, 9)} | {"E modules %d" % n for n in range(0, 5)}
    assert want <= seen, sorted(want - seen)


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
    rc, _, err = schedsim(ctx, "--properties", 1, "--machine", "i7-1370p")
    assert rc == 2 and "--properties" in err


hosttest.main(globals())
