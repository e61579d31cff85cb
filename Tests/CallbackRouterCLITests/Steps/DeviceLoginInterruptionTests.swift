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
import CallbackRouter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// Ctrl-C (SIGINT) and SIGTERM while `login --device` polls a provider that keeps saying
/// `authorization_pending`: the wait ends at once with the cancelled outcome and 130 / 143,
/// no poll follows, nothing is stored, and neither output shows the device code.
@Suite struct DeviceLoginInterruptionTests {
    @Test(arguments: [(SIGINT, ExitCode.interrupted), (SIGTERM, ExitCode.terminated)])
    func aSignalDuringTheDeviceWaitEndsItWithTheCancelledOutcome(_ signal: Int32, _ expected: Int32) async throws {
        let provider = try DeviceProvider(
            deviceAnswer: DeviceLoginTests.deviceAnswer(expiresIn: 600, interval: 1),
            tokenAnswers: [DeviceLoginTests.error("authorization_pending")])
        defer { provider.stop() }
        let home = TemporaryDirectory()
        defer { home.remove() }
        let state = home.privateSubdirectory("state")
        let stderr = Locked("")
        let result = try await InterruptionTests().interrupt(
            ["login", "--device", "--issuer", provider.issuer, "--client-id", "app", "--allow-http-loopback"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_STATE_HOME": state], with: signal
        ) { output in
            stderr.withLock { $0 = output.stderr }
            return provider.polls.count >= 1
        }
        let pollsAtTheSignal = provider.polls.count
        #expect(result.code == expected, "\(result.stdout)")
        let line = InterruptionTests.lastLine(result.stdout)
        #expect(line.hasPrefix(InterruptionTests.cancelled), "\(result.stdout)")
        #expect(!result.stdout.contains("DC-secret-device-code"))
        #expect(!stderr.withLock { $0 }.contains("DC-secret-device-code"))
        #expect(stderr.withLock { $0 }.contains("WDJB - MJHT"), "the code was shown before the wait")
        // The poll loop waits one interval (1 s) between polls: none may follow the signal.
        try await Task.sleep(for: .milliseconds(1500))
        #expect(provider.polls.count == pollsAtTheSignal, "a poll after the signal")
        #expect(access(state + "/callback-router/tokens.json", F_OK) != 0, "nothing is stored")
    }
}
