// Placeholder until its issue lands: refuses honestly instead of pretending.
enum OpenCommand: Command {
    static let name = "open"
    static let summary = "Hand a callback URL to the process waiting for it (run by xdg-open)"
    static let help = """
    OVERVIEW: Hand a callback URL to the process waiting for it (run by xdg-open).

    USAGE: callback-router open [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
