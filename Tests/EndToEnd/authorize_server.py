#!/usr/bin/env python3
"""A toy OAuth 2.0 authorization endpoint for the loopback end-to-end test.

Binds 127.0.0.1 only, on a port the system picks, and prints that port as its first
line on stdout (flushed). It answers

  GET /authorize?response_type=code&client_id=…&redirect_uri=…&state=…
      with 302 to redirect_uri?code=CODE&state=STATE (the request's state, or the
      --state-override), or redirect_uri?error=…&state=… with --error; the redirect_uri
      must equal --redirect-uri exactly (an authorization server never redirects to an
      unregistered URI), else 400;
      With --form-post (OIDC Form Post Response Mode) it answers 200 with a page whose form
      POSTs code and state to redirect_uri and submits itself on load.
      --redirect-uri-regex accepts any redirect_uri matching it instead (for `login`,
      whose port is chosen at bind time).
  GET /logout?client_id=…&post_logout_redirect_uri=…&state=…
      (OpenID Connect RP-Initiated Logout 1.0) with 302 to
      post_logout_redirect_uri?state=STATE (no parameter without a state); the URI must
      match as redirect_uri does, else 400;
  GET /subresource-attack?target=URL
      with a page that loads URL as an <img> (a cross-site subresource request);

and exits by itself after one redirect (after a short grace period so the response is
flushed), or after --timeout seconds (exit 3). Nothing leaves the machine.
"""

import argparse
import html
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redirect-uri", help="the one registered redirect URI")
    parser.add_argument("--redirect-uri-regex", help="accept any redirect URI matching this (fullmatch)")
    parser.add_argument("--form-post", action="store_true", help="answer with a self-submitting form (response_mode=form_post)")
    parser.add_argument("--code", default="e2e-code-0123456789")
    parser.add_argument("--state-override", help="send this state instead of the request's")
    parser.add_argument("--error", help="answer with this error instead of a code")
    parser.add_argument("--timeout", type=float, default=60.0)
    options = parser.parse_args()
    if (options.redirect_uri is None) == (options.redirect_uri_regex is None):
        parser.error("give exactly one of --redirect-uri and --redirect-uri-regex")

    done = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        # A preconnected socket that never speaks must not hold a thread forever.
        timeout = 10
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            sys.stderr.write("authorize_server: " + (fmt % args) + "\n")

        def send_text(self, status, text, content_type="text/plain; charset=utf-8"):
            body = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query, keep_blank_values=True)

            def one(name):
                values = query.get(name, [])
                return values[0] if len(values) == 1 else None

            if url.path == "/authorize":
                if one("response_type") != "code" or not one("client_id"):
                    return self.send_text(400, "invalid_request")
                redirect_uri = one("redirect_uri") or ""
                if options.redirect_uri_regex is not None:
                    if not re.fullmatch(options.redirect_uri_regex, redirect_uri):
                        return self.send_text(400, "redirect_uri does not match the registered pattern")
                elif redirect_uri != options.redirect_uri:
                    return self.send_text(400, "redirect_uri is not the registered one")
                state = options.state_override if options.state_override is not None else one("state")
                if options.error:
                    params = {"error": options.error, "error_description": "The user <b>denied</b> access"}
                else:
                    params = {"code": options.code}
                if state is not None:
                    params["state"] = state
                if options.form_post:
                    fields = "".join(f'<input type="hidden" name="{html.escape(k, quote=True)}" value="{html.escape(v, quote=True)}">'
                                     for k, v in params.items())
                    page = ('<!DOCTYPE html><html><head><title>form_post</title></head>'
                            '<body onload="document.forms[0].submit()">'
                            f'<form method="post" action="{html.escape(redirect_uri, quote=True)}">{fields}</form></body></html>')
                    self.send_text(200, page, "text/html; charset=utf-8")
                    done.set()
                    return
                location = redirect_uri + "?" + urllib.parse.urlencode(params)
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                done.set()
                return
            if url.path == "/logout":
                target = one("post_logout_redirect_uri") or ""
                if options.redirect_uri_regex is not None:
                    if not re.fullmatch(options.redirect_uri_regex, target):
                        return self.send_text(400, "post_logout_redirect_uri does not match the registered pattern")
                elif target != options.redirect_uri:
                    return self.send_text(400, "post_logout_redirect_uri is not the registered one")
                state = options.state_override if options.state_override is not None else one("state")
                location = target + ("?" + urllib.parse.urlencode({"state": state}) if state is not None else "")
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                done.set()
                return
            if url.path == "/subresource-attack":
                target = one("target") or ""
                page = ("<!DOCTYPE html><html><head><title>attack</title></head><body>"
                        f'<img src="{html.escape(target, quote=True)}" alt="x"></body></html>')
                return self.send_text(200, page, "text/html; charset=utf-8")
            return self.send_text(404, "not found")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    redirected = done.wait(options.timeout)
    if redirected:
        time.sleep(0.5)  # let the 302 reach the browser before the socket goes away
    server.shutdown()
    server.server_close()
    return 0 if redirected else 3


if __name__ == "__main__":
    sys.exit(main())
