# SPDX-License-Identifier: BSD-2-Clause
"""tools/bench-report.py on serial logs: tests/data/bench-serial-sample.log
(several blocks among other output, a kernel message inside a block, CRLF
lines, a damaged, a truncated, an invalid, a writer-broken block, an
orphan end marker, an unknown schema, a repeated name), logs written by the
kernel's own report code (build/host/bench_stats_cli report), and damaged
copies of those."""
import contextlib
import csv
import importlib.util
import io
import os
import random
import subprocess
import sys
from decimal import Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ROOT = ROOT
TOOL = os.path.join(ROOT, "tools", "bench-report.py")
SAMPLE = os.path.join(ROOT, "tests", "data", "bench-serial-sample.log")
spec = importlib.util.spec_from_file_location("bench_report", TOOL)
bench_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_report)


def run_tool(*args):
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def check_png(path):
    import matplotlib.image
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", path
    img = matplotlib.image.imread(path)
    assert img.shape[0] >= 300 and img.shape[1] >= 500, (path, img.shape)
    assert img.reshape(-1, img.shape[2]).std(axis=0).max() > 0.05, path + " is blank"


def test_sample_log(ctx):
    rc, out, err = run_tool("-o", ctx.tmp, SAMPLE)
    assert rc == 1, (rc, out, err)
    want_files = {"sysbench-cpu.csv", "sysbench-cpu.png", "sysbench-cpu.summary.csv", "wakeup-latency.csv",
                  "wakeup-latency.png", "placement-sysbench.csv", "placement-sysbench.png", "notes.csv",
                  "sysbench-cpu-2.csv", "sysbench-cpu-2.png"}
    want_files |= {n[:-4] + ".svg" for n in want_files if n.endswith(".png")}
    assert set(os.listdir(ctx.tmp)) == want_files, sorted(os.listdir(ctx.tmp))
    log = "bench-serial-sample.log"
    for msg in [log + ": block hackbench (log lines 55-60): 4 rows with hash 9f6ba0e6, the end marker says 4 rows "
                "with hash 6c17d425 (a line lost or damaged); skipped",
                log + ": block stream (log line 61): no end marker before the next block at line 65 (truncated); "
                "skipped",
                log + ":70: end marker of block orphan without its begin marker; ignored",
                log + ": block tbench (log lines 71-73): the writer marked it broken",
                log + ": block stream-tail (log line 89): the log ends before its end marker (truncated); skipped",
                log + ": block pingpong (schema sweep/1, log line 68): threads 'four' is not a whole number of "
                "at least 1; skipped"]:
        assert msg in err, "missing: %s\nstderr:\n%s" % (msg, err)
    assert "block sysbench-cpu (schema sweep/1, log lines 13-34): 18 rows" in out, out
    assert "dropped other output at log line 22" in out, out
    assert "schema notes/1 unknown: not checked, not plotted" in out, out

    with open(os.path.join(ctx.tmp, "sysbench-cpu.csv"), "rb") as f:
        raw = f.read()
    assert b"\r" not in raw and b"HFI" not in raw and raw.endswith(b"\n")
    rows = read_csv(os.path.join(ctx.tmp, "sysbench-cpu.csv"))
    assert rows[0] == ["policy", "threads", "sample", "value", "unit"] and len(rows) == 19
    series = bench_report.sweep_series(rows)
    assert list(series) == ["ule", "hmp"]
    assert series["ule"][0] == (2, Decimal("10435.50"), Decimal("10398.75"), Decimal("10440.25"))
    assert series["hmp"][2] == (8, Decimal("33250.00"), Decimal("33190.25"), Decimal("33305.75"))
    assert len(read_csv(os.path.join(ctx.tmp, "sysbench-cpu-2.csv"))) == 7
    lat = read_csv(os.path.join(ctx.tmp, "wakeup-latency.csv"))
    assert lat[2] == ["hmp", "2 threads", "11.9", "25.4", "61.2", "150.3", "us"]
    pl = read_csv(os.path.join(ctx.tmp, "placement-sysbench.csv"))
    assert [r[0] for r in pl[1:]] == ["ule", "hmp", "ule", "hmp"]
    assert read_csv(os.path.join(ctx.tmp, "notes.csv"))[2] == ["seed", "0x6d6f7361696342"]
    for name in want_files:
        if name.endswith(".png"):
            check_png(os.path.join(ctx.tmp, name))


def kernel_log(ctx):
    """A serial log of both seed tables printed by the kernel's report code,
    CRLF line ends, boot noise, a kernel message inside the first block."""
    cli = os.path.join(ctx.build, "host", "bench_stats_cli")
    parts = []
    for name in ("i7-1370p.table", "core-ultra-7-155h.table"):
        p = subprocess.run([cli, "report", os.path.join(ROOT, "tests", "data", "seed-report", name)],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        parts.append(p.stdout.splitlines())
    first = parts[0]
    at = first.index("--- mosaic-bench-csv begin sysbench-cpu schema=sweep/1 ---") + 40
    first.insert(at, "smp: CPU 13 offline request ignored, 1 thread pinned")
    lines = ["Mosaic 0.3 x86_64", "mosaic> bench sysbench-cpu"] + first + ["mosaic> bench sysbench-cpu"] + parts[1]
    path = os.path.join(ctx.tmp, "serial.log")
    with open(path, "wb") as f:
        f.write("".join(line + "\r\n" for line in lines).encode())
    return path


def seed_samples(name):
    """{(kernel, threads): [samples as printed]} of a seed table."""
    got, kernel, threads = {}, None, None
    with open(os.path.join(ROOT, "tests", "data", "seed-report", name)) as f:
        for line in f:
            w = line.split()
            if line.startswith("[Kernel Config] "):
                kernel = line[16:].strip()
            elif w[:2] == ["Use", "Cores"]:
                threads = w[2:]
            elif w and w[0] == "Sample":
                for t, v in zip(threads, w[2:]):
                    got.setdefault((kernel, t), []).append(v)
    return got


def test_kernel_writer_log(ctx):
    log = kernel_log(ctx)
    out_dir = os.path.join(ctx.tmp, "out")
    rc, out, err = run_tool("-o", out_dir, log)
    assert rc == 0, (out, err)
    assert "dropped other output at log line" in out, out
    for csv_name, png, table in [("sysbench-cpu.csv", "sysbench-cpu.png", "i7-1370p.table"),
                                 ("sysbench-cpu-2.csv", "sysbench-cpu-2.png", "core-ultra-7-155h.table")]:
        rows = read_csv(os.path.join(out_dir, csv_name))
        got = {}
        for policy, threads, sample, value, unit in rows[1:]:
            assert unit == "events"
            got.setdefault((policy, threads), []).append(value)
        assert got == seed_samples(table), csv_name
        check_png(os.path.join(out_dir, png))
    summary = read_csv(os.path.join(out_dir, "sysbench-cpu.summary.csv"))
    head = summary[0]
    row4 = dict(zip(head, summary[1 + 7]))   # the patched kernel at 4 threads
    assert (row4["median"], row4["median_per_core"], row4["rate_median_pct"], row4["rate_max_min_pct"]) == \
        ("32763675.47", "8190918.87", "112.51", "129.92"), row4
    assert row4["mwu_method"] == "exact" and row4["baseline"] == "GENERIC"
    assert os.path.exists(os.path.join(out_dir, "sysbench-cpu.summary-2.csv"))


def test_damaged_logs(ctx):
    """Truncated, shortened, repeated, flipped and interleaved copies: the
    tool never fails, and what it writes is always a whole original block."""
    log = kernel_log(ctx)
    with open(log, "rb") as f:
        data = f.read()
    clean = os.path.join(ctx.tmp, "clean")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert bench_report.main(["-o", clean, "--no-plots", log]) == 0
    originals = set()
    for name in os.listdir(clean):
        with open(os.path.join(clean, name), "rb") as f:
            originals.add(f.read())
    rng = random.Random(5)
    for i in range(60):
        lines = data.split(b"\n")
        kind = i % 5
        if kind == 0:
            lines = lines[:rng.randrange(len(lines))]
        elif kind == 1:
            del lines[rng.randrange(len(lines))]
        elif kind == 2:
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
        elif kind == 3:
            k = rng.randrange(len(lines))
            if lines[k]:
                j = rng.randrange(len(lines[k]))
                lines[k] = lines[k][:j] + bytes([lines[k][j] ^ (1 << rng.randrange(8))]) + lines[k][j + 1:]
        else:
            lines.insert(rng.randrange(len(lines)), rng.choice([b"x,y,z,w,v", b"\xff\xfe garbage", b"",
                                                                 b"--- mosaic-bench-csv begin", b'"unclosed,quote']))
        path = os.path.join(ctx.tmp, "damaged-%d.log" % i)
        with open(path, "wb") as f:
            f.write(b"\n".join(lines))
        out = os.path.join(ctx.tmp, "damaged-%d" % i)
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = bench_report.main(["-o", out, "--no-plots", path])
        assert rc in (0, 1), (i, rc)
        for name in os.listdir(out):
            with open(os.path.join(out, name), "rb") as f:
                assert f.read() in originals, "damaged copy %d (kind %d): %s is not an original block\n%s" % (
                    i, kind, name, err.getvalue())


def block(name, schema, rows):
    """One CSV block as the kernel writes it: markers, row count, FNV-1a."""
    raw = [r.encode() for r in rows]
    return ["--- mosaic-bench-csv begin %s schema=%s ---" % (name, schema)] + rows + \
        ["--- mosaic-bench-csv end %s rows=%d fnv1a=%08x ---" % (name, len(rows), bench_report.fnv1a(raw))]


def test_run_blocks(ctx):
    """The kernel's per-run blocks (runs/1, run-extras/1) are checked
    column by column: a valid pair is written, a run marked taken 2 or with
    a negative migration count is refused by name."""
    runs_head = ("policy,threads,sample,order,value,unit,taken,p_core_pct,smt_shared_pct,e_core_pct,"
                 "lp_e_core_pct,other_pct,migrations,hfi_updates,end_p,end_e,end_lp_e,end_other")
    good = ["ule,4,1,1,32661667.52,events/s,1,87.50,0.00,12.50,0.00,0.00,0,,3,1,0,0",
            "hmp,4,1,2,32651738.30,events/s,1,100.00,0.00,0.00,0.00,0.00,1,0,4,0,0,0"]
    extras = ["policy,threads,sample,order,figure,value,unit", "ule,4,1,1,wakeup latency p99,,us"]
    lines = block("cpu.runs", "runs/1", [runs_head] + good) + block("cpu.extras", "run-extras/1", extras)
    lines += block("bad.runs", "runs/1", [runs_head, good[0].replace(",1,87.50", ",2,87.50")])
    lines += block("neg.runs", "runs/1", [runs_head, good[1].replace(",1,0,4", ",-1,0,4")])
    log = os.path.join(ctx.tmp, "runs.log")
    with open(log, "w") as f:
        f.write("\n".join(lines) + "\n")
    rc, out, err = run_tool("-o", os.path.join(ctx.tmp, "out"), log)
    assert rc == 1, (rc, out, err)
    assert "block cpu.runs (schema runs/1, log lines 1-5): 2 rows" in out, out
    assert "block cpu.extras (schema run-extras/1, log lines 6-9): 1 rows" in out, out
    assert "unknown" not in out, out
    assert "block bad.runs (schema runs/1, log line 12): taken '2' is not 0 or 1; skipped" in err, err
    assert "block neg.runs (schema runs/1, log line 16): migrations '-1' is not a whole number; skipped" in err, err
    assert read_csv(os.path.join(ctx.tmp, "out", "cpu.runs.csv"))[1][13] == ""


def test_energy_block(ctx):
    """energy/1 (bench's NAME.energy): a valid block is written and plotted
    (watts and the figure per joule over the thread counts); a negative
    joule count is refused by name; per_joule may be empty (workloads
    without a per-joule unit)."""
    head = "policy,threads,sample,order,joules,seconds,watts,per_joule,per_joule_unit"
    good = ["ule,4,1,1,243.664000,10.000000,24.366,1094279.650,events/J",
            "hmp-ee,4,1,2,116.008000,10.000000,11.600,1525214.855,events/J",
            "ule,8,1,3,490.668000,10.000000,49.066,1174358.869,events/J",
            "hmp-ee,8,1,4,172.013000,10.000000,17.201,2057277.081,events/J"]
    lines = block("cpu.energy", "energy/1", [head] + good)
    lines += block("make.energy", "energy/1", [head, "ule,4,1,1,20.000000,2.000000,10.000,,"])
    lines += block("bad.energy", "energy/1", [head, good[0].replace("243.664000", "-1")])
    log = os.path.join(ctx.tmp, "energy.log")
    with open(log, "w") as f:
        f.write("\n".join(lines) + "\n")
    out_dir = os.path.join(ctx.tmp, "out")
    rc, out, err = run_tool("-o", out_dir, log)
    assert rc == 1, (rc, out, err)
    assert "block cpu.energy (schema energy/1, log lines 1-7): 4 rows" in out, out
    assert "block make.energy (schema energy/1, log lines 8-11): 1 rows" in out, out
    assert "bad.energy (schema energy/1, log line 14): joules '-1' is not a number of at least 0; skipped" in err, err
    check_png(os.path.join(out_dir, "cpu.energy.png"))
    assert read_csv(os.path.join(out_dir, "cpu.energy.csv"))[2][7] == "1525214.855"


KERNEL_LOG = os.path.join(ROOT, "tests", "data", "bench-kernel-small-hybrid.log")


def figures(log):
    """{block name: (figure, caption)} of every plot of a log, drawn by the
    tool's own functions with its save() replaced to keep the figure."""
    import matplotlib
    matplotlib.use("Agg")
    with open(log, "rb") as f:
        data = f.read()
    got, problems = {}, []
    real_save = bench_report.save
    try:
        for block in bench_report.scan(log, data, problems):
            plot = bench_report.PLOTS.get(block.schema)
            if plot and bench_report.validate(log, block, problems):
                bench_report.save = lambda fig, out, text, name=block.name: got.__setitem__(name, (fig, text))
                plot(block, "unused.png", bench_report.provenance(data, block.first))
    finally:
        bench_report.save = real_save
    assert not problems, problems
    return got


def test_figures_carry_samples_and_provenance(ctx):
    """The kernel's own log (tests/data/bench-kernel-small-hybrid.log): the
    sweep figure has every sample as a point, the median and its interval,
    and a second panel of hmp/ule with its bootstrap interval; ticks are the
    thread counts; the placement legend has no LP-E on a machine without;
    every figure's caption names machine, commit, policies, runs x seconds
    and the basis; SVG files sit beside the PNGs, their text kept as text."""
    got = figures(KERNEL_LOG)
    fig, text = got["cpu"]
    assert text == ("small hybrid (1 P-core x 2 threads + 2 E-cores) | Mosaic ba3ecdb-dirty | ule vs hmp | "
                    "2 runs x 1 s per policy and thread count | modelled (emulated machine's work clock)"), text
    left, right = fig.axes
    points = sum(len(c.get_offsets()) for c in left.collections if c.get_offsets().ndim == 2
                 and type(c).__name__ == "PathCollection")
    assert points == 8, points                               # 2 policies x 2 thread counts x 2 runs
    assert list(left.get_xticks()) == [1, 2] and list(right.get_xticks()) == [1, 2]
    assert right.get_title() == "cpu: each policy against ule", right.get_title()
    assert [t.get_text() for t in right.get_legend().get_texts()] == ["median hmp / median ule, 95% bootstrap CI"]
    assert "ule (median, 95% CI; dots: samples)" in [t.get_text() for t in left.get_legend().get_texts()]
    labels = [t.get_text() for t in got["cpu.placement"][0].axes[0].get_legend().get_texts()]
    assert "LP E-core" not in labels and "P-core" in labels and "E-core" in labels, labels
    for name, (_fig, text) in got.items():
        assert text.startswith("small hybrid") and "Mosaic ba3ecdb-dirty" in text and "modelled" in text, (name, text)
    # files: SVG beside PNG, the caption in the SVG as text
    out_dir = os.path.join(ctx.tmp, "out")
    rc, out, err = run_tool("-o", out_dir, KERNEL_LOG)
    assert rc == 0, err
    for png in [n for n in os.listdir(out_dir) if n.endswith(".png")]:
        with open(os.path.join(out_dir, png[:-4] + ".svg")) as f:
            svg = f.read()
        assert svg.lstrip().startswith("<?xml") and "Mosaic ba3ecdb-dirty" in svg, png


def test_help_names_plots_and_schemas(ctx):
    rc, out, err = run_tool("--help")
    assert rc == 0 and "trace/1" in out and "energy/1" in out and "docs/bench.md (\"CSV blocks\")" in out, out


def test_bootstrap_interval(ctx):
    """The ratio interval holds the ratio of the medians, is seeded, and
    widens with spread."""
    a, b = [100, 101, 99, 100], [120, 119, 121, 120]
    lo, hi = bench_report.bootstrap(a, b)
    assert lo <= 1.2 <= hi and bench_report.bootstrap(a, b) == (lo, hi)
    wide = bench_report.bootstrap([80, 120, 100, 90], [100, 150, 120, 110])
    assert wide[1] - wide[0] > hi - lo
    assert bench_report.bootstrap([0, 0], [1, 2]) is None


def test_energy_ticks_are_thread_counts(ctx):
    head = "policy,threads,sample,order,joules,seconds,watts,per_joule,per_joule_unit"
    rows = ["ule,4,1,1,243.664000,10.000000,24.366,1094279.650,events/J",
            "hmp,4,1,2,116.008000,10.000000,11.600,1525214.855,events/J",
            "ule,8,1,3,490.668000,10.000000,49.066,1174358.869,events/J",
            "hmp,8,1,4,172.013000,10.000000,17.201,2057277.081,events/J"]
    log = os.path.join(ctx.tmp, "energy.log")
    with open(log, "w") as f:
        f.write("\n".join(block("cpu.energy", "energy/1", [head] + rows)) + "\n")
    fig, text = figures(log)["cpu.energy"]
    assert [list(ax.get_xticks()) for ax in fig.axes] == [[4, 8], [4, 8]]
    assert [ax.get_title() for ax in fig.axes] == ["cpu.energy: watts", "cpu.energy: events/J"]
    assert "machine: not in the log" in text and "hmp" in text, text


def test_no_blocks_and_unreadable(ctx):
    empty = os.path.join(ctx.tmp, "boot.log")
    with open(empty, "w") as f:
        f.write("Mosaic 0.3 x86_64\nmosaic> poweroff\n")
    rc, out, err = run_tool("-o", ctx.tmp, empty)
    assert rc == 1 and "no CSV blocks in " + empty in err, (rc, err)
    missing = os.path.join(ctx.tmp, "missing.log")
    rc, out, err = run_tool("-o", ctx.tmp, missing)
    assert rc == 2 and missing + ": No such file or directory" in err, (rc, err)
