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

@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// setpriv, which runs a command as another uid (root only).
private let secondUIDTool = Subprocess.find("setpriv", environment: ["PATH": "/usr/bin:/bin"])

/// Issue 33, point 4: with XDG_RUNTIME_DIR unset, another user who created
/// `/tmp/callback-router-UID` first made `listen` and `open` exit 77 for good (sticky /tmp:
/// the owner cannot remove it). A real second uid (setpriv, as root) squats that name;
/// `open` and `listen` still meet, in a directory only the user can create.
@Suite(.serialized, .enabled(if: geteuid() == 0 && secondUIDTool != nil, "a second uid needs root and setpriv"))
struct RuntimeDirectorySquatTests {

    @Test func anotherUsersTmpDirectoryNoLongerStopsListenAndOpen() throws {
        let squatted = "/tmp/callback-router-\(getuid())"
        let existing = try FileSystem.status(squatted)
        let unchangedGroup = gid_t.max // chown's -1
        if existing != nil {
            // Made earlier (by this user): it becomes the other user's for the test, then is given back.
            #expect(chown(squatted, 65534, unchangedGroup) == 0)
        } else {
            let setpriv = try #require(secondUIDTool)
            let made = Subprocess.run(
                setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", "mkdir", "-m", "700", squatted],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(made?.status == 0)
        }
        defer {
            if let existing { chown(squatted, existing.owner, unchangedGroup) } else { rmdir(squatted) }
        }
        #expect(try FileSystem.status(squatted)?.owner == 65534, "the other user owns it")

        let home = TemporaryDirectory()
        defer { home.remove() }
        let environment = ["HOME": home.path, "PATH": "/nonexistent"]
        let url = "squatapp://cb?code=abc&state=st-1"
        let opened = runTool(["open", url], environment: environment)
        #expect(opened.exit == 0, "\(opened.stderr)")
        #expect(opened.stdout.contains("spooled"))
        let listened = runTool(["listen", "--scheme", "squatapp", "--state", "st-1", "--timeout", "5"], environment: environment)
        #expect(listened.exit == 0, "\(listened.stderr)")
        #expect(listened.stdout.hasPrefix(#"{"outcome":"authorization_code""#))
    }

    /// A `$HOME` so long that a listener's socket path would pass the 107 bytes a Unix socket
    /// holds: the refusal names the path and says what to set, not a mystery.
    @Test func aHomeTooLongForASocketIsAClearRefusal() throws {
        let home = TemporaryDirectory()
        defer { home.remove() }
        let long = home.path + "/" + String(repeating: "h", count: 80)
        #expect(mkdir(long, 0o700) == 0)
        let listened = runTool(
            ["listen", "--scheme", "squatapp", "--state", "st-1", "--timeout", "1"], environment: ["HOME": long, "PATH": "/nonexistent"])
        #expect(listened.exit == ExitCode.permission)
        #expect(listened.stderr.contains("is longer than a Unix socket allows"))
        #expect(listened.stderr.contains(long + "/.cache/callback-router/run/"))
        #expect(listened.stderr.contains("set XDG_RUNTIME_DIR to a shorter private directory"))
    }
}
