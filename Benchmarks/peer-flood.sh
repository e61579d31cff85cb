#!/usr/bin/env bash
# Another local user cannot delay the owner's loopback callback (issue 33, point 2).
#
#   CALLBACK_ROUTER=path/to/callback-router Benchmarks/peer-flood.sh [CONNECTIONS] [RATE] [ROUNDS]
#   (defaults 10000 connections = 20,000 rows of /proc/net/tcp, 500 connections/s, 3 rounds;
#   without CALLBACK_ROUTER the release build is built and used)
#
# A second uid (setpriv --reuid=65534; its descriptor limit raised as root first) holds
# CONNECTIONS loopback TCP connections of its own and, each round, floods the receiver of a
# real `callback-router loopback --state S` with RATE connections a second (each refused 403).
# One second into the flood the owner (this uid) sends the callback with curl; its answer must
# come within LIMIT seconds (PEER_FLOOD_LIMIT, default 1.0) in every round. Prints one line a
# round and a summary:
#   PEERFLOOD round=N rows=R flood_per_s=F refused_403=K owner_status=200 owner_answer_s=T
# (K: the other user's connections the receiver answered 403 before the owner's was served)
#   PEERFLOOD rows=R rounds=N worst_owner_answer_s=T limit_s=1.0 ok|MISSED
# Exit 0 when every round made it, 1 when one did not, 69 when a tool (root, setpriv,
# python3, curl) is missing. Loopback only; everything it starts stops by itself (the flood
# after 120 s at most, the receiver at its 60 s timeout) and is killed on exit. About 20 s.
set -euo pipefail
connections="${1:-10000}"
rate="${2:-500}"
rounds="${3:-3}"
limit="${PEER_FLOOD_LIMIT:-1.0}"
flood_seconds=3
root="$(cd "$(dirname "$0")/.." && pwd)"

missing() { echo "peer-flood.sh: $1" >&2; exit 69; }
[[ $(id -u) -eq 0 ]] || missing "needs root, to run the other user with setpriv"
for tool in setpriv curl; do command -v "$tool" >/dev/null || missing "$tool is missing"; done
# The system's python3: a per-user one (pyenv under /root) is not the other user's to run.
python=/usr/bin/python3
[[ -x $python ]] || missing "$python is missing"

helper="${CALLBACK_ROUTER:-}"
if [[ -z "$helper" ]]; then
    (cd "$root" && swift build -c release --product callback-router >/dev/null)
    helper="$(cd "$root" && swift build -c release --show-bin-path)/callback-router"
fi
[[ -x "$helper" ]] || missing "$helper is not executable"

work="$(mktemp -d)"
pids=()
cleanup() {
    exec 3>&- 4>&- 2>/dev/null || true
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# waitfor FILE PATTERN SECONDS [PID]: the first line of FILE matching PATTERN, once written
# (fails when SECONDS pass or PID, the writer, exits first).
waitfor() {
    local deadline=$((SECONDS + $3)) line
    while ((SECONDS < deadline)); do
        line=$(grep -m1 -E "$2" "$1" 2>/dev/null || true)
        [[ -n "$line" ]] && { echo "$line"; return 0; }
        [[ -z "${4:-}" ]] || kill -0 "$4" 2>/dev/null || return 1
        sleep 0.02
    done
    return 1
}

# The other user: the script is passed in argv (the work directory is root's, 0700). Its
# descriptor limit is raised to the hard limit (and the hard limit too where root may): the
# connections are held by several processes of up to 4,000 connections (8,000 descriptors)
# each, so that a hard limit of 20,000 is enough.
other_user() {
    ulimit -Hn 16384 2>/dev/null || true
    ulimit -Sn "$(ulimit -Hn)"
    exec setpriv --reuid=65534 --regid=65534 --clear-groups "$python" -c "$(cat "$root/Benchmarks/peer-flood.py")" "$@"
}
mkfifo "$work/ports" "$work/hold"
left=$connections
holders=0
holder_pids=()
while ((left > 0)); do
    share=$((left < 4000 ? left : 4000))
    other_user hold "$share" <"$work/hold" >"$work/hold$holders.out" 2>"$work/hold$holders.err" &
    pids+=($!)
    holder_pids+=($!)
    holders=$((holders + 1))
    left=$((left - share))
done
exec 4>"$work/hold"
other_user flood "$rate" "$flood_seconds" <"$work/ports" >"$work/flood.out" 2>"$work/flood.err" &
pids+=($!)
exec 3>"$work/ports"
for ((h = 0; h < holders; h++)); do
    if ! waitfor "$work/hold$h.out" '^ready' 60 "${holder_pids[$h]}" >/dev/null; then
        echo "peer-flood.sh: the other user could not hold its connections:" >&2
        cat "$work/hold$h.err" >&2
        exit 1
    fi
done
rows=$(($(wc -l </proc/net/tcp) - 1 + $(wc -l </proc/net/tcp6) - 1))

state="peer-flood-$RANDOM$RANDOM"
worst=0
ok=true
for round in $(seq "$rounds"); do
    "$helper" loopback --state "$state" --timeout 60 >"$work/lb$round.out" 2>"$work/lb$round.err" &
    receiver=$!
    pids+=("$receiver")
    first=$(waitfor "$work/lb$round.out" redirect_uri 20 "$receiver") || { cat "$work/lb$round.err" >&2; exit 1; }
    uri=$(sed -E 's/.*"redirect_uri":"([^"]*)".*/\1/; s#\\/#/#g' <<<"$first")
    port=$(sed -E 's#http://127\.0\.0\.1:([0-9]+)/.*#\1#' <<<"$uri")
    echo "$port" >&3
    # The flood's head start: the owner's callback arrives into a flood already running.
    sleep 1
    answer=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -m 20 "$uri?code=owner&state=$state" || true)
    status=${answer% *}
    took=${answer#* }
    [[ -n "$took" && "$took" != "$answer" ]] || took=20
    kill "$receiver" 2>/dev/null || true
    wait "$receiver" 2>/dev/null || true
    refused=$(grep -c "answered 403 to a connection from user id 65534" "$work/lb$round.err" || true)
    flooded=$(waitfor "$work/flood.out" "^flooded $port " 30 || echo "flooded $port ?")
    opened=${flooded##* }
    echo "PEERFLOOD round=$round rows=$rows flood_per_s=$(awk -v n="$opened" -v s="$flood_seconds" 'BEGIN { if (n == "?") print "?"; else printf "%.0f", n / s }') refused_403=$refused owner_status=$status owner_answer_s=$took"
    worst=$(awk -v a="$worst" -v b="$took" 'BEGIN { print (b > a ? b : a) }')
    if [[ "$status" != 200 ]] || awk -v t="$took" -v l="$limit" 'BEGIN { exit !(t >= l) }'; then ok=false; fi
done
verdict=$([[ $ok == true ]] && echo ok || echo MISSED)
echo "PEERFLOOD rows=$rows rounds=$rounds worst_owner_answer_s=$worst limit_s=$limit $verdict"
[[ $ok == true ]]
