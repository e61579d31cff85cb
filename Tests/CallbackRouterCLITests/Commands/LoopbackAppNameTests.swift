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

@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackLoopback
import CallbackTestSupport
import Testing

/// `--app-name` of `loopback` and `login`: what the browser pages call the app.
@Suite struct LoopbackAppNameTests {
    func configuration(_ arguments: [String], for options: [OptionDeclaration]) throws -> LoopbackReceiver.Configuration {
        let args = try Arguments(arguments, options: options.valueNames, flags: options.flagNames)
        return try LoopbackOptions.readConfiguration(args).0
    }

    @Test func loopbackNamesTheToolAndTheTerminalByDefault() throws {
        let pages = try configuration([], for: LoopbackCommand.options).pages
        #expect(pages.appName == "callback-router")
        #expect(pages.returnTo == .terminal)
    }

    @Test func loginNamesTheClientIDByDefaultWhenItCanBeShown() throws {
        let named = try configuration(["--client-id", "notes-cli"], for: LoginCommand.options).pages
        #expect(named.appName == "notes-cli")
        let long = String(repeating: "c", count: 200)
        let unshowable = try configuration(["--client-id", long], for: LoginCommand.options).pages
        #expect(unshowable.appName == "callback-router", "a client id that cannot be shown as is falls back to the tool's name")
    }

    @Test func theOptionWinsOverTheClientID() throws {
        let pages = try configuration(["--client-id", "notes-cli", "--app-name", "Acme Notes"], for: LoginCommand.options).pages
        #expect(pages.appName == "Acme Notes")
        #expect(pages.returnTo == .terminal)
    }

    @Test(arguments: ["", " Acme", "Acme\nNotes", "Acme\u{1B}[31m", "Acme\u{202E}x", String(repeating: "a", count: 65)])
    func refusesAnAppNameThatCannotBeShownAsIs(_ name: String) throws {
        for options in [LoopbackCommand.options, LoginCommand.options] {
            let error = #expect(throws: Arguments.UsageError.self) { try configuration(["--app-name", name], for: options) }
            #expect(error?.description.hasPrefix("--app-name: the app name ") == true)
        }
    }

    @Test func anAppNameWithSchemeIsAUsageError() throws {
        let result = runTool(
            ["login", "--endpoint", "https://id.example/authorize", "--client-id", "app", "--scheme", "myapp", "--app-name", "Acme"],
            environment: [:])
        #expect(result.exit == 64)
        #expect(result.stderr.contains("--app-name does not apply to --scheme"), "\(result.stderr)")
    }

    /// Through the real command: the page names the app, escaped, and sends the person back
    /// to the terminal.
    @Test func theSuccessPageOfTheCommandNamesTheApp() throws {
        let run = try RunningLoopback(["--state", "st-app", "--timeout", "20", "--app-name", "Acme <Notes>"])
        let response = try RawClient.get(port: run.port, "/callback?code=c1&state=st-app")
        #expect(response.body.contains("<title>Signed in · Acme &lt;Notes&gt;</title>"))
        #expect(response.body.contains("You can close this tab and return to the terminal."))
        #expect(!response.body.contains("<Notes>"))
        #expect(run.waitForExit() == ExitCode.success)
    }
}
