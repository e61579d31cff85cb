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

/// The one stdin line reader (states, verifiers, client secrets), on real pipes.
@Suite struct LineReaderTests {
    /// A pipe holding `input` (less than a pipe holds: 64 KiB on Linux); its write end closed
    /// unless `keepOpen`.
    static func pipe(holding input: [UInt8], keepOpen: Bool = false) throws -> (read: Descriptor, write: Descriptor) {
        let ends = try Descriptor.makePipe()
        try ends.write.writeAll(input)
        if !keepOpen { ends.write.close() }
        return ends
    }

    static func line(_ text: String, eof: Bool = false) -> LineReader.Line {
        LineReader.Line(bytes: Array(text.utf8), endedByEndOfInput: eof)
    }

    @Test func readsOneLineAndLeavesTheRestForTheNextReader() throws {
        let ends = try Self.pipe(holding: Array("first\r\nsecond\nthird".utf8))
        let soon = Deadline.after(milliseconds: 5000)
        #expect(try LineReader.readLine(from: ends.read.rawValue, maxBytes: 4096, until: soon) == Self.line("first"))
        #expect(try LineReader.readLine(from: ends.read.rawValue, maxBytes: 4096, until: soon) == Self.line("second"))
        #expect(try LineReader.readLine(from: ends.read.rawValue, maxBytes: 4096, until: soon) == Self.line("third", eof: true))
        #expect(try LineReader.readLine(from: ends.read.rawValue, maxBytes: 4096, until: soon) == Self.line("", eof: true))
    }

    @Test func theLimitCountsTheLineWithoutItsCRLF() throws {
        let atLimit = String(repeating: "x", count: 4096)
        let fits = try Self.pipe(holding: Array((atLimit + "\r\n").utf8))
        #expect(try LineReader.readLine(from: fits.read.rawValue, maxBytes: 4096, until: .after(milliseconds: 5000)) == Self.line(atLimit))
        for input in [atLimit + "y\n", atLimit + "y", atLimit + "\r\r\n", String(repeating: "x", count: 60_000)] {
            let tooLong = try Self.pipe(holding: Array(input.utf8))
            do {
                _ = try LineReader.readLine(from: tooLong.read.rawValue, maxBytes: 4096, until: .after(milliseconds: 5000))
                Issue.record("a line of \(input.utf8.count) bytes was accepted")
            } catch {
                #expect(error.code == EFBIG)
            }
        }
    }

    @Test func aLineThatDoesNotComeInTimeIsATimeout() throws {
        let ends = try Self.pipe(holding: Array("no end".utf8), keepOpen: true)
        let started = SystemClock.monotonicMilliseconds()
        do {
            _ = try LineReader.readLine(from: ends.read.rawValue, maxBytes: 4096, until: .after(milliseconds: 200))
            Issue.record("a line without its end arrived")
        } catch {
            #expect(error.code == ETIMEDOUT)
        }
        let waited = SystemClock.monotonicMilliseconds() - started
        #expect(waited >= 190 && waited < 3000)
    }

    @Test func aLineWrittenLaterIsWaitedFor() throws {
        let ends = try Self.pipe(holding: [], keepOpen: true)
        let writer = Handover(ends.write)
        let thread = BlockingThread { () -> Bool in
            usleep(100_000)
            return (try? writer.value.writeAll(Array("late\n".utf8))) != nil
        }
        #expect(try LineReader.readLine(from: ends.read.rawValue, maxBytes: 4096, until: .after(milliseconds: 5000)) == Self.line("late"))
        #expect(thread.join())
    }

    @Test func aDescriptorThatCannotBeReadIsTheSystemsError() throws {
        // A directory polls as ready and cannot be read.
        let directory = Descriptor(open("/", O_RDONLY))
        try #require(directory.rawValue >= 0)
        do {
            _ = try LineReader.readLine(from: directory.rawValue, maxBytes: 4096, until: .after(milliseconds: 2000))
            Issue.record("a directory was read as a line")
        } catch {
            #expect(error.code == EISDIR)
            #expect(error.reason == String(cString: strerror(EISDIR)))
        }
    }
}

@Suite struct DescriptorWritingTests {
    @Test func aPipesEndsAreBlockingAndCloseOnExec() throws {
        let ends = try Descriptor.makePipe()
        for fd in [ends.read.rawValue, ends.write.rawValue] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
        }
    }

    @Test func writeAllWritesMoreThanAPipeHoldsAtOnce() throws {
        let ends = try Descriptor.makePipe()
        let bytes: [UInt8] = (0 ..< 1_048_576).map { (index: Int) -> UInt8 in UInt8(truncatingIfNeeded: index &* 31) }
        let reader = Handover(ends.read)
        let thread = BlockingThread { (try? reader.value.readAll(limit: 2 << 20)) ?? [] }
        try Descriptor.writeAll(bytes, to: ends.write.rawValue)
        ends.write.close()
        #expect(thread.join() == bytes)
    }

    @Test func aWriteToAClosedPipeIsTheSystemsError() throws {
        let ends = try Descriptor.makePipe()
        ends.read.close()
        let failure = Descriptor.withBrokenPipeSignalBlocked { () -> SystemError? in
            do throws(SystemError) {
                try ends.write.writeAll([1, 2, 3])
                return nil
            } catch {
                return error
            }
        }
        #expect(failure?.code == EPIPE, "a write without a reader: \(String(describing: failure))")
    }
}
