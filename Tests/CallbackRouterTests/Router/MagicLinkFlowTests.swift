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

import Testing
@testable import CallbackRouter

/// Issue 34, point 3: clerk-ios (`Auth.completeMagicLink`, `MagicLinkStore`) and clerk-android
/// (`NativeMagicLinkManager.lookupPendingFlow`) keep the pending magic-link flow's id and
/// accept a link only for that flow. A router's magic-link attempt does the same.
private let clerkRedirect = "com.example.app://callback"

private func clerkRouter(clock: ManualAttemptClock = ManualAttemptClock()) throws -> CallbackRouter {
    var builder = RouterBuilder()
    builder.add(Route("clerk", redirectURI: try RedirectURI(clerkRedirect), dialect: .clerk))
    builder.add(Route("op", redirectURI: try RedirectURI("com.example.app:/oauth2redirect"), dialect: .oauth2))
    return try builder.build(clock: clock)
}

private func link(flow: String, token: String = "apt_4f1c9e") -> String {
    clerkRedirect + "?flow_id=\(flow)&approval_token=\(token)"
}

private func reason(_ body: () throws -> Void) -> ReasonCode? {
    do { try body(); return nil } catch { return (error as? CallbackError)?.reason }
}

@Suite struct RouterMagicLinkFlowTests {
    @Test func aMagicLinkAttemptBeginsWithItsFlowIDAndShowsIt() throws {
        let router = try clerkRouter()
        let attempt = try router.beginLogin(on: "clerk", flowID: "sia_2abcDEF")
        #expect(attempt.flowID == "sia_2abcDEF")
        #expect(attempt.description.contains("flow: sia_2abcDEF"))
        #expect(!attempt.description.contains(attempt.state))
        #expect(try router.beginLogin(on: "op").flowID == nil)
    }

    @Test(arguments: ["", "sia 2", "sia_2abc\n", "sia_é", "sia/..", String(repeating: "a", count: 129)])
    func aFlowIDThatIsNotOneIsInvalidConfiguration(_ flowID: String) throws {
        let router = try clerkRouter()
        #expect(reason { _ = try router.beginLogin(on: "clerk", flowID: flowID) } == .invalidConfiguration)
        #expect(router.pendingCount == 0)
    }

    @Test func aFlowIDOnARouteThatIsNotClerksIsInvalidConfiguration() throws {
        let router = try clerkRouter()
        #expect(reason { _ = try router.beginLogin(on: "op", flowID: "sia_2abc") } == .invalidConfiguration)
        #expect(reason { _ = try router.beginLogin(on: "nope", flowID: "sia_2abc") } == .noRoute)
        #expect(router.pendingCount == 0)
    }

    @Test func theLinkForTheAttemptsFlowIsDeliveredOnce() throws {
        let router = try clerkRouter()
        let attempt = try router.beginLogin(on: "clerk", flowID: "sia_2abc")
        let delivery = try router.handle(link(flow: "sia_2abc"))
        #expect(delivery.attempt == attempt && delivery.outcome.kind == .magicLink)
        #expect(delivery.outcome.approvalToken == "apt_4f1c9e")
        #expect(reason { try router.handle(link(flow: "sia_2abc")) } == .replayed)
    }

    @Test func aLinkForAnotherFlowIsStateMismatchAndTheAttemptStaysPending() async throws {
        let router = try clerkRouter()
        let attempt = try router.beginLogin(on: "clerk", flowID: "sia_2abc")
        for other in ["sia_2abd", "sia_2ab", "sia_2abcd", "SIA_2ABC", "sua_2abc"] {
            #expect(reason { try router.handle(link(flow: other)) } == .stateMismatch, "\(other)")
        }
        #expect(router.pendingCount == 1)
        // The real link still completes it; a later wait gets it.
        try router.handle(link(flow: "sia_2abc"))
        #expect(try await router.callback(for: attempt, timeout: .zero).outcome.flowID == "sia_2abc")
    }

    @Test func anotherFlowsRefusalNeverShowsEitherFlowID() throws {
        let router = try clerkRouter()
        _ = try router.beginLogin(on: "clerk", flowID: "sia_expected")
        do {
            try router.handle(link(flow: "sia_forged"))
            Issue.record("delivered")
        } catch {
            #expect(error.reason == .stateMismatch)
            #expect(!error.detail.contains("sia_expected") && !error.detail.contains("sia_forged"))
        }
    }

    /// As both SDKs with a pending flow stored without its id: any flow's link is taken.
    @Test func anAttemptBegunWithoutAFlowIDTakesAnyFlowsLink() throws {
        let router = try clerkRouter()
        let attempt = try router.beginLogin(on: "clerk")
        #expect(try router.handle(link(flow: "sia_whatever")).attempt == attempt)
    }

    /// The flow id binds magic links only: the attempt's other answers are read as before.
    @Test func aFlowBoundAttemptStillTakesClerksNonce() throws {
        let router = try clerkRouter()
        let attempt = try router.beginLogin(on: "clerk", flowID: "sia_2abc")
        #expect(try router.handle(clerkRedirect + "?rotating_token_nonce=rtn_2b8c").attempt == attempt)
    }
}

@Suite struct SealedMagicLinkFlowTests {
    @Test func aFlowBoundAttemptIsSealedAndRestoredWithItsFlowID() throws {
        let clock = ManualAttemptClock()
        let attempt = try clerkRouter(clock: clock).beginLogin(on: "clerk", flowID: "sia_2abc")
        let sealed = attempt.sealed()
        let lines = sealed.text.split(separator: "\n")
        #expect(lines.count == 13 && lines[11] == "flow-id c2lhXzJhYmM")
        let router = try clerkRouter(clock: clock)
        let restored = try router.restore(sealed)
        #expect(restored.flowID == "sia_2abc" && restored.state == attempt.state)
        #expect(reason { try router.handle(link(flow: "sia_other")) } == .stateMismatch)
        #expect(try router.handle(link(flow: "sia_2abc")).attempt == restored)

        let keyed = try clerkRouter(clock: clock).restore(
            try attempt.sealed(key: Array(repeating: 7, count: 32)), key: Array(repeating: 7, count: 32))
        #expect(keyed.flowID == "sia_2abc")
    }

    @Test func aRecordWithoutAFlowIDRestoresExactlyAsBefore() throws {
        let clock = ManualAttemptClock()
        let attempt = try clerkRouter(clock: clock).beginLogin(on: "clerk")
        let sealed = attempt.sealed()
        #expect(sealed.text.split(separator: "\n").count == 12 && !sealed.text.contains("flow-id"))
        let router = try clerkRouter(clock: clock)
        let restored = try router.restore(sealed)
        #expect(restored.flowID == nil)
        #expect(try router.handle(link(flow: "sia_any")).attempt == restored)
    }

    @Test func aFlowIDLineThatWasEditedIsRefused() throws {
        let clock = ManualAttemptClock()
        let sealed = try clerkRouter(clock: clock).beginLogin(on: "clerk", flowID: "sia_2abc").sealed()
        let edited = sealed.text.replacingFirst("flow-id c2lhXzJhYmM", with: "flow-id c2lhXzJhYmQ")
        #expect(reason { _ = try clerkRouter(clock: clock).restore(edited) } == .invalidRecord)
        let dropped = sealed.text.replacingFirst("flow-id c2lhXzJhYmM\n", with: "")
        #expect(reason { _ = try clerkRouter(clock: clock).restore(dropped) } == .invalidRecord)
    }
}

extension String {
    /// The record with the line `target` replaced by `replacement` (no Foundation here).
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        let wanted = target.hasSuffix("\n") ? String(target.dropLast()) : target
        let dropsLine = target.hasSuffix("\n") && replacement.isEmpty
        var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(of: wanted) else { return self }
        if dropsLine { lines.remove(at: index) } else { lines[index] = replacement }
        return lines.joined(separator: "\n")
    }
}
