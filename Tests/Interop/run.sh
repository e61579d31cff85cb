#!/usr/bin/env bash
# Runs the live interop suites (each a real authorization server the suite starts and
# stops itself, on 127.0.0.1 only) against one release build of the helper.
#
#   Tests/Interop/run.sh [path/to/callback-router] [SUITE…]      (or CALLBACK_ROUTER=…)
#
# SUITE is a suite's name (django, glewlwyd); none given: all of them. Each suite prints
# every check with its time and a "NAME: N passed, M failed" line; this prints each
# suite's wall time and the total, and exits non-zero when any suite failed. Suites run
# one after another. A missing tool fails its suite; nothing is skipped.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
helper=${CALLBACK_ROUTER:-}
if [ $# -gt 0 ] && [ -e "$1" ]; then helper=$1; shift; fi
if [ -z "$helper" ]; then
    (cd "$root" && swift build -c release --product callback-router)
    helper="$root/.build/release/callback-router"
fi
export CALLBACK_ROUTER="$helper"

all=()
for suite in "$here"/*.sh; do
    case $(basename "$suite") in run.sh|lib.sh|flows.sh) continue ;; esac
    all+=("$(basename "$suite" .sh)")
done
selected=("$@")
[ ${#selected[@]} -gt 0 ] || selected=("${all[@]}")

started=$(date +%s%N)
passed=0
failed=0
failures=()
for name in "${selected[@]}"; do
    if [ ! -f "$here/$name.sh" ]; then
        echo "no suite named '$name' (known: ${all[*]})"
        failures+=("$name"); failed=$((failed + 1)); continue
    fi
    echo "== $name"
    suite_started=$(date +%s%N)
    log=$(mktemp)
    if bash "$here/$name.sh" "$helper" 2>&1 | tee "$log"; status=${PIPESTATUS[0]}; [ "$status" = 0 ]; then :; else failures+=("$name"); fi
    counts=$(sed -n "s/^$name: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p" "$log" | tail -n 1)
    rm -f "$log"
    if [ -n "$counts" ]; then
        passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
    else
        failed=$((failed + 1))
    fi
    echo "== $name took $(( ($(date +%s%N) - suite_started) / 1000000 )) ms"
done

echo "interop: $passed passed, $failed failed in ${#selected[@]} suites ($(( ($(date +%s%N) - started) / 1000000 )) ms)"
if [ ${#failures[@]} -gt 0 ]; then
    echo "interop: failed suites: ${failures[*]}"
    exit 1
fi
