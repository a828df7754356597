#!/usr/bin/env bash
# Writes the parts of the docs that restate the code; the tests fail when
# they differ (e2e/docs_test.go, e2e/budget_doc_test.go):
#
#   bash scripts/docs.sh flags   # docs/flags.md below its marker line: the
#                                # binary's --help, after a flag changed
#   bash scripts/docs.sh budget  # the budget table of docs/reliability.md,
#                                # after a limit or default interval changed
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  flags) test='^TestFlagsDocMatchesTheBinarysHelp$' ;;
  budget) test='^TestBudgetDocMatchesTheCode$' ;;
  *)
    echo "usage: $0 flags|budget" >&2
    exit 2
    ;;
esac
WOOX_WRITE_DOCS=1 go test -count=1 -run "$test" ./e2e/ >/dev/null
