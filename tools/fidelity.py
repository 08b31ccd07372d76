#!/usr/bin/env python3
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
  KERNEL  generic (ule), patched (hmp-report) or any schedsim policy
  TABLE   tests/data/seed-report/<machine>.table
Prints a markdown table; --csv prints CSV instead.
"""
import math
import os
import subprocess
import sys

SCHEDSIM = os.environ.get("SCHEDSIM", os.path.join(os.path.dirname(__file__), "..", "build", "schedsim"))
KERNELS = {"generic": "ule", "patched": "hmp-report"}
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
    """{threads: [values]} from schedsim's per-run samples."""
    args = [SCHEDSIM, "--machine", machine, "--workload", "cpu", "--threads", ",".join(map(str, threads)),
            "--runs", str(runs), "--policy", policy] + extra
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        sys.exit("fidelity: %s failed:\n%s" % (" ".join(args), p.stderr[-2000:]))
    out, cols, inside = {}, [], False
    for line in p.stdout.split("\n"):
        if line.startswith("[Policy]"):
            inside = line.split()[1] == policy
            continue
        if not inside:
            continue
        parts = line.split()
        if line.startswith("Use Cores"):
            cols = [int(x) for x in parts[2:]]
        elif line.startswith("Sample"):
            for c, v in zip(cols, parts[2:]):
                out.setdefault(c, []).append(float(v))
        elif line.startswith("Min"):
            inside = False
    return out


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def classes(values):
    """Cluster means of values when they form at most 6 clusters separated
    by more than 1 % of the median, else None."""
    gap = 0.01 * median(values)
    s = sorted(values)
    groups = [[s[0]]]
    for v in s[1:]:
        if v - groups[-1][-1] > gap:
            groups.append([v])
        else:
            groups[-1].append(v)
    if len(groups) > 6:
        return None
    return [(sum(g) / len(g), len(g)) for g in groups]


def compositions(n, k):
    """Every way to put n samples in k classes."""
    if k == 1:
        yield (n,)
        return
    for i in range(n + 1):
        for rest in compositions(n - i, k - 1):
            yield (i,) + rest


def multinomial_p(counts, probs):
    """Exact multinomial test: the probability of an outcome no more likely
    than counts."""
    n = sum(counts)

    def prob(c):
        lp = math.lgamma(n + 1)
        for ci, pi in zip(c, probs):
            if ci:
                if pi == 0:
                    return 0.0
                lp += ci * math.log(pi) - math.lgamma(ci + 1)
        return math.exp(lp)

    p0 = prob(counts)
    return min(1.0, sum(q for q in (prob(c) for c in compositions(n, len(probs))) if q <= p0 * (1 + 1e-9)))


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
    """(test name, p-value, detail) of rep's samples against sim's."""
    cl = classes(sim)
    if cl and len(cl) > 1:
        means = [m for m, _ in cl]
        probs = [c / len(sim) for _, c in cl]
        counts = [0] * len(cl)
        for v in rep:
            counts[min(range(len(means)), key=lambda k: abs(v - means[k]))] += 1
        detail = "classes %s: simulated %s, report %s" % (
            "/".join("%.1fM" % (m / 1e6) for m in means), "/".join("%.2f" % p for p in probs),
            "/".join(map(str, counts)))
        return "multinomial", multinomial_p(counts, probs), detail
    if cl and len(cl) == 1:
        # one simulated outcome: the report fits only if every sample is that outcome within 1 %
        ok = all(abs(v - cl[0][0]) <= 0.01 * cl[0][0] for v in rep)
        return "one outcome", 1.0 if ok else 0.0, "simulated always %.1fM" % (cl[0][0] / 1e6)
    d, p = ks_p(sim, rep)
    return "KS", p, "D %.3f" % d


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
    policy = KERNELS.get(kernel, kernel)
    sim = simulated(machine, policy, threads, runs, extra)
    if csv:
        print("threads,sim median,sim min,sim max,report median,report min,report max,test,p,detail")
    else:
        print("| threads | simulated median (min..max), %d runs | report median (min..max), 12 runs | test | p | detail |"
              % runs)
        print("| ---: | --- | --- | --- | ---: | --- |")
    for t in threads:
        s, r = sim[t], rep[t]
        test, p, detail = fit(s, r)
        if csv:
            print("%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%s,%.4f,%s" % (t, median(s), min(s), max(s), median(r), min(r),
                                                                  max(r), test, p, detail))
        else:
            print("| %d | %.2fM (%.2f..%.2f) | %.2fM (%.2f..%.2f) | %s | %.3f | %s |" % (
                t, median(s) / 1e6, min(s) / 1e6, max(s) / 1e6, median(r) / 1e6, min(r) / 1e6, max(r) / 1e6,
                test, p, detail))


if __name__ == "__main__":
    main()
