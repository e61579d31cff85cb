/// Why a hand-off or a registration did not happen, with the exit code design.md gives it. `message` names
/// paths and reasons, never a URL or a parameter value.
struct HelperFailure: Error, CustomStringConvertible {
    let exitCode: Int32
    let message: String

    /// A bad mode or owner, a foreign peer or socket (77).
    static func permission(_ message: String) -> HelperFailure {
        HelperFailure(exitCode: ExitCode.permission, message: message)
    }

    /// Nothing to deliver to, or the system refused (69).
    static func unavailable(_ message: String) -> HelperFailure {
        HelperFailure(exitCode: ExitCode.unavailable, message: message)
    }

    var description: String { message }
}

extension HelperFailure {
    /// Bad usage or a configuration the helper will not touch (64).
    static func usage(_ message: String) -> HelperFailure {
        HelperFailure(exitCode: ExitCode.usage, message: message)
    }
}
