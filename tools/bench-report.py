#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""bench-report: take the CSV blocks out of a captured Mosaic serial log and
plot them.

  tools/bench-report.py [-o DIR] [--no-plots] LOG...

Every block between "--- mosaic-bench-csv begin NAME schema=SCHEMA ---" and
"--- mosaic-bench-csv end NAME rows=N fnv1a=HASH ---" (docs/bench.md, "CSV
blocks") is checked (row count, FNV-1a hash, the schema's columns and
values) and written to DIR/NAME.csv (default DIR: build/bench); a second
block of the same name goes to NAME-2.csv, and so on. Plots, as DIR/NAME.png:
  sweep/1      median per thread count with min-max error bars, a line per policy
  latency/1    p50, p90, p99, p99.9 per policy, one panel per case
  placement/1  shares of run time on P-cores, shared SMT siblings, E-cores
               and LP E-cores, a stacked bar per policy and case
  trace/1      a timeline of one simulated run (schedsim --trace): which CPU
               each thread ran on when, a row per thread, coloured by CPU
               (shades of one colour per core type)
A damaged block (truncated, wrong count or hash, a value its schema does not
allow) is named with its log lines and skipped; the rest is still written.
Lines of other output inside a block (a kernel message) are dropped when the
remaining rows match the count and hash.

Exit status: 0 all blocks written, 1 some block skipped or none found,
2 a log could not be read. Needs Debian's python3-matplotlib for plots.
"""
import argparse
import csv
import io
import os
import re
import statistics
import sys
from decimal import Decimal, InvalidOperation

BEGIN = re.compile(rb"--- mosaic-bench-csv begin ([A-Za-z0-9._-]{1,48}) schema=([A-Za-z0-9._/-]{1,48}) ---")
END = re.compile(rb"--- mosaic-bench-csv end ([A-Za-z0-9._-]{1,48}) "
                 rb"(?:rows=(\d{1,9}) fnv1a=([0-9a-f]{8})|(broken)) ---")
MARKER = b"--- mosaic-bench-csv "
MAX_LINE = 65536   # longer lines are not rows any writer produces

SCHEMAS = {
    "sweep/1": ["policy", "threads", "sample", "value", "unit"],
    "sweep-summary/1": ["policy", "threads", "n", "min", "max", "mean", "median", "median_per_core",
                        "cv_pct", "baseline", "rate_avg_pct", "rate_median_pct", "rate_max_min_pct",
                        "rate_min_min_pct", "mwu_p", "mwu_method", "median_ratio_ci_lo_pct",
                        "median_ratio_ci_hi_pct"],
    "latency/1": ["policy", "case", "p50", "p90", "p99", "p99_9", "unit"],
    "placement/1": ["policy", "case", "p_core_pct", "smt_shared_pct", "e_core_pct", "lp_e_core_pct"],
    "runs/1": ["policy", "threads", "sample", "order", "value", "unit", "taken", "p_core_pct",
               "smt_shared_pct", "e_core_pct", "lp_e_core_pct", "other_pct", "migrations",
               "hfi_updates", "end_p", "end_e", "end_lp_e", "end_other"],
    "run-extras/1": ["policy", "threads", "sample", "order", "figure", "value", "unit"],
    "trace/1": ["policy", "threads", "run", "thread", "cpu", "core_type", "start_ns", "end_ns"],
    "energy/1": ["policy", "threads", "sample", "order", "joules", "seconds", "watts", "per_joule",
                 "per_joule_unit"],
}
RUN_COUNTS = ("migrations", "end_p", "end_e", "end_lp_e", "end_other")
CORE_TYPES = {"P": "Blues", "E": "Oranges", "LP-E": "Greens", "none": "Greys"}
PERCENTILES = ["p50", "p90", "p99", "p99_9"]
SHARES = [("p_core_pct", "P-core"), ("smt_shared_pct", "P-core, SMT sibling busy"),
          ("e_core_pct", "E-core"), ("lp_e_core_pct", "LP E-core")]


def fnv1a(rows):
    """32-bit FNV-1a of the rows, each followed by '\\n'."""
    h = 2166136261
    for row in rows:
        for b in row + b"\n":
            h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


class Block:
    def __init__(self, name, schema, first):
        self.name, self.schema, self.first = name, schema, first
        self.lines = []        # (log line number, bytes)
        self.last = first
        self.rows = []         # accepted rows (bytes)
        self.records = []      # rows parsed: lists of str
        self.dropped = []      # log line numbers of foreign lines removed


def split_csv(raw):
    """One CSV row (bytes) as a list of fields, or None when it is not a
    single well-formed UTF-8 CSV row."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error:
        return None
    return rows[0] if len(rows) == 1 else None


def rows_match(rows, want_rows, want_hash):
    return len(rows) == want_rows and fnv1a(rows) == want_hash


def close_block(path, block, m, lineno, problems):
    """The end marker m of block at lineno: count, hash, foreign lines.
    Returns True when the block's rows are settled in block.rows."""
    where = "%s: block %s (log lines %d-%d)" % (path, block.name, block.first, lineno)
    if m.group(4):
        problems.append("%s: the writer marked it broken (a row could not be written); skipped" % where)
        return False
    want_rows, want_hash = int(m.group(2)), int(m.group(3), 16)
    rows = [raw for _, raw in block.lines]
    if rows_match(rows, want_rows, want_hash):
        block.rows = rows
        return True
    # Drop lines that are not rows of the header's width: interleaved output.
    if block.lines:
        header = split_csv(block.lines[0][1])
        if header:
            kept = [(n, raw) for n, raw in block.lines
                    if (f := split_csv(raw)) is not None and len(f) == len(header)]
            if len(kept) < len(block.lines) and rows_match([r for _, r in kept], want_rows, want_hash):
                block.rows = [r for _, r in kept]
                kept_numbers = {n for n, _ in kept}
                block.dropped = [n for n, _ in block.lines if n not in kept_numbers]
                return True
    problems.append("%s: %d rows with hash %08x, the end marker says %d rows with hash %08x "
                    "(a line lost or damaged); skipped" % (where, len(rows), fnv1a(rows), want_rows, want_hash))
    return False


def scan(path, data, problems):
    """The blocks of one log whose framing is whole; problems collects
    what was wrong with the others."""
    blocks, cur = [], None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip(b"\r")
        stripped = line.strip()
        b = BEGIN.fullmatch(stripped) if stripped.startswith(MARKER) else None
        e = END.fullmatch(stripped) if stripped.startswith(MARKER) else None
        if b:
            if cur:
                problems.append("%s: block %s (log line %d): no end marker before the next block at line %d "
                                "(truncated); skipped" % (path, cur.name, cur.first, lineno))
            cur = Block(b.group(1).decode(), b.group(2).decode(), lineno)
        elif e:
            name = e.group(1).decode()
            if not cur:
                problems.append("%s:%d: end marker of block %s without its begin marker; ignored"
                                % (path, lineno, name))
            elif name != cur.name:
                problems.append("%s: block %s (log line %d): ended by the end marker of block %s at line %d; "
                                "skipped" % (path, cur.name, cur.first, name, lineno))
                cur = None
            else:
                cur.last = lineno
                if close_block(path, cur, e, lineno, problems):
                    blocks.append(cur)
                cur = None
        elif cur:
            if stripped.startswith(MARKER):
                cur.lines.append((lineno, b"\0malformed marker"))   # never a row: fails the hash
            elif len(line) > MAX_LINE:
                cur.lines.append((lineno, b"\0overlong line"))
            else:
                cur.lines.append((lineno, line))
    if cur:
        problems.append("%s: block %s (log line %d): the log ends before its end marker (truncated); skipped"
                        % (path, cur.name, cur.first))
    return blocks


def is_decimal(s, empty_ok=False, minimum=None, maximum=None):
    if s == "":
        return empty_ok
    if not re.fullmatch(r"-?\d{1,30}(\.\d{1,30})?", s):
        return False
    try:
        v = Decimal(s)
    except InvalidOperation:
        return False
    return (minimum is None or v >= minimum) and (maximum is None or v <= maximum)


def is_count(s, minimum):
    return re.fullmatch(r"\d{1,9}", s) is not None and int(s) >= minimum


def field_problem(schema, col, value):
    """Why value cannot be in column col of schema, or None."""
    if col in ("policy", "case", "unit", "figure"):
        return None if value else "is empty"
    if col == "per_joule_unit":
        return None
    if schema == "energy/1":
        return None if is_decimal(value, minimum=0, empty_ok=col == "per_joule") \
            else "is not a number of at least 0"
    if col == "taken":
        return None if value in ("0", "1") else "is not 0 or 1"
    if col in RUN_COUNTS or col == "hfi_updates":
        return None if is_count(value, 0) or (col == "hfi_updates" and value == "") \
            else "is not a whole number"
    if col == "baseline" or (schema == "sweep-summary/1" and col == "mwu_method"):
        return None if col == "baseline" or value in ("", "exact", "normal") else "is not exact or normal"
    if col in ("threads", "sample", "order", "run"):
        return None if is_count(value, 1) else "is not a whole number of at least 1"
    if col in ("thread", "cpu"):
        return None if is_count(value, 0) else "is not a whole number"
    if col == "core_type":
        return None if value in CORE_TYPES else "is not P, E, LP-E or none"
    if col in ("start_ns", "end_ns"):
        return None if re.fullmatch(r"\d{1,20}", value) else "is not a whole number of ns"
    if col == "n":
        return None if is_count(value, 0) else "is not a whole number"
    if schema == "placement/1" or (schema == "runs/1" and col.endswith("_pct")):
        return None if is_decimal(value, minimum=0, maximum=100) else "is not a percentage 0..100"
    if schema == "latency/1":
        return None if is_decimal(value, minimum=0) else "is not a number of at least 0"
    return None if is_decimal(value, empty_ok=schema in ("sweep-summary/1", "run-extras/1")) \
        else "is not a decimal number"


def validate(path, block, problems):
    """Parses block's rows against its schema; True when all are valid."""
    header = SCHEMAS.get(block.schema)
    rows = [split_csv(r) for r in block.rows]
    line_of = [n for n, raw in block.lines if n not in block.dropped]
    where = "%s: block %s (schema %s, log line %%d)" % (path, block.name, block.schema)
    for i, fields in enumerate(rows):
        if fields is None:
            problems.append((where + ": not one CSV row of UTF-8 text; skipped") % line_of[i])
            return False
    if header is None:
        block.records = rows
        return True
    if rows[0] != header:
        problems.append((where + ": header is %s, not %s; skipped") % (line_of[0], ",".join(rows[0]),
                                                                           ",".join(header)))
        return False
    for i, fields in enumerate(rows[1:], 1):
        if len(fields) != len(header):
            problems.append((where + ": %d fields, not %d; skipped") % (line_of[i], len(fields), len(header)))
            return False
        for col, value in zip(header, fields):
            why = field_problem(block.schema, col, value)
            if why:
                problems.append((where + ": %s '%s' %s; skipped") % (line_of[i], col, value[:60], why))
                return False
    if block.schema == "trace/1":
        for i, fields in enumerate(rows[1:], 1):
            if int(fields[7]) < int(fields[6]):
                problems.append((where + ": end_ns %s before start_ns %s; skipped") % (line_of[i], fields[7],
                                                                                        fields[6]))
                return False
    block.records = rows
    return True


def sweep_series(records):
    """{policy: [(threads, median, min, max)]} from sweep/1 rows, in the
    order policies and thread counts first appear."""
    data = {}
    for policy, threads, _sample, value, _unit in records[1:]:
        data.setdefault(policy, {}).setdefault(int(threads), []).append(Decimal(value))
    return {p: [(t, statistics.median(v), min(v), max(v)) for t, v in cols.items()] for p, cols in data.items()}


def finish_lines(fig, axes, out):
    """A line plot's end: a light grid and the legend on each of axes, then
    fig written to out as PNG and closed."""
    import matplotlib.pyplot as plt
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def plot_sweep(block, out):
    import matplotlib.pyplot as plt
    series = sweep_series(block.records)
    unit = block.records[1][4] if len(block.records) > 1 else ""
    fig, ax = plt.subplots(figsize=(8, 5))
    width = 0.15 * len(series)
    for k, (policy, points) in enumerate(series.items()):
        shift = (k - (len(series) - 1) / 2) * width / max(len(series), 1)
        xs = [t + shift for t, *_ in points]
        med = [float(m) for _, m, _, _ in points]
        lo = [float(m - mn) for _, m, mn, _ in points]
        hi = [float(mx - m) for _, m, _, mx in points]
        ax.errorbar(xs, med, yerr=[lo, hi], marker="o", capsize=4, label=policy)
    ax.set_xlabel("threads")
    ax.set_ylabel("%s (median, min-max)" % unit)
    ax.set_xticks(sorted({t for pts in series.values() for t, *_ in pts}))
    ax.set_title(block.name)
    finish_lines(fig, [ax], out)


def plot_latency(block, out):
    import matplotlib.pyplot as plt
    cases = {}
    for policy, case, *vals, unit in block.records[1:]:
        cases.setdefault(case, []).append((policy, [float(v) for v in vals], unit))
    fig, axes = plt.subplots(1, len(cases), figsize=(4.5 * len(cases) + 1, 4.5), squeeze=False)
    for ax, (case, rows) in zip(axes[0], cases.items()):
        for policy, vals, unit in rows:
            ax.plot(range(len(PERCENTILES)), vals, marker="o", label=policy)
        ax.set_xticks(range(len(PERCENTILES)))
        ax.set_xticklabels(["p50", "p90", "p99", "p99.9"])
        ax.set_yscale("log")
        ax.set_ylabel(rows[0][2])
        ax.set_title("%s: %s" % (block.name, case))
        ax.grid(True, alpha=0.3, which="both")
        ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def plot_placement(block, out):
    import matplotlib.pyplot as plt
    rows = block.records[1:]
    labels = ["%s / %s" % (r[0], r[1]) for r in rows]
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(rows) + 1.5))
    left = [0.0] * len(rows)
    for k, (col, name) in enumerate(SHARES):
        vals = [float(r[2 + k]) for r in rows]
        ax.barh(range(len(rows)), vals, left=left, label=name)
        left = [a + b for a, b in zip(left, vals)]
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of thread run time (%)")
    ax.set_title(block.name)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    fig.savefig(out, dpi=100, bbox_inches="tight")
    plt.close(fig)


def plot_energy(block, out):
    """Two panels over the thread counts, a line per policy: the median
    average watts of the runs, and the median figure per joule (when the
    workload has one)."""
    import matplotlib.pyplot as plt
    data = {}
    unit = ""
    for policy, threads, _s, _o, _j, _sec, watts, per_joule, per_unit in block.records[1:]:
        cell = data.setdefault(policy, {}).setdefault(int(threads), ([], []))
        cell[0].append(Decimal(watts))
        if per_joule:
            cell[1].append(Decimal(per_joule))
            unit = per_unit
    panels = [("watts (median)", 0)] + ([("%s (median)" % unit, 1)] if unit else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, (label, k) in zip(axes[0], panels):
        for policy, cols in data.items():
            pts = [(t, statistics.median(v[k])) for t, v in sorted(cols.items()) if v[k]]
            ax.plot([t for t, _ in pts], [float(m) for _, m in pts], marker="o", label=policy)
        ax.set_xlabel("threads")
        ax.set_ylabel(label)
        ax.set_title(block.name)
    finish_lines(fig, axes[0], out)


def plot_trace(block, out):
    """Timeline: a row per thread, a bar for each stretch it ran on a CPU,
    coloured by the CPU (one colour map per core type, a shade per CPU),
    the CPU number written on bars wide enough to hold it."""
    import matplotlib.pyplot as plt
    from matplotlib import colormaps
    from matplotlib.patches import Patch
    rows = block.records[1:]
    t0 = min(int(r[6]) for r in rows)
    span = max(max(int(r[7]) for r in rows) - t0, 1)
    threads = sorted({int(r[3]) for r in rows})
    row_of = {t: i for i, t in enumerate(threads)}
    cpus = {}
    for r in rows:
        cpus.setdefault(r[5], set()).add(int(r[4]))
    shade = {}
    for ctype, ids in cpus.items():
        ids = sorted(ids)
        cmap = colormaps[CORE_TYPES[ctype]]
        for k, cpu in enumerate(ids):
            shade[cpu] = cmap(0.35 + 0.6 * k / max(len(ids) - 1, 1))
    fig, ax = plt.subplots(figsize=(11, 0.3 * len(threads) + 2))
    bars = {}   # (row, cpu) -> [(start, width)]: one collection each, however many stretches
    for r in rows:
        start, end, cpu = (int(r[6]) - t0) / 1e9, (int(r[7]) - t0) / 1e9, int(r[4])
        y = row_of[int(r[3])]
        bars.setdefault((y, cpu), []).append((start, end - start))
        if (end - start) * 1e9 > span * 0.04:
            ax.text((start + end) / 2, y, str(cpu), ha="center", va="center", fontsize=7)
    for (y, cpu), ranges in bars.items():
        ax.broken_barh(ranges, (y - 0.4, 0.8), facecolors=shade[cpu])
    ax.set_yticks(range(len(threads)))
    ax.set_yticklabels(["thread %d" % t for t in threads], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("time since the first stretch (s)")
    r0 = rows[0]
    ax.set_title("%s: %s, %s threads, run %s (numbers: CPUs)" % (block.name, r0[0], r0[1], r0[2]))
    ax.legend(handles=[Patch(color=colormaps[CORE_TYPES[c]](0.7), label="%s-core" % c if c != "none" else "CPU")
                       for c in CORE_TYPES if c in cpus],
              loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    fig.savefig(out, dpi=100, bbox_inches="tight")
    plt.close(fig)


PLOTS = {"sweep/1": plot_sweep, "latency/1": plot_latency, "placement/1": plot_placement,
         "trace/1": plot_trace, "energy/1": plot_energy}


def unique_name(name, used):
    """NAME, or NAME-2, NAME-3... when written before in this run."""
    n = used.get(name, 0) + 1
    used[name] = n
    return name if n == 1 else "%s-%d" % (name, n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+", metavar="LOG")
    ap.add_argument("-o", dest="out", default=os.path.join("build", "bench"), help="output directory")
    ap.add_argument("--no-plots", action="store_true", help="write the CSV files only")
    args = ap.parse_args(argv)
    problems, written, used = [], 0, {}
    for path in args.logs:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            print("bench-report: %s: %s" % (path, e.strerror), file=sys.stderr)
            return 2
        os.makedirs(args.out, exist_ok=True)
        for block in scan(path, data, problems):
            if not validate(path, block, problems):
                continue
            base = unique_name(block.name, used)
            csv_path = os.path.join(args.out, base + ".csv")
            with open(csv_path, "wb") as f:
                f.write(b"".join(r + b"\n" for r in block.rows))
            what = [csv_path]
            plot = PLOTS.get(block.schema)
            if plot and not args.no_plots and len(block.records) > 1:
                png = os.path.join(args.out, base + ".png")
                plot(block, png)
                what.append(png)
            note = ""
            if block.dropped:
                note = "; dropped other output at log line%s %s" % (
                    "s" if len(block.dropped) > 1 else "", ", ".join(map(str, block.dropped)))
            if block.schema not in SCHEMAS:
                note += "; schema %s unknown: not checked, not plotted" % block.schema
            print("%s: block %s (schema %s, log lines %d-%d): %d rows -> %s%s"
                  % (path, block.name, block.schema, block.first, block.last, len(block.rows) - 1,
                     ", ".join(what), note))
            written += 1
    for p in problems:
        print("bench-report: " + p, file=sys.stderr)
    if not written and not problems:
        print("bench-report: no CSV blocks in %s" % ", ".join(args.logs), file=sys.stderr)
    return 1 if problems or not written else 0


if __name__ == "__main__":
    sys.exit(main())
