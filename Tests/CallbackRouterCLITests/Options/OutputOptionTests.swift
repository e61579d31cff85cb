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
import CallbackSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CallbackTestSupport
import Testing

/// `refresh --output FILE` / `login --output FILE` (issue 33, point 5): `refresh > tokens.json`
/// under umask 022 left both tokens readable by every user. The file is written atomically,
/// 0600 whatever the umask, never through a link, never over another user's file.
@Suite(.serialized) struct OutputOptionTests {
    /// A refresh through the fake curl with `--output path`; the run and the fake.
    static func refresh(output path: String, tokenStatus: Int = 200) throws -> (exit: Int32, out: String, err: String) {
        let curl = try FakeCurl()
        defer { curl.remove() }
        try curl.answer(
            "token", status: tokenStatus,
            body: tokenStatus == 200 ? RefreshCommandTests.tokens : #"{"error":"invalid_grant"}"#)
        return runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token", "--output", path],
            environment: curl.environment, stdin: "RT-1\n")
    }

    static func contents(_ path: String) -> String? {
        (try? FileSystem.readFile(path)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theTokensFileIsMode0600UnderUmask022AndStdoutGetsNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/tokens.json"
        let previous = umask(0o022)
        defer { umask(previous) }
        let run = try Self.refresh(output: path)
        #expect(run.exit == 0, "\(run.err)")
        #expect(run.out.isEmpty, "the tokens go to the file only")
        let status = try #require(try FileSystem.status(path))
        #expect(status.kind == .regular && status.permissions == 0o600 && status.owner == getuid())
        #expect(Self.contents(path)?.hasPrefix(#"{"outcome":"tokens","access_token":"AT-new-0123""#) == true)
        #expect(try FileSystem.entries(directory.path) == ["tokens.json"], "no temporary file left beside it")
    }

    @Test func anExistingFileIsReplacedByANewOneNotRewrittenInPlace() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/tokens.json"
        try FileSystem.writeAtomically(path, Array("old\n".utf8), mode: 0o644)
        let before = try #require(try FileSystem.status(path))
        let run = try Self.refresh(output: path)
        #expect(run.exit == 0, "\(run.err)")
        let after = try #require(try FileSystem.status(path))
        #expect(after.inode != before.inode, "renamed over, so a reader sees the old file or the new one whole")
        #expect(after.permissions == 0o600, "the old file's 0644 is not inherited")
        #expect(Self.contents(path)?.contains("AT-new-0123") == true)
    }

    @Test func aSymbolicLinkIsRefusedAndWhatItPointsToIsUntouched() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.path + "/elsewhere", link = directory.path + "/tokens.json"
        try FileSystem.writeAtomically(target, Array("precious\n".utf8), mode: 0o644)
        #expect(symlink(target, link) == 0)
        let run = try Self.refresh(output: link)
        #expect(run.exit == ExitCode.ioError)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("refresh: the tokens were issued and could not be written to the --output file (refuse a symbolic link"))
        #expect(Self.contents(target) == "precious\n")
        #expect(try FileSystem.status(link)?.kind == .symbolicLink)
    }

    @Test(.enabled(if: geteuid() == 0, "chown to another uid needs root"))
    func aFileOfAnotherUserIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/tokens.json"
        try FileSystem.writeAtomically(path, Array("theirs\n".utf8), mode: 0o644)
        #expect(chown(path, 65534, 65534) == 0)
        let run = try Self.refresh(output: path)
        #expect(run.exit == ExitCode.ioError)
        #expect(run.err.contains("(refuse another user's file"))
        #expect(Self.contents(path) == "theirs\n")
    }

    @Test func aDirectoryOthersCanChangeIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let open = directory.privateSubdirectory("open", mode: 0o777)
        let run = try Self.refresh(output: open + "/tokens.json")
        #expect(run.exit == ExitCode.ioError)
        #expect(run.err.contains("(refuse a directory other users can change"))
        #expect(try FileSystem.entries(open).isEmpty)
    }

    @Test func aFileThatCannotBeWrittenIsExit74WithTheTokensLine() throws {
        let run = try Self.refresh(output: "/nonexistent-directory/tokens.json")
        #expect(run.exit == ExitCode.ioError)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("the tokens were issued and could not be written to the --output file"))
        #expect(!run.err.contains("/nonexistent-directory"), "stderr repeats no argument's value")
    }

    /// A failed refresh must not replace the file holding the refresh token it read.
    @Test func aFailureIsPrintedOnStdoutAndTheFileIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/tokens.json"
        try FileSystem.writeAtomically(path, Array("previous tokens\n".utf8), mode: 0o600)
        let run = try Self.refresh(output: path, tokenStatus: 400)
        #expect(run.exit == ExitCode.providerFailure)
        #expect(run.out.hasPrefix(#"{"outcome":"token_error","error":"invalid_grant""#))
        #expect(Self.contents(path) == "previous tokens\n")
    }

    @Test func anEmptyFileNameIsAUsageError() {
        let run = runWithStdin(
            ["refresh", "--client-id", "app", "--token-endpoint", "https://op.example/token", "--output", ""],
            environment: ["PATH": "/nonexistent"], stdin: "RT-1\n")
        #expect(run.exit == ExitCode.usage)
        #expect(run.err.contains("--output needs a file name"))
    }

    @Test func loginWritesItsResultToTheFileWithMode0600() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/login.json"
        let run = try LoginTokenStepTests.login(extra: ["--output", path]) { nonce in
            LoginTokenStepTests.tokens(IDTokens.make(IDTokens.claims(nonce: nonce)))
        }
        defer { run.curl.remove() }
        #expect(run.exit == 0, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(try FileSystem.status(path)?.permissions == 0o600)
        #expect(Self.contents(path)?.contains(#""access_token":"AT-login-1""#) == true)
    }
}
