#!/usr/bin/env bash
# Installs the Debian 12 packages dctwin builds with, when any is missing — make and the
# compilers included, so that it works on a minimal Debian 12 (debootstrap --variant=minbase,
# the debian:12 image) where only bash, dpkg and apt are there. ./run and ./test call it first.
# Runs apt-get directly as root, through sudo otherwise; without either it prints the exact
# command to run as root and exits 2. DCTWIN_BUILD_GUI=OFF leaves out Qt and Xvfb;
# DCTWIN_FUZZ=1 adds clang for the fuzz targets. Nothing is downloaded at build time; this
# is the only place the project reaches for packages.
set -euo pipefail

packages=(
  make build-essential cmake ninja-build pkg-config git
  libeigen3-dev libsundials-dev libhdf5-dev hdf5-tools nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev
  # zlib: the report's chunks are deflated on every core before HDF5 stores them
  # (core/io/chunk_packer.h); libhdf5-dev pulls it in, named here because we link it.
  zlib1g-dev
  # Issue 12: sweeps across the ranks of an MPI job (mpirun -n N dctwin sweep), Open MPI.
  libopenmpi-dev openmpi-bin
  # Checks of the test suite: the scenario schema by an independent validator, the API docs
  # without a warning, the code in the project's clang-format style (issue 8).
  python3-jsonschema doxygen clang-format
  # Issue 17: the report checked as NetCDF-4/CF by xarray (h5netcdf and netCDF4 engines); the
  # Python module dctwin (pybind11 headers, the interpreter's headers), NumPy for its arrays,
  # matplotlib for the examples in examples/python/.
  python3-xarray python3-h5netcdf python3-netcdf4 python3-numpy pybind11-dev python3-dev
  python3-matplotlib
)
if [[ "${DCTWIN_BUILD_GUI:-ON}" != "OFF" ]]; then
  # Qt6 Widgets + Charts for dctwin-gui, Qt6 Svg for its SVG export of the design page;
  # xvfb/xauth let the GUI tests run without a screen; poppler-utils' pdftotext lets the PDF
  # report test read the text a client would.
  packages+=(qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev xvfb xauth
             poppler-utils)
fi

if [[ "${DCTWIN_FUZZ:-0}" == 1 ]]; then
  # make fuzz-smoke: the libFuzzer targets (fuzz/) build with clang only; Debian 12's clang
  # is 14, whose sanitizer and libFuzzer runtimes are a separate package.
  packages+=(clang libclang-rt-14-dev)
fi

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "install-deps: this is not a Debian system (no dpkg-query/apt-get); install the" \
       "equivalents of these Debian 12 packages, then run again: ${packages[*]}" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  {
    echo "install-deps: ${#missing[@]} Debian packages are missing, and this is neither root nor"
    echo "install-deps: a user with sudo. As root, run:"
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    echo "install-deps: then run this command again."
  } >&2
  exit 2
fi

echo "install-deps: installing ${missing[*]}"
# sudo resets the environment, so the frontend setting goes through env.
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
