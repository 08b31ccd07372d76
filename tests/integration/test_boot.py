# SPDX-License-Identifier: BSD-2-Clause
"""Booting to the shell prompt on one and on four CPUs, from the ESP image."""


def boot_and_check(ctx, smp):
    m = ctx.machine(smp=smp)
    m.expect(r"Mosaic \S+ \(loader ", timeout=120)
    m.expect(r"smp: %d of %d CPUs online" % (smp, smp), timeout=120)
    m.wait_prompt()
    out = m.command("version")
    assert "Mosaic" in out, out
    out = m.command("sysctl kern.smp.online")
    assert "kern.smp.online: %d" % smp in out, out


def test_boot_1_cpu(ctx):
    boot_and_check(ctx, 1)


def test_boot_4_cpus(ctx):
    boot_and_check(ctx, 4)
