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

/// The files `register` writes and `unregister` removes for one scheme.
struct SchemeRegistration {
    let scheme: CallbackScheme
    /// The desktop file ID without `.desktop`.
    let id: String
    let directories: XDGDirectories
    let environment: [String: String]

    init(scheme: CallbackScheme, id: String, directories: XDGDirectories, environment: [String: String]) {
        self.scheme = scheme
        self.id = id
        self.directories = directories
        self.environment = environment
    }

    var desktopFileName: String { id + ".desktop" }
    var desktopFilePath: String { joinPath(directories.applicationsDirectory, desktopFileName) }

    /// Desktop file IDs: letters, digits, `-`, `_`, `.`; not starting with a digit or a dot.
    static func validateID(_ id: String) throws(DesktopError) {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty, bytes.count <= 200 else { throw .usage("--id must be 1 to 200 characters") }
        let allowed = bytes.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        guard allowed, !(bytes[0] >= 0x30 && bytes[0] <= 0x39), bytes[0] != UInt8(ascii: "."),
            !id.hasSuffix(".desktop")
        else {
            throw .usage("--id takes letters, digits, '-', '_' and '.' (no leading digit or dot, no '.desktop')")
        }
    }

    struct Report {
        let changedDesktopFile: Bool
        let changedMimeApps: Bool
        let mimeCacheRefreshed: Bool
        /// For unregister: whether the default was still ours (false: left as the user set it).
        let defaultWasOurs: Bool
    }

    // MARK: register

    func register(executablePath: String) throws(DesktopError) -> Report {
        let existing = try readOurEntry()
        let mimeText = try readText(mimeAppsTarget())
        let edit: (text: String, edit: MimeAppsList.Edit)
        do {
            edit = try MimeAppsList.setDefault(mimeText, mimeType: scheme.mimeType, desktopFile: desktopFileName)
        } catch {
            throw DesktopError(
                .rejected,
                message:
                    "'\(directories.mimeAppsList)' sets \(error.mimeType) more than once under \(MimeAppsList.section); fix it by hand first"
            )
        }
        // Registering again keeps the first registration's record: that is what to undo.
        let record = (edit.edit == .unchanged ? existing?.mimeAppsEdit : nil) ?? edit.edit
        let entry = DesktopEntry(scheme: scheme, executablePath: executablePath, mimeAppsEdit: record)
        let desktopText = try entry.rendered()

        let changedDesktop = try readText(desktopFilePath) != desktopText
        if changedDesktop {
            try makeDirectories(directories.applicationsDirectory)
            try write(desktopFilePath, desktopText, mode: 0o644)
        }
        let changedMimeApps = edit.text != mimeText
        if changedMimeApps { try writeMimeApps(edit.text) }
        let refreshed = changedDesktop ? refreshMimeCache() : false
        return Report(
            changedDesktopFile: changedDesktop, changedMimeApps: changedMimeApps, mimeCacheRefreshed: refreshed, defaultWasOurs: true)
    }

    // MARK: unregister

    /// nil when nothing was registered under this ID.
    func unregister() throws(DesktopError) -> Report? {
        guard let entry = try readOurEntry() else { return nil }
        var changedMimeApps = false
        var wasOurs = false
        if let mimeText = try readText(mimeAppsTarget()) {
            let restored = MimeAppsList.restore(mimeText, mimeType: scheme.mimeType, desktopFile: desktopFileName, edit: entry.mimeAppsEdit)
            wasOurs = restored.wasOurs
            if let text = restored.text {
                if text != mimeText { try writeMimeApps(text); changedMimeApps = true }
            } else {
                try remove(mimeAppsTarget())
                changedMimeApps = true
            }
        }
        try remove(desktopFilePath)
        let refreshed = refreshMimeCache()
        return Report(changedDesktopFile: true, changedMimeApps: changedMimeApps, mimeCacheRefreshed: refreshed, defaultWasOurs: wasOurs)
    }

    // MARK: status

    /// This ID's desktop file if `register` wrote it for this scheme; throws when the file
    /// exists but is not ours (it is never overwritten or removed).
    func readOurEntry() throws(DesktopError) -> DesktopEntry? {
        guard let text = try readText(desktopFilePath) else { return nil }
        guard let entry = DesktopEntry.parse(text), entry.scheme == scheme else {
            throw .usage("'\(desktopFilePath)' exists and was not written by callback-router for '\(scheme)'; choose another --id")
        }
        return entry
    }

    func currentDefault() throws(DesktopError) -> String? {
        try readText(mimeAppsTarget()).flatMap { MimeAppsList.defaultDesktopFile($0, mimeType: scheme.mimeType) }
    }

    /// What `xdg-mime query default` answers, or nil when xdg-mime is not installed.
    func xdgMimeDefault() -> String?? {
        guard let xdgMime = Subprocess.find("xdg-mime", environment: environment),
            let result = Subprocess.run(xdgMime, ["query", "default", scheme.mimeType], environment: environment)
        else { return nil }
        let answer = result.standardOutput.trimmingSpaces.split(separator: "\n").first.map(String.init)
        return .some(result.status == 0 && answer?.isEmpty == false ? answer : nil)
    }

    // MARK: Files

    /// `update-desktop-database` rebuilds mimeinfo.cache for gio; absent, nothing to do.
    private func refreshMimeCache() -> Bool {
        guard let tool = Subprocess.find("update-desktop-database", environment: environment),
            FileSystem.status(followingLinks: directories.applicationsDirectory) != nil,
            let result = Subprocess.run(tool, ["-q", directories.applicationsDirectory], environment: environment)
        else { return false }
        return result.status == 0
    }

    private func readText(_ path: String) throws(DesktopError) -> String? {
        do {
            return try FileSystem.readFile(path).map { String(decoding: $0, as: UTF8.self) }
        } catch {
            throw DesktopError(.permission, message: "cannot read \(error.description)")
        }
    }

    private func write(_ path: String, _ text: String, mode: FileMode) throws(DesktopError) {
        do {
            try FileSystem.writeAtomically(path, Array(text.utf8), mode: mode)
        } catch {
            throw DesktopError(.permission, message: "cannot write \(error.description)")
        }
    }

    private func remove(_ path: String) throws(DesktopError) {
        do { try FileSystem.remove(path) } catch {
            throw DesktopError(.permission, message: "cannot remove \(error.description)")
        }
    }

    /// mimeapps.list is often a link into a dotfiles repository: write where it points.
    private func mimeAppsTarget() -> String {
        FileSystem.canonicalPath(directories.mimeAppsList) ?? directories.mimeAppsList
    }

    private func writeMimeApps(_ text: String) throws(DesktopError) {
        try makeDirectories(directories.configHome)
        let target = mimeAppsTarget()
        let mode = FileSystem.status(followingLinks: target).map(\.permissions) ?? 0o644
        try write(target, text, mode: mode)
    }

    /// `mkdir -p` with 0700 for what it creates (XDG Base Directory spec).
    private func makeDirectories(_ path: String) throws(DesktopError) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            do { try FileSystem.makeDirectory(current, mode: 0o700) } catch {
                throw DesktopError(.permission, message: "cannot create \(error.description)")
            }
        }
    }
}

#endif
