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

import CallbackTestSupport
import Testing
@testable import CallbackDesktop

@Suite struct DesktopMimeAppsListTests {
    static let mime = "x-scheme-handler/myapp"
    static let ours = "callback-router-myapp.desktop"

    /// mimeapps.list files as people have them: each must come back byte for byte.
    static let originals: [String?] = [
        nil,
        "",
        "\n",
        "[Default Applications]\n",
        "[Default Applications]\ntext/html=firefox.desktop\n",
        "[Default Applications]\ntext/html=firefox.desktop",
        "[Added Associations]\nimage/png=eog.desktop;\n",
        "[Added Associations]\nimage/png=eog.desktop;",
        "# my settings\n\n[Default Applications]\nx-scheme-handler/http=firefox.desktop\n\n[Added Associations]\nx-scheme-handler/myapp=old.desktop;\n",
        "[Default Applications]\nx-scheme-handler/myapp=old.desktop\ntext/html=firefox.desktop\n",
        "[Default Applications]\r\nX-Scheme-Handler/MyApp = old.desktop;other.desktop;\r\ntext/html=firefox.desktop\r\n",
        "[Default Applications]\nx-scheme-handler/myapp=\n",
        "[Removed Associations]\nx-scheme-handler/myapp=callback-router-myapp.desktop\n[Default Applications]\n# x-scheme-handler/myapp=commented.desktop\n",
    ]

    @Test(arguments: originals)
    func unregisterGivesTheFileBackByteForByte(original: String?) throws {
        let registered = try MimeAppsList.setDefault(original, mimeType: Self.mime, desktopFile: Self.ours)
        #expect(MimeAppsList.defaultDesktopFile(registered.text, mimeType: Self.mime) == Self.ours)
        let restored = MimeAppsList.restore(registered.text, mimeType: Self.mime, desktopFile: Self.ours, edit: registered.edit)
        #expect(restored.wasOurs)
        #expect(restored.text == original)
    }

    @Test(arguments: originals)
    func keepsEveryOtherLine(original: String?) throws {
        let registered = try MimeAppsList.setDefault(original, mimeType: Self.mime, desktopFile: Self.ours)
        var remaining = MimeAppsList.splitLines(registered.text)[...]
        // Every line of the original that is not the type's default appears, in order.
        let defaultLines = Set(MimeAppsList.linesOf(Self.mime, in: MimeAppsList.splitLines(original ?? "")))
        for (index, line) in MimeAppsList.splitLines(original ?? "").enumerated() where !defaultLines.contains(index) && !line.isEmpty {
            guard let found = remaining.firstIndex(of: line) else {
                Issue.record("line \(index) lost")
                return
            }
            remaining = remaining[remaining.index(after: found)...]
        }
    }

    @Test(arguments: originals)
    func registeringTwiceChangesNothing(original: String?) throws {
        let once = try MimeAppsList.setDefault(original, mimeType: Self.mime, desktopFile: Self.ours)
        let twice = try MimeAppsList.setDefault(once.text, mimeType: Self.mime, desktopFile: Self.ours)
        #expect(twice.text == once.text)
        #expect(twice.edit == .unchanged)
        #expect(MimeAppsList.linesOf(Self.mime, in: MimeAppsList.splitLines(twice.text)).count == 1)
    }

    @Test func replacingRemembersThePreviousLine() throws {
        let original = "[Default Applications]\nx-scheme-handler/myapp = old.desktop;\n"
        let registered = try MimeAppsList.setDefault(original, mimeType: Self.mime, desktopFile: Self.ours)
        #expect(registered.edit == .replacedLine(previous: "x-scheme-handler/myapp = old.desktop;"))
        #expect(registered.text == "[Default Applications]\nx-scheme-handler/myapp=callback-router-myapp.desktop\n")
    }

    @Test func refusesATypeSetTwice() {
        let original = "[Default Applications]\nx-scheme-handler/myapp=a.desktop\nx-scheme-handler/myapp=b.desktop\n"
        #expect(throws: MimeAppsList.DuplicateKey.self) {
            try MimeAppsList.setDefault(original, mimeType: Self.mime, desktopFile: Self.ours)
        }
    }

    @Test func leavesADefaultTheUserChangedSinceAlone() throws {
        let registered = try MimeAppsList.setDefault("[Default Applications]\n", mimeType: Self.mime, desktopFile: Self.ours)
        let changed = registered.text.replacingOccurrences(of: Self.ours, with: "mine.desktop")
        let restored = MimeAppsList.restore(changed, mimeType: Self.mime, desktopFile: Self.ours, edit: registered.edit)
        #expect(!restored.wasOurs)
        #expect(restored.text == changed)
    }

    @Test func keepsLinesOthersAddedToTheSectionItCreated() throws {
        let registered = try MimeAppsList.setDefault(nil, mimeType: Self.mime, desktopFile: Self.ours)
        let withMore = registered.text + "text/html=firefox.desktop\n"
        let restored = MimeAppsList.restore(withMore, mimeType: Self.mime, desktopFile: Self.ours, edit: registered.edit)
        #expect(restored.text == "[Default Applications]\ntext/html=firefox.desktop\n")
    }
}
