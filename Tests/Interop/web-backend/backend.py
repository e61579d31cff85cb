#!/usr/bin/python3
"""One instance of the runnable web-backend example (docs/server.md): the HTTP side, the
sessions and the database of a backend whose login logic is the Swift worker
`web-backend-example` (Examples/web-backend), one worker per instance, driven over its pipes.

    backend.py --port P --public-port Q --database DB --keys FILE --worker BIN --issuer I
               --authorize URL --token URL --client-id ID --scope S [--keep-records]

GET /login      a new session (cookie `sid`, HttpOnly, SameSite=Lax), its attempt's sealed
                record stored in the database under the session id; 302 to the provider.
GET /callback   the record of THIS request's session is restored into a fresh router, which
                handles the callback; the code is redeemed at the token endpoint. 200 with
                {"outcome":"signed_in",…}, else 403 with {"outcome":"refused","reason":…}.

Every instance shares DB (sqlite): pending_logins(session_id PRIMARY KEY, record) and
consumed_states(digest PRIMARY KEY, keep_until): the store of consumed states is one
`INSERT OR IGNORE` (a unique insert). With --keep-records a record is not deleted when its
callback is handled (as when a delete failed or a record was read twice): exactly once then
rests on the store alone. The keys (sealing, digest: base64url, one per line) are read from
FILE and handed to the worker over its stdin, never argv or the environment.
"""
import argparse
import http.server
import json
import secrets
import sqlite3
import subprocess
import sys
import urllib.parse
import urllib.request


def parse_args():
    parser = argparse.ArgumentParser()
    for name in ("port", "public-port"):
        parser.add_argument("--" + name, type=int, required=True)
    for name in ("database", "keys", "worker", "issuer", "authorize", "token", "client-id", "scope"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--keep-records", action="store_true")
    return parser.parse_args()


ARGS = parse_args()


def database():
    db = sqlite3.connect(ARGS.database, timeout=30, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS pending_logins (session_id TEXT PRIMARY KEY, record TEXT NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS consumed_states (digest TEXT PRIMARY KEY, keep_until INTEGER NOT NULL)")
    return db


DB = database()
# Line-buffered stdout for the worker (its `print` goes through C stdio).
WORKER = subprocess.Popen(["stdbuf", "-oL", ARGS.worker], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
with open(ARGS.keys) as f:
    sealing_key, digest_key = f.read().split()
WORKER.stdin.write(f"keys\t{sealing_key}\t{digest_key}\n")


def ask(*fields):
    """Sends one command; answers the worker's store inserts; returns its final reply's fields."""
    WORKER.stdin.write("\t".join(fields) + "\n")
    while True:
        line = WORKER.stdout.readline()
        if not line:
            return ["refused", "worker_gone", "the worker exited"]
        reply = line.rstrip("\n").split("\t")
        if reply[0] != "consume":
            return reply
        try:
            inserted = DB.execute("INSERT OR IGNORE INTO consumed_states (digest, keep_until) VALUES (?, ?)",
                                  (reply[1], int(reply[2]))).rowcount == 1
            answer = "inserted" if inserted else "present"
        except sqlite3.Error:
            answer = "failed"
        WORKER.stdin.write(answer + "\n")


def redeem(code, verifier, redirect_uri):
    body = urllib.parse.urlencode({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                                   "client_id": ARGS.client_id, "code_verifier": verifier}).encode()
    try:
        with urllib.request.urlopen(ARGS.token, data=body, timeout=20) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, {}


class Handler(http.server.BaseHTTPRequestHandler):
    def send_json(self, status, value, headers=()):
        body = json.dumps(value).encode()
        self.send_response(status)
        for name, text in headers:
            self.send_header(name, text)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def session(self):
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == "sid" and value:
                return value
        return None

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/login":
            sid = secrets.token_urlsafe(32)
            redirect = f"http://127.0.0.1:{ARGS.public_port}/callback"
            reply = ask("begin", ARGS.issuer, ARGS.authorize, ARGS.client_id, ARGS.scope, redirect)
            if reply[0] != "begun":
                return self.send_json(500, {"outcome": "refused", "reason": reply[1], "detail": reply[2]})
            DB.execute("INSERT INTO pending_logins (session_id, record) VALUES (?, ?)", (sid, reply[2]))
            self.send_response(302)
            self.send_header("Location", reply[1])
            self.send_header("Set-Cookie", f"sid={sid}; HttpOnly; SameSite=Lax; Path=/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/callback":
            sid = self.session()
            row = DB.execute("SELECT record FROM pending_logins WHERE session_id = ?", (sid,)).fetchone() if sid else None
            if row is None:
                return self.send_json(403, {"outcome": "refused", "reason": "no_login_in_this_session"})
            url = f"http://127.0.0.1:{ARGS.port}{self.path}"
            reply = ask("finish", ARGS.issuer, row[0], url)
            if reply[0] != "delivered":
                return self.send_json(403, {"outcome": "refused", "reason": reply[1], "detail": reply[2]})
            if not ARGS.keep_records:
                DB.execute("DELETE FROM pending_logins WHERE session_id = ?", (sid,))
            status, tokens = redeem(reply[1], reply[2], reply[3])
            if status != 200:
                return self.send_json(502, {"outcome": "token_refused", "status": status})
            self.send_json(200, {"outcome": "signed_in", "instance": ARGS.port,
                                 "id_token": bool(tokens.get("id_token")), "token_type": tokens.get("token_type")})
        else:
            self.send_json(404, {"outcome": "not_found"})

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", ARGS.port), Handler).serve_forever()
