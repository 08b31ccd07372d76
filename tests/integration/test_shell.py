"""Every shell command, bad input, line editing and both input devices, on
one booted machine (4 CPUs, monitor socket for PS/2 key injection)."""
import re
import time

from qemu import PROMPT, TestFailure


def setup(ctx):
    m = ctx.machine(smp=4, monitor=True, cmdline='test.word="two words" flag panic=exti sched=of')
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
    warnings = ["cmdline: unknown key 'test.word' ignored",
                "cmdline: unknown key 'flag' ignored",
                "cmdline: panic=exti: expected halt|reboot|exit; using halt",
                "cmdline: sched=of: expected on|off; using on"]
    with m.lock:
        boot = m.output[:m.output.index(PROMPT)]
    out = m.command("cmdline")
    for w in warnings:
        check(w in boot, "boot log lacks %r:\n%s" % (w, boot[-3000:]))
        check(w in out, "cmdline lacks %r:\n%s" % (w, out))
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
    check(names == sorted(names), "sysctl -a is not sorted: %s" % names)
    out = m.command("sysctl kern")
    check("kern.ostype: Mosaic" in out and "hw." not in out, out)
    out = m.command("sysctl kern.shell.prompt=test#", prompt="test#")
    check("kern.shell.prompt: mosaic>  -> test#" in out, out)
    out = m.command('sysctl "kern.shell.prompt=mosaic> "')
    check("-> mosaic> " in out, out)


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
    check("exit: status must be 0..127" in out, out)
    out = m.command('echo "unterminated')
    check("unterminated quote" in out, out)


def test_overlong_line(ctx, m):
    m.send("echo " + "y" * 400 + "\r")
    m.expect(r"shell: line too long \(max 255 characters\)", 30)
    m.wait_prompt(30)
    out = m.command("echo still alive")
    check("still alive" in out, out)


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


def test_ps2_keyboard_input(ctx, m):
    for key in ["e", "c", "h", "o", "spc", "k", "b", "d", "shift-1", "ret"]:
        m.monitor("sendkey " + key)
    m.expect(r"\r\nkbd!\r\n", 30)
    m.wait_prompt(30)
