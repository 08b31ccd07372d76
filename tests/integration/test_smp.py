# SPDX-License-Identifier: BSD-2-Clause
"""SMP bring-up: every CPU comes online (1, 4 and 20 CPUs), every CPU's
timer ticks, smp_call_on() reaches every CPU, maxcpus= leaves CPUs offline
with a message, an AP whose start-up IPIs are lost is started again or left
offline, and a panic with several CPUs stops the others first."""
import re
import time

from qemu import TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 155


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def ticks(m):
    out = m.command("sysctl kern.smp.ticks")
    g = re.search(r"kern\.smp\.ticks: min (\d+) max (\d+)", out)
    check(g, "no kern.smp.ticks in:\n" + out)
    return int(g.group(1)), int(g.group(2))


def boot_all_online(ctx, n):
    m = ctx.machine(smp=n)
    m.expect(r"smp: %d of %d CPUs online" % (n, n), timeout=180)
    m.wait_prompt(180)
    out = m.command("sysctl kern.smp.online")
    check("kern.smp.online: %d" % n in out, out)
    out = m.command("sysctl kern.smp.call_test", timeout=60)
    check("%d of %d CPUs answered" % (n, n) in out, out)
    # Every CPU ticked between the readings: the new minimum passes the old maximum.
    _, hi = ticks(m)
    deadline = time.time() + 60
    while True:
        lo, _ = ticks(m)
        if lo > hi:
            break
        check(time.time() < deadline, "some CPU's ticks stay at or below %d (min now %d)" % (hi, lo))
        time.sleep(0.5)
    check("nmi:" not in m.output and "panic" not in m.output, m.tail())


def test_smp_1_cpu(ctx):
    boot_all_online(ctx, 1)


def test_smp_4_cpus(ctx):
    boot_all_online(ctx, 4)


def test_smp_20_cpus(ctx):
    boot_all_online(ctx, 20)


def test_smp_maxcpus(ctx):
    m = ctx.machine(smp=4, cmdline="maxcpus=2")
    m.expect(r"smp: maxcpus=2: 2 CPUs stay offline")
    m.expect(r"smp: 2 of 2 CPUs online")
    m.wait_prompt()
    out = m.command("sysctl kern.smp.cpus")
    check("kern.smp.cpus: 2" in out, out)


def test_smp_lost_startup_is_sent_again(ctx):
    # smp_lose_startup=1: CPU 1's first INIT-SIPI-SIPI carries no start-up
    # IPI; the boot CPU waits 5 s of guest time, then starts it again.
    m = ctx.machine(smp=3, cmdline="smp_lose_startup=1")
    m.expect(r"smp: cpu 1 \(APIC id 1\) gave no sign of life 5000 ms after its start-up IPIs; "
             r"starting it again")
    m.expect(r"smp: 3 of 3 CPUs online")
    m.wait_prompt()
    check("left offline" not in m.output, m.tail())
    out = m.command("sysctl kern.smp.call_test", timeout=60)
    check("3 of 3 CPUs answered" in out, out)


def test_smp_lost_startups_leave_the_cpu_offline(ctx):
    # smp_lose_startup=2: both sequences are lost; CPU 1 stays offline and
    # the boot goes on with CPUs 0 and 2, which take threads and calls.
    m = ctx.machine(smp=3, cmdline="smp_lose_startup=2")
    m.expect(r"smp: cpu 1 \(APIC id 1\) gave no sign of life")
    m.expect(r"smp: cpu 1 \(APIC id 1\) did not come online within 10000 ms; left offline")
    m.expect(r"smp: 2 of 3 CPUs online")
    m.wait_prompt()
    out = m.command("sysctl kern.smp.online")
    check("kern.smp.online: 2" in out, out)
    out = m.command("sysctl kern.smp.call_test", timeout=60)
    check("2 of 2 CPUs answered" in out, out)
    out = m.command("spawn 1 cpu cpus=1 ms=300", timeout=60)
    check("spawn: cpus: '1' names no online CPU" in out, out)
    out = m.command("spawn 2 cpu pin=2,1 ms=300", timeout=60)
    check("spawn: pin: cpu 1 is not online" in out, out)
    m.command("spawn 1 cpu cpus=2 ms=5000", timeout=60)
    out = m.command("ps", timeout=60)
    check(re.search(r"\bcpu/0 +run +2 ", out), "the spawned thread is not running on cpu 2:\n" + out)
    check("idle/1" not in out and "idle/2" in out, "idle threads are not those of cpus 0 and 2:\n" + out)
    check("panic" not in m.output, m.tail())


def test_smp_slow_start_gets_a_second_wait(ctx):
    # smp_slow_start=6000: CPU 1 enters the kernel, then waits 6 s of guest
    # time before its set-up; the boot CPU sees it entered, waits 5 s more
    # without an INIT, and it comes online as the slowest start.
    m = ctx.machine(smp=3, cmdline="smp_slow_start=6000")
    m.expect(r"smp: cpu 1 \(APIC id 1\) entered the kernel but is not online after 5000 ms; "
             r"waiting 5000 ms more")
    line = m.expect(r"smp: 3 of 3 CPUs online \(MAXCPU 256\); the slowest start took (\d+) ms "
                    r"\(cpu (\d+)\)")
    check(int(line.group(1)) >= 6000 and line.group(2) == "1", line.group(0))
    check("gave no sign of life" not in m.output and "left offline" not in m.output, m.tail())
    m.wait_prompt()
    out = m.command("sysctl kern.smp.call_test", timeout=60)
    check("3 of 3 CPUs answered" in out, out)


def test_smp_hz_sysctls(ctx):
    m = ctx.machine(smp=2, run="sysctl kern.hz; sysctl kern.stathz; poweroff")
    m.expect(r"kern\.hz: 100")
    m.expect(r"kern\.stathz: 100")
    check(m.wait_exit(120) == 0, "poweroff failed")


def test_smp_panic_stops_others(ctx):
    m = ctx.machine(smp=4, run="panic stop the world", cmdline="panic=exit")
    m.expect(r"smp: 4 of 4 CPUs online")
    m.expect(r"panic: stop the world")
    m.expect(r"\(on cpu \d; the other CPUs were stopped\)")   # the shell may have moved off cpu 0
    m.expect(r"System stopped \(panic=exit\)")
    rc = m.wait_exit(120)
    check(rc == 3, "qemu-run status %d, wanted 3" % rc)
    check("nmi: unexpected" not in m.output, m.tail())
