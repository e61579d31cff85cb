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
import Testing

/// A mistake names what to do: the option or command meant, a real flag; never a value.
@Suite struct MistakeHintTests {
    func run(_ arguments: [String]) -> (exit: Int32, stdout: String, stderr: String) {
        runTool(arguments)
    }

    @Test(arguments: [
        (["login", "--scopes", "openid"], "login: unknown option --scopes; did you mean --scope?"),
        (["loopback", "--no-state", "--prot", "8000"], "loopback: unknown option --prot; did you mean --port?"),
        (["parse", "--stat=SECRET-VALUE", "x:/"], "parse: unknown option --stat; did you mean --state?"),
        (["listen", "--scheme", "myapp", "--dialect", "oath2"], "listen: --dialect takes one of"),
        (["listen", "--scheme", "myapp", "--dialect", "oath2"], "did you mean oauth2?"),
        (["logn"], "did you mean login?"),
    ])
    func typosNameWhatWasMeant(_ arguments: [String], _ expected: String) {
        let result = run(arguments)
        #expect(result.exit == ExitCode.usage)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!result.stderr.contains("SECRET-VALUE"))
    }

    @Test(arguments: [
        ["login", "--zzzzzzzzzzzz=SECRET-VALUE"], ["eyJhbGciOiJSUzI1NiJ9.SECRET-VALUE"], ["login", "--SECRET-VALUE"],
    ])
    func anythingElseStaysHidden(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.exit == ExitCode.usage)
        #expect(!result.stderr.contains("SECRET-VALUE"))
        #expect(result.stderr.contains("not shown"))
    }

    @Test(arguments: ["state", "nonce", "code_challenge", "client_id", "scope", "redirect_uri"])
    func loginParamNamesTheRealWay(_ name: String) {
        let result = run(["login", "--endpoint", "https://a.example/a", "--client-id", "c", "--param", "\(name)=SECRET-VALUE"])
        #expect(result.exit == ExitCode.usage)
        #expect(!result.stderr.contains("SECRET-VALUE"))
        #expect(!result.stderr.contains("--state"), "login has no --state")
        for word in result.stderr.split(separator: " ") where word.hasPrefix("--") {
            let option = word.dropFirst(2).prefix { $0.isLetter || $0 == "-" }
            guard option != "help", option != "param" else { continue }
            #expect(LoginCommand.options.contains { $0.name == option }, "login has no --\(option)")
        }
    }

    @Test func helpCommandShowsTheCommandsHelp() {
        let result = run(["help", "login"])
        #expect(result.exit == 0)
        #expect(result.stdout == LoginCommand.help)
    }
}

/// Hints name the flags a command really has.
@Suite struct RealFlagHintTests {
    @Test(arguments: [
        ["parse", "--redirect-uri", "http://localhost/cb", "http://localhost/cb?code=a"],
        ["authorize-url", "--endpoint", "https://a.example/a", "--client-id", "c", "--redirect-uri", "http://localhost:8080/cb"],
    ])
    func localhostNamesTheFlag(_ arguments: [String]) {
        let result = runTool(arguments, environment: [:])
        #expect(result.exit == ExitCode.usage)
        #expect(result.stdout.contains("or pass --allow-localhost"), "\(result.stdout)")
    }
}
