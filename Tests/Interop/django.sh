#!/usr/bin/env bash
# Interop suite: django-oauth-toolkit (PyPI, pinned in django/requirements.txt), a real
# OAuth 2.0 / OpenID Connect provider, run by Django's server on 127.0.0.1 with OIDC on,
# PKCE required (S256 only) and RFC 9207 `iss` in every authorization response.
#
#   Tests/Interop/django.sh [path/to/callback-router]      (or CALLBACK_ROUTER=…)
#
# Creates its virtualenv (from Debian's python3, which has python3-selenium) in a temp
# dir unless INTEROP_DJANGO_VENV names an existing one, starts and stops the server itself,
# drives headless Chromium through the server's own login and consent pages. A missing
# tool is a failure, never a skip. Ends with "django: N passed, M failed".
set -euo pipefail
SUITE=django
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_tools curl chromium chromedriver openssl mkfifo ss xdg-open xdg-mime gio update-desktop-database
"$SYSTEM_PYTHON" -c 'import venv, ensurepip' 2>/dev/null || abort "python3-venv is installed for $SYSTEM_PYTHON"
resolve_helper "${1:-}"

SERVER=django
USER_NAME=alice
USER_PASSWORD="interop-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
CLIENT_ID=callback-router-interop
HYBRID_CLIENT_ID=callback-router-interop-hybrid  # registered for response_type=code id_token
SCOPE="openid profile"
TOKEN_REFUSAL="400 invalid_grant"
ERROR_HAS_ISS=no  # DOT 3.4.1 adds iss to the success redirect only (oauth2_backends.py)
port=$(free_port)
BASE="http://127.0.0.1:$port"
ISSUER="$BASE/o"
AUTHORIZATION_ENDPOINT="$BASE/o/authorize/"
TOKEN_ENDPOINT="$BASE/o/token/"

# ---------------------------------------------------------------- server
step "set up django-oauth-toolkit"
venv=${INTEROP_DJANGO_VENV:-$work/venv}
if [ ! -x "$venv/bin/python" ]; then
    "$SYSTEM_PYTHON" -m venv "$venv" >"$work/venv.log" 2>&1 || abort "virtualenv created" "$(tail -3 "$work/venv.log")"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/django/requirements.txt" >>"$work/venv.log" 2>&1 \
    || abort "pip installs django/requirements.txt" "$(tail -5 "$work/venv.log")"
SERVER_VERSION="django-oauth-toolkit $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("django-oauth-toolkit"), "with Django", m.version("Django"))')"
pass "virtualenv with $SERVER_VERSION"

openssl genrsa -out "$work/oidc.key" 2048 2>/dev/null || abort "OIDC signing key generated"
export INTEROP_WORK=$work INTEROP_ISSUER=$ISSUER INTEROP_PASSWORD=$USER_PASSWORD
export PYTHONPATH="$here/django" DJANGO_SETTINGS_MODULE=interop_settings
"$venv/bin/python" "$here/django/interop_setup.py" >"$work/setup.log" 2>&1 || abort "database, user and client created" "$(tail -5 "$work/setup.log")"
"$venv/bin/python" -m django runserver "127.0.0.1:$port" --noreload >"$work/server.log" 2>&1 &
pids+=($!)
wait_http "$BASE/o/.well-known/openid-configuration" 30 || abort "the server answers on $BASE" "$(tail -5 "$work/server.log")"
check "it listens on 127.0.0.1 only" \
    bash -c 'sockets=$(ss -ltnH "sport = :$1"); [ -n "$sockets" ] && ! grep -qv "127.0.0.1:$1" <<<"$sockets"' _ "$port"
discovery=$(curl -s "$BASE/o/.well-known/openid-configuration")
check "discovery names the issuer" test "$(json_field "$discovery" issuer)" = "$ISSUER"
check "discovery says iss is in authorization responses (RFC 9207)" \
    test "$(json_field "$discovery" authorization_response_iss_parameter_supported)" = True

# The private-use scheme flow: Chromium signs in (the session cookie), then curl does what
# the browser would: loads the consent page and posts "Authorize"; DOT answers 302 with
# Location com.example.app:/oauth2redirect?code=…&state=…&iss=….
scheme_location() {
    local name=$1 url=$2 jar="$work/$1.cookies"
    browse "$name-signin" --url "$url" --consent none --cookies "$jar" || { tail -1 "$work/$name-signin.browser.err"; return 1; }
    authorize_with_session "$name" "$jar" "$url"
}
# authorize_with_session NAME JAR URL: the consent page and its "Authorize" with curl; prints Location.
authorize_with_session() {
    local name=$1 jar=$2 url=$3
    curl -s -b "$jar" -c "$jar" -o "$work/$name.consent.html" "$url" || { echo "curl could not load the consent page"; return 1; }
    local fields=() field
    while IFS= read -r -d '' field; do fields+=(--data-urlencode "$field"); done \
        < <("$SYSTEM_PYTHON" "$here/form_fields.py" "$work/$name.consent.html" authorizationForm)
    [ "${#fields[@]}" -gt 0 ] || { echo "no consent form"; return 1; }
    curl -s -b "$jar" -c "$jar" -o /dev/null -e "$url" -w '%header{location}' \
        "${fields[@]}" --data-urlencode allow=Authorize "$url"
}

# The first sample of README.md and docs/getting-started.md (SignIn.loopback, one call), run
# as the program Tests/Samples/SignIn (the same text: FirstSampleTests): discovery, the
# loopback receiver, Chromium given the one-time link, the token request through URLSession
# with the bound redirect URI (port included), the ID token checked. SIGN_IN_SAMPLE names
# the built program; else the one next to the helper, else it is built here.
flow_sign_in_sample() {
    step "sign-in-sample: README's first sample, one call, against $SERVER over https"
    local sample=${SIGN_IN_SAMPLE:-$(dirname "$cr")/sign-in-sample}
    if [ ! -x "$sample" ]; then
        (cd "$root" && swift build -c release --product sign-in-sample >"$work/sample-build.log" 2>&1) \
            || { fail "sign-in-sample builds" "$(tail -5 "$work/sample-build.log")"; return; }
        sample="$root/.build/release/sign-in-sample"
    fi
    # SignIn takes an https issuer (http only with an opt-in the README's lines do not have),
    # so the sample signs in at the same DOT served over TLS: a CA made for this run issues
    # the server's certificate (IP 127.0.0.1); the sample trusts it through the system CA
    # bundle, seen with the CA added in a mount namespace of its own (URLSession on Linux
    # reads the bundle libcurl was built with: /etc/ssl/certs/ca-certificates.crt), and
    # Chromium through the server key's SPKI hash.
    local tls="$work/tls" tls_port; tls_port=$(free_port)
    mkdir -p "$tls"
    if ! {
        openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=interop CA" -keyout "$tls/ca.key" -out "$tls/ca.pem" \
            -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
        openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$tls/server.key" -out "$tls/server.csr"
        printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$tls/server.ext"
        openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 1 \
            -extfile "$tls/server.ext" -out "$tls/server.pem"
        cat /etc/ssl/certs/ca-certificates.crt "$tls/ca.pem" >"$tls/bundle.pem"
    } >"$tls/openssl.log" 2>&1; then
        fail "a CA and a certificate for 127.0.0.1 made with openssl" "$(tail -3 "$tls/openssl.log")"; return
    fi
    local spki; spki=$(openssl x509 -in "$tls/server.pem" -pubkey -noout | openssl pkey -pubin -outform der \
        | openssl dgst -sha256 -binary | base64)
    local tls_base="https://127.0.0.1:$tls_port"
    INTEROP_ISSUER="$tls_base/o" "$venv/bin/python" "$here/django/tls_server.py" "$tls_port" "$tls/server.pem" "$tls/server.key" \
        >"$work/tls-server.log" 2>&1 &
    pids+=($!)
    local i
    for i in $(seq 1 300); do
        curl -s -o /dev/null --max-time 2 --cacert "$tls/ca.pem" "$tls_base/o/.well-known/openid-configuration" && break
        sleep 0.1
    done
    check "DOT answers over TLS with the https issuer" \
        test "$(json_field "$(curl -s --cacert "$tls/ca.pem" "$tls_base/o/.well-known/openid-configuration")" issuer)" = "$tls_base/o"
    rm -f "$work/sample.start"
    SIGN_IN_ISSUER="$tls_base/o" SIGN_IN_CLIENT_ID="$CLIENT_ID" SIGN_IN_START_FILE="$work/sample.start" \
        unshare --map-root-user --mount sh -c 'mount --bind "$1" /etc/ssl/certs/ca-certificates.crt && exec "$2"' _ \
        "$tls/bundle.pem" "$sample" >"$work/sample.out" 2>"$work/sample.err" &
    local pid=$!
    pids+=("$pid")
    for i in $(seq 1 400); do [ -s "$work/sample.start" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    [ -s "$work/sample.start" ] || { fail "the sample discovered the provider and opened the browser" "$(cat "$work/sample.out" "$work/sample.err")"; return; }
    pass "the sample discovered the provider and opened the browser"
    local start; start=$(head -1 "$work/sample.start")
    check "... on the receiver's one-time link" bash -c '[[ "$1" == http://127.0.0.1:*/start/* ]]' _ "$start"
    browse sign-in-sample --url "$start" --until "${start%%/start/*}/callback" --trust-spki "$spki" \
        || { fail "Chromium signed in and consented" "$(tail -3 "$work/sign-in-sample.browser.err")"; return; }
    wait_exit "$pid" 40
    check "the sample exits 0" bash -c '[ "$1" = 0 ] || { cat "$2"; false; }' _ "$EXIT_STATUS" "$work/sample.err"
    # DOT's sub is the user's primary key; "?" would mean no checked claims.
    check "... and prints the checked ID token's subject" bash -c '[[ "$1" =~ ^Signed\ in\ as\ [^?].*$ ]]' _ "$(cat "$work/sample.out")"
    check "... and the server redeemed the code for the bound redirect URI over TLS" \
        grep -q 'POST /o/token/ HTTP/1.1" 200' "$work/tls-server.log"
    # The same sample at the http issuer: refused before anything is opened, naming the opt-in.
    local code=0
    SIGN_IN_ISSUER="$ISSUER" SIGN_IN_CLIENT_ID="$CLIENT_ID" SIGN_IN_START_FILE="$work/sample-http.start" \
        "$sample" >"$work/sample-http.out" 2>"$work/sample-http.err" || code=$?
    check "at the http issuer the sample is refused, naming SignIn.Options.allowingLoopbackHTTP" \
        bash -c '[ "$1" = 1 ] && grep -q "allowingLoopbackHTTP" "$2" && [ ! -e "$3" ]' _ "$code" "$work/sample-http.err" "$work/sample-http.start"
}

# login --device (RFC 8628): the helper asks for a code, the person (headless Chromium, in
# device_page.py) signs in on DOT's device page, types the code exactly as the terminal
# showed it and accepts or denies; the helper's polls through curl end with the tokens or
# access_denied. DOT 3.4.1's discovery names no device_authorization_endpoint, so it is given.
DEVICE_CLIENT_ID=callback-router-interop-device
flow_login_device() {
    local decision
    for decision in accept deny; do
        step "login --device, the code typed on DOT's device page, $decision"
        local out="$work/device-$decision.out" err="$work/device-$decision.err"
        "$cr" login --device --issuer "$ISSUER" --device-authorization-endpoint "$BASE/o/device-authorization/" \
            --client-id "$DEVICE_CLIENT_ID" --scope "$SCOPE" --allow-http-loopback >"$out" 2>"$err" &
        local pid=$! i
        pids+=("$pid")
        for i in $(seq 1 400); do
            grep -q "waiting for the sign-in" "$err" && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        grep -q "waiting for the sign-in" "$err" || { fail "login --device shows a page and a code" "$(cat "$out" "$err")"; return; }
        pass "login --device shows a page and a code"
        # The page: the indented line after "open this page"; the code: "the code is X" when
        # it was spaced for reading, else the indented line after "enter this code".
        local page code
        page=$(awk '/open this page/ {f=1; next} f && NF {print $1; exit}' "$err")
        code=$(sed -n 's/.*(spaced here for reading; the code is \(.*\))$/\1/p' "$err" | head -1)
        [ -n "$code" ] || code=$(awk '/enter this code/ {f=1; next} f && NF {print $1; exit}' "$err")
        check "the page is DOT's device page" test "$page" = "$ISSUER/device/"
        check "the code is DOT's 8 characters of base32hex" bash -c '[[ "$1" =~ ^[0-9A-V]{8}$ ]]' _ "$code"
        "$SYSTEM_PYTHON" "$here/device_page.py" --url "$page" --code "$code" --user "$USER_NAME" --password "$USER_PASSWORD" \
            --decision "$decision" >"$work/device-$decision.browser.out" 2>"$work/device-$decision.browser.err" \
            || { fail "Chromium typed the code and pressed $decision" "$(tail -3 "$work/device-$decision.browser.err")"; kill "$pid" 2>/dev/null; return; }
        pass "Chromium typed the code and pressed $decision"
        wait_exit "$pid" 30
        local json; json=$(cat "$out")
        if [ "$decision" = accept ]; then
            check "login exits 0" test "$EXIT_STATUS" = 0
            check "one JSON object: tokens of the device grant" \
                bash -c '[ "$(wc -l <"$1")" = 1 ] && grep -q "^{\"outcome\":\"tokens\",\"grant\":\"device_code\"" "$1"' _ "$out"
            check "... with an access token and a refresh token" \
                bash -c '[ -n "$1" ] && [ -n "$2" ]' _ "$(json_field "$json" access_token)" "$(json_field "$json" refresh_token)"
            check "the access token works at DOT's userinfo endpoint" \
                bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" -H "Authorization: Bearer $1" "$2/userinfo/")" = 200 ]' _ \
                "$(json_field "$json" access_token)" "$ISSUER"
            check "no token on stderr" bash -c '! grep -qF -- "$2" "$1"' _ "$err" "$(json_field "$json" access_token)"
            check "it says the last line: signed in" bash -c '[[ "$(tail -1 "$1")" == *"Signed in at"* ]]' _ "$err"
        else
            check "login exits 1 (the provider said no)" test "$EXIT_STATUS" = 1
            check "the outcome is token_error access_denied" \
                bash -c '[ "$1" = token_error ] && [ "$2" = access_denied ]' _ "$(json_field "$json" outcome)" "$(json_field "$json" error)"
            check "it says the sign-in was refused" bash -c '[[ "$(tail -1 "$1")" == *"Sign-in refused at the provider: access_denied"* ]]' _ "$err"
        fi
    done
}

source "$here/flows.sh"

# The token store against the real provider, after flow_login_tokens stored its sign-in:
# token serves it from the store (no request), refreshes it once its expiry is near (the
# stored expiry moved into the past stands in for a short access-token lifetime), two
# concurrent calls refresh once (one says "refreshed":true, both print the same token),
# and logout revokes at DOT's revoke_token endpoint (RFC 7009): the refresh token then
# fails at the provider and token names the login to run.
flow_token_store() {
    step "token and logout: the store, refresh with rotation, one refresh for two calls, revocation"
    local store="$XDG_STATE_HOME/callback-router/tokens.json"
    local T=(--issuer "$ISSUER" --client-id "$CLIENT_ID" --allow-http-loopback)
    [ -f "$store" ] || { fail "login stored its tokens in $store" "$(cat "$work/login.out")"; return; }
    pass "login stored its tokens in $store"
    check "login's JSON says where" grep -q "\"stored\":{\"store\":\"file\",\"path\":\"$store\"" "$work/login.out"
    local out; out=$("$cr" token "${T[@]}" 2>"$work/token.err")
    check "token serves the stored token without a request" \
        bash -c '[[ "$1" == *"\"refreshed\":false"* && "$1" == *"\"access_token\":\"$2\""* ]]' _ "$out" "$(json_field "$(cat "$work/login.out")" access_token)"
    expire() { "$SYSTEM_PYTHON" - "$store" <<'PY'
import json, os, sys, time
path = sys.argv[1]
document = json.load(open(path))
for entry in document["entries"]:
    entry["expires_at"] = int(time.time()) - 1
with open(path + ".new", "w") as f:
    json.dump(document, f)
os.chmod(path + ".new", 0o600)
os.rename(path + ".new", path)
PY
    }
    stored_refresh() { "$SYSTEM_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["entries"][0]["refresh_token"])' "$store"; }
    local first_refresh; first_refresh=$(stored_refresh)
    expire
    out=$("$cr" token "${T[@]}" 2>"$work/token.err")
    check "an expired token is refreshed at DOT (the ID token checked)" bash -c '[[ "$1" == *"\"refreshed\":true"* ]]' _ "$out"
    check "... and DOT's rotated refresh token is stored" bash -c '[ -n "$1" ] && [ "$1" != "$2" ]' _ "$(stored_refresh)" "$first_refresh"
    # The refreshed ID token was compared with the login's (OpenID Connect Core §12.2: same
    # iss, sub, aud, azp); DOT 3.4.1 gives it a new auth_time, which token accepts with one
    # line on stderr, and the login's ID token stays the stored reference.
    check "... its ID token compared with the login's: DOT's new auth_time is one warning line" \
        bash -c '[ "$(grep -c "new auth_time" "$1")" = 1 ] && grep -q "OpenID Connect Core §12.2" "$1"' _ "$work/token.err"
    stored_id_token() { "$SYSTEM_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["entries"][0]["id_token"])' "$store"; }
    check "... and the login's ID token stays the stored one" \
        bash -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$(stored_id_token)" "$(json_field "$(cat "$work/login.out")" id_token)"
    expire
    "$cr" token "${T[@]}" >"$work/token.a" 2>"$work/token.a.err" &
    local other=$!
    "$cr" token "${T[@]}" >"$work/token.b" 2>"$work/token.b.err"
    wait "$other"
    check "two token calls at the same instant refresh once" \
        bash -c '[ "$(cat "$1" "$2" | grep -c "\"refreshed\":true")" = 1 ] && [ -n "$3" ] && [ "$3" = "$4" ]' \
        _ "$work/token.a" "$work/token.b" "$(json_field "$(cat "$work/token.a")" access_token)" "$(json_field "$(cat "$work/token.b")" access_token)"
    local last_refresh; last_refresh=$(stored_refresh)
    out=$("$cr" logout "${T[@]}" --revocation-endpoint "$BASE/o/revoke_token/" 2>"$work/logout.err")
    check "logout revokes both tokens at DOT and removes the entry" \
        bash -c '[[ "$1" == *"\"revoked\":[\"refresh_token\",\"access_token\"]"* ]]' _ "$out $(cat "$work/logout.err")"
    local code=0
    printf '%s\n' "$last_refresh" | "$cr" refresh "${T[@]}" >"$work/revoked.out" 2>&1 || code=$?
    check "the revoked refresh token no longer works at DOT (invalid_grant)" \
        bash -c '[ "$1" = 1 ] && grep -q "\"error\":\"invalid_grant\"" "$2"' _ "$code" "$work/revoked.out"
    code=0
    "$cr" token "${T[@]}" >/dev/null 2>"$work/token.err" || code=$?
    check "token then names the login to run (exit 77)" bash -c '[ "$1" = 77 ] && grep -q "run callback-router login" "$2"' _ "$code" "$work/token.err"
}

# token --login with an empty store (flow_token_store ended with logout): the sign-in at DOT
# through headless Chromium, as login's; stdout is the token alone, DOT's userinfo accepts
# it, and the next token call serves it from the store without signing in.
flow_token_login() {
    step "token --login: an empty store signs in at DOT through Chromium; the next call serves the store"
    local T=(--issuer "$ISSUER" --client-id "$CLIENT_ID" --scope "$SCOPE" --allow-http-loopback)
    printf '#!/bin/sh\nprintf "%%s\\n" "$1" >"%s"\n' "$work/token-login.start" >"$work/token-login-browser"
    chmod 755 "$work/token-login-browser"
    rm -f "$work/token-login.start"
    BROWSER="$work/token-login-browser" "$cr" token "${T[@]}" --login --bare >"$work/token-login.out" 2>"$work/token-login.err" &
    local pid=$! i
    pids+=("$pid")
    for i in $(seq 1 200); do [ -s "$work/token-login.start" ] && break; sleep 0.05; done
    [ -s "$work/token-login.start" ] || {
        fail "token --login found nothing stored and started the browser" "$(cat "$work/token-login.out" "$work/token-login.err")"
        return
    }
    pass "token --login found nothing stored and started the browser"
    local start; start=$(head -1 "$work/token-login.start")
    browse token-login --url "$start" --until "${start%%/start/*}/callback" \
        || { fail "Chromium signed in and consented" "$(tail -3 "$work/token-login.browser.err")"; return; }
    wait_exit "$pid" 40
    check "token --login exits 0" test "$EXIT_STATUS" = 0
    local token; token=$(cat "$work/token-login.out")
    check "stdout is the token alone" bash -c '[ "$(wc -l <"$1")" = 1 ] && [ -n "$2" ] && [[ "$2" != *"{"* ]]' _ "$work/token-login.out" "$token"
    check "stderr says it signed in" grep -q "Signed in" "$work/token-login.err"
    local userinfo; userinfo=$(curl -s -H "Authorization: Bearer $token" "$(json_field "$discovery" userinfo_endpoint)")
    check "DOT's userinfo accepts the token" bash -c '[[ "$1" == *"\"sub\":"* ]]' _ "$userinfo"
    local again; again=$(timeout 30 "$cr" token "${T[@]}" --login --bare 2>"$work/token-login.again.err")
    check "the next token call serves it from the store, without signing in" \
        bash -c '[ "$1" = "$2" ] && ! grep -q "signing in" "$3"' _ "$again" "$token" "$work/token-login.again.err"
    "$cr" logout "${T[@]}" --revocation-endpoint "$BASE/o/revoke_token/" >/dev/null 2>&1 || true
}

run_flows
flow_sign_in_sample
source "$here/web-backend/flow.sh"
flow_web_backend
flow_token_store
flow_token_login
flow_login_device
summary
