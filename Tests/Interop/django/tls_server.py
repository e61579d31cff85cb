"""Serves the interop suite's django-oauth-toolkit over TLS (https on 127.0.0.1 only).

    INTEROP_ISSUER=https://127.0.0.1:PORT/o tls_server.py PORT CERT KEY

The same settings, database and signing key as the http server the suite starts
(interop_settings.py); the issuer is https, so an app that accepts only https issuers (the
README's first sample: SignIn without allowingLoopbackHTTP) signs in here as it would at a
real provider. The certificate is issued by a CA the suite makes for this run. Every request
is logged on stderr as runserver logs it ("POST /o/token/ HTTP/1.1" 200 …).
"""
import os
import ssl
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import django
from django.core.wsgi import get_wsgi_application


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Handler(WSGIRequestHandler):
    def get_environ(self):
        environ = super().get_environ()
        environ["HTTPS"] = "on"  # wsgi.url_scheme becomes https: Django sees a secure request
        return environ


def main():
    port, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    django.setup()
    server = make_server("127.0.0.1", port, get_wsgi_application(), server_class=Server, handler_class=Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"serving https://127.0.0.1:{port}/", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
