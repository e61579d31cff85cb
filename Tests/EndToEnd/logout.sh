#!/usr/bin/env bash
# End-to-end: the helper's logout commands against a real OpenID provider
# (django-oauth-toolkit's RP-Initiated Logout, in-process). See logout_op.py.
#
# Needs Debian's python3 with python3-venv, and PyPI for django 5.2 and
# django-oauth-toolkit 3.1, which go into a virtualenv of the suite's own (reused between
# runs from $CALLBACK_ROUTER_TEST_CACHE, default ~/.cache/callback-router-tests). A missing
# tool, or a pip install that fails, is a failure, never a skip.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper binary}
python=/usr/bin/python3
fail() { echo "logout.sh: $*" >&2; echo "logout: 0 passed, 1 failed"; exit 1; }
[ -x "$python" ] || fail "Debian's python3 ($python) is missing"
"$python" -c 'import venv, ensurepip' 2>/dev/null || fail "python3-venv is missing (apt-get install python3-venv)"
cache=${CALLBACK_ROUTER_TEST_CACHE:-${HOME:-/tmp}/.cache/callback-router-tests}
venv="$cache/logout-venv"
requirements=("django==5.2.*" "django-oauth-toolkit==3.1.0")
if ! "$venv/bin/python" -c 'import django, oauth2_provider' 2>/dev/null; then
    mkdir -p "$cache"
    rm -rf "$venv"
    "$python" -m venv "$venv" || fail "cannot create a virtualenv in $venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "${requirements[@]}" \
        || fail "pip could not install ${requirements[*]}"
fi
exec "$venv/bin/python" "$here/logout_op.py" "$helper"
