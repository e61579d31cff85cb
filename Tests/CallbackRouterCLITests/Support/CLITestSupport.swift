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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackSystem
// TemporaryDirectory, BlockingThread and Handover live in CallbackTestSupport, shared with
// CallbackDesktopTests; every file of this target sees them through this import.
@_exported import CallbackTestSupport

/// The helper's JSON value (CallbackRouterKit's), not the core's package one of the same name.
typealias JSONValue = CallbackRouterKit.JSONValue

// What the CLI's tests share: the helper run in-process, an isolated environment. Tests of
// the libraries' behaviour live in their own targets (CallbackDesktopTests, CallbackLoopbackTests).

/// An environment whose runtime directory is `runtime`, and nothing else of the host's.
func isolatedEnvironment(runtime: String, home: String? = nil) -> [String: String] {
    var environment = ["XDG_RUNTIME_DIR": runtime, "PATH": "/nonexistent"]
    if let home {
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = joinPath(home, "data")
        environment["XDG_CONFIG_HOME"] = joinPath(home, "config")
    }
    return environment
}

/// Runs the helper in-process.
func runTool(
    _ arguments: [String], environment: [String: String] = [:], executablePath: String = "/usr/local/bin/callback-router",
    standardInput: Int32 = 0
)
    -> (exit: Int32, stdout: String, stderr: String)
{
    let output = CapturedOutput()
    let exit = runTool(arguments, output: output, environment: environment, executablePath: executablePath, standardInput: standardInput)
    return (exit, output.stdout, output.stderr)
}

/// Runs the helper in-process with `stdin` on a pipe that ends after it.
func runTool(
    _ arguments: [String], environment: [String: String] = [:], executablePath: String = "/usr/local/bin/callback-router",
    stdin: [UInt8]
) -> (exit: Int32, stdout: String, stderr: String) {
    withStandardInput(stdin) { runTool(arguments, environment: environment, executablePath: executablePath, standardInput: $0) }
}

/// Runs the helper in-process writing to `output` (streams on real descriptors, say).
func runTool(
    _ arguments: [String], output: any CommandOutput, environment: [String: String] = [:],
    executablePath: String = "/usr/local/bin/callback-router", standardInput: Int32 = 0
) -> Int32 {
    CallbackRouterTool.run(
        arguments,
        context: CommandContext(output: output, environment: environment, executablePath: executablePath, standardInput: standardInput))
}

/// Runs the tool to its end with `stdin` on a pipe.
func runWithStdin(_ arguments: [String], environment: [String: String], stdin: String = "") -> (exit: Int32, out: String, err: String) {
    let run = runTool(arguments, environment: environment, executablePath: "/nonexistent", stdin: Array(stdin.utf8))
    return (run.exit, run.stdout, run.stderr)
}

/// `body` given the read end of a pipe that yields `bytes`, then the end of input (the
/// write end is closed first); the read end is closed after.
func withStandardInput<T>(_ bytes: [UInt8], _ body: (Int32) throws -> T) rethrows -> T {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { fatalError("pipe: \(errno)") }
    defer { close(ends[0]) }
    let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    precondition(written == bytes.count, "a test's stdin must fit in a pipe's buffer")
    return try body(ends[0])
}
