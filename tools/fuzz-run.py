#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""fuzz-run: the seeded fuzz harnesses of `make fuzz`, several at once.

  tools/fuzz-run.py [-j JOBS] [--seed S] [--iterations N] [--seconds T] HARNESS...

Runs each harness binary (build/fuzz/fuzz_NAME) with --seed S --iterations N
--seconds T (whichever limit comes first), JOBS at a time (default: every
CPU), and prints a line as each one ends, with how many are done and the
time so far, so a long run says how far it is.
A failing harness's output is printed whole (its seed and iteration
reproduce it: docs/testing.md, "Fuzzing"); the others go on.
Exit status: 0 all passed, 1 some failed, 2 bad arguments."""
import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed


def run_one(binary, args):
    start = time.monotonic()
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr, time.monotonic() - start


def clock(seconds):
    return "%d:%02d" % (seconds // 60, seconds % 60)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("harnesses", nargs="+", metavar="HARNESS")
    ap.add_argument("-j", dest="jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--iterations", default="2000000")
    ap.add_argument("--seconds", default="0", help="per harness; 0: no limit")
    a = ap.parse_args(argv)
    if a.jobs < 1:
        ap.error("-j wants at least 1")
    for b in a.harnesses:
        if not os.access(b, os.X_OK):
            print("fuzz-run: no harness %s (make builds it)" % b, file=sys.stderr)
            return 2
    args = ["--seed", a.seed, "--iterations", a.iterations, "--seconds", a.seconds]
    total, done, failed, start = len(a.harnesses), 0, [], time.monotonic()
    limit = "%s iterations" % a.iterations + (" or %s s each" % a.seconds if a.seconds != "0" else "")
    print("fuzz-run: %d harnesses from seed %s, %s, %d at a time" % (total, a.seed, limit, a.jobs), flush=True)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = {pool.submit(run_one, b, args): b for b in a.harnesses}
        for fut in as_completed(futures):
            name = os.path.basename(futures[fut])
            rc, out, secs = fut.result()
            done += 1
            last = out.strip().splitlines()[-1] if out.strip() else ""
            state = "ok" if rc == 0 else "FAILED (status %d)" % rc
            print("fuzz-run: [%d/%d, %s] %s %s in %.0f s: %s" % (done, total, clock(time.monotonic() - start),
                                                            name, state, secs, last), flush=True)
            if rc:
                failed.append(name)
                sys.stdout.write(out)
    print("fuzz-run: %d passed, %d failed%s in %s" % (total - len(failed), len(failed),
                                                       (" (" + ", ".join(failed) + ")") if failed else "",
                                                       clock(time.monotonic() - start)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
