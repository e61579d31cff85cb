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

import CallbackSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The raw HTTP client of the loopback tests (CallbackLoopbackTests, and the CLI's loopback
// tests once they drop their copy): blocking sockets with timeouts, bytes exactly as written.

public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A response as raw text, with its status code.
public struct RawResponse {
    public let text: String
    public init(text: String) { self.text = text }
    public var statusCode: Int? {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }
    /// The status line and the fields, without the body.
    public var head: String {
        guard let end = text.firstRange(of: "\r\n\r\n") else { return text }
        return String(text[..<end.lowerBound])
    }
    /// The value of a response field (case-insensitive name), the first one; never a line
    /// of the body.
    public func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return String(line[line.index(after: colon)...].drop(while: { $0 == " " }))
            }
        }
        return nil
    }
    public var body: String {
        guard let range = text.firstRange(of: "\r\n\r\n") else { return "" }
        return String(text[range.upperBound...])
    }
}

/// A blocking client socket with 5-second timeouts, written for these tests.
public struct RawClient {
    public let fd: Int32

    /// Connects to `127.0.0.1`:`port`, or `::1` when `ipv6`.
    public init(port: Int, ipv6: Bool = false) throws {
        try self.init(port: port, ipv6Literal: ipv6 ? "::1" : nil)
    }

    /// Connects to an IPv6 literal (`::ffff:127.0.0.1`: an IPv4-mapped address, which an
    /// IPv4 listener answers), or to `127.0.0.1` when nil.
    public init(port: Int, ipv6Literal: String?) throws {
        let fd = socket(ipv6Literal != nil ? AF_INET6 : AF_INET, plainStreamSocketType, 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        #if canImport(Darwin) // no MSG_NOSIGNAL there
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if let ipv6Literal {
            guard let address = LoopbackTCP.ipv6Address(ipv6Literal, port: port) else { throw HarnessError("not an IPv6 literal") }
            connected = withSocketAddress(address) { connect(fd, $0, $1) }
        } else {
            connected = withSocketAddress(LoopbackTCP.ipv4Address(port: port)) { connect(fd, $0, $1) }
        }
        guard connected == 0 else {
            let code = errno
            _ = systemClose(fd)
            throw HarnessError("connect: \(String(cString: strerror(code)))")
        }
        self.fd = fd
    }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBufferPointer { systemSend(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until the server closes (or 5 s pass).
    public func readAll() -> RawResponse {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return RawResponse(text: String(decoding: bytes, as: UTF8.self))
    }

    public func close() { _ = systemClose(fd) }

    /// One request on a fresh connection; the response once the server closes.
    public static func exchange(port: Int, _ request: String, ipv6: Bool = false) throws -> RawResponse {
        let client = try RawClient(port: port, ipv6: ipv6)
        defer { client.close() }
        client.send(request)
        return client.readAll()
    }

    /// `GET target` with the given fields (default: the right Host).
    public static func get(port: Int, _ target: String, method: String = "GET", fields: [String]? = nil) throws -> RawResponse {
        let lines = fields ?? ["Host: 127.0.0.1:\(port)"]
        return try exchange(port: port, "\(method) \(target) HTTP/1.1\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n")
    }
}

/// Whether anything accepts connections on 127.0.0.1:`port` (false: refused).
public func isListening(port: Int) -> Bool {
    guard let client = try? RawClient(port: port) else { return false }
    client.close()
    return true
}

/// Holds a port taken by a plain listening socket, for tests of port lists.
public final class PortSquatter {
    public let fd: Int32
    public let port: Int

    public init() throws {
        let fd = socket(AF_INET, plainStreamSocketType, 0)
        self.fd = fd
        let bound = withSocketAddress(LoopbackTCP.ipv4Address(port: 0)) { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 4) == 0 else { throw HarnessError("bind: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var named = sockaddr_in()
        _ = withUnsafeMutablePointer(to: &named) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: named.sin_port))
    }

    deinit { _ = systemClose(fd) }
}

/// `RawClient.get` on a thread of its own: the blocking client must not hold one of the
/// cooperative pool's few threads while the receiver's task still needs one to start.
public func fetch(port: Int, _ target: String, method: String = "GET", fields: [String]? = nil) async throws -> RawResponse {
    let text: String? = await withCheckedContinuation { continuation in
        let started = DetachedThread.start {
            continuation.resume(returning: (try? RawClient.get(port: port, target, method: method, fields: fields))?.text)
        }
        if !started { continuation.resume(returning: nil) }
    }
    guard let text else { throw HarnessError("the request could not be sent") }
    return RawResponse(text: text)
}

/// Connects and sends a GET now (the kernel queues both until the receiver runs); read the
/// answer with `readAll()` once the wait is over, then the connection is closed by the server.
public func sendRequest(port: Int, _ target: String) throws -> RawClient {
    let client = try RawClient(port: port)
    client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    return client
}
