// swift-tools-version:6.0
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

import PackageDescription

// No package dependencies, by rule: only the Swift toolchain.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "CallbackRouter",
    // The oldest systems apps still ship to (docs/platforms.md). Nothing the libraries use may
    // be newer: scripts/check-availability.sh proves it on Linux, where the compiler ignores
    // Apple availability.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "CallbackParsing", targets: ["CallbackParsing"]),
        .library(name: "CallbackRouter", targets: ["CallbackRouter"]),
        .library(name: "CallbackRouterFoundation", targets: ["CallbackRouterFoundation"]),
        // The token step: discovery, the token request and response, the ID token check.
        .library(name: "CallbackTokens", targets: ["CallbackTokens"]),
        // The RFC 8252 loopback receiver, in-process (POSIX: Linux and Apple platforms).
        .library(name: "CallbackLoopback", targets: ["CallbackLoopback"]),
        // Tokens kept between runs: the desktop keyring (secret-tool) or a private file, under a lock.
        .library(name: "CallbackTokenStore", targets: ["CallbackTokenStore"]),
        // Linux desktop integration: x-scheme-handler registration and the callback hand-off.
        // It runs programs (posix_spawn), which tvOS and watchOS do not have: there it builds
        // as an empty module (every file is inside #if !os(tvOS) && !os(watchOS)).
        .library(name: "CallbackDesktop", targets: ["CallbackDesktop"]),
        // The helper's logic, for in-process fuzzing and embedding; its API follows the CLI contract.
        // Linux only in use; it depends on CallbackDesktop, so on tvOS and watchOS it is empty
        // too, and so is the callback-router executable (every file inside the same #if;
        // CLIArchitectureTests checks it; docs/platforms.md says what was compiled where).
        .library(name: "CallbackRouterCLI", targets: ["CallbackRouterCLI"]),
        .executable(name: "callback-router", targets: ["callback-router"]),
        .executable(name: "callback-bench", targets: ["callback-bench"]),
        .executable(name: "web-backend-example", targets: ["web-backend-example"]),
    ],
    targets: [
        // The one URL parser of the project. Imports nothing.
        .target(name: "CallbackParsing", swiftSettings: strict),
        // Redirect-URI policy, dialects, attempts, router. Imports nothing but CallbackParsing
        // and the C library.
        .target(name: "CallbackRouter", dependencies: ["CallbackParsing"], swiftSettings: strict),
        // The token step above the router: discovery, the token request and response, the ID
        // token check, client authentication; its JSON reader is package API. Imports nothing
        // but CallbackRouter (and through it CallbackParsing).
        .target(name: "CallbackTokens", dependencies: ["CallbackRouter"], swiftSettings: strict),
        // The only module that imports Foundation.
        .target(name: "CallbackRouterFoundation", dependencies: ["CallbackRouter", "CallbackTokens", "CallbackLoopback"], swiftSettings: strict),
        // The system layer (docs/architecture.md): the one module that imports the C library
        // for the edge. Descriptors, deadlines, one SystemError, sockets, files, subprocess,
        // threads, environment. Internal to the package (`package` access), no product.
        .target(name: "CallbackSystem", swiftSettings: strict),
        // The token store: entries per issuer, client, scopes and account, in the Secret
        // Service through secret-tool or in a 0600 file, read and written under a flock.
        .target(name: "CallbackTokenStore", dependencies: ["CallbackTokens", "CallbackSystem"], swiftSettings: strict),
        // The loopback receiver as a library: typed, async, no Foundation.
        .target(name: "CallbackLoopback", dependencies: ["CallbackRouter", "CallbackSystem"], swiftSettings: strict),
        // Desktop integration as a library: scheme registration, socket hand-off, spool. POSIX.
        .target(name: "CallbackDesktop", dependencies: ["CallbackRouter", "CallbackSystem"], swiftSettings: strict),
        // The helper's toolbox: arguments and option declarations, help layout, output, JSON,
        // exit codes, the command context, signals. It cannot see the commands. No product.
        .target(name: "CallbackRouterKit", dependencies: ["CallbackRouter", "CallbackTokens", "CallbackSystem"], swiftSettings: strict),
        // Shell completions and man pages, made from the commands' declarations through Kit.
        // It cannot see the commands. No product.
        .target(name: "CallbackRouterPackaging", dependencies: ["CallbackRouterKit"], swiftSettings: strict),
        // The helper binary's logic, as a library so that tests drive it in-process. It may use
        // the system layer for its own system calls (docs/architecture.md).
        .target(name: "CallbackRouterCLI", dependencies: ["CallbackRouter", "CallbackTokens", "CallbackTokenStore", "CallbackLoopback", "CallbackDesktop", "CallbackSystem",
                                                          "CallbackRouterKit", "CallbackRouterPackaging"],
                swiftSettings: strict),
        .executableTarget(name: "callback-router", dependencies: ["CallbackRouterCLI"], swiftSettings: strict),

        // Benchmarks: ours against Foundation in one release-mode run (swift run -c release callback-bench).
        // Counts heap allocations by interposing glibc's allocator (a C target, not a dependency).
        .target(name: "MallocCounter", path: "Benchmarks/MallocCounter"),
        // The runnable web-backend example (docs/server.md): one instance's login logic, public API only.
        .executableTarget(name: "web-backend-example", dependencies: ["CallbackRouter"], path: "Examples/web-backend",
                          swiftSettings: strict),
        .executableTarget(name: "callback-bench", dependencies: ["CallbackRouter", "CallbackRouterCLI", "MallocCounter"],
                          path: "Benchmarks/callback-bench", swiftSettings: strict),

        // The first sample of README.md and docs/getting-started.md as a program, which the
        // interop suite runs against django-oauth-toolkit (Tests/Interop/django.sh).
        .executableTarget(name: "sign-in-sample", dependencies: ["CallbackRouterFoundation"], path: "Tests/Samples/SignIn",
                          swiftSettings: strict),

        // What the test targets share: reading test vectors (JSON) without Foundation, a seeded RNG.
        .target(name: "TestVectorSupport", path: "Tests/TestVectorSupport", swiftSettings: strict),
        // What the test targets share for the edge and for refusals: the raw HTTP client of
        // the loopback tests, `expectRefusal`, the routers of `RouterFixture`. Not a product.
        .target(name: "CallbackTestSupport", dependencies: ["CallbackParsing", "CallbackRouter", "CallbackSystem"], path: "Tests/CallbackTestSupport",
                swiftSettings: strict),
        // docs/architecture.md's rules that the compiler cannot check, read from the sources.
        .testTarget(name: "ArchitectureTests", swiftSettings: strict),
        .testTarget(name: "CallbackParsingTests", dependencies: ["CallbackParsing", "TestVectorSupport", "CallbackTestSupport"], exclude: ["Vectors"],
                    swiftSettings: strict),
        .testTarget(name: "CallbackRouterTests", dependencies: ["CallbackRouter", "TestVectorSupport", "CallbackTestSupport"], exclude: ["Vectors"],
                    swiftSettings: strict),
        .testTarget(name: "CallbackTokensTests", dependencies: ["CallbackTokens", "CallbackTestSupport"], swiftSettings: strict),
        // Loopback and Desktop only to test an app's bridging of their errors (docs/errors.md).
        .testTarget(name: "CallbackRouterFoundationTests", dependencies: ["CallbackRouterFoundation", "CallbackLoopback", "CallbackDesktop"],
                    swiftSettings: strict),
        .testTarget(name: "CallbackTokenStoreTests", dependencies: ["CallbackTokenStore", "CallbackTokens", "CallbackSystem", "CallbackTestSupport"], swiftSettings: strict),
        .testTarget(name: "CallbackSystemTests", dependencies: ["CallbackSystem", "CallbackTestSupport"], swiftSettings: strict),
        .testTarget(name: "CallbackLoopbackTests", dependencies: ["CallbackLoopback", "CallbackSystem", "CallbackTestSupport"], swiftSettings: strict),
        .testTarget(name: "CallbackDesktopTests", dependencies: ["CallbackDesktop", "CallbackSystem", "CallbackTestSupport"], swiftSettings: strict),
        .testTarget(name: "CallbackRouterCLITests", dependencies: ["CallbackRouterCLI", "CallbackTokenStore", "CallbackLoopback", "CallbackDesktop", "TestVectorSupport", "CallbackTestSupport",
                                                                   "CallbackRouterKit", "CallbackRouterPackaging"],
                    swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
