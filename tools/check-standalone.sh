#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-standalone.sh — the repository stands alone: no tracked file may
# send its reader to the workspace folder that sat beside the repository
# while Mosaic was being written (its design notes, reference notes, seed
# documents and data files). A user clones the repository alone and cannot
# open them; docs and comments cite public sources instead
# (docs/architecture.md, "Sources").
#
#   tools/check-standalone.sh
#
# Searches every tracked file (as it is in the working tree, so an edit
# not yet committed counts) and prints each offending line as FILE:LINE:
# TEXT, then the files. Exit status: 0 clean, 1 references found, 2 git
# failed, 77 not run (not inside a git checkout of this repository, e.g.
# an exported tarball; or git missing). tests/test_repo.py runs it as
# "repo/standalone" (77 counts as skipped, anything else but 0 as failed).
#
# The patterns are assembled from pieces so that this file does not match
# them itself.
set -u

cd "$(dirname "$0")/.." || exit 2
here=$(pwd -P)

if ! command -v git >/dev/null 2>&1; then
	echo "check-standalone: skipped: git is not installed, so the tracked files are unknown"
	exit 77
fi
if ! top=$(git rev-parse --show-toplevel 2>&1); then
	if [ -e .git ]; then   # a checkout git refuses to read: say why, do not skip
		echo "check-standalone: git cannot read the checkout at $here: $top"
		exit 2
	fi
	top=
fi
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$here" ]; then
	echo "check-standalone: skipped: $here is not a git checkout (an exported tree?);" \
	     "the tracked files are unknown"
	exit 77
fi

dir=shared
up=..
env_var="MOSAIC_$(echo "$dir" | tr a-z A-Z)"
hits=$(git grep -n -I -F \
	-e "$up/$dir" \
	-e "$env_var" \
	-e "$dir/reference" \
	-e "$dir/seeds" \
	-e "$dir/data" \
	-e "$dir/DESIGN" \
	-- .)
status=$?
if [ "$status" -gt 1 ]; then
	echo "check-standalone: git grep failed (status $status)"
	exit 2
fi
if [ -z "$hits" ]; then
	echo "check-standalone: ok: $(git ls-files | wc -l) tracked files, none refers outside the repository"
	exit 0
fi

echo "$hits"
files=$(echo "$hits" | cut -d: -f1 | sort -u)
echo "check-standalone: $(echo "$hits" | wc -l) line(s) in $(echo "$files" | wc -l) tracked file(s)" \
     "refer to material outside the repository, which a clone does not have:"
echo "$files" | sed 's/^/  /'
echo "Cite a public source instead (FreeBSD function names, Intel SDM sections, the seed report by" \
     "its title, InstLatx64 for CPUID dumps), or copy the data into the repository saying where it" \
     "came from; see docs/architecture.md, \"Sources\"."
exit 1
