// Placeholder until its issue lands: refuses honestly instead of pretending.
enum PKCECommand: Command {
    static let name = "pkce"
    static let summary = "Print a PKCE code verifier and its S256 challenge"
    static let help = """
    OVERVIEW: Print a PKCE code verifier and its S256 challenge.

    USAGE: callback-router pkce [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
