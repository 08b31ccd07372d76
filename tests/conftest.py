# SPDX-License-Identifier: BSD-2-Clause
"""The whole test suite is one pytest collection (`pytest tests/` from the
repository root after `make build-test`; `make test` is the same command
with -n TEST_JOBS): the repository checks (tests/test_repo.py), every
cmocka test of each host unit test binary (tests/unit/test_*.c, collected
here), each fuzz harness seeded and its libFuzzer build over the committed
corpus (tests/fuzz/fuzz_*.c, collected here), the host Python tests
(tests/host/) and the QEMU tests (tests/integration/).

Each test also has the name the summary printed before pytest, used by
--name-contains (make test T=): repo/standalone, unit/test_heap/test_x,
fuzz/fuzz_cmdline, libfuzz/fuzz_cmdline, host/test_deps/test_x,
qemu/test_readme/test_x. The run ends with one line, 'N passed, N failed'
(', N skipped' when a check could not run)."""
import fcntl
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT_TAIL = 3000     # characters of a failed binary's output in its failure


def pytest_addoption(parser):
    group = parser.getgroup("mosaic")
    group.addoption("--build", default=os.path.join(ROOT, "build"),
                    help="the build directory (make build-test made it): binaries, images, logs")
    group.addoption("--name-contains", default="", metavar="TEXT",
                    help="run only the tests whose node id or Mosaic name contains TEXT (make test T=TEXT)")
    group.addoption("--fuzz-iter", type=int, default=20000,
                    help="iterations of each seeded fuzz harness")


@pytest.fixture(scope="session")
def build(pytestconfig):
    """The build directory, absolute."""
    return os.path.abspath(pytestconfig.getoption("build"))


def mosaic_name(nodeid):
    """The summary's name of the test with this pytest node id (see the
    module comment); the node id itself when it is none of those."""
    path, _, test = nodeid.partition("::")
    stem = os.path.splitext(os.path.basename(path))[0]
    kind = os.path.basename(os.path.dirname(path))
    if path == "tests/test_repo.py":
        return "repo/" + test[len("test_"):].replace("_", "-")
    if kind in ("host", "unit"):
        return "%s/%s/%s" % (kind, stem, test)
    if kind == "integration":
        return "qemu/%s/%s" % (stem, test)
    if kind == "fuzz":
        return "%s/%s" % ({"seeded": "fuzz", "libfuzzer": "libfuzz"}[test], stem)
    return nodeid


def pytest_collect_file(file_path, parent):
    rel = os.path.relpath(str(file_path), ROOT)
    if re.fullmatch(r"tests/unit/test_\w+\.c", rel):
        return UnitBinary.from_parent(parent, path=file_path)
    if re.fullmatch(r"tests/fuzz/fuzz_\w+\.c", rel):
        return FuzzHarness.from_parent(parent, path=file_path)
    return None


class BinaryFailure(Exception):
    """A binary's failure: the message carries the end of its output."""


class BinaryItem(pytest.Item):
    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, BinaryFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, mosaic_name(self.nodeid)

    def binary(self, subdir):
        """build/SUBDIR/<the source's name>; fails when it was not built."""
        path = os.path.join(self.config.getoption("build"), subdir, self.path.stem)
        if not os.access(path, os.X_OK):
            raise BinaryFailure("%s is not built: run make build-test first" % path)
        return os.path.abspath(path)


def run_binary(argv, timeout, env=None):
    """Runs argv from the repository root; (exit status, output), status
    None when it timed out."""
    try:
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        return None, out.decode("latin-1") if isinstance(out, bytes) else out
    return p.returncode, p.stdout + p.stderr


def tail(out):
    """The end of out, whole lines, for a failure message."""
    if len(out) <= OUTPUT_TAIL:
        return out
    return "...\n" + out[-OUTPUT_TAIL:].split("\n", 1)[-1]


class UnitBinary(pytest.File):
    """A host unit test, tests/unit/test_NAME.c: an item per cmocka test
    its source lists (cmocka_unit_test*(name)); the binary
    build/unit/test_NAME runs once, when its first test is run."""

    def names(self):
        """The cmocka tests the source lists, in its order."""
        return list(dict.fromkeys(re.findall(r"cmocka_unit_test\w*\(\s*(\w+)", self.path.read_text())))

    def collect(self):
        for name in self.names():
            yield UnitTest.from_parent(self, name=name)

    def outcome(self, item):
        """The binary's run: (names that passed, names that failed, its
        output, why every test fails or None), run once."""
        if not hasattr(self, "_outcome"):
            self._outcome = self._run(item)
        return self._outcome

    def _run(self, item):
        try:
            binary = item.binary("unit")
        except BinaryFailure as e:
            return set(), set(), "", str(e)
        status, out = run_binary([binary], 300, dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout"))
        passed = set(re.findall(r"^\[\s+OK\s+\] (\S+)$", out, re.M))
        failed = set(re.findall(r"^\[\s+FAILED\s+\] (\S+)$", out, re.M))
        collected = set(self.names())
        if status is None:
            return passed, failed, out, "timed out after 300 s"
        if status != 0 and not re.search(r"^\[\s+FAILED\s+\] \d+ test", out, re.M):
            return passed, failed, out, "exit status %d without a cmocka summary" % status
        if (passed | failed) - collected:
            return passed, failed, out, ("%s ran tests its source does not list as cmocka_unit_test*(): %s"
                                         % (binary, " ".join(sorted((passed | failed) - collected))))
        return passed, failed, out, None


class UnitTest(BinaryItem):
    def runtest(self):
        passed, failed, out, broken = self.parent.outcome(self)
        if broken:
            raise BinaryFailure("%s:\n%s" % (broken, tail(out)))
        if self.name in failed:
            raise BinaryFailure("cmocka test %s failed:\n%s" % (self.name, tail(out)))
        if self.name not in passed:
            raise BinaryFailure("build/unit/%s did not run %s:\n%s" % (self.path.stem, self.name, tail(out)))


class FuzzHarness(pytest.File):
    """A fuzz harness, tests/fuzz/fuzz_NAME.c (tests/fuzz/fuzz.h): 'seeded'
    runs build/fuzz/fuzz_NAME from seed 1 for --fuzz-iter iterations,
    'libfuzzer' runs build/libfuzz/fuzz_NAME once on each input of the
    committed corpus tests/fuzz/corpus/NAME/; each passes when it exits 0."""

    def collect(self):
        yield FuzzRun.from_parent(self, name="seeded")
        yield FuzzRun.from_parent(self, name="libfuzzer")


class FuzzRun(BinaryItem):
    def runtest(self):
        if self.name == "seeded":
            argv = [self.binary("fuzz"), "--seed", "1", "--iterations", str(self.config.getoption("fuzz_iter"))]
        else:
            corpus = os.path.join(ROOT, "tests", "fuzz", "corpus", self.path.stem[len("fuzz_"):])
            inputs = sorted(os.listdir(corpus)) if os.path.isdir(corpus) else []
            if not inputs:
                raise BinaryFailure("no corpus in %s" % os.path.relpath(corpus, ROOT))
            argv = [self.binary("libfuzz"), "-timeout=60"] + [os.path.join(corpus, f) for f in inputs]
        status, out = run_binary(argv, 600)
        if status is None:
            raise BinaryFailure("timed out after 600 s:\n%s" % tail(out))
        if status != 0:
            raise BinaryFailure("exit status %d:\n%s" % (status, tail(out)))


def pytest_configure(config):
    config.addinivalue_line("markers", "exclusive: a QEMU module that runs with no other QEMU beside it "
                            "(it asserts where threads ran within guest-time windows)")


def expected_seconds(item):
    """A QEMU module's EXPECTED_S (its run time on an idle 2-core host), 30
    when it says none."""
    return getattr(item.module, "EXPECTED_S", 30)


def pytest_collection_modifyitems(session, config, items):
    """Keeps the tests --name-contains selects; orders the QEMU modules the
    longest first, then everything else, then the exclusive QEMU modules
    (a module's tests stay together and in file order): with -n and
    --dist loadscope, the last to end are short ones, and an exclusive
    module waits for no more than the QEMU modules already running
    (tests/integration/conftest.py)."""
    text = config.getoption("name_contains")
    if text:
        keep = [i for i in items if text in i.nodeid or text in mosaic_name(i.nodeid)]
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep
    qemu = [i for i in items if mosaic_name(i.nodeid).startswith("qemu/")]
    alone = [i for i in qemu if i.get_closest_marker("exclusive")]
    shared = sorted((i for i in qemu if i not in alone), key=lambda i: -expected_seconds(i))
    items[:] = shared + [i for i in items if i not in qemu] + alone


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Every test outside the QEMU modules holds build/test-qemu.lock shared
    while it runs (a QEMU module holds it for the whole module,
    tests/integration/conftest.py), so that nothing at all runs beside an
    exclusive module: a unit test binary or a fuzz harness on the other
    worker starves its vCPUs as another QEMU would."""
    if mosaic_name(item.nodeid).startswith("qemu/"):
        yield
        return
    build = os.path.abspath(item.config.getoption("build"))
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, "test-qemu.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        yield


def pytest_unconfigure(config):
    """The closing lines, after pytest's own: the names of the failed tests,
    then 'N passed, N failed' (', N skipped')."""
    if hasattr(config, "workerinput") or config.getoption("collectonly"):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    stats = reporter.stats
    failed = [r.nodeid for key in ("failed", "error") for r in stats.get(key, [])]
    failed = list(dict.fromkeys(failed))
    passed = len([r for r in stats.get("passed", []) if r.when == "call" and r.nodeid not in failed])
    skipped = len(stats.get("skipped", []))
    if failed:
        print("failed: " + ", ".join(mosaic_name(n) for n in failed))
    print("%d passed, %d failed%s" % (passed, len(failed), ", %d skipped" % skipped if skipped else ""))
