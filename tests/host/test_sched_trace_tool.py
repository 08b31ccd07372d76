# SPDX-License-Identifier: BSD-2-Clause
"""tools/sched-trace.py, the parser of `sched trace dump` blocks (outside
input), on tests/data/sched-trace-small-hybrid.log (a dump the kernel
wrote): the trace-event JSON it makes, a results folder as input, each kind
of bad value refused with the file and log line named, and seeded random
damage (bytes, lines, fields, with and without a re-computed hash) that
always ends in a clean exit status and a message naming the input, never a
traceback."""
import contextlib
import importlib.util
import io
import json
import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "sched-trace.py")
DATA = os.path.join(ROOT, "tests", "data", "sched-trace-small-hybrid.log")
spec = importlib.util.spec_from_file_location("sched_trace", TOOL)
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)
fnv1a = tool.bench_report.fnv1a


def run(ctx, text, name="t.log"):
    """The tool on text as a log: (status, stdout, stderr, JSON or None)."""
    path = os.path.join(ctx.tmp, name)
    with open(path, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    out = os.path.join(ctx.tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    so, se = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se):
        rc = tool.main(["-o", out, path])
    doc = None
    if os.path.exists(out):
        with open(out) as f:
            doc = json.load(f)
    return rc, so.getvalue(), se.getvalue(), doc


def lines():
    with open(DATA) as f:
        return f.read().replace("\r", "").split("\n")


def rehash(ls):
    """The lines with every block's end marker fixed to its rows."""
    out, rows, name = [], None, None
    for line in ls:
        if line.startswith("--- mosaic-bench-csv begin "):
            name, rows = line.split()[3], []
        elif line.startswith("--- mosaic-bench-csv end ") and rows is not None:
            line = "--- mosaic-bench-csv end %s rows=%d fnv1a=%08x ---" % (
                name, len(rows), fnv1a([r.encode() for r in rows]))
            rows = None
        elif rows is not None:
            rows.append(line)
        out.append(line)
    return out


def events_rows(ls):
    """Indices of the data rows of the sched-trace block."""
    start = ls.index("--- mosaic-bench-csv begin sched-trace schema=sched-trace/1 ---")
    end = next(i for i in range(start, len(ls)) if ls[i].startswith("--- mosaic-bench-csv end sched-trace "))
    return list(range(start + 2, end))


def test_the_kernel_dump_becomes_trace_events(ctx):
    rc, out, err, doc = run(ctx, open(DATA, "rb").read())
    assert rc == 0, out + err
    ev = doc["traceEvents"]
    tracks = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    assert tracks == {0: "CPU 0 (P)", 1: "CPU 1 (P)", 2: "CPU 2 (E)", 3: "CPU 3 (E)"}, tracks
    ls = lines()
    switches = [ls[i].split(",") for i in events_rows(ls) if ls[i].split(",")[3] == "switch"]
    busy = [s for s in switches if s[4] != "0"]
    xs = [e for e in ev if e["ph"] == "X"]
    assert len(xs) == len(busy) and busy, (len(xs), len(busy))
    for e in xs:
        assert e["cat"] == ("P" if e["tid"] < 2 else "E") and e["cname"]
        assert abs(e["ts"] * 1000 - e["args"]["start_ns"]) < 1 and e["dur"] >= 0
    hfi = [e for e in ev if e["ph"] == "i" and e["cat"] == "hfi"]
    assert len(hfi) == 1 and hfi[0]["args"]["cpu 2"] == "perf 100 ee 120", hfi
    assert any(e["ph"] == "i" and e["cat"] == "wakeup" for e in ev)


def test_a_results_folder_is_read(ctx):
    folder = os.path.join(ctx.tmp, "MOSAIC", "small-hybrid-boot1")
    os.makedirs(folder)
    shutil.copy(DATA, os.path.join(folder, "sched-trace.log"))
    with open(os.path.join(folder, "rapl.csv"), "w") as f:
        f.write("time_ns,package_uj,cores_uj\n")
    out = os.path.join(ctx.tmp, "f.json")
    so = io.StringIO()
    with contextlib.redirect_stdout(so):
        assert tool.main(["-o", out, folder]) == 0
    assert "sched-trace.log: dump at log line" in so.getvalue()
    with open(out) as f:
        assert json.load(f)["traceEvents"]
    os.remove(os.path.join(folder, "sched-trace.log"))   # a folder saved without a trace
    se = io.StringIO()
    with contextlib.redirect_stderr(se):
        assert tool.main(["-o", out, folder]) == 2
    assert "sched-trace.log: No such file" in se.getvalue(), se.getvalue()


BAD = [
    # (field index in a data row, value, what the message says)
    (0, "9", "cpu '9' is not a whole number in 0..3"),
    (1, "x", "seq 'x' is not a whole number"),
    (2, "99999999999999999999999", "time_ns '99999999999999999999999'"),
    (3, "teleport", "event 'teleport' is not one of"),
    (4, "-1", "thread '-1' is not a whole number"),
    (7, "whim", "why 'whim' is not allowed"),
    (8, "7", "with perf/ee values"),
]


def test_each_bad_value_is_named_with_its_line(ctx):
    for field, value, says in BAD:
        ls = lines()
        i = events_rows(ls)[3]
        row = ls[i].split(",")
        row[field] = value
        ls[i] = ",".join(row)
        rc, out, err, doc = run(ctx, "\n".join(rehash(ls)))
        assert rc == 1 and doc is None, (field, value, out, err)
        assert "t.log:%d: " % (i + 1) in err and says in err and "dump skipped" in err, (says, err)
    ls = lines()
    rows = events_rows(ls)
    ls[rows[4]], ls[rows[5]] = ls[rows[5]], ls[rows[4]]     # seq goes back
    rc, _, err, _ = run(ctx, "\n".join(rehash(ls)))
    assert rc == 1 and "does not follow" in err, err
    ls = [x for x in lines() if "sched-trace.window" not in x and not x.startswith("start_ns,")
          and not (x.count(",") == 4 and x.split(",")[2] in ("0", "1") and x.split(",")[3] == "16384")]
    rc, _, err, _ = run(ctx, "\n".join(ls))
    assert rc == 1 and "no sched-trace-window/1 block" in err, err
    rc, _, err, _ = run(ctx, "nothing here\n")
    assert rc == 1 and "no sched trace dump in" in err, err


def mutate(rng, ls):
    """One random damage of the log's lines (some re-hashed, so the value
    checks are reached, some not, so the framing checks are)."""
    ls = list(ls)
    rows = events_rows(ls)
    k = rng.randrange(7)
    i = rng.choice(rows)
    if k == 0:      # a field replaced by something odd
        f = ls[i].split(",")
        f[rng.randrange(len(f))] = rng.choice(["", "-", "1e9", "65536", "4", "18446744073709551616", "switch",
                                               "\"a,b\"", "\x00", "é", str(rng.randrange(1 << 64))])
        ls[i] = ",".join(f)
    elif k == 1:    # a field dropped or added
        f = ls[i].split(",")
        if rng.randrange(2):
            f.pop(rng.randrange(len(f)))
        else:
            f.insert(rng.randrange(len(f)), "0")
        ls[i] = ",".join(f)
    elif k == 2:    # a line lost or doubled
        if rng.randrange(2):
            ls.pop(rng.randrange(len(ls)))
        else:
            j = rng.randrange(len(ls))
            ls.insert(j, ls[j])
    elif k == 3:    # a random byte changed anywhere
        j = rng.randrange(len(ls))
        if ls[j]:
            p = rng.randrange(len(ls[j]))
            ls[j] = ls[j][:p] + chr(rng.randrange(32, 127)) + ls[j][p + 1:]
    elif k == 4:    # the log cut short
        ls = ls[:rng.randrange(len(ls))]
    elif k == 5:    # the header changed
        j = rows[0] - 1
        ls[j] = ls[j].replace(rng.choice(["cpu", "seq", "event", "ee"]), "x", 1)
    else:           # the window made inconsistent
        j = next(n for n, x in enumerate(ls) if x.startswith("start_ns,")) + 1
        f = ls[j].split(",")
        f[0], f[1] = f[1], f[0]
        ls[j] = ",".join(f)
    return rehash(ls) if rng.randrange(3) else ls


def test_seeded_random_damage_never_crashes(ctx):
    rng = random.Random(35)
    base = lines()
    outcomes = {0: 0, 1: 0}
    for it in range(300):
        text = "\n".join(mutate(rng, base))
        try:
            rc, out, err, doc = run(ctx, text)
        except Exception as e:   # noqa: BLE001 - any exception is the failure being looked for
            raise AssertionError("iteration %d (seed 35): %r on:\n%s" % (it, e, text)) from e
        assert rc in (0, 1), (it, rc)
        if rc == 1:
            assert "t.log" in err, (it, err)
        else:
            assert doc and doc["traceEvents"], it
        outcomes[rc] += 1
    assert outcomes[1] > 100 and outcomes[0] > 5, outcomes   # both paths are exercised

