# SPDX-License-Identifier: BSD-2-Clause
"""tools/results-report.py on a results folder as `bench --save` wrote it
(tests/data/results/small-hybrid-20261207-1952/, whose README says how it
was made): the report's tables, plots and round trip; the same folder with
a real machine's CPUID dump (tests/data/cpuid/) and a `cpus` table that
matches its replay, then one that does not; damaged files, each named
with its line and left out while the rest is reported; a folder that is
not a results folder; a missing cpuid-replay. test_save.py runs the tool
on a folder fresh off a stick, where the kernel's CPUs came from CPUID."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ROOT = ROOT
TOOL = os.path.join(ROOT, "tools", "results-report.py")
SAMPLE = os.path.join(ROOT, "tests", "data", "results", "small-hybrid-20261207-1952")
DUMP = os.path.join(ROOT, "tests", "data", "cpuid", "i7-1370P_RaptorLakeP_B06A2_CPUID.txt")


def run_tool(ctx, *args):
    p = subprocess.run([sys.executable, TOOL, "--replay", os.path.join(ctx.build, "cpuid-replay")] + list(args),
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def report(out):
    with open(os.path.join(out, "report.md")) as f:
        return f.read()


def copy_sample(ctx, name="folder"):
    path = os.path.join(ctx.tmp, name)
    shutil.copytree(SAMPLE, path)
    return path


def test_the_sample_folder(ctx):
    out = os.path.join(ctx.tmp, "report")
    rc, stdout, err = run_tool(ctx, "-o", out, SAMPLE)
    assert rc == 0 and err == "", (rc, stdout, err)
    for line in ["  machine: QEMU TCG CPU version 2.5+",
                 "  HFI: 3 updates over 0.696 s, 2 rows",
                 "  energy: 17 readings over 9.052 s, 115.666 J, 12.778 W average (package)",
                 "  bench-cpu.log: 6 CSV blocks -> %s" % os.path.join(out, "bench-cpu"),
                 "  panic report: 3928 bytes (panic: a sample panic, for the report)"]:
        assert line in stdout.splitlines(), (line, stdout)
    assert re.search(r"CPUID round trip: 4 CPUs, descriptors from machine description; the replay is "
                     r"different on 4 of 4 CPUs \(cpu 0: type, l2, l3; .*\): expected", stdout), stdout
    text = report(out)
    for want in ["| 0 | `0 0x0000 P 0 0 0 0 0 0 0 0` | `0 0x0000 - 0 0 0 0 - - 0 0` | differs: type, l2, l3 |",
                 "| 2 | 0.312 | 305334296 | 0/1/0: 60/200 |",          # the E row throttled
                 "| 3 | 0.821 | 814897195 | 0/1/0: 140/200 |",         # and restored
                 "| 1.350 | 2.376 | 12.678 | 12.354 | 8.573 | 8.354 |",  # the first run's energy
                 "| hmp | 4 | 2 | 20137708.84 | 0.09 | 101.08 | 0.333333333333 |",
                 "level 1: share L3, cpus 0-3 (4): 1 P-core SMT group, 1 E-core module",
                 "panic: a sample panic, for the report",
                 "| cpuid.txt | 12067 |"]:
        assert want in text, (want, text)
    for png in ["hfi.png", "rapl.png", "bench-cpu/cpu.png", "bench-cpu/cpu.placement.png"]:
        with open(os.path.join(out, png), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", png
        assert "](%s)" % png in text, png


def replay(ctx, what, dump):
    return subprocess.run([os.path.join(ctx.build, "cpuid-replay"), what, dump], capture_output=True, text=True,
                          check=True).stdout


def test_the_round_trip_on_a_real_dump(ctx):
    # The folder as a real i7-1370P would leave it, had the kernel printed
    # what the host decodes: the kernel's `cpus` adds online and ticks.
    folder = copy_sample(ctx, "i7-1370P-20261207-1200")
    shutil.copy(DUMP, os.path.join(folder, "cpuid.txt"))
    rows = [l + " yes    100" for l in replay(ctx, "--cpus", DUMP).splitlines() if re.match(r"^ +\d+ 0x", l)]
    kernel = " cpu   apic type smt  core module pkg    l2    l3  hfi perf online ticks\n" + "\n".join(rows) + \
             "\n20 CPUs, 20 online; descriptors from CPUID\n"
    with open(os.path.join(folder, "cpus.txt"), "w") as f:
        f.write(kernel)
    topo = replay(ctx, "--topo", DUMP).split("tree: freebsd")[0].replace("CPUID dump", "CPUID")
    with open(os.path.join(folder, "topo.txt"), "w") as f:
        f.write(topo[topo.index("topology:"):topo.rindex("topology:")])
    out = os.path.join(ctx.tmp, "match")
    rc, stdout, err = run_tool(ctx, "--no-plots", "-o", out, folder)
    assert rc == 0 and err == "", (rc, stdout, err)
    assert "CPUID round trip: 20 CPUs, descriptors from CPUID; the replay is the same on all 20 CPUs" in stdout
    assert "Topology tree (`topo.txt` on the machine, then the replay): the same." in report(out)
    assert not os.path.exists(os.path.join(out, "hfi.png")), "plots with --no-plots"
    # One E-core printed as a P-core on the machine: named, and exit 1.
    with open(os.path.join(folder, "cpus.txt"), "w") as f:
        f.write(re.sub(r"^(  12 0x0030) E ", r"\1 P ", kernel, flags=re.M))
    rc, stdout, err = run_tool(ctx, "--no-plots", "-o", out, folder)
    assert rc == 1, (rc, stdout, err)
    assert "the replay is different on 1 of 20 CPUs (cpu 12: type)" in stdout, stdout
    assert "| 12 | `12 0x0030 P 0 24 24 0 6 0 6 39` | `12 0x0030 E 0 24 24 0 6 0 6 39` | differs: type |" \
        in report(out)


def test_damaged_files_are_named_and_the_rest_reported(ctx):
    folder = copy_sample(ctx)
    with open(os.path.join(folder, "hfi-updates.csv"), "a") as f:
        f.write("4,900000000,900000000,0,1,0,300,200\n")   # perf is a byte
        f.write("5,oops\n")
    with open(os.path.join(folder, "rapl.csv"), "w") as f:
        f.write("time,energy\n1,2\n")
    with open(os.path.join(folder, "sysinfo.txt"), "wb") as f:
        f.write(b"==== Mosaic system summary ====\ncpu: \0\0\0")
    os.unlink(os.path.join(folder, "cpus.txt"))
    with open(os.path.join(folder, "bench-cpu.log"), "rb") as f:
        log = f.read()
    with open(os.path.join(folder, "bench-cpu.log"), "wb") as f:
        f.write(log.replace(b"hmp,4,2,", b"hmp,4,X,", 1))      # a row the end marker's hash no longer matches
    out = os.path.join(ctx.tmp, "damaged")
    rc, stdout, err = run_tool(ctx, "--no-plots", "-o", out, folder)
    assert rc == 1, (rc, stdout, err)
    hfi = os.path.join(folder, "hfi-updates.csv")
    for want in ["%s:8: perf 300, ee 200: not HFI bytes (0..255)" % hfi,
                 "%s:9: '5,oops' is not 8 unsigned integers" % hfi,
                 "%s:1: header 'time,energy', expected 'time_ns,package_uj,cores_uj'" % os.path.join(folder,
                                                                                                      "rapl.csv"),
                 "%s: holds NUL bytes: not a text file" % os.path.join(folder, "sysinfo.txt"),
                 "bench-report: %s: block cpu (log lines 54-64): 9 rows with hash 40ec8cf9, the end marker says "
                 "9 rows with hash e9df59f7 (a line lost or damaged); skipped" % os.path.join(folder,
                                                                                            "bench-cpu.log")]:
        assert any(l.startswith("results-report: " + want) for l in err.splitlines()), (want, err)
    assert "CPUID round trip: not made (no cpus.txt)" in stdout, stdout
    assert "machine: unknown (sysinfo.txt could not be read)" in stdout, stdout
    assert "HFI: 3 updates over 0.696 s, 2 rows" in stdout, stdout   # the good lines still count
    assert "energy: fewer than two readings" in stdout, stdout
    assert "bench-cpu.log: 5 CSV blocks" in stdout, stdout
    text = report(out)
    assert "## Problems" in text and "not HFI bytes" in text, text


def test_not_a_results_folder(ctx):
    empty = os.path.join(ctx.tmp, "empty")
    os.makedirs(empty)
    with open(os.path.join(empty, "notes.txt"), "w") as f:
        f.write("hello\n")
    rc, stdout, err = run_tool(ctx, "-o", os.path.join(ctx.tmp, "r1"), empty)
    assert rc == 2 and "%s: not a results folder (none of sysinfo.txt, cpus.txt" % empty in err, (rc, err)
    rc, stdout, err = run_tool(ctx, "-o", os.path.join(ctx.tmp, "r2"), os.path.join(ctx.tmp, "nosuch"))
    assert rc == 2 and "nosuch: No such file or directory" in err, (rc, err)


def test_without_cpuid_replay(ctx):
    out = os.path.join(ctx.tmp, "noreplay")
    p = subprocess.run([sys.executable, TOOL, "--replay", os.path.join(ctx.tmp, "no-replay"), "--no-plots", "-o", out,
                        SAMPLE], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    assert "no-replay: No such file or directory (build it with `make build/cpuid-replay`" in p.stderr, p.stderr
    assert "CPUID round trip: not made" in p.stdout and "HFI: 3 updates" in p.stdout, p.stdout
