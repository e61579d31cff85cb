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
import CallbackTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system layer's own promises, on real descriptors and sockets.
@Suite struct DescriptorTests {
    private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

    @Test func aDescriptorIsClosedWhenReleasedFromMemory() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        do {
            let reader = Descriptor(ends[0])
            #expect(reader.rawValue == ends[0])
        }
        // The read end's number may already be reused by a test running in parallel: ask the
        // write end instead, which reports an error once no reader is left.
        var writer = pollfd(fd: ends[1], events: Int16(POLLOUT), revents: 0)
        #expect(poll(&writer, 1, 0) == 1)
        #expect(writer.revents & Int16(POLLERR) != 0)
        _ = systemClose(ends[1])
    }

    @Test func releaseHandsTheDescriptorToTheCaller() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        do {
            let reader = Descriptor(ends[0])
            #expect(reader.release() == ends[0])
        }
        #expect(isOpen(ends[0]))
        _ = systemClose(ends[0])
        _ = systemClose(ends[1])
    }

    @Test func anExclusiveLockKeepsASecondOpenerOut() throws {
        var template = Array("/tmp/callback-system-test-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { rmdir(directory) }
        let path = directory + "/lock"
        defer { unlink(path) }
        let first = try FileSystem.openOrCreate(path, mode: 0o600)
        try first.lockExclusively()
        let second = try FileSystem.openOrCreate(path, mode: 0o600)
        #expect(flock(second.rawValue, LOCK_EX | LOCK_NB) != 0)
        first.close()
        #expect(flock(second.rawValue, LOCK_EX | LOCK_NB) == 0)
    }
}

@Suite struct LoopbackTCPTests {
    @Test func listensOnTheIPv4LoopbackLiteralOnlyAndAcceptsOwnedConnections() throws {
        let (listener, port) = try LoopbackTCP.listen(ipv6: false, port: 0)
        #expect(port > 0)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener.rawValue, $0, &length) }
        }
        #expect(UInt32(bigEndian: bound.sin_addr.s_addr) == 0x7F00_0001)

        let client = try RawClient(port: port)
        defer { client.close() }
        var pending = pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pending, 1, 5000) == 1)
        guard case .connection(let accepted) = LoopbackTCP.accept(listener.rawValue) else {
            Issue.record("no connection accepted")
            return
        }
        #expect(fcntl(accepted.rawValue, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(accepted.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        guard case .none = LoopbackTCP.accept(listener.rawValue) else {
            Issue.record("a second connection appeared")
            return
        }
    }

    @Test func namesBothEndsOfAnAcceptedConnection() throws {
        let (listener, port) = try LoopbackTCP.listen(ipv6: false, port: 0)
        let client = try RawClient(port: port)
        defer { client.close() }
        var pending = [PollEntry(readable: listener.rawValue)]
        #expect(Readiness.wait(&pending, timeoutMilliseconds: 5000) == .ready(1))
        guard case .connection(let accepted) = LoopbackTCP.accept(listener.rawValue) else {
            Issue.record("no connection accepted")
            return
        }
        let local = try #require(LoopbackTCP.address(of: accepted.rawValue, peer: false))
        let peer = try #require(LoopbackTCP.address(of: accepted.rawValue, peer: true))
        #expect(local.address == [127, 0, 0, 1] && Int(local.port) == port)
        #expect(peer.address == [127, 0, 0, 1] && peer.port != local.port)
        #expect(LoopbackTCP.address(of: -1, peer: true) == nil)
    }

    @Test func theWakeUpPipeIsNonBlockingAndSignalsOnce() throws {
        let pipe = try NonBlockingIO.makeWakeupPipe()
        NonBlockingIO.signal(pipe.write)
        var buffer: [UInt8] = []
        guard case .transferred(1) = NonBlockingIO.readAvailable(pipe.read.rawValue, into: &buffer, limit: 16) else {
            Issue.record("the signal was not readable")
            return
        }
        guard case .wouldBlock = NonBlockingIO.readAvailable(pipe.read.rawValue, into: &buffer, limit: 16) else {
            Issue.record("an empty wake-up pipe blocked or closed")
            return
        }
    }
}

@Suite struct FileStatusTests {
    @Test func followingLinksSeesTheTargetWhereTheLinkItselfIsALink() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = joinPath(directory.path, "target")
        let link = joinPath(directory.path, "link")
        try FileSystem.writeAtomically(target, [1, 2, 3], mode: 0o600)
        #expect(symlink(target, link) == 0)
        #expect(try FileSystem.status(link)?.kind == .symbolicLink)
        #expect(FileSystem.status(followingLinks: link)?.kind == .regular)
        #expect(FileSystem.status(followingLinks: link)?.size == 3)
        #expect(FileSystem.status(followingLinks: joinPath(directory.path, "absent")) == nil)
    }

    @Test func realAndEffectiveUserAreThoseOfThisProcess() {
        #expect(UserIdentity.real == getuid())
        #expect(UserIdentity.effective == geteuid())
    }
}
