# SPDX-License-Identifier: BSD-2-Clause
"""Loader errors before the kernel runs: a clear message on the console, then
control goes back to the firmware (OVMF falls through to its UEFI shell)."""
import os
import struct
import subprocess
import tempfile

from qemu import TestFailure


def broken_esp(ctx, name, kernel_bytes):
    """A copy of the boot image whose \\mosaic\\kernel.elf is kernel_bytes
    (None: no kernel at all)."""
    path = os.path.join(ctx.log_dir, name + ".img")
    subprocess.run(["cp", os.path.join(ctx.build, "esp.img"), path], check=True)
    subprocess.run(["mdel", "-i", path, "::/mosaic/kernel.elf"], check=True)
    if kernel_bytes is not None:
        with tempfile.NamedTemporaryFile() as f:
            f.write(kernel_bytes)
            f.flush()
            subprocess.run(["mcopy", "-i", path, f.name, "::/mosaic/kernel.elf"], check=True)
    return path


def expect_back_in_firmware(m):
    m.expect(r"mosaic-loader: error: boot failed \(.*\); returning to the firmware")
    m.expect(r"BdsDxe: failed to start Boot\d+ ", timeout=30)   # OVMF's boot manager goes on


def test_missing_kernel(ctx):
    m = ctx.machine(esp=broken_esp(ctx, "no-kernel", None))
    m.expect(r"mosaic-loader: error: kernel \\mosaic\\kernel\.elf not found")
    expect_back_in_firmware(m)
    if "Mosaic " in m.output and "(loader " in m.output:
        raise TestFailure("the kernel ran without a kernel file")


def test_truncated_kernel(ctx):
    with open(os.path.join(ctx.build, "kernel.elf"), "rb") as f:
        head = f.read(6000)
    m = ctx.machine(esp=broken_esp(ctx, "short-kernel", head))
    m.expect(r"mosaic-loader: error: .*(truncated|outside the file|beyond)")
    expect_back_in_firmware(m)


def test_not_an_elf(ctx):
    m = ctx.machine(esp=broken_esp(ctx, "text-kernel", b"this is not a kernel\n" * 100))
    m.expect(r"mosaic-loader: error: .*no ELF magic")
    expect_back_in_firmware(m)


def test_writable_executable_kernel(ctx):
    """A kernel whose code segment is also writable is refused (W^X)."""
    with open(os.path.join(ctx.build, "kernel.elf"), "rb") as f:
        elf = bytearray(f.read())
    phoff, = struct.unpack_from("<Q", elf, 32)
    for i in range(struct.unpack_from("<H", elf, 56)[0]):
        ptype, flags = struct.unpack_from("<II", elf, phoff + 56 * i)
        if ptype == 1 and flags & 1:     # the PT_LOAD with PF_X
            struct.pack_into("<I", elf, phoff + 56 * i + 4, flags | 2)
            break
    else:
        raise TestFailure("build/kernel.elf has no executable segment")
    m = ctx.machine(esp=broken_esp(ctx, "wx-kernel", bytes(elf)))
    m.expect(r"mosaic-loader: error: \\mosaic\\kernel\.elf: segment %d at 0x[0-9A-F]+ is writable "
             r"and executable" % i)
    expect_back_in_firmware(m)
