# Shared by the interop suites (sourced, not run): results, timing, tools, the helper,
# and the client side of a login (loopback receiver, listener, token request).
# A suite sets SUITE before sourcing this file.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../EndToEnd/suite.bash
source "$here/../EndToEnd/suite.bash"
root=$(cd "$here/../.." && pwd)
passed=0
failed=0
summarized=0
pids=()
work=$(mktemp -d "/tmp/interop-$SUITE.XXXXXX")
# login stores its tokens (docs/tokens.md): in this run's own file store, never the user's.
export XDG_STATE_HOME="$work/state" CALLBACK_ROUTER_TOKEN_STORE=file
chmod 0700 "$work"
suite_started=$(date +%s%N)
step_started=$suite_started

# Keep the source tree clean of __pycache__ (the Django settings are imported from it).
export PYTHONDONTWRITEBYTECODE=1

# The Python that has Debian's python3-selenium (pyenv or a venv earlier in PATH does not).
SYSTEM_PYTHON=/usr/bin/python3

elapsed_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
pass() { passed=$((passed + 1)); printf 'ok   %-70s %6s ms\n' "$1" "$(elapsed_since "$step_started")"; step_started=$(date +%s%N); }
fail() {
    failed=$((failed + 1))
    printf 'FAIL %-70s %6s ms\n' "$1" "$(elapsed_since "$step_started")"
    [ -n "${2:-}" ] && printf '     %s\n' "$2"
    step_started=$(date +%s%N)
}
check() { # check NAME COMMAND…: passes when the command succeeds
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name" "command: $*"; fi
}
step() { printf -- '-- %s\n' "$1"; step_started=$(date +%s%N); }

summary() {
    summarized=1
    echo "$SUITE: $passed passed, $failed failed ($(elapsed_since "$suite_started") ms)"
    [ "$failed" -eq 0 ]
}
abort() { # abort MESSAGE: a setup step failed; nothing after it can run
    fail "$1" "${2:-}"
    summary || true
    exit 1
}

cleanup() {
    local status=$?
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "${INTEROP_KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
    if [ "$summarized" = 0 ]; then
        failed=$((failed + 1))
        echo "FAIL the suite stopped early (status $status)"
        echo "$SUITE: $passed passed, $failed failed"
        exit 1
    fi
}
trap cleanup EXIT

require_tools() { # require_tools TOOL…: a missing tool is a failure, never a skip
    local tool missing=0
    for tool in "$@"; do
        if ! command -v "$tool" >/dev/null 2>&1; then fail "tool '$tool' is installed"; missing=1; fi
    done
    if ! "$SYSTEM_PYTHON" -c 'import selenium' 2>/dev/null; then fail "python3-selenium is installed for $SYSTEM_PYTHON"; missing=1; fi
    [ "$missing" = 0 ] || { summary || true; exit 1; }
}

resolve_helper() { # resolve_helper [PATH]: sets cr to an absolute path of the helper
    local helper=${1:-${CALLBACK_ROUTER:-}}
    if [ -z "$helper" ]; then
        (cd "$root" && swift build -c release --product callback-router >&2)
        helper="$root/.build/release/callback-router"
    fi
    [ -x "$helper" ] || abort "helper '$helper' is executable"
    cr=$(cd "$(dirname "$helper")" && pwd)/$(basename "$helper")
}

free_port() { "$SYSTEM_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_http URL SECONDS: waits until URL answers at all (any status).
wait_http() {
    local i
    for i in $(seq 1 $(($2 * 10))); do
        curl -s -o /dev/null --max-time 2 "$1" && return 0
        sleep 0.1
    done
    return 1
}

json_field() { # json_field JSON NAME: a top-level member ("" when absent or not JSON)
    "$SYSTEM_PYTHON" -c '
import json, sys
try:
    v = json.loads(sys.argv[1]).get(sys.argv[2])
except ValueError:
    v = None
print("" if v is None else v)' "$1" "$2"
}
urlencode() { "$SYSTEM_PYTHON" -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }


# waitline FILE SECONDS: waits until FILE has a complete first line; prints it.
waitline() {
    local i
    for i in $(seq 1 $(($2 * 20))); do
        if [ -s "$1" ] && [ "$(wc -l <"$1")" -ge 1 ]; then head -n 1 "$1"; return 0; fi
        sleep 0.05
    done
    return 1
}

# start_loopback NAME ARGS…: `callback-router loopback --state-from-stdin ARGS…` in the
# background, its stdin a FIFO held open on fd LB_IN; sets LB_PID, LB_OUT, LB_ERR,
# REDIRECT_URI. Hand the state over with give_state.
start_loopback() {
    local name=$1; shift
    # A receiver a failed step left waiting would hold a fixed --port: stop it first.
    if [ -n "${LB_PID:-}" ] && kill "$LB_PID" 2>/dev/null; then wait "$LB_PID" 2>/dev/null || true; fi
    LB_OUT="$work/$name.lb.out"; LB_ERR="$work/$name.lb.err"
    mkfifo "$work/$name.lb.in"
    "$cr" loopback --state-from-stdin "$@" <"$work/$name.lb.in" >"$LB_OUT" 2>"$LB_ERR" &
    LB_PID=$!
    pids+=("$LB_PID")
    exec {LB_IN}>"$work/$name.lb.in"
    local first
    first=$(waitline "$LB_OUT" 10) || { cat "$LB_ERR"; return 1; }
    REDIRECT_URI=$(json_field "$first" redirect_uri)
}
give_state() { printf '%s\n' "$1" >&"$LB_IN"; exec {LB_IN}>&-; }
outcome_of() { tail -n 1 "$1"; }

# authorize NAME REDIRECT_URI [authorize-url options…]: sets REQUEST, AUTH_URL, STATE, VERIFIER.
authorize() {
    local name=$1 redirect=$2; shift 2
    REQUEST=$("$cr" authorize-url --endpoint "$AUTHORIZATION_ENDPOINT" --client-id "$CLIENT_ID" \
        --redirect-uri "$redirect" --scope "$SCOPE" "$@" 2>"$work/$name.authz.err") || return 1
    AUTH_URL=$(json_field "$REQUEST" url)
    STATE=$(json_field "$REQUEST" state)
    VERIFIER=$(json_field "$REQUEST" code_verifier)
}

# browse NAME [browser.py options…]: headless Chromium at the real server.
browse() {
    local name=$1; shift
    "$SYSTEM_PYTHON" "$here/browser.py" --server "$SERVER" --user "$USER_NAME" --password "$USER_PASSWORD" \
        --dom "$work/$name.dom" "$@" >"$work/$name.browser.out" 2>"$work/$name.browser.err"
}

# redeem NAME CODE REDIRECT_URI VERIFIER: the token request (RFC 6749 §4.1.3 + RFC 7636
# §4.5) with curl; sets TOKEN_STATUS and TOKEN_BODY.
redeem() {
    TOKEN_BODY="$work/$1.token.json"
    TOKEN_STATUS=$(curl -sS -o "$TOKEN_BODY" -w '%{http_code}' --max-time 20 \
        --data-urlencode grant_type=authorization_code --data-urlencode "code=$2" \
        --data-urlencode "redirect_uri=$3" --data-urlencode "client_id=$CLIENT_ID" \
        --data-urlencode "code_verifier=$4" "$TOKEN_ENDPOINT" 2>"$work/$1.token.err") || TOKEN_STATUS=curl-failed
}
token_field() { "$SYSTEM_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]) or "")' "$TOKEN_BODY" "$1" 2>/dev/null; }
