#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-standalone-selftest.sh — tests tools/check-standalone.sh on a
# scratch repository, so the check cannot silently stop finding anything:
#   1. every forbidden form, planted in a tracked file, fails the check and
#      the file is named (one file per form);
#   2. an untouched tree passes;
#   3. the same tree without .git is skipped (exit 77).
# Exit status 0 when all hold, 1 otherwise (with what went wrong).
# tests/test_repo.py runs it as "repo/standalone-selftest". Needs git.
set -u

src=$(cd "$(dirname "$0")" && pwd -P)/check-standalone.sh
if ! command -v git >/dev/null 2>&1; then
	echo "check-standalone-selftest: skipped: git is not installed"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-standalone-selftest: $*"; exit 1; }

# A repository with the checker and one clean file.
mkdir -p "$tmp/repo/tools" && cp "$src" "$tmp/repo/tools/" || exit 1
cd "$tmp/repo" || exit 1
echo "clean text" > README.md
git init -q . && git add -A &&
	git -c user.name=selftest -c user.email=selftest@invalid commit -qm base || fail "git init failed"
out=$(tools/check-standalone.sh 2>&1); st=$?
[ $st -eq 0 ] || fail "a clean tree failed (status $st): $out"

# Each form, built from pieces so this file does not contain it.
d=shared
n=0
for form in "../$d/x" "MOSAIC_$(echo $d | tr a-z A-Z)" "$d/reference/x.md" "$d/seeds/001" \
	    "$d/data/cpuid/x.txt" "$d/DESIGN.md"; do
	n=$((n + 1))
	echo "see $form" > "planted_$n.txt"
	git add "planted_$n.txt"
	out=$(tools/check-standalone.sh 2>&1); st=$?
	[ $st -eq 1 ] || fail "form $n ($form): status $st, expected 1: $out"
	echo "$out" | grep -q "^  planted_$n.txt\$" || fail "form $n ($form): file not named: $out"
	git rm -qf "planted_$n.txt"
done
out=$(tools/check-standalone.sh 2>&1); st=$?
[ $st -eq 0 ] || fail "the tree failed again after the planted files were removed (status $st): $out"

# Not a checkout any more.
rm -rf .git
out=$(tools/check-standalone.sh 2>&1); st=$?
[ $st -eq 77 ] || fail "without .git: status $st, expected 77 (skip): $out"

echo "check-standalone-selftest: ok: $n forms found and named, clean tree passes, export skipped"
exit 0
