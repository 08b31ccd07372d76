# SPDX-License-Identifier: BSD-2-Clause
"""build/mosaic.iso boots through GRUB from an emulated USB stick
(qemu-xhci + usb-storage) into the shell."""
import os


def test_iso_boots_from_usb_stick(ctx):
    m = ctx.machine(iso=os.path.join(ctx.build, "mosaic.iso"), esp=None)
    m.expect(r"Mosaic \S+ \(loader ", timeout=180)
    m.wait_prompt()
    out = m.command("version")
    assert "Mosaic" in out, out
