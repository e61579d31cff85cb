#!/usr/bin/env bash
# End-to-end: `login --scheme` says how long it waits and, on a terminal, reminds as the
# loopback wait does: the time left, and near the end the likely causes (the client id,
# the redirect URI registered at the provider, the scheme's handler). With stderr in a file
# it says the length once and nothing more while it waits.
#
# Needs script (util-linux): a missing one is a failure, never a skip.
set -uo pipefail
helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper binary}
passed=0
failed=0
fail() { echo "FAIL - scheme-wait: $*"; failed=$((failed + 1)); }
pass() { echo "ok   - scheme-wait: $*"; passed=$((passed + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="$work/runtime"
mkdir -m 700 "$XDG_RUNTIME_DIR"

if command -v script >/dev/null; then
    script -qec "'$helper' login --endpoint https://id.example/authorize --client-id app --scheme e2ewait --no-browser --timeout 3" \
        /dev/null </dev/null >"$work/pty" 2>&1 || true
    if grep -q "waiting for the callback on e2ewait: (.*at most 3 seconds; --timeout)" "$work/pty"; then
        pass "the scheme wait says its length"
    else fail "the scheme wait did not say its length: $(cat "$work/pty")"; fi
    if grep -q "still no callback (.* left).*client id.*redirect URI registered: e2ewait:/callback.*handler of e2ewait: is registered" \
        "$work/pty"; then
        pass "on a terminal, near its end, the scheme wait names the likely causes"
    else fail "the terminal scheme wait said: $(cat "$work/pty")"; fi
else
    fail "script (util-linux) is missing"
fi
code=0
"$helper" login --endpoint https://id.example/authorize --client-id app --scheme e2ewait --no-browser --timeout 3 \
    </dev/null >/dev/null 2>"$work/err" || code=$?
if [ "$code" = 75 ] && grep -q "at most 3 seconds" "$work/err" && ! grep -q "still" "$work/err"; then
    pass "with stderr in a file the scheme wait says its length, and nothing more while it waits"
else fail "the non-terminal scheme wait: exit $code: $(cat "$work/err")"; fi
echo "scheme-wait: $passed passed, $failed failed"
[ "$failed" = 0 ]
