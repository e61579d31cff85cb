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

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 over POSIX sockets, for the transport's tests: each
/// connection gets the next canned response (the last one repeats), or the answer of a
/// handler to its request, and every request is recorded (head and body). No
/// toolchain-external tool, no package.
final class LocalHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var recorded: [[UInt8]] = []
    private var responses: [[UInt8]]
    private var handler: (@Sendable (_ request: [UInt8]) -> [UInt8])?

    /// `NSLocking.withLock` is macOS 14+; the package's floor is macOS 13.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var requests: [[UInt8]] { locked { recorded } }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A server whose responses depend on its own base URL (`http://127.0.0.1:PORT`).
    convenience init(lateResponses: (String) -> [[UInt8]]) throws {
        try self.init(responses: [], start: false)
        responses = lateResponses(baseURL)
        start()
    }

    /// A server that answers each request with `handle(baseURL, request)`.
    convenience init(handle: @escaping @Sendable (_ baseURL: String, _ request: [UInt8]) -> [UInt8]) throws {
        try self.init(responses: [], start: false)
        let base = baseURL
        handler = { handle(base, $0) }
        start()
    }

    convenience init(responses: [[UInt8]]) throws {
        try self.init(responses: responses, start: true)
    }

    private func start() {
        let server = self
        Thread.detachNewThread { server.serve() }
    }

    private init(responses: [[UInt8]], start: Bool) throws {
        self.responses = responses
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        if start { self.start() }
    }

    func stop() {
        locked { stopped = true }
    }

    private func serve() {
        var served = 0
        while !locked({ stopped }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let request = readRequest(connection)
            locked { recorded.append(request) }
            let response: [UInt8]
            if let handler {
                response = handler(request)
            } else {
                guard !responses.isEmpty else {
                    close(connection)
                    continue
                }
                response = responses[min(served, responses.count - 1)]
            }
            served += 1
            response.withUnsafeBytes { raw in
                var sent = 0
                while sent < raw.count {
                    let n = send(connection, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                    if n <= 0 { break }
                    sent += n
                }
            }
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
        close(listener)
    }

    /// The head up to the blank line and a body of `Content-Length` bytes.
    private func readRequest(_ connection: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var expected: Int?
        while expected.map({ bytes.count < $0 }) ?? true {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) > 0 else { break }
            let n = recv(connection, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            bytes.append(contentsOf: buffer[0 ..< n])
            if expected == nil, let end = LocalHTTPServer.headEnd(bytes) {
                let head = String(decoding: bytes[0 ..< end], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end + 4 + length
            }
        }
        return bytes
    }

    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0 ... bytes.count - 4 where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    static func response(status: String, headers: [String] = [], body: String) -> [UInt8] {
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers).joined(separator: "\r\n")
        return Array((head + "\r\n\r\n" + body).utf8)
    }
}
