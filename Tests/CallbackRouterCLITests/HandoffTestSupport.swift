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
@testable import CallbackDesktop

/// A directory made with mkdtemp under /tmp, removed (recursively) by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/callback-router-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else { fatalError("mkdtemp failed") }
        path = made
    }

    /// A private (0700) subdirectory, created.
    func privateSubdirectory(_ name: String, mode: mode_t = 0o700) -> String {
        let sub = joinPath(path, name)
        mkdir(sub, mode)
        chmod(sub, mode)
        return sub
    }

    func remove() { Self.removeTree(path) }

    static func removeTree(_ path: String) {
        guard let status = try? FileSystem.status(path) else { return }
        if status.kind == .directory {
            chmod(path, 0o700)
            for name in (try? FileSystem.entries(path)) ?? [] { removeTree(joinPath(path, name)) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

/// Moves a value that is used by one thread at a time into another thread.
struct Handover<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A real thread for code that blocks (poll, accept): the cooperative pool has as few
/// threads as cores, and a test that blocks them all waits for its own timeouts.
final class BlockingThread<Result>: @unchecked Sendable {
    #if canImport(Darwin)
    private var thread: pthread_t? = nil // a non-optional pointer on Darwin, set by pthread_create
    #else
    private var thread = pthread_t()
    #endif
    private let box = ResultBox<Result>()

    init(_ body: @escaping () -> Result) {
        let box = self.box
        let runner = ThreadBody { box.value = body() }
        let created = pthread_create(&thread, nil, threadEntry, Unmanaged.passRetained(runner).toOpaque())
        precondition(created == 0, "pthread_create failed")
    }

    func join() -> Result {
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        return box.value!
    }
}

private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}

private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

#if canImport(Darwin)
private func threadEntry(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
    return nil
}
#else
private func threadEntry(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().run()
    return nil
}
#endif

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
