#!/usr/bin/env bash
# End-to-end test of the loopback receiver's browser pages in headless Chromium (issue 27).
#
# pages_check.py runs the real `callback-router loopback` for each page (success, provider
# failure, a refused callback, a callback of another login, the Host 403, a 404), drives
# Chromium to it through Selenium and chromedriver, saves a light and a dark screenshot of
# each (sizes printed), and fails on an unstyled page (computed font, max-width, light and
# dark backgrounds, screenshot pixels) or on a page that loads anything beyond itself.
# Then the real `callback-router login` with a token step against a small local provider
# (pages_op.py): the page it holds for the token step says "Signed in" only once the tokens
# came, "Sign-in failed" when the token endpoint answers invalid_client, and "Finishing the
# sign-in" when the token step outlasts the hold (5 s).
#
# Usage: Tests/EndToEnd/pages.sh [path/to/callback-router]
#   (or CALLBACK_ROUTER=path; else the release build is built and used).
# Needs: chromium, chromedriver, python3-selenium (Debian's, under /usr/bin/python3).
# A missing one is a failure, never a skip. Set PAGES_KEEP=1 to keep the screenshots.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

helper=${1:-${CALLBACK_ROUTER:-}}
if [[ -z "$helper" ]]; then
    (cd "$root" && swift build -c release --product callback-router >&2)
    helper="$root/.build/release/callback-router"
fi
helper=$(cd "$(dirname "$helper")" && pwd)/$(basename "$helper")

missing=()
for tool in chromium chromedriver; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=("python3-selenium")
[[ -x "$helper" ]] || missing+=("the helper $helper")
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "FAIL - not installed (required, not optional): ${missing[*]}"
    echo "0 passed, 1 failed"
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pages-e2e.XXXXXX")
cleanup() {
    if [[ -n "${PAGES_KEEP:-}" ]]; then echo "screenshots kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

timeout 300 /usr/bin/python3 "$here/pages_check.py" "$helper" "$work"
