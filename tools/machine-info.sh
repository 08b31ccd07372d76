#!/usr/bin/env bash
# machine-info.sh — what the host needs from a machine description
# (docs/machines.md); the kernel parses the whole file itself.
#
#   machine-info.sh resolve NAME|PATH   the file: a path as given, or machines/NAME.machine
#   machine-info.sh cpus FILE           the `cpus` value (QEMU -smp)
#   machine-info.sh memory FILE         the `memory` value (QEMU -m), e.g. 1G
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "machine-info: $*" >&2; exit 2; }
[[ $# -eq 2 ]] || die "usage: $0 resolve|cpus|memory NAME-OR-FILE"
what=$1 arg=$2

case "$what" in
resolve)
	if [[ -f "$arg" ]]; then
		echo "$arg"
	elif [[ "$arg" != */* && -f "$root/machines/$arg.machine" ]]; then
		echo "$root/machines/$arg.machine"
	else
		presets=$(cd "$root/machines" && ls *.machine | sed 's/\.machine$//' | tr '\n' ' ')
		die "no machine '$arg' (a file, or one of: $presets)"
	fi ;;
cpus|memory)
	[[ -f "$arg" ]] || die "no such file: $arg"
	# The first `cpus`/`memory` line, comments removed.
	val=$(sed -e 's/#.*//' "$arg" | awk -v k="$what" '$1 == k { print $2; exit }')
	[[ -n "$val" ]] || die "$arg: no '$what' line"
	if [[ $what == cpus ]]; then
		[[ "$val" =~ ^[0-9]+$ ]] || die "$arg: bad 'cpus' value '$val'"
	else
		[[ "$val" =~ ^[0-9]+[MG]$ ]] || die "$arg: bad 'memory' value '$val' (e.g. 512M, 2G)"
	fi
	echo "$val" ;;
*) die "unknown request '$what' (resolve, cpus, memory)" ;;
esac
