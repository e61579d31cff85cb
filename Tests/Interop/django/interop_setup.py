"""Creates the schema, the test user and the public PKCE client of the interop suite."""
import os
import sys

import django

sys.path.insert(0, os.path.dirname(__file__))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interop_settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402

call_command("migrate", verbosity=0)
user = get_user_model().objects.create_user("alice", password=os.environ["INTEROP_PASSWORD"])
Application.objects.create(
    name="callback-router interop",
    client_id="callback-router-interop",
    client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
    # RFC 8252 §7.3: DOT accepts any port for a registered loopback IP redirect URI.
    redirect_uris="http://127.0.0.1/callback com.example.app:/oauth2redirect",
    algorithm=Application.RS256_ALGORITHM,
    skip_authorization=False,
    user=user,
)
# The OpenID Connect hybrid flow (response_type=code id_token): a signed ID token in the
# redirect's fragment, the long real-server redirects of captured-long-redirects.json.
Application.objects.create(
    name="callback-router interop (hybrid)",
    client_id="callback-router-interop-hybrid",
    client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_OPENID_HYBRID,
    redirect_uris="com.example.app:/oauth2redirect",
    algorithm=Application.RS256_ALGORITHM,
    skip_authorization=False,
    user=user,
)
# The device authorization grant (RFC 8628): `login --device`, the user code typed on the
# server's own device page.
Application.objects.create(
    name="callback-router interop (device)",
    client_id="callback-router-interop-device",
    client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_DEVICE_CODE,
    redirect_uris="",
    algorithm=Application.RS256_ALGORITHM,
    skip_authorization=False,
    user=user,
)
