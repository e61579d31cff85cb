#!/usr/bin/env python3
"""A small OpenID provider and resource server for the token store's end-to-end test.

Binds 127.0.0.1 only (plain http: the helper runs with --allow-http-loopback), on a port
the system picks, printed as its first line on stdout. The issuer is http://127.0.0.1:PORT.

  /.well-known/openid-configuration   discovery, with a revocation_endpoint
  /authorize                          redirects at once to redirect_uri with a code
  /token                              authorization_code and refresh_token grants: each
                                      answer has a new access token (AT-n, expires_in
                                      --lifetime seconds) and a rotated refresh token (RT-n);
                                      a refresh token used twice, or revoked, is invalid_grant
  /revoke                             RFC 7009: revokes the token given
  /api, /apis…, /version               200 for a live bearer access token, 401 otherwise;
                                      with --tls CERT KEY also served over https on a second
                                      port, printed as the second line (kubectl sends exec
                                      credentials over TLS only)
  /stats                              {"refreshes":N,"revoked":[…],"live_refresh_tokens":N,
                                      "logins":N} (logins: the browsers sent to /authorize)
  /config?lifetime=N                  the lifetime of the access tokens issued from now on

Exits after --timeout seconds. Nothing leaves the machine.
"""

import argparse
import json
import ssl
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"n": 0, "refreshes": 0, "access": {}, "refresh": set(), "revoked": [], "logins": 0}
LIFETIME = [300]


def issue():
    STATE["n"] += 1
    n = STATE["n"]
    access, refresh = "AT-%d" % n, "RT-%d" % n
    STATE["access"][access] = time.time() + LIFETIME[0]
    STATE["refresh"].add(refresh)
    return {"access_token": access, "token_type": "Bearer", "expires_in": LIFETIME[0], "refresh_token": refresh}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, headers=()):
        data = json.dumps(body).encode() if not isinstance(body, bytes) else body
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        issuer = "http://127.0.0.1:%d" % self.server.server_port
        if url.path == "/.well-known/openid-configuration":
            return self.send(200, {
                "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
                "revocation_endpoint": issuer + "/revoke", "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"], "jwks_uri": issuer + "/jwks",
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"]})
        if url.path == "/authorize":
            query = dict(urllib.parse.parse_qsl(url.query))
            with LOCK:
                STATE["logins"] += 1
            target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": "CODE-1", "state": query["state"]})
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/config":
            LIFETIME[0] = int(dict(urllib.parse.parse_qsl(url.query))["lifetime"])
            return self.send(200, {"lifetime": LIFETIME[0]})
        if url.path == "/stats":
            with LOCK:
                return self.send(200, {"refreshes": STATE["refreshes"], "revoked": STATE["revoked"], "live_refresh_tokens": len(STATE["refresh"]),
                                       "logins": STATE["logins"]})
        if url.path == "/api" or url.path.startswith("/apis") or url.path.startswith("/version"):
            token = (self.headers.get("Authorization") or "")[len("Bearer "):]
            with LOCK:
                live = STATE["access"].get(token, 0) > time.time()
            if live:
                return self.send(200, {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []})
            return self.send(401, {"kind": "Status", "status": "Failure", "code": 401})
        self.send(404, {"error": "not_found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        with LOCK:
            if self.path == "/token":
                grant = form.get("grant_type")
                if grant == "authorization_code" and form.get("code") == "CODE-1" and form.get("client_id") == "app":
                    return self.send(200, issue())
                if grant == "refresh_token" and form.get("refresh_token") in STATE["refresh"]:
                    STATE["refresh"].discard(form["refresh_token"])
                    STATE["refreshes"] += 1
                    return self.send(200, issue())
                return self.send(400, {"error": "invalid_grant"})
            if self.path == "/revoke":
                token = form.get("token", "")
                STATE["refresh"].discard(token)
                STATE["access"].pop(token, None)
                STATE["revoked"].append(form.get("token_type_hint"))
                return self.send(200, b"")
        self.send(404, {"error": "not_found"})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--lifetime", type=int, default=300)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    LIFETIME[0] = args.lifetime
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    servers = [server]
    if args.tls:
        secure = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*args.tls)
        secure.socket = context.wrap_socket(secure.socket, server_side=True)
        servers.append(secure)
        threading.Thread(target=secure.serve_forever, daemon=True).start()
    print("\n".join(str(s.server_port) for s in servers), flush=True)
    for each in servers:
        threading.Timer(args.timeout, each.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
