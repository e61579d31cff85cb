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
@testable import CallbackRouterCLI
@testable import CallbackRouterKit

/// `parse --profile NAME`: the route's opt-in provider quirks on the command line, and the
/// `"unbound":true` member of an error a profile lets through without the app's state.
@Suite struct ParseProfileTests {
    static func parse(_ arguments: [String]) -> (exit: Int32, stdout: String, stderr: String) {
        let output = CapturedOutput()
        let context = CommandContext(output: output, environment: [:], executablePath: "/usr/bin/callback-router")
        let exit = CallbackRouterTool.run(["parse"] + arguments, context: context)
        return (exit, output.stdout, output.stderr)
    }

    static let entraCallback = [
        "--dialect", "oauth2", "--redirect-uri", "msauth.com.example.app://auth", "--state", "af0ifjsldkj",
        "msauth.com.example.app://auth/?code=abc&state=af0ifjsldkj",
    ]

    @Test func entraMatchesTheTrailingSlashOnlyWithItsProfile() {
        let with = Self.parse(["--profile", "entra"] + Self.entraCallback)
        #expect(with.exit == 0)
        #expect(with.stdout == #"{"outcome":"authorization_code","dialect":"oauth2","code":"abc","state":"af0ifjsldkj","extra":{}}"# + "\n")
        let without = Self.parse(Self.entraCallback)
        #expect(without.exit == 65)
        #expect(without.stdout.contains(#""reason":"redirect_uri_mismatch""#))
    }

    static let supabaseError = [
        "--dialect", "oauth2", "--state", "s1", "--redirect-uri", "com.example.app:/cb",
        "com.example.app:/cb#error=access_denied&error_description=Email+link+is+invalid",
    ]

    @Test func anUnboundErrorSaysSo() {
        let with = Self.parse(["--profile", "supabase"] + Self.supabaseError)
        #expect(with.exit == 1)
        #expect(
            with.stdout
                == #"{"outcome":"authorization_error","dialect":"oauth2","error":"access_denied","error_description":"Email link is invalid","unbound":true,"extra":{}}"#
                + "\n")
        let without = Self.parse(Self.supabaseError)
        #expect(without.exit == 65)
        #expect(without.stdout.contains(#""reason":"parameters_in_fragment""#))
    }

    @Test func aBoundErrorHasNoUnboundMember() {
        let run = Self.parse(["--profile", "cognito", "--state", "s1", "com.example.app:/cb?error=access_denied&state=s1"])
        #expect(run.exit == 1)
        #expect(!run.stdout.contains("unbound"))
    }

    @Test func repeatedAndSeveralProfilesAreAccepted() {
        let run = Self.parse(["--profile", "entra", "--profile", "entra", "--profile", "apple"] + Self.entraCallback)
        #expect(run.exit == 0)
    }

    @Test(arguments: ["Entra", "SplxlOBeZQQYbYS6WxSbIA", "", "entra,apple"])
    func anUnknownProfileIsAUsageErrorThatListsTheKnownOnesAndNeverTheValue(_ value: String) {
        let run = Self.parse(["--profile", value, "x.y:/p?code=1"])
        #expect(run.exit == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--profile takes one of apple, auth0-spa, clerk-hosted, cognito, entra, spotify, supabase"))
        if !value.isEmpty { #expect(!run.stderr.contains(value)) }
    }

    @Test func helpListsTheProfiles() {
        let run = Self.parse(["--help"])
        #expect(run.stdout.contains("--profile NAME"))
        let words = run.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == ";" })
        for name in ["apple", "auth0-spa", "clerk-hosted", "cognito", "entra", "spotify", "supabase"] {
            #expect(words.contains(Substring(name)), "\(name)")
        }
    }
}
