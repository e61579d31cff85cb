#!/usr/bin/env bash
# CI for the Debian package, as root on a Debian machine (what .ci/run calls):
#   1. build the package (scripts/package-deb.sh: static, stripped helper, man pages,
#      completions, docs) and check it with lintian (no error, no warning);
#   2. install it with `apt-get install ./….deb`, check what landed where (man finds the
#      pages, each shell finds its completions, the binary is stripped and links no Swift
#      or Foundation library);
#   3. run the end-to-end suites against /usr/bin/callback-router;
#   4. `apt-get remove --purge` it and check nothing is left behind (the file lists of /usr,
#      /etc, /opt and dpkg's database before and after are identical).
# Prints each step's time. A missing tool is a failure, never a skip.
#
# Needs: dpkg-dev lintian man-db bash-completion zsh fish (plus what Tests/EndToEnd needs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

[ "$(id -u)" = 0 ] || { echo "ci-package: must run as root (apt-get install)"; exit 1; }
missing=()
for tool in dpkg-deb dpkg-shlibdeps lintian apt-get man bash zsh fish file; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ -f /usr/share/bash-completion/bash_completion ] || missing+=("bash-completion")
if [ "${#missing[@]}" -gt 0 ]; then echo "ci-package: missing ${missing[*]}"; exit 1; fi

total_start=$(date +%s.%N)
step_start=$total_start
timings=()
step() { # step NAME: closes the previous step's timer, opens this one
    local now
    now=$(date +%s.%N)
    if [ -n "${step_name:-}" ]; then
        timings+=("$(printf '%7.1f s  %s' "$(echo "$now - $step_start" | bc)" "$step_name")")
        printf '     (%.1f s)\n' "$(echo "$now - $step_start" | bc)"
    fi
    step_name=$1
    step_start=$now
    printf '\n---- %s ----\n' "$1"
}
fail() { echo "ci-package: FAIL: $*"; exit 1; }

snapshot() { # the file list the package may change, without dpkg's own bookkeeping files
    find /usr /etc /opt /var/lib/dpkg/info -xdev \( -type f -o -type l -o -type d \) 2>/dev/null \
        | grep -v -e '^/var/lib/dpkg/info/format' -e '^/etc/ld.so.cache$' | LC_ALL=C sort
}

step "remove a callback-router left installed by an earlier run"
if dpkg-query -W -f='${Status}' callback-router 2>/dev/null | grep -q installed; then
    apt-get remove --purge -y -qq callback-router >/dev/null
fi
work=$(mktemp -d /tmp/callback-router-ci-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
snapshot >"$work/before"

step "build the package (static stripped helper, man pages, completions, docs)"
deb=$(bash scripts/package-deb.sh "$root/.build-deb")
echo "$deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --info "$deb" | sed -n 's/^ \(Version\|Depends\|Installed-Size\):/  \1:/p'

step "lintian: no error, no warning"
# Informational tags are shown too (--display-info); only errors and warnings fail.
lintian_rc=0
lintian --display-info --fail-on error,warning "$deb" >"$work/lintian.txt" 2>&1 || lintian_rc=$?
grep -v 'running with root privileges is not recommended' "$work/lintian.txt" || true
[ "$lintian_rc" = 0 ] || fail "lintian reports an error or a warning (above)"

step "apt-get install ./$(basename "$deb")"
cp "$deb" "$work/"
(cd "$work" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$(basename "$deb")" >/dev/null)
dpkg-query -W -f='${Status}\n' callback-router | grep -q 'install ok installed' || fail "not installed"
snapshot >"$work/installed"

step "the installed files"
cr=/usr/bin/callback-router
[ "$(command -v callback-router)" = "$cr" ] || fail "callback-router is not $cr on PATH"
"$cr" --version
file -L "$cr" | grep -q 'stripped' && ! file -L "$cr" | grep -q 'not stripped' || fail "$cr is not stripped"
if ldd "$cr" | grep -E 'libswift|libFoundation|lib_FoundationICU|libdispatch'; then fail "$cr links a Swift library dynamically"; fi
pages=$("$cr" manpage --directory "$work" | tr -d '[]{}"' | sed 's/^written://' | tr ',' '\n' | grep -c '\.1$')
installed_pages=$(dpkg -L callback-router | grep -c '^/usr/share/man/man1/.*\.1\.gz$')
[ "$pages" = "$installed_pages" ] || fail "$installed_pages man pages installed, the helper has $pages"
for page in $(dpkg -L callback-router | grep '^/usr/share/man/man1/.*\.1\.gz$'); do
    name=$(basename "$page" .1.gz)
    [ "$(man -w "$name")" = "$page" ] || fail "man -w $name does not find $page"
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || fail "man $name: $warnings"
done
echo "man: $installed_pages pages found and rendered without a warning"
# Each page says what --help says: the OPTIONS of parse, for one.
# (Read whole before grep: `grep -q` closing the pipe early would fail the pipeline.)
parse_page=$(LC_ALL=C MANWIDTH=80 man callback-router-parse 2>/dev/null | col -b)
grep -q -- '--require-issuer' <<<"$parse_page" || fail "man callback-router-parse lacks --require-issuer"
# Each shell finds its completions where its package looks, with no setup of ours.
bash_spec=$(bash --norc --noprofile -c 'source /usr/share/bash-completion/bash_completion
    __load_completion callback-router 2>/dev/null || _completion_loader callback-router; complete -p callback-router' 2>&1)
[ "$bash_spec" = "complete -F _callback_router callback-router" ] || fail "bash-completion does not load it: $bash_spec"
zsh_function=$(HOME=$work zsh -f -c 'autoload -U compinit; compinit -u -d "$HOME/zcompdump"; print -r -- $_comps[callback-router]')
[ "$zsh_function" = "_callback-router" ] || fail "zsh's compinit does not find it: [$zsh_function]"
fish_words=$(HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data fish -c 'complete -C "callback-router parse --dialect o"' | cut -f1 | sort | tr '\n' ' ')
[ "$fish_words" = "oauth2 ory " ] || fail "fish does not load it: [$fish_words]"
for shell in bash zsh fish; do
    case $shell in
        bash) path=/usr/share/bash-completion/completions/callback-router ;;
        zsh) path=/usr/share/zsh/vendor-completions/_callback-router ;;
        fish) path=/usr/share/fish/vendor_completions.d/callback-router.fish ;;
    esac
    "$cr" completions "$shell" | cmp -s - "$path" || fail "$path is not what '$cr completions $shell' prints"
done
echo "completions: bash, zsh and fish load them from the package's directories"

step "end-to-end suites against $cr"
bash Tests/EndToEnd/run.sh "$cr"

step "apt-get remove --purge callback-router"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq callback-router >/dev/null
if dpkg-query -W -f='${Status}' callback-router 2>/dev/null | grep -q 'installed'; then fail "still installed"; fi
[ ! -e "$cr" ] || fail "$cr is still there"

step "nothing left behind"
# What the install added (other programs the suites run, such as chromium, may create files
# of their own meanwhile: those are not the package's), and anything named after it.
snapshot >"$work/after"
LC_ALL=C comm -13 "$work/before" "$work/installed" >"$work/added"
{ LC_ALL=C comm -12 "$work/added" "$work/after"; LC_ALL=C comm -13 "$work/before" "$work/after" | grep 'callback-router' || true; } \
    | LC_ALL=C sort -u >"$work/left"
[ -s "$work/added" ] || fail "the install added no file? (snapshot broken)"
if [ -s "$work/left" ]; then cat "$work/left"; fail "left behind after the purge (above)"; fi
echo "all $(wc -l <"$work/added") paths the install added are gone; nothing named callback-router remains"

step "done"
echo
echo "ci-package timings:"
printf '%s\n' "${timings[@]}"
printf '%7.1f s  total\n' "$(echo "$(date +%s.%N) - $total_start" | bc)"
