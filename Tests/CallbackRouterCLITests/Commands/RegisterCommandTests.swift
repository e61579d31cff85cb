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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackSystem

/// register / unregister / status in-process, on files in a temporary XDG tree. (With the
/// real xdg-utils and gio: Tests/EndToEnd/xdg.sh.)
@Suite struct RegisterCommandTests {
    let temporary = TemporaryDirectory()
    var environment: [String: String] {
        isolatedEnvironment(runtime: temporary.privateSubdirectory("run"), home: temporary.path)
    }
    var mimeApps: String { joinPath(temporary.path, "config/mimeapps.list") }
    var desktopFile: String { joinPath(temporary.path, "data/applications/callback-router-myapp.desktop") }

    func read(_ path: String) -> String? {
        (try? FileSystem.readFile(path)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }

    func write(_ path: String, _ text: String) throws {
        _ = mkdir(parentDirectory(parentDirectory(path)), 0o700)
        _ = mkdir(parentDirectory(path), 0o700)
        try FileSystem.writeAtomically(path, Array(text.utf8), mode: 0o644)
    }

    @Test func registersTheSchemeLowercased() throws {
        defer { temporary.remove() }
        let result = runTool(["register", "--scheme", "MyApp"], environment: environment)
        #expect(result.exit == 0)
        #expect(result.stdout.contains("\"changed\":true"))
        let desktop = try #require(read(desktopFile))
        #expect(desktop.contains("\nExec=/usr/local/bin/callback-router open %u\n"))
        #expect(desktop.contains("\nMimeType=x-scheme-handler/myapp;\n"))
        #expect(read(mimeApps) == "[Default Applications]\nx-scheme-handler/myapp=callback-router-myapp.desktop\n")
    }

    @Test func registeringTwiceChangesNothing() throws {
        defer { temporary.remove() }
        try write(mimeApps, "[Default Applications]\nx-scheme-handler/myapp=old.desktop\n")
        #expect(runTool(["register", "--scheme", "myapp"], environment: environment).exit == 0)
        let desktop = try FileSystem.status(desktopFile)
        let firstDesktop = read(desktopFile), firstMimeApps = read(mimeApps)
        let again = runTool(["register", "--scheme", "myapp"], environment: environment)
        #expect(again.exit == 0)
        #expect(again.stdout.contains("\"changed\":false"))
        #expect(read(desktopFile) == firstDesktop)
        #expect(read(mimeApps) == firstMimeApps)
        // Not rewritten either: the same inode.
        #expect(try FileSystem.status(desktopFile)?.inode == desktop?.inode)
    }

    @Test(
        arguments: [
            nil,
            "",
            "[Default Applications]\ntext/html=firefox.desktop",
            "# keep me\n[Added Associations]\nx-scheme-handler/myapp=other.desktop;\n\n[Default Applications]\nx-scheme-handler/myapp = old.desktop;\ntext/html=firefox.desktop\n",
        ] as [String?])
    func unregisterLeavesMimeAppsListAsItWas(original: String?) throws {
        defer { temporary.remove() }
        if let original { try write(mimeApps, original) }
        #expect(runTool(["register", "--scheme", "myapp"], environment: environment).exit == 0)
        #expect(runTool(["register", "--scheme", "myapp"], environment: environment).exit == 0)
        let result = runTool(["unregister", "--scheme", "myapp"], environment: environment)
        #expect(result.exit == 0)
        #expect(result.stdout.contains("\"was_registered\":true"))
        #expect(read(mimeApps) == original)
        #expect(try FileSystem.status(desktopFile) == nil)
    }

    @Test func writesThroughASymbolicLinkToMimeAppsList() throws {
        defer { temporary.remove() }
        let target = joinPath(temporary.path, "dotfiles-mimeapps.list")
        try write(target, "[Default Applications]\n")
        _ = mkdir(parentDirectory(mimeApps), 0o700)
        symlink(target, mimeApps)
        #expect(runTool(["register", "--scheme", "myapp"], environment: environment).exit == 0)
        #expect(try FileSystem.status(mimeApps)?.kind == .symbolicLink)
        #expect(read(target)?.contains("x-scheme-handler/myapp=callback-router-myapp.desktop") == true)
        #expect(runTool(["unregister", "--scheme", "myapp"], environment: environment).exit == 0)
        #expect(read(target) == "[Default Applications]\n")
    }

    @Test func neverOverwritesAnotherProgramsDesktopFile() throws {
        defer { temporary.remove() }
        let foreign = "[Desktop Entry]\nType=Application\nName=Mine\nExec=mine %u\n"
        try write(desktopFile, foreign)
        #expect(runTool(["register", "--scheme", "myapp"], environment: environment).exit == ExitCode.usage)
        #expect(runTool(["unregister", "--scheme", "myapp"], environment: environment).exit == ExitCode.usage)
        #expect(read(desktopFile) == foreign)
        #expect(read(mimeApps) == nil)
    }

    @Test(arguments: [
        ["register"], ["register", "--scheme", "https"], ["register", "--scheme", "my_app"],
        ["register", "--scheme", "myapp", "--id", "../escape"], ["register", "--scheme", "myapp", "--id", "x.desktop"],
        ["register", "--scheme", "myapp", "extra"], ["unregister"], ["status", "--scheme", "javascript"],
    ])
    func refusesBadUsage(arguments: [String]) {
        defer { temporary.remove() }
        let result = runTool(arguments, environment: environment)
        #expect(result.exit == ExitCode.usage)
        #expect(result.stdout.isEmpty)
        #expect(try! FileSystem.entries(temporary.path).sorted() == ["run"])
    }

    @Test func quotesAnExecutablePathWithSpaces() throws {
        defer { temporary.remove() }
        let path = "/opt/My Apps/callback-router"
        let result = runTool(["register", "--scheme", "myapp"], environment: environment, executablePath: path)
        #expect(result.exit == 0)
        #expect(read(desktopFile)?.contains("\nExec=\"/opt/My Apps/callback-router\" open %u\n") == true)
        #expect(result.stderr.contains("generic path"))
        let status = runTool(["status", "--scheme", "myapp"], environment: environment, executablePath: path)
        #expect(status.stdout.contains("\"exec\":\"/opt/My Apps/callback-router\""))
    }

    @Test func statusSaysWhatIsRegistered() throws {
        defer { temporary.remove() }
        let before = runTool(["status", "--scheme", "myapp"], environment: environment)
        #expect(before.exit == ExitCode.unavailable)
        #expect(before.stdout.contains("\"registered\":false"))
        #expect(runTool(["register", "--scheme", "myapp"], environment: environment).exit == 0)
        let after = runTool(["status", "--scheme", "myapp"], environment: environment)
        // No xdg-mime on this PATH: its fields are null and do not decide.
        #expect(after.exit == 0)
        #expect(after.stdout.contains("\"registered\":true"))
        #expect(after.stdout.contains("\"mimeapps_default\":\"callback-router-myapp.desktop\""))
        #expect(after.stdout.contains("\"xdg_mime_agrees\":null"))
        #expect(after.stdout.contains("\"listeners\":0"))
        #expect(after.stdout.contains("\"exec_is_this_helper\":true"))
        // A helper elsewhere (moved, rebuilt) is not what the desktop file runs: status says so.
        let moved = runTool(["status", "--scheme", "myapp"], environment: environment, executablePath: "/elsewhere/callback-router")
        #expect(moved.stdout.contains("\"exec_is_this_helper\":false"))
        #expect(moved.exit == ExitCode.unavailable)
    }

    @Test(arguments: ["register", "unregister", "status", "open", "listen"])
    func answersHelp(command: String) {
        let result = runTool([command, "--help"], environment: [:])
        #expect(result.exit == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW:"))
        #expect(result.stdout.contains("USAGE: callback-router \(command)"))
        #expect(!result.stdout.contains("Not available"))
    }
}
