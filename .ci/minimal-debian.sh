#!/usr/bin/env bash
# CI step: the README's two commands on a minimal Debian 12, from nothing.
#
# Builds a Debian 12 root with `debootstrap --variant=minbase bookworm` (the package set of
# the debian:12 image: no make, compilers, git, sudo or ca-certificates), copies a clean
# checkout of HEAD into its /src, and runs there, as root in a fresh environment, the commands
# of the README's "The two commands" block exactly as written (with CI=true, as CI sets it).
# Prints each part's duration.
#
# Exit status: 0 passed; 77 skipped because the Debian mirror (or root) is not available,
# said loudly; anything else failed. Needs root (debootstrap, chroot, mount).
# Environment: DCTWIN_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# DCTWIN_DEBOOTSTRAP_CACHE (downloaded .debs of the base system, default
# /var/cache/dctwin-debootstrap; the project's own packages are never cached),
# DCTWIN_KEEP_ROOT=1 keeps the root under /var/tmp for inspection.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
mirror=${DCTWIN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
cache=${DCTWIN_DEBOOTSTRAP_CACHE:-/var/cache/dctwin-debootstrap}
step_start=$(date +%s)

say() { echo "minimal-debian: $*"; }
# CPU seconds (user + system) used so far by this script's finished children: with the wall
# time it shows how much of a duration was waiting for a busy machine.
cpu_s() {
  local stat
  read -r stat </proc/$$/stat
  set -- ${stat##*) }
  echo $(( (${14} + ${15}) / $(getconf CLK_TCK) ))
}
skip() {
  echo "################################################################################"
  echo "## SKIPPED: the README's two commands on a minimal Debian 12 were NOT run."
  echo "## Reason: $*"
  echo "################################################################################"
  exit 77
}
mirror_reachable() {
  local f
  f=$(mktemp)
  /usr/lib/apt/apt-helper -o Acquire::http::Timeout=20 -o Acquire::Retries=1 \
    download-file "$mirror/dists/$suite/Release" "$f" >/dev/null 2>&1
  local rc=$?
  rm -f "$f"
  return $rc
}

[[ $(id -u) -eq 0 ]] || skip "debootstrap and chroot need root; this is uid $(id -u)."

# The README's command block, read from the README of HEAD (the tree copied below), so the
# step runs what the README says.
mapfile -t commands < <(awk '
  /^## The two commands/ { section = 1; next }
  section && /^## /      { exit }
  section && /^```sh/    { block = 1; next }
  block && /^```/        { exit }
  block { sub(/[ \t]+#.*$/, ""); if (length($0)) print }' <(git show HEAD:README.md))
if [[ ${#commands[@]} -ne 2 ]]; then
  say "expected two commands in the README's \"The two commands\" sh block, found ${#commands[@]}: ${commands[*]:-none}" >&2
  exit 1
fi
say "README commands: ${commands[0]} ; ${commands[1]}"

if ! mirror_reachable; then
  skip "cannot reach the Debian mirror $mirror (dists/$suite/Release)."
fi

if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap on the CI machine"
  log=$(mktemp)
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
           debootstrap debian-archive-keyring; } >"$log" 2>&1; then
    cat "$log"
    skip "could not install debootstrap on the CI machine (apt-get failed)."
  fi
  rm -f "$log"
fi

work=$(mktemp -d /var/tmp/dctwin-minimal-debian.XXXXXX)
root=$work/root
mkdir -p "$root" "$cache"

mounted=()
cleanup() {
  set +e
  # Anything still running inside the root (a daemon a package's postinst started) holds
  # the mounts: stop those processes, one by one, by id.
  local p
  for p in /proc/[0-9]*; do
    if [[ $(readlink "$p/root" 2>/dev/null) == "$root" ]]; then
      say "stopping process ${p#/proc/} left in the root: $(tr '\0' ' ' <"$p/cmdline")"
      kill "${p#/proc/}" 2>/dev/null
    fi
  done
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[i]}" || umount -R -l "${mounted[i]}"
  done
  if grep -q " $root/" /proc/self/mountinfo; then
    say "WARNING: mounts remain under $root; not removing it" >&2
  elif [[ ${DCTWIN_KEEP_ROOT:-0} == 1 ]]; then
    say "kept the root at $root"
  else
    rm -rf --one-file-system "$work"
  fi
}
trap cleanup EXIT

t0=$(date +%s) c0=$(cpu_s)
say "debootstrap --variant=minbase $suite from $mirror"
if ! debootstrap --variant=minbase --cache-dir="$cache" "$suite" "$root" "$mirror" \
      >"$work/debootstrap.log" 2>&1; then
  tail -n 20 "$work/debootstrap.log"
  if ! mirror_reachable; then
    skip "debootstrap lost the Debian mirror $mirror."
  fi
  say "debootstrap failed with the mirror reachable" >&2
  exit 1
fi
say "debootstrap: $(chroot "$root" dpkg-query -W | wc -l) packages, $(du -sm "$root" | cut -f1) MB, $(( $(date +%s) - t0 )) s (CPU $(( $(cpu_s) - c0 )) s)"

# What a minimal Debian 12 lacks, to show the commands start from nothing.
for tool in make gcc g++ c++ cmake ninja git sudo; do
  if chroot "$root" /bin/bash -c "command -v $tool" >/dev/null; then
    say "the minimal root unexpectedly has $tool" >&2
    exit 1
  fi
done
if chroot "$root" dpkg-query -W -f='${Status}' ca-certificates 2>/dev/null |
     grep -q "install ok installed"; then
  say "the minimal root unexpectedly has ca-certificates" >&2
  exit 1
fi
say "the root has no make, gcc, g++, cmake, ninja, git, sudo, ca-certificates"

# A clean checkout: the committed tree of HEAD, nothing from the working directory.
mkdir "$root/src"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$root/src"
say "copied $(git -C "$repo" rev-parse --short=12 HEAD) (git archive HEAD) to /src"

cp -L /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount -t sysfs sysfs "$root/sys" && mounted+=("$root/sys")
mount --rbind /dev "$root/dev" && mounted+=("$root/dev")
mount --make-rslave "$root/dev"

# A fresh login's environment: nothing of this CI's (QT_QPA_PLATFORM, ASAN_OPTIONS...) but
# CI=true, as the CI harness sets it (the build then treats warnings as errors).
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb CI=true \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# Without root or sudo, the first command says what to install and exits 2.
set +e
in_root /usr/sbin/runuser -u nobody -- /bin/bash -c "cd /src && ${commands[0]}" \
  >"$work/nobody.log" 2>&1
rc=$?
set -e
if [[ $rc -ne 2 ]] || ! grep -q "apt-get install -y --no-install-recommends make " "$work/nobody.log"; then
  cat "$work/nobody.log"
  say "as a user without sudo, ${commands[0]} should list the packages and exit 2 (exit $rc)" >&2
  exit 1
fi
say "as a user without sudo, ${commands[0]} exits 2 and says:"
sed 's/^/    /' "$work/nobody.log"

# The README's two commands, verbatim, as root in /src.
durations=()
for c in "${commands[@]}"; do
  echo "root@minimal-debian-12:/src# $c"
  t0=$(date +%s) c0=$(cpu_s)
  if ! in_root /bin/bash -c "cd /src && $c" 2>&1 | tee "$work/out.log"; then
    say "$c FAILED after $(( $(date +%s) - t0 )) s" >&2
    exit 1
  fi
  durations+=("$c $(( $(date +%s) - t0 )) s (CPU $(( $(cpu_s) - c0 )) s)")
  say "$c: done in ${durations[-1]#"$c "}"
done

# What the commands must leave: the report, the summary, and CTest's summary line.
for f in report.h5 summary.json; do
  [[ -s $root/src/$f ]] || { say "$f missing after ${commands[0]}" >&2; exit 1; }
done
grep -q "tests passed" "$work/out.log" ||
  { say "no CTest summary line in the output of ${commands[1]}" >&2; exit 1; }

say "PASSED on a minimal Debian 12 root ($(nproc) cores): $(grep "tests passed" "$work/out.log")"
say "durations: ${durations[0]}, ${durations[1]}; step $(( $(date +%s) - step_start )) s;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
