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
import Testing
import CallbackRouter
@testable import CallbackDesktop
import CallbackSystem
import CallbackTestSupport

/// Real Unix sockets in a temporary runtime directory, listeners on real threads.
@Suite struct HandoffSocketTests {
    let temporary = TemporaryDirectory()
    let runtime: RuntimeDirectory
    /// The wall clock of the spool's expiry in these tests: moved, never waited for.
    let now = Locked(SystemClock.wallSeconds())
    var wallClock: WallClock {
        let now = now
        return WallClock { now.withLock { $0 } }
    }

    init() throws {
        runtime = try RuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": temporary.privateSubdirectory("run")], uid: getuid())
    }

    func scheme(_ name: String = "myapp") throws -> CallbackScheme { try CallbackScheme(validating: name) }

    func send(_ url: String, spool: Bool = true, ttl: Int = 600) throws -> HandoffSender.Outcome {
        let route = try CallbackRoute(CallbackURL(parsing: url))
        var sender = HandoffSender(runtime: runtime)
        sender.wallClock = wallClock
        return try sender.send(url: url, route: route, spool: .init(enabled: spool, ttlSeconds: ttl))
    }

    /// Starts waiting on a real thread; the socket exists when this returns.
    func listen(state: String?, scheme name: String = "myapp", seconds: Int64 = 5) throws -> BlockingThread<HandoffListener.Result?> {
        let listener = Handover(try HandoffListener(runtime: runtime, scheme: try scheme(name), expectedState: state))
        return BlockingThread { try? listener.value.wait(until: .after(milliseconds: seconds * 1000)) }
    }

    @Test func deliversTheURLByteForByte() throws {
        defer { temporary.remove() }
        let url = "myapp://cb?code=a%2Bb+c%20d&state=s1&q=%22quoted%22&x='single'&big=" + String(repeating: "A", count: 8000)
        let waiting = try listen(state: "s1")
        #expect(try send(url) == .delivered)
        #expect(waiting.join() == .received(url: url))
        #expect((try Spool(runtime)).entries(for: try scheme()).isEmpty)
    }

    @Test func routesEachStateToItsOwnListener() throws {
        defer { temporary.remove() }
        let first = try listen(state: "state-one")
        let second = try listen(state: "state-two")
        #expect(try send("myapp://cb?code=2&state=state-two") == .delivered)
        #expect(try send("myapp://cb?code=1&state=state-one") == .delivered)
        #expect(first.join() == .received(url: "myapp://cb?code=1&state=state-one"))
        #expect(second.join() == .received(url: "myapp://cb?code=2&state=state-two"))
    }

    @Test func deliversAStatelessCallbackToTheOnlyListener() throws {
        defer { temporary.remove() }
        let only = try listen(state: nil)
        #expect(try send("myapp://cb?challenge_token=\(preludeToken("ct"))") == .delivered)
        #expect(only.join() == .received(url: "myapp://cb?challenge_token=\(preludeToken("ct"))"))
    }

    @Test func deliversAStatelessCallbackToNeitherOfTwoListeners() throws {
        defer { temporary.remove() }
        let first = try listen(state: nil)
        let second = try listen(state: nil)
        #expect(try send("myapp://cb?challenge_token=\(preludeToken("ct"))") == .conflict)
        #expect(first.join() == .conflict)
        #expect(second.join() == .conflict)
        #expect((try Spool(runtime)).entries(for: try scheme()).isEmpty)
    }

    @Test func ignoresListenersOfOtherSchemesAndStates() throws {
        defer { temporary.remove() }
        let otherScheme = try listen(state: nil, scheme: "otherapp", seconds: 1)
        let otherState = try listen(state: "not-this-one", seconds: 1)
        #expect(try send("myapp://cb?code=1&state=s1", spool: false) == .nobody)
        #expect(otherScheme.join() == .timedOut)
        #expect(otherState.join() == .timedOut)
    }

    @Test func spoolsWhenNobodyListensAndHandsItOverOnce() throws {
        defer { temporary.remove() }
        let url = "myapp://cb?code=1&state=s1"
        #expect(try send(url) == .spooled)
        let entries = (try Spool(runtime)).entries(for: try scheme())
        #expect(entries.count == 1)
        let file = try #require(try FileSystem.status(joinPath(runtime.spoolDirectory, entries[0].name)))
        #expect(file.permissions == 0o600)
        #expect(!entries[0].name.contains("s1"))

        let wrongState = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: "s2")
        #expect(try wrongState.takeFromSpool() == nil)
        let first = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: "s1")
        #expect(try first.takeFromSpool() == url)
        let second = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: "s1")
        #expect(try second.takeFromSpool() == nil)
        #expect(try FileSystem.entries(runtime.spoolDirectory).isEmpty)
    }

    @Test func refusesToSpoolWhenAskedNotTo() throws {
        defer { temporary.remove() }
        #expect(try send("myapp://cb?code=1&state=s1", spool: false) == .nobody)
        #expect(try FileSystem.entries(runtime.spoolDirectory).isEmpty)
    }

    @Test func deletesExpiredEntriesUnread() throws {
        defer { temporary.remove() }
        #expect(try send("myapp://cb?code=1&state=s1", ttl: 1) == .spooled)
        let spool = try Spool(runtime, wallClock: wallClock)
        let entry = try #require(spool.entries(for: try scheme()).first)
        // Make the entry unreadable: an expired one must be deleted without being opened.
        chmod(joinPath(runtime.spoolDirectory, entry.name), 0)
        now.withLock { $0 = entry.expiresAt }
        #expect(spool.take(scheme: try scheme(), expectedState: "s1") == nil)
        #expect(try FileSystem.entries(runtime.spoolDirectory).isEmpty)
    }

    /// One copy per callback, not one per `open` (a reload runs the handler again).
    @Test func keepsOneCopyOfACallbackOpenedTwice() throws {
        defer { temporary.remove() }
        let url = "myapp://oauth-callback?challenge_token=\(preludeToken("twice"))"
        #expect(try send(url) == .spooled)
        #expect(try send(url) == .spooled)
        #expect(try send("myapp://oauth-callback?challenge_token=\(preludeToken("other"))") == .spooled)
        #expect((try Spool(runtime)).entries(for: try scheme()).count == 2)
    }

    @Test func keepsOneCopyWhenOpenedTwiceAtTheSameInstant() throws {
        defer { temporary.remove() }
        let url = "myapp://oauth-callback?challenge_token=\(preludeToken("raced"))"
        let spool = Handover(try Spool(runtime))
        let myapp = try scheme()
        for round in 0 ..< 10 {
            let threads = (0 ..< 4).map { _ in
                BlockingThread { try? spool.value.add(url: url + "\(round)", scheme: myapp, ttlSeconds: 600) }
            }
            let entries = threads.map { $0.join() }
            #expect(Set(entries.map { $0?.name }).count == 1, "every open names the same entry")
        }
        #expect(spool.value.entries(for: myapp).count == 10)
    }

    /// Expired entries go when their time is up, by whoever waits, not at the next `open`.
    @Test func aWaitingListenerDeletesExpiredEntriesOnTime() throws {
        defer { temporary.remove() }
        #expect(try send("myapp://cb?code=1&state=s1", ttl: 1) == .spooled)
        let listener = try HandoffListener(runtime: runtime, scheme: try scheme("otherapp"), expectedState: "x")
        // Each sweep finds the clock a second later: the entry (1 s to live) is still there at
        // the first sweep, when the wait begins, and expires during the wait.
        let ticking = now
        listener.wallClock = WallClock {
            ticking.withLock { time in
                time += 1
                return time - 1
            }
        }
        listener.sweepIntervalMilliseconds = 100
        #expect(try listener.wait(until: .after(milliseconds: 500)) == .timedOut)
        #expect(try FileSystem.entries(runtime.spoolDirectory).isEmpty)
    }

    @Test func openWithoutSpoolingStillDeletesExpiredEntries() throws {
        defer { temporary.remove() }
        #expect(try send("myapp://cb?code=1&state=s1", ttl: 1) == .spooled)
        now.withLock { $0 += 1 }
        #expect(try send("otherapp://cb?code=2", spool: false) == .nobody)
        #expect(try FileSystem.entries(runtime.spoolDirectory).isEmpty)
    }

    /// A listener that reads the URL and finds it is not its own (not its redirect URI)
    /// keeps waiting; the callback goes back to the spool, once.
    @Test func aURLTheListenerRefusesIsPutBackInTheSpool() throws {
        defer { temporary.remove() }
        let listener = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: "s1")
        listener.accepts = { $0.hasPrefix("myapp://cb?") }
        let handover = Handover(listener)
        let waiting = BlockingThread { try? handover.value.wait(until: .after(milliseconds: 5000)) }
        #expect(try send("myapp://elsewhere?code=1&state=s1") == .spooled)
        #expect(try send("myapp://elsewhere?code=2&state=s1", spool: false) == .nobody)
        #expect(try send("myapp://cb?code=3&state=s1") == .delivered)
        #expect(waiting.join() == .received(url: "myapp://cb?code=3&state=s1"))
        #expect((try Spool(runtime)).entries(for: try scheme()).count == 1)
        #expect(try listener.takeFromSpool() == nil, "the refused URL is not taken from the spool either")
    }

    @Test func letsExactlyOneOfTwoClaimersTakeAnEntry() throws {
        defer { temporary.remove() }
        #expect(try send("myapp://cb?challenge_token=\(preludeToken("ct"))") == .spooled)
        let spool = try Spool(runtime)
        let entry = try #require(spool.entries(for: try scheme()).first)
        #expect(spool.claim(entry))
        #expect(!spool.claim(entry))
    }

    @Test func removesTheSocketOfAListenerThatEnded() throws {
        defer { temporary.remove() }
        // A listener that died without cleaning up leaves a socket nobody accepts on.
        let directory = runtime.listenerDirectory(for: try scheme())
        try runtime.makePrivateDirectory(runtime.listenersDirectory)
        try runtime.makePrivateDirectory(directory)
        let dead = try UnixSocket.listen(at: joinPath(directory, "dead.sock"))
        dead.close()
        #expect(try send("myapp://cb?code=1", spool: false) == .nobody)
        #expect(try FileSystem.entries(directory).isEmpty)
    }

    @Test func stopsWaitingAtTheDeadline() throws {
        defer { temporary.remove() }
        let listener = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: nil)
        let start = SystemClock.monotonicMilliseconds()
        #expect(try listener.wait(until: .after(milliseconds: 200)) == .timedOut)
        #expect(SystemClock.monotonicMilliseconds() - start >= 190)
        listener.stop()
        #expect(try FileSystem.status(listener.socketPath) == nil)
    }

    @Test func readsTheRealPeerCredentials() throws {
        defer { temporary.remove() }
        let path = joinPath(temporary.path, "peer.sock")
        let server = try UnixSocket.listen(at: path)
        let client = try UnixSocket.connect(to: path)
        let accepted = try #require(try UnixSocket.accept(server, deadline: .after(milliseconds: 1000)))
        let ofClient = try UnixSocket.peerCredentials(accepted)
        #expect(ofClient == PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
        #expect(try UnixSocket.peerCredentials(client).uid == getuid())
        let socketFile = try #require(try FileSystem.status(path))
        #expect(socketFile.kind == .socket && socketFile.permissions == 0o600)
    }

    @Test func listenerRefusesAPeerOfAnotherUser() throws {
        defer { temporary.remove() }
        // The listener accepts only uid+1: this process is then a stranger, as a real other
        // user would be, and the real SO_PEERCRED of the connection gives it away.
        let listener = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: nil)
        listener.allowedPeer = getuid() &+ 1
        let handover = Handover(listener)
        let waiting = BlockingThread { try? handover.value.wait(until: .after(milliseconds: 1500)) }
        #expect {
            try send("myapp://cb?challenge_token=\(preludeToken("ct"))", spool: false)
        } throws: { ($0 as? DesktopError)?.code == .permission }
        // Refused, and still waiting for the right peer.
        #expect(waiting.join() == .timedOut)
    }

    @Test func openRefusesASocketItDoesNotOwn() throws {
        defer { temporary.remove() }
        _ = try HandoffListener(runtime: runtime, scheme: try scheme(), expectedState: nil)
        // Seen from another uid, everything here belongs to someone else.
        let other = RuntimeDirectory(root: runtime.root, uid: getuid() &+ 1)
        let route = try CallbackRoute(CallbackURL(parsing: "myapp://cb?code=1"))
        #expect {
            try HandoffSender(runtime: other).send(url: "myapp://cb?code=1", route: route, spool: .init(enabled: false, ttlSeconds: 1))
        } throws: { ($0 as? DesktopError)?.code == .permission }
    }
}
