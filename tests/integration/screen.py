# SPDX-License-Identifier: BSD-2-Clause
"""The framebuffer as QEMU shows it: screendumps read back, the colours of
pixel rows, and the status line's colours (kernel/dev/fbcon_status.c)."""
import os
import re
import time

P_CORE = (0xB0, 0x40, 0x10)     # status line backgrounds
E_CORE = (0x20, 0x50, 0xB0)
SCROLLBACK = (0xE0, 0xC0, 0x20)  # "N/K lines back, Shift-PgDn" while the view is back


def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (QEMU's screendump)."""
    with open(path, "rb") as f:
        data = f.read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[i + 1:i + 1 + w * h * 3]


def colours_in_rows(ppm, y0, y1):
    """The set of RGB colours of pixel rows y0..y1-1."""
    w, h, px = ppm
    seen = set()
    for y in range(y0, min(y1, h)):
        row = px[y * w * 3:(y + 1) * w * 3]
        for x in range(0, w * 3, 3 * 4):          # every 4th pixel is enough
            seen.add((row[x], row[x + 1], row[x + 2]))
    return seen


def screendump(m, shot, width, height):
    """QEMU's screendump of the machine's display into shot, read back.
    screendump answers at once and writes the file afterwards: wait until
    it holds every pixel (a loaded host writes 25 MB slowly)."""
    if os.path.exists(shot):
        os.unlink(shot)
    m.monitor_query("screendump " + shot)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if os.path.exists(shot) and os.path.getsize(shot) >= width * height * 3:
            ppm = read_ppm(shot)
            if len(ppm[2]) == width * height * 3:
                break
        time.sleep(0.2)
    ppm = read_ppm(shot)
    assert len(ppm[2]) == width * height * 3, "screendump %s incomplete after 60 s" % shot
    assert ppm[:2] == (width, height), ppm[:2]
    return ppm


def status_colours(m, shot, want, timeout=60):
    """The colours of the status line (the last whole character row, from
    fbcon's boot line), looked at again until want(colours) is true or
    timeout seconds pass (the line redraws twice a second of guest time,
    a loaded host can delay it)."""
    cells = re.search(r"fbcon: (\d+)x(\d+), \d+x\d+ cells, PSF\d font \d+x(\d+)", m.output)
    assert cells, "no fbcon line in the boot log"
    width, height, glyph_h = map(int, cells.groups())
    status_y = (height // glyph_h - 1) * glyph_h
    deadline = time.monotonic() + timeout
    while True:
        ppm = screendump(m, shot, width, height)
        bottom = colours_in_rows(ppm, status_y, status_y + glyph_h)
        if want(bottom) or time.monotonic() > deadline:
            return bottom
        time.sleep(1)
