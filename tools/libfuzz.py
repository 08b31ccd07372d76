#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The libFuzzer side of the fuzz harnesses (tests/fuzz/fuzz.h built with
-DFUZZ_LIBFUZZER; docs/testing.md, "Fuzzing"). Each harness NAME has a
committed corpus tests/fuzz/corpus/NAME/ and a scratch corpus
BUILD/libfuzz-corpus/NAME/ that fuzzing adds to.

  tools/libfuzz.py [-j N] run SECONDS NAME...   fuzz each for SECONDS
        (N at once) from its scratch corpus, first topped up with the
        committed one; a crash or failed check fails it (exit status 1),
        with the input saved as BUILD/libfuzz-crash/NAME-crash-<sha1>
  tools/libfuzz.py merge NAME...         add to the committed corpus the
        scratch inputs that reach code (edges) it does not reach yet;
        committed inputs are never dropped
  tools/libfuzz.py coverage NAME:SRC:SRC... ...   replay each committed
        corpus through BUILD/libfuzz-cov/fuzz_NAME and print, per source
        file, the lines reached (a markdown table)

--build DIR (default build) is where the binaries are."""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def committed(name):
    return os.path.join(ROOT, "tests", "fuzz", "corpus", name)


def files_of(d):
    """The regular files of directory d, sorted (none if d is missing)."""
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)))


def fuzz_one_harness(build, seconds, name):
    """Fuzzes one harness for seconds; returns (ok, the lines to print)."""
    scratch = os.path.join(build, "libfuzz-corpus", name)
    crash_dir = os.path.join(build, "libfuzz-crash")
    os.makedirs(scratch, exist_ok=True)
    os.makedirs(crash_dir, exist_ok=True)
    for f in files_of(committed(name)):
        dst = os.path.join(scratch, os.path.basename(f))
        if not os.path.exists(dst):
            shutil.copy(f, dst)
    log = os.path.join(build, "libfuzz-corpus", name + ".log")
    before = len(files_of(scratch))
    with open(log, "w") as out:
        p = subprocess.run([os.path.join(build, "libfuzz", "fuzz_" + name),
                            "-max_total_time=%d" % seconds, "-print_final_stats=1",
                            "-artifact_prefix=" + os.path.join(crash_dir, name + "-"), scratch],
                           cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    with open(log) as f:
        text = f.read()
    if p.returncode != 0:
        return False, "libfuzz %s: FAILED (exit status %d), log %s:\n%s" % (
            name, p.returncode, log, "\n".join(text.splitlines()[-40:]))
    stats = dict((k.strip(), v.strip()) for k, v in
                 (l[len("stat::"):].split(":", 1) for l in text.splitlines() if l.startswith("stat::")))
    return True, "libfuzz %s: %d s, %s inputs run (%s/s), scratch corpus %d -> %d files: ok" % (
        name, seconds, stats.get("number_of_executed_units", "?"), stats.get("average_exec_per_sec", "?"),
        before, len(files_of(scratch)))


def run(build, seconds, jobs, names):
    """Fuzzes each harness for seconds, jobs at a time; 1 if any failed."""
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for ok, report in pool.map(lambda n: fuzz_one_harness(build, seconds, n), names):
            print(report, flush=True)
            failed |= not ok
    return 1 if failed else 0


def merge(build, names):
    """Adds to each committed corpus the scratch inputs that reach new edges.
    libFuzzer's merge control file lists, per input in the order it ran
    them (committed ones first), the edges no earlier input reached."""
    for name in names:
        scratch = os.path.join(build, "libfuzz-corpus", name)
        os.makedirs(committed(name), exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            first = os.path.join(tmp, "committed")
            shutil.copytree(committed(name), first)
            control = os.path.join(tmp, "control")
            subprocess.run([os.path.join(build, "libfuzz", "fuzz_" + name), "-merge=1",
                            "-merge_control_file=" + control, first, scratch],
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(control) as f:
                lines = f.read().splitlines()
            count, first_count = int(lines[0]), int(lines[1])
            paths = lines[2:2 + count]
            added = 0
            for l in lines[2 + count:]:
                words = l.split()
                if words[0] != "COV" or len(words) < 3 or int(words[1]) < first_count:
                    continue
                with open(paths[int(words[1])], "rb") as f:
                    data = f.read()
                with open(os.path.join(committed(name), hashlib.sha1(data).hexdigest()), "wb") as f:
                    f.write(data)
                added += 1
        print("libfuzz %s: %d inputs added, committed corpus %d files" % (name, added,
                                                                       len(files_of(committed(name)))))
    return 0


def coverage(build, specs):
    """Lines of each source reached by replaying the committed corpora."""
    print("| harness | source file | lines | reached | % |")
    print("|---|---|---:|---:|---:|")
    for spec in specs:
        name, *sources = spec.split(":")
        binary = os.path.join(build, "libfuzz-cov", "fuzz_" + name)
        raw = os.path.join(build, "libfuzz-cov", name + ".profraw")
        data = os.path.join(build, "libfuzz-cov", name + ".profdata")
        subprocess.run([binary] + files_of(committed(name)), cwd=ROOT, check=True,
                       env=dict(os.environ, LLVM_PROFILE_FILE=raw),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["llvm-profdata", "merge", "-sparse", raw, "-o", data], check=True)
        out = subprocess.run(["llvm-cov", "export", "-summary-only", binary, "-instr-profile=" + data]
                             + sources, cwd=ROOT, check=True, capture_output=True, text=True).stdout
        for f in sorted(json.loads(out)["data"][0]["files"], key=lambda f: f["filename"]):
            lines = f["summary"]["lines"]
            path = f["filename"]
            print("| %s | `%s` | %d | %d | %.0f |" % (name, os.path.relpath(path, ROOT) if os.path.isabs(path) else path,
                                                      lines["count"], lines["covered"], lines["percent"]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("-j", dest="jobs", type=int, default=1, help="run: harnesses at once")
    ap.add_argument("command", choices=["run", "merge", "coverage"])
    ap.add_argument("args", nargs="+")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if a.command == "run":
        return run(build, int(a.args[0]), a.jobs, a.args[1:])
    if a.command == "merge":
        return merge(build, a.args)
    return coverage(build, a.args)


if __name__ == "__main__":
    sys.exit(main())
