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

import CallbackSystem

extension DesktopSchemeHandler {
    /// What `xdg-mime query default x-scheme-handler/SCHEME` answered.
    public enum SystemDefault: Sendable, Equatable {
        /// `xdg-mime` is not installed (or could not be run): nobody asked.
        case unknown
        /// `xdg-mime` names no handler for the scheme (or failed).
        case none
        /// The desktop file `xdg-mime` names as the scheme's handler.
        case desktopFile(String)
    }

    /// Whether the scheme's callbacks reach a given handler executable, and who says so.
    public struct Status: Sendable, Equatable {
        /// The executable the desktop entry this handler wrote runs (`Exec=`); nil when there
        /// is no such entry.
        public let entryExecutable: String?
        /// Whether ``entryExecutable`` is the executable `status(executablePath:)` was asked
        /// about (the same file, links followed).
        public let entryRunsExecutable: Bool
        /// The desktop file `mimeapps.list` names as the scheme's default, if any.
        public let mimeAppsDefault: String?
        /// What `xdg-mime` says (it also reads system-wide defaults).
        public let systemDefault: SystemDefault
        /// Whether this handler's entry exists and `mimeapps.list` makes it the default.
        public let isDefault: Bool
    }

    /// Reads the desktop entry, `mimeapps.list` and `xdg-mime` (when installed): whether the
    /// scheme's callbacks reach `executablePath`. Changes nothing.
    ///
    /// - Throws: ``DesktopError/usage`` when the desktop file exists but was not written for
    ///   this scheme (another program's: choose another id), ``DesktopError/permission`` when a
    ///   file cannot be read.
    public func status(executablePath: String) throws(DesktopError) -> Status {
        let entry = try registration.readOurEntry()
        let mimeDefault = try registration.currentDefault()
        let systemDefault: SystemDefault
        switch registration.xdgMimeDefault() {
        case .none: systemDefault = .unknown
        case .some(.none): systemDefault = .none
        case .some(.some(let file)): systemDefault = .desktopFile(file)
        }
        return Status(
            entryExecutable: entry?.executablePath,
            entryRunsExecutable: entry.map { Self.sameFile($0.executablePath, executablePath) } ?? false,
            mimeAppsDefault: mimeDefault,
            systemDefault: systemDefault,
            isDefault: entry != nil && mimeDefault == registration.desktopFileName)
    }

    /// Whether `path` has a character that must be quoted in the entry's `Exec=` line:
    /// gio honours the quoting, xdg-open's generic path does not (install the handler under a
    /// path without spaces).
    public static func executablePathNeedsQuoting(_ path: String) -> Bool { DesktopEntry.needsQuoting(path) }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = FileSystem.status(followingLinks: a), let y = FileSystem.status(followingLinks: b) else { return a == b }
        return x.device == y.device && x.inode == y.inode
    }
}

extension CallbackHandoff {
    /// How many receivers wait for `scheme` (their sockets in the runtime directory); 0 when
    /// none ever waited or the scheme's directory cannot be read.
    ///
    /// - Throws: ``DesktopError/permission`` or ``DesktopError/unavailable`` when the runtime
    ///   directory (`$XDG_RUNTIME_DIR/callback-router`, else a private one under `/tmp`) is
    ///   unusable.
    public static func waitingReceiverCount(scheme: CallbackScheme, environment: [String: String]) throws(DesktopError) -> Int {
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: UserIdentity.real)
        let names = (try? FileSystem.entries(runtime.listenerDirectory(for: scheme))) ?? []
        return names.filter { $0.hasSuffix(".sock") }.count
    }
}

#endif
