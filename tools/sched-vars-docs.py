#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The variables tables of docs/sched.md (ULE's tunables) and docs/hmp.md
(kern.sched.policy, the hmp switches, kern.sched.primary) and
docs/policies.md (the peer policies' tunables) are generated
from the scheduler's variable table, kernel/sched/sched_vars.def, and the
named policies' table of docs/bench.md from kernel/bench/
bench_policy_table.c, by `schedsim --vars-markdown ule|hmp|policies|peers`. Each
sits between the lines

    <!-- sched_vars ule: ... -->        (or hmp, policies, peers)
    <!-- end sched_vars -->

  tools/sched-vars-docs.py [--build DIR]          rewrites the tables
  tools/sched-vars-docs.py --check [--build DIR]  exit 1 and a diff if a doc
                                                  differs from the code table
(build/schedsim must be built: `make sim`)."""
import argparse
import difflib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = (("docs/sched.md", "ule"), ("docs/hmp.md", "hmp"), ("docs/bench.md", "policies"),
        ("docs/policies.md", "peers"))
BLOCK = re.compile(r"(<!-- sched_vars (\w+):[^\n]*-->\n)(.*?)(<!-- end sched_vars -->)", re.S)


def generated(schedsim, which):
    """schedsim's markdown table for which (ule, hmp or policies)."""
    return subprocess.run([schedsim, "--vars-markdown", which], check=True, capture_output=True,
                          text=True).stdout


def refresh(text, which, table, doc):
    """text with its `which` block replaced by table; a problem string
    instead when the doc has no such block (or more than one)."""
    found = [m for m in BLOCK.finditer(text) if m.group(2) == which]
    if len(found) != 1:
        return None, "%s: %d blocks '<!-- sched_vars %s: ... -->' (want 1)" % (doc, len(found), which)
    m = found[0]
    return text[:m.start(3)] + table + text[m.end(3):], None


def run(root, schedsim, check):
    """Checks or rewrites the docs under root; the list of problems."""
    problems = []
    for doc, which in DOCS:
        path = os.path.join(root, doc)
        with open(path) as f:
            old = f.read()
        new, problem = refresh(old, which, generated(schedsim, which), doc)
        if problem:
            problems.append(problem)
        elif new != old and check:
            diff = difflib.unified_diff(old.splitlines(True), new.splitlines(True), doc + " (now)",
                                        doc + " (from kernel/sched/sched_vars.def)")
            problems.append("".join(diff) + "regenerate with tools/sched-vars-docs.py")
        elif new != old:
            with open(path, "w") as f:
                f.write(new)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--root", default=ROOT)
    args = ap.parse_args()
    problems = run(args.root, os.path.join(args.build, "schedsim"), args.check)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
