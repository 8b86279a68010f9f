#!/usr/bin/env bash
# Installs the Debian 12 packages dctwin builds with, when any is missing.
# Runs as root, or through sudo. Nothing is downloaded at build time; this is the only
# place the project reaches for packages.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev libsundials-dev libhdf5-dev hdf5-tools nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev
)
if [[ "${DCTWIN_BUILD_GUI:-ON}" != "OFF" ]]; then
  # Qt6 Widgets + Charts for dctwin-gui; xvfb/xauth let the GUI tests run without a screen.
  packages+=(qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev xvfb xauth)
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

echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
