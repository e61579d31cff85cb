#!/usr/bin/env bash
# Start-up time and peak memory of `callback-router parse` against a minimal Swift binary
# that links Foundation and parses the same URL with URLComponents, over repeated runs.
#
#   Benchmarks/startup.sh [RUNS]        (default 40)
#
# Builds the helper in release mode (and, for comparison, with --static-swift-stdlib),
# compiles the Foundation baseline with swiftc -O, then runs each RUNS times under
# /usr/bin/time -f '%e %M' (wall seconds, peak RSS KiB) and prints medians, one line each:
#   STARTUP <name> wall_ms=<median> peak_rss_kib=<median>
set -euo pipefail
runs="${1:-40}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "startup.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 69; }

url='com.example.app:/oauth2redirect?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj'

(cd "$root" && swift build -c release --product callback-router >/dev/null)
helper="$(cd "$root" && swift build -c release --show-bin-path)/callback-router"
(cd "$root" && swift build -c release --product callback-router --static-swift-stdlib --scratch-path "$work/static" >/dev/null)
static_helper="$work/static/release/callback-router"

cat > "$work/baseline.swift" <<'SWIFT'
import Foundation
// The minimal Foundation program a helper would otherwise be: parse the URL, print a field.
let components = URLComponents(string: CommandLine.arguments[1])
print(components?.queryItems?.first(where: { $0.name == "code" })?.value ?? "")
SWIFT
swiftc -O "$work/baseline.swift" -o "$work/foundation-baseline" 2>/dev/null

cat > "$work/noop.swift" <<'SWIFT'
print(CommandLine.arguments.count)
SWIFT
swiftc -O "$work/noop.swift" -o "$work/swift-noop" 2>/dev/null

measure() { # name, command...
    local name="$1"; shift
    local walls=() rss=()
    for _ in $(seq "$runs"); do
        local out
        /usr/bin/time -f '%e %M' -o "$work/time.out" "$@" >/dev/null 2>&1 || true
        out="$(tail -1 "$work/time.out")"
        walls+=("${out% *}"); rss+=("${out#* }")
    done
    local wall_ms peak
    wall_ms="$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]*1000}')"
    peak="$(printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    echo "STARTUP $name wall_ms=$wall_ms peak_rss_kib=$peak"
}

echo "# $runs runs each, medians; /usr/bin/time has 10 ms wall resolution: the wall time that counts is hyperfine's"
measure callback-router-parse "$helper" parse --dialect oauth2 "$url"
measure callback-router-parse-static "$static_helper" parse --dialect oauth2 "$url"
measure foundation-baseline "$work/foundation-baseline" "$url"
measure swift-noop "$work/swift-noop"
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/h.json" \
        -n callback-router-parse "$helper parse --dialect oauth2 '$url'" \
        -n callback-router-parse-static "$static_helper parse --dialect oauth2 '$url'" \
        -n foundation-baseline "$work/foundation-baseline '$url'" \
        -n swift-noop "$work/swift-noop" >/dev/null 2>&1 || true
    [ -f "$work/h.json" ] && python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("HYPERFINE %s median_ms=%.2f min_ms=%.2f mean_ms=%.2f" % (r["command"], r["median"] * 1e3, r["min"] * 1e3, r["mean"] * 1e3))
' "$work/h.json"
fi
