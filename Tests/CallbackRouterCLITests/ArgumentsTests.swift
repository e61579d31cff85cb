import Testing
@testable import CallbackRouterCLI

/// Usage errors name what was wrong without echoing what may be a secret.
@Suite struct ArgumentsTests {
    private func run(_ arguments: [String]) -> (exit: Int32, stdout: String, stderr: String) {
        let output = CapturedOutput()
        let exit = CallbackRouterTool.run(arguments, context: CommandContext(output: output, environment: [:], executablePath: "/x"))
        return (exit, output.stdout, output.stderr)
    }

    @Test(arguments: [
        ["parse", "--stat=S3cr3tStateValue+/=", "myapp://cb?code=a&state=b"],
        ["parse", "-S3cr3tStateValue", "myapp://cb?code=a&state=b"],
        ["pkce", "myapp://cb?code=S3cr3tStateValue"],
        ["inspect", "--max-length=10", "--S3cr3tStateValue=1", "x:y"],
        ["listen", "--scheme", "myapp", "S3cr3tStateValue"],
        ["register", "--scheme", "myapp", "myapp://cb?code=S3cr3tStateValue"],
    ])
    func neverEchoesAnUnknownArgumentThatLooksLikeData(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.exit == ExitCode.usage)
        #expect(!result.stderr.contains("S3cr3tStateValue"), "\(result.stderr)")
        #expect(!result.stdout.contains("S3cr3tStateValue"))
    }

    @Test func namesAPlainUnknownOption() {
        #expect(run(["parse", "--frobnicate", "x:y"]).stderr.contains("unknown option '--frobnicate'"))
    }

    /// Fuzz-cli reproducer (crash-7e5edc3d…): `--issuer=` followed by a combining mark was
    /// not split at its '=' (a Character search sees "=" + U+0732 as one grapheme), so the
    /// whole argument, value included, was echoed as an unknown option.
    @Test func splitsAnOptionAtItsEqualsSignWhateverFollows() throws {
        let parsed = try Arguments(["--issuer=\u{0732}W:"], options: ["issuer"], flags: [])
        #expect(try parsed.single("issuer") == "\u{0732}W:")
        let result = run(["parse", "--issuer=\u{0732}W:", "myapp://cb?code=a&state=b"])
        #expect(!result.stderr.contains("unknown option"))
        #expect(!result.stderr.contains("W:"))
    }
}
