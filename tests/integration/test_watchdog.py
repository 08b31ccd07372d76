# SPDX-License-Identifier: BSD-2-Clause
"""The lockup watchdogs and the panic's backtraces, on one booted machine
(4 CPUs, panic=exit): the sysctls and their range; `lockup soft` is
reported once by the stuck CPU itself with the spinning function in its
backtrace, `lockup hard` once by the stuck CPU's NMI handler after another
CPU found it; each episode's end gets its line and the shell answers
afterwards; bad input to `lockup` spins nothing; a stray NMI gets one line
per CPU; a panic (the last test) prints every other CPU's backtrace, one
after another, before it stops.
Every check is on what the guest printed, never on host timing."""
import re

from qemu import TestFailure

LIMIT_S = 2     # both watchdogs' limit, set by sysctl
SPIN_S = 5      # each lockup; well past LIMIT_S, so a loaded host still sees a report
# One report block: the header, the registers (8 lines), the backtrace.
REGS = r"(?:  [A-Z0-9 ]{3}=[^\n]*\n){8}"


def setup(ctx):
    m = ctx.machine(smp=4, cmdline="panic=exit")
    m.wait_prompt()
    return m


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def lines(text):
    return text.replace("\r", "")


def wait_line(m, start, pattern, timeout=30):
    """The first match of pattern in the output from index start on, which
    may have come before the prompt or may still come."""
    rx = re.compile(pattern)
    with m.lock:
        g = rx.search(lines(m.output[start:]))
    return g or m.expect(pattern, timeout)


def test_sysctls(ctx, m):
    out = m.command("sysctl kern.watchdog.soft_s kern.watchdog.hard_s")
    check("kern.watchdog.soft_s: 20" in out and "kern.watchdog.hard_s: 10" in out, out)
    out = m.command("sysctl kern.watchdog.soft_s=3601")
    out = m.command("sysctl kern.watchdog.soft_s")
    check("kern.watchdog.soft_s: 20" in out, "3601 (past 3600) was taken:\n" + out)
    out = m.command("sysctl kern.watchdog.soft_s=%d kern.watchdog.hard_s=%d" % (LIMIT_S, LIMIT_S))
    check("kern.watchdog.soft_s: 20 -> %d" % LIMIT_S in out, out)
    check("kern.watchdog.hard_s: 10 -> %d" % LIMIT_S in out, out)


def test_soft_lockup(ctx, m):
    start = len(m.output)
    out = lines(m.command("lockup soft 2 %d" % SPIN_S))
    check("lockup: cpu 2 spins %d s with preemption off" % SPIN_S in out, out)
    g = re.search(r"watchdog: soft lockup on cpu 2: not scheduled for (\d+) ms; its state at the tick:\n"
                  + REGS + r"backtrace:\n  #0 0x[0-9a-f]{16} lockup_spin_preempt_off\+0x", out)
    check(g, "no soft-lockup report of cpu 2 naming lockup_spin_preempt_off:\n" + out)
    check(int(g.group(1)) >= LIMIT_S * 1000, "reported before the limit: " + g.group(0))
    check(out.count("soft lockup on cpu") == 1, "not one soft report:\n" + out)
    check("hard lockup" not in out, "a hard report of a CPU that ticked:\n" + out)
    check("lockup: cpu 2 is back" in out, out)
    g = wait_line(m, start, r"watchdog: cpu 2 scheduled again after (\d+) ms \(soft lockup over\)")
    check(int(g.group(1)) >= SPIN_S * 1000, "the episode was shorter than the spin: " + g.group(0))


def test_hard_lockup(ctx, m):
    start = len(m.output)
    out = lines(m.command("lockup hard 3 %d" % SPIN_S))
    check("lockup: cpu 3 spins %d s with interrupts off" % SPIN_S in out, out)
    g = re.search(r"watchdog: cpu ([0-2]) sees no timer tick on cpu 3 for (\d+) ms; sending it an NMI", out)
    check(g, "no other CPU found cpu 3 without ticks:\n" + out)
    check(int(g.group(2)) >= LIMIT_S * 1000, "found before the limit: " + g.group(0))
    g = re.search(r"watchdog: hard lockup on cpu 3: no timer tick for \d+ ms; its state at the NMI:\n"
                  + REGS + r"backtrace:\n  #0 0x[0-9a-f]{16} lockup_spin_irqs_off\+0x", out)
    check(g, "no hard-lockup report of cpu 3 naming lockup_spin_irqs_off:\n" + out)
    check(out.count("sees no timer tick") == 1 and out.count("hard lockup on cpu") == 1,
          "not one hard report:\n" + out)
    check("lockup: cpu 3 is back" in out, out)
    g = wait_line(m, start, r"watchdog: cpu 3 ticks again after (\d+) ms \(hard lockup over\)")
    check(int(g.group(1)) >= LIMIT_S * 1000, g.group(0))
    # The hard report covers the stretch: no soft one follows for cpu 3.
    out = m.command("echo still here")
    check("still here" in out, out)
    check("soft lockup on cpu 3" not in m.output[start:], lines(m.output[start:]))
    # Nothing else was reported in the whole run: idle CPUs, the shell's
    # CPU and the CPUs that ticked through the hard lockup stayed quiet.
    check(m.output.count("soft lockup on cpu") == 1 and m.output.count("hard lockup on cpu") == 1,
          "a report besides the two lockups:\n" + lines(m.output))


def test_bad_input_spins_nothing(ctx, m):
    bad = {
        "lockup warm 1 2": "lockup: 'warm' is neither soft nor hard",
        "lockup hard 9 2": "lockup: CPU: 9 is outside 0..3",
        "lockup soft 1 999999": "lockup: SECONDS: 999999 is outside 1..60",
        "lockup soft 1 0": "lockup: SECONDS: 0 is outside 1..60",
        "lockup soft one 2": "lockup: CPU: 'one' is not a number",
        "lockup soft 1": "usage: lockup soft|hard CPU SECONDS",
    }
    for line, want in bad.items():
        out = m.command(line)
        check(want in out, "%s: wanted %r in:\n%s" % (line, want, out))
        check("spins" not in out, "%s spun:\n%s" % (line, out))


def test_stray_nmi(ctx, m):
    """An NMI nobody asked for (QEMU's monitor sends one to every CPU): one
    line per CPU, and the machine carries on."""
    start = len(m.output)
    m.monitor("nmi")
    for _ in range(4):
        m.expect(r"nmi: unexpected NMI on cpu [0-3] at rip [0-9a-f]{16}; ignored")
    out = m.command("echo after the nmi")
    check("after the nmi" in out, out)
    seen = sorted(re.findall(r"nmi: unexpected NMI on cpu ([0-3])", m.output[start:]))
    check(seen == ["0", "1", "2", "3"], "not one line per CPU: %s" % seen)


def test_panic_prints_every_cpu(ctx, m):
    """Last: the panic ends the machine."""
    m.send("panic watchdog test\r")
    m.expect(r"panic: watchdog test")
    me = int(m.expect(r"\(on cpu (\d); the other CPUs were stopped\)").group(1))
    start = m.pos
    m.expect(r"System stopped \(panic=exit\)")
    # Without run= qemu-run passes QEMU's status on: isa-debug-exit's
    # 2 * (3 + 1) + 1 for the kernel's status 3 (kernel/arch/x86_64/power.c).
    rc = m.wait_exit(120)
    check(rc == 9, "qemu-run status %d, wanted 9 (panic=exit)" % rc)
    tail = lines(m.output[start:m.pos])
    others = [c for c in range(4) if c != me]
    # In CPU order, each block whole: its header, "backtrace:", frames only.
    blocks = re.findall(r"cpu (\d), stopped by the panic:\nbacktrace:\n((?:  #\d+ 0x[0-9a-f]{16} [^\n]*\n)+)",
                        tail)
    check([int(c) for c, _ in blocks] == others, "not one backtrace each of cpus %s:\n%s" % (others, tail))
    for cpu, frames in blocks:
        check(re.match(r"  #0 0x[0-9a-f]{16} [a-z_]\w*\+0x", frames), "cpu %s's frame #0 unnamed:\n%s"
              % (cpu, frames))
    check("did not stop" not in tail and "printed no backtrace" not in tail, tail)
    check("nmi: unexpected" not in tail, tail)
