#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian packages Mosaic needs to build, boot and test.
# Root: installs what is missing with apt-get. Not root: prints the exact
# apt-get line and fails. Extra package names may be given as arguments.
set -euo pipefail

# clang with libclang-rt-dev (libFuzzer, the sanitizers) and llvm
# (llvm-profdata, llvm-cov) build and measure the libFuzzer harnesses.
packages=(gcc make binutils nasm gnu-efi qemu-system-x86 ovmf grub-efi-amd64-bin grub-common
          xorriso mtools dosfstools console-setup-linux libcmocka-dev python3 python3-scipy python3-matplotlib
          clang libclang-rt-dev llvm "$@")

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$p")
done
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
