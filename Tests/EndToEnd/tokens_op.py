#!/usr/bin/env python3
"""A small, deliberately hostile OpenID provider for the token step's end-to-end test.

Binds 127.0.0.1 only (plain http: the helper is run with --allow-http-loopback), on a port
the system picks, and prints that port as its first line on stdout. Every issuer is
http://127.0.0.1:PORT/MODE, and MODE says what the provider does wrong:

  good          nothing: discovery, authorize, a token response with a valid ID token
                (PKCE S256, redirect_uri and client_id checked as a real server does)
  other-issuer  the discovery document names another issuer
  nonce, aud, iss, expired
                the ID token has another nonce / aud / iss, or expired an hour ago
  big           the token response is over 64 KiB
  mac           token_type is MAC, not Bearer
  error         the token endpoint answers 400 invalid_grant

The refresh grant answers new tokens and an ID token for the same user: refresh_token
RT-good a good one; RT-other-sub one of another user; RT-other-iss one of another issuer;
RT-expired an expired one; RT-no-id-token none. The ID token's signature is
a placeholder: the helper does not verify signatures (docs/tokens.md). Exits after
--timeout seconds. Nothing leaves the machine.
"""

import argparse
import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = {"good", "other-issuer", "nonce", "aud", "iss", "expired", "big", "mac", "error"}
CODES = {}


REFRESH_TOKENS = {"RT-good", "RT-other-sub", "RT-other-iss", "RT-expired", "RT-no-id-token"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def id_token(claims) -> str:
    return ".".join([b64url(json.dumps({"alg": "RS256", "typ": "JWT"}).encode()), b64url(json.dumps(claims).encode()),
                     b64url(b"placeholder-signature")])


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_json(self, status, document, extra_headers=()):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        for name, value in extra_headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def split(self):
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/", 2)
        if len(parts) < 3 or parts[1] not in MODES:
            return None, None, url
        return parts[1], "/" + parts[2], url

    def issuer(self, mode):
        return "http://127.0.0.1:%d/%s" % (self.server.server_port, mode)

    def do_GET(self):
        mode, path, url = self.split()
        if mode is None:
            return self.send_json(404, {"error": "not_found"})
        issuer = self.issuer(mode)
        if path == "/.well-known/openid-configuration":
            return self.send_json(200, {
                "issuer": "http://127.0.0.1:1/elsewhere" if mode == "other-issuer" else issuer,
                "authorization_endpoint": issuer + "/authorize",
                "token_endpoint": issuer + "/token",
                "code_challenge_methods_supported": ["S256"],
                "response_types_supported": ["code"],
                "jwks_uri": issuer + "/jwks",
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
            })
        if path == "/authorize":
            query = dict(urllib.parse.parse_qsl(url.query))
            code = secrets.token_urlsafe(24)
            CODES[code] = (mode, query.get("nonce"), query.get("code_challenge"), query.get("redirect_uri"),
                           query.get("client_id"))
            target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        mode, path, _ = self.split()
        length = int(self.headers.get("Content-Length", "0"))
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        if mode is None or path != "/token":
            return self.send_json(404, {"error": "not_found"})
        issuer = self.issuer(mode)
        if form.get("grant_type") == "refresh_token":
            grant = form.get("refresh_token")
            if grant not in REFRESH_TOKENS or form.get("client_id") != "app":
                return self.send_json(400, {"error": "invalid_grant"})
            now = int(time.time())
            claims = {"iss": issuer, "sub": "user-42", "aud": "app", "exp": now + 600, "iat": now}
            if grant == "RT-other-sub":
                claims["sub"] = "user-666"
            elif grant == "RT-other-iss":
                claims["iss"] = "http://127.0.0.1:1/elsewhere"
            elif grant == "RT-expired":
                claims["exp"], claims["iat"] = now - 3600, now - 7200
            response = {"access_token": "AT-refreshed", "token_type": "Bearer", "expires_in": 300, "refresh_token": "RT-next"}
            if grant != "RT-no-id-token":
                response["id_token"] = id_token(claims)
            return self.send_json(200, response)
        record = CODES.pop(form.get("code", ""), None)
        if record is None or mode == "error":
            return self.send_json(400, {"error": "invalid_grant", "error_description": "the code is unknown or used"})
        _, nonce, challenge, redirect_uri, client_id = record
        verifier = form.get("code_verifier", "")
        if (b64url(hashlib.sha256(verifier.encode()).digest()) != challenge or form.get("redirect_uri") != redirect_uri
                or form.get("client_id") != client_id):
            return self.send_json(400, {"error": "invalid_grant", "error_description": "PKCE or redirect_uri mismatch"})
        now = int(time.time())
        claims = {"iss": issuer, "sub": "user-42", "aud": client_id, "exp": now + 600, "iat": now, "nonce": nonce}
        if mode == "nonce":
            claims["nonce"] = "another-nonce"
        elif mode == "aud":
            claims["aud"] = "another-client"
        elif mode == "iss":
            claims["iss"] = "http://127.0.0.1:1/elsewhere"
        elif mode == "expired":
            claims["exp"], claims["iat"] = now - 3600, now - 7200
        response = {"access_token": "AT-" + mode, "token_type": "MAC" if mode == "mac" else "Bearer", "expires_in": 300,
                    "refresh_token": "RT-" + mode, "id_token": id_token(claims)}
        if mode == "big":
            response["padding"] = "x" * (70 * 1024)
        self.send_json(200, response)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_port, flush=True)
    threading.Timer(args.timeout, server.shutdown).start()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
