#!/usr/bin/env bash
# Apple-platform availability check, run on Linux (where the compiler ignores @available(macOS …)).
#
# Finds every use, in the modules of the package's library products, of a standard-library,
# _Concurrency, Synchronization or _StringProcessing API whose @available for an Apple platform
# is newer than the minimum Package.swift declares (platforms: […]). Uses come from the type
# checker (swiftc -dump-ast -dump-ast-format json), availability from the toolchain's own symbol
# graphs (swift-symbolgraph-extract); see scripts/availability/check.py for how.
#
# Usage: scripts/check-availability.sh [--package DIR] [--verbose] [--keep]
# Exit: 0 nothing newer than the minimums (one summary line), 1 offending uses listed as
# file:line:col, 2 the check could not run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
command -v python3 >/dev/null || { echo "check-availability: python3 is required" >&2; exit 2; }
args=("$@")
has_package=no
for a in "${args[@]}"; do [ "$a" = "--package" ] && has_package=yes; done
[ "$has_package" = yes ] || args=(--package "$here/.." "${args[@]}")
exec python3 "$here/availability/check.py" "${args[@]}"
