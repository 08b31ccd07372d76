# SPDX-License-Identifier: BSD-2-Clause
"""Typing through the QEMU monitor's `sendkey` into an emulated USB
keyboard (QEMU key names, US layout)."""
import re

_PLAIN = {" ": "spc", "\n": "ret", "-": "minus", "=": "equal", ",": "comma", ".": "dot",
          "/": "slash", ";": "semicolon", "'": "apostrophe", "[": "bracket_left",
          "]": "bracket_right", "\\": "backslash", "`": "grave_accent", "\t": "tab"}
_SHIFTED = {"_": "minus", "+": "equal", "<": "comma", ">": "dot", "?": "slash", ":": "semicolon",
            '"': "apostrophe", "{": "bracket_left", "}": "bracket_right", "|": "backslash",
            "~": "grave_accent", "!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6",
            "&": "7", "*": "8", "(": "9", ")": "0"}


def key_name(ch):
    """The sendkey argument that types ch."""
    if ch.islower() or ch.isdigit():
        return ch
    if ch.isupper():
        return "shift-" + ch.lower()
    if ch in _PLAIN:
        return _PLAIN[ch]
    if ch in _SHIFTED:
        return "shift-" + _SHIFTED[ch]
    raise ValueError("no key for %r" % ch)


def send(m, keys, hold_ms=50):
    """Press and release one key combination (e.g. 'ctrl-c', 'up')."""
    m.monitor("sendkey %s %d" % (keys, hold_ms))


def type_text(m, text, hold_ms=50):
    """Type text key by key ('\\n' is Enter)."""
    for ch in text:
        send(m, key_name(ch), hold_ms)


def command(m, line, timeout=60):
    """Type line and Enter on the USB keyboard; return what the command
    printed, as Machine.command() does for serial input."""
    type_text(m, line)
    m.expect(re.escape(line[-20:]), timeout)
    start = m.pos
    send(m, "ret")
    m.expect(r"\n" + re.escape("mosaic> "), timeout)
    with m.lock:
        return m.output[start:m.pos - len("mosaic> ")]

