# SPDX-License-Identifier: BSD-2-Clause
"""Every repository path a doc names exists. The docs are README.md,
docs/*.md and the README.md of each folder under kernel/; a path is a word
inside `backticks` that starts with one of the repository's top folders
(kernel/, docs/, tests/, tools/, ...), e.g. `kernel/sched/ule_add.c` or
`tools/fidelity.py MACHINE`; a trailing ":LINE", "()" or punctuation is
dropped. A pytest node id, `tests/host/test_deps.py::test_x`, names its file
and a test the file defines (the fuzz harnesses' items are `seeded` and
`libfuzzer`: tests/conftest.py). Words with a pattern or a placeholder in them (`wl_*.c`,
`hmp.[ch]`, `NAME.machine`, `<name>`, `$m`) are not paths and are skipped,
and so are paths under build/ (made by the build). A failure lists each
missing path as DOC:LINE: PATH."""
import glob
import os
import re
import shutil


TOP = ("kernel/", "docs/", "tests/", "tools/", "sim/", "boot/", "include/", "machines/",
       "userland/", "iso/", ".ci/")
CODE = re.compile(r"`([^`\n]+)`")
# A pattern, or a placeholder in capitals (NAME, MACHINE, FILE, ...) as a
# whole part of the name; README and the like are names, not placeholders.
NOT_A_PATH = re.compile(r"[*?\[\]{}<>$=|]|\.\.\.|…|(^|[/_.-])(?!README\b)[A-Z]{3,}([/_.-]|$)")


def docs(root):
    """The docs to check, relative to root."""
    found = ["README.md"] + sorted(glob.glob("docs/*.md", root_dir=root))
    found += sorted(glob.glob("kernel/**/README.md", root_dir=root, recursive=True))
    return found


def candidate(word):
    """The repository path word names, or None when it names none."""
    word = word.strip("'\",;.()")
    if not word.startswith(TOP) or NOT_A_PATH.search(word):
        return None
    word = re.sub(r":\d+(-\d+)?$", "", word)
    word = re.sub(r"\(\)$", "", word)
    return word.rstrip(",;.:")


def names_a_test(root, node_id):
    """Whether the pytest node id's file defines its test (the word in it)."""
    path, _, test = node_id.partition("::")
    if re.fullmatch(r"tests/fuzz/fuzz_\w+\.c", path) and test in ("seeded", "libfuzzer"):
        return True
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return re.search(r"\b%s\b" % re.escape(test.split("::")[-1]), f.read()) is not None


def missing_paths(root):
    """DOC:LINE: PATH for every path a doc names that root lacks."""
    missing = []
    for doc in docs(root):
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for code in CODE.findall(line):
                    for word in code.split():
                        path = candidate(word)
                        if not path:
                            continue
                        file = path.split("::")[0]
                        if not os.path.exists(os.path.join(root, file)) or \
                                ("::" in path and not names_a_test(root, path)):
                            missing.append("%s:%d: %s" % (doc, n, path))
    return missing


def test_every_path_a_doc_names_exists(ctx):
    missing = missing_paths(ctx.root)
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)


def test_the_check_finds_a_stale_path(ctx):
    root = os.path.join(ctx.tmp, "repo")
    os.makedirs(os.path.join(root, "docs"))
    os.makedirs(os.path.join(root, "kernel", "sched"))
    open(os.path.join(root, "kernel", "sched", "ule_add.c"), "w").close()
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write("See `kernel/sched/ule_add.c:12`, `kernel/sched/wl_*.c`, `machines/NAME.machine`.\n"
                "Rooms: `kernel/sched/README.md`.\n")
    with open(os.path.join(root, "docs", "x.md"), "w") as f:
        f.write("Run `tools/gone.py NAME` then read `kernel/machine/workclock.c`.\n"
                "Tests: `kernel/sched/ule_add.c::ule_add`, `kernel/sched/ule_add.c::gone`.\n")
    with open(os.path.join(root, "kernel", "sched", "ule_add.c"), "w") as f:
        f.write("void ule_add(void);\n")
    assert missing_paths(root) == ["README.md:2: kernel/sched/README.md",
                                   "docs/x.md:1: tools/gone.py",
                                   "docs/x.md:1: kernel/machine/workclock.c",
                                   "docs/x.md:2: kernel/sched/ule_add.c::gone"], missing_paths(root)
    shutil.rmtree(root)
