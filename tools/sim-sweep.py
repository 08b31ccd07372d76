#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sim-sweep.py: one workload on one machine model at every thread count
1..MAX under ule, hmp and oracle, through build/schedsim (docs/results.md,
"Every thread count"). Prints CSV: workload, threads, hmp/ule median,
hmp/oracle median, hmp worst run/oracle median, ule/oracle median (percent,
schedsim's own ratios of the workload's value; whether lower is better is
the workload's own field, as `schedsim --list` states it).

usage: tools/sim-sweep.py MACHINE MAX|LIST WORKLOAD RUNS [schedsim options...]
       (MAX: every thread count 1..MAX; LIST: those, e.g. 1,2,4,8)
       tools/sim-sweep.py --summary CSV...   (a markdown row per file)
"""
import os
import subprocess
import sys

SCHEDSIM = os.environ.get("SCHEDSIM", os.path.join(os.path.dirname(__file__), "..", "build", "schedsim"))


def lower_is_better(workload):
    """True when workload's value is better lower (a time), as the workload
    itself says in `schedsim --list` ("(s, lower is better)")."""
    p = subprocess.run([SCHEDSIM, "--list"], capture_output=True, text=True)
    if p.returncode:
        sys.exit("sim-sweep: %s --list failed:\n%s" % (SCHEDSIM, p.stderr[-2000:]))
    lines = p.stdout.split("\n")
    start = lines.index("workloads:") + 1 if "workloads:" in lines else len(lines)
    for line in lines[start:]:
        if not line.startswith(" "):
            break   # the next section (policies)
        words = line.split()
        if not line.startswith("   ") and words[0] == workload:
            if line.endswith(", lower is better)"):
                return True
            if line.endswith(", higher is better)"):
                return False
            sys.exit("sim-sweep: schedsim --list states no direction for %s: %s" % (workload, line.strip()))
    sys.exit("sim-sweep: schedsim --list has no workload %s" % workload)


def table(lines, title):
    """{row name: {column: cell}} of the schedsim summary table titled title."""
    idx = [k for k, line in enumerate(lines) if line.startswith(title)]
    if not idx:
        return {}
    k = idx[0] + 1
    hdr = lines[k].split()[2:]
    out = {}
    k += 2
    while k < len(lines) and not lines[k].startswith("---"):
        parts = lines[k].split()
        name = " ".join(parts[:len(parts) - len(hdr)])
        out[name] = dict(zip(hdr, parts[len(parts) - len(hdr):]))
        k += 1
    return out


def sweep(machine, counts_wanted, workload, runs, extra):
    """The CSV rows, 16 thread counts per schedsim call."""
    rows = {}
    for start in range(0, len(counts_wanted), 16):
        counts = ",".join(str(x) for x in counts_wanted[start:start + 16])
        args = [SCHEDSIM, "--machine", machine, "--workload", workload, "--threads", counts,
                "--runs", str(runs), "--policy", "ule,hmp,oracle"] + extra
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode:
            sys.exit("sim-sweep: %s failed:\n%s" % (" ".join(args), p.stderr[-2000:]))
        lines = p.stdout.split("\n")
        rate = table(lines, "[schedsim] Rate(Median) against ule")
        orc = table(lines, "[schedsim] against oracle")
        for th in rate.get("hmp", {}):
            rows[int(th)] = (rate["hmp"][th], orc["hmp median"][th], orc["hmp worst"][th], orc["ule median"][th])
    for th in sorted(rows):
        print("%s,%d,%s" % (workload, th, ",".join(x.rstrip("%") for x in rows[th])))


def summary(paths):
    """A markdown row per CSV: the worst hmp/ule point, the points short of
    0.99 x ule, the worst hmp/oracle median and run."""
    for path in paths:
        rows = [line.strip().split(",") for line in open(path) if line.strip()]
        if not rows:
            continue
        wl = rows[0][0]
        lower = lower_is_better(wl)
        vals = [(int(r[1]), float(r[2]), r[3], r[4]) for r in rows if r[2] != "-"]
        if lower:   # hmp/ule of a time: above 101.01 % is a loss of more than 1 %
            worst = max(vals, key=lambda v: v[1])
            short = [v[0] for v in vals if v[1] > 100 / 0.99]
        else:
            worst = min(vals, key=lambda v: v[1])
            short = [v[0] for v in vals if v[1] < 99.0]
        orc_med = min(vals, key=lambda v: float(v[2]) if not lower else -float(v[2]))
        orc_worst = min(vals, key=lambda v: float(v[3]) if not lower else -float(v[3]))
        print("| %s | %d..%d | %.2f %% (%d) | %s | %s %% (%d) | %s %% (%d) |" % (
            wl, vals[0][0], vals[-1][0], worst[1], worst[0],
            ", ".join(str(x) for x in short) if short else "none",
            orc_med[2], orc_med[0], orc_worst[3], orc_worst[0]))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--summary":
        summary(sys.argv[2:])
        return
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    top = sys.argv[2]
    counts = [int(x) for x in top.split(",")] if "," in top else list(range(1, int(top) + 1))
    sweep(sys.argv[1], counts, sys.argv[3], int(sys.argv[4]), sys.argv[5:])


if __name__ == "__main__":
    main()
