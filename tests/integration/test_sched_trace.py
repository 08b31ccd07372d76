# SPDX-License-Identifier: BSD-2-Clause
"""`sched trace` (docs/sched.md, "The scheduler trace") on the small hybrid
machine, one boot: wrong arguments refused with nothing changed; a trace
of `spawn` threads pinned to three CPUs and an HFI update (`hfi set`,
through the emulated device's thermal interrupt) dumped, converted by tools/sched-trace.py and
loaded as trace-event JSON: its structure (traceEvents, ph/ts/dur/pid/tid,
one track per CPU, the HFI update as an instant event with the row's new
values), each CPU's stretches in order and apart, and every spawned
thread's stretches against its own report (all on the CPU it was pinned
to and ended on, its run time); then `bench --trace`: the trace of a bench run, whose workload
threads' time per core type is the run's own placement record (runs/1);
last, `save` to a FAT32 stick writes the trace as sched-trace.log, and the
tool reads the results folder copied off the stick."""
import json
import os
import re
import shutil
import subprocess

from qemu import ROOT, TestFailure

EXPECTED_S = 90

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")
TOOL = os.path.join(ROOT, "tools", "sched-trace.py")
CORE = {0: "P", 1: "P", 2: "E", 3: "E"}   # small-hybrid's CPUs


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def setup(ctx):
    stick = os.path.join(ctx.log_dir, "sched-trace-stick.img")
    with open(stick, "wb") as f:
        f.truncate(64 << 20)
    p = subprocess.run(["mkfs.fat", "-F", "32", "-n", "RESULTS", stick], capture_output=True, text=True)
    check(p.returncode == 0, "mkfs.fat: " + p.stderr)
    m = ctx.machine(machine_file=SMALL, qemu_run_args=["--stick", stick])
    m.stick = stick
    m.wait_prompt()
    return m


def convert(ctx, text, name):
    """text (a dump on the serial log) through the tool; the loaded JSON."""
    log = os.path.join(ctx.log_dir, name + ".log")
    out = os.path.join(ctx.log_dir, name + ".json")
    with open(log, "w") as f:
        f.write(text)
    p = subprocess.run(["/usr/bin/python3", TOOL, "-o", out, log], capture_output=True, text=True)
    check(p.returncode == 0, "sched-trace.py exit %d:\n%s%s" % (p.returncode, p.stdout, p.stderr))
    with open(out) as f:
        return json.load(f)


def check_structure(doc):
    """The trace-event format, one process (the one dump), one track per
    CPU; the X events by CPU."""
    check(isinstance(doc.get("traceEvents"), list) and doc["traceEvents"], "no traceEvents")
    check({e.get("pid") for e in doc["traceEvents"]} == {1}, "not one process")
    by_cpu = {}
    tracks = {}
    for e in doc["traceEvents"]:
        check(e.get("ph") in ("M", "X", "i") and isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int),
              "bad event %r" % e)
        if e["ph"] == "M" and e["name"] == "thread_name":
            tracks[e["tid"]] = e["args"]["name"]
        if e["ph"] == "X":
            for k in ("ts", "dur", "name", "cat"):
                check(k in e, "X event without %s: %r" % (k, e))
            check(e["dur"] >= 0 and e["cat"] == CORE[e["tid"]], "bad X event %r" % e)
            check(e["args"]["end_ns"] - e["args"]["start_ns"] == round(e["dur"] * 1000), "dur != ns: %r" % e)
            by_cpu.setdefault(e["tid"], []).append(e)
        if e["ph"] == "i":
            check("ts" in e and e.get("s") in ("t", "g"), "bad instant %r" % e)
    check(tracks == {c: "CPU %d (%s)" % (c, t) for c, t in CORE.items()}, "tracks: %r" % tracks)
    for cpu, evs in by_cpu.items():
        evs.sort(key=lambda e: e["args"]["start_ns"])
        for a, b in zip(evs, evs[1:]):
            check(a["args"]["end_ns"] <= b["args"]["start_ns"], "cpu %d: %r overlaps %r" % (cpu, a, b))
    return by_cpu


def test_bad_arguments_change_nothing(ctx, m):
    check("sched trace: off, nothing recorded" in m.command("sched trace"), "not off at boot")
    check("nothing recorded" in m.command("sched trace dump"), "a dump before any trace")
    out = m.command("sched trace on 5")
    check("size: 5 is outside 16..262144" in out, out)
    out = m.command("sched trace sideways")
    check("unknown or extra argument 'sideways'" in out, out)
    out = m.command("sched trace off now")
    check("unknown or extra argument 'now'" in out, out)
    out = m.command("bench cpu --runs 1 --trace=lots")
    check("--trace: 'lots'" in out and "bench: run" not in out, out)
    check("sched trace: off, nothing recorded" in m.command("sched trace"), "a refusal started a trace")


def test_spawn_and_hfi_trace_matches_the_threads(ctx, m):
    check("on, 16384 records per CPU" in m.command("sched trace on 16384"), "not on")
    m.command("spawn 3 cpu pin=0,2,3 ms=600")
    done = m.expect(r"spawn: 3 cpu threads done after 600 ms[^\n]*\n((?:spawn:   [^\n]*\n){3})", timeout=60)
    ended = {int(t): (int(c), int(r)) for t, c, r in
             re.findall(r"thread (\d+) ended on cpu (\d+): run (\d+) ms", done.group(1))}
    check(len(ended) == 3, done.group(0))
    check(m.command("hfi set 1 perf=100 ee=120").strip() == "", "hfi set printed something")
    for _ in range(40):
        if re.search(r"^\s+1\s+2-3\s+100/120", m.command("hfi"), re.M):
            break
        m.command("sleep 250")
    else:
        raise TestFailure("the HFI update never reached the driver")
    m.command("sleep 100")   # the spawned threads have exited: their last stretch is closed
    status = m.command("sched trace off")
    st = re.search(r"sched trace: off, 16384 records per CPU, 4 CPUs: (\d+) events, (\d+) dropped", status)
    check(st and int(st.group(1)) > 0 and st.group(2) == "0", status)
    dump = m.command("sched trace dump", timeout=120)
    doc = convert(ctx, dump, "spawn-trace")
    by_cpu = check_structure(doc)
    hfi = [e for e in doc["traceEvents"] if e["ph"] == "i" and e["cat"] == "hfi"]
    check(len(hfi) == 1 and hfi[0]["s"] == "g", "HFI instants: %r" % hfi)
    check({k: v for k, v in hfi[0]["args"].items() if k.startswith("cpu")} ==
          {"cpu 2": "perf 100 ee 120", "cpu 3": "perf 100 ee 120"}, "HFI update: %r" % hfi[0])
    names = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            names.setdefault(e["args"]["thread"], e["name"])
    for tid, (cpu, run_ms) in ended.items():
        mine = sorted((e for evs in by_cpu.values() for e in evs if e["args"]["thread"] == tid),
                      key=lambda e: e["args"]["start_ns"])
        check(mine, "thread %d ran nowhere in the trace" % tid)
        check(names[tid].startswith("cpu/") and names[tid].endswith("(%d)" % tid), "name %r" % names[tid])
        check({e["tid"] for e in mine} == {cpu}, "thread %d, pinned to and ended on cpu %d, ran on %s"
              % (tid, cpu, sorted({e["tid"] for e in mine})))
        traced = sum(e["args"]["end_ns"] - e["args"]["start_ns"] for e in mine)
        # its report counts run time up to the job's end; it then ran on to its exit
        check(traced >= run_ms * 1000000 and traced <= (run_ms + 600) * 1000000,
              "thread %d: %d ns traced, it reported %d ms" % (tid, traced, run_ms))


def test_bench_trace_matches_its_placement_record(ctx, m):
    out = m.command("bench cpu --threads 3 --runs 1 --time 1 --policy hmp --trace=65536", timeout=300)
    check("sched trace: on, 65536 records per CPU" in out and "the plan's scheduler trace" in out, out[-3000:])
    check("sched trace: off" in m.command("sched trace"), "still on after the plan")
    doc = convert(ctx, out, "bench-trace")
    by_cpu = check_structure(doc)
    runs = re.search(r"--- mosaic-bench-csv begin cpu\.runs schema=runs/1 ---\r?\n(.*?)\r?\n(.*?)\r?\n---", out, re.S)
    check(runs, "no runs block:\n" + out[-3000:])
    row = dict(zip(runs.group(1).split(","), runs.group(2).split(",")))
    per_type = {"P": 0, "E": 0}
    for evs in by_cpu.values():
        for e in evs:
            if re.fullmatch(r"cpu \(\d+\)", e["name"]):
                per_type[e["cat"]] += e["args"]["end_ns"] - e["args"]["start_ns"]
    total = sum(per_type.values())
    check(total > 0, "no workload thread in the trace")
    p_pct = 100 * per_type["P"] / total
    want = float(row["p_core_pct"]) + float(row["smt_shared_pct"])
    check(abs(p_pct - want) <= 0.1 and abs(100 * per_type["E"] / total - float(row["e_core_pct"])) <= 0.1,
          "trace: P %.2f %%, E %.2f %%; the run's record: %r" % (p_pct, 100 * per_type["E"] / total, row))


def test_save_keeps_the_trace(ctx, m):
    out = m.command("save", timeout=120).replace("\r", "")
    saved = re.search(r"save: \d+ files?, \d+ bytes, in (MOSAIC/\S+) on (\S+)", out)
    check(saved, "no save summary:\n" + out[-3000:])
    m.send("poweroff\r")
    m.wait_exit(timeout=60)
    copied = os.path.join(ctx.log_dir, "sched-trace-saved")
    shutil.rmtree(copied, ignore_errors=True)
    os.makedirs(copied)
    p = subprocess.run(["mcopy", "-s", "-i", m.stick, "::/" + saved.group(1), copied], capture_output=True, text=True)
    check(p.returncode == 0, "mcopy: " + p.stderr)
    folder = os.path.join(copied, os.path.basename(saved.group(1)))
    check(os.path.isfile(os.path.join(folder, "sched-trace.log")), "no sched-trace.log in %s" % os.listdir(folder))
    out = os.path.join(ctx.log_dir, "saved-trace.json")
    p = subprocess.run(["/usr/bin/python3", TOOL, "-o", out, folder], capture_output=True, text=True)
    check(p.returncode == 0 and "sched-trace.log: dump at log line" in p.stdout, p.stdout + p.stderr)
    with open(out) as f:
        by_cpu = check_structure(json.load(f))
    check(any(re.fullmatch(r"cpu \(\d+\)", e["name"]) for evs in by_cpu.values() for e in evs),
          "the saved trace is not the bench run's")
