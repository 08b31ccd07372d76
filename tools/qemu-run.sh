#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# qemu-run.sh — boot Mosaic in QEMU/OVMF on a private copy of the boot image.
#
#   --esp IMG        FAT image from tools/make-esp.sh (boots as a disk)
#   --usb-iso ISO    instead: boot this ISO as a USB stick (qemu-xhci + usb-storage)
#   --smp N --mem M  vCPUs and memory (default 4 and 512M, or the machine's)
#   --machine M      machine description (docs/machines.md): a file, or a preset
#                    name (machines/M.machine); --machine-file is the same.
#                    build/machine-info checks it with the kernel's parser (a
#                    bad file stops here with its FILE:LINE), then the guest
#                    gets it as fw_cfg opt/mosaic/machine and, unless --smp /
#                    --mem are given, its `cpus` and `memory`
#   --no-machine-check  hand the machine file to the guest unchecked (tests of
#                    the kernel's own checks); needs --smp
#   --run "CMDS"     run shell commands at boot (kernel run=...), headless;
#                    the script returns when the kernel powers off or exits
#   --cmdline "W"    extra kernel command-line words
#   --monitor SOCK   QEMU monitor on a unix socket (tests send keys there)
#   --usb-kbd        a USB keyboard (usb-kbd, id kbd) on the xHCI controller
#                    (xhci.0; added when booting from --esp)
#   --stick FILE[:ro][:bps=N]  one more USB stick (usb-storage, ids stick1,
#                    stick2, ... in order) on xhci.0, the image FILE used in
#                    place (not copied: the test reads it afterwards); ro:
#                    write-protected (readonly=on); bps=N: writes throttled
#                    to N bytes per second. Repeatable; the controller then
#                    has 8 USB 2 ports
#   --boot-in-place  the boot image (--esp or --usb-iso) is used in place,
#                    not copied (a test reads it afterwards); not with --run
#                    or --cmdline on --esp, which rewrite the image's mosaic.cfg
#   --vars FILE      the UEFI variable store: FILE, created from OVMF's
#                    empty one when missing, kept after QEMU ends (a panic
#                    report survives to the next boot); default: a copy
#                    thrown away
#   --no-ps2         no i8042 (PS/2) controller: -machine q35,i8042=off
#   --no-serial-input  the serial port only prints (nothing typed on stdin
#                    reaches the guest); keys then come from the monitor's
#                    sendkey into the USB keyboard
#   --machine-opts O more q35 options, e.g. hpet=off,pit=off
#   --vga WxH        the display (std VGA) offers and prefers W x H (EDID),
#                    with 64 MiB of video memory
#   --gui            show the framebuffer in a window (default: none)
#   --debug ELF      wait for gdb on :1234 (tools/gdbinit loads ELF's symbols)
#   --allow-reboot   let a reboot restart the machine (default: QEMU exits)
#
# Exit status: with --run, the kernel's `exit N` status (QEMU isa-debug-exit
# gives 2N+1; this script turns it back into N), 0 after `poweroff`, and 125
# when QEMU itself failed or the kernel stopped otherwise.
set -euo pipefail

esp="" iso="" smp="" mem="" machine="" have_machine=0 check_machine=1 run="" extra="" monitor=""
gui=0 debug="" reboot=0 usb_kbd=0 no_ps2=0 serial_in=1 vga="" machine_opts="" vars="" in_place=0
sticks=()
while [[ $# -gt 0 ]]; do
	case "$1" in
	--esp) esp=$2; shift 2 ;;
	--usb-iso) iso=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--machine|--machine-file) machine=$2; have_machine=1; shift 2 ;;
	--no-machine-check) check_machine=0; shift ;;
	--run) run=$2; shift 2 ;;
	--cmdline) extra=$2; shift 2 ;;
	--monitor) monitor=$2; shift 2 ;;
	--gui) gui=1; shift ;;
	--usb-kbd) usb_kbd=1; shift ;;
	--stick) sticks+=("$2"); shift 2 ;;
	--vars) vars=$2; shift 2 ;;
	--boot-in-place) in_place=1; shift ;;
	--no-ps2) no_ps2=1; shift ;;
	--no-serial-input) serial_in=0; shift ;;
	--vga) vga=$2; shift 2 ;;
	--machine-opts) machine_opts=$2; shift 2 ;;
	--allow-reboot) reboot=1; shift ;;
	--debug) debug=$2; shift 2 ;;
	*) echo "qemu-run: unknown option '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
	esac
done
[[ -n "$esp" || -n "$iso" ]] || { echo "qemu-run: give --esp IMG or --usb-iso ISO" >&2; exit 2; }
machine_args=()
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $have_machine -eq 1 && $check_machine -eq 1 ]]; then
	info=$root/build/machine-info
	[[ -x "$info" ]] || { echo "qemu-run: $info is missing; run make first" >&2; exit 2; }
	# One line "CPUS MEMORY FILE"; a refused file has printed FILE:LINE: reason.
	out=$("$info" --presets "$root/machines" --qemu "$machine") || exit 2
	read -r file_smp file_mem machine_file <<<"$out"
	smp=${smp:-$file_smp} mem=${mem:-$file_mem}
elif [[ $have_machine -eq 1 ]]; then
	machine_file=$machine
	[[ -f "$machine_file" ]] || { echo "qemu-run: no machine file '$machine_file'" >&2; exit 2; }
	[[ -n "$smp" ]] || { echo "qemu-run: --no-machine-check needs --smp" >&2; exit 2; }
fi
if [[ $have_machine -eq 1 ]]; then
	# QEMU splits -fw_cfg options at commas; a path with one cannot be given.
	[[ "$machine_file" != *,* ]] || { echo "qemu-run: machine file path must not contain ','" >&2; exit 2; }
	# The kernel names the file in its messages by the path in machine-path.
	shown=$(realpath -s "$machine_file")
	shown=${shown#"$root/"}
	machine_args=(-fw_cfg "name=opt/mosaic/machine,file=$machine_file"
		      -fw_cfg "name=opt/mosaic/machine-path,string=$shown")
fi
smp=${smp:-4} mem=${mem:-512M}
[[ "$smp" =~ ^[0-9]+$ && "$smp" -ge 1 && "$smp" -le 255 ]] || { echo "qemu-run: --smp must be 1..255" >&2; exit 2; }

ovmf_dir=/usr/share/OVMF
work=$(mktemp -d --suffix=.mosaic-qemu)
qpid=""
cleanup() { [[ -n "$qpid" ]] && kill "$qpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 143' TERM INT HUP
if [[ -n "$vars" ]]; then
	[[ -f "$vars" ]] || cp "$ovmf_dir/OVMF_VARS_4M.fd" "$vars"
	vars_file=$vars
else
	cp "$ovmf_dir/OVMF_VARS_4M.fd" "$work/vars.fd"
	vars_file=$work/vars.fd
fi

# The kernel command line: the image's default, then CMDLINE, then run=.
# Quotes and backslashes in the script are escaped for the kernel's parser.
cfg_path='::/EFI/BOOT/mosaic.cfg'
boot_args=(-drive "if=none,id=boot,format=raw,file=$work/boot.img" -device virtio-blk-pci,drive=boot,bootindex=1)
# A copy of the image, or (--boot-in-place) a link to it.
place() { if [[ $in_place -eq 1 ]]; then ln -s "$(realpath "$1")" "$2"; else cp "$1" "$2"; fi; }
if [[ $in_place -eq 1 && -z "$iso" && ( -n "$run" || -n "$extra" ) ]]; then
	echo "qemu-run: --boot-in-place with --run or --cmdline would rewrite $esp" >&2
	exit 2
fi
if [[ -n "$iso" ]]; then
	place "$iso" "$work/boot.img"
	boot_args=(-device qemu-xhci,id=xhci${sticks:+,p2=8} -drive "if=none,id=stick,format=raw,file=$work/boot.img"
		   -device usb-storage,bus=xhci.0,drive=stick,bootindex=1)
else
	place "$esp" "$work/boot.img"
	if [[ -n "$run" || -n "$extra" ]]; then
		mtype -i "$work/boot.img" "$cfg_path" | tr -d '\r' > "$work/mosaic.cfg"
		old=$(sed -n 's/^cmdline=//p' "$work/mosaic.cfg")
		line="$old $extra"
		if [[ -n "$run" ]]; then
			esc=${run//\\/\\\\}
			esc=${esc//\"/\\\"}
			line="$line run=\"$esc\""
		fi
		{ grep -v '^cmdline=' "$work/mosaic.cfg"; echo "cmdline=$line"; } > "$work/new.cfg"
		mcopy -o -i "$work/boot.img" "$work/new.cfg" "$cfg_path"
	fi
fi

machine_opt=q35
[[ $no_ps2 -eq 1 ]] && machine_opt=q35,i8042=off
[[ -n "$machine_opts" ]] && machine_opt="$machine_opt,$machine_opts"
if [[ -z "$iso" && ( $usb_kbd -eq 1 || ${#sticks[@]} -gt 0 ) ]]; then
	boot_args+=(-device qemu-xhci,id=xhci${sticks:+,p2=8})
fi
[[ $usb_kbd -eq 1 ]] && boot_args+=(-device usb-kbd,bus=xhci.0,id=kbd)
n=0
for spec in "${sticks[@]}"; do
	n=$((n + 1))
	IFS=: read -r file opts <<<"$spec"
	[[ -f "$file" && "$file" != *,* ]] || { echo "qemu-run: --stick: no image '$file' (or a ',' in its path)" >&2; exit 2; }
	drive="if=none,id=stick$n,format=raw,file=$file"
	for o in ${opts//:/ }; do
		case "$o" in
		ro) drive+=",readonly=on" ;;
		bps=*) [[ "${o#bps=}" =~ ^[0-9]+$ ]] || { echo "qemu-run: --stick: bad '$o'" >&2; exit 2; }
		       drive+=",throttling.bps-write=${o#bps=}" ;;
		*) echo "qemu-run: --stick: unknown option '$o' (ro, bps=N)" >&2; exit 2 ;;
		esac
	done
	boot_args+=(-drive "$drive" -device "usb-storage,bus=xhci.0,drive=stick$n,id=stick$n")
done
if [[ -n "$vga" ]]; then
	[[ "$vga" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "qemu-run: --vga wants WxH, got '$vga'" >&2; exit 2; }
	boot_args+=(-vga none -device "VGA,xres=${BASH_REMATCH[1]},yres=${BASH_REMATCH[2]},vgamem_mb=64")
fi

args=(-machine "$machine_opt" -m "$mem" -smp "$smp" -cpu max -nic none
      -drive "if=pflash,format=raw,readonly=on,file=$ovmf_dir/OVMF_CODE_4M.fd"
      -drive "if=pflash,format=raw,file=$vars_file"
      "${boot_args[@]}" "${machine_args[@]}"
      -device isa-debug-exit,iobase=0xf4,iosize=0x04)
[[ $reboot -eq 1 ]] || args+=(-no-reboot)
if [[ $gui -eq 1 ]]; then args+=(-display gtk); else args+=(-display none); fi
[[ -n "$monitor" ]] && args+=(-monitor "unix:$monitor,server,nowait")
if [[ -n "$debug" ]]; then
	args+=(-s -S)
	echo "qemu-run: waiting for gdb: gdb -x tools/gdbinit (symbols from $debug)" >&2
fi
if [[ $serial_in -eq 0 ]]; then
	args+=(-serial file:/dev/stdout)    # output only
elif [[ -n "$run" || -n "$monitor" ]]; then
	args+=(-serial stdio)
else
	args+=(-serial mon:stdio)    # interactive: Ctrl-A X quits, Ctrl-A C monitor
	echo "qemu-run: Mosaic on the serial console; Ctrl-A X quits QEMU" >&2
fi

set +e
# A background job's stdin would be /dev/null; hand it ours explicitly.
qemu-system-x86_64 "${args[@]}" <&0 &
qpid=$!
wait "$qpid"
rc=$?
qpid=""
set -e
if [[ -n "$run" ]]; then
	if [[ $rc -eq 0 ]]; then exit 0; fi
	if [[ $rc -ge 3 && $((rc % 2)) -eq 1 ]]; then exit $(((rc - 3) / 2)); fi
	echo "qemu-run: QEMU ended with status $rc (not a kernel exit)" >&2
	exit 125
fi
exit "$rc"
