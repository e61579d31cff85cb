// swift-tools-version:5.3
//===----------------------------------------------------------------------===//
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

// The libFuzzer targets. A nested package because SwiftPM renames an executable target's
// entry point, and libFuzzer brings its own `main`: each fuzzer is a plain target whose
// main.swift holds `@_cdecl("LLVMFuzzerTestOneInput")` (shared/notes/swift-on-linux.md).
//
// Adding a fuzzer: a directory `Sources/fuzz-NAME/main.swift`, a seed directory
// `seeds/NAME/`, and one entry in `fuzzers` below. `./run.sh NAME SECONDS` runs it;
// `./run.sh all SECONDS` runs every `Sources/fuzz-*` directory.
import PackageDescription

/// Fuzzer name (without the `fuzz-` prefix) → the root package's products it tests.
let fuzzers: [(name: String, products: [String])] = [
    ("parse", ["CallbackParsing"]),
    ("classify", ["CallbackRouter"]),
    ("router", ["CallbackRouter"]),
    ("foundation-differential", ["CallbackParsing"]),
    ("cli", ["CallbackRouterCLI", "CallbackRouter"]),
    ("restore", ["CallbackRouter"]),
    ("http", ["CallbackLoopback"]),
    ("json", ["CallbackTokens"]),
    ("json-foundation", ["CallbackTokens"]),
    ("store", ["CallbackTokenStore"]),
]

let package = Package(
    name: "CallbackRouterFuzz",
    products: fuzzers.map { .executable(name: "fuzz-" + $0.name, targets: ["fuzz-" + $0.name]) },
    dependencies: [.package(name: "CallbackRouter", path: "..")],
    targets: [
        // The check and the input reader every fuzzer uses.
        .target(name: "FuzzSupport", swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])])
    ]
        + fuzzers.map { fuzzer in
            .target(
                name: "fuzz-" + fuzzer.name,
                dependencies: fuzzer.products.map { .product(name: $0, package: "CallbackRouter") } + ["FuzzSupport"],
                swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])])
        }
)
