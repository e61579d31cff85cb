#!/usr/bin/env bash
# End-to-end test of what a person meets at the terminal (issue 27): Ctrl-C and SIGTERM
# end every waiting command (loopback, login, login --scheme, listen, listen --logout)
# with a last stdout line that is the cancelled outcome and exit 130 / 143; listen
# removes its socket; Ctrl-C typed into a real terminal (a pty from `script`) does the same.
#
# Usage: Tests/EndToEnd/terminal.sh [path/to/callback-router]
#   (or CALLBACK_ROUTER=path; else the debug build is built and used).
# Needs: script (util-linux), python3. A missing one is a failure, never a skip.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# shellcheck source=suite.bash
source "$here/suite.bash"
find_helper "${1:-}"

begin_suite terminal KILL

require script
require python3

# Background jobs of a script without job control ignore SIGINT; with it, they get it as
# they would from a terminal.
set -m

runtime="$work/run"
mkdir -m 700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
export BROWSER=true
# Under SSH login starts no browser; these checks are about a local terminal.
export SSH_CONNECTION=

# wait_for FILE TEXT: waits (10 s at most) until FILE contains TEXT.
wait_for() {
    local i
    for i in $(seq 1 200); do
        if grep -qF -- "$2" "$1" 2>/dev/null; then return 0; fi
        sleep 0.05
    done
    return 1
}


is_cancelled_last_line() { # FILE
    [[ $(tail -n 1 "$1") == '{"outcome":"rejected","reason":"cancelled"'* ]]
}

sockets() { find "$runtime" -name '*.sock' 2>/dev/null | wc -l; }

# interrupt NAME SIGNAL EXPECTED READY-FILE READY-TEXT -- COMMAND…: starts the command,
# waits until READY-TEXT is in its stdout or stderr, sends SIGNAL, checks the exit code and
# the last stdout line.
interrupt() {
    local name=$1 signal=$2 expected=$3 ready=$4 text=$5
    shift 6
    local out="$work/$name.out" err="$work/$name.err"
    "$helper" "$@" >"$out" 2>"$err" &
    local pid=$!
    pids+=("$pid")
    local i
    if [[ $ready == sock ]]; then
        for i in $(seq 1 200); do [[ $(sockets) -gt 0 ]] && break; sleep 0.05; done
    fi
    if [[ $ready == sock && $(sockets) -eq 0 ]] || { [[ $ready != sock ]] && ! wait_for "$work/$name.$ready" "$text"; }; then
        fail "$name: never started waiting: $(cat "$err")"
        return
    fi
    sleep 0.2
    kill "-$signal" "$pid"
    wait_exit "$pid" 10
    check "$name: $signal ends it with exit $expected" test "$EXIT_STATUS" = "$expected"
    check "$name: the last stdout line is the cancelled outcome" is_cancelled_last_line "$out"
    check "$name: stdout never says timeout" bash -c '! grep -q timeout "$1"' _ "$out"
}

interrupt loopback-int INT 130 out redirect_uri -- loopback --no-state --timeout 60
check "loopback: line 1 is still the redirect URI" bash -c '[[ $(head -n 1 "$1") == "{\"redirect_uri\":"* ]]' _ "$work/loopback-int.out"
interrupt loopback-term TERM 143 out redirect_uri -- loopback --no-state --timeout 60
interrupt loopback-stdin INT 130 out redirect_uri -- loopback --state-from-stdin --timeout 60 < <(sleep 30)
interrupt loopback-logout TERM 143 out redirect_uri -- loopback --logout --no-state --timeout 60
interrupt login-int INT 130 err "waiting for the callback" -- login --endpoint https://example.com/authorize --client-id e2e --no-browser --timeout 60
check "login: one line on stdout" test "$(wc -l <"$work/login-int.out")" = 1
check "login: the cancelled line says which redirect URI it was" grep -qF '"redirect_uri":"http://127.0.0.1:' "$work/login-int.out"
interrupt login-term TERM 143 err "waiting for the callback" -- login --endpoint https://example.com/authorize --client-id e2e --no-browser --timeout 60
interrupt login-scheme TERM 143 err "waiting for the callback" -- login --endpoint https://example.com/authorize --client-id e2e --no-browser --scheme e2eapp --timeout 60
check "login --scheme: its socket is removed" test "$(sockets)" = 0
interrupt listen-int INT 130 sock "" -- listen --scheme e2eapp --state e2e-state --timeout 60
check "listen: its socket is removed" test "$(sockets)" = 0
interrupt listen-term TERM 143 sock "" -- listen --scheme e2eapp --timeout 60
check "listen (no state): its socket is removed" test "$(sockets)" = 0
interrupt listen-logout INT 130 sock "" -- listen --scheme e2eapp --logout --no-state --timeout 60
check "listen --logout: its socket is removed" test "$(sockets)" = 0

# Ctrl-C typed at a real terminal: `script` gives the helper a pty; ^C (0x03) written to
# it becomes SIGINT for the helper, as the terminal driver sends it.
(sleep 1.5; printf '\003'; sleep 5) | script -qec "$helper loopback --no-state --timeout 60" /dev/null >"$work/pty.out" 2>&1 &
pty_pid=$!
pids+=("$pty_pid")
wait_exit "$pty_pid" 15
check "Ctrl-C in a terminal: exit 130" test "$EXIT_STATUS" = 130
# The terminal echoes ^C before the helper's next line.
tr -d '\r' <"$work/pty.out" | grep -v '^callback-router:' | sed 's/^^C//' >"$work/pty.clean" || true
check "Ctrl-C in a terminal: the last stdout line is the cancelled outcome" is_cancelled_last_line "$work/pty.clean"

# login --scheme: a terminal is shown the one-time start link, never the authorization URL
# (it holds the state, the challenge and the nonce).
script -qec "$helper login --endpoint https://example.com/authorize --client-id e2e --scheme e2eapp --no-browser --timeout 1" /dev/null >"$work/scheme-pty.out" 2>&1 || true
check "login --scheme on a terminal shows the start link" grep -qF 'http://127.0.0.1:' "$work/scheme-pty.out"
check "login --scheme on a terminal never shows the authorization URL" bash -c '! grep -qF "https://example.com/authorize?" "$1"' _ "$work/scheme-pty.out"
"$helper" login --endpoint https://example.com/authorize --client-id e2e --scheme e2eapp --no-browser --timeout 1 >/dev/null 2>"$work/scheme-log.err" || true
check "login --scheme with stderr in a file keeps it out" bash -c '! grep -qF "https://example.com/authorize?" "$1"' _ "$work/scheme-log.err"

# A browser command that fails (no display: xdg-open exits 3; here BROWSER=false) is
# reported, the next entry is tried, the link is on stderr, and the wait goes on.
BROWSER=false:true "$helper" login --endpoint https://example.com/authorize --client-id e2e --timeout 3 >"$work/browser.out" 2>"$work/browser.err" || true
check "login shows the sign-in link every time" grep -qF 'the sign-in link (it works once): http://127.0.0.1:' "$work/browser.err"
check "login reports a browser command that failed" grep -qF "the browser command 'false' failed (exit status 1)" "$work/browser.err"
check "login notices that no browser fetched the link" grep -qF 'no browser has opened the link after 1 second' "$work/browser.err"
check "login kept waiting until its deadline" grep -qF '"reason":"timeout"' "$work/browser.out"

# Over SSH no browser starts on the server: the link, the ssh -L line and the paste-back.
printf '#!/bin/sh\ntouch "%s"\n' "$work/browser-ran" >"$work/marker-browser"
chmod +x "$work/marker-browser"
SSH_CONNECTION="10.0.0.5 51000 10.0.0.9 22" BROWSER="$work/marker-browser" "$helper" login --endpoint https://example.com/authorize --client-id e2e --timeout 2 >/dev/null 2>"$work/ssh.err" || true
check "over SSH no browser is started on the server" test ! -e "$work/browser-ran"
check "over SSH the link to open is shown" grep -qF '/start/' "$work/ssh.err"
check "over SSH the ssh -L line is shown" grep -qE 'ssh -N -L ([0-9]+):127\.0\.0\.1:\1 10\.0\.0\.9' "$work/ssh.err"
check "over SSH the paste-back is offered" grep -qF -- '--accept-paste' "$work/ssh.err"

# The human last line: coloured on a terminal, plain with NO_COLOR, never in a file.
script -qec "$helper login --endpoint https://example.com/authorize --client-id e2e --no-browser --timeout 1" /dev/null >"$work/colour.out" 2>&1 || true
check "login's last line is coloured on a terminal" grep -qF $'\e[1;31m✗\e[0m Not signed in: timeout' "$work/colour.out"
NO_COLOR=1 script -qec "$helper login --endpoint https://example.com/authorize --client-id e2e --no-browser --timeout 1" /dev/null >"$work/nocolour.out" 2>&1 || true
check "NO_COLOR keeps it plain" bash -c 'grep -qF "✗ Not signed in: timeout" "$1" && ! grep -qF $'"'"'\e['"'"' "$1"' _ "$work/nocolour.out"
"$helper" login --endpoint https://example.com/authorize --client-id e2e --no-browser --timeout 1 >/dev/null 2>"$work/plain.err" || true
check "no colour when stderr is a file" bash -c 'grep -qF "✗ Not signed in: timeout" "$1" && ! grep -qF $'"'"'\e['"'"' "$1"' _ "$work/plain.err"

end_suite
