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
import CallbackDesktop
import CallbackRouter
import CallbackRouterKit
import CallbackSystem

/// `callback-router loopback`: the RFC 8252 §7.3 receiver on 127.0.0.1.
enum LoopbackCommand: Command {
    static let name = "loopback"
    static let summary = "Receive one callback on 127.0.0.1 (RFC 8252 §7.3)"
    static let overview = """
        OVERVIEW: Receive one OAuth callback on a loopback address (RFC 8252 §7.3) and print it
        as parse does.

        OUTPUT (two lines on stdout):
          line 1, as soon as the port is bound:   {"redirect_uri":"http://127.0.0.1:PORT/callback"}
          last line, when the wait ends:          the outcome JSON, exactly as 'parse' prints it
          Read line 1, put the redirect URI in the authorization request, open the browser,
          then read the last line. Progress and refused requests are reported on stderr.

        """
    static let options: [OptionDeclaration] =
        [
            CommonOptions.state.required(oneOf: "state").described(
                "The state sent in the authorization request. Only a callback carrying exactly this state ends the wait."),
            CommonOptions.stateFromStdin.required(oneOf: "state").described(
                "Read the state from the first line of stdin, after line 1 is printed: keeps it off the command line (other local users can read that in /proc) and lets a script get it from authorize-url, which needs the redirect URI first."
            ),
            CommonOptions.noState.required(oneOf: "state").described(
                "Expect no state (dialects without one). Then any valid callback ends the wait: any local process or web page can end it. One of --state, --state-from-stdin and --no-state is required."
            ),
        ]
        + LoopbackOptions.receiver(notes: [
            "response-mode": "Ask for it with 'authorize-url --response-mode form_post'.",
            "accept-paste": "Excludes --state-from-stdin.",
        ])
        + [
            CommonOptions.timeout.described("How long to wait (default 300; fractions allowed)."),
            LogoutOptions.logout.described(
                "Wait for the end of a logout instead (OpenID Connect RP-Initiated Logout 1.0): the provider's redirect to the post-logout redirect URI (give it line 1's URI: 'end-session-url --post-logout-redirect-uri URI'), checked exactly as 'parse --logout': the outcome is {\"outcome\":\"logout_complete\",...}, with \"unbound\":true under --no-state; a login's callback (code, error, iss...) never ends it. --state is the end-session request's state. --dialect, --issuer, --require-issuer, --profile and --response-mode form_post are usage errors with it."
            ),
            Option.redirectURIFile,
            OptionValues.dialect.declaration(
                then:
                    "As for parse. \(OptionValues.listed(OptionValues.customSchemeDialects)) are refused (invalid_configuration, 64): their providers accept only a custom scheme, and a loopback redirect URI is http. \(OptionValues.listed(OptionValues.statelessHTTPDialects)) send no state: use --no-state."
            ).only(in: LogoutOptions.loginMode),
            CommonOptions.issuer.described("The expected 'iss' (RFC 9207), checked when present.").only(in: LogoutOptions.loginMode),
            CommonOptions.requireIssuer.described("Refuse a callback without 'iss'.").only(in: LogoutOptions.loginMode),
            OptionValues.profileDeclaration.only(in: LogoutOptions.loginMode),
        ] + OptionValues.limitDeclarations
    static let modes = LogoutOptions.modes

    /// The options only loopback reads.
    enum Option {
        static let redirectURIFile = OptionDeclaration.value(
            "redirect-uri-file", "F", "Also write the redirect URI (and a newline) to F, atomically, once bound.")
    }
    static let discussion = """
        BEHAVIOUR:
          Binds only the loopback literal, never a wildcard address. On Linux a connection
          from another user's process is answered 403 before its request is read (see
          --allow-other-users). Answers one page per request and closes the connection. Only a GET to the path ends the wait, and only
          when it carries the expected state: then the outcome (success, provider error, or
          a refusal such as issuer_mismatch) is printed and the command exits. Any other
          request is answered and ignored: wrong or missing state (400), other paths (404),
          HEAD and OPTIONS (never consume the login), other methods (405), a Host header
          other than the redirect URI's IP literal and port, 'localhost' included (403:
          DNS rebinding), a cross-site subresource request (Sec-Fetch-Mode other than
          navigate: 403), oversized (414/431) or malformed (400) requests, a TLS handshake
          or other bytes that are no request line (400 at the first byte). Requests are
          served concurrently, each within 10 seconds and 16 KiB; 64 connections that have
          not sent their request yet are kept (a new one closes the oldest of them, never
          itself), and answered connections held open do not count. Pages carry no script,
          never show the state or the code, and are sent with Cache-Control: no-store and
          Referrer-Policy: no-referrer. See docs/loopback.md.

        EXIT CODES:
          0 success outcome; 1 the provider reported an error (with the right state);
          64 usage; 65 a callback with the right state was refused; 69 the address cannot be
          bound; 75 timed out, or the fixed --port is in use; 77 the port needs privileges;
          130 / 143 Ctrl-C (SIGINT) / SIGTERM: the last line is the outcome
          {"outcome":"rejected","reason":"cancelled",…}, never only line 1.
          74 the result could not be written (stdout full, closed or gone).

        EXAMPLE (bash; jq for brevity):
          coproc LB { callback-router loopback --state-from-stdin; }
          exec {from_lb}<&"${LB[0]}" {to_lb}>&"${LB[1]}"   # bash drops LB when it exits
          read -r first <&"$from_lb"      # {"redirect_uri":"http://127.0.0.1:PORT/callback"}
          uri=$(jq -r .redirect_uri <<<"$first")
          req=$(callback-router authorize-url --endpoint https://example.auth0.com/authorize \\
                --client-id abc123 --redirect-uri "$uri")
          jq -r .state <<<"$req" >&"$to_lb"                # the expected state, on stdin
          xdg-open "$(jq -r .url <<<"$req")"   # ❌ shared machine: see below
          read -r outcome <&"$from_lb"    # the outcome, as parse prints it
          The URL (state, challenge, nonce) is then in the command line of xdg-open and of
          the browser, which every local user can read; 'callback-router login' opens a
          one-time start link instead.

        """

    static func run(_ args: Arguments, context: CommandContext) -> Int32 {
        var configuration: LoopbackReceiver.Configuration
        let timeout: Duration
        var expectations: LoopbackExpectations
        let redirectURIFile: String?
        let timeoutText: String
        do throws(Arguments.UsageError) {
            try args.noPositionals()
            (configuration, timeout, timeoutText) = try LoopbackOptions.readConfiguration(args)
            expectations = try readSettings(args)
            redirectURIFile = try args.single(Option.redirectURIFile)
            if redirectURIFile?.isEmpty == true { throw Arguments.UsageError(description: "--redirect-uri-file needs a path") }
        } catch {
            return usageError(error.description, context: context)
        }

        if let refusal = LoopbackOptions.refusal(of: expectations.dialect) {
            return context.print(Rendering.verdict(.failure(refusal)))
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let receiver: LoopbackReceiver
        if configuration.pasteDescriptor != nil { configuration.pasteDescriptor = context.standardInput }
        do {
            receiver = try LoopbackReceiver(configuration)
        } catch {
            context.printError("\(name): \(error.detail)")
            return error.exitCode
        }

        if let redirectURIFile {
            if let failure = writeAtomically(receiver.redirectURI + "\n", to: redirectURIFile) {
                context.printError("\(name): cannot write --redirect-uri-file: \(failure)")
                return ExitCode.usage
            }
        }
        // From line 1 on, a signal's last line is the cancelled outcome, never line 1 alone.
        context.interruption?.beginWaiting(output: context.output)
        context.printJSON(.object([("redirect_uri", .string(receiver.redirectURI))]))
        if let line = LoopbackOptions.sshForwardingHint(port: receiver.port, environment: context.environment) {
            context.printError("\(name): \(line)")
        }
        if configuration.pasteDescriptor != nil {
            context.printError("\(name): or paste here the URL the browser was sent to (from its address bar) and press Enter")
        }

        if args.has(CommonOptions.stateFromStdin),
            let exit = readState(into: &expectations, until: deadline, timeoutText: timeoutText, context: context)
        {
            return exit
        }

        let result: LoopbackWaitResult
        do {
            result = try context.stoppable(by: receiver.close) { () throws(CallbackError) -> LoopbackWaitResult in
                try receiver.receive(expecting: expectations, until: deadline) { line in context.printError("\(name): \(line)") }
            }
        } catch {
            // Cannot happen for a loopback literal and a checked path; refuse rather than guess.
            context.interruption?.finish()
            context.printError("\(name): the redirect URI is refused: \(error.detail)")
            return ExitCode.usage
        }
        context.interruption?.finish()
        return printOutcome(of: result, timeoutText: timeoutText, context: context)
    }

    /// `--state-from-stdin`: the expected state, from the first line of stdin (after line 1
    /// is printed). Nil when it was read; else the exit code, its outcome printed.
    static func readState(
        into expectations: inout LoopbackExpectations, until deadline: ContinuousClock.Instant, timeoutText: String,
        context: CommandContext
    ) -> Int32? {
        switch StandardInput.readLine(from: context.standardInput, until: deadline) {
        case .success(let state):
            expectations.state = state
            return nil
        case .failure(.timedOut):
            context.printJSON(
                Rendering.rejectionJSON(
                    reason: .timeout, detail: "no state arrived on stdin within \(timeoutText)", offset: nil))
            return ExitCode.tryAgain
        case .failure(let problem):
            context.printJSON(
                Rendering.rejectionJSON(reason: .invalidConfiguration, detail: "--state-from-stdin: \(problem)", offset: nil))
            return ExitCode.usage
        }
    }

    /// The last line: the outcome of the wait, as parse prints it; returns its exit code.
    static func printOutcome(of result: LoopbackWaitResult, timeoutText: String, context: CommandContext) -> Int32 {
        switch result {
        case .callback(.success(let outcome)):
            context.printJSON(Rendering.outcomeJSON(outcome))
            return Rendering.exitCode(for: outcome)
        case .callback(.failure(let error)):
            context.printJSON(Rendering.rejectionJSON(error))
            return Rendering.exitCode(for: error)
        case .timedOut(let ignored):
            let extra = ignored == 0 ? "" : " (\(ignored) request\(ignored == 1 ? "" : "s") to the callback path ignored)"
            context.printJSON(
                Rendering.rejectionJSON(
                    reason: .timeout,
                    detail: "no callback for this login arrived within \(timeoutText)\(extra)",
                    offset: nil))
            return ExitCode.tryAgain
        case .stopped:
            context.printJSON(context.stoppedJSON())
            return context.stoppedExitCode()
        }
    }

    static func readSettings(_ args: Arguments) throws(Arguments.UsageError) -> LoopbackExpectations {
        var settings = LoopbackExpectations()
        let state = try args.single(CommonOptions.state)
        let choices = (state == nil ? 0 : 1) + (args.has(CommonOptions.noState) ? 1 : 0) + (args.has(CommonOptions.stateFromStdin) ? 1 : 0)
        switch (state, choices) {
        case (_, 0):
            throw Arguments.UsageError(
                description:
                    "give --state S or --state-from-stdin (the state of the authorization request), or --no-state for a dialect without state"
            )
        case (_, 2...):
            throw Arguments.UsageError(description: "--state, --state-from-stdin and --no-state exclude each other")
        case (.some(let value), _) where !isPlausibleState(value):
            throw Arguments.UsageError(description: "--state must not be empty")
        default:
            break
        }
        settings.state = state
        settings.dialect = try OptionValues.dialect.read(args)
        settings.issuer = try args.single(CommonOptions.issuer)
        if settings.issuer?.isEmpty == true { throw Arguments.UsageError(description: "--issuer must not be empty") }
        settings.requiresIssuer = args.has(CommonOptions.requireIssuer)
        settings.limits = try OptionValues.limits(args)
        settings.profiles = try OptionValues.profiles(args)
        if args.has(LogoutOptions.logout) {
            try LogoutOptions.refuseLoginOptions(args)
            settings.purpose = .logout
        }
        return settings
    }

    /// A state is the client's own opaque value (RFC 6749 §4.1.1): any non-empty text,
    /// judged only by equality with what the provider echoes (a real server echoes
    /// `état-✓-東京` byte for byte).
    static func isPlausibleState(_ value: String) -> Bool {
        !value.isEmpty
    }

    /// Writes `text` to a temporary file next to `path`, then renames it over `path`, so a
    /// reader never sees a partial redirect URI. Returns a description of the failure,
    /// without the path (stderr shows no argument value).
    static func writeAtomically(_ text: String, to path: String) -> String? {
        do throws(SystemError) {
            try FileSystem.writeAtomically(path, Array(text.utf8), mode: 0o600)
            return nil
        } catch {
            return error.reasonWithoutPath
        }
    }
}

#endif
