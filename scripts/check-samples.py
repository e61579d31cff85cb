#!/usr/bin/env python3
"""Compiles every Swift sample of README.md and docs/*.md, extracted from the Markdown itself,
so that a page and what it shows cannot drift apart (issue 29).

    python3 scripts/check-samples.py [--list] [--keep]

Each page becomes one executable of a generated package (.build-samples/, which depends on this
repository by path): its `import` lines hoisted to the top, then the page's hidden prelude,
then each ```swift block in a `do { … }` scope of its own, in page order. A page says what its
samples assume in HTML comments, which Markdown renders as nothing:

- `<!-- sample-prelude` … `-->`: Swift declarations every sample of the page may use (the
  values a fragment takes from the app around it: `delivered`, a `keychain`, `open(_:)`).
- `<!-- sample: continue -->` right before a block: it continues the previous block's scope
  (a page that builds one flow step by step).
- `<!-- sample: run -->` right before a block: the page's program is also run, and must exit 0.
- `<!-- sample: skip REASON -->` right before a block: not compiled (a manifest line, a
  shell transcript); the reason is required and printed.

Apple-only frameworks (`AuthenticationServices`, `SwiftUI`) have no Linux SDK: the generated
package gives them small stand-ins (Tests/Samples/StandIns/) declaring the types the samples
use with Apple's signatures, so those samples are type-checked here; they were never compiled
against Apple's own SDKs (docs/platforms.md).

Exit status: 0 when every sample compiles (and every `run` page exits 0); 1 otherwise, after
printing the compiler's errors mapped back to the page and line.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build-samples")
STAND_INS = os.path.join(ROOT, "Tests", "Samples", "StandIns")
PAGES = ["README.md"] + sorted(
    os.path.join("docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
PRODUCTS = ["CallbackParsing", "CallbackRouter", "CallbackTokens", "CallbackRouterFoundation", "CallbackLoopback", "CallbackDesktop"]
MARKER = re.compile(r"^<!--\s*sample:\s*(continue|run|skip)\b\s*(.*?)\s*-->\s*$")


class Block:
    def __init__(self, page, line, text, mode, reason):
        self.page, self.line, self.text, self.mode, self.reason = page, line, text, mode, reason


def read_page(page):
    """The page's prelude (text, first line) and its Swift blocks."""
    lines = open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n")
    prelude, prelude_line, blocks = [], None, []
    i, pending = 0, None
    while i < len(lines):
        line = lines[i]
        if line.strip() == "<!-- sample-prelude":
            prelude_line = i + 2
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                prelude.append(lines[i])
                i += 1
            if i == len(lines):
                sys.exit(f"{page}:{prelude_line - 1}: sample-prelude is never closed with -->")
            i += 1
            continue
        marker = MARKER.match(line.strip())
        if marker:
            pending = (marker.group(1), marker.group(2))
            if pending[0] == "skip" and not pending[1]:
                sys.exit(f"{page}:{i + 1}: '<!-- sample: skip -->' needs a reason")
            i += 1
            continue
        if line.startswith("```swift"):
            start = i + 2
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            mode, reason = pending if pending else ("", "")
            blocks.append(Block(page, start, body, mode, reason))
            pending = None
            i += 1
            continue
        if line.strip():
            pending = None  # a marker applies to the block right after it only
        i += 1
    return prelude, prelude_line, blocks


def target_name(page):
    return "sample_" + re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(os.path.basename(page))[0])


def generate(page, prelude, prelude_line, blocks):
    """main.swift for the page, and a map from generated line to (page, page line)."""
    imports, body, origin = [], [], []

    def emit(text, where):
        body.append(text)
        origin.append(where)

    for line in prelude:
        if line.startswith("import "):
            imports.append(line.strip())
    if prelude:
        emit(f"// prelude of {page}", None)
        for offset, line in enumerate(prelude):
            if not line.startswith("import "):
                emit(line, (page, prelude_line + offset))
    open_scope = False
    for block in blocks:
        if block.mode == "skip":
            continue
        if block.mode != "continue" or not open_scope:
            if open_scope:
                emit("}", None)
            emit(f"do {{  // {page}:{block.line}", (page, block.line))
            open_scope = True
        for offset, line in enumerate(block.text):
            if line.startswith("import "):
                imports.append(line.strip())
                emit("", None)
            else:
                emit("    " + line, (page, block.line + offset))
    if open_scope:
        emit("}", None)
    header = [f"// Generated by scripts/check-samples.py from {page}: do not edit."]
    header += sorted(set(imports))
    origin = [None] * len(header) + origin
    return "\n".join(header + body) + "\n", origin


def manifest(targets, stand_ins, dependency):
    identity = os.path.basename(dependency).lower()
    products = ", ".join(f'.product(name: "{p}", package: "{identity}")' for p in PRODUCTS)
    lines = [
        "// swift-tools-version:6.0",
        "// Generated by scripts/check-samples.py: every Swift sample of README.md and docs/.",
        "import PackageDescription",
        "let package = Package(",
        '    name: "Samples",',
        "    platforms: [.iOS(.v16), .macOS(.v13)],",
        f'    dependencies: [.package(path: "{dependency}")],',
        "    targets: [",
    ]
    for module in stand_ins:
        lines.append(f'        .target(name: "{module}", path: "StandIns/{module}"),')
    deps = products + "".join(f', "{m}"' for m in stand_ins)
    for name in targets:
        lines.append(f'        .executableTarget(name: "{name}", dependencies: [{deps}], path: "Sources/{name}"),')
    lines += ["    ],", "    swiftLanguageModes: [.v6]", ")"]
    return "\n".join(lines) + "\n"


def main():
    listing = "--list" in sys.argv
    pages, run, skipped, count = [], [], [], 0
    for page in PAGES:
        prelude, prelude_line, blocks = read_page(page)
        if not blocks:
            continue
        for block in blocks:
            count += 1
            if block.mode == "skip":
                skipped.append(f"{block.page}:{block.line}: {block.reason}")
            if listing:
                print(f"{block.page}:{block.line} {block.mode or 'compile'}")
        pages.append((page, prelude, prelude_line, blocks))
        if any(b.mode == "run" for b in blocks):
            run.append(target_name(page))
    if listing:
        return 0
    if os.path.isdir(os.path.join(OUT, "Sources")):
        shutil.rmtree(os.path.join(OUT, "Sources"))
    os.makedirs(OUT, exist_ok=True)
    stand_ins = sorted(os.listdir(STAND_INS)) if sys.platform.startswith("linux") else []
    if os.path.isdir(os.path.join(OUT, "StandIns")):
        shutil.rmtree(os.path.join(OUT, "StandIns"))
    if stand_ins:
        shutil.copytree(STAND_INS, os.path.join(OUT, "StandIns"))
    origins = {}
    for page, prelude, prelude_line, blocks in pages:
        name = target_name(page)
        source, origin = generate(page, prelude, prelude_line, blocks)
        os.makedirs(os.path.join(OUT, "Sources", name))
        with open(os.path.join(OUT, "Sources", name, "main.swift"), "w", encoding="utf-8") as out:
            out.write(source)
        origins[name] = origin
    with open(os.path.join(OUT, "Package.swift"), "w", encoding="utf-8") as out:
        out.write(manifest([target_name(p[0]) for p in pages], stand_ins, ROOT))
    compiled = count - len(skipped)
    print(f"check-samples: {count} Swift samples on {len(pages)} pages; {compiled} compiled, {len(skipped)} skipped")
    for line in skipped:
        print(f"  skipped {line}")
    # One target at a time, so that every page's errors are reported, not only the first's.
    pattern = re.compile(r"^(/\S*/Sources/(sample_\w+)/main\.swift):(\d+):(\d+): (error|warning): (.*)$")
    failed = []
    for page, _, _, _ in pages:
        name = target_name(page)
        build = subprocess.run(["swift", "build", "--package-path", OUT, "--target", name], capture_output=True, text=True)
        if build.returncode == 0:
            continue
        failed.append(page)
        shown, seen = 0, set()
        for line in (build.stdout + build.stderr).split("\n"):
            match = pattern.match(line)
            if not match or match.group(5) != "error" or line in seen:
                continue
            seen.add(line)
            origin = origins[match.group(2)]
            number = int(match.group(3)) - 1
            where = origin[number] if number < len(origin) else None
            place = f"{where[0]}:{where[1]}" if where else f".build-samples/Sources/{match.group(2)}/main.swift:{number + 1}"
            print(f"{place}: error: {match.group(6)}")
            shown += 1
        if not shown:
            print(build.stdout[-6000:] + build.stderr[-6000:])
    if failed:
        print(f"check-samples: samples that do not compile on {len(failed)} pages: {', '.join(failed)}")
        print("  (generated sources in .build-samples/Sources)")
        return 1
    if run:
        subprocess.run(["swift", "build", "--package-path", OUT], check=True, capture_output=True)
    for name in run:
        binary = subprocess.run(["swift", "run", "--package-path", OUT, "--skip-build", name],
                                capture_output=True, text=True, timeout=120)
        if binary.returncode != 0:
            print(binary.stdout[-3000:] + binary.stderr[-3000:])
            print(f"check-samples: {name} exited {binary.returncode}")
            return 1
        print(f"check-samples: ran {name}")
    print("check-samples: every sample compiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
