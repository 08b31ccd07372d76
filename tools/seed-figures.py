#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""seed-figures: each measurement table of the seed report ("Integration
Strategy for hmp(4) & sched_ule(4) / Performance Improvement Report for
intelhfi(4) Usage", tables <1> and <2>) as a figure laid out as the table,
the report's measured values beside Mosaic's modelled ones.

  tools/seed-figures.py [-o DIR] [--data DIR] [--runs N] [--policy A,B]
                        [--schedsim PATH] [--commit REV] [--log MACHINE=LOG]...

The tables come from DATA/tables.csv (default tests/data/seed-report/:
file, table number, system, the machines/ preset that models it) and the
.table files it names (the report's lines, README.md there). For each, the
modelled side is the seed experiment of docs/results.md:

  build/schedsim --machine MACHINE --workload cpu --threads <the table's
      columns> --runs N --policy A,B --compare DATA/FILE

(A beside the report's GENERIC kernel, default ule; B beside its patched
kernel, default hmp), its output kept as DIR/seed-table-K-MACHINE.log; or,
with --log MACHINE=LOG, the serial log of a `bench sweep cpu` in QEMU (or
any log holding the sweep/1 and sweep-summary/1 CSV blocks of A and B).

Writes per table DIR/seed-table-K-MACHINE.png and .svg: top to bottom the
table's blocks in its order, its columns (Use Cores) left to right:
GENERIC beside A (every Sample as a dot, Min-Max, Avg., Median), its
Median Per Core, patched beside B, its Median Per Core, and the four Rate
rows (B over A; Rate(Median) with its 95 % bootstrap interval), each
measured value beside its modelled one; a caption line (the system and
machine model, commit, policies, runs x seconds, modelled or measured).
Beside it DIR/seed-table-K-MACHINE.csv: the table's rows, each once
measured and once modelled, in the table's columns.

A damaged table, index or log is named (FILE:LINE and why) and skipped;
the other tables are still drawn. Exit status: 0 every figure written;
1 one skipped; 2 DATA/tables.csv unreadable. Needs Debian's
python3-matplotlib.
"""
import argparse
import csv
import importlib.util
import io
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FILE = 64 * 1024
MAX_LINE = 512
_spec = importlib.util.spec_from_file_location("bench_report", os.path.join(ROOT, "tools", "bench-report.py"))
bench_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_report)

STATS = ["Min", "Max", "Avg.", "Median", "Median Per Core"]
RATES = ["Rate(Avg.)", "Rate(Median)", "Rate(Max-Min)", "Rate(Min-Min)"]
# The summary columns (sweep-summary/1) that are the table's rows.
SUMMARY_STATS = ["min", "max", "mean", "median", "median_per_core"]
SUMMARY_RATES = ["rate_avg_pct", "rate_median_pct", "rate_max_min_pct", "rate_min_min_pct"]
INDEX_HEADER = ["file", "table", "system", "machine"]
VALUE = re.compile(r"\d{1,12}\.\d\d")
RATE = re.compile(r"\d{1,6}\.\d\d%")


class DataError(Exception):
    """Bad input, with the message naming it (FILE:LINE: why)."""


def read_text(path):
    """The text of path, read bounded: at most MAX_FILE bytes of UTF-8
    without NUL bytes."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE + 1)
    except OSError as e:
        raise DataError("%s: %s" % (path, e.strerror))
    if len(data) > MAX_FILE:
        raise DataError("%s: more than %d bytes: too large for seed report data" % (path, MAX_FILE))
    if b"\0" in data:
        raise DataError("%s: holds NUL bytes: not a text file" % path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError("%s: byte %d is not UTF-8" % (path, e.start))


class Kernel:
    """One [Kernel Config] block of a seed table."""

    def __init__(self, name):
        self.name = name
        self.samples = []      # [[value per column]] in Sample order
        self.stats = {}        # STATS label -> [value per column]


class SeedTable:
    """One machine's table of the seed report: two kernels, then Rates."""

    def __init__(self):
        self.columns = []      # thread counts (Use Cores)
        self.kernels = []
        self.rates = {}        # RATES label -> [percent per column]


def numbers(path, n, words, pattern, what):
    """The values of a row's words, each matching pattern, as floats."""
    for w in words:
        if not pattern.fullmatch(w):
            raise DataError("%s:%d: %r is not %s" % (path, n, w[:40], what))
    return [float(w.rstrip("%")) for w in words]


def parse_table(path):
    """The SeedTable of the .table file at path; DataError naming its line
    when a line is not a heading, separator or row of the report's form, a
    row has another number of values than Use Cores, or a kernel lacks a
    row."""
    table = SeedTable()
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if len(line) > MAX_LINE:
            raise DataError("%s:%d: longer than %d characters" % (path, n, MAX_LINE))
        words = line.split()
        if not words or words[0].startswith("-"):
            if words and set(line.strip()) - set("-+"):
                raise DataError("%s:%d: a separator holds more than - and +" % (path, n))
            continue
        if line.startswith("[Kernel Config] "):
            if len(table.kernels) == 2:
                raise DataError("%s:%d: a third [Kernel Config]: a table has two kernels" % (path, n))
            table.kernels.append(Kernel(line[16:].strip()))
            continue
        if not table.kernels:
            raise DataError("%s:%d: %r before the first [Kernel Config] line" % (path, n, line[:40]))
        kernel = table.kernels[-1]
        if words[:2] == ["Use", "Cores"]:
            if not words[2:] or not all(re.fullmatch(r"[1-9]\d{0,3}", w) for w in words[2:]):
                raise DataError("%s:%d: Use Cores needs thread counts 1..9999" % (path, n))
            cols = [int(w) for w in words[2:]]
            if cols != sorted(set(cols)) or (table.columns and cols != table.columns):
                raise DataError("%s:%d: Use Cores %s: not increasing, or not the first kernel's" % (
                    path, n, " ".join(words[2:])))
            table.columns = cols
            continue
        if not table.columns:
            raise DataError("%s:%d: %r before the Use Cores line" % (path, n, line[:40]))
        label, values = row_label(words)
        if len(values) != len(table.columns):
            raise DataError("%s:%d: %s has %d values, the table %d columns (Use Cores)" % (
                path, n, label[:40], len(values), len(table.columns)))
        if label.startswith("Sample "):
            if label != "Sample %d" % (len(kernel.samples) + 1):
                raise DataError("%s:%d: %s, expected Sample %d" % (path, n, label, len(kernel.samples) + 1))
            kernel.samples.append(numbers(path, n, values, VALUE, "a value with two decimals"))
        elif label in STATS:
            if label in kernel.stats:
                raise DataError("%s:%d: a second %s row" % (path, n, label))
            kernel.stats[label] = numbers(path, n, values, VALUE, "a value with two decimals")
        elif label in RATES:
            if len(table.kernels) != 2 or label in table.rates:
                raise DataError("%s:%d: %s outside the second kernel's block, or twice" % (path, n, label))
            table.rates[label] = numbers(path, n, values, RATE, "a percentage with two decimals")
        else:
            raise DataError("%s:%d: unknown row %r" % (path, n, label[:40]))
    if len(table.kernels) != 2:
        raise DataError("%s: %d [Kernel Config] blocks; a seed table has two" % (path, len(table.kernels)))
    for k in table.kernels:
        missing = [s for s in STATS if s not in k.stats] + ([] if k.samples else ["Sample 1"])
        if missing:
            raise DataError("%s: kernel %r lacks %s" % (path, k.name, ", ".join(missing)))
    missing = [r for r in RATES if r not in table.rates]
    if missing:
        raise DataError("%s: no %s row" % (path, ", ".join(missing)))
    return table


def row_label(words):
    """(label, value words) of a table row: "Sample N", "Median Per Core"
    or the first word, the report's "Meian" read as Median."""
    k = 2 if words[0] == "Sample" else 3 if words[:3] == ["Median", "Per", "Core"] else 1
    label = " ".join(words[:k])
    return ("Median" if label == "Meian" else label), words[k:]


def parse_index(path):
    """[{file, table, system, machine}] of DATA/tables.csv; DataError
    naming the line that is not one."""
    reader = csv.reader(io.StringIO(read_text(path), newline=""), strict=True)
    try:
        rows = list(reader)
    except csv.Error as e:
        raise DataError("%s:%d: not CSV: %s" % (path, reader.line_num, e))
    if not rows or rows[0] != INDEX_HEADER:
        raise DataError("%s:1: header %r, expected %r" % (path, ",".join(rows[0])[:80] if rows else "",
                                                          ",".join(INDEX_HEADER)))
    entries = []
    for n, row in enumerate(rows[1:], 2):
        if not row:
            continue
        e = dict(zip(INDEX_HEADER, row))
        if len(row) != len(INDEX_HEADER) or not re.fullmatch(r"[a-z0-9][a-z0-9.-]{0,60}\.table", e["file"]) \
                or not re.fullmatch(r"[1-9]\d?", e["table"]) or not 0 < len(e["system"]) <= 200 \
                or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,60}", e["machine"]):
            raise DataError("%s:%d: %r is not file (NAME.table), table (1..99), system, machine (a preset "
                            "name)" % (path, n, ",".join(row)[:100]))
        entries.append(e)
    return entries


def model_side(log_path, policies):
    """(sweep samples {policy: {threads: [values]}}, summary rows
    {(policy, threads): row}, provenance, sweep block) of the first blocks
    cpu (sweep/1, events/s) and cpu.summary (sweep-summary/1) of a log that
    hold both policies; DataError naming the log otherwise."""
    try:
        with open(log_path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DataError("%s: %s" % (log_path, e.strerror))
    problems, sweep, summary = [], None, None
    for block in bench_report.scan(log_path, data, problems):
        if block.name not in ("cpu", "cpu.summary") or not bench_report.validate(log_path, block, problems):
            continue
        if not set(policies) <= {r[0] for r in block.records[1:]}:
            continue
        if block.schema == "sweep/1" and block.records[1][4] == "events/s" and sweep is None:
            sweep = block
        elif block.schema == "sweep-summary/1" and summary is None and sweep is not None:
            summary = block
    if sweep is None or summary is None:
        why = "; ".join(problems[:2]) or "no sweep/1 and sweep-summary/1 blocks cpu and cpu.summary (events/s) " \
            "of %s" % " and ".join(policies)
        raise DataError("%s: %s" % (log_path, why))
    samples = bench_report.sweep_samples(sweep.records)
    header = summary.records[0]
    rows = {(r[0], int(r[1])): dict(zip(header, r)) for r in summary.records[1:]}
    return samples, rows, bench_report.provenance(data, sweep.first), sweep


def machine_model(name):
    """The model line of machines/NAME.machine: the name schedsim's and
    the kernel's logs give the machine."""
    path = os.path.join(ROOT, "machines", name + ".machine")
    m = re.search(r"^model (.+?)\s*$", read_text(path), re.M)
    if not m:
        raise DataError("%s: no model line" % path)
    return m.group(1)


def fmt(v):
    """A CSV cell: the value with two decimals, or empty."""
    return "" if v is None else "%.2f" % v


def layout_rows(table, policies, samples, summary):
    """The figure's CSV: the table's rows in its order, each block's
    measured rows then the model's: (block, row, source, [value or None
    per column])."""
    cols = table.columns
    out = []
    for kernel, policy in zip(table.kernels, policies):
        block = "[Kernel Config] %s" % kernel.name
        measured, modelled = "seed report (measured)", "Mosaic %s (modelled)" % policy
        for i, row in enumerate(kernel.samples, 1):
            out.append((block, "Sample %d" % i, measured, row))
        for s in STATS:
            out.append((block, s, measured, kernel.stats[s]))
        runs = max((len(samples.get(policy, {}).get(t, [])) for t in cols), default=0)
        for i in range(runs):
            vals = [samples.get(policy, {}).get(t, []) for t in cols]
            out.append((block, "Sample %d" % (i + 1), modelled,
                        [float(v[i]) if i < len(v) else None for v in vals]))
        for s, col in zip(STATS, SUMMARY_STATS):
            out.append((block, s, modelled, [float(summary[(policy, t)][col]) if (policy, t) in summary
                                             else None for t in cols]))
    for r, col in zip(RATES, SUMMARY_RATES):
        out.append(("Rate %s / %s" % (table.kernels[1].name, table.kernels[0].name), r,
                    "seed report (measured)", table.rates[r]))
        out.append(("Rate %s / %s" % (policies[1], policies[0]), r, "Mosaic (modelled)",
                    [float(summary[(policies[1], t)][col]) if (policies[1], t) in summary
                     and summary[(policies[1], t)][col] else None for t in cols]))
    return out


def write_csv(path, table, rows):
    """The layout_rows of a table as CSV, headed by the table's columns."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["block", "row", "source"] + [str(t) for t in table.columns])
        for block, row, source, vals in rows:
            w.writerow([block, row, source] + [fmt(v) for v in vals])


def kernel_panel(ax, x, kernel, policy, samples, summary, columns):
    """One kernel's block: the report's samples, Min-Max, Avg. and Median
    left of each column, the model's right of it; millions of events/s."""
    import matplotlib.lines as mlines
    import matplotlib.patches as mpatches
    sides = [(-0.2, "C0", "seed report %s (measured)" % kernel.name,
              [[row[c] for row in kernel.samples] for c in range(len(columns))],
              [[kernel.stats[s][c] for s in STATS[:4]] for c in range(len(columns))]),
             (0.2, "C1", "Mosaic %s (modelled)" % policy,
              [[float(v) for v in samples.get(policy, {}).get(t, [])] for t in columns],
              [[float(summary[(policy, t)][col]) for col in SUMMARY_STATS[:4]] if (policy, t) in summary
               else None for t in columns])]
    handles = []
    for shift, colour, label, per_col, stats in sides:
        for c, vals in enumerate(per_col):
            n = len(vals)
            xs = [x[c] + shift + (j - (n - 1) / 2) * 0.22 / max(n, 2) for j in range(n)]
            ax.scatter(xs, [v / 1e6 for v in sorted(vals)], s=9, color=colour, alpha=0.45, zorder=2)
            if stats[c]:
                lo, hi, avg, med = (v / 1e6 for v in stats[c])
                ax.vlines(x[c] + shift, lo, hi, color=colour, linewidth=1, zorder=1)
                ax.scatter([x[c] + shift], [avg], marker="_", s=160, color="k", zorder=3)
                ax.scatter([x[c] + shift], [med], marker="D", s=28, color=colour, edgecolor="k", zorder=4)
        handles.append(mpatches.Patch(color=colour, label=label))
    runs = "Sample 1..%d" % len(kernel.samples)
    model_runs = max((len(v) for v in sides[1][3]), default=0)
    handles += [mlines.Line2D([], [], color="0.5", marker="o", markersize=3, linestyle="",
                              label="%s measured, 1..%d modelled (dots)" % (runs, model_runs)),
                mlines.Line2D([], [], color="0.5", marker="|", markersize=10, linestyle="", label="Min..Max"),
                mlines.Line2D([], [], color="k", marker="_", markersize=10, linestyle="", label="Avg."),
                mlines.Line2D([], [], color="0.5", marker="D", markeredgecolor="k", linestyle="", label="Median")]
    ax.set_ylabel("events/s (millions)")
    ax.set_title("[Kernel Config] %s beside Mosaic's %s" % (kernel.name, policy), fontsize=10, loc="left")
    ax.legend(handles=handles, fontsize="x-small", loc="upper left")


def per_core_panel(ax, x, kernel, policy, summary, columns):
    """The block's Median Per Core row, measured beside modelled."""
    ax.plot([v - 0.2 for v in x], [v / 1e6 for v in kernel.stats["Median Per Core"]], "o", color="C0",
            label="seed report %s (measured)" % kernel.name)
    model = [(xi + 0.2, float(summary[(policy, t)]["median_per_core"]) / 1e6)
             for xi, t in zip(x, columns) if (policy, t) in summary]
    ax.plot([p[0] for p in model], [p[1] for p in model], "o", color="C1",
            label="Mosaic %s (modelled)" % policy)
    ax.set_ylabel("events/s per\nthread (millions)", fontsize=8)
    ax.set_title("Median Per Core", fontsize=9, loc="left")
    ax.legend(fontsize="x-small", loc="upper right")


def rate_panel(ax, x, table, policies, summary):
    """The four Rate rows: the report's (solid, left of each column) and
    the model's (dashed, right of it; Rate(Median) with its bootstrap
    interval), the line of 100 %."""
    b, a = policies[1], policies[0]
    for k, (label, col) in enumerate(zip(RATES, SUMMARY_RATES)):
        colour = "C%d" % (k + 2)
        ax.plot([v - 0.1 for v in x], table.rates[label], "o-", color=colour,
                label="%s, seed report (measured)" % label)
        pts = [(xi + 0.1, summary[(b, t)]) for xi, t in zip(x, table.columns)
               if (b, t) in summary and summary[(b, t)][col]]
        xs, vals = [p[0] for p in pts], [float(p[1][col]) for p in pts]
        if label == "Rate(Median)":
            ci = [(float(r["median_ratio_ci_lo_pct"] or v), float(r["median_ratio_ci_hi_pct"] or v))
                  for (_, r), v in zip(pts, vals)]
            yerr = [[v - c[0] for v, c in zip(vals, ci)], [c[1] - v for v, c in zip(vals, ci)]]
            ax.errorbar(xs, vals, yerr=yerr, fmt="s--", mfc="none", capsize=4, color=colour,
                        label="%s %s / %s, Mosaic (modelled), 95%% bootstrap CI" % (label, b, a))
        else:
            ax.plot(xs, vals, "s--", mfc="none", color=colour,
                    label="%s %s / %s, Mosaic (modelled)" % (label, b, a))
    ax.axhline(100, color="0.4", linewidth=1, linestyle=":")
    ax.set_ylabel("%")
    ax.set_title("Rate: %s / %s (measured), %s / %s (modelled)" % (table.kernels[1].name, table.kernels[0].name,
                                                                  b, a), fontsize=9, loc="left")
    ax.legend(fontsize="xx-small", loc="upper left", bbox_to_anchor=(1.01, 1))


def draw(out_png, entry, table, policies, samples, summary, text):
    """The figure of one table, in its layout, written as PNG and SVG."""
    import matplotlib.pyplot as plt
    x = list(range(len(table.columns)))
    fig, axes = plt.subplots(5, 1, figsize=(11, 15), sharex=True,
                             gridspec_kw={"height_ratios": [3, 1.2, 3, 1.2, 2.6]})
    for k in range(2):
        kernel_panel(axes[2 * k], x, table.kernels[k], policies[k], samples, summary, table.columns)
        per_core_panel(axes[2 * k + 1], x, table.kernels[k], policies[k], summary, table.columns)
    rate_panel(axes[4], x, table, policies, summary)
    for ax in axes:
        ax.grid(True, alpha=0.3)
    axes[4].set_xticks(x)
    axes[4].set_xticklabels([str(t) for t in table.columns])
    axes[4].set_xlabel("Use Cores (threads)")
    fig.suptitle("Seed report table <%s>: %s\nsysbench cpu events/s (measured) beside Mosaic's scheduler on "
                 "machines/%s.machine (modelled)" % (entry["table"], entry["system"], entry["machine"]), fontsize=10)
    fig.tight_layout()
    bench_report.save(fig, out_png, text)


def run_schedsim(schedsim, entry, table, table_path, runs, policies, log):
    """Runs the seed experiment for one table into log; DataError when
    schedsim fails."""
    args = [schedsim, "--machine", entry["machine"], "--workload", "cpu", "--threads",
            ",".join(map(str, table.columns)), "--runs", str(runs), "--policy", ",".join(policies),
            "--compare", table_path]
    try:
        with open(log, "wb") as f:
            p = subprocess.run(args, stdout=f, stderr=subprocess.PIPE, timeout=1800)
    except OSError as e:
        raise DataError("%s: %s (build it with `make sim`, or name it with --schedsim)" % (schedsim, e.strerror))
    if p.returncode != 0:
        raise DataError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                             p.stderr.decode("utf-8", "replace").strip()[:300]))
    return " ".join(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a for a in args)


def one_table(args, entry, logs, commit):
    """Draws one table's figure; returns the line to print."""
    table_path = os.path.join(args.data, entry["file"])
    table = parse_table(table_path)
    base = os.path.join(args.out, "seed-table-%s-%s" % (entry["table"], entry["machine"]))
    model = machine_model(entry["machine"])
    if entry["machine"] in logs:
        log, source = logs[entry["machine"]], "the log %s" % logs[entry["machine"]]
    else:
        log = base + ".log"
        source = run_schedsim(args.schedsim, entry, table, table_path, args.runs, args.policy, log)
    samples, summary, prov, sweep = model_side(log, args.policy)
    if prov.get("machine") != model:
        raise DataError("%s: machine %r, not machines/%s.machine's %r" % (
            log, prov.get("machine", "(not in the log)"), entry["machine"], model))
    missing = [t for t in table.columns if any((p, t) not in summary for p in args.policy)]
    if len(missing) == len(table.columns):
        raise DataError("%s: none of the table's Use Cores %s (measured only: nothing to set beside)" % (
            log, ",".join(map(str, table.columns))))
    if commit and "commit" not in prov and entry["machine"] not in logs:
        prov["commit"] = commit
    rows = layout_rows(table, args.policy, samples, summary)
    write_csv(base + ".csv", table, rows)
    text = "%s | seed report: %d runs per kernel and thread count (length not stated), measured" % (
        bench_report.caption(prov, sweep), len(table.kernels[0].samples))
    draw(base + ".png", entry, table, args.policy, samples, summary, text)
    note = "; not in the model's log: Use Cores %s" % ",".join(map(str, missing)) if missing else ""
    return "seed table <%s> (%s): %s -> %s.png, .svg, .csv%s" % (entry["table"], entry["file"], source, base,
                                                                 note)


def git_commit():
    """`git describe` of the tree this tool is in, or None."""
    try:
        p = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                           text=True)
    except OSError:
        return None
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", dest="out", default=os.path.join("build", "seed-figures"), help="output directory")
    ap.add_argument("--data", default=os.path.join(ROOT, "tests", "data", "seed-report"),
                    help="folder of tables.csv and the .table files")
    ap.add_argument("--runs", type=int, default=12, help="schedsim runs per policy and thread count (1..1000)")
    ap.add_argument("--policy", default="ule,hmp", help="A,B: beside GENERIC and the patched kernel")
    ap.add_argument("--schedsim", default=os.path.join(ROOT, "build", "schedsim"))
    ap.add_argument("--commit", help="the commit schedsim was built from (default: git describe)")
    ap.add_argument("--log", action="append", default=[], metavar="MACHINE=LOG",
                    help="take MACHINE's modelled side from LOG instead of running schedsim")
    args = ap.parse_args(argv)
    args.policy = args.policy.split(",")
    if len(args.policy) != 2 or not all(re.fullmatch(r"[a-z0-9_-]{1,31}", p) for p in args.policy):
        ap.error("--policy %s: two policy names A,B" % ",".join(args.policy))
    if not 1 <= args.runs <= 1000:
        ap.error("--runs %d: 1..1000" % args.runs)
    logs = {}
    for item in args.log:
        machine, sep, path = item.partition("=")
        if not sep or not machine or not path:
            ap.error("--log %s: MACHINE=LOG" % item)
        logs[machine] = path
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        print("seed-figures: no matplotlib (Debian: python3-matplotlib)", file=sys.stderr)
        return 2
    try:
        entries = parse_index(os.path.join(args.data, "tables.csv"))
    except DataError as e:
        print("seed-figures: %s" % e, file=sys.stderr)
        return 2
    unknown = set(logs) - {e["machine"] for e in entries}
    if unknown:
        ap.error("--log: no seed table of machine %s" % ", ".join(sorted(unknown)))
    os.makedirs(args.out, exist_ok=True)
    commit = args.commit or git_commit()
    failed = 0
    for entry in entries:
        try:
            print(one_table(args, entry, logs, commit))
        except DataError as e:
            failed += 1
            print("seed-figures: seed table <%s>: %s; skipped" % (entry["table"], e), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
