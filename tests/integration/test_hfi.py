# SPDX-License-Identifier: BSD-2-Clause
"""The HFI driver against the emulated HFI device (docs/hfi.md): on the
i7-1370p model (one boot shared by the first tests) the table shows the
description's 8 rows; a timed `event` and `hfi set` reach the driver
through the thermal interrupt and are published; `hfi storm 1000` leaves
the kernel running with counters that add up; bad injections change
nothing. On a small hybrid machine with Thread Director classes, a CPU
without a row and a timed event: classes shown, the row refused, the
freeze of kern.emul.hfi. On a plain SMP machine: "not supported"."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 65

I7 = os.path.join(ROOT, "machines", "i7-1370p.machine")
SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")

# The i7-1370p description's initial rows: (cpus, perf, ee).
I7_ROWS = [("0-1", 244, 80), ("2-3", 244, 80), ("4-5", 255, 80), ("6-7", 255, 80),
           ("8-9", 244, 80), ("10-11", 244, 80), ("12-15", 140, 200), ("16-19", 140, 200)]
# The test copy's event: row 7 becomes 180/190. It must come after the
# driver enables the table (1.7 s of guest time on an idle host, 6.3 s seen
# with two QEMU modules on 2 cores), or the enable's write carries it and
# no interrupt of its own is seen.
EVENT_MS = 15000
HELD_EVENT_MS = 10000  # small-itd's first event, which the freeze at boot holds back
WAIT_EVENT_MS = 16000  # its second, after the test's first part, for `hfi -w`


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def write_copy(ctx, src, name, extra, replace=()):
    """A copy of machine file src with lines replaced and extra lines added."""
    with open(src) as f:
        text = f.read()
    for old, new in replace:
        check(old in text, "%s has no %r" % (src, old))
        text = text.replace(old, new)
    path = os.path.join(ctx.log_dir, name)
    with open(path, "w") as f:
        f.write(text + extra)
    return path


def counters(out):
    """The driver's and the device's counters from `hfi`."""
    c = {}
    m = re.search(r"interrupts (\d+) = updates (\d+) \+ unchanged (\d+) \+ spurious (\d+) "
                  r"\+ busy (\d+)", out)
    check(m, "no driver counters in:\n" + out)
    c.update(zip(("interrupts", "updates", "unchanged", "spurious", "busy"), map(int, m.groups())))
    m = re.search(r"publications (\d+), coalesced (\d+)", out)
    check(m, "no publication counters in:\n" + out)
    c["publications"], c["pub_coalesced"] = map(int, m.groups())
    m = re.search(r"writes (\d+) = enables (\d+) \+ changes (\d+) - coalesced (\d+) - pending (\d+)",
                  out)
    check(m, "no device counters in:\n" + out)
    c.update(zip(("writes", "enables", "changes", "dev_coalesced", "pending"), map(int, m.groups())))
    m = re.search(r"LVT deliveries (\d+), masked (\d+), faults (\d+)", out)
    check(m, "no delivery counters in:\n" + out)
    c["deliveries"], c["masked"], c["faults"] = map(int, m.groups())
    return c


def check_invariants(c, out):
    """What the counters promise (docs/hfi.md) once nothing is in flight."""
    check(c["interrupts"] == c["updates"] + c["unchanged"] + c["spurious"] + c["busy"],
          "interrupts do not add up:\n" + out)
    check(c["writes"] == c["enables"] + c["changes"] - c["dev_coalesced"] - c["pending"],
          "device writes do not add up:\n" + out)
    check(c["updates"] + c["unchanged"] == c["writes"], "a device write was not handled once:\n" + out)
    check(c["publications"] + c["pub_coalesced"] == c["updates"], "publications do not add up:\n" + out)
    check(c["interrupts"] == c["deliveries"], "interrupts and LVT deliveries differ:\n" + out)
    check(c["faults"] == 0 and c["masked"] == 0, "the driver faulted or left an LVT masked:\n" + out)


def settled(m):
    """`hfi` once the interrupts in flight have landed (its counters add
    up), at most 5 s later; (output, counters)."""
    for _ in range(10):
        out = m.command("hfi")
        c = counters(out)
        try:
            check_invariants(c, out)
            return out, c
        except TestFailure:
            m.command("sleep 500")
    check_invariants(c, out)


def row_values(out, row):
    """(cpus, perf, ee) of a row's class 0 in `hfi`."""
    m = re.search(r"^\s+%d\s+(\S+)\s+(\d+)/(\d+)" % row, out, re.M)
    check(m, "no row %d in:\n%s" % (row, out))
    return m.group(1), int(m.group(2)), int(m.group(3))


def cpu_scores(out, cpu):
    """(perf, ee) `hfi` says were handed to hmp for cpu."""
    m = re.search(r"^\s*%d\s+0\s+\d+\s+(\d+)\s+(\d+)\s+ours" % cpu, out, re.M)
    check(m, "no published scores of cpu %d in:\n%s" % (cpu, out))
    return int(m.group(1)), int(m.group(2))


def uptime_ms(m):
    """The guest's time since boot, ms, from `uptime`."""
    out = m.command("uptime")
    up = re.search(r"^up (\d+)\.(\d{3}) s", out, re.M)
    check(up, "no uptime in:\n" + out)
    return int(up.group(1)) * 1000 + int(up.group(2))


def hfi_until(m, pattern, what, tries=60):
    """`hfi` again (0.5 s apart) until pattern appears; its output."""
    for _ in range(tries):
        out = m.command("hfi")
        if re.search(pattern, out, re.M):
            return out
        m.command("sleep 500")
    raise TestFailure("%s: never seen; last `hfi`:\n%s" % (what, out))


def check_hmp(m, cpu, perf, ee):
    """Once hmp is merged, `hmp` must show the HFI scores of cpu."""
    if "usage: hmp" not in m.command("help hmp"):
        return      # hmp not merged yet: nothing to check there
    out = m.command("hmp")
    line = re.search(r"^\s*%d\s.*$" % cpu, out, re.M)
    check(line and str(perf) in line.group(0) and str(ee) in line.group(0),
          "hmp does not show cpu %d at perf %d, ee %d:\n%s" % (cpu, perf, ee, out))


def setup(ctx):
    path = write_copy(ctx, I7, "i7-1370p-event.machine",
                      "event %d row=7 perf=180 ee=190\n" % EVENT_MS)
    m = ctx.machine(machine_file=path)
    m.expect(r"emul-hfi: device on: 8 rows, 1 class, CPUID.06H features hfi,pts, 1 page, 1 event",
             timeout=180)
    m.expect(r"hfi: 8 rows, 1 class, table 4096 bytes at 0x[0-9a-f]+, emulated")
    m.wait_prompt()
    return m


def test_sysctl_lists_cpus_in_numeric_order(ctx, m):
    """`sysctl -N kern.hmp.cpu` names the 20 CPUs' variables with their
    numbers in order (cpu.2 before cpu.10), as FreeBSD's sysctl does."""
    out = m.command("sysctl -N kern.hmp.cpu")
    cpus = [int(n) for n in re.findall(r"^kern\.hmp\.cpu\.(\d+)\.capacity\r?$", out, re.M)]
    check(cpus == list(range(20)), "CPUs listed as %s:\n%s" % (cpus, out[-2000:]))


def test_rows_of_the_description(ctx, m):
    hfi_until(m, r"publications [1-9]", "the first publication")
    out, c = settled(m)
    check("hfi: table of 8 rows, 1 class" in out, out)
    check("CPUID.06H: HFI yes, ITD no, PTS yes, 1 class, capabilities 0x3, 1 page" in out, out)
    check("itd: not present: CPUID.06H:EAX[23] clear" in out, out)
    check("emulated Thread Director" not in out, out)
    for row, (cpus, perf, ee) in enumerate(I7_ROWS[:7]):
        check(row_values(out, row) == (cpus, perf, ee), "row %d:\n%s" % (row, out))
    check(row_values(out, 7)[0] == "16-19", out)     # its values: before or after the event
    for cpu in range(12):
        row = cpu // 2
        check(cpu_scores(out, cpu) == (I7_ROWS[row][1] * 4, I7_ROWS[row][2] * 4), out)


def test_event_through_interrupt(ctx, m):
    out = hfi_until(m, r"^\s+7\s+16-19\s+180/190", "the event's row 7 in the driver's copy")
    check("events 1 of 1 applied" in out, out)
    hfi_until(m, r"^\s*16\s+0\s+7\s+720\s+760", "cpu 16's scores from the event")
    out, c = settled(m)
    if c["updates"] < 2:    # the event came with the enable's write
        stamp = re.search(r"last timestamp (\d+)", out)
        raise TestFailure("one table write (at %.3f s of guest time) carried both the enable and "
                          "the event at %d ms: the host was too slow to boot in time\n%s"
                          % (int(stamp.group(1)) / 1e9 if stamp else -1, EVENT_MS, out))
    check(c["changes"] >= 1, out)
    check_hmp(m, 16, 720, 760)


def test_set_through_interrupt(ctx, m):
    _, before = settled(m)
    check(m.command("hfi set 6 perf=90 ee=99").strip() == "", "hfi set printed something")
    hfi_until(m, r"^\s*12\s+0\s+6\s+360\s+396", "cpu 12's scores from hfi set")
    out, c = settled(m)
    check(row_values(out, 6) == ("12-15", 90, 99), out)
    check(c["interrupts"] > before["interrupts"] and c["updates"] == before["updates"] + 1 and
          c["publications"] > before["publications"], "no interrupt, update or publication:\n" + out)
    check_hmp(m, 12, 360, 396)
    for cpu in (13, 14, 15):
        check(cpu_scores(out, cpu) == (360, 396), out)


def test_bad_injections_change_nothing(ctx, m):
    before = counters(m.command("hfi"))
    for line, message in [
            ("hfi set 8 perf=1 ee=1", "hfi: set ROW: 8 is outside 0..7"),
            ("hfi set 1 perf=256 ee=1", "hfi: set perf: 256 is outside 0..255"),
            ("hfi set 1 perf=1 ee=x", "hfi: set ee: 'x' is not a number (0..255)"),
            ("hfi set 1 perf=1 ee=1 class=1", "hfi: set class: 1 is outside 0..0"),
            ("hfi set 1 perf=1 ee=1 colour=red", "hfi: set: unknown argument 'colour=red'"),
            ("hfi set 1 perf=1", "hfi: set: expected 'hfi set ROW perf=P ee=E [class=C]'"),
            ("hfi throttle 0-20", "hfi: throttle: cpus: 20 is outside 0..19"),
            ("hfi throttle 3 perf=300", "hfi: throttle perf: 300 is outside 0..255"),
            ("hfi storm 0", "hfi: storm N: 0 is outside 1..100000"),
            ("hfi storm 100001", "hfi: storm N: 100001 is outside 1..100000"),
            ("hfi restore now", "hfi: restore: takes no arguments"),
            ("hfi -w 0", "hfi: -w MS: 0 is outside 1..600000"),
            ("hfi frobnicate", "hfi: unknown argument 'frobnicate'")]:
        out = m.command(line)
        check(message in out, "%r printed %r, expected %r" % (line, out, message))
    after = counters(m.command("hfi"))
    check(after["changes"] == before["changes"], "a refused injection changed the device")


def test_storm(ctx, m):
    _, before = settled(m)
    m.command("hfi storm 1000", timeout=120)
    out, c = settled(m)
    check(c["changes"] == before["changes"] + 1000, out)
    check(c["dev_coalesced"] > before["dev_coalesced"], "nothing coalesced in a storm:\n" + out)
    check(row_values(out, 0) == ("0-1", 244, 80), "the storm did not end where it began:\n" + out)
    check("Mosaic" in m.command("version"), "the kernel does not answer after the storm")
    out = m.command("hfi restore")
    out = hfi_until(m, r"^\s+6\s+12-15\s+140/200", "row 6 restored")
    check(row_values(out, 7) == ("16-19", 140, 200), out)


def test_classes_none_row_and_freeze(ctx):
    """Small hybrid with 4 classes, CPU 1 without a row, an event at 10 s
    that the freeze at boot holds back, and one at 16 s that `hfi -w` waits
    for. The events are timed from boot, so the test checks that its freeze
    came first (a loaded host can take seconds of guest time to boot)."""
    path = write_copy(ctx, SMALL, "small-itd.machine", "event %d row=1 perf=201 ee=202 class3=7,8\n"
                      "event %d row=1 perf=150 ee=160\n" % (HELD_EVENT_MS, WAIT_EVENT_MS),
                      replace=[("hfi-rows 2\n", "hfi-rows 2\nhfi-classes 4\n"),
                               ("cpu 1   type=P    core=0   thread=1 module=0  llc=0    row=0",
                                "cpu 1   type=P    core=0   thread=1 module=0  llc=0    row=none"),
                               ("hfi 0 perf=255 ee=80", "hfi 0 perf=255 ee=80 class1=250,70 "
                                "class2=240,60 class3=200,50"),
                               ("hfi 1 perf=140 ee=200", "hfi 1 perf=140 ee=200 class1=100,190 "
                                "class2=90,180 class3=200,250")])
    m = ctx.machine(machine_file=path, run="sysctl kern.emul.hfi=0")
    m.expect(r"emul-hfi: device on: 2 rows, 4 classes, CPUID.06H features hfi,itd,pts, 1 page, 2 events",
             timeout=120)
    m.expect(r"hfi: cpu 1: row 65535 does not fit the table \(510 rows fit in 4096 bytes\): "
             r"its scores are ignored", timeout=120)
    m.expect(r"hfi: 2 rows, 4 classes, table 4096 bytes at 0x[0-9a-f]+, emulated")
    m.expect(r"kern.emul.hfi: 1 -> 0")
    m.wait_prompt()
    out = m.command("hfi")
    check("table: 4 classes (Thread Director on)" in out, out)
    check(re.search(r"^\s+0\s+0\s+255/80\s+250/70\s+240/60\s+200/50", out, re.M), out)
    check(re.search(r"^\s*1\s+0\s+65535\s+-\s+-\s+ours \(row beyond the table\)", out, re.M), out)
    check("emulated device: frozen" in out, out)
    check("frozen (sysctl kern.emul.hfi=0)" in m.command("hfi set 0 perf=1 ee=1"), "set while frozen")
    up = uptime_ms(m)
    check(up < HELD_EVENT_MS - 1000, "the shell froze the device only %d ms after boot, too close to "
          "the event at %d ms" % (up, HELD_EVENT_MS))
    m.command("sleep %d" % (HELD_EVENT_MS + 500 - up), timeout=120)
    out = m.command("hfi")
    check("events 0 of 2 applied" in out, "an event applied while frozen:\n" + out)
    m.command("sysctl kern.emul.hfi=1")
    out = hfi_until(m, r"^\s+1\s+2-3\s+201/202\s+100/190\s+90/180\s+7/8", "the held event")
    check("events 1 of 2 applied" in out, out)
    settled(m)
    # `hfi -w` waits for the second event's publication and names exactly
    # the CPUs of row 1 with their old and new scores (class 0, << 2).
    out = m.command("hfi -w 60000", timeout=120)
    check(re.search(r"^hfi: publication \d+ after \d+ ms\b", out, re.M), out)
    for cpu in (2, 3):
        check(re.search(r"^cpu %d: perf 804 -> 600, ee 808 -> 640\b" % cpu, out, re.M), out)
    check(not re.search(r"^cpu [01]:", out, re.M), "a CPU outside row 1 listed:\n" + out)


def test_smp_not_supported(ctx):
    m = ctx.machine(machine_file="smp")
    m.expect(r"hfi: not supported: CPUID.06H:EAX\[19\] clear", timeout=120)
    m.expect(r"itd: not present: the HFI is off \(not supported: CPUID.06H:EAX\[19\] clear\)")
    m.wait_prompt()
    out = m.command("hfi")
    check("hfi: not supported: CPUID.06H:EAX[19] clear" in out, out)
    check("itd: not present: the HFI is off" in out, out)
    check("emulated device" not in out, out)
    out = m.command("hfi set 0 perf=1 ee=1")
    check("hfi: set: no emulated HFI device" in out, out)
    out = m.command("hfi -w 100")
    check("hfi: not supported" in out, out)
