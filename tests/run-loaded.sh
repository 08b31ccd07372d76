#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/run-loaded.sh — `make test` on a loaded host: two extra CPU hogs
# (busy shell loops, one per core of a 2-core machine) run beside the whole
# suite and are stopped when it ends, whatever its result. The QEMU tests
# assert guest-time facts only, so they must pass like this too.
#   tests/run-loaded.sh [HOGS] [make arguments...]     (HOGS default 2)
set -uo pipefail
cd "$(dirname "$0")/.."
hogs=2
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
	hogs=$1
	shift
fi
pids=()
stop_hogs() { kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; }
trap stop_hogs EXIT
for ((i = 0; i < hogs; i++)); do
	bash -c 'while :; do :; done' &
	pids+=($!)
done
echo "run-loaded: $hogs CPU hogs running (pids ${pids[*]}); make test $*"
make test "$@"
