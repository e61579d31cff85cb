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

/// What `open` (and any app's handler executable) checks before a hand-off, and the typed
/// codes of each way a hand-off does not happen (the CLI uses this public API).
@Suite struct HandoffURLTests {
    @Test(arguments: [
        ("https://example.com/cb?state=s", ReasonCode.schemeNotAllowed, Int?.none),
        ("myapp://cb?state=a&state=b", .duplicateParameter, nil),
        ("my_app://cb?state=a", .invalidScheme, 2),
        ("", .emptyInput, nil),
        ("/relative?state=a", .relativeReference, nil),
    ])
    func refusesWhatCannotBeHandedOffWithTheParsersReason(url: String, reason: ReasonCode, offset: Int?) {
        do {
            _ = try HandoffURL(validating: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.reason == reason)
            if let offset { #expect(error.offset == offset) }
        }
    }

    @Test func namesItsSchemeAndNeverItsSecrets() throws {
        let url = try HandoffURL(validating: "MyApp://cb?code=secret-code&state=secret-state")
        #expect(url.scheme.name == "myapp")
        #expect(!url.description.contains("secret"))
        #expect(url.description.contains("myapp"))
    }

    @Test func withoutSpoolingAndWithoutAReceiverItIsNoReceiver() throws {
        let sandbox = Sandbox()
        let url = try HandoffURL(validating: "myapp:/x?state=1")
        #expect(throws: DesktopError(.noReceiver, message: "nobody is waiting for this callback")) {
            try CallbackHandoff.deliver(url, environment: sandbox.environment, spool: false)
        }
        do {
            _ = try CallbackHandoff.deliver(url, environment: sandbox.environment, spool: false)
        } catch DesktopError.noReceiver {
            // `catch` by code works for the new code as for the old ones.
        } catch {
            Issue.record("\(error)")
        }
        #expect(try CallbackHandoff.deliver(url, environment: sandbox.environment) == .spooled)
    }

    @Test func aStringThatIsNotACallbackIsRejected() {
        let sandbox = Sandbox()
        #expect(throws: DesktopError(.rejected, message: "the URL is not a callback URL")) {
            try CallbackHandoff.deliver("https://example.com/?state=1", environment: sandbox.environment)
        }
    }
}
