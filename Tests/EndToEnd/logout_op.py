#!/usr/bin/env python3
"""A real OpenID provider (django-oauth-toolkit, in-process through Django's test client)
drives the helper's logout commands end to end:

  authorize-url -> the provider's authorize view -> parse (the code) -> the token view
  (the ID token) -> end-session-url (the ID token on stdin) -> the provider's
  RP-Initiated Logout view -> parse --logout (the state it sent back)

Checks that the provider accepts the end-session request the helper builds (id_token_hint,
client_id, post_logout_redirect_uri, state), really ends the session, and redirects with
the state, which `parse --logout` accepts once and refuses when changed.
Needs: python3, django (5.2), django-oauth-toolkit (3.x). A missing one is a failure.
Usage: logout_op.py /path/to/callback-router
"""
import json
import re
import os
import subprocess
import sys
import tempfile
import urllib.parse

helper = sys.argv[1]
passed, failed = 0, 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {what}")
    else:
        failed += 1
        print(f"FAIL {what}")


def run(args, stdin=None):
    result = subprocess.run([helper] + args, input=stdin, capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


try:
    import django
    from django.conf import settings
    from jwcrypto import jwk
except ImportError as error:  # a missing tool is a failure, never a skip
    print(f"FAIL django-oauth-toolkit is not installed ({error}): pip install 'django==5.2.*' 'django-oauth-toolkit==3.1.0'")
    sys.exit(1)

work = tempfile.mkdtemp(prefix="logout-op-")
key = jwk.JWK.generate(kty="RSA", size=2048).export_to_pem(private_key=True, password=None).decode()
settings.configure(
    DEBUG=False,
    SECRET_KEY="end-to-end-only",
    ALLOWED_HOSTS=["testserver"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                    "oauth2_provider"],
    MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware",
                "django.contrib.auth.middleware.AuthenticationMiddleware"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(work, "db.sqlite3")}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
    USE_TZ=True,
    OAUTH2_PROVIDER={
        "OIDC_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": key,
        "PKCE_REQUIRED": True,
        "SCOPES": {"openid": "OpenID Connect"},
        "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
        "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
        "OIDC_RP_INITIATED_LOGOUT_STRICT_REDIRECT_URIS": True,
        "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.app"],
    },
)
django.setup()

from django.urls import include, path  # noqa: E402

urlpatterns = [path("o/", include("oauth2_provider.urls", namespace="oauth2_provider"))]

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402

call_command("migrate", verbosity=0)
user = get_user_model().objects.create_user("alice", password="not-used")
redirect_uri = "http://127.0.0.1:8400/callback"
# DOT allows http redirects only to confidential clients: a native app's private-use scheme.
logout_uri = "com.example.app:/logout"
application = get_application_model().objects.create(
    name="e2e", client_type="public", authorization_grant_type="authorization-code",
    redirect_uris=redirect_uri, post_logout_redirect_uris=logout_uri, algorithm="RS256",
    skip_authorization=True, user=user)
client = Client()
client.force_login(user)


def path_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


# 1. Log in: the helper's authorization request, the provider's redirect, the code.
code, out, err = run(["authorize-url", "--endpoint", "http://127.0.0.1/o/authorize/", "--client-id",
                      application.client_id, "--redirect-uri", redirect_uri])
check(code == 0, f"authorize-url exits 0 ({err.strip()})")
request = json.loads(out)
response = client.get(path_of(request["url"]))
check(response.status_code == 302, f"the provider redirects the authorization request (HTTP {response.status_code})")
code, out, err = run(["parse", "--dialect", "oauth2", "--redirect-uri", redirect_uri, "--state", request["state"],
                      response["Location"]])
check(code == 0 and json.loads(out)["outcome"] == "authorization_code", "parse reads the login's callback")
tokens = client.post("/o/token/", {
    "grant_type": "authorization_code", "code": json.loads(out)["code"], "redirect_uri": redirect_uri,
    "client_id": application.client_id, "code_verifier": request["code_verifier"]})
check(tokens.status_code == 200 and "id_token" in tokens.json(), f"the token request returns an ID token (HTTP {tokens.status_code})")
id_token = tokens.json()["id_token"]

# 2. Log out: the helper's end-session request with the ID token from stdin.
code, out, err = run(["end-session-url", "--endpoint", "http://127.0.0.1/o/logout/", "--post-logout-redirect-uri",
                      logout_uri, "--client-id", application.client_id, "--id-token-hint-from-stdin"], stdin=id_token + "\n")
check(code == 0, f"end-session-url exits 0 ({err.strip()})")
logout = json.loads(out)
check(id_token not in err, "the ID token is not on stderr")
query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(logout["url"]).query))
check(query.get("id_token_hint") == id_token and query.get("state") == logout["state"]
      and query.get("post_logout_redirect_uri") == logout_uri, "the request carries the hint, the state and the redirect URI")
check("_auth_user_id" in client.session, "the user has a session at the provider before the logout")
response = client.get(path_of(logout["url"]))
check(response.status_code == 302, f"the provider accepts the end-session request and redirects (HTTP {response.status_code}"
      + (")" if response.status_code == 302 else f": {' '.join(re.sub(r'<[^>]+>', ' ', response.content.decode(errors='replace')).split())[-300:]})"))
location = response.get("Location", "")
check(location.startswith(logout_uri + "?"), "it redirects to the post-logout redirect URI")
check("_auth_user_id" not in client.session, "the provider ended the user's session")

# 3. The callback: logout_complete with the state, refused with another or as a login.
code, out, err = run(["parse", "--logout", "--state", logout["state"], "--redirect-uri", logout_uri, location])
check(code == 0 and json.loads(out)["outcome"] == "logout_complete", f"parse --logout reads it as logout_complete ({out.strip()[:80]})")
code, out, err = run(["parse", "--logout", "--state", request["state"], "--redirect-uri", logout_uri, location])
check(code == 65 and json.loads(out)["reason"] == "state_mismatch", "the login's state does not complete the logout")
code, out, err = run(["parse", "--dialect", "oauth2", "--state", logout["state"], "--redirect-uri", logout_uri, location])
check(code == 65, "the logout's callback is no login callback")

print(f"logout_op: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
