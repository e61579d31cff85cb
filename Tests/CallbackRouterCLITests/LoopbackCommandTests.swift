@testable import CallbackRouterCLI
import Testing

/// The command line of `loopback`: what it refuses before binding anything.
@Suite struct LoopbackCommandTests {
    func run(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let output = CapturedOutput()
        let code = CallbackRouterTool.run(["loopback"] + arguments,
                                          context: CommandContext(output: output, environment: [:], executablePath: "/x"))
        return (code, output.stdout, output.stderr)
    }

    @Test(arguments: [
        ("no state choice", []),
        ("both", ["--state", "s", "--no-state"]),
        ("empty state", ["--state", ""]),
        ("state with a newline", ["--state", "a\nb"]),
        ("state not ASCII", ["--state", "caf\u{e9}"]),
        ("state given twice", ["--state", "a", "--state", "b"]),
        ("port too large", ["--no-state", "--port", "65536"]),
        ("negative port", ["--no-state", "--port", "-1"]),
        ("path without slash", ["--no-state", "--path", "callback"]),
        ("path with query", ["--no-state", "--path", "/cb?x=1"]),
        ("path with fragment", ["--no-state", "--path", "/cb#x"]),
        ("path with space", ["--no-state", "--path", "/c b"]),
        ("path with bad escape", ["--no-state", "--path", "/c%zz"]),
        ("zero timeout", ["--no-state", "--timeout", "0"]),
        ("negative timeout", ["--no-state", "--timeout", "-3"]),
        ("nan timeout", ["--no-state", "--timeout", "nan"]),
        ("huge timeout", ["--no-state", "--timeout", "1e9"]),
        ("unknown dialect", ["--no-state", "--dialect", "saml"]),
        ("positional", ["--no-state", "http://127.0.0.1/"]),
        ("unknown option", ["--no-state", "--bind", "0.0.0.0"]),
        ("empty file name", ["--no-state", "--redirect-uri-file", ""]),
    ])
    func refusesBadUsageBeforeBinding(_ name: String, _ arguments: [String]) {
        let result = run(arguments)
        #expect(result.code == ExitCode.usage, "\(name)")
        #expect(result.stdout.isEmpty, "\(name): nothing on stdout, so a script reading line 1 sees EOF")
        #expect(result.stderr.contains("Try 'callback-router loopback --help'"), "\(name)")
    }

    @Test func helpDocumentsTheTwoLineContractAndEveryOption() {
        let result = run(["--help"])
        #expect(result.code == ExitCode.success)
        #expect(result.stdout.contains("{\"redirect_uri\":\"http://127.0.0.1:PORT/callback\"}"))
        for option in LoopbackCommand.options.union(LoopbackCommand.flags) {
            #expect(result.stdout.contains("--\(option)"), "--\(option) is not in --help")
        }
    }

    @Test func unwritableRedirectURIFileIsAUsageError() {
        let result = run(["--no-state", "--timeout", "5", "--redirect-uri-file", "/nonexistent-directory/uri"])
        #expect(result.code == ExitCode.usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--redirect-uri-file"))
    }

    @Test(arguments: ["/", "/callback", "/a/b-c_d.e~f", "/%7Euser", "/cb;x=1"])
    func acceptsPathsTheParserReadsBackUnchanged(_ path: String) {
        #expect(LoopbackCommand.isValidPath(path))
    }
}
