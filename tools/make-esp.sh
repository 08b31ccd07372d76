#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# make-esp.sh OUT LOADER KERNEL "CMDLINE" [MODULE...] — build the FAT image Mosaic boots
# from (an "EFI system partition" without a partition table: OVMF and the
# ISO's appended partition both take it as is). Layout:
#   \EFI\BOOT\BOOTX64.EFI    the loader (the firmware's default boot path)
#   \EFI\BOOT\mosaic.cfg     kernel=\mosaic\kernel.elf, cmdline=CMDLINE
#   \EFI\mosaic\loader.efi   the same loader, for GRUB to chainload
#   \EFI\mosaic\mosaic.cfg   the same configuration, beside it
#   \mosaic\kernel.elf       the kernel, without its DWARF debug sections
#                            (loadable segments untouched; debuggers use
#                            build/kernel.elf)
#   \mosaic\MODULE          each module (the boot archive of user programs,
#                            build/userland.cpio), with a module= line each
# The size is 30 MiB (El Torito, used by the ISO, describes at most 32 MiB),
# or more if the files need it. tools/qemu-run.sh replaces
# \EFI\BOOT\mosaic.cfg in a copy to pass another command line.
set -euo pipefail

die() { echo "make-esp.sh: $*" >&2; exit 1; }

[[ $# -ge 4 ]] || die "usage: make-esp.sh OUT LOADER KERNEL \"CMDLINE\" [MODULE...]"
out=$1 loader=$2 kernel=$3 cmdline=$4
shift 4
modules=("$@")
for m in "${modules[@]}"; do
	[[ -f "$m" ]] || die "module $m not found"
done
[[ -f "$loader" ]] || die "loader $loader not found"
[[ -f "$kernel" ]] || die "kernel $kernel not found"
for tool in mformat mmd mcopy objcopy; do
	command -v "$tool" >/dev/null || die "$tool not found (tools/deps.sh installs it)"
done
case "$cmdline" in
*$'\n'*) die "the command line must be one line" ;;
esac

tmp="$out.tmp"
cfg=$(mktemp)
kelf=$(mktemp)
trap 'rm -f "$tmp" "$cfg" "$kelf"' EXIT
objcopy --strip-debug "$kernel" "$kelf" || die "$kernel: objcopy cannot read it"

mib=$(( 1024 * 1024 ))
msize=0
for m in "${modules[@]}"; do
	msize=$(( msize + $(stat -c %s "$m") ))
done
need=$(( (2 * $(stat -c %s "$loader") + $(stat -c %s "$kelf") + msize) / mib + 8 ))
size=$(( need > 30 ? need : 30 ))
{
	printf '# Mosaic loader configuration (see docs/boot.md)\nkernel=\\mosaic\\kernel.elf\n'
	for m in "${modules[@]}"; do
		printf 'module=\\mosaic\\%s\n' "$(basename "$m")"
	done
	printf 'cmdline=%s\n' "$cmdline"
} > "$cfg"

rm -f "$tmp"
truncate -s "${size}M" "$tmp"
mformat -i "$tmp" -T $(( size * 2048 )) -h 16 -s 63 -v MOSAIC ::
mmd -i "$tmp" ::/EFI ::/EFI/BOOT ::/EFI/mosaic ::/mosaic
mcopy -i "$tmp" "$loader" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$tmp" "$cfg" ::/EFI/BOOT/mosaic.cfg
mcopy -i "$tmp" "$loader" ::/EFI/mosaic/loader.efi
mcopy -i "$tmp" "$cfg" ::/EFI/mosaic/mosaic.cfg
mcopy -i "$tmp" "$kelf" ::/mosaic/kernel.elf
for m in "${modules[@]}"; do
	mcopy -i "$tmp" "$m" "::/mosaic/$(basename "$m")"
done
mv "$tmp" "$out"
