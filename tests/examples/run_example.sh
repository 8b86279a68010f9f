#!/usr/bin/env bash
# Runs one example program and checks what a user of it would: exit status 0 and an HDF5 report
# written where asked (DESIGN.md §2: examples are built and run by a test).
#   run_example.sh REPORT.h5 PROGRAM [ARGS...]     (PROGRAM gets REPORT.h5 as its first argument)
set -euo pipefail
report=$1
shift
program=$1
shift
rm -f "$report"
"$program" "$report" "$@"
if [[ ! -s "$report" ]]; then
    echo "FAIL: $program exited 0 but wrote no report at $report" >&2
    exit 1
fi
# HDF5 files start with the signature \x89HDF\r\n\x1a\n.
if [[ "$(head -c 4 "$report" | od -An -c | tr -d ' ')" != '211HDF' ]]; then
    echo "FAIL: $report is not an HDF5 file" >&2
    exit 1
fi
rm -f "$report"
echo "OK: $(basename "$program") wrote an HDF5 report"
