// Placeholder until its issue lands: refuses honestly instead of pretending.
enum UnregisterCommand: Command {
    static let name = "unregister"
    static let summary = "Undo what register did for a scheme"
    static let help = """
    OVERVIEW: Undo what register did for a scheme.

    USAGE: callback-router unregister [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
