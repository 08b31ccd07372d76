#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian packages a Mosaic target needs, in sets:
#   boot    build the kernel and boot it in QEMU (make, make run-qemu)
#   iso     the GRUB image (make iso)
#   report  tools/bench-report.py's tables and plots (make bench), tools/seed-figures.py (make seed-figures)
#   test    the runner (pytest, pytest-xdist), the unit tests, fuzz harnesses
#           (libFuzzer, coverage) and host tests (make test, make fuzz; with
#           boot, iso and report)
# Any other word is one more package (tools/deps.sh boot gdb).
#
#   tools/deps.sh SET|PACKAGE...          install what is missing
#   tools/deps.sh --list SET|PACKAGE...   print what is missing, one per line
#                                         (every package without dpkg), install nothing
#
# Root: installs what is missing with apt-get. Not root: prints the exact
# apt-get line and fails. No dpkg (not Debian): prints the Debian names of
# the set, to be installed with the system's own package manager, and goes
# on (the build then says which tool it lacks).
set -euo pipefail

boot=(gcc make binutils nasm gnu-efi qemu-system-x86 ovmf mtools console-setup-linux python3)
iso=(grub-efi-amd64-bin grub-common xorriso)
report=(python3 python3-scipy python3-matplotlib)
# clang with libclang-rt-dev (libFuzzer, the sanitizers) and llvm
# (llvm-profdata, llvm-cov) build and measure the libFuzzer harnesses.
test=(libcmocka-dev dosfstools clang libclang-rt-dev llvm python3-pytest python3-pytest-xdist "${boot[@]}" "${iso[@]}" "${report[@]}")

list=0
if [[ ${1:-} == --list ]]; then
	list=1
	shift
fi
[[ $# -gt 0 ]] || { echo "usage: tools/deps.sh [--list] boot|iso|report|test|PACKAGE..." >&2; exit 2; }
packages=()
for word in "$@"; do
	case "$word" in
	boot) packages+=("${boot[@]}") ;;
	iso) packages+=("${iso[@]}") ;;
	report) packages+=("${report[@]}") ;;
	test) packages+=("${test[@]}") ;;
	*) packages+=("$word") ;;
	esac
done

if ! command -v dpkg-query >/dev/null; then
	if [[ $list -eq 1 ]]; then
		printf '%s\n' "${packages[@]}" | awk '!seen[$0]++'
		exit 0
	fi
	echo "mosaic: no dpkg here (not Debian); these Debian packages, or your system's" >&2
	echo "  equivalents, are needed: $(printf '%s\n' "${packages[@]}" | awk '!seen[$0]++' | tr '\n' ' ')" >&2
	exit 0
fi

missing=()
for p in $(printf '%s\n' "${packages[@]}" | awk '!seen[$0]++'); do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [[ $list -eq 1 ]]; then
	[[ ${#missing[@]} -eq 0 ]] || printf '%s\n' "${missing[@]}"
	exit 0
fi
[[ ${#missing[@]} -eq 0 ]] && exit 0

line="apt-get install -y ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
	echo "mosaic: missing packages; run as root:" >&2
	echo "  apt-get update && $line" >&2
	exit 1
fi
echo "mosaic: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
