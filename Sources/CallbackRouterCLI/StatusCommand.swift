// Placeholder until its issue lands: refuses honestly instead of pretending.
enum StatusCommand: Command {
    static let name = "status"
    static let summary = "Say what is registered for a scheme"
    static let help = """
    OVERVIEW: Say what is registered for a scheme.

    USAGE: callback-router status [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
