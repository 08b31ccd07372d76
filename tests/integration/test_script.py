# SPDX-License-Identifier: BSD-2-Clause
"""Script mode: run= on the kernel command line, and `make run-qemu RUN=`."""
import os
import subprocess

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 80


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def test_script_then_poweroff(ctx):
    m = ctx.machine(run='echo "first; still first"; version; poweroff')
    m.expect(r"mosaic> echo \"first; still first\"\r\nfirst; still first\r\n")
    m.expect(r"Mosaic \S+ \(x86_64")
    m.expect(r"powering off")
    rc = m.wait_exit()
    check(rc == 0, "qemu-run status %d after poweroff" % rc)


def test_script_exit_status(ctx):
    m = ctx.machine(run="echo bye; exit 7")
    m.expect(r"exit 7")
    rc = m.wait_exit()
    check(rc == 7, "qemu-run status %d, wanted 7" % rc)


def test_script_continues_to_prompt(ctx):
    m = ctx.machine(run="echo scripted")
    m.expect(r"\r\nscripted\r\n")
    m.wait_prompt()
    out = m.command("echo interactive")
    check("interactive" in out, out)


def test_script_sleep_lets_load_build_up(ctx):
    """`spawn …; sleep MS; top` in a boot script: the sleep lasts MS of guest
    time and the spawned threads run meanwhile."""
    m = ctx.machine(smp=2, run="uptime; spawn 2 cpu ms=20000; sleep 1500; uptime; top; poweroff")
    m.expect(r"mosaic> uptime")
    t0 = m.expect(r"up (\d+)\.(\d+) s")
    m.expect(r"mosaic> sleep 1500\r\n")
    t1 = m.expect(r"up (\d+)\.(\d+) s")
    ms = lambda g: int(g.group(1)) * 1000 + int(g.group(2))
    check(ms(t1) - ms(t0) >= 1500, "the script slept %d ms, not 1500" % (ms(t1) - ms(t0)))
    m.expect(r"top: frame 1,")
    m.expect(r" cpu/[01] ")
    m.expect(r"powering off")
    check(m.wait_exit() == 0, "did not power off")


def test_reboot_restarts_machine(ctx):
    m = ctx.machine(run="reboot", reboot=True)
    m.expect(r"rebooting")
    m.expect(r"Mosaic \S+ \(loader ", timeout=120)   # the firmware ran us again


def test_make_run_qemu_run(ctx):
    """`make run-qemu RUN=…` on the default machine, with quotes in RUN."""
    p = subprocess.run(["make", "--no-print-directory", "run-qemu", "RUN=echo \"quoted  words\"; version; topo; poweroff"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    with open(os.path.join(ctx.log_dir, ctx.name + ".log"), "w") as f:
        f.write(out)
    check(p.returncode == 0, "make run-qemu failed (%d):\n%s" % (p.returncode, out[-2000:]))
    check("\nquoted  words" in out.replace("\r", ""), "echo output missing:\n" + out[-2000:])
    check("Mosaic" in out and "powering off" in out, out[-2000:])
    # The default machine: the i7-1370p model, all 20 CPUs, its tree.
    check("smp: 20 of 20 CPUs online" in out, out[-3000:])
    check("level 1: share L3, cpus 0-19 (20): 6 P-core SMT groups, 2 E-core modules" in out,
          out[-3000:])
