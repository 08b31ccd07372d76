# SPDX-License-Identifier: BSD-2-Clause
"""A panic and each kind of CPU exception produce the full report (vector,
error code, registers, CR2 for page faults, a symbolised backtrace) and stop
the machine (panic=exit: QEMU exits with status 3)."""
from qemu import TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 85


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def crash(ctx, command):
    m = ctx.machine(run=command, cmdline="panic=exit")
    return m


def expect_report(m, vector, name, cr2=False):
    m.expect(r"EXCEPTION: vector %d \(%s\), error code 0x[0-9a-f]+" % (vector, name))
    if cr2:
        m.expect(r"CR2=[0-9a-f]{16} \(faulting address\)")
    m.expect(r"RIP=[0-9a-f]{16}")
    m.expect(r"R15=[0-9a-f]{16}")
    m.expect(r"backtrace:")
    m.expect(r"#\d+ 0x[0-9a-f]{16} cmd_fault\+0x")
    m.expect(r"#\d+ 0x[0-9a-f]{16} shell_run_line\+0x")
    m.expect(r"System stopped \(panic=exit\)")
    rc = m.wait_exit(60)
    check(rc == 3, "qemu-run status %d, wanted 3" % rc)


def test_panic_command(ctx):
    m = crash(ctx, "panic the sky is falling")
    m.expect(r"panic: the sky is falling")
    m.expect(r"#\d+ 0x[0-9a-f]{16} cmd_panic\+0x")
    m.expect(r"System stopped")
    check(m.wait_exit(60) == 3, "wrong exit status")


def test_page_fault_unmapped(ctx):
    m = crash(ctx, "fault pf")
    expect_report(m, 14, "page fault", cr2=True)
    check("CR2=0000000000000010" in m.output, m.tail())
    check("not-present page on read in kernel mode" in m.output, m.tail())


def test_write_to_kernel_text_faults(ctx):
    m = crash(ctx, "fault wp")
    expect_report(m, 14, "page fault", cr2=True)
    check("protection violation on write" in m.output, m.tail())


def test_executing_heap_faults(ctx):
    m = ctx.machine(run="fault nx", cmdline="panic=exit")
    m.expect(r"EXCEPTION: vector 14 \(page fault\)")
    m.expect(r"protection violation on instruction fetch")
    m.expect(r"backtrace:")
    check(m.wait_exit(60) == 3, "wrong exit status")


def test_invalid_opcode(ctx):
    expect_report(crash(ctx, "fault ud"), 6, "invalid opcode")


def test_divide_error(ctx):
    m = crash(ctx, "fault de")
    m.expect(r"EXCEPTION: vector 0 \(divide error\)")
    m.expect(r"fault_divide\+0x")
    check(m.wait_exit(60) == 3, "wrong exit status")


def test_general_protection(ctx):
    expect_report(crash(ctx, "fault gp"), 13, "general protection")


def test_stack_overflow_hits_guard_page(ctx):
    m = crash(ctx, "fault stack")
    m.expect(r"EXCEPTION: vector 8 \(double fault\)")
    m.expect(r"running on the double-fault IST stack")
    m.expect(r"overflow_stack\S*\+0x")
    check(m.wait_exit(60) == 3, "wrong exit status")


def test_machine_check_runs_on_its_own_ist_stack(ctx):
    """A machine check while RSP holds a user address (syscall_entry's window
    before the stack switch) runs on the machine-check IST stack; without one
    the frame push faults and the CPU reports a double fault instead."""
    m = crash(ctx, "fault mc")
    m.expect(r"EXCEPTION: vector 18 \(machine check\)")
    m.expect(r"running on the machine-check IST stack")
    m.expect(r"RSP=00007ffffffff000")
    m.expect(r"#\d+ 0x[0-9a-f]{16} cmd_fault\+0x")
    check(m.wait_exit(60) == 3, "wrong exit status")
    check("double fault" not in m.output, m.tail())
