// Placeholder until its issue lands: refuses honestly instead of pretending.
enum LoopbackCommand: Command {
    static let name = "loopback"
    static let summary = "Receive one callback on 127.0.0.1 (RFC 8252 §7.3)"
    static let help = """
    OVERVIEW: Receive one callback on 127.0.0.1 (RFC 8252 §7.3).

    USAGE: callback-router loopback [options]

    Not available in this build yet.

    """

    static func run(_ arguments: ArraySlice<String>, context: CommandContext) -> Int32 {
        context.printError("\(name): not available in this build yet")
        return ExitCode.unavailable
    }
}
