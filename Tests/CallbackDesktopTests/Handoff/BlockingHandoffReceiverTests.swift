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
import CallbackDesktop
import CallbackRouter
import Testing

/// The blocking receiver `callback-router listen` waits with (the CLI uses the
/// library's public API): the spool first, its filter, its start-time conflict, its timeout.
@Suite struct BlockingHandoffReceiverTests {
    static let state = "st-Q1w2E3r4T5y6U7i8O9p0"
    static let myapp = try! CallbackScheme(validating: "myapp")

    @Test func takesACallbackSpooledBeforeItWasMade() throws {
        let sandbox = Sandbox()
        let url = "myapp:/callback?code=c1&state=\(Self.state)"
        #expect(try CallbackHandoff.deliver(url, environment: sandbox.environment) == .spooled)
        let receiver = try BlockingHandoffReceiver(scheme: Self.myapp, state: Self.state, environment: sandbox.environment)
        #expect(try receiver.wait(timeout: .seconds(5)) == .callback(url))
    }

    @Test func aURLItDoesNotAcceptStaysInTheSpoolAndTheWaitGoesOn() throws {
        let sandbox = Sandbox()
        let url = "myapp:/other?code=c1&state=\(Self.state)"
        #expect(try CallbackHandoff.deliver(url, environment: sandbox.environment) == .spooled)
        let picky = try BlockingHandoffReceiver(
            scheme: Self.myapp, state: Self.state, environment: sandbox.environment, accepting: { !$0.contains("/other") })
        #expect(try picky.wait(timeout: .milliseconds(200)) == .timedOut)
        picky.close()
        let any = try BlockingHandoffReceiver(scheme: Self.myapp, state: Self.state, environment: sandbox.environment)
        #expect(try any.wait(timeout: .seconds(5)) == .callback(url))
    }

    @Test func refusesASecondStatelessReceiverWhenAskedTo() throws {
        let sandbox = Sandbox()
        let first = try BlockingHandoffReceiver(scheme: Self.myapp, state: nil, environment: sandbox.environment)
        #expect(throws: DesktopError.self) {
            _ = try BlockingHandoffReceiver(scheme: Self.myapp, state: nil, environment: sandbox.environment, refusingSecondStateless: true)
        }
        do {
            _ = try BlockingHandoffReceiver(scheme: Self.myapp, state: nil, environment: sandbox.environment, refusingSecondStateless: true)
        } catch {
            #expect(error.code == .conflict)
        }
        first.close()
        _ = try BlockingHandoffReceiver(scheme: Self.myapp, state: nil, environment: sandbox.environment, refusingSecondStateless: true)
    }

    @Test func closeRemovesTheSocketAndAnEmptyWaitTimesOut() throws {
        let sandbox = Sandbox()
        let receiver = try BlockingHandoffReceiver(scheme: Self.myapp, state: Self.state, environment: sandbox.environment)
        #expect(receiver.scheme == Self.myapp)
        #expect(sandbox.exists(receiver.socketPath))
        #expect(try receiver.wait(timeout: .zero) == .timedOut)
        receiver.close()
        #expect(!sandbox.exists(receiver.socketPath))
    }
}
