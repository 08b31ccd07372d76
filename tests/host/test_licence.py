# SPDX-License-Identifier: BSD-2-Clause
"""Every source file carries the BSD 2-Clause licence line
(tools/spdx.py --check: C, headers, assembly, Python, shell, Makefiles,
linker, gdb and GRUB scripts), and the licence itself is in LICENSE. The
self-test runs the check in a scratch repository with one file without
the line and one with it."""
import os
import shutil
import subprocess
import sys



def test_every_source_file_has_its_licence_line(ctx):
    p = subprocess.run([sys.executable, os.path.join(ctx.root, "tools", "spdx.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    with open(os.path.join(ctx.root, "LICENSE")) as f:
        text = f.read()
    assert text.startswith("BSD 2-Clause License") and "The Mosaic authors" in text, text[:200]


def test_the_check_names_a_file_without_it(ctx):
    repo = os.path.join(ctx.tmp, "repo")
    os.makedirs(os.path.join(repo, "tools"))
    os.makedirs(os.path.join(repo, "kernel"))
    shutil.copy(os.path.join(ctx.root, "tools", "spdx.py"), os.path.join(repo, "tools", "spdx.py"))
    with open(os.path.join(repo, "kernel", "bare.c"), "w") as f:
        f.write("int bare;\n")
    with open(os.path.join(repo, "kernel", "fine.h"), "w") as f:
        f.write("/* SPDX-License-Identifier: BSD-2-Clause */\n")
    with open(os.path.join(repo, "notes.md"), "w") as f:
        f.write("docs carry none\n")
    subprocess.run(["git", "init", "-q", repo], check=True)
    subprocess.run(["git", "-C", repo, "add", "."], check=True)
    spdx = [sys.executable, os.path.join(repo, "tools", "spdx.py")]
    p = subprocess.run(spdx + ["--check"], capture_output=True, text=True)
    assert p.returncode == 1 and "kernel/bare.c" in p.stdout, p.stdout
    assert "fine.h" not in p.stdout and "notes.md" not in p.stdout and "spdx.py" in p.stdout, p.stdout
    subprocess.run(spdx, check=True, capture_output=True)
    with open(os.path.join(repo, "kernel", "bare.c")) as f:
        assert f.read() == "/* SPDX-License-Identifier: BSD-2-Clause */\nint bare;\n"
    p = subprocess.run(spdx + ["--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout
