# SPDX-License-Identifier: BSD-2-Clause
"""tools/bench-report.py on a serial log the kernel's `bench` command wrote
(tests/data/bench-kernel-small-hybrid.log, captured unedited from QEMU:
a seed-report sweep of cpu, a compact schbench plan with latencies, a make
plan): every block is written; the CSV files hold what the log's tables
and run lines print (samples, medians, per-run values), the latency
percentiles are ordered, the placement shares add up, and the plots are
real PNG images."""
import csv
import os
import re
import statistics
import subprocess
import sys
from decimal import Decimal, ROUND_HALF_UP

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ROOT = ROOT
TOOL = os.path.join(ROOT, "tools", "bench-report.py")
LOG = os.path.join(ROOT, "tests", "data", "bench-kernel-small-hybrid.log")
RUN = re.compile(r"^bench: run (\d+) of \d+: (\S+) (\S+), (\d+) [^:]*: ([\d.]+) .+?; check ok", re.M)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def log_text():
    with open(LOG, encoding="latin-1") as f:
        return f.read().replace("\r", "")


def check_png(path):
    import matplotlib.image
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", path
    img = matplotlib.image.imread(path)
    assert img.shape[0] >= 300 and img.shape[1] >= 500, (path, img.shape)
    assert img.reshape(-1, img.shape[2]).std(axis=0).max() > 0.05, path + " is blank"


def run_tool(ctx):
    p = subprocess.run([sys.executable, TOOL, "-o", ctx.tmp, LOG], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    return p.stdout


def test_every_block_written(ctx):
    run_tool(ctx)
    want = set()
    for wl, blocks in (("cpu", ["", ".summary", ".placement", ".runs", ".extras"]),
                       ("schbench", ["", ".summary", ".placement", ".latency", ".runs", ".extras"]),
                       ("make", ["", ".summary", ".placement", ".runs", ".extras"])):
        want |= {wl + b + ".csv" for b in blocks}
        want |= {wl + b + ext for b in blocks if b in ("", ".placement", ".latency") for ext in (".png", ".svg")}
    assert set(os.listdir(ctx.tmp)) == want, sorted(set(os.listdir(ctx.tmp)) ^ want)
    for name in want:
        if name.endswith(".png"):
            check_png(os.path.join(ctx.tmp, name))


def test_csv_matches_the_printed_tables(ctx):
    run_tool(ctx)
    text = log_text()
    samples = read_csv(os.path.join(ctx.tmp, "cpu.csv"))
    assert len(samples) == 8
    for policy in ("ule", "hmp"):
        table = text.split("[Policy] %s\n" % policy, 1)[1]
        medians = re.search(r"^Median\s+([\d.]+)\s+([\d.]+)$", table, re.M).groups()
        for col, threads in enumerate(("1", "2")):
            vals = [Decimal(r["value"]) for r in samples if r["policy"] == policy and r["threads"] == threads]
            assert len(vals) == 2
            med = statistics.median(vals).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
            assert med == Decimal(medians[col]), (policy, threads, med, medians[col])
    # Every run line's value is in runs/1, in the order taken; samples as runs.
    for wl in ("cpu", "schbench", "make"):
        runs = read_csv(os.path.join(ctx.tmp, wl + ".runs.csv"))
        printed = [(int(n), p, t, v) for n, w, p, t, v in RUN.findall(text) if w == wl]
        assert [(int(r["order"]), r["policy"], r["threads"], r["value"]) for r in runs] == printed, wl
        assert all(r["taken"] == "1" for r in runs)
        for r in runs:
            shares = sum(Decimal(r[k]) for k in ("p_core_pct", "smt_shared_pct", "e_core_pct",
                                                  "lp_e_core_pct", "other_pct"))
            assert Decimal("99.9") <= shares <= Decimal("100.1"), (wl, r)
            ended = sum(int(r[k]) for k in ("end_p", "end_e", "end_lp_e", "end_other"))
            assert ended >= 1, r


def test_latency_percentiles_ordered(ctx):
    run_tool(ctx)
    rows = read_csv(os.path.join(ctx.tmp, "schbench.latency.csv"))
    assert sorted((r["policy"], r["case"]) for r in rows) == sorted(
        (p, "%s threads, %s" % (t, k)) for p in ("ule", "hmp") for t in ("1", "2") for k in ("wakeup", "request"))
    for r in rows:
        v = [Decimal(r[k]) for k in ("p50", "p90", "p99", "p99_9")]
        assert v == sorted(v) and v[0] > 0 and r["unit"] == "us", r
    extras = read_csv(os.path.join(ctx.tmp, "schbench.extras.csv"))
    assert {r["figure"] for r in extras} == {"requests"} | {
        "%s latency %s" % (k, p) for k in ("wakeup", "request") for p in ("p50", "p90", "p99", "p99.9")}
