#!/usr/bin/env bash
# End-to-end test of the seed providers' third-pass shapes (issue 34) with the real binary:
# Ory account linking (`return_to?flow=<login flow id>`, no code) through `parse`, `listen`
# (a real socket, `open` the way xdg-open runs it) and `loopback` (a real HTTP request, the
# browser's page); Clerk's magic links with an added '/' or split across query and
# fragment; Prelude's token as a compact JWS; the empty values the SDKs ignore.
#
# Usage: Tests/EndToEnd/dialects.sh [path/to/callback-router]
#   (or CALLBACK_ROUTER=path; else the debug build is built and used).
# Needs: curl, python3. A missing one is a failure, never a skip.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# shellcheck source=suite.bash
source "$here/suite.bash"
find_helper "${1:-}"

begin_suite dialects
require curl
require python3
[[ -x "$helper" ]] || { fail "helper $helper is not executable"; end_suite; exit 1; }
cr=$helper

export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_DATA_HOME="$work/home/data" \
       XDG_CONFIG_HOME="$work/home/config" XDG_STATE_HOME="$work/home/state" BROWSER=false
mkdir -p -m 0700 "$HOME" "$XDG_RUNTIME_DIR" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME"
listeners="$XDG_RUNTIME_DIR/callback-router/listeners"

flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c
linked='{"outcome":"continue_login_flow","dialect":"ory","flow":"'$flow'","extra":{"no_org_ui":"true"}}'
jws=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0In0.47mKTaMaEn1L3m5DAz9muidMqw636xxw7EFAK_YnPdg

# run NAME ARGS…: runs the helper; NAME.out, NAME.err, and RC its exit status.
run() {
    local name=$1; shift
    set +e; "$cr" "$@" >"$work/$name.out" 2>"$work/$name.err"; RC=$?; set -e
}
is() { test "$(cat "$work/$1.out")" = "$2"; }

# 1. parse
run ory parse --dialect ory "com.example.app://ory/callback?flow=$flow&no_org_ui=true"
check "parse: Ory account linking exits 0" test "$RC" = 0
check "…and prints continue_login_flow with the flow id" is ory "$linked"
run ory-bad parse --dialect ory "com.example.app://ory/callback?flow=5B1E3C2A-9D4F-4E8B-A7C6-0F2D1E3B4A5C"
check "parse: a flow id that is no lowercase UUID is refused (65)" test "$RC" = 65
check "…as invalid_parameter" grep -q '"reason":"invalid_parameter"' "$work/ory-bad.out"
run prelude-fake parse --dialect prelude 'myapp://oauth-callback?challenge_token=ct_9f8e7d6c5b4a'
check "parse: a challenge token that is no compact JWS is refused (65)" test "$RC" = 65
run prelude parse --dialect prelude "myapp://oauth-callback?error=&challenge_token=$jws"
check "parse: ?error=&challenge_token=<jws> finalizes (0)" test "$RC" = 0
check "…the empty error an extra" \
    is prelude '{"outcome":"challenge_token","dialect":"prelude","challenge_token":"'$jws'","extra":{"error":""}}'
run clerk-slash parse --dialect clerk --redirect-uri com.clerk.quickstart://callback \
    'com.clerk.quickstart://callback/?flow_id=flow_123&approval_token=approval_123'
check "parse: a Clerk magic link with '/' added is read (0)" test "$RC" = 0
run clerk-split parse --dialect clerk 'myapp://callback?flow_id=flow_123#approval_token=approval_123'
check "parse: a Clerk magic link split across query and fragment is read (0)" test "$RC" = 0
check "…as magic_link" grep -q '^{"outcome":"magic_link"' "$work/clerk-split.out"
run clerk-blank parse --dialect clerk 'myapp://callback?flow_id=flow_123&approval_token=%20'
check "parse: a whitespace-only approval token is missing (65)" \
    bash -c "test $RC = 65 && grep -q '\"reason\":\"missing_parameter\"' '$work/clerk-blank.out'"
run clerk-nonce parse --dialect clerk 'myapp://callback?rotating_token_nonce='
check "parse: an empty Clerk nonce is a bare callback (0)" \
    bash -c "test $RC = 0 && grep -q '^{\"outcome\":\"bare_callback\"' '$work/clerk-nonce.out'"

# 2. listen: a real socket, the URL handed over by `open`.
sockets() { find "$listeners" -name '*.sock' 2>/dev/null | wc -l; }
( set +e; "$cr" listen --scheme e2eory --dialect ory --timeout 10 >"$work/listen.out" 2>"$work/listen.err"
  echo $? >"$work/listen.rc" ) &
pids+=($!)
for _ in $(seq 1 500); do [ "$(sockets)" -gt 0 ] && break; sleep 0.01; done
run open open "e2eory://ory/callback?flow=$flow&no_org_ui=true"
check "open hands account linking to the waiting listen (0)" test "$RC" = 0
for _ in $(seq 1 1000); do [ -s "$work/listen.rc" ] && break; sleep 0.01; done
check "listen ends on account linking with 0" test "$(cat "$work/listen.rc" 2>/dev/null)" = 0
check "…printing continue_login_flow as parse does" is listen "$linked"

# 3. loopback: a real HTTP request; the browser is told to continue in the app.
"$cr" loopback --dialect ory --no-state --timeout 20 >"$work/loopback.out" 2>"$work/loopback.err" &
lb=$!
pids+=("$lb")
for _ in $(seq 1 200); do [ -s "$work/loopback.out" ] && break; sleep 0.05; done
redirect=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["redirect_uri"])' "$work/loopback.out")
status=$(curl -s -o "$work/page.html" -w '%{http_code}' "$redirect?flow=$flow&no_org_ui=true")
check "loopback answers account linking with 200" test "$status" = 200
check "…and the page says continue in the app" grep -q 'Continue in the app' "$work/page.html"
check "…not signed in" bash -c "! grep -q 'Signed in' '$work/page.html'"
check "…and never shows the flow id" bash -c "! grep -q '$flow' '$work/page.html'"
wait_exit "$lb" 10
check "loopback exits 0" test "$EXIT_STATUS" = 0
check "…its last line is continue_login_flow" test "$(tail -n 1 "$work/loopback.out")" = "$linked"

end_suite
