# SPDX-License-Identifier: BSD-2-Clause
"""Every machine preset boots with all its CPUs online, the expected
topology tree and hmp as the placement policy (its boot summary's policy
line; on a machine whose CPUs are all alike hmp decides as stock ULE); `cpus`, `cpuid` and kern.sched.topology_spec on a booted
hybrid machine; FreeBSD's tree (kern.sched.topology=freebsd, `topo freebsd`)
from a machine description and from QEMU's own CPUID."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 230


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def boot_preset(ctx, name, script="topo; poweroff", cmdline=None):
    m = ctx.machine(machine_file=os.path.join(ROOT, "machines", name + ".machine"), run=script,
                    cmdline=cmdline)
    return m


POLICY_HYBRID = "policy:   hmp (sysctl kern.sched.policy)\n"
POLICY_UNIFORM = "policy:   hmp (sysctl kern.sched.policy; every CPU alike: stock ULE's decisions)\n"


def expect_tree(ctx, name, ncpu, source, tree_lines, script="topo; poweroff", policy=POLICY_HYBRID):
    m = boot_preset(ctx, name, script)
    m.expect(r"smp: %d of %d CPUs online" % (ncpu, ncpu), timeout=180)
    m.expect(r"topology source: " + source)
    m.expect(r"sched: ULE on %d CPUs, placement hmp \(kern.sched.policy\)" % ncpu)
    booted = m.pos
    m.expect(r"descriptors from (machine description|CPUID)\r\n")
    start = m.pos
    m.expect(r"mosaic> poweroff")
    summary = m.output[booted:start].replace("\r", "")
    check(policy in summary, "boot summary lacks %r:\n%s" % (policy, summary))
    tree = m.output[start:m.pos].replace("\r", "")
    for line in tree_lines:
        check(line + "\n" in tree, "topo lacks %r:\n%s" % (line, tree))
    check(m.wait_exit() == 0, "did not power off")


P_PAIRS_AND_E_MODULES = ["level 1: share L3, cpus 0-19 (20): 6 P-core SMT groups, 2 E-core modules"] + \
    ["  level 2: share L2, cpus %d-%d (2), SMT: P-core SMT group" % (c, c + 1) for c in range(0, 12, 2)] + \
    ["  level 2: share L2, cpus 12-15 (4): E-core module",
     "  level 2: share L2, cpus 16-19 (4): E-core module"]


def test_i7_1370p(ctx):
    expect_tree(ctx, "i7-1370p", 20, r"machine file Core i7-1370P", P_PAIRS_AND_E_MODULES)


def test_i7_13800h(ctx):
    expect_tree(ctx, "i7-13800h", 20, r"machine file Core i7-13800H", P_PAIRS_AND_E_MODULES)


def test_core_ultra_7_155h(ctx):
    expect_tree(ctx, "core-ultra-7-155h", 22, r"machine file Core Ultra 7 155H", [
        "level 1: share none, cpus 0-21 (22): 1 L3 group, 1 LP-E-core module",
        "  level 2: share L3, cpus 0-19 (20): 6 P-core SMT groups, 2 E-core modules",
        "    level 3: share L2, cpus 2-5 (4): E-core module",
        "    level 3: share L2, cpus 6-9 (4): E-core module",
        "  level 2: share L2, cpus 20-21 (2): LP-E-core module"])


def test_xeon_4p_ht(ctx):
    expect_tree(ctx, "xeon-4p-ht", 8, r"machine file Xeon", [
        "level 1: share none, cpus 0-7 (8): 4 SMT groups"] +
        ["  level 2: share L3, cpus %d-%d (2), SMT: SMT group" % (c, c + 1) for c in range(0, 8, 2)],
        policy=POLICY_UNIFORM)


def test_opteron_2s(ctx):
    expect_tree(ctx, "opteron-2s", 4, r"machine file Opteron", [
        "level 1: share none, cpus 0-3 (4): 2 L3 groups",
        "  level 2: share L3, cpus 0-1 (2): L3 group",
        "  level 2: share L3, cpus 2-3 (2): L3 group"], policy=POLICY_UNIFORM)


def test_small_hybrid(ctx):
    expect_tree(ctx, "small-hybrid", 4, r"machine file small hybrid", [
        "level 1: share L3, cpus 0-3 (4): 1 P-core SMT group, 1 E-core module",
        "  level 2: share L2, cpus 0-1 (2), SMT: P-core SMT group",
        "  level 2: share L2, cpus 2-3 (2): E-core module"])


def test_plain_smp_uses_cpuid(ctx):
    # QEMU 7.2's TCG CPU is AuthenticAMD without leaf 4 (ours: nothing
    # shared), with CmpLegacy, 0x80000008 ECX = 0x2003 and L1/L2/L3 sizes:
    # FreeBSD's topo_probe_amd gives one leaf sharing the L3.
    expect_tree(ctx, "smp", 4, r"CPUID", [
        "tree: mosaic, from every CPU's descriptor",
        "level 1: share none, cpus 0-3 (4): CPU group",
        "tree: freebsd, FreeBSD's x86 cpu_topo() from CPU 0's AMD leaves 0x80000001-0x8000001E",
        "  APIC id shifts: package >> 2, L3 >> 2, L2 >> 0, L1 >> 0, core >> 0",
        "level 1: share L3, cpus 0-3 (4): L3 group"], script="topo; topo freebsd; poweroff",
        policy=POLICY_UNIFORM)


def test_cpus_cpuid_and_topology_spec(ctx):
    # The scheduler on FreeBSD's tree: from small-hybrid's layout it is ours.
    m = boot_preset(ctx, "small-hybrid",
                    "cpus; cpuid 0 0 0; cpuid 1 0 3; cpuid 1 0 9; sysctl kern.sched.topology_spec; topo; poweroff",
                    cmdline="kern.sched.topology=freebsd")
    m.expect(r"sched: kern.sched.topology=freebsd: FreeBSD's cpu_group tree from CPU 0's CPUID")
    m.expect(r"mosaic> cpus")
    for cpu, apic, kind in [(0, 0, "P"), (1, 1, "P"), (2, 2, "E"), (3, 3, "E")]:
        m.expect(r"\n\s+%d 0x%04x %s\s.*yes" % (cpu, apic, kind))
    m.expect(r"4 CPUs, 4 online; descriptors from machine description")
    m.expect(r"cpu 0 leaf 0x0 sub 0x0: eax=0x[0-9a-f]{8} ebx=")
    # CPUID 1 EBX[31:24] is the initial APIC id of the CPU that ran it.
    mm = m.expect(r"cpu 3 leaf 0x1 sub 0x0: eax=0x[0-9a-f]{8} ebx=0x([0-9a-f]{2})")
    check(int(mm.group(1), 16) == 3, "cpuid ran on APIC id %s, not 3" % mm.group(1))
    m.expect(r"cpuid: CPU: 9 is outside 0\.\.3")
    m.expect(r"kern.sched.topology_spec: <groups>")
    m.expect(r'<group level="1" cache-level="3">')
    m.expect(r'<cpu count="4" mask="f[^"]*">0, 1, 2, 3</cpu>')
    m.expect(r'<flag name="SMT">SMT group</flag>')
    m.expect(r"</groups>")
    m.expect(r"mosaic> topo\r\n")
    m.expect(r"tree: freebsd, FreeBSD's x86 cpu_topo\(\) from CPU 0's leaf 0x1F and leaf 4\r\n")
    m.expect(r"  APIC id shifts: package >> 3, L3 >> 3 \(8 sharing\), L2 >> 2 \(4 sharing\), "
             r"L1 >> 1 \(2 sharing\), core >> 1\r\n")
    m.expect(r"level 1: share L3, cpus 0-3 \(4\): 1 P-core SMT group, 1 E-core module\r\n")
    check(m.wait_exit() == 0, "did not power off")
