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

/// `struct ucred` sits behind `_GNU_SOURCE` in glibc's headers, so Swift does not see it;
/// this struct has the same layout (three 32-bit fields, 12 bytes).
private struct UCredLayout {
    package var pid: pid_t = 0
    package var uid: uid_t = 0
    package var gid: gid_t = 0
}

/// Stream sockets in the file system (AF_UNIX), non-blocking, with deadlines on every wait.
package enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL (104 on Darwin).
    package static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static func address(_ path: String) throws(SystemError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes, !bytes.contains(0) else {
            throw SystemError("socket path", path: path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return address
    }

    private static func newSocket() throws(SystemError) -> Descriptor {
        let fd = socket(AF_UNIX, streamSocketType, 0)
        guard fd >= 0 else { throw SystemError("socket") }
        let descriptor = Descriptor(fd)
        guard configureNewSocket(fd) else { throw SystemError("socket options") }
        return descriptor
    }

    /// Binds a listening socket at `path` with mode 0600. The path must not exist.
    ///
    /// The socket is bound under a temporary name and renamed to `path` only once it
    /// accepts connections: a client that finds `path` never sees the instant between
    /// `bind` and `listen` (when connecting is refused, as it is for a dead listener's).
    package static func listen(at path: String, backlog: Int32 = 16) throws(SystemError) -> Descriptor {
        // No longer than the final name of a listener (16 hex digits + ".sock").
        let temporary = parentDirectory(path) + "/.b" + RandomName.hex(bytes: 8) + "~"
        let descriptor = try bindAndListen(temporary, backlog: backlog)
        guard systemRename(temporary, path) == 0 else {
            let failure = SystemError("rename", path: path)
            _ = unlink(temporary)
            throw failure
        }
        return descriptor
    }

    private static func bindAndListen(_ path: String, backlog: Int32) throws(SystemError) -> Descriptor {
        let address = try address(path)
        let descriptor = try newSocket()
        // bind creates the file with 0777 & ~umask. Callers bind inside a 0700 directory of
        // their own, so nobody else can reach it before the chmod below; the umask is not
        // touched (it is process-wide, and tests run listeners on several threads).
        let bound = withSocketAddress(address) { bind(descriptor.rawValue, $0, $1) }
        let bindErrno = errno
        guard bound == 0 else { throw SystemError("bind", path: path, code: bindErrno) }
        guard chmod(path, 0o600) == 0, systemListen(descriptor.rawValue, backlog) == 0 else {
            let failure = SystemError("listen", path: path)
            _ = unlink(path)
            throw failure
        }
        return descriptor
    }

    /// Waits for a connection until `deadline`; nil when the deadline passed first.
    package static func accept(_ listener: Descriptor, deadline: Deadline) throws(SystemError) -> Descriptor? {
        while true {
            // accept4 is hidden behind _GNU_SOURCE: accept, then set the flags.
            let fd = systemAccept(listener.rawValue)
            if fd >= 0 {
                let accepted = Descriptor(fd)
                guard setFlags(fd), configureNewSocket(fd) else { throw SystemError("socket options") }
                return accepted
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK:
                guard try wait(listener, for: Int16(POLLIN), until: deadline) else { return nil }
            default: throw SystemError("accept")
            }
        }
    }

    /// Connects to the socket at `path` without blocking: a listener whose queue is full
    /// fails with EAGAIN instead of stalling the caller; no listener at all is ECONNREFUSED.
    package static func connect(to path: String) throws(SystemError) -> Descriptor {
        let address = try address(path)
        let descriptor = try newSocket()
        let result = withSocketAddress(address) { pointer, length in
            retryingOnInterrupt { systemConnect(descriptor.rawValue, pointer, length) }
        }
        guard result == 0 else { throw SystemError("connect", path: path) }
        return descriptor
    }

    /// The peer's pid, uid and gid (SO_PEERCRED on Linux; getpeereid and LOCAL_PEERPID on Darwin).
    package static func peerCredentials(_ descriptor: Descriptor) throws(SystemError) -> PeerCredentials {
        #if canImport(Darwin)
        var uid = uid_t(0)
        var gid = gid_t(0)
        guard getpeereid(descriptor.rawValue, &uid, &gid) == 0 else { throw SystemError("getpeereid") }
        var pid = pid_t(0)
        var pidLength = socklen_t(MemoryLayout<pid_t>.size)
        guard getsockopt(descriptor.rawValue, SOL_LOCAL, LOCAL_PEERPID, &pid, &pidLength) == 0 else {
            throw SystemError("getsockopt(LOCAL_PEERPID)")
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
        #else
        var credentials = UCredLayout()
        var length = socklen_t(MemoryLayout<UCredLayout>.size)
        guard getsockopt(descriptor.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout<UCredLayout>.size
        else {
            throw SystemError("getsockopt(SO_PEERCRED)")
        }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        #endif
    }

    /// Sends every byte before `deadline` (never raises SIGPIPE).
    package static func send(_ descriptor: Descriptor, _ bytes: [UInt8], deadline: Deadline) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                systemSend(descriptor.rawValue, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if sent >= 0 { offset += sent; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                guard try wait(descriptor, for: Int16(POLLOUT), until: deadline) else { throw SystemError("send", code: ETIMEDOUT) }
            default: throw SystemError("send")
            }
        }
    }

    /// Receives exactly `count` bytes before `deadline`. Throws ECONNRESET when the peer
    /// closes first, ETIMEDOUT when the deadline passes.
    package static func receive(_ descriptor: Descriptor, count: Int, deadline: Deadline) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let received = bytes.withUnsafeMutableBytes { buffer in
                recv(descriptor.rawValue, buffer.baseAddress! + offset, count - offset, 0)
            }
            if received > 0 { offset += received; continue }
            if received == 0 { throw SystemError("recv", code: ECONNRESET) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                guard try wait(descriptor, for: Int16(POLLIN), until: deadline) else { throw SystemError("recv", code: ETIMEDOUT) }
            default: throw SystemError("recv")
            }
        }
        return bytes
    }

    /// Polls one descriptor; false when the deadline passed without the event.
    package static func wait(_ descriptor: Descriptor, for events: Int16, until deadline: Deadline) throws(SystemError) -> Bool {
        while true {
            var entry = pollfd(fd: descriptor.rawValue, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.remainingMilliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { throw SystemError("poll") }
        }
    }
}
