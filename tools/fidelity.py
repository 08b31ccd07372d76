#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""fidelity.py: the simulated distribution of the seed experiment's samples
beside the seed report's measured ones (docs/results.md, "Fidelity").

For one machine, one kernel (a schedsim policy, with its own options) and
the report's thread counts, runs build/schedsim --runs N and prints, per
thread count: the simulated median, min and max, the report's, and a test
of fit of the report's 12 samples to the simulated distribution:
- where the simulated values fall into a few separate outcome classes
  (placements: at most 6 clusters, each wider apart than 1 % of the
  median), the exact multinomial test: each report sample is put in the
  class whose simulated mean is nearest; the p-value is the probability,
  under the simulated class frequencies, of 12 samples as unlikely as the
  report's (summed over every outcome no more likely than it);
- otherwise the two-sample Kolmogorov-Smirnov test (asymptotic p-value with
  the usual small-sample correction).
No parameter is fitted to the report's samples: the simulated runs come
from the machine model as it is.

usage: tools/fidelity.py MACHINE KERNEL TABLE RUNS [--threads LIST] [schedsim options...]
  KERNEL  generic (ule with --topology freebsd), patched (hmp-report with
          --topology freebsd) or any schedsim policy (the report's GENERIC
          samples are its comparison unless the policy is hmp-something)
  TABLE   tests/data/seed-report/<machine>.table
Prints a markdown table; --csv prints CSV instead.
"""
import importlib.util
import math
import re
import os
import subprocess
import sys
from fractions import Fraction

_spec = importlib.util.spec_from_file_location(
    "placement_classes", os.path.join(os.path.dirname(os.path.abspath(__file__)), "placement-classes.py"))
placement_classes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(placement_classes)   # its exact multinomial test

SCHEDSIM = os.environ.get("SCHEDSIM", os.path.join(os.path.dirname(__file__), "..", "build", "schedsim"))
# The report's two kernels: FreeBSD's tree (`--topology freebsd`) under
# stock ULE, and under the report's hmp (no beyond-the-report switch).
KERNELS = {"generic": ("ule", ["--topology", "freebsd"]), "patched": ("hmp-report", ["--topology", "freebsd"])}
RESULT = re.compile(r"^bench: run \d+ of \d+: cpu (\S+), (\d+) threads: ([\d.]+) events/s")
TABLE_KERNEL = {"generic": "GENERIC", "patched": "hmp(4)"}


def report_samples(path, kernel):
    """{threads: [12 values]} of the report's table for kernel (GENERIC or
    the patched one)."""
    want = TABLE_KERNEL.get(kernel, "hmp(4)" if kernel != "ule" else "GENERIC")
    out, cols, inside = {}, [], False
    for line in open(path):
        if line.startswith("[Kernel Config]"):
            inside = want in line
            continue
        if not inside:
            continue
        parts = line.split()
        if line.startswith("Use Cores"):
            cols = [int(x) for x in parts[2:]]
        elif line.startswith("Sample"):
            for c, v in zip(cols, parts[2:]):
                out.setdefault(c, []).append(float(v))
    return out


def simulated(machine, policy, threads, runs, extra):
    """{threads: [(placement class, value)]} of schedsim's runs: the value
    from each run's result line, the class (threads on P-cores, E-cores,
    LP-E) from its "where" line (tools/placement-classes.py)."""
    args = [SCHEDSIM, "--machine", machine, "--workload", "cpu", "--threads", ",".join(map(str, threads)),
            "--runs", str(runs), "--policy", policy] + extra
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        sys.exit("fidelity: %s failed:\n%s" % (" ".join(args), p.stderr[-2000:]))
    lines = p.stdout.split("\n")
    values = [float(m.group(3)) for m in (RESULT.match(line) for line in lines) if m and m.group(1) == policy]
    classes_ = [c for pol, _, c in placement_classes.runs(lines) if pol == policy]
    counts = [int(m.group(2)) for m in (RESULT.match(line) for line in lines) if m and m.group(1) == policy]
    if not values or len(values) != len(classes_):
        sys.exit("fidelity: %s: %d results and %d placement lines" % (" ".join(args), len(values), len(classes_)))
    out = {}
    for t, c, v in zip(counts, classes_, values):
        out.setdefault(t, []).append((c, v))
    return out


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def ks_p(a, b):
    """Two-sample Kolmogorov-Smirnov: (D, asymptotic p)."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    ne = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(ne) + 0.12 + 0.11 / math.sqrt(ne)) * d
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, max(0.0, min(1.0, p))


def fit(sim, rep):
    """(test name, p-value, detail) of the report's samples rep against the
    simulated runs sim [(class, value)]. With a few placement classes whose
    values lie apart (each class's median more than 1 % from the next),
    each report sample is put in the class of nearest median value and the
    class counts get the exact multinomial test; else the values get the
    two-sample Kolmogorov-Smirnov test."""
    by = {}
    for c, v in sim:
        by.setdefault(c, []).append(v)
    cls = sorted(by, key=lambda c: -median(by[c]))
    meds = [median(by[c]) for c in cls]
    apart = all(meds[k] - meds[k + 1] > 0.01 * meds[k] for k in range(len(meds) - 1))
    if len(cls) > 1 and apart and len(cls) <= 6:
        probs = [Fraction(len(by[c]), len(sim)) for c in cls]
        counts = [0] * len(cls)
        for v in rep:
            counts[min(range(len(meds)), key=lambda k: abs(v - meds[k]))] += 1
        detail = "%s: simulated %s, report %s" % (
            "/".join("%s %.1fM" % (placement_classes.name(c), m / 1e6) for c, m in zip(cls, meds)),
            "/".join("%.3f" % float(p) for p in probs), "/".join(map(str, counts)))
        return "multinomial", float(placement_classes.multinomial_p(probs, counts)), detail
    d, p = ks_p([v for _, v in sim], rep)
    return "KS", p, "D %.3f; %d placement classes" % (d, len(cls))


def main():
    argv = sys.argv[1:]
    csv = "--csv" in argv
    argv = [a for a in argv if a != "--csv"]
    if len(argv) < 4:
        sys.exit(__doc__)
    machine, kernel, table, runs = argv[0], argv[1], argv[2], int(argv[3])
    extra = argv[4:]
    threads = None
    if "--threads" in extra:
        k = extra.index("--threads")
        threads = [int(x) for x in extra[k + 1].split(",")]
        extra = extra[:k] + extra[k + 2:]
    rep = report_samples(table, kernel)
    threads = threads or sorted(rep)
    policy, more = KERNELS.get(kernel, (kernel, []))
    sim = simulated(machine, policy, threads, runs, more + extra)
    if csv:
        print("threads,sim median,sim min,sim max,report median,report min,report max,test,p,detail")
    else:
        print("| threads | simulated median (min..max), %d runs | report median (min..max), 12 runs | test | p | detail |"
              % runs)
        print("| ---: | --- | --- | --- | ---: | --- |")
    for t in threads:
        r = rep[t]
        test, p, detail = fit(sim[t], r)
        s = [v for _, v in sim[t]]
        if csv:
            print("%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%s,%.4f,%s" % (t, median(s), min(s), max(s), median(r), min(r),
                                                                  max(r), test, p, detail))
        else:
            print("| %d | %.2fM (%.2f..%.2f) | %.2fM (%.2f..%.2f) | %s | %.3f | %s |" % (
                t, median(s) / 1e6, min(s) / 1e6, max(s) / 1e6, median(r) / 1e6, min(r) / 1e6, max(r) / 1e6,
                test, p, detail))


if __name__ == "__main__":
    main()
