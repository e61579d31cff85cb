#!/usr/bin/env python3
"""A small local provider for the held-page scenarios of pages_check.py.

    pages_op.py        (prints its port as the first line on stdout, flushed)

Binds 127.0.0.1 only, on a port the system picks. Paths start with a mode:

  GET  /MODE/authorize?redirect_uri=…&state=…   302 to redirect_uri?code=…&state=… (the request's state)
  POST /MODE/token                               good: 200 with tokens (no ID token);
                                                 client: 401 invalid_client (a confidential client
                                                 without its secret); slow: tokens after 8 seconds,
                                                 longer than login holds the browser's page.

Exits after --timeout seconds (tokens_op.py's main). Nothing leaves the machine.
"""
import secrets
import sys
import time
import urllib.parse

import tokens_op  # its quiet handler and send_json (the token step suite's provider)

# tokens_op's split() reads the mode from the path's first segment, among its MODES.
tokens_op.MODES.update({"good", "client", "slow"})


class Handler(tokens_op.Handler):
    def do_GET(self):
        mode, path, url = self.split()
        if path != "/authorize":
            return self.send_json(404, {"error": "not_found"})
        query = dict(urllib.parse.parse_qsl(url.query))
        target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": secrets.token_urlsafe(24), "state": query["state"]})
        self.send_response(302)
        self.send_header("Location", target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        mode, path, _ = self.split()
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if path != "/token":
            return self.send_json(404, {"error": "not_found"})
        if mode == "client":
            return self.send_json(401, {"error": "invalid_client", "error_description": "client authentication failed"},
                                  [("WWW-Authenticate", 'Basic realm="pages"')])
        if mode == "slow":
            time.sleep(8)
        self.send_json(200, {"access_token": "AT-pages-" + mode, "token_type": "Bearer", "expires_in": 300})


if __name__ == "__main__":
    # tokens_op's main (the port line, --timeout) serving this handler.
    tokens_op.Handler = Handler
    sys.exit(tokens_op.main())
