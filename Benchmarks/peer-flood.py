#!/usr/bin/env python3
"""The other user of Benchmarks/peer-flood.sh (run as uid 65534).

    peer-flood.py hold CONNECTIONS
    peer-flood.py flood RATE SECONDS

`hold` holds CONNECTIONS loopback TCP connections to a listener of its own (2 rows each in
/proc/net/tcp: the table another user decides the size of; 2 descriptors each), prints
"ready ROWS" once they are established and keeps them until its input ends.
`flood` reads receiver ports from stdin, one a line: for each, it opens RATE connections a
second to 127.0.0.1:PORT (each closed once answered or after 1 s) for SECONDS seconds and
prints "flooded PORT N" (N connections opened). Both stop at end of input, and by
themselves after 120 s whatever happens. Loopback only.
"""
import selectors
import signal
import socket
import sys
import time

signal.alarm(120)

if sys.argv[1] == "hold":
    count = int(sys.argv[2])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4096)
    held = []
    for _ in range(count):
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
        held += [client, server]
    print("ready", 2 * count, flush=True)
    sys.stdin.read()
    sys.exit(0)

rate, seconds = float(sys.argv[2]), float(sys.argv[3])
for line in sys.stdin:
    port = int(line)
    sel = selectors.DefaultSelector()
    opened, start = 0, time.monotonic()
    deadline = start + seconds
    while time.monotonic() < deadline:
        # Open as many connections as the rate allows by now.
        due = int((time.monotonic() - start) * rate)
        while opened < due:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            try:
                s.connect_ex(("127.0.0.1", port))
                sel.register(s, selectors.EVENT_READ, time.monotonic() + 1)
            except OSError:
                s.close()
            opened += 1
        for key, _ in sel.select(timeout=0.002):
            sel.unregister(key.fileobj)
            key.fileobj.close()
        now = time.monotonic()
        for key in list(sel.get_map().values()):
            if key.data < now:
                sel.unregister(key.fileobj)
                key.fileobj.close()
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    sel.close()
    print("flooded", port, opened, flush=True)
