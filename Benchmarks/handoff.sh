#!/usr/bin/env bash
# How long the x-scheme-handler hand-off takes: `callback-router open URL` until a waiting
# `callback-router listen` has confirmed it has the callback, over repeated runs, next to
# exec'ing a no-op, the helper's own start-up, and `gio open`'s overhead. A measurement,
# not a test: it prints medians; docs/performance.md keeps the figures.
#
#   Benchmarks/handoff.sh [path/to/callback-router] [runs]     (or CALLBACK_ROUTER=…)
#
# Uses hyperfine when it is installed (--shell=none, a fresh listener prepared before each
# run), else its own loop over `date +%s%N`. Isolated XDG environment as in the e2e suite.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
helper=${1:-${CALLBACK_ROUTER:-}}
runs=${2:-200}
if [ -z "$helper" ]; then
    (cd "$root" && swift build -c release --product callback-router >/dev/null)
    helper="$root/.build/release/callback-router"
fi

work=$(mktemp -d /tmp/callback-router-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$helper" "$work/callback-router"
cr="$work/callback-router"
unset XDG_DATA_DIRS XDG_CONFIG_DIRS XDG_CURRENT_DESKTOP DESKTOP_SESSION DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" \
       XDG_CACHE_HOME="$work/home/cache" XDG_RUNTIME_DIR="$work/run" BROWSER=false
mkdir -p -m 0700 "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
"$cr" register --scheme benchapp >/dev/null
url='benchapp://cb?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj'
listeners="$XDG_RUNTIME_DIR/callback-router/listeners/benchapp"

# Waits until the previous run's listener is gone, starts one listener in the background
# and returns once its socket exists.
cat >"$work/prepare.sh" <<PREPARE
#!/usr/bin/env bash
shopt -s nullglob
for _ in \$(seq 1 5000); do
    sockets=("$listeners"/*.sock)
    [ \${#sockets[@]} = 0 ] && break
    sleep 0.001
done
"$cr" listen --scheme benchapp --state af0ifjsldkj --timeout 30 >/dev/null 2>&1 </dev/null &
for _ in \$(seq 1 5000); do
    sockets=("$listeners"/*.sock)
    [ \${#sockets[@]} = 1 ] && exit 0
    sleep 0.001
done
exit 1
PREPARE
chmod +x "$work/prepare.sh"

median_ms() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) m = a[(NR + 1) / 2]; else m = (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f", m / 1e6 }'; }

measure_loop() { # measure_loop PREPARE|- COMMAND…: median wall time in ms over $runs runs
    local prepare=$1; shift
    local samples=()
    for _ in $(seq 1 "$runs"); do
        [ "$prepare" = - ] || "$prepare"
        local t0 t1
        t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
        samples+=($((t1 - t0)))
    done
    printf '%s\n' "${samples[@]}" | median_ms
}

measure() { # measure PREPARE|- COMMAND…
    local prepare=$1; shift
    if command -v hyperfine >/dev/null 2>&1; then
        local args=(--shell=none --runs "$runs" --warmup 5 --style none --export-json "$work/h.json")
        [ "$prepare" = - ] || args+=(--prepare "$prepare")
        hyperfine "${args[@]}" "$*" >/dev/null 2>&1
        sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$work/h.json" | head -n 1 | awk '{ printf "%.2f", $1 * 1000 }'
    else
        measure_loop "$prepare" "$@"
    fi
}

# gio open returns before the handler is done: time until the listener has exited instead.
gio_to_listener() {
    local samples=()
    for _ in $(seq 1 "$runs"); do
        "$cr" listen --scheme benchapp --state af0ifjsldkj --timeout 30 >/dev/null 2>&1 </dev/null &
        local pid=$!
        for _ in $(seq 1 2000); do ls "$listeners"/*.sock >/dev/null 2>&1 && break; sleep 0.001; done
        local t0 t1
        t0=$(date +%s%N); gio open "$url" >/dev/null 2>&1; wait "$pid" || true; t1=$(date +%s%N)
        samples+=($((t1 - t0)))
    done
    printf '%s\n' "${samples[@]}" | median_ms
}

tool=$(command -v hyperfine >/dev/null 2>&1 && hyperfine --version || echo "own loop (date +%s%N)")
echo "## Linux hand-off — $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m), $tool, $runs runs each"
echo
echo "| what | median (ms) |"
echo "|---|---|"
echo "| exec a no-op (\`/bin/true\`) | $(measure - /bin/true) |"
echo "| helper start-up (\`callback-router --version\`) | $(measure - "$cr" --version) |"
echo "| \`open\` → waiting \`listen\` confirmed (the hand-off) | $(measure "$work/prepare.sh" "$cr" open "$url") |"
echo "| \`open --no-spool\` → waiting \`listen\` confirmed | $(measure "$work/prepare.sh" "$cr" open --no-spool "$url") |"
echo "| \`open\` with nobody listening (spooled) | $(measure - "$cr" open --spool-ttl 1 "$url") |"
if command -v gio >/dev/null 2>&1; then
    # gio's own cost, with a handler that does nothing (Exec=/bin/true %u).
    printf '[Desktop Entry]\nType=Application\nName=noop\nExec=/bin/true %%u\nMimeType=x-scheme-handler/benchnoop;\nNoDisplay=true\n' \
        >"$XDG_DATA_HOME/applications/benchnoop.desktop"
    printf 'x-scheme-handler/benchnoop=benchnoop.desktop\n' >>"$XDG_CONFIG_HOME/mimeapps.list"
    update-desktop-database -q "$XDG_DATA_HOME/applications" 2>/dev/null || true
    echo "| \`gio open\` with a no-op handler (gio's own overhead) | $(measure - gio open 'benchnoop://cb?code=x') |"
    echo "| \`gio open\` → \`listen\` has printed and exited | $(gio_to_listener) |"
fi
