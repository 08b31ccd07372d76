#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make-archive.py OUT FILE... -- write the boot archive of user programs: a
cpio "newc" archive (the format of `cpio -H newc`) holding each FILE under its
base name, then the "TRAILER!!!" entry. The kernel's reader
(kernel/user/archive.c) states the rules; this tool refuses what it would
refuse (a name outside [A-Za-z0-9._-], one starting with '.', a name twice,
too many or too large files), naming the file, so a bad archive never reaches
a boot."""
import os
import re
import sys

FILES_MAX = 64          # ARCHIVE_FILES_MAX
NAME_MAX = 31           # ARCHIVE_NAME_MAX - 1
FILE_MAX = 16 << 20     # ARCHIVE_FILE_MAX
NAME_RE = re.compile(r'^[A-Za-z0-9_-][A-Za-z0-9._-]*$')


def entry(name, data, ino, mode):
    """One newc entry: header, name with its NUL, data, each padded to 4."""
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0]
    head = b'070701' + b''.join(b'%08X' % f for f in fields)
    out = head + name.encode() + b'\0'
    out += b'\0' * (-len(out) % 4)
    out += data + b'\0' * (-len(data) % 4)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: make-archive.py OUT FILE...')
    out, paths = sys.argv[1], sys.argv[2:]
    if len(paths) > FILES_MAX:
        sys.exit(f'make-archive.py: {len(paths)} files, at most {FILES_MAX}')
    blob, seen = b'', set()
    for i, path in enumerate(paths):
        name = os.path.basename(path)
        if len(name) > NAME_MAX or not NAME_RE.match(name):
            sys.exit(f'make-archive.py: {path}: name "{name}" is not 1..{NAME_MAX} '
                     'characters of [A-Za-z0-9._-] not starting with "."')
        if name in seen:
            sys.exit(f'make-archive.py: {path}: name "{name}" given twice')
        seen.add(name)
        with open(path, 'rb') as f:
            data = f.read()
        if len(data) > FILE_MAX:
            sys.exit(f'make-archive.py: {path}: {len(data)} bytes, at most {FILE_MAX}')
        blob += entry(name, data, i + 1, 0o100644)
    blob += entry('TRAILER!!!', b'', 0, 0)
    with open(out + '.tmp', 'wb') as f:
        f.write(blob)
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()
