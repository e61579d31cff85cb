#!/usr/bin/env bash
# Proves that scripts/check-availability.sh can fail, and names what it fails on.
#
# Copies the package (without build directories) to a temporary directory and runs the check:
#   - on the unmodified copy: it must pass;
#   - with one planted use at a time, each in a library source: it must exit 1 and print the
#     planted file:line and the API's name:
#       Synchronization.Mutex                    (macOS 15) in CallbackRouter
#       Duration.attoseconds                     (macOS 15) in CallbackParsing
#       String(validating:as:)                   (macOS 15) in CallbackRouterCLI
#       a String API used from CallbackRouterFoundation (the module that imports Foundation)
#       Mutex in a library product added to Package.swift (the module list is not fixed)
#       Never: Encodable, a conformance newer (macOS 14) than the type it is on
#   - with the same macOS 15 API inside `if #available(macOS 15, …)`: it must pass (the check
#     reads availability contexts instead of flagging every mention).
# Usage: scripts/test-check-availability.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi

work="$(mktemp -d /tmp/test-check-availability.XXXXXX)"
trap 'rm -rf "$work"' EXIT
pkg="$work/pkg"
mkdir "$pkg"
(cd "$root" && tar --exclude=.build --exclude=.swiftpm --exclude=.git -cf - .) | tar -xf - -C "$pkg"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run_check NAME EXPECTED_STATUS [REQUIRED_OUTPUT...]
run_check() {
  local name="$1" expected="$2"; shift 2
  local out status=0
  out="$(bash "$pkg/scripts/check-availability.sh" --package "$pkg" 2>&1)" || status=$?
  echo "---- $name: exit $status"
  echo "$out" | sed 's/^/    /'
  if [ "$status" -ne "$expected" ]; then
    fail "$name: expected exit $expected, got $status"
    return
  fi
  local needle
  for needle in "$@"; do
    if ! grep -qF -- "$needle" <<<"$out"; then
      fail "$name: the output does not contain: $needle"
    fi
  done
}

# plant FILE: keep a pristine copy to restore after the case.
saved=()
plant_begin() { cp "$pkg/$1" "$work/saved.$(echo "$1" | tr / _)"; saved+=("$1"); }
plant_end() {
  local f
  for f in "${saved[@]}"; do cp "$work/saved.$(echo "$f" | tr / _)" "$pkg/$f"; done
  saved=()
}
# append FILE TEXT: appends TEXT (one line) and prints the line number it landed on.
append_line() {
  [ -z "$(tail -c1 "$pkg/$1")" ] || printf '\n' >>"$pkg/$1"  # a last line without its newline
  printf '%s\n' "$2" >>"$pkg/$1"
  wc -l <"$pkg/$1" | tr -d ' '
}
prepend_line() {
  { printf '%s\n' "$2"; cat "$pkg/$1"; } >"$work/prepend" && mv "$work/prepend" "$pkg/$1"
}

# A library source of TARGET to plant into (the first file at the top of its directory, so that
# files moving between modules do not break this test).
first_source() { (cd "$pkg" && ls "Sources/$1"/*.swift | head -1); }

run_check "unmodified package" 0 "check-availability: OK"

# 1. Synchronization.Mutex in CallbackRouter.
f=$(first_source CallbackRouter)
plant_begin "$f"
prepend_line "$f" "import Synchronization"
line="$(append_line "$f" 'func plantedMutexUse() -> Int { let box = Mutex(0); return box.withLock { $0 } }')"
run_check "planted Mutex" 1 "$f:$line:" "Mutex" "introduced in macOS 15.0" "check-availability: FAILED"
plant_end

# 2. A Duration API newer than macOS 13 (Duration itself is macOS 13) in CallbackParsing.
f=$(first_source CallbackParsing)
plant_begin "$f"
line="$(append_line "$f" 'func plantedDurationUse(_ d: Duration) -> Bool { d.attoseconds > 0 }')"
run_check "planted Duration.attoseconds" 1 "$f:$line:" "Duration.attoseconds" "introduced in macOS 15.0"
plant_end

# 3. A macOS 15 String API (SE-0405's String(validating:as:)) in CallbackRouterCLI.
f=$(first_source CallbackRouterCLI)
plant_begin "$f"
line="$(append_line "$f" 'func plantedStringUse(_ b: [UInt8]) -> String? { String(validating: b, as: UTF8.self) }')"
run_check "planted String(validating:as:)" 1 "$f:$line:" "String.init(validating:as:)" "introduced in macOS 15.0"
plant_end

# 4. The same String API in the Foundation module: its standard-library uses are checked too.
f=$(first_source CallbackRouterFoundation)
plant_begin "$f"
line="$(append_line "$f" 'func plantedFoundationModuleUse(_ b: [UInt8]) -> String? { String(validating: b, as: UTF8.self) }')"
run_check "planted String(validating:as:) in CallbackRouterFoundation" 1 "$f:$line:" "String.init(validating:as:)"
plant_end

# 5. A new library product: the check derives its module list from the manifest.
plant_begin Package.swift
python3 - "$pkg/Package.swift" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
assert "\n    products: [" in s and "\n    targets: [" in s
s = s.replace("\n    products: [", '\n    products: [\n        .library(name: "PlantedLibrary", targets: ["PlantedLibrary"]),', 1)
s = s.replace("\n    targets: [", '\n    targets: [\n        .target(name: "PlantedLibrary"),', 1)
open(p, "w").write(s)
PY
mkdir -p "$pkg/Sources/PlantedLibrary"
printf '%s\n' 'import Synchronization' '' 'public func plantedLibraryUse() -> Int { Mutex(1).withLock { $0 } }' \
  >"$pkg/Sources/PlantedLibrary/Planted.swift"
run_check "planted Mutex in a new library product" 1 "Sources/PlantedLibrary/Planted.swift:3:" "Mutex"
rm -rf "$pkg/Sources/PlantedLibrary"
plant_end

# 6. Control: the same APIs behind `if #available` / `@available` are fine.
f=$(first_source CallbackParsing)
plant_begin "$f"
append_line "$f" 'func plantedGuardedUse(_ d: Duration) -> Bool { if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return d.attoseconds > 0 }; return false }' >/dev/null
append_line "$f" '@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) func plantedAnnotatedUse(_ b: [UInt8]) -> String? { String(validating: b, as: UTF8.self) }' >/dev/null
run_check "guarded uses of the same APIs" 0 "check-availability: OK"
plant_end

# 7. A guard that covers only macOS must still fail for iOS.
f=$(first_source CallbackParsing)
plant_begin "$f"
line="$(append_line "$f" 'func plantedHalfGuardedUse(_ d: Duration) -> Bool { guard #available(macOS 15, *) else { return false }; return d.attoseconds > 0 }')"
run_check "use guarded for macOS only" 1 "$f:$line:" "Duration.attoseconds" "introduced in iOS 18.0"
plant_end

# 8. A conformance newer than the type: Never is Encodable only from macOS 14 / iOS 17.
f=$(first_source CallbackRouter)
plant_begin "$f"
append_line "$f" 'func plantedEncodable<T: Encodable>(_ type: T.Type) -> Int { MemoryLayout<T>.size }' >/dev/null
line="$(append_line "$f" 'func plantedConformanceUse() -> Int { plantedEncodable(Never.self) }')"
run_check "planted conformance Never: Encodable" 1 "$f:$line:" "the conformance Never: Encodable" "introduced in macOS 14.0"
plant_end

if [ "$failures" -ne 0 ]; then
  echo "test-check-availability: $failures failure(s)"
  exit 1
fi
echo "test-check-availability: OK: the check passes on the unmodified package, fails naming each planted use, and accepts guarded uses"
