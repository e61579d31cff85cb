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

import CallbackRouter
import CallbackSystem

/// Deciding what to answer: what one request head (and a form_post body) gets.
extension LoopbackServer {
    /// What the receiver does with one complete request head.
    struct Decision {
        var response: LoopbackResponse
        /// Set when this request ends the wait.
        var verdict: LoopbackEvaluation?
        /// Set when the request reached validation and was not accepted.
        var ignoredReason: String?
        /// One line for stderr, free of secrets (no query, no foreign path).
        var log: String?
        /// Accepted without ending the wait here (the router's waiter ends it): the page
        /// must still be sent in full before a stop closes the connection.
        var accepted = false
        /// The answer waits for the app (``LoopbackReceiver/Configuration/answerHold``): an
        /// accepted success of this login, not a provider error or a refusal.
        var held = false
    }

    func decide(_ head: HTTPRequestHead, validation: LoopbackValidation) -> Decision {
        decide(head, body: nil, judge: Self.judge(validation))
    }

    /// The judge of a wait with the receiver's own validation (no router).
    static func judge(_ validation: LoopbackValidation) -> LoopbackJudge {
        { url in
            let evaluation = validation.evaluate(callbackURL: url)
            return LoopbackJudgement(evaluation: evaluation, disposition: validation.endsWait(evaluation) ? .endsWait : .ignored)
        }
    }

    func decide(_ head: HTTPRequestHead, body: [UInt8]? = nil, judge: LoopbackJudge) -> Decision {
        if let refusal = refuseOutsideRequest(head, body: body) { return refusal }
        if head.path.utf8.count == startPath.utf8.count, constantTimeEquals(String(head.path), startPath) {
            return decideStart(head)
        }
        guard configuration.servesCallbacks, head.path == configuration.path else {
            return Decision(
                response: .refusal(.notFound, "Nothing is served at this address; the sign-in goes on in the terminal."),
                log: "answered 404 to a request for another path")
        }
        if let answer = answerOtherMethods(head) { return answer }
        switch callbackURL(head, body: body) {
        case .failure(let refusal): return refusal.decision
        case .success(let callbackURL): return decideCallback(judge(callbackURL))
        }
    }

    /// The refusals of every request, before its path is looked at: another `Host` (DNS
    /// rebinding), a request that is not a navigation, a body where none is expected, a `*` target.
    private func refuseOutsideRequest(_ head: HTTPRequestHead, body: [UInt8]?) -> Decision? {
        // Host first: a page on another origin that reaches us through DNS rebinding
        // learns nothing, not even which paths exist.
        let hosts = head.values(of: "host")
        guard hosts.count == 1 else {
            return Decision(
                response: .refusal(.badRequest, "A request needs exactly one Host header."),
                log: "answered 400 to a request with \(hosts.count) Host headers")
        }
        guard isExpectedHost(hosts[0]) else {
            let page = LoopbackPageContent.wrongHost(authority: authority, suggestLocalhost: configuration.host != .localhost)
            return Decision(
                response: LoopbackResponse(status: .forbidden, page: page),
                log: "answered 403 to a request addressed to another host (DNS rebinding defence)")
        }
        // A cross-site subresource (img, fetch, script…) carries Sec-Fetch-Mode other than
        // navigate; only a top-level or frame navigation is a redirect from the provider.
        let modes = head.values(of: "sec-fetch-mode")
        if modes.count > 1 || (modes.count == 1 && modes[0].lowercased() != "navigate") {
            return Decision(
                response: .refusal(.forbidden, "Only a browser navigation is accepted here."),
                log: "answered 403 to a non-navigation request (Sec-Fetch-Mode)")
        }
        if body == nil, !head.values(of: "transfer-encoding").isEmpty {
            return Decision(
                response: .refusal(.notImplemented, "Request bodies are not accepted."),
                log: "answered 501 to a request with Transfer-Encoding")
        }
        let lengths = head.values(of: "content-length")
        if body == nil, lengths.contains(where: { $0 != "0" }) {
            return Decision(
                response: .refusal(.contentTooLarge, "Request bodies are not accepted."),
                log: "answered 413 to a request with a body")
        }
        if head.target == "*" {
            guard head.method == "OPTIONS" else {
                return Decision(response: .refusal(.badRequest, "Bad request."), log: "answered 400 to a '*' target")
            }
            return Decision(response: LoopbackResponse(status: .noContent, page: nil, allow: "GET, HEAD, OPTIONS"))
        }
        return nil
    }

    /// On the callback path: the answer to a method that is not the callback's (HEAD,
    /// OPTIONS, a GET in form_post mode, anything else); nil for the callback's method.
    private func answerOtherMethods(_ head: HTTPRequestHead) -> Decision? {
        let allowed = configuration.formPost ? "POST, HEAD, OPTIONS" : "GET, HEAD, OPTIONS"
        let callbackMethod = configuration.formPost ? "POST" : "GET"
        switch head.method {
        case callbackMethod:
            return nil
        case "HEAD":
            // Link scanners and prefetchers probe with HEAD: never a callback.
            return Decision(
                response: LoopbackResponse(status: .ok, page: .waiting, omitBody: true),
                log: "answered HEAD on the callback path without consuming the login")
        case "OPTIONS":
            return Decision(
                response: LoopbackResponse(status: .noContent, page: nil, allow: allowed),
                log: "answered OPTIONS on the callback path without consuming the login")
        case "GET":
            // form_post: a GET (a prefetch, a stale link, a query-mode answer) never ends the wait.
            return Decision(
                response: .refusal(.methodNotAllowed, "This sign-in expects the provider's form (POST).", allow: allowed),
                ignoredReason: "get_in_form_post",
                log: "answered 405 to a GET on the callback path: this login expects a form_post; still waiting")
        default:
            return Decision(
                response: .refusal(.methodNotAllowed, "Only \(callbackMethod) is accepted here.", allow: allowed),
                log: "answered 405 to a method other than \(callbackMethod), HEAD or OPTIONS on the callback path")
        }
    }

    /// A refusal as a failure value (`Decision` is not an `Error`).
    private struct Refusal: Error {
        let decision: Decision
    }

    /// The callback URL a request stands for: its target on this authority, or in form_post
    /// mode the posted form as the query of the callback path.
    private func callbackURL(_ head: HTTPRequestHead, body: [UInt8]?) -> Result<String, Refusal> {
        var callbackURL = "http://\(authority)\(head.target)"
        if configuration.formPost {
            guard head.target == configuration.path else {
                return .failure(
                    Refusal(
                        decision: Decision(
                            response: .refusal(.badRequest, "The form must be posted to the callback path without a query."),
                            log: "answered 400 to a form_post whose target carries a query")))
            }
            let types = head.values(of: "content-type")
            guard types.count == 1, Self.isFormURLEncoded(types[0]) else {
                return .failure(
                    Refusal(
                        decision: Decision(
                            response: .refusal(.unsupportedMediaType, "The form must be application/x-www-form-urlencoded."),
                            log: "answered 415 to a form_post that is not application/x-www-form-urlencoded")))
            }
            let bytes = body ?? []
            // The body becomes the query of the same URL, read by the same parser with the
            // same limits. A '#' would make the rest a fragment the parser sets aside: refuse
            // it rather than read half of the form.
            guard !bytes.contains(UInt8(ascii: "#")) else {
                return .failure(
                    Refusal(
                        decision: Decision(
                            response: .refusal(.badRequest, "The form is malformed."),
                            log: "answered 400 to a form_post body with a raw '#'")))
            }
            callbackURL += "?" + String(decoding: bytes, as: UTF8.self)
        }
        return .success(callbackURL)
    }

    /// The answer to a judged callback: the success or failure page (or the app's
    /// redirect) for one of this login, the 400 "ignored" page for any other.
    private func decideCallback(_ judgement: LoopbackJudgement) -> Decision {
        let evaluation = judgement.evaluation
        if judgement.disposition != .ignored {
            let ends = judgement.disposition == .endsWait
            var decision: Decision
            switch evaluation.kind {
            case .success:
                decision = Decision(
                    response: configuration.successURL.map { .redirect(.seeOther, to: $0) }
                        ?? LoopbackResponse(status: .ok, page: LoopbackPageContent.accepted((try? evaluation.result.get())?.kind)))
                decision.held = configuration.answerHold != nil && evaluation.carriesExpectedState
            case .providerFailure:
                let code = LoopbackPageContent.displayableErrorCode(evaluation.providerError)
                // The provider's own words, only for an answer bound to this login by its
                // state: a stateless wait's error could come from any page that navigates here.
                let outcome = try? evaluation.result.get()
                let bound = evaluation.carriesExpectedState && outcome?.value("state") != nil
                let description = bound ? LoopbackPageContent.displayableDescription(outcome?.value("error_description")) : nil
                decision = Decision(
                    response: configuration.failureURL.map { .redirect(.seeOther, to: $0) }
                        ?? LoopbackResponse(status: .ok, page: .providerError(code: code, description: description)))
            case .rejected:
                decision = Decision(
                    response: configuration.failureURL.map { .redirect(.seeOther, to: $0) }
                        ?? LoopbackResponse(status: .badRequest, page: .rejected(reason: reasonOf(evaluation))),
                    log: "refused the callback for this login: \(reasonOf(evaluation))")
            }
            if ends { decision.verdict = evaluation } else { decision.accepted = true }
            return decision
        }
        let reason = reasonOf(evaluation)
        return Decision(
            response: LoopbackResponse(status: .badRequest, page: .ignored(reason: reason)), ignoredReason: reason,
            log: "ignored a callback that does not belong to this login (\(reason)); still waiting")
    }

    /// The short start URL: a terminal that wraps or cuts a long authorization URL still
    /// gets the user there. Its path is a secret of the one who started the login, and it
    /// reveals the authorization URL (its state, challenge and nonce) once: anyone else who
    /// follows it later learns nothing, and the user sees that someone did.
    func decideStart(_ head: HTTPRequestHead) -> Decision {
        switch head.method {
        case "GET":
            let (destination, wasUsed) = startLink.withLock { link -> (String?, Bool) in
                guard let url = link.authorizationURL, !link.used else { return (nil, link.used) }
                link.used = true
                return (url, false)
            }
            if let destination {
                return Decision(
                    response: .redirect(.found, to: destination), log: "redirected the start URL to the authorization URL (once)")
            }
            if wasUsed {
                return Decision(
                    response: .refusal(
                        .gone,
                        "This sign-in link was already used. If that was not you, stop the sign-in in the application and start it again."),
                    log: "answered 410 to the start URL: it was already used")
            }
            return Decision(
                response: .refusal(.notFound, "The sign-in is not ready yet."),
                log: "answered 404 to the start URL: no authorization URL is known yet")
        case "HEAD":
            // Link scanners and prefetchers probe with HEAD: it neither reveals nor uses the link.
            return Decision(
                response: LoopbackResponse(status: .ok, page: .waiting, omitBody: true),
                log: "answered HEAD on the start URL without revealing or using it")
        default:
            return Decision(
                response: .refusal(.methodNotAllowed, "Only GET is accepted here.", allow: "GET, HEAD"),
                log: "answered 405 to a method other than GET or HEAD on the start URL")
        }
    }

    func reasonOf(_ evaluation: LoopbackEvaluation) -> String {
        evaluation.reason?.rawValue ?? "accepted"
    }

    /// The exact authority of the redirect URI. `localhost` and other spellings of the
    /// address are refused: a browser following our redirect URI sends the literal.
    func isExpectedHost(_ value: String) -> Bool {
        let host = configuration.host.uriHost
        return value == authority || (port == 80 && value == host)
    }

    /// A pasted URL addressed to this receiver: `http`, its host and port, its path.
    func isOwnCallbackURL(_ text: String) -> Bool {
        guard let url = try? CallbackURL(parsing: text), url.scheme == "http", let host = url.host,
            host.text.lowercased() == configuration.host.uriHost, url.port == port
        else { return false }
        return url.path == configuration.path
    }

    /// `application/x-www-form-urlencoded`, optionally with parameters (`; charset=UTF-8`).
    static func isFormURLEncoded(_ value: String) -> Bool {
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = type.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        return String(trimmed).lowercased() == "application/x-www-form-urlencoded"
    }

    enum BodyPlan: Equatable {
        case none
        case read(Int)
        case refuse(HTTPStatus, String)
    }

    /// Whether a request's body is read: only a form_post callback's, and only within the
    /// limit (413 above it, before a byte of it is read: never a partial parse).
    func bodyPlan(_ head: HTTPRequestHead) -> BodyPlan {
        guard configuration.formPost, head.method == "POST", head.path == configuration.path else { return .none }
        if !head.values(of: "transfer-encoding").isEmpty {
            return .refuse(.notImplemented, "answered 501 to a form_post with Transfer-Encoding (a length is required)")
        }
        let lengths = head.values(of: "content-length")
        guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.utf8.count <= 9,
            text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text)
        else {
            return .refuse(.badRequest, "answered 400 to a form_post without one valid Content-Length")
        }
        guard length <= configuration.maxBodyBytes else {
            return .refuse(.contentTooLarge, "answered 413 to a form_post body of \(length) bytes (limit \(configuration.maxBodyBytes))")
        }
        return .read(length)
    }
}
