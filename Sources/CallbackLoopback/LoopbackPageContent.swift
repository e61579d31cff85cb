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

/// What the receiver tells the browser. Every page is static HTML (`LoopbackPageContent+HTML`):
/// no script, no external resource, never the state or the code, and it says only what
/// is true at the moment it is sent. What a page shows from a request is a stable token
/// (a reason code, a provider's `error` code) or the provider's escaped, bounded
/// `error_description` of this very login, never a value.
enum LoopbackPageContent: Equatable, Sendable {
    /// Sent only after the callback was validated and accepted.
    case success
    /// Sent only after the end of a logout (`logout_complete`) was validated and accepted.
    case signedOut
    /// Sent only after an answer that hands the sign-in back to the app to continue was
    /// validated and accepted (Ory's `continue_login_flow`: the account already exists, and
    /// the app continues with the login flow the provider named).
    case continueInApp
    /// The provider's answer (for this login) reports an error. `code`: the `error` value
    /// when it is a plain token (``displayableErrorCode(_:)``), else nil; `description`: its
    /// `error_description` when the answer carries this login's state and the text is
    /// displayable (``displayableDescription(_:)``), else nil.
    case providerError(code: String?, description: String?)
    /// The answer carried the right state but could not be accepted (wrong issuer…);
    /// `reason` is the refusal's reason code.
    case rejected(reason: String)
    /// The answer was accepted and held for the app (``LoopbackReceiver/Configuration/answerHold``),
    /// which did not say how the sign-in ended in time: it is still finishing there.
    case finishing
    /// The answer was accepted and held, and the app could not finish the sign-in;
    /// `sentence`: what it said (``LoopbackSignInEnding/failed(_:)``), when displayable.
    case notSignedIn(sentence: String?)
    /// Nothing has arrived that ends the wait (the answer to HEAD on the callback path).
    case waiting
    /// A callback-looking request that does not belong to this login (another state…):
    /// the wait goes on. `reason` is the reason code.
    case ignored(reason: String)
    /// A request addressed to another `Host` than the redirect URI's `authority`.
    /// `suggestLocalhost`: the receiver is not on `localhost`, so `--host localhost` helps
    /// when the provider sends the browser there.
    case wrongHost(authority: String, suggestLocalhost: Bool)
    /// Every other answer: 404, 405, 403, 400, 410…, with a title and a sentence.
    case refusal(title: String, text: String)

    /// What kind of page this is, for its colour and mark.
    enum Tone: String {
        case success = "ok"
        case warning = "warn"
        case failure = "bad"
    }

    var tone: Tone {
        switch self {
        case .success, .signedOut, .continueInApp: return .success
        case .providerError, .waiting, .ignored, .finishing: return .warning
        case .rejected, .wrongHost, .refusal, .notSignedIn: return .failure
        }
    }

    var title: String {
        switch self {
        case .success: return "Signed in"
        case .signedOut: return "Signed out"
        case .continueInApp: return "Continue in the app"
        case .providerError: return "Sign-in not completed"
        case .rejected: return "Sign-in response refused"
        case .finishing: return "Finishing the sign-in"
        case .notSignedIn: return "Sign-in failed"
        case .waiting: return "Waiting for sign-in"
        case .ignored: return "Request not accepted"
        case .wrongHost: return "Wrong address"
        case .refusal(let title, _): return title
        }
    }

    /// The page's body as HTML fragments (its closing line apart), everything taken from
    /// outside escaped.
    func paragraphs(_ pages: LoopbackPages) -> [String] {
        let app = pages.appName.map(htmlEscaped) ?? "The application"
        switch self {
        case .success:
            return ["\(app) received the sign-in response from the provider."]
        case .signedOut:
            return ["The provider ended the session and \(pages.appName.map(htmlEscaped) ?? "the application") received its answer."]
        case .continueInApp:
            return [
                "An account with these details already exists, so the sign-in is not finished yet.",
                "\(app) received the provider's answer and continues the sign-in: sign in there with the existing account to link the two.",
            ]
        case .providerError(let code, let description):
            var lines = [Self.explanation(ofProviderError: code)]
            if let code {
                lines.append("Error code: <code>\(htmlEscaped(code))</code>")
            }
            if let description {
                lines.append("The provider said: <q>\(htmlEscaped(description))</q>")
            }
            return lines
        case .rejected(let reason):
            return [
                "The provider's answer arrived, but it could not be accepted, so the sign-in did not finish.",
                "Reason: <code>\(htmlEscaped(reason))</code>",
            ]
        case .finishing:
            return ["\(app) received the provider's answer and is still finishing the sign-in."]
        case .notSignedIn(let sentence):
            var lines = ["\(app) received the provider's answer, but could not finish the sign-in."]
            if let sentence { lines.append(htmlEscaped(sentence)) }
            return lines
        case .waiting:
            return ["\(app) is waiting for the sign-in to finish."]
        case .ignored(let reason):
            return [
                "This request does not belong to the sign-in in progress, so it was not accepted.",
                "Reason: <code>\(htmlEscaped(reason))</code>",
            ]
        case .wrongHost(let authority, let suggestLocalhost):
            var lines = [
                "This sign-in receiver answers only requests addressed to <code>\(htmlEscaped(authority))</code>, the address in its redirect URI."
            ]
            if suggestLocalhost {
                lines.append(
                    "If the provider sends the browser to <code>localhost</code> (some register only that name), start the sign-in with <code>--host localhost</code>: the receiver then listens on both 127.0.0.1 and ::1 and puts <code>localhost</code> in the redirect URI (in the library: <code>LoopbackHost.localhost</code>)."
                )
            } else {
                lines.append("Open the address exactly as the redirect URI writes it.")
            }
            return lines
        case .refusal(_, let text):
            return [htmlEscaped(text)]
        }
    }

    /// Where the person goes next: the terminal, the app by name, or "the application".
    func destination(_ pages: LoopbackPages) -> String {
        if pages.returnTo == .terminal { return "the terminal" }
        return pages.appName.map(htmlEscaped) ?? "the application"
    }

    /// The closing line, set apart at the bottom of the card: what to do now.
    func closing(_ pages: LoopbackPages) -> String? {
        switch self {
        case .success, .signedOut, .continueInApp, .providerError:
            return "You can close this tab and return to \(destination(pages))."
        case .rejected:
            return "You can close this tab and start the sign-in again from \(destination(pages))."
        case .finishing:
            return "You can close this tab: \(destination(pages)) says how the sign-in ends."
        case .notSignedIn:
            return "You can close this tab and return to \(destination(pages)): it says what to do next."
        case .ignored:
            return "The sign-in is still waiting: finish it in the tab that \(pages.appName.map(htmlEscaped) ?? "the application") opened."
        case .waiting, .wrongHost, .refusal:
            return nil
        }
    }

    /// The page for an accepted answer of this kind: `logout_complete` says signed out,
    /// `continue_login_flow` says continue in the app, every other success says signed in.
    static func accepted(_ kind: OutcomeKind?) -> LoopbackPageContent {
        switch kind {
        case .logoutComplete?: return .signedOut
        case .continueLoginFlow?: return .continueInApp
        default: return .success
        }
    }

    /// The provider's `error` in words: RFC 6749 §4.1.2.1's codes and the OpenID Connect
    /// Core §3.1.2.6 ones a provider sends most; any other code gets a neutral sentence
    /// (the code itself is shown beside it).
    static func explanation(ofProviderError code: String?) -> String {
        switch code {
        case "access_denied":
            return "You declined the request, or the provider denied it."
        case "invalid_request":
            return "The provider found the sign-in request malformed."
        case "unauthorized_client":
            return "The provider does not allow this application to sign in this way."
        case "unsupported_response_type":
            return "The provider does not support the kind of answer this application asked for."
        case "invalid_scope":
            return "The provider refused the permissions (scopes) this application asked for."
        case "server_error":
            return "The provider ran into an error while handling the sign-in."
        case "temporarily_unavailable":
            return "The provider is temporarily unavailable. Try again in a moment."
        case "login_required":
            return "The provider needs you to sign in, and this request did not let it ask."
        case "consent_required":
            return "The provider needs your consent, and this request did not let it ask."
        case "interaction_required":
            return "The provider needs you to take a step on its pages, and this request did not let it ask."
        case "account_selection_required":
            return "The provider needs you to choose an account, and this request did not let it ask."
        default:
            return "The sign-in provider reported an error."
        }
    }

    /// Shows a provider's `error` value only when it is a short plain token (RFC 6749
    /// §4.1.2.1 codes are); anything else is withheld rather than reflected.
    static func displayableErrorCode(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 64 else { return nil }
        let plain = value.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
        return plain ? value : nil
    }

    /// The longest `error_description` shown, in characters; a longer one is cut there with "…".
    static let maxDescriptionLength = 200

    /// A provider's `error_description` as the page may show it: nil when it is empty or
    /// holds a control or formatting character (`LoopbackPages.isInvisibleOrControl`);
    /// cut to ``maxDescriptionLength`` characters. The caller escapes it.
    static func displayableDescription(_ value: String?) -> String? {
        guard let value, !value.unicodeScalars.isEmpty,
            !value.unicodeScalars.contains(where: LoopbackPages.isInvisibleOrControl)
        else { return nil }
        let scalars = value.unicodeScalars
        guard scalars.count > maxDescriptionLength else { return value }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(maxDescriptionLength))
        return String(cut) + "…"
    }
}

func htmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
