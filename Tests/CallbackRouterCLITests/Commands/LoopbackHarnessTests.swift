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

@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackRouter
import CallbackTestSupport
#if canImport(Glibc)
import Glibc
private let systemClose = Glibc.close
private let systemSend = Glibc.send
/// SOCK_STREAM is an enum in glibc's headers, a plain constant in Darwin's.
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
private let noSignalFlag = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemClose = Darwin.close
private let systemSend = Darwin.send
private let streamSocketType = SOCK_STREAM
private let noSignalFlag: Int32 = 0 // Darwin has no MSG_NOSIGNAL: RawClient sets SO_NOSIGPIPE
#endif
import Testing

// The harness the loopback tests share: the command on a thread of its own (as the binary
// runs it), and a raw HTTP client over real sockets. No Foundation, no system tools.

/// `callback-router loopback ARGS` running on its own thread with captured output.
final class RunningLoopback: Sendable {
    let output = CapturedOutput()
    private let exitCode = Locked<Int32?>(nil)
    private let thread = Locked<pthread_t?>(nil)
    let redirectURI: String
    let port: Int

    /// Starts the command and waits (up to 10 s) for its first line.
    init(_ arguments: [String]) throws {
        let output = output
        let exitCode = exitCode
        let handle = try startThread {
            let code = CallbackRouterTool.run(
                ["loopback"] + arguments,
                context: CommandContext(output: output, environment: [:], executablePath: "/nonexistent"))
            exitCode.withLock { $0 = code }
        }
        thread.withLock { $0 = handle }
        var first: String?
        for _ in 0 ..< 1000 {
            let text = output.stdout
            if let newline = text.firstIndex(of: "\n") {
                first = String(text[..<newline])
                break
            }
            if exitCode.withLock({ $0 }) != nil { break }
            usleep(10_000)
        }
        guard let first, first.hasPrefix("{\"redirect_uri\":\"http://"), first.hasSuffix("\"}") else {
            throw HarnessError("no redirect URI line; stdout: \(output.stdout) stderr: \(output.stderr)")
        }
        redirectURI = String(first.dropFirst("{\"redirect_uri\":\"".count).dropLast(2))
        port = Int(redirectURI.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
    }

    /// Waits for the command to return (up to `seconds`) and gives its exit code.
    func waitForExit(seconds: Double = 10) -> Int32? {
        let polls = Int(seconds * 100)
        for _ in 0 ..< polls {
            if let code = exitCode.withLock({ $0 }) {
                if let handle = thread.withLock({ value -> pthread_t? in
                    defer { value = nil }; return value
                }) {
                    pthread_join(handle, nil)
                }
                return code
            }
            usleep(10_000)
        }
        return nil
    }

    /// Whether the command is still waiting.
    var isRunning: Bool { exitCode.withLock { $0 } == nil }

    var stdoutLines: [String] { output.stdout.split(separator: "\n").map(String.init) }

    /// The last stdout line (the outcome once the command returned).
    var lastLine: String { stdoutLines.last ?? "" }
}

private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

func startThread(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
    // Darwin's pthread_t is a non-optional pointer, and the start routine's argument too.
    var handle: pthread_t? = nil
    let status = pthread_create(
        &handle, nil,
        { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
    #else
    var handle = pthread_t()
    let status = pthread_create(
        &handle, nil,
        { raw in
            guard let raw else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
    #endif
    guard status == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        throw HarnessError("pthread_create failed: \(status)")
    }
    #if canImport(Darwin)
    return handle!
    #else
    return handle
    #endif
}

/// An HTTP response as the raw client read it.

@Suite struct LoopbackHarnessTests {
    @Test func harnessReadsTheRedirectURIAndPort() throws {
        let run = try RunningLoopback(["--no-state", "--timeout", "0.2"])
        #expect(run.redirectURI == "http://127.0.0.1:\(run.port)/callback")
        #expect(run.port > 0)
        #expect(run.waitForExit() == ExitCode.tryAgain)
    }
}
