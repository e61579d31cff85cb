#!/usr/bin/env python3
"""Every test a doc names exists (docs/security.md promises that each guarantee names the
test that proves it; a test renamed or moved must not leave the promise pointing nowhere).

Reads the docs given (default: every docs/*.md and README.md) and checks, for each backticked name:
- `SuiteTests` : a type of that name is declared under Tests/;
- `SuiteTests.testName` : that type exists, and a function `testName` is declared in a file
  that declares the type or extends it;
- `…testName` (the same suite as the name before it): a function of that name under Tests/;
- `Tests/…` or `Fuzz/…` paths: the file or folder exists.
Exits 1 and lists what is missing.
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
docs = sys.argv[1:] or sorted(
    ["README.md"] + ["docs/" + n for n in os.listdir(os.path.join(root, "docs")) if n.endswith(".md")])

sources = {}
for base in ("Tests", "Fuzz/Sources"):
    for folder, _, files in os.walk(os.path.join(root, base)):
        for name in files:
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    sources[path] = f.read()

def declares_type(text, name):
    return re.search(r"\b(struct|class|enum|actor|extension)\s+%s\b" % re.escape(name), text) is not None

def declares_func(text, name):
    return re.search(r"\bfunc\s+`?%s`?\s*[(<]" % re.escape(name), text) is not None

missing = []
checked = 0
for doc in docs:
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        text = f.read()
    for token in re.findall(r"`([^`\n]+)`", text):
        token = token.strip()
        where = None
        if re.fullmatch(r"[A-Z]\w*Tests", token):
            checked += 1
            if not any(declares_type(t, token) for t in sources.values()):
                where = "no type %s under Tests/" % token
        elif re.fullmatch(r"[A-Z]\w*Tests\.\w+(\(\))?", token):
            checked += 1
            suite, test = token.rstrip("()").split(".")
            files = [t for t in sources.values() if declares_type(t, suite)]
            if not files:
                where = "no type %s under Tests/" % suite
            elif not any(declares_func(t, test) for t in files):
                where = "no test %s in %s" % (test, suite)
        elif re.fullmatch(r"(…|\.\.\.)\w+(\(\))?", token):
            checked += 1
            test = token.lstrip("….").rstrip("()")
            if not any(declares_func(t, test) for t in sources.values()):
                where = "no test %s under Tests/" % test
        elif re.fullmatch(r"(Tests|Fuzz)/[\w./-]+", token) and not re.search(r"\b[A-Z]{3,}\b", token):
            # (a path with a placeholder, Fuzz/seeds/TARGET/, names no one file)
            checked += 1
            if not os.path.exists(os.path.join(root, token)):
                where = "no file %s" % token
        if where:
            missing.append("%s: `%s`: %s" % (doc, token, where))

for line in dict.fromkeys(missing):
    print(line, file=sys.stderr)
print("check-doc-tests: %d names checked in %s, %d missing" % (checked, ", ".join(docs), len(missing)))
sys.exit(1 if missing else 0)
