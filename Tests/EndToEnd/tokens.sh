#!/usr/bin/env bash
# End-to-end: login's token step and refresh, through the real system curl, against a
# small hostile OpenID provider on 127.0.0.1 (tokens_op.py, plain http, so the helper runs
# with --allow-http-loopback). Each hostile answer must be refused with its reason code and
# exit code; the good one must print the tokens and the checked claims. The "browser" is
# curl following the start URL through the provider's authorize endpoint to the callback.
#
# Needs python3 and curl (a missing one is a failure, never a skip).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper binary}
passed=0
failed=0
fail() { echo "tokens.sh: $*" >&2; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }
command -v python3 >/dev/null || { echo "tokens.sh: python3 is missing"; echo "tokens: 0 passed, 1 failed"; exit 1; }
command -v curl >/dev/null || { echo "tokens.sh: curl is missing"; echo "tokens: 0 passed, 1 failed"; exit 1; }

work=$(mktemp -d)
trap 'kill "$op_pid" 2>/dev/null; rm -rf "$work"' EXIT
python3 "$here/tokens_op.py" --timeout 300 >"$work/op.out" &
op_pid=$!
for _ in $(seq 100); do [ -s "$work/op.out" ] && break; sleep 0.1; done
port=$(head -1 "$work/op.out")
[ -n "$port" ] || { echo "tokens.sh: the provider did not start"; echo "tokens: 0 passed, 1 failed"; exit 1; }

# The browser: follow the start URL to the provider and back to the loopback callback.
cat >"$work/browser" <<'SH'
#!/bin/sh
exec curl -sS -L --max-redirs 4 -o /dev/null "$1"
SH
chmod 755 "$work/browser"

# login MODE EXPECTED_EXIT PATTERN...: every pattern must be in stdout; no token on stderr.
login() {
    local mode=$1 want=$2
    shift 2
    local code=0
    BROWSER="$work/browser" "$helper" login --issuer "http://127.0.0.1:$port/$mode" --client-id app \
        --allow-http-loopback --timeout 20 >"$work/out" 2>"$work/err" || code=$?
    if [ "$code" != "$want" ]; then fail "$mode: exit $code, not $want: $(cat "$work/out") $(cat "$work/err")"; return; fi
    local pattern
    for pattern in "$@"; do
        grep -qF -- "$pattern" "$work/out" || { fail "$mode: no $pattern in $(cat "$work/out")"; return; }
    done
    if grep -q 'AT-\|RT-\|eyJ' "$work/err"; then fail "$mode: a token on stderr"; return; fi
    [ "$(wc -l <"$work/out")" = 1 ] || { fail "$mode: not one line of JSON"; return; }
    pass
}

login good 0 '"access_token":"AT-good"' '"refresh_token":"RT-good"' '"id_token":"eyJ' \
    '"id_token_claims":{"sub":"user-42","iss":"http://127.0.0.1:'"$port"'/good","aud":["app"]' '"nonce_matched":true}'
login_id_token=$(python3 -c 'import json,sys; print(json.load(sys.stdin).get("id_token") or "")' <"$work/out" 2>/dev/null)
login other-issuer 65 '"reason":"issuer_mismatch"' '"step":"discovery"'
login nonce 65 '"reason":"nonce_mismatch"' '"step":"id_token"'
login aud 65 '"reason":"audience_mismatch"' '"step":"id_token"'
login iss 65 '"reason":"issuer_mismatch"' '"step":"id_token"'
login expired 65 '"reason":"token_expired"' '"step":"id_token"'
login big 65 '"reason":"too_long"'
login mac 65 '"reason":"unsupported_token_type"' '"step":"token_response"'
login error 1 '"outcome":"token_error","error":"invalid_grant"' '"status":400'

# refresh: the refresh token on stdin only.
code=0
printf 'RT-good\n' | "$helper" refresh --issuer "http://127.0.0.1:$port/good" --client-id app --allow-http-loopback \
    >"$work/out" 2>"$work/err" || code=$?
if [ "$code" = 0 ] && grep -qF '"outcome":"tokens","access_token":"AT-refreshed"' "$work/out"; then pass
else fail "refresh: exit $code: $(cat "$work/out") $(cat "$work/err")"; fi
code=0
printf 'RT-good\n' | "$helper" refresh --issuer "http://127.0.0.1:$port/good" --client-id app >"$work/out" 2>&1 || code=$?
if [ "$code" = 64 ] && grep -qF '"reason":"invalid_configuration"' "$work/out"; then pass
else fail "refresh over http without --allow-http-loopback: exit $code: $(cat "$work/out")"; fi

# refresh_case NAME EXPECTED_EXIT STDIN ARGS PATTERN...: ARGS (split on spaces) after the
# common ones; every pattern must be in stdout; no token, nor the login's ID token, on stderr.
refresh_case() {
    local name=$1 want=$2 input=$3 args=$4
    shift 4
    local code=0
    # shellcheck disable=SC2086
    printf '%s' "$input" | "$helper" refresh --client-id app --allow-http-loopback $args >"$work/out" 2>"$work/err" || code=$?
    if [ "$code" != "$want" ]; then fail "refresh: $name: exit $code, not $want: $(cat "$work/out") $(cat "$work/err")"; return; fi
    local pattern
    for pattern in "$@"; do
        grep -qF -- "$pattern" "$work/out" || { fail "refresh: $name: no $pattern in $(cat "$work/out")"; return; }
    done
    if grep -q 'AT-\|RT-\|eyJ' "$work/err"; then fail "refresh: $name: a token on stderr"; return; fi
    if [ "$want" != 0 ] && grep -qF 'AT-refreshed' "$work/out"; then fail "refresh: $name: a refused response's token printed"; return; fi
    pass
}
good="--issuer http://127.0.0.1:$port/good"
[ -n "$login_id_token" ] || fail "the good login printed no id_token"
refresh_case "checked without the login's ID token" 0 $'RT-good\n' "$good" \
    '"id_token_claims":{"sub":"user-42","iss":"http://127.0.0.1:'"$port"'/good","aud":["app"]' '"nonce_matched":null}'
refresh_case "checked against the login's ID token" 0 "RT-good"$'\n'"$login_id_token"$'\n' "$good --id-token-from-stdin" \
    '"access_token":"AT-refreshed"' '"id_token_claims":{"sub":"user-42"'
refresh_case "a refreshed ID token of another user" 65 "RT-other-sub"$'\n'"$login_id_token"$'\n' "$good --id-token-from-stdin" \
    '"reason":"subject_mismatch"' '"step":"id_token"'
refresh_case "a refreshed ID token of another issuer" 65 $'RT-other-iss\n' "$good" '"reason":"issuer_mismatch"' '"step":"id_token"'
refresh_case "an expired refreshed ID token" 65 $'RT-expired\n' "$good" '"reason":"token_expired"' '"step":"id_token"'
refresh_case "no ID token in the response" 0 "RT-no-id-token"$'\n'"$login_id_token"$'\n' "$good --id-token-from-stdin" \
    '"id_token":null,"id_token_claims":null}'
refresh_case "without an issuer the ID token is passed on unchecked" 0 $'RT-other-iss\n' \
    "--token-endpoint http://127.0.0.1:$port/good/token" '"id_token":"eyJ' '"id_token_claims":null}'
refresh_case "the login's ID token of another issuer" 64 "RT-good"$'\n'"$login_id_token"$'\n' \
    "--issuer http://127.0.0.1:$port/iss --id-token-from-stdin"
code=0
printf 'RT-revoked\n' | "$helper" refresh --token-endpoint "http://127.0.0.1:$port/good/token" --client-id app \
    --allow-http-loopback >"$work/out" 2>&1 || code=$?
if [ "$code" = 1 ] && grep -qF '"error":"invalid_grant"' "$work/out"; then pass
else fail "refresh of a revoked token: exit $code: $(cat "$work/out")"; fi

echo "tokens: $passed passed, $failed failed"
[ "$failed" = 0 ]
