#!/usr/bin/env bash
# Load test of the real exporter binary on loopback: builds woox_exporter and
# cmd/loadtest, then runs the scrape-cost, exchange-cost, start-up and
# catch-up measurements and prints each figure beside its floor or budget,
# with PASS/FAIL (see docs/performance.md).
#
#   bash scripts/loadtest.sh            # full run, about 11 minutes (2.5 of them the rate cap run)
#   bash scripts/loadtest.sh --short    # CI run, about 9 minutes, without the realistic-size growth row
#   bash scripts/loadtest.sh --chart=docs/loadtest-growth.png   # also draw the cost growth
#   bash scripts/loadtest.sh --strict   # also fail on missed timing ratios
#
# Other arguments go to cmd/loadtest (--help lists them). Exits 1 when a
# hard invariant fails: a 429, inexact counters, more exchange requests
# under scrape load, RSS at or above 50 MB (50,000,000 bytes) on the large
# account; at 100 accounts, RSS above 150 MB, an account's budget exceeded
# at the fake, or /-/ready later than 2 s after the first polls' answers, or
# data older at scrape (p99) than its interval + 1 s (positions) or + 2 s;
# under a rate cap at half what 100 accounts need, an account starved or the
# cap exceeded.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/woox_exporter" .
go build -o "$work/loadtest" ./cmd/loadtest

args=()
for a in "$@"; do
  case "$a" in
    --short) args+=(--latency-duration=3s --load-duration=6s --growth-realistic-accounts=0 --rate-cap-window=30s --growth-age-window=20s) ;;
    *) args+=("$a") ;;
  esac
done
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -h | awk '/^Mem:/ {print $2}') RAM, $(go version | cut -d' ' -f3)"
exec "$work/loadtest" --exporter "$work/woox_exporter" "${args[@]}"
