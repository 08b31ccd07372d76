#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sim-peers.py: hmp against the peer placement policies (docs/policies.md)
in build/schedsim, one workload on one machine model (docs/results.md,
"hmp against the peers"). Runs `schedsim --policy hmp,mic,linux,bpfland`
and prints one markdown row per peer and thread count: the peer's median
over hmp's (schedsim's Rate(Median), in the workload's own figure; `make`
and `hackbench` are times, lower is better), the peer's worst run over
hmp's median, and the two-sided Mann-Whitney p of the peer against hmp.

usage: tools/sim-peers.py MACHINE COUNTS WORKLOAD RUNS [schedsim options...]
       tools/sim-peers.py --from OUTPUT...   (rows from saved schedsim outputs)
"""
import os
import re
import subprocess
import sys

SCHEDSIM = os.environ.get("SCHEDSIM", os.path.join(os.path.dirname(__file__), "..", "build", "schedsim"))
POLICIES = ["hmp", "mic", "linux", "bpfland"]
LETTERS = "ABCD"


def rows(text):
    """The markdown rows of one schedsim output (policies as POLICIES)."""
    lines = text.split("\n")
    head = [l for l in lines if l.startswith("schedsim: machine ")]
    bench = [l for l in lines if l.startswith("bench: ") and "is better" in l]
    if not head or not bench:
        sys.exit("sim-peers: not a schedsim report (no machine or workload line)")
    found = re.search(r"([^ (/]+)\.machine, ", head[0])
    machine = found.group(1) if found else "?"
    workload = bench[0].split()[1]
    lower = "lower is better" in bench[0]
    counts, mwu, samples = None, {}, {}
    in_csv = False
    for l in lines:
        w = l.split()
        if l.startswith("Use Cores") and counts is None:
            counts = [int(x) for x in w[2:]]
        elif l.startswith("MWU p ") and len(w) >= 4 and w[2].endswith(":A"):
            mwu[w[2][0]] = [float(x) for x in w[3:]]
        elif l.startswith("--- mosaic-bench-csv begin %s schema=sweep/1" % workload):
            in_csv = True
        elif in_csv and l.startswith("--- mosaic-bench-csv end"):
            in_csv = False
        elif in_csv and not l.startswith("policy,"):
            pol, thr, _, val = l.split(",")[:4]
            samples.setdefault(pol, {}).setdefault(int(thr), []).append(float(val))
    out = []
    for k, peer in enumerate(POLICIES[1:], 1):
        for i, t in enumerate(counts):
            h = sorted(samples["hmp"][t])
            p = sorted(samples[peer][t])
            med = lambda v: (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2
            worst = max(p) if lower else min(p)
            out.append("| %s | %s | %s | %d | %.1f %% | %.1f %% | %.3f |" % (
                machine, workload + (" (time)" if lower else ""), peer, t, 100 * med(p) / med(h),
                100 * worst / med(h), mwu[LETTERS[k]][i]))
    return out


def main(argv):
    if len(argv) >= 2 and argv[1] == "--from":
        for path in argv[2:]:
            with open(path) as f:
                print("\n".join(rows(f.read())))
        return
    if len(argv) < 5:
        sys.exit(__doc__)
    machine, counts, workload, runs = argv[1:5]
    cmd = [SCHEDSIM, "--machine", machine, "--workload", workload, "--threads", counts, "--runs", runs,
           "--policy", ",".join(POLICIES)] + argv[5:]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit("sim-peers: %s failed:\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    print("\n".join(rows(p.stdout)))


if __name__ == "__main__":
    main(sys.argv)
