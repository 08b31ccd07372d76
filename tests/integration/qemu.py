# SPDX-License-Identifier: BSD-2-Clause
"""A QEMU machine running Mosaic, driven over its serial console.

Every wait has a timeout, and the whole QEMU process group is killed when
the machine is closed, whatever happened."""
import os
import re
import signal
import socket
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT = "mosaic> "
BOOT_TIMEOUT = 120
PANIC_GRACE_S = 60    # after a kernel panic line, for its report (every CPU's backtrace) to end


class TestFailure(Exception):
    __test__ = False    # an exception the tests raise, not a class of tests for pytest


class Machine:
    def __init__(self, name, log_dir, smp=None, mem=None, run=None, cmdline=None,
                 iso=None, esp=None, reboot=False, machine_file=None,
                 machine_check=True, qemu_run_args=()):
        """smp/mem: QEMU's CPUs and memory; without them the machine file's,
        or 1 CPU and 512M when there is no machine file. machine_file: a file
        or a preset name (docs/machines.md); machine_check=False hands it to
        the guest without the host's check (tests of the kernel's checks).
        qemu_run_args: more options of tools/qemu-run.sh (--usb-kbd,
        --no-ps2, --no-serial-input, --vga WxH)."""
        self.name = name
        self.log_path = os.path.join(log_dir, name + ".log")
        # Every machine has a monitor socket: a test may drive it, and a
        # timeout reads where each CPU is (hang_report).
        self.monitor_path = os.path.join("/tmp", "mosaic-mon-%d-%s.sock" % (os.getpid(), name))
        self.kernel_elf = os.path.join(os.path.dirname(os.path.abspath(esp)) if esp else
                                       os.path.join(ROOT, "build"), "kernel.elf")
        if not machine_file:
            smp, mem = smp or 1, mem or "512M"
        args = [os.path.join(ROOT, "tools/qemu-run.sh")]
        if smp:
            args += ["--smp", str(smp)]
        if mem:
            args += ["--mem", mem]
        if iso:
            args += ["--usb-iso", iso]
        else:
            args += ["--esp", esp or os.path.join(ROOT, "build/esp.img")]
        if machine_file:    # docs/machines.md
            args += ["--machine-file", machine_file]
            if not machine_check:
                args += ["--no-machine-check"]
        if run is not None:
            args += ["--run", run]
        if cmdline:
            args += ["--cmdline", cmdline]
        args += ["--monitor", self.monitor_path]
        if reboot:
            args += ["--allow-reboot"]
        args += list(qemu_run_args)
        self.output = ""
        self.pos = 0            # expect() consumes output up to here
        self.lock = threading.Lock()
        self.log = open(self.log_path, "w", encoding="latin-1")
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            data = self.proc.stdout.read1(4096)
            if not data:
                return
            text = data.decode("latin-1")
            with self.lock:
                self.output += text
            self.log.write(text)
            self.log.flush()

    def tail(self, n=1500):
        with self.lock:
            return self.output[-n:]

    def expect(self, pattern, timeout=60):
        """Wait for regex pattern in output not yet consumed; return the match
        and consume through it. Fails on timeout or if QEMU ends first."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        panicked = None   # when a kernel panic was first seen in what is not yet consumed
        while True:
            with self.lock:
                m = rx.search(self.output, self.pos)
                if m:
                    self.pos = m.end()
                    return m
            if self.proc.poll() is not None:
                self.reader.join(2)
                with self.lock:
                    m = rx.search(self.output, self.pos)
                    if m:
                        self.pos = m.end()
                        return m
                raise TestFailure("QEMU exited (status %s) before %r appeared; output ends:\n%s"
                                  % (self.proc.returncode, pattern, self.tail()))
            if panicked is None and "\npanic: " in self.output[self.pos:]:
                panicked = time.monotonic()
            # A panic prints its report (every CPU's backtrace) within
            # seconds, then nothing more comes: give up then, not at timeout.
            if panicked is not None and time.monotonic() > min(deadline, panicked + PANIC_GRACE_S):
                raise TestFailure("the kernel panicked while waiting for %r; output ends:\n%s%s"
                                  % (pattern, self.tail(4000), self.hang_report()))
            if time.monotonic() > deadline:
                raise TestFailure("timed out after %ds waiting for %r; output ends:\n%s%s"
                                  % (timeout, pattern, self.tail(), self.hang_report()))
            time.sleep(0.05)

    def wait_prompt(self, timeout=BOOT_TIMEOUT):
        self.expect(re.escape(PROMPT), timeout)

    def send(self, text):
        self.proc.stdin.write(text.encode("latin-1"))
        self.proc.stdin.flush()

    def command(self, line, timeout=30, prompt=PROMPT):
        """Type line + Enter at the prompt; return what the command printed
        (between the echoed line and the next prompt)."""
        self.send(line + "\r")
        self.expect(re.escape(line[-20:]) if line else "", timeout)
        start = self.pos
        # The prompt always starts a line; output may contain the prompt text
        # elsewhere (sysctl kern.shell.prompt).
        self.expect(r"\n" + re.escape(prompt), timeout)
        with self.lock:
            return self.output[start:self.pos - len(prompt)]

    def monitor(self, cmd):
        """One QEMU monitor command."""
        deadline = time.monotonic() + 10
        while not os.path.exists(self.monitor_path):
            if time.monotonic() > deadline:
                raise TestFailure("QEMU monitor socket never appeared")
            time.sleep(0.1)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(10)
            s.connect(self.monitor_path)
            s.sendall((cmd + "\n").encode())
            time.sleep(0.3)

    def monitor_query(self, cmd, timeout=10):
        """One monitor command; returns what the monitor printed for it."""
        deadline = time.monotonic() + 10
        while not os.path.exists(self.monitor_path):
            if time.monotonic() > deadline:
                raise TestFailure("QEMU monitor socket never appeared")
            time.sleep(0.1)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(self.monitor_path)
            s.sendall((cmd + "\n").encode())
            data = b""
            end = time.monotonic() + timeout
            while time.monotonic() < end and data.count(b"(qemu)") < 2:
                try:
                    chunk = s.recv(4096)
                except socket.timeout:
                    break
                if not chunk:
                    break
                data += chunk
            return data.decode("latin-1")

    def hang_report(self):
        """Where each vCPU is, for a failure message after a timeout: its RIP
        and, inside the kernel, the function and line (addr2line on the
        kernel ELF). The monitor's full register dump goes to the log."""
        if self.proc.poll() is not None or not os.path.exists(self.monitor_path):
            return ""
        try:
            regs = self.monitor_query("info registers -a")
        except (OSError, TestFailure) as e:
            return "\n(no register dump: %s)" % e
        with self.lock:
            self.log.write("\n==== hang report: info registers -a ====\n" + regs + "\n")
            self.log.flush()
        rips = re.findall(r"RIP=([0-9a-f]{16})", regs)
        if not rips:
            return "\n(no register dump from the monitor)"
        where = ["?"] * len(rips)
        if os.path.exists(self.kernel_elf):   # -a: each address, then its (inlined) frames
            try:
                p = subprocess.run(["addr2line", "-a", "-i", "-f", "-s", "-e", self.kernel_elf] +
                                   ["0x" + r for r in rips], capture_output=True, text=True, timeout=20)
                blocks = re.split(r"^0x[0-9a-f]+\n", p.stdout, flags=re.M)[1:]
                where = [" < ".join("%s %s" % (f, l) for f, l in zip(b.splitlines()[::2], b.splitlines()[1::2]))
                         for b in blocks]
            except (OSError, subprocess.TimeoutExpired):
                pass
        return "\nwhere the CPUs are (QEMU monitor, %s):\n%s" % (
            os.path.basename(self.log_path),
            "\n".join("  cpu %d: RIP %s %s" % (i, r, w) for i, (r, w) in enumerate(zip(rips, where))))

    def wait_exit(self, timeout=BOOT_TIMEOUT):
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise TestFailure("QEMU still running after %ds; output ends:\n%s%s"
                              % (timeout, self.tail(), self.hang_report()))
        self.reader.join(5)
        return rc

    def close(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait()
        self.reader.join(2)
        self.log.close()
        if os.path.exists(self.monitor_path):
            os.unlink(self.monitor_path)
