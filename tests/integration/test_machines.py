# SPDX-License-Identifier: BSD-2-Clause
"""Machine descriptions under QEMU (docs/machines.md): the host checks a
description with the kernel's parser before QEMU starts (build/machine-info,
tools/qemu-run.sh, make run-qemu); the kernel takes the topology from a good
description, and falls back to CPUID, with a file:line message, on a broken
one or one that does not fit the VM. Boots stay small (4 vCPUs or fewer); the
big presets are parsed by the host unit tests."""
import os
import re
import subprocess
import tempfile

from qemu import ROOT, TestFailure

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")


def check_shell(m):
    m.wait_prompt()
    out = m.command("version")
    assert "Mosaic" in out, out


def test_small_hybrid_from_file(ctx):
    m = ctx.machine(smp=4, machine_file=SMALL)
    m.expect(r"topology source: machine file small hybrid \(1 P-core x 2 threads \+ 2 E-cores\)",
             timeout=120)
    check_shell(m)
    out = m.command("sysctl hw.topology_source")
    assert "machine file small hybrid" in out, out


def test_malformed_description_falls_back(ctx):
    tmp = tempfile.mkdtemp(prefix="mosaic-machine-")
    path = os.path.join(tmp, "broken.machine")
    with open(path, "w") as f:
        f.write("model broken\ncpus 2\nfrobnicate 3\nmemory 512M\n")
    m = ctx.machine(smp=2, machine_file=path, machine_check=False)
    m.expect(re.escape(path) + r":3: unknown key 'frobnicate'", timeout=120)
    m.expect(r"falling back to CPUID topology")
    m.expect(r"topology source: CPUID")
    check_shell(m)
    out = m.command("sysctl hw.topology_source")
    assert "CPUID" in out, out
    os.unlink(path)
    os.rmdir(tmp)


def test_description_not_fitting_the_vm(ctx):
    m = ctx.machine(smp=2, machine_file="small-hybrid")      # a preset, by name
    m.expect(r"machines/small-hybrid\.machine does not fit this VM: "
             r"the description has 4 CPUs, this machine 2", timeout=120)
    m.expect(r"topology source: CPUID")
    check_shell(m)


def write_machine(ctx, name, data):
    path = os.path.join(ctx.log_dir, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def machine_info(*args):
    p = subprocess.run([os.path.join(ROOT, "build", "machine-info"), *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout, p.stderr


def test_host_reads_what_the_kernel_reads(ctx):
    """CRLF line ends and UTF-8 comments are fine for the host as for the
    kernel; the values QEMU gets are the file's."""
    with open(SMALL, "rb") as f:
        text = f.read()
    crlf = write_machine(ctx, "crlf.machine", b"# caf\xc3\xa9\n" + text.replace(b"\n", b"\r\n"))
    rc, out, err = machine_info("--qemu", crlf)
    if rc != 0 or out != "4 512M %s\n" % crlf:
        raise TestFailure("machine-info --qemu %s: status %d, %r %r" % (crlf, rc, out, err))
    rc, out, err = machine_info("--qemu", "small-hybrid")
    if rc != 0 or out != "4 512M machines/small-hybrid.machine\n":
        raise TestFailure("machine-info --qemu small-hybrid: status %d, %r %r" % (rc, out, err))


def test_host_refuses_bad_descriptions(ctx):
    """What the kernel would refuse, and what QEMU cannot run, is refused on
    the host with FILE:LINE."""
    cases = [
        (b"model m\ncpus 999\nmemory 1G\ntopology cpuid\n", r":2: bad number '999' for cpus \(expected 0\.\.256\)"),
        (b"model m\ncpus 256\nmemory 1G\ntopology cpuid\n", r":2: cpus 256: QEMU's q35 machine takes at most 255 vCPUs"),
        (b"model m\ncpus 2\nmemory 1048576G\ntopology cpuid\n", r":3: memory 1048576G out of range \(64M\.\.16G\)"),
        (b"model caf\xc3\xa9\ncpus 2\nmemory 1G\ntopology cpuid\n", r":1: non-ASCII byte 0xc3 at column 10"),
    ]
    for i, (text, want) in enumerate(cases):
        path = write_machine(ctx, "bad%d.machine" % i, text)
        rc, out, err = machine_info("--qemu", path)
        if rc != 1 or out or not re.search(re.escape(path) + want, err):
            raise TestFailure("machine-info --qemu %s: status %d, %r %r (want %r)" % (path, rc, out, err, want))
    rc, out, err = machine_info("no-such-machine")
    if rc != 1 or "no machine 'no-such-machine' (a file, or a preset: " not in err or "small-hybrid" not in err:
        raise TestFailure("unknown preset: status %d, %r" % (rc, err))


def test_bad_description_stops_before_qemu(ctx):
    """qemu-run.sh and make run-qemu stop with the file's FILE:LINE message
    and never start QEMU."""
    path = write_machine(ctx, "frob.machine", b"model broken\ncpus 2\nfrobnicate 3\nmemory 512M\n")
    want = path + ":3: unknown key 'frobnicate'"
    runs = [[os.path.join(ROOT, "tools", "qemu-run.sh"), "--esp", os.path.join(ctx.build, "esp.img"),
             "--machine", path, "--run", "poweroff"],
            ["make", "--no-print-directory", "run-qemu", "MACHINE=" + path, "RUN=poweroff"]]
    for cmd in runs:
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
        out = p.stdout + p.stderr
        if p.returncode == 0 or want not in out or "mosaic-loader" in out:
            raise TestFailure("%s: status %d, output:\n%s" % (" ".join(cmd), p.returncode, out[-2000:]))
