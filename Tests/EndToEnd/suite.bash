# Shared by the end-to-end suites (and Tests/Interop/lib.sh): sourced, never run (run.sh
# runs each *.sh of this folder; this file is not one).

# find_helper [PATH]: sets `helper` to the absolute path of PATH, else $CALLBACK_ROUTER,
# else a debug build made for the purpose (from the package root, `root`).
find_helper() {
    helper=${1:-${CALLBACK_ROUTER:-}}
    if [[ -z "$helper" ]]; then
        (cd "$root" && swift build --product callback-router >&2)
        helper="$root/.build/debug/callback-router"
    fi
    helper=$(cd "$(dirname "$helper")" && pwd)/$(basename "$helper")
}

# wait_exit PID SECONDS: sets EXIT_STATUS to PID's exit status, 124 when still running
# after SECONDS.
wait_exit() {
    local i
    EXIT_STATUS=124
    for i in $(seq 1 $(($2 * 20))); do
        if ! kill -0 "$1" 2>/dev/null; then
            EXIT_STATUS=0
            wait "$1" || EXIT_STATUS=$?
            return 0
        fi
        sleep 0.05
    done
}
