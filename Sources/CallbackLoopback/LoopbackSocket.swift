#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemRead = Glibc.read
private let systemListen = Glibc.listen
private let systemAccept = Glibc.accept
/// SOCK_STREAM is an enum in glibc's headers; close-on-exec and non-blocking come with it.
private let streamSocketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
/// A peer that went away must not raise SIGPIPE.
private let noSignalFlag = Int32(MSG_NOSIGNAL)
private func configureNewSocket(_ fd: Int32) -> Bool { true }
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemRead = Darwin.read
private let systemListen = Darwin.listen
private let systemAccept = Darwin.accept
/// Darwin has no SOCK_CLOEXEC, SOCK_NONBLOCK or MSG_NOSIGNAL: configureNewSocket sets
/// FD_CLOEXEC, O_NONBLOCK and SO_NOSIGPIPE on each socket instead.
private let streamSocketType = SOCK_STREAM
private let noSignalFlag: Int32 = 0
private func configureNewSocket(_ fd: Int32) -> Bool {
    var one: Int32 = 1
    let flags = fcntl(fd, F_GETFL)
    return fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
        && setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
}
#endif

/// Which loopback address the receiver binds: never a wildcard address.
enum LoopbackAddress: Sendable {
    /// `127.0.0.1`, the default (RFC 8252 §7.3 prefers the IPv4 literal).
    case ipv4
    /// `::1`, for `--ipv6`.
    case ipv6
    /// Both `127.0.0.1` and `::1` on one port, named `localhost` (`--host localhost`), for
    /// providers that register only that name.
    case localhost

    /// The host as a URL and a `Host` header write it.
    var uriHost: String {
        switch self {
        case .ipv4: return "127.0.0.1"
        case .ipv6: return "[::1]"
        case .localhost: return "localhost"
        }
    }
}

/// Why the listening socket could not be set up, with the errno that says so.
struct SocketError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Thin wrappers over the C socket calls the receiver needs. Every descriptor is
/// non-blocking and close-on-exec: the browser the caller opens must not inherit it.
enum LoopbackSocket {
    /// Binds `address`:`port` (0 = a port the kernel picks) and listens. Returns the
    /// descriptor and the port actually bound.
    ///
    /// `SO_REUSEADDR` is set: each answered request is closed by us first, which leaves its
    /// connection in TIME_WAIT for a minute, and a later run on the same fixed `--port`
    /// would fail with EADDRINUSE meanwhile. Linux lets the new bind through only when both
    /// the new socket and the one in TIME_WAIT (which inherits it from this listener) carry
    /// the option, so it is set on every listener, ephemeral ones included. On Linux it
    /// never lets two sockets listen on one port at once (that takes SO_REUSEPORT, which is
    /// never set), so it opens no door to a process that wants to squat our port.
    ///
    /// The backlog is large (1024; the kernel caps it at `somaxconn`): while a local flood
    /// keeps the loop busy, the kernel must not drop the browser's handshake (its client
    /// then believes it is connected and waits seconds for a retransmission). The loop's
    /// own limits, not the kernel's queue, decide which connection is closed.
    static func listen(on address: LoopbackAddress, port: Int, backlog: Int32 = 1024) throws(SocketError) -> (fd: Int32, port: Int) {
        precondition(address != .localhost, "listen binds one literal; the server binds both for localhost")
        let family = address == .ipv4 ? AF_INET : AF_INET6
        let fd = socket(family, streamSocketType, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var succeeded = false
        defer { if !succeeded { close(fd) } }
        guard configureNewSocket(fd) else { throw SocketError("socket options") }

        var one: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError("setsockopt(SO_REUSEADDR)")
        }

        let bound: Int32
        switch address {
        case .ipv4, .localhost:
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = in_port_t(UInt16(port).bigEndian)
            sin.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            bound = withUnsafePointer(to: &sin) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            // An IPv6-only socket: `::1` is not a dual-stack wildcard, but say so anyway.
            guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw SocketError("setsockopt(IPV6_V6ONLY)")
            }
            var sin6 = sockaddr_in6()
            sin6.sin6_family = sa_family_t(AF_INET6)
            sin6.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, "::1", &sin6.sin6_addr) == 1 else { throw SocketError("inet_pton", code: EINVAL) }
            bound = withUnsafePointer(to: &sin6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bound == 0 else { throw SocketError("bind") }
        guard systemListen(fd, backlog) == 0 else { throw SocketError("listen") }

        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SocketError("getsockname") }
        let networkPort: UInt16 = withUnsafePointer(to: &storage) { pointer in
            switch address {
            case .ipv4, .localhost: return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
            case .ipv6: return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
            }
        }
        succeeded = true
        return (fd, Int(UInt16(bigEndian: networkPort)))
    }

    enum AcceptResult {
        case connection(Int32)
        /// Nothing more is waiting (EAGAIN).
        case none
        /// A transient failure (the peer gave up, out of descriptors): try again later.
        case failed(Int32)
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec descriptor.
    static func accept(_ listener: Int32) -> AcceptResult {
        while true {
            let fd = systemAccept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                let flags = fcntl(fd, F_GETFL, 0)
                guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, configureNewSocket(fd) else {
                    close(fd)
                    return .failed(errno)
                }
                return .connection(fd)
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .none
            default: return .failed(errno)
            }
        }
    }

    enum IOResult {
        case transferred(Int)
        case wouldBlock
        case closed
    }

    /// Reads what is available into `buffer`, at most `limit` bytes.
    static func read(_ fd: Int32, into buffer: inout [UInt8], limit: Int) -> IOResult {
        guard limit > 0 else { return .transferred(0) }
        let oldCount = buffer.count
        var received = 0
        var failure: Int32 = 0
        buffer.append(contentsOf: repeatElement(0, count: limit))
        buffer.withUnsafeMutableBufferPointer { bytes in
            repeat {
                received = recv(fd, bytes.baseAddress! + oldCount, limit, 0)
                failure = received < 0 ? errno : 0
            } while received < 0 && failure == EINTR
        }
        buffer.removeLast(limit - max(received, 0))
        if received > 0 { return .transferred(received) }
        if received == 0 { return .closed }
        return failure == EAGAIN || failure == EWOULDBLOCK ? .wouldBlock : .closed
    }

    /// Writes as much of `bytes[offset...]` as the socket takes now. `MSG_NOSIGNAL`: a
    /// peer that went away must not kill the receiver with SIGPIPE.
    static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> IOResult {
        guard offset < bytes.count else { return .transferred(0) }
        var sent = 0
        var failure: Int32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            repeat {
                sent = send(fd, buffer.baseAddress! + offset, buffer.count - offset, noSignalFlag)
                failure = sent < 0 ? errno : 0
            } while sent < 0 && failure == EINTR
        }
        if sent >= 0 { return .transferred(sent) }
        return failure == EAGAIN || failure == EWOULDBLOCK ? .wouldBlock : .closed
    }

    /// A pipe whose read end the loop polls and whose write end ``signal(_:)`` writes to:
    /// both ends non-blocking and close-on-exec.
    static func makeWakeupPipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            let flags = fcntl(fd, F_GETFL)
            guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0, flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
                close(ends[0])
                close(ends[1])
                return nil
            }
        }
        return (ends[0], ends[1])
    }

    /// Writes one byte to a wake-up pipe. A full pipe already holds a wake-up: nothing lost.
    static func signal(_ fd: Int32) {
        var byte: UInt8 = 1
        while systemWrite(fd, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Reads what a terminal or pipe has now (after `poll` said so), at most `limit` bytes.
    static func readAvailable(_ fd: Int32, into buffer: inout [UInt8], limit: Int) -> IOResult {
        var chunk = [UInt8](repeating: 0, count: limit)
        var count = 0
        repeat {
            count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, limit) }
        } while count < 0 && errno == EINTR
        if count > 0 {
            buffer += chunk[..<count]
            return .transferred(count)
        }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
    }
}
