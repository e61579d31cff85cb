#!/usr/bin/env bash
# The completion scripts of `callback-router completions bash|zsh|fish`, run through the real
# shells: each must load, register itself for callback-router, and complete commands,
# options, the values of --dialect/--policy, file names for --redirect-uri-file, and nothing
# for a free value such as --state. Needs bash, zsh and fish: a missing shell is a failure,
# never a skip. Ends with "N passed, M failed".
set -euo pipefail

helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper}
passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; [ -n "${2:-}" ] && printf '     %s\n' "$2" || true; }
expect() { # expect NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected [$2], got [$3]"; fi
}

for tool in bash zsh fish; do command -v "$tool" >/dev/null 2>&1 || fail "shell '$tool' is installed"; done
if [ "$failed" -gt 0 ]; then echo "$passed passed, $failed failed"; exit 1; fi

work=$(mktemp -d /tmp/callback-router-completions.XXXXXX)
trap 'rm -rf "$work"' EXIT
for shell in bash zsh fish; do "$helper" completions "$shell" >"$work/script.$shell"; done
command_names() { "$helper" --help | awk '/^COMMANDS:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'; }
mkdir "$work/files" && touch "$work/files/redirect-a.txt" "$work/files/redirect-b.txt" "$work/files/other"

# --- bash: drive the completion function as readline would (COMP_WORDS, COMP_CWORD).
bash_complete() { # bash_complete WORD…: the completions for the last word, sorted, space-separated
    HOME=$work bash --norc --noprofile -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
        _callback_router
        printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' \
        bash "$work/script.bash" "$@" | sed 's/ $//'
}
expect "bash: the script registers itself" "complete -F _callback_router callback-router" \
    "$(bash --norc --noprofile -c 'source "$1"; complete -p callback-router' bash "$work/script.bash")"
expect "bash: commands" "parse pkce" "$(bash_complete callback-router p)"
expect "bash: every command is offered" \
    "$(command_names | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')" \
    "$(bash_complete callback-router '' | tr ' ' '\n' | grep -v -e '^-' -e '^help$' | tr '\n' ' ' | sed 's/ $//')"
expect "bash: options of parse" "--dialect" "$(bash_complete callback-router parse --dia)"
expect "bash: --dialect values" "oauth2 ory" "$(bash_complete callback-router parse --dialect o)"
expect "bash: --dialect=value" "oauth2 ory" "$(bash_complete callback-router parse --dialect = o)"
expect "bash: --policy values" "custom-scheme-only native" "$(bash_complete callback-router authorize-url --policy '')"
expect "bash: a free value completes nothing" "" "$(bash_complete callback-router parse --state '')"
expect "bash: a file option completes file names" "$work/files/redirect-a.txt $work/files/redirect-b.txt" \
    "$(bash_complete callback-router loopback --redirect-uri-file "$work/files/redirect")"
expect "bash: loopback --response-mode values" "form_post query" "$(bash_complete callback-router loopback --response-mode '')"
expect "bash: login --response-mode values" "form_post query" "$(bash_complete callback-router login --response-mode '')"
expect "bash: parse --response-mode values" "fragment query" "$(bash_complete callback-router parse --response-mode '')"
expect "bash: completions takes a shell" "bash fish zsh" "$(bash_complete callback-router completions '')"

# --- zsh: the script parses, and compinit picks it up from $fpath as it would from
# /usr/share/zsh/vendor-completions.
if zsh -n "$work/script.zsh" 2>"$work/zsh.err"; then pass "zsh -n accepts the script"; else fail "zsh -n accepts the script" "$(cat "$work/zsh.err")"; fi
mkdir "$work/zfunc" && cp "$work/script.zsh" "$work/zfunc/_callback-router"
expect "zsh: compinit binds it to callback-router" "_callback-router" \
    "$(HOME=$work ZDOTDIR=$work zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -d "$2/zcompdump"; print -r -- $_comps[callback-router]' zsh "$work/zfunc" "$work")"
# zsh's own completion, driven in a pseudo-terminal (zpty), for a few words.
zsh_complete() { # zsh_complete 'COMMAND LINE': the candidates zsh lists for it
    HOME=$work ZDOTDIR=$work TERM=dumb zsh -f -c '
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "PS1=; fpath=($1 \$fpath); autoload -U compinit; compinit -u -d $2/zcompdump"
        zpty -w z "zstyle \":completion:*\" list-separator \"\"; zstyle \":completion:*\" format \"\""
        zpty -w z "setopt no_beep; LISTMAX=1000; bindkey \"^I\" list-choices"
        zpty -w z "echo READY-1"
        zpty -r z line "*READY-1*"; zpty -r z line "*READY-1*"
        zpty -w -n z "$3"$'"'"'\t'"'"'
        sleep 0.5
        zpty -w -n z $'"'"'\C-u'"'"'"echo DONE-2"$'"'"'\n'"'"'
        out=""
        while zpty -r -t z chunk 2>/dev/null || { sleep 0.2; zpty -r -t z chunk 2>/dev/null; }; do out+=$chunk; [[ $out == *DONE-2*DONE-2* ]] && break; done
        print -r -- "$out"
        zpty -d z' zsh "$work/zfunc" "$work" "$1" 2>/dev/null | tr -d '\r' || true
}
zsh_out=$(zsh_complete 'callback-router parse --dialect ')
if grep -qw oauth2 <<<"$zsh_out" && grep -qw clerk <<<"$zsh_out"; then pass "zsh: --dialect values"
else fail "zsh: --dialect values" "$(head -c 600 <<<"$zsh_out")"; fi
zsh_out=$(zsh_complete 'callback-router loopback --')
if grep -q -- '--redirect-uri-file' <<<"$zsh_out" && grep -q -- '--state-from-stdin' <<<"$zsh_out"; then pass "zsh: options of loopback"
else fail "zsh: options of loopback" "$(head -c 600 <<<"$zsh_out")"; fi

# --- fish: the script parses, and `complete -C` answers as fish's own completion does.
if fish -n "$work/script.fish" 2>"$work/fish.err"; then pass "fish -n accepts the script"; else fail "fish -n accepts the script" "$(cat "$work/fish.err")"; fi
fish_complete() { # fish_complete 'COMMAND LINE': the candidates, sorted, without descriptions
    HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data fish --no-config -c \
        'source $argv[1]; complete -C $argv[2]' "$work/script.fish" "$1" | cut -f1 | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}
expect "fish: commands" "parse pkce" "$(fish_complete 'callback-router p')"
expect "fish: --dialect values" "oauth2 ory" "$(fish_complete 'callback-router parse --dialect o')"
expect "fish: loopback --response-mode values" "form_post query" "$(fish_complete 'callback-router loopback --response-mode ')"
expect "fish: options of loopback" "--redirect-uri-file" "$(fish_complete 'callback-router loopback --redirect-uri-f')"
expect "fish: a file option completes file names" "$work/files/redirect-a.txt $work/files/redirect-b.txt" \
    "$(fish_complete "callback-router loopback --redirect-uri-file $work/files/redirect")"
expect "fish: no file names where none are expected" "" "$(fish_complete "callback-router parse $work/files/redirect")"

# --- man: each page, as man(1) renders it through groff, has an entry for every option
# that the command's --help lists, under its own heading, and no heading cut at a colon.
if command -v man >/dev/null 2>&1; then
    for command in $(command_names); do
        page=$("$helper" manpage "$command" | MANWIDTH=100 man -l - 2>"$work/man.err" | col -b)
        missing=
        for option in $("$helper" "$command" --help | grep -oE '^  --[a-z0-9-]+' | sed 's/^  //'); do
            grep -qE "^       $option( |$)" <<<"$page" || missing="$missing $option"
        done
        if [ -z "$missing" ] && [ ! -s "$work/man.err" ] && ! grep -q 'defaul:' <<<"$page"; then pass "man: callback-router-$command lists every option"
        else fail "man: callback-router-$command lists every option" "missing:$missing $(head -c 300 "$work/man.err")"; fi
    done
    login_page=$("$helper" manpage login | MANWIDTH=100 man -l - 2>/dev/null | col -b)
    if grep -q '^LOOPBACK OPTIONS$' <<<"$login_page" && grep -q '^SCHEME OPTIONS$' <<<"$login_page"; then pass "man: login's option groups are sections"
    else fail "man: login's option groups are sections" "$(grep -n OPTIONS <<<"$login_page")"; fi
else
    echo "skip: man is not installed"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
