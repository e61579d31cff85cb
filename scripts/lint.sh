#!/usr/bin/env bash
# swift format lint --strict over Sources, Tests, Fuzz and Benchmarks with the checked-in
# .swift-format (the toolchain's own swift-format; no plugin, no package). Prints every
# finding, then a count per rule, and fails on any.
#
#   scripts/lint.sh            lint
#   scripts/lint.sh --fix      rewrite the files in place (swift format format -i) first
#
# .swift-format follows the code as written: 4-space indentation, 140 columns, `#if` blocks
# not indented, spaces around `...`/`..<`, one-line `if x { a; b }` allowed, `case let`
# patterns, imports grouped by hand (system first). What it cannot express: arguments
# aligned under an opening parenthesis, and multi-line string bodies at the declaration's
# indentation; swift-format indents both by one level.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Fuzz Benchmarks)
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --recursive --parallel "${paths[@]}"
fi
# Every Swift file starts with the project's license header (Apache-2.0, SPDX).
python3 "$(dirname "$0")/license-headers.py" || exit 1
# Every test a doc names (docs/security.md: each guarantee names the test that proves it)
# exists under that name.
python3 "$(dirname "$0")/check-doc-tests.py" || exit 1
start=$(date +%s)
set +e
swift format lint --strict --recursive --parallel "${paths[@]}" 2>"${TMPDIR:-/tmp}/swift-format-lint.$$"
status=$?
set -e
report=${TMPDIR:-/tmp}/swift-format-lint.$$
count=$(grep -c -E ': (warning|error):' "$report" || true)
cat "$report"
if [ "$count" -gt 0 ]; then
    echo "swift format lint: $count findings, by rule:"
    sed -n 's/.*: \(warning\|error\): \[\([A-Za-z]*\)\].*/\2/p' "$report" | sort | uniq -c | sort -rn
fi
rm -f "$report"
echo "swift format lint: $(( $(date +%s) - start )) s"
[ "$status" = 0 ] && [ "$count" = 0 ]
