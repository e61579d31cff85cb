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

#if !os(tvOS) && !os(watchOS) // empty there: no posix_spawn (docs/platforms.md)

import CallbackRouter
import CallbackSystem

/// An app's custom URL scheme as the Linux desktop's `x-scheme-handler`: the desktop entry
/// in `$XDG_DATA_HOME/applications` and the default in `$XDG_CONFIG_HOME/mimeapps.list`.
///
/// ```swift
/// let handler = try DesktopSchemeHandler(scheme: "myapp", environment: env)
/// try handler.register(executablePath: "/usr/bin/callback-router")   // Exec=… open %u
/// ```
///
/// The handler executable is run as `EXECUTABLE open URL`: the `callback-router` helper, or
/// an app binary that calls ``CallbackHandoff/deliver(_:environment:spool:spoolTTLSeconds:)-(String,_,_,_)`` for `open`.
/// Registering twice changes nothing; unregistering restores the default it replaced.
public struct DesktopSchemeHandler: Sendable {
    /// What a registration or unregistration changed.
    public struct Report: Sendable, Equatable {
        /// The `.desktop` file was written (register) or removed (unregister).
        public let changedDesktopFile: Bool
        /// `mimeapps.list` was changed: the scheme's default handler set or restored.
        public let changedMimeApps: Bool
        /// `update-desktop-database` ran (it is optional; false when it is not installed).
        public let mimeCacheRefreshed: Bool
        /// For unregister: whether the default was still ours (false: left as the user set it).
        public let defaultWasOurs: Bool
    }

    let registration: SchemeRegistration

    /// The scheme, lowercased.
    public var scheme: String { registration.scheme.name }
    /// The desktop file this handler writes.
    public var desktopFilePath: String { registration.desktopFilePath }
    /// The desktop file's name (`ID.desktop`), as `mimeapps.list` names the default handler.
    public var desktopFileName: String { registration.desktopFileName }
    /// The `mimeapps.list` this handler edits (`$XDG_CONFIG_HOME/mimeapps.list`).
    public var mimeAppsListPath: String { registration.directories.mimeAppsList }
    /// The scheme as a validated value (``scheme`` is its name).
    public var callbackScheme: CallbackScheme { registration.scheme }

    /// - Parameters:
    ///   - scheme: the scheme (`myapp`); `http`, `https` and the browser's own are refused.
    ///   - id: the desktop file's name without `.desktop` (default from the scheme).
    ///   - environment: where `HOME` and the `XDG_*` variables come from.
    /// - Throws: ``DesktopError/usage`` for a bad scheme or id, or no `HOME`.
    public init(scheme: String, id: String? = nil, environment: [String: String]) throws(DesktopError) {
        let parsed: CallbackScheme
        do { parsed = try CallbackScheme(validating: scheme) } catch { throw .usage("scheme: \(error.detail)") }
        try self.init(scheme: parsed, id: id, environment: environment)
    }

    /// The handler of a scheme validated already (``CallbackScheme/init(validating:)``).
    ///
    /// - Parameters:
    ///   - scheme: the scheme.
    ///   - id: the desktop file's name without `.desktop` (default
    ///     ``CallbackScheme/defaultDesktopID``): letters, digits, `-`, `_`, `.`, not starting
    ///     with a digit or a dot.
    ///   - environment: where `HOME` and the `XDG_*` variables come from.
    /// - Throws: ``DesktopError/usage`` for a bad id, or when neither `HOME` nor the `XDG_*`
    ///   variables say where to write.
    public init(scheme: CallbackScheme, id: String? = nil, environment: [String: String]) throws(DesktopError) {
        let desktopID = id ?? scheme.defaultDesktopID
        try SchemeRegistration.validateID(desktopID)
        registration = SchemeRegistration(
            scheme: scheme, id: desktopID, directories: try XDGDirectories(environment: environment),
            environment: environment)
    }

    /// Writes the desktop entry (`Exec=EXECUTABLE open %u`) and makes it the default handler.
    @discardableResult
    public func register(executablePath: String) throws(DesktopError) -> Report {
        Report(try registration.register(executablePath: executablePath))
    }

    /// Removes the entry and restores the previous default; nil when nothing was registered.
    @discardableResult
    public func unregister() throws(DesktopError) -> Report? {
        try registration.unregister().map(Report.init)
    }

    /// The desktop file `mimeapps.list` names as the scheme's default, if any.
    public func currentDefault() throws(DesktopError) -> String? { try registration.currentDefault() }

    /// Whether a desktop entry written for this scheme exists.
    public var isRegistered: Bool { (try? registration.readOurEntry()) != nil }
}

extension DesktopSchemeHandler.Report {
    init(_ report: SchemeRegistration.Report) {
        self.init(
            changedDesktopFile: report.changedDesktopFile, changedMimeApps: report.changedMimeApps,
            mimeCacheRefreshed: report.mimeCacheRefreshed, defaultWasOurs: report.defaultWasOurs)
    }
}

#endif
