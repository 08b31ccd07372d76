# SPDX-License-Identifier: BSD-2-Clause
"""The largest circle of kernel files (tools/file-circles.py: files that
all reach each other through what they call or read) stays at most
MAX_CIRCLE files: the scheduler's core loop and the process layer, not
the base services every file uses. The self-test plants one upward call
from printk into the thread layer and checks that the circle it closes
(the base services joining the core loop) is caught.

The same objects show every call from a base service (kernel/arch/,
kern/, lib/, mm/) into a layer above it, whatever headers the caller
included: each must be one arch_hooks.h declares (arch's one door
upward) or the emulated platform's side of the MSR/CPUID door
(door.h's emul_door_*). Its self-test plants an undeclared upward call."""
import importlib.util
import os
import re


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


BASE = {"arch", "kern", "lib", "mm"}
DOORS = ["kernel/arch/x86_64/arch_hooks.h", "kernel/arch/x86_64/cpu/door.h"]
DECLARED = re.compile(r"^[a-z][\w \t*]*?\b(\w+)\(", re.M)


def layer(path):
    """kernel/LAYER/... -> LAYER; kernel/main.c -> 'main'."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 else "main"


def door_functions():
    """The functions arch_hooks.h declares, and door.h's emul_door_*."""
    names = set()
    for path in DOORS:
        with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
            found = set(DECLARED.findall(fh.read()))
        names |= found if path.endswith("arch_hooks.h") else {n for n in found if n.startswith("emul_door_")}
    return names


def upward_calls(files, allowed):
    """'FILE uses SYMBOL of OTHER' for every symbol a base service's object
    uses from a file above base that is not in allowed."""
    g = fc.graph(files)
    return ["%s uses %s of %s" % (f, sym, other) for f in sorted(g) if layer(f) in BASE
            for other, syms in sorted(g[f].items()) if layer(other) not in BASE
            for sym in sorted(syms) if sym not in allowed]


def test_base_services_call_up_only_through_the_doors(ctx):
    allowed = door_functions()
    assert {"thread_tick", "console_input_push", "emul_door_rdmsr"} <= allowed, sorted(allowed)
    bad = upward_calls(kernel_files(ctx), allowed)
    assert not bad, "calls from a base service up, not declared in arch_hooks.h:\n  " + "\n  ".join(bad)


def test_an_undeclared_upward_call_is_named(ctx):
    files = kernel_files(ctx)
    defined, undefined = files["kernel/mm/heap.c"]
    files["kernel/mm/heap.c"] = (defined, undefined | {"thread_current"})
    bad = upward_calls(files, door_functions())
    assert bad == ["kernel/mm/heap.c uses thread_current of kernel/thread/thread_switch.c"], bad
