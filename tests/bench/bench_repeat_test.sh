#!/usr/bin/env bash
# dctwin-bench --repeat: each run in its own process, the verdict on the median wall time
# (the median of an even count is the mean of the middle two), the best and the worst beside
# it, and the same steps in every run; bad counts are refused with exit status 2.
#   bench_repeat_test.sh DCTWIN_BENCH PYTHON3 WORKDIR
set -euo pipefail
bench=$1
python=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$bench" --case 2 --quick --repeat 4 --json "$work/four.json" > "$work/four.txt" 2> "$work/four.err" ||
    fail "--repeat 4 exited $?: $(cat "$work/four.err")"
grep -q "case 2: 4 runs, each in its own process: wall best" "$work/four.txt" ||
    fail "no best/median/worst line: $(cat "$work/four.txt")"
[[ $(grep -c "case 2: run [1-4] of 4" "$work/four.err") == 4 ]] || fail "not four runs"
"$python" - "$work/four.json" <<'PY'
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
walls = sorted(case["wall_samples_s"])
assert case["repeats"] == 4, case["repeats"]
assert len(walls) == 4, walls
assert case["wall_s"] == 0.5 * (walls[1] + walls[2]), (case["wall_s"], walls)
assert case["wall_best_s"] == walls[0] and case["wall_worst_s"] == walls[-1]
assert case["steps_agree"] is True
assert case["steps_by_repeat"] == [case["steps"]] * 4, case["steps_by_repeat"]
assert case["result"] == "quick"
PY

for bad in 0 101 3x ""; do
    set +e
    "$bench" --case 2 --quick --repeat "$bad" > /dev/null 2> "$work/bad.err"
    rc=$?
    set -e
    [[ $rc == 2 ]] || fail "--repeat '$bad' exited $rc, expected 2"
    grep -q -- "--repeat expects a whole number 1..100, got '$bad'" "$work/bad.err" ||
        fail "--repeat '$bad': $(cat "$work/bad.err")"
done
set +e
"$bench" --rhs --repeat 2 > /dev/null 2> "$work/rhs.err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "--rhs --repeat 2 exited $rc, expected 2"
echo "bench --repeat: OK"
