"""Thread Director (docs/hfi.md, "Thread Director"): on a small hybrid
machine with an emulated Thread Director (tests/data/itd-small-hybrid.machine,
one boot), a thread doing vector work is read as class 1 at its switches
and adopted as vector, a scalar one as scalar (`ps -c`); `hfi` counts the
reads per class, the device's answers and the HRESETs; vector code runs at
its class speed. Machines without Thread Director say "not present" in
test_hfi.py's boots."""
import os
import re

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host.
EXPECTED_S = 40

ITD_MACHINE = os.path.join(ROOT, "tests", "data", "itd-small-hybrid.machine")
AGREE = 4   # ITD_HIST_AGREE (kernel/include/itd_hist.h)

# ps -c: ID NAME CODE ITD SCALAR VECTOR VNNI SPIN OTHER INVALID CHANGES
PS_C_ROW = re.compile(r"^\s*(\d+) (cpu/\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)"
                      r"\s+(\d+)\s+(\d+)$", re.M)


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def test_itd_classes(ctx):
    m = ctx.machine(machine_file=ITD_MACHINE)
    m.expect(r"emul-itd: Thread Director on: 4 classes, HRESET \(CPUID.07H.01H:EAX\[22\], "
             r"leaf 0x20\), a class is valid after 1000 us in it", timeout=180)
    m.expect(r"itd: on: 4 classes, 4 CPUs, HRESET at each switch, emulated", timeout=60)
    m.wait_prompt()
    out = m.command("spawn 1 cpu cpus=2 ms=6000 class=vector")
    check("spawn: started 1 cpu threads for 6000 ms, class vector" in out, out)
    m.command("spawn 1 cpu cpus=3 ms=6000")
    m.command("sleep 4000", timeout=60)
    out = m.command("ps -c").replace("\r", "")
    rows = {g.group(3): g for g in PS_C_ROW.finditer(out)}
    check(set(rows) == {"vector", "scalar"}, "no vector and scalar spawn threads in ps -c:\n" + out)
    v, s = rows["vector"], rows["scalar"]
    check(v.group(4) == "vector", "the vector thread is not classified vector:\n" + out)
    check(int(v.group(6)) >= AGREE and int(v.group(11)) == 1,
          "the vector thread: fewer than %d vector reads or not one adoption:\n%s" % (AGREE, out))
    check(s.group(4) == "scalar" and int(s.group(5)) >= AGREE and int(s.group(6)) == 0 and
          int(s.group(11)) == 0, "the scalar thread is not scalar throughout:\n" + out)
    out = m.command("hfi").replace("\r", "")
    m_valid = re.search(r"^  valid reads per class: scalar (\d+), vector (\d+), vnni (\d+), "
                        r"spin (\d+)$", out, re.M)
    check(m_valid and int(m_valid.group(2)) >= AGREE, "hfi: no vector reads counted:\n" + out)
    m_dev = re.search(r"^  valid answers per class: scalar (\d+), vector (\d+), vnni 0, spin 0$",
                      out, re.M)
    check(m_dev and int(m_dev.group(2)) >= int(m_valid.group(2)),
          "the device answered fewer vector reads than the driver counted:\n" + out)
    hres = re.search(r"invalid reads \d+, beyond the classes 0, faults 0, HRESETs (\d+)", out)
    check(hres and int(hres.group(1)) > 0, "no HRESETs, or faults:\n" + out)
    check(re.search(r"HRESETs (\d+) \(ignored 0\), faults 0", out), out)
    check("emulated Thread Director: 4 classes, 4 CPUs enabled" in out, out)
    # Both spawn threads end at 6 s: the vector one on its E-core did
    # vector work at 0.54 x 0.71 = 0.383 of a lone P thread.
    end = m.expect(r"spawn:   cpu/0 thread \d+ ended on cpu 2: run \d+ ms, work \d+ ms, "
                   r"speed ([\d.]+)", timeout=60)
    speed = float(end.group(1))
    check(abs(speed - 0.383) <= 0.01, "vector work on the E-core at speed %.3f, not 0.383" % speed)
    m.expect(r"spawn:   cpu/0 thread \d+ ended on cpu 3", timeout=60)
    swap_scenario(m)


# ps -w: ID NAME LAST TIME(ms) P% E% LP-E% OTHER% SMT%
PS_W_ROW = re.compile(r"^\s*(\d+) (\S+)\s+(-?\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
                      re.M)


def swap_scenario(m):
    """hmp with Thread Director classes (kern.sched.hmp.itd, docs/hmp.md):
    a scalar thread holds the P-core (CPU 0) and a thread doing vector work
    an E-core (CPU 2), both busy, each held there for its first 300 ms
    (spawn free=), then free to go anywhere. With itd=0 hmp makes no class
    swap (threads may still move for other reasons: a preempting shell, an
    idle steal); with itd=1, once the vector thread is classified, the
    balancer swaps the two (vector code gains more on the P-core: class 1
    perf 250 there against 100 on E, class 0 255 against 140), so the
    vector thread runs most of the window on the P-core and the scalar one
    on an E-core."""
    m.command("sysctl kern.sched.policy=hmp")
    shares = {}
    for itd in (0, 1):
        m.command("sysctl kern.sched.hmp.itd=%d" % itd)
        m.command("sched stats reset")
        m.command("spawn 1 cpu cpus=0 free=300 ms=4000")
        m.command("spawn 1 cpu cpus=2 free=300 ms=4000 class=vector")
        m.command("sleep 3000", timeout=60)
        placed = m.command("ps -w", timeout=60).replace("\r", "")
        classes = m.command("ps -c", timeout=60).replace("\r", "")
        stats = m.command("sched stats", timeout=60).replace("\r", "")
        m.command("sleep 1500", timeout=60)   # both end
        code = {int(g.group(1)): g.group(3) for g in PS_C_ROW.finditer(classes)}
        where = {code[int(g.group(1))]: (float(g.group(5)), float(g.group(6)))
                 for g in PS_W_ROW.finditer(placed) if int(g.group(1)) in code}
        check(set(where) == {"scalar", "vector"}, "itd=%d: the two threads not found:\n%s\n%s" %
              (itd, placed, classes))
        swaps = re.search(r"itd_swaps\s+(\d+)", stats)
        check(swaps, "sched stats has no itd_swaps:\n" + stats)
        shares[itd] = (where, int(swaps.group(1)), placed + stats)
    where, swaps, text = shares[0]
    check(swaps == 0, "itd=0: %d class swaps:\n%s" % (swaps, text))
    where, swaps, text = shares[1]
    check(where["vector"][0] >= 50.0 and where["scalar"][1] >= 30.0 and swaps >= 2,
          "itd=1: the vector thread should move to the P-core and the scalar one to an E-core "
          "(vector P %.1f%%, scalar E %.1f%%, %d swaps):\n%s" %
          (where["vector"][0], where["scalar"][1], swaps, text))
