/// Why a hand-off did not happen, with the exit code design.md gives it. `message` names
/// paths and reasons, never a URL or a parameter value.
struct HandoffFailure: Error, CustomStringConvertible {
    let exitCode: Int32
    let message: String

    /// A bad mode or owner, a foreign peer or socket (77).
    static func permission(_ message: String) -> HandoffFailure {
        HandoffFailure(exitCode: ExitCode.permission, message: message)
    }

    /// Nothing to deliver to, or the system refused (69).
    static func unavailable(_ message: String) -> HandoffFailure {
        HandoffFailure(exitCode: ExitCode.unavailable, message: message)
    }

    var description: String { message }
}
