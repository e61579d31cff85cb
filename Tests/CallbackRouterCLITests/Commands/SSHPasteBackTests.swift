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

#if os(Linux)
import Glibc
@testable import CallbackRouterCLI
@testable import CallbackRouterKit
@testable import CallbackSystem
import CallbackRouter
import CallbackTestSupport
import Testing

/// Over SSH, with stdin a terminal (a real pty here), `login` takes the address the
/// browser ended at, pasted, without `--accept-paste`: the person whose port could not be
/// forwarded does not have to start again.
@Suite struct SSHPasteBackTests {
    @Test func overSSHTheCallbackPastedIntoTheTerminalEndsTheLogin() throws {
        // The pty functions are in libc but not in the Glibc module (they need _XOPEN_SOURCE).
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func libc<T>(_ name: String, as type: T.Type) throws -> T {
            unsafeBitCast(try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)), to: type)
        }
        let master = try libc("posix_openpt", as: OpenPT.self)(O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        try #require(try libc("grantpt", as: OpenPT.self)(master) == 0 && libc("unlockpt", as: OpenPT.self)(master) == 0)
        let name = try #require(try libc("ptsname", as: PTSName.self)(master))
        let slave = open(name, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }

        let output = CapturedOutput()
        let context = CommandContext(
            output: output, environment: ["PATH": "/usr/bin:/bin", "SSH_CONNECTION": "10.0.0.5 51000 10.0.0.9 22"],
            executablePath: "/x", standardInput: slave)
        let finished = Locked<Int32?>(nil)
        try #require(
            DetachedThread.start {
                let code = CallbackRouterTool.run(
                    ["login", "--endpoint", "https://example.com/authorize", "--client-id", "abc", "--timeout", "30"], context: context)
                finished.withLock { $0 = code }
            })
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while !output.stderr.contains("paste") && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(output.stderr.contains("or paste here the URL"))

        // The person opens the link on the laptop: the start link redirects to the provider.
        let start = try #require(output.stderr.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") && $0.contains("/start/") })
        let link = String(start).trimmingNewlines
        let afterHost = link.dropFirst("http://127.0.0.1:".count)
        let port = try #require(Int(afterHost.prefix { $0.isNumber }))
        let path = String(afterHost.drop { $0.isNumber })
        let location = try #require(try RawClient.get(port: port, path).header("Location"))
        let state = try #require(location.split(separator: "&").first { $0.hasPrefix("state=") }).dropFirst("state=".count)

        // The provider sent the browser to the unforwarded port; the address is pasted here.
        let pasted = "http://127.0.0.1:\(port)/callback?code=pasted-code&state=\(state)\n"
        _ = pasted.withCString { write(master, $0, strlen($0)) }
        while finished.withLock({ $0 }) == nil && ContinuousClock.now < deadline.advanced(by: .seconds(15)) { usleep(10_000) }
        #expect(finished.withLock { $0 } == ExitCode.success)
        #expect(output.stdout.contains(#""code":"pasted-code""#))
    }
}

extension String {
    fileprivate var trimmingNewlines: String {
        String(self.prefix { $0 != "\n" })
    }
}
#endif
