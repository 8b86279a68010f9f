#!/usr/bin/env bash
# Runs each libFuzzer target (fuzz/) for a fixed number of inputs from a fixed seed, starting
# from the inputs the project ships (scenarios/, data/weather/, data/traces/): the same inputs
# every time, so a failure here is reproducible with the command it prints. `make fuzz-smoke`
# builds the targets (clang, ASan + UBSan) and calls this; CI runs it, so the fuzz build cannot
# rot unnoticed (it had: a clang-14-only compile error and a missing define went unseen until
# a campaign was started by hand, 2026-12-05).
#
# This is a smoke test of the targets, not a campaign: a campaign runs them for hours with a
# corpus kept between runs (README, "Reliability").
#
# Usage: scripts/fuzz-smoke.sh BUILD_DIR     (exit 0: no finding; 1: a finding or a failure)
# DCTWIN_FUZZ_SCALE multiplies the input counts (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/fuzz-smoke.sh BUILD_DIR}
scale=${DCTWIN_FUZZ_SCALE:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# target  runs  seeds  extra flags. The counts keep each run near a minute in the Debug build
# on 2 cores (measured 2026-12-05: scenario ~11 inputs/s, trace ~31/s, EPW ~14/s).
run_one() {
  local name=$1 runs=$2 seeds=$3
  shift 3
  local bin="$build/fuzz/$name" corpus="$work/$name" t0 rc=0
  if [[ ! -x $bin ]]; then
    echo "fuzz-smoke: $bin is missing (make fuzz-smoke builds it)" >&2
    return 1
  fi
  mkdir -p "$corpus"
  t0=$(date +%s)
  "$bin" -seed=20261205 -runs=$((runs * scale)) -timeout=60 -rss_limit_mb=4096 \
    -artifact_prefix="$work/$name-" -print_final_stats=1 "$@" "$corpus" "$seeds" \
    >"$work/$name.log" 2>&1 || rc=$?
  local execs
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$name.log" | grep -o '[0-9]*$' ||
    echo "?")
  if [[ $rc -ne 0 ]]; then
    echo "fuzz-smoke: $name FAILED (exit $rc) after $(($(date +%s) - t0)) s; its log:" >&2
    tail -n 60 "$work/$name.log" >&2
    # The finding is kept beside the build (the work folder goes at exit) and printed, so a
    # CI log alone is enough to reproduce it.
    mkdir -p "$build/fuzz-findings"
    for a in "$work/$name"-*; do
      [[ -f $a ]] || continue
      cp "$a" "$build/fuzz-findings/"
      local kept="$build/fuzz-findings/$(basename "$a")"
      echo "fuzz-smoke: reproduce with: $bin $kept   (the input, base64:)" >&2
      base64 "$a" | head -c 20000 >&2
      echo >&2
    done
    return 1
  fi
  printf 'fuzz-smoke: %-16s %6s inputs in %4d s, no finding\n' "$name" "$execs" \
    $(($(date +%s) - t0))
}

fail=0
run_one scenario_fuzzer 600 scenarios -dict=fuzz/scenario.dict -max_len=65536 || fail=1
run_one trace_fuzzer 2000 data/traces || fail=1
run_one epw_fuzzer 800 data/weather -max_len=2000000 || fail=1
exit $fail
