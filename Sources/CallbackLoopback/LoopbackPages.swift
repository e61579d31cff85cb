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

/// What the receiver's built-in pages say about the app: its name, and where the person
/// goes once the browser's part is over.
///
/// Every page is static HTML with one inline stylesheet (light and dark), no script and no
/// external resource, under a `Content-Security-Policy` that allows nothing but that
/// stylesheet. The name is shown as text (HTML-escaped), never as markup.
///
/// ```swift
/// let pages = try LoopbackPages(appName: "Acme Notes")            // "…return to Acme Notes."
/// let cli = try LoopbackPages(appName: "acme", returnTo: .terminal) // "…return to the terminal."
/// ```
///
/// ❌ Refused (``LoopbackError/invalidConfiguration``): an empty name, one longer than
/// ``maxAppNameLength`` characters, and one with a control or formatting character (line
/// breaks, tabs, bidirectional overrides that would make the page say something else).
public struct LoopbackPages: Hashable, Sendable {
    /// Where the closing line of a page sends the person.
    public struct Destination: Hashable, Sendable, CustomStringConvertible {
        let isTerminal: Bool

        /// "You can close this tab and return to *app name*." (or "to the application"
        /// without a name): an app with its own window. The default.
        public static let application = Destination(isTerminal: false)
        /// "You can close this tab and return to the terminal.": a command-line tool.
        public static let terminal = Destination(isTerminal: true)

        /// `terminal` or `application`, as logs and test names show it.
        public var description: String { isTerminal ? "terminal" : "application" }
    }

    /// The longest accepted name, in characters (Unicode scalars).
    public static let maxAppNameLength = 64

    /// The name shown at the top of every page and in its title; nil: none ("the application").
    public let appName: String?
    /// Where the closing line sends the person.
    public let returnTo: Destination

    /// Pages that name no app and send the person back to "the application".
    public init() {
        appName = nil
        returnTo = .application
    }

    /// Pages that name the app.
    ///
    /// - Throws: ``LoopbackError/invalidConfiguration`` when `appName` is empty, longer than
    ///   ``maxAppNameLength`` characters, or holds a control or formatting character.
    public init(appName: String?, returnTo: Destination = .application) throws(LoopbackError) {
        if let appName, let problem = Self.problem(with: appName) {
            throw LoopbackError(.invalidConfiguration, "the app name \(problem)")
        }
        self.appName = appName
        self.returnTo = returnTo
    }

    /// Why `name` cannot be shown, or nil when it can. The reason never repeats the name.
    static func problem(with name: String) -> String? {
        let scalars = name.unicodeScalars
        if scalars.isEmpty { return "is empty" }
        if scalars.count > maxAppNameLength { return "is longer than \(maxAppNameLength) characters" }
        if scalars.contains(where: isInvisibleOrControl) {
            return "holds a control or formatting character (line break, tab, bidirectional override…)"
        }
        if scalars.first == " " || scalars.last == " " { return "starts or ends with a space" }
        return nil
    }

    /// C0 and C1 controls, DEL, and the format characters that reorder or hide text
    /// (bidirectional embeddings, overrides and isolates, zero-width characters, line and
    /// paragraph separators, the byte order mark).
    static func isInvisibleOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: return true
        case 0x200B ... 0x200F, 0x2028 ... 0x202E, 0x2060 ... 0x2069, 0xFEFF: return true
        default: return false
        }
    }
}
