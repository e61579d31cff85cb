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

/// The fallback runtime directory when `XDG_RUNTIME_DIR` is not set. On macOS `/tmp` is
/// root's symbolic link to `/private/tmp`; these build the same shape in a sandbox. Only
/// root can own a link that root owns, so they run as root (as CI runs them).
@Suite(.enabled(if: geteuid() == 0, "a root-owned link needs root"))
struct RuntimeDirectoryFallbackTests {
    /// A sticky, world-writable directory (as /tmp is) and a link to it.
    private func temporaryLink(in sandbox: Sandbox) -> (link: String, target: String) {
        let target = sandbox.root + "/private-tmp"
        mkdir(target, 0o700)
        chmod(target, 0o1777)
        let link = sandbox.root + "/tmp"
        symlink(target, link)
        return (link, target)
    }

    @Test func theFallbackFollowsALinkRootOwnsAsMacOSTmpIs() throws {
        let sandbox = Sandbox()
        let (link, target) = temporaryLink(in: sandbox)
        let runtime = try RuntimeDirectory.resolve(environment: [:], uid: getuid(), temporaryDirectory: link)
        let resolvedTarget = try #require(FileSystem.canonicalPath(target))
        #expect(runtime.root == resolvedTarget + "/callback-router-\(getuid())")
        #expect(try FileSystem.status(runtime.root)?.kind == .directory)
    }

    @Test func aLinkSomeoneElseOwnsIsNotFollowed() {
        let sandbox = Sandbox()
        let (link, _) = temporaryLink(in: sandbox)
        #expect(lchown(link, 12345, 12345) == 0)
        #expect(throws: DesktopError.self) {
            try RuntimeDirectory.resolve(environment: [:], uid: getuid(), temporaryDirectory: link)
        }
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
