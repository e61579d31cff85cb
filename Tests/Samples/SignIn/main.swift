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

// The first sample of README.md and docs/getting-started.md, run by the interop suite
// (Tests/Interop/django.sh) against django-oauth-toolkit. The lines between the two
// markers are that sample's, byte for byte (FirstSampleTests compares them); the lines
// before give it what the pages' preludes give it.
//
//   SIGN_IN_ISSUER=… SIGN_IN_CLIENT_ID=… SIGN_IN_START_FILE=… sign-in-sample
//
// `openInBrowser` writes the URL to SIGN_IN_START_FILE, where the suite's headless
// Chromium takes it. Prints "Signed in as SUBJECT" and exits 0, or the error's description
// on stderr and exits 1.

import CallbackRouterFoundation
import Foundation

let environment = ProcessInfo.processInfo.environment
let issuer = environment["SIGN_IN_ISSUER"] ?? ""
let clientID = environment["SIGN_IN_CLIENT_ID"] ?? ""
let startFile = environment["SIGN_IN_START_FILE"] ?? ""

/// Hands the URL to the browser: here, the file the suite's browser reads.
func openInBrowser(_ url: URL) {
    _ = FileManager.default.createFile(atPath: startFile + ".tmp", contents: Data((url.absoluteString + "\n").utf8))
    _ = try? FileManager.default.moveItem(atPath: startFile + ".tmp", toPath: startFile)
}

do {
    // sample begins
    let signIn = try await SignIn.loopback(issuer: issuer, clientID: clientID, scope: "openid profile") { url in
        openInBrowser(url)
    }
    print("Signed in as \(signIn.claims?.subject ?? "?")")
    // sample ends
} catch {
    FileHandle.standardError.write(Data("sign-in-sample: \(error.localizedDescription)\n".utf8))
    exit(1)
}
