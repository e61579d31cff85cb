#!/usr/bin/env bash
# The regression check on exact instruction counts (issue 17's guard rail): runs
# Benchmarks/instructions.sh, prints each figure beside the committed one in
# Benchmarks/instructions-baseline.txt, and fails when one grew more than 10 %.
# Instruction counts do not depend on the machine's load, so the check cannot flake.
#
#   Benchmarks/check-instructions.sh [N]     (N operations per count, default 20000)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
baseline="$here/instructions-baseline.txt"
measured="$(bash "$here/instructions.sh" "${1:-20000}")"
echo "$measured"
status=0
printf '%-22s %10s %10s %8s\n' name committed measured change
while read -r name figure; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    value="$(echo "$measured" | sed -n "s/^INSTRUCTIONS $name per_[a-z]*=\([0-9]*\)\( .*\)\{0,1\}$/\1/p")"
    if [[ -z "$value" ]]; then
        echo "check-instructions: no INSTRUCTIONS line for '$name'" >&2
        status=1
        continue
    fi
    change=$(awk -v v="$value" -v f="$figure" 'BEGIN { printf "%+.1f%%", (v - f) * 100 / f }')
    printf '%-22s %10d %10d %9s\n' "$name" "$figure" "$value" "$change"
    if (( value * 10 > figure * 11 )); then
        echo "check-instructions: $name grew from $figure to $value instructions, more than 10 %" >&2
        status=1
    fi
done < "$baseline"
exit $status
