#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Mosaic test runner: repository checks (tools/check-*.sh), host unit
tests (cmocka binaries), fuzz harnesses (seeded runs, then the libFuzzer
builds replaying their corpora), host Python tests
(tests/host/test_*.py), then QEMU integration tests
(tests/integration/test_*.py). Prints one line per test and closes with
'N passed, N failed' (plus ', N skipped' when a check could not run).
Exit status 1 if anything failed.

  -k PATTERN   run only tests whose name contains PATTERN
  -j N         QEMU test modules at once (default 2), each in a child
               runner (--module FILE); results print in module order;
               modules with EXCLUSIVE = True run after, one at a time; the
               others start longest first (EXPECTED_S = N in a module)
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
import qemu  # noqa: E402


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = []
        self.skipped = 0

    def ok(self, name, seconds=None):
        self.passed += 1
        print("ok   %s%s" % (name, "" if seconds is None else " (%.1fs)" % seconds), flush=True)

    def fail(self, name, why):
        self.failed.append(name)
        print("FAIL %s\n%s" % (name, "\n".join("     " + l for l in why.rstrip().splitlines())),
              flush=True)

    def skip(self, name, why):
        self.skipped += 1
        print("skip %s: %s" % (name, why), flush=True)


# Repository checks: name -> script under tools/. A script exits 0 (pass),
# 1 (fail, its output names the files) or 77 (could not run: skipped).
REPO_CHECKS = [("repo/standalone", "check-standalone.sh"),
               ("repo/standalone-selftest", "check-standalone-selftest.sh")]


def run_repo_checks(results, pattern):
    for name, script in REPO_CHECKS:
        if pattern and pattern not in name:
            continue
        try:
            p = subprocess.run([os.path.join(ROOT, "tools", script)], cwd=ROOT,
                               capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            results.fail(name, "timed out after 120 s")
            continue
        out = (p.stdout + p.stderr).strip()
        if len(out) > 3000:   # keep whole lines; the summary is at the end
            out = "...\n" + out[-3000:].split("\n", 1)[-1]
        if p.returncode == 0:
            results.ok(name)
        elif p.returncode == 77:
            results.skip(name, out.splitlines()[-1] if out else "not run")
        else:
            results.fail(name, "tools/%s: exit status %d:\n%s" % (script, p.returncode, out))


def run_unit(binary, results, pattern):
    name = os.path.basename(binary)
    if pattern and pattern not in name:
        return
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout")
    try:
        p = subprocess.run([binary], capture_output=True, text=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        results.fail(name, "timed out after 300 s")
        return
    out = p.stdout + p.stderr
    failed = []   # cmocka names a failed test twice: when it fails and in the summary
    for line in out.splitlines():
        m = re.match(r"\[\s+OK\s+\] (\S+)", line)
        if m:
            results.ok("unit/%s/%s" % (name, m.group(1)))
        m = re.match(r"\[\s+FAILED\s+\] (\S+)$", line)
        if m and m.group(1) not in failed:
            failed.append(m.group(1))
            results.fail("unit/%s/%s" % (name, m.group(1)), out[-3000:])
    if p.returncode != 0 and not re.search(r"\[\s+FAILED\s+\] \d+ test", out):
        results.fail("unit/%s" % name, "exit status %d without a cmocka summary:\n%s"
                     % (p.returncode, out[-3000:]))


def run_fuzz(binary, iterations, results, pattern):
    """A fuzz harness (tests/fuzz/fuzz.h) for a fixed number of iterations
    from seed 1: passes when it exits 0."""
    name = "fuzz/" + os.path.basename(binary)
    if pattern and pattern not in name:
        return
    run_harness(name, [binary, "--seed", "1", "--iterations", str(iterations)], results)


def run_harness(name, argv, results):
    """Runs one fuzz harness command from the repository root (at most
    600 s): ok when it exits 0, else FAIL with the end of its output."""
    start = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        results.fail(name, "timed out after 600 s")
        return
    if p.returncode == 0:
        results.ok(name, time.monotonic() - start)
    else:
        results.fail(name, "exit status %d:\n%s" % (p.returncode, (p.stdout + p.stderr)[-3000:]))


def run_libfuzz(binary, results, pattern):
    """A libFuzzer harness (tests/fuzz/fuzz.h built with FUZZ_LIBFUZZER) on
    each input of its committed corpus tests/fuzz/corpus/NAME/ once: passes
    when it exits 0, so a crash or failed check on any input fails it."""
    name = "libfuzz/" + os.path.basename(binary)
    if pattern and pattern not in name:
        return
    corpus = os.path.join(ROOT, "tests", "fuzz", "corpus", os.path.basename(binary)[len("fuzz_"):])
    inputs = sorted(os.path.join(corpus, f) for f in os.listdir(corpus)) if os.path.isdir(corpus) else []
    if not inputs:
        results.fail(name, "no corpus in %s" % os.path.relpath(corpus, ROOT))
        return
    run_harness(name, [os.path.abspath(binary), "-timeout=60"] + inputs, results)


def add_printed(results, out, prefix):
    """Adds to results what a child printed: 'ok NAME [(Ns)]' lines, and
    'FAIL NAME' lines with their reasons indented by five spaces, for
    names starting with prefix; returns how many it found."""
    lines = out.splitlines()
    seen = 0
    for i, line in enumerate(lines):
        m = re.match(r"(ok|FAIL) +(%s\S+)(?: \(([\d.]+)s\))?$" % re.escape(prefix), line)
        if not m:
            continue
        seen += 1
        if m.group(1) == "ok":
            results.ok(m.group(2), float(m.group(3)) if m.group(3) else None)
        else:
            why = []
            for l in lines[i + 1:]:
                if not l.startswith("     "):
                    break
                why.append(l[5:])
            results.fail(m.group(2), "\n".join(why))
    return seen


def host_python():
    """The interpreter of host Python tests: Debian's, which has the packages
    tools/deps.sh installs (python3-scipy, python3-matplotlib) when another
    python3 (pyenv, a venv) comes first on PATH; MOSAIC_HOST_PYTHON overrides."""
    if os.environ.get("MOSAIC_HOST_PYTHON"):
        return os.environ["MOSAIC_HOST_PYTHON"]
    return "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def run_host(build, results, pattern):
    """Each tests/host/test_*.py in its own interpreter (tests/host/hosttest.py):
    one line 'ok NAME' or 'FAIL NAME' (then its indented traceback) per test."""
    hdir = os.path.join(ROOT, "tests", "host")
    for fname in sorted(os.listdir(hdir)):
        if not (fname.startswith("test_") and fname.endswith(".py")):
            continue
        path = os.path.join(hdir, fname)
        with open(path) as f:
            names = ["host/%s/%s" % (fname[:-3], n) for n in re.findall(r"^def (test_\w+)", f.read(), re.M)]
        if pattern and not any(pattern in n for n in names):
            continue
        try:
            p = subprocess.run([host_python(), path, "--build", build] + (["-k", pattern] if pattern else []),
                               capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            results.fail("host/" + fname[:-3], "timed out after 600 s")
            continue
        seen = add_printed(results, p.stdout, "host/")
        if p.returncode != 0 and (seen == 0 or "FAIL " not in p.stdout):
            results.fail("host/" + fname[:-3], "exit status %d:\n%s" % (p.returncode, (p.stdout + p.stderr)[-3000:]))


class Context:
    """What an integration test gets: machines that are always cleaned up."""

    def __init__(self, build, log_dir, name):
        self.build = build
        self.log_dir = log_dir
        self.name = name
        self.machines = []

    def machine(self, **kw):
        kw.setdefault("esp", os.path.join(self.build, "esp.img"))
        m = qemu.Machine("%s-%d" % (self.name, len(self.machines)), self.log_dir, **kw)
        self.machines.append(m)
        return m

    def close(self):
        for m in self.machines:
            m.close()


def integration_modules():
    """The QEMU test modules, tests/integration/test_*.py, by name."""
    idir = os.path.join(ROOT, "tests", "integration")
    return sorted(f for f in os.listdir(idir) if f.startswith("test_") and f.endswith(".py"))


def run_module(build, fname, results, pattern):
    """The tests of one QEMU test module in file order, in this process."""
    log_dir = os.path.join(build, "test-logs")
    os.makedirs(log_dir, exist_ok=True)
    spec = importlib.util.spec_from_file_location(fname[:-3], os.path.join(ROOT, "tests", "integration", fname))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tests = [(n, f) for n, f in vars(mod).items() if n.startswith("test_") and callable(f)]
    tests.sort(key=lambda t: t[1].__code__.co_firstlineno)
    shared = None   # a module may share one booted machine: setup(ctx) -> Machine
    for tname, func in tests:
        name = "qemu/%s/%s" % (fname[:-3], tname)
        if pattern and pattern not in name:
            continue
        ctx = Context(build, log_dir, "%s.%s" % (fname[:-3], tname))
        start = time.monotonic()
        try:
            if func.__code__.co_argcount == 2:
                if shared is None:
                    shared_ctx = Context(build, log_dir, fname[:-3] + ".shared")
                    shared = (shared_ctx, mod.setup(shared_ctx))
                func(ctx, shared[1])
            else:
                func(ctx)
            results.ok(name, time.monotonic() - start)
        except qemu.TestFailure as e:
            results.fail(name, str(e))
        except Exception:
            results.fail(name, traceback.format_exc())
        finally:
            ctx.close()
    if shared:
        shared[0].close()


def run_module_child(build, fname, pattern):
    """One module in a child runner (--module); returns its printed lines,
    'ok NAME (Ns)' and 'FAIL NAME' with indented reasons, and its status."""
    cmd = [sys.executable, os.path.abspath(__file__), "--build", build, "--module", fname]
    p = subprocess.run(cmd + (["-k", pattern] if pattern else []), capture_output=True, text=True)
    return p.stdout, p.returncode, p.stderr


def collect(results, name, out, status, err):
    """Adds a child runner's printed results to results; a child that died
    without saying why fails under name."""
    add_printed(results, out, "qemu/")
    if status not in (0, 1) or (status == 1 and "FAIL " not in out):
        results.fail(name, "runner exit status %d:\n%s" % (status, (out + err)[-3000:]))


def exclusive(fname):
    """1 if the module says EXCLUSIVE = True: it asserts where threads ran
    within guest-time windows, and another QEMU beside it (20 vCPUs on the
    same host cores) starves its vCPUs for long stretches of guest time."""
    with open(os.path.join(ROOT, "tests", "integration", fname)) as f:
        return re.search(r"^EXCLUSIVE = True$", f.read(), re.M) is not None


def expected_seconds(fname):
    """The module's EXPECTED_S = N (its run time on an idle 2-core host, a
    hint for the order), 30 when it says none."""
    with open(os.path.join(ROOT, "tests", "integration", fname)) as f:
        m = re.search(r"^EXPECTED_S = (\d+)$", f.read(), re.M)
    return int(m.group(1)) if m else 30


def run_integration(build, results, pattern, jobs):
    """Every QEMU test module, each in its own runner process: up to jobs
    modules at once, then the EXCLUSIVE ones one by one; a module's results
    print when it ends. A module's tests run in order in one process (they
    may share a booted machine); each QEMU boots from a private copy of the
    image (tools/qemu-run.sh)."""
    from concurrent.futures import ThreadPoolExecutor
    modules = integration_modules()
    alone = [f for f in modules if exclusive(f)]
    # The longest first, so the last to end are short ones (a shorter
    # whole); results still print in module order.
    shared = sorted((f for f in modules if f not in alone), key=lambda f: -expected_seconds(f))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {f: pool.submit(run_module_child, build, f, pattern) for f in shared}
        runs = [(f, futures[f]) for f in modules if f in futures]
        for fname, fut in runs:
            collect(results, "qemu/" + fname[:-3], *fut.result())
    for fname in alone:
        collect(results, "qemu/" + fname[:-3], *run_module_child(build, fname, pattern))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--unit", default="")
    ap.add_argument("--fuzz", default="")
    ap.add_argument("--fuzz-iter", type=int, default=20000)
    ap.add_argument("--libfuzz", default="", help="libFuzzer harnesses: replay their corpora")
    ap.add_argument("-k", dest="pattern", default="")
    ap.add_argument("-j", dest="jobs", type=int, default=2, help="QEMU test modules at once")
    ap.add_argument("--module", help="run one QEMU test module only (the child runner)")
    args = ap.parse_args()
    results = Results()
    if args.module:
        run_module(os.path.abspath(args.build), args.module, results, args.pattern)
        return 1 if results.failed else 0
    print("== repository checks", flush=True)
    run_repo_checks(results, args.pattern)
    print("== host unit tests", flush=True)
    for b in args.unit.split():
        run_unit(b, results, args.pattern)
    print("== fuzz harnesses", flush=True)
    for b in args.fuzz.split():
        run_fuzz(b, args.fuzz_iter, results, args.pattern)
    for b in args.libfuzz.split():
        run_libfuzz(b, results, args.pattern)
    print("== host Python tests", flush=True)
    run_host(os.path.abspath(args.build), results, args.pattern)
    print("== QEMU integration tests", flush=True)
    run_integration(os.path.abspath(args.build), results, args.pattern, args.jobs)
    if results.failed:
        print("failed: " + ", ".join(results.failed))
    print("%d passed, %d failed%s" % (results.passed, len(results.failed),
                                      ", %d skipped" % results.skipped if results.skipped else ""))
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
