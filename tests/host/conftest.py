# SPDX-License-Identifier: BSD-2-Clause
"""Host Python tests (tests/host/test_*.py): each test_<what>(ctx) gets
ctx.root (the repository), ctx.build (the build directory: host helpers
such as build/host/bench_stats_cli) and ctx.tmp, a fresh scratch directory
build/test-host/<file>.<test>/ that stays after the run for a look."""
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Context:
    def __init__(self, build, name):
        self.root = ROOT
        self.build = build
        self.tmp = os.path.join(build, "test-host", name)
        shutil.rmtree(self.tmp, ignore_errors=True)
        os.makedirs(self.tmp)


@pytest.fixture
def ctx(request, build):
    return Context(build, "%s.%s" % (request.path.stem, request.node.name))
