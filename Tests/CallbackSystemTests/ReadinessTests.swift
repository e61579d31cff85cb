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

/// `Readiness`: poll, and the select-for-terminals wait Darwin takes (compiled and run here
/// on pipes and on a real pseudo-terminal, though Linux's own poll needs none of it).
@Suite struct ReadinessTests {
    @Test func pollIsThisSystemsPollOnLinux() throws {
        #if os(Linux)
        #expect(!Readiness.pollRefusesTerminals)
        #endif
        let ends = try Descriptor.makePipe()
        var entries = [pollfd(fd: ends.read.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(Readiness.poll(&entries, timeoutMilliseconds: 0) == 0)
        try ends.write.writeAll([1])
        #expect(Readiness.poll(&entries, timeoutMilliseconds: 1000) == 1)
        #expect(entries[0].revents & Int16(POLLIN) != 0)
    }

    @Test func waitSaysHowManyEntriesAreReadyAndWhich() throws {
        let idle = try Descriptor.makePipe()
        let busy = try Descriptor.makePipe()
        var entries = [PollEntry(readable: idle.read.rawValue), PollEntry(readable: busy.read.rawValue)]
        #expect(Readiness.wait(&entries, timeoutMilliseconds: 0) == .ready(0))
        try busy.write.writeAll([1])
        #expect(Readiness.wait(&entries, timeoutMilliseconds: 1000) == .ready(1))
        #expect(!entries[0].isReady && entries[1].isReady)
        var writable = [PollEntry(writable: idle.write.rawValue)]
        #expect(Readiness.wait(&writable, timeoutMilliseconds: 1000) == .ready(1))
    }

    @Test func aShutDownSocketReadsAsEndOfFileOnTheOtherSide() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixSocket.listen(at: joinPath(directory.path, "s.sock"))
        let ours = try UnixSocket.connect(to: joinPath(directory.path, "s.sock"))
        let deadline = Deadline.after(milliseconds: 5000)
        let theirs = try #require(try UnixSocket.accept(listener, deadline: deadline))
        ours.shutdownWriting()
        #expect(throws: SystemError.self) { try UnixSocket.receive(theirs, count: 1, deadline: deadline) }
        // Only writing ended: the other side still gets through.
        try UnixSocket.send(theirs, [7], deadline: deadline)
        #expect(try UnixSocket.receive(ours, count: 1, deadline: deadline) == [7])
    }

    @Test func aSelectedDescriptorWithInputIsReadyAtOnce() throws {
        let ends = try Descriptor.makePipe()
        try ends.write.writeAll(Array("x\n".utf8))
        var entries = [pollfd(fd: ends.read.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(Readiness.pollSelecting(&entries, timeoutMilliseconds: 5000, selecting: [0]) == 1)
        #expect(entries[0].revents == Int16(POLLIN))
    }

    @Test func aSelectedDescriptorWithoutInputWaitsForTheTimeout() throws {
        let ends = try Descriptor.makePipe()
        var entries = [pollfd(fd: ends.read.rawValue, events: Int16(POLLIN), revents: 0)]
        let started = SystemClock.monotonicMilliseconds()
        #expect(Readiness.pollSelecting(&entries, timeoutMilliseconds: 300, selecting: [0]) == 0)
        let waited = SystemClock.monotonicMilliseconds() - started
        #expect(waited >= 290 && waited < 3000)
        #expect(entries[0].revents == 0)
    }

    @Test func theOtherDescriptorsArePolledMeanwhile() throws {
        let terminal = try Descriptor.makePipe()
        let socket = try Descriptor.makePipe()
        var entries = [
            pollfd(fd: socket.read.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: terminal.read.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        let writer = Handover(socket.write)
        let thread = BlockingThread { () -> Bool in
            usleep(150_000)
            return (try? writer.value.writeAll([1])) != nil
        }
        let started = SystemClock.monotonicMilliseconds()
        #expect(Readiness.pollSelecting(&entries, timeoutMilliseconds: 5000, selecting: [1]) == 1)
        #expect(SystemClock.monotonicMilliseconds() - started < 3000)
        #expect(thread.join())
        #expect(entries[0].revents & Int16(POLLIN) != 0)
        #expect(entries[1].revents == 0)
        #expect(entries[1].fd == terminal.read.rawValue, "the caller's entries keep their descriptors")
    }

    @Test func inputThatArrivesDuringTheWaitEndsIt() throws {
        let terminal = try Descriptor.makePipe()
        let idle = try Descriptor.makePipe()
        var entries = [
            pollfd(fd: idle.read.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: terminal.read.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        let writer = Handover(terminal.write)
        let thread = BlockingThread { () -> Bool in
            usleep(150_000)
            return (try? writer.value.writeAll(Array("pasted\n".utf8))) != nil
        }
        let started = SystemClock.monotonicMilliseconds()
        #expect(Readiness.pollSelecting(&entries, timeoutMilliseconds: 5000, selecting: [1]) == 1)
        let waited = SystemClock.monotonicMilliseconds() - started
        #expect(waited >= 140 && waited < 3000)
        #expect(thread.join())
        #expect(entries[1].revents == Int16(POLLIN) && entries[0].revents == 0)
    }

    @Test func endOfInputCountsAsReadable() throws {
        let ends = try Descriptor.makePipe()
        ends.write.close()
        #expect(Readiness.isReadable(ends.read.rawValue) == true)
    }

    @Test func aDescriptorSelectCannotWatchIsReportedAsPollWouldAndTheOthersAreStillWatched() throws {
        let capacity: Int = MemoryLayout<fd_set>.size * 8
        let past = Int32(capacity) // beyond FD_SETSIZE: select refuses it
        let pastIsReadable: Bool? = Readiness.isReadable(past)
        let negativeIsReadable: Bool? = Readiness.isReadable(-1)
        #expect(pastIsReadable == nil)
        #expect(negativeIsReadable == nil)
        let other = try Descriptor.makePipe()
        try other.write.writeAll([1])
        var entries: [pollfd] = [
            pollfd(fd: past, events: Int16(POLLIN), revents: 0),
            pollfd(fd: other.read.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        let ready: Int32 = Readiness.pollSelecting(&entries, timeoutMilliseconds: 1000, selecting: [0])
        let invalid: Int16 = entries[0].revents
        let readable: Bool = entries[1].revents & Int16(POLLIN) != 0
        #expect(ready == 2)
        #expect(invalid == Int16(POLLNVAL))
        #expect(readable)
    }

    #if os(Linux)
    /// The case Darwin needs it for: a line typed at a terminal (a Linux pseudo-terminal here:
    /// /dev/ptmx, unlocked, its /dev/pts/N opened as the terminal).
    @Test func aLineTypedAtATerminalIsSeenBySelect() throws {
        let controller = Descriptor(open("/dev/ptmx", O_RDWR | O_NOCTTY))
        try #require(controller.rawValue >= 0, "no pseudo-terminal here")
        // TIOCSPTLCK and TIOCGPTN (x86_64 and arm64 Linux): macros Swift does not import.
        var unlock: Int32 = 0, number: Int32 = -1
        #expect(ioctl(controller.rawValue, 0x4004_5431, &unlock) == 0)
        #expect(ioctl(controller.rawValue, 0x8004_5430, &number) == 0)
        let terminal = Descriptor(open("/dev/pts/\(number)", O_RDWR | O_NOCTTY))
        try #require(terminal.rawValue >= 0)
        #expect(isatty(terminal.rawValue) == 1)

        var entries = [pollfd(fd: terminal.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(Readiness.pollSelecting(&entries, timeoutMilliseconds: 100, selecting: [0]) == 0, "nothing typed yet")
        try controller.writeAll(Array("https://pasted.example/callback\n".utf8))
        #expect(Readiness.pollSelecting(&entries, timeoutMilliseconds: 5000, selecting: [0]) == 1)
        let line = try LineReader.readLine(from: terminal.rawValue, maxBytes: 4096, until: .after(milliseconds: 5000))
        #expect(line.bytes == Array("https://pasted.example/callback".utf8))
    }
    #endif
}
