# The runnable web-backend example (docs/server.md) against the suite's provider: two
# backend processes (backend.py, each driving its own `web-backend-example` worker) that
# share one database, a router per request, the sealed record kept server-side under the
# browser's session. Sourced by django.sh (it needs scheme_location and the provider's
# endpoints); not a suite of its own.
#
# The worker is `web-backend-example` beside the helper (swift build -c release --product
# web-backend-example), or WEB_BACKEND_EXAMPLE.

# web_get NAME JAR URL: GET with the browser's cookie jar; sets WEB_STATUS, WEB_BODY (a file).
web_get() {
    WEB_BODY="$work/$1.web.json"
    WEB_STATUS=$(curl -s -b "$2" -c "$2" -o "$WEB_BODY" -w '%{http_code}' --max-time 60 "$3") || WEB_STATUS=curl-failed
}

flow_web_backend() {
    step "web backend: two instances, a router per request, the record kept server-side"
    local worker=${WEB_BACKEND_EXAMPLE:-$(dirname "$cr")/web-backend-example}
    [ -x "$worker" ] || { fail "the example worker is built" "$worker is missing: swift build -c release --product web-backend-example"; return; }
    local a b keys="$work/web-backend.keys" db="$work/web-backend.sqlite3"
    a=$(free_port); b=$(free_port)
    # The sealing and digest keys, the same on both instances: a 0600 file, never argv.
    (umask 077; "$SYSTEM_PYTHON" -c 'import base64,os; [print(base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()) for _ in "ab"]' >"$keys")
    local port
    for port in "$a" "$b"; do
        "$SYSTEM_PYTHON" "$here/web-backend/backend.py" --port "$port" --public-port "$a" --database "$db" --keys "$keys" \
            --worker "$worker" --issuer "$ISSUER" --authorize "$AUTHORIZATION_ENDPOINT" --token "$TOKEN_ENDPOINT" \
            --client-id "$CLIENT_ID" --scope "$SCOPE" --keep-records >"$work/web-backend-$port.log" 2>&1 &
        pids+=($!)
    done
    for port in "$a" "$b"; do
        wait_http "http://127.0.0.1:$port/" 30 || { fail "backend instance on $port answers" "$(tail -5 "$work/web-backend-$port.log")"; return; }
    done
    pass "two backend instances answer (ports $a and $b, one database)"

    # Alice's browser begins on A; the provider redirects to the backend's public URL (A's
    # port), and the "load balancer" hands the callback to B.
    local alice="$work/web-alice.jar" mallory="$work/web-mallory.jar" start location callback
    start=$(curl -s -c "$alice" -o /dev/null -w '%header{location}' "http://127.0.0.1:$a/login")
    check "/login on A redirects to the provider, with no verifier in the cookie" \
        bash -c '[[ "$1" == "$2"* ]] && ! grep -q code_verifier "$3" && [ "$(grep -c sid "$3")" = 1 ]' _ "$start" "$AUTHORIZATION_ENDPOINT" "$alice"
    location=$(scheme_location web-alice "$start") || { fail "the provider signed alice in and redirected" "$location"; return; }
    callback="http://127.0.0.1:$b/callback?${location#*\?}"
    web_get web-finish "$alice" "$callback"
    check "the login begun on A finishes on B: delivered once, the code redeemed" \
        bash -c '[ "$1" = 200 ] && grep -q "\"outcome\": \"signed_in\", \"instance\": $2, \"id_token\": true" "$3"' _ "$WEB_STATUS" "$b" "$WEB_BODY"

    # The same callback replayed on A, whose database row still holds the record
    # (--keep-records): the shared store of consumed states refuses it.
    web_get web-replay "$alice" "http://127.0.0.1:$a/callback?${location#*\?}"
    check "the callback replayed on the other instance is refused as replayed" \
        bash -c '[ "$1" = 403 ] && grep -q "\"reason\": \"replayed\"" "$2"' _ "$WEB_STATUS" "$WEB_BODY"

    # Login CSRF: alice's next callback opened in mallory's browser (a session with its own
    # pending login) is refused; alice's own browser still finishes it.
    curl -s -c "$mallory" -o /dev/null "http://127.0.0.1:$b/login"
    start=$(curl -s -c "$alice" -o /dev/null -w '%header{location}' "http://127.0.0.1:$a/login")
    location=$(scheme_location web-alice-2 "$start") || { fail "the provider signed alice in again" "$location"; return; }
    web_get web-csrf "$mallory" "http://127.0.0.1:$b/callback?${location#*\?}"
    check "another browser's session cannot finish the login (unknown_state)" \
        bash -c '[ "$1" = 403 ] && grep -q "\"reason\": \"unknown_state\"" "$2"' _ "$WEB_STATUS" "$WEB_BODY"
    web_get web-csrf-none "$work/web-nobody.jar" "http://127.0.0.1:$a/callback?${location#*\?}"
    check "... nor a browser without a session" \
        bash -c '[ "$1" = 403 ] && grep -q no_login_in_this_session "$2"' _ "$WEB_STATUS" "$WEB_BODY"
    web_get web-finish-2 "$alice" "http://127.0.0.1:$a/callback?${location#*\?}"
    check "... and alice's own browser still finishes it" \
        bash -c '[ "$1" = 200 ] && grep -q "\"outcome\": \"signed_in\"" "$2"' _ "$WEB_STATUS" "$WEB_BODY"
}
