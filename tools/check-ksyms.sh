#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# check-ksyms.sh PASS1.ELF FINAL.ELF — fail if adding the symbol table moved
# any text symbol (then the embedded table would name the wrong functions).
set -euo pipefail
list() { nm -n --defined-only "$1" | awk '$2 ~ /^[tT]$/ { print $1, $3 }'; }
if ! diff <(list "$1") <(list "$2") > /dev/null; then
	echo "check-ksyms: text symbols moved between $1 and $2" >&2
	exit 1
fi
