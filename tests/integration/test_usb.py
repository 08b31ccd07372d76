# SPDX-License-Identifier: BSD-2-Clause
"""The NUC's situation under QEMU: build/mosaic.iso boots from an emulated
USB stick on a qemu-xhci controller, with no PS/2 controller (i8042=off)
and a serial port that only prints; every key comes from a USB keyboard
(usb-kbd on the same controller) typed through the QEMU monitor's
`sendkey`. One machine serves the tests of this file, in order."""
import os
import re

import screen
import usbkeys

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 65

# What the keyboard types to run a benchmark: a short one, ule then hmp.
BENCH_LINE = "bench cpu --threads 2 --runs 1 --time 1"


def setup(ctx):
    m = ctx.machine(iso=os.path.join(ctx.build, "mosaic.iso"), esp=None, smp=2,
                    qemu_run_args=["--usb-kbd", "--no-ps2", "--no-serial-input"])
    m.expect(r"ps2kbd: no i8042 controller", timeout=180)
    m.expect(r"usb: \S+ port \d+: 0627:0001, \w+ speed, class 3, keyboard", timeout=60)
    m.wait_prompt()
    return m


def test_keys_reach_the_shell(ctx, m):
    out = usbkeys.command(m, "version")
    assert re.search(r"Mosaic \S+ \(x86_64", out), out


def test_sysinfo_typed(ctx, m):
    out = usbkeys.command(m, "sysinfo")
    assert re.search(r"cpus: +2 online", out), out
    assert re.search(r"firmware: +EDK II", out), out


def test_stick_and_keyboard_on_msi(ctx, m):
    out = usbkeys.command(m, "usb")
    assert re.search(r"interrupts MSI-X", out), out
    assert re.search(r"port \d+ \(USB \d\): slot \d+, 46f4:0001, \w+ speed, class 8, storage da0", out), out
    assert re.search(r"^da0: port \d+, QEMU QEMU HARDDISK .*writable; \d+ reads, \d+ writes, \d+ retries, "
                     r"0 failures", out.replace("\r", ""), re.M), out
    assert re.search(r"class 3, keyboard", out), out
    assert "0 malformed" in out, out


def test_shift_symbols_and_line_editing(ctx, m):
    # Shift, symbols; Backspace and Left/Home editing; then history (Up).
    usbkeys.type_text(m, "echo Hi_there+1 xy")
    usbkeys.send(m, "backspace")
    usbkeys.send(m, "home")
    for _ in range(5):
        usbkeys.send(m, "right")
    usbkeys.type_text(m, "<")
    usbkeys.send(m, "ret")
    m.expect(r"\n<Hi_there\+1 x\r?\n", timeout=30)
    m.wait_prompt()
    usbkeys.send(m, "up")
    usbkeys.send(m, "ret")
    m.expect(r"\n<Hi_there\+1 x\r?\n", timeout=30)
    m.wait_prompt()


def test_shift_page_keys_scroll_the_console_back(ctx, m):
    # The keyboard's Shift-PgUp shows the scrollback (the status line says
    # how far back); Shift-PgDn a page later is the live screen again.
    usbkeys.command(m, "help")
    shot = os.path.join(ctx.build, "test-logs", "usb-scrollback.ppm")
    usbkeys.send(m, "shift-pgup")
    bottom = screen.status_colours(m, shot, lambda colours: screen.SCROLLBACK in colours)
    assert screen.SCROLLBACK in bottom, "no scrollback mark: %s" % sorted(bottom)[:20]
    usbkeys.send(m, "shift-pgdn")
    bottom = screen.status_colours(m, shot, lambda colours: screen.SCROLLBACK not in colours)
    assert screen.SCROLLBACK not in bottom, "still in the scrollback after Shift-PgDn"


def test_ctrl_c_cancels_the_line(ctx, m):
    usbkeys.type_text(m, "echo never")
    usbkeys.send(m, "ctrl-c")
    out = usbkeys.command(m, "echo after")
    assert "after" in out and "never" not in out, out


def test_caps_lock_led_and_letters(ctx, m):
    usbkeys.send(m, "caps_lock")
    for k in "usb":                     # Shift undoes Caps Lock
        usbkeys.send(m, "shift-" + k)
    usbkeys.send(m, "ret")
    m.expect(r"keyboard on port \d+: .*LEDs 0x3", timeout=30)   # Num + Caps
    m.wait_prompt()
    for k in "echo":
        usbkeys.send(m, "shift-" + k)
    usbkeys.type_text(m, " abc")
    usbkeys.send(m, "ret")
    m.expect(r"\nABC\r?\n", timeout=30)
    m.wait_prompt()
    usbkeys.send(m, "caps_lock")
    out = usbkeys.command(m, "usb")
    assert re.search(r"keyboard on port \d+: .*LEDs 0x1", out), out   # Num Lock only again


def test_typematic_repeat(ctx, m):
    usbkeys.type_text(m, "echo ")
    usbkeys.send(m, "x", hold_ms=1500)     # held past the 500 ms delay
    usbkeys.send(m, "ret")
    mm = m.expect(r"\n(x+)\r?\n", timeout=30)
    assert len(mm.group(1)) >= 3, mm.group(0)
    m.wait_prompt()
    out = usbkeys.command(m, "usb")
    assert not re.search(r" 0 repeats", out), out


def test_unplug_and_replug(ctx, m):
    m.monitor("device_del kbd")
    m.expect(r"usb: \S+ port \d+: 0627:0001 disconnected", timeout=30)
    m.monitor("device_add usb-kbd,bus=xhci.0,id=kbd")
    m.expect(r"usb: \S+ port \d+: 0627:0001, \w+ speed, class 3, keyboard", timeout=30)
    out = usbkeys.command(m, "version")
    assert "Mosaic" in out, out


def test_bench_through_the_keyboard(ctx, m):
    out = usbkeys.command(m, BENCH_LINE, timeout=120).replace("\r", "")
    done = re.findall(r"^bench: run (\d) of 2: cpu (ule|hmp), 2 threads[^:]*: [\d.]+ .*; check ok", out, re.M)
    assert [p for _, p in done] == ["ule", "hmp"], out[-3000:]
    assert "panic" not in out and "EXCEPTION" not in out, out[-3000:]
