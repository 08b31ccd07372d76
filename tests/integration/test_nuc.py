# SPDX-License-Identifier: BSD-2-Clause
"""What a user of the NUC sees, under QEMU: the console at 1920x1080 and
3840x2160 (the loader sets a mode other than the firmware's first, the
font grows, the status line shows per-CPU load by core type on the
framebuffer and never on the serial port; Shift-PgUp on the PS/2 keyboard
shows the scrollback, which reaches back past a sweep's 113 lines), and
each GRUB entry of
build/mosaic.iso booting to its first output (the stock-ULE shell, safe mode on a machine
without HPET, PIT and PIC, so the TSC comes from the ACPI PM timer; the
shell entry is test_iso.py's, the quick benchmark test_bench_grub.py's)."""
import os
import re
import subprocess
import time

from screen import E_CORE, P_CORE, SCROLLBACK, colours_in_rows, screendump, status_colours

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 110

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def boot_at(ctx, mode, cells, font):
    m = ctx.machine(machine_file="small-hybrid", cmdline="video=" + mode,
                    qemu_run_args=["--vga", "3840x2160"])
    mm = m.expect(r"graphics: switched to mode (\d+), %s: the requested mode" % mode, timeout=120)
    assert mm.group(1) != "0", mm.group(0)
    mm = m.expect(r"fbcon: %s, %s cells, PSF2 font %s, status line on the last row, "
                  r"scrollback 4096 lines \((\d+) KiB\)" % (mode, cells, font), timeout=60)
    cols, rows = map(int, cells.split("x"))     # the status line is the last of rows
    assert int(mm.group(1)) == cols * (rows - 1 + 4096) * 2 // 1024, mm.group(0)
    # The boot summary, before the prompt.
    m.expect(r"==== Mosaic system summary ====", timeout=60)
    m.expect(r"cpus: +4 online: 2 P \(1 cores\), 2 E, 0 LP-E", timeout=10)
    m.expect(r"hfi: +present \(CPUID.06H\), enabled", timeout=10)
    m.expect(r"policy: +hmp \(sysctl kern.sched.policy\)", timeout=10)
    m.expect(r"firmware: +EDK II, UEFI revision", timeout=10)
    m.wait_prompt()
    m.command("spawn 3 cpu ms=20000")
    m.command("sleep 1000")          # guest time: the status line redraws twice a second
    width, height = map(int, mode.split("x"))
    glyph_h = int(font.split("x")[1])
    status_y = (height // glyph_h - 1) * glyph_h       # the last whole character row
    # A host that starves the vCPU drawing the line can delay it past the
    # guest's second: look again until the line is there (or 60 s pass).
    deadline = time.monotonic() + 60
    while True:
        ppm = screendump(m, os.path.join(ctx.build, "test-logs", "nuc-%s.ppm" % mode),
                         width, height)
        bottom = colours_in_rows(ppm, status_y, status_y + glyph_h)
        if (P_CORE in bottom and E_CORE in bottom) or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert P_CORE in bottom and E_CORE in bottom, sorted(bottom)[:20]
    above = colours_in_rows(ppm, 0, status_y)
    assert P_CORE not in above, "status colours outside the status line"
    with m.lock:
        assert "| HFI " not in m.output and "LP E-core" not in m.output, "status line on serial"
    return m


def test_console_at_1920x1080(ctx):
    m = boot_at(ctx, "1920x1080", "160x44", "12x24")
    # The seed report's sweep prints 113 lines: three pages back on the
    # 43 rows of text (a page is 42) reach its start. help and sysctl -a
    # print more.
    out = m.command("help", timeout=60) + m.command("sysctl -a", timeout=60)
    assert out.count("\n") > 3 * 42, out
    for _ in range(3):
        m.monitor("sendkey shift-pgup")
    shot = os.path.join(ctx.build, "test-logs", "nuc-scrollback.ppm")
    bottom = status_colours(m, shot, lambda colours: SCROLLBACK in colours)
    assert SCROLLBACK in bottom, "no scrollback mark on the status line: %s" % sorted(bottom)[:20]
    out = m.command("sysctl kern.console.scrollback")   # serial input leaves the view alone
    mm = re.search(r"view (\d+) lines back, (\d+) lines kept", out)
    assert mm and int(mm.group(1)) >= 3 * 42 >= 113, out
    m.monitor("sendkey ret")                # a key that types: the live screen again
    m.wait_prompt(30)
    bottom = status_colours(m, shot, lambda colours: SCROLLBACK not in colours)
    assert SCROLLBACK not in bottom, "the scrollback mark stayed after a key"


def test_console_at_3840x2160(ctx):
    boot_at(ctx, "3840x2160", "240x66", "16x32")


def iso_with_default(ctx, entry):
    """build/mosaic.iso with `set default=ENTRY`: a copy made with
    tools/make-iso.sh from iso/grub.cfg."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    assert "\nset default=0\n" in cfg
    assert re.search(r'--id %s \{' % re.escape(entry), cfg), "no menu entry " + entry
    tmp = os.path.join(ctx.build, "test-iso")
    os.makedirs(tmp, exist_ok=True)
    cfg_path = os.path.join(tmp, "grub-%s.cfg" % entry)
    with open(cfg_path, "w") as f:
        f.write(cfg.replace("\nset default=0\n", "\nset default=%s\n" % entry))
    iso = os.path.join(tmp, "mosaic-%s.iso" % entry)
    subprocess.run([os.path.join(ROOT, "tools", "make-iso.sh"), iso,
                    os.path.join(ctx.build, "esp.img"), cfg_path], check=True,
                   capture_output=True, timeout=120)
    return iso


def boot_entry(ctx, entry, more_args=(), **kw):
    return ctx.machine(iso=iso_with_default(ctx, entry), esp=None,
                       qemu_run_args=["--usb-kbd", "--no-ps2"] + list(more_args), **kw)


def test_grub_benchmark_suite_entry(ctx):
    m = boot_entry(ctx, "bench", smp=2)
    m.expect(r"cmdline: video=auto run=\"echo Mosaic benchmark suite", timeout=180)
    m.expect(r"\nMosaic benchmark suite: ule vs hmp, HFI on\r?\n", timeout=120)
    m.expect(r"bench: run 1 of 168: cpu ule, 4 threads", timeout=60)


def test_grub_benchmark_suite_hfi_off_entry(ctx):
    m = boot_entry(ctx, "bench-hfi-off", machine_file="small-hybrid")
    m.expect(r"cmdline: video=auto hfi=off run=", timeout=180)
    m.expect(r"hfi: off \(hfi=off on the command line\)", timeout=120)
    m.expect(r"\nMosaic benchmark suite: ule vs hmp, HFI off\r?\n", timeout=60)
    m.expect(r"bench: run 1 of 168: cpu ule, 4 threads", timeout=60)


def test_grub_stock_ule_shell_entry(ctx):
    """The shell entry with stock ULE: the tunable kern.sched.policy=ule
    sets the policy at boot, before the summary, which says so."""
    m = boot_entry(ctx, "shell-ule", machine_file="small-hybrid")
    m.expect(r"cmdline: video=auto kern.sched.policy=ule\r?\n", timeout=180)
    m.expect(r"cmdline: tunable kern.sched.policy: hmp -> ule", timeout=120)
    m.expect(r"policy: +ule \(sysctl kern.sched.policy\)", timeout=60)
    m.wait_prompt()
    assert re.search(r"policy: +ule \(sysctl kern.sched.policy\)", m.command("sysinfo")), m.output[-2000:]


def test_grub_safe_mode_entry_without_hpet_pit_or_pic(ctx):
    """Safe mode, on a machine that (like newer platforms) hides the HPET
    and the legacy PIT and PIC: the TSC is measured against the ACPI PM
    timer, each fallback logged with its reason, and the tick runs."""
    m = boot_entry(ctx, "safe", machine_file="small-hybrid",
                   more_args=["--machine-opts", "hpet=off,pit=off,pic=off"])
    m.expect(r"graphics: keeping mode \d+, \d+x\d+: the current mode \(video=keep\)", timeout=180)
    m.expect(r"machine: emul=off", timeout=60)
    m.expect(r"lapic: id 0, xAPIC mode \(as the firmware left it\)", timeout=60)
    m.expect(r"time: CPUID 0x15 gives no crystal frequency; trying HPET", timeout=30)
    m.expect(r"time: no usable HPET; trying ACPI PM timer", timeout=30)
    m.expect(r"time: TSC \d+\.\d+ MHz from ACPI PM timer", timeout=30)
    m.expect(r"lapic: no TSC-deadline mode \(CPUID.1:ECX\[24\]\); periodic timer", timeout=30)
    m.expect(r"smp: 1 of 1 CPUs online", timeout=60)
    m.expect(r"topology source: CPUID", timeout=60)
    m.expect(r"hfi: off \(hfi=off", timeout=60)
    m.expect(r"firmware: .*; APIC xAPIC, tick periodic", timeout=60)
    m.wait_prompt()
    first = int(re.search(r"min (\d+)", m.command("sysctl kern.smp.ticks")).group(1))
    m.command("sleep 300")
    later = re.search(r"min (\d+)", m.command("sysctl kern.smp.ticks"))
    assert int(later.group(1)) > first, later.group(0)
