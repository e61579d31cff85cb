#!/usr/bin/env bash
# Runs every end-to-end suite in Tests/EndToEnd (each *.sh but this one) against one
# release build of the helper, and fails when any suite fails.
#
#   Tests/EndToEnd/run.sh [path/to/callback-router]     (or CALLBACK_ROUTER=…)
#
# Each suite receives the helper as CALLBACK_ROUTER, prints its own "N passed, M failed"
# line and exits non-zero on a failure. Suites run one after another (they share /tmp and
# the machine's two cores with other work). Browser suites: loopback.sh needs chromium;
# pages.sh also chromedriver and Debian's python3-selenium (/usr/bin/python3), as .ci/run
# installs them; a missing tool fails its suite, never skips it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
helper=${1:-${CALLBACK_ROUTER:-}}
if [ -z "$helper" ]; then
    (cd "$root" && swift build -c release --product callback-router)
    helper="$root/.build/release/callback-router"
fi
export CALLBACK_ROUTER="$helper"

suites=0
failures=()
for suite in "$here"/*.sh; do
    [ "$(basename "$suite")" = "run.sh" ] && continue
    suites=$((suites + 1))
    echo "== $(basename "$suite")"
    if bash "$suite"; then :; else failures+=("$(basename "$suite")"); fi
done

if [ "$suites" = 0 ]; then echo "no suites found in $here"; exit 1; fi
if [ "${#failures[@]}" -gt 0 ]; then
    echo "end-to-end: ${#failures[@]} of $suites suites failed: ${failures[*]}"
    exit 1
fi
echo "end-to-end: all $suites suites passed"
