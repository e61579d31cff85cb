#!/usr/bin/env python3
"""Apple-platform availability check for the library products of a Swift package, on Linux.

The Linux compiler ignores `@available(macOS ...)`, so a library can use an API that does not
exist on the systems Package.swift promises and nothing fails until someone builds on a Mac.
This script asks the compiler instead of reading source text:

1. Package facts come from SwiftPM: `swift package dump-package` (declared platforms, library
   products, targets, their Swift settings) and `swift package describe --type json` (each
   target's resolved source files). The modules checked are every target of every library
   product and the targets those depend on.
2. Availability comes from the toolchain: `swift-symbolgraph-extract` for Swift, _Concurrency,
   Synchronization and _StringProcessing gives each public symbol (by USR) its `@available`
   per Apple platform; a member without its own inherits its parent's.
3. Uses come from the type checker: each module is type-checked with
   `swiftc -dump-ast -dump-ast-format json` (its dependencies compiled with `-emit-module`
   first), and every declaration reference (`decl_usr`), protocol conformance (`protocol`,
   conforming type) and type (every mangled type the checker assigned, demangled with
   `swift-demangle`) is a use, at the file:line of its nearest source range.
4. A use is an offence when, for some platform Package.swift declares, the symbol is
   unavailable, or introduced (or obsoleted) after the declared minimum, taking into account
   the `@available` attributes of enclosing declarations and `if #available` / `guard
   #available` conditions around the use.

Exit status: 0 when nothing offends (with a one-line summary), 1 when something does (one line
per offending use), 2 when the check itself cannot run (an error says why).
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Modules whose availability we know and check. The brief's "standard library, _Concurrency
# and Synchronization", plus _StringProcessing (Regex), which every Swift file imports implicitly.
CHECKED_MODULES = ["Swift", "_Concurrency", "Synchronization", "_StringProcessing"]

# SwiftPM platform names -> symbol-graph availability domains.
PLATFORM_DOMAINS = {
    "macos": "macOS",
    "ios": "iOS",
    "tvos": "tvOS",
    "watchos": "watchOS",
    "visionos": "visionOS",
    "maccatalyst": "macCatalyst",
    "driverkit": "DriverKit",
}
# Non-Apple platforms a manifest may name; they have no @available data to check.
NON_APPLE = {"linux", "windows", "android", "wasi", "openbsd", "freebsd", "custom"}

TYPE_SYMBOL_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol",
                     "swift.typealias", "swift.actor", "swift.associatedtype"}

QUALIFIED_NAME = re.compile(
    r"\b(Swift|_Concurrency|Synchronization|_StringProcessing)\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)")


class CheckError(Exception):
    pass


EXTENSION_LINE = re.compile(r"^extension ([A-Za-z_][\w.]*)(?:<[^>]*>)? : (.+?)(?: where .*)? \{\s*$")
AVAILABLE_PLATFORM = re.compile(r"\b(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst|DriverKit) (\d+(?:\.\d+){0,2})")


def strip_module(name):
    name = name.strip()
    for module in CHECKED_MODULES:
        if name.startswith(module + "."):
            return name[len(module) + 1:]
    return name


def split_protocols(text):
    return [p.strip() for p in text.split(",") if p.strip() and "<" not in p]


def parse_available_attribute(line):
    """`@available(macOS 14.0, iOS 17.0, *)` as symbol-graph availability entries."""
    m = re.match(r"@available\((.*)\)\s*$", line)
    if not m:
        return []
    body = m.group(1)
    entries = []
    if re.match(r"\s*(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst|DriverKit)\s*,\s*unavailable", body):
        return [{"domain": body.split(",")[0].strip(), "isUnconditionallyUnavailable": True}]
    for domain, version in AVAILABLE_PLATFORM.findall(body):
        v = version_tuple(version)
        entries.append({"domain": domain, "introduced": {"major": v[0], "minor": v[1], "patch": v[2]}})
    return entries


def run(cmd, cwd=None, stdin=None, stdout_path=None):
    if stdout_path:
        with open(stdout_path, "w") as out:
            proc = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.PIPE, text=True)
    else:
        proc = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CheckError("command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd[:6]) + " ...",
                                                         proc.stderr.strip()[-4000:]))
    return proc.stdout


def version_tuple(text):
    parts = [int(p) for p in str(text).split(".") if p != ""]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


def version_text(v):
    if v[2]:
        return "%d.%d.%d" % v
    return "%d.%d" % v[:2]


def sg_version(d):
    return (d.get("major", 0), d.get("minor", 0), d.get("patch", 0))


# ---------------------------------------------------------------------------------------------
# Package facts


def load_package(package_dir):
    dump = json.loads(run(["swift", "package", "dump-package"], cwd=package_dir))
    describe = json.loads(run(["swift", "package", "describe", "--type", "json"], cwd=package_dir))
    minimums = {}
    for p in dump.get("platforms") or []:
        name = p["platformName"].lower()
        if name in NON_APPLE:
            continue
        if name not in PLATFORM_DOMAINS:
            raise CheckError("Package.swift declares platform %r, which this check does not know" % name)
        minimums[PLATFORM_DOMAINS[name]] = version_tuple(p["version"])
    if not minimums:
        raise CheckError("Package.swift declares no Apple platform: nothing to check against")

    manifest_targets = {t["name"]: t for t in dump["targets"]}
    described = {t["name"]: t for t in describe["targets"]}
    roots = []
    for product in dump["products"]:
        if "library" in product["type"]:
            roots.extend(product["targets"])
    if not roots:
        raise CheckError("the package has no library product")

    # Every target of a library product, and every target those depend on.
    order, seen = [], set()

    def visit(name, chain):
        if name in seen:
            return
        if name in chain:
            raise CheckError("dependency cycle through %s" % name)
        t = described.get(name)
        if t is None:
            raise CheckError("target %s is not in `swift package describe`" % name)
        for dep in t.get("target_dependencies", []):
            visit(dep, chain + [name])
        if t.get("product_dependencies"):
            raise CheckError("target %s has product dependencies; the package must have none" % name)
        seen.add(name)
        order.append(name)

    for r in roots:
        visit(r, [])

    language_modes = dump.get("swiftLanguageModes") or dump.get("swiftLanguageVersions") or ["6"]
    language_mode = str(language_modes[0])
    modules = []
    for name in order:
        t = described[name]
        if t.get("module_type") != "SwiftTarget":
            raise CheckError("library target %s is a %s; this check reads Swift targets only"
                             % (name, t.get("module_type")))
        base = os.path.join(package_dir, t["path"])
        sources = [os.path.join(base, s) for s in t["sources"] if s.endswith(".swift")]
        modules.append({
            "name": name,
            "c99name": t["c99name"],
            "deps": list(t.get("target_dependencies", [])),
            "sources": sources,
            "flags": swift_flags(manifest_targets[name], language_mode),
        })
    return dump["name"], minimums, modules, roots


def setting_applies(setting):
    cond = setting.get("condition")
    if not cond:
        return True
    platforms = cond.get("platformNames")
    if platforms and "linux" not in [p.lower() for p in platforms]:
        return False
    config = cond.get("config")
    if isinstance(config, dict):
        config = config.get("config")
    if config and config != "debug":
        return False
    return True


def swift_flags(target, language_mode):
    flags = ["-swift-version", language_mode, "-D", "SWIFT_PACKAGE", "-D", "DEBUG"]
    for s in target.get("settings", []):
        if s.get("tool") != "swift" or not setting_applies(s):
            continue
        (kind, value), = s["kind"].items()
        arg = value.get("_0") if isinstance(value, dict) else value
        if kind == "enableUpcomingFeature":
            flags += ["-enable-upcoming-feature", arg]
        elif kind == "enableExperimentalFeature":
            flags += ["-enable-experimental-feature", arg]
        elif kind == "define":
            flags += ["-D", arg]
        elif kind == "unsafeFlags":
            flags += list(arg)
        elif kind == "swiftLanguageMode" or kind == "swiftLanguageVersion":
            flags += ["-swift-version", str(arg if not isinstance(arg, dict) else list(arg.values())[0])]
        elif kind == "strictMemorySafety":
            flags += ["-strict-memory-safety"]
        elif kind == "defaultIsolation":
            flags += ["-default-isolation", "MainActor" if "main" in json.dumps(arg).lower() else "nonisolated"]
        else:
            raise CheckError("target %s: Swift setting %r is not understood by this check; teach it"
                             % (target["name"], kind))
    return flags


# ---------------------------------------------------------------------------------------------
# Availability from the toolchain


class Availability:
    def __init__(self, workdir):
        outdir = os.path.join(workdir, "symbolgraphs")
        os.makedirs(outdir)
        triple = host_triple()
        for module in CHECKED_MODULES:
            run(["swift-symbolgraph-extract", "-module-name", module, "-target", triple,
                 "-output-dir", outdir, "-minimum-access-level", "public", "-skip-synthesized-members"])
        self.by_usr = {}
        self.types_by_path = {}
        self.by_path = {}
        self.requirements = set()
        self.fallbacks = set()
        self.parent = {}
        files = sorted(os.listdir(outdir))
        if not files:
            raise CheckError("swift-symbolgraph-extract wrote nothing")
        for f in files:
            graph = json.load(open(os.path.join(outdir, f)))
            for sym in graph["symbols"]:
                usr = sym["identifier"]["precise"]
                path = ".".join(sym["pathComponents"])
                signature = "".join(f.get("spelling", "") for f in sym.get("declarationFragments", []))
                self.by_usr[usr] = {"path": path, "kind": sym["kind"]["identifier"],
                                    "availability": sym.get("availability") or [], "signature": signature}
                self.by_path.setdefault(path, []).append(usr)
                if sym["kind"]["identifier"] in TYPE_SYMBOL_KINDS:
                    self.types_by_path.setdefault(path, usr)
            for rel in graph.get("relationships", []):
                if rel["kind"] in ("memberOf", "requirementOf", "optionalRequirementOf"):
                    self.parent.setdefault(rel["source"], rel["target"])
                if rel["kind"] in ("requirementOf", "optionalRequirementOf"):
                    self.requirements.add(rel["source"])
        self.conformances = {}
        self._read_conformances(triple)
        if "s:15Synchronization5MutexV" not in self.by_usr or "s:s8DurationV" not in self.by_usr:
            raise CheckError("the symbol graphs lack Mutex or Duration: the toolchain layout changed")

    def _read_conformances(self, triple):
        """Conformances declared by `@available(…) extension Swift.T : Swift.P` in the interfaces.

        Symbol graphs give a type's conformances without their availability, so these come
        from the toolchain's .swiftinterface files (the text the symbol graphs are made from).
        """
        info = json.loads(run(["swiftc", "-print-target-info", "-target", triple]))
        resource = info["paths"]["runtimeResourcePath"]
        module_triple = info["target"].get("moduleTriple", triple)
        platform_dir = "linux"
        found = 0
        for module in CHECKED_MODULES:
            path = os.path.join(resource, platform_dir, module + ".swiftmodule", module_triple + ".swiftinterface")
            if not os.path.exists(path):
                raise CheckError("no interface for %s at %s" % (module, path))
            attributes = []
            for line in open(path, encoding="utf-8"):
                if line.startswith("@"):
                    attributes.append(line.strip())
                    continue
                m = EXTENSION_LINE.match(line)
                if m:
                    availability = []
                    for a in attributes:
                        availability += parse_available_attribute(a)
                    if availability:
                        extended = strip_module(m.group(1))
                        for proto in split_protocols(m.group(2)):
                            proto = strip_module(proto)
                            for p in (["Encodable", "Decodable"] if proto == "Codable" else [proto]):
                                self.conformances.setdefault((extended, p), []).extend(availability)
                                found += 1
                attributes = []
        if found == 0:
            raise CheckError("found no conformance with availability in the interfaces: their format changed")

    def conformance_usr(self, type_name, proto_usr):
        """A pseudo-USR for a conformance with its own availability, or None."""
        proto = self.by_usr.get(proto_usr)
        if proto is None:
            return None
        key = (type_name, proto["path"])
        entries = self.conformances.get(key)
        if not entries:
            return None
        usr = "conformance:%s:%s" % key
        if usr not in self.by_usr:
            self.by_usr[usr] = {"path": "the conformance %s: %s" % key, "kind": "conformance",
                                "availability": entries, "signature": ""}
        return usr

    def entries(self, usr):
        """The availability entries by domain, a member inheriting what its own lack."""
        result = {}
        seen = set()
        while usr and usr not in seen:
            seen.add(usr)
            sym = self.by_usr.get(usr)
            if sym is None:
                break
            for e in sym["availability"]:
                result.setdefault(e.get("domain", "*"), e)
            usr = self.parent.get(usr)
        return result

    def fallback(self, usr, minimums, context):
        """The older declaration an Apple compiler picks instead of a too-new protocol requirement.

        The standard library adds protocol requirements (FixedWidthInteger.&* in Swift 6.0, for
        macOS 15) while keeping the protocol extension's method of the same signature that older
        systems have. On Linux every declaration is available, so the type checker names the new
        requirement; an Apple compiler whose deployment target predates it ranks the unavailable
        requirement lower and picks the extension's method. Only that exact shape is accepted:
        a requirement, and an available declaration with the same path and the same signature.
        """
        if usr not in self.requirements:
            return None
        sym = self.by_usr[usr]
        for other in self.by_path.get(sym["path"], []):
            if other == usr or other in self.requirements:
                continue
            o = self.by_usr[other]
            if o["signature"] == sym["signature"] and o["kind"] == sym["kind"] \
                    and self.problem(other, minimums, context, allow_fallback=False) is None:
                return other
        return None

    def problem(self, usr, minimums, context, allow_fallback=True):
        """A text saying why `usr` cannot be used on a declared platform, or None."""
        text = self._problem(usr, minimums, context)
        if text and allow_fallback and self.fallback(usr, minimums, context):
            self.fallbacks.add(usr)
            return None
        return text

    def _problem(self, usr, minimums, context):
        entries = self.entries(usr)
        star = entries.get("*")
        if star and star.get("isUnconditionallyUnavailable"):
            return "unavailable everywhere"
        unavailable, introduced, obsoleted = [], [], []
        for domain in sorted(minimums, key=domain_order):
            minimum = minimums[domain]
            if context.get(domain) == "unavailable":
                continue  # the enclosing declaration is itself unavailable there
            effective = max(minimum, context.get(domain, (0, 0, 0)))
            e = entries.get(domain)
            if e is None:
                continue
            if e.get("isUnconditionallyUnavailable"):
                unavailable.append(domain)
            elif "introduced" in e and sg_version(e["introduced"]) > effective:
                introduced.append("%s %s (minimum %s)" % (domain, version_text(sg_version(e["introduced"])),
                                                          version_text(effective)))
            elif "obsoleted" in e and sg_version(e["obsoleted"]) <= effective:
                obsoleted.append("%s %s (minimum %s)" % (domain, version_text(sg_version(e["obsoleted"])),
                                                         version_text(effective)))
        parts = []
        if introduced:
            parts.append("introduced in " + ", ".join(introduced))
        if obsoleted:
            parts.append("obsoleted in " + ", ".join(obsoleted))
        if unavailable:
            parts.append("unavailable on " + ", ".join(unavailable))
        return "; ".join(parts) or None


def domain_order(domain):
    order = ["macOS", "iOS", "tvOS", "watchOS", "visionOS", "macCatalyst", "DriverKit"]
    return order.index(domain) if domain in order else len(order)


_TRIPLE = []


def host_triple():
    if not _TRIPLE:
        _TRIPLE.append(json.loads(run(["swiftc", "-print-target-info"]))["target"]["triple"])
    return _TRIPLE[0]


# ---------------------------------------------------------------------------------------------
# Uses from the compiler


def compile_module(module, workdir, package_name, emit_module):
    common = ["-module-name", module["c99name"], "-package-name", package_name,
              "-parse-as-library", "-I", workdir] + module["flags"]
    jobs = []
    if emit_module:
        jobs.append((["swiftc", "-emit-module", "-emit-module-path",
                     os.path.join(workdir, module["c99name"] + ".swiftmodule"),
                     "-Xfrontend", "-experimental-skip-non-inlinable-function-bodies"] + common + module["sources"], None))
    ast_path = os.path.join(workdir, module["c99name"] + ".ast.json")
    # One frontend process with every file as a primary file type-checks the whole module and
    # writes one JSON document per source file to stdout.
    primaries = []
    for source in module["sources"]:
        primaries += ["-primary-file", source]
    jobs.append((["swiftc", "-frontend", "-dump-ast", "-dump-ast-format", "json", "-target", host_triple()]
                 + common + primaries, ast_path))
    return jobs, ast_path


def read_json_stream(path):
    text = open(path, encoding="utf-8").read()
    decoder = json.JSONDecoder()
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            break
        obj, i = decoder.raw_decode(text, i)
        yield obj


def merge_available(context, attrs):
    """Narrow an availability context with a declaration's @available attributes."""
    new = None
    for a in attrs:
        if a.get("_kind") != "available_attr":
            continue
        domain = a.get("domain")
        if not domain or domain == "*":
            continue
        if new is None:
            new = dict(context)
        if a.get("unavailable"):
            new[domain] = "unavailable"
        elif a.get("introduced") and new.get(domain) != "unavailable":
            new[domain] = max(new.get(domain, (0, 0, 0)), version_tuple(a["introduced"]))
    return new if new is not None else context


def merge_query(context, conditions):
    new = None
    for c in conditions or []:
        if c.get("_kind") != "#available":
            continue
        for q in c.get("queries", []):
            domain = q.get("domain")
            if domain and domain != "*" and q.get("version"):
                if new is None:
                    new = dict(context)
                if new.get(domain) != "unavailable":
                    new[domain] = max(new.get(domain, (0, 0, 0)), version_tuple(q["version"]))
    return new


class Uses:
    def __init__(self):
        # (file, offset, usr or type text, kind, context-key) -> context
        self.decl_uses = []   # (file, offset, usr, context)
        self.type_uses = []   # (file, offset, mangled, context)
        self.conformance_uses = []  # (file, offset, mangled conforming type, protocol usr, context)

    def collect(self, source_file):
        filename = source_file["filename"]

        def walk(node, offset, context):
            if isinstance(node, list):
                for item in node:
                    walk(item, offset, context)
                return
            if not isinstance(node, dict):
                return
            r = node.get("range")
            if isinstance(r, dict) and "start" in r:
                offset = r["start"]
            attrs = node.get("attrs")
            if attrs:
                context = merge_available(context, attrs)
            kind = node.get("_kind")
            usr = node.get("decl_usr")
            if usr:
                self.decl_uses.append((filename, offset, usr, context))
            if kind in ("normal_conformance", "builtin_conformance", "specialized_conformance",
                        "inherited_conformance", "self_conformance", "abstract_conformance"):
                if node.get("protocol"):
                    self.decl_uses.append((filename, offset, node["protocol"], context))
                    if isinstance(node.get("type"), str) and node["type"].startswith("$s"):
                        self.conformance_uses.append((filename, offset, node["type"], node["protocol"], context))
                ctx = node.get("context")
                if isinstance(ctx, dict) and ctx.get("decl"):
                    self.decl_uses.append((filename, offset, ctx["decl"], context))
            if kind == "inheritance":
                # The protocols a declaration of ours conforms to (explicitly or implied).
                for proto in node.get("protocols") or []:
                    if isinstance(proto, str) and proto.startswith("s:"):
                        self.decl_uses.append((filename, offset, proto, context))
            for key in ("type", "interface_type", "result", "type_usr", "replacement_type", "thrown_type",
                        "extended_type", "inherits", "underlying_type"):
                value = node.get(key)
                if isinstance(value, str) and value.startswith("$s"):
                    self.type_uses.append((filename, offset, value, context))
                elif isinstance(value, list):
                    for v in value:
                        if isinstance(v, str) and v.startswith("$s"):
                            self.type_uses.append((filename, offset, v, context))

            if kind == "if_stmt" or kind == "while_stmt":
                narrowed = merge_query(context, node.get("conditions"))
                for key, value in node.items():
                    if key in ("then_stmt", "body") and narrowed is not None:
                        walk(value, offset, narrowed)
                    elif key != "range":
                        walk(value, offset, context)
                return
            if kind == "brace_stmt":
                ctx = context
                for element in node.get("elements", []):
                    walk(element, offset, ctx)
                    if isinstance(element, dict) and element.get("_kind") == "guard_stmt":
                        narrowed = merge_query(ctx, element.get("conditions"))
                        if narrowed is not None:
                            ctx = narrowed
                for key, value in node.items():
                    if key not in ("elements", "range"):
                        walk(value, offset, context)
                return
            for key, value in node.items():
                if key != "range":
                    walk(value, offset, context)

        walk(source_file.get("items", []), 0, {})


def demangle(mangled_names):
    names = sorted(mangled_names)
    out = run(["swift-demangle"], stdin="\n".join(names) + "\n").split("\n")
    if len(out) < len(names):
        raise CheckError("swift-demangle returned %d lines for %d names" % (len(out), len(names)))
    return dict(zip(names, out))


def type_usrs(demangled, availability):
    usrs = set()
    for m in QUALIFIED_NAME.finditer(demangled):
        parts = m.group(2).split(".")
        # The longest known prefix: Swift.String.UTF8View, Swift.String, ...
        for end in range(len(parts), 0, -1):
            usr = availability.types_by_path.get(".".join(parts[:end]))
            if usr:
                usrs.add(usr)
                break
    return usrs


# ---------------------------------------------------------------------------------------------


class LineMap:
    def __init__(self):
        self.cache = {}

    def position(self, filename, offset):
        starts = self.cache.get(filename)
        if starts is None:
            data = open(filename, "rb").read()
            starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
            self.cache[filename] = starts
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - starts[lo] + 1


def context_key(context):
    return tuple(sorted(context.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=".", help="the package directory (default: .)")
    parser.add_argument("--verbose", action="store_true", help="list the modules, timings and unresolved symbols")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (ASTs, symbol graphs)")
    args = parser.parse_args()
    package_dir = os.path.abspath(args.package)
    started = time.monotonic()

    def note(text):
        if args.verbose:
            print("[%5.1fs] %s" % (time.monotonic() - started, text), file=sys.stderr)

    workdir = tempfile.mkdtemp(prefix="check-availability.")
    try:
        package_name, minimums, modules, roots = load_package(package_dir)
        note("library products' modules: %s; minimums: %s" % (
            ", ".join(m["name"] for m in modules),
            ", ".join("%s %s" % (d, version_text(v)) for d, v in sorted(minimums.items()))))

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            avail_future = pool.submit(Availability, workdir)
            # Compile in dependency order: a module's dump needs its dependencies' modules.
            needed_by_others = {d for m in modules for d in m["deps"]}
            done_modules = {}
            ast_paths = []
            pending = list(modules)
            emitted = {}
            while pending:
                ready = [m for m in pending if all(d in emitted for d in m["deps"])]
                if not ready:
                    raise CheckError("cannot order modules: %s" % [m["name"] for m in pending])
                futures = []
                for m in ready:
                    pending.remove(m)
                    jobs, ast_path = compile_module(m, workdir, package_name, m["name"] in needed_by_others)
                    ast_paths.append((m["name"], ast_path))
                    for job, out in jobs:
                        futures.append((m["name"], job, pool.submit(run, job, stdout_path=out)))
                for name, job, f in futures:
                    f.result()
                    if "-emit-module" in job:
                        note("emitted module %s" % name)
                    else:
                        note("dumped the typed AST of %s" % name)
                for m in ready:
                    emitted[m["name"]] = True
            availability = avail_future.result()
        note("symbol graphs: %d symbols" % len(availability.by_usr))

        uses = Uses()
        sources_of = {m["name"]: m["sources"] for m in modules}
        for name, path in ast_paths:
            dumped = []
            for source_file in read_json_stream(path):
                dumped.append(source_file["filename"])
                uses.collect(source_file)
            if sorted(dumped) != sorted(sources_of[name]):
                raise CheckError("the compiler dumped %d of the %d source files of %s"
                                 % (len(dumped), len(sources_of[name]), name))
        note("read the ASTs: %d declaration references, %d typed nodes" % (len(uses.decl_uses), len(uses.type_uses)))

        demangled = demangle({m for _, _, m, _ in uses.type_uses} | {m for _, _, m, _, _ in uses.conformance_uses})
        lines = LineMap()
        checked = set()        # (file, line, usr)
        apis = set()
        unresolved = collections.Counter()
        offences = {}          # (file, line, usr) -> message
        problem_cache = {}

        def consider(filename, offset, usr, context):
            if usr not in availability.by_usr:
                if re.match(r"s:(s|S[^o]|15Synchronization|12_Concurrency|17_StringProcessing)", usr) \
                        and not any(m["c99name"] in usr for m in modules):
                    unresolved[usr] += 1
                return
            line, col = lines.position(filename, offset)
            key = (filename, line, usr)
            checked.add(key)
            apis.add(usr)
            ck = (usr, context_key(context))
            if ck not in problem_cache:
                problem_cache[ck] = availability.problem(usr, minimums, context)
            problem = problem_cache[ck]
            if problem and key not in offences:
                offences[key] = (col, problem)

        for filename, offset, usr, context in uses.decl_uses:
            consider(filename, offset, usr, context)
        type_cache = {}
        for filename, offset, mangled, context in uses.type_uses:
            if mangled not in type_cache:
                type_cache[mangled] = type_usrs(demangled[mangled], availability)
            for usr in type_cache[mangled]:
                consider(filename, offset, usr, context)

        for filename, offset, mangled, proto, context in uses.conformance_uses:
            m = re.match(r"^(?:Swift|_Concurrency|Synchronization|_StringProcessing)\.([A-Za-z_][\w.]*)", demangled[mangled])
            if not m:
                continue
            usr = availability.conformance_usr(m.group(1), proto)
            if usr:
                consider(filename, offset, usr, context)

        if args.verbose and unresolved:
            note("%d standard-library USRs are not public API in the symbol graphs (compiler-implicit or "
                 "underscored), e.g. %s" % (len(unresolved), ", ".join(sorted(unresolved)[:5])))

        if not checked:
            raise CheckError("no standard-library use was found at all: the AST reader is broken")
        for usr in sorted(availability.fallbacks):
            note("accepted: %s is a newer protocol requirement; on the declared systems the compiler uses "
                 "the protocol extension's method of the same signature" % availability.by_usr[usr]["path"])
        minimum_text = ", ".join("%s %s" % (d, version_text(v)) for d, v in sorted(minimums.items()))
        elapsed = time.monotonic() - started
        if offences:
            for (filename, line, usr), (col, problem) in sorted(offences.items(),
                                                                 key=lambda kv: (kv[0][0], kv[0][1], kv[1][0])):
                rel = os.path.relpath(filename, package_dir)
                print("%s:%d:%d: %s is %s [%s]" % (rel, line, col, availability.by_usr[usr]["path"], problem, usr))
            print("check-availability: FAILED: %d use(s) newer than the declared platforms (%s), "
                  "out of %d uses of %d APIs in %s" % (len(offences), minimum_text, len(checked), len(apis),
                                                       ", ".join(m["name"] for m in modules)))
            return 1
        print("check-availability: OK: %d uses of %d standard-library/_Concurrency/Synchronization APIs in %s "
              "are available on %s (%.0f s)" % (len(checked), len(apis), ", ".join(m["name"] for m in modules),
                                                minimum_text, elapsed))
        return 0
    except CheckError as e:
        print("check-availability: cannot check: %s" % e, file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print("work directory kept: %s" % workdir, file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
