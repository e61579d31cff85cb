#!/usr/bin/env bash
# End-to-end: a result nobody received is never a success, and tokens written to a file
# are the user's alone (issue 33, points 3 and 5). With the real binary and real streams:
# `login > /dev/full` and `refresh` with stdout closed or full exit 74 and say the tokens
# were issued and lost (never "✓ Signed in"); `loopback` started with stdout closed does
# not die of SIGPIPE on its own socket (it took descriptor 1 on main); `login --output F`
# and `refresh --output F` under umask 022 leave a 0600 file that a second uid (setpriv,
# as root) cannot read; with XDG_RUNTIME_DIR unset, another uid that created the old
# /tmp/callback-router-UID no longer stops open and listen (point 4). The provider is
# tokens_op.py on 127.0.0.1, the browser curl.
#
# Usage: Tests/EndToEnd/lost-output.sh [path/to/callback-router]
# Needs: python3, curl, setpriv (as root). A missing one is a failure, never a skip.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# shellcheck source=suite.bash
source "$here/suite.bash"
find_helper "${1:-}"

begin_suite lost-output

require python3
require curl
require setpriv

runtime="$work/run"
mkdir -m 700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
export SSH_CONNECTION=

python3 "$here/tokens_op.py" --timeout 120 >"$work/op.out" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/op.out" ] && break; sleep 0.1; done
port=$(head -1 "$work/op.out")
[ -n "$port" ] || { fail "the provider did not start"; end_suite; exit 1; }
issuer="http://127.0.0.1:$port/good"

cat >"$work/browser" <<'SH'
#!/bin/sh
exec curl -sS -L --max-redirs 4 -o /dev/null "$1"
SH
chmod 755 "$work/browser"
export BROWSER="$work/browser"

login() { "$helper" login --issuer "$issuer" --client-id app --allow-http-loopback --timeout 20 "$@"; }
refresh() { printf 'RT-good\n' | "$helper" refresh --issuer "$issuer" --client-id app --allow-http-loopback "$@"; }

# 1. login with stdout on /dev/full: 74, the tokens line, no "Signed in".
code=0
login >/dev/full 2>"$work/full.err" || code=$?
check "login > /dev/full exits 74 (was 0)" test "$code" = 74
check "login > /dev/full says the tokens were issued and could not be written" \
    grep -qF "login: the tokens were issued and could not be written to stdout (No space left on device)" "$work/full.err"
check "login > /dev/full never says Signed in" bash -c '! grep -qF "Signed in" "$1"' _ "$work/full.err"
check "no token on stderr" bash -c '! grep -q "AT-\|RT-\|eyJ" "$1"' _ "$work/full.err"

# 2. refresh with stdout closed, and on /dev/full.
code=0
refresh >&- 2>"$work/closed.err" || code=$?
check "refresh >&- exits 74 (was 0)" test "$code" = 74
check "refresh >&- says the tokens were lost" grep -qF "refresh: the tokens were issued and could not be written to stdout" "$work/closed.err"
code=0
refresh >/dev/full 2>/dev/null || code=$?
check "refresh > /dev/full exits 74" test "$code" = 74
code=0
refresh >/dev/full 2>&- || code=$?
check "with stderr closed too, the exit code alone says it" test "$code" = 74

# 3. A stream closed at start keeps its number: loopback's socket is not descriptor 1.
code=0
"$helper" loopback --no-state --timeout 1 >&- 2>"$work/loopback.err" || code=$?
check "loopback >&- exits 74, not 141 (SIGPIPE into its own socket)" test "$code" = 74
check "loopback >&- says why" grep -qF "loopback: the result could not be written to stdout (it was closed when the command started)" "$work/loopback.err"
code=0
"$helper" parse 'x:/cb?code=c' >/dev/full 2>/dev/null || code=$?
check "parse > /dev/full exits 74" test "$code" = 74

# 4. --output: 0600 under umask 022, nothing on stdout, unreadable by another uid.
chmod 755 "$work"
umask 022
code=0
login --output "$work/login.json" >"$work/login.out" 2>"$work/login.err" || code=$?
check "login --output exits 0" test "$code" = 0
check "login --output prints nothing on stdout" test ! -s "$work/login.out"
check "login --output leaves a 0600 file" test "$(stat -c %a "$work/login.json")" = 600
check "the file holds the tokens" grep -qF '"access_token":"AT-good"' "$work/login.json"
check "another uid cannot read it" bash -c '! setpriv --reuid=65534 --regid=65534 --clear-groups cat "$1" >/dev/null 2>&1' _ "$work/login.json"
code=0
refresh --output "$work/tokens.json" >/dev/null 2>&1 || code=$?
check "refresh --output leaves a 0600 file" bash -c 'test "$1" = 0 && test "$(stat -c %a "$2")" = 600' _ "$code" "$work/tokens.json"
check "another uid cannot read the refreshed tokens" \
    bash -c '! setpriv --reuid=65534 --regid=65534 --clear-groups cat "$1" >/dev/null 2>&1' _ "$work/tokens.json"
ln -s "$work/elsewhere" "$work/link.json"
code=0
refresh --output "$work/link.json" >/dev/null 2>"$work/link.err" || code=$?
check "refresh --output through a symbolic link is refused (74), nothing created" \
    bash -c 'test "$1" = 74 && test ! -e "$2"' _ "$code" "$work/elsewhere"

# 5. The runtime directory's fallback cannot be squatted (issue 33, point 4): another uid
# creates the old /tmp/callback-router-UID first; open and listen still meet.
squatted="/tmp/callback-router-$(id -u)"
if [ ! -e "$squatted" ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups mkdir -m 700 "$squatted"
    trap 'rmdir "$squatted" 2>/dev/null; suite_cleanup' EXIT
fi
mkdir -m 700 "$work/home"
no_runtime() { env -u XDG_RUNTIME_DIR HOME="$work/home" "$helper" "$@"; }
code=0
no_runtime open 'squatapp://cb?code=abc&state=st-1' >"$work/open.out" 2>"$work/open.err" || code=$?
check "open works although another uid squats $squatted (was 77)" test "$code" = 0
code=0
no_runtime listen --scheme squatapp --state st-1 --timeout 5 >"$work/listen.out" 2>"$work/listen.err" || code=$?
check "listen gets the callback open handed off (was 77)" \
    bash -c 'test "$1" = 0 && grep -qF "\"outcome\":\"authorization_code\"" "$2"' _ "$code" "$work/listen.out"

end_suite
