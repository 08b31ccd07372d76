# SPDX-License-Identifier: BSD-2-Clause
"""Results leave the machine (docs/nuc.md): `save` and `bench --save` write
to USB sticks on qemu-xhci + usb-storage, and the host reads them back.

The boot stick is a copy of build/mosaic.iso used in place (its FAT16 ESP
inside the hybrid ISO); a second stick is FAT32 made by mkfs.fat. After
each boot fsck.fat -n must find every volume clean and mtools must read
every file written. The bad cases (no FAT volume, a full volume, a
write-protected stick, a corrupted directory, a stick pulled out during a
write) each give one clear line and leave every volume clean. The panic
report survives a reboot in a kept UEFI variable store."""
import csv
import io
import os
import re
import shutil
import struct
import subprocess
import tempfile
import uuid

from qemu import ROOT, TestFailure

# Run time on an idle 2-core host: the runner starts the longest modules first.
EXPECTED_S = 130

SMALL = os.path.join(ROOT, "machines", "small-hybrid.machine")


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def run(*args, ok=(0,)):
    p = subprocess.run(args, capture_output=True, text=True)
    check(p.returncode in ok, "%s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p.stdout


def tmpdir(ctx):
    d = tempfile.mkdtemp(prefix="mosaic-save-")
    ctx.machines.append(Cleanup(d))
    return d


class Cleanup:
    """Removes a directory when the test's machines are closed."""
    def __init__(self, path):
        self.path = path

    def close(self):
        shutil.rmtree(self.path, ignore_errors=True)


def fat_stick(d, name, mib, fat=32, label="RESULTS"):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.truncate(mib * 1024 * 1024)
    run("mkfs.fat", "-F", str(fat), "-n", label, path)
    return path


def esp_offset(iso):
    """(byte offset, size) of Mosaic's FAT partition in the image: the GPT
    entry of type EFI System (UEFI 2.10, 5.3: the header at LBA 1, its
    entry array) that holds /mosaic/kernel.elf (grub-mkrescue's own ESP
    comes first)."""
    with open(iso, "rb") as f:
        f.seek(512)
        hdr = f.read(92)
        check(hdr[:8] == b"EFI PART", "%s has no GPT" % iso)
        lba, count, size = struct.unpack_from("<QII", hdr, 72)
        f.seek(lba * 512)
        table = f.read(count * size)
    esp = uuid.UUID("C12A7328-F81F-11D2-BA4B-00A0C93EC93B").bytes_le
    for i in range(count):
        e = table[i * size:(i + 1) * size]
        first, last = struct.unpack_from("<QQ", e, 32)
        if e[:16] == esp and subprocess.run(["mdir", "-i", "%s@@%d" % (iso, first * 512), "::/mosaic/kernel.elf"],
                                            capture_output=True).returncode == 0:
            return first * 512, (last - first + 1) * 512
    raise TestFailure("no ESP with /mosaic/kernel.elf in the GPT of %s" % iso)


def fsck_clean(path, offset=None, size=None):
    """fsck.fat -n on the image (or the partition at offset) must report nothing to repair."""
    if offset is not None:
        part = path + ".part"
        with open(path, "rb") as f, open(part, "wb") as g:
            f.seek(offset)
            g.write(f.read(size))
        path = part
    p = subprocess.run(["fsck.fat", "-n", path], capture_output=True, text=True)
    check(p.returncode == 0 and "Dirty bit" not in p.stdout and "differ" not in p.stdout,
          "fsck.fat -n %s: exit %d\n%s%s" % (path, p.returncode, p.stdout, p.stderr))
    return p.stdout


def mread(img, path, offset=None):
    """A file's bytes through mtools."""
    target = img if offset is None else "%s@@%d" % (img, offset)
    p = subprocess.run(["mtype", "-i", target, "::" + path], capture_output=True)
    check(p.returncode == 0, "mtype %s %s: %s" % (img, path, p.stderr.decode(errors="replace")))
    return p.stdout


def mlist(img, path, offset=None):
    target = img if offset is None else "%s@@%d" % (img, offset)
    return run("mdir", "-b", "-i", target, "::" + path).split()


def saved_folder(out):
    m = re.search(r"save: \d+ files?, \d+ bytes, in (MOSAIC/\S+) on (\S+)", out)
    check(m, "no save summary line:\n" + out[-3000:])
    return m.group(1), m.group(2)


def test_save_to_boot_stick_and_second_stick(ctx):
    d = tmpdir(ctx)
    iso = os.path.join(d, "boot.iso")
    shutil.copy(os.path.join(ctx.build, "mosaic.iso"), iso)
    off, size = esp_offset(iso)
    kernel_before = mread(iso, "/mosaic/kernel.elf", off)
    stick = fat_stick(d, "stick.img", 64)
    # No machine description: the descriptors come from CPUID, so the
    # kernel's `cpus` is what build/cpuid-replay must print from cpuid.txt.
    m = ctx.machine(iso=iso, esp=None, smp=2,
                    qemu_run_args=["--boot-in-place", "--stick", stick])
    m.expect(r"usb: da1: QEMU QEMU HARDDISK", timeout=180)
    m.wait_prompt()
    out = m.command("save -l").replace("\r", "")
    boot_vol = re.search(r"^(da0p\d+) +FAT16 .*Mosaic's boot volume", out, re.M)
    check(boot_vol, out)
    check(re.search(r"^da1 +FAT32 RESULTS +\d+ KiB free", out, re.M), out)
    check("save writes to da1 unless told otherwise" in out, out)
    out = m.command("save", timeout=120).replace("\r", "")
    folder, vol = saved_folder(out)
    check(vol == "da1", out)
    out2 = m.command("save -v %s log info" % boot_vol.group(1), timeout=120).replace("\r", "")
    folder2, vol2 = saved_folder(out2)
    check(vol2 == boot_vol.group(1), out2)
    cpus_out = m.command("cpus").replace("\r", "")
    m.send("poweroff\r")
    m.wait_exit(timeout=60)

    fsck_clean(stick)
    fsck_clean(iso, off, size)
    check(mread(iso, "/mosaic/kernel.elf", off) == kernel_before, "the boot stick's kernel changed")
    names = mlist(stick, "/" + folder)
    for want in ["boot.log", "console.log", "sysinfo.txt", "cpus.txt", "topo.txt", "hfi.txt", "cpuid.txt",
                 "hfi-updates.csv", "rapl.csv"]:
        check(any(n.endswith("/" + want) for n in names), "%s missing in %s" % (want, names))
    for n in names:
        mread(stick, n[n.index("/"):] if "/" in n else n)
    for want in ["boot.log", "console.log", "sysinfo.txt", "topo.txt"]:
        mread(iso, "/%s/%s" % (folder2, want), off)
    check(b"Mosaic" in mread(stick, "/%s/boot.log" % folder), "boot.log")
    hfi_rows = list(csv.reader(io.StringIO(mread(stick, "/%s/hfi-updates.csv" % folder).decode())))
    check(hfi_rows[0] == ["seq", "time_ns", "hw_timestamp", "package", "row", "class", "perf", "ee"], hfi_rows[:2])
    rapl_rows = list(csv.reader(io.StringIO(mread(stick, "/%s/rapl.csv" % folder).decode())))
    check(rapl_rows[0] == ["time_ns", "package_uj", "cores_uj"], rapl_rows[:2])

    # The round trip: the host replay of cpuid.txt prints the kernel's `cpus` table.
    dump = os.path.join(d, "cpuid.txt")
    with open(dump, "wb") as f:
        f.write(mread(stick, "/%s/cpuid.txt" % folder))
    replay = run(os.path.join(ctx.build, "cpuid-replay"), "--cpus", dump)
    kernel_rows = [l.split()[:10] for l in cpus_out.splitlines() if re.match(r"^ +\d+ 0x", l)]
    replay_rows = [l.split()[:10] for l in replay.splitlines() if re.match(r"^ +\d+ 0x", l)]
    check(kernel_rows and kernel_rows == replay_rows,
          "kernel cpus:\n%s\nreplay:\n%s" % (cpus_out, replay))

    # The host's one command on the folder copied off the stick (docs/nuc.md):
    # the round trip on every column, the topology tree, the files' parts.
    copied = os.path.join(d, "copied")
    os.makedirs(copied)
    run("mcopy", "-s", "-i", stick, "::/" + folder, copied)
    out = run(os.path.join(ROOT, "tools", "results-report.py"), "--replay", os.path.join(ctx.build, "cpuid-replay"),
              "--no-plots", "-o", os.path.join(d, "report"), os.path.join(copied, os.path.basename(folder)))
    check("CPUID round trip: 2 CPUs, descriptors from CPUID; the replay is the same on all 2 CPUs" in out, out)
    with open(os.path.join(d, "report", "report.md")) as f:
        check("Topology tree (`topo.txt` on the machine, then the replay): the same." in f.read(), out)


def sha(path):
    import hashlib
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def broken_stick(d):
    """A FAT32 stick whose MOSAIC folder's entry points outside the volume."""
    path = fat_stick(d, "broken.img", 40, label="BROKEN")
    run("mmd", "-i", path, "::/MOSAIC")
    with open(path, "r+b") as f:
        data = f.read()
        at = data.find(b"MOSAIC     \x10")
        check(at > 0, "no MOSAIC entry in the broken stick")
        f.seek(at + 20)
        f.write(struct.pack("<H", 0x0FFF))      # first cluster 0x0FFFFFF0: past the end
        f.seek(at + 26)
        f.write(struct.pack("<H", 0xFFF0))
    return path


def test_bad_sticks_and_bench_save(ctx):
    d = tmpdir(ctx)
    nofat = os.path.join(d, "nofat.img")
    with open(nofat, "wb") as f:
        f.truncate(8 * 1024 * 1024)
    ro = fat_stick(d, "ro.img", 40, label="LOCKED")
    full = fat_stick(d, "full.img", 2, fat=12, label="FULL")
    filler = os.path.join(d, "filler.bin")
    free = int(re.search(r"([\d ]+) bytes free", run("mdir", "-i", full, "::/")).group(1).replace(" ", ""))
    with open(filler, "wb") as f:
        f.write(os.urandom(free - 4096))
    run("mcopy", "-i", full, filler, "::/FILLER.BIN")
    broken = broken_stick(d)
    good = fat_stick(d, "good.img", 64, label="GOOD")
    before = {p: sha(p) for p in (nofat, ro, full, broken)}
    args = []
    for p in (nofat, ro + ":ro", full, broken, good):
        args += ["--stick", p]
    m = ctx.machine(machine_file=SMALL, qemu_run_args=args)
    m.expect(r"usb: da4: ", timeout=180)
    m.wait_prompt()
    out = m.command("save -l").replace("\r", "")
    names = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) > 2 and w[0].startswith("da"):
            names[w[2] if w[1].startswith("FAT") else "none"] = w[0]
    check(set(names) >= {"none", "LOCKED", "FULL", "BROKEN", "GOOD"}, out)
    check(re.search(r"^%s +not usable: .+" % names["none"], out, re.M), out)
    check(re.search(r"^%s +FAT32 LOCKED .*, write-protected" % names["LOCKED"], out, re.M), out)
    out = m.command("save -v " + names["none"]).replace("\r", "")
    check(re.search(r"save: %s: not a FAT volume Mosaic can write: \S+" % names["none"], out), out)
    out = m.command("save -v LOCKED").replace("\r", "")
    check("save: %s: the stick is write-protected" % names["LOCKED"] in out, out)
    out = m.command("save -v FULL", timeout=60).replace("\r", "")
    check(re.search(r"save: %s: no room: the files need \d+ KiB, \d+ KiB are free \(nothing was written\)"
                    % names["FULL"], out), out)
    out = m.command("save -v BROKEN", timeout=60).replace("\r", "")
    check(re.search(r"save: %s: MOSAIC: directory entry \d+: cluster \d+ outside 2\.\.\d+; "
                    r"the directory looks damaged" % names["BROKEN"], out), out)
    out = m.command("save -v nosuch").replace("\r", "")
    check("save: no volume 'nosuch' (save -l lists them)" in out, out)
    out = m.command("bench cpu --threads 2 --runs 1 --time 1 --save=GOOD", timeout=180).replace("\r", "")
    check(re.search(r"bench: run 2 of 2: cpu hmp", out), out[-3000:])
    folder, vol = saved_folder(out)
    check(vol == names["GOOD"] and "save:   bench-cpu.log" in out, out[-3000:])
    m.send("poweroff\r")
    m.wait_exit(timeout=60)

    for p, h in before.items():
        check(sha(p) == h, "%s was changed" % p)
    fsck_clean(good)
    log = os.path.join(d, "bench-cpu.log")
    with open(log, "wb") as f:
        f.write(mread(good, "/%s/bench-cpu.log" % folder))
    outdir = os.path.join(d, "report")
    run(os.path.join(ROOT, "tools", "bench-report.py"), "-o", outdir, "--no-plots", log)
    check(os.listdir(outdir), "bench-report.py wrote nothing from %s" % log)
    rows = list(csv.reader(io.StringIO(mread(good, "/%s/hfi-updates.csv" % folder).decode())))
    check(len(rows) > 1 and all(len(r) == 8 for r in rows), rows[:3])


def test_stick_pulled_out_during_a_write(ctx):
    d = tmpdir(ctx)
    good = fat_stick(d, "slow.img", 64, label="SLOW")
    m = ctx.machine(machine_file=SMALL, qemu_run_args=["--stick", good + ":bps=4096"])
    m.expect(r"usb: da0: ", timeout=180)
    m.wait_prompt()
    m.send("save\r")
    m.expect(r"save:   boot\.log", timeout=120)
    m.monitor("device_del stick1")
    m.expect(r"usb: da0: removed", timeout=60)
    out = m.output.replace("\r", "")
    check(re.search(r"save: da0: MOSAIC/\S+/\S+: the stick was removed \(device removed\)\n"
                    r"save: da0: the stick was removed during the save; check the volume", out), out[-3000:])
    out = m.command("save -l").replace("\r", "")
    check("save: no USB stick found" in out, out)
    m.send("poweroff\r")
    m.wait_exit(timeout=60)
    fsck_clean(good)


def test_panic_report_survives_a_reboot(ctx):
    d = tmpdir(ctx)
    vars_file = os.path.join(d, "vars.fd")
    m = ctx.machine(machine_file=SMALL, run="panic left for the next boot",
                    qemu_run_args=["--vars", vars_file])
    m.expect(r"panic: report stored \(\d+ bytes, UEFI variable MosaicPanicReport\)", timeout=180)
    m.close()
    stick = fat_stick(d, "stick.img", 64)
    m = ctx.machine(machine_file=SMALL, qemu_run_args=["--vars", vars_file, "--stick", stick])
    m.expect(r"==== panic report of an earlier boot", timeout=180)
    m.expect(r"\| panic: left for the next boot", timeout=30)
    m.wait_prompt()
    out = m.command("save panic", timeout=60).replace("\r", "")
    folder, _ = saved_folder(out)
    check("save:   panic-report.txt" in out and "the panic report's UEFI variable is cleared" in out, out)
    out = m.command("save panic", timeout=60).replace("\r", "")
    check("panic-report" not in out, out)
    m.send("poweroff\r")
    m.wait_exit(timeout=60)
    fsck_clean(stick)
    report = mread(stick, "/%s/panic-report.txt" % folder).decode(errors="replace")
    check("Mosaic panic report" in report and "panic: left for the next boot" in report and
          "the last lines logged before the panic" in report, report)
