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

# begin_suite NAME [SIGNAL]: the counted-checks preamble of loopback.sh and terminal.sh.
# Sets `passed`, `failed`, `work` (a fresh directory under $TMPDIR or /tmp, named after
# NAME), `pids` (add every background process: each gets SIGNAL, TERM by default, at the
# end) and defines pass, fail, check and require. On exit the processes are stopped and
# `work` removed; a suite that exits before end_suite counts one more failure and says so.
begin_suite() {
    passed=0
    failed=0
    summarized=0
    pids=()
    suite_kill_signal=${2:-TERM}
    suite_pid=$BASHPID
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1-e2e.XXXXXX")
    # `login` keeps tokens under $XDG_STATE_HOME: each suite keeps them in its own directory,
    # never in the home of the user who runs the suites.
    export XDG_STATE_HOME="$work/state"
    trap suite_cleanup EXIT
}

suite_cleanup() {
    local status=$?
    local pid
    # A background job is a forked bash that inherits this trap: only the suite cleans up
    # (before, each killed job printed a second "stopped early" line).
    [[ $BASHPID == "$suite_pid" ]] || return 0
    for pid in "${pids[@]}"; do kill "-$suite_kill_signal" "$pid" 2>/dev/null || true; done
    rm -rf "$work"
    if [[ $summarized -eq 0 ]]; then
        failed=$((failed + 1))
        echo "FAIL - the suite stopped early (status $status)" >&2
        echo "$passed passed, $failed failed"
        exit 1
    fi
}

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1" >&2; }

check() { # DESCRIPTION COMMAND…
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}

# require TOOL: a missing tool is a failure, never a skip.
require() {
    if ! command -v "$1" >/dev/null 2>&1; then
        fail "$1 is not installed (required, not optional)"
        end_suite
        exit 1
    fi
}

# end_suite: the summary line; the suite's status is whether every check passed.
end_suite() {
    summarized=1
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 ]]
}
