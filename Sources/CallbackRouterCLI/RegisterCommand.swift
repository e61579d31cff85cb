// Placeholder until its issue lands: refuses honestly instead of pretending.
enum RegisterCommand: Command {
    static let name = "register"
    static let summary = "Register callback-router as the handler of a URL scheme"
    static let help = """
    OVERVIEW: Register callback-router as the handler of a URL scheme.

    USAGE: callback-router register [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
