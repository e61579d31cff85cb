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

/// Callbacks that arrived while nobody was listening, kept for a while for the next
/// matching `listen`, which takes each at most once.
///
/// Entries are 0600 files in the runtime directory's 0700 `spool/`, named
/// `<scheme key>.<expires at, epoch seconds>.<random id>`: the name says when an entry
/// expires (so expired ones are deleted unread) and never anything about the callback.
/// They are written to a temporary name and renamed into place (a reader sees a whole
/// entry or none). Taking one is a `rename` to a claimed name: of two processes that try,
/// exactly one succeeds.
struct Spool {
    let directory: String
    let uid: UserID
    /// What "now" is when an entry's expiry is written and judged.
    let wallClock: WallClock
    /// Held (`flock`) by writers around the look-up for a copy and the write.
    private let lockPath: String

    static let defaultTTLSeconds = 600
    private static let header: [UInt8] = Array("callback-router spool 1\n".utf8)
    private static let temporaryPrefix = ".tmp-"
    private static let claimedPrefix = ".claimed-"

    init(_ runtime: RuntimeDirectory, wallClock: WallClock = .system) throws(DesktopError) {
        self.wallClock = wallClock
        directory = runtime.spoolDirectory
        lockPath = joinPath(runtime.root, "spool.lock")
        uid = runtime.uid
        try runtime.makePrivateDirectory(directory)
    }

    struct Entry: Equatable {
        let name: String
        let expiresAt: Int64
    }

    /// Spools `url` once: the live entry that already holds this very URL, else a new entry
    /// that expires `ttlSeconds` from now. A browser that runs the handler twice for one
    /// redirect (a reload, a double click) leaves one copy, not two for two listeners.
    /// Writers take `spool.lock` beside `spool/` (`flock`) around the look-up and the write, so two `open`s
    /// of one URL at the same instant also leave one copy.
    func add(url: String, scheme: CallbackScheme, ttlSeconds: Int) throws(SystemError) -> Entry {
        let now = wallClock.seconds()
        let lock = lockWriters()
        defer { lock?.close() }
        if let existing = firstCopy(of: url, scheme: scheme, now: now) { return existing }
        return try write(url: url, scheme: scheme, expiresAt: now + Int64(ttlSeconds))
    }

    /// An exclusive `flock` on `spool.lock` (a private regular file of this user), released
    /// when the descriptor is closed; nil when it cannot be had (then writers do not wait on
    /// each other, and two simultaneous copies of one URL remain possible).
    private func lockWriters() -> Descriptor? {
        guard let descriptor = try? FileSystem.openOrCreate(lockPath, mode: 0o600),
            let status = try? descriptor.status(), status.kind == .regular, status.owner == uid, status.isPrivate,
            (try? descriptor.lockExclusively()) != nil
        else { return nil }
        return descriptor
    }

    /// The live entry of `scheme` holding exactly `url` with the smallest name, if any.
    private func firstCopy(of url: String, scheme: CallbackScheme, now: Int64) -> Entry? {
        entries(for: scheme).filter { $0.expiresAt > now && read($0) == url }.min { $0.name < $1.name }
    }

    private func write(url: String, scheme: CallbackScheme, expiresAt: Int64) throws(SystemError) -> Entry {
        let entry = Entry(name: "\(scheme.directoryKey).\(expiresAt).\(RandomName.hex(bytes: 12))", expiresAt: expiresAt)
        let temporary = joinPath(directory, Self.temporaryPrefix + entry.name)
        let descriptor = try FileSystem.createExclusive(temporary, mode: 0o600)
        do throws(SystemError) {
            try descriptor.writeAll(Self.header + Array(url.utf8))
            descriptor.close()
            try FileSystem.rename(temporary, to: joinPath(directory, entry.name))
        } catch {
            _ = try? FileSystem.remove(temporary)
            throw error
        }
        return entry
    }

    func exists(_ entry: Entry) -> Bool {
        (try? FileSystem.status(joinPath(directory, entry.name))) != nil
    }

    /// Takes `entry` away from everyone else; false when someone else took it first.
    func claim(_ entry: Entry) -> Bool {
        systemRename(joinPath(directory, entry.name), joinPath(directory, Self.claimedPrefix + entry.name)) == 0
    }

    /// Puts back an entry this process claimed (the listener it was meant for refused it).
    func unclaim(_ entry: Entry) -> Bool {
        systemRename(joinPath(directory, Self.claimedPrefix + entry.name), joinPath(directory, entry.name)) == 0
    }

    /// Deletes an entry this process claimed.
    func removeClaimed(_ entry: Entry) {
        _ = try? FileSystem.remove(joinPath(directory, Self.claimedPrefix + entry.name))
    }

    /// The live entries of a scheme, oldest expiry first (FIFO for equal time-to-live).
    func entries(for scheme: CallbackScheme) -> [Entry] {
        let prefix = scheme.directoryKey + "."
        var result: [Entry] = []
        for name in (try? FileSystem.entries(directory)) ?? [] where name.hasPrefix(prefix) {
            guard let entry = Self.parseName(name, prefix: prefix) else { continue }
            result.append(entry)
        }
        return result.sorted { ($0.expiresAt, $0.name) < ($1.expiresAt, $1.name) }
    }

    static func parseName(_ name: String, prefix: String) -> Entry? {
        let rest = name.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard rest.count == 2, let expiresAt = Int64(rest[0]), rest[0].allSatisfy(\.isASCII),
            rest[1].count == 24, rest[1].allSatisfy({ $0.isHexDigit && $0.isASCII })
        else { return nil }
        return Entry(name: name, expiresAt: expiresAt)
    }

    /// Deletes, unread, every entry whose time is up, and leftovers of crashed writers.
    func sweepExpired() {
        let now = wallClock.seconds()
        for name in (try? FileSystem.entries(directory)) ?? [] {
            let path = joinPath(directory, name)
            if name.hasPrefix(Self.temporaryPrefix) || name.hasPrefix(Self.claimedPrefix) {
                if let status = try? FileSystem.status(path), status.modifiedSeconds < now - 60 {
                    _ = try? FileSystem.remove(path)
                }
                continue
            }
            let parts = name.split(separator: ".")
            guard parts.count >= 3, let expiresAt = Int64(parts[parts.count - 2]) else { continue }
            if expiresAt <= now { _ = try? FileSystem.remove(path) }
        }
    }

    /// Takes the first entry of `scheme` that the routing rule gives to a listener expecting
    /// `expectedState` (an exact state match before a mere candidate) and that `accepts`
    /// (nil: every one), or nil. Entries named in `skipping` are left alone; expired entries
    /// are deleted unread on the way.
    func take(
        scheme: CallbackScheme, expectedState: String?, expectedFlowID: String? = nil, accepting accepts: ((String) -> Bool)? = nil,
        skipping: Set<String> = []
    ) -> String? {
        let now = wallClock.seconds()
        var candidates: [(entry: Entry, url: String, answer: HandoffMatch.Answer)] = []
        for entry in entries(for: scheme) where !skipping.contains(entry.name) {
            if entry.expiresAt <= now {
                _ = try? FileSystem.remove(joinPath(directory, entry.name))
                continue
            }
            guard let url = read(entry),
                let parsed = try? CallbackURL(parsing: url),
                let route = try? CallbackRoute(parsed)
            else { continue }
            let answer = HandoffMatch.answer(
                listenerScheme: scheme, expectedState: expectedState, expectedFlowID: expectedFlowID, offered: route)
            if answer != .notMine, accepts?(url) ?? true { candidates.append((entry, url, answer)) }
        }
        let ordered = candidates.filter { $0.answer == .exact } + candidates.filter { $0.answer == .candidate }
        for candidate in ordered where claim(candidate.entry) {
            // The claimed file is the one that was read: entries are never rewritten in
            // place, and names are random and never reused.
            removeClaimed(candidate.entry)
            return candidate.url
        }
        return nil
    }

    /// An entry's URL, after checking it is a private regular file of this user.
    private func read(_ entry: Entry) -> String? {
        guard let descriptor = try? FileSystem.openForReading(joinPath(directory, entry.name)),
            let status = try? descriptor.status(), status.kind == .regular, status.owner == uid, status.isPrivate,
            let bytes = try? descriptor.readAll(limit: Self.header.count + HandoffWire.maxPayload),
            bytes.starts(with: Self.header)
        else { return nil }
        return String(decoding: bytes[Self.header.count...], as: UTF8.self)
    }
}

#endif
