# SPDX-License-Identifier: BSD-2-Clause
"""The kernel's benchmark statistics (kernel/bench/, run on the host as
build/host/bench_stats_cli) against SciPy 1.10 and Python's statistics
module, on the seed report's 14 column pairs and on generated sample sets
(sizes 1..1024, with and without ties, zeros, 10^15).

Tolerances (docs/bench.md "Validation"):
- min, max, sum, mean, median, median per core, the four rates, U: exact
  (Python's Fraction arithmetic, rounded half up like the C code).
- CV: within 1 (0.01 %) of scipy.stats.variation(ddof=1).
- Mann-Whitney p: within 1e-12 + 1e-9 relative of scipy.stats.mannwhitneyu
  with the method the C code chose (exact or asymptotic).
- bootstrap CI: bit-exact against the same algorithm written here in Python
  integers; on the seed report's columns also near SciPy's percentile
  bootstrap (its own random numbers, 20000 resamples): each bound within a
  fifth of SciPy's interval width plus 0.05 % (the largest gap seen is
  0.08 of the width).
"""
import os
import random
import statistics
import subprocess
from fractions import Fraction

import numpy as np
from scipy import stats


NA = -1
PCT_ONE = 10000
RATIO_MAX = 10 ** 12
P_ONE = 10 ** 12
EXACT_CELLS = 400
RESAMPLES, TAIL = 2000, 50
SEED = 0x6d6f7361696342
M64 = (1 << 64) - 1


def round_half_up(x):
    """A non-negative Fraction rounded half up to an integer."""
    return int(x + Fraction(1, 2))


def ratio(num, den):
    if den == 0:
        return NA
    r = round_half_up(Fraction(num * PCT_ONE, den))
    return NA if r > RATIO_MAX else r


def seed_columns(root):
    """The seed report's (threads, GENERIC samples, patched samples) x 100."""
    cases = []
    for fname in ("i7-1370p.table", "core-ultra-7-155h.table"):
        kernels, threads = [], None
        with open(os.path.join(root, "tests", "data", "seed-report", fname)) as f:
            for line in f:
                w = line.split()
                if line.startswith("[Kernel Config]"):
                    kernels.append([])
                elif w[:2] == ["Use", "Cores"]:
                    threads = [int(x) for x in w[2:]]
                elif w and w[0] == "Sample":
                    kernels[-1].append([int(x.replace(".", "")) for x in w[2:]])
        for c, t in enumerate(threads):
            cases.append((t, [row[c] for row in kernels[0]], [row[c] for row in kernels[1]]))
    return cases


def generated_cases():
    rng = random.Random(20261201)
    cases = []
    # no ties, exact test (na * nb <= 400), B shifted by various amounts
    for na, nb in [(1, 1), (1, 5), (2, 2), (3, 4), (5, 5), (7, 9), (8, 8), (10, 12), (12, 12),
                   (15, 20), (20, 20), (1, 400), (4, 100), (16, 25)]:
        for shift in (0, 50000, 400000):
            pool = rng.sample(range(10 ** 6), na + nb)
            a = pool[:na]
            b = [x + shift for x in pool[na:]]
            if len(set(a) | set(b)) == na + nb:
                cases.append((rng.randint(1, 64), a, b))
    # ties: normal approximation with the tie correction
    for na, nb, top in [(3, 3, 3), (5, 7, 4), (12, 12, 6), (30, 30, 10), (50, 40, 3), (2, 1, 1)]:
        cases.append((4, [rng.randint(0, top) for _ in range(na)], [rng.randint(1, top + 1) for _ in range(nb)]))
    # no ties but too many pairs for the exact test
    for na, nb in [(21, 20), (100, 120), (401, 1), (1024, 1024), (1024, 3)]:
        base = rng.randint(10 ** 9, 10 ** 12)
        a = [base + rng.randint(-base // 20, base // 20) for _ in range(na)]
        b = [int(base * 1.01) + rng.randint(-base // 20, base // 20) for _ in range(nb)]
        cases.append((20, a, b))
    # edges: all equal, single samples, zeros, the range's ends
    cases += [(1, [5] * 5, [5] * 5), (1, [7], [9]), (2, [0, 0, 1], [3, 4]), (3, [0, 0, 0], [0, 1]),
              (4096, [0, 10 ** 15, 10 ** 15], [1, 10 ** 15 - 1]), (1, [10 ** 15] * 3, [1, 2, 3])]
    return cases


def run_cli(ctx, cases):
    cli = os.path.join(ctx.build, "host", "bench_stats_cli")
    text = "".join("%d | %s | %s\n" % (t, " ".join(map(str, a)), " ".join(map(str, b))) for t, a, b in cases)
    p = subprocess.run([cli, "stats"], input=text, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    out = []
    for line in p.stdout.splitlines():
        d = {}
        for kv in line.split():
            k, v = kv.split("=")
            d[k] = v if k == "method" else int(v)
        out.append(d)
    assert len(out) == len(cases), "%d results for %d cases" % (len(out), len(cases))
    return out


def check_column(where, threads, v, got, k):
    fr = [Fraction(x) for x in v]
    med = statistics.median(fr)
    want = {"n": len(v), "min": min(v), "max": max(v), "sum": sum(v),
            "mean": round_half_up(statistics.mean(fr)), "median2": int(2 * med),
            "median": round_half_up(med), "mpc": round_half_up(med / threads)}
    assert float(np.median(v)) * 2 == float(want["median2"]), where
    for key, w in want.items():
        assert got["%s_%s" % (key, k)] == w, "%s: %s_%s = %d, want %d" % (where, key, k, got[key + "_" + k], w)
    cv = got["cv_" + k]
    if len(v) < 2 or sum(v) == 0:
        assert cv == NA, "%s: cv_%s %d, want undefined" % (where, k, cv)
    else:
        ref = stats.variation(np.array(v, dtype=np.float64), ddof=1) * PCT_ONE
        assert abs(cv - ref) <= 1, "%s: cv_%s %d, scipy %.4f" % (where, k, cv, ref)


def has_ties(a, b):
    return len(set(a) | set(b)) != len(a) + len(b)


def check_mwu(where, a, b, got):
    exact = not has_ties(a, b) and len(a) * len(b) <= EXACT_CELLS
    assert got["method"] == ("exact" if exact else "normal"), "%s: method %s" % (where, got["method"])
    with np.errstate(divide="ignore", invalid="ignore"):
        res = stats.mannwhitneyu(b, a, alternative="two-sided", method="exact" if exact else "asymptotic")
    assert got["u2_b"] == int(2 * res.statistic), "%s: 2U_B %d, scipy %s" % (where, got["u2_b"], res.statistic)
    want = 1.0 if np.isnan(res.pvalue) else float(res.pvalue)
    assert abs(got["p"] - want * P_ONE) <= 1 + want * P_ONE * 1e-9, \
        "%s (%s): p %d e-12, scipy %.17g" % (where, got["method"], got["p"], want)


def check_rates(where, a, b, got):
    want = {"rate_avg": ratio(sum(b) * len(a), sum(a) * len(b)),
            "rate_median": ratio(2 * statistics.median(map(Fraction, b)), 2 * statistics.median(map(Fraction, a))),
            "rate_max_min": ratio(max(b), min(a)), "rate_min_min": ratio(min(b), min(a))}
    for key, w in want.items():
        assert got[key] == w, "%s: %s %d, want %d" % (where, key, got[key], w)


class Splitmix:
    """splitmix64, as bench_bootstrap.c."""

    def __init__(self, seed):
        self.x = seed & M64

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def index(self, n):
        limit = M64 - M64 % n
        while True:
            r = self.next()
            if r < limit:
                return r % n


def bootstrap_ci(a, b, seed=SEED):
    """bench_bootstrap_ci() in Python integers: (lo, hi) in 0.01 %."""
    sa, sb = sorted(a), sorted(b)
    rng = Splitmix(seed)
    ratios = []

    def median2(s):
        n = len(s)
        count = [0] * n
        for _ in range(n):
            count[rng.index(n)] += 1
        drawn = [s[i] for i in range(n) for _ in range(count[i])]
        return drawn[(n - 1) // 2] + drawn[n // 2]

    for _ in range(RESAMPLES):
        ma, mb = median2(sa), median2(sb)
        r = ratio(mb, ma)
        if r == NA:
            return NA, NA
        ratios.append(r)
    ratios.sort()
    return ratios[TAIL], ratios[RESAMPLES - 1 - TAIL]


def check_all(cases, results, boot_max):
    for i, ((threads, a, b), got) in enumerate(zip(cases, results)):
        where = "case %d (%d x %d)" % (i + 1, len(a), len(b))
        check_column(where, threads, a, got, "a")
        check_column(where, threads, b, got, "b")
        check_rates(where, a, b, got)
        check_mwu(where, a, b, got)
        if len(a) + len(b) <= boot_max:
            want = bootstrap_ci(a, b)
            assert (got["ci_lo"], got["ci_hi"]) == want, "%s: CI %d..%d, model %d..%d" % (
                where, got["ci_lo"], got["ci_hi"], want[0], want[1])


def test_seed_report_columns(ctx):
    cases = seed_columns(ctx.root)
    assert len(cases) == 14
    results = run_cli(ctx, cases)
    check_all(cases, results, boot_max=100)
    # the interval agrees with SciPy's percentile bootstrap
    for i, ((threads, a, b), got) in enumerate(zip(cases, results)):
        res = stats.bootstrap((np.array(b, dtype=np.float64), np.array(a, dtype=np.float64)),
                              lambda x, y, axis=-1: np.median(x, axis=axis) / np.median(y, axis=axis),
                              method="percentile", n_resamples=20000, random_state=1, vectorized=True)
        lo, hi = res.confidence_interval.low * 100, res.confidence_interval.high * 100
        slack = (hi - lo) / 5 + 0.05
        assert abs(got["ci_lo"] / 100 - lo) <= slack and abs(got["ci_hi"] / 100 - hi) <= slack, \
            "seed column %d (%d threads): CI %.2f..%.2f %%, scipy %.2f..%.2f %%" % (
                i + 1, threads, got["ci_lo"] / 100, got["ci_hi"] / 100, lo, hi)


def test_generated_sets(ctx):
    cases = generated_cases()
    results = run_cli(ctx, cases)
    methods = {r["method"] for r in results}
    assert methods == {"exact", "normal"}, methods
    check_all(cases, results, boot_max=60)


def test_refuses_bad_cases(ctx):
    cli = os.path.join(ctx.build, "host", "bench_stats_cli")
    for text, why in [("1 | -1 | 2\n", "not a valid case"), ("0 | 1 | 2\n", "not a valid case"),
                      ("1 | 1000000000000001 | 2\n", "not a valid case"), ("1 | | 2\n", "not a valid case"),
                      ("1 2 3\n", "expected 'THREADS | A values | B values'"), ("1 | x | 2\n", "not a valid case")]:
        p = subprocess.run([cli, "stats"], input="1 | 1 | 2\n" + text, capture_output=True, text=True, timeout=60)
        assert p.returncode == 1 and ("stdin:2: " + why) in p.stderr, (text, p.returncode, p.stderr)
