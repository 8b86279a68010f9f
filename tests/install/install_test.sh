#!/usr/bin/env bash
# The installed-prefix test (issue 8): install the build into a temporary prefix, leave the
# source and build trees, and run the installed `dctwin` on the installed scenarios and data.
#   install_test.sh CMAKE_COMMAND BUILD_DIR SOURCE_DIR
# Fails when the install misses the executable, the data (catalog, coolants, weather, traces)
# or the scenarios, when the installed binary does not find its data beside itself with
# DCTWIN_DATA_DIR unset, or when DCTWIN_DATA_DIR is not honoured.
set -euo pipefail

cmake_cmd=$1
build=$(cd "$2" && pwd -P)
source_dir=$(cd "$3" && pwd -P)

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/dctwin-install-test.XXXXXX")
work=$(cd "$work" && pwd -P)
trap 'rm -rf "$work"' EXIT
case "$work/" in
    "$source_dir"/* | "$build"/*) fail "temporary folder $work is inside the source or build tree" ;;
esac
prefix=$work/prefix
share=$prefix/share/dctwin

# --- install ------------------------------------------------------------------------------------
"$cmake_cmd" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "cmake --install failed"; }

[[ -x $prefix/bin/dctwin ]] || fail "bin/dctwin not installed"
if [[ -x $build/gui/dctwin-gui ]]; then
    [[ -x $prefix/bin/dctwin-gui ]] || fail "dctwin-gui was built but not installed"
fi
[[ ! -e $prefix/bin/dctwin-bench ]] || fail "dctwin-bench is installed; it should stay in the build tree"
for d in catalog/power catalog/thermal coolants weather traces; do
    [[ -d $share/data/$d ]] || fail "share/dctwin/data/$d not installed"
    [[ -n "$(ls -A "$share/data/$d")" ]] || fail "share/dctwin/data/$d is empty"
done
for f in "$source_dir"/data/weather/*.epw "$source_dir"/data/coolants/*.json; do
    rel=${f#"$source_dir"/data/}
    [[ -f $share/data/$rel ]] || fail "share/dctwin/data/$rel not installed"
done
for f in "$source_dir"/scenarios/*.json; do
    [[ -f $share/scenarios/$(basename "$f") ]] || fail "scenario $(basename "$f") not installed"
done
if [[ -d $source_dir/scenarios/schema ]]; then
    [[ -d $share/scenarios/schema ]] || fail "scenarios/schema not installed"
fi

# --- run from a folder away from both trees, data found beside the executable --------------------
unset DCTWIN_DATA_DIR
run=$work/run
mkdir -p "$run"
cd "$run"

"$prefix/bin/dctwin" --version >/dev/null || fail "dctwin --version failed"
"$prefix/bin/dctwin" validate "$share/scenarios/azure_gb300_64.json" >validate.out 2>&1 ||
    { cat validate.out >&2; fail "validate of the installed reference scenario failed"; }

# A one-day copy of the installed reference scenario (its relative weather path stays as
# shipped: the loader resolves it against the data folder).
python3 - "$share/scenarios/azure_gb300_64.json" short.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["study"]["days"] = 1
s["study"]["output_interval_s"] = 3600
json.dump(s, open(sys.argv[2], "w"), indent=2)
PY
"$prefix/bin/dctwin" run short.json -o report.h5 --summary-json summary.json --quiet >run.out 2>&1 ||
    { cat run.out >&2; fail "dctwin run of the one-day scenario failed (exit $?)"; }
[[ -s report.h5 ]] || fail "dctwin run wrote no report.h5"
[[ -s summary.json ]] || fail "dctwin run wrote no summary.json"

# --- DCTWIN_DATA_DIR is honoured: a wrong value is reported, not replaced ----------------------
set +e
DCTWIN_DATA_DIR=$work/nowhere "$prefix/bin/dctwin" validate "$share/scenarios/azure_gb300_64.json" \
    >env.out 2>&1
status=$?
set -e
[[ $status -eq 2 ]] || { cat env.out >&2; fail "DCTWIN_DATA_DIR=<missing> gave exit $status, expected 2"; }
grep -q "$work/nowhere" env.out || { cat env.out >&2; fail "the error does not name DCTWIN_DATA_DIR's value"; }
grep -q "DCTWIN_DATA_DIR" env.out || { cat env.out >&2; fail "the error does not mention DCTWIN_DATA_DIR"; }

# --- the data really come from the prefix: without them the installed binary fails, naming --------
# --- the places it tried, and DCTWIN_DATA_DIR pointing at them makes it work again -------------
mv "$share/data" "$work/moved-data"
build_prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
if [[ -d $build_prefix/share/dctwin/data/catalog ]]; then
    echo "note: $build_prefix/share/dctwin/data exists (a system-wide install); negative check skipped"
else
    set +e
    "$prefix/bin/dctwin" validate "$share/scenarios/azure_gb300_64.json" >missing.out 2>&1
    status=$?
    set -e
    [[ $status -eq 2 ]] || { cat missing.out >&2; fail "without installed data: exit $status, expected 2"; }
    grep -q "$share/data" missing.out || { cat missing.out >&2; fail "the error does not list $share/data"; }
fi
DCTWIN_DATA_DIR=$work/moved-data "$prefix/bin/dctwin" validate "$share/scenarios/azure_gb300_64.json" \
    >moved.out 2>&1 || { cat moved.out >&2; fail "DCTWIN_DATA_DIR=<moved data> did not work"; }
mv "$work/moved-data" "$share/data"

echo "OK: installed dctwin validated and ran a one-day scenario from $run"
