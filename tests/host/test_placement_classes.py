# SPDX-License-Identifier: BSD-2-Clause
"""tools/placement-classes.py: the classes it reads from `where` lines
(shares times threads, rounded), their counts per policy and thread count,
and its exact multinomial test on cases worked by hand."""
import importlib.util
import os
import subprocess
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TOOL = os.path.join(ROOT, "tools", "placement-classes.py")
spec = importlib.util.spec_from_file_location("placement_classes", TOOL)
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)


def run_line(i, policy, threads):
    return "bench: run %d of 9: cpu %s, %d threads: 1.00 events/s; check ok: x" % (i, policy, threads)


def where(p, smt, e, lpe):
    return ("bench:   where: P %s%%, P beside a busy SMT sibling %s%%, E %s%%, LP-E %s%%, other 0.0%%; "
            "0 migrations; - HFI updates; 4 threads ended on P 0, E 0, LP-E 0, other 0 (cpus -)" % (p, smt, e, lpe))


LOG = "\n".join([
    "bench: run 1 of 9: cpu ule, 4 threads, sample 1 of 3 (elapsed 0:00, remaining unknown; a key stops)",
    run_line(1, "ule", 4), where("75.0", "0.0", "25.0", "0.0"),
    run_line(2, "ule", 4), where("50.0", "0.0", "50.0", "0.0"),
    run_line(3, "ule", 4), where("49.9", "25.1", "25.0", "0.0"),   # a P thread beside a busy sibling
    run_line(4, "hmp", 4), where("100.0", "0.0", "0.0", "0.0"),
    run_line(5, "ule", 6), where("50.0", "0.0", "33.3", "16.7"),
]) + "\n"


def tool(ctx, *args, stdin=LOG):
    return subprocess.run([sys.executable, TOOL] + list(args), input=stdin, capture_output=True, text=True,
                          timeout=60)


def test_classes_from_where_lines(ctx):
    got = pc.runs(LOG.splitlines())
    assert got == [("ule", 4, (3, 1, 0)), ("ule", 4, (2, 2, 0)), ("ule", 4, (3, 1, 0)),
                   ("hmp", 4, (4, 0, 0)), ("ule", 6, (3, 2, 1))], got
    assert [pc.name(c) for _p, _n, c in got] == ["3P1E", "2P2E", "3P1E", "4P", "3P2E1L"]
    assert pc.parse_class("3P1E") == (3, 1, 0) and pc.parse_class("4P") == (4, 0, 0)
    p = tool(ctx)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["ule, 4 threads: 3 runs: 3P1E 2 (0.667), 2P2E 1 (0.333)",
                                     "hmp, 4 threads: 1 runs: 4P 1 (1.000)",
                                     "ule, 6 threads: 1 runs: 3P2E1L 1 (1.000)"], p.stdout


def test_exact_multinomial_by_hand(ctx):
    half = [Fraction(1, 2)] * 2
    # 4 fair coin flips: P(4,0) = 1/16, and (0,4) is as likely: 2/16
    assert pc.multinomial_p(half, [4, 0]) == Fraction(2, 16)
    # (3,1) = 4/16: with (4,0), (1,3), (0,4): 10/16
    assert pc.multinomial_p(half, [3, 1]) == Fraction(10, 16)
    # the most likely outcome: every outcome counts
    assert pc.multinomial_p(half, [2, 2]) == 1
    # a class of probability 0 observed: nothing is as unlikely but the impossible
    assert pc.multinomial_p([Fraction(1), Fraction(0)], [2, 1]) == 0
    # 3 runs, probabilities 1/2, 1/4, 1/4 (in 64ths: (3,0,0) 8, (0,3,0) and (0,0,3) 1,
    # (2,1,0) and (2,0,1) 12, (1,2,0) and (1,0,2) 6, (0,2,1) and (0,1,2) 3, (1,1,1) 12)
    q = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    assert pc.multinomial_p(q, [0, 2, 1]) == Fraction(1 + 1 + 3 + 3, 64)
    assert pc.multinomial_p(q, [1, 2, 0]) == Fraction(1 + 1 + 3 + 3 + 6 + 6, 64)
    assert pc.multinomial_p(q, [1, 1, 1]) == 1


def test_observed_and_refusals(ctx):
    p = tool(ctx, "--policy", "ule", "--observed", "3P1E=1,2P2E=1")
    assert p.returncode == 2 and "--threads" in p.stderr, p.stderr   # ule at 4 and at 6 threads
    p = tool(ctx, "--policy", "ule", "--threads", "4", "--observed", "3P1E=1,2P2E=1")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "ule, 4 threads: 3 runs: 3P1E 2 (0.667), 2P2E 1 (0.333)", p.stdout
    # P(1,1) = 2 x 2/3 x 1/3 = 4/9; (0,2) = 1/9 is less likely, (2,0) = 4/9 as likely: p = 1
    assert p.stdout.splitlines()[-1] == "observed 3P1E 1, 2P2E 1 (2 runs): exact multinomial p = 1", p.stdout
    p = tool(ctx, "--policy", "ule", "--threads", "4", "--observed", "4P=1,3P1E=1")
    assert p.stdout.splitlines()[-1] == "observed 4P 1, 3P1E 1, 2P2E 0 (2 runs): exact multinomial p = 0", p.stdout
    p = tool(ctx, "--observed", "3X=1")
    assert p.returncode == 2 and "3X" in p.stderr, p.stderr
    p = tool(ctx, "--policy", "nope")
    assert p.returncode == 1 and "no run of nope" in p.stderr, p.stderr
    p = tool(ctx, "--threads", "5")
    assert p.returncode == 1 and "no run at 5 threads" in p.stderr, p.stderr
