// Placeholder until its issue lands: refuses honestly instead of pretending.
enum ListenCommand: Command {
    static let name = "listen"
    static let summary = "Wait for one callback of a scheme and print it as parse does"
    static let help = """
    OVERVIEW: Wait for one callback of a scheme and print it as parse does.

    USAGE: callback-router listen [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
