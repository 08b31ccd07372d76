"""Machine descriptions under QEMU (docs/machines.md): the kernel takes the
topology from a good description, and falls back to CPUID, with a file:line
message, on a broken one or one that does not fit the VM. Boots stay small
(4 vCPUs or fewer); the big presets are parsed by the host unit tests."""
import os
import re
import tempfile

from qemu import ROOT

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
    m = ctx.machine(smp=2, machine_file=path)
    m.expect(re.escape(path) + r":3: unknown key 'frobnicate'", timeout=120)
    m.expect(r"falling back to CPUID topology")
    m.expect(r"topology source: CPUID")
    check_shell(m)
    out = m.command("sysctl hw.topology_source")
    assert "CPUID" in out, out
    os.unlink(path)
    os.rmdir(tmp)


def test_description_not_fitting_the_vm(ctx):
    m = ctx.machine(smp=2, machine_file=SMALL)
    m.expect(r"machines/small-hybrid\.machine does not fit this VM: "
             r"the description has 4 CPUs, this machine 2", timeout=120)
    m.expect(r"topology source: CPUID")
    check_shell(m)
