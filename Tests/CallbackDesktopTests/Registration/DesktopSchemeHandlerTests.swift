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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackDesktop
import CallbackRouter
import CallbackSystem
import Testing

@Suite struct DesktopSchemeHandlerTests {
    @Test func registersAndUnregistersTheScheme() throws {
        let sandbox = Sandbox()
        let handler = try DesktopSchemeHandler(scheme: "MyApp", environment: sandbox.environment)
        #expect(handler.scheme == "myapp")
        #expect(!handler.isRegistered)
        let report = try handler.register(executablePath: "/usr/bin/callback-router")
        #expect(report.changedDesktopFile && report.changedMimeApps)
        #expect(handler.isRegistered)
        let entry = sandbox.read(handler.desktopFilePath) ?? ""
        #expect(entry.contains("Exec=/usr/bin/callback-router open %u"))
        #expect(entry.contains("MimeType=x-scheme-handler/myapp;"))
        #expect(try handler.currentDefault() == handler.desktopFilePath.split(separator: "/").last.map(String.init))
        let again = try handler.register(executablePath: "/usr/bin/callback-router")
        #expect(!again.changedDesktopFile && !again.changedMimeApps, "registering twice changes nothing")
        #expect(try handler.unregister() != nil)
        #expect(!sandbox.exists(handler.desktopFilePath))
        #expect(try handler.unregister() == nil)
    }

    @Test(arguments: ["http", "https", "javascript", "my_app", ""])
    func refusesSchemesThatAreNotCallbacks(scheme: String) {
        let sandbox = Sandbox()
        do {
            _ = try DesktopSchemeHandler(scheme: scheme, environment: sandbox.environment)
            Issue.record("accepted \(scheme)")
        } catch {
            #expect(error.code == .usage)
        }
    }
}
