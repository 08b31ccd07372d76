# SPDX-License-Identifier: BSD-2-Clause
"""tools/seed-figures.py (`make seed-figures`): a figure per table of the
seed report (tests/data/seed-report/tables.csv) from a short schedsim run
of its seed experiment: PNG and SVG, the caption line, the table's rows and
columns in the SVG's text and in the CSV beside it, the measured values
the report's and the modelled ones schedsim's; a QEMU-style log as the
model's side; the seed data parsed; damaged tables, index and logs named
with their line while the other table is still drawn."""
import csv
import html
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "seed-figures.py")
DATA = os.path.join(ROOT, "tests", "data", "seed-report")
spec = importlib.util.spec_from_file_location("seed_figures", TOOL)
seed_figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(seed_figures)

STATS = ["Min", "Max", "Avg.", "Median", "Median Per Core"]
RATES = ["Rate(Avg.)", "Rate(Median)", "Rate(Max-Min)", "Rate(Min-Min)"]


def run_tool(ctx, *args):
    p = subprocess.run([sys.executable, TOOL, "--schedsim", os.path.join(ctx.build, "schedsim"),
                        "--commit", "testrev"] + list(args), capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def index():
    with open(os.path.join(DATA, "tables.csv")) as f:
        return list(csv.DictReader(f))


def report_rows(path):
    """{kernel index: {row label: [value words]}}, "rates": {...} and the
    columns, read from a .table file word by word (independently of the
    tool's reader)."""
    kernels, cols, rates = [], None, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if line.startswith("[Kernel Config] "):
                kernels.append((line[16:].strip(), {}))
            elif w[:2] == ["Use", "Cores"]:
                cols = w[2:]
            elif w and not w[0].startswith("-"):
                label = " ".join(w[:-len(cols)]).replace("Meian", "Median")
                (rates if label.startswith("Rate(") else kernels[-1][1])[label] = w[-len(cols):]
    return kernels, cols, rates


def csv_blocks(log, name):
    """The rows (dicts) of CSV block name in a log."""
    with open(log) as f:
        text = f.read()
    m = re.search(r"--- mosaic-bench-csv begin %s schema=\S+ ---\n(.*?)--- mosaic-bench-csv end " % re.escape(name),
                  text, re.S)
    return list(csv.DictReader(m.group(1).splitlines()))


def svg_texts(path):
    with open(path) as f:
        return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", f.read())]


def check_figure(out, entry, runs, policies=("ule", "hmp")):
    """The figure of one seed table: PNG, SVG with its caption, rows and
    columns, and the CSV of the table's layout with the report's values
    and the log's."""
    base = os.path.join(out, "seed-table-%s-%s" % (entry["table"], entry["machine"]))
    with open(base + ".png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", base
    kernels, cols, rates = report_rows(os.path.join(DATA, entry["file"]))
    texts = svg_texts(base + ".svg")
    caption = [t for t in texts if " | modelled (schedsim, simulated time) | seed report: 12 runs" in t]
    assert len(caption) == 1, texts
    with open(os.path.join(ROOT, "machines", entry["machine"] + ".machine")) as f:
        model = re.search(r"^model (.+)$", f.read(), re.M).group(1)
    assert caption[0].startswith("%s | Mosaic testrev | %s vs %s | %d runs x 10 s per policy and thread count"
                                 % (model, policies[0], policies[1], runs)), caption
    assert any(t.startswith("Seed report table <%s>: %s" % (entry["table"], entry["system"])) for t in texts), texts
    joined = "\n".join(texts)
    for want in ["[Kernel Config] %s" % kernels[0][0], "[Kernel Config] %s" % kernels[1][0], "Sample 1..12",
                 "Min..Max", "Avg.", "Median", "Median Per Core", "measured", "modelled"] + RATES:
        assert want in joined, (want, texts)
    k = texts.index("Use Cores (threads)")
    assert texts[k - len(cols):k] == cols, texts[k - len(cols) - 2:k]   # the table's columns, in order

    log = base + ".log"
    sweep, summary = csv_blocks(log, "cpu"), csv_blocks(log, "cpu.summary")
    with open(base + ".csv") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["block", "row", "source"] + cols, rows[0]
    want = []
    for (name, report), policy in zip(kernels, policies):
        block = "[Kernel Config] %s" % name
        want += [[block, label, "seed report (measured)"] + report[label]
                 for label in ["Sample %d" % i for i in range(1, 13)] + STATS]
        for i in range(1, runs + 1):
            vals = {r["threads"]: r["value"] for r in sweep if r["policy"] == policy and r["sample"] == str(i)}
            want.append([block, "Sample %d" % i, "Mosaic %s (modelled)" % policy] + [vals[c] for c in cols])
        for label, col in zip(STATS, ["min", "max", "mean", "median", "median_per_core"]):
            vals = {r["threads"]: r[col] for r in summary if r["policy"] == policy}
            want.append([block, label, "Mosaic %s (modelled)" % policy] + [vals[c] for c in cols])
    for label, col in zip(RATES, ["rate_avg_pct", "rate_median_pct", "rate_max_min_pct", "rate_min_min_pct"]):
        want.append(["Rate %s / %s" % (kernels[1][0], kernels[0][0]), label, "seed report (measured)"]
                    + [v.rstrip("%") for v in rates[label]])
        vals = {r["threads"]: r[col] for r in summary if r["policy"] == policies[1]}
        want.append(["Rate %s / %s" % (policies[1], policies[0]), label, "Mosaic (modelled)"]
                    + [vals[c] for c in cols])
    assert rows[1:] == want, [(a, b) for a, b in zip(rows[1:], want) if a != b][:3]


def test_a_figure_per_seed_table(ctx):
    rc, out, err = run_tool(ctx, "-o", ctx.tmp, "--runs", "2")
    assert rc == 0 and err == "", (rc, out, err)
    entries = index()
    assert [e["table"] for e in entries] == ["1", "2"], entries
    for e in entries:
        assert ("seed table <%s> (%s): build/schedsim --machine %s --workload cpu --threads 4,6,8,10,12,16,20 "
                "--runs 2 --policy ule,hmp --compare tests/data/seed-report/%s -> "
                % (e["table"], e["file"], e["machine"], e["file"])) in out, out
        check_figure(ctx.tmp, e, 2)


def test_a_log_as_the_model_side(ctx):
    # A log of the right machine with two of the seven columns (the form
    # `bench sweep cpu` prints in QEMU, here from schedsim): drawn, the
    # missing columns named and left empty in the CSV; a log of another
    # machine is refused by name.
    log = os.path.join(ctx.tmp, "partial.log")
    with open(log, "w") as f:
        subprocess.run([os.path.join(ctx.build, "schedsim"), "--machine", "i7-1370p", "--workload", "cpu",
                        "--threads", "4,8", "--runs", "1", "--policy", "ule,hmp"],
                       stdout=f, stderr=subprocess.DEVNULL, check=True)
    data = os.path.join(ctx.tmp, "data")     # table <1> alone
    shutil.copytree(DATA, data)
    with open(os.path.join(data, "tables.csv")) as f:
        lines = f.read().splitlines()
    with open(os.path.join(data, "tables.csv"), "w") as f:
        f.write("\n".join(lines[:2]) + "\n")
    out = os.path.join(ctx.tmp, "out")
    rc, stdout, err = run_tool(ctx, "-o", out, "--data", data, "--log", "i7-1370p=" + log)
    assert rc == 0 and err == "", (rc, stdout, err)
    assert stdout == "seed table <1> (i7-1370p.table): the log %s -> %s/seed-table-1-i7-1370p.png, .svg, .csv; " \
        "not in the model's log: Use Cores 6,10,12,16,20\n" % (log, out), stdout
    with open(os.path.join(out, "seed-table-1-i7-1370p.csv")) as f:
        rows = list(csv.reader(f))
    median = [r for r in rows if r[1] == "Median" and r[2] == "Mosaic hmp (modelled)"][0]
    assert median[3] != "" and median[5] != "" and median[4] == median[6] == "", median
    texts = svg_texts(os.path.join(out, "seed-table-1-i7-1370p.svg"))
    assert any(t.startswith("Core i7-1370P (Raptor Lake-P) | commit: not in the log | ule vs hmp | 1 runs x 10 s")
               for t in texts), texts
    other = os.path.join(ROOT, "tests", "data", "bench-kernel-small-hybrid.log")
    rc, stdout, err = run_tool(ctx, "-o", out, "--data", data, "--log", "i7-1370p=" + other)
    assert rc == 1 and stdout == "", (rc, stdout, err)
    assert err == ("seed-figures: seed table <1>: %s: machine 'small hybrid (1 P-core x 2 threads + 2 E-cores)', "
                   "not machines/i7-1370p.machine's 'Core i7-1370P (Raptor Lake-P)'; skipped\n" % other), err
    rc, stdout, err = run_tool(ctx, "-o", out, "--data", data, "--log", "i7-1370p=" + other, "--log", "x=y")
    assert rc == 2 and "--log: no seed table of machine x" in err, (rc, err)


def test_the_seed_data_parses(ctx):
    for e in index():
        path = os.path.join(DATA, e["file"])
        t = seed_figures.parse_table(path)
        kernels, cols, rates = report_rows(path)
        assert t.columns == [4, 6, 8, 10, 12, 16, 20] == [int(c) for c in cols]
        assert [k.name for k in t.kernels] == ["GENERIC", "hmp(4) / intelhfi(4) enable + sched_ule(4) patched"]
        for k, (_, report) in zip(t.kernels, kernels):
            assert len(k.samples) == 12
            for c in range(7):
                col = [row[c] for row in k.samples]
                assert k.stats["Min"][c] == min(col) and k.stats["Max"][c] == max(col), (e, c)
                assert k.samples[0][c] == float(report["Sample 1"][c])
        assert t.rates["Rate(Median)"] == [float(v.rstrip("%")) for v in rates["Rate(Median)"]]
    assert seed_figures.parse_table(os.path.join(DATA, "i7-1370p.table")).rates["Rate(Median)"][0] == 112.51


def damaged(ctx, name, edit):
    """A copy of the seed data whose i7 table is edit(lines)."""
    data = os.path.join(ctx.tmp, name)
    shutil.copytree(DATA, data)
    path = os.path.join(data, "i7-1370p.table")
    with open(path) as f:
        lines = f.read().split("\n")
    with open(path, "w") as f:
        f.write("\n".join(edit(lines)))
    return data, path


def test_a_damaged_table_is_named_and_the_other_drawn(ctx):
    data, path = damaged(ctx, "data", lambda l: l[:3] + [l[3].replace("29256908.74", "29256908.7")] + l[4:])
    out = os.path.join(ctx.tmp, "out")
    rc, stdout, err = run_tool(ctx, "-o", out, "--runs", "1", "--data", data)
    assert rc == 1, (rc, stdout, err)
    assert err == ("seed-figures: seed table <1>: %s:4: '29256908.7' is not a value with two decimals; skipped\n"
                   % path), err
    assert "seed table <2> (core-ultra-7-155h.table)" in stdout and "seed table <1>" not in stdout, stdout
    for ext in ("png", "svg", "csv"):
        assert os.path.exists(os.path.join(out, "seed-table-2-core-ultra-7-155h." + ext))
        assert not os.path.exists(os.path.join(out, "seed-table-1-i7-1370p." + ext))
    # Each damage named with its line (or the file, for what is missing).
    cases = [
        (lambda l: l[:7] + l[8:], ":8: Sample 6, expected Sample 5"),
        (lambda l: l[:3] + [l[3] + " 1.00"] + l[4:], ":4: Sample 1 has 8 values, the table 7 columns (Use Cores)"),
        (lambda l: l + ["[Kernel Config] third"], ":51: a third [Kernel Config]: a table has two kernels"),
        (lambda l: l[:20] + ["Rate(Avg.) 1.00% 1.00% 1.00% 1.00% 1.00% 1.00% 1.00%"] + l[20:],
         ":21: Rate(Avg.) outside the second kernel's block, or twice"),
        (lambda l: l[:45], ": no Rate(Median), Rate(Max-Min), Rate(Min-Min) row"),
        (lambda l: [x for x in l if not x.startswith("Avg.")], ": kernel 'GENERIC' lacks Avg."),
        (lambda l: l[:22] + ["Use Cores 4 6 8 10 12 16 24"] + l[23:], ":23: Use Cores 4 6 8 10 12 16 24: not "
         "increasing, or not the first kernel's"),
        (lambda l: l[:4] + ["Sample 2 29004174.93 45073033.01 x 66035217.48 72613608.68 88284009.64 1.00"] + l[5:],
         ":5: 'x' is not a value with two decimals"),
        (lambda l: ["Sample 1 1.00"] + l, ":1: 'Sample 1 1.00' before the first [Kernel Config] line"),
        (lambda l: l[:5] + ["Hello 1.00 1.00 1.00 1.00 1.00 1.00 1.00"] + l[5:], ":6: unknown row 'Hello'"),
        (lambda l: l[:5] + ["---x---"] + l[5:], ":6: a separator holds more than - and +"),
        (lambda l: l[:5] + ["\0"] + l[5:], ": holds NUL bytes: not a text file"),
        (lambda l: l * 40, ": more than 65536 bytes: too large for seed report data"),
    ]
    for k, (edit, message) in enumerate(cases):
        _, path = damaged(ctx, "case%d" % k, edit)
        try:
            seed_figures.parse_table(path)
            raise AssertionError("case %d accepted" % k)
        except seed_figures.DataError as e:
            assert str(e) == path + message, (k, str(e), message)


def test_a_damaged_index_is_named(ctx):
    data = os.path.join(ctx.tmp, "data")
    shutil.copytree(DATA, data)
    idx = os.path.join(data, "tables.csv")
    for text, message, status in [
        ("file,table,system\n", "%s:1: header 'file,table,system', expected 'file,table,system,machine'", 2),
        ("file,table,system,machine\ni7-1370p.table,1,x,i7-1370p\n../x.table,2,y,z\n",
         "%s:3: '../x.table,2,y,z' is not file (NAME.table), table (1..99), system, machine (a preset name)", 2),
        ("file,table,system,machine\ni7-1370p.table,1,\"x\"y,i7-1370p\n",
         "%s:2: not CSV: ',' expected after '\"'", 2),
        ("file,table,system,machine\ni7-1370p.table,1,x,no-such-machine\n",
         "seed table <1>: %s/machines/no-such-machine.machine: No such file or directory; skipped" % ROOT, 1)]:
        with open(idx, "w") as f:
            f.write(text)
        rc, stdout, err = run_tool(ctx, "-o", os.path.join(ctx.tmp, "out"), "--runs", "1", "--data", data)
        assert rc == status and err == "seed-figures: %s\n" % (message % idx if "%s" in message else message), \
            (rc, err, message)


def test_mutated_tables_are_refused_cleanly(ctx):
    # Seeded mutations of a seed table: each is read, or refused with a
    # message naming the file; never another exception.
    with open(os.path.join(DATA, "core-ultra-7-155h.table"), "rb") as f:
        good = f.read()
    rnd = random.Random(33)
    path = os.path.join(ctx.tmp, "m.table")
    refused = 0
    for _ in range(400):
        data = bytearray(good)
        for _ in range(rnd.randint(1, 4)):
            at = rnd.randrange(len(data))
            op = rnd.randrange(3)
            if op == 0:
                data[at] = rnd.choice(b"0123456789.% -+\n\t[]xyz\xff")
            elif op == 1:
                del data[at:at + rnd.randint(1, 40)]
            else:
                data[at:at] = data[rnd.randrange(len(data)):][:rnd.randint(1, 80)]
        with open(path, "wb") as f:
            f.write(data)
        try:
            seed_figures.parse_table(path)
        except seed_figures.DataError as e:
            assert str(e).startswith(path + ":"), str(e)
            refused += 1
    assert refused > 300, refused

