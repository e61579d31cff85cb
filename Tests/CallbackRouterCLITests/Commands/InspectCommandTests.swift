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

/// `callback-router inspect`: design.md's component JSON, rule by rule, and its refusals.
/// null, `""` and `[]` mean different things (absent, present but empty, present without
/// pairs); scripts tell them apart, so each is pinned here.
@Suite struct InspectCommandTests {
    struct Run {
        let exit: Int32
        let stdout: String
        let stderr: String
    }

    static func inspect(_ arguments: [String]) -> Run {
        let output = CapturedOutput()
        let context = CommandContext(output: output, environment: [:], executablePath: "/usr/bin/callback-router")
        let exit = CallbackRouterTool.run(["inspect"] + arguments, context: context)
        return Run(exit: exit, stdout: output.stdout, stderr: output.stderr)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let url: String
        let json: String
        var testDescription: String { rule }
    }

    static let components: [Case] = [
        Case(
            rule: "no authority: host is null", url: "x:/p",
            json: #"{"scheme":"x","userinfo":null,"host":null,"port":null,"path":"/p","query":null,"fragment":null}"#),
        Case(
            rule: "an empty authority: host is the empty string", url: "x:///p",
            json: #"{"scheme":"x","userinfo":null,"host":"","port":null,"path":"/p","query":null,"fragment":null}"#),
        Case(
            rule: "an empty query is [], not null", url: "x://h?",
            json: #"{"scheme":"x","userinfo":null,"host":"h","port":null,"path":"","query":[],"fragment":null}"#),
        Case(
            rule: "an empty fragment is \"\", not null", url: "x://h#",
            json: #"{"scheme":"x","userinfo":null,"host":"h","port":null,"path":"","query":null,"fragment":""}"#),
        Case(
            rule: "both empty", url: "x://h/p?#",
            json: #"{"scheme":"x","userinfo":null,"host":"h","port":null,"path":"/p","query":[],"fragment":""}"#),
        Case(
            rule: "a query of only separators has no pairs", url: "x://h?&&",
            json: #"{"scheme":"x","userinfo":null,"host":"h","port":null,"path":"","query":[],"fragment":null}"#),
        Case(
            rule: "no path, query or fragment", url: "x://h",
            json: #"{"scheme":"x","userinfo":null,"host":"h","port":null,"path":"","query":null,"fragment":null}"#),
        Case(
            rule: "a rootless path", url: "myapp:cb",
            json: #"{"scheme":"myapp","userinfo":null,"host":null,"port":null,"path":"cb","query":null,"fragment":null}"#),
        Case(
            rule: "scheme and reg-name lowercased; path, fragment as written; query decoded (+ is a space)",
            url: "HTTP://Example.COM:8080/A/b?x=1&y=%20+z#Frag",
            json:
                #"{"scheme":"http","userinfo":null,"host":"example.com","port":8080,"path":"/A/b","query":[["x","1"],["y","  z"]],"fragment":"Frag"}"#
        ),
        Case(
            rule: "IPv6 literal keeps its brackets and its case", url: "http://[2001:DB8::1]/cb",
            json: #"{"scheme":"http","userinfo":null,"host":"[2001:DB8::1]","port":null,"path":"/cb","query":null,"fragment":null}"#),
        Case(
            rule: "IPv6 loopback with a port", url: "http://[::1]:5000/cb?code=a",
            json: #"{"scheme":"http","userinfo":null,"host":"[::1]","port":5000,"path":"/cb","query":[["code","a"]],"fragment":null}"#),
        Case(
            rule: "IPv4 loopback redirect", url: "http://127.0.0.1:49152/callback?code=c&state=s",
            json:
                #"{"scheme":"http","userinfo":null,"host":"127.0.0.1","port":49152,"path":"/callback","query":[["code","c"],["state","s"]],"fragment":null}"#
        ),
        Case(
            rule: "userinfo as written", url: "myapp://user:pw@host/p",
            json: #"{"scheme":"myapp","userinfo":"user:pw","host":"host","port":null,"path":"/p","query":null,"fragment":null}"#),
        Case(
            rule: "an empty port is no port", url: "x://h:/p",
            json: #"{"scheme":"x","userinfo":null,"host":"h","port":null,"path":"/p","query":null,"fragment":null}"#),
        Case(
            rule: "bare names and empty names are pairs with empty sides", url: "myapp://cb?a&b=&=c",
            json:
                #"{"scheme":"myapp","userinfo":null,"host":"cb","port":null,"path":"","query":[["a",""],["b",""],["","c"]],"fragment":null}"#
        ),
        Case(
            rule: "percent-encoded UTF-8 is decoded", url: "myapp://cb?q=%C3%A9t%C3%A9",
            json: #"{"scheme":"myapp","userinfo":null,"host":"cb","port":null,"path":"","query":[["q","été"]],"fragment":null}"#),
        Case(
            rule: "inspect shows repeats (parse refuses them)", url: "myapp://cb?a=1&a=2",
            json: #"{"scheme":"myapp","userinfo":null,"host":"cb","port":null,"path":"","query":[["a","1"],["a","2"]],"fragment":null}"#),
        Case(
            rule: "the fragment stays raw: parameters in it are not split", url: "com.example.app:/oauth2redirect#code=x&state=y",
            json:
                #"{"scheme":"com.example.app","userinfo":null,"host":null,"port":null,"path":"/oauth2redirect","query":null,"fragment":"code=x&state=y"}"#
        ),
        Case(
            rule: "a JSON-hostile value is escaped", url: "myapp://cb?q=%22%5C%0A",
            json: #"{"scheme":"myapp","userinfo":null,"host":"cb","port":null,"path":"","query":[["q","\"\\\n"]],"fragment":null}"#),
    ]

    @Test(arguments: components)
    func printsTheComponents(_ test: Case) {
        let run = Self.inspect([test.url])
        #expect(run.exit == 0)
        #expect(run.stdout == test.json + "\n")
        #expect(run.stderr.isEmpty)
    }

    static let refusals: [Case] = [
        Case(
            rule: "empty", url: "",
            json: #"{"outcome":"rejected","reason":"empty_input","detail":"the URL is empty","offset":null}"#),
        Case(
            rule: "relative", url: "/relative",
            json:
                #"{"outcome":"rejected","reason":"relative_reference","detail":"the URL has no scheme; a callback URL must be absolute","offset":0}"#
        ),
        Case(
            rule: "port too large", url: "http://h:99999/",
            json: #"{"outcome":"rejected","reason":"invalid_port","detail":"the port is larger than 65535","offset":9}"#),
        Case(
            rule: "a broken escape", url: "myapp://cb?code=a%2",
            json:
                #"{"outcome":"rejected","reason":"invalid_percent_encoding","detail":"'%' in the query is not followed by two hexadecimal digits","offset":17}"#
        ),
        Case(
            rule: "a letter in the port is named by its class", url: "http://h:8S/",
            json: #"{"outcome":"rejected","reason":"invalid_port","detail":"the port contains a letter","offset":10}"#),
    ]

    @Test(arguments: refusals)
    func refusesWithTheRejectionObject(_ test: Case) {
        let run = Self.inspect([test.url])
        #expect(run.exit == 65)
        #expect(run.stdout == test.json + "\n")
        #expect(run.stderr.hasPrefix("callback-router: inspect: ✗ Refused: "), "one human line ends every failure")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func aLimitIsARefusalNotAUsageError() {
        let run = Self.inspect(["--max-length", "10", "myapp://cb?code=abcdef"])
        #expect(run.exit == 65)
        #expect(run.stdout.hasPrefix(#"{"outcome":"rejected","reason":"too_long","#))
        let pairs = Self.inspect(["--max-parameters", "1", "myapp://cb?a=1&b=2"])
        #expect(pairs.exit == 65)
        #expect(pairs.stdout.hasPrefix(#"{"outcome":"rejected","reason":"too_many_parameters","#))
    }

    @Test(arguments: [[], ["a:/x", "b:/y"], ["--max-length"], ["--max-length", "zero", "x:/p"], ["--nope", "x:/p"]])
    func usageErrorsExit64WithoutEchoingTheURL(_ arguments: [String]) {
        let run = Self.inspect(arguments)
        #expect(run.exit == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("Try 'callback-router inspect --help'."))
        #expect(!run.stderr.contains("a:/x") && !run.stderr.contains("x:/p"))
    }

    @Test func helpDescribesTheOutput() {
        let run = Self.inspect(["--help"])
        #expect(run.exit == 0)
        #expect(run.stdout.contains("USAGE: callback-router inspect"))
        #expect(run.stdout.contains(#""query":[[name,value],…]|null"#))
    }
}
