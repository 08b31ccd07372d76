# SPDX-License-Identifier: BSD-2-Clause
"""The repository checks, tools/check-*.sh (named repo/standalone and
repo/standalone-selftest in the summary): a script exits 0 (pass), 1 (fail,
its output names the files) or 77 (it could not run here: skipped)."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_check(script):
    try:
        p = subprocess.run([os.path.join(ROOT, "tools", script)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("tools/%s timed out after 120 s" % script)
    out = (p.stdout + p.stderr).strip()   # short: a script names the files it found
    if p.returncode == 77:
        pytest.skip(out.splitlines()[-1] if out else "not run")
    assert p.returncode == 0, "tools/%s: exit status %d:\n%s" % (script, p.returncode, out)


def test_standalone():
    run_check("check-standalone.sh")


def test_standalone_selftest():
    run_check("check-standalone-selftest.sh")
