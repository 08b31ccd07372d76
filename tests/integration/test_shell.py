# SPDX-License-Identifier: BSD-2-Clause
"""Every shell command, bad input, line editing and both input devices, on
one booted machine (4 CPUs, monitor socket for PS/2 key injection)."""
import os
import re
import subprocess
import time

from qemu import PROMPT, ROOT, TestFailure


def setup(ctx):
    m = ctx.machine(smp=4, cmdline='test.word="two words" flag panic=exti sched=of')
    m.wait_prompt()
    return m


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def test_help_lists_every_command(ctx, m):
    out = m.command("help")
    for cmd in ["help", "version", "echo", "mem", "uptime", "cmdline", "dmesg", "sysctl", "reboot",
                "poweroff", "exit", "panic", "fault"]:
        check(re.search(r"^\s+%s\s+\S" % cmd, out, re.M), "help does not list %s:\n%s" % (cmd, out))


def test_dash_h_prints_usage(ctx, m):
    out = m.command("sysctl -h")
    check("usage: sysctl" in out, out)
    out = m.command("help echo")
    check("usage: echo [word ...]" in out, out)


def test_version(ctx, m):
    out = m.command("version")
    check(re.search(r"Mosaic \S+ \(x86_64, built ", out), out)


def test_echo_keeps_quoted_words(ctx, m):
    out = m.command('echo hello   "big  world"')
    check(out.strip() == "hello big  world", repr(out))


def test_mem_reports_consistent_numbers(ctx, m):
    out = m.command("mem")
    def kib(label):
        mm = re.search(r"%s\s+(\d+) KiB" % label, out)
        check(mm, "no '%s' in mem output:\n%s" % (label, out))
        return int(mm.group(1))
    managed, free, used = kib("managed"), kib("free"), kib("used")
    check(managed > 256 * 1024, "less than 256 MiB managed of 512 MiB:\n" + out)
    check(managed == free + used, "managed != free + used:\n" + out)
    check(kib("reclaimed from boot") > 0, "no boot memory reclaimed:\n" + out)
    check(kib("arena") > 0, out)


def test_uptime_advances(ctx, m):
    def ticks():
        out = m.command("uptime")
        mm = re.search(r"up (\d+)\.(\d+) s .*, (\d+) timer ticks", out)
        check(mm, out)
        return int(mm.group(1)) * 1000 + int(mm.group(2)), int(mm.group(3))
    ms1, t1 = ticks()
    time.sleep(1.5)
    ms2, t2 = ticks()
    check(ms2 > ms1 and t2 > t1, "uptime did not advance: %d/%d -> %d/%d" % (ms1, t1, ms2, t2))


def test_cmdline_shows_parsed_words(ctx, m):
    out = m.command("cmdline")
    check('test.word = "two words"' in out, out)
    check('flag = ""' in out, out)


def test_cmdline_warnings(ctx, m):
    """Unknown keys and refused values are reported at boot with what is
    used instead, and again by `cmdline`; the defaults are in force."""
    warnings = ["cmdline: unknown key 'flag' ignored",
                "cmdline: panic=exti: expected halt|reboot|exit; using halt",
                "cmdline: sched=of: expected on|off; using on"]
    with m.lock:
        boot = m.output[:m.output.index(PROMPT)]
    out = m.command("cmdline")
    for w in warnings:
        check(w in boot, "boot log lacks %r:\n%s" % (w, boot[-3000:]))
        check(w in out, "cmdline lacks %r:\n%s" % (w, out))
    # a dotted key is a tunable (a sysctl set at boot): this one names none
    tunable = "cmdline: tunable test.word=two words not set: no such sysctl"
    check(tunable in boot, "boot log lacks %r:\n%s" % (tunable, boot[-3000:]))
    out = m.command("ps")
    check(" main " in out, "sched=of did not leave the scheduler on:\n" + out)


def test_dmesg_replays_boot_log(ctx, m):
    out = m.command("dmesg")
    check(re.search(r"^Mosaic \S+ \(loader ", out, re.M), "no banner in dmesg:\n" + out[:2000])
    check("shell: " in out or "ps2kbd:" in out, out[-2000:])


def test_sysctl_read_list_and_write(ctx, m):
    out = m.command("sysctl kern.ostype")
    check(out.strip() == "kern.ostype: Mosaic", repr(out))
    out = m.command("sysctl -a")
    for name in ["hw.pagesize", "hw.physmem", "kern.ostype", "kern.shell.prompt", "kern.version"]:
        check(name + ":" in out, "sysctl -a lacks %s:\n%s" % (name, out))
    names = re.findall(r"^(\S+):", out, re.M)
    by_value = lambda n: [int(w) if w.isdigit() else w for w in re.split(r"(\d+)", n)]
    check(names == sorted(names, key=by_value), "sysctl -a is not sorted: %s" % names)
    out = m.command("sysctl kern")
    check("kern.ostype: Mosaic" in out and "hw." not in out, out)
    out = m.command("sysctl kern.shell.prompt=test#", prompt="test#")
    check("kern.shell.prompt: mosaic>  -> test#" in out, out)
    out = m.command('sysctl "kern.shell.prompt=mosaic> "')
    check("-> mosaic> " in out, out)


def test_sched_sysctls_are_the_variable_table(ctx, m):
    """Every variable of kernel/sched/sched_vars.def is a kern.sched.*
    sysctl of the booted kernel holding the table's default (hz = 100), as
    schedsim's generated docs tables give them; the words of a choice and
    the range of a number are what the kernel accepts."""
    rows = []
    for which in ("ule", "hmp"):
        table = subprocess.run([os.path.join(ROOT, "build", "schedsim"), "--vars-markdown", which],
                               check=True, capture_output=True, text=True).stdout
        rows += re.findall(r"^\| `(kern\.sched\.[\w.]+)` \| (\w+)[^|]*\| ([^|]+) \|", table, re.M)
    check(len(rows) >= 30, rows)
    out = m.command("sysctl kern.sched")
    got = dict(re.findall(r"^(kern\.sched\.[\w.]+): (.*?)\r?$", out, re.M))
    for name, default, values in rows:
        check(got.get(name) == default, "%s: kernel %r, table %r\n%s" % (name, got.get(name), default, out))
        lo_hi = re.match(r"(\d+)\.\.(\d+)", values.strip())
        if lo_hi:
            bad = int(lo_hi.group(2)) + 1
            reply = m.command("sysctl %s=%d" % (name, bad))
            check("%d is outside %s" % (bad, lo_hi.group(0)) in reply, reply)
        else:
            words = values.replace(" or a CPU list (kernel)", "").strip().split(", ")
            reply = m.command("sysctl %s=nosuch" % name)
            if "CPU list" in values:
                check("is not %s or a CPU list" % ", ".join(words) in reply, reply)
            else:
                check("is not one of %s" % "|".join(words) in reply, reply)
    check(got.get("kern.sched.quantum") == "100000" and got.get("kern.sched.name") == "ULE", out)


def test_sysctl_flags_as_freebsd(ctx, m):
    """-d the description, -n the value alone, -N the name alone, -q no
    message for an unknown name (still a failure), flags combined."""
    check(m.command("sysctl -d kern.ostype").strip() == "kern.ostype: operating system name",
          m.command("sysctl -d kern.ostype"))
    check(m.command("sysctl -n kern.ostype").strip() == "Mosaic", m.command("sysctl -n kern.ostype"))
    check(m.command("sysctl -dn kern.ostype").strip() == "operating system name", "-dn")
    out = m.command("sysctl -N hw")
    check("hw.pagesize\r\n" in out and ":" not in out, out)
    out = m.command("sysctl -q no.such.oid kern.ostype")
    check("unknown oid" not in out and "kern.ostype: Mosaic" in out, out)
    out = m.command("sysctl -n kern.shell.prompt=test#", prompt="test#")
    check(out.strip() == "mosaic>  -> test#", repr(out))
    m.command('sysctl "kern.shell.prompt=mosaic> "')
    out = m.command("sysctl -x kern.ostype")
    check("sysctl: unknown flag '-x'" in out and "usage: sysctl" in out, out)
    check("usage: sysctl" in m.command("sysctl -a kern.ostype"), "-a with a name")


def test_sysctl_bad_input(ctx, m):
    out = m.command("sysctl no.such.oid")
    check("sysctl: unknown oid 'no.such.oid'" in out, out)
    out = m.command("sysctl kern.ostype=Linux")
    check("kern.ostype is read-only" in out, out)
    out = m.command("sysctl hw.pagesize=12")
    check("read-only" in out, out)
    out = m.command("sysctl kern.shell.prompt=" + "x" * 40)
    check("longer than 31 characters" in out, out)
    out = m.command("sysctl")
    check("usage: sysctl" in out, out)


def test_unknown_command(ctx, m):
    out = m.command("frobnicate now")
    check(out.strip() == "frobnicate: unknown command (try 'help')", repr(out))


def test_bad_arguments(ctx, m):
    out = m.command("version extra")
    check("usage: version" in out, out)
    out = m.command("mem a b")
    check("usage: mem" in out, out)
    out = m.command("fault")
    check("usage: fault pf|wp|nx|ud|de|gp|stack" in out, out)
    out = m.command("help nosuch")
    check("help: no command 'nosuch'" in out, out)
    out = m.command("fault nosuchkind")
    check("fault: unknown kind 'nosuchkind'" in out, out)
    out = m.command("exit abc")
    check("exit: status: 'abc' is not a number (0..127)" in out, out)
    out = m.command('echo "unterminated')
    check("unterminated quote" in out, out)


def test_numbers_are_refused_with_their_range(ctx, m):
    """Every command that takes a number names the argument and the allowed
    range when it refuses one, and starts nothing."""
    long_list = ",".join(str(i % 4) for i in range(40)) + ",4"   # > 63 characters
    cases = [
        ("exit 128", "exit: status: 128 is outside 0..127"),
        ("cpuid zz", "cpuid: LEAF: 'zz' is not a hex number (0x0..0xffffffff)"),
        ("cpuid 0 100000000", "cpuid: SUB: 100000000 is outside 0x0..0xffffffff"),
        ("cpuid 0 0 4", "cpuid: CPU: 4 is outside 0..3"),
        ("top -n 0", "top: FRAMES: 0 is outside 1..86400"),
        ("spawn 0 cpu", "spawn: N: 0 is outside 1..512"),
        ("spawn 513 cpu", "spawn: N: 513 is outside 1..512"),
        ("spawn 1 cpu ms=18446744073709551615", "spawn: ms: 18446744073709551615 is outside 1..600000"),
        ("spawn 1 cpu ms=600001", "spawn: ms: 600001 is outside 1..600000"),
        ("spawn 1 cpu cpus=4", "spawn: cpus: 4 is outside 0..3"),
        ("spawn 1 cpu cpus=" + long_list, "spawn: cpus: 4 is outside 0..3"),
        ("spawn 1 cpu cpus=0x10", "spawn: cpus: mask 0x10 names cpu 4; this machine has cpus 0..3"),
        ("spawn 1 cpu cpus=3-1", "spawn: cpus: range 3-1 goes backwards"),
        ("spawn 1 cpu speed=9", "spawn: unknown argument 'speed=9'"),
        ("spawn 2 cpu pin=4,0", "spawn: pin: cpus: 4 is outside 0..3"),
        ("spawn 3 cpu pin=0,1", "spawn: pin: '0,1' names 2 CPUs for 3 threads (one each)"),
        ("spawn 2 cpu pin=0-3", "spawn: pin: cpus: '0-3' names more than 2 CPUs"),
        ("spawn 1 cpu pin=0x1", "spawn: pin: cpus: '0x1' is not a number (0..3)"),
        ("spawn 1 cpu pin=", "spawn: pin: cpus: empty item in '' (a list like 0-3,6)"),
        ("spawn 1 cpu cpus=0 pin=0", "spawn: cpus= and pin= both set the threads' CPUs: give one"),
        ("schedtest storm 18446744073709551615", "schedtest: N: 18446744073709551615 is outside 1..4096"),
        ("schedtest storm 0", "schedtest: N: 0 is outside 1..4096"),
        ("schedtest storm 10 x", "schedtest: MS: 'x' is not a number (1..600000)"),
        ("schedtest pin 4", "schedtest: CPU: 4 is outside 0..3"),
        ("schedtest latency 18446744073709551615", "schedtest: MS: 18446744073709551615 is outside 1..600000"),
        ("sysctl kern.sched.slice=abc", "sysctl: kern.sched.slice: 'abc' is not a number (1..1000)"),
        ("sysctl kern.sched.slice=1001", "sysctl: kern.sched.slice: 1001 is outside 1..1000"),
        ("sleep 600001", "sleep: MS: 600001 is outside 0..600000"),
        ("sleep -1", "sleep: MS: '-1' is not a number (0..600000)"),
    ]
    for line, want in cases:
        out = m.command(line)
        check(want in out, "%s: wanted %r, got:\n%s" % (line, want, out))
    out = m.command("ps")
    check(not re.search(r" (cpu|storm)/\d+ ", out), "a refused command started threads:\n" + out)
    out = m.command("spawn 1 sleep cpus=" + ",".join(["3"] * 40) + " ms=100")
    check("spawn: started 1 sleep threads for 100 ms" in out, out)
    # Its report comes after the prompt: wait for it here, so that it does
    # not land in the next test's command output on a slow host.
    m.expect(r"spawn:   sleep/0 thread \d+ ended on cpu 3: run \d+ ms\r?\n", 30)
    # pin=: thread i on the i-th CPU named, repeats allowed.
    out = m.command("spawn 3 sleep pin=2,0,2 ms=100")
    check("spawn: started 3 sleep threads for 100 ms" in out, out)
    m.expect(r"spawn:   sleep/0 thread \d+ ended on cpu 2: run \d+ ms\r?\n"
             r"spawn:   sleep/1 thread \d+ ended on cpu 0: run \d+ ms\r?\n"
             r"spawn:   sleep/2 thread \d+ ended on cpu 2: run \d+ ms\r?\n", 30)


def test_sleep_waits_asleep(ctx, m):
    """`sleep MS` lasts at least MS of guest time, and the shell thread
    sleeps meanwhile (its CPU time grows by far less than MS)."""
    def uptime_ms():
        mm = re.search(r"up (\d+)\.(\d+) s", m.command("uptime"))
        check(mm, "no uptime")
        return int(mm.group(1)) * 1000 + int(mm.group(2))

    def main_time_ms():
        out = m.command("ps")
        # ... TIME(ms) WORK(ms) SPEED MIGR (WORK and SPEED are "-" without a work clock)
        mm = re.search(r"^\s*1 main\s.*\s(\d+)\s+(?:\d+|-)\s+(?:\d+\.\d{3}|-)\s+\d+\s*$", out, re.M)
        check(mm, "no main thread in ps:\n" + out)
        return int(mm.group(1))
    t0, cpu0 = uptime_ms(), main_time_ms()
    out = m.command("sleep 2000")
    check(out.strip() == "", repr(out))
    t1, cpu1 = uptime_ms(), main_time_ms()
    check(t1 - t0 >= 2000, "slept %d ms of guest time, not 2000" % (t1 - t0))
    check(cpu1 - cpu0 < 1000, "the shell used %d ms of CPU while sleeping 2000" % (cpu1 - cpu0))
    out = m.command("sleep 0")
    check(out.strip() == "", repr(out))


def test_sleep_ends_on_a_key(ctx, m):
    m.send("sleep 600000\r")
    m.expect(r"sleep 600000\r\n", 30)
    time.sleep(0.5)
    m.send("\x03")
    m.expect(r"sleep: interrupted by a key after \d+ of 600000 ms", 30)
    m.wait_prompt(30)
    out = m.command("echo awake")
    check("awake" in out, out)


def test_overlong_line(ctx, m):
    """400 bytes typed at once: refused as too long, and none lost (the
    serial port holds what the console's 256-byte ring cannot take)."""
    m.send("echo " + "y" * 400 + "\r")
    m.expect(r"shell: line too long \(max 255 characters\)", 30)
    m.wait_prompt(30)
    out = m.command("echo still alive")
    check("still alive" in out, out)
    m.send("echo " + "z" * 240 + "\r" + "echo " + "w" * 240 + "\r" + "echo after\r")
    m.expect(r"\r\nafter\r\n", 30)
    m.wait_prompt(30)
    out = m.command("sysctl kern.console.input_lost")
    check("kern.console.input_lost: 0" in out, "input bytes lost:\n" + out)


def test_line_editing_and_history(ctx, m):
    # Backspace, arrows and Delete edit the line; Up recalls it; ^U clears.
    m.send("ecX\x7fho edxited")
    m.send("\x1b[D" * 5 + "\x1b[3~" + "\x1b[F" + "\r")
    m.expect(r"\r\nedited\r\n", 30)
    m.wait_prompt(30)
    m.send("\x1b[A\r")          # up arrow: the same command again
    m.expect(r"\r\nedited\r\n", 30)
    m.wait_prompt(30)
    m.send("echo abc\x15echo cleared\r")   # ^U clears the line
    m.expect(r"\r\ncleared\r\n", 30)
    m.wait_prompt(30)


def test_function_keys_and_a_shortened_long_line(ctx, m):
    # F11 (ESC[23~) and F3 (ESC[13~) do nothing; they used to act as Delete.
    m.send("echo abc" + "\x1b[D" * 2 + "\x1b[23~\x1b[13~" + "\r")
    m.expect(r"\r\nabc\r\n", 30)
    m.wait_prompt(30)
    # A line that overflowed is taken once it is edited shorter (the key
    # after the overflow waits for the echo: each edit redraws the line).
    m.send("echo " + "z" * 300)
    m.expect("z" * 250, 30)
    m.send("\x7f\r")
    m.expect(r"\r\n" + "z" * 249 + r"\r\n", 30)
    m.wait_prompt(30)


def test_ps2_keyboard_input(ctx, m):
    for key in ["e", "c", "h", "o", "spc", "k", "b", "d", "shift-1", "ret"]:
        m.monitor("sendkey " + key)
    m.expect(r"\r\nkbd!\r\n", 30)
    m.wait_prompt(30)


def scrollback(m):
    """(lines back, lines kept) from kern.console.scrollback."""
    out = m.command("sysctl kern.console.scrollback")
    r = re.search(r"view (\d+) lines back, (\d+) lines kept, room for 4096 \(\d+ KiB\)", out)
    check(r, out)
    return int(r.group(1)), int(r.group(2))


def test_ps2_shift_page_keys_scroll_the_console_back(ctx, m):
    # The framebuffer console's text rows (fbcon's boot line); a page is one less.
    cells = re.search(r"fbcon: \d+x\d+, (\d+)x(\d+) cells", m.output)
    check(cells, "no fbcon line in the boot log")
    page = int(cells.group(2)) - 1
    m.command("help")              # enough lines that two pages are kept
    view, kept = scrollback(m)
    check(view == 0 and kept >= 2 * page, (view, kept, page))
    for _ in range(2):
        m.monitor("sendkey shift-pgup")
    # Serial input types nothing on the keyboard: the view stays where it is
    # while `sysctl` prints (it stays on its text as lines scroll in below).
    view, kept = scrollback(m)
    check(view >= 2 * page, (view, kept, page))
    m.monitor("sendkey shift-pgdn")
    view2, _ = scrollback(m)
    check(page <= view2 < view, (view2, view, page))
    m.monitor("sendkey ret")       # a key that types: back to the live screen
    m.wait_prompt(30)
    check(scrollback(m)[0] == 0, "the view did not come back to the live screen")
