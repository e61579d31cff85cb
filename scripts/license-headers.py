#!/usr/bin/env python3
"""The license header every Swift source file of the project starts with, as Swift's own
packages write it (swift-http-types' `HTTPField.swift`): the project, the copyright, the
license and its SPDX identifier.

    python3 scripts/license-headers.py          check: lists the files without it, exits 1 if any
    python3 scripts/license-headers.py --fix    add it where it is missing

Files: every `.swift` file under Sources, Tests, Fuzz and Benchmarks, and Package.swift
(where the header follows the `// swift-tools-version` line, which must stay first).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = """//===----------------------------------------------------------------------===//
//
// This source file is part of the CallbackRouter open source project
//
// Copyright (c) 2026 the CallbackRouter project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
"""
SPDX = "// SPDX-License-Identifier: Apache-2.0"


def files():
    for top in ("Sources", "Tests", "Fuzz", "Benchmarks"):
        for directory, subdirectories, names in os.walk(os.path.join(ROOT, top)):
            subdirectories[:] = [d for d in subdirectories if not d.startswith(".") and d not in ("corpus", "artifacts")]
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)
    for manifest in ("Package.swift", os.path.join("Fuzz", "Package.swift")):
        if os.path.exists(os.path.join(ROOT, manifest)):
            yield os.path.join(ROOT, manifest)


def main():
    fix = "--fix" in sys.argv
    missing = []
    for path in sorted(set(files())):
        text = open(path, encoding="utf-8").read()
        if SPDX in text.split("\n//===----------------------------------------------------------------------===//\n\n")[0][:2000]:
            continue
        missing.append(os.path.relpath(path, ROOT))
        if not fix:
            continue
        if os.path.basename(path) == "Package.swift" and text.startswith("// swift-tools-version"):
            first, _, rest = text.partition("\n")
            text = first + "\n" + HEADER + "\n" + rest.lstrip("\n")
        else:
            text = HEADER + "\n" + text.lstrip("\n")
        open(path, "w", encoding="utf-8").write(text)
    if fix:
        print(f"license-headers: added to {len(missing)} files")
        return 0
    for path in missing:
        print(f"{path}: no license header (python3 scripts/license-headers.py --fix)")
    if missing:
        return 1
    print("license-headers: every Swift file has the header")
    return 0


if __name__ == "__main__":
    sys.exit(main())
