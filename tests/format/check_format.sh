#!/usr/bin/env bash
# Every C++ file of the project formatted by the project's .clang-format (issue 8: a format
# check in CI). Lists the files that differ and how to fix them; exit 1 if any does.
# Usage: check_format.sh SOURCE_DIR
set -euo pipefail
cd "$1"
if ! command -v clang-format >/dev/null; then
  echo "clang-format is not installed (Debian package clang-format)" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h')
else
  mapfile -t files < <(find core power thermal facility cli gui bench examples tests fuzz \
                         -name '*.cpp' -o -name '*.h' 2>/dev/null | sort)
fi
bad=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] || continue
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
echo "clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1): ${#files[@]} files checked, ${#bad[@]} unformatted"
if [[ ${#bad[@]} -gt 0 ]]; then
  printf '  %s\n' "${bad[@]}"
  echo "fix with: clang-format -i <file>  (style: .clang-format)"
  exit 1
fi
