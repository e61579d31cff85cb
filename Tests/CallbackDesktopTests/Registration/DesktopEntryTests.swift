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
import CallbackRouter
@testable import CallbackDesktop

@Suite struct DesktopEntryTests {
    @Test func rendersTheKeysDesktopsNeed() throws {
        let entry = DesktopEntry(
            scheme: try CallbackScheme(validating: "MyApp"), executablePath: "/usr/bin/callback-router",
            mimeAppsEdit: .addedLine)
        let lines = try entry.rendered().split(separator: "\n").map(String.init)
        #expect(lines.first == "[Desktop Entry]")
        #expect(lines.contains("Exec=/usr/bin/callback-router open %u"))
        #expect(lines.contains("MimeType=x-scheme-handler/myapp;"))
        #expect(lines.contains("NoDisplay=true"))
        #expect(lines.contains("Terminal=false"))
        #expect(lines.contains("Type=Application"))
        #expect(lines.filter { $0.hasPrefix("MimeType=") }.count == 1)
    }

    /// Desktop Entry Specification, "The Exec key": reserved characters quote the argument;
    /// `"`, `` ` ``, `$`, `\` are escaped inside quotes, then string escapes double every `\`.
    @Test(arguments: [
        ("/usr/bin/callback-router", "/usr/bin/callback-router"),
        ("/opt/My Apps/callback-router", "\"/opt/My Apps/callback-router\""),
        ("/opt/a$b/cr", "\"/opt/a\\\\$b/cr\""),
        ("/opt/a\\b/cr", "\"/opt/a\\\\\\\\b/cr\""),
        ("/opt/a\"b/cr", "\"/opt/a\\\\\"b/cr\""),
        ("/opt/a`b/cr", "\"/opt/a\\\\`b/cr\""),
        ("/opt/100%/cr", "/opt/100%%/cr"),
        ("/opt/it's here/cr", "\"/opt/it's here/cr\""),
        ("/opt/a;b/cr", "\"/opt/a;b/cr\""),
    ])
    func quotesTheExecutablePath(path: String, expected: String) throws {
        let exec = try DesktopEntry.execLine(path)
        #expect(exec == expected)
        #expect(DesktopEntry.executablePath(fromExec: exec + " open %u") == path)
    }

    @Test(arguments: ["relative/callback-router", "/opt/new\nline/cr", "/opt/tab\there", ""])
    func refusesPathsADesktopCannotRun(path: String) {
        #expect(throws: DesktopError.self) { try DesktopEntry.execLine(path) }
    }

    @Test(arguments: [
        MimeAppsList.Edit.createdFile, .addedSection(addedNewline: false), .addedSection(addedNewline: true),
        .addedLine, .unchanged, .replacedLine(previous: "x-scheme-handler/myapp = other.desktop;  "),
        .replacedLine(previous: " x-scheme-handler/myapp=a\\b.desktop\r"),
    ])
    func readsBackWhatItWrote(edit: MimeAppsList.Edit) throws {
        let entry = DesktopEntry(
            scheme: try CallbackScheme(validating: "com.example.app"),
            executablePath: "/opt/My Apps/callback-router", mimeAppsEdit: edit)
        #expect(DesktopEntry.parse(try entry.rendered()) == entry)
    }

    @Test(arguments: [
        "[Desktop Entry]\nType=Application\nExec=firefox %u\nMimeType=x-scheme-handler/myapp;\n",
        "",
        "[Desktop Entry]\nExec=/usr/bin/callback-router open %u\nX-CallbackRouter-Scheme=MyApp\nX-CallbackRouter-MimeApps=added-line\n",
        "[Desktop Entry]\nExec=/usr/bin/callback-router open %u\nX-CallbackRouter-Scheme=myapp\nX-CallbackRouter-MimeApps=replaced-line\n",
    ])
    func doesNotClaimOtherFiles(text: String) {
        #expect(DesktopEntry.parse(text) == nil)
    }
}

@Suite struct DesktopSchemeTests {
    @Test(arguments: [
        ("myapp", "myapp"), ("MyApp", "myapp"), ("com.example.app", "com.example.app"),
        ("a+b-c.d", "a+b-c.d"), ("x", "x"),
    ])
    func acceptsAndLowercasesSchemes(text: String, expected: String) throws {
        #expect(try CallbackScheme(validating: text).name == expected)
    }

    @Test(arguments: [
        ("", "invalid_scheme"), ("1app", "invalid_scheme"), ("my_app", "invalid_scheme"),
        ("x-scheme-handler/myapp", "invalid_scheme"), ("my app", "invalid_scheme"),
        ("myapp:", "invalid_scheme"), ("é", "invalid_scheme"),
        (String(repeating: "a", count: 129), "invalid_scheme"),
        ("http", "scheme_not_allowed"), ("HTTPS", "scheme_not_allowed"),
        ("javascript", "scheme_not_allowed"), ("file", "scheme_not_allowed"),
        ("data", "scheme_not_allowed"),
    ])
    func refusesSchemes(text: String, reason: String) {
        #expect {
            try CallbackScheme(validating: text)
        } throws: { ($0 as? CallbackError)?.reason.rawValue == reason }
    }

    @Test func keepsSocketPathsShortForLongSchemes() throws {
        let long = try CallbackScheme(validating: "com.googleusercontent.apps.123456789012-abcdefghijklmnopqrstuvwxyz012345")
        let other = try CallbackScheme(validating: "com.googleusercontent.apps.123456789012-abcdefghijklmnopqrstuvwxyz012346")
        #expect(long.directoryKey.utf8.count == 32)
        #expect(long.directoryKey != other.directoryKey)
        #expect(try CallbackScheme(validating: "myapp").directoryKey == "myapp")
    }
}
