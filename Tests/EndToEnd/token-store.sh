#!/usr/bin/env bash
# End-to-end: the token store, `token` and `logout`, through the real binary, the real
# curl and a small provider on 127.0.0.1 (token_store_op.py): login stores, token serves
# from the store and refreshes (once for two concurrent calls: the lock), kubectl uses
# `token --exec-credential` as its exec plugin against the provider's bearer-checking API,
# logout revokes (the refresh token then fails at the provider) and removes; then
# `token --login` signs in through the browser (kubectl's plugin with interactiveMode
# IfAvailable; two concurrent calls sign in once). Run twice: with
# the file store (no session bus), and with the Secret Service for real (gnome-keyring under
# dbus-run-session, unlocked with a known password), where no token file may appear; then
# the keyring locked: a clear error, nothing lost.
#
# Needs python3, curl, openssl, kubectl (kubernetes-client), secret-tool (libsecret-tools),
# gnome-keyring and dbus-run-session (dbus): a missing one is a failure, never a skip.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper binary}
passed=0
failed=0
fail() { echo "token-store.sh: $*" >&2; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }
check() { if "$@"; then pass; else fail "line ${BASH_LINENO[0]}: failed: $*"; fi; }
for tool in python3 curl openssl kubectl secret-tool gnome-keyring-daemon dbus-run-session; do
    command -v "$tool" >/dev/null || { echo "token-store.sh: $tool is missing"; echo "token-store: 0 passed, 1 failed"; exit 1; }
done

work=$(mktemp -d)
op_pid=
trap 'kill $op_pid 2>/dev/null; rm -rf "$work"' EXIT
if [ -n "${STORE_OP_PORT:-}" ]; then
    port=$STORE_OP_PORT
else
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 1 -subj /CN=127.0.0.1 \
        -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
    python3 "$here/token_store_op.py" --timeout 600 --tls "$work/cert.pem" "$work/key.pem" >"$work/op.out" &
    op_pid=$!
    for _ in $(seq 100); do [ "$(wc -l <"$work/op.out")" = 2 ] && break; sleep 0.1; done
    port=$(head -1 "$work/op.out")
    STORE_API_PORT=$(sed -n 2p "$work/op.out")
    STORE_CA="$work/cert.pem"
fi
[ -n "$port" ] || { echo "token-store.sh: the provider did not start"; echo "token-store: 0 passed, 1 failed"; exit 1; }
issuer="http://127.0.0.1:$port"
cat >"$work/browser" <<'SH'
#!/bin/sh
exec curl -sS -L --max-redirs 4 -o /dev/null "$1"
SH
chmod 755 "$work/browser"
stat_of() { curl -sS "$issuer/stats" | python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
field() { python3 -c "import json,sys; v=json.load(sys.stdin); print(v$1)"; }
T=(--issuer "$issuer" --client-id app --allow-http-loopback)

# The whole story in one store; $1 names it (file or secret-service).
story() {
    local kind=$1 out code
    curl -sS "$issuer/config?lifetime=300" >/dev/null
    BROWSER="$work/browser" "$helper" login "${T[@]}" --scope profile --timeout 20 >"$work/login" 2>"$work/login.err"
    check [ $? = 0 ]
    check [ "$(field "['stored']['store']" <"$work/login")" = "$kind" ]
    check grep -q '"access_token":"AT-' "$work/login"
    if grep -q 'AT-[0-9]\|RT-[0-9]' "$work/login.err"; then fail "$kind: a token on login's stderr: $(cat "$work/login.err")"; fi

    # Cached: no refresh at the provider.
    local before; before=$(stat_of refreshes)
    out=$("$helper" token "${T[@]}" 2>"$work/err"); check [ $? = 0 ]
    check [ "$(echo "$out" | field "['refreshed']")" = False ]
    check [ "$(stat_of refreshes)" = "$before" ]
    # Refreshed when it expires within the margin; the rotated refresh token is stored.
    curl -sS "$issuer/config?lifetime=30" >/dev/null
    out=$("$helper" token "${T[@]}" --min-valid 400 2>"$work/err"); check [ $? = 0 ]
    check [ "$(echo "$out" | field "['refreshed']")" = True ]
    check [ "$(stat_of refreshes)" = $((before + 1)) ]
    # Two at the same instant: one refresh (the token now lives 30 s, under the 60 s margin).
    curl -sS "$issuer/config?lifetime=300" >/dev/null
    "$helper" token "${T[@]}" --bare >"$work/a" 2>"$work/a.err" &
    local first=$!
    "$helper" token "${T[@]}" --bare >"$work/b" 2>"$work/b.err"
    local second=$?
    wait $first
    check [ $? = 0 ] && check [ $second = 0 ]
    check [ "$(stat_of refreshes)" = $((before + 2)) ]
    check cmp -s "$work/a" "$work/b"

    # kubectl through the exec plugin (v1beta1 on Debian 12's kubectl).
    cat >"$work/kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: local, cluster: {server: "https://127.0.0.1:$STORE_API_PORT", certificate-authority: "$STORE_CA"}}]
users:
- name: op
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: $helper
      args: [token, --issuer, "$issuer", --client-id, app, --allow-http-loopback, --exec-credential]
      interactiveMode: Never
contexts: [{name: local, context: {cluster: local, user: op}}]
current-context: local
YAML
    out=$(kubectl --kubeconfig "$work/kubeconfig" get --raw /api 2>"$work/kube.err")
    check [ $? = 0 ]
    echo "$out" | grep -q APIVersions || fail "$kind: kubectl got no answer: $out $(cat "$work/kube.err")"

    # The list: no secret.
    out=$("$helper" token --list 2>&1)
    echo "$out" | grep -q '"client_id":"app"' && ! echo "$out" | grep -q 'AT-\|RT-' && pass || fail "$kind: list $out"

    # Logout revokes (no refresh token of this sign-in lives on at the provider) and removes.
    local live; live=$(stat_of live_refresh_tokens)
    out=$("$helper" logout "${T[@]}" 2>"$work/err"); check [ $? = 0 ]
    check [ "$(echo "$out" | field "['revoked']")" = "['refresh_token', 'access_token']" ]
    check [ "$(stat_of live_refresh_tokens)" = $((live - 1)) ]
    "$helper" token "${T[@]}" >"$work/out" 2>"$work/err"; code=$?
    check [ $code = 77 ]
    check grep -q "run callback-router login --issuer $issuer --client-id app" "$work/err"
    kubectl --kubeconfig "$work/kubeconfig" get --raw /api >/dev/null 2>&1 && fail "$kind: kubectl still got in after logout" || pass

    # token --login with nothing stored: kubectl runs the plugin, which signs in through the
    # browser (kubectl gives it no terminal: "interactive": false) and serves kubectl.
    local logins; logins=$(stat_of logins)
    sed -e 's/--exec-credential\]/--exec-credential, --scope, profile, --login]/' -e 's/interactiveMode: Never/interactiveMode: IfAvailable/' \
        "$work/kubeconfig" >"$work/kubeconfig-login"
    out=$(BROWSER="$work/browser" kubectl --kubeconfig "$work/kubeconfig-login" get --raw /api 2>"$work/kube.err" </dev/null)
    check [ $? = 0 ]
    echo "$out" | grep -q APIVersions || fail "$kind: kubectl with --login got no answer: $out $(cat "$work/kube.err")"
    check grep -q 'signing in (--login)' "$work/kube.err"
    check [ "$(stat_of logins)" = $((logins + 1)) ]
    # The next call serves the stored token: no sign-in.
    out=$(timeout 30 "$helper" token "${T[@]}" --scope profile --login --bare 2>"$work/err"); check [ $? = 0 ]
    check [ "$(stat_of logins)" = $((logins + 1)) ]
    echo "$out" | grep -q '^AT-[0-9]*$' || fail "$kind: token --login --bare printed more than the token: $out"
    # Forgotten again; two calls at the same instant sign in once and print the same token.
    "$helper" logout "${T[@]}" >/dev/null 2>&1
    BROWSER="$work/browser" "$helper" token "${T[@]}" --scope profile --login --bare >"$work/a" 2>"$work/a.err" &
    first=$!
    BROWSER="$work/browser" "$helper" token "${T[@]}" --scope profile --login --bare >"$work/b" 2>"$work/b.err"
    second=$?
    wait $first
    check [ $? = 0 ] && check [ $second = 0 ]
    check [ "$(stat_of logins)" = $((logins + 2)) ]
    check cmp -s "$work/a" "$work/b"
    grep -q '^AT-[0-9]*$' "$work/a" || fail "$kind: concurrent token --login printed: $(cat "$work/a") $(cat "$work/a.err")"
    "$helper" logout "${T[@]}" >/dev/null 2>&1
}

if [ "${1:-}" = --keyring ]; then
    # 2. Inside dbus-run-session: the Secret Service for real, unlocked with a known password.
    export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state-keyring"
    mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
    printf 'known-password' | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null 2>&1
    story secret-service
    [ ! -e "$XDG_STATE_HOME/callback-router/tokens.json" ] && pass || fail "secret-service: a token file appeared"
    # Locked: a clear error naming the keyring, and the entry still there once unlocked.
    BROWSER="$work/browser" "$helper" login "${T[@]}" --scope profile --timeout 20 >/dev/null 2>&1
    secret-tool lock --collection=login >/dev/null 2>&1
    "$helper" token "${T[@]}" >"$work/out" 2>"$work/err"; code=$?
    check [ $code = 75 ]
    check grep -q '"reason":"keyring_locked"' "$work/out"
    check grep -q 'unlock it' "$work/err"
    echo "token-store-keyring: $passed passed, $failed failed"
    exit 0
fi

# 1. The file store: no session bus.
export XDG_STATE_HOME="$work/state-file"
saved_bus=${DBUS_SESSION_BUS_ADDRESS:-}
unset DBUS_SESSION_BUS_ADDRESS
story file
check [ "$(stat -c %a "$XDG_STATE_HOME/callback-router")" = 700 ]
BROWSER="$work/browser" "$helper" login "${T[@]}" --scope profile --timeout 20 >/dev/null 2>&1
check [ "$(stat -c %a "$XDG_STATE_HOME/callback-router/tokens.json")" = 600 ]
# A store written by a newer version: refused, and left as it is.
printf '{"version":99,"entries":[]}' >"$XDG_STATE_HOME/callback-router/tokens.json"
"$helper" token "${T[@]}" >"$work/out" 2>"$work/err"; code=$?
check [ $code = 65 ]
check grep -q 'newer callback-router' "$work/err"
check [ "$(cat "$XDG_STATE_HOME/callback-router/tokens.json")" = '{"version":99,"entries":[]}' ]
[ -n "$saved_bus" ] && export DBUS_SESSION_BUS_ADDRESS=$saved_bus

# 2. The keyring, in its own session bus (the same provider; counts come back on one line).
keyring=$(CALLBACK_ROUTER="$helper" STORE_OP_PORT="$port" STORE_API_PORT="$STORE_API_PORT" STORE_CA="$STORE_CA" timeout 300 dbus-run-session -- bash "$0" --keyring 2>"$work/keyring.err" | tail -1)
k_passed=$(echo "$keyring" | sed -n 's/^token-store-keyring: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
k_failed=$(echo "$keyring" | sed -n 's/^token-store-keyring: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ -z "$k_passed" ]; then fail "the keyring run ended without its counts: $keyring $(tail -5 "$work/keyring.err")"; else
    passed=$((passed + k_passed)); failed=$((failed + k_failed)); [ "$k_failed" = 0 ] || cat "$work/keyring.err" >&2; fi

echo "token-store: $passed passed, $failed failed"
[ "$failed" = 0 ]
