// Placeholder until its issue lands: refuses honestly instead of pretending.
enum AuthorizeURLCommand: Command {
    static let name = "authorize-url"
    static let summary = "Build an OAuth 2.0 / OIDC authorization request URL"
    static let help = """
    OVERVIEW: Build an OAuth 2.0 / OIDC authorization request URL.

    USAGE: callback-router authorize-url [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
