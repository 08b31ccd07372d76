"""Loader errors before the kernel runs: a clear message on the console, then
control goes back to the firmware (OVMF falls through to its UEFI shell)."""
import os
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
