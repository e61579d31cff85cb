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

/// The private directory where listeners' sockets and the spool live.
///
/// `$XDG_RUNTIME_DIR/callback-router` when the variable is set (the directory must be the
/// user's, mode 0700, not a symbolic link: the XDG Base Directory spec's guarantee, checked
/// rather than trusted). Without it: `/tmp/callback-router-UID`, created 0700 and checked
/// the same way; another user who creates that name first only makes the helper refuse
/// (77), never makes it use their directory.
///
/// Layout: `listeners/<scheme key>/<random id>.sock` (0600 sockets in 0700 directories)
/// and `spool/<scheme key>.<expiry>.<random id>` (0600 files). No name contains a state.
struct RuntimeDirectory {
    let root: String
    let uid: uid_t

    /// Finds, creates and checks the directory. `uid` is the user it must belong to.
    /// `temporaryDirectory` is where the fallback goes (`/tmp`; tests pass another).
    static func resolve(
        environment: [String: String], uid: uid_t, temporaryDirectory: String = "/tmp"
    ) throws(HelperFailure) -> RuntimeDirectory {
        let root: String
        if let base = environment["XDG_RUNTIME_DIR"], !base.isEmpty {
            guard base.hasPrefix("/") else { throw .permission("XDG_RUNTIME_DIR is not an absolute path") }
            try checkPrivateDirectory(base, uid: uid, what: "XDG_RUNTIME_DIR")
            root = joinPath(base, "callback-router")
        } else {
            let parent = temporaryParent(temporaryDirectory)
            try checkTemporaryParent(parent, uid: uid)
            root = joinPath(parent, "callback-router-\(uid)")
        }
        let directory = RuntimeDirectory(root: root, uid: uid)
        try directory.makePrivateDirectory(root)
        return directory
    }

    var listenersDirectory: String { joinPath(root, "listeners") }
    var spoolDirectory: String { joinPath(root, "spool") }

    func listenerDirectory(for scheme: CallbackScheme) -> String {
        joinPath(listenersDirectory, scheme.directoryKey)
    }

    /// Creates `path` with mode 0700 unless it exists, then checks it as any other.
    func makePrivateDirectory(_ path: String) throws(HelperFailure) {
        do {
            try FileSystem.makeDirectory(path, mode: 0o700)
        } catch {
            throw .permission("cannot create \(error.description)")
        }
        try Self.checkPrivateDirectory(path, uid: uid, what: "the directory")
    }

    /// A real directory (not a link), owned by `uid`, with no access for group or others.
    static func checkPrivateDirectory(_ path: String, uid: uid_t, what: String) throws(HelperFailure) {
        let status: FileStatus?
        do { status = try FileSystem.status(path) } catch { throw .permission(error.description) }
        guard let status else { throw .permission("\(what) '\(path)' does not exist") }
        guard status.kind == .directory else { throw .permission("\(what) '\(path)' is not a directory") }
        guard status.owner == uid else {
            throw .permission("\(what) '\(path)' belongs to uid \(status.owner), not to uid \(uid)")
        }
        guard status.isPrivate else {
            throw .permission("\(what) '\(path)' has mode \(String(status.permissions, radix: 8)); it must be 0700")
        }
    }

    /// Where the fallback goes: `path` itself, or the directory it points to when it is a
    /// symbolic link that root owns. On macOS `/tmp` is root's link to `/private/tmp`, and
    /// without this the fallback would always be refused there. A link anyone else owns is
    /// not followed (and ``checkTemporaryParent(_:uid:)`` then refuses it: not a directory).
    static func temporaryParent(_ path: String) -> String {
        guard let status = try? FileSystem.status(path), status.kind == .symbolicLink, status.owner == 0,
            let resolved = FileSystem.canonicalPath(path)
        else { return path }
        return resolved
    }

    /// The fallback lives in /tmp only if nobody else can rename things out of it: root's
    /// (or our) directory, and sticky when others may write to it.
    static func checkTemporaryParent(_ path: String, uid: uid_t) throws(HelperFailure) {
        guard let status = try? FileSystem.status(path), status.kind == .directory,
            status.owner == 0 || status.owner == uid,
            status.permissions & 0o022 == 0 || status.permissions & 0o1000 != 0
        else {
            throw .permission("XDG_RUNTIME_DIR is not set and \(path) is not a safe place for a fallback")
        }
    }
}

#endif
