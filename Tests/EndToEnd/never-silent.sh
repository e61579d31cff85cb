#!/usr/bin/env bash
# End-to-end: every failure before the browser ends with one human line on stderr that says
# what happened and what to do (issue 36 point 1), while stdout keeps its JSON. Against the
# small OpenID provider of tokens.sh (tokens_op.py, plain http on 127.0.0.1): an issuer
# typo, a trailing slash, a missing path segment, the server down, https to an http server,
# an http issuer without --allow-http-loopback, a refused refresh token.
#
# Needs python3 and curl (a missing one is a failure, never a skip).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper binary}
# shellcheck source=suite.bash
source "$here/suite.bash"
begin_suite never-silent
require python3
require curl

python3 "$here/tokens_op.py" --timeout 120 >"$work/op.out" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/op.out" ] && break; sleep 0.1; done
port=$(head -1 "$work/op.out")
[ -n "$port" ] || { fail "the provider did not start"; end_suite; exit; }

# failing NAME EXIT REASON WORDS [STDIN] -- ARGS...: exit EXIT, REASON in the stdout JSON,
# and stderr's last line a ✗ line holding WORDS (what to do).
failing() {
    local name=$1 want=$2 reason=$3 words=$4 input=$5
    shift 6
    local code=0
    printf '%s' "$input" | "$helper" "$@" >"$work/out" 2>"$work/err" || code=$?
    local last
    last=$(tail -n 1 "$work/err")
    if [ "$code" != "$want" ]; then fail "$name: exit $code, not $want: $(cat "$work/out") $(cat "$work/err")"
    elif ! grep -qF "\"reason\":\"$reason\"" "$work/out" && ! grep -qF "\"error\":\"$reason\"" "$work/out"; then
        fail "$name: no $reason in $(cat "$work/out")"
    elif [[ "$last" != "callback-router: "*"✗ "* ]]; then fail "$name: stderr does not end with a ✗ line: $(cat "$work/err")"
    elif [[ "$last" != *"$words"* ]]; then fail "$name: the last line does not say '$words': $last"
    elif grep -q 'RT-' "$work/err"; then fail "$name: a token on stderr"
    else pass "$name"; fi
}
login=(login --client-id app --no-browser --timeout 5)
base="http://127.0.0.1:$port"
failing "an issuer typo" 65 unknown_status "check --issuer" "" -- "${login[@]}" --allow-http-loopback --issuer "$base/goood"
failing "a missing path segment" 65 unknown_status "check --issuer" "" -- "${login[@]}" --allow-http-loopback --issuer "$base"
failing "a trailing slash" 65 issuer_mismatch "the metadata's issuer is $base/good, not the expected issuer $base/good/" "" -- \
    "${login[@]}" --allow-http-loopback --issuer "$base/good/"
failing "the server down" 69 transport_failed "could not be reached" "" -- "${login[@]}" --allow-http-loopback \
    --issuer "http://127.0.0.1:1/good"
failing "https to an http server" 69 transport_failed "http/https" "" -- "${login[@]}" --allow-http-loopback \
    --issuer "https://127.0.0.1:$port/good"
failing "an http issuer without --allow-http-loopback" 64 invalid_configuration "--allow-http-loopback" "" -- \
    "${login[@]}" --issuer "$base/good"
failing "a refused refresh token" 1 invalid_grant "sign in again" $'RT-revoked\n' -- \
    refresh --client-id app --allow-http-loopback --issuer "$base/good"

# An interactive refresh (stdin a terminal, from `script`'s pty) asks and says its limit;
# one whose stdin is a pipe is not asked (nothing on stderr before the answer).
if command -v script >/dev/null; then
    script -qec "'$helper' refresh --client-id app --token-endpoint https://127.0.0.1:1/token" /dev/null \
        </dev/null >"$work/pty" 2>&1 || true
    if grep -q "paste the refresh token.*within 30 seconds" "$work/pty"; then pass "an interactive refresh asks and says its limit"
    else fail "an interactive refresh did not ask: $(cat "$work/pty")"; fi
    printf '' | "$helper" refresh --client-id app --token-endpoint https://127.0.0.1:1/token >/dev/null 2>"$work/err" || true
    if grep -q "paste the" "$work/err"; then fail "a refresh reading a pipe asked a person: $(cat "$work/err")"
    else pass "a refresh reading a pipe is not asked"; fi
    # The pasted token is not echoed: typed into the pty once the prompt is shown (echo is
    # off by then), it must not come back in the terminal's output; the refresh still works.
    mkfifo "$work/keys"
    script -qec "'$helper' refresh --client-id app --allow-http-loopback --issuer '$base/good'" /dev/null \
        <"$work/keys" >"$work/pty" 2>&1 &
    script_pid=$!
    exec 7>"$work/keys"
    for _ in $(seq 200); do grep -q "paste the refresh token" "$work/pty" && break; sleep 0.05; done
    printf 'RT-good\n' >&7
    exec 7>&-
    wait "$script_pid"
    if grep -q "AT-refreshed" "$work/pty" && ! grep -q "RT-good" "$work/pty"; then pass "a pasted refresh token is not echoed"
    else fail "the pasted token: $(cat "$work/pty")"; fi
    # A wait says its length; on a terminal, near its end, the likely causes (issue 36 point 4).
    script -qec "'$helper' login --endpoint https://id.example/authorize --client-id app --no-browser --timeout 3" /dev/null \
        </dev/null >"$work/pty" 2>&1 || true
    if grep -q "waiting for the callback on http://127.0.0.1:[0-9]*/callback (at most 3 seconds" "$work/pty" \
        && grep -q "still no callback (.* left).*client id.*redirect URI registered" "$work/pty"; then
        pass "a wait on a terminal says its length and, near its end, the likely causes"
    else fail "the terminal wait said: $(cat "$work/pty")"; fi
    code=0
    "$helper" login --endpoint https://id.example/authorize --client-id app --no-browser --timeout 3 \
        </dev/null >/dev/null 2>"$work/err" || code=$?
    if [ "$code" = 75 ] && grep -q "(at most 3 seconds" "$work/err" && ! grep -q "still" "$work/err"; then
        pass "a wait whose stderr is no terminal says its length, and nothing more while it waits"
    else fail "the non-terminal wait: exit $code: $(cat "$work/err")"; fi
else
    fail "script (util-linux) is missing"
fi
end_suite
