#!/usr/bin/env bash
# End-to-end: the helper's logout commands against a real OpenID provider
# (django-oauth-toolkit's RP-Initiated Logout, in-process). See logout_op.py.
# Needs python3 with django 5.2 and django-oauth-toolkit 3.x; a missing one is a failure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
helper=${CALLBACK_ROUTER:?set CALLBACK_ROUTER to the helper binary}
exec python3 "$here/logout_op.py" "$helper"
