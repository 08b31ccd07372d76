# SPDX-License-Identifier: BSD-2-Clause
"""tools/deps.sh's package sets: booting (make run-qemu) needs only the boot
set, so a machine with just those packages starts QEMU without installing
anything; make test and make bench ask for theirs; without dpkg the script
prints the Debian names and goes on; the README lists every package.
Each check runs the script under a fake dpkg-query (a list of "installed"
packages) and a fake apt-get that records what it was asked for."""
import os
import re
import stat
import subprocess



def fake_bin(ctx, installed, root=True):
    """A PATH folder with dpkg-query answering for `installed`, apt-get
    recording its arguments in ctx.tmp/apt.log, id -u giving 0 (root) or 1000."""
    bin_dir = os.path.join(ctx.tmp, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    with open(os.path.join(ctx.tmp, "installed"), "w") as f:
        f.write("".join(p + "\n" for p in installed))
    scripts = {
        "dpkg-query": '#!/bin/sh\nfor p; do :; done\n'
                      'grep -qx "$p" "%s/installed" && printf "install ok installed"\nexit 0\n' % ctx.tmp,
        "apt-get": '#!/bin/sh\necho "$@" >> "%s/apt.log"\n' % ctx.tmp,
        "id": '#!/bin/sh\necho %d\n' % (0 if root else 1000),
    }
    for name, text in scripts.items():
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return bin_dir


def deps(ctx, args, path):
    return subprocess.run(["/bin/bash", os.path.join(ctx.root, "tools", "deps.sh"), *args],
                          capture_output=True, text=True, env=dict(os.environ, PATH=path))


def set_of(ctx, name):
    """The packages of a set: what --list reports missing when none is installed."""
    p = deps(ctx, ["--list", name], fake_bin(ctx, []) + ":/usr/bin:/bin")
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def apt_log(ctx):
    path = os.path.join(ctx.tmp, "apt.log")
    return open(path).read() if os.path.exists(path) else ""


def test_make_run_qemu_needs_only_the_boot_set(ctx):
    boot, test = set_of(ctx, "boot"), set_of(ctx, "test")
    for tool in ["gcc", "nasm", "gnu-efi", "qemu-system-x86", "ovmf", "mtools"]:
        assert tool in boot, boot
    for heavy in ["clang", "llvm", "libcmocka-dev", "python3-scipy", "python3-matplotlib"]:
        assert heavy not in boot and heavy in test, (heavy, boot, test)
    # the targets: run-qemu asks for boot alone, test and bench for theirs
    dry = {}
    for target in ["run-qemu", "test", "bench"]:
        p = subprocess.run(["make", "--no-print-directory", "-n", target, "MAKE=true"], cwd=ctx.root,
                           capture_output=True, text=True)
        dry[target] = re.findall(r"^tools/deps\.sh (.*)$", p.stdout, re.M)
    assert dry == {"run-qemu": ["boot"], "test": ["test"], "bench": ["boot report"]}, dry
    # a machine with only the boot packages: nothing to install, no apt-get
    path = fake_bin(ctx, boot) + ":/usr/bin:/bin"
    p = deps(ctx, ["boot"], path)
    assert p.returncode == 0 and apt_log(ctx) == "", (p.stdout, p.stderr, apt_log(ctx))
    p = deps(ctx, ["--list", "test"], path)
    assert sorted(p.stdout.split()) == sorted(set(test) - set(boot)), p.stdout
    # make test there installs the rest (as root), and only the rest
    p = deps(ctx, ["test"], path)
    assert p.returncode == 0, p.stderr
    wanted = apt_log(ctx).splitlines()[-1].split()
    assert sorted(w for w in wanted if not w.startswith("-")) == sorted(["install"] + list(set(test) - set(boot))), wanted


def test_not_root_gets_the_apt_line(ctx):
    path = fake_bin(ctx, [], root=False) + ":/usr/bin:/bin"
    p = deps(ctx, ["boot"], path)
    assert p.returncode == 1 and "apt-get update && apt-get install -y gcc" in p.stderr, p.stderr
    assert apt_log(ctx) == "", apt_log(ctx)


def test_without_dpkg_the_list_is_printed(ctx):
    """No dpkg-query on PATH (not Debian): the boot set's names are printed
    and the script succeeds, so the build goes on."""
    bin_dir = os.path.join(ctx.tmp, "nodpkg")
    os.makedirs(bin_dir)
    for tool in ["awk", "tr", "bash"]:
        os.symlink("/usr/bin/" + tool if os.path.exists("/usr/bin/" + tool) else "/bin/" + tool,
                   os.path.join(bin_dir, tool))
    p = deps(ctx, ["boot"], bin_dir)
    assert p.returncode == 0, p.stderr
    assert "no dpkg here" in p.stderr and "gnu-efi" in p.stderr and "clang" not in p.stderr, p.stderr
    p = deps(ctx, ["--list", "report"], bin_dir)
    assert p.stdout.split() == ["python3", "python3-scipy", "python3-matplotlib"], p.stdout


def test_readme_lists_every_package(ctx):
    with open(os.path.join(ctx.root, "README.md")) as f:
        text = f.read()
    for name in set(set_of(ctx, "test")) | set(set_of(ctx, "boot")):
        assert "`%s`" % name in text, "README.md does not list the package %s" % name
