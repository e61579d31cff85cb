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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn, no desktop (docs/platforms.md)

import CallbackDesktop
import CallbackRouter
import CallbackRouterKit
import CallbackSystem

/// The wait `listen` and `login --scheme` share: one callback of a scheme through the
/// desktop hand-off (CallbackDesktop's public ``BlockingHandoffReceiver``), judged by a
/// ``CallbackJudge`` (a `CallbackValidator` call). Each command prints its own lines for
/// how the wait ended.
enum HandoffWait {
    /// Refusals that say a callback belongs to no login of this wait (another redirect URI,
    /// no state or another one): the receiver answers "not mine" (`open` spools it) and keeps
    /// waiting, as a router keeps an attempt pending, so a forged URL cannot end the wait.
    /// Any other refusal of a callback routed here ends a wait that expects a state (the
    /// callback carries it: the provider's final word); a wait without a state (a stateless
    /// dialect, `--logout --no-state`) ignores every refusal, says so on stderr and goes on:
    /// only an accepted callback or a well-formed provider error ends it.
    static let notMineReasons: Set<ReasonCode> = [.redirectURIMismatch, .stateMissing, .stateMismatch]

    /// How the wait ended.
    enum Ending {
        /// A callback for this wait arrived, judged.
        case judged(Result<CallbackOutcome, CallbackError>)
        /// `open` found two or more receivers that could take a callback and gave it to none.
        case conflict
        /// Nothing arrived in time.
        case timedOut
        /// The receiver could not start; what was printed, and the exit code.
        case ended(exit: Int32)
    }

    /// Makes the receiver (a second stateless one is refused here, at its start, when
    /// `refusingSecondStateless`), removes its socket on a signal, runs `ready` (the browser,
    /// the "waiting" line), then waits for a callback `judge` does not call another login's.
    ///
    /// A refusal at the start is printed here: a conflict as the rejection `conflict` (75), in
    /// the shape a conflict after the wait has; anything else on stderr, `command: message`,
    /// with the desktop error's exit code.
    static func receive(
        scheme: CallbackScheme, state: String?, flowID: String? = nil, refusingSecondStateless: Bool = false, timeout: Duration,
        judge: CallbackJudge, command: String, context: CommandContext, ready: () -> Void = {}
    ) -> Ending {
        // The judgement of the last URL offered: the one the wait returns is judged once.
        var judged: (url: String, result: Result<CallbackOutcome, CallbackError>)?
        let arrival: BlockingHandoffReceiver.Arrival
        do throws(DesktopError) {
            let receiver = try BlockingHandoffReceiver(
                scheme: scheme, state: state, flowID: flowID, environment: context.environment,
                refusingSecondStateless: refusingSecondStateless,
                accepting: { url in
                    let result = FlowIDOption.check(judge(url), flowID: flowID)
                    judged = (url, result)
                    guard case .failure(let refusal) = result else { return true }
                    if notMineReasons.contains(refusal.reason) { return false }
                    // A flow id is no secret (the link shows it): a refused callback carrying it
                    // ends nothing, as in a wait without a state.
                    guard state == nil else { return true }
                    // A stateless wait: nothing ties a refused callback to this login, and any
                    // page can make the browser open one. It is "not mine" (`open` spools it)
                    // and the wait goes on; a well-formed provider error is no refusal, and
                    // still ends it (docs/security.md, "What is not protected").
                    context.printError(
                        "\(command): ignored a callback its dialect refused (\(refusal.reason.rawValue)): without a state anyone can send one; still waiting"
                    )
                    return false
                })
            defer { receiver.close() }
            let socketPath = receiver.socketPath
            context.interruption?.addCleanup { _ = try? FileSystem.remove(socketPath) }
            ready()
            arrival = try receiver.wait(timeout: timeout)
        } catch {
            if error.code == .conflict {
                context.printOutcome(Rendering.rejectionJSON(reason: .conflict, detail: error.message, offset: nil))
                return .ended(exit: ExitCode.tryAgain)
            }
            context.printError("\(command): \(error.message)")
            return .ended(exit: error.exitCode)
        }
        switch arrival {
        case .callback(let url):
            if let judged, judged.url == url { return .judged(judged.result) }
            return .judged(FlowIDOption.check(judge(url), flowID: flowID))
        case .conflict: return .conflict
        case .timedOut: return .timedOut
        }
    }
}

#endif
