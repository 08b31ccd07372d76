# SPDX-License-Identifier: BSD-2-Clause
"""`make bench` (tools/bench-run.sh): boots the small hybrid machine
headless, runs one plan in the seed report's layout, and leaves the serial
log and the CSV and PNG files of every block in BENCH_OUT; a plan the
kernel refuses, or one that would break out of the boot script, fails."""
import csv
import os
import subprocess

from qemu import ROOT, TestFailure


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def make_bench(ctx, plan, out):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE") and k != "MFLAGS"}
    args = ["make", "--no-print-directory", "bench", "MACHINE=small-hybrid", "BENCH=" + plan,
            "BENCH_OUT=" + out]
    if os.path.realpath(ctx.build) != os.path.realpath(os.path.join(ROOT, "build")):
        args.append("BUILD=" + ctx.build)
    p = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    with open(os.path.join(ctx.log_dir, ctx.name + ".make.log"), "w") as f:
        f.write(p.stdout + p.stderr)
    return p.returncode, p.stdout + p.stderr


def test_make_bench_writes_csv_and_png(ctx):
    out = os.path.join(ctx.build, "test-bench-make")
    rc, text = make_bench(ctx, "sweep schbench --threads 1,2 --runs 1 --time 1", out)
    check(rc == 0, "make bench: status %d:\n%s" % (rc, text[-3000:]))
    files = set(os.listdir(out))
    want = {"bench.log"} | {"schbench%s.csv" % b for b in ("", ".summary", ".placement", ".latency", ".runs",
                                                            ".extras")} | \
        {"schbench%s.%s" % (b, ext) for b in ("", ".placement", ".latency") for ext in ("png", "svg")}
    check(files == want, "files: %s" % sorted(files ^ want))
    for name in want:
        if name.endswith(".png"):
            with open(os.path.join(out, name), "rb") as f:
                check(f.read(8) == b"\x89PNG\r\n\x1a\n", name + " is not a PNG")
    with open(os.path.join(out, "schbench.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == 4 and all(float(r["value"]) > 0 for r in rows), "schbench.csv: %r" % rows)
    check("[Policy] ule" in text and "Rate(Median)" in text, "the tables were not printed:\n" + text[-3000:])
    with open(os.path.join(out, "bench.log"), encoding="latin-1") as f:
        check("bench: threads alive before" in f.read(), "bench.log is not the serial log")


def test_make_bench_refusals(ctx):
    out = os.path.join(ctx.build, "test-bench-make-bad")
    rc, text = make_bench(ctx, "cpu; poweroff", out)
    check(rc != 0 and "BENCH must not hold ';'" in text, "a ';' was not refused:\n" + text[-2000:])
    rc, text = make_bench(ctx, "nosuch --runs 1", out)
    check(rc != 0 and "no workload 'nosuch'" in text and "the kernel did not run the plan" in text,
          "a refused plan did not fail make bench:\n" + text[-2000:])


def test_make_bench_without_bench_runs_the_quick_plan(ctx):
    """No BENCH: bench-run.sh says it runs the quick plan and asks the kernel
    for it (checked without booting: the image given does not exist, so
    QEMU's start fails after the plan is chosen)."""
    env = dict(os.environ, MOSAIC_BENCH="")
    out = os.path.join(ctx.build, "test-bench-quick")
    p = subprocess.run([os.path.join(ROOT, "tools", "bench-run.sh"), "--out", out, "--esp",
                        os.path.join(out, "no-such.img")], env=env, capture_output=True, text=True, timeout=60)
    text = p.stdout + p.stderr
    check("no BENCH given: the quick plan 'bench sweep cpu --threads 4,6,8 --runs 4 --time 3 --policy ule,hmp'"
          in text and "about 2 minutes" in text, text)
    check("bench-run: bench sweep cpu --threads 4,6,8 --runs 4" in text and p.returncode == 125, text)
