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
@testable import CallbackDesktop
import CallbackRouter
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

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
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
struct RawResponse {
    let text: String

    var statusCode: Int? {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.1") else { return nil }
        return Int(parts[1])
    }

    var head: String {
        guard let end = text.firstRange(of: "\r\n\r\n") else { return text }
        return String(text[..<end.lowerBound])
    }

    var body: String {
        guard let end = text.firstRange(of: "\r\n\r\n") else { return "" }
        return String(text[end.upperBound...])
    }

    /// The value of a response field (case-insensitive name), first one.
    func field(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingPrefix(" ").description
            }
        }
        return nil
    }
}

/// A blocking client socket with 5-second timeouts, written for these tests.
struct RawClient {
    let fd: Int32

    init(port: Int, ipv6: Bool = false) throws {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, "::1", &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            let code = errno
            _ = systemClose(fd)
            throw HarnessError("connect: \(String(cString: strerror(code)))")
        }
        self.fd = fd
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBufferPointer { systemSend(fd, $0.baseAddress! + offset, $0.count - offset, noSignalFlag) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until the server closes (or 5 s pass).
    func readAll() -> RawResponse {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return RawResponse(text: String(decoding: bytes, as: UTF8.self))
    }

    func close() { _ = systemClose(fd) }

    /// One request on a fresh connection; the response once the server closes.
    static func exchange(port: Int, _ request: String, ipv6: Bool = false) throws -> RawResponse {
        let client = try RawClient(port: port, ipv6: ipv6)
        defer { client.close() }
        client.send(request)
        return client.readAll()
    }

    /// `GET target` with the given fields (default: the right Host).
    static func get(port: Int, _ target: String, method: String = "GET", fields: [String]? = nil) throws -> RawResponse {
        let lines = fields ?? ["Host: 127.0.0.1:\(port)"]
        return try exchange(port: port, "\(method) \(target) HTTP/1.1\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n")
    }
}

@Suite struct LoopbackHarnessTests {
    @Test func harnessReadsTheRedirectURIAndPort() throws {
        let run = try RunningLoopback(["--no-state", "--timeout", "0.2"])
        #expect(run.redirectURI == "http://127.0.0.1:\(run.port)/callback")
        #expect(run.port > 0)
        #expect(run.waitForExit() == ExitCode.tryAgain)
    }
}
