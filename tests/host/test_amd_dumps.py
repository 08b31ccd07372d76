# SPDX-License-Identifier: BSD-2-Clause
"""The replay of the AMD heterogeneous dumps in tests/data/cpuid/ against
an independent decode of the same leaves, written from AMD's APM (vol. 3,
CPUID Fn8000_0026 and Fn8000_001D) without the kernel's code: per logical
CPU the core type (Fn8000_0026 EBX[31:28] of the core level, when EAX[30]
is set at some level), the SMT sibling (x2APIC >> the core level's shift)
and the CCX / L3 (x2APIC >> log2 of Fn8000_001D's L3 sharing count) must
equal the `type`, `core` and `l3` columns `build/cpuid-replay --cpus`
prints. The dumps are split into CPUs by their own section lines
("Logical CPU #n", or InstLatx64's "Group: .. Affinity mask: .."), kept
here as simple as the format allows."""
import os
import re
import subprocess


DUMPS = {   # file: (CPUs, classic cores, dense cores, L3s)
    "RyzenAI9-HX370_StrixPoint_B20F40_CPUID.txt": (24, 4, 8, 2),
    "RyzenAI7PRO-350_KrackanPoint_B60F00_CPUID.txt": (16, 4, 4, 1),
    "RyzenZ1_Phoenix2_A70F80_CPUID.txt": (12, 0, 0, 1),
}
LINE = re.compile(r"CPUID ([0-9A-F]{8}): ([0-9A-F]{8})-([0-9A-F]{8})-([0-9A-F]{8})-([0-9A-F]{8})"
                  r"\s*(?:\[SL ([0-9A-F]+)\])?")


def split_cpus(text):
    """{cpu number: {(leaf, sub): regs}} from the dump's CPUID sections."""
    cpus, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"CPUID Registers / Logical CPU #(\d+)", line)
        g = re.match(r"Group: 0x([0-9A-F]+) Affinity mask: 0x([0-9A-F]{16})", line)
        if m:
            cur = cpus.setdefault(int(m.group(1)), {})
        elif g:
            mask = int(g.group(2), 16)
            cur = cpus.setdefault(int(g.group(1), 16) * 64 + mask.bit_length() - 1, {})
        elif re.match(r"------\[", line):
            cur = None
        elif cur is not None:
            m = LINE.match(line)
            if m:
                leaf, sub = int(m.group(1), 16), int(m.group(6) or "0", 16)
                cur.setdefault((leaf, sub), [int(m.group(i), 16) for i in range(2, 6)])
    return cpus


def decode(leaves):
    """(x2APIC id, type 'P'/'E'/'-', core id, L3 id) of one CPU."""
    levels = [leaves[(0x80000026, s)] for s in range(8) if (0x80000026, s) in leaves]
    levels = [r for r in levels if (r[2] >> 8) & 0xFF]
    apic = levels[0][3]
    hetero = any(r[0] >> 30 & 1 for r in levels)
    core = [r for r in levels if (r[2] >> 8) & 0xFF == 1][0]
    ctype = "-" if not hetero else {0: "P", 1: "E"}[core[1] >> 28]
    l3 = [leaves[(0x8000001D, s)] for s in range(8) if (0x8000001D, s) in leaves
          and (leaves[(0x8000001D, s)][0] >> 5) & 7 == 3][0]
    sharing = ((l3[0] >> 14) & 0xFFF) + 1
    return apic, ctype, apic >> (core[0] & 0x1F), apic >> (sharing - 1).bit_length()


def replay_table(ctx, path):
    """{cpu: (apic, type, core, l3)} from the replay tool's `cpus` table."""
    out = subprocess.run([os.path.join(ctx.build, "cpuid-replay"), "--cpus", path],
                         capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 11 and f[0].isdigit():
            rows[int(f[0])] = (int(f[1], 16), f[2], int(f[4]), int(f[8]))
    return rows


def test_amd_dumps_match_an_independent_decode(ctx):
    for name, (ncpu, nclassic, ndense, nl3) in DUMPS.items():
        path = os.path.join(ctx.root, "tests", "data", "cpuid", name)
        with open(path) as f:
            mine = {c: decode(l) for c, l in split_cpus(f.read()).items()}
        theirs = replay_table(ctx, path)
        assert len(mine) == ncpu, (name, len(mine))
        assert mine == theirs, (name, mine, theirs)
        cores = {}
        for apic, ctype, core, l3 in mine.values():
            cores.setdefault(core, set()).add((ctype, l3))
        assert all(len(v) == 1 for v in cores.values()), (name, "an SMT pair split", cores)
        types = [next(iter(v))[0] for v in cores.values()]
        assert types.count("P") == nclassic and types.count("E") == ndense, (name, types)
        assert len({l3 for _, _, _, l3 in mine.values()}) == nl3, name
        # Strix Point: every dense core in the other CCX than the classic ones.
        if nl3 == 2:
            by_type = {}
            for _, ctype, _, l3 in mine.values():
                by_type.setdefault(ctype, set()).add(l3)
            assert len(by_type["P"]) == 1 and len(by_type["E"]) == 1, by_type
            assert by_type["P"] != by_type["E"], by_type
