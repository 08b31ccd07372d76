# SPDX-License-Identifier: BSD-2-Clause
"""README.md's examples, run as written: every line of its ```sh blocks is
either run here or named in NOT_RUN_HERE with the test that covers it, and
its first section's three-command tour is run unattended (the README's own
RUN= line) on the default machine, where it must show what the README says:
under hmp every thread at P-core speed, under stock ULE some on E-cores.
Also the kernel command line's tunables (a sysctl set at boot, docs/cmdline.md)."""
import os
import re
import subprocess

import pytest

from qemu import ROOT, TestFailure

# The tour asserts where threads ran (guest time): alone, as the placement tests.
pytestmark = pytest.mark.exclusive
EXPECTED_S = 75

README = os.path.join(ROOT, "README.md")

# README lines not run by this module, each with where it is covered.
NOT_RUN_HERE = {
    "make run-qemu": "interactive; the RUN= lines below boot the same image",
    "make test": "this suite itself",
    "make bench MACHINE=i7-1370p BENCH=\"sweep cpu --threads 4,6,8 --runs 4 --policy ule,hmp\"":
        "4.5 minutes; make bench is run by tests/integration/test_bench_make.py",
    "make iso": "tests/integration/test_iso.py builds and boots the image",
    "sudo dd if=build/mosaic.iso of=/dev/sdX bs=4M conv=fsync status=progress":
        "writes a USB stick",
}


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def sh_lines():
    """The commands of README.md's ```sh blocks (a trailing `\\` joins lines;
    a `# ...` comment after two spaces is dropped)."""
    text = open(README).read()
    lines = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            line = re.sub(r"\s+", " ", line) if not line.startswith("make run-qemu RUN=") else line
            if line:
                lines.append(line)
    return lines


def shell(ctx, line, extra="", timeout=600):
    """Runs a README line with bash in the repository; returns (status, output)."""
    p = subprocess.run(["bash", "-c", line + extra], cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout)
    out = p.stdout + p.stderr
    with open(os.path.join(ctx.log_dir, ctx.name + ".log"), "a") as f:
        f.write("$ %s%s\n%s\n" % (line, extra, out))
    return p.returncode, p.stdout, out.replace("\r", "")


def readme_line(prefix):
    found = [l for l in sh_lines() if l.startswith(prefix)]
    check(len(found) == 1, "README has %d lines starting %r: %s" % (len(found), prefix, found))
    return found[0]


RUN_HERE = ('make run-qemu RUN="version; mem; poweroff"', 'make run-qemu RUN="spawn 6 cpu',
            'make run-qemu RUN="echo hi; exit 5"; echo $?', "tools/qemu-run.sh --esp build/esp.img",
            "build/cpuid-replay ", "build/schedsim ")


def test_every_readme_example_is_run_or_covered(ctx):
    lines = sh_lines()
    check(len(lines) >= 10, "only %d example lines found in README.md" % len(lines))
    for line in lines:
        check(line in NOT_RUN_HERE or any(line.startswith(p) for p in RUN_HERE),
              "README example not run by any test: %r" % line)


def test_every_shell_command_in_the_table(ctx):
    """The README's command table names every command the kernel has."""
    text = open(README).read()
    names = set()
    for path, _, files in os.walk(os.path.join(ROOT, "kernel")):
        for f in files:
            if f.endswith(".c"):
                names |= set(re.findall(r"^SHELL_COMMAND\((\w+),", open(os.path.join(path, f)).read(), re.M))
    check(len(names) > 20, "found only %d SHELL_COMMANDs" % len(names))
    table = text[text.index("| command | what it does |"):]
    table = table[:table.index("\n\n")]
    listed = set()
    for row in table.splitlines()[2:]:
        listed |= set(re.findall(r"`(\w+)", row.split(" | ")[0]))
    for n in sorted(names):
        check(n in listed, "README's command table lacks `%s`" % n)


def spawn_reports(out):
    """Each `spawn` report: (overall speed, [thread speeds])."""
    reports = []
    for m in re.finditer(r"spawn: 6 cpu threads done after \d+ ms: .*speed (\d\.\d+)\n((?:spawn:   .*\n)+)", out):
        reports.append((float(m.group(1)), [float(s) for s in re.findall(r"speed (\d\.\d+)", m.group(2))]))
    return reports


def test_tour_shows_hybrid_placement(ctx):
    """The first section's tour, unattended: its commands are the RUN= line's,
    hmp (the boot default) keeps all six threads on P-cores, stock ULE puts
    some on E-cores (speed 0.540)."""
    text = open(README).read()
    first = text[:text.index("\n## ")]
    tour = re.findall(r"^    mosaic> (.*?)\s+#", first, re.M)
    check(len(tour) == 3, "the first section has %d tour commands, not 3" % len(tour))
    line = readme_line('make run-qemu RUN="spawn 6 cpu')
    script = [c.strip() for c in re.search(r'RUN="([^"]*)"', line).group(1).split(";")]
    check([c for c in script if not c.startswith(("sleep", "poweroff"))] == tour,
          "the RUN= tour %s is not the first section's %s" % (script, tour))
    rc, _, out = shell(ctx, line)
    check(rc == 0, "the tour ended with status %d:\n%s" % (rc, out[-3000:]))
    check(re.search(r"^policy: +hmp ", out, re.M), "the boot summary does not say hmp:\n" + out[-4000:])
    check("smp: 20 of 20 CPUs online" in out, "not the default machine:\n" + out[-4000:])
    reports = spawn_reports(out)
    check(len(reports) == 2, "%d spawn reports, not 2:\n%s" % (len(reports), out[-4000:]))
    (hmp_all, hmp_threads), (ule_all, ule_threads) = reports
    check(len(hmp_threads) == 6 and min(hmp_threads) >= 0.9 and hmp_all >= 0.95,
          "hmp left threads off P-cores: %s, overall %.3f" % (hmp_threads, hmp_all))
    check(len(ule_threads) == 6 and min(ule_threads) <= 0.6 and ule_all < hmp_all,
          "ule put no thread on an E-core: %s, overall %.3f" % (ule_threads, ule_all))


def test_run_lines_and_exit_status(ctx):
    """The unattended lines on small-hybrid (the same image, a 4-CPU boot):
    poweroff gives 0; `exit 5` gives 5 from tools/qemu-run.sh, and make says
    5 then fails with its own 2. That boot also sets tunables."""
    line = readme_line('make run-qemu RUN="version; mem; poweroff"')
    rc, _, out = shell(ctx, line, ' MACHINE=small-hybrid CMDLINE="kern.sched.policy=ule '
                       'kern.sched.hmp.upmigrate=2 kern.sched.hmp.smt=0 kern.nosuch=1"')
    check(rc == 0, "status %d after poweroff:\n%s" % (rc, out[-3000:]))
    check(re.search(r"Mosaic \S+ \(x86_64", out) and "managed" in out, out[-3000:])
    # the tunables: set as sysctl writes, refusals named with their reason
    for want in ["cmdline: tunable kern.sched.policy: hmp -> ule",
                 "cmdline: tunable kern.sched.hmp.smt: 1 -> 0",
                 "cmdline: tunable kern.sched.hmp.upmigrate=2 not set: kern.sched.hmp.upmigrate: 2 is outside 0..1",
                 "cmdline: tunable kern.nosuch=1 not set: no such sysctl"]:
        check(want in out, "boot log lacks %r:\n%s" % (want, out[-4000:]))
    check(re.search(r"^policy: +ule ", out, re.M), "the boot summary does not say ule:\n" + out[-4000:])

    line = readme_line('make run-qemu RUN="echo hi; exit 5"; echo $?')
    rc, stdout, out = shell(ctx, line.replace("; echo $?", " MACHINE=small-hybrid; echo $?"))
    check("\nhi\n" in out, "no echo output:\n" + out[-2000:])
    check("run-qemu: the kernel exited with status 5" in out, out[-2000:])
    check(stdout.rstrip().endswith("\n2"), "echo $? did not print make's 2:\n" + stdout[-500:])

    line = readme_line("tools/qemu-run.sh --esp build/esp.img")
    rc, stdout, out = shell(ctx, line.replace("--machine i7-1370p", "--machine small-hybrid"))
    check(stdout.rstrip().endswith("\n5"), "echo $? did not print 5:\n" + stdout[-500:])


def test_host_examples(ctx):
    """build/cpuid-replay on the Meteor Lake dump; the schedsim sweep."""
    rc, _, out = shell(ctx, readme_line("build/cpuid-replay "))
    check(rc == 0 and "LP-E" in out, "cpuid-replay failed (%d):\n%s" % (rc, out[-2000:]))
    rc, _, out = shell(ctx, readme_line("build/schedsim "))
    check(rc == 0 and "[Policy] oracle" in out, "schedsim failed (%d):\n%s" % (rc, out[-2000:]))
