#!/usr/bin/env bash
# How long the x-scheme-handler hand-off takes: `callback-router open URL` until a waiting
# `callback-router listen` has confirmed it has the callback, over repeated runs, for the
# helper linked two ways in one run (the static, stripped one the Debian package ships, and
# the default dynamic build), next to exec'ing a no-op, the helper's own start-up, and
# `gio open`'s overhead. A measurement, not a test: it prints medians as a Markdown table;
# docs/performance.md keeps the figures.
#
#   Benchmarks/handoff.sh [runs]                         (default 200)
#
# The helpers, as NAME=PATH words in HELPERS (default: "static=… dynamic=…", built here:
# static as shipped by scripts/build-helper.sh, dynamic the default `swift build -c release`).
# Each is copied and stripped first. Uses hyperfine when it is installed (--shell=none, a
# fresh listener prepared before each run), else its own loop over `date +%s%N`. Isolated
# XDG environment as in the e2e suite.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
runs=${1:-200}
if [ -z "${HELPERS:-}" ]; then
    static_helper=$(bash "$root/scripts/build-helper.sh")
    (cd "$root" && swift build -c release --product callback-router >/dev/null)
    HELPERS="static=$static_helper dynamic=$root/.build/release/callback-router"
fi
read -r -a helpers <<<"$HELPERS"
names=()
for helper in "${helpers[@]}"; do names+=("${helper%%=*}"); done

work=$(mktemp -d /tmp/callback-router-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
for helper in "${helpers[@]}"; do
    mkdir "$work/${helper%%=*}"
    cp "${helper#*=}" "$work/${helper%%=*}/callback-router"
    strip --strip-unneeded "$work/${helper%%=*}/callback-router"
done
cr="$work/${names[0]}/callback-router"    # the one registered as the scheme's handler
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
"\$1" listen --scheme benchapp --state af0ifjsldkj --timeout 30 >/dev/null 2>&1 </dev/null &
for _ in \$(seq 1 5000); do
    sockets=("$listeners"/*.sock)
    [ \${#sockets[@]} = 1 ] && exit 0
    sleep 0.001
done
exit 1
PREPARE
chmod +x "$work/prepare.sh"
for variant in "${names[@]}"; do
    printf '#!/bin/sh\nexec "%s" "%s"\n' "$work/prepare.sh" "$work/$variant/callback-router" >"$work/prepare-$variant.sh"
    chmod +x "$work/prepare-$variant.sh"
done

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
size() { stat -c %s "$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'; }
echo "## Linux hand-off by link mode — $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m), $tool, $runs runs each, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
for name in "${names[@]}"; do
    echo "- $name: $(size "$work/$name/callback-router") stripped, links $(ldd "$work/$name/callback-router" 2>/dev/null | awk '/=>/ { print $1 }' | tr '\n' ' ')"
done
echo
header="| median (ms) | \`/bin/true\` |"
rule="|---|---|"
blank=""
for name in "${names[@]}"; do header+=" $name |"; rule+="---|"; blank+=" |"; done
echo "$header"
echo "$rule"
echo "| exec a no-op | $(measure - /bin/true) |$blank"
row() { # row LABEL PREPARE|- ARGS…: one measurement per helper (PREPARE: the helper's own)
    local label=$1 prepare=$2; shift 2
    local line="| $label | |"
    for variant in "${names[@]}"; do
        local p=$prepare
        [ "$p" = - ] || p="$work/prepare-$variant.sh"
        line+=" $(measure "$p" "$work/$variant/callback-router" "$@") |"
    done
    echo "$line"
}
row "helper start-up (\`callback-router --version\`)" - --version
row "\`open\` → waiting \`listen\` confirmed (**the hand-off**)" prepare open "$url"
row "\`open --no-spool\` → waiting \`listen\` confirmed" prepare open --no-spool "$url"
row "\`open\` with nobody listening (spooled)" - open --spool-ttl 1 "$url"
echo
sleep 2    # the spooled row's entries expire (--spool-ttl 1) and cannot feed a listener below
python3 "$here/handoff_interleaved.py" "$runs" "$work" "$url" $(for n in "${names[@]}"; do printf '%s=%s ' "$n" "$work/$n/callback-router"; done)
echo
if command -v gio >/dev/null 2>&1; then
    # gio's own cost, with a handler that does nothing (Exec=/bin/true %u).
    printf '[Desktop Entry]\nType=Application\nName=noop\nExec=/bin/true %%u\nMimeType=x-scheme-handler/benchnoop;\nNoDisplay=true\n' \
        >"$XDG_DATA_HOME/applications/benchnoop.desktop"
    printf 'x-scheme-handler/benchnoop=benchnoop.desktop\n' >>"$XDG_CONFIG_HOME/mimeapps.list"
    update-desktop-database -q "$XDG_DATA_HOME/applications" 2>/dev/null || true
    echo "| \`gio open\` with a no-op handler (gio's own overhead) | $(measure - gio open 'benchnoop://cb?code=x') |$blank"
    echo "| \`gio open\` → \`listen\` has printed and exited (handler: ${names[0]}) | | $(gio_to_listener) |${blank# |}"
fi
