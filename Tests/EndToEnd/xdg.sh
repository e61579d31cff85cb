#!/usr/bin/env bash
# End-to-end: callback-router as the x-scheme-handler of a scheme, with the real xdg-utils,
# gio and desktop-file-utils, in an isolated XDG environment (no desktop, D-Bus or X server).
#
#   Tests/EndToEnd/xdg.sh [path/to/callback-router]     (or CALLBACK_ROUTER=…)
#
# Without a path it builds the release helper. Needs root (a second user, 'nobody', plays
# the stranger through setpriv); installs missing packages with apt-get. A tool that is
# still missing is a failure, never a skip. Ends with "N passed, M failed".
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
passed=0
failed=0

pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; [ -n "${2:-}" ] && printf '     %s\n' "$2" || true; }
check() { # check NAME COMMAND…: passes when the command succeeds
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name" "command: $*"; fi
}

# ---------------------------------------------------------------- tools
tools=(xdg-open xdg-mime gio update-desktop-database desktop-file-validate setpriv perl sha256sum stat)
missing() { for tool in "${tools[@]}"; do command -v "$tool" >/dev/null 2>&1 || echo "$tool"; done; }
if [ -n "$(missing)" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing: xdg-utils desktop-file-utils shared-mime-info libglib2.0-bin util-linux perl-base"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        xdg-utils desktop-file-utils shared-mime-info libglib2.0-bin util-linux perl-base coreutils >/dev/null
fi
for tool in $(missing); do fail "tool '$tool' is installed"; done
if [ "$(id -u)" != 0 ]; then fail "runs as root (needed to act as a second user)"; fi
if [ "$failed" -gt 0 ]; then echo "$passed passed, $failed failed"; exit 1; fi

helper=${1:-${CALLBACK_ROUTER:-}}
if [ -z "$helper" ]; then
    (cd "$root" && swift build -c release --product callback-router >/dev/null)
    helper="$root/.build/release/callback-router"
fi
[ -x "$helper" ] || { fail "helper '$helper' is executable"; echo "$passed passed, $failed failed"; exit 1; }

# ---------------------------------------------------------------- isolated environment
# Everything under one directory without spaces. It is 0711 so that 'nobody' can reach the
# helper's copy and the directories the stranger cases open to it, and nothing else.
work=$(mktemp -d /tmp/callback-router-e2e.XXXXXX)
chmod 0711 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -m 0755 "$work/bin"
cp "$helper" "$work/bin/callback-router"
cr="$work/bin/callback-router"

unset XDG_DATA_DIRS XDG_CONFIG_DIRS XDG_CURRENT_DESKTOP DESKTOP_SESSION DISPLAY WAYLAND_DISPLAY \
      XDG_SESSION_TYPE XDG_SESSION_DESKTOP GNOME_DESKTOP_SESSION_ID DBUS_SESSION_BUS_ADDRESS
while read -r name; do unset "$name"; done < <(env | sed -n 's/^\(KDE_[A-Za-z0-9_]*\)=.*/\1/p')
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" \
       XDG_CACHE_HOME="$work/home/cache" XDG_RUNTIME_DIR="$work/run" BROWSER=false
mkdir -p -m 0700 "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
listeners="$XDG_RUNTIME_DIR/callback-router/listeners"
spool="$XDG_RUNTIME_DIR/callback-router/spool"

sockets() { find "$listeners" -name '*.sock' 2>/dev/null | wc -l; }
# listen_bg NAME ARGS…: starts a listener writing NAME.out / NAME.rc; waits for its socket.
listen_bg() {
    local name=$1; shift
    local before; before=$(sockets)
    ( set +e; "$cr" listen "$@" >"$work/$name.out" 2>"$work/$name.err"; echo $? >"$work/$name.rc" ) &
    pids+=($!)
    for _ in $(seq 1 500); do [ "$(sockets)" -gt "$before" ] && return 0; sleep 0.01; done
    fail "listener $name started"; return 1
}
# wait_rc NAME: waits (up to 15 s) for a background listener and prints its exit code.
wait_rc() {
    for _ in $(seq 1 1500); do [ -s "$work/$1.rc" ] && { cat "$work/$1.rc"; return 0; }; sleep 0.01; done
    echo "none"
}

dispatch() { # dispatch PATH URL: hands URL to the registered handler the way PATH does
    case $1 in
        generic) DISPLAY=:0 XDG_CURRENT_DESKTOP=X-Generic xdg-open "$2" >/dev/null ;;
        gnome) XDG_CURRENT_DESKTOP=GNOME xdg-open "$2" >/dev/null ;;
        gio) gio open "$2" >/dev/null ;;
        direct) "$cr" open "$2" >/dev/null ;;
    esac
}

# ---------------------------------------------------------------- register
# The user's previous handler of the scheme, which unregister must give the scheme back to.
mkdir -p -m 0700 "$XDG_DATA_HOME/applications"
printf '[Desktop Entry]\nType=Application\nName=Old\nExec=false %%u\nMimeType=x-scheme-handler/myapp;\nNoDisplay=true\n' \
    >"$XDG_DATA_HOME/applications/old-handler.desktop"
printf '# an existing user file\n[Default Applications]\ntext/html=firefox.desktop\nx-scheme-handler/myapp = old-handler.desktop;\n\n[Added Associations]\nimage/png=eog.desktop;' \
    >"$XDG_CONFIG_HOME/mimeapps.list"
original_sum=$(sha256sum <"$XDG_CONFIG_HOME/mimeapps.list")

out=$("$cr" register --scheme MyApp)
desktop="$XDG_DATA_HOME/applications/callback-router-myapp.desktop"
check "register exits 0 and says it changed something" grep -q '"changed":true' <<<"$out"
check "the desktop file is valid (desktop-file-validate)" desktop-file-validate "$desktop"
check "Exec runs the helper's absolute path with %u" grep -qx "Exec=$cr open %u" "$desktop"
check "MimeType is the lowercased x-scheme-handler" grep -qx 'MimeType=x-scheme-handler/myapp;' "$desktop"
check "NoDisplay and Terminal are set" grep -qx 'NoDisplay=true' "$desktop"
check "mimeapps.list keeps the other lines" grep -qx 'text/html=firefox.desktop' "$XDG_CONFIG_HOME/mimeapps.list"
check "mimeinfo.cache was refreshed" grep -q 'x-scheme-handler/myapp=callback-router-myapp.desktop' "$XDG_DATA_HOME/applications/mimeinfo.cache"
check "xdg-mime agrees" test "$(xdg-mime query default x-scheme-handler/myapp)" = "callback-router-myapp.desktop"
check "gio agrees" grep -q 'Default application for .x-scheme-handler/myapp.: callback-router-myapp.desktop' <(gio mime x-scheme-handler/myapp)
check "status says registered, xdg-mime agreeing" grep -q '"registered":true.*"xdg_mime_agrees":true' <("$cr" status --scheme myapp)

sums_before=$(sha256sum "$desktop" "$XDG_CONFIG_HOME/mimeapps.list")
out=$("$cr" register --scheme myapp)
check "registering again changes nothing" test "$(sha256sum "$desktop" "$XDG_CONFIG_HOME/mimeapps.list")" = "$sums_before"
check "registering again says so" grep -q '"changed":false' <<<"$out"
check "one MimeType line, one default line" test "$(grep -c 'x-scheme-handler/myapp' "$XDG_CONFIG_HOME/mimeapps.list")" = 1

# ---------------------------------------------------------------- deliveries, every dispatch path
big=$(head -c 6000 /dev/zero | tr '\0' 'A')
urls=(
    'myapp://cb?code=a+b%2Bc%20d&state=S1'
    "myapp://cb?code=it's&state=S1&note=%22quoted%22"
    'myapp://cb?code=x&state=S1&cmd=$(touch%20/tmp/callback-router-pwned)&semi=;|&amp='
    "myapp://cb?code=${big}&state=S1&pad=${big:0:2100}"
)
expect=(
    '"code":"a b+c d"'
    "\"code\":\"it's\",\"state\":\"S1\",\"extra\":{\"note\":\"\\\"quoted\\\"\"}"
    '"cmd":"$(touch /tmp/callback-router-pwned)"'
    "\"code\":\"${big}\""
)
for path in generic gnome gio; do
    for i in "${!urls[@]}"; do
        name="deliver-$path-$i"
        listen_bg "$name" --scheme myapp --state S1 --timeout 10 || continue
        dispatch "$path" "${urls[$i]}" || true
        rc=$(wait_rc "$name")
        parsed=$("$cr" parse --state S1 "${urls[$i]}" || true)
        if [ "$rc" = 0 ] && [ "$(cat "$work/$name.out")" = "$parsed" ] && grep -qF -- "${expect[$i]}" "$work/$name.out"; then
            pass "$path: listen prints exactly what parse prints (url $i, ${#urls[$i]} bytes)"
        else
            fail "$path: listen prints exactly what parse prints (url $i)" "rc=$rc out=$(head -c 300 "$work/$name.out")"
        fi
    done
done
check "nothing in the URL was ever run by a shell" test ! -e /tmp/callback-router-pwned

# ---------------------------------------------------------------- two states, two listeners
listen_bg alice --scheme myapp --state state-alice --timeout 10
listen_bg bob --scheme myapp --state state-bob --timeout 10
dispatch generic 'myapp://cb?code=for-bob&state=state-bob'
dispatch gio 'myapp://cb?code=for-alice&state=state-alice'
check "each listener gets its own state's callback (alice)" test "$(wait_rc alice)" = 0
check "each listener gets its own state's callback (bob)" test "$(wait_rc bob)" = 0
check "alice got alice's" grep -q '"code":"for-alice"' "$work/alice.out"
check "bob got bob's" grep -q '"code":"for-bob"' "$work/bob.out"

# ---------------------------------------------------------------- listen --logout
# The post-logout redirect through xdg-open; a login's callback with the logout's state,
# dispatched first, is refused (65), never logout_complete.
listen_bg logout --scheme myapp --logout --state logout-S --timeout 10
dispatch generic 'myapp://logged-out?state=logout-S'
check "listen --logout exits 0 on the post-logout redirect" test "$(wait_rc logout)" = 0
check "listen --logout prints what parse --logout prints" \
    test "$(cat "$work/logout.out")" = "$("$cr" parse --logout --state logout-S 'myapp://logged-out?state=logout-S')"
check "…which is logout_complete" grep -q '^{"outcome":"logout_complete"' "$work/logout.out"
listen_bg logout-login --scheme myapp --logout --state logout-S --timeout 10
dispatch gio 'myapp://cb?code=login-code&state=logout-S'
check "listen --logout: a login's callback with the state is refused (65)" test "$(wait_rc logout-login)" = 65
check "…as invalid_parameter" grep -q '"reason":"invalid_parameter"' "$work/logout-login.out"

# ---------------------------------------------------------------- stateless with two listeners
# A second stateless listen is refused at its start (issue 27), not after the sign-in: the
# callback then reaches the first. (Two at once, which open reports as a conflict, is
# covered by OpenCommandTests and HandoffSocketTests.)
listen_bg first --scheme myapp --timeout 10
set +e; "$cr" listen --scheme myapp --timeout 10 >"$work/second.out" 2>/dev/null; rc=$?; set -e
check "a second stateless listen is refused at its start (75)" test "$rc" = 75
check "…with the rejection conflict" grep -q '^{"outcome":"rejected","reason":"conflict"' "$work/second.out"
set +e; "$cr" open 'myapp://cb?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdC1jb25mbGljdCJ9.w9mYTqGKlkDDMLmbizMNlknB5KbnFRt3oFeYLj8sP3M' >"$work/conflict.out" 2>/dev/null; rc=$?; set -e
check "open hands the callback to the one listener (0)" test "$rc" = 0
check "the first listener gets it (0)" test "$(wait_rc first)" = 0
check "…and prints the token" grep -q eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJjdC1jb25mbGljdCJ9.w9mYTqGKlkDDMLmbizMNlknB5KbnFRt3oFeYLj8sP3M "$work/first.out"
check "nothing was left in the spool" test -z "$(ls -A "$spool")"

# ---------------------------------------------------------------- forged callbacks (issue 24)
# Any web page can make the browser open these. None may end a login that waits for its
# state (formerly 65 state_missing / redirect_uri_mismatch, or 75 conflict for two).
listen_bg victim --scheme myapp --state real-S --redirect-uri myapp://cb --dialect oauth2 --timeout 15
dispatch generic 'myapp:x'
dispatch generic 'myapp://cb?error=access_denied'
dispatch gio 'myapp://cb?code=forged&state=other'
dispatch generic 'myapp://elsewhere?code=forged&state=real-S'
sleep 0.5
check "forged callbacks leave listen --state waiting (no exit yet)" test ! -s "$work/victim.rc"
check "…its socket still there" test "$(sockets)" = 1
dispatch generic 'myapp://cb?code=real&state=real-S'
check "…and the real callback is delivered afterwards (0)" test "$(wait_rc victim)" = 0
check "…printed exactly as parse prints it" test "$(cat "$work/victim.out")" = \
    "$("$cr" parse --state real-S --redirect-uri myapp://cb --dialect oauth2 'myapp://cb?code=real&state=real-S')"
listen_bg alice2 --scheme myapp --state state-a --timeout 15
listen_bg bob2 --scheme myapp --state state-b --timeout 15
set +e; "$cr" open 'myapp://cb?error=access_denied' >"$work/forged2.out" 2>/dev/null; rc=$?; set -e
check "a callback without state and two logins waiting: spooled, not a conflict (0)" test "$rc" = 0
check "…open says spooled" grep -q '"outcome":"spooled"' "$work/forged2.out"
dispatch generic 'myapp://cb?code=b&state=state-b'
dispatch generic 'myapp://cb?code=a&state=state-a'
check "…both logins go on: the first gets its own (0)" test "$(wait_rc alice2)" = 0
check "…the second gets its own (0)" test "$(wait_rc bob2)" = 0
find "$spool" -mindepth 1 -delete # the forgeries (they would wait out their 10 minutes)

# A stateless callback planted while nobody listens (no race needed) is never delivered to
# a stateless listen that starts later; the one opened while it waits is.
dispatch generic 'myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJwbGFudGVkIn0.Ny6zd0gCqNl7rdDzr9q796F--KH5ALOU25mkYLiTQGw'
dispatch generic 'myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJwbGFudGVkIn0.Ny6zd0gCqNl7rdDzr9q796F--KH5ALOU25mkYLiTQGw'
check "a planted callback is spooled once, however often it is opened" test "$(ls "$spool" | wc -l)" = 1
set +e; "$cr" listen --scheme myapp --dialect prelude --timeout 1 >"$work/planted.out"; rc=$?; set -e
check "a stateless callback spooled before listen --dialect prelude began is not delivered (75)" test "$rc" = 75
check "…nor printed" bash -c "! grep -q eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJwbGFudGVkIn0.Ny6zd0gCqNl7rdDzr9q796F--KH5ALOU25mkYLiTQGw '$work/planted.out'"
listen_bg prelude --scheme myapp --dialect prelude --timeout 10
dispatch generic 'myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJyZWFsIn0.qjOZbWDokxG00akg2uA8bX-jrhlWxSZi4nOq1Gg-V38'
check "the callback opened while listen --dialect prelude waits is delivered (0)" test "$(wait_rc prelude)" = 0
check "…and it is the real one" grep -q '"challenge_token":"eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJyZWFsIn0.qjOZbWDokxG00akg2uA8bX-jrhlWxSZi4nOq1Gg-V38"' "$work/prelude.out"
find "$spool" -mindepth 1 -delete

# A callback its dialect refuses never ends a stateless wait (issue 34): formerly a forged
# ?junk=1 ended listen --dialect prelude with 65 and the real callback was spooled and lost.
listen_bg stateless --scheme myapp --dialect prelude --timeout 15
dispatch generic 'myapp://oauth-callback?junk=1'
for _ in $(seq 1 1500); do grep -q 'ignored a callback' "$work/stateless.err" 2>/dev/null && break; sleep 0.01; done
check "a forged junk callback leaves a stateless listen waiting (no exit yet)" test ! -s "$work/stateless.rc"
check "…stderr says a refused callback was ignored, and why" \
    grep -q 'ignored a callback its dialect refused (missing_parameter)' "$work/stateless.err"
check "…without the URL" bash -c "! grep -q junk '$work/stateless.err'"
dispatch generic 'myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJyZWFsMiJ9.Zm9yZ2VkLXNpZ25hdHVyZS1ub3QtY2hlY2tlZC1oZXJl'
check "…and the real callback that follows is delivered (0)" test "$(wait_rc stateless)" = 0
check "…printed exactly as parse prints it" test "$(cat "$work/stateless.out")" = \
    "$("$cr" parse --dialect prelude 'myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJyZWFsMiJ9.Zm9yZ2VkLXNpZ25hdHVyZS1ub3QtY2hlY2tlZC1oZXJl')"
find "$spool" -mindepth 1 -delete
listen_bg cancelled --scheme myapp --dialect prelude --timeout 15
dispatch generic 'myapp://oauth-callback?error=access_denied'
set +e; "$cr" parse --dialect prelude 'myapp://oauth-callback?error=access_denied' >"$work/cancel-parse.out"; rc=$?; set -e
check "a well-formed provider error still ends a stateless listen, as parse judges it" test "$(wait_rc cancelled)" = "$rc"
check "…printed exactly as parse prints it" test "$(cat "$work/cancelled.out")" = "$(cat "$work/cancel-parse.out")"
find "$spool" -mindepth 1 -delete

# A Clerk magic link is bound to its flow (issue 34, point 3), as clerk-ios and clerk-android
# bind it: clicked before listen --flow-id began, it waits in the spool and is taken; another
# flow's link does not end the wait (formerly there was no --flow-id: any link ended it).
early='myapp://callback?flow_id=sia_early&approval_token=apt_early'
dispatch generic "$early"
set +e; "$cr" listen --scheme myapp --dialect clerk --flow-id sia_early --timeout 0 >"$work/early.out"; rc=$?; set -e
check "a magic link clicked before listen --flow-id began is taken from the spool (0)" test "$rc" = 0
check "…printed exactly as parse prints it" test "$(cat "$work/early.out")" = \
    "$("$cr" parse --dialect clerk --flow-id sia_early "$early")"
listen_bg flow --scheme myapp --dialect clerk --flow-id sia_mine --timeout 15
dispatch generic 'myapp://callback?flow_id=sia_other&approval_token=apt_other'
check "another flow's magic link leaves listen --flow-id waiting (no exit yet)" test ! -s "$work/flow.rc"
check "…and is spooled for its own flow" test "$(ls "$spool" | wc -l)" = 1
dispatch generic 'myapp://callback?flow_id=sia_mine&approval_token=apt_mine'
check "…and its own flow's link ends the wait (0)" test "$(wait_rc flow)" = 0
check "…printed exactly as parse prints it" test "$(cat "$work/flow.out")" = \
    "$("$cr" parse --dialect clerk --flow-id sia_mine 'myapp://callback?flow_id=sia_mine&approval_token=apt_mine')"
find "$spool" -mindepth 1 -delete

# Expired entries go when their time is up, while anyone waits, not at the next open.
"$cr" open --spool-ttl 1 'myapp://cb?code=short&state=short-lived' >/dev/null
listen_bg sweeper --scheme myapp --state someone-else --timeout 4
sleep 2.5
check "a waiting listener deletes an expired entry on time" test -z "$(ls -A "$spool")"
check "…and goes on waiting" test ! -s "$work/sweeper.rc"
check "…until its own timeout (75)" test "$(wait_rc sweeper)" = 75

# ---------------------------------------------------------------- spool
dispatch generic 'myapp://cb?code=spooled&state=later'
entry=$(ls "$spool")
check "nobody listening: the callback is spooled" test -n "$entry"
check "the spool entry is 0600" test "$(stat -c %a "$spool/$entry")" = 600
check "the spool entry's name does not contain the state" bash -c "! grep -q later <<<'$entry'"
set +e; "$cr" listen --scheme myapp --state later --timeout 2 >"$work/later.out"; rc=$?; set -e
check "a later listen gets it" test "$rc" = 0
check "a later listen prints it as parse does" test "$(cat "$work/later.out")" = "$("$cr" parse --state later 'myapp://cb?code=spooled&state=later')"
set +e; "$cr" listen --scheme myapp --state later --timeout 1 >"$work/later2.out"; rc=$?; set -e
check "a second listen does not get it again (timeout, 75)" test "$rc" = 75
check "the spool is empty after pickup" test -z "$(ls -A "$spool")"
set +e; "$cr" open --no-spool 'myapp://cb?code=x&state=y' >/dev/null 2>&1; rc=$?; set -e
check "--no-spool with nobody listening exits 69" test "$rc" = 69
"$cr" open --spool-ttl 1 'myapp://cb?code=expiring&state=old' >/dev/null
sleep 2.1
set +e; "$cr" listen --scheme myapp --state old --timeout 0 >/dev/null; rc=$?; set -e
check "an expired spool entry is not delivered" test "$rc" = 75
check "an expired spool entry is deleted" test -z "$(ls -A "$spool")"

# ---------------------------------------------------------------- a second user
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME=/nonexistent "$@"; }
listen_bg guarded --scheme myapp --state guarded --timeout 15
set +e; as_nobody XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" "$cr" open 'myapp://cb?code=evil&state=guarded' >/dev/null 2>"$work/nobody.err"; rc=$?; set -e
check "nobody cannot use root's runtime directory (77)" test "$rc" = 77

# The socket itself, made reachable for nobody: the listener's SO_PEERCRED check refuses it.
mkdir -m 0711 "$work/public"
sock=$(find "$listeners" -name '*.sock' | head -n 1)
ln "$sock" "$work/public/listener.sock"
chmod 0666 "$work/public/listener.sock"
reply=$(as_nobody perl -MIO::Socket::UNIX -e '
    $SIG{PIPE} = "IGNORE";
    my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0]) or die "connect: $!";
    my $scheme = "myapp"; my $state = "guarded";
    my $offer = pack("C n", 1, length $scheme) . $scheme . $state;
    print $s "CRH1" . pack("C N", ord("O"), length $offer) . $offer;
    my $r = ""; sysread($s, $r, 1); print $r;' "$work/public/listener.sock" 2>"$work/perl.err" || true)
check "a peer of another uid gets 'P' (refused by SO_PEERCRED)" test "$reply" = P
chmod 0600 "$sock"

# A socket that is not the user's, in the user's own directory: open refuses to talk to it.
stranger_run="$work/stranger-run"
mkdir -m 0700 "$stranger_run" && chown 65534:65534 "$stranger_run"
as_nobody mkdir -p -m 0700 "$stranger_run/callback-router/listeners/myapp"
ln "$sock" "$stranger_run/callback-router/listeners/myapp/planted.sock"
set +e; as_nobody XDG_RUNTIME_DIR="$stranger_run" "$cr" open 'myapp://cb?code=evil&state=guarded' >/dev/null 2>&1; rc=$?; set -e
check "open refuses a socket owned by another user (77)" test "$rc" = 77

dispatch generic 'myapp://cb?code=genuine&state=guarded'
check "the guarded listener still gets the genuine callback" test "$(wait_rc guarded)" = 0
check "…and only it" bash -c "grep -q '\"code\":\"genuine\"' '$work/guarded.out' && ! grep -q evil '$work/guarded.out'"

# ---------------------------------------------------------------- an Exec path that needs quoting
mkdir -m 0755 "$work/with space"
cp "$cr" "$work/with space/callback-router"
"$work/with space/callback-router" register --scheme spacey >/dev/null 2>&1
check "Exec quotes a path with a space" grep -qx "Exec=\"$work/with space/callback-router\" open %u" "$XDG_DATA_HOME/applications/callback-router-spacey.desktop"
listen_bg spacey --scheme spacey --timeout 10
gio open 'spacey://cb?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ0aHJvdWdoLWdpbyJ9.bKrnIsHUA_y0Ddn4bscykZu71OxEd-Z6brZdbYz1dA8' >/dev/null
check "gio runs the quoted Exec" test "$(wait_rc spacey)" = 0
"$work/with space/callback-router" unregister --scheme spacey >/dev/null

# ---------------------------------------------------------------- unregister
out=$("$cr" unregister --scheme myapp)
check "unregister exits 0" grep -q '"was_registered":true' <<<"$out"
check "unregister leaves mimeapps.list as it was (byte for byte)" test "$(sha256sum <"$XDG_CONFIG_HOME/mimeapps.list")" = "$original_sum"
check "the desktop file is gone" test ! -e "$desktop"
check "xdg-mime sees the previous default again" test "$(xdg-mime query default x-scheme-handler/myapp)" = "old-handler.desktop"
set +e; "$cr" status --scheme myapp >/dev/null; rc=$?; set -e
check "status says not registered (69)" test "$rc" = 69

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
