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
import CallbackRouter
@testable import CallbackDesktop
import Testing

/// When the one wait of the hand-off reads the spool (`HandoffReceiver` runs
/// `BlockingHandoffReceiver`'s wait on its thread): each blocking wait at its start, the async
/// receiver once, when it starts, never again in its 100 ms slices. An entry is written into
/// the spool directly here, as no `open` would while the socket exists.
@Suite struct HandoffWaitSpoolTests {
    static let state = "st-Q1w2E3r4T5y6U7i8O9p0"
    static let url = "myapp:/callback?code=c1&state=\(state)"

    /// Puts `url` in the spool of `environment`'s runtime directory, behind the receiver's back.
    func spoolBehindTheReceiver(_ environment: [String: String]) throws {
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: getuid())
        _ = try Spool(runtime).add(url: Self.url, scheme: try CallbackScheme(validating: "myapp"), ttlSeconds: 600)
    }

    @Test func eachBlockingWaitLooksInTheSpoolAtItsStart() throws {
        let sandbox = Sandbox()
        let receiver = try BlockingHandoffReceiver(
            scheme: try CallbackScheme(validating: "myapp"), state: Self.state, environment: sandbox.environment)
        #expect(try receiver.wait(timeout: .milliseconds(50)) == .timedOut)
        try spoolBehindTheReceiver(sandbox.environment)
        #expect(try receiver.wait(timeout: .seconds(5)) == .callback(Self.url))
    }

    @Test func theAsyncReceiverLooksInTheSpoolOnlyWhenItStarts() async throws {
        let sandbox = Sandbox()
        let receiver = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        // A first callback through the socket: the thread is past its start (and its look in the spool).
        let first = "myapp:/callback?code=c0&state=\(Self.state)"
        let waiting = Task { try await receiver.nextCallbackURL(timeout: .seconds(20)) }
        #expect(try await deliverOnThread(first, environment: sandbox.environment) == .delivered)
        #expect(try await waiting.value == first)
        // Several of the thread's 100 ms slices pass after the entry is written: none reads it.
        try spoolBehindTheReceiver(sandbox.environment)
        await #expect(throws: CallbackError.self) { try await receiver.nextCallbackURL(timeout: .milliseconds(600)) }
        receiver.close()
        // It is still there for the next receiver, which reads the spool when it starts.
        let next = try HandoffReceiver(scheme: "myapp", state: Self.state, environment: sandbox.environment)
        #expect(try await next.nextCallbackURL(timeout: .seconds(5)) == Self.url)
    }
}
