// Placeholder until its issue lands: refuses honestly instead of pretending.
enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "Validate a callback URL and print what it means"
    static let help = """
    OVERVIEW: Validate a callback URL and print what it means.

    USAGE: callback-router parse [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
