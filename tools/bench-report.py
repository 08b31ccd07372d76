#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""bench-report: take the CSV blocks out of a captured Mosaic serial log and
plot them.

  tools/bench-report.py [-o DIR] [--no-plots] LOG...

Every block between "--- mosaic-bench-csv begin NAME schema=SCHEMA ---" and
"--- mosaic-bench-csv end NAME rows=N fnv1a=HASH ---" (docs/bench.md, "CSV
blocks") is checked (row count, FNV-1a hash, the schema's columns and
values) and written to DIR/NAME.csv (default DIR: build/bench); a second
block of the same name goes to NAME-2.csv, and so on. Plots, as DIR/NAME.png
and DIR/NAME.svg:
  sweep/1      per thread count every sample as a point beside its policy's
               median and the median's 95 % bootstrap interval; beside it the
               median of each policy over the first's (hmp/ULE) with its 95 %
               bootstrap interval
  latency/1    p50, p90, p99, p99.9 per policy, one panel per case
  placement/1  shares of run time on P-cores, shared SMT siblings, E-cores
               and LP E-cores (only the core types the machine has), a
               stacked bar per policy and case
  energy/1     median watts and median figure per joule per thread count
  trace/1      a timeline of one simulated run (schedsim --trace): which CPU
               each thread ran on when, a row per thread, coloured by CPU
               (shades of one colour per core type)
Every figure has a caption line saying where its numbers come from, read
from the log before the block: the machine, the kernel's version (commit),
the policies, runs x seconds, and whether the figures are modelled (an
emulated machine's work clock, or schedsim) or measured (real time).
The CSV schemas are in docs/bench.md ("CSV blocks"); SCHEMAS below lists
their columns.
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


# ---- provenance: the caption of every figure ----
PROVENANCE = [
    ("commit", re.compile(r"^Mosaic (\S+) \(loader ")),
    ("machine", re.compile(r"^topology source: machine file (.+?)\s*$")),
    ("machine", re.compile(r"^schedsim: machine (.+) \([^()]*, \d+ CPUs?\), workload ")),
    ("cpus", re.compile(r"^cpus: +\d+ online: (.*?)\s*$")),
    ("runs", re.compile(r"^bench: (?:sweep )?\S+: .* x (\d+) runs = \d+ runs")),
    ("runs", re.compile(r"^schedsim: (\d+) runs? of at most \d+ ms per policy and thread count")),
    ("seconds", re.compile(r"^bench: \S+ in .*--time (\d+)\b")),
    ("basis", re.compile(r"^bench: (emulated machine, work clock on|simulated machine|no work clock)")),
]
BASIS = {"emulated machine, work clock on": "modelled (emulated machine's work clock)",
         "simulated machine": "modelled (schedsim, simulated time)",
         "no work clock": "measured (real time)"}


def provenance(data, line_no):
    """{key: value} of the PROVENANCE lines of a log (bytes) for the block
    at line line_no (1-based): the last before it, else (the report's
    basis paragraph follows its CSV blocks) the first after it."""
    before, after = {}, {}
    for n, line in enumerate(data.split(b"\n"), 1):
        text = line.decode("latin-1").rstrip("\r")
        for key, pattern in PROVENANCE:
            m = pattern.search(text)
            if m and n < line_no:
                before[key] = m.group(1)
            elif m:
                after.setdefault(key, m.group(1))
    return dict(after, **before)


def caption(prov, block):
    """One line: machine, commit, policies, runs x seconds, modelled or measured."""
    policies = []
    for r in block.records[1:]:
        if r and r[0] not in policies:
            policies.append(r[0])
    runs = "%s runs" % prov["runs"] if "runs" in prov else "runs: not in the log"
    if "seconds" in prov:
        runs += " x %s s" % prov["seconds"]
    return " | ".join([prov.get("machine", "machine: not in the log"),
                       "Mosaic " + prov["commit"] if "commit" in prov else "commit: not in the log",
                       " vs ".join(policies), runs + " per policy and thread count",
                       BASIS.get(prov.get("basis"), "modelled or measured: not in the log")])


def core_types_present(prov, records, columns):
    """Which of the placement columns the machine has: from the kernel's
    'cpus:' summary line (12 P (6 cores), 8 E, 0 LP-E), else the columns
    that are non-zero somewhere; P-cores always."""
    counts = dict((t, int(n)) for n, t in re.findall(r"(\d+) (P|E|LP-E)\b", prov.get("cpus", "")))
    kinds = {"p_core_pct": "P", "smt_shared_pct": "P", "e_core_pct": "E", "lp_e_core_pct": "LP-E"}
    keep = []
    for k, col in enumerate(columns):
        if counts:
            has = counts.get(kinds[col], 0) > 0
        else:
            has = kinds[col] == "P" or any(Decimal(r[2 + k]) != 0 for r in records[1:])
        if has:
            keep.append(k)
    return keep


def save(fig, out, text):
    """The caption under fig, then fig written to out (PNG) and beside it
    as SVG, and closed."""
    import matplotlib.pyplot as plt
    fig.text(0.005, -0.01, text, fontsize=7, ha="left", va="top", color="0.3")   # below the axes' labels
    fig.savefig(out, dpi=100, bbox_inches="tight", pad_inches=0.2)
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "mosaic"}):   # text stays text
        fig.savefig(os.path.splitext(out)[0] + ".svg", bbox_inches="tight", pad_inches=0.2)
    plt.close(fig)


def integer_ticks(ax, values):
    """x ticks at the given whole numbers (thread counts), no others."""
    ax.set_xticks(sorted(set(values)))
    ax.set_xticklabels([str(v) for v in sorted(set(values))])


# ---- statistics of the sweep figure ----
BOOT_RESAMPLES = 2000
BOOT_SEED = 0x6d6f7361696342   # the kernel's bootstrap seed (docs/bench.md, "Statistics")


def bootstrap(a, b=None, seed=BOOT_SEED):
    """95 % percentile bootstrap interval of median(a), or of
    median(b) / median(a) when b is given; None when undefined."""
    import random
    rnd = random.Random(seed)
    stats = []
    for _ in range(BOOT_RESAMPLES):
        ma = statistics.median(rnd.choice(a) for _ in a)
        if b is None:
            stats.append(float(ma))
        elif ma:
            stats.append(float(statistics.median(rnd.choice(b) for _ in b)) / float(ma))
    if len(stats) < BOOT_RESAMPLES:
        return None
    stats.sort()
    return stats[int(0.025 * len(stats))], stats[int(0.975 * len(stats)) - 1]


def sweep_samples(records):
    """{policy: {threads: [values]}} from sweep/1 rows, in first-seen order."""
    data = {}
    for policy, threads, _sample, value, _unit in records[1:]:
        data.setdefault(policy, {}).setdefault(int(threads), []).append(Decimal(value))
    return data


def sweep_series(records):
    """{policy: [(threads, median, min, max)]} from sweep/1 rows, in the
    order policies and thread counts first appear."""
    data = {}
    for policy, threads, _sample, value, _unit in records[1:]:
        data.setdefault(policy, {}).setdefault(int(threads), []).append(Decimal(value))
    return {p: [(t, statistics.median(v), min(v), max(v)) for t, v in cols.items()] for p, cols in data.items()}


def plot_sweep(block, out, prov):
    """Left: every sample, the median and its bootstrap interval, per policy
    and thread count; right: each policy's median over the first policy's,
    with the bootstrap interval of that ratio, and the line of equality."""
    import matplotlib.pyplot as plt
    data = sweep_samples(block.records)
    unit = block.records[1][4] if len(block.records) > 1 else ""
    policies = list(data)
    threads = sorted({t for cols in data.values() for t in cols})
    ratio_panel = len(policies) > 1
    fig, axes = plt.subplots(1, 2 if ratio_panel else 1, figsize=(13 if ratio_panel else 8, 5), squeeze=False)
    ax = axes[0][0]
    step = min([b - a for a, b in zip(threads, threads[1:])] or [1])
    width = 0.5 * step
    for k, policy in enumerate(policies):
        shift = (k - (len(policies) - 1) / 2) * width / max(len(policies), 1)
        colour = "C%d" % k
        for t, vals in sorted(data[policy].items()):
            n = len(vals)
            xs = [t + shift + (j - (n - 1) / 2) * width / max(len(policies), 1) / max(n, 2) * 0.8
                  for j in range(n)]
            ax.scatter(xs, [float(v) for v in sorted(vals)], s=12, color=colour, alpha=0.5, zorder=2)
        pts = sorted(data[policy].items())
        meds = [float(statistics.median(v)) for _, v in pts]
        cis = [bootstrap(v) for _, v in pts]
        lo = [m - c[0] if c else 0 for m, c in zip(meds, cis)]
        hi = [c[1] - m if c else 0 for m, c in zip(meds, cis)]
        ax.errorbar([t + shift for t, _ in pts], meds, yerr=[lo, hi], marker="D", markersize=6, capsize=5,
                    color=colour, label="%s (median, 95%% CI; dots: samples)" % policy, zorder=3)
    integer_ticks(ax, threads)
    ax.set_xlabel("threads")
    ax.set_ylabel(unit)
    ax.set_title("%s: %s per run" % (block.name, unit))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    if ratio_panel:
        ax = axes[0][1]
        base = policies[0]
        for k, policy in enumerate(policies[1:], 1):
            xs, rs, lo, hi = [], [], [], []
            for t in threads:
                a, b = data[base].get(t), data[policy].get(t)
                if not a or not b or statistics.median(a) == 0:
                    continue
                r = float(statistics.median(b)) / float(statistics.median(a))
                ci = bootstrap(a, b) or (r, r)
                xs.append(t)
                rs.append(r)
                lo.append(r - ci[0])
                hi.append(ci[1] - r)
            ax.errorbar(xs, rs, yerr=[lo, hi], marker="o", capsize=5, color="C%d" % k,
                        label="median %s / median %s, 95%% bootstrap CI" % (policy, base))
        ax.axhline(1.0, color="0.4", linewidth=1, linestyle="--")
        integer_ticks(ax, threads)
        ax.set_xlabel("threads")
        ax.set_ylabel("ratio of medians")
        ax.set_title("%s: each policy against %s" % (block.name, base))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    fig.tight_layout()
    save(fig, out, caption(prov, block))


def plot_latency(block, out, prov):
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
    save(fig, out, caption(prov, block))


def plot_placement(block, out, prov):
    """A stacked bar per policy and case: the shares of run time on each
    kind of core the machine has."""
    import matplotlib.pyplot as plt
    rows = block.records[1:]
    labels = ["%s / %s" % (r[0], r[1]) for r in rows]
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(rows) + 1.5))
    left = [0.0] * len(rows)
    for k in core_types_present(prov, block.records, [c for c, _ in SHARES]):
        vals = [float(r[2 + k]) for r in rows]
        ax.barh(range(len(rows)), vals, left=left, label=SHARES[k][1], color="C%d" % k)
        left = [a + b for a, b in zip(left, vals)]
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of thread run time (%)")
    ax.set_title("%s: where the threads ran" % block.name)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    save(fig, out, caption(prov, block))


def plot_energy(block, out, prov):
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
    panels = [("watts", "average watts (median of the runs)", 0)] + \
        ([(unit, "%s (median of the runs)" % unit, 1)] if unit else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, (title, label, k) in zip(axes[0], panels):
        for policy, cols in data.items():
            pts = [(t, statistics.median(v[k])) for t, v in sorted(cols.items()) if v[k]]
            ax.plot([t for t, _ in pts], [float(m) for _, m in pts], marker="o", label=policy)
        integer_ticks(ax, [t for cols in data.values() for t in cols])
        ax.set_xlabel("threads")
        ax.set_ylabel(label)
        ax.set_title("%s: %s" % (block.name, title))
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    save(fig, out, caption(prov, block))


def plot_trace(block, out, prov):
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
    save(fig, out, caption(prov, block))


PLOTS = {"sweep/1": plot_sweep, "latency/1": plot_latency, "placement/1": plot_placement,
         "trace/1": plot_trace, "energy/1": plot_energy}


def unique_name(name, used):
    """NAME, or NAME-2, NAME-3... when written before in this run."""
    n = used.get(name, 0) + 1
    used[name] = n
    return name if n == 1 else "%s-%d" % (name, n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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
                plot(block, png, provenance(data, block.first))
                what += [png, os.path.join(args.out, base + ".svg")]
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
