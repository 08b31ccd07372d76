# SPDX-License-Identifier: BSD-2-Clause
"""One program cannot deny the others (issue 31, docs/userland.md "Jobs"):
on one booted small hybrid machine, each attack a program can make on the
shared pools runs from a user program, and afterwards the shell still
starts `hello`, kills the attacker's job whole, and `ustat` comes back to
where it was.

- A spawn tree that refills every slot that frees (spawntree) stays within
  its job's quota of processes, and `kill` of its root or Ctrl-C ends all of
  it; before jobs it took all 128 processes and outlived a kill of its root.
- Orphans that each take all they can of the pages, the threads or the
  service names (hog) stay in their job: they get its quota, not the pool,
  and `kill -j` ends them within a second of guest time; before, they took
  every page, thread or name.
- With every thread but the operator's reserve in use, the shell still
  starts a program, which itself gets none.
- A flood of refused programs and faulting children (logflood) gets a few
  lines per source and "N messages suppressed", and `dmesg` still has the
  boot log; before, 20 000 lines pushed the boot log out.
(The fourth finding, threads starving at their address-space lock, is in
test_userland's i7-1370P boot: it needs 20 CPUs.)"""
import os
import re
import time

from qemu import ROOT, TestFailure

EXPECTED_S = 60

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")
USTAT = re.compile(r"ustat: processes (\d+), user pages (\d+), threads live (\d+), heap allocations "
                   r"(\d+), memory in use (\d+) bytes")
KIND = re.compile(r"ustat: (\w+) +limit (\d+) per process, (\d+) per job, (\d+) in all, (\d+) reserved; "
                  r"(\d+) in use; refused (\d+) \(process limit\), (\d+) \(job quota\), (\d+) \(total\)")


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def setup(ctx):
    m = ctx.machine(machine_file=SMALL)
    m.wait_prompt()
    return m


def ustat_kinds(m):
    """Per kind: (per process, per job, total, reserve, in use, refused by
    the process limit, a job quota, the total)."""
    out = m.command("ustat")
    kinds = {k[0]: tuple(int(x) for x in k[1:]) for k in KIND.findall(out)}
    check(len(kinds) == 7, "not every kind in ustat:\n" + out)
    return kinds


def ustat_counts(m):
    """The leak-check counts only."""
    out = m.command("ustat")
    u = USTAT.search(out)
    check(u, "no ustat line:\n" + out)
    return tuple(int(x) for x in u.groups())


def clean(m, out):
    check("panic" not in out and "EXCEPTION" not in out, m.tail(3000))


def back_to(m, before, what):
    """Polls ustat until its counts are before's again (host timeout: a
    loaded host is slow, the assertions are on what the guest shows)."""
    deadline = time.monotonic() + 60
    while True:
        counts = ustat_counts(m)
        if counts == before:
            return
        if time.monotonic() > deadline:
            raise TestFailure("%s: ustat not back to %r within 60 s: %r" % (what, before, counts))
        time.sleep(1)


def operator_can_work(m):
    """The shell starts a program, which a service still answers."""
    out = m.command("run hello", timeout=60)
    check(re.search(r"run: hello \(pid \d+\) exited with status 0", out), "run hello failed:\n" + out)
    out = m.command("run kv put colour blue", timeout=60)
    check("kv: put colour: ok" in out, "kv failed:\n" + out)


def dmesg(m):
    """All of dmesg: its old lines hold the usual prompt, so it runs under
    one of its own."""
    m.command("sysctl kern.shell.prompt=dmesg-done>", prompt="dmesg-done>")
    log = m.command("dmesg", prompt="dmesg-done>")
    m.command('sysctl "kern.shell.prompt=mosaic> "')
    return log


def job_of(m, program):
    """The newest live job whose first program is program."""
    out = m.command("jobs")
    r = re.search(r"^\s*(\d+)\s+\d+\s+\d+ %s\s+live\s" % program, out, re.M)
    check(r, "no live job of %s:\n%s" % (program, out))
    return int(r.group(1))


def kill_job(m, job):
    """kill -j: it waits until the job's processes are gone and says so."""
    out = m.command("kill -j %d" % job, timeout=60)
    r = re.search(r"kill: job %d: its (\d+) processes ended within (\d+) ms" % job, out)
    check(r, "the job did not end:\n" + out)
    return int(r.group(1)), int(r.group(2))


def procs_refused(m):
    """Spawns refused by a quota or the total (parsed so that a kernel
    without jobs reads too: the first check of each test is the finding)."""
    out = m.command("ustat")
    r = re.search(r"ustat: procs .*refused \d+ \(process limit\), (?:(\d+) \(job quota\), )?(\d+) \(total\)", out)
    check(r, "no procs line in ustat:\n" + out)
    return int(r.group(1) or 0) + int(r.group(2))


def test_a_refilling_spawn_tree_stays_in_its_job(ctx, m):
    before = ustat_counts(m)
    refused = procs_refused(m)
    out = m.command("run -b spawntree")
    r = re.search(r"run: spawntree started as pid (\d+)", out)
    check(r, out)
    pid = int(r.group(1))
    # Grown: its spawns are refused again and again (a node retries every 20 ms).
    deadline = time.monotonic() + 240
    while procs_refused(m) < refused + 200:
        check(time.monotonic() < deadline, "the tree never filled what it may")
        time.sleep(1)
    operator_can_work(m)
    kinds = ustat_kinds(m)
    quota = kinds["procs"][1]
    check(kinds["procs"][4] - before[0] <= quota,
          "the tree holds more than its job's quota of %d: %r" % (quota, kinds["procs"]))
    jobs = m.command("jobs")
    check(re.search(r"^\s*%d\s+0\s+%d spawntree\s+live\s+\d+/\d+ %d/%d " % (job_of(m, "spawntree"), pid, quota,
                                                                                   quota), jobs, re.M),
          "the job is not at its quota:\n" + jobs)
    # kill of its root (the job's leader) ends the whole tree: nothing refills.
    m.command("kill %d" % pid)
    back_to(m, before, "kill of the tree's root")
    # Ctrl-C of a tree run in the foreground ends all of it too (no
    # command may be typed meanwhile: a key would kill it): its job's quota
    # refuses a spawn once the tree is full.
    m.send("run spawntree --fanout 4 --depth 3\r")
    m.expect(r"spawntree: pid \d+: fanout 4, depth 3", 60)
    m.expect(r"user: pid \d+ \(spawntree\): job \d+ \(spawntree\) reached its procs quota of %d" % quota, 240)
    m.send("\x03")
    m.expect(r"run: spawntree \(pid \d+\) was killed", 60)
    m.wait_prompt(60)
    back_to(m, before, "Ctrl-C of the tree")


def kind_in_use(m, kind):
    """In use of kind, and refused by a job's quota (read so that a kernel
    without jobs reads too)."""
    r = re.search(r"ustat: %s +limit .*; (\d+) in use; refused \d+ \(process limit\), (?:(\d+) \(job quota\), )?"
                  % kind, m.command("ustat"))
    check(r, "no %s line in ustat" % kind)
    return int(r.group(1)), int(r.group(2) or 0)


def hog(m, kind, then):
    """Runs hog KIND (orphans that hold all they get of KIND and take
    whatever frees); the operator still works (then(m) checks the pool's
    own users), the orphans hold at most their job's quota, which refused
    them, and kill -j of their job ends them."""
    before, (used, refused) = ustat_counts(m), kind_in_use(m, kind)
    out = m.command("run hog %s" % kind, timeout=300)
    clean(m, out)
    r = re.search(r"hog: (\d+) of 16 children hold all the %s they could get" % kind, out)
    check(r and int(r.group(1)) >= 1 and "exited with status 0" in out, out)
    operator_can_work(m)
    then(m)
    now = ustat_kinds(m)
    held, quota = now[kind][4] - used, now[kind][1]
    check(0 < held <= quota, "%s: the orphans hold %d, their job's quota is %d" % (kind, held, quota))
    check(now[kind][6] > refused, "%s: the job's quota never refused: %r" % (kind, now[kind]))
    job = job_of(m, "hog")
    procs, ms = kill_job(m, job)
    check(procs == int(r.group(1)), "kill -j %d ended %d processes, not the %s orphans" % (job, procs, r.group(1)))
    check(ms <= 1000, "kill -j %d: its processes took %d ms of guest time to end" % (job, ms))
    back_to(m, before, "kill -j of the orphans' job")


def test_orphans_take_their_jobs_quota_of_pages(ctx, m):
    hog(m, "pages", lambda m: None)


def test_orphans_take_their_jobs_quota_of_threads(ctx, m):
    hog(m, "threads", lambda m: None)


def test_orphans_take_their_jobs_quota_of_names(ctx, m):
    def can_publish(m):
        out = m.command("run limits names", timeout=60)
        check("limits: names: 4 made, then ERR_LIMIT" in out, "no program can publish a name:\n" + out)

    hog(m, "names", can_publish)


def sysctl_int(m, name):
    r = re.search(re.escape(name) + r": (\d+)", m.command("sysctl " + name))
    check(r, "no sysctl " + name)
    return int(r.group(1))


def test_the_operator_takes_the_reserve(ctx, m):
    """With every thread but the operator's reserve in use (the total set
    to what is in use plus the reserve), the shell still starts a program
    (its first thread comes from the reserve) while the program itself gets
    no thread; without a reserve the shell could not start it."""
    live, _ = kind_in_use(m, "threads")
    total, reserve = sysctl_int(m, "kern.user.threads_total"), sysctl_int(m, "kern.user.threads_reserve")
    check(reserve > 0, "no reserve of threads")
    try:
        m.command("sysctl kern.user.threads_total=%d" % (live + reserve))
        out = m.command("run hello", timeout=60)
        check(re.search(r"run: hello \(pid \d+\) exited with status 0", out), "the shell could not start hello:\n" + out)
        out = m.command("run limits threads", timeout=60)
        check("limits: threads: 0 made, then ERR_NOSPC" in out, "a program took the reserve:\n" + out)
        m.command("sysctl kern.user.threads_reserve=0")
        m.command("sysctl kern.user.threads_total=%d" % live)
        out = m.command("run hello", timeout=60)
        check("run: hello: system-wide limit reached" in out, "hello ran with no thread left:\n" + out)
    finally:
        m.command("sysctl kern.user.threads_total=%d" % total)
        m.command("sysctl kern.user.threads_reserve=%d" % reserve)


def test_a_log_flood_is_rate_limited_and_the_boot_log_kept(ctx, m):
    out = m.command("run logflood --time 10", timeout=180)
    clean(m, out)
    r = re.search(r"logflood: (\d+) refused programs, (\d+) faulting children in 10 s", out)
    check(r and "exited with status 0" in out, out)
    refused, faulted = int(r.group(1)), int(r.group(2))
    check(refused >= 500 and faulted >= 20, "the flood did not run: " + r.group(0))
    # At most 10 lines per 5 s window and source (kern.log.rate_*): in
    # 10 s and the time the shell takes to look, 3 windows at most.
    lines = len(re.findall(r"user: program init\.rc: not an ELF file", out))
    faults = len(re.findall(r"user: pid \d+ \(logflood\) thread \d+: page fault.*process killed", out))
    check(1 <= lines <= 30 and 1 <= faults <= 30,
          "%d refusal and %d fault lines for %d and %d events" % (lines, faults, refused, faulted))
    check(re.search(r"user: refused programs: \d+ messages suppressed", out), out[-3000:])
    held = re.search(r"kern\.log\.suppressed: (\d+)", m.command("sysctl kern.log.suppressed"))
    check(held and int(held.group(1)) >= refused - 30, "suppressed count: %r" % held)
    log = dmesg(m)
    check(re.search(r"^Mosaic \S+ \(loader ", log, re.M) and "user: init is pid 1, its script done" in log,
          "the boot log is gone from dmesg:\n" + log[:2000])
    check(r.group(0) in log, "the flood's last words are not in dmesg")
