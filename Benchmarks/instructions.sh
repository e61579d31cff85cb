#!/usr/bin/env bash
# Instructions per operation, counted exactly by valgrind's callgrind: repeatable whatever
# else the machine is doing (wall-clock medians on a shared 2-core machine are not).
#
#   Benchmarks/instructions.sh [N]     (default 20000 operations)
#
# For each mode of `callback-bench --profile N MODE` it counts the whole run at N and at 0
# operations and prints the difference divided by N:
#   INSTRUCTIONS <mode> per_op=<n>
# Modes: ours (parse + every decoded parameter, zero-copy), foundation (URLComponents +
# queryItems), classify (parse + redirect-URI check + oauth2 classification), on the
# typical callback; route (router.handle with the attempt pending: a run that begins and
# handles minus one that only begins); classify_<dialect> for each dialect's typical callback
# beside its parse; then ours and foundation per URL of the realistic set; then, on the long
# redirects real servers sent (captured-long-redirects.json), ours and foundation per URL and
# per byte (parse + every decoded parameter: mostly the byte loops).
set -euo pipefail
set -f # the URLs passed to the bench hold `?`: never a glob
n="${1:-20000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 69; }
(cd "$root" && swift build -c release --product callback-bench >/dev/null)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF the Swift toolchain emits: count a stripped copy.
cp "$(cd "$root" && swift build -c release --show-bin-path)/callback-bench" "$work/bench"
strip -g "$work/bench"

count() { # operations, mode flag
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/bench" --profile "$1" $2 2>&1 \
        | sed -n 's/.*refs: *//p' | tr -d ,
}
for mode in ours foundation classify; do
    flag=""; [ "$mode" = ours ] || flag="--$mode"
    base="$(count 0 "$flag")"; total="$(count "$n" "$flag")"
    echo "INSTRUCTIONS $mode per_op=$(( (total - base) / n ))"
done
# router.handle(url) with the attempt pending: (begin + URL + handle) - (begin + URL).
# (a tenth of the operations: each begins an attempt, with a CSPRNG call, slow under valgrind)
routes=$(( n / 10 > 0 ? n / 10 : 1 ))
begin="$(count "$routes" --route-begin)"; handled="$(count "$routes" --route)"
echo "INSTRUCTIONS route per_op=$(( (handled - begin) / routes ))"
# Each dialect's typical callback (callback-bench/DialectRows.swift): classified as its row
# does (parse + redirect check + classification, no field read), and parsed alone (ours):
# each classification is held within 2x its parse.
for dialect in oauth2 prelude ory zephr clerk; do
    url="$("$work/bench" --dialect-url "$dialect")"
    base="$(count 0 "--classify --dialect $dialect")"; total="$(count "$n" "--classify --dialect $dialect")"
    classified=$(( (total - base) / n ))
    base="$(count 0 "--url $url")"; total="$(count "$n" "--url $url")"
    parsed=$(( (total - base) / n ))
    echo "INSTRUCTIONS classify_$dialect per_op=$classified"
    echo "RATIO classify_$dialect parse_per_op=$parsed ratio=$(awk -v c="$classified" -v p="$parsed" 'BEGIN { printf "%.2f", c / p }')"
done
# The realistic set (41 callbacks), per URL.
urls="$("$work/bench" --realistic-count)"; rounds=$(( n / urls ))
for mode in ours foundation; do
    flag="--realistic"; [ "$mode" = ours ] || flag="--realistic --$mode"
    base="$(count 0 "$flag")"; total="$(count "$rounds" "$flag")"
    echo "INSTRUCTIONS ${mode}_realistic per_url=$(( (total - base) / (rounds * urls) ))"
done
# The captured long redirects, per URL and per byte.
read -r long_urls long_bytes <<<"$("$work/bench" --long-size)"
rounds=$(( n / 10 / long_urls > 0 ? n / 10 / long_urls : 1 ))
for mode in ours foundation; do
    flag="--long"; [ "$mode" = ours ] || flag="--long --$mode"
    base="$(count 0 "$flag")"; total="$(count "$rounds" "$flag")"
    name=long; [ "$mode" = ours ] || name=foundation_long
    echo "INSTRUCTIONS $name per_url=$(( (total - base) / (rounds * long_urls) )) per_byte=$(awk -v d="$(( total - base ))" -v b="$(( rounds * long_bytes ))" 'BEGIN { printf "%.2f", d / b }') bytes_per_url=$(( long_bytes / long_urls ))"
done
