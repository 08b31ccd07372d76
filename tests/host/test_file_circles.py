#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The largest circle of kernel files (tools/file-circles.py: files that
all reach each other through what they call or read) stays at most
MAX_CIRCLE files: the scheduler's core loop and the process layer, not
the base services every file uses. The self-test plants one upward call
from printk into the thread layer and checks that the circle it closes
(the base services joining the core loop) is caught."""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hosttest  # noqa: E402

MAX_CIRCLE = 35
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("file_circles", os.path.join(ROOT, "tools", "file-circles.py"))
fc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fc)


def kernel_files(ctx):
    return fc.symbols(fc.kernel_objects(ctx.build))


def test_the_largest_circle_is_small(ctx):
    found = fc.circles(fc.graph(kernel_files(ctx)))
    assert found and len(found[0]) <= MAX_CIRCLE, "%d files:\n  %s" % (len(found[0]), "\n  ".join(found[0]))


def test_the_circles_are_found(ctx):
    files = {"a": ({"fa"}, {"fb"}), "b": ({"fb"}, {"fc"}), "c": ({"fc"}, {"fa", "fd"}), "d": ({"fd"}, set()),
             "e": ({"fe"}, {"fa", "ff"}), "f": ({"ff"}, {"fe"})}
    assert fc.circles(fc.graph(files)) == [["a", "b", "c"], ["e", "f"]]


def test_an_upward_call_from_a_base_service_is_caught(ctx):
    files = kernel_files(ctx)
    before = len(fc.circles(fc.graph(files))[0])
    defined, undefined = files["kernel/kern/printk.c"]
    files["kernel/kern/printk.c"] = (defined, undefined | {"thread_current"})
    found = fc.circles(fc.graph(files))
    assert len(found[0]) > MAX_CIRCLE >= before, (before, len(found[0]))
    assert "kernel/kern/printk.c" in found[0] and "kernel/mm/heap.c" in found[0]


hosttest.main(globals())
