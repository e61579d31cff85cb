#!/usr/bin/env python3
"""A small local provider for the held-page scenarios of pages_check.py.

    pages_op.py        (prints its port as the first line on stdout, flushed)

Binds 127.0.0.1 only, on a port the system picks. Paths start with a mode:

  GET  /MODE/authorize?redirect_uri=…&state=…   302 to redirect_uri?code=…&state=… (the request's state)
  POST /MODE/token                               good: 200 with tokens (no ID token);
                                                 client: 401 invalid_client (a confidential client
                                                 without its secret); slow: tokens after 8 seconds,
                                                 longer than login holds the browser's page.

Exits after --timeout seconds. Nothing leaves the machine.
"""
import argparse
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = {"good", "client", "slow"}


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

    def mode(self):
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/", 2)
        if len(parts) < 3 or parts[1] not in MODES:
            return None, None, url
        return parts[1], "/" + parts[2], url

    def do_GET(self):
        mode, path, url = self.mode()
        if path != "/authorize":
            return self.send_json(404, {"error": "not_found"})
        query = dict(urllib.parse.parse_qsl(url.query))
        target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": secrets.token_urlsafe(24), "state": query["state"]})
        self.send_response(302)
        self.send_header("Location", target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        mode, path, _ = self.mode()
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if path != "/token":
            return self.send_json(404, {"error": "not_found"})
        if mode == "client":
            return self.send_json(401, {"error": "invalid_client", "error_description": "client authentication failed"},
                                  [("WWW-Authenticate", 'Basic realm="pages"')])
        if mode == "slow":
            time.sleep(8)
        self.send_json(200, {"access_token": "AT-pages-" + mode, "token_type": "Bearer", "expires_in": 300})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=280)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_port, flush=True)
    threading.Timer(args.timeout, server.shutdown).start()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
