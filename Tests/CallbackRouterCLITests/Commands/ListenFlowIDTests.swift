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

import Testing
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
import CallbackDesktop
import CallbackSystem

/// Issue 34.3: `listen --dialect clerk --flow-id ID` waits for that magic-link flow only, as
/// clerk-ios and clerk-android accept a link only for their pending flow.
extension ListenCommandTests {
    static func magicLink(flow: String, token: String = "apt_4f1c9e") -> String {
        "myapp://callback?flow_id=\(flow)&approval_token=\(token)"
    }

    /// The user clicked the link before the wait began: it waits in the spool and is taken,
    /// while another flow's link there is left alone.
    @Test func aSpooledMagicLinkForTheFlowIsTaken() {
        defer { temporary.remove() }
        let other = Self.magicLink(flow: "sia_other", token: "apt_other")
        let mine = Self.magicLink(flow: "sia_mine")
        #expect(runTool(["open", other], environment: environment).stdout.contains("spooled"))
        #expect(runTool(["open", mine], environment: environment).stdout.contains("spooled"))
        let options = ["--dialect", "clerk", "--flow-id", "sia_mine"]
        let listened = runTool(["listen", "--scheme", "myapp", "--timeout", "0"] + options, environment: environment)
        #expect(listened.exit == 0, "stdout: \(listened.stdout) stderr: \(listened.stderr)")
        #expect(listened.stdout == runTool(["parse"] + options + ["--", mine], environment: environment).stdout)
        #expect(!listened.stdout.contains("apt_other"))
        // The other flow's link is still there for its own wait.
        let theirs = runTool(
            ["listen", "--scheme", "myapp", "--timeout", "0", "--dialect", "clerk", "--flow-id", "sia_other"], environment: environment)
        #expect(theirs.exit == 0 && theirs.stdout.contains("apt_other"), "\(theirs.stdout)")
    }

    /// Another flow's link is not this wait's: it is spooled, and the wait goes on until its
    /// own link comes.
    @Test func anotherFlowsMagicLinkDoesNotEndTheWait() {
        defer { temporary.remove() }
        let options = ["--dialect", "clerk", "--flow-id", "sia_mine"]
        let listening = startListening(["--scheme", "myapp", "--timeout", "10"] + options)
        // The last: the right flow without its token. The flow id is no secret (the email
        // shows it), so a refused link carrying it ends nothing either.
        for forged in [Self.magicLink(flow: "sia_other"), Self.magicLink(flow: "sia_min"), "myapp://callback?flow_id=sia_mine"] {
            let opened = runTool(["open", forged], environment: environment)
            #expect(opened.exit == 0 && opened.stdout.contains("\"spooled\""), "\(forged): \(opened.stdout)")
            #expect(listenerSockets() == 1, "\(forged) ended the wait")
        }
        let mine = Self.magicLink(flow: "sia_mine")
        #expect(runTool(["open", mine], environment: environment).stdout == "{\"outcome\":\"delivered\"}\n")
        let listened = listening.join()
        #expect(listened.exit == 0, "stdout: \(listened.stdout) stderr: \(listened.stderr)")
        #expect(listened.stdout == runTool(["parse"] + options + ["--", mine], environment: environment).stdout)
    }

    @Test func parseChecksTheFlowID() {
        defer { temporary.remove() }
        let options = ["parse", "--dialect", "clerk", "--flow-id", "sia_mine", "--"]
        let mine = runTool(options + [Self.magicLink(flow: "sia_mine")], environment: environment)
        #expect(mine.exit == 0 && mine.stdout.contains("\"outcome\":\"magic_link\""), "\(mine.stdout)")
        let other = runTool(options + [Self.magicLink(flow: "sia_other")], environment: environment)
        #expect(other.exit == 65 && other.stdout.contains("\"reason\":\"state_mismatch\""), "\(other.stdout)")
        #expect(!other.stdout.contains("sia_other") && !other.stderr.contains("sia_other"))
    }

    @Test(arguments: [
        ["--flow-id", "sia_mine"],
        ["--dialect", "oauth2", "--flow-id", "sia_mine"],
        ["--dialect", "clerk", "--flow-id", "sia mine"],
        ["--dialect", "clerk", "--flow-id", ""],
        ["--dialect", "clerk", "--flow-id", "sia_mine", "--state", "xyz"],
    ])
    func aFlowIDThatCannotBindIsAUsageError(_ options: [String]) {
        defer { temporary.remove() }
        let listened = runTool(["listen", "--scheme", "myapp", "--timeout", "0"] + options, environment: environment)
        #expect(listened.exit == ExitCode.usage, "\(listened.stdout) \(listened.stderr)")
        let parsed = runTool(["parse"] + options + ["--", Self.magicLink(flow: "sia_mine")], environment: environment)
        #expect(parsed.exit == ExitCode.usage, "\(parsed.stdout) \(parsed.stderr)")
    }
}
