#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a bounded time each.
# Usage: scripts/fuzz.sh [DURATION]   (default 10s per target)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
found=0
while IFS= read -r file; do
  pkg="./$(dirname "$file")"
  while IFS= read -r target; do
    found=$((found + 1))
    echo "--- fuzz $pkg $target for $duration"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$duration" "$pkg" </dev/null
  done < <(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/')
done < <(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' || true)
if [ "$found" -eq 0 ]; then
  echo "no fuzz targets found" >&2
  exit 1
fi
echo "fuzzed $found target(s)"
