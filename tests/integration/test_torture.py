# SPDX-License-Identifier: BSD-2-Clause
"""The torture stressor (docs/torture.md) under QEMU: 60 s on the
i7-1370P model and 20 s on the Core Ultra 7 155H model, every stressor at
once on every CPU, with kern.sched.debug and witness on; the report must
show every kind of operation done, zero violations and everything given
back (threads joined, processes reaped, heap and pages as before), and the
shell must answer afterwards with the switches back as they were. Bad
options are refused with a message and run nothing."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 150

I7 = os.path.join(ROOT, "machines", "i7-1370p.machine")
MTL = os.path.join(ROOT, "machines", "core-ultra-7-155h.machine")
OPS = ("create", "join", "sleep", "wake", "yield", "nice", "pin", "unpin", "spawn", "reap", "knob", "hfi",
       "bench", "check")


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def summary(text):
    """What a failure message needs first: torture's own lines and, from the
    first violation on, its report and the rings of recent operations (user
    programs' fault messages, expected by the hundred, are left out)."""
    lines = text.split("\n")
    first = next((i for i, l in enumerate(lines) if "VIOLATION" in l), len(lines))
    head = [l for l in lines[:first] if l.startswith("torture:")]
    tail = [l for l in lines[first:] if not l.startswith(("user: pid", "sysfuzz:"))]
    return "\n".join(head + tail[:120])


def torture(ctx, machine, seconds, seed):
    """Boots machine, runs one pass and checks its report."""
    m = ctx.machine(machine_file=machine)
    m.wait_prompt()
    before = m.command("sysctl kern.sched.policy kern.sched.hmp.steer kern.sched.primary kern.sched.debug "
                       "debug.witness")
    out = m.command("torture --time %d --seed %d" % (seconds, seed), timeout=seconds + 600)
    text = out.replace("\r", "")
    check("torture: passed, 0 violations" in text and "VIOLATION" not in text, summary(text))
    ops = dict((k, int(v)) for k, v in re.findall(r" (\w+) (\d+)", text.split("torture: operations:")[1]
                                                   .split("\n")[0]))
    for op in OPS:
        check(ops.get(op, 0) > 0, "no %s operation: %s" % (op, ops))
    check(re.search(r"invariant checks [1-9]\d* \(the pass's own [1-9]\d*\); violations 0$", text, re.M), summary(text))
    g = re.search(r"kernel threads created (\d+) = joined (\d+) \+ alive 0; since the start (\d+) created, "
                  r"(\d+) exited", text)
    check(g and g.group(1) == g.group(2) and g.group(3) == g.group(4), summary(text))
    g = re.search(r"user processes spawned (\d+) = reaped (\d+) \+ alive 0 \(refused \d+\); processes (\d+) -> "
                  r"(\d+), user pages (\d+) -> (\d+)", text)
    check(g and g.group(1) == g.group(2) and int(g.group(1)) > 0 and g.group(3) == g.group(4)
          and g.group(5) == g.group(6), summary(text))
    g = re.search(r"kernel heap (\d+) allocations / (\d+) bytes -> (\d+) / (\d+)", text)
    check(g and g.group(1) == g.group(3) and g.group(2) == g.group(4), summary(text))
    check(m.command("sysctl kern.sched.policy kern.sched.hmp.steer kern.sched.primary kern.sched.debug "
                    "debug.witness") == before, before)
    check("ok" in m.command("schedtest storm 200 1").replace("\r", ""), "the scheduler is not well after torture")
    return m


def test_i7_60s(ctx):
    m = torture(ctx, I7, 60, 1)
    for cmd, msg in (("torture --time 0", "torture: --time: 0 is outside 1..3600"),
                     ("torture --time", "torture: --time needs a value"),
                     ("torture --stressors threads,disk", "'disk' is not a stressor"),
                     ("torture --colour red", "torture: unknown option '--colour'")):
        out = m.command(cmd)
        check(msg in out and "torture: seed" not in out, (cmd, out))


def test_155h_20s(ctx):
    torture(ctx, MTL, 20, 2)
