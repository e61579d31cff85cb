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

@testable import CallbackDesktop
import CallbackSystem
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fallback runtime directory when `XDG_RUNTIME_DIR` is not set:
/// `/run/user/UID` when it is the user's, else under the user's home; never a name in a
/// shared directory that another user could create first.
@Suite struct RuntimeDirectoryFallbackTests {
    /// A sandbox with its own `/run/user` stand-in; its environment has no XDG_RUNTIME_DIR.
    private func homeOnly(_ sandbox: Sandbox, state: Bool = false) -> (environment: [String: String], runUser: String) {
        let runUser = sandbox.root + "/run-user"
        mkdir(runUser, 0o755)
        var environment = ["HOME": sandbox.root + "/home", "PATH": "/nonexistent"]
        mkdir(sandbox.root + "/home", 0o700)
        if state { environment["XDG_STATE_HOME"] = sandbox.root + "/home/state" }
        return (environment, runUser)
    }

    @Test func theUsersOwnRunUserDirectoryComesFirst() throws {
        let sandbox = Sandbox()
        let (environment, runUser) = homeOnly(sandbox)
        mkdir(runUser + "/\(getuid())", 0o700)
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: getuid(), userRuntimeParent: runUser)
        #expect(runtime.root == runUser + "/\(getuid())/callback-router")
    }

    @Test func withoutItTheFallbackIsUnderTheCacheOfHomeAndPrivate() throws {
        let sandbox = Sandbox()
        let (environment, runUser) = homeOnly(sandbox)
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: getuid(), userRuntimeParent: runUser)
        #expect(runtime.root == sandbox.root + "/home/.cache/callback-router/run")
        for path in [sandbox.root + "/home/.cache", sandbox.root + "/home/.cache/callback-router", runtime.root] {
            let status = try #require(try FileSystem.status(path))
            #expect(status.kind == .directory && status.permissions == 0o700 && status.owner == getuid(), "\(path)")
        }
    }

    @Test func xdgStateHomeIsUsedWhenSet() throws {
        let sandbox = Sandbox()
        let (environment, runUser) = homeOnly(sandbox, state: true)
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: getuid(), userRuntimeParent: runUser)
        #expect(runtime.root == sandbox.root + "/home/state/callback-router/run")
    }

    @Test func aRunUserDirectoryOthersCanEnterIsPassedOver() throws {
        let sandbox = Sandbox()
        let (environment, runUser) = homeOnly(sandbox)
        mkdir(runUser + "/\(getuid())", 0o755)
        chmod(runUser + "/\(getuid())", 0o755)
        let runtime = try RuntimeDirectory.resolve(environment: environment, uid: getuid(), userRuntimeParent: runUser)
        #expect(runtime.root == sandbox.root + "/home/.cache/callback-router/run")
    }

    @Test(.enabled(if: geteuid() == 0, "chown to another uid needs root"))
    func aFallbackOfAnotherUserIsRefusedNotUsed() throws {
        let sandbox = Sandbox()
        let (environment, runUser) = homeOnly(sandbox)
        let theirs = sandbox.root + "/home/.cache/callback-router"
        mkdir(sandbox.root + "/home/.cache", 0o700)
        mkdir(theirs, 0o700)
        #expect(chown(theirs, 65534, 65534) == 0)
        #expect {
            try RuntimeDirectory.resolve(environment: environment, uid: getuid(), userRuntimeParent: runUser)
        } throws: { ($0 as? DesktopError)?.message.contains("belongs to uid 65534") == true }
    }

    @Test func withoutHomeTheRefusalSaysWhatToSet() {
        #expect {
            try RuntimeDirectory.resolve(environment: [:], uid: getuid(), userRuntimeParent: "/nonexistent")
        } throws: { ($0 as? DesktopError)?.message.contains("set XDG_RUNTIME_DIR") == true }
    }
}

@Suite struct RuntimeDirectoryTests {
    /// A 0700 runtime directory of one uid is, as another uid sees it, not theirs: a
    /// `permission` refusal (77 in the CLI), never a directory to use. (Moved from the CLI's
    /// OpenCommandTests, which runs no command for it.)
    @Test func aDirectoryOfAnotherUserIsRefused() {
        let sandbox = Sandbox()
        #expect {
            try RuntimeDirectory.resolve(environment: sandbox.environment, uid: getuid() &+ 1)
        } throws: { ($0 as? DesktopError)?.code == .permission }
        #expect((try? RuntimeDirectory.resolve(environment: sandbox.environment, uid: getuid())) != nil)
    }
}
