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

import CallbackLoopback
import CallbackRouter
import CallbackRouterKit

/// The loopback receiver's options (RFC 8252 §7.3), shared by `loopback` and `login`: one
/// declaration each, and the one reader of them into a receiver's configuration.
enum LoopbackOptions {
    /// The receiver's options listed under `group`, with what a command adds to the summary
    /// of some of them (`notes`, by option name).
    static func receiver(under group: OptionGroup = .main, notes: [String: String]) -> [OptionDeclaration] {
        receiver.map { option in
            option.listed(under: group).described(notes[option.name].map { option.summary + " " + $0 } ?? option.summary)
        }
    }

    static let port = OptionDeclaration.value(
        "port", "N[,N…]",
        "Port to bind (default 0: one the system picks); a list binds the first free one (providers that register fixed ports).")
    static let path = OptionDeclaration.value("path", "P", "Callback path, starting with '/' (default /callback).")
    static let ipv6 = OptionDeclaration.flag("ipv6", "Bind [::1] instead of 127.0.0.1.")
    static let host = OptionDeclaration.value(
        "host", "H",
        "127.0.0.1 (default), ::1 (as --ipv6), or localhost: bind both 127.0.0.1 and ::1 on one port, answer only Host: localhost:PORT, and name localhost in the redirect URI (providers that register only that name).",
        choices: ["127.0.0.1", "::1", "localhost"])
    static let responseMode = OptionDeclaration.value(
        "response-mode", "M",
        "query (default: a GET with the parameters in the query) or form_post (OIDC Form Post: a POST with an application/x-www-form-urlencoded body, at most 16 KiB, read by the same parser and limits; a GET then never ends the wait).",
        choices: ["query", "form_post"])
    static let acceptPaste = OptionDeclaration.flag(
        "accept-paste",
        "Also accept the callback URL pasted on stdin (a terminal), one per line: for remote and SSH sessions where the browser cannot reach the port. Validated exactly as over HTTP; the first valid callback, pasted or requested, wins, exactly once."
    )
    static let successURL = OptionDeclaration.value(
        "success-url", "U", "After an accepted callback, redirect the browser to U (303) instead of the built-in page; http or https.")
    static let failureURL = OptionDeclaration.value(
        "failure-url", "U", "After a provider error or a refused callback of this login, redirect the browser to U (303).")
    static let appName = OptionDeclaration.value(
        "app-name", "NAME",
        "The name the browser pages show (\"Signed in · NAME\"); default: login's --client-id, else callback-router. At most 64 characters, no control characters; shown as text, never markup."
    )
    static let allowOtherUsers = OptionDeclaration.flag(
        "allow-other-users",
        "Linux: also answer connections from processes of other users of this computer. Without it (the default) such a connection gets 403 before its request is read (its owner is asked of the kernel by the connection's address pair, through netlink; an owner not found is refused too), so another user can neither end the wait nor read a page. Only for a browser that runs as another user. Other systems (macOS) cannot tell: there every local process is answered."
    )

    /// The options that shape the receiver (address, port, path, response mode, pages).
    static let receiver: [OptionDeclaration] = [
        port, path, ipv6, host, responseMode, acceptPaste, successURL, failureURL, appName, allowOtherUsers,
    ]

    static func readConfiguration(_ args: Arguments) throws(Arguments.UsageError) -> (LoopbackReceiver.Configuration, Duration, String) {
        var configuration = LoopbackReceiver.Configuration()
        configuration.host = args.has(ipv6) ? .ipv6 : .ipv4
        if let hostName = try args.single(Self.host) {
            guard !args.has(ipv6) else { throw Arguments.UsageError(description: "--host and --ipv6 exclude each other") }
            switch hostName {
            case "127.0.0.1": configuration.host = .ipv4
            case "::1", "[::1]": configuration.host = .ipv6
            case "localhost": configuration.host = .localhost
            default: throw Arguments.UsageError(description: "--host takes 127.0.0.1, ::1 or localhost")
            }
        }
        if let ports = try args.single(Self.port) {
            let parsed = ports.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !parsed.isEmpty, parsed.count <= 64, parsed.allSatisfy({ $0.map { (0 ... 65535).contains($0) } ?? false }) else {
                throw Arguments.UsageError(description: "--port takes a port (0-65535) or a comma-separated list of at most 64")
            }
            configuration.ports = parsed.compactMap { $0 }
        }
        switch try args.single(responseMode) {
        case nil, "query": configuration.responseMode = .query
        case "form_post": configuration.responseMode = .formPost
        default: throw Arguments.UsageError(description: "--response-mode takes query or form_post")
        }
        for (option, keyPath) in [
            (successURL, \LoopbackReceiver.Configuration.successURL),
            (failureURL, \LoopbackReceiver.Configuration.failureURL),
        ] {
            guard let url = try args.single(option) else { continue }
            guard isRedirectTarget(url) else {
                throw Arguments.UsageError(description: "--\(option.name) must be an absolute http or https URL")
            }
            configuration[keyPath: keyPath] = url
        }
        if let path = try args.single(Self.path) {
            guard isValidPath(path) else {
                throw Arguments.UsageError(
                    description:
                        "--path must start with '/' and hold only URL path characters (no '?', '#', spaces or '%' that is not an escape)")
            }
            configuration.path = path
        }
        configuration.pages = try pages(args)
        configuration.allowOtherUsers = args.has(allowOtherUsers)
        if args.has(acceptPaste) {
            guard !args.has(CommonOptions.stateFromStdin) else {
                throw Arguments.UsageError(description: "--accept-paste and --state-from-stdin both read stdin: choose one")
            }
            configuration.pasteDescriptor = 0
        }
        let seconds = try Durations.seconds(args, CommonOptions.timeout)
        return (configuration, .seconds(seconds), Durations.describe(seconds: seconds))
    }

    /// The pages name the app (`--app-name`; else login's client id when it can be shown as
    /// is, else the tool) and send the person back to the terminal.
    static func pages(_ args: Arguments) throws(Arguments.UsageError) -> LoopbackPages {
        if let name = try args.single(appName) {
            do {
                return try LoopbackPages(appName: name, returnTo: .terminal)
            } catch {
                throw Arguments.UsageError(description: "--app-name: \(error.detail)")
            }
        }
        let clientID = (try? args.single(CommonOptions.clientID)) ?? nil
        if let clientID, let pages = try? LoopbackPages(appName: clientID, returnTo: .terminal) { return pages }
        return (try? LoopbackPages(appName: "callback-router", returnTo: .terminal)) ?? LoopbackPages()
    }

    /// Under SSH (`SSH_CONNECTION` set) the browser runs on another machine and cannot
    /// reach our 127.0.0.1: say which `ssh -L` forwards the port, or to paste the URL.
    static func sshForwardingHint(port: Int, environment: [String: String]) -> String? {
        guard let connection = environment["SSH_CONNECTION"], !connection.isEmpty else { return nil }
        // SSH_CONNECTION is "client-ip client-port server-ip server-port".
        let parts = connection.split(separator: " ")
        let server = parts.count == 4 ? String(parts[2]) : "THIS-HOST"
        let sshPort = parts.count == 4 && parts[3] != "22" ? " -p \(parts[3])" : ""
        return
            "this is an SSH session: the browser must reach port \(port) here. On the machine with the browser, run: ssh -N -L \(port):127.0.0.1:\(port)\(sshPort) \(server)"
    }

    /// An absolute http/https URL without spaces or controls (it goes into `Location`).
    static func isRedirectTarget(_ url: String) -> Bool {
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            let parsed = try? CallbackURL(parsing: url), parsed.scheme == "http" || parsed.scheme == "https",
            parsed.host?.text.isEmpty == false
        else { return false }
        return true
    }

    /// A path the URL parser reads back unchanged, with no query or fragment.
    static func isValidPath(_ path: String) -> Bool { LoopbackReceiver.isValidPath(path) }

    /// A loopback redirect URI is http: a dialect whose provider accepts only a custom scheme
    /// (``Dialect/impliedPolicy``: Prelude, Clerk) refuses it, as `parse` refuses such a
    /// `--redirect-uri` (`invalid_configuration`, exit 64). Nil when the dialect takes it.
    static func refusal(of dialect: Dialect) -> CallbackError? {
        guard let policy = dialect.impliedPolicy else { return nil }
        do {
            _ = try RedirectURI("http://127.0.0.1/callback", policy: policy, allowsLocalhost: false)
            return nil
        } catch {
            return CallbackError(
                error.reason, at: nil,
                "--dialect \(dialect.rawValue): a loopback redirect URI is http: " + error.detail
                    + "; receive it on a registered scheme instead (listen --scheme, login --scheme)")
        }
    }
}

#endif
