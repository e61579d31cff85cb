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

@testable import CallbackLoopback
import CallbackRouter
import CallbackSystem
import CallbackTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The start link served alone, for a login whose callback comes back through a
/// custom scheme: the browser's command line carries the link, never the authorization URL.
/// Real sockets throughout.
@Suite struct LoopbackStartLinkTests {
    static let authorization = "https://id.example/authorize?client_id=a&state=s-secret&code_challenge=ch&nonce=n-secret"

    @Test func redirectsOnceThenSays410AndServesNothingElse() throws {
        let link = try LoopbackStartLink(authorizationURL: Self.authorization)
        defer { link.close() }
        let prefix = "http://127.0.0.1:\(link.port)/start/"
        #expect(link.url.hasPrefix(prefix))
        let token = String(link.url.dropFirst(prefix.count))
        #expect((Base64URL.decode(token)?.count ?? 0) * 8 >= 256, "256 random bits")
        #expect(try LoopbackStartLink(authorizationURL: Self.authorization).url != link.url, "each link draws its own")
        let path = "/start/" + token

        for target in ["/", "/callback?code=c&state=s-secret", "/start/", "/start/" + String(token.dropLast())] {
            let answer = try RawClient.get(port: link.port, target)
            #expect(answer.statusCode == 404, "\(target): \(answer.text)")
            #expect(!answer.text.contains("s-secret") && !answer.text.contains("id.example"))
        }
        let rebinding = try RawClient.get(port: link.port, path, fields: ["Host: evil.example:\(link.port)"])
        #expect(rebinding.statusCode == 403 && !rebinding.text.contains("id.example"), "DNS rebinding")
        let head = try RawClient.get(port: link.port, path, method: "HEAD")
        #expect(head.statusCode == 200 && head.header("location") == nil, "HEAD neither reveals nor uses it")
        #expect(!link.wasUsed)

        let first = try RawClient.get(port: link.port, path)
        #expect(first.statusCode == 302)
        #expect(first.header("location") == Self.authorization)
        #expect(link.wasUsed)
        let second = try RawClient.get(port: link.port, path)
        #expect(second.statusCode == 410)
        #expect(second.body.contains("already used") && !second.text.contains("s-secret"))
    }

    @Test func closeClosesThePortBeforeItReturns() throws {
        let link = try LoopbackStartLink(authorizationURL: Self.authorization)
        #expect(isListening(port: link.port))
        link.close()
        #expect(!isListening(port: link.port))
        link.close()
    }

    @Test func aLifetimeOfZeroServesNothing() throws {
        let link = try LoopbackStartLink(authorizationURL: Self.authorization, .init(lifetime: .zero))
        link.close()
        #expect(!isListening(port: link.port))
    }

    @Test(arguments: ["javascript:alert(1)", "myapp:/callback?state=s", "https://id.example/a\r\nSet-Cookie: x=y", ""])
    func anAuthorizationURLThatCannotBeALocationIsRefused(url: String) {
        do {
            _ = try LoopbackStartLink(authorizationURL: url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    #if os(Linux)
    /// The test cannot switch users: the link answers only another uid, so that its own
    /// connections are "another user's" (Tests/EndToEnd/scheme-start.sh does it with a real
    /// second uid).
    @Test func anotherUsersConnectionGets403BeforeItsRequestAndNeverUsesTheLink() throws {
        var configuration = LoopbackStartLink.Configuration()
        configuration.acceptedUser = geteuid() &+ 1
        let lines = Locked<[String]>([])
        let link = try LoopbackStartLink(authorizationURL: Self.authorization, configuration) { line in
            lines.withLock { $0.append(line) }
        }
        defer { link.close() }
        let silent = try RawClient(port: link.port)
        let unasked = silent.readAll()
        silent.close()
        #expect(unasked.statusCode == 403, "written before any request was read")
        let path = String(link.url.dropFirst("http://127.0.0.1:\(link.port)".count))
        let answer = try RawClient.get(port: link.port, path)
        #expect(answer.statusCode == 403 && answer.header("location") == nil && !answer.text.contains("s-secret"))
        #expect(!link.wasUsed)
        #expect(lines.withLock { $0 }.contains { $0.contains("answered 403 to a connection from user id \(geteuid())") })
    }
    #endif
}
