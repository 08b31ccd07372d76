#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-run.sh — `make bench`: boot Mosaic headless, run one `bench` plan,
# keep the serial log and turn its CSV blocks into CSV and PNG files.
#
#   tools/bench-run.sh --out DIR --esp IMG [--machine M] [--smp N] [--mem M] [--cmdline W]
#
# The plan comes from the environment, MOSAIC_BENCH (make's BENCH=): the
# words after `bench`, e.g. "cpu --threads 4,6 --runs 6 --policy ule,hmp"
# (the compact table) or "sweep cpu --threads 4,6,8 --runs 4" (the seed
# report's tables); empty, a quick plan (below). The kernel checks the plan; this script only refuses
# what would break out of the boot script (';' and '"') and lines the shell
# cannot take. Writes DIR/bench.log (the serial output, also shown live),
# then DIR/NAME.csv and DIR/NAME.png per CSV block (tools/bench-report.py;
# files of an earlier run in DIR are removed first), and with --trace in the
# plan DIR/sched-trace.json (tools/sched-trace.py: Chrome trace-event JSON).
# Exit status: 0 when the plan ran to its end and every block was written;
# 1 when the kernel refused the plan, a run failed its check, or a block
# was damaged; 2 for bad arguments; 125 when QEMU failed.
set -euo pipefail

die() { echo "bench-run: $*" >&2; exit 2; }

out="" esp="" qemu_args=()
while [[ $# -gt 0 ]]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--esp) esp=$2; shift 2 ;;
	--machine|--smp|--mem|--cmdline) qemu_args+=("$1" "$2"); shift 2 ;;
	*) die "unknown option '$1' (see the comment at the top of $0)" ;;
	esac
done
[[ -n "$out" && -n "$esp" ]] || die "give --out DIR and --esp IMG"
plan=${MOSAIC_BENCH:-}
# Without BENCH: a quick look, about two minutes on the default machine
# (boot included): the seed report's tables at three thread counts, 4 runs
# per policy (the fewest whose Mann-Whitney test can reach p < 0.05).
quick="sweep cpu --threads 4,6,8 --runs 4 --time 3 --policy ule,hmp"
if [[ -z "${plan// }" ]]; then
	plan=$quick
	echo "bench-run: no BENCH given: the quick plan 'bench $plan' (about 2 minutes;" \
	     "BENCH=\"...\" runs another, e.g. BENCH=\"sweep cpu --threads 4,6,8,12 --runs 8\")"
fi
[[ "$plan" != *[\;\"]* ]] || die "BENCH must not hold ';' or '\"' (it becomes one shell command): '$plan'"
[[ "$plan" != *[[:cntrl:]]* ]] || die "BENCH holds a control character"
(( ${#plan} <= 240 )) || die "BENCH is ${#plan} characters; the shell takes a line of at most 248 after 'bench '"

root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
rm -f "$out"/*.csv "$out"/*.png "$out/bench.log" "$out/sched-trace.json"
log=$out/bench.log
start=$(date +%s)
echo "bench-run: bench $plan (serial log: $log)"
set +e
"$root/tools/qemu-run.sh" --esp "$esp" "${qemu_args[@]}" --run "bench $plan; poweroff" | tee "$log"
rc=${PIPESTATUS[0]}
set -e
secs=$(( $(date +%s) - start ))
[[ $rc -eq 0 ]] || { echo "bench-run: QEMU ended with status $rc after ${secs} s" >&2; exit 125; }
status=0
if ! grep -q "^bench: threads alive before" "$log"; then
	echo "bench-run: the kernel did not run the plan (see the message above the usage line)" >&2
	status=1
elif grep -q "check FAILED\|(MISMATCH)\|STOPPED before the end" "$log"; then
	echo "bench-run: a run failed its check, threads were left behind or the plan was stopped" >&2
	status=1
fi
if [[ $status -eq 0 ]]; then
	/usr/bin/python3 "$root/tools/bench-report.py" -o "$out" "$log" || status=1
	if grep -q "^--- mosaic-bench-csv begin sched-trace schema=" "$log"; then
		/usr/bin/python3 "$root/tools/sched-trace.py" -o "$out/sched-trace.json" "$log" || status=1
	fi
fi
echo "bench-run: done in ${secs} s; files in $out:"
ls -1 "$out"
exit $status
