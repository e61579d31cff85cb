#!/usr/bin/python3
"""Configures a fresh glewlwyd through its admin API (as the admin web app would).

    setup.py BASE_URL ISSUER KEY_PEM CERT_PEM USER PASSWORD CLIENT_ID REDIRECT_URI…

Signs in as the package's initial admin (admin/password, from init.sqlite3.sql), then
creates: the OpenID Connect plugin instance 'oidc' (code flow only, PKCE required with
S256 only, RFC 9207 iss in authorization responses, codes single-use and a replayed one
revokes what it issued), a scope 'interop' that needs the password, the test user and a
public client with the given redirect URIs. Prints nothing on success; exits 1 naming the
call that failed.
"""
import json
import sys
import urllib.error
import urllib.request

base, issuer, key_file, cert_file, user, password, client_id, *redirect_uris = sys.argv[1:]
session = {}  # the admin session cookie, kept by hand: http.cookiejar drops it for an IP host


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


opener = urllib.request.build_opener(NoRedirect)


def call(method, path, body):
    headers = {"Content-Type": "application/json"}
    if session:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in session.items())
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(), headers=headers)
    try:
        with opener.open(request, timeout=20) as response:
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                session[name.strip()] = rest.split(";", 1)[0]
            return response.status
    except urllib.error.HTTPError as error:
        sys.exit(f"setup: {method} {path} answered {error.code}: {error.read()[:500]!r}")


with open(key_file) as f:
    key = f.read()
with open(cert_file) as f:
    cert = f.read()

call("POST", "/api/auth/", {"username": "admin", "password": "password"})
call("POST", "/api/mod/plugin/", {
    "module": "oidc", "name": "oidc", "display_name": "OpenID Connect (interop)", "order_rank": 0,
    "parameters": {
        "iss": issuer,
        "oauth-as-iss-id": True,  # RFC 9207: iss in every /auth response
        "jwt-type": "rsa", "jwt-key-size": "256", "key": key, "cert": cert,
        "access-token-duration": 600, "refresh-token-duration": 1200, "code-duration": 120,
        "refresh-token-rolling": True, "allow-non-oidc": False,
        "auth-type-code-enabled": True, "auth-type-code-revoke-replayed": True,
        "auth-type-token-enabled": False, "auth-type-id-token-enabled": True, "auth-type-none-enabled": False,
        "auth-type-password-enabled": False, "auth-type-client-enabled": False,
        "auth-type-device-enabled": False, "auth-type-refresh-enabled": True,
        "pkce-allowed": True, "pkce-method-plain-allowed": False, "pkce-required": True,
        "pkce-required-public-client": True, "pkce-scopes": [],
        "scope": [], "additional-parameters": [], "claims": [], "allowed-scope": ["openid", "interop"],
        "secret-type": "pairwise", "jwks-show": True, "jwks-x5c": [],
        "request-parameter-allow": False, "request-uri-allow-https-non-secure": False,
        "request-parameter-allow-encrypted": False, "request-maximum-exp": 3600,
        "address-claim": {"type": "no", "formatted": "", "street_address": "", "locality": "", "region": "",
                          "postal_code": "", "country": "", "mandatory": False},
        "name-claim": "no", "name-claim-scope": [], "email-claim": "no", "email-claim-scope": [],
        "scope-claim": "no", "scope-claim-scope": [],
        "introspection-revocation-allowed": False, "register-client-allowed": False,
        "session-management-allowed": False, "encrypt-out-token-allow": False,
        "oauth-dpop-allowed": False, "resource-allowed": False, "oauth-rar-allowed": False,
        "oauth-par-allowed": False, "oauth-ciba-allowed": False,
    },
})
call("POST", "/api/scope/", {"name": "interop", "display_name": "Interop test scope",
                             "description": "What the callback-router interop suite asks for",
                             "password_required": True, "password_max_age": 0, "scheme": {}})
call("PUT", "/api/scope/openid", {"name": "openid", "display_name": "Open ID", "description": "Open ID Connect scope",
                                  "password_required": True, "password_max_age": 0, "scheme": {}})
call("POST", "/api/user/", {"username": user, "password": password, "name": "Alice Interop",
                            "email": "", "scope": ["openid", "interop"], "enabled": True})
call("POST", "/api/client/", {"client_id": client_id, "name": "callback-router interop", "description": "",
                              "confidential": False, "enabled": True, "scope": [],
                              "redirect_uri": redirect_uris, "authorization_type": ["code", "id_token", "refresh_token"]})
