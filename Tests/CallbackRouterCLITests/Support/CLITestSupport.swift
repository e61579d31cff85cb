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
import CallbackSystem
// TemporaryDirectory, BlockingThread and Handover live in CallbackTestSupport, shared with
// CallbackDesktopTests; every file of this target sees them through this import.
@_exported import CallbackTestSupport

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
    _ arguments: [String], environment: [String: String], executablePath: String = "/usr/local/bin/callback-router",
    standardInput: Int32 = 0
)
    -> (exit: Int32, stdout: String, stderr: String)
{
    let output = CapturedOutput()
    let context = CommandContext(
        output: output, environment: environment, executablePath: executablePath,
        standardInput: standardInput)
    let exit = CallbackRouterTool.run(arguments, context: context)
    return (exit, output.stdout, output.stderr)
}
