import CallbackDesktop
/// How `listen` judges the callback it received: exactly as `parse` would, with the same
/// options. This is the one place that knows how; `listen`'s output is `parse`'s output.
enum ListenValidation {
    /// The `parse` options `listen` accepts and passes on unchanged.
    static let parseOptions: [String] = [
        "dialect", "redirect-uri", "policy", "state", "issuer", "response-mode", "profile",
        "max-length", "max-parameters", "max-value-length",
    ]
    static let parseFlags: [String] = ["require-issuer", "allow-localhost"]

    /// `parse`'s arguments for these `listen` arguments, in a stable order.
    /// `excluding` names options left out (`response-mode`, which `parse --logout` refuses).
    static func parseArguments(from args: Arguments, excluding: Set<String> = []) -> [String] {
        var result: [String] = []
        for option in parseOptions where !excluding.contains(option) {
            for value in args.all(option) { result += ["--" + option, value] }
        }
        for flag in parseFlags where args.has(flag) { result.append("--" + flag) }
        return result
    }

    struct Verdict {
        let standardOutput: String
        let standardError: String
        let exitCode: Int32

        /// The reason code of a refusal (`parse` prints `{"outcome":"rejected","reason":"…"`
        /// first), nil for any other outcome.
        var rejectionReason: String? {
            let prefix = "{\"outcome\":\"rejected\",\"reason\":\""
            guard standardOutput.hasPrefix(prefix) else { return nil }
            return String(standardOutput.dropFirst(prefix.count).prefix { $0 != "\"" })
        }
    }

    /// Refusals that say a callback belongs to no login of this listener (another redirect
    /// URI, no state or another one): the listener stays waiting, as a router keeps an
    /// attempt pending. Any other refusal of a callback routed here (it carries the expected
    /// state, or the listener expects none) ends the wait.
    static let notMineReasons: Set<String> = ["redirect_uri_mismatch", "state_missing", "state_mismatch"]

    /// Whether `listen` takes `url` as its own: `parse` would not refuse it as another
    /// login's (``notMineReasons``).
    static func isMine(url: String, parseArguments: [String], environment: [String: String]) -> Bool {
        let reason = validate(url: url, parseArguments: parseArguments, environment: environment).rejectionReason
        return reason.map { !notMineReasons.contains($0) } ?? true
    }

    /// Runs `parse` in-process on `url`.
    static func validate(url: String, parseArguments: [String], environment: [String: String]) -> Verdict {
        let captured = CapturedOutput()
        let context = CommandContext(output: captured, environment: environment, executablePath: "")
        let exit = ParseCommand.run(ArraySlice(parseArguments + ["--", url]), context: context)
        return Verdict(standardOutput: captured.stdout, standardError: captured.stderr, exitCode: exit)
    }

    /// Checks the options before waiting (a typo should not cost the user a login): `parse`
    /// answers 64 for a bad option or an invalid `--redirect-uri` whatever the URL.
    static func checkOptions(parseArguments: [String], scheme: CallbackScheme, environment: [String: String]) -> Verdict? {
        let verdict = validate(url: scheme.name + ":/", parseArguments: parseArguments, environment: environment)
        switch verdict.exitCode {
        case ExitCode.usage, ExitCode.unavailable: return verdict
        default: return nil
        }
    }
}
