#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""file-circles.py: the circles of kernel files: sets of files each of
which reaches every other by what it uses (a file uses another when it
calls a function or reads a variable the other defines, as the linker
sees it). A circle cannot be understood, tested or changed one file at a
time; the base services (printk, panic, the allocators, spinlocks) must
stay out of the big one, which is the scheduler's core loop (tick, IPI,
switch, scheduler). docs/architecture.md, "Circles".

Reads the kernel's objects (run `make` first): for each kernel source
(kernel/**/*.c and *.asm) its object under BUILD/kernel/, whose defined and
undefined symbols `nm` lists. Prints every circle of two files or more,
largest first, as SIZE then its files; with --max N exits 1 when the
largest has more than N files.

usage: tools/file-circles.py [--build DIR] [--max N] [--edges]
  --edges: under each file, the files of its circle it uses and for what
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_objects(build):
    """{source path: object path} for every kernel source; exits naming the
    first object missing."""
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "kernel"], check=True, capture_output=True,
                         text=True).stdout.split()
    objs = {}
    for src in out:
        if src.endswith(".c"):
            obj = os.path.join(build, src[:-2] + ".o")
        elif src.endswith(".asm"):
            obj = os.path.join(build, src + ".o")
        else:
            continue
        if not os.path.isfile(obj):
            sys.exit("file-circles: no %s (run make first)" % obj)
        objs[src] = obj
    return objs


def symbols(objs):
    """{source: (defined, undefined) global symbols of its object}, for
    objs {source: object} (one run of nm)."""
    by_obj = {obj: src for src, obj in objs.items()}
    out = {src: (set(), set()) for src in objs}
    text = subprocess.run(["nm", "-A"] + sorted(by_obj), check=True, capture_output=True, text=True).stdout
    for line in text.splitlines():
        cut = line.index(".o:") + 2   # "OBJECT.o:VALUE T NAME", "OBJECT.o:         U NAME"
        obj, parts = line[:cut], line[cut + 1:].split()
        defined, undefined = out[by_obj[obj]]
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRVW":
            defined.add(parts[2])
    return out


def graph(files):
    """files: {name: (defined, undefined)}. Returns {name: {used name:
    [symbols]}}: name uses what another file defines."""
    owner = {}
    for name in sorted(files):
        for sym in files[name][0]:
            owner.setdefault(sym, name)
    g = {}
    for name, (_, undefined) in files.items():
        uses = {}
        for sym in undefined:
            other = owner.get(sym)
            if other and other != name:
                uses.setdefault(other, []).append(sym)
        g[name] = uses
    return g


def circles(g):
    """The strongly connected components of g with two files or more,
    largest first (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return sorted(found, key=lambda c: (-len(c), c))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--max", type=int)
    ap.add_argument("--edges", action="store_true")
    args = ap.parse_args()
    files = symbols(kernel_objects(args.build))
    g = graph(files)
    found = circles(g)
    for comp in found:
        print("%d files:" % len(comp))
        members = set(comp)
        for f in comp:
            print("  " + f)
            if args.edges:
                for other in sorted(set(g[f]) & members):
                    print("      uses %s (%s)" % (other, ", ".join(sorted(g[f][other]))))
    largest = len(found[0]) if found else 0
    print("largest circle: %d files" % largest)
    if args.max is not None and largest > args.max:
        sys.exit("file-circles: the largest circle has %d files, more than %d" % (largest, args.max))


if __name__ == "__main__":
    main()
