# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests (tests/integration/test_*.py): each test_<what>(ctx) boots
machines with ctx.machine(...) (qemu.Machine), killed when the test ends;
each machine's serial log is build/test-logs/<module>.<test>-<n>.log.
A module with setup(ctx) -> Machine shares one booted machine among its
tests test_<what>(ctx, m): the fixture m boots it once per module, for
whatever is selected of it (log <module>.shared-0.log).

A module marked exclusive (pytestmark = pytest.mark.exclusive) runs with
no other QEMU module beside it: it asserts where threads ran within
guest-time windows, and another QEMU on the same host cores starves its
vCPUs for long stretches of guest time. Under pytest-xdist each module
holds a lock on build/test-qemu.lock while it runs, shared or, for an
exclusive one, exclusive. EXPECTED_S = N in a module (its run time on an
idle 2-core host) orders the modules, the longest first (tests/conftest.py)."""
import fcntl
import os

import pytest

import qemu


class Context:
    """What a QEMU test gets: machines that are always cleaned up."""

    def __init__(self, build, name):
        self.build = build
        self.log_dir = os.path.join(build, "test-logs")
        os.makedirs(self.log_dir, exist_ok=True)
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


@pytest.fixture(scope="module", autouse=True)
def qemu_turn(request, build):
    """Holds build/test-qemu.lock while the module runs: exclusively for an
    exclusive module, shared for the others."""
    exclusive = request.node.get_closest_marker("exclusive") is not None
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, "test-qemu.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield


@pytest.fixture
def ctx(request, build):
    c = Context(build, "%s.%s" % (request.path.stem, request.node.name))
    yield c
    c.close()


@pytest.fixture(scope="module")
def m(request, build):
    """The module's shared machine, booted by its setup(ctx)."""
    c = Context(build, request.path.stem + ".shared")
    try:
        yield request.module.setup(c)
    finally:
        c.close()
