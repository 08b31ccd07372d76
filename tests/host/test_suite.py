# SPDX-License-Identifier: BSD-2-Clause
"""The test suite itself (tests/conftest.py): `make test` is `pytest tests/`
with options that change neither which tests run nor how they judge, so
both run the same tests with the same result; every binary the Makefile
builds for the tests is collected; the run ends with the summary line,
under pytest-xdist too."""
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Options of make test's pytest line that only say how to run or report:
# the build directory, the xdist workers and their distribution, the
# verbosity, the traceback style, the report of failures, the JUnit XML.
HOW_ONLY = {"--build": 1, "-n": 1, "--dist": 1, "-v": 0, "--tb": 1, "-rfEs": 0, "--junitxml": 1}


def make_test_argv(ctx, *make_args):
    """The pytest command make test runs (make -n, the build step a no-op)."""
    p = subprocess.run(["make", "--no-print-directory", "-n", "test", "MAKE=true"] + list(make_args),
                       cwd=ctx.root, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.replace("\\\n", " ").splitlines() if " -m pytest " in l]
    assert len(lines) == 1, p.stdout
    return shlex.split(lines[0])


def collect(ctx, args):
    """The node ids pytest collects with args (from the repository root)."""
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"] + args,
                       cwd=ctx.root, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return [l for l in p.stdout.splitlines() if "::" in l]


def test_make_test_is_pytest_tests(ctx):
    argv = make_test_argv(ctx)
    assert argv[1:4] == ["-m", "pytest", "tests/"], argv
    i, rest = 4, []
    while i < len(argv):
        opt = argv[i].split("=", 1)[0]
        assert opt in HOW_ONLY, "make test gives pytest %r, which `pytest tests/` lacks" % argv[i]
        i += 1 + (HOW_ONLY[opt] if "=" not in argv[i] else 0)
        rest.append(opt)
    assert "-n" in rest and "--junitxml" in rest, argv
    # both collect the same tests, in the same order
    plain = collect(ctx, ["tests/"])
    assert plain == collect(ctx, ["tests/", "--build", ctx.build])
    assert len(plain) > 700, len(plain)
    # T= keeps the tests whose summary name contains it
    sel = make_test_argv(ctx, "T=qemu/test_readme/")
    assert sel[-2:] == ["--name-contains", "qemu/test_readme/"], sel
    picked = collect(ctx, ["tests/"] + sel[-2:])
    assert picked and all(n.startswith("tests/integration/test_readme.py::") for n in picked), picked
    assert len(picked) == len([n for n in plain if n.startswith("tests/integration/test_readme.py::")])


def test_every_test_binary_is_collected(ctx):
    """Each unit test and fuzz binary the Makefile builds has its tests in
    the collection; a cmocka source without a cmocka_unit_test*() would
    have none and its binary would never run."""
    p = subprocess.run(["make", "--no-print-directory", "-s", "--eval",
                        "print-test-bins: ; @echo $(UNIT_BINS) ; echo $(FUZZ_BINS); echo $(LIBFUZZ_BINS)",
                        "print-test-bins", "BUILD=build"], cwd=ctx.root, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    unit, fuzz, libfuzz = [l.split() for l in p.stdout.splitlines()]
    ids = collect(ctx, ["tests/"])
    files = {}
    for n in ids:
        path, _, test = n.partition("::")
        files.setdefault(path, []).append(test)
    for b in unit:
        assert files.get("tests/unit/%s.c" % os.path.basename(b)), "%s: no cmocka test collected" % b
    assert len(unit) == len([f for f in files if f.startswith("tests/unit/")]), (unit, sorted(files))
    for b in fuzz:
        assert files.get("tests/fuzz/%s.c" % os.path.basename(b)) == ["seeded", "libfuzzer"], b
    assert [os.path.basename(b) for b in fuzz] == [os.path.basename(b) for b in libfuzz]
    assert len(fuzz) == len([f for f in files if f.startswith("tests/fuzz/")])


def sample_suite(ctx):
    """A scratch repository with tests/conftest.py and one host test file
    that passes once, fails once and skips once."""
    tests = os.path.join(ctx.tmp, "repo", "tests")
    os.makedirs(os.path.join(tests, "host"))
    shutil.copy(os.path.join(ctx.root, "tests", "conftest.py"), tests)
    shutil.copy(os.path.join(ctx.root, "pytest.ini"), os.path.dirname(tests))
    with open(os.path.join(tests, "host", "test_sample.py"), "w") as f:
        f.write("import pytest\n\n\ndef test_good():\n    pass\n\n\n"
                "def test_bad():\n    assert 1 == 2, 'one is not two'\n\n\n"
                "def test_cannot():\n    pytest.skip('not here')\n")
    return os.path.dirname(tests)


def test_summary_line_closes_the_run(ctx):
    repo = sample_suite(ctx)
    for extra in ([], ["-n", "2"]):
        p = subprocess.run([sys.executable, "-m", "pytest", "tests/", "--build", ctx.tmp] + extra,
                           cwd=repo, capture_output=True, text=True, timeout=300)
        lines = p.stdout.rstrip().splitlines()
        assert p.returncode == 1, p.stdout
        assert lines[-1] == "1 passed, 1 failed, 1 skipped", (extra, p.stdout)
        assert lines[-2] == "failed: host/test_sample/test_bad", (extra, p.stdout)
        assert "one is not two" in p.stdout, p.stdout
    p = subprocess.run([sys.executable, "-m", "pytest", "tests/", "--build", ctx.tmp, "--name-contains", "good"],
                       cwd=repo, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.rstrip().splitlines()[-1] == "1 passed, 0 failed", p.stdout
    assert re.search(r"\b2 deselected\b", p.stdout), p.stdout
