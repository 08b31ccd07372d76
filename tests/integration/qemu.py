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


class TestFailure(Exception):
    pass


class Machine:
    def __init__(self, name, log_dir, smp=None, mem=None, run=None, cmdline=None,
                 iso=None, esp=None, monitor=False, reboot=False, machine_file=None,
                 machine_check=True, qemu_run_args=()):
        """smp/mem: QEMU's CPUs and memory; without them the machine file's,
        or 1 CPU and 512M when there is no machine file. machine_file: a file
        or a preset name (docs/machines.md); machine_check=False hands it to
        the guest without the host's check (tests of the kernel's checks).
        qemu_run_args: more options of tools/qemu-run.sh (--usb-kbd,
        --no-ps2, --no-serial-input, --vga WxH)."""
        self.name = name
        self.log_path = os.path.join(log_dir, name + ".log")
        self.monitor_path = os.path.join("/tmp", "mosaic-mon-%d-%s.sock" % (os.getpid(), name)) if monitor else None
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
        if self.monitor_path:
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
            if time.monotonic() > deadline:
                raise TestFailure("timed out after %ds waiting for %r; output ends:\n%s"
                                  % (timeout, pattern, self.tail()))
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
        """One QEMU monitor command (needs monitor=True)."""
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

    def wait_exit(self, timeout=BOOT_TIMEOUT):
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise TestFailure("QEMU still running after %ds; output ends:\n%s" % (timeout, self.tail()))
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
        if self.monitor_path and os.path.exists(self.monitor_path):
            os.unlink(self.monitor_path)
