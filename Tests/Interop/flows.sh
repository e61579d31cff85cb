# The flows every interop suite runs against its real server (sourced by a suite after it
# has started the server and set SERVER, USER_NAME, USER_PASSWORD, CLIENT_ID, SCOPE,
# ISSUER (empty when the server sends no iss), AUTHORIZATION_ENDPOINT, TOKEN_ENDPOINT,
# TOKEN_REFUSAL (status and error its token endpoint gives a bad code or verifier), LOOPBACK_OPTIONS (e.g. "--port N" for a server that registers one fixed port), DENY
# ("consent": the user refuses on the consent page; "prompt-none": the server has no such
# control, so the provider error comes from prompt=none without a session), ERROR_HAS_ISS,
# and defined scheme_location NAME URL: the Location of the authorization response for
# URL, taken with curl and the session cookie of a browser that signed in (kept in
# $work/NAME.cookies), and authorize_with_session NAME JAR URL: the same with that cookie).

SCHEME=com.example.app
SCHEME_REDIRECT="$SCHEME:/oauth2redirect"

issuer_options() { if [ -n "$ISSUER" ]; then echo --issuer "$ISSUER" --require-issuer; fi; }

# The isolated desktop of shared/notes/xdg-headless.md: the helper registered as the
# x-scheme-handler of com.example.app, dispatched by the real xdg-open.
setup_xdg() {
    unset XDG_DATA_DIRS XDG_CONFIG_DIRS XDG_CURRENT_DESKTOP DESKTOP_SESSION DISPLAY WAYLAND_DISPLAY \
          XDG_SESSION_TYPE XDG_SESSION_DESKTOP GNOME_DESKTOP_SESSION_ID DBUS_SESSION_BUS_ADDRESS
    export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" \
           XDG_CACHE_HOME="$work/home/cache" XDG_RUNTIME_DIR="$work/run" BROWSER=false
    mkdir -p -m 0700 "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
    "$cr" register --scheme "$SCHEME" >"$work/register.out" 2>&1
}
xdg_dispatch() { DISPLAY=:0 XDG_CURRENT_DESKTOP=X-Generic xdg-open "$1" >/dev/null 2>&1; }

# start_listen NAME ARGS…: `callback-router listen --state-from-stdin` in the background
# (the state given with give_state); waits until its socket exists. Sets LB_PID/LB_OUT/LB_ERR.
start_listen() {
    local name=$1; shift
    LB_OUT="$work/$name.listen.out"; LB_ERR="$work/$name.listen.err"
    mkfifo "$work/$name.listen.in"
    "$cr" listen --scheme "$SCHEME" --redirect-uri "$SCHEME_REDIRECT" --state-from-stdin "$@" \
        <"$work/$name.listen.in" >"$LB_OUT" 2>"$LB_ERR" &
    LB_PID=$!
    pids+=("$LB_PID")
    exec {LB_IN}>"$work/$name.listen.in"
}
wait_socket() { # wait_socket COUNT: until COUNT listener sockets exist
    local i
    for i in $(seq 1 200); do
        [ "$(find "$XDG_RUNTIME_DIR/callback-router" -name '*.sock' 2>/dev/null | wc -l)" -ge "$1" ] && return 0
        sleep 0.05
    done
    return 1
}

field() { json_field "$(outcome_of "$1")" "$2"; }

# id_token_claims JWT: "nonce aud iss" from the payload (not verified here: the point is
# that the nonce authorize-url sent is the one the server put in the token).
# reserved_state BYTES TAIL: a state of BYTES UTF-8 bytes in all, reserved and non-ASCII
# characters (every one a server must percent-encode and give back), then "-TAIL" (random
# hex, so that each state is new).
reserved_state() {
    "$SYSTEM_PYTHON" -c '
import itertools, sys
length, tail = int(sys.argv[1]), "-" + sys.argv[2]
state = ""
for ch in itertools.cycle("a+b/c=d&e%f#g?h i;j:k@l,m$n!o*p(q)r~s_t.u-v€é東"):
    if len((state + ch + tail).encode()) > length:
        break
    state += ch
print(state + tail)' "$1" "$2"
}

id_token_claims() {
    "$SYSTEM_PYTHON" -c '
import base64, json, sys
try:
    payload = sys.argv[1].split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    aud = claims.get("aud")
    print(claims.get("nonce"), aud[0] if isinstance(aud, list) and len(aud) == 1 else aud, claims.get("iss"))
except (IndexError, ValueError):
    print("not a JWT")' "$1"
}

# capture LABEL URL: with INTEROP_CAPTURE=DIR, appends the raw callback the server sent to
# DIR/SUITE.tsv (label, server, URL), the source of Tests/CallbackRouterTests/Vectors/
# captured-redirects.json. The secrets in it are single-use and expire with the run.
capture() {
    [ -n "${INTEROP_CAPTURE:-}" ] || return 0
    mkdir -p "$INTEROP_CAPTURE"
    printf '%s\t%s\t%s\n' "$1" "$SERVER_VERSION" "$2" >>"$INTEROP_CAPTURE/$SUITE.tsv"
}

flow_loopback() {
    step "loopback: Chromium signs in, the server redirects to the receiver, curl redeems the code"
    start_loopback happy $(issuer_options) ${LOOPBACK_OPTIONS:-} --timeout 120 || { fail "loopback receiver started"; return; }
    authorize happy "$REDIRECT_URI" || { fail "authorize-url accepted the receiver's redirect URI" "$(cat "$work/happy.authz.err")"; return; }
    give_state "$STATE"
    local status
    status=$(curl -s -o /dev/null -w '%{http_code}' "$REDIRECT_URI?code=forged-code&state=another-state${ISSUER:+&iss=$(urlencode "$ISSUER")}")
    check "a callback with another state is answered 400" test "$status" = 400
    check "... and does not end the wait" kill -0 "$LB_PID"
    browse happy --url "$AUTH_URL" --until "$REDIRECT_URI" --landed "$work/happy.url" || { fail "Chromium signed in and consented" "$(tail -3 "$work/happy.browser.err")"; return; }
    wait_exit "$LB_PID" 20
    [ "$EXIT_STATUS" = 0 ] || { fail "loopback exits 0" "status $EXIT_STATUS: $(tail -3 "$LB_ERR")"; return; }
    pass "loopback exits 0"
    check "the outcome is authorization_code" test "$(field "$LB_OUT" outcome)" = authorization_code
    check "the state is the one authorize-url made" test "$(field "$LB_OUT" state)" = "$STATE"
    if [ -n "$ISSUER" ]; then
        check "iss is the server's issuer, and was required" test "$(field "$LB_OUT" iss)" = "$ISSUER"
    fi
    check "the forged code never came out" bash -c '! grep -q forged-code "$1"' _ "$LB_OUT"
    check "the browser shows the receiver's page, not the code" bash -c '[ -s "$1" ] && ! grep -qF -- "$2" "$1"' _ "$work/happy.dom" "$(field "$LB_OUT" code)"
    HAPPY_CODE=$(field "$LB_OUT" code)
    HAPPY_STATE=$STATE
    HAPPY_QUERY="code=$(urlencode "$HAPPY_CODE")&state=$(urlencode "$STATE")${ISSUER:+&iss=$(urlencode "$ISSUER")}"
    HAPPY_REDIRECT=$REDIRECT_URI
    capture "loopback redirect after consent (raw URL as Chromium followed it)" "$(cat "$work/happy.url")"

    redeem wrong-verifier "$HAPPY_CODE" "$REDIRECT_URI" "$("$cr" pkce | "$SYSTEM_PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["code_verifier"])')"
    check "the code with another verifier is refused by the server ($TOKEN_REFUSAL)" \
        test "$TOKEN_STATUS $(token_field error)" = "$TOKEN_REFUSAL"
    if true; then  # the code survives a wrong verifier at both servers: the right one still works
        redeem happy "$HAPPY_CODE" "$REDIRECT_URI" "$VERIFIER"
        check "the code with the printed code_verifier gets an access token" \
            bash -c '[ "$1" = 200 ] && [ -n "$2" ]' _ "$TOKEN_STATUS" "$(token_field access_token)"
        check "... and an ID token for this login: its nonce, aud and iss" \
            test "$(id_token_claims "$(token_field id_token)")" = "$(json_field "$REQUEST" nonce) $CLIENT_ID ${ISSUER:-}"
        redeem replayed-code "$HAPPY_CODE" "$REDIRECT_URI" "$VERIFIER"
        check "the same code a second time is refused by the server ($TOKEN_REFUSAL)" \
            test "$TOKEN_STATUS $(token_field error)" = "$TOKEN_REFUSAL"
    fi
}

flow_denied_and_replay() {
    step "loopback: the first login's callback replayed; then the server reports an error (denied consent, or prompt=none)"
    # --issuer without --require-issuer: iss is checked when present. (A server that sends
    # iss on success but not on errors is refused with --require-issuer: see below.)
    start_loopback denied ${ISSUER:+--issuer "$ISSUER"} ${LOOPBACK_OPTIONS:-} --timeout 120 || { fail "loopback receiver started"; return; }
    local deny_browser=(--consent deny) deny_request=()
    if [ "${DENY:-consent}" = prompt-none ]; then deny_browser=(--consent skip); deny_request=(--param prompt=none); fi
    authorize denied "$REDIRECT_URI" "${deny_request[@]}" || { fail "authorize-url"; return; }
    give_state "$STATE"
    if [ -n "${HAPPY_QUERY:-}" ]; then
        local status
        if [ "$HAPPY_REDIRECT" != "$REDIRECT_URI" ]; then
            status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$HAPPY_REDIRECT?$HAPPY_QUERY") || true
            check "the first callback replayed to its own receiver: nobody listens any more" test "$status" = 000
        fi
        status=$(curl -s -o /dev/null -w '%{http_code}' "$REDIRECT_URI?$HAPPY_QUERY")
        check "the first callback replayed into this login's receiver is refused (400)" test "$status" = 400
        check "... and does not end the wait" kill -0 "$LB_PID"
    fi
    browse denied --url "$AUTH_URL" "${deny_browser[@]}" --until "$REDIRECT_URI" --landed "$work/denied.url" \
        || { fail "Chromium signed in and denied" "$(tail -3 "$work/denied.browser.err")"; return; }
    wait_exit "$LB_PID" 20
    check "loopback exits 1 (the provider reported a failure)" test "$EXIT_STATUS" = 1
    local expected_error=access_denied
    [ "${DENY:-consent}" = prompt-none ] && expected_error=interaction_required
    check "the outcome is authorization_error $expected_error" \
        bash -c '[ "$1" = authorization_error ] && [ "$2" = "$3" ]' _ "$(field "$LB_OUT" outcome)" "$(field "$LB_OUT" error)" "$expected_error"
    check "the error carries our state" test "$(field "$LB_OUT" state)" = "$STATE"
    capture "loopback redirect after the user denied consent (raw URL as Chromium followed it)" "$(cat "$work/denied.url")"
    check "the replayed code never came out" bash -c '! grep -qF -- "$2" "$1"' _ "$LB_OUT" "${HAPPY_CODE:-no code}"
    if [ -n "$ISSUER" ] && [ "${ERROR_HAS_ISS:-yes}" = yes ]; then
        check "the error carries the server's iss" test "$(field "$LB_OUT" iss)" = "$ISSUER"
        local required; "$cr" parse --dialect oauth2 --state "$STATE" --issuer "$ISSUER" --require-issuer "$(cat "$work/denied.url")" \
            >"$work/denied.strict" 2>/dev/null && required=0 || required=$?
        check "with --require-issuer too the error is delivered (exit 1)" test "$required" = 1
    fi
    if [ -n "$ISSUER" ] && [ "${ERROR_HAS_ISS:-yes}" = no ]; then
        # RFC 9207 §2 wants iss in error responses too; this server leaves it out, so a
        # client that requires iss refuses the denial rather than accept an unattributed one.
        local url strict; url=$(cat "$work/denied.url")
        check "this server's error redirect has no iss (a known server quirk)" bash -c '[[ "$1" != *"iss="* ]]' _ "$url"
        "$cr" parse --dialect oauth2 --state "$STATE" --issuer "$ISSUER" --require-issuer "$url" >"$work/denied.strict" 2>/dev/null \
            && strict=0 || strict=$?
        check "with --require-issuer that error is refused: issuer_missing, exit 65" \
            bash -c '[ "$1" = 65 ] && grep -q "\"reason\":\"issuer_missing\"" "$2"' _ "$strict" "$work/denied.strict"
    fi
}

# A state the caller chose, with non-ASCII characters, through the private-use scheme.
# (The state is given to listen with --state here; loopback and --state-from-stdin take any
# UTF-8 too, which the unit tests pin.)
flow_non_ascii_state() {
    step "private-use scheme: a caller-chosen non-ASCII state goes out and comes back"
    local chosen='état-✓-東京-'"$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    REQUEST=$(printf '%s\n' "$chosen" | "$cr" authorize-url --state-from-stdin --endpoint "$AUTHORIZATION_ENDPOINT" \
        --client-id "$CLIENT_ID" --redirect-uri "$SCHEME_REDIRECT" --scope "$SCOPE" 2>"$work/unicode.authz.err") \
        || { fail "authorize-url --state-from-stdin takes the state" "$(cat "$work/unicode.authz.err")"; return; }
    check "authorize-url keeps the chosen state" test "$(json_field "$REQUEST" state)" = "$chosen"
    AUTH_URL=$(json_field "$REQUEST" url)
    LB_OUT="$work/unicode.listen.out"; LB_ERR="$work/unicode.listen.err"
    "$cr" listen --scheme "$SCHEME" --redirect-uri "$SCHEME_REDIRECT" --state "$chosen" $(issuer_options) --timeout 120 \
        >"$LB_OUT" 2>"$LB_ERR" </dev/null &
    LB_PID=$!
    pids+=("$LB_PID")
    wait_socket 1 || { fail "listen is waiting" "$(cat "$LB_ERR")"; return; }
    local location
    location=$(scheme_location unicode "$AUTH_URL") || { fail "the authorization response redirects to $SCHEME_REDIRECT" "$location"; return; }
    check "the server sent the state back percent-encoded as UTF-8" bash -c '[[ "$1" == *"state=%C3%A9tat-%E2%9C%93-%E6%9D%B1%E4%BA%AC-"* ]]' _ "$location"
    # This time through GLib's dispatcher (what GNOME's xdg-open runs): it returns at once,
    # so the listener's exit is what says the handler ran.
    check "gio open hands it to the registered handler" bash -c 'gio open "$1" >/dev/null 2>&1' _ "$location"
    wait_exit "$LB_PID" 20
    check "listen exits 0 with the non-ASCII state" test "$EXIT_STATUS" = 0
    check "the state came back byte for byte" test "$(field "$LB_OUT" state)" = "$chosen"
    redeem unicode "$(field "$LB_OUT" code)" "$SCHEME_REDIRECT" "$(json_field "$REQUEST" code_verifier)"
    check "its code gets an access token" test "$TOKEN_STATUS" = 200
    capture "private-use redirect with a caller-chosen non-ASCII state (Location header)" "$location"

    step "private-use scheme: a 512-byte state full of reserved characters, same session"
    local long; long=$(reserved_state 512 "$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')")
    REQUEST=$(printf '%s\n' "$long" | "$cr" authorize-url --state-from-stdin --endpoint "$AUTHORIZATION_ENDPOINT" \
        --client-id "$CLIENT_ID" --redirect-uri "$SCHEME_REDIRECT" --scope "$SCOPE" 2>"$work/long.authz.err") \
        || { fail "authorize-url takes a long state" "$(cat "$work/long.authz.err")"; return; }
    location=$(authorize_with_session long "$work/unicode.cookies" "$(json_field "$REQUEST" url)") \
        || { fail "the authorization response redirects to $SCHEME_REDIRECT" "$location"; return; }
    local parsed verdict
    parsed=$("$cr" parse --dialect oauth2 --redirect-uri "$SCHEME_REDIRECT" --state "$long" $(issuer_options) "$location") && verdict=0 || verdict=$?
    check "the long state comes back and parse accepts the callback (exit 0)" test "$verdict" = 0
    check "... byte for byte ($(printf %s "$long" | wc -c) bytes)" test "$(json_field "$parsed" state)" = "$long"
    capture "private-use redirect with a long state of reserved and non-ASCII characters (Location header)" "$location"
}

flow_scheme() {
    step "private-use scheme: Location of the authorization response → xdg-open → listen"
    setup_xdg || { fail "callback-router register --scheme $SCHEME" "$(cat "$work/register.out")"; return; }
    check "xdg-mime names the helper's handler" test "$(xdg-mime query default "x-scheme-handler/$SCHEME")" = "callback-router-$SCHEME.desktop"
    authorize scheme "$SCHEME_REDIRECT" || { fail "authorize-url takes $SCHEME_REDIRECT" "$(cat "$work/scheme.authz.err")"; return; }
    start_listen scheme $(issuer_options) --timeout 120
    give_state "$STATE"
    wait_socket 1 || { fail "listen is waiting" "$(cat "$LB_ERR")"; return; }
    local location
    location=$(scheme_location scheme "$AUTH_URL") || { fail "the authorization response redirects to $SCHEME_REDIRECT" "$location"; return; }
    check "the authorization response's Location is the private-use redirect" bash -c '[[ "$1" == "$2?"* ]]' _ "$location" "$SCHEME_REDIRECT"
    check "xdg-open hands it to the registered handler (exit 0)" xdg_dispatch "$location"
    wait_exit "$LB_PID" 20
    check "listen exits 0" test "$EXIT_STATUS" = 0
    check "the outcome is authorization_code with our state" \
        bash -c '[ "$1" = authorization_code ] && [ "$2" = "$3" ]' _ "$(field "$LB_OUT" outcome)" "$(field "$LB_OUT" state)" "$STATE"
    if [ -n "$ISSUER" ]; then check "iss checked: the server's issuer" test "$(field "$LB_OUT" iss)" = "$ISSUER"; fi
    redeem scheme "$(field "$LB_OUT" code)" "$SCHEME_REDIRECT" "$VERIFIER"
    check "the code with the printed code_verifier gets an access token" test "$TOKEN_STATUS" = 200
    capture "private-use redirect after consent (Location header)" "$location"

    step "private-use scheme: the same callback replayed into the next login"
    authorize scheme-next "$SCHEME_REDIRECT" || { fail "authorize-url"; return; }
    start_listen scheme-next $(issuer_options) --timeout 3
    give_state "$STATE"
    wait_socket 1 || { fail "listen is waiting"; return; }
    xdg_dispatch "$location" || true
    wait_exit "$LB_PID" 20
    check "the replayed callback does not reach the next login: it times out (75)" test "$EXIT_STATUS" = 75
    check "... and its outcome is the timeout, not the old code" test "$(field "$LB_OUT" reason)" = timeout
}

# The OpenID Connect hybrid flow (response_type=code id_token), for a server that set
# HYBRID_CLIENT_ID: the redirect carries a real signed ID token (a JWT of ~800 bytes or
# more) in the fragment (the query for HYBRID_RESPONSE_IN=query), beside the code, the state and iss. These are the long real-server
# redirects of Tests/CallbackRouterTests/Vectors/captured-long-redirects.json (the bench's
# `long` row). Same browser session as flow_non_ascii_state. authorize-url always asks for
# response_type=code (it refuses to override it): the suite rewrites that one parameter.
flow_hybrid_long() {
    [ -n "${HYBRID_CLIENT_ID:-}" ] || return 0
    local label state tail request url location fragment
    # OpenID Connect Core §3.3.2.5: the hybrid flow answers in the fragment. A server that
    # answers in the query instead sets HYBRID_RESPONSE_IN=query (checked, not assumed).
    local mode=${HYBRID_RESPONSE_IN:-fragment} separator='#'
    [ "$mode" = query ] && separator='?'
    tail=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
    for label in "a 256-byte state of reserved and non-ASCII characters" "a random state"; do
        step "hybrid flow (code id_token): $label, a signed ID token and iss in the $mode"
        if [ "$label" = "a random state" ]; then
            state=$(head -c 32 /dev/urandom | "$SYSTEM_PYTHON" -c 'import base64,sys; print(base64.urlsafe_b64encode(sys.stdin.buffer.read()).decode().rstrip("="))')
        else
            state=$(reserved_state 256 "$tail")
        fi
        request=$(printf '%s\n' "$state" | "$cr" authorize-url --state-from-stdin --endpoint "$AUTHORIZATION_ENDPOINT" \
            --client-id "$HYBRID_CLIENT_ID" --redirect-uri "$SCHEME_REDIRECT" --scope "$SCOPE" 2>"$work/hybrid.authz.err") \
            || { fail "authorize-url for the hybrid client" "$(cat "$work/hybrid.authz.err")"; return; }
        url=$(json_field "$request" url)
        check "authorize-url asked for response_type=code (rewritten to code id_token here)" bash -c '[[ "$1" == *"response_type=code&"* ]]' _ "$url"
        url=$(printf '%s' "$url" | sed 's/response_type=code&/response_type=code%20id_token\&/')
        location=$(authorize_with_session hybrid "$work/unicode.cookies" "$url") \
            || { fail "the hybrid authorization response redirects to $SCHEME_REDIRECT" "$location"; return; }
        check "the response is in the $mode: $SCHEME_REDIRECT$separator…" bash -c '[[ "$1" == "$2$3"* ]]' _ "$location" "$SCHEME_REDIRECT" "$separator"
        fragment=${location#*"$separator"}
        check "the $mode holds a signed ID token of this login (its nonce, aud, iss)" \
            test "$(id_token_claims "$("$SYSTEM_PYTHON" -c 'import sys,urllib.parse; print(dict(urllib.parse.parse_qsl(sys.argv[1]))["id_token"])' "$fragment")")" \
            = "$(json_field "$request" nonce) $HYBRID_CLIENT_ID ${ISSUER:-}"
        check "the state comes back in the $mode byte for byte ($(printf %s "$state" | wc -c) bytes)" \
            test "$("$SYSTEM_PYTHON" -c 'import sys,urllib.parse; print(dict(urllib.parse.parse_qsl(sys.argv[1]))["state"])' "$fragment")" = "$state"
        if [ -n "$ISSUER" ]; then check "iss is in the $mode, percent-encoded" bash -c '[[ "$1" == *"iss=http%3A%2F%2F"* ]]' _ "$fragment"; fi
        check "inspect parses it (exit 0)" bash -c '"$1" inspect "$2" >/dev/null' _ "$cr" "$location"
        local refused
        "$cr" parse --dialect oauth2 --redirect-uri "$SCHEME_REDIRECT" --state "$state" --response-mode "$mode" "$location" \
            >"$work/hybrid.parse" 2>/dev/null && refused=0 || refused=$?
        check "parse refuses the ID token in the URL: implicit_grant_not_supported, exit 65" \
            bash -c '[ "$1" = 65 ] && grep -q "\"reason\":\"implicit_grant_not_supported\"" "$2"' _ "$refused" "$work/hybrid.parse"
        capture "private-use hybrid-flow redirect (code id_token) with $label: a signed ID token, the code, the state and iss in the $mode (Location header)" "$location"
    done
}

# login --issuer: the whole login through the product (issue 28): discovery of ISSUER,
# the browser (Chromium, given the start URL by a $BROWSER that writes it down), the
# callback, the token request through the system curl, the ID token's claims checked.
flow_login_tokens() {
    [ -n "$ISSUER" ] || return 0
    step "login --issuer: discovery, Chromium, the token request through curl, the ID token checked"
    printf '#!/bin/sh\nprintf "%%s\\n" "$1" >"%s"\n' "$work/login.start" >"$work/login-browser"
    chmod 755 "$work/login-browser"
    rm -f "$work/login.start"
    BROWSER="$work/login-browser" "$cr" login --issuer "$ISSUER" --client-id "$CLIENT_ID" --scope "$SCOPE" \
        --allow-http-loopback ${LOOPBACK_OPTIONS:-} --timeout 120 >"$work/login.out" 2>"$work/login.err" &
    local pid=$! i
    pids+=("$pid")
    for i in $(seq 1 200); do [ -s "$work/login.start" ] && break; sleep 0.05; done
    [ -s "$work/login.start" ] || { fail "login discovered the endpoints and started the browser" "$(cat "$work/login.out" "$work/login.err")"; return; }
    pass "login discovered the endpoints and started the browser"
    local start; start=$(head -1 "$work/login.start")
    local callback="${start%%/start/*}/callback"
    browse login-tokens --url "$start" --until "$callback" || { fail "Chromium signed in and consented" "$(tail -3 "$work/login-tokens.browser.err")"; return; }
    wait_exit "$pid" 40
    check "login exits 0" test "$EXIT_STATUS" = 0
    local out; out=$(cat "$work/login.out")
    check "one JSON object: the outcome, then the tokens" bash -c '[ "$(wc -l <"$1")" = 1 ] && grep -q "^{\"outcome\":\"authorization_code\"" "$1"' _ "$work/login.out"
    check "... with an access token and an ID token" \
        bash -c '[ -n "$1" ] && [ -n "$2" ]' _ "$(json_field "$out" access_token)" "$(json_field "$out" id_token)"
    check "... whose claims were checked: iss, aud, nonce matched" \
        bash -c '[[ "$1" == *"\"iss\":\"$2\",\"aud\":["*"\"$3\""*"\"nonce_matched\":true}"* ]]' _ "$out" "$ISSUER" "$CLIENT_ID"
    check "no token on stderr" bash -c '! grep -qF -- "$2" "$1"' _ "$work/login.err" "$(json_field "$out" access_token)"
}

run_flows() {
    flow_loopback
    flow_login_tokens
    flow_denied_and_replay
    flow_scheme
    flow_non_ascii_state
    flow_hybrid_long
}
