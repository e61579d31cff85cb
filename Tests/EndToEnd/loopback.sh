#!/usr/bin/env bash
# End-to-end test of `callback-router loopback` with a real browser.
#
# Headless Chromium loads a page of a toy authorization endpoint (authorize_server.py),
# which answers 302 to the loopback redirect URI with `code` and `state`; the loopback
# receiver must print the code and exit 0. Negative cases: a wrong state is answered and
# ignored (the wait goes on and ends at the deadline with 75, or with the later correct
# callback), a provider error ends with 1, a `localhost` Host and a cross-site <img> are
# refused without ending the wait. Then form_post through a self-submitting form, a
# --port list, and `login` end to end with $BROWSER set to headless Chromium. Then the
# edge (issue 24): a second uid (setpriv; root needed, a failure in CI without it) is
# refused 403 and cannot read login's one-time start link; a refused callback with the
# right state exits 65; a TLS handshake is answered 400.
#
# Usage: Tests/EndToEnd/loopback.sh [path/to/callback-router]
#   (or CALLBACK_ROUTER=path; else the debug build is built and used).
# Needs: chromium, python3. A missing one is a failure, never a skip.
# Every server binds 127.0.0.1 only and stops by itself.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# shellcheck source=suite.bash
source "$here/suite.bash"
find_helper "${1:-}"

begin_suite loopback
require chromium
require python3
require script
require curl
[[ -x "$helper" ]] || { fail "helper $helper is not executable"; end_suite; exit 1; }

# waitline FILE: waits (10 s at most) until FILE holds a complete first line; prints it.
waitline() {
    local i
    for i in $(seq 1 200); do
        if [[ -s "$1" ]] && [[ $(wc -l <"$1") -ge 1 ]]; then
            head -n 1 "$1"
            return 0
        fi
        sleep 0.05
    done
    return 1
}

# json_field JSON NAME: the string value of a top-level member (enough for our output).
json_field() {
    python3 -c 'import json,sys; v=json.loads(sys.argv[1]).get(sys.argv[2]); print("" if v is None else v)' "$1" "$2"
}

urlencode() { python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }

# start_loopback NAME ARGS…: runs the receiver in the background; sets LB_PID, LB_OUT,
# LB_ERR and REDIRECT_URI (read from its first line).
start_loopback() {
    local name=$1
    shift
    LB_OUT="$work/$name.out"
    LB_ERR="$work/$name.err"
    "$helper" loopback "$@" >"$LB_OUT" 2>"$LB_ERR" &
    LB_PID=$!
    pids+=("$LB_PID")
    local first
    first=$(waitline "$LB_OUT") || { cat "$LB_ERR" >&2; return 1; }
    REDIRECT_URI=$(json_field "$first" redirect_uri)
}

# start_authorize NAME ARGS…: runs the toy authorization endpoint; sets AS_PID and AS_PORT.
start_authorize() {
    local name=$1
    shift
    local out="$work/$name.as.out"
    python3 "$here/authorize_server.py" "$@" >"$out" 2>"$work/$name.as.err" &
    AS_PID=$!
    pids+=("$AS_PID")
    AS_PORT=$(waitline "$out") || return 1
}

# browse NAME URL: headless Chromium loads URL (following redirects); the DOM goes to
# $work/NAME.dom.
browse() {
    local profile
    profile=$(mktemp -d "$work/profile.XXXXXX")
    timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$profile" --dump-dom "$2" >"$work/$1.dom" 2>"$work/$1.chromium.err" || true
}

# browse_slow NAME URL: as browse, but gives the page time to submit a form on load and
# dumps the DOM of the page it lands on.
browse_slow() {
    local profile
    profile=$(mktemp -d "$work/profile.XXXXXX")
    timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$profile" --virtual-time-budget=5000 --dump-dom "$2" >"$work/$1.dom" 2>"$work/$1.chromium.err" || true
}

authorize_url() { # STATE
    echo "http://127.0.0.1:$AS_PORT/authorize?response_type=code&client_id=e2e&redirect_uri=$(urlencode "$REDIRECT_URI")&state=$(urlencode "$1")"
}


contains() { grep -qF -- "$2" "$1"; }
not_contains() { ! grep -qF -- "$2" "$1"; }
last_line() { tail -n 1 "$1"; }

state="e2e-state-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"

# 1. The happy path: authorization endpoint → 302 → loopback; the code is printed, exit 0.
start_loopback happy --state "$state" --timeout 60
check "the redirect URI names the bound IPv4 literal" \
    bash -c '[[ "$1" =~ ^http://127\.0\.0\.1:[0-9]+/callback$ ]]' _ "$REDIRECT_URI"
start_authorize happy --redirect-uri "$REDIRECT_URI" --code "e2e-code-happy"
browse happy "$(authorize_url "$state")"
wait_exit "$LB_PID" 15
check "loopback exits 0 after the browser followed the redirect" test "$EXIT_STATUS" = 0
check "the outcome line carries the code" contains "$LB_OUT" '"code":"e2e-code-happy"'
check "the outcome is authorization_code" bash -c '[[ $(tail -n 1 "$1") == "{\"outcome\":\"authorization_code\""* ]]' _ "$LB_OUT"
check "stdout has exactly two lines" test "$(wc -l <"$LB_OUT")" = 2
check "the browser shows the success page" contains "$work/happy.dom" "received the sign-in response"
check "the page does not show the state" not_contains "$work/happy.dom" "$state"
check "the page does not show the code" not_contains "$work/happy.dom" "e2e-code-happy"
wait_exit "$AS_PID" 10
check "the authorization endpoint stopped by itself" test "$EXIT_STATUS" = 0

# 2. A wrong state is answered and ignored; the later correct callback is accepted.
start_loopback retry --state "$state" --timeout 60
start_authorize retry-wrong --redirect-uri "$REDIRECT_URI" --code "e2e-code-forged" --state-override "not-the-state"
browse retry-wrong "$(authorize_url "$state")"
check "a wrong state gets the 'does not belong' page" contains "$work/retry-wrong.dom" "does not belong to the sign-in in progress"
check "a wrong state does not end the wait" kill -0 "$LB_PID"
start_authorize retry-right --redirect-uri "$REDIRECT_URI" --code "e2e-code-genuine"
browse retry-right "$(authorize_url "$state")"
wait_exit "$LB_PID" 15
check "the later correct callback ends the wait with 0" test "$EXIT_STATUS" = 0
check "the genuine code is printed" contains "$LB_OUT" '"code":"e2e-code-genuine"'
check "the forged code is not printed" not_contains "$LB_OUT" "e2e-code-forged"
check "the ignored request is reported on stderr" contains "$LB_ERR" "state_mismatch"

# 3. Only a wrong state: the deadline ends the wait with 75.
start_loopback timeout --state "$state" --timeout 4
start_authorize timeout --redirect-uri "$REDIRECT_URI" --state-override "not-the-state"
browse timeout "$(authorize_url "$state")"
wait_exit "$LB_PID" 15
check "with only a wrong state, loopback times out with 75" test "$EXIT_STATUS" = 75
check "the timeout outcome names the reason" bash -c '[[ $(tail -n 1 "$1") == "{\"outcome\":\"rejected\",\"reason\":\"timeout\""* ]]' _ "$LB_OUT"

# 4. The provider reports an error with the right state: exit 1, the page says so.
start_loopback denied --state "$state" --timeout 60
start_authorize denied --redirect-uri "$REDIRECT_URI" --error access_denied
browse denied "$(authorize_url "$state")"
wait_exit "$LB_PID" 15
check "a provider error with the right state exits 1" test "$EXIT_STATUS" = 1
check "the outcome is authorization_error" contains "$LB_OUT" '"outcome":"authorization_error"'
check "the page names the error code" contains "$work/denied.dom" "<code>access_denied</code>"
check "the page names the error in words" contains "$work/denied.dom" "You declined the request"
check "the page shows error_description only as text" contains "$work/denied.dom" "The user &lt;b&gt;denied&lt;/b&gt; access"
check "the page does not reflect error_description as markup" not_contains "$work/denied.dom" "denied</b>"

# 5. A real browser's requests that must not consume the login: `localhost` as Host and a
#    cross-site <img> pointing at the callback with the right state.
start_loopback hostile --state "$state" --timeout 60
port=${REDIRECT_URI#http://127.0.0.1:}
port=${port%%/*}
browse localhost "http://localhost:$port/callback?code=e2e-code-localhost&state=$(urlencode "$state")"
check "Host: localhost is refused (DNS rebinding defence)" contains "$work/localhost.dom" "only requests addressed to <code>127.0.0.1:$port</code>"
check "... and the page names --host localhost" contains "$work/localhost.dom" "<code>--host localhost</code>"
start_authorize hostile --redirect-uri "$REDIRECT_URI" --timeout 10
browse attack "http://127.0.0.1:$AS_PORT/subresource-attack?target=$(urlencode "$REDIRECT_URI?code=e2e-code-img&state=$state")"
check "the cross-site <img> request is refused (Sec-Fetch-Mode)" contains "$LB_ERR" "non-navigation request (Sec-Fetch-Mode)"
check "neither ended the wait" kill -0 "$LB_PID"
kill "$AS_PID" 2>/dev/null || true
start_authorize hostile-right --redirect-uri "$REDIRECT_URI" --code "e2e-code-after-attacks"
browse hostile-right "$(authorize_url "$state")"
wait_exit "$LB_PID" 15
check "the genuine callback still succeeds afterwards" test "$EXIT_STATUS" = 0
check "only the genuine code is printed" bash -c 'grep -q "e2e-code-after-attacks" "$1" && ! grep -q "e2e-code-img\|e2e-code-localhost" "$1"' _ "$LB_OUT"

# 6. The scripted flow of docs/loopback.md: the receiver first, then authorize-url with
#    its redirect URI, the state handed over on stdin (never on a command line).
coproc RECEIVER { "$helper" loopback --state-from-stdin --timeout 60 2>"$work/scripted.err"; }
pids+=("$RECEIVER_PID")
receiver_pid=$RECEIVER_PID
exec {to_receiver}>&"${RECEIVER[1]}" {from_receiver}<&"${RECEIVER[0]}"
read -r -t 10 first <&"$from_receiver"
redirect_uri=$(json_field "$first" redirect_uri)
start_authorize scripted --redirect-uri "$redirect_uri" --code "e2e-code-scripted"
request=$("$helper" authorize-url --endpoint "http://127.0.0.1:$AS_PORT/authorize" --client-id e2e \
    --redirect-uri "$redirect_uri" --scope "openid email")
printf '%s\n' "$(json_field "$request" state)" >&"$to_receiver"
exec {to_receiver}>&-
browse scripted "$(json_field "$request" url)"
outcome=""
read -r -t 15 outcome <&"$from_receiver" || true
wait_exit "$receiver_pid" 10
check "the scripted flow (authorize-url, state on stdin) exits 0" test "$EXIT_STATUS" = 0
check "the scripted flow prints the code" bash -c '[[ "$1" == *"\"code\":\"e2e-code-scripted\""* ]]' _ "$outcome"
check "the scripted flow's state is the one authorize-url made" \
    test "$(json_field "$outcome" state)" = "$(json_field "$request" state)"

# 7. form_post (OIDC Form Post Response Mode): the provider's page auto-submits a form to
#    the receiver, cross-site, in a real browser. A GET with the right state first must
#    not end the wait.
start_loopback formpost --state "$state" --timeout 60 --response-mode form_post
port=${REDIRECT_URI#http://127.0.0.1:}
port=${port%%/*}
browse formpost-get "http://127.0.0.1:$port/callback?code=e2e-code-get&state=$(urlencode "$state")"
check "form_post: a GET with the right state does not end the wait" kill -0 "$LB_PID"
check "form_post: the GET is answered 405" contains "$LB_ERR" "answered 405 to a GET"
start_authorize formpost --redirect-uri "$REDIRECT_URI" --code "e2e-code-posted" --form-post
browse_slow formpost "$(authorize_url "$state")"
wait_exit "$LB_PID" 20
check "form_post: the posted form ends the wait with 0" test "$EXIT_STATUS" = 0
check "form_post: the posted code is printed" contains "$LB_OUT" '"code":"e2e-code-posted"'
check "form_post: the GET's code is not" not_contains "$LB_OUT" "e2e-code-get"
check "form_post: the browser shows the success page" contains "$work/formpost.dom" "received the sign-in response"

# 8. --port LIST: the first free port of the list is bound.
busy_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1",int(sys.argv[1]))); s.listen(1); time.sleep(30)' "$busy_port" &
squatter=$!
pids+=("$squatter")
sleep 0.3
free_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start_loopback portlist --state "$state" --timeout 30 --port "$busy_port,$free_port"
check "--port LIST binds the first free port" test "$REDIRECT_URI" = "http://127.0.0.1:$free_port/callback"
kill "$LB_PID" 2>/dev/null || true
"$helper" loopback --state "$state" --timeout 5 --port "$busy_port" >"$work/busy.out" 2>"$work/busy.err" || busy_status=$?
check "--port with every port taken exits 75" test "${busy_status:-0}" = 75
kill "$squatter" 2>/dev/null || true

# 9. login end to end: $BROWSER is headless Chromium; it gets the short start URL, which
#    redirects to the authorization endpoint, which redirects back with the code.
cat >"$work/browser.sh" <<BROWSER
#!/usr/bin/env bash
profile=\$(mktemp -d "$work/login-profile.XXXXXX")
exec timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="\$profile" --dump-dom "\$1" >"$work/login.dom" 2>"$work/login.chromium.err"
BROWSER
chmod +x "$work/browser.sh"
start_authorize login --redirect-uri-regex 'http://127\.0\.0\.1:[0-9]+/callback' --code "e2e-code-login"
# One rule for http: an http endpoint on 127.0.0.1 needs --allow-http-loopback, as --issuer does.
"$helper" login --endpoint "http://127.0.0.1:$AS_PORT/authorize" --client-id e2e --no-browser --timeout 5 \
    >"$work/login-http.out" 2>"$work/login-http.err" || login_http_status=$?
check "login --endpoint http://127.0.0.1 without --allow-http-loopback exits 64" test "${login_http_status:-0}" = 64
check "login --endpoint http:// is refused as invalid_configuration" contains "$work/login-http.out" '"reason":"invalid_configuration"'
check "the refusal names --allow-http-loopback" contains "$work/login-http.err" "--allow-http-loopback"
check "the refused login opened nothing and waited for nothing" not_contains "$work/login-http.err" "waiting for the callback"
SSH_CONNECTION= BROWSER="$work/browser.sh" "$helper" login --endpoint "http://127.0.0.1:$AS_PORT/authorize" --client-id e2e \
    --allow-http-loopback --scope "openid email" --timeout 60 >"$work/login.out" 2>"$work/login.err" || login_status=$?
check "login exits 0" test "${login_status:-0}" = 0
check "login prints the code" contains "$work/login.out" '"code":"e2e-code-login"'
check "login prints the code_verifier" contains "$work/login.out" '"code_verifier":"'
check "login prints the redirect_uri" contains "$work/login.out" '"redirect_uri":"http://127.0.0.1:'
check "login prints one line" test "$(wc -l <"$work/login.out")" = 1
login_state=$(json_field "$(cat "$work/login.out")" state)
check "login's stderr shows neither the state nor the code" \
    bash -c '! grep -qF -- "$1" "$2" && ! grep -qF e2e-code-login "$2"' _ "$login_state" "$work/login.err"
check "login's stderr says where it waits" contains "$work/login.err" "waiting for the callback on http://127.0.0.1:"

# 10. --host localhost: 127.0.0.1 and ::1 on one port, the redirect URI names localhost,
#     and a real browser following it is answered; the IP literal as Host is refused.
start_loopback localhost-host --state "$state" --timeout 60 --host localhost
check "--host localhost names localhost in the redirect URI" \
    bash -c '[[ "$1" =~ ^http://localhost:[0-9]+/callback$ ]]' _ "$REDIRECT_URI"
port=${REDIRECT_URI#http://localhost:}
port=${port%%/*}
browse localhost-literal "http://127.0.0.1:$port/callback?code=e2e-code-literal&state=$(urlencode "$state")"
check "--host localhost refuses Host: 127.0.0.1:PORT" contains "$work/localhost-literal.dom" "only requests addressed to <code>localhost:$port</code>"
start_authorize localhost-host --redirect-uri "$REDIRECT_URI" --code "e2e-code-localhost-host"
browse localhost-host "$(authorize_url "$state")"
wait_exit "$LB_PID" 15
check "--host localhost: the browser's callback ends the wait with 0" test "$EXIT_STATUS" = 0
check "--host localhost: the code is printed" contains "$LB_OUT" '"code":"e2e-code-localhost-host"'

# 11. --accept-paste through a pseudo-terminal (script, util-linux): the user pastes the
#     callback URL the browser could not deliver (an SSH session); the first valid wins.
mkfifo "$work/paste.fifo"
script -qfec "$helper loopback --state $state --accept-paste --timeout 30" /dev/null <"$work/paste.fifo" >"$work/paste.out" 2>&1 &
paste_pid=$!
pids+=("$paste_pid")
exec {paste_in}>"$work/paste.fifo"
paste_first=$(waitline "$work/paste.out" | tr -d '\r') || true
paste_uri=$(json_field "$paste_first" redirect_uri)
printf '%s\n' "http://127.0.0.1:1/elsewhere?code=e2e-code-wrong&state=$state" >&"$paste_in"
printf '%s\n' "$paste_uri?code=e2e-code-pasted&state=$state" >&"$paste_in"
wait_exit "$paste_pid" 15
exec {paste_in}>&-
check "--accept-paste: a URL pasted on the terminal ends the wait with 0" test "$EXIT_STATUS" = 0
check "--accept-paste: the pasted code is printed" bash -c 'tr -d "\r" <"$1" | grep -q "^{\"outcome\":\"authorization_code\".*\"code\":\"e2e-code-pasted\""' _ "$work/paste.out"
check "--accept-paste: the terminal was told it may paste" contains "$work/paste.out" "or paste here the URL"

# 12. login --scheme: the callback comes back through a custom scheme. No browser hands a
#     custom scheme to a handler headless (shared/notes), so $BROWSER is a script that
#     follows the one-time start link to the authorization endpoint with curl and gives the
#     endpoint's Location to `open`, as xdg-open would.
mkdir -m 0700 "$work/runtime"
cat >"$work/scheme-browser.sh" <<BROWSER
#!/usr/bin/env bash
# The browser is given the start link (never the authorization URL); it redirects once.
authorize=\$(curl -s -D - -o /dev/null "\$1" | sed -n 's/^[Ll]ocation: //p' | tr -d '\\r')
# The raw Location header: curl's %{redirect_url} would normalise e2eapp:/callback.
location=\$(curl -s -D - -o /dev/null "\$authorize" | sed -n 's/^[Ll]ocation: //p' | tr -d '\\r')
XDG_RUNTIME_DIR="$work/runtime" exec "$helper" open "\$location" >"$work/scheme-open.out" 2>&1
BROWSER
chmod +x "$work/scheme-browser.sh"
start_authorize scheme --redirect-uri "e2eapp:/callback" --code "e2e-code-scheme"
SSH_CONNECTION= XDG_RUNTIME_DIR="$work/runtime" BROWSER="$work/scheme-browser.sh" "$helper" login \
    --endpoint "http://127.0.0.1:$AS_PORT/authorize" --allow-http-loopback --client-id e2e --scheme e2eapp --timeout 30 \
    >"$work/scheme.out" 2>"$work/scheme.err" || scheme_status=$?
check "login --scheme exits 0" test "${scheme_status:-0}" = 0
check "login --scheme prints the code" contains "$work/scheme.out" '"code":"e2e-code-scheme"'
check "login --scheme prints the custom redirect_uri" contains "$work/scheme.out" '"redirect_uri":"e2eapp:/callback"'
check "open delivered it to login" contains "$work/scheme-open.out" '"outcome":"delivered"'

# 13. loopback --logout: end-session-url names the bound redirect URI, the toy end-session
#     endpoint redirects the browser back with the state, the outcome is logout_complete;
#     a login's callback (a code) with that state never completes it.
mkfifo "$work/logout-state.fifo"
LB_OUT="$work/logout.out"
LB_ERR="$work/logout.err"
"$helper" loopback --logout --state-from-stdin --timeout 60 <"$work/logout-state.fifo" >"$LB_OUT" 2>"$LB_ERR" &
LB_PID=$!
pids+=("$LB_PID")
exec {logout_in}>"$work/logout-state.fifo"
logout_first=$(waitline "$LB_OUT") || cat "$LB_ERR" >&2
REDIRECT_URI=$(json_field "$logout_first" redirect_uri)
start_authorize logout --redirect-uri "$REDIRECT_URI"
"$helper" end-session-url --endpoint "http://127.0.0.1:$AS_PORT/logout" --client-id e2e \
    --post-logout-redirect-uri "$REDIRECT_URI" >"$work/logout-request.json"
logout_state=$(json_field "$(cat "$work/logout-request.json")" state)
printf '%s\n' "$logout_state" >&"$logout_in"
exec {logout_in}>&-
browse logout-forged "$REDIRECT_URI?state=$(urlencode "$logout_state-not")&code=e2e-code-forged"
check "loopback --logout: another state is answered and ignored" contains "$work/logout-forged.dom" "does not belong"
browse logout "$(json_field "$(cat "$work/logout-request.json")" url)"
wait_exit "$LB_PID" 15
check "loopback --logout exits 0 after the end-session redirect" test "$EXIT_STATUS" = 0
check "loopback --logout: the browser shows the signed-out page" contains "$work/logout.dom" "Signed out"
check "loopback --logout prints logout_complete" bash -c '[[ $(tail -n 1 "$1") == "{\"outcome\":\"logout_complete\""* ]]' _ "$LB_OUT"
check "loopback --logout prints what parse --logout prints" test "$(tail -n 1 "$LB_OUT")" = \
    "$("$helper" parse --logout --state "$logout_state" "$REDIRECT_URI?state=$(urlencode "$logout_state")")"
check "loopback --logout: the state is not on stderr" not_contains "$LB_ERR" "$logout_state"
start_loopback logout-login --logout --state "$state" --timeout 60
browse logout-login "$REDIRECT_URI?code=e2e-code-login&state=$(urlencode "$state")"
wait_exit "$LB_PID" 15
check "loopback --logout: a login's callback with the state is refused (65)" test "$EXIT_STATUS" = 65
check "loopback --logout: ... as invalid_parameter, never logout_complete" contains "$LB_OUT" '"reason":"invalid_parameter"'

# 14. Another user of the machine (Linux; issue 24). A second uid (setpriv, as root) gets
#     403 before its request is read, never ends the wait, and cannot read the
#     authorization URL through login's start link; the real callback still ends the wait.
#     Root is needed to switch users: in CI ($CI=true) its absence is a failure.
second_uid() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# as_other URL: what the second uid's curl gets, headers and body.
as_other() { second_uid curl -s -m 10 -D - "$1" || true; }
if [[ $(id -u) -ne 0 ]]; then
    if [[ "${CI:-}" == "true" ]]; then
        fail "the other-user cases need root (setpriv) and CI runs this suite as root"
    else
        echo "skip - the other-user cases need root to run a second uid with setpriv"
    fi
else
    require setpriv
    start_loopback other-user --state "$state" --timeout 60
    answer=$(as_other "$REDIRECT_URI?code=e2e-code-forged&state=$(urlencode "$state")")
    check "another user's callback with the right state gets 403" bash -c '[[ $1 == "HTTP/1.1 403"* ]]' _ "$answer"
    check "the 403 page says why" bash -c '[[ $1 == *"answers only the user who started it"* ]]' _ "$answer"
    check "another user's callback does not end the wait" kill -0 "$LB_PID"
    check "stderr names the other user" contains "$LB_ERR" "answered 403 to a connection from user id 65534"
    curl -s -m 10 -o /dev/null "$REDIRECT_URI?code=e2e-code-genuine&state=$(urlencode "$state")" || true
    wait_exit "$LB_PID" 15
    check "then the user's own callback ends the wait with 0" test "$EXIT_STATUS" = 0
    check "... with its code, not the other user's" \
        bash -c 'grep -qF "\"code\":\"e2e-code-genuine\"" "$1" && ! grep -qF e2e-code-forged "$1"' _ "$LB_OUT"

    start_loopback other-user-allowed --state "$state" --timeout 60 --allow-other-users
    answer=$(as_other "$REDIRECT_URI?code=e2e-code-allowed&state=$(urlencode "$state")")
    wait_exit "$LB_PID" 15
    check "--allow-other-users: another user's callback is judged (200, exit 0)" \
        bash -c '[[ $1 == "HTTP/1.1 200"* && $2 == 0 ]]' _ "$answer" "$EXIT_STATUS"

    "$helper" login --endpoint "http://127.0.0.1:9/authorize" --allow-http-loopback --client-id e2e --no-browser --timeout 60 \
        >"$work/login-other.out" 2>"$work/login-other.err" &
    login_pid=$!
    pids+=("$login_pid")
    for _ in $(seq 1 200); do grep -qF "waiting for the callback" "$work/login-other.err" && break; sleep 0.05; done
    start_url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/start/[A-Za-z0-9_-]*' "$work/login-other.err" | head -n 1)
    check "login's start URL is /start/ and at least 128 bits" bash -c '[[ $1 =~ /start/[A-Za-z0-9_-]{22,}$ ]]' _ "$start_url"
    origin=${start_url%%/start/*}
    for url in "$origin/" "$start_url"; do
        answer=$(as_other "$url")
        label=$([[ $url == "$start_url" ]] && echo "the start URL" || echo "/")
        check "another user gets 403 for $label, without the authorization URL" \
            bash -c '[[ $1 == "HTTP/1.1 403"* && $1 != *"127.0.0.1:9/authorize"* && $1 != *"code_challenge"* ]]' _ "$answer"
    done
    check "HEAD on the start URL reveals nothing" \
        bash -c '! curl -s -m 10 -I "$1" | grep -qi "^location:"' _ "$start_url"
    first=$(curl -s -m 10 -D - -o /dev/null "$start_url" || true)
    check "the user's first visit of the start URL is redirected to the authorization URL" \
        bash -c '[[ $1 == "HTTP/1.1 302"* && $1 == *"Location: http://127.0.0.1:9/authorize?"* ]]' _ "$first"
    second=$(curl -s -m 10 -D - "$start_url" || true)
    check "a second visit gets 410 'already used', without the URL" \
        bash -c '[[ $1 == "HTTP/1.1 410"* && $1 == *"already used"* && $1 != *"127.0.0.1:9/authorize"* ]]' _ "$second"
    login_state=$(sed -n 's/.*[?&]state=\([^&[:space:]]*\).*/\1/p' <<<"$first" | head -n 1)
    curl -s -m 10 -o /dev/null "$origin/callback?code=e2e-code-login-other&state=$login_state" || true
    wait_exit "$login_pid" 15
    check "login still completes with the user's own callback" test "$EXIT_STATUS" = 0
    check "... and prints its code" contains "$work/login-other.out" '"code":"e2e-code-login-other"'
fi

# 15. A callback with the right state that is refused for its syntax ends the wait with 65
#     (as issuer_mismatch does), and junk or a TLS handshake is answered 400 at once.
for query in "code=%FF" "code=%C0%AF" "$(printf 'p%d=v&' $(seq 1 64))code=c"; do
    start_loopback refused --state "$state" --timeout 30
    curl -s -m 10 -o /dev/null "$REDIRECT_URI?$query&state=$(urlencode "$state")" || true
    wait_exit "$LB_PID" 15
    check "a refused callback with the right state ends the wait with 65 (${query:0:12}…)" test "$EXIT_STATUS" = 65
done
start_loopback junk --state "$state" --timeout 30
port=${REDIRECT_URI#http://127.0.0.1:}
port=${port%%/*}
junk_answer=$(exec 3<>"/dev/tcp/127.0.0.1/$port"; printf '\x16\x03\x01\x02\x00\x01' >&3; timeout 5 head -c 12 <&3 || true)
check "a TLS handshake is answered 400 at once" test "$junk_answer" = "HTTP/1.1 400"
check "... and does not end the wait" kill -0 "$LB_PID"
kill "$LB_PID" 2>/dev/null || true

end_suite
