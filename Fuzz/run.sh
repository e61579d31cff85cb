#!/usr/bin/env bash
# Build and run one libFuzzer target, or all of them.
#
#   Fuzz/run.sh TARGET SECONDS     e.g. Fuzz/run.sh parse 60
#   Fuzz/run.sh all SECONDS        every Sources/fuzz-*/ directory, SECONDS each
#
# TARGET is a directory name under Sources/ without its `fuzz-` prefix. Each run starts
# from a fresh working corpus Fuzz/corpus/TARGET seeded from the committed Fuzz/seeds/TARGET,
# uses Fuzz/dictionaries/TARGET.dict (or url.dict), and writes reproducers to
# Fuzz/artifacts/TARGET/. Exits non-zero when the fuzzer finds a crash, a timeout or a leak.
# Extra arguments after SECONDS go to libFuzzer (e.g. -jobs=2, -seed=1).
# Prints each target's throughput (libFuzzer's stat::average_exec_per_sec) after its run,
# and a summary line per target at the end: `EXECS_PER_SEC TARGET N`.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; }

if [[ $# -lt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    usage
    [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]] && exit 0 || exit 64
fi
target="$1"; seconds="$2"; shift 2
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then echo "run.sh: SECONDS must be a number, got '$seconds'" >&2; exit 64; fi

if [[ "$target" == "all" ]]; then
    targets=()
    for dir in "$here"/Sources/fuzz-*/; do
        name="$(basename "$dir")"; targets+=("${name#fuzz-}")
    done
else
    if [[ ! -d "$here/Sources/fuzz-$target" ]]; then
        echo "run.sh: no fuzz target '$target' (expected $here/Sources/fuzz-$target/)" >&2
        exit 64
    fi
    targets=("$target")
fi

echo "== building ${targets[*]} (release, -sanitize=fuzzer,address)" >&2
log="$(mktemp)"
if ! (cd "$here" && swift build -c release -Xswiftc -sanitize=fuzzer,address >"$log" 2>&1); then
    grep -v "Cannot export local symbol '__asan" "$log" >&2   # the gold linker's noise
    rm -f "$log"
    echo "run.sh: the fuzz build failed" >&2
    exit 70
fi
rm -f "$log"
bin="$(cd "$here" && swift build -c release -Xswiftc -sanitize=fuzzer,address --show-bin-path)"

# Target-specific libFuzzer flags (before the caller's, which win).
# router: no leak check after each input. Every wait the harness starts arms the router's
# timeout (a Task sleeping for an hour); cancelling it resumes the task at once, but the
# runtime's delayed-job entry for the sleep stays queued until its deadline. So every
# input with a wait ends with more mallocs than frees, and libFuzzer answered each with a
# second run and a full LeakSanitizer scan of a heap that grows with those entries: 93 %
# of the time (137 inputs/s over 60 s, falling from 512; 3,287/s without). Leaks are still
# checked, once, when the run ends (LeakSanitizer's exit check fails the run and prints the
# allocating stack), only no longer attributed to one input.
target_flags() {
    case "$1" in
        router) echo "-detect_leaks=0" ;;
    esac
}

status=0
summary=()
failures=()
for name in "${targets[@]}"; do
    exe="$bin/fuzz-$name"
    if [[ ! -x "$exe" ]]; then
        echo "run.sh: the build produced no $exe (is 'fuzz-$name' listed in Fuzz/Package.swift?)" >&2
        exit 70
    fi
    corpus="$here/corpus/$name"
    artifacts="$here/artifacts/$name"
    rm -rf "$corpus"
    mkdir -p "$corpus" "$artifacts"
    if [[ -d "$here/seeds/$name" ]]; then cp -R "$here/seeds/$name/." "$corpus/"; fi
    dict="$here/dictionaries/$name.dict"
    [[ -f "$dict" ]] || dict="$here/dictionaries/url.dict"
    dictarg=()
    [[ -f "$dict" ]] && dictarg=("-dict=$dict")

    read -r -a flags <<<"$(target_flags "$name")"
    echo "== fuzz-$name for ${seconds}s (corpus $corpus, artifacts $artifacts${flags[*]:+, ${flags[*]}})" >&2
    runlog="$(mktemp)"
    # libFuzzer writes to stderr: it goes on to stderr, and a copy to read the stats from.
    set +e
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" "$exe" "$corpus" \
        -max_total_time="$seconds" -max_len=20000 -timeout=5 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "${dictarg[@]}" "${flags[@]}" "$@" 2>&1 \
        | tee "$runlog" >&2
    code="${PIPESTATUS[0]}"
    set -e
    if [[ "$code" -eq 0 ]]; then
        result="ok"
        echo "== fuzz-$name: no crash in ${seconds}s" >&2
    else
        result="FAILED (exit $code)"
        echo "== fuzz-$name FAILED (exit $code); reproducers:" >&2
        ls -1 "$artifacts" >&2 || true
        # Kept for the summary at the end, the part of a CI log people read: the check that
        # failed and each reproducer's first bytes (a clean clone keeps no artifacts).
        why="$(grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$runlog" | cut -c1-400 || true)"
        failures+=("fuzz-$name: ${why:-see its log}")
        for reproducer in "$artifacts"/*; do
            [[ -f "$reproducer" ]] || continue
            failures+=("  $(basename "$reproducer"): $(head -c 256 "$reproducer" | od -An -c | tr -s ' \n' ' ' | cut -c1-600)")
        done
        status=1
    fi
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$runlog" | tail -1)"
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$runlog" | tail -1)"
    rm -f "$runlog"
    echo "== fuzz-$name: ${rate:-?} execs/s (${runs:-?} inputs in ${seconds}s)" >&2
    summary+=("EXECS_PER_SEC $name ${rate:-?} inputs=${runs:-?} $result")
done
printf '%s\n' "${summary[@]}"
if [[ ${#failures[@]} -gt 0 ]]; then printf '%s\n' "FUZZ FAILURES:" "${failures[@]}"; fi
exit $status
