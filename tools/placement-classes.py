#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""placement-classes: how many of each run's threads ran on which core type,
counted over the runs of a `bench` or schedsim log, and an exact test of
observed counts against those frequencies.

  build/schedsim --machine i7-1370p --workload cpu --threads 4 --runs 200 --policy ule \\
      | tools/placement-classes.py [--policy P] [--threads N] [--observed 4P=1,3P1E=8,2P2E=3] [LOG]

A run's class comes from its "bench:   where:" line (docs/bench.md): its
share of thread run time on P-cores (with or without a busy SMT sibling),
E-cores and LP-E cores times its thread count, each rounded to a whole
thread ("3P1E": three threads' worth on P-cores, one on an E-core; LP-E
threads count as "L"). Per policy and thread count it prints each class's
runs and frequency, most P-cores first.

--policy and --threads keep only the runs of that policy and thread count.
--observed CLASS=N,... (one policy and thread count left) adds the
exact multinomial test: with the log's frequencies as the probabilities of
the classes, the probability of every outcome of as many runs that is no
more likely than the observed one, summed (an observed class the log never
shows gives 0). Exact rational arithmetic.

Exit status: 0; 1 when the log has no run (of the policy and thread
count), 2 for a usage error.
"""
import argparse
import re
import sys
from fractions import Fraction
from math import factorial

RUN = re.compile(r"^bench: run \d+ of \d+: \S+ (\S+), (\d+) ")
WHERE = re.compile(r"^bench:   where: P ([\d.]+)%, P beside a busy SMT sibling ([\d.]+)%, "
                   r"E ([\d.]+)%, LP-E ([\d.]+)%")
CLASS = re.compile(r"^(?:(\d+)P)?(?:(\d+)E)?(?:(\d+)L)?$")


def runs(lines):
    """[(policy, threads, (p, e, lpe))] of every run line followed by its where line."""
    out, cur = [], None
    for line in lines:
        m = RUN.match(line)
        if m:
            cur = (m.group(1), int(m.group(2)))
            continue
        m = WHERE.match(line)
        if m and cur:
            p, smt, e, lpe = (float(x) for x in m.groups())
            n = cur[1]
            out.append((cur[0], n, (round((p + smt) * n / 100), round(e * n / 100), round(lpe * n / 100))))
            cur = None
    return out


def name(cls):
    """'3P1E' for (3, 1, 0)."""
    return "".join("%d%s" % (k, t) for k, t in zip(cls, "PEL") if k) or "0P"


def parse_class(text):
    m = CLASS.match(text)
    if not text or not m:
        raise ValueError("'%s' is not a class like 3P1E" % text)
    return tuple(int(g or 0) for g in m.groups())


def outcomes(k, n):
    """Every way of n runs falling into k classes."""
    if k == 1:
        yield (n,)
        return
    for i in range(n + 1):
        for rest in outcomes(k - 1, n - i):
            yield (i,) + rest


def multinomial_p(probs, observed):
    """Exact multinomial test: the summed probability of the outcomes no
    more likely than observed (probabilities as Fractions)."""
    n = sum(observed)

    def prob(counts):
        v = Fraction(factorial(n))
        for c, p in zip(counts, probs):
            v = v * p ** c / factorial(c)
        return v

    p0 = prob(observed)
    return sum((v for v in (prob(c) for c in outcomes(len(probs), n)) if v <= p0), Fraction(0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", nargs="?", help="the log (default: standard input)")
    ap.add_argument("--policy", help="only this policy's runs")
    ap.add_argument("--threads", type=int, help="only the runs at this thread count")
    ap.add_argument("--observed", help="CLASS=N,... to test against the log's frequencies")
    args = ap.parse_args()
    observed = {}
    try:
        for item in (args.observed.split(",") if args.observed else []):
            cls, _, count = item.partition("=")
            observed[parse_class(cls)] = int(count)
    except ValueError as e:
        ap.error("--observed: %s" % e)
    text = open(args.log).read() if args.log else sys.stdin.read()
    got = [r for r in runs(text.splitlines()) if (not args.policy or r[0] == args.policy) and
           (args.threads is None or r[1] == args.threads)]
    if not got:
        print("placement-classes: no run%s%s in the log" % (" of " + args.policy if args.policy else "",
              " at %d threads" % args.threads if args.threads is not None else ""), file=sys.stderr)
        return 1
    groups = {}
    for policy, n, cls in got:
        groups.setdefault((policy, n), {}).setdefault(cls, 0)
        groups[(policy, n)][cls] += 1
    for (policy, n), counts in groups.items():
        total = sum(counts.values())
        parts = ", ".join("%s %d (%.3f)" % (name(c), k, k / total)
                          for c, k in sorted(counts.items(), reverse=True))
        print("%s, %d threads: %d runs: %s" % (policy, n, total, parts))
    if observed:
        if len(groups) != 1:
            ap.error("--observed: runs of %d policies or thread counts; --policy and --threads pick one"
                     % len(groups))
        (counts,) = groups.values()
        total = sum(counts.values())
        classes = sorted(set(counts) | set(observed), reverse=True)
        p = multinomial_p([Fraction(counts.get(c, 0), total) for c in classes], [observed.get(c, 0) for c in classes])
        print("observed %s (%d runs): exact multinomial p = %.3g" % (
            ", ".join("%s %d" % (name(c), observed.get(c, 0)) for c in classes), sum(observed.values()), float(p)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
