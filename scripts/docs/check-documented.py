#!/usr/bin/env python3
"""Fails when a public symbol of a library module has no useful doc comment.

Usage: check-documented.py SYMBOL_GRAPH_DIR MODULE...

Reads MODULE.symbols.json (and MODULE@Other.symbols.json: extensions of other modules'
types) emitted by the compiler with -emit-symbol-graph at public access. A symbol counts
as documented when its own doc comment (not one inherited from another module's protocol) has at least one sentence that is more than its
name (a comment "The name." on `name` is not documentation). Symbols the compiler
synthesizes (no source location in this repository) are not ours to document.
"""
import glob
import json
import os
import re
import sys


def words(text):
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def says_more_than_name(comment, name):
    name_words = set(words(re.sub(r"([a-z])([A-Z])", r"\1 \2", name)))
    for sentence in re.split(r"(?<=[.!?:])\s+|\n\s*\n", comment):
        extra = [w for w in words(sentence) if w not in name_words]
        if len(extra) >= 2:
            return True
    return False


def main():
    directory, modules = sys.argv[1], sys.argv[2:]
    root = os.getcwd()
    missing, checked = [], 0
    for module in modules:
        files = glob.glob(os.path.join(directory, module + ".symbols.json"))
        files += glob.glob(os.path.join(directory, module + "@*.symbols.json"))
        if not files:
            print(f"no symbol graph for {module} in {directory}", file=sys.stderr)
            return 2
        for path in files:
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                uri = symbol.get("location", {}).get("uri", "")
                if not uri.startswith("file://" + root + "/Sources/"):
                    continue
                checked += 1
                doc = symbol.get("docComment", {})
                # A comment inherited from a protocol of another module (Swift's
                # `description`, `hash(into:)`) says nothing about this type: ours only.
                lines = [] if doc.get("module") not in (None, module) else doc.get("lines", [])
                comment = "\n".join(line["text"] for line in lines)
                name = symbol["names"]["title"]
                if not comment.strip() or not says_more_than_name(comment, name):
                    where = uri[len("file://" + root + "/"):]
                    line = symbol["location"]["position"]["line"] + 1
                    path_name = ".".join(symbol["pathComponents"])
                    missing.append(f"{where}:{line}: {symbol['kind']['displayName'].lower()} {module}.{path_name}")
    if missing:
        print(f"{len(missing)} of {checked} public symbols have no doc comment that says more than their name:")
        for entry in sorted(missing):
            print("  " + entry)
        return 1
    print(f"all {checked} public symbols of {', '.join(modules)} are documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
