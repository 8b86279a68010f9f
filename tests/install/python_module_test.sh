#!/usr/bin/env bash
# The installed Python module (issue 17): install the build into a temporary prefix, leave the
# source and build trees, import `dctwin` from the prefix's module folder and run a one-day
# study of the installed reference scenario.
#   python_module_test.sh CMAKE_COMMAND BUILD_DIR SOURCE_DIR PYTHON3
# Fails when the module is not installed into <prefix>/<DCTWIN_INSTALL_PYTHONDIR>, when python3
# imports a copy from anywhere else (the build tree), or when the installed module does not
# find the installed data (share/dctwin) by itself.
set -euo pipefail

cmake_cmd=$1
build=$(cd "$2" && pwd -P)
source_dir=$(cd "$3" && pwd -P)
python=$4

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/dctwin-python-install-test.XXXXXX")
work=$(cd "$work" && pwd -P)
trap 'rm -rf "$work"' EXIT
case "$work/" in
    "$source_dir"/* | "$build"/*) fail "temporary folder $work is inside the source or build tree" ;;
esac
prefix=$work/prefix

"$cmake_cmd" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "cmake --install failed"; }
pydir=$(sed -n 's/^DCTWIN_INSTALL_PYTHONDIR:STRING=//p' "$build/CMakeCache.txt")
[[ -n $pydir ]] || fail "DCTWIN_INSTALL_PYTHONDIR is not in $build/CMakeCache.txt"
ls "$prefix/$pydir"/dctwin*.so >/dev/null 2>&1 || fail "no dctwin*.so in $prefix/$pydir"

# Away from both trees, with nothing but the prefix's module folder on the path and no data
# folder given: the module must find share/dctwin beside itself.
unset DCTWIN_DATA_DIR
mkdir -p "$work/run"
cd "$work/run"
PYTHONPATH=$prefix/$pydir "$python" - "$prefix" "$prefix/$pydir" <<'PY' || fail "the installed module did not run"
import json, os, sys
prefix, pydir = sys.argv[1:3]
import dctwin
print("module:", dctwin.__file__)
assert os.path.realpath(dctwin.__file__).startswith(os.path.realpath(pydir) + os.sep), dctwin.__file__
scenario = os.path.join(prefix, "share", "dctwin", "scenarios", "azure_gb300_64.json")
with open(scenario) as f:
    sc = json.load(f)
sc.pop("$schema", None)
sc["study"]["days"] = 1
sc["study"]["output_interval_s"] = 3600
with open("short.json", "w") as f:
    json.dump(sc, f)
r = dctwin.run("short.json")
it = r.summary["it_energy_MWh"]
# The module sets DCTWIN_DATA_DIR in the C environment when it finds share/dctwin beside
# itself; os.environ is Python's copy from start-up, so ask the C library.
import ctypes
getenv = ctypes.CDLL(None).getenv
getenv.restype = ctypes.c_char_p
data = (getenv(b"DCTWIN_DATA_DIR") or b"").decode()
print("IT energy", it, "MWh; data from", data)
assert os.path.realpath(data).startswith(os.path.realpath(prefix) + os.sep), data
with open("module_it_MWh.txt", "w") as f:
    f.write(repr(it))
PY

# The module runs the model the installed command-line program runs: the same day, the same
# IT energy (both print 197.8 MWh for this day of the reference scenario; README, Python).
"$prefix/bin/dctwin" run short.json -o short.h5 --quiet --summary-json cli.json ||
    fail "the installed dctwin did not run short.json"
"$python" - <<'PY' || fail "the module's IT energy differs from the command line's"
import json
module = float(open("module_it_MWh.txt").read())
cli = json.load(open("cli.json"))["it_energy_MWh"]
print("IT energy: module", module, "MWh, command line", cli, "MWh")
assert abs(module - cli) <= 1e-9 * cli, (module, cli)
assert 190.0 < module < 205.0, module  # 197.8 MWh measured; a day of 64 racks near 8.2 MW
PY
echo "OK: dctwin imported from $prefix/$pydir and ran a one-day study as the command line does"
