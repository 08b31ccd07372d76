# SPDX-License-Identifier: BSD-2-Clause
"""Runner of one host Python test file (tests/host/test_*.py), run by
tests/run_all.py under Debian's /usr/bin/python3, which has the packages
tools/deps.sh installs (python3-scipy, python3-matplotlib).

A test file defines functions test_<what>(ctx) and ends with
`hosttest.main(globals())`. ctx.root is the repository, ctx.build the build
directory, ctx.tmp a fresh scratch directory under build/test-host/. Each
test prints 'ok   host/<file>/<test>' or 'FAIL host/<file>/<test>' and the
traceback indented; the exit status is 1 if any failed.

  python3 tests/host/test_x.py [--build DIR] [-k PATTERN]
"""
import argparse
import os
import shutil
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Context:
    def __init__(self, build, name):
        self.root = ROOT
        self.build = build
        self.tmp = os.path.join(build, "test-host", name)
        shutil.rmtree(self.tmp, ignore_errors=True)
        os.makedirs(self.tmp)


def main(module_globals):
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-k", dest="pattern", default="")
    args = ap.parse_args()
    fname = os.path.splitext(os.path.basename(module_globals["__file__"]))[0]
    tests = [(n, f) for n, f in module_globals.items() if n.startswith("test_") and callable(f)]
    tests.sort(key=lambda t: t[1].__code__.co_firstlineno)
    failed = 0
    for tname, func in tests:
        name = "host/%s/%s" % (fname, tname)
        if args.pattern and args.pattern not in name:
            continue
        start = time.monotonic()
        try:
            func(Context(os.path.abspath(args.build), "%s.%s" % (fname, tname)))
            print("ok   %s (%.1fs)" % (name, time.monotonic() - start), flush=True)
        except Exception:
            failed += 1
            print("FAIL %s" % name, flush=True)
            print("\n".join("     " + l for l in traceback.format_exc().rstrip().splitlines()), flush=True)
    sys.exit(1 if failed else 0)
