#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""sched-trace: the kernel's `sched trace` dumps as Chrome trace-event JSON.

  tools/sched-trace.py [-o FILE.json] LOG|RESULTS-FOLDER...

Reads the CSV blocks a `sched trace dump` (or `bench --trace`) wrote on the
serial log, or the sched-trace.log of a results folder that `save` or
`bench --save` wrote (a folder stands for its sched-trace.log: its other
logs may hold the same dump again), and writes the JSON
Object Format of the Trace Event Format, which Perfetto (ui.perfetto.dev)
and chrome://tracing open (default FILE: build/sched-trace.json):
  - one process per dump ("sched trace 1 (LOG)"), one track per CPU
    ("CPU 3 (E)");
  - a complete event ("ph":"X") for each stretch a thread ran on a CPU,
    from its switch record to the CPU's next one (the last to the end of
    the window), named after the thread, its category and colour the CPU's
    core type (P green, E blue, LP-E violet, as schedsim --trace);
  - an instant event ("ph":"i") on the CPU's track for each wake-up and
    migration, and one global instant event per HFI update (the rows it
    changed as arguments).
Times are guest nanoseconds, as microseconds with three decimals ("ts",
"dur"); the exact ns are in each event's args. The blocks (docs/sched.md,
"The scheduler trace") are checked as tools/bench-report.py checks any
block (framing, count, FNV-1a hash), then every value against its schema;
a dump with a bad value is named with its log line and skipped.

Exit status: 0 every dump converted, 1 one was skipped or none found, 2 an
input could not be read.
"""
import argparse
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_report", os.path.join(HERE, "bench-report.py"))
bench_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_report)

MAX_INPUT = 256 << 20          # a larger file is not a serial log of this kernel
MAX_CPUS = 4096                 # MAXCPU is far below; more is not a dump
COLUMNS = {
    "sched-trace/1": ["cpu", "seq", "time_ns", "event", "thread", "from_cpu", "to_cpu", "why", "perf", "ee"],
    "sched-trace-window/1": ["start_ns", "end_ns", "recording", "size", "names_dropped"],
    "sched-trace-cpus/1": ["cpu", "core_type", "events", "dropped", "lost"],
    "sched-trace-threads/1": ["thread", "name"],
}
EVENTS = ("switch", "wakeup", "migrate", "hfi")
WHYS = ("wakeup", "switch", "bind", "balance", "steal", "affinity")
CORE_COLOUR = {"P": "thread_state_running", "E": "rail_response", "LP-E": "rail_animation",
               "none": "generic_work"}
U64 = re.compile(r"\d{1,20}")


class TraceError(Exception):
    """A value a dump cannot hold; the message names where."""


def whole(value, what, lo=0, hi=(1 << 64) - 1, empty_ok=False):
    """value as an int in lo..hi (None for an allowed empty field)."""
    if value == "" and empty_ok:
        return None
    if not U64.fullmatch(value) or not lo <= int(value) <= hi:
        raise TraceError("%s %r is not a whole number in %d..%d" % (what, value[:40], lo, hi))
    return int(value)


def row_lines(block):
    """The log line number of each accepted row (header first)."""
    dropped = set(block.dropped)
    return [n for n, _ in block.lines if n not in dropped]


def records(path, block):
    """(log line, {column: value}) of every data row, the header checked."""
    want = COLUMNS[block.schema]
    rows = [bench_report.split_csv(r) for r in block.rows]
    lines = row_lines(block)
    if not rows or rows[0] != want:
        raise TraceError("%s: block %s (log line %d): header %s is not %s"
                         % (path, block.name, block.first, rows[0] if rows else "missing", ",".join(want)))
    out = []
    for line, fields in zip(lines[1:], rows[1:]):
        if fields is None or len(fields) != len(want):
            raise TraceError("%s:%d: block %s: not a row of %d fields" % (path, line, block.name, len(want)))
        out.append((line, dict(zip(want, fields))))
    return out


def checked(path, line, fn, *args):
    """fn(*args), its TraceError prefixed with path:line."""
    try:
        return fn(*args)
    except TraceError as e:
        raise TraceError("%s:%d: %s" % (path, line, e)) from None


def parse_event(rec, ncpu):
    """One sched-trace/1 row as a dict of typed values."""
    cpu = whole(rec["cpu"], "cpu", 0, ncpu - 1)
    ev = {"cpu": cpu, "seq": whole(rec["seq"], "seq"), "ns": whole(rec["time_ns"], "time_ns"),
          "event": rec["event"]}
    if ev["event"] not in EVENTS:
        raise TraceError("event %r is not one of %s" % (rec["event"][:40], ", ".join(EVENTS)))
    kind = ev["event"]
    ev["thread"] = whole(rec["thread"], "thread", 0, (1 << 32) - 1, empty_ok=kind == "hfi")
    if kind != "hfi" and ev["thread"] is None:
        raise TraceError("a %s without a thread" % kind)
    ev["from"] = whole(rec["from_cpu"], "from_cpu", 0, ncpu - 1, empty_ok=kind in ("switch", "hfi"))
    if kind in ("wakeup", "migrate") and ev["from"] is None:
        raise TraceError("a %s without from_cpu" % kind)
    ev["to"] = whole(rec["to_cpu"], "to_cpu", 0, ncpu - 1)
    if kind == "switch" and ev["to"] != cpu:
        raise TraceError("a switch on cpu %d names cpu %d" % (cpu, ev["to"]))
    ev["why"] = rec["why"]
    if rec["why"] not in (WHYS + ("",) if kind == "migrate" else ("",)):
        raise TraceError("why %r is not allowed for a %s" % (rec["why"][:40], kind))
    hfi = kind == "hfi"
    ev["perf"] = whole(rec["perf"], "perf", 0, 255, empty_ok=not hfi)
    ev["ee"] = whole(rec["ee"], "ee", 0, 255, empty_ok=not hfi)
    if not hfi and (ev["perf"] is not None or ev["ee"] is not None):
        raise TraceError("a %s with perf/ee values" % kind)
    if hfi and (ev["perf"] is None or ev["ee"] is None):
        raise TraceError("an hfi record without perf and ee")
    return ev


def parse_dump(path, group):
    """A dump's blocks ({schema: block}) as (window, cpus, names, events)."""
    for schema in ("sched-trace-window/1", "sched-trace-cpus/1"):
        if schema not in group:
            raise TraceError("%s: block sched-trace (log line %d): no %s block after it"
                             % (path, group["sched-trace/1"].first, schema))
    win = records(path, group["sched-trace-window/1"])
    if len(win) != 1:
        raise TraceError("%s: block sched-trace.window: %d rows, not 1" % (path, len(win)))
    line, w = win[0]
    window = checked(path, line, lambda: {
        "start": whole(w["start_ns"], "start_ns"), "end": whole(w["end_ns"], "end_ns"),
        "size": whole(w["size"], "size", 1, 1 << 24)})
    if window["end"] < window["start"]:
        raise TraceError("%s:%d: end_ns before start_ns" % (path, line))
    cpus = {}
    for line, c in records(path, group["sched-trace-cpus/1"]):
        cpu = checked(path, line, whole, c["cpu"], "cpu", 0, MAX_CPUS - 1)
        if cpu != len(cpus):
            raise TraceError("%s:%d: cpu %d where cpu %d was expected" % (path, line, cpu, len(cpus)))
        if c["core_type"] not in CORE_COLOUR:
            raise TraceError("%s:%d: core_type %r is not P, E, LP-E or none" % (path, line, c["core_type"][:40]))
        for col in ("events", "dropped", "lost"):
            checked(path, line, whole, c[col], col)
        cpus[cpu] = c["core_type"]
    if not cpus:
        raise TraceError("%s: block sched-trace.cpus: no CPU" % path)
    names = {}
    if "sched-trace-threads/1" in group:
        for line, t in records(path, group["sched-trace-threads/1"]):
            names[checked(path, line, whole, t["thread"], "thread", 1, (1 << 32) - 1)] = t["name"]
    events = []
    last = {}
    for line, rec in records(path, group["sched-trace/1"]):
        ev = checked(path, line, parse_event, rec, len(cpus))
        if ev["seq"] <= last.get(ev["cpu"], -1):
            raise TraceError("%s:%d: seq %d of cpu %d does not follow %d"
                             % (path, line, ev["seq"], ev["cpu"], last[ev["cpu"]]))
        if not window["start"] <= ev["ns"] <= window["end"]:
            raise TraceError("%s:%d: time_ns %d outside the window %d..%d"
                             % (path, line, ev["ns"], window["start"], window["end"]))
        last[ev["cpu"]] = ev["seq"]
        events.append(ev)
    return window, cpus, names, events


def us(ns):
    """ns as trace-event microseconds (three decimals)."""
    return round(ns / 1000, 3)


def thread_label(names, tid):
    name = names.get(tid)
    return "%s (%d)" % (name, tid) if name else "thread %d" % tid


def intervals(cpus, events, end):
    """[(cpu, thread, start_ns, end_ns)]: each CPU's stretches between its
    switch records, the last one to the window's end; idle (0) left out."""
    out, by_cpu = [], {cpu: [] for cpu in cpus}
    for e in events:
        if e["event"] == "switch":
            by_cpu[e["cpu"]].append(e)
    for cpu, sw in by_cpu.items():
        for k, e in enumerate(sw):
            stop = sw[k + 1]["ns"] if k + 1 < len(sw) else end
            if e["thread"] and stop >= e["ns"]:
                out.append((cpu, e["thread"], e["ns"], stop))
    return out


def trace_events(pid, label, window, cpus, names, events):
    """The trace-event list of one dump."""
    out = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": label}}]
    for cpu, core in cpus.items():
        out.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": cpu,
                    "args": {"name": "CPU %d (%s)" % (cpu, core)}})
        out.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": cpu, "args": {"sort_index": cpu}})
    for cpu, tid, start, stop in intervals(cpus, events, window["end"]):
        out.append({"ph": "X", "name": thread_label(names, tid), "cat": cpus[cpu], "pid": pid, "tid": cpu,
                    "ts": us(start), "dur": us(stop - start), "cname": CORE_COLOUR[cpus[cpu]],
                    "args": {"thread": tid, "start_ns": start, "end_ns": stop}})
    updates = {}
    for e in events:
        if e["event"] in ("wakeup", "migrate"):
            args = {"thread": e["thread"], "from_cpu": e["from"], "to_cpu": e["to"], "ns": e["ns"]}
            if e["why"]:
                args["why"] = e["why"]
            out.append({"ph": "i", "s": "t", "name": "%s %s" % (e["event"], thread_label(names, e["thread"])),
                        "cat": e["event"], "pid": pid, "tid": e["cpu"], "ts": us(e["ns"]), "args": args})
        elif e["event"] == "hfi":
            updates.setdefault((e["cpu"], e["ns"]), {})["cpu %d" % e["to"]] = "perf %d ee %d" % (e["perf"], e["ee"])
    for (cpu, ns), rows in sorted(updates.items(), key=lambda kv: kv[0][1]):
        out.append({"ph": "i", "s": "g", "name": "HFI update", "cat": "hfi", "pid": pid, "tid": cpu,
                    "ts": us(ns), "args": dict(rows, ns=ns)})
    return out


def dumps(path, blocks):
    """The blocks of one log grouped by dump: each sched-trace block with
    the window, cpus and threads blocks that follow it."""
    groups = []
    for b in blocks:
        if b.schema == "sched-trace/1":
            groups.append({b.schema: b})
        elif b.schema in COLUMNS and groups and b.schema not in groups[-1]:
            groups[-1][b.schema] = b
    return groups


def inputs(arg):
    """The file to read for one argument: a log, or a results folder's sched-trace.log."""
    return [os.path.join(arg, "sched-trace.log") if os.path.isdir(arg) else arg]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+", metavar="LOG")
    ap.add_argument("-o", dest="out", default=os.path.join("build", "sched-trace.json"), help="output file")
    args = ap.parse_args(argv)
    problems, trace, n = [], [], 0
    for arg in args.logs:
        for path in inputs(arg):
            try:
                if os.path.getsize(path) > MAX_INPUT:
                    print("sched-trace: %s: larger than %d bytes: not a serial log" % (path, MAX_INPUT),
                          file=sys.stderr)
                    return 2
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as e:
                print("sched-trace: %s: %s" % (path, e.strerror), file=sys.stderr)
                return 2
            for group in dumps(path, bench_report.scan(path, data, problems)):
                try:
                    window, cpus, names, events = parse_dump(path, group)
                except TraceError as e:
                    problems.append("%s; dump skipped" % e)
                    continue
                n += 1
                label = "sched trace %d (%s, log line %d)" % (n, os.path.basename(path),
                                                               group["sched-trace/1"].first)
                trace += trace_events(n, label, window, cpus, names, events)
                print("%s: dump at log line %d: %d CPUs, %d records -> process %d"
                      % (path, group["sched-trace/1"].first, len(cpus), len(events), n))
    for p in problems:
        print("sched-trace: " + p, file=sys.stderr)
    if not n:
        if not problems:
            print("sched-trace: no sched trace dump in %s" % ", ".join(args.logs), file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"displayTimeUnit": "ns", "traceEvents": trace}, f, separators=(",", ":"))
        f.write("\n")
    print("sched-trace: %d dump%s -> %s" % (n, "" if n == 1 else "s", args.out))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
