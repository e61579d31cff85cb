#!/usr/bin/env bash
# End-to-end: `login --scheme` hands no process the authorization URL (issue 33).
#
# A real `login --scheme myapp` runs with $BROWSER set to a script that records its argv and
# environment and then stays open, as a browser does (its command line lives as long as it
# does). Meanwhile a second uid (setpriv --reuid=65534, as root) reads every
# /proc/*/cmdline and /proc/*/environ it can, over and over, as an attacker would: it must
# find no state, PKCE challenge or nonce of the login, and the start link it finds in the
# browser's command line must answer it 403. The user's own browser follows the link once
# (302 to the authorization URL), a second visit gets 410, the callback through
# `callback-router open` ends the login with 0, and the link is closed afterwards.
#
# Usage: Tests/EndToEnd/scheme-start.sh [path/to/callback-router]
#   (or CALLBACK_ROUTER=path; else the debug build is built and used).
# Needs: root (in CI its absence is a failure), setpriv, curl. A missing tool is a failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# shellcheck source=suite.bash
source "$here/suite.bash"
find_helper "${1:-}"

begin_suite scheme-start
require curl
require setpriv
[[ -x "$helper" ]] || { fail "helper $helper is not executable"; end_suite; exit 1; }
if [[ $(id -u) -ne 0 ]]; then
    if [[ "${CI:-}" == "true" ]]; then
        fail "the second-uid cases need root (setpriv) and CI runs this suite as root"
    else
        echo "skip - the second-uid cases need root to run a second uid with setpriv"
    fi
    end_suite
    exit $?
fi

as_other() { setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME=/nonexistent "$@"; }
contains() { grep -qF -- "$2" "$1"; }
not_contains() { ! grep -qF -- "$2" "$1"; }

# The stranger may reach its own directory under $work and nothing else of it.
chmod 0711 "$work"
mkdir -m 0700 "$work/spy" && chown 65534:65534 "$work/spy"
mkdir -m 0700 "$work/home" "$work/run"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run"
unset SSH_CONNECTION

# The browser: records what it was given, then stays open until the suite is done.
cat >"$work/browser" <<EOF
#!/bin/sh
{ printf '%s\n' "\$@"; env; } >"$work/browser.tmp" && mv "$work/browser.tmp" "$work/browser.saw"
while [ ! -e "$work/done" ]; do sleep 0.05; done
EOF
chmod 0700 "$work/browser"
trap 'touch "$work/done"; suite_cleanup' EXIT

# The stranger's scan: every argv and environment line it can read, deduplicated; a pass
# that begins after the stop file appears is its last.
as_other sh -c '
    seen=$1; stop=$2
    : >"$seen"
    while :; do
        last=0; [ -e "$stop" ] && last=1
        for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do { tr "\0" "\n" <"$f"; echo; } 2>/dev/null; done |
            LC_ALL=C sort -u >"$seen.pass"
        LC_ALL=C sort -u -m "$seen" "$seen.pass" >"$seen.new" && mv "$seen.new" "$seen"
        [ "$last" = 1 ] && break
    done' _ "$work/spy/seen" "$work/spy/stop" &
spy_pid=$!
pids+=("$spy_pid")

BROWSER="$work/browser" "$helper" login --endpoint https://id.example/authorize --client-id e2e --scheme myapp \
    --dialect oauth2 --timeout 60 >"$work/login.out" 2>"$work/login.err" &
login_pid=$!
pids+=("$login_pid")
for _ in $(seq 1 400); do [[ -s "$work/browser.saw" ]] && break; sleep 0.05; done
check "the browser was started" test -s "$work/browser.saw"
given=$(head -n 1 "$work/browser.saw")
check "the browser is given a one-time start link on 127.0.0.1 ($given)" \
    bash -c '[[ $1 =~ ^http://127\.0\.0\.1:[0-9]+/start/[A-Za-z0-9_-]{43,}$ ]]' _ "$given"

touch "$work/spy/stop"
wait_exit "$spy_pid" 60
check "the second uid's scan of /proc ended" test "$EXIT_STATUS" = 0
check "the second uid read the browser's command line (the scan sees what a stranger sees)" \
    grep -qxF -- "$given" "$work/spy/seen"
if [[ $given == http://127.0.0.1:* ]]; then
    answer=$(as_other curl -s -m 10 -D - "$given" || true)
    check "the second uid gets 403 from the start link it read" bash -c '[[ $1 == "HTTP/1.1 403"* ]]' _ "$answer"
    check "...without the authorization URL" bash -c '[[ $1 != *"id.example"* && $1 != *"state="* ]]' _ "$answer"
else
    fail "the second uid gets 403 from the start link it read (there is none)"
fi

# The user's own browser follows the link (on main there is none: the argv is the URL).
if [[ $given == http://127.0.0.1:* ]]; then
    first=$(curl -s -m 10 -D - -o /dev/null "$given" || true)
    check "the user's first visit is redirected to the authorization URL" \
        bash -c '[[ $1 == "HTTP/1.1 302"* && $1 == *"Location: https://id.example/authorize?"* ]]' _ "$first"
    authorization=$(sed -n 's/^Location: \(.*\)\r$/\1/p' <<<"$first")
    second=$(curl -s -m 10 -D - "$given" || true)
    check "a second visit gets 410 without the URL" \
        bash -c '[[ $1 == "HTTP/1.1 410"* && $1 != *"id.example"* ]]' _ "$second"
else
    authorization=$given
fi
param() { sed -n "s/.*[?&]$1=\([^&]*\).*/\1/p" <<<"$authorization"; }
state=$(param state)
challenge=$(param code_challenge)
nonce=$(param nonce)
check "the authorization URL carries a state, a challenge and a nonce" test -n "$state" -a -n "$challenge" -a -n "$nonce"
for secret in state challenge nonce; do
    check "no $secret in any argv or environment the second uid could read" not_contains "$work/spy/seen" "${!secret}"
    check "no $secret in the browser's argv or environment" not_contains "$work/browser.saw" "${!secret}"
done

"$helper" open "myapp:/callback?code=e2e-scheme-code&state=$state" >"$work/open.out"
wait_exit "$login_pid" 15
check "the callback through the scheme ends the login with 0" test "$EXIT_STATUS" = 0
check "...and login prints its code" contains "$work/login.out" '"code":"e2e-scheme-code"'
check "stderr names no state, challenge or nonce" \
    bash -c '! grep -qF -e "$2" -e "$3" -e "$4" "$1"' _ "$work/login.err" "$state" "$challenge" "$nonce"
check "the start link is closed once the login has ended" bash -c '! curl -s -m 5 -o /dev/null "$1"' _ "$given"

end_suite
