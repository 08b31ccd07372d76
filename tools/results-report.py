#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""results-report: the report of a results folder that the kernel's `save`
or `bench --save` wrote to a USB stick (MOSAIC/<model>-<date>/,
docs/nuc.md section 6), once copied to the host.

  tools/results-report.py [-o DIR] [--replay PATH] [--no-plots] FOLDER

Writes DIR/report.md (default DIR: build/results/<the folder's name>):
  - the machine (sysinfo.txt) and every file of the folder with its size;
  - the CPUID round trip: build/cpuid-replay (or --replay PATH) decodes the
    machine's cpuid.txt on the host; its CPU table is set beside the one
    the kernel printed there (cpus.txt), CPU by CPU, naming the columns
    that differ, and its topology tree beside topo.txt's;
  - the HFI updates over time (hfi-updates.csv): what each update changed,
    and DIR/hfi.png (perf and ee of each row over time);
  - the energy (rapl.csv): each interval's average power, and DIR/rapl.png;
  - each benchmark log (bench-*.log): tools/bench-report.py's CSV files and
    plots in DIR/<log's name>/, and its summary table;
  - an earlier boot's panic report (panic-report.txt), as it was written.
A second save in one boot writes NAME-2.EXT beside NAME.EXT: the newest
copy of each file is reported. Prints a line per part, then the problems.

Every file is read bounded (MAX_FILE bytes); a line that does not parse is
named FILE:LINE with the reason and left out, the rest is still reported.

Exit status: 0 every part read and the round trip matched (or the kernel's
CPUs came from a machine description, which the report says: then the
dump is QEMU's and not the machine's); 1 a part damaged, a tool missing,
or the round trip differs; 2 FOLDER is not a readable results folder.
Needs Debian's python3-matplotlib for the plots.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FILE = 64 * 1024 * 1024
KNOWN = ["sysinfo.txt", "cpus.txt", "topo.txt", "hfi.txt", "cpuid.txt", "hfi-updates.csv", "rapl.csv",
         "boot.log", "console.log", "panic-report.txt"]
HFI_HEADER = ["seq", "time_ns", "hw_timestamp", "package", "row", "class", "perf", "ee"]
RAPL_HEADER = ["time_ns", "package_uj", "cores_uj"]
CPU_LINE = re.compile(r"^\s*\d+ 0x[0-9a-fA-F]+ ")
COPY = re.compile(r"^(.*?)(?:-(\d{1,4}))?(\.[a-z]+)$")


class Folder:
    """The files of a results folder: the newest copy of each known name."""

    def __init__(self, path):
        self.path = path
        self.sizes = {}
        self.newest = {}     # base name -> (copy number, file name)
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if not os.path.isfile(full):
                continue
            self.sizes[name] = os.path.getsize(full)
            m = COPY.match(name)
            base, n = (m.group(1) + m.group(3), int(m.group(2) or 1)) if m else (name, 1)
            if base not in self.newest or n > self.newest[base][0]:
                self.newest[base] = (n, name)

    def name(self, base):
        return self.newest[base][1] if base in self.newest else None

    def bench_logs(self):
        return sorted(n for n in self.sizes if n.startswith("bench-") and n.endswith(".log"))

    def read(self, name, problems):
        """The text of file name, or None (named in problems)."""
        full = os.path.join(self.path, name)
        if self.sizes[name] > MAX_FILE:
            problems.append("%s: %d bytes, more than the %d this report reads" % (full, self.sizes[name],
                                                                                   MAX_FILE))
            return None
        with open(full, "rb") as f:
            data = f.read(MAX_FILE + 1)
        if b"\0" in data:
            problems.append("%s: holds NUL bytes: not a text file" % full)
            return None
        return data.decode("utf-8", errors="replace")


def read_csv(folder, name, header, problems):
    """[(line number, [int...])] of a CSV with the given header: every value
    an unsigned integer; a bad line is named and left out."""
    path = os.path.join(folder.path, name)
    text = folder.read(name, problems)
    if text is None:
        return []
    lines = text.splitlines()
    if not lines or lines[0].strip() != ",".join(header):
        problems.append("%s:1: header %r, expected %r" % (path, lines[0][:80] if lines else "", ",".join(header)))
        return []
    rows = []
    for n, fields in enumerate(csv.reader(io.StringIO("\n".join(lines[1:]))), 2):
        if len(fields) != len(header) or not all(re.fullmatch(r"\d{1,20}", f) for f in fields):
            problems.append("%s:%d: %r is not %d unsigned integers" % (path, n, ",".join(fields)[:80],
                                                                       len(header)))
            continue
        rows.append((n, [int(f) for f in fields]))
    return rows


def cpu_table(text):
    """(column names, {cpu: {column: value}}) of a `cpus` table: the
    kernel's (cpus.txt) or build/cpuid-replay --cpus's."""
    header, rows = [], {}
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["cpu", "apic"]:
            header = words
        elif header and CPU_LINE.match(line) and len(words) >= len(header):
            rows[int(words[0])] = dict(zip(header, words))
    return header, rows


def source_of(text):
    """Where the kernel's descriptors came from, as `cpus` says."""
    m = re.search(r"descriptors from (.+)$", text, re.M)
    return m.group(1).strip() if m else "unknown"


def mosaic_tree(text):
    """The lines under 'tree: mosaic' of a topology print (`topo`, or
    build/cpuid-replay --topo), up to the next tree."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("tree: mosaic"):
            tree = []
            for rest in lines[i + 1:]:
                if rest.startswith(("topology: ", "tree: ", "#")):
                    break
                tree.append(rest.rstrip())
            return tree
    return []


def cpu_row(row, cols):
    return " ".join(row[c] for c in cols) if row else "(none)"


def run_replay(replay, what, dump, problems):
    try:
        p = subprocess.run([replay, what, dump], capture_output=True, text=True, timeout=120)
    except OSError as e:
        problems.append("%s: %s (build it with `make build/cpuid-replay`, or name it with --replay)" % (
            replay, e.strerror))
        return None
    except subprocess.TimeoutExpired:
        problems.append("%s %s %s: no answer in 120 s" % (replay, what, dump))
        return None
    if p.returncode != 0:
        problems.append("%s %s %s: exit %d: %s" % (replay, what, dump, p.returncode, p.stderr.strip()[:300]))
        return None
    return p.stdout


def round_trip(folder, replay, out, problems, summary):
    """The CPUID round trip's section; 1 when it differs where it must not."""
    cpuid, cpus, topo = folder.name("cpuid.txt"), folder.name("cpus.txt"), folder.name("topo.txt")
    out.append("## CPUID round trip\n")
    if not cpuid or not cpus:
        missing = " and ".join(n for n, f in (("cpuid.txt", cpuid), ("cpus.txt", cpus)) if not f)
        out.append("Not made: no %s in the folder.\n" % missing)
        summary.append("CPUID round trip: not made (no %s)" % missing)
        return 0
    kernel_text = folder.read(cpus, problems) or ""
    replayed = run_replay(replay, "--cpus", os.path.join(folder.path, cpuid), problems)
    if replayed is None:
        out.append("Not made: %s could not decode %s (see the problems).\n" % (replay, cpuid))
        summary.append("CPUID round trip: not made")
        return 1
    source = source_of(kernel_text)
    k_head, k_rows = cpu_table(kernel_text)
    r_head, r_rows = cpu_table(replayed)
    if not k_rows:
        problems.append("%s: no CPU table" % os.path.join(folder.path, cpus))
    cols = [c for c in r_head if c in k_head]
    out.append("`%s` decodes `%s` on the host; the kernel printed `%s` on the machine (its descriptors "
               "from %s). Columns: %s.\n" % (os.path.relpath(replay, ROOT) if replay.startswith(ROOT) else replay,
                                             cpuid, cpus, source, " ".join(cols)))
    out.append("| cpu | kernel | replay | |\n| --- | --- | --- | --- |")
    differ = []
    for cpu in sorted(set(k_rows) | set(r_rows)):
        k, r = k_rows.get(cpu), r_rows.get(cpu)
        bad = [c for c in cols if not k or not r or k.get(c) != r.get(c)]
        if bad:
            differ.append((cpu, bad))
        out.append("| %d | `%s` | `%s` | %s |" % (cpu, cpu_row(k, cols), cpu_row(r, cols),
                                                 "differs: " + ", ".join(bad) if bad else "same"))
    n = len(set(k_rows) | set(r_rows))
    emulated = source == "machine description"
    if not n:
        verdict = "not made: no CPU rows on either side"
        differ.append(("none", []))
    elif not differ:
        verdict = "the same on all %d CPUs" % n
    else:
        verdict = "different on %d of %d CPUs (%s%s)" % (len(differ), n, "; ".join(
            "cpu %d: %s" % (c, ", ".join(b)) for c, b in differ[:3]), "; ..." if len(differ) > 3 else "")
    if emulated and differ:
        verdict += ": expected, the kernel's CPUs came from a machine description, the dump is QEMU's CPUID"
    out.append("\nThe replay is %s.\n" % verdict)
    if topo:
        k_tree = mosaic_tree(folder.read(topo, problems) or "")
        r_topo = run_replay(replay, "--topo", os.path.join(folder.path, cpuid), problems) or ""
        r_tree = mosaic_tree(r_topo)
        same = k_tree == r_tree and k_tree
        out.append("Topology tree (`%s` on the machine, then the replay): %s.\n" % (
            topo, "the same" if same else "different"))
        out.append("```\n" + "\n".join(k_tree) + "\n```\n```\n" + "\n".join(r_tree) + "\n```\n")
        if not same and not emulated:
            differ.append(("tree", []))
    summary.append("CPUID round trip: %d CPUs, descriptors from %s; the replay is %s" % (n, source, verdict))
    return 1 if differ and not emulated else 0


def save_figure(plt, fig, out_dir, name, alt, out):
    """Writes fig to out_dir/name, closes it, and links it from the report."""
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name))
    plt.close(fig)
    out.append("\n![%s](%s)\n" % (alt, name))


def hfi_section(folder, out_dir, plots, out, problems, summary):
    name = folder.name("hfi-updates.csv")
    out.append("## HFI updates over time\n")
    if not name:
        out.append("No hfi-updates.csv in the folder.\n")
        summary.append("HFI: no hfi-updates.csv")
        return
    rows = read_csv(folder, name, HFI_HEADER, problems)
    updates = {}
    for n, (seq, t, hw, pkg, row, cls, perf, ee) in rows:
        if perf > 255 or ee > 255:
            problems.append("%s:%d: perf %d, ee %d: not HFI bytes (0..255)" % (
                os.path.join(folder.path, name), n, perf, ee))
            continue
        updates.setdefault(seq, (t, hw, {}))[2][(pkg, row, cls)] = (perf, ee)
    if not updates:
        out.append("No update recorded (no HFI, or the driver is off).\n")
        summary.append("HFI: no updates recorded")
        return
    out.append("| seq | time (s) | table timestamp | rows (package/row/class: perf/ee) |\n| --- | --- | --- | --- |")
    last = {}
    for seq in sorted(updates):
        t, hw, cells = updates[seq]
        changed = ["%d/%d/%d: %d/%d" % (k + v) for k, v in sorted(cells.items()) if last.get(k) != v]
        last.update(cells)
        out.append("| %d | %.3f | %d | %s |" % (seq, t / 1e9, hw, ", ".join(changed) or "(no change)"))
    times = [updates[s][0] for s in sorted(updates)]
    summary.append("HFI: %d update%s over %.3f s, %d rows" % (len(updates), "" if len(updates) == 1 else "s",
                                                               (times[-1] - times[0]) / 1e9, len(last)))
    if plots:
        plt = plots
        fig, axes = plt.subplots(2, 1, sharex=True, figsize=(8, 5))
        for key in sorted(last):
            xs, perf, ee = [], [], []
            for seq in sorted(updates):
                if key in updates[seq][2]:
                    xs.append(updates[seq][0] / 1e9)
                    perf.append(updates[seq][2][key][0])
                    ee.append(updates[seq][2][key][1])
            label = "package %d row %d class %d" % key
            axes[0].step(xs, perf, where="post", marker="o", label=label)
            axes[1].step(xs, ee, where="post", marker="o", label=label)
        axes[0].set_ylabel("perf (0..255)")
        axes[1].set_ylabel("ee (0..255)")
        axes[1].set_xlabel("guest time (s)")
        axes[0].legend(fontsize="small")
        save_figure(plt, fig, out_dir, "hfi.png", "HFI perf and ee over time", out)
    out.append("")


def rapl_section(folder, out_dir, plots, out, problems, summary):
    name = folder.name("rapl.csv")
    out.append("## Energy (RAPL)\n")
    rows = read_csv(folder, name, RAPL_HEADER, problems) if name else []
    if len(rows) < 2:
        out.append("Fewer than two readings: no energy to show.\n")
        summary.append("energy: %s" % ("no rapl.csv" if not name else "fewer than two readings"))
        return
    out.append("| from (s) | to (s) | package (J) | package (W) | cores (J) | cores (W) |\n"
               "| --- | --- | --- | --- | --- | --- |")
    starts, pkg_w, core_w = [], [], []
    for (_, a), (n1, b) in zip(rows, rows[1:]):
        dt = b[0] - a[0]
        if dt <= 0 or b[1] < a[1] or b[2] < a[2]:
            problems.append("%s:%d: the reading goes back in time or energy" % (os.path.join(folder.path, name), n1))
            continue
        pj, cj = (b[1] - a[1]) / 1e6, (b[2] - a[2]) / 1e6
        out.append("| %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |" % (a[0] / 1e9, b[0] / 1e9, pj, pj / (dt / 1e9),
                                                                   cj, cj / (dt / 1e9)))
        starts.append(a[0] / 1e9)
        pkg_w.append(pj / (dt / 1e9))
        core_w.append(cj / (dt / 1e9))
    span = (rows[-1][1][0] - rows[0][1][0]) / 1e9
    total = (rows[-1][1][1] - rows[0][1][1]) / 1e6
    summary.append("energy: %d readings over %.3f s, %.3f J, %.3f W average (package)" % (
        len(rows), span, total, total / span if span > 0 else 0))
    if plots and starts:
        plt = plots
        fig, ax = plt.subplots(figsize=(8, 3.5))
        end = [rows[-1][1][0] / 1e9]      # each interval's average, from its start to its end
        ax.step(starts + end, pkg_w + pkg_w[-1:], where="post", label="package")
        ax.step(starts + end, core_w + core_w[-1:], where="post", label="cores")
        ax.set_xlabel("guest time (s)")
        ax.set_ylabel("average power (W)")
        ax.legend(fontsize="small")
        save_figure(plt, fig, out_dir, "rapl.png", "average power between readings", out)
    out.append("")


def bench_section(folder, out_dir, no_plots, out, problems, summary):
    logs = folder.bench_logs()
    out.append("## Benchmarks\n")
    if not logs:
        out.append("No benchmark log (bench --save writes bench-WORKLOAD.log).\n")
        return
    for log in logs:
        sub = os.path.join(out_dir, log[:-4])
        args = [sys.executable, os.path.join(ROOT, "tools", "bench-report.py"), "-o", sub]
        p = subprocess.run(args + (["--no-plots"] if no_plots else []) + [os.path.join(folder.path, log)],
                           capture_output=True, text=True)
        blocks = [l for l in p.stdout.splitlines() if ": block " in l]
        for line in p.stderr.splitlines():
            problems.append(line)
        out.append("### %s\n\n%d CSV blocks -> `%s/` (tools/bench-report.py)\n" % (log, len(blocks), log[:-4]))
        summary.append("%s: %d CSV blocks -> %s" % (log, len(blocks), sub))
        written = sorted(os.listdir(sub)) if os.path.isdir(sub) else []
        for f in (f for f in written if f.endswith(".summary.csv")):
            with open(os.path.join(sub, f)) as fh:
                table = list(csv.DictReader(fh))
            out.append("%s:\n\n| policy | threads | runs | median | cv %% | %% of the baseline's median | "
                       "p (Mann-Whitney) |\n| --- | --- | --- | --- | --- | --- | --- |" % f)
            for r in table:
                out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    r["policy"], r["threads"], r["n"], r["median"], r["cv_pct"],
                    r["rate_median_pct"] or "-", r["mwu_p"] or "-"))
            out.append("")
        out += ["![%s](%s/%s)\n" % (f, log[:-4], f) for f in written if f.endswith(".png")]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", metavar="FOLDER")
    ap.add_argument("-o", dest="out", help="output directory (default build/results/<FOLDER's name>)")
    ap.add_argument("--replay", default=os.path.join(ROOT, "build", "cpuid-replay"),
                    help="the cpuid-replay binary (default build/cpuid-replay)")
    ap.add_argument("--no-plots", action="store_true", help="tables only")
    args = ap.parse_args(argv)
    folder_path = os.path.normpath(args.folder)
    try:
        folder = Folder(folder_path)
    except OSError as e:
        print("results-report: %s: %s" % (folder_path, e.strerror), file=sys.stderr)
        return 2
    if not any(folder.name(k) for k in KNOWN) and not folder.bench_logs():
        print("results-report: %s: not a results folder (none of %s)" % (folder_path, ", ".join(KNOWN)),
              file=sys.stderr)
        return 2
    out_dir = args.out or os.path.join("build", "results", os.path.basename(folder_path))
    os.makedirs(out_dir, exist_ok=True)
    plots = None
    problems, summary = [], []
    if not args.no_plots:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plots
        except ImportError:
            problems.append("no matplotlib (Debian: python3-matplotlib): no plots")
    out = ["# Results of %s\n" % os.path.basename(folder_path)]
    info = folder.name("sysinfo.txt")
    out.append("## Machine\n")
    text = folder.read(info, problems) if info else None
    if text is None:
        why = "%s could not be read" % info if info else "no sysinfo.txt"
        out.append("Not shown: %s%s.\n" % (why, " (see the problems)" if info else ""))
    else:
        out.append("```\n%s\n```\n" % text.strip())
    brand = re.search(r"^cpu: +(.+)$", text or "", re.M)
    summary.append("machine: %s" % (brand.group(1) if brand else "unknown (%s)" % (why if text is None
                                                                                   else "no cpu: line")))
    out.append("| file | bytes |\n| --- | --- |")
    out += ["| %s | %d |" % (n, s) for n, s in sorted(folder.sizes.items())]
    out.append("")
    differs = round_trip(folder, args.replay, out, problems, summary)
    hfi_section(folder, out_dir, plots, out, problems, summary)
    rapl_section(folder, out_dir, plots, out, problems, summary)
    bench_section(folder, out_dir, plots is None, out, problems, summary)
    panic = folder.name("panic-report.txt")
    if panic:
        text = folder.read(panic, problems) or ""
        first = re.search(r"^panic: .*$", text, re.M)
        out.append("## Panic report of an earlier boot\n\n```\n%s\n```\n" % text.rstrip())
        summary.append("panic report: %d bytes (%s)" % (len(text), first.group(0) if first else "no panic line"))
    if problems:
        out.append("## Problems\n\n" + "\n".join("- " + p for p in problems) + "\n")
    report = os.path.join(out_dir, "report.md")
    with open(report, "w") as f:
        f.write("\n".join(out))
    print("results-report: %s -> %s" % (folder_path, report))
    for line in summary:
        print("  " + line)
    for p in problems:
        print("results-report: " + p, file=sys.stderr)
    return 1 if problems or differs else 0


if __name__ == "__main__":
    sys.exit(main())
