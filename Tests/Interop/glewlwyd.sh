#!/usr/bin/env bash
# Interop suite: glewlwyd (Debian package, C, OpenID Connect plugin), a real provider
# independent of django-oauth-toolkit, started by the suite on 127.0.0.1 with its own
# sqlite database, configured through its own admin API: PKCE required (S256 only), RFC
# 9207 iss in authorization responses ("Add issuer in /auth response"), a test user and a
# public client. Headless Chromium signs in through glewlwyd's own login web app.
#
#   Tests/Interop/glewlwyd.sh [path/to/callback-router]      (or CALLBACK_ROUTER=…)
#
# Why glewlwyd and not lemonldap-ng: glewlwyd is one binary with sqlite that starts in
# about a second with no web server in front; lemonldap-ng needs a FastCGI/uWSGI server
# behind nginx or Apache and its Perl portal, which is much more to run headless here.
# What it took to run glewlwyd 2.7.5 headless (each worked around below, none patched):
#   - it checks the TLS key/certificate settings even without TLS: set them empty;
#   - its static file server refuses symlinks, and the Debian web app is made of symlinks
#     (to libjs-*, fonts-*) with config.json linking to a directory: the suite serves a
#     dereferenced copy with the real config.json;
#   - it accepts a loopback redirect URI only with the registered port (RFC 8252 §7.3
#     says any port): the suite registers one free port and gives it to loopback --port;
#   - its token endpoint refuses a bad code or verifier with 403 {"error":"invalid_code"},
#     not RFC 6749 §5.2's 400 invalid_grant (the checks accept what each server sends, by name);
#   - its login app has no control that refuses a client and /auth never sends
#     access_denied, so the provider-error case is prompt=none without a session
#     (error=interaction_required, with state and iss).
# A missing tool is a failure, never a skip. Ends with "glewlwyd: N passed, M failed".
set -euo pipefail
SUITE=glewlwyd
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_tools glewlwyd curl chromium chromedriver openssl mkfifo zcat ss dpkg-query xdg-open xdg-mime gio update-desktop-database
webapp_source=/usr/share/glewlwyd/webapp
init_sql=/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz
[ -f "$webapp_source/login.html" ] || abort "glewlwyd-common's login web app is installed ($webapp_source)"
[ -f "$init_sql" ] || abort "glewlwyd's sqlite schema is installed ($init_sql)"
resolve_helper "${1:-}"

SERVER=glewlwyd
SERVER_VERSION="glewlwyd $(dpkg-query -W -f='${Version}' glewlwyd 2>/dev/null || echo unknown)"
USER_NAME=alice
USER_PASSWORD="interop-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
CLIENT_ID=callback-router-interop
HYBRID_CLIENT_ID=$CLIENT_ID  # also allowed id_token: response_type=code id_token
HYBRID_RESPONSE_IN=query  # glewlwyd 2.7.5 answers the hybrid flow in the query, not the fragment (a server quirk)
SCOPE="openid interop"
port=$(free_port)
loopback_port=$(free_port)
BASE="http://127.0.0.1:$port"
ISSUER="$BASE/api/oidc"
AUTHORIZATION_ENDPOINT="$ISSUER/auth"
TOKEN_ENDPOINT="$ISSUER/token"
LOOPBACK_OPTIONS="--port $loopback_port"
DENY=prompt-none
ERROR_HAS_ISS=yes
TOKEN_REFUSAL="403 invalid_code"  # not RFC 6749 §5.2's 400 invalid_grant: glewlwyd's own

# ---------------------------------------------------------------- server
step "set up $SERVER_VERSION"
cp -rL "$webapp_source" "$work/webapp" 2>"$work/webapp.err" || abort "copied the login web app" "$(head -3 "$work/webapp.err")"
rm -rf "$work/webapp/config.json"
cp /etc/glewlwyd/config-2.7.json/config.json "$work/webapp/config.json" 2>/dev/null \
    || abort "the web app's config.json is installed (/etc/glewlwyd/config-2.7.json/config.json)"
sed -e "s|@PORT@|$port|g" -e "s|@WORK@|$work|g" -e "s|@WEBAPP@|$work/webapp/|g" \
    "$here/glewlwyd/glewlwyd.conf.in" >"$work/glewlwyd.conf"
zcat "$init_sql" | "$SYSTEM_PYTHON" -c 'import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); db.executescript(sys.stdin.read()); db.commit()' \
    "$work/glewlwyd.db" || abort "database created from $init_sql"
openssl genrsa -out "$work/oidc.key" 2048 2>/dev/null && openssl rsa -in "$work/oidc.key" -pubout -out "$work/oidc.pub" 2>/dev/null \
    || abort "OIDC signing key generated"
glewlwyd -c "$work/glewlwyd.conf" >"$work/glewlwyd.out" 2>&1 &
pids+=($!)
wait_http "$BASE/config/" 30 || abort "glewlwyd answers on $BASE" "$(tail -3 "$work/glewlwyd.out" "$work/glewlwyd.log" 2>/dev/null)"
pass "$SERVER_VERSION answers on $BASE"
"$SYSTEM_PYTHON" "$here/glewlwyd/setup.py" "$BASE" "$ISSUER" "$work/oidc.key" "$work/oidc.pub" "$USER_NAME" "$USER_PASSWORD" \
    "$CLIENT_ID" "http://127.0.0.1:$loopback_port/callback" "com.example.app:/oauth2redirect" >"$work/setup.log" 2>&1 \
    || abort "OIDC plugin, scope, user and client created through the admin API" "$(tail -3 "$work/setup.log")"
pass "OIDC plugin, scope, user and client created through the admin API"
check "it listens on 127.0.0.1 only" \
    bash -c 'sockets=$(ss -ltnH "sport = :$1"); [ -n "$sockets" ] && ! grep -qv "127.0.0.1:$1" <<<"$sockets"' _ "$port"
discovery=$(curl -s "$ISSUER/.well-known/openid-configuration")
check "discovery names the issuer" test "$(json_field "$discovery" issuer)" = "$ISSUER"
check "discovery offers only S256 for PKCE" test "$(json_field "$discovery" code_challenge_methods_supported)" = "['S256']"
status=$(curl -s -o /dev/null -w '%{http_code}' \
    "$AUTHORIZATION_ENDPOINT?response_type=code&client_id=$CLIENT_ID&redirect_uri=$(urlencode "http://127.0.0.1:$((loopback_port == 65535 ? 65534 : loopback_port + 1))/callback")&scope=openid&state=s&code_challenge=x&code_challenge_method=S256")
check "a loopback redirect URI on another port is refused (403): glewlwyd wants the registered port" test "$status" = 403

# The private-use scheme flow: Chromium signs in (the session cookie; the grant is stored
# from the loopback flow), then curl does what the login app's "Continue" does: asks /auth
# again with '&g_continue' appended; glewlwyd answers 302 with Location
# com.example.app:/oauth2redirect?iss=…&state=…&code=….
scheme_location() {
    local name=$1 url=$2 jar="$work/$1.cookies"
    browse "$name-signin" --url "$url" --consent none --cookies "$jar" || { tail -1 "$work/$name-signin.browser.err"; return 1; }
    authorize_with_session "$name" "$jar" "$url"
}
# authorize_with_session NAME JAR URL: /auth as after "Continue"; prints Location.
authorize_with_session() { curl -s -b "$2" -o /dev/null -w '%header{location}' "$3&g_continue"; }

source "$here/flows.sh"
run_flows
summary
