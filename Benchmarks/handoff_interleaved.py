#!/usr/bin/env python3
"""Interleaved timing of the helpers for Benchmarks/handoff.sh.

hyperfine measures one command's runs back to back, so on a machine shared with other
builds a command measured during a busy minute looks slower than one measured during a
quiet one. Here every round times each helper once (in a shuffled order) and /bin/true,
so all of them see the same load; the medians compare link modes fairly, the absolute
figures still move with the load.

Usage: handoff_interleaved.py RUNS PREPARE_DIR URL NAME=PATH...
PREPARE_DIR/prepare-NAME.sh starts a listener for NAME and returns once it waits.
Each measurement is posix_spawn + waitpid of the command, stdout and stderr to /dev/null.
"""
import os
import random
import statistics
import subprocess
import sys
import time


def timed(argv):
    actions = [(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    return elapsed / 1e6, os.waitstatus_to_exitcode(status)


def main():
    runs, prepare_dir, url = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    helpers = [arg.split("=", 1) for arg in sys.argv[4:]]
    samples = {}
    failures = {}

    def record(key, result):
        samples.setdefault(key, []).append(result[0])
        if result[1] != 0:
            failures[key] = failures.get(key, 0) + 1

    for _ in range(runs):
        order = helpers[:]
        random.shuffle(order)
        record(("true", "/bin/true"), timed(["/bin/true"]))
        for name, path in order:
            record(("start", name), timed([path, "--version"]))
            subprocess.run([os.path.join(prepare_dir, f"prepare-{name}.sh")], check=True)
            record(("handoff", name), timed([path, "open", url]))

    names = [name for name, _ in helpers]
    print("| median (ms), interleaved | `/bin/true` | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    print(f"| exec a no-op | {statistics.median(samples[('true', '/bin/true')]):.2f} |" + " |" * len(names))
    for key, label in (("start", "helper start-up (`--version`)"),
                       ("handoff", "`open` → waiting `listen` confirmed (**the hand-off**)")):
        cells = [f"{statistics.median(samples[(key, n)]):.2f}" for n in names]
        print(f"| {label} | | " + " | ".join(cells) + " |")
    if failures:
        print(f"\nnon-zero exits: {failures}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
