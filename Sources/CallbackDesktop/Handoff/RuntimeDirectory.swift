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
/// rather than trusted). Without it, a place no other user can create first (a fallback
/// under /tmp could be squatted for good, every `listen` refused until a reboot):
/// 1. `/run/user/UID/callback-router` when `/run/user/UID` exists and is the user's own
///    0700 directory (logind makes it at login; it is what XDG_RUNTIME_DIR names in a
///    desktop session, so a shell without the variable meets the desktop's `open` there);
/// 2. else `$XDG_STATE_HOME/callback-router/run`, or `~/.cache/callback-router/run`,
///    created 0700 in the user's own home.
/// Every one is checked the same way: another user's directory, or one others can enter,
/// is refused (77), never used.
///
/// Layout: `listeners/<scheme key>/<random id>.sock` (0600 sockets in 0700 directories)
/// and `spool/<scheme key>.<expiry>.<random id>` (0600 files). No name contains a state.
struct RuntimeDirectory {
    let root: String
    let uid: UserID

    /// Finds, creates and checks the directory. `uid` is the user it must belong to.
    /// `userRuntimeParent` is where logind makes each user's runtime directory (`/run/user`;
    /// tests pass another).
    static func resolve(
        environment: [String: String], uid: UserID, userRuntimeParent: String = "/run/user"
    ) throws(DesktopError) -> RuntimeDirectory {
        let root: String
        if let base = environment["XDG_RUNTIME_DIR"], !base.isEmpty {
            guard base.hasPrefix("/") else { throw .permission("XDG_RUNTIME_DIR is not an absolute path") }
            try checkPrivateDirectory(base, uid: uid, what: "XDG_RUNTIME_DIR")
            root = joinPath(base, "callback-router")
        } else if let base = userRuntimeDirectory(in: userRuntimeParent, uid: uid) {
            root = joinPath(base, "callback-router")
        } else {
            root = try homeFallback(environment: environment, uid: uid)
        }
        let directory = RuntimeDirectory(root: root, uid: uid)
        try directory.makePrivateDirectory(root)
        return directory
    }

    /// `PARENT/UID` when it is the user's own private directory, else nil (absent, as on
    /// macOS or without logind; anything else is not a place to use).
    static func userRuntimeDirectory(in parent: String, uid: UserID) -> String? {
        let path = joinPath(parent, String(uid))
        do throws(DesktopError) {
            try checkPrivateDirectory(path, uid: uid, what: "")
            return path
        } catch {
            return nil
        }
    }

    /// `$XDG_STATE_HOME/callback-router/run`, else `$HOME/.cache/callback-router/run`: only
    /// the user can create names in their home. Missing directories are created 0700; the
    /// `callback-router` one must then be the user's and private, as the runtime one is.
    static func homeFallback(environment: [String: String], uid: UserID) throws(DesktopError) -> String {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = joinPath(home, ".cache")
        } else {
            throw .permission(
                "XDG_RUNTIME_DIR is not set, there is no /run/user/\(uid) of yours, and HOME is not an absolute path:"
                    + " set XDG_RUNTIME_DIR to a private directory (mode 0700)")
        }
        let fallback = RuntimeDirectory(root: joinPath(base, "callback-router"), uid: uid)
        do {
            try FileSystem.makeDirectory(base, mode: 0o700)
        } catch {
            throw .permission("cannot create \(error.description)")
        }
        try fallback.makePrivateDirectory(fallback.root)
        return joinPath(fallback.root, "run")
    }

    var listenersDirectory: String { joinPath(root, "listeners") }
    var spoolDirectory: String { joinPath(root, "spool") }

    func listenerDirectory(for scheme: CallbackScheme) -> String {
        joinPath(listenersDirectory, scheme.directoryKey)
    }

    /// Creates `path` with mode 0700 unless it exists, then checks it as any other.
    func makePrivateDirectory(_ path: String) throws(DesktopError) {
        do {
            try FileSystem.makeDirectory(path, mode: 0o700)
        } catch {
            throw .permission("cannot create \(error.description)")
        }
        try Self.checkPrivateDirectory(path, uid: uid, what: "the directory")
    }

    /// A real directory (not a link), owned by `uid`, with no access for group or others.
    static func checkPrivateDirectory(_ path: String, uid: UserID, what: String) throws(DesktopError) {
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
}

#endif
