# SPDX-License-Identifier: BSD-2-Clause
"""tools/fuzz-run.py, the seeded stage of `make fuzz`: harnesses run several
at once with a progress line as each ends, a harness stops at --seconds
even when its iterations are not done (and says how many it ran), and a
failing harness is named with its whole output while the others finish."""
import os
import re
import stat
import subprocess
import sys



def fuzz_run(ctx, *args):
    p = subprocess.run([sys.executable, os.path.join(ctx.root, "tools", "fuzz-run.py"), *args],
                       capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def test_parallel_with_progress_and_a_time_limit(ctx):
    bins = [os.path.join(ctx.build, "fuzz", "fuzz_" + n) for n in ("cpulist", "parse", "cmdline")]
    rc, out = fuzz_run(ctx, "-j", "2", "--iterations", "1000000000000", "--seconds", "1", *bins)
    assert rc == 0, out
    assert "3 harnesses from seed 1, 1000000000000 iterations or 1 s each, 2 at a time" in out, out
    for k in (1, 2, 3):
        assert re.search(r"^fuzz-run: \[%d/3, \d+:\d\d\] fuzz_\w+ ok in \d+ s: fuzz \w+: \d+ iterations" % k,
                         out, re.M), out
    counts = [int(n) for n in re.findall(r"fuzz \w+: (\d+) iterations from seed 1: ok", out)]
    assert len(counts) == 3 and all(0 < n < 10 ** 12 for n in counts), out
    assert out.rstrip().splitlines()[-1].startswith("fuzz-run: 3 passed, 0 failed in "), out


def test_a_failure_is_named_and_the_rest_run(ctx):
    bad = os.path.join(ctx.tmp, "fuzz_broken")
    with open(bad, "w") as f:
        f.write("#!/bin/sh\necho 'fuzz broken: check failed at seed 1 iteration 7'\nexit 1\n")
    os.chmod(bad, os.stat(bad).st_mode | stat.S_IXUSR)
    good = os.path.join(ctx.build, "fuzz", "fuzz_cpulist")
    rc, out = fuzz_run(ctx, "--iterations", "1000", bad, good)
    assert rc == 1, out
    assert "fuzz_broken FAILED (status 1)" in out and "seed 1 iteration 7" in out, out
    assert "fuzz_cpulist ok" in out and "1 passed, 1 failed (fuzz_broken)" in out, out
    rc, out = fuzz_run(ctx, os.path.join(ctx.tmp, "fuzz_none"))
    assert rc == 2 and "no harness" in out, out
