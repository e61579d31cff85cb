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

@testable import CallbackLoopback
import CallbackRouter
import CallbackTestSupport
import Testing

/// The receiver's pages: what each says, that each escapes what it shows, and that none can
/// load anything (parsed, not grepped for one spelling).
@Suite struct LoopbackPagesTests {
    static let hostileName = "<img src=x onerror=alert(1)> & \"Acme\" 'Notes'"

    /// Every kind of page, with hostile text wherever a page shows something from outside.
    static let everyPage: [LoopbackPageContent] = [
        .success, .signedOut, .continueInApp,
        .providerError(code: "access_denied", description: "The user said <no> & \"left\""),
        .providerError(code: "<b>x</b>", description: nil), .providerError(code: nil, description: nil),
        .rejected(reason: "issuer_mismatch"), .rejected(reason: "<i>r</i>"),
        .waiting, .ignored(reason: "state_mismatch"), .ignored(reason: "<i>r</i>"),
        .wrongHost(authority: "127.0.0.1:8000", suggestLocalhost: true),
        .wrongHost(authority: "localhost:8000", suggestLocalhost: false),
        .refusal(title: "Not found", text: "Not <found>."),
    ]

    static let everyPages: [LoopbackPages] = [
        LoopbackPages(),
        try! LoopbackPages(appName: hostileName),
        try! LoopbackPages(appName: "callback-router", returnTo: .terminal),
    ]

    // MARK: - Nothing to load

    /// Every element and attribute of every page: no script, frame, form or embedded
    /// object; no URL-valued attribute but the empty `data:,` icon; no `url()` or `@import`
    /// in the stylesheet, which is the only one and the one the CSP's hash allows.
    @Test func noPageReferencesAnExternalResource() throws {
        for pages in Self.everyPages {
            for page in Self.everyPage {
                let html = page.html(pages)
                let document = try #require(HTMLScan(html), "\(page): the page does not parse")
                for tag in document.tags {
                    #expect(!Self.forbiddenElements.contains(tag.name), "\(page): <\(tag.name)>")
                    for (name, value) in tag.attributes where Self.urlAttributes.contains(name) {
                        #expect(tag.name == "link" && name == "href" && value == "data:,", "\(page): <\(tag.name) \(name)=\(value)>")
                    }
                    #expect(!tag.attributes.contains { $0.name.hasPrefix("on") }, "\(page): an event handler")
                    #expect(!tag.attributes.contains { $0.name == "style" }, "\(page): a style attribute (the CSP hash does not cover it)")
                    if tag.name == "link" { #expect(tag.attributes.contains { $0.name == "rel" && $0.value == "icon" }) }
                }
                #expect(document.styles == [LoopbackPageContent.stylesheet], "\(page): one stylesheet, the constant one")
                for style in document.styles {
                    #expect(!style.lowercased().contains("url("), "\(page): url() in the stylesheet")
                    #expect(!style.contains("@import"), "\(page): @import in the stylesheet")
                }
                #expect(document.tags.contains { $0.name == "title" })
            }
        }
    }

    /// Every response with a page carries the CSP (nothing by default, the stylesheet by
    /// its SHA-256), the referrer policy and no-store.
    @Test func everyPageIsSentWithTheContentSecurityPolicy() throws {
        let expectedHash = "'sha256-" + standardBase64(SHA256.hash(LoopbackPageContent.stylesheet.utf8)) + "'"
        #expect(LoopbackPageContent.stylesheetHashSource == expectedHash)
        for page in Self.everyPage {
            let text = String(decoding: LoopbackResponse(status: .ok, page: page).bytes(LoopbackPages()), as: UTF8.self)
            let response = RawResponse(text: text)
            let policy = try #require(response.header("Content-Security-Policy"))
            let directives = policy.split(separator: ";").map { $0.trimmingSpaces() }
            #expect(directives.contains("default-src 'none'"), "\(page)")
            #expect(directives.contains("style-src \(expectedHash)"), "\(page)")
            #expect(!policy.contains("unsafe"), "\(page)")
            #expect(!directives.contains { $0.hasPrefix("script-src") }, "\(page)")
            #expect(response.header("Referrer-Policy") == "no-referrer")
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
    }

    // MARK: - Escaping

    /// The app name, the provider's code and description, a reason and a refusal's text are
    /// text on every page: their markup never reaches the document.
    @Test func everyPageEscapesTheAppNameAndWhatTheProviderSent() throws {
        let pages = try LoopbackPages(appName: Self.hostileName)
        for page in Self.everyPage {
            let html = page.html(pages)
            #expect(!html.contains(Self.hostileName), "\(page): the app name is not escaped")
            #expect(html.contains(htmlEscaped(Self.hostileName)), "\(page): the app name is missing")
            for raw in ["<img", "<b>", "<i>", "<no>", "<found>", "\"left\"", "onerror=alert(1)>"] {
                #expect(!html.contains(raw), "\(page): \(raw) is not escaped")
            }
            let document = try #require(HTMLScan(html))
            #expect(!document.tags.contains { ["img", "b", "i", "no", "found"].contains($0.name) }, "\(page)")
        }
    }

    // MARK: - The app name

    @Test(arguments: [
        "", " Acme", "Acme ", "Acme\nNotes", "Acme\tNotes", "Acme\u{7F}", "Acme\u{85}", "Acme\u{202E}setoN",
        "Acme\u{2066}x\u{2069}", "Acme\u{200B}", "Acme\u{2028}", String(repeating: "a", count: LoopbackPages.maxAppNameLength + 1),
    ])
    func refusesAnAppNameThatCannotBeShownAsIs(_ name: String) {
        let error = #expect(throws: LoopbackError.self) { try LoopbackPages(appName: name) }
        #expect(error?.code == .invalidConfiguration)
        if !name.isEmpty { #expect(error?.detail.contains(name) == false, "the error repeats the name") }
    }

    @Test(arguments: ["Acme Notes", "Ünïcødé 名前 ✓", "a", String(repeating: "n", count: LoopbackPages.maxAppNameLength), "<b>&</b>"])
    func acceptsAPrintableAppNameUpToTheLimit(_ name: String) throws {
        let pages = try LoopbackPages(appName: name)
        #expect(pages.appName == name)
        #expect(LoopbackPageContent.success.html(pages).contains(htmlEscaped(name)))
    }

    @Test func theReceiverRefusesNoNameAndCarriesItToItsPages() async throws {
        var configuration = LoopbackReceiver.Configuration()
        configuration.pages = try LoopbackPages(appName: "Acme Notes", returnTo: .terminal)
        let receiver = try LoopbackReceiver(configuration)
        let request = try sendRequest(port: receiver.port, "/callback?code=c1&state=st-1")
        _ = try await receiver.callback(expecting: .init(dialect: .oauth2, state: "st-1"), timeout: .seconds(20))
        let page = request.readAll()
        #expect(page.statusCode == 200)
        #expect(page.body.contains("<title>Signed in · Acme Notes</title>"))
        #expect(page.body.contains("Acme Notes received the sign-in response"))
        #expect(page.body.contains("You can close this tab and return to the terminal."))
    }

    // MARK: - What each page says

    @Test func theClosingLineNamesWhereThePersonReturns() throws {
        let named = try LoopbackPages(appName: "Acme Notes")
        let terminal = try LoopbackPages(appName: "Acme Notes", returnTo: .terminal)
        #expect(LoopbackPageContent.success.html(LoopbackPages()).contains("You can close this tab and return to the application."))
        #expect(LoopbackPageContent.success.html(named).contains("You can close this tab and return to Acme Notes."))
        #expect(LoopbackPageContent.success.html(terminal).contains("You can close this tab and return to the terminal."))
        #expect(!LoopbackPageContent.success.html(LoopbackPages()).contains("class=\"app\""), "no name: no name label")
    }

    @Test(arguments: [
        ("access_denied", "You declined the request"),
        ("invalid_request", "malformed"),
        ("unauthorized_client", "does not allow this application"),
        ("unsupported_response_type", "does not support the kind of answer"),
        ("invalid_scope", "permissions (scopes)"),
        ("server_error", "ran into an error"),
        ("temporarily_unavailable", "temporarily unavailable"),
        ("login_required", "needs you to sign in"),
        ("consent_required", "needs your consent"),
        ("interaction_required", "needs you to take a step"),
        ("account_selection_required", "choose an account"),
        ("acme_quota_exceeded", "The sign-in provider reported an error."),
    ])
    func theFailurePageNamesTheProvidersErrorInWordsAndCode(_ code: String, _ words: String) {
        let html = LoopbackPageContent.providerError(code: code, description: nil).html(LoopbackPages())
        #expect(html.contains(words))
        #expect(html.contains("Error code: <code>\(code)</code>"))
        #expect(!html.contains("The provider said"))
    }

    @Test func theDescriptionIsShownBoundedAndOnlyWhenDisplayable() {
        #expect(LoopbackPageContent.displayableDescription("The user cancelled") == "The user cancelled")
        let long = String(repeating: "d", count: 500)
        let cut = String(repeating: "d", count: LoopbackPageContent.maxDescriptionLength) + "…"
        #expect(LoopbackPageContent.displayableDescription(long) == cut)
        for withheld in ["", "line\nbreak", "bidi\u{202E}txet", "nul\u{0}"] {
            #expect(LoopbackPageContent.displayableDescription(withheld) == nil, "\(withheld.debugDescription)")
        }
        #expect(LoopbackPageContent.displayableDescription(nil) == nil)
    }

    /// Over real sockets: the failure page of this login (its state) shows the provider's
    /// code and its escaped description; a stateless wait's shows no description (any page
    /// could have sent the browser there).
    @Test func theFailurePageShowsTheDescriptionOnlyForAnAnswerBoundByState() async throws {
        let bound = try LoopbackReceiver()
        let answer = try sendRequest(
            port: bound.port, "/callback?error=access_denied&error_description=Denied+%3Cb%3Eby%3C%2Fb%3E+you&state=st-2")
        _ = try await bound.callback(expecting: .init(dialect: .oauth2, state: "st-2"), timeout: .seconds(20))
        let page = answer.readAll()
        #expect(page.statusCode == 200)
        #expect(page.body.contains("You declined the request"))
        #expect(page.body.contains("<code>access_denied</code>"))
        #expect(page.body.contains("The provider said: <q>Denied &lt;b&gt;by&lt;/b&gt; you</q>"))
        #expect(!page.body.contains("st-2"))

        let stateless = try LoopbackReceiver()
        let other = try sendRequest(port: stateless.port, "/callback?error=access_denied&error_description=Call+us")
        _ = try await stateless.callback(expecting: .init(dialect: .oauth2), timeout: .seconds(20))
        let unbound = other.readAll()
        #expect(unbound.body.contains("<code>access_denied</code>"))
        #expect(!unbound.body.contains("Call us"), "a description not bound to this login is not shown")
    }

    /// Ory account linking (`?flow=<login flow id>`, no code) ends the wait with its outcome, and
    /// the browser is told to continue in the app, not that it is signed in (never a 400 page
    /// while the receiver waits out its timeout).
    @Test func accountLinkingGetsTheContinueInTheAppPage() async throws {
        let receiver = try LoopbackReceiver()
        let answer = try sendRequest(
            port: receiver.port, "/callback?flow=5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c&no_org_ui=true")
        let outcome = try await receiver.callback(expecting: .init(dialect: .ory), timeout: .seconds(20))
        #expect(outcome.kind == .continueLoginFlow)
        #expect(outcome.flow == "5b1e3c2a-9d4f-4e8b-a7c6-0f2d1e3b4a5c")
        let page = answer.readAll()
        #expect(page.statusCode == 200)
        #expect(page.body.contains("Continue in the app"))
        #expect(page.body.contains("An account with these details already exists"))
        #expect(!page.body.contains("Signed in"))
        #expect(!page.text.contains("5b1e3c2a"), "the page shows the flow id")
        #expect(LoopbackPageContent.accepted(.continueLoginFlow) == .continueInApp)
        #expect(LoopbackPageContent.accepted(.logoutComplete) == .signedOut)
        #expect(LoopbackPageContent.accepted(.sessionTokenExchangeCode) == .success)
    }

    /// A callback of another login is answered with the reason code, never the value.
    @Test func theRefusalPageGivesTheReasonCodeNeverTheValue() async throws {
        let receiver = try LoopbackReceiver()
        let stranger = try sendRequest(port: receiver.port, "/callback?code=c9&state=another-login-state")
        let genuine = try sendRequest(port: receiver.port, "/callback?code=c1&state=st-3")
        _ = try await receiver.callback(expecting: .init(dialect: .oauth2, state: "st-3"), timeout: .seconds(20))
        _ = genuine.readAll()
        let page = stranger.readAll()
        #expect(page.statusCode == 400)
        #expect(page.body.contains("Reason: <code>state_mismatch</code>"))
        #expect(!page.text.contains("another-login-state"))
        #expect(!page.text.contains("st-3"))
    }

    /// `Host: localhost:PORT` on a 127.0.0.1 receiver: 403 with the option that fixes it,
    /// spelled as the CLI declares it; the request's Host is not echoed.
    @Test func theWrongHostPageSuggestsTheLocalhostOption() async throws {
        let receiver = try LoopbackReceiver()
        let misaddressed = try RawClient(port: receiver.port)
        misaddressed.send("GET /callback?code=c&state=st-4 HTTP/1.1\r\nHost: localhost:\(receiver.port)\r\n\r\n")
        let genuine = try sendRequest(port: receiver.port, "/callback?code=c&state=st-4")
        _ = try await receiver.callback(expecting: .init(dialect: .oauth2, state: "st-4"), timeout: .seconds(20))
        _ = genuine.readAll()
        let response = misaddressed.readAll()
        #expect(response.statusCode == 403)
        #expect(response.body.contains("<code>127.0.0.1:\(receiver.port)</code>"))
        #expect(response.body.contains("<code>--host localhost</code>"))
        #expect(!response.body.contains("localhost:\(receiver.port)"), "the request's Host is not reflected")
    }

    // MARK: - A small HTML reader, enough for our own pages

    static let forbiddenElements: Set<String> = [
        "script", "iframe", "frame", "object", "embed", "img", "picture", "source", "video", "audio", "form", "input",
        "button", "base", "svg", "math", "applet", "portal", "track", "template", "noscript",
    ]
    static let urlAttributes: Set<String> = [
        "src", "href", "srcset", "action", "formaction", "poster", "data", "background", "xlink:href", "manifest", "ping",
        "cite", "longdesc", "lowsrc", "dynsrc", "codebase", "archive",
    ]
}

/// The tags (lowercased names, attributes) and `<style>` texts of a document; nil when a tag
/// is not closed or an attribute's quotes do not match.
struct HTMLScan {
    struct Tag {
        var name: String
        var attributes: [(name: String, value: String)]
    }

    var tags: [Tag] = []
    var styles: [String] = []

    init?(_ html: String) {
        let bytes = Array(html.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "/") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                index = close + 1
                continue
            }
            var cursor = index
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
            func word() -> String {
                let start = cursor
                while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
                    bytes[cursor] != UInt8(ascii: "="), bytes[cursor] != UInt8(ascii: "/")
                {
                    cursor += 1
                }
                return String(decoding: bytes[start ..< cursor], as: UTF8.self).lowercased()
            }
            var tag = Tag(name: word(), attributes: [])
            guard !tag.name.isEmpty else { return nil }
            while true {
                while cursor < bytes.count, isSpace(bytes[cursor]) || bytes[cursor] == UInt8(ascii: "/") { cursor += 1 }
                guard cursor < bytes.count else { return nil }
                if bytes[cursor] == UInt8(ascii: ">") { break }
                let name = word()
                guard !name.isEmpty else { return nil }
                var value = ""
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
                    cursor += 1
                    guard cursor < bytes.count else { return nil }
                    let quote = bytes[cursor]
                    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                        guard let end = bytes[(cursor + 1)...].firstIndex(of: quote) else { return nil }
                        value = String(decoding: bytes[(cursor + 1) ..< end], as: UTF8.self)
                        cursor = end + 1
                    } else {
                        let start = cursor
                        while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
                        value = String(decoding: bytes[start ..< cursor], as: UTF8.self)
                    }
                }
                tag.attributes.append((name, value))
            }
            index = cursor + 1
            tags.append(tag)
            if tag.name == "style" {
                let closing = Array("</style>".utf8)
                var end = index
                while end + closing.count <= bytes.count, !bytes[end ..< end + closing.count].elementsEqual(closing) { end += 1 }
                guard end + closing.count <= bytes.count else { return nil }
                styles.append(String(decoding: bytes[index ..< end], as: UTF8.self))
                index = end + closing.count
            }
        }
    }
}

/// RFC 4648 §4 base64 with padding, written apart from the library's (which goes through base64url).
func standardBase64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = Array(bytes[index ..< min(index + 3, bytes.count)])
        let value = chunk.enumerated().reduce(0) { $0 | (Int($1.element) << (16 - 8 * $1.offset)) }
        for position in 0 ..< 4 {
            out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: out, as: UTF8.self)
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
