#!/usr/bin/env bash
# Proves that the core and the helper do not use Foundation (design.md, principle 2).
#
#   scripts/check-linkage.sh            build release (swift build -c release), then check
#   scripts/check-linkage.sh BIN_DIR    check an existing build, e.g. .build/release
#
# Checks, each fatal:
#   1. `ldd` of BIN_DIR/callback-router lists no libFoundation* (nor FoundationEssentials,
#      FoundationInternationalization, lib_FoundationICU).
#   2. The object files of the Foundation-free modules (CallbackParsing, CallbackRouter, CallbackTokens, CallbackSystem, CallbackLoopback, CallbackDesktop,
#      CallbackRouterCLI, callback-router) reference no Foundation symbol: `nm -u` shows no
#      Swift-mangled symbol from a Foundation* module ($s10Foundation…, $s20FoundationEssentials…).
#   3. Their dependency files (*.d) name no Foundation*.swiftmodule: nothing imports it.
# Exit 0 when clean, 1 with a message naming the culprit, 2 when the build is missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# Override with CHECK_LINKAGE_MODULES="A B" (the self-test points it at CallbackRouterFoundation).
read -r -a modules <<< "${CHECK_LINKAGE_MODULES:-CallbackParsing CallbackRouter CallbackTokens CallbackSystem CallbackLoopback CallbackDesktop CallbackRouterKit CallbackRouterPackaging CallbackRouterCLI callback-router}"
helper=callback-router

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi

if [[ $# -ge 1 ]]; then
    bin="$(cd "$1" && pwd)"
else
    (cd "$root" && swift build -c release >&2)
    bin="$(cd "$root" && swift build -c release --show-bin-path)"
fi

fail=0
problem() { echo "check-linkage: FAIL: $*" >&2; fail=1; }

exe="$bin/$helper"
[[ -x "$exe" ]] || { echo "check-linkage: no executable at $exe (build it first)" >&2; exit 2; }

# 1. Shared libraries of the helper.
linked="$(ldd "$exe" | grep -iE 'libFoundation|FoundationEssentials|FoundationInternationalization|_FoundationICU' || true)"
if [[ -n "$linked" ]]; then
    problem "$helper links Foundation:"; echo "$linked" >&2
else
    echo "check-linkage: ok: ldd $helper lists no Foundation library" >&2
fi

# 2. Undefined symbols of each module's objects; 3. what each module's sources depended on.
foundation_symbol='\$s[0-9]+(Foundation|FoundationEssentials|FoundationInternationalization|_FoundationCShims)[A-Z0-9_]|_T0[0-9]+Foundation'
for module in "${modules[@]}"; do
    dir="$bin/${module//-/_}.build"   # SwiftPM names the directory after the C99 name
    shopt -s nullglob
    objects=("$dir"/*.o)
    deps=("$dir"/*.d)
    shopt -u nullglob
    if [[ ${#objects[@]} -eq 0 ]]; then problem "no object files for $module in $dir"; continue; fi
    symbols="$(for o in "${objects[@]}"; do nm -u "$o" | grep -E "$foundation_symbol" | sed "s|^|$(basename "$o"): |"; done || true)"
    if [[ -n "$symbols" ]]; then
        problem "$module references Foundation symbols:"; echo "$symbols" | head -20 >&2
    fi
    if [[ ${#deps[@]} -gt 0 ]] && grep -lE '/Foundation[A-Za-z_]*\.swiftmodule' "${deps[@]}" >/dev/null 2>&1; then
        problem "$module depends on a Foundation module: $(grep -lE '/Foundation[A-Za-z_]*\.swiftmodule' "${deps[@]}" | head -3 | xargs -n1 basename | tr '\n' ' ')"
    fi
    [[ $fail -eq 0 ]] && echo "check-linkage: ok: $module (${#objects[@]} objects, ${#deps[@]} dependency files) uses no Foundation" >&2
done

if [[ $fail -ne 0 ]]; then
    echo "check-linkage: Foundation is only allowed in CallbackRouterFoundation and the benchmark's comparison side." >&2
    exit 1
fi
echo "check-linkage: ok" >&2
